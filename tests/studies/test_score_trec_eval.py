"""``labelrank score`` against trec_eval (through ``pytrec-eval-terrier``): binary A-Precision = ``map`` and
binary R-Precision = ``Rprec``, document by document, on random runs.

The mapping: a document of the truth file is a trec_eval query, a label is a trec_eval document, a true label is
relevant (1). ``labelrank score`` averages over every document of the truth file, a document that a run never
mentions scoring 0: trec_eval's ``-c``. trec_eval has no cutoff option in pytrec_eval, so a cutoff is given to it
as the run cut after trec_eval's own order (its ``-M``).
"""

from __future__ import annotations

import numpy as np
import pytest
from labelrank.cli import read_run, read_truth, score_run
from labelrank.metrics.cost_scorer import CostScorer
from labelrank.studies.crosscheck import FLAT_TREE, random_run, trec_eval_scores

pytrec_eval = pytest.importorskip("pytrec_eval")

TREE = FLAT_TREE
SCORER = CostScorer.from_tree(TREE)


def random_case(rng: np.random.Generator, *, ties: bool, disagree: bool):
    return random_run(rng, ties=ties, disagree=disagree)


def trec_eval_per_doc(truth: dict, path, cutoff: int) -> dict[str, dict[str, float]]:
    return trec_eval_scores(pytrec_eval, truth, path.read_text(), cutoff)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties, disagree", [(False, False), (True, False), (True, True), (False, True)])
@pytest.mark.parametrize("cutoff", [200, 5])
def test_binary_a_and_r_precision_equal_trec_eval(tmp_path, seed, ties, disagree, cutoff):
    rng = np.random.default_rng([seed, ties, disagree, cutoff])
    truth_text, run_text = random_case(rng, ties=ties, disagree=disagree)
    (tmp_path / "truth.txt").write_text(truth_text)
    (tmp_path / "run.txt").write_text(run_text)
    truth = read_truth(tmp_path / "truth.txt", set(TREE.labels))
    expected = trec_eval_per_doc(truth, tmp_path / "run.txt", cutoff)
    orders = ["score"] if (ties or disagree) else ["score", "rank"]  # untied, agreeing runs: both rules coincide
    for order in orders:
        run = read_run(tmp_path / "run.txt", set(TREE.labels), truth, order=order)
        ours = score_run(SCORER, truth, run, cutoff=cutoff, per_document=True)
        for doc in truth:
            assert ours.loc[doc, ("A-Precision", "binary")] == pytest.approx(expected[doc]["map"], abs=1e-15)
            assert ours.loc[doc, ("R-Precision", "binary")] == pytest.approx(expected[doc]["Rprec"], abs=1e-15)
        means = score_run(SCORER, truth, run, cutoff=cutoff)
        assert means.loc["A-Precision", "binary"] == pytest.approx(
            np.mean([expected[d]["map"] for d in truth]), abs=1e-15)


def test_the_rank_rule_departs_from_trec_eval_on_ties_and_says_so(tmp_path):
    """With tied scores, ``--order rank`` follows the rank column, which trec_eval ignores."""
    (tmp_path / "truth.txt").write_text("d1 L001\n")
    (tmp_path / "run.txt").write_text("d1 L001 1 0.5\nd1 L002 2 0.5\n")
    truth = read_truth(tmp_path / "truth.txt", set(TREE.labels))
    expected = trec_eval_per_doc(truth, tmp_path / "run.txt", 200)["d1"]["map"]
    assert expected == 0.5  # trec_eval: tie broken by label descending, L002 first
    by_rank = read_run(tmp_path / "run.txt", set(TREE.labels), truth, order="rank")
    by_score = read_run(tmp_path / "run.txt", set(TREE.labels), truth, order="score")
    assert score_run(SCORER, truth, by_rank).loc["A-Precision", "binary"] == 1.0
    assert score_run(SCORER, truth, by_score).loc["A-Precision", "binary"] == expected


def test_recall_level_precision_is_trec_evals_eleven_point_average():
    """The seed's R-Precision (the mean of the precisions at predefined recall levels), binary, equals the mean of
    trec_eval's ``iprec_at_recall`` at its eleven levels, on random lists with and without every true label."""
    from labelrank.metrics.cost_precision import recall_level_precision

    rng = np.random.default_rng(11)
    labels = [f"L{i}" for i in range(30)]
    qrels, run, ours = {}, {}, {}
    for q in range(300):
        true = list(rng.choice(labels, int(rng.integers(1, 6)), replace=False))
        ranking = list(rng.choice(labels, int(rng.integers(1, 25)), replace=False))
        qrels[f"q{q}"] = {lab: 1 for lab in true}
        run[f"q{q}"] = {lab: float(len(ranking) - i) for i, lab in enumerate(ranking)}
        ours[f"q{q}"] = recall_level_precision(true, ranking)
    levels = [f"iprec_at_recall_{r:.2f}" for r in np.linspace(0, 1, 11)]
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)
    for q, value in ours.items():
        assert value == pytest.approx(np.mean([theirs[q][m] for m in levels]), abs=1e-12), q
