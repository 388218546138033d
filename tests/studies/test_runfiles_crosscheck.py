"""TREC-form run files scored without a tree agree with trec_eval on the cross-check's random runs
(``labelrank.studies.crosscheck``)."""

from __future__ import annotations

import numpy as np
import pytest
from labelrank.cli import flat_tree, score_run
from labelrank.metrics.cost_scorer import CostScorer
from labelrank.runfiles import read_runs, read_truth, write_truth
from labelrank.studies.crosscheck import FLAT_TREE, random_run, trec_eval_scores
from support import as_trec

pytrec_eval = pytest.importorskip("pytrec_eval")


def read_truth_text(tmp_path, text):
    (tmp_path / "truth.plain").write_text(text)
    return read_truth(tmp_path / "truth.plain")


@pytest.mark.parametrize("seed", range(6))
def test_trec_form_files_without_a_tree_agree_with_trec_eval(tmp_path, seed):
    """TREC qrels and run files, ties and documents the run leaves out included, scored without a tree under
    ``--order score``: binary A-Precision and R-Precision equal trec_eval's map and Rprec (-c)."""
    rng = np.random.default_rng([seed, 51])
    truth_text, run_text = random_run(rng, ties=True, disagree=True)
    lines = run_text.splitlines()
    dropped = {lines[0].split()[0]}  # a document the run never mentions: 0, as trec_eval -c
    run_text = "".join(line + "\n" for line in lines if line.split()[0] not in dropped)
    write_truth(tmp_path / "qrels", read_truth_text(tmp_path, truth_text), trec=True)
    (tmp_path / "run").write_text(as_trec(run_text, "x"))
    truth = read_truth(tmp_path / "qrels")
    expected = trec_eval_scores(pytrec_eval, truth, run_text, 200)
    run = read_runs(tmp_path / "run", None, truth, order="score")["x"]
    labels = {lab for labs in truth.values() for lab in labs} | {lab for r in run.ranking.values() for lab in r}
    ours = score_run(CostScorer.from_tree(flat_tree(labels)), truth, run, per_document=True)
    for doc in truth:
        assert ours.loc[doc, ("A-Precision", "binary")] == pytest.approx(expected[doc]["map"], abs=1e-15), doc
        assert ours.loc[doc, ("R-Precision", "binary")] == pytest.approx(expected[doc]["Rprec"], abs=1e-15), doc
    assert FLAT_TREE is not None
