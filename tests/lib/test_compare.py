"""``labelrank compare`` and ``labelrank.comparison.compare``: paired tests, their correction, and the agreement
of the runs' rankings under the measure families (Li, Bontcheva & Cunningham's Table 2 for anyone's runs)."""

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from labelrank import comparison
from labelrank.cli import main
from labelrank.evaluation import evaluate
from labelrank.metrics.significance import adjust, paired_sign_test, randomization_test, sign_test
from labelrank.runfiles import write_run, write_truth

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "data" / "fterm" / "2C088_figure1.yaml"


def exact_randomization(a, b):
    """The randomization test's p-value over every sign pattern (the test's definition, enumerated)."""
    d = np.asarray(a, float) - np.asarray(b, float)
    observed = abs(d.mean())
    hits = sum(abs((np.array(s) * d).mean()) >= observed * (1 - 1e-12) for s in itertools.product((1, -1), repeat=d.size))
    return hits / 2 ** d.size


@pytest.mark.parametrize("seed", range(5))
def test_the_randomization_test_estimates_the_enumerated_p_value(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.random(10), rng.random(10) + 0.1 * seed
    p = randomization_test(a, b, n_permutations=20_000, seed=seed)
    assert p == pytest.approx(exact_randomization(a, b), abs=4 * np.sqrt(0.25 / 20_000) + 1e-4)
    assert randomization_test(a, b, n_permutations=20_000, seed=seed) == p  # seeded


@settings(max_examples=60)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_is_the_step_down_rule(p):
    p = np.array(p)
    holm = adjust(p, "holm")
    order = np.argsort(p, kind="stable")
    expected = np.empty_like(p)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (p.size - i) * p[j]))
        expected[j] = running
    np.testing.assert_allclose(holm, expected)
    assert (holm >= p - 1e-15).all() and (adjust(p, "bh") >= p - 1e-15).all()
    np.testing.assert_array_equal(adjust(p, "none"), p)


def test_the_paired_sign_test_is_the_sign_test_on_decisions():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 2, 40), rng.integers(0, 2, 40)
    assert paired_sign_test(a, b) == sign_test(a, b)


def runs_case(tmp_path, n_docs=30, seed=0):
    rng = np.random.default_rng(seed)
    labels = ["AA01", "AA02", "AA65", "BA", "BB", "BA-e1"]
    truth = {f"d{i}": [str(x) for x in rng.choice(labels, 2, replace=False)] for i in range(n_docs)}
    write_truth(tmp_path / "qrels", truth, trec=True)
    lines = []
    for quality, tag in ((0.8, "strong"), (0.5, "middle"), (0.2, "weak")):
        ranking, scores = {}, {}
        for doc, true in truth.items():
            s = {lab: rng.random() + (quality if lab in true else 0) for lab in labels}
            ranking[doc] = sorted(s, key=s.get, reverse=True)
            scores[doc] = sorted(s.values(), reverse=True)
        write_run(tmp_path / tag, ranking, scores, tag=tag)
        lines.append((tmp_path / tag).read_text())
    (tmp_path / "runs.trec").write_text("".join(lines))
    return truth


def test_compare_means_tests_and_taus(tmp_path):
    runs_case(tmp_path)
    result = comparison.compare(tmp_path / "qrels", [tmp_path / "runs.trec"], TREE, ["binary", "BDM-High", "hF"],
                                n_permutations=999, n_boot=200, seed=3)
    assert list(result.means.index) == ["strong", "middle", "weak"]
    for name in result.means.index:  # the means are evaluate's
        alone = evaluate(tmp_path / "qrels", tmp_path / name, TREE, ["binary", "BDM-High", "hF"])
        np.testing.assert_allclose(result.means.loc[name].to_numpy(), alone.loc["mean"].to_numpy(), rtol=1e-12)
    # each measure's baseline is its best run, which is never tested against itself
    for measure, block in result.tests.groupby(level="measure"):
        best = result.means[measure].idxmax()
        assert set(block["baseline"]) == {best} and best not in block.index.get_level_values("run")
        assert (block["difference"] <= 0).all()
    assert (result.tests["p_wilcoxon_adjusted"] >= result.tests["p_wilcoxon"]).all()
    assert result.tests.loc[("AP_binary", "weak"), "p_randomization_adjusted"] < 0.05  # clearly worse
    assert set(result.taus.index.get_level_values("measure")) == {"AP", "RP", "F"}
    assert ("F", "binary", "hF") in result.taus.index
    taus = comparison.bootstrap_taus({n: t[["AP_binary", "AP_BDM-High"]] for n, t in result.per_document.items()},
                                     200, 3)
    assert result.taus.loc[("AP", "binary", "BDM-High")].tolist() == taus.iloc[0].tolist()
    assert (result.taus["low"] <= result.taus["tau"] + 1e-12).all()


def test_the_cli_prints_what_compare_computes(tmp_path):
    runs_case(tmp_path, seed=4)
    argv = [sys.executable, "-m", "labelrank.cli", "compare", "--tree", str(TREE), "--truth", "qrels", "--run",
            "runs.trec", "--permutations", "999", "--bootstrap", "100", "--seed", "2", "--format", "json"]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    result = comparison.compare(tmp_path / "qrels", [tmp_path / "runs.trec"], TREE, ["binary", "BDM-High", "BDM-Low"],
                                n_permutations=999, n_boot=100, seed=2)
    assert printed["means"] == result.means.to_dict(orient="index")
    assert [r["p_sign_adjusted"] for r in printed["tests"]] == result.tests["p_sign_adjusted"].tolist()
    table = subprocess.run(argv[:-2], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert table.returncode == 0 and "paired tests against the baseline" in table.stdout
    assert "Kendall's tau between the runs' rankings" in table.stdout


def test_the_trec_format_carries_the_same_numbers(tmp_path, capsys):
    """``--format trec``: each run's means and adjusted p-values, then the taus, as json gives them (four decimals);
    ``--top 1`` scores the assigned set of the best-ranked label, as ``compare(top=1)`` does."""
    runs_case(tmp_path, seed=5)
    argv = ["compare", "--tree", str(TREE), "--truth", str(tmp_path / "qrels"), "--run", str(tmp_path / "runs.trec"),
            "--permutations", "199", "--bootstrap", "50", "--top", "1"]
    assert main([*argv, "--format", "trec"]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert all(len(fields) == 3 and fields[1] == "all" for fields in lines)
    result = comparison.compare(tmp_path / "qrels", [tmp_path / "runs.trec"], TREE, ["binary", "BDM-High", "BDM-Low"],
                                n_permutations=199, n_boot=50, top=1)
    blocks, current = {}, None
    for measure, _, value in lines:
        if measure == "runid":
            current = blocks.setdefault(value, {})
        else:
            current[measure] = value
    assert list(blocks) == [*result.means.index, "kendall_tau"]
    for run, row in result.means.iterrows():
        assert {m: float(blocks[run][m]) for m in row.index} == pytest.approx(row.to_dict(), abs=5e-5)
    for (measure, run), row in result.tests.iterrows():
        assert blocks[run][f"{measure}.baseline"] == row["baseline"]
        assert float(blocks[run][f"{measure}.p_sign"]) == pytest.approx(row["p_sign_adjusted"], abs=5e-5)
    for (measure, family, versus), row in result.taus.iterrows():
        assert float(blocks["kendall_tau"][f"{measure}_{family}~{versus}"]) == pytest.approx(row["tau"], abs=5e-5)
    top1 = comparison.compare(tmp_path / "qrels", [tmp_path / "runs.trec"], TREE, n_permutations=9, n_boot=5, top=1)
    threshold = comparison.compare(tmp_path / "qrels", [tmp_path / "runs.trec"], TREE, n_permutations=9, n_boot=5)
    assert not top1.means["F_binary"].equals(threshold.means["F_binary"])  # --top changes the assigned sets


@pytest.mark.parametrize("extra, message", [
    (["--baseline", "nobody"], "--baseline 'nobody' is not one of the runs"),
    (["--measures", "hF"], None),
    (["--seed", "-1"], "--seed must be a non-negative integer"),
])
def test_compare_bad_input_exits_2(tmp_path, extra, message):
    runs_case(tmp_path, n_docs=5)
    argv = [sys.executable, "-m", "labelrank.cli", "compare", "--truth", "qrels", "--run", "runs.trec",
            "--bootstrap", "10", "--permutations", "9", *extra]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert (message or "needs the label tree") in done.stderr
    one = subprocess.run(argv[:7] + ["strong", "--bootstrap", "10"], cwd=tmp_path, capture_output=True, text=True)
    assert one.returncode == 2 and "needs at least two runs" in one.stderr
