"""Tests of labelrank.studies.li2007.tree_rankers: the flat and the top-down label rankers of the chapter "Real
systems on real trees"."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
import scipy.sparse as sp
from labelrank.hierarchy import LabelTree
from labelrank.studies.li2007 import tree_rankers
from labelrank.studies.li2007.tree_rankers import FlatRanker, TopDownRanker
from sklearn.linear_model import LogisticRegression

TREE = LabelTree.from_paths(["A.1", "A.2", "B.1", "B.2", "B.3"])
LABELS = ["A.1", "A.2", "B.1", "B.2", "B.3"]


def data(seed=0, n=300):
    """Features that reveal the category more clearly than the label within it."""
    rng = np.random.default_rng(seed)
    cat = rng.integers(0, 2, n)
    lab = np.where(cat == 0, rng.integers(0, 2, n), 2 + rng.integers(0, 2, n))
    Y = np.zeros((n, 5), dtype=int)
    Y[np.arange(n), lab] = 1  # B.3 never occurs: the Laplace constant
    X = np.column_stack([cat + 0.3 * rng.standard_normal(n), np.eye(5)[lab] + 1.5 * rng.standard_normal((n, 5))])
    return X, Y


def test_doctests():
    result = doctest.testmod(tree_rankers)
    assert result.attempted >= 2 and result.failed == 0


def test_flat_is_one_logistic_regression_per_label():
    X, Y = data()
    scores = FlatRanker(C=0.5).fit(X, Y).decision_function(X)
    for j in range(4):
        ref = LogisticRegression(C=0.5, solver="liblinear", random_state=0).fit(X, Y[:, j]).predict_proba(X)[:, 1]
        np.testing.assert_allclose(scores[:, j], ref)
    np.testing.assert_allclose(scores[:, 4], 1 / (len(Y) + 2))  # no positive: (0 + 1) / (n + 2)


def test_top_down_is_the_product_along_the_chain():
    X, Y = data()
    model = TopDownRanker(TREE, LABELS, C=0.5).fit(X, Y)
    p = model.node_probabilities(X)
    assert model.nodes_ == ["A", "A.1", "A.2", "B", "B.1", "B.2", "B.3"]
    scores = model.decision_function(X)
    np.testing.assert_allclose(scores[:, 0], p["A"] * p["A.1"])
    np.testing.assert_allclose(scores[:, 3], p["B"] * p["B.2"])
    # P(A.1 | A, x) is trained on the documents of A only
    in_a = Y[:, :2].any(axis=1)
    ref = LogisticRegression(C=0.5, solver="liblinear", random_state=0).fit(X[in_a], Y[in_a, 0])
    np.testing.assert_allclose(p["A.1"], ref.predict_proba(X)[:, 1])
    # B.3 never occurs among the B documents: one class only, the Laplace constant
    in_b = Y[:, 2:].any(axis=1)
    np.testing.assert_allclose(p["B.3"], 1 / (in_b.sum() + 2))


def test_on_a_one_level_tree_top_down_is_flat():
    X, Y = data()
    flat_tree = LabelTree.from_parents({"r": None, **{lab: "r" for lab in LABELS}})
    np.testing.assert_allclose(TopDownRanker(flat_tree, LABELS).fit(X, Y).decision_function(X),
                               FlatRanker().fit(X, Y).decision_function(X))


def test_top_down_misses_stay_in_the_right_category():
    """Where the category is easy and the label hard, the top-down ranker's best label is in the right category
    at least as often as the flat ranker's."""
    X, Y = data(1, 600)
    Xt, Yt = data(2, 600)
    cat_true = Yt[:, 2:].any(axis=1)
    hits = {}
    for name, model in (("flat", FlatRanker()), ("top-down", TopDownRanker(TREE, LABELS))):
        best = model.fit(X, Y).decision_function(Xt).argmax(axis=1)
        hits[name] = np.mean((best >= 2) == cat_true)
    assert hits["top-down"] >= hits["flat"] - 0.01 and hits["top-down"] > 0.8


@pytest.mark.parametrize("make", [lambda: FlatRanker(C=0.5), lambda: TopDownRanker(TREE, LABELS, C=0.5)])
def test_sparse_input_gives_the_dense_scores(make):
    """Both rankers take CSR input (like the baselines, through the same fit-input check) and keep it sparse."""
    X, Y = data()
    X[np.abs(X) < 0.8] = 0.0
    Xs = sp.csr_matrix(X)
    dense, sparse = make().fit(X, Y), make().fit(Xs, Y)
    assert sparse.n_features_in_ == X.shape[1]
    np.testing.assert_allclose(sparse.decision_function(Xs), dense.decision_function(X), atol=1e-6)
    np.testing.assert_allclose(sparse.decision_function(X), dense.decision_function(X), atol=1e-6)
    with pytest.raises(ValueError, match="X must have 6 features"):
        sparse.decision_function(Xs[:, :3])
    bad = Xs.copy()
    bad.data[0] = np.inf
    with pytest.raises(ValueError, match="X must be finite"):
        make().fit(bad, Y)
    with pytest.raises(ValueError, match="X must be finite"):
        sparse.decision_function(bad)


@pytest.mark.parametrize(
    "make, error, message",
    [
        # labelrank.validation.check_real's wording for every positive real parameter (was "C must be a positive
        # number" for every bad C, a ValueError even for a string)
        (lambda: FlatRanker(C=0).fit(*data()), ValueError, "C must be positive and finite, got 0"),
        (lambda: FlatRanker(C=np.nan).fit(*data()), ValueError, "C must be positive and finite, got nan"),
        (lambda: FlatRanker(C="1").fit(*data()), TypeError, "C must be a positive number, got '1'"),
        (lambda: TopDownRanker(TREE, LABELS, C=True).fit(*data()), TypeError, "C must be a positive number"),
        (lambda: FlatRanker().fit(np.ones((2, 2)), None), ValueError, "requires y to be passed"),
        (lambda: FlatRanker().fit(np.ones((3, 2)), np.ones((4, 1))), ValueError, "same number of rows"),
        (lambda: FlatRanker().fit(np.full((2, 2), np.nan), np.ones((2, 1))), ValueError, "X must be finite"),
        (lambda: FlatRanker().decision_function(np.ones((2, 2))), ValueError, "not fitted yet"),
        (lambda: FlatRanker().fit(*data()).decision_function(np.ones((2, 3))), ValueError, "X must have 6 features"),
        (lambda: TopDownRanker("tree", LABELS).fit(*data()), TypeError, "tree must be a LabelTree"),
        (lambda: TopDownRanker(TREE, LABELS[:4]).fit(*data()), ValueError, "one column per label"),
        (lambda: TopDownRanker(TREE, ["A.1", "Z"]).fit(*data()), ValueError, "'Z' is not a label"),
        (lambda: TopDownRanker(TREE, ["root"]).fit(*data()), ValueError, "must not contain the root"),
        (lambda: TopDownRanker(TREE, LABELS).decision_function(np.ones((2, 6))), ValueError, "not fitted yet"),
    ],
)
def test_validation(make, error, message):
    with pytest.raises(error, match=message):
        make()
