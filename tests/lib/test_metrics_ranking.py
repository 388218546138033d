"""Tests of the paper's eight metrics (labelrank.metrics.ranking, .decision, .suite) and of labelrank.validation.

Hand-computed values, brute-force re-implementations straight from the equations, cross-checks against
scikit-learn where the definitions coincide, explicit tests of where they differ, and hypothesis properties.
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import metrics as skm

import labelrank.validation as validation
from labelrank.metrics import (
    METRICS,
    TIE_RULES,
    average_precision,
    coverage,
    evaluate,
    f_measure,
    hamming_loss,
    macro_f1,
    micro_f1,
    ndcg,
    one_error,
    rank_labels,
    ranking_loss,
)
from labelrank.metrics import decision, ranking, suite

RANKING = (average_precision, ranking_loss, ndcg, one_error, coverage)
DECISION = (micro_f1, macro_f1, hamming_loss)

# The chapter's worked example: 4 instances, 5 labels A..E; instance 4 has no relevant label, label E is never
# relevant and never predicted.
Y_EX = np.array([[1, 0, 1, 0, 0], [0, 1, 0, 0, 0], [1, 1, 0, 1, 0], [0, 0, 0, 0, 0]])
S_EX = np.array(
    [[0.9, 0.6, 0.4, 0.7, 0.1], [0.5, 0.3, 0.8, 0.2, 0.1], [0.8, 0.9, 0.3, 0.5, 0.2], [0.2, 0.1, 0.4, 0.3, 0.05]]
)
P_EX = (S_EX >= 0.5).astype(int)


# ----------------------------------------------------------------------------------------------------------------
# brute-force references, written from the paper's equations with plain Python loops


def ref_ranks(s, y=None, ties="mulan"):
    m = len(s)
    if ties == "mulan":
        key = lambda c: (-s[c], -c)  # noqa: E731
    elif ties == "pessimistic":
        key = lambda c: (-s[c], y[c], -c)  # noqa: E731
    else:
        key = lambda c: (-s[c], -y[c], -c)  # noqa: E731
    order = sorted(range(m), key=key)
    r = [0] * m
    for pos, c in enumerate(order):
        r[c] = pos + 1
    return r


def ref_all(y, s, ties="mulan"):
    """Per-instance (AP, RL, NDCG, OneError, Coverage) of one row, from eq. (4), (6), (8)-(9), (17), (18)."""
    r = ref_ranks(list(s), list(y), ties)
    R = [c for c in range(len(y)) if y[c]]
    Rb = [c for c in range(len(y)) if not y[c]]
    ap = sum(sum(r[c2] <= r[c] for c2 in R) / r[c] for c in R) / len(R) if R else math.nan
    rl = sum(r[c] > r[c2] for c in R for c2 in Rb) / (len(R) * len(Rb)) if R and Rb else 0.0
    if R:
        dcg = sum(1 / math.log2(1 + r[c]) for c in R)
        idcg = sum(1 / math.log2(1 + k) for k in range(1, len(R) + 1))
        nd = dcg / idcg
    else:
        nd = math.nan
    top = r.index(1)
    oe = 0.0 if y[top] else 1.0
    cov = max(r[c] for c in R) - 1 if R else 0.0
    return ap, rl, nd, oe, cov


def random_case(rng, ties=False, edge_rows=True):
    n = int(rng.integers(1, 9))
    m = int(rng.integers(2, 9))
    Y = (rng.random((n, m)) < rng.uniform(0.1, 0.7)).astype(int)
    if not edge_rows:  # every row mixed: at least one relevant and one irrelevant label
        for i in range(n):
            Y[i, rng.integers(m)] = 1
            zero = rng.integers(m)
            while Y[i].sum() == m:
                Y[i, zero] = 0
    S = rng.integers(0, 3, size=(n, m)).astype(float) if ties else rng.normal(size=(n, m))
    return Y, S


# ----------------------------------------------------------------------------------------------------------------
# worked example, computed by hand in book/ranking_metrics.md


def test_worked_example_per_instance_values():
    np.testing.assert_allclose(average_precision(Y_EX, S_EX, per_instance=True), [0.75, 1 / 3, 1, np.nan])
    np.testing.assert_allclose(ranking_loss(Y_EX, S_EX, per_instance=True), [1 / 3, 1 / 2, 0, 0])
    ndcg1 = (1 + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    np.testing.assert_allclose(ndcg(Y_EX, S_EX, per_instance=True), [ndcg1, 0.5, 1, np.nan])
    np.testing.assert_array_equal(one_error(Y_EX, S_EX, per_instance=True), [0, 1, 0, 1])
    np.testing.assert_array_equal(coverage(Y_EX, S_EX, per_instance=True), [3, 2, 2, 0])
    np.testing.assert_allclose(macro_f1(Y_EX, P_EX, per_label=True), [0.8, 0.5, 0, 2 / 3, 1])
    np.testing.assert_allclose(hamming_loss(Y_EX, P_EX, per_instance=True), [0.6, 0.6, 0, 0])


def test_worked_example_means():
    values = evaluate(Y_EX, S_EX, P_EX)
    assert list(values) == ["Micro-F1", "Macro-F1", "MAP", "RankLoss", "NDCG", "One-Error", "Coverage", "HLoss"]
    expected = {
        "Micro-F1": 8 / 14,  # TP 4, FP 4, FN 2
        "Macro-F1": (0.8 + 0.5 + 0 + 2 / 3 + 1) / 5,
        "MAP": (0.75 + 1 / 3 + 1) / 3,  # instance 4 skipped
        "RankLoss": (1 / 3 + 1 / 2) / 4,
        "NDCG": ((1 + 1 / math.log2(5)) / (1 + 1 / math.log2(3)) + 0.5 + 1) / 3,
        "One-Error": 0.5,
        "Coverage": 1.75,
        "HLoss": 6 / 20,
    }
    for name, value in expected.items():
        assert values[name] == pytest.approx(value, abs=1e-12), name


def test_worked_example_scikit_learn_conventions():
    """The numbers scikit-learn gives on the same example, and why they differ (GUIDE section 3)."""
    # LRAP gives the empty instance 1.0 instead of skipping it
    assert skm.label_ranking_average_precision_score(Y_EX, S_EX) == pytest.approx((0.75 + 1 / 3 + 1 + 1) / 4)
    # ndcg_score gives the empty instance 0 instead of skipping it
    assert skm.ndcg_score(Y_EX, S_EX) == pytest.approx(ndcg(Y_EX, S_EX) * 3 / 4)
    # coverage_error counts from 1 (no "-1") on instances with a relevant label, 0 on the empty one
    assert skm.coverage_error(Y_EX, S_EX) == pytest.approx((4 + 3 + 3 + 0) / 4)
    # no ties: RankLoss agrees
    assert skm.label_ranking_loss(Y_EX, S_EX) == pytest.approx(ranking_loss(Y_EX, S_EX))
    # Macro-F1: the empty label E counts 0 under scikit-learn's default, 1 under MULAN's
    assert skm.f1_score(Y_EX, P_EX, average="macro", zero_division=0) == pytest.approx((0.8 + 0.5 + 2 / 3) / 5)
    assert skm.f1_score(Y_EX, P_EX, average="macro", zero_division=1) == pytest.approx(macro_f1(Y_EX, P_EX))


def test_tie_rules_on_worked_example():
    S = S_EX.copy()
    S[1, 1] = 0.5  # instance 2: A (irrelevant) and B (relevant) now tie at 0.5, below C
    ap = {t: average_precision(Y_EX, S, ties=t, per_instance=True)[1] for t in TIE_RULES}
    cov = {t: coverage(Y_EX, S, ties=t, per_instance=True)[1] for t in TIE_RULES}
    assert ap == pytest.approx({"mulan": 1 / 2, "pessimistic": 1 / 3, "optimistic": 1 / 2})  # B has index 1 > 0
    assert cov == {"mulan": 1.0, "pessimistic": 2.0, "optimistic": 1.0}
    # swapping the two tied columns flips the MULAN rule but not the pessimistic one
    swap = [1, 0, 2, 3, 4]
    assert average_precision(Y_EX[:, swap], S[:, swap], per_instance=True)[1] == pytest.approx(1 / 3)
    swapped = average_precision(Y_EX[:, swap], S[:, swap], ties="pessimistic", per_instance=True)
    assert swapped[1] == pytest.approx(1 / 3)


# ----------------------------------------------------------------------------------------------------------------
# the ranking helper


def test_rank_labels_mulan_rule_puts_larger_index_first():
    # Weka's stable ascending sort numbered from the bottom, as MULAN's MultiLabelOutput.ranksFromValues
    assert rank_labels([[0.5, 0.5, 0.5]]).tolist() == [[3, 2, 1]]
    assert rank_labels([[0.1, 0.7, 0.1, 0.7]]).tolist() == [[4, 2, 3, 1]]


def test_rank_labels_pessimistic_and_optimistic():
    Y = [[1, 0, 1, 0]]
    S = [[0.5, 0.5, 0.5, 0.9]]
    assert rank_labels(S, Y, ties="pessimistic").tolist() == [[4, 2, 3, 1]]
    assert rank_labels(S, Y, ties="optimistic").tolist() == [[3, 4, 2, 1]]


def test_rank_labels_matches_reference_on_random_ties():
    rng = np.random.default_rng(0)
    for _ in range(300):
        Y, S = random_case(rng, ties=True)
        for t in TIE_RULES:
            expected = [ref_ranks(list(s), list(y), t) for y, s in zip(Y, S)]
            assert rank_labels(S, Y, ties=t).tolist() == expected


def test_rank_labels_bad_arguments():
    with pytest.raises(ValueError, match="ties must be one of"):
        rank_labels([[1.0, 2.0]], ties="random")
    with pytest.raises(ValueError, match="needs the relevance matrix Y"):
        rank_labels([[1.0, 2.0]], ties="pessimistic")
    with pytest.raises(ValueError, match="ties must be one of.*'average'"):
        average_precision([[1, 0]], [[1.0, 2.0]], ties="average")


# ----------------------------------------------------------------------------------------------------------------
# brute force from the equations, with ties and edge rows


def test_ranking_metrics_match_brute_force_with_ties_and_edge_rows():
    rng = np.random.default_rng(1)
    for case in range(400):
        Y, S = random_case(rng, ties=case % 2 == 0)
        for t in TIE_RULES:
            ref = np.array([ref_all(y, s, t) for y, s in zip(Y, S)])
            for j, f in enumerate(RANKING):
                np.testing.assert_allclose(f(Y, S, ties=t, per_instance=True), ref[:, j], atol=1e-12,
                                           err_msg=f"{f.__name__} ties={t}")


# ----------------------------------------------------------------------------------------------------------------
# cross-checks against scikit-learn on >= 1,000 random cases where the definitions coincide


def test_cross_check_scikit_learn_no_ties_mixed_rows():
    rng = np.random.default_rng(2)
    for _ in range(1000):
        Y, S = random_case(rng, ties=False, edge_rows=False)
        assert average_precision(Y, S) == pytest.approx(skm.label_ranking_average_precision_score(Y, S), abs=1e-12)
        assert ranking_loss(Y, S) == pytest.approx(skm.label_ranking_loss(Y, S), abs=1e-12)
        assert coverage(Y, S) == pytest.approx(skm.coverage_error(Y, S) - 1, abs=1e-12)
        assert ndcg(Y, S) == pytest.approx(skm.ndcg_score(Y, S), abs=1e-12)
        top = np.argmax(S, axis=1)  # unique without ties
        assert one_error(Y, S) == pytest.approx(1 - Y[np.arange(len(Y)), top].mean(), abs=1e-12)


def test_cross_check_scikit_learn_pessimistic_ties_are_scikit_learns():
    """With ties="pessimistic", RankLoss is label_ranking_loss and Coverage is coverage_error - 1, ties included."""
    rng = np.random.default_rng(3)
    for _ in range(1000):
        Y, S = random_case(rng, ties=True)
        assert ranking_loss(Y, S, ties="pessimistic") == pytest.approx(skm.label_ranking_loss(Y, S), abs=1e-12)
        has = Y.sum(axis=1) > 0
        if has.any():
            ours = coverage(Y, S, ties="pessimistic", per_instance=True)[has].mean()
            assert ours == pytest.approx(skm.coverage_error(Y[has], S[has]) - 1, abs=1e-12)


def test_cross_check_scikit_learn_decision_metrics():
    rng = np.random.default_rng(4)
    for _ in range(1000):
        Y, _ = random_case(rng)
        P = (rng.random(Y.shape) < rng.uniform(0.05, 0.6)).astype(int)
        assert hamming_loss(Y, P) == pytest.approx(skm.hamming_loss(Y, P), abs=1e-12)
        assert micro_f1(Y, P) == pytest.approx(skm.f1_score(Y, P, average="micro", zero_division=1), abs=1e-12)
        per_label = skm.f1_score(Y, P, average=None, zero_division=1)  # macro = the mean of these
        np.testing.assert_allclose(macro_f1(Y, P, per_label=True), per_label, atol=1e-12)
        assert macro_f1(Y, P) == pytest.approx(per_label.mean(), abs=1e-12)


# ----------------------------------------------------------------------------------------------------------------
# the documented differences from scikit-learn, one by one


def test_difference_lrap_rows_without_relevant_labels():
    Y = np.array([[0, 0, 0], [1, 0, 0]])
    S = np.array([[0.3, 0.2, 0.1], [0.1, 0.2, 0.3]])
    assert skm.label_ranking_average_precision_score(Y, S) == pytest.approx((1 + 1 / 3) / 2)
    assert average_precision(Y, S) == pytest.approx(1 / 3)  # the empty row is skipped
    assert np.isnan(average_precision(Y[:1], S[:1]))  # nothing to average: NaN (MULAN's 0/0)


def test_difference_rows_with_all_labels_relevant_agree():
    Y = np.ones((2, 3), dtype=int)
    S = np.array([[0.3, 0.2, 0.1], [0.1, 0.2, 0.3]])
    assert average_precision(Y, S) == 1.0 == skm.label_ranking_average_precision_score(Y, S)
    assert ranking_loss(Y, S) == 0.0 == skm.label_ranking_loss(Y, S)
    assert ndcg(Y, S) == pytest.approx(1.0)
    assert coverage(Y, S) == 2.0 == skm.coverage_error(Y, S) - 1


def test_difference_ties_lrap_and_ranking_loss():
    Y = np.array([[1, 0, 0]])
    S = np.array([[0.5, 0.5, 0.1]])  # relevant label tied with an irrelevant one
    assert skm.label_ranking_average_precision_score(Y, S) == pytest.approx(1 / 2)  # both at rank 2
    assert skm.label_ranking_loss(Y, S) == pytest.approx(1 / 2)  # the tied pair is an error
    assert average_precision(Y, S) == pytest.approx(1 / 2)  # MULAN: label 1 first, relevant label 0 at rank 2
    assert ranking_loss(Y, S) == pytest.approx(1 / 2)
    Y2 = np.array([[0, 1, 0]])  # now the relevant label has the larger index: MULAN ranks it first
    assert average_precision(Y2, S) == 1.0 and ranking_loss(Y2, S) == 0.0
    assert skm.label_ranking_loss(Y2, S) == pytest.approx(1 / 2)
    assert ranking_loss(Y2, S, ties="pessimistic") == pytest.approx(1 / 2)


def test_difference_ndcg_ties_and_empty_rows():
    Y = np.array([[1, 0, 0], [0, 0, 0]])
    S = np.array([[0.5, 0.5, 0.1], [0.1, 0.2, 0.3]])
    # scikit-learn averages the gain over tied labels and gives the empty row 0
    tie_avg = (0.5 * (1 / math.log2(2) + 1 / math.log2(3))) / 1
    assert skm.ndcg_score(Y, S) == pytest.approx(tie_avg / 2)
    assert ndcg(Y, S, per_instance=True)[0] == pytest.approx(1 / math.log2(3))  # MULAN tie rule: rank 2
    assert np.isnan(ndcg(Y, S, per_instance=True)[1])
    assert ndcg(Y, S) == pytest.approx(1 / math.log2(3))


def test_difference_coverage_counts_from_zero_and_empty_rows():
    Y = np.array([[0, 1, 0], [0, 0, 0]])
    S = np.array([[0.9, 0.8, 0.1], [0.1, 0.2, 0.3]])
    assert coverage(Y, S, per_instance=True).tolist() == [1.0, 0.0]
    assert skm.coverage_error(Y, S) == pytest.approx((2 + 0) / 2)


def test_difference_macro_f1_zero_division():
    Y = np.array([[1, 0], [1, 0]])
    P = np.array([[1, 0], [0, 0]])
    assert macro_f1(Y, P) == pytest.approx((2 / 3 + 1) / 2)
    assert skm.f1_score(Y, P, average="macro", zero_division=0) == pytest.approx(1 / 3)


def test_one_error_empty_row_scores_one():
    assert one_error([[0, 0, 0]], [[0.1, 0.5, 0.2]]) == 1.0


def test_micro_f1_nothing_to_find_nothing_claimed_is_one():
    Z = np.zeros((3, 4), dtype=int)
    assert micro_f1(Z, Z) == 1.0 and macro_f1(Z, Z) == 1.0 and hamming_loss(Z, Z) == 0.0
    assert f_measure(0, 0, 0) == 1.0 and f_measure(0, 2, 1) == 0.0


def test_f_measure_equals_harmonic_mean_of_eq_13_14():
    rng = np.random.default_rng(5)
    tp, fp, fn = rng.integers(1, 50, size=(3, 200))
    p, r = tp / (tp + fp), tp / (tp + fn)
    np.testing.assert_allclose(f_measure(tp, fp, fn), 2 * p * r / (p + r))
    with pytest.raises(ValueError, match="fp must be finite non-negative"):
        f_measure(1, -1, 0)


# ----------------------------------------------------------------------------------------------------------------
# hypothesis properties

shapes = st.tuples(st.integers(1, 6), st.integers(2, 7))


@st.composite
def labels_and_scores(draw, ties=False):
    n, m = draw(shapes)
    Y = draw(hnp.arrays(np.int8, (n, m), elements=st.integers(0, 1)))
    if ties:
        S = draw(hnp.arrays(np.int64, (n, m), elements=st.integers(-2, 2))).astype(float)
    else:  # distinct scores in each row
        S = np.array([draw(st.permutations(range(m))) for _ in range(n)], dtype=float)
    return Y, S


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(), st.randoms(use_true_random=False))
def test_property_joint_label_permutation_invariance(case, rnd):
    Y, S = case
    perm = list(range(Y.shape[1]))
    rnd.shuffle(perm)
    for f in RANKING:
        np.testing.assert_allclose(f(Y, S, per_instance=True), f(Y[:, perm], S[:, perm], per_instance=True))


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(ties=True), st.randoms(use_true_random=False))
def test_property_pessimistic_rule_is_label_order_free_with_ties(case, rnd):
    Y, S = case
    perm = list(range(Y.shape[1]))
    rnd.shuffle(perm)
    for f in RANKING:
        for t in ("pessimistic", "optimistic"):
            np.testing.assert_allclose(f(Y, S, ties=t, per_instance=True),
                                       f(Y[:, perm], S[:, perm], ties=t, per_instance=True))


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(ties=True))
def test_property_tie_rules_bracket_mulan(case):
    Y, S = case
    higher = {f: METRICS[name].higher_is_better for name, f in
              (("MAP", average_precision), ("RankLoss", ranking_loss), ("NDCG", ndcg),
               ("One-Error", one_error), ("Coverage", coverage))}
    for f, hib in higher.items():
        lo, mid, hi = (f(Y, S, ties=t, per_instance=True) for t in ("pessimistic", "mulan", "optimistic"))
        if not hib:
            lo, hi = hi, lo
        ok = np.isnan(mid) | ((lo <= mid + 1e-12) & (mid <= hi + 1e-12))
        assert ok.all(), f.__name__


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(ties=True))
def test_property_perfect_ranking(case):
    Y, _ = case
    S = Y + 0.0  # relevant labels strictly above irrelevant ones; ties only within a class
    has = Y.sum(axis=1) > 0
    assert np.all(average_precision(Y, S, per_instance=True)[has] == 1)
    np.testing.assert_allclose(ndcg(Y, S, per_instance=True)[has], 1)
    assert ranking_loss(Y, S) == 0
    np.testing.assert_array_equal(one_error(Y, S, per_instance=True), np.where(has, 0, 1))
    np.testing.assert_array_equal(coverage(Y, S, per_instance=True), np.maximum(Y.sum(axis=1) - 1, 0))


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(ties=True))
def test_property_reversed_ranking_is_worst(case):
    Y, _ = case
    S = -(Y + 0.0)
    mixed = (Y.sum(axis=1) > 0) & (Y.sum(axis=1) < Y.shape[1])
    assert np.all(ranking_loss(Y, S, per_instance=True)[mixed] == 1)
    assert np.all(one_error(Y, S, per_instance=True)[mixed] == 1)
    np.testing.assert_array_equal(coverage(Y, S, per_instance=True)[Y.sum(axis=1) > 0], Y.shape[1] - 1)


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(ties=True), st.integers(1, 5), st.integers(-3, 3))
def test_property_increasing_transform_invariance(case, a, b):
    Y, S = case
    for f in RANKING:
        np.testing.assert_array_equal(f(Y, S, per_instance=True), f(Y, a * S + b, per_instance=True))


@settings(max_examples=150, deadline=None)
@given(labels_and_scores(ties=True))
def test_property_bounds_and_mean_of_per_instance(case):
    Y, S = case
    m = Y.shape[1]
    for f, (lo, hi) in zip(RANKING, ((0, 1), (0, 1), (0, 1), (0, 1), (0, m - 1))):
        per = f(Y, S, per_instance=True)
        defined = per[~np.isnan(per)]
        assert np.all((defined >= lo - 1e-12) & (defined <= hi + 1e-12))
        mean = f(Y, S)
        if defined.size:
            assert mean == pytest.approx(defined.mean())
        else:
            assert np.isnan(mean)


@settings(max_examples=150, deadline=None)
@given(st.data(), shapes)
def test_property_decision_metrics(data, shape):
    Y = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(0, 1)))
    P = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(0, 1)))
    assert micro_f1(Y, P) == pytest.approx(micro_f1(P, Y))  # F1 is symmetric in truth and prediction
    assert macro_f1(Y, P) == pytest.approx(macro_f1(P, Y))
    assert micro_f1(Y, Y) == 1.0 and macro_f1(Y, Y) == 1.0 and hamming_loss(Y, Y) == 0.0
    assert hamming_loss(Y, 1 - Y) == 1.0
    assert hamming_loss(Y, P) == pytest.approx(1 - micro_f1(Y, P, per_decision=True).mean())
    assert 0 <= micro_f1(Y, P) <= 1 and 0 <= macro_f1(Y, P) <= 1


# ----------------------------------------------------------------------------------------------------------------
# input handling


@pytest.mark.parametrize("f", RANKING + DECISION)
def test_sparse_and_bool_inputs_give_the_same_values(f):
    second = S_EX if f in RANKING else P_EX
    dense = f(Y_EX, second)
    assert f(sp.csr_matrix(Y_EX), sp.csr_matrix(second)) == pytest.approx(dense, nan_ok=True)
    assert f(Y_EX.astype(bool), second if f in RANKING else second.astype(bool)) == pytest.approx(dense)
    assert f(Y_EX.tolist(), second.tolist()) == pytest.approx(dense)


@pytest.mark.parametrize("f", RANKING)
def test_ranking_metrics_reject_bad_input(f):
    with pytest.raises(ValueError, match=r"Y and scores must have the same shape, got \(4, 5\) and \(4, 4\)"):
        f(Y_EX, S_EX[:, :4])
    bad = S_EX.copy()
    bad[2, 3] = np.nan
    with pytest.raises(ValueError, match=r"scores must be finite, got nan at position \(2, 3\)"):
        f(Y_EX, bad)
    bad[2, 3] = -np.inf
    with pytest.raises(ValueError, match=r"scores must be finite, got -inf at position \(2, 3\)"):
        f(Y_EX, bad)
    with pytest.raises(ValueError, match=r"Y must contain only 0 and 1, got 2 at position \(0, 0\)"):
        f(Y_EX * 2, S_EX)
    with pytest.raises(ValueError, match=r"scores must be 2-D"):
        f(Y_EX, S_EX.ravel())
    with pytest.raises(TypeError, match="scores must hold numbers"):
        f(Y_EX, np.full(Y_EX.shape, "a"))
    with pytest.raises(TypeError, match="Y must be a 2-D array or scipy sparse matrix, got None"):
        f(None, S_EX)
    with pytest.raises(ValueError, match="at least one row and one column"):
        f(np.zeros((0, 5)), np.zeros((0, 5)))


@pytest.mark.parametrize("f", DECISION)
def test_decision_metrics_reject_bad_input(f):
    with pytest.raises(ValueError, match="Y_pred must contain only 0 and 1, got 0.9"):
        f(Y_EX, S_EX)  # scores passed where decisions are expected
    with pytest.raises(ValueError, match="Y and Y_pred must have the same shape"):
        f(Y_EX, P_EX[:3])
    with pytest.raises(ValueError, match="Y must contain only 0 and 1, got nan"):
        f(np.where(Y_EX == 1, np.nan, 0), P_EX)


def test_validation_helpers():
    assert validation.check_label_matrix(sp.coo_matrix([[0, 1]])).tolist() == [[0, 1]]
    assert validation.check_label_matrix([[True, False]], dtype=bool).dtype == bool
    with pytest.raises(ValueError, match="could not be converted"):
        validation.as_2d_array([[1, 2], [3]], "X")
    with pytest.raises(ValueError, match=r"X must be 2-D .* got shape \(2, 2, 1\)"):
        validation.as_2d_array(np.zeros((2, 2, 1)), "X")
    assert validation.check_positive_int(np.int64(3), "k") == 3
    with pytest.raises(TypeError, match="k must be an integer, got 2.5"):
        validation.check_positive_int(2.5, "k")
    with pytest.raises(TypeError, match="k must be an integer, got True"):
        validation.check_positive_int(True, "k")
    with pytest.raises(ValueError, match="k must be >= 1, got 0"):
        validation.check_positive_int(0, "k")


@pytest.mark.parametrize(
    "value, kwargs, error, message",
    [
        ("1", dict(low=0, low_inclusive=False), TypeError, "C must be a positive number, got '1'"),
        (True, dict(low=0, low_inclusive=False), TypeError, "C must be a positive number, got True"),
        (None, dict(low=0), TypeError, "C must be a non-negative number, got None"),
        (1j, dict(low=0, high=1), TypeError, "C must be a real number, got 1j"),
        (np.array([0.5]), dict(), TypeError, "C must be a real number"),
        (0, dict(low=0, low_inclusive=False), ValueError, "C must be positive and finite, got 0"),
        (math.nan, dict(), ValueError, "C must be finite, got nan"),
        (math.inf, dict(low=0), ValueError, "C must be non-negative and finite, got inf"),
        (-1e-9, dict(low=0), ValueError, "C must be non-negative and finite"),
        (1.0, dict(low=0, high=1, high_inclusive=False), ValueError, r"C must lie in \[0, 1\), got 1.0"),
        (0.0, dict(low=0, high=1, low_inclusive=False), ValueError, r"C must lie in \(0, 1\], got 0.0"),
        (2, dict(low=3), ValueError, "C must be >= 3 and finite, got 2"),
        (3, dict(low=3, low_inclusive=False), ValueError, "C must be > 3 and finite, got 3"),
        (5, dict(high=4), ValueError, "C must be <= 4 and finite, got 5"),
    ],
)
def test_check_real_rejects(value, kwargs, error, message):
    with pytest.raises(error, match=message):
        validation.check_real(value, "C", **kwargs)


def test_check_real_accepts_and_returns_float():
    for value in (1, 0.5, np.float32(0.25), np.int64(1), np.float64(0.0)):
        out = validation.check_real(value, "p", low=0, high=1)
        assert isinstance(out, float) and out == float(value)
    assert validation.check_real(-5, "shift") == -5.0
    assert validation.check_real(1, "p", low=1, high=1) == 1.0


def test_check_choice():
    assert validation.check_choice("b", "opt", ("a", "b")) == "b"
    assert type(validation.check_choice(np.str_("a"), "opt", ("a", "b"))) is str
    assert validation.check_choice(2, "n", (1, 2)) == 2
    for bad in ("c", None, True, np.array(["a"]), ["a"]):
        with pytest.raises(ValueError, match=r"opt must be one of \('a', 'b'\), got"):
            validation.check_choice(bad, "opt", ("a", "b"))
    with pytest.raises(ValueError, match="n must be one of"):
        validation.check_choice(True, "n", (1, 2))  # True is not the option 1


def test_check_fit_input():
    from sklearn.base import BaseEstimator

    est = BaseEstimator()
    X, Y = validation.check_fit_input(est, [[0, 1.5], [2, 3]], [[1], [0]])
    assert X.dtype == np.float64 and Y.dtype == np.int64 and est.n_features_in_ == 2
    Xs, _ = validation.check_fit_input(est, sp.coo_matrix([[0, 1.5], [2, 3], [0, 0]]), [[1], [0], [1]])
    assert sp.issparse(Xs) and Xs.format == "csr" and est.n_features_in_ == 2
    with pytest.raises(ValueError, match="BaseEstimator requires y to be passed"):
        validation.check_fit_input(est, [[0, 1]], None)
    with pytest.raises(ValueError, match="same number of rows .* 2 rows and Y with 1 rows"):
        validation.check_fit_input(est, [[0, 1], [1, 0]], [[1]])
    with pytest.raises(ValueError, match="X must be finite, got NaN or infinite"):
        validation.check_fit_input(est, sp.csr_matrix([[np.inf, 1], [0, 1]]), [[1], [0]])
    with pytest.raises(ValueError, match="Y must contain only 0 and 1"):
        validation.check_fit_input(est, [[0, 1], [1, 0]], [[2], [0]])
    with pytest.raises(ValueError, match="minimum of 2 is required"):
        validation.check_fit_input(est, [[0, 1]], [[1]], ensure_min_samples=2)


# ----------------------------------------------------------------------------------------------------------------
# the suite


def test_metrics_metadata():
    assert list(METRICS) == ["Micro-F1", "Macro-F1", "MAP", "RankLoss", "NDCG", "One-Error", "Coverage", "HLoss"]
    assert {n for n, i in METRICS.items() if i.higher_is_better} == {"Micro-F1", "Macro-F1", "MAP", "NDCG"}
    assert {n for n, i in METRICS.items() if i.kind == "decision"} == {"Micro-F1", "Macro-F1", "HLoss"}
    assert [n for n, i in METRICS.items() if i.test == "sign"] == ["Micro-F1"]
    assert METRICS["Macro-F1"].values(Y_EX, P_EX).shape == (5,)
    assert METRICS["Micro-F1"].values(Y_EX, P_EX).shape == (4, 5)
    assert METRICS["Coverage"].values(Y_EX, S_EX).shape == (4,)


def test_evaluate_partial_and_errors():
    assert list(evaluate(Y_EX, scores=S_EX)) == ["MAP", "RankLoss", "NDCG", "One-Error", "Coverage"]
    assert list(evaluate(Y_EX, Y_pred=P_EX)) == ["Micro-F1", "Macro-F1", "HLoss"]
    assert evaluate(Y_EX, S_EX, ties="pessimistic")["MAP"] == average_precision(Y_EX, S_EX, ties="pessimistic")
    with pytest.raises(ValueError, match="evaluate needs scores or Y_pred"):
        evaluate(Y_EX)


@pytest.mark.parametrize("module", [ranking, decision, suite, validation])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
