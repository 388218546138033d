"""The F-term case study's real-tree part: 20 Newsgroups' Usenet tree and the family of real systems
(labelrank.studies.li2007.newsgroups), under the quick profile."""

import numpy as np
import pytest
from labelrank.datasets import DataUnavailableError
from labelrank.studies.li2007 import newsgroups as ng
from scipy import stats

GROUPS = ["alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware",
          "comp.sys.mac.hardware", "comp.windows.x", "misc.forsale", "rec.autos", "rec.motorcycles",
          "rec.sport.baseball", "rec.sport.hockey", "sci.crypt", "sci.electronics", "sci.med", "sci.space",
          "soc.religion.christian", "talk.politics.guns", "talk.politics.mideast", "talk.politics.misc",
          "talk.religion.misc"]


@pytest.fixture(scope="module")
def runs():
    try:
        return ng.study_runs("quick")
    except (DataUnavailableError, FileNotFoundError) as exc:
        pytest.skip(f"20 Newsgroups needs a data source (LABELRANK_DATA): {exc}")


def test_the_usenet_tree():
    tree = ng.newsgroups_tree(GROUPS)
    assert set(tree.leaves) == set(GROUPS)
    assert tree.children(ng.ROOT) == ("alt", "comp", "misc", "rec", "sci", "soc", "talk")
    assert tree.chains("comp.sys.ibm.pc.hardware")[0] == (
        "usenet", "comp", "comp.sys", "comp.sys.ibm", "comp.sys.ibm.pc", "comp.sys.ibm.pc.hardware")
    shape = ng.tree_shape(tree, GROUPS)
    assert shape["nodes"].sum() == len(tree) and shape["groups"].sum() == 20
    assert shape.index.max() == 5 and shape.loc[0, "nodes"] == 1


def test_the_family_spans_what_the_issue_asks_for():
    systems = ng.SYSTEMS
    assert len(systems) >= 20 and len({s.name for s in systems}) == len(systems)
    assert {s.learner for s in systems} >= {"linear_svm", "logistic", "multinomial_nb", "complement_nb", "knn",
                                            "centroid", "mlp"}
    assert {s.features for s in systems} == {"tfidf", "counts", "binary"}
    assert {s.headers for s in systems} == {True, False}
    assert {s.structure for s in systems} == {"flat", "top-down"}
    assert any(s.train_fraction < 0.2 for s in systems) and len({s.vocabulary for s in systems}) >= 3
    assert set(ng.QUICK_SYSTEMS) <= {s.name for s in systems}


def test_runs_are_cached_and_deterministic(runs):
    system = next(s for s in ng.SYSTEMS if s.name == "SVM")
    again = ng._run(system, *ng.sample_sizes("quick"), ng._data_version())  # computed afresh, not read
    np.testing.assert_array_equal(again["scores"], runs["SVM"]["scores"])
    assert set(runs) == set(ng.QUICK_SYSTEMS)
    n_test = ng.sample_sizes("quick")[1]
    assert all(r["scores"].shape == (n_test, 20) and np.isfinite(r["scores"]).all() for r in runs.values())


def test_top_down_scores_are_log_probabilities_over_the_groups(runs):
    """A top-down run's group scores are logs of products of P(child | node): they sum to 1 over the groups."""
    for name in ("LR-TD", "MNB-TD"):
        total = np.exp(runs[name]["scores"]).sum(axis=1)
        np.testing.assert_allclose(total, 1.0, rtol=1e-9)


def test_measures_on_single_label_messages(runs):
    groups = runs["SVM"]["groups"]
    tree = ng.newsgroups_tree(groups)
    means, per_doc = ng.score_runs(tree, runs)
    for name, run in runs.items():
        order = np.argsort(-run["scores"], axis=1, kind="stable")
        rank = np.argmax(order == run["y_test"][:, None], axis=1) + 1
        # binary A-Precision of one true label = 1 / its rank; R-Precision = F = accuracy at rank 1
        assert means.loc[name, ("A-Precision", "binary")] == pytest.approx(np.mean(1 / rank))
        assert means.loc[name, ("R-Precision", "binary")] == pytest.approx(np.mean(rank == 1))
        assert means.loc[name, ("F-measure", "high")] == pytest.approx(means.loc[name, ("R-Precision", "high")])
        assert means.loc[name, ("A-Precision", "low")] == pytest.approx(means.loc[name, ("A-Precision", "binary")])
        assert (means.loc[name].xs("high", level=1) >= means.loc[name].xs("binary", level=1) - 1e-12).all()
    taus = ng.kendall_intervals(per_doc, n_boot=50, seed=0)
    assert ((taus["low"] <= taus["tau"] + 1e-12) & (taus["tau"] <= taus["high"] + 1e-12)).all()
    ap = means[("A-Precision", "binary")], means[("A-Precision", "high")]
    assert taus.loc[("BDM-High", "A-Precision"), "tau"] == pytest.approx(stats.kendalltau(*ap).statistic)
    moves = ng.rank_moves(means, "A-Precision")
    assert (moves["binary"] - moves["BDM-High"] == moves["move"]).all()


def test_confusion_by_distance(runs):
    run = runs["SVM"]
    tree = ng.newsgroups_tree(run["groups"])
    shares = ng.confusion_by_distance(tree, run)
    assert shares.sum() == pytest.approx(1.0)
    assert shares[0] == pytest.approx(np.mean(run["scores"].argmax(1) == run["y_test"]))
    assert 1 not in shares.index and shares.index.max() <= 10  # siblings are 2 edges apart; depth <= 5
    top = ng.top_confusions(tree, run, n=3)
    assert (top["true group"] != top["top-ranked group"]).all() and (top["tree distance"] >= 2).all()
