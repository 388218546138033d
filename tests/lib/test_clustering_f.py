"""Clustering F-measures (labelrank.metrics.clustering) against direct formulas and scikit-learn (the seed's worked
example and the clustering study: ``tests/studies/test_clustering_study.py``)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from labelrank.metrics import (
    aligned_table,
    class_weighted_f_measure,
    clustering_accuracy,
    contingency_table,
    f_table,
    greedy_f_measure,
    greedy_matching,
    harmonic_f,
    matched_f_measure,
    precision_table,
    recall_table,
    retrieval_scores,
)
from sklearn.metrics import f1_score
from sklearn.metrics.cluster import contingency_matrix
from support import SEED, labels_from_table


def _exact_f(C):
    C = [[int(v) for v in row] for row in C]
    rows = [sum(r) for r in C]
    cols = [sum(c) for c in zip(*C)]
    return [[Fraction(2 * C[i][j], rows[i] + cols[j]) if C[i][j] else Fraction(0) for j in range(len(cols))]
            for i in range(len(rows))]


def test_seed_recall_precision_f_exact():
    np.testing.assert_allclose(recall_table(SEED), SEED / SEED.sum(axis=0))
    np.testing.assert_allclose(precision_table(SEED), SEED / SEED.sum(axis=1, keepdims=True))
    exact = np.array([[float(v) for v in row] for row in _exact_f(SEED)])
    np.testing.assert_array_equal(f_table(SEED), exact)  # bit-identical: one correctly rounded division
    assert f_table(SEED)[1, 0] == 62 / 104 and f_table(SEED)[2, 1] == 32 / 58 and f_table(SEED)[0, 2] == 22 / 52


def test_class_weighted_and_retrieval_example():
    expected = (61 * 62 / 104 + 33 * 32 / 58 + 13 * 22 / 52) / 107
    assert class_weighted_f_measure(SEED) == pytest.approx(expected, abs=1e-15)
    p, r, f = retrieval_scores(125, 75, 100)
    assert (p, r) == (0.6, 0.75) and f == pytest.approx(2 / 3)


def test_greedy_versus_matched_example():
    C = [[10, 15], [0, 10]]
    g, ga = greedy_f_measure(C)
    m, ma = matched_f_measure(C)
    assert ga.tolist() == [1, 0] and g == pytest.approx(0.3)
    assert ma.tolist() == [0, 1] and m == pytest.approx(20 / 35)
    assert clustering_accuracy(C, ga) == pytest.approx(15 / 35) and clustering_accuracy(C) == pytest.approx(20 / 35)


def test_tie_break_smallest_cluster_then_class():
    assert greedy_matching([[1, 1], [1, 1]]) == [(0, 0), (1, 1)]
    assert greedy_matching([[0, 2, 2], [2, 0, 0]]) == [(0, 1), (1, 0)]
    assert greedy_f_measure(np.eye(3) * 5)[1].tolist() == [0, 1, 2]


def test_unequal_numbers_of_clusters_and_classes():
    more_clusters = [[10, 0], [0, 10], [3, 3]]
    f, a = greedy_f_measure(more_clusters)
    assert a.tolist() == [0, 1, -1]
    assert f == pytest.approx(20 / 23)  # mean over the 2 assigned pairs: 2*10/(10+13) each
    assert matched_f_measure(more_clusters)[1].tolist() == [0, 1, -1]
    assert clustering_accuracy(more_clusters, a) == pytest.approx(20 / 26)
    table, rows, cols = aligned_table(more_clusters, a)
    assert rows.tolist() == [0, 1, 2] and cols.tolist() == [0, 1]

    more_classes = [[10, 0, 4], [0, 10, 0]]
    f, a = greedy_f_measure(more_classes)
    assert a.tolist() == [0, 1] and f == pytest.approx((20 / 24 + 20 / 20) / 2)
    table, rows, cols = aligned_table(more_classes, a)
    assert cols.tolist() == [0, 1, 2] and table.shape == (2, 3)


# --------------------------------------------------------------------------------------------- cross-checks
def _naive_greedy(F):
    """Independent greedy: scan cells in row-major order keeping the strictly largest (= first maximum)."""
    rows, cols, pairs = set(range(len(F))), set(range(len(F[0]))), []
    while rows and cols:
        best = None
        for i in sorted(rows):
            for j in sorted(cols):
                if best is None or F[i][j] > F[best[0]][best[1]]:
                    best = (i, j)
        pairs.append(best)
        rows.discard(best[0])
        cols.discard(best[1])
    return pairs


def _random_tables(n, seed=0, max_side=5, high=12):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        C = rng.integers(0, high, size=rng.integers(1, max_side + 1, size=2))
        C[rng.random(C.shape) < 0.3] = 0
        if C.sum() > 0:
            out.append(C)
    return out


def test_f_table_equals_sklearn_f1_of_each_cluster_class_pair():
    for C in _random_tables(60, seed=1, max_side=4):
        clusters, classes = labels_from_table(C)
        F = f_table(C)
        for i, j in itertools.product(range(C.shape[0]), range(C.shape[1])):
            ref = f1_score(classes == j, clusters == i, zero_division=0.0)
            assert F[i, j] == pytest.approx(ref, abs=1e-12)


def test_contingency_table_is_sklearn_contingency_matrix_transposed():
    rng = np.random.default_rng(2)
    for _ in range(30):
        clusters = rng.integers(0, 4, size=50)
        classes = rng.choice(["a", "b", "c"], size=50)
        table, cluster_ids, class_ids = contingency_table(clusters, classes)
        np.testing.assert_array_equal(table, contingency_matrix(classes, clusters).T)
        assert cluster_ids.tolist() == sorted(set(clusters.tolist()))
        assert class_ids.tolist() == sorted(set(classes.tolist()))


def test_greedy_matches_naive_implementation():
    for C in _random_tables(300, seed=3, high=6):  # small counts: many ties
        F = f_table(C)
        assert greedy_matching(F) == _naive_greedy(F.tolist())
        exact = _exact_f(C)
        pairs = _naive_greedy(exact)  # exact rationals pick the same pairs as the floats
        assert pairs == greedy_matching(F)
        assert greedy_f_measure(C)[0] == pytest.approx(float(sum(exact[i][j] for i, j in pairs) / len(pairs)))


def test_matched_and_accuracy_equal_brute_force():
    for C in _random_tables(200, seed=4):
        k, m = C.shape
        F = f_table(C)
        if k <= m:
            candidates = [list(zip(range(k), p)) for p in itertools.permutations(range(m), k)]
        else:
            candidates = [list(zip(p, range(m))) for p in itertools.permutations(range(k), m)]
        best_f = max(np.mean([F[i, j] for i, j in pairs]) for pairs in candidates)
        best_acc = max(sum(C[i, j] for i, j in pairs) for pairs in candidates) / C.sum()
        assert matched_f_measure(C)[0] == pytest.approx(best_f, abs=1e-12)
        assert clustering_accuracy(C) == pytest.approx(best_acc, abs=1e-12)
        assert greedy_f_measure(C)[0] <= matched_f_measure(C)[0] + 1e-12


def test_class_weighted_equals_direct_sklearn_formula():
    for C in _random_tables(60, seed=5, max_side=4):
        clusters, classes = labels_from_table(C)
        ref = sum(
            (classes == j).mean()
            * max(f1_score(classes == j, clusters == i, zero_division=0.0) for i in range(C.shape[0]))
            for j in range(C.shape[1])
        )
        assert class_weighted_f_measure(C) == pytest.approx(ref, abs=1e-12)


# --------------------------------------------------------------------------------------------- properties
tables = arrays(np.int64, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=st.integers(0, 40)).filter(
    lambda C: C.sum() > 0
)


@settings(max_examples=150, deadline=None)
@given(tables)
def test_scores_lie_in_unit_interval_and_are_ordered(C):
    F = f_table(C)
    assert ((F >= 0) & (F <= 1)).all()
    g, m, w = greedy_f_measure(C)[0], matched_f_measure(C)[0], class_weighted_f_measure(C)
    for v in (g, m, w, clustering_accuracy(C)):
        assert 0.0 <= v <= 1.0
    assert g <= m + 1e-12
    assert clustering_accuracy(C, greedy_f_measure(C)[1]) <= clustering_accuracy(C) + 1e-12


@settings(max_examples=150, deadline=None)
@given(tables, st.randoms(use_true_random=False))
def test_invariance_under_permuting_clusters_and_classes(C, random):
    rows = list(range(C.shape[0]))
    cols = list(range(C.shape[1]))
    random.shuffle(rows)
    random.shuffle(cols)
    P = C[np.ix_(rows, cols)]
    assert matched_f_measure(P)[0] == pytest.approx(matched_f_measure(C)[0], abs=1e-12)
    assert class_weighted_f_measure(P) == pytest.approx(class_weighted_f_measure(C), abs=1e-12)
    assert clustering_accuracy(P) == pytest.approx(clustering_accuracy(C), abs=1e-12)
    F = f_table(C)
    positive = F[F > 0]
    assume(np.unique(positive).size == positive.size)  # without ties the greedy picks do not depend on order
    g, a = greedy_f_measure(C)
    gp, ap = greedy_f_measure(P)
    assert gp == pytest.approx(g, abs=1e-12)
    # the same (cluster, class) pairs with F > 0, relabelled (pairs of F = 0 may be formed in any order)
    assert {(rows[i], cols[j]) for i, j in enumerate(ap) if j >= 0 and P[i, j] > 0} == {
        (i, j) for i, j in enumerate(a) if j >= 0 and C[i, j] > 0
    }


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 100), min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_diagonal_table_scores_one(sizes, random):
    C = np.diag(sizes)
    perm = list(range(len(sizes)))
    random.shuffle(perm)
    for table in (C, C[:, perm]):
        assert greedy_f_measure(table)[0] == 1.0
        assert matched_f_measure(table)[0] == 1.0
        assert class_weighted_f_measure(table) == pytest.approx(1.0, abs=1e-12)
        assert clustering_accuracy(table) == 1.0
        assert clustering_accuracy(table, greedy_f_measure(table)[1]) == 1.0


def test_off_diagonal_mass_lowers_the_scores():
    assert greedy_f_measure([[10, 1], [0, 10]])[0] < 1.0
    assert class_weighted_f_measure([[10, 1], [0, 10]]) < 1.0


# --------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "bad, exc, text",
    [
        ([[1, -2], [3, 4]], ValueError, "non-negative"),
        ([], ValueError, "contingency"),
        ([[]], ValueError, "at least one row"),
        ([[0, 0], [0, 0]], ValueError, "at least one document"),
        ([1, 2, 3], ValueError, "2-D"),
        ([[1, np.nan]], ValueError, "finite"),
        ([[1, np.inf]], ValueError, "finite"),
        ([["a", "b"]], TypeError, "numbers"),
        (None, TypeError, "contingency"),
    ],
)
def test_bad_contingency_raises(bad, exc, text):
    for func in (greedy_f_measure, matched_f_measure, class_weighted_f_measure, clustering_accuracy, f_table):
        with pytest.raises(exc, match=text) as info:
            func(bad)
        assert "contingency" in str(info.value)


def test_negative_count_message_names_value_and_position():
    with pytest.raises(ValueError, match=r"contingency.*-2.*\(0, 1\)"):
        greedy_f_measure([[1, -2], [3, 4]])


@pytest.mark.parametrize(
    "assignment, exc, text",
    [
        ([0, 0], ValueError, "one-to-one"),
        ([0, 5], ValueError, "class indices"),
        ([0], ValueError, "one entry per cluster"),
        ([0.0, 1.0], TypeError, "integer"),
        ([-2, 1], ValueError, "-2"),
    ],
)
def test_bad_assignment_raises(assignment, exc, text):
    with pytest.raises(exc, match=text):
        clustering_accuracy([[1, 2], [3, 4]], assignment)
    with pytest.raises(exc, match="assignment"):
        aligned_table([[1, 2], [3, 4]], assignment)


def test_bad_retrieval_and_harmonic_inputs():
    with pytest.raises(ValueError, match="n_relevant_retrieved"):
        retrieval_scores(10, 11, 20)
    with pytest.raises(ValueError, match="n_retrieved"):
        retrieval_scores(-1, 0, 5)
    with pytest.raises(TypeError, match="n_relevant"):
        retrieval_scores(10, 5, 7.5)
    with pytest.raises(ValueError, match="precision"):
        harmonic_f(1.5, 0.2)
    with pytest.raises(TypeError, match="recall"):
        harmonic_f(0.5, "0.2")
    assert retrieval_scores(0, 0, 5) == (0.0, 0.0, 0.0)
    assert harmonic_f(0.0, 0.0) == 0.0


def test_harmonic_f_is_one_vectorised_function():
    """One harmonic F (metrics.decision) serves the clustering F, the set F-measure and CostScorer."""
    from labelrank import metrics
    from labelrank.metrics import clustering, cost_precision, decision

    assert metrics.harmonic_f is decision.harmonic_f is clustering.harmonic_f is cost_precision.harmonic_f
    P, R = np.array([[0.0, 0.5], [1.0, 0.25]]), np.array([[0.0, 0.5], [0.5, 1.0]])
    F = harmonic_f(P, R)
    assert F.shape == (2, 2) and F[0, 0] == 0.0
    np.testing.assert_allclose(F, [[0.0, 0.5], [2 / 3, 0.4]])
    np.testing.assert_allclose(harmonic_f(P, 0.5), [[0.0, 0.5], [2 / 3, 1 / 3]])  # broadcasting
    assert isinstance(harmonic_f(0.5, 0.5), float)
    with pytest.raises(ValueError, match="recall must lie in \\[0, 1\\], got nan"):
        harmonic_f([0.5, 0.5], [0.5, np.nan])
    with pytest.raises(TypeError, match="precision"):
        harmonic_f(True, 0.5)


def test_contingency_table_bad_input():
    with pytest.raises(ValueError, match="same length"):
        contingency_table([0, 1], [0])
    with pytest.raises(ValueError, match="empty"):
        contingency_table([], [])
    with pytest.raises(ValueError, match="1-D"):
        contingency_table([[0, 1]], [[0, 1]])


def test_labels_that_do_not_sort_together_are_named():
    """None among the labels gave numpy's unlabelled "'<' not supported between 'NoneType' and 'str'"."""
    from labelrank.metrics import contingency_table

    with pytest.raises(TypeError, match=r"clusters must hold labels of one sortable kind, got NoneType, str "
                                        r"\(entry 1: None\)"):
        contingency_table(["a", None, "b"], ["x", "y", "z"])
    with pytest.raises(TypeError, match=r"classes must hold labels of one sortable kind"):
        contingency_table([0, 1, 2], ["x", None, "y"])
