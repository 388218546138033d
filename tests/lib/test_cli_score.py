"""Tests of ``labelrank score``: the CLI run as a subprocess on good and bad files, and its file readers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from labelrank import cli
from labelrank.cli import UsageError, main, read_run, read_truth, write_run, write_truth
from labelrank.hierarchy import LabelTree
from labelrank.metrics.cost_scorer import CostScorer

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "data" / "fterm" / "2C088_figure1.yaml"
LABELS = set(LabelTree.from_file(TREE).labels)

TRUTH = """\
# patent  F-term
p1 AA01
p1 AA65
p2 BA
p3 AA03
"""
RUN = """\
p1 AA02 1 0.9
p1 AA01 2 0.8
p1 BA 3 0.4
p1 AA65 4 0.3

p2 BA-e1 2 0.6
p2 BA 1 0.7
"""


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "labelrank.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "truth.txt").write_text(TRUTH)
    (tmp_path / "run.txt").write_text(RUN)
    return tmp_path


def expected_means(**kw):
    tree = LabelTree.from_file(TREE)
    truth = [["AA01", "AA65"], ["BA"], ["AA03"]]
    ranking = [["AA02", "AA01", "BA", "AA65"], ["BA", "BA-e1"], []]
    assigned = kw.pop("assigned", [["AA02", "AA01"], ["BA", "BA-e1"], []])  # score >= 0.5
    return CostScorer.from_tree(tree).score(truth, ranking, assigned, **kw)


def parse_table(stdout: str) -> dict[str, list[float]]:
    rows = {}
    for line in stdout.splitlines()[2:]:
        if set(line) == {"="}:  # the rule above the row of means
            continue
        if line.startswith("(mean of "):
            line = "mean " + line.split(")", 1)[1]
        name, *values = line.split()
        rows[name] = [float(v) for v in values]
    return rows


def test_good_run_prints_the_three_measures_in_three_variants(files):
    res = run_cli("score", "--tree", str(TREE), "--truth", str(files / "truth.txt"), "--run", str(files / "run.txt"))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("run: ") and "3 documents, 1 not in the run: scored 0" in lines[0]
    assert lines[1].split() == ["binary", "BDM-High", "BDM-Low"]
    rows = parse_table(res.stdout)
    expected = expected_means()
    for measure in ("A-Precision", "R-Precision", "F-measure"):
        assert rows[measure] == pytest.approx(expected.loc[measure].to_list(), abs=5e-5)
    # p1's binary A-Precision (1/2 + 2/4) / 2 = 0.5, p2's 1, p3's 0: mean 0.5
    assert rows["A-Precision"][0] == pytest.approx(0.5, abs=5e-5)
    assert rows["A-Precision"][0] <= rows["A-Precision"][2] <= rows["A-Precision"][1]


def test_per_doc_top_and_cutoff_and_several_runs(files):
    res = run_cli("score", "--tree", str(TREE), "--truth", str(files / "truth.txt"), "--run", str(files / "run.txt"),
                  str(files / "run.txt"), "--per-doc", "--top", "1", "--cutoff", "2")
    assert res.returncode == 0, res.stderr
    blocks = res.stdout.strip().split("\n\n")
    assert len(blocks) == 2 and blocks[0] == blocks[1]
    lines = blocks[0].splitlines()
    assert lines[1].split()[:3] == ["AP.binary", "AP.BDM-High", "AP.BDM-Low"] and len(lines[1].split()) == 9
    rows = parse_table(blocks[0])
    assert list(rows) == ["p1", "p2", "p3", "mean"]
    expected = expected_means(assigned=[["AA02"], ["BA"], []], cutoff=2)
    assert rows["mean"][:3] == pytest.approx(expected.loc["A-Precision"].to_list(), abs=5e-5)
    assert rows["mean"][6:] == pytest.approx(expected.loc["F-measure"].to_list(), abs=5e-5)
    assert rows["p3"] == [0.0] * 9
    # cutoff 2: AA65 at rank 4 no longer counts for p1: binary A-Precision of p1 = (1/2) / 2
    assert rows["p1"][0] == pytest.approx(0.25)


def test_help_documents_the_formats():
    res = run_cli("score", "--help")
    assert res.returncode == 0
    for text in ("doc label rank score", "doc label", "--cutoff", "--per-doc", "BDM-High", "BDM-Low", "exit status"):
        assert text in res.stdout


@pytest.mark.parametrize(
    "which, content, message",
    [
        ("run", "p1 ZZ99 1 0.5\n", "run.txt:1: unknown label 'ZZ99' (not in the tree)"),
        ("truth", "p1 AA01\np1 QQ\n", "truth.txt:2: unknown label 'QQ' (not in the tree)"),
        ("run", "p1 AA01 1 0.5\np9 AA01 1 0.5\n", "run.txt:2: document 'p9' is not in the truth file"),
        ("run", "p1 AA01 1 0.5\np1 AA01 2 0.4\n", "run.txt:2: duplicate line for document 'p1', label 'AA01' "
                                                  "(first on line 1)"),
        ("truth", "p1 AA01\n\np1 AA01\n", "truth.txt:3: duplicate line for document 'p1', label 'AA01'"),
        ("run", "p1 AA01 1 high\n", "run.txt:1: score 'high' is not a finite number"),
        ("run", "", "run.txt: the run file is empty (no data lines)"),
        ("truth", "# only a comment\n\n", "truth.txt: the truth file is empty (no data lines)"),
    ],
)
def test_bad_input_exits_2_with_one_clear_message(files, capsys, which, content, message):
    """In-process through ``cli.main`` (the same code path as the console script; a subprocess costs ~1.5 s)."""
    (files / f"{which}.txt").write_text(content)
    code = cli.main(["score", "--tree", str(TREE), "--truth", str(files / "truth.txt"),
                     "--run", str(files / "run.txt")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    err = err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("labelrank: error: ") and message in err


@pytest.mark.parametrize(
    "which, content, message",
    [
        ("run", "p1 AA01 1 0.5\np9 AA01 1 0.5\n", "run.txt:2: document 'p9' is not in the truth file"),
        ("truth", "", "truth.txt: the truth file is empty (no data lines)"),
    ],
)
def test_bad_input_as_a_subprocess(files, which, content, message):
    (files / f"{which}.txt").write_text(content)
    res = run_cli("score", "--tree", str(TREE), "--truth", str(files / "truth.txt"), "--run", str(files / "run.txt"))
    assert res.returncode == 2 and res.stdout == ""
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and err == f"labelrank: error: {files / which}.txt{message[len(which) + 4:]}"


@pytest.mark.parametrize(
    "content, message",
    [
        ("p1 AA01 1\n", "run.txt:1: expected 4 columns 'doc label rank score' or 6 columns 'doc Q0 label rank score tag', got 3"),
        ("p1 AA01 0 0.5\n", "run.txt:1: rank '0' is not a positive integer"),
        ("p1 AA01 1.5 0.5\n", "run.txt:1: rank '1.5' is not a positive integer"),
        ("p1 AA01 1 nan\n", "run.txt:1: score 'nan' is not a finite number"),
        ("p1 AA01 1 0.5\np1 AA02 1 0.4\n", "run.txt:2: duplicate rank 1 for document 'p1' (first on line 1)"),
    ],
)
def test_read_run_errors(files, content, message):
    (files / "run.txt").write_text(content)
    with pytest.raises(UsageError) as info:
        read_run(files / "run.txt", LABELS, {"p1": ["AA01"]})
    assert message in str(info.value)


def test_readers_and_writers_round_trip(tmp_path):
    truth = {"d1": ["AA01", "BA"], "d2": ["AA65"]}
    ranking = {"d1": ["AA02", "AA01"], "d2": ["AA65", "BB", "AA"]}
    scores = {"d1": [0.9, 0.25], "d2": [3.0, 2.0, -1.5]}
    write_truth(tmp_path / "t", truth)
    write_run(tmp_path / "r", ranking, scores)
    assert read_truth(tmp_path / "t", LABELS) == truth
    run = read_run(tmp_path / "r", LABELS, truth)
    assert run.ranking == ranking and run.scores == scores
    # lines may come in any order: the rank column decides
    lines = (tmp_path / "r").read_text().splitlines()
    (tmp_path / "r2").write_text("\n".join(reversed(lines)) + "\n")
    assert read_run(tmp_path / "r2", LABELS, truth).ranking == ranking
    with pytest.raises(UsageError, match="expected 2 columns"):
        (tmp_path / "t3").write_text("d1 AA01 extra\n")
        read_truth(tmp_path / "t3", LABELS)
    with pytest.raises(UsageError, match="truth file not found"):
        read_truth(tmp_path / "missing", LABELS)


def test_bad_tree_and_options_in_process(files, capsys):
    (files / "tree.yaml").write_text("a: null\nb: c\n")
    args = ["score", "--truth", str(files / "truth.txt"), "--run", str(files / "run.txt")]
    assert cli.main([*args, "--tree", str(files / "tree.yaml")]) == 2
    assert "tree.yaml: not a valid tree file: unknown parent label" in capsys.readouterr().err
    assert cli.main([*args, "--tree", str(files / "nope.yaml")]) == 2
    assert "nope.yaml: tree file " in (err := capsys.readouterr().err) and "nope.yaml' does not exist" in err
    assert cli.main([*args, "--tree", str(TREE), "--cutoff", "0"]) == 2
    assert "--cutoff must be a positive integer, got '0'" in capsys.readouterr().err
    assert cli.main([*args, "--tree", str(TREE), "--threshold", "0.85"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: [float(v) for v in line.split()[1:]] for line in out.splitlines()[2:]}
    expected = expected_means(assigned=[["AA02"], [], []])
    assert rows["F-measure"] == pytest.approx(expected.loc["F-measure"].to_list(), abs=5e-5)
    assert np.isfinite(rows["F-measure"]).all()


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf"])
def test_non_finite_threshold_is_a_usage_error(files, capsys, value):
    """NaN would silently assign nothing (every comparison with NaN is False): exit code 2 and a message."""
    args = ["score", "--tree", str(TREE), "--truth", str(files / "truth.txt"), "--run", str(files / "run.txt")]
    assert cli.main([*args, f"--threshold={value}"]) == 2
    captured = capsys.readouterr()
    assert "labelrank: error: --threshold must be a finite number, got" in captured.err and captured.out == ""


# ------------------------------------------------------------------------ regressions: no silent wrong answer
README_TRUTH = "p1 AA01\np1 AA65\np2 BA\n"
README_RUN = "p1 AA02 1 0.90\np1 AA01 2 0.80\np1 BA 3 0.40\np1 AA65 4 0.30\np2 BA 1 0.70\np2 BA-e1 2 0.60\n"


def score_in_process(capsys, truth: Path, *runs: str, extra=()):
    code = cli.main(["score", "--tree", str(TREE), "--truth", str(truth), *[a for r in runs for a in ("--run", r)],
                     *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("where", ["truth", "run", "both"])
def test_a_utf8_byte_order_mark_changes_nothing(tmp_path, capsys, where):
    """Windows editors start files with a BOM; it once turned document p1 into '\\ufeffp1' (A-Precision 0.4167)."""
    bom = "\ufeff"
    (tmp_path / "truth.txt").write_text((bom if where in ("truth", "both") else "") + README_TRUTH, encoding="utf-8")
    (tmp_path / "run.txt").write_text((bom if where in ("run", "both") else "") + README_RUN, encoding="utf-8")
    code, out, err = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "run.txt"))
    assert code == 0 and err == ""
    rows = parse_table(out)
    assert rows["A-Precision"] == [0.75, 0.9195, 0.8129]


def test_a_one_label_first_document_with_a_bom(tmp_path, capsys):
    (tmp_path / "truth.txt").write_text("\ufeffp2 BA\np1 AA01\n", encoding="utf-8")
    (tmp_path / "run.txt").write_text("p2 BA 1 0.9\n", encoding="utf-8")
    code, out, err = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "run.txt"))
    assert code == 0 and err == "" and parse_table(out)["A-Precision"][0] == 0.5


@pytest.mark.parametrize(
    "data, message",
    [
        ("\ufeffp1 AA01\n".encode("utf-16"), "is UTF-16"),
        ("p1 AA01\n\ufeffp1 AA65\n".encode("utf-8"), "truth.txt:2: a byte-order mark (U+FEFF) inside the truth file"),
        (b"p1 AA01\np1 \xff\n", "truth.txt:2: the truth file is not UTF-8"),
    ],
)
def test_other_encodings_and_a_stray_bom_are_named(tmp_path, capsys, data, message):
    (tmp_path / "truth.txt").write_bytes(data)
    (tmp_path / "run.txt").write_text(README_RUN)
    code, out, err = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "run.txt"))
    assert code == 2 and out == "" and message in err


def test_repeated_run_options_score_every_run(tmp_path, capsys):
    """``--run a --run b`` once scored only b."""
    (tmp_path / "truth.txt").write_text(README_TRUTH)
    (tmp_path / "a.txt").write_text(README_RUN)
    (tmp_path / "b.txt").write_text("p1 AA01 1 0.9\n")
    (tmp_path / "c.txt").write_text("p2 BA 1 0.9\n")
    code, out, _ = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                                    extra=["--run", str(tmp_path / "c.txt")])
    assert code == 0
    assert [line.split()[1] for line in out.splitlines() if line.startswith("run: ")] == [
        str(tmp_path / n) for n in ("a.txt", "b.txt", "c.txt")]


def test_a_document_called_mean_keeps_its_row(tmp_path, capsys):
    (tmp_path / "truth.txt").write_text("mean AA01\np2 BA\n")
    (tmp_path / "run.txt").write_text("mean AA01 1 0.9\np2 AA01 1 0.9\n")
    code, out, _ = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "run.txt"), extra=["--per-doc"])
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split()[0] == "mean" and lines[2].split()[1] == "1.0000"  # the document
    assert lines[3].split()[0] == "p2" and set(lines[4]) == {"="}
    assert lines[5].startswith("(mean of 2)") and lines[5].split()[3] == "0.5000"


def test_ranks_and_scores_that_disagree_give_a_warning_with_a_count(tmp_path, capsys):
    (tmp_path / "truth.txt").write_text("d1 AA01\nd2 BA\nd3 BA\n")
    (tmp_path / "run.txt").write_text("d1 BA 2 0.9\nd1 AA01 1 0.1\nd2 BA 1 0.9\nd2 AA01 2 0.5\nd3 BA 1 0.2\n"
                                      "d3 AA01 2 0.7\n")
    code, out, err = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "run.txt"))
    assert code == 0 and "ranks and scores disagree in 2 of 3 documents" in err and "--order rank" in err
    assert parse_table(out)["A-Precision"][0] == 1.0
    code, out, err = score_in_process(capsys, tmp_path / "truth.txt", str(tmp_path / "run.txt"),
                                      extra=["--order", "score"])
    assert code == 0 and "disagree in 2 of 3 documents" in err and "--order score" in err
    assert parse_table(out)["A-Precision"][0] == pytest.approx((0.5 + 1 + 0.5) / 3, abs=5e-5)  # d1, d3 reversed


def test_order_score_breaks_ties_by_label_descending_and_ignores_the_rank_column(tmp_path):
    (tmp_path / "run.txt").write_text("d1 AA 0 0.9\nd1 AA01 1 0.5\nd1 BA 1 0.5\nd1 AA65 7 0.5\nd1 BB -3 0.1\n")
    run = read_run(tmp_path / "run.txt", LABELS, {"d1"}, order="score")
    assert run.ranking["d1"] == ["AA", "BA", "AA65", "AA01", "BB"]
    with pytest.raises(UsageError, match="rank '0' is not a positive integer"):
        read_run(tmp_path / "run.txt", LABELS, {"d1"}, order="rank")


@pytest.mark.parametrize(
    "rank, score, message",
    [
        ("1_0", "0.5", "rank '1_0' is not a positive integer"),
        ("\u0661", "0.5", "rank '\u0661' is not a positive integer"),
        ("1", "0_5", "score '0_5' is not a finite number"),
        ("1", "\u0661", "score '\u0661' is not a finite number"),
        ("1", "0x10", "score '0x10' is not a finite number"),
        ("1", "infinity", "score 'infinity' is not a finite number"),
        ("1", "1e999", "score '1e999' is not a finite number"),
    ],
)
def test_numbers_are_ascii_decimals_only(tmp_path, rank, score, message):
    """Python's int() and float() read '1_0' as 10 and Arabic-Indic digits as digits."""
    (tmp_path / "run.txt").write_text(f"p1 AA01 {rank} {score}\n", encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        read_run(tmp_path / "run.txt", LABELS, {"p1"})


@pytest.mark.parametrize("option, value", [("--cutoff", "1_0"), ("--top", "\u0662"), ("--threshold", "0_5")])
def test_options_are_parsed_as_strictly_as_the_files(files, capsys, option, value):
    code, out, err = score_in_process(capsys, files / "truth.txt", str(files / "run.txt"), extra=[option, value])
    assert code == 2 and out == "" and f"{option} must be" in err and repr(value) in err


def test_a_huge_line_gives_a_short_message(files, capsys):
    (files / "run.txt").write_text("p1 " + "A" * 1_000_000 + " 1 0.5\n")
    code, _, err = score_in_process(capsys, files / "truth.txt", str(files / "run.txt"))
    assert code == 2 and len(err) < 300 and "1,000,000 characters" in err


def test_a_closed_stdout_ends_quietly(files):
    """``labelrank score ... | head -1`` once ended in a BrokenPipeError traceback."""
    big_truth = "".join(f"d{i} AA01\n" for i in range(3000))
    (files / "truth.txt").write_text(big_truth)
    cmd = (f"{sys.executable} -m labelrank.cli score --tree {TREE} --truth {files / 'truth.txt'} "
           f"--run {files / 'run.txt'} --per-doc | head -1")
    (files / "run.txt").write_text("d0 AA01 1 0.9\n")
    res = subprocess.run(["bash", "-c", f"set -o pipefail; {cmd}"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert res.stdout.startswith("run: ") and res.stderr == "" and res.returncode == 141


def test_measures_add_the_hierarchical_f_of_the_assigned_set(tmp_path):
    """--measures hF LCA-F: each document's F of the assigned set under the set- and pair-based measures, averaged
    like the other rows (macro), for the threshold and the top-K rule; --per-doc shows each document's."""
    import numpy as np

    from labelrank.cli import read_run, read_truth, score_run, write_run, write_truth
    from labelrank.hierarchy import LabelTree
    from labelrank.metrics import CostScorer, hierarchical_prf, lca_prf

    tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a", "b1": "b", "b2": "b"})
    truth = {"d1": ["a1"], "d2": ["b1", "a2"], "d3": ["b2"]}
    ranking = {"d1": ["a2", "b1", "a1"], "d2": ["b2", "a2"], "d3": ["a1", "b2"]}
    scores = {"d1": [0.9, 0.7, 0.2], "d2": [0.8, 0.6], "d3": [0.6, 0.55]}
    write_truth(tmp_path / "t.txt", truth)
    write_run(tmp_path / "r.txt", ranking, scores)
    t = read_truth(tmp_path / "t.txt", tree.labels)
    run = read_run(tmp_path / "r.txt", tree.labels, t)
    scorer = CostScorer.from_tree(tree)
    for options, assigned in (({}, {d: [x for x, s in zip(ranking[d], scores[d]) if s >= 0.5] for d in truth}),
                              ({"top": 1}, {d: ranking[d][:1] for d in truth})):
        table = score_run(scorer, t, run, measures=["hF", "LCA-F"], tree=tree, **options)
        docs = list(truth)
        for measure, func in (("hF", hierarchical_prf), ("LCA-F", lca_prf)):
            expected = np.mean([func(tree, [truth[d]], [assigned[d]])[2] for d in docs])
            assert table.loc["F-measure", measure] == pytest.approx(expected)
            assert func(tree, [truth[d] for d in docs], [assigned[d] for d in docs], average="macro")[2] == \
                pytest.approx(expected)
            assert np.isnan(table.loc["A-Precision", measure])
        per_doc = score_run(scorer, t, run, measures=["hF"], tree=tree, per_document=True, **options)
        assert per_doc[("F-measure", "hF")].mean() == pytest.approx(table.loc["F-measure", "hF"])
    # the option is checked like the others
    out = subprocess.run([sys.executable, "-m", "labelrank.cli", "score", "--tree", "t", "--truth", "t", "--run", "r",
                          "--measures", "F1"], capture_output=True, text=True)
    assert out.returncode == 2 and "invalid choice: 'F1'" in out.stderr


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_text_table_is_what_pandas_prints(data):
    """cli.text_table (the command line's tables, without pandas) against DataFrame.to_string on random tables:
    labels of any width, negative numbers, NaN cells with either representation (a column of NaN only, which the
    command line never prints, is left out)."""
    import pandas as pd

    from labelrank.cli import text_table

    word = st.text(alphabet="abcAB-._()1 ", min_size=1, max_size=14).map(lambda w: w.strip() or "x")
    n_rows, n_cols = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    index = data.draw(st.lists(word, min_size=n_rows, max_size=n_rows, unique=True))
    columns = data.draw(st.lists(word, min_size=n_cols, max_size=n_cols, unique=True))
    number = st.one_of(st.floats(0, 1), st.floats(-1, 1), st.just(float("nan")))
    rows = [[data.draw(number) for _ in columns] for _ in index]
    assume(all(any(row[j] == row[j] for row in rows) for j in range(n_cols)))
    na_rep = data.draw(st.sampled_from(["", "NaN"]))
    frame = pd.DataFrame(rows, index=index, columns=columns)
    assert text_table(index, columns, rows, na_rep) == frame.to_string(na_rep=na_rep,
                                                                       float_format=lambda x: f"{x:.4f}")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_an_unwritable_standard_output_is_one_line_and_exit_2(tmp_path):
    """`> /dev/full` (a full disk) and `>&-` (no standard output): one message on stderr, exit 2, no traceback."""
    (tmp_path / "t.txt").write_text("d1 a\n")
    (tmp_path / "r.txt").write_text("d1 a 1 0.9\n")
    cmd = [sys.executable, "-m", "labelrank.cli", "score", "--truth", str(tmp_path / "t.txt"), "--run",
           str(tmp_path / "r.txt")]
    with open("/dev/full", "w") as full:
        out = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True)
    assert out.returncode == 2 and out.stderr == ("labelrank: error: cannot write the results to standard output: "
                                                  "No space left on device\n")
    out = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
    assert out.returncode == 2 and out.stderr == "labelrank: error: standard output is closed: nowhere to write the " \
                                                 "results\n"


def test_a_tree_path_that_is_not_a_file_says_what_it_is(tmp_path, capsys):
    """Not "not found" for everything: a directory, a named pipe, a device and a link loop are each named."""
    import os

    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for tree, words in ((tmp_path, "is a directory"), (tmp_path / "pipe", "is a named pipe (FIFO), not a regular file"),
                        ("/dev/null", "is a device, not a regular file"), (tmp_path / "loop", "cannot be opened"),
                        (tmp_path / "nope.yaml", "does not exist")):
        assert main(["score", "--tree", str(tree), "--truth", "t", "--run", "r"]) == 2
        assert f"{tree}: tree file {str(tree)!r} {words}" in capsys.readouterr().err


def test_a_dag_too_large_for_bdm_is_one_line_and_exit_2_and_scores_without_bdm(tmp_path, capsys):
    """The 23-level ladder: BDM, which follows every pair of chains, is refused in one line naming the bound; with
    --measures hF the binary measures and hF (ancestor sets, linear in the edges) are scored, BDM left out."""
    lines = ["r: null", "a0: r", "b0: r"]
    for i in range(1, 23):
        lines += [f"a{i}: [a{i-1}, b{i-1}]", f"b{i}: [a{i-1}, b{i-1}]"]
    (tmp_path / "ladder.yaml").write_text("\n".join(lines) + "\n")
    (tmp_path / "t.txt").write_text("d1 a22\n")
    (tmp_path / "r.txt").write_text("d1 b22 1 0.9\nd1 a22 2 0.3\n")  # assigned: b22 alone
    args = ["score", "--tree", str(tmp_path / "ladder.yaml"), "--truth", str(tmp_path / "t.txt"), "--run",
            str(tmp_path / "r.txt")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "ladder.yaml: the unfolding of the DAG's 16,777,215 root-to-label chains" in err
    assert "more than the bound of 50,000,000" in err and len(err.splitlines()) == 1
    for convention, want in (("hiclass", 44 / 45), ("hemkit", 46 / 47)):
        assert main([*args, "--measures", "hF", "--convention", convention]) == 0
        out, err = capsys.readouterr()
        assert "BDM-High and BDM-Low left out" in err and "BDM" not in out.splitlines()[1]
        table = parse_table(out)
        assert table["A-Precision"] == [0.5] and table["F-measure"][-1] == pytest.approx(want, abs=5e-5)
    assert main([*args, "--measures", "LCA-F", "--convention", "hemkit"]) == 2
    assert "the 4,194,304 chains of 'a22' that HEMKit's LCA pairs enumerate" in capsys.readouterr().err


def test_a_chain_100000_deep_scores_every_measure_in_little_memory(tmp_path):
    """A chain 20,000 deep once failed to allocate 3 GiB (an ancestor table of depth x chains); 100,000 deep now
    loads and scores BDM, hF and LCA-F in one process, its peak memory measured by the parent (wait4)."""
    n = 100_000
    (tmp_path / "chain.yaml").write_text("n0: null\n" + "".join(f"n{i}: n{i-1}\n" for i in range(1, n + 1)))
    (tmp_path / "t.txt").write_text("d1 n99999\nd2 n50000\nd2 n7\n")
    (tmp_path / "r.txt").write_text("d1 n99998 1 0.9\nd1 n100000 2 0.8\nd2 n50001 1 0.7\nd2 n3 2 0.1\n")
    argv = [sys.executable, "-m", "labelrank.cli", "score", "--tree", str(tmp_path / "chain.yaml"), "--truth",
            str(tmp_path / "t.txt"), "--run", str(tmp_path / "r.txt"), "--measures", "hF", "LCA-F"]
    parent = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
              "sys.stdout.write(p.stdout); sys.stderr.write(p.stderr); "
              "print('peak_kb', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(p.returncode)")
    proc = subprocess.run([sys.executable, "-c", parent, *argv], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out, peak = proc.stdout.rsplit("peak_kb", 1)
    assert int(peak) < 500 * 1024, f"peak {int(peak) / 1024:.0f} MB"
    table = parse_table(out)
    assert table["R-Precision"][1] == pytest.approx(6 / 7, abs=5e-5)  # BDM-High: the near misses count
    assert set(table) == {"A-Precision", "R-Precision", "F-measure"}
