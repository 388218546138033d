"""hierarchical_prf (hP, hR, hF) and lca_prf (LCA-P, LCA-R, LCA-F) under HiClass's reading: worked examples,
properties, and a cross-check of the set-based measures against HiClass (HEMKit's reading: tests/lib/test_hemkit.py)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelrank.hierarchy import LabelTree
from labelrank.metrics import hierarchical_prf, lca_prf, micro_f1



def lca_hiclass(*args, **kwargs):
    """LCA-P, LCA-R, LCA-F read as HiClass reads the set-based measures (root not counted, micro), with a
    minimum-cost edge cover: the reading these tests pin; HEMKit's is pinned in tests/lib/test_hemkit.py."""
    return lca_prf(*args, convention="hiclass", **kwargs)


MEASURES = (hierarchical_prf, lca_hiclass)

#       r
#     /   \
#    a     b
#   / \    |
#  a1  a2  b1
#  |
#  a11
TREE = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a", "b1": "b", "a11": "a1"})


def test_worked_examples():
    assert hierarchical_prf(TREE, [["a1"]], [["a2"]]) == (0.5, 0.5, 0.5)
    assert lca_hiclass(TREE, [["a1"]], [["a2"]]) == (0.5, 0.5, 0.5)
    # a cousin one level deeper: set-based counts the shared top node a, pair-based the LCA a too
    assert hierarchical_prf(TREE, [["a11"]], [["a2"]]) == pytest.approx((1 / 2, 1 / 3, 0.4))
    assert lca_hiclass(TREE, [["a11"]], [["a2"]]) == pytest.approx((1 / 2, 1 / 3, 0.4))
    # the deep sibling a11 vs a1's sibling a2 differ once a1 is predicted too: hF counts a and a1 again
    assert hierarchical_prf(TREE, [["a11"]], [["a1", "a2"]]) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    assert lca_hiclass(TREE, [["a11"]], [["a1", "a2"]]) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    # another branch: nothing shared below the root
    assert hierarchical_prf(TREE, [["a1"]], [["b1"]]) == (0.0, 0.0, 0.0)
    assert lca_hiclass(TREE, [["a1"]], [["b1"]]) == (0.0, 0.0, 0.0)
    # where the families differ: a predicted label paired across branches adds its whole chain to the pair-based
    # sets but shares the ancestors of every true label in the set-based ones
    assert hierarchical_prf(TREE, [["a1", "b1"]], [["a2"]]) == pytest.approx((1 / 2, 1 / 4, 1 / 3))
    assert lca_hiclass(TREE, [["a1", "b1"]], [["a2"]]) == pytest.approx((1 / 2, 1 / 4, 1 / 3))
    assert hierarchical_prf(TREE, [["a11"]], [["a11", "b1"]]) == pytest.approx((3 / 5, 1, 0.75))
    # ... and the true label paired with it is augmented up to that LCA (the root) too, so recall falls
    assert lca_hiclass(TREE, [["a11"]], [["a11", "b1"]]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_micro_pools_and_macro_averages():
    truth, pred = [["a1"], ["a11"]], [["a2"], ["a11"]]
    # micro: overlaps 1 + 3 over predicted sizes 2 + 3 and true sizes 2 + 3
    assert hierarchical_prf(TREE, truth, pred) == pytest.approx((4 / 5, 4 / 5, 4 / 5))
    assert hierarchical_prf(TREE, truth, pred, average="macro") == pytest.approx((0.75, 0.75, 0.75))
    # an empty prediction: precision 0 in the macro average, nothing in the micro denominators
    assert hierarchical_prf(TREE, [["a1"], ["b1"]], [["a1"], []]) == pytest.approx((1, 0.5, 2 / 3))
    assert lca_hiclass(TREE, [["a1"], ["b1"]], [["a1"], []], average="macro") == pytest.approx((0.5, 0.5, 0.5))


@pytest.mark.parametrize("measure", MEASURES)
def test_bad_input_is_named(measure):
    with pytest.raises(TypeError, match="tree must be"):
        measure({"r": None}, [["a"]], [["a"]])
    with pytest.raises(TypeError, match=r"truth\[0\] must be a collection"):
        measure(TREE, ["a1"], [["a1"]])
    with pytest.raises(ValueError, match="'zz'"):
        measure(TREE, [["a1"]], [["zz"]])
    with pytest.raises(ValueError, match="root"):
        measure(TREE, [["r"]], [["a1"]])
    with pytest.raises(ValueError, match="one entry per document"):
        measure(TREE, [["a1"]], [["a1"], ["a2"]])
    with pytest.raises(ValueError, match="average"):
        measure(TREE, [["a1"]], [["a1"]], average="weighted")


def test_lca_needs_a_tree():
    dag = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "c": ["a", "b"]})
    assert hierarchical_prf(dag, [["c"]], [["a"]]) == pytest.approx((1, 1 / 3, 0.5))  # c's ancestors: a and b
    with pytest.raises(ValueError, match="tree"):
        lca_hiclass(dag, [["c"]], [["a"]])
    assert lca_prf(dag, [["c"]], [["a"]]) == pytest.approx((1, 0.5, 2 / 3))  # HEMKit's reading takes DAGs


# ------------------------------------------------------------------------------------------------- properties
@st.composite
def trees_and_sets(draw, max_nodes=14, max_docs=4):
    """A random tree under root "r" and documents' true and predicted label sets (non-empty)."""
    n = draw(st.integers(2, max_nodes))
    parents = {"r": None}
    for i in range(n):
        parents[f"n{i}"] = draw(st.sampled_from(list(parents)))
    tree = LabelTree.from_parents(parents)
    labels = [x for x in parents if x != "r"]
    sets = st.lists(st.sampled_from(labels), min_size=1, max_size=3, unique=True)
    docs = draw(st.integers(1, max_docs))
    return tree, [draw(sets) for _ in range(docs)], [draw(sets) for _ in range(docs)]


@settings(max_examples=200, deadline=None)
@given(trees_and_sets(), st.sampled_from(["micro", "macro"]))
def test_a_perfect_prediction_scores_one(case, average):
    tree, truth, _ = case
    for measure in MEASURES:
        assert measure(tree, truth, truth, average=average) == pytest.approx((1.0, 1.0, 1.0))


@settings(max_examples=200, deadline=None)
@given(trees_and_sets())
def test_an_ancestor_is_precise_but_not_complete(case):
    tree, truth, _ = case
    label = truth[0][0]
    ancestors = [x for x in tree.chains(label)[0][1:-1]]
    if not ancestors:
        return
    for measure in MEASURES:
        for ancestor in ancestors:
            p, r, _ = measure(tree, [[label]], [[ancestor]])
            assert p == 1.0 and r < 1.0


def _disjoint_label(tree, truth):
    """A label whose top-level branch holds no true label (None if every branch holds one)."""
    tops = {tree.chains(x)[0][1] for doc in truth for x in doc}
    free = [x for x in tree.labels if x != tree.root and tree.chains(x)[0][1] not in tops]
    return free[0] if free else None


@settings(max_examples=300, deadline=None)
@given(trees_and_sets(max_docs=1))
def test_a_wrong_label_in_another_branch_never_raises_hierarchical_precision(case):
    tree, truth, predicted = case
    extra = _disjoint_label(tree, truth)
    if extra is None or extra in predicted[0]:
        return
    before = hierarchical_prf(tree, truth, predicted)[0]
    after = hierarchical_prf(tree, truth, [predicted[0] + [extra]])[0]
    assert after <= before + 1e-12, (truth, predicted, extra)


def test_a_wrong_label_in_another_branch_can_raise_lca_precision():
    """The property does not hold for LCA-P (found by the property test above, run on lca_prf): a missed true
    label must pair with some prediction; a wrong one nearer to it frees a correct deep prediction from pairing
    with it at the root, which had added that prediction's whole chain to the predicted set."""
    tree = LabelTree.from_parents({"r": None, "A": "r", "A1": "A", "A11": "A1", "B": "r", "C": "r"})
    assert lca_hiclass(tree, [["A11", "B"]], [["A11"]])[0] == pytest.approx(1 / 3)  # {A11, A1, A} vs {A11, B}
    assert lca_hiclass(tree, [["A11", "B"]], [["A11", "C"]])[0] == pytest.approx(1 / 2)  # {A11, C} vs {A11, B}
    assert hierarchical_prf(tree, [["A11", "B"]], [["A11", "C"]])[0] < hierarchical_prf(tree, [["A11", "B"]],
                                                                                      [["A11"]])[0]


def test_a_wrong_sibling_can_raise_hierarchical_precision():
    """Not every wrong label lowers hP: a wrong sibling of a true label brings their shared parent along."""
    assert hierarchical_prf(TREE, [["b1"]], [["a1"]])[0] == 0.0
    assert hierarchical_prf(TREE, [["a2"]], [["b1"]])[0] == 0.0
    assert hierarchical_prf(TREE, [["a2"]], [["b1", "a1"]])[0] == pytest.approx(1 / 4)  # + a1: shares a with a2


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 8), st.data())
def test_on_a_flat_tree_both_are_flat_micro_f(n, data):
    """With every label a child of the root there is nothing to augment: both measures are flat micro P/R/F."""
    tree = LabelTree.from_parents({"r": None, **{f"l{i}": "r" for i in range(n)}})
    labels = [f"l{i}" for i in range(n)]
    sets = st.lists(st.sampled_from(labels), min_size=1, max_size=n, unique=True)
    truth, pred = data.draw(st.lists(sets, min_size=1, max_size=5)), None
    pred = [data.draw(sets) for _ in truth]
    Y = np.array([[lab in doc for lab in labels] for doc in truth], dtype=int)
    P = np.array([[lab in doc for lab in labels] for doc in pred], dtype=int)
    for measure in MEASURES:
        assert measure(tree, truth, pred)[2] == pytest.approx(micro_f1(Y, P))


# ------------------------------------------------------------------------------------------------- HiClass
@settings(max_examples=150, deadline=None)
@given(trees_and_sets(max_docs=6), st.sampled_from(["micro", "macro"]))
def test_hierarchical_prf_equals_hiclass(case, average):
    hiclass_metrics = pytest.importorskip("hiclass.metrics", reason="HiClass is a test dependency (pip install hiclass)")
    tree, truth, predicted = case
    truth, predicted = [[doc[0]] for doc in truth], [[doc[0]] for doc in predicted]  # HiClass: one path each
    depth = max(len(tree.chains(x)[0]) for x in tree.labels) - 1

    def paths(docs):
        rows = [list(tree.chains(doc[0])[0][1:]) for doc in docs]
        return np.array([row + [""] * (depth - len(row)) for row in rows], dtype=object)

    ours = hierarchical_prf(tree, truth, predicted, average=average)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = (hiclass_metrics.precision(paths(truth), paths(predicted), average=average),
                  hiclass_metrics.recall(paths(truth), paths(predicted), average=average),
                  hiclass_metrics.f1(paths(truth), paths(predicted), average=average))
    assert ours == pytest.approx(theirs, abs=1e-12)
