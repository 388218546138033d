"""Tests of labelrank.metrics.cost_precision: eq. (3)-(5) of Li, Bontcheva & Cunningham (2007), A-/R-Precision and F.

Hand-worked values (on a small similarity matrix and on the reconstructed 2C088 tree of the seed's Figure 1),
the ordering binary <= BDM-Low <= BDM-High as hypothesis properties, equality of the three under the binary cost,
brute-force references straight from the equations, the vectorised CostScorer against the per-document functions on
many random cases, and cross-checks of the binary measures against labelrank.metrics and scikit-learn.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from labelrank.cost import bdm, bdm_matrix, learning_accuracy, pairwise_matrix
from labelrank.hierarchy import LabelTree
from labelrank.metrics import average_precision, f_measure
from labelrank.metrics import cost_precision as cp
from labelrank.metrics.cost_precision import (
    a_precision,
    cost_precision,
    cost_recall,
    r_precision,
    set_f_measure,
    set_precision,
    set_recall,
)
from labelrank.metrics.cost_scorer import CostScorer, lists_from_matrix, ranking_from_scores

ROOT = Path(__file__).resolve().parents[2]
FIG1 = ROOT / "data" / "fterm" / "2C088_figure1.yaml"


def sim_frame(labels, pairs):
    """A symmetric similarity DataFrame with 1 on the diagonal and the given off-diagonal values."""
    S = pd.DataFrame(np.eye(len(labels)), index=labels, columns=labels)
    for (a, b), v in pairs.items():
        S.loc[a, b] = S.loc[b, a] = v
    return S


# a, b true-ish labels; x near a; y a bit near a; z unrelated
SIM = sim_frame(list("abxyz"), {("a", "b"): 0.1, ("a", "x"): 0.8, ("b", "x"): 0.3, ("a", "y"): 0.6})


@pytest.fixture(scope="module")
def fig1():
    tree = LabelTree.from_file(FIG1)
    return tree, bdm_matrix(tree)


def test_doctests():
    result = doctest.testmod(cp, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 15 and result.failed == 0


# ------------------------------------------------------------------------------------------- hand-worked values
def test_hand_worked_precision_and_recall():
    # truth {a, b}; listed a (exact), x (near a: 0.8, near b: 0.3)
    true, listed = ["a", "b"], ["a", "x"]
    assert set_precision(true, listed, SIM, "binary") == 0.5
    assert set_precision(true, listed, SIM, "high") == pytest.approx((1 + 0.8) / 2)
    # low: a was found, so x only earns its similarity to the missed b
    assert set_precision(true, listed, SIM, "low") == pytest.approx((1 + 0.3) / 2)
    assert set_recall(true, listed, SIM, "binary") == 0.5
    # b earns its best similarity to a listed label: max(s(a, b), s(x, b)) = 0.3
    assert set_recall(true, listed, SIM, "high") == pytest.approx((1 + 0.3) / 2)
    assert set_recall(true, listed, SIM, "low") == pytest.approx((1 + 0.3) / 2)
    p, r = (1 + 0.8) / 2, (1 + 0.3) / 2
    assert set_f_measure(true, listed, SIM, "high") == pytest.approx(2 * p * r / (p + r))
    # recall="binary": only the precision is cost-based
    assert set_f_measure(true, listed, SIM, "high", recall="binary") == pytest.approx(2 * p * 0.5 / (p + 0.5))


def test_hand_worked_matching_rule():
    # one missed true label a, two wrong listed labels near it: "best" credits both, "matching" only one
    true, listed = ["a"], ["x", "y"]
    assert set_precision(true, listed, SIM, "high") == pytest.approx((0.8 + 0.6) / 2)
    assert set_precision(true, listed, SIM, "low") == pytest.approx((0.8 + 0.6) / 2)
    assert set_precision(true, listed, SIM, "low", low_rule="matching") == pytest.approx(0.8 / 2)
    assert set_recall(true, listed, SIM, "low", low_rule="matching") == pytest.approx(0.8)
    assert set_recall(true, listed, SIM, "low") == pytest.approx(0.8)


def test_hand_worked_ranked_low_depends_on_the_cutoff():
    # x at rank 1 earns 0.8 while a is missed (k = 1), nothing once a is found at rank 2
    true, ranking = ["a", "b"], ["x", "a", "z", "b"]
    assert a_precision(true, ranking, SIM, "binary") == pytest.approx((1 / 2 + 2 / 4) / 2)
    high = ((1 + 0.8) / 2 + (2 + 0.8) / 4) / 2  # x earns 0.8 throughout
    low = ((1 + 0.3) / 2 + 2 / 4) / 2  # at k = 2 only b is missed: x earns 0.3; at k = 4 nothing is missed
    assert a_precision(true, ranking, SIM, "high") == pytest.approx(high)
    assert a_precision(true, ranking, SIM, "low") == pytest.approx(low)
    assert r_precision(true, ranking, SIM, "binary") == 0.5
    assert r_precision(true, ranking, SIM, "high") == pytest.approx((0.8 + 1) / 2)
    assert r_precision(true, ranking, SIM, "low") == pytest.approx((0.3 + 1) / 2)
    # cutoff 3: b is beyond the list
    assert a_precision(true, ranking, SIM, "binary", cutoff=3) == pytest.approx((1 / 2) / 2)
    # a list shorter than R still divides by R
    assert r_precision(["a", "b", "z"], ["a"], SIM, "binary") == pytest.approx(1 / 3)


def test_hand_worked_on_the_2C088_tree(fig1):
    tree, S = fig1
    true = ["AA01", "AA65"]
    ranking = ["AA02", "AA01", "BA", "AA03", "AA65"]
    b = lambda k, r: bdm(tree, k, r)  # noqa: E731  the scalar BDM, independent of bdm_matrix
    g_aa02 = max(b("AA02", "AA01"), b("AA02", "AA65"))
    g_aa03 = max(b("AA03", "AA01"), b("AA03", "AA65"))
    # per prefix, high: AA02 earns its best BDM (to AA01: Table 1 gives 0.90), BA earns 0
    p_high = [g_aa02 / 1, (g_aa02 + 1) / 2, (g_aa02 + 1) / 3, (g_aa02 + 1 + g_aa03) / 4, (g_aa02 + 2 + g_aa03) / 5]
    assert g_aa02 == pytest.approx(0.90, abs=0.005) and g_aa03 == pytest.approx(0.75, abs=0.005)
    for k in range(1, 6):
        assert set_precision(true, ranking[:k], S, "high") == pytest.approx(p_high[k - 1])
    # low: at k = 1 both true F-terms are missed; from k = 2 on only AA65 is
    p_low = [g_aa02, (b("AA02", "AA65") + 1) / 2, (b("AA02", "AA65") + 1) / 3,
             (b("AA02", "AA65") + 1 + b("AA03", "AA65")) / 4, 2 / 5]
    for k in range(1, 6):
        assert set_precision(true, ranking[:k], S, "low") == pytest.approx(p_low[k - 1])
    assert a_precision(true, ranking, S, "binary") == pytest.approx((1 / 2 + 2 / 5) / 2)
    assert a_precision(true, ranking, S, "high") == pytest.approx((p_high[1] + p_high[4]) / 2)
    assert a_precision(true, ranking, S, "low") == pytest.approx((p_low[1] + p_low[4]) / 2)
    assert r_precision(true, ranking, S, "high") == pytest.approx(p_high[1])
    # Table 1 numbers, rounded as printed: AA02 ~ AA01 0.90, AA02 ~ AA65 0.50
    assert set_precision(true, ["AA02"], S, "high") == pytest.approx(0.90, abs=0.005)
    assert set_precision(["AA01"], ["AA02"], S, "low") == pytest.approx(0.90, abs=0.005)
    assert set_precision(["AA01", "AA02"], ["AA02", "AA65"], S, "low") == pytest.approx((1 + 0.45) / 2, abs=0.005)


# ------------------------------------------------------------------------------------------------------- eq. (3)
def test_cost_precision_eq3_hand_and_binary_equals_precision():
    y_true = ["a", "b", "a", "x", "z"]
    y_pred = ["a", "a", "x", "a", "a"]
    cost = 1 - SIM
    # S = examples predicted a: true a, b, x, z -> credits 1, 0.1, 0.8, 0
    assert cost_precision(y_true, y_pred, "a", cost) == pytest.approx((1 + 0.1 + 0.8 + 0) / 4)
    assert cost_recall(y_true, y_pred, "a", cost) == pytest.approx((1 + 0.8) / 2)
    binary = lambda k, r: float(k != r)  # noqa: E731
    rng = np.random.default_rng(3)
    for _ in range(50):
        yt = rng.choice(list("abxyz"), 30)
        yp = rng.choice(list("abxyz"), 30)
        for lab in "abxyz":
            if (yp == lab).any():
                assert cost_precision(yt, yp, lab, binary) == pytest.approx(
                    skm.precision_score(yt, yp, labels=[lab], average="macro", zero_division=0))
                assert cost_precision(yt, yp, lab, cost) >= cost_precision(yt, yp, lab, binary) - 1e-12
            if (yt == lab).any():
                assert cost_recall(yt, yp, lab, binary) == pytest.approx(
                    skm.recall_score(yt, yp, labels=[lab], average="macro", zero_division=0))
    assert np.isnan(cost_precision(["a"], ["b"], "a", cost))


def test_cost_precision_eq3_with_learning_accuracy_is_asymmetric(fig1):
    tree, _ = fig1
    la = pairwise_matrix(tree, learning_accuracy, ["AA", "AA01", "AA02"])
    # predicting the ancestor AA when the truth is AA02: LA = 1 (any ancestor scores 1); the converse does not
    assert cost_precision(["AA02"], ["AA"], "AA", 1 - la) == pytest.approx(1.0)
    assert cost_precision(["AA"], ["AA02"], "AA02", 1 - la) < 1.0


def test_cost_precision_validation():
    with pytest.raises(ValueError, match="y_true and y_pred"):
        cost_precision(["a"], ["a", "b"], "a", 1 - SIM)
    with pytest.raises(TypeError, match="cost must be"):
        cost_precision(["a"], ["a"], "a", 3)
    with pytest.raises(ValueError, match=r"cost must lie in \[0, 1\]"):
        cost_precision(["b"], ["a"], "a", lambda k, r: 2.0)
    with pytest.raises(ValueError, match="y_true must be a 1-D"):
        cost_precision([["a"]], [["a"]], "a", 1 - SIM)


# ------------------------------------------------------------------------------------------- ordering properties
def _random_tree(rng, n):
    parents = {"r": None}
    for i in range(n):
        parents[f"n{i}"] = str(rng.choice(list(parents)))
    return LabelTree.from_parents(parents)


@st.composite
def documents(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(2, 25))
    tree = _random_tree(rng, n)
    labels = list(tree.labels)
    true = list(rng.choice(labels, size=draw(st.integers(1, min(6, len(labels)))), replace=False))
    listed = list(rng.choice(labels, size=draw(st.integers(0, len(labels))), replace=False))
    return tree, true, listed


_LAST: list = []  # [(tree, its BDM matrix)] of the last tree: hypothesis shrinks by re-running one example


def _bdm(tree):
    # keyed on the tree object itself (kept alive here): an id() of a collected tree can be reused by a new one
    if not _LAST or _LAST[0][0] is not tree:
        _LAST[:] = [(tree, bdm_matrix(tree))]
    return _LAST[0][1]


@settings(max_examples=150, deadline=None)
@given(documents())
def test_binary_le_low_le_high(doc):
    tree, true, listed = doc
    S = _bdm(tree)
    eps = 1e-12
    for func in (set_precision, set_recall, set_f_measure):
        b = func(true, listed, S, "binary")
        lm = func(true, listed, S, "low", low_rule="matching")
        lb = func(true, listed, S, "low")
        h = func(true, listed, S, "high")
        assert 0 <= b <= lm + eps <= lb + 2 * eps <= h + 3 * eps <= 1 + 4 * eps, func.__name__
    for func in (a_precision, r_precision):
        for cutoff in (200, 3):
            b = func(true, listed, S, "binary", cutoff=cutoff)
            lm = func(true, listed, S, "low", cutoff=cutoff, low_rule="matching")
            lb = func(true, listed, S, "low", cutoff=cutoff)
            h = func(true, listed, S, "high", cutoff=cutoff)
            assert 0 <= b <= lm + eps <= lb + 2 * eps <= h + 3 * eps <= 1 + 4 * eps, func.__name__
    b = set_f_measure(true, listed, S, "binary", recall="binary")
    assert b <= set_f_measure(true, listed, S, "low", recall="binary") + eps
    assert set_f_measure(true, listed, S, "low", recall="binary") <= set_f_measure(true, listed, S, "high",
                                                                                   recall="binary") + eps


@settings(max_examples=100, deadline=None)
@given(documents())
def test_all_three_equal_under_the_binary_cost(doc):
    tree, true, listed = doc
    identity = pd.DataFrame(np.eye(len(tree)), index=tree.labels, columns=tree.labels)
    for func in (set_precision, set_recall, set_f_measure, a_precision, r_precision):
        values = [func(true, listed, identity, v) for v in cp.VARIANTS]
        values.append(func(true, listed, identity, "low", low_rule="matching"))
        assert values == pytest.approx([values[0]] * 4), func.__name__


@settings(max_examples=100, deadline=None)
@given(documents())
def test_perfect_and_exact_lists(doc):
    tree, true, _ = doc
    S = _bdm(tree)
    for v in cp.VARIANTS:
        assert a_precision(true, true, S, v) == pytest.approx(1.0)
        assert r_precision(true, true, S, v) == pytest.approx(1.0)
        assert set_f_measure(true, true, S, v) == pytest.approx(1.0)


# ------------------------------------------------------------------------------------ brute force from the text
def brute_precision(true, listed, sim, variant):
    """Eq. (2), (4), (5) with plain loops over labels."""
    if not listed:
        return 0.0
    hits = [f for f in listed if f in true]
    if variant == "binary":
        return len(hits) / len(listed)
    if variant == "high":
        return sum(max(sim.loc[f, g] for g in true) for f in listed) / len(listed)
    missed = [g for g in true if g not in listed]
    credit = sum(max([sim.loc[f, g] for g in missed], default=0.0) for f in listed if f not in true)
    return (credit + len(hits)) / len(listed)


def brute_ap(true, ranking, sim, variant, cutoff):
    ranking = ranking[:cutoff]
    total = sum(brute_precision(true, ranking[:k], sim, variant) for k in range(1, len(ranking) + 1)
                if ranking[k - 1] in true)
    return total / len(true)


@settings(max_examples=100, deadline=None)
@given(documents(), st.integers(1, 30))
def test_against_brute_force(doc, cutoff):
    tree, true, listed = doc
    S = _bdm(tree)
    for v in cp.VARIANTS:
        assert set_precision(true, listed, S, v) == pytest.approx(brute_precision(true, listed, S, v))
        assert a_precision(true, listed, S, v, cutoff=cutoff) == pytest.approx(brute_ap(true, listed, S, v, cutoff))
        R = len(true)
        prefix = listed[: min(R, cutoff)]
        assert r_precision(true, listed, S, v, cutoff=cutoff) == pytest.approx(
            brute_precision(true, prefix, S, v) * len(prefix) / R)


# ------------------------------------------------------------------------------ cross-checks of the binary case
def test_binary_a_precision_is_trec_eval_map_and_sklearn_lrap():
    rng = np.random.default_rng(7)
    Y = (rng.random((200, 12)) < 0.25).astype(int)
    Y[Y.sum(axis=1) == 0, 0] = 1
    scores = rng.random((200, 12))  # continuous: no ties
    labels = [f"l{j}" for j in range(12)]
    order = ranking_from_scores(scores)
    ours = [a_precision([labels[j] for j in np.flatnonzero(y)], [labels[j] for j in o]) for y, o in zip(Y, order)]
    assert np.mean(ours) == pytest.approx(average_precision(Y, scores))
    assert np.mean(ours) == pytest.approx(skm.label_ranking_average_precision_score(Y, scores))
    identity = pd.DataFrame(np.eye(12), index=labels, columns=labels)
    table = CostScorer(identity).score(lists_from_matrix(Y), order)
    assert table.loc["A-Precision", "binary"] == pytest.approx(average_precision(Y, scores))


def test_binary_f_is_the_usual_f1():
    rng = np.random.default_rng(11)
    labels = list("abcdefgh")
    for _ in range(200):
        true = list(rng.choice(labels, rng.integers(1, 5), replace=False))
        assigned = list(rng.choice(labels, rng.integers(1, 6), replace=False))
        tp = len(set(true) & set(assigned))
        assert set_f_measure(true, assigned) == pytest.approx(
            f_measure(tp, len(assigned) - tp, len(true) - tp))


# --------------------------------------------------------------------------- the vectorised scorer, many cases
@pytest.mark.parametrize("heads", [False, True])
def test_scorer_matches_the_per_document_functions(fig1, heads):
    """With ``heads``, each assigned set is the head of its ranked list (a threshold on ranked scores), whose
    similarities the scorer takes from the list's (when the list is not cut shorter than the set)."""
    tree, S = fig1
    rng = np.random.default_rng(0)
    labels = list(tree.labels)
    truth, ranking, assigned = [], [], []
    for _ in range(150):
        truth.append(list(rng.choice(labels, rng.integers(0, 7), replace=False)))
        ranking.append(list(rng.choice(labels, rng.integers(0, 40), replace=False)))
        assigned.append(list(rng.choice(labels, rng.integers(0, 8), replace=False)))
        if heads:
            assigned[-1] = ranking[-1][: rng.integers(0, 15)]
    scorer = CostScorer(S)
    for cutoff, recall, rule in ((200, "symmetric", "best"), (10, "binary", "best"), (25, "symmetric", "matching")):
        table = scorer.score(truth, ranking, assigned, cutoff=cutoff, recall=recall, low_rule=rule,
                             per_document=True, block=17)
        for d in range(len(truth)):
            row = table.iloc[d]
            if not truth[d]:
                assert row.isna().all()
                continue
            for v in cp.VARIANTS:
                assert row[("A-Precision", v)] == pytest.approx(
                    a_precision(truth[d], ranking[d], S, v, cutoff=cutoff, low_rule=rule), abs=1e-12)
                assert row[("R-Precision", v)] == pytest.approx(
                    r_precision(truth[d], ranking[d], S, v, cutoff=cutoff, low_rule=rule), abs=1e-12)
                assert row[("F-measure", v)] == pytest.approx(
                    set_f_measure(truth[d], assigned[d], S, v, recall=recall, low_rule=rule), abs=1e-12)
        means = scorer.score(truth, ranking, assigned, cutoff=cutoff, recall=recall, low_rule=rule)
        assert means.to_numpy() == pytest.approx(table.mean().unstack().loc[list(cp.MEASURES)].to_numpy())


def test_scorer_accepts_int_arrays_and_labels_alike(fig1):
    tree, S = fig1
    scorer = CostScorer.from_tree(tree)
    ix = {lab: i for i, lab in enumerate(scorer.labels)}
    truth = [["AA01", "AA65"], ["BA"]]
    ranking = [["AA02", "AA01", "BA"], ["BA-e1", "BA"]]
    enc_t = scorer.encode(truth)
    assert enc_t.tolist() == [[ix["AA01"], ix["AA65"]], [ix["BA"], -1]]
    a = scorer.score(truth, ranking=ranking)
    b = scorer.score(enc_t, ranking=scorer.encode(ranking))
    pd.testing.assert_frame_equal(a, b)
    assert list(a.index) == ["A-Precision", "R-Precision"]
    per = scorer.score(truth, assigned=ranking, per_document=True, index=["p1", "p2"])
    assert list(per.index) == ["p1", "p2"] and set(per.columns.get_level_values(0)) == {"F-measure"}


def test_helpers():
    assert lists_from_matrix([[1, 0, 1], [0, 0, 0]]).tolist() == [[0, 2], [-1, -1]]
    assert ranking_from_scores([[0.3, 0.1, 0.9, 0.5]], cutoff=2).tolist() == [[2, 3]]


# --------------------------------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: set_precision(["a"], ["b"], SIM, "medium"), ValueError, "variant must be one of"),
        (lambda: set_precision(["a"], ["b"], SIM, "low", low_rule="greedy"), ValueError, "low_rule must be one of"),
        (lambda: set_precision(["a"], ["b"], None, "high"), ValueError, "needs a similarity matrix"),
        (lambda: set_precision(["a"], ["b"], SIM.to_numpy(), "high"), TypeError, "similarity must be a pandas"),
        (lambda: set_precision(["a"], ["q"], SIM, "high"), ValueError, "listed holds label 'q'"),
        (lambda: set_precision(["a"], ["b", "b"], SIM, "high"), ValueError, "listed lists label 'b' more than once"),
        (lambda: set_precision([], ["b"], SIM, "high"), ValueError, "true must hold at least one label"),
        (lambda: set_precision("ab", ["b"], SIM, "high"), TypeError, "true must be a collection"),
        (lambda: set_precision([1], ["b"], SIM, "binary"), TypeError, r"true must hold labels \(str\)"),
        (lambda: set_precision(["a"], ["b"], SIM * 2, "high"), ValueError, r"similarity must lie in \[0, 1\]"),
        (lambda: set_precision(["a"], ["b"], SIM * 0.5, "high"), ValueError, "with itself must be 1"),
        (lambda: set_precision(["a"], ["b"], SIM.iloc[:, ::-1], "high"), ValueError, "same labels, in the same"),
        (lambda: set_f_measure(["a"], ["b"], SIM, "high", recall="tidy"), ValueError, "recall must be one of"),
        (lambda: a_precision(["a"], ["b"], SIM, "high", cutoff=0), ValueError, "cutoff must be >= 1"),
        (lambda: r_precision(["a"], ["b"], SIM, "high", cutoff=2.5), TypeError, "cutoff must be an integer"),
        (lambda: CostScorer(SIM).score([["a"]]), ValueError, "needs ranking=, assigned= or both"),
        (lambda: CostScorer(SIM).score([["a"]], [["q"]]), ValueError, r"ranking\[0\] holds label 'q'"),
        (lambda: CostScorer(SIM).score([["a"]], [["a"], ["b"]]), ValueError, "one row per document"),
        (lambda: CostScorer(SIM).score(np.array([[0, 9]]), [["a"]]), ValueError, "label index 9"),
        (lambda: CostScorer(SIM).score(np.array([[-1, 0]]), [["a"]]), ValueError, r"padding \(-1\) before"),
        (lambda: CostScorer(SIM).score(np.array([[1, 1]]), [["a"]]), ValueError, "more than once"),
        (lambda: CostScorer(SIM).score("ab", [["a"]]), TypeError, "truth must be a sequence"),
        (lambda: CostScorer(SIM).score([["a"]], [["a"]], index=[1, 2]), ValueError, "index must have one entry"),
    ],
)
def test_validation_messages(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------------------- scoring without the tree's matrix
def _random_lists(rng, labels, n_docs, max_len):
    return [list(rng.choice(labels, size=int(rng.integers(0, max_len + 1)), replace=False)) for _ in range(n_docs)]


@pytest.mark.parametrize("seed", range(6))
def test_scorer_from_tree_equals_the_matrix_scorer(seed):
    """``from_tree`` computes BDM per needed pair; the numbers are those of the dense BDM matrix, bit for bit."""
    rng = np.random.default_rng(seed)
    parents = {"r": None}
    for i in range(1, 80):
        parents[f"n{i}"] = "r" if i < 4 else f"n{int(rng.integers(1, i))}"
    if seed % 2:
        parents["dag"] = ["n5", "n9"]
    tree = LabelTree.from_parents(parents)
    labels = list(tree.labels)
    truth = [lst or [labels[1]] for lst in _random_lists(rng, labels, 40, 5)]
    ranking, assigned = _random_lists(rng, labels, 40, 30), _random_lists(rng, labels, 40, 6)
    dense, lazy = CostScorer(bdm_matrix(tree)), CostScorer.from_tree(tree)
    for kw in ({}, {"cutoff": 7}, {"recall": "binary"}, {"per_document": True}):
        pd.testing.assert_frame_equal(lazy.score(truth, ranking, assigned, **kw),
                                      dense.score(truth, ranking, assigned, **kw), check_exact=True)
    pd.testing.assert_frame_equal(lazy.score(truth[:8], ranking[:8], assigned[:8], low_rule="matching"),
                                  dense.score(truth[:8], ranking[:8], assigned[:8], low_rule="matching"),
                                  check_exact=True)
    assert lazy._matrix is None  # scoring never built the matrix
    np.testing.assert_array_equal(lazy.matrix, dense.matrix)
    sub = CostScorer.from_tree(tree, labels=labels[10:30])
    pd.testing.assert_frame_equal(sub.score([labels[10:12]], [labels[12:20]]),
                                  CostScorer(bdm_matrix(tree, labels[10:30])).score([labels[10:12]], [labels[12:20]]),
                                  check_exact=True)


def test_a_large_tree_is_scored_without_its_matrix():
    """40,000 labels: the matrix would be 12.8 GB; the pairs a run holds are a few thousand."""
    rng = np.random.default_rng(0)
    n = 40_000
    parents = {"r": None, **{f"n{i}": "r" if i < 20 else f"n{i // 5}" for i in range(1, n)}}
    tree = LabelTree.from_parents(parents)
    labels = np.array(tree.labels)
    truth = [list(rng.choice(labels, 3, replace=False)) for _ in range(200)]
    ranking = [list(rng.choice(labels, 20, replace=False)) for _ in range(200)]
    scorer = CostScorer.from_tree(tree)
    table = scorer.score(truth, ranking, [r[:3] for r in ranking], per_document=True)
    assert scorer._matrix is None and table.notna().all().all()
    for d in (0, 7, 199):  # against the per-document definitions on the labels the document holds
        used = sorted(set(ranking[d]) | set(truth[d]))
        sim = pd.DataFrame([[bdm(tree, a, b) for b in used] for a in used], index=used, columns=used)
        for v in cp.VARIANTS:
            expected_ap = a_precision(truth[d], ranking[d], sim, v)
            expected_rp = r_precision(truth[d], ranking[d], sim, v)
            assert table.loc[d, ("A-Precision", v)] == pytest.approx(expected_ap, abs=1e-12)
            assert table.loc[d, ("R-Precision", v)] == pytest.approx(expected_rp, abs=1e-12)
