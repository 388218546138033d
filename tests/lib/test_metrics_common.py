"""The invariances every measure of the library shares, checked across the families at once (the pattern of
scikit-learn's ``sklearn/metrics/tests/test_common.py``): driven by the registries below and by
:data:`labelrank.metrics.METRICS`, so that a measure added to a family is checked without a test of its own.

Families: the eight ranking and decision metrics of Yang & Gopal (``METRICS``); the cost-based precision of Li et
al. (A-Precision, R-Precision, set precision, recall and F, in the binary and both BDM variants); the hierarchical
and LCA-based precision, recall and F (both conventions, micro and macro); the clustering F-measures. Invariances:
permutation of the instances, renaming or permutation of the labels where the measure allows it, ties, empty rows,
and the same value from every container and dtype a measure accepts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from labelrank.cost import bdm_matrix
from labelrank.hierarchy import LabelTree
from labelrank.metrics import (
    METRICS,
    TIE_RULES,
    a_precision,
    class_weighted_f_measure,
    clustering_accuracy,
    contingency_table,
    greedy_f_measure,
    hierarchical_prf,
    lca_prf,
    matched_f_measure,
    r_precision,
    recall_level_precision,
    set_f_measure,
    set_precision,
    set_recall,
)

RANK = {name: info for name, info in METRICS.items() if info.kind == "rank"}
DECISION = {name: info for name, info in METRICS.items() if info.kind == "decision"}

#: the cost-based measures of one document: f(true, listed, similarity, variant)
COST_BASED = {
    "A-Precision": a_precision,
    "R-Precision": r_precision,
    "recall-level precision": recall_level_precision,
    "set precision": set_precision,
    "set recall": set_recall,
    "set F": set_f_measure,
}
VARIANTS = ("binary", "high", "low")

#: the hierarchical measures of a collection: f(tree, truth, predicted, average, convention=...) -> (P, R, F)
HIERARCHICAL = {
    f"{f.__name__}[{convention}, {average}]": (f, convention, average)
    for f in (hierarchical_prf, lca_prf)
    for convention, average in (("hiclass", "micro"), ("hiclass", "macro"), ("hemkit", "macro"))
}
#: measures whose value may depend on the labels' order where several pairings are equally cheap: lca_prf under
#: HiClass's reading takes the first of equally cheap pairings in the order of the labels (its docstring, "Ties")
ORDER_OF_LABELS_BREAKS_TIES = {name for name in HIERARCHICAL if name.startswith("lca_prf[hiclass")}

#: the clustering F-measures of a contingency table (clusters x classes) -> float
CLUSTERING = {
    "greedy F": lambda C: greedy_f_measure(C)[0],
    "matched F": lambda C: matched_f_measure(C)[0],
    "class-weighted F": class_weighted_f_measure,
    "accuracy": clustering_accuracy,
}

#: a two-level tree of 8 leaves under 3 categories, the root above them (the shape of the seeds' examples)
TREE = LabelTree.from_parents({"root": None, "A": "root", "B": "root", "C": "root",
                               **{f"A{i}": "A" for i in range(3)}, **{f"B{i}": "B" for i in range(3)},
                               **{f"C{i}": "C" for i in range(2)}})
LEAVES = [label for label in TREE.labels if len(label) == 2]


def _problem(seed, n=30, m=7):
    """Y with mixed rows (at least one relevant and one irrelevant label each), untied scores, decisions."""
    rng = np.random.default_rng(seed)
    Y = np.zeros((n, m), dtype=np.int64)
    for i in range(n):
        k = rng.integers(1, m)
        Y[i, rng.choice(m, size=k, replace=False)] = 1
    scores = rng.normal(size=(n, m)) + 1.5 * Y
    pred = (scores + rng.normal(scale=0.8, size=(n, m)) > 0.8).astype(np.int64)
    return Y, scores, pred


# ---- the eight metrics: instances, labels, ties, empty rows, containers ----------------------------------------


@pytest.mark.parametrize("name", sorted(METRICS))
@pytest.mark.parametrize("seed", range(5))
def test_instance_and_label_permutations_leave_every_metric_unchanged(name, seed):
    info = METRICS[name]
    Y, scores, pred = _problem(seed)
    out = scores if info.kind == "rank" else pred
    rng = np.random.default_rng(100 + seed)
    rows, cols = rng.permutation(Y.shape[0]), rng.permutation(Y.shape[1])
    base = info(Y, out)
    assert info(Y[rows], out[rows]) == pytest.approx(base, abs=1e-12)
    assert info(Y[:, cols], out[:, cols]) == pytest.approx(base, abs=1e-12)
    np.testing.assert_allclose(np.sort(np.ravel(info.values(Y[rows], out[rows]))),
                               np.sort(np.ravel(info.values(Y, out))), atol=1e-12)


@pytest.mark.parametrize("name", sorted(RANK))
@given(seed=st.integers(0, 10**6), shift=st.floats(-5, 5), scale=st.floats(0.1, 10))
@settings(max_examples=20, deadline=None)
def test_ranking_metrics_depend_on_the_order_of_the_scores_alone(name, seed, shift, scale):
    info = RANK[name]
    Y, scores, _ = _problem(seed)
    base = info(Y, scores)
    assert info(Y, scale * scores + shift) == pytest.approx(base, abs=1e-9)
    assert info(Y, np.exp(scores)) == pytest.approx(base, abs=1e-9)  # any increasing map


@pytest.mark.parametrize("name", sorted(RANK))
@pytest.mark.parametrize("seed", range(5))
def test_tie_rules_agree_without_ties_and_bracket_the_mulan_rule_with_them(name, seed):
    info = RANK[name]
    Y, scores, _ = _problem(seed)
    untied = {rule: info(Y, scores, ties=rule) for rule in TIE_RULES}
    assert max(untied.values()) - min(untied.values()) < 1e-12
    tied = np.round(scores)  # many ties
    values = {rule: info(Y, tied, ties=rule) for rule in TIE_RULES}
    best = max if info.higher_is_better else min
    assert best(values["optimistic"], values["pessimistic"]) == values["optimistic"]
    low, high = sorted((values["optimistic"], values["pessimistic"]))
    assert low - 1e-12 <= values["mulan"] <= high + 1e-12


@pytest.mark.parametrize("name", sorted(METRICS))
def test_empty_and_full_rows_give_a_finite_value(name):
    info = METRICS[name]
    Y, scores, pred = _problem(0, n=6)
    Y[0] = 0  # no relevant label
    Y[1] = 1  # every label relevant
    out = scores if info.kind == "rank" else pred
    pred[2] = 0  # nothing predicted
    value = info(Y, out)
    assert np.isfinite(value)
    values = np.asarray(info.values(Y, out), dtype=float)
    # a measure that skips an instance (MULAN's MAP and NDCG skip rows with no relevant label) marks it NaN
    skipped = np.isnan(values)
    assert np.isfinite(values[~skipped]).all()
    if skipped.any():
        assert info.unit == "instance" and set(np.flatnonzero(skipped)) <= {0}


@pytest.mark.parametrize("name", sorted(METRICS))
def test_every_container_and_dtype_gives_the_same_value(name):
    info = METRICS[name]
    Y, scores, pred = _problem(3)
    out = scores if info.kind == "rank" else pred
    base = info(Y, out)
    Ys = [Y.tolist(), Y.astype(bool), Y.astype(np.int8), Y.astype(np.float32), pd.DataFrame(Y), sp.csr_matrix(Y)]
    outs = [out.tolist(), pd.DataFrame(out)]
    outs += [out.astype(np.float32)] if info.kind == "rank" else [out.astype(bool), sp.csr_matrix(out)]
    for variant in Ys:
        assert info(variant, out) == pytest.approx(base, abs=1e-12), type(variant)
    for variant in outs:
        assert info(Y, variant) == pytest.approx(base, abs=1e-6), type(variant)


# ---- cost-based precision: labels renamed, containers, ties of the list ----------------------------------------


def _renamed(tree, mapping):
    return LabelTree.from_parents({mapping[label]: (None if p is None else mapping[p])
                                   for label, p in tree.to_parents().items()})


def _documents(seed, n=8):
    rng = np.random.default_rng(seed)
    docs = []
    for _ in range(n):
        true = list(rng.choice(LEAVES, size=int(rng.integers(1, 4)), replace=False))
        ranking = list(rng.permutation(LEAVES)[: int(rng.integers(1, len(LEAVES) + 1))])
        docs.append((true, ranking))
    return docs


@pytest.mark.parametrize("name", sorted(COST_BASED))
@pytest.mark.parametrize("variant", VARIANTS)
def test_cost_based_measures_do_not_depend_on_the_labels_names(name, variant):
    f = COST_BASED[name]
    rng = np.random.default_rng(7)
    names = [f"x{i}" for i in rng.permutation(len(TREE.labels))]
    mapping = dict(zip(TREE.labels, names))
    similarity = None if variant == "binary" else bdm_matrix(TREE)
    renamed_similarity = None if variant == "binary" else bdm_matrix(_renamed(TREE, mapping))
    for true, ranking in _documents(11):
        base = f(true, ranking, similarity, variant)
        other = f([mapping[t] for t in true], [mapping[r] for r in ranking], renamed_similarity, variant)
        assert other == pytest.approx(base, abs=1e-12), (true, ranking)
        assert 0.0 <= base <= 1.0


@pytest.mark.parametrize("name", sorted(COST_BASED))
@pytest.mark.parametrize("variant", VARIANTS)
def test_cost_based_measures_take_any_collection_of_labels(name, variant):
    f = COST_BASED[name]
    similarity = None if variant == "binary" else bdm_matrix(TREE)
    for true, ranking in _documents(12):
        base = f(true, ranking, similarity, variant)
        assert f(tuple(true), tuple(ranking), similarity, variant) == base
        assert f(np.array(true), np.array(ranking), similarity, variant) == base
        assert f(set(true), ranking, similarity, variant) == base  # the true labels are a set in every measure


@pytest.mark.parametrize("name", ["set precision", "set recall", "set F"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_set_measures_do_not_depend_on_the_order_of_the_assigned_labels(name, variant):
    f = COST_BASED[name]
    similarity = None if variant == "binary" else bdm_matrix(TREE)
    rng = np.random.default_rng(5)
    for true, assigned in _documents(13):
        base = f(true, assigned, similarity, variant)
        assert f(true, list(rng.permutation(assigned)), similarity, variant) == pytest.approx(base, abs=1e-12)


@pytest.mark.parametrize("name", sorted(COST_BASED))
def test_cost_based_variants_credit_at_least_the_binary_measure(name):
    f = COST_BASED[name]
    similarity = bdm_matrix(TREE)
    for true, ranking in _documents(14):
        binary = f(true, ranking, None, "binary")
        assert f(true, ranking, similarity, "high") >= binary - 1e-12
        assert f(true, ranking, similarity, "low") >= binary - 1e-12


# ---- hierarchical measures: documents permuted, labels renamed, containers, empty predictions -----------------


def _collections(seed, n=12):
    rng = np.random.default_rng(seed)
    truth = [set(rng.choice(LEAVES, size=int(rng.integers(1, 3)), replace=False)) for _ in range(n)]
    predicted = [set(rng.choice(LEAVES, size=int(rng.integers(1, 4)), replace=False)) for _ in range(n)]
    return truth, predicted


@pytest.mark.parametrize("name", sorted(HIERARCHICAL))
@pytest.mark.parametrize("seed", range(3))
def test_hierarchical_measures_do_not_depend_on_document_order_or_label_names(name, seed):
    f, convention, average = HIERARCHICAL[name]
    truth, predicted = _collections(seed)
    base = f(TREE, truth, predicted, average, convention=convention)
    order = np.random.default_rng(seed).permutation(len(truth))
    shuffled = f(TREE, [truth[i] for i in order], [predicted[i] for i in order], average, convention=convention)
    np.testing.assert_allclose(shuffled, base, atol=1e-12)
    assert all(0.0 <= v <= 1.0 for v in base)
    if name in ORDER_OF_LABELS_BREAKS_TIES:
        return
    mapping = {label: f"x{j}" for j, label in enumerate(np.random.default_rng(seed).permutation(TREE.labels))}
    renamed = f(_renamed(TREE, mapping), [{mapping[t] for t in s} for s in truth],
                [{mapping[p] for p in s} for s in predicted], average, convention=convention)
    np.testing.assert_allclose(renamed, base, atol=1e-12)


@pytest.mark.parametrize("name", sorted(HIERARCHICAL))
def test_hierarchical_measures_take_any_collection_of_labels(name):
    f, convention, average = HIERARCHICAL[name]
    truth, predicted = _collections(4)
    base = f(TREE, truth, predicted, average, convention=convention)
    for as_kind in (list, tuple, sorted, lambda s: np.array(sorted(s))):
        other = f(TREE, [as_kind(s) for s in truth], [as_kind(s) for s in predicted], average,
                  convention=convention)
        np.testing.assert_allclose(other, base, atol=1e-12)
    perfect = f(TREE, truth, truth, average, convention=convention)
    np.testing.assert_allclose(perfect, (1.0, 1.0, 1.0))


# ---- clustering F-measures: clusters and classes permuted, instances permuted, containers ----------------------


def _contingency(seed, k=5, c=4):
    """A table whose F entries are all distinct, so that no greedy choice depends on the order of a tie."""
    rng = np.random.default_rng(seed)
    while True:
        C = rng.integers(0, 40, size=(k, c))
        rows, cols = C.sum(axis=1, keepdims=True), C.sum(axis=0, keepdims=True)
        F = 2 * C / np.maximum(rows + cols, 1)
        nonzero = F[F > 0]
        if (rows > 0).all() and (cols > 0).all() and np.unique(nonzero).size == nonzero.size:
            return C


@pytest.mark.parametrize("name", sorted(CLUSTERING))
@pytest.mark.parametrize("seed", range(5))
def test_clustering_measures_do_not_depend_on_the_order_of_clusters_classes_or_instances(name, seed):
    f = CLUSTERING[name]
    C = _contingency(seed)
    rng = np.random.default_rng(seed)
    base = f(C)
    assert f(C[rng.permutation(C.shape[0])]) == pytest.approx(base, abs=1e-12)
    assert f(C[:, rng.permutation(C.shape[1])]) == pytest.approx(base, abs=1e-12)
    clusters = np.repeat(np.arange(C.shape[0]), C.sum(axis=1))
    classes = np.concatenate([np.repeat(np.arange(C.shape[1]), row) for row in C])
    order = rng.permutation(clusters.size)
    table, _, _ = contingency_table(clusters[order], classes[order])
    assert f(table) == pytest.approx(base, abs=1e-12)
    assert 0.0 <= base <= 1.0


@pytest.mark.parametrize("name", sorted(CLUSTERING))
def test_clustering_measures_take_any_container_and_dtype(name):
    f = CLUSTERING[name]
    C = _contingency(9)
    base = f(C)
    for variant in (C.tolist(), C.astype(np.int32), C.astype(np.float64), pd.DataFrame(C)):
        assert f(variant) == pytest.approx(base, abs=1e-12), type(variant)


@pytest.mark.parametrize("name", ["class-weighted F"])
def test_an_empty_cluster_changes_no_class_weighted_measure(name):
    f = CLUSTERING[name]
    C = _contingency(10)
    assert f(np.vstack([C, np.zeros((1, C.shape[1]), dtype=C.dtype)])) == pytest.approx(f(C), abs=1e-12)
