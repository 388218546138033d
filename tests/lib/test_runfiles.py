"""Run and truth files in both forms (``labelrank.runfiles``): the project's and TREC's (qrels, runs with tags),
gzip and standard input, the form told per file, and ``labelrank score`` without a tree."""

import gzip
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from labelrank.cli import flat_tree, main
from labelrank.runfiles import RunFileError, read_run, read_runs, read_truth, write_run, write_truth
from support import as_trec

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "data" / "fterm" / "2C088_figure1.yaml"
TRUTH = "p1 AA01\np1 AA65\np2 BA\n"
RUN = "p1 AA02 1 0.90\np1 AA01 2 0.80\np1 BA 3 0.40\np1 AA65 4 0.30\np2 BA 1 0.70\np2 BA-e1 2 0.60\n"


def as_qrels(truth_text, extra=""):
    return "".join(f"{d} 0 {lab} 1\n" for d, lab in (line.split() for line in truth_text.splitlines())) + extra


def cli(tmp_path, *argv, stdin=None):
    done = subprocess.run([sys.executable, "-m", "labelrank.cli", *argv], cwd=tmp_path, capture_output=True,
                          text=True, input=stdin, timeout=120)
    return done.returncode, done.stdout, done.stderr


def numbers(text):
    """The table rows of ``labelrank score``'s output: (row name, values), run headers left out."""
    return [line.split() for line in text.splitlines() if line and not line.startswith("run:")]


def test_both_forms_read_the_same(tmp_path):
    (tmp_path / "truth.txt").write_text(TRUTH)
    (tmp_path / "qrels.txt").write_text(as_qrels(TRUTH, "p1 0 BA 0\n"))  # a label judged not relevant
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "run.trec").write_text(as_trec(RUN, "sys1"))
    truth = read_truth(tmp_path / "truth.txt")
    assert read_truth(tmp_path / "qrels.txt") == truth
    assert read_runs(tmp_path / "run.trec", docs=truth) == {"sys1": read_run(tmp_path / "run.txt", None, truth)}


def test_the_cli_prints_the_same_numbers_for_both_forms(tmp_path):
    (tmp_path / "truth.txt").write_text(TRUTH)
    (tmp_path / "qrels.txt").write_text(as_qrels(TRUTH))
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "run.trec").write_text(as_trec(RUN, "sys1"))
    plain = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "truth.txt", "--run", "run.txt")
    trec = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "qrels.txt", "--run", "run.trec")
    assert plain[0] == trec[0] == 0
    assert numbers(plain[1]) == numbers(trec[1])
    assert "run: sys1 (in run.trec)" in trec[1]


def test_a_trec_file_with_several_tags_is_several_runs(tmp_path):
    (tmp_path / "qrels.txt").write_text(as_qrels(TRUTH))
    other = "p1 AA01 1 0.9\np2 BA 1 0.9\n"
    (tmp_path / "runs.trec").write_text(as_trec(RUN, "first") + as_trec(other, "second"))
    (tmp_path / "first.txt").write_text(RUN)
    (tmp_path / "second.txt").write_text(other)
    status, out, _ = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "qrels.txt", "--run", "runs.trec")
    apart = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "qrels.txt", "--run", "first.txt", "second.txt")
    assert status == apart[0] == 0
    assert [line for line in out.splitlines() if line.startswith("run:")] == [
        "run: first (in runs.trec)  (2 documents)", "run: second (in runs.trec)  (2 documents)"]
    assert numbers(out) == numbers(apart[1])
    with pytest.raises(RunFileError, match="holds 2 runs"):
        read_run(tmp_path / "runs.trec", None, read_truth(tmp_path / "qrels.txt"))


def test_gzip_and_standard_input(tmp_path):
    (tmp_path / "truth.txt.gz").write_bytes(gzip.compress(TRUTH.encode()))
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "truth.txt").write_text(TRUTH)
    expected = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "truth.txt", "--run", "run.txt")
    zipped = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "truth.txt.gz", "--run", "run.txt")
    piped = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "truth.txt", "--run", "-", stdin=RUN)
    assert expected[0] == zipped[0] == piped[0] == 0
    assert numbers(expected[1]) == numbers(zipped[1]) == numbers(piped[1])
    (tmp_path / "bad.gz").write_text("not gzip\n")
    status, out, err = cli(tmp_path, "score", "--truth", "bad.gz", "--run", "run.txt")
    assert status == 2 and out == "" and err.startswith("labelrank: error: bad.gz: the truth file ends in .gz but")
    status, _, err = cli(tmp_path, "score", "--truth", "-", "--run", "-", stdin=RUN)
    assert status == 2 and "only one of --truth and --run can read standard input" in err


@pytest.mark.parametrize("which, content, message", [
    ("truth", "p1 AA01\np1 0 AA65 1\n", "truth.txt:2: expected 2 columns 'doc label' as on line 1, got 4 "
                                       "(the file mixes forms)"),
    ("truth", "p1 0 AA01 1\np1 0 AA65 yes\n", "truth.txt:2: relevance 'yes' is not an integer"),
    ("truth", "p1 0 AA01 0\n", "truth.txt: the truth file judges no label relevant"),
    ("truth", "p1 AA01 x\n", "truth.txt:1: expected 2 columns 'doc label' or 4 columns 'doc 0 label rel', got 3"),
    ("run", "p1 Q0 AA01 1 0.5 a\np1 AA02 2 0.4\n", "run.txt:2: expected 6 columns 'doc Q0 label rank score tag' "
                                                  "as on line 1, got 4 (the file mixes forms)"),
    ("run", "p1 Q0 AA01 1 0.5 a\np1 Q0 AA01 2 0.4 a\n", "run.txt:2: duplicate line for document 'p1', label 'AA01'"),
])
def test_bad_input_names_the_file_and_line(tmp_path, which, content, message):
    (tmp_path / "truth.txt").write_text(TRUTH)
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / f"{which}.txt").write_text(content)
    status, out, err = cli(tmp_path, "score", "--tree", str(TREE), "--truth", "truth.txt", "--run", "run.txt")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"labelrank: error: {message}"), err


def test_the_same_tags_in_two_runs_of_one_file_are_checked_apart(tmp_path):
    (tmp_path / "runs.trec").write_text("p1 Q0 AA01 1 0.5 a\np1 Q0 AA01 1 0.5 b\n")
    runs = read_runs(tmp_path / "runs.trec", docs=["p1"])
    assert runs["a"].ranking == runs["b"].ranking == {"p1": ["AA01"]}


def test_without_a_tree_the_binary_measures_alone(tmp_path, capsys):
    (tmp_path / "truth.txt").write_text(TRUTH)
    (tmp_path / "run.txt").write_text(RUN)
    assert main(["score", "--truth", str(tmp_path / "truth.txt"), "--run", str(tmp_path / "run.txt")]) == 0
    out = capsys.readouterr().out
    assert "no --tree: binary measures only" in out
    rows = {r[0]: r[1:] for r in numbers(out)}
    assert rows["binary"] == [] or "BDM-High" not in out
    with_tree = main(["score", "--tree", str(TREE), "--truth", str(tmp_path / "truth.txt"), "--run",
                      str(tmp_path / "run.txt")])
    full = {r[0]: r[1] for r in numbers(capsys.readouterr().out) if r[0] != "binary"}
    assert with_tree == 0 and {k: v[0] for k, v in rows.items() if k != "binary"} == full
    assert main(["score", "--truth", str(tmp_path / "truth.txt"), "--run", str(tmp_path / "run.txt"),
                 "--measures", "hF"]) == 2
    assert "--measures hF needs the label tree (--tree TREE)" in capsys.readouterr().err


def test_the_flat_tree_scores_exact_matches_only():
    tree = flat_tree({"a", "b", "(root)"})
    assert tree.root == "((root))" and set(tree.children(tree.root)) == {"a", "b", "(root)"}


def test_writers_round_trip_both_forms(tmp_path):
    truth = {"d1": ["AA01", "BA"], "d2": ["AA65"]}
    ranking, scores = {"d1": ["AA02", "AA01"], "d2": ["AA65"]}, {"d1": [0.9, 0.25], "d2": [3.0]}
    write_truth(tmp_path / "q", truth, trec=True)
    write_run(tmp_path / "r", ranking, scores, tag="t1")
    assert read_truth(tmp_path / "q") == truth
    run = read_runs(tmp_path / "r", docs=truth)["t1"]
    assert run.ranking == ranking and run.scores == scores
    with pytest.raises(ValueError, match="tag is one word"):
        write_run(tmp_path / "r2", ranking, scores, tag="two words")


def test_every_format_prints_the_same_numbers(tmp_path):
    import csv
    import io
    import json

    (tmp_path / "qrels.txt").write_text(as_qrels(TRUTH))
    (tmp_path / "runs.trec").write_text(as_trec(RUN, "first") + as_trec("p1 AA01 1 0.9\np2 BA 1 0.9\n", "second"))
    base = ["score", "--tree", str(TREE), "--truth", "qrels.txt", "--run", "runs.trec", "--measures", "hF", "LCA-F"]
    outputs = {fmt: cli(tmp_path, *base, "--format", fmt) for fmt in ("csv", "json", "trec")}
    assert all(status == 0 for status, _, _ in outputs.values())
    from_csv = {(r["run"], r["document"] or "all", r["measure"]): float(r["value"])
                for r in csv.DictReader(io.StringIO(outputs["csv"][1]))}
    from_json = {}
    for run in json.loads(outputs["json"][1])["runs"]:
        from_json.update({(run["run"], "all", m): v for m, v in run["means"].items()})
        from_json.update({(run["run"], d, m): v for d, values in run["documents"].items() for m, v in values.items()})
    from_trec, name = {}, None
    for line in outputs["trec"][1].splitlines():
        measure, doc, value = line.split("\t")
        if measure == "runid":
            name = value
        else:
            from_trec[name, doc, measure] = float(value)
    assert from_csv == from_json and set(from_trec) == set(from_csv)
    assert all(abs(from_trec[k] - round(v, 4)) < 1e-9 for k, v in from_csv.items())
    assert len(from_csv) == 2 * 3 * (3 * 3 + 2)  # runs x (2 documents + all) x (9 cost-based + hF, LCA-F)
    # the table's means and documents are the same numbers
    status, out, _ = cli(tmp_path, *base, "--per-doc")
    rows = [line.split() for line in out.splitlines() if line.startswith(("p1", "p2", "(mean"))]
    header = [line.split() for line in out.splitlines() if line.lstrip().startswith("AP.")][0]
    first = {(r[0] if r[0].startswith("p") else "all"): dict(zip(header, map(float, r[-len(header):])))
             for r in rows[:3]}
    assert first["p1"]["AP.BDM-High"] == round(from_csv["first", "p1", "AP_BDM-High"], 4)
    assert first["all"]["F.LCA-F"] == round(from_csv["first", "all", "F_LCA-F"], 4)


def test_a_runs_label_matrix_keeps_what_is_asked():
    """Run.label_matrix: the ranked labels of the asked documents as codes, cut by width, threshold or top."""
    from labelrank.runfiles import Run

    run = Run({"d1": ["a", "b", "c"], "d2": ["c"]}, {"d1": [0.9, 0.4, 0.7], "d2": [0.2]})
    index = {"a": 0, "b": 1, "c": 2}
    np.testing.assert_array_equal(run.label_matrix(["d2", "d9", "d1"], index),
                                  [[2, -1, -1], [-1, -1, -1], [0, 1, 2]])
    np.testing.assert_array_equal(run.label_matrix(["d1", "d2"], index, width=2), [[0, 1], [2, -1]])
    np.testing.assert_array_equal(run.label_matrix(["d1", "d2"], index, threshold=0.5), [[0, 2], [-1, -1]])
    np.testing.assert_array_equal(run.label_matrix(["d1", "d2"], index, top=1), [[0], [2]])
    assert run.label_matrix(["d9"], index).shape == (1, 1)
    with pytest.raises(ValueError, match="label 'c' has no index"):
        run.label_matrix(["d1"], {"a": 0, "b": 1})
    assert len(run) == 2 and "d2" in run and "d9" not in run
    assert run == Run(run.ranking, run.scores) and run != Run({"d1": ["a"]}, {"d1": [0.9]})
    with pytest.raises(ValueError, match="as many scores as labels"):
        Run({"d1": ["a", "b"]}, {"d1": [0.9]})


def test_a_label_that_differs_only_by_unicode_normalisation_is_named_as_such(tmp_path):
    """'café' typed with a combining accent against a tree's precomposed 'café' looked like the tree's own label."""
    from labelrank.runfiles import RunFileError, read_truth

    (tmp_path / "t.txt").write_text("d1 cafe\u0301\n", encoding="utf-8")
    with pytest.raises(RunFileError, match=r"t.txt:1: unknown label .* differs from it only by Unicode normalisation: "
                                           r"U\+0063 U\+0061 U\+0066 U\+0065 U\+0301 here, U\+0063 U\+0061 U\+0066 "
                                           r"U\+00E9 in the tree"):
        read_truth(tmp_path / "t.txt", {"caf\u00e9", "tea"})
