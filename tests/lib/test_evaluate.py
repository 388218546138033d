"""``labelrank.evaluate``: one run scored from files, dicts or DataFrames, the numbers ``labelrank score`` prints."""

import json
import subprocess
import sys
from pathlib import Path

import labelrank
import numpy as np
import pandas as pd
import pytest
from labelrank.hierarchy import LabelTree
from labelrank.runfiles import read_runs, read_truth, write_run, write_truth

ROOT = Path(__file__).resolve().parents[2]
TREE_FILE = ROOT / "data" / "fterm" / "2C088_figure1.yaml"
TREE = LabelTree.from_file(TREE_FILE)


def case(tmp_path, seed):
    """A random truth and run on the F-term tree, written as files, and the same as dicts and DataFrames."""
    rng = np.random.default_rng([seed, 50])
    labels = sorted(set(TREE.labels) - {TREE.root})  # the root is nobody's label
    truth = {f"d{i}": list(rng.choice(labels, int(rng.integers(1, 4)), replace=False)) for i in range(8)}
    ranking, scores = {}, {}
    for doc in list(truth)[:-1]:  # the last document is not in the run: it scores 0
        listed = list(rng.choice(labels, int(rng.integers(1, 12)), replace=False))
        ranking[doc] = listed
        scores[doc] = sorted(np.round(rng.random(len(listed)), 3).tolist(), reverse=True)
    write_truth(tmp_path / "truth.txt", truth)
    write_run(tmp_path / "run.txt", ranking, scores, tag="r")
    as_dicts = ({d: {lab: 1 for lab in labs} for d, labs in truth.items()},
                {d: dict(zip(ranking[d], scores[d])) for d in ranking})
    frame = pd.DataFrame([(d, lab, s, r) for d in ranking for r, (lab, s) in
                          enumerate(zip(ranking[d], scores[d]), start=1)], columns=["doc", "label", "score", "rank"])
    return as_dicts, frame


@pytest.mark.parametrize("seed", range(4))
def test_files_dicts_and_frames_give_the_same_numbers(tmp_path, seed):
    (truth_dict, run_dict), frame = case(tmp_path, seed)
    files = labelrank.evaluate(tmp_path / "truth.txt", tmp_path / "run.txt", TREE, order="score",
                               measures=list(labelrank.evaluation.MEASURES), per_document=True)
    dicts = labelrank.evaluate(truth_dict, run_dict, TREE, measures=list(labelrank.evaluation.MEASURES),
                               per_document=True)
    frames = labelrank.evaluate(pd.DataFrame([(d, lab) for d, labs in truth_dict.items() for lab in labs],
                                             columns=["doc", "label"]), frame.drop(columns="rank"), TREE_FILE,
                                measures=list(labelrank.evaluation.MEASURES), per_document=True)
    pd.testing.assert_frame_equal(files, dicts)
    pd.testing.assert_frame_equal(files, frames)
    assert files.loc["d7"].eq(0).all()  # not in the run
    means = labelrank.evaluate(truth_dict, run_dict, TREE, measures=list(labelrank.evaluation.MEASURES))
    pd.testing.assert_series_equal(means.loc["mean"], files.mean(), check_names=False)


def test_the_numbers_are_those_of_labelrank_score(tmp_path):
    case(tmp_path, 9)
    done = subprocess.run([sys.executable, "-m", "labelrank.cli", "score", "--tree", str(TREE_FILE), "--truth",
                           "truth.txt", "--run", "run.txt", "--measures", "hF", "LCA-F", "--format", "json"],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    printed = json.loads(done.stdout)["runs"][0]
    ours = labelrank.evaluate(tmp_path / "truth.txt", tmp_path / "run.txt", TREE,
                              measures=list(labelrank.evaluation.MEASURES))
    assert printed["means"] == ours.loc["mean"].to_dict()


def test_without_a_tree_binary_only_and_the_errors_name_the_problem(tmp_path):
    truth, run = {"d1": {"x": 1, "y": 0}}, {"d1": {"y": 0.9, "x": 0.5}}
    assert labelrank.evaluate(truth, run).loc["mean"].to_dict() == pytest.approx(
        {"AP_binary": 0.5, "RP_binary": 0.0, "F_binary": 2 / 3})  # x is second; both assigned (scores >= 0.5)
    with pytest.raises(ValueError, match=r"need a label tree"):
        labelrank.evaluate(truth, run, measures=["hF"])
    with pytest.raises(ValueError, match="measures must be among"):
        labelrank.evaluate(truth, run, measures=["nDCG"])
    with pytest.raises(ValueError, match="document 'd9' is not in the truth"):
        labelrank.evaluate(truth, {"d9": {"x": 1.0}})
    with pytest.raises(ValueError, match="use order='score'"):
        labelrank.evaluate(truth, run, order="rank")
    with pytest.raises(ValueError, match="label 'zz', which is not in the tree"):
        labelrank.evaluate({"d1": ["zz"]}, run, TREE)
    with pytest.raises(TypeError, match="run must be a path"):
        labelrank.evaluate(truth, 3)


@pytest.mark.parametrize("seed", range(6))
def test_a_truth_read_from_a_file_scores_as_the_same_dict(tmp_path, seed):
    """read_truth's Truth hands the scorer its label matrix from its columns; a plain dict of the same lists goes
    through the lists: the same numbers, with qrels lines judged not relevant and labels outside the run."""
    from labelrank.evaluation import document_scores
    from labelrank.metrics.cost_scorer import CostScorer
    from labelrank.runfiles import Truth

    case(tmp_path, seed)
    rng = np.random.default_rng(seed)
    lines = (tmp_path / "truth.txt").read_text().split("\n")
    qrels, seen = [], set()
    for doc, label in (line.split() for line in lines if line):  # each document's first label relevant, as the run
        qrels.append(f"{doc} 0 {label} {int(rng.integers(1 if doc not in seen else 0, 3))}")  # needs its document
        seen.add(doc)
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    truth = read_truth(tmp_path / "qrels.txt", TREE.labels)
    assert isinstance(truth, Truth) and truth.relevant_labels() == {lab for labs in truth.values() for lab in labs}
    run = next(iter(read_runs(tmp_path / "run.txt", TREE.labels, truth, order="score").values()))
    scorer = CostScorer.from_tree(TREE)
    _, fast = document_scores(scorer, truth, run)
    _, slow = document_scores(scorer, dict(truth), run)
    assert fast.keys() == slow.keys()
    for key in fast:
        np.testing.assert_array_equal(fast[key], slow[key])
