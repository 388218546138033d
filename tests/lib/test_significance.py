"""Tests of labelrank.metrics.significance: sign test, Wilcoxon signed-rank test, compare() and the * / ** marks."""

from __future__ import annotations

import doctest
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from labelrank.metrics import METRICS, average_precision, micro_f1, significance
from labelrank.metrics.significance import Comparison, compare, mark, sign_test, wilcoxon


def ref_sign_p(n_a: int, n_b: int) -> float:
    """Two-sided exact binomial p-value with success probability 1/2, from the binomial sum."""
    n, k = n_a + n_b, min(n_a, n_b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, j) for j in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def ref_wilcoxon_exact_p(d: np.ndarray) -> float:
    """Exact two-sided Wilcoxon p-value by enumerating all 2^n sign patterns (no zeros, no tied |d|)."""
    ranks = stats.rankdata(np.abs(d))
    t_plus = ranks[d > 0].sum()
    totals = np.array([sum(r for r, s in zip(ranks, signs) if s) for signs in itertools.product((0, 1), repeat=len(d))])
    lower, upper = np.mean(totals <= t_plus), np.mean(totals >= t_plus)
    return min(1.0, 2 * min(lower, upper))


# ----------------------------------------------------------------------------------------------------------------
# sign test


def test_sign_test_hand_values():
    assert sign_test([1] * 10, [0] * 10) == pytest.approx(2 / 2**10)
    # 3 wins for A, 1 for B, both right on 5 pairs, both wrong on 2: p = 2 * (1 + 4) / 16
    a = [1, 1, 1, 0] + [1] * 5 + [0] * 2
    b = [0, 0, 0, 1] + [1] * 5 + [0] * 2
    assert sign_test(a, b) == pytest.approx(10 / 16)


def test_sign_test_matches_binomial_sum_and_drops_ties():
    rng = np.random.default_rng(0)
    for _ in range(300):
        size = int(rng.integers(1, 60))
        a = rng.random(size) < rng.uniform(0.2, 0.9)
        b = rng.random(size) < rng.uniform(0.2, 0.9)
        n_a, n_b = int(np.sum(a & ~b)), int(np.sum(~a & b))
        p = sign_test(a, b)
        assert p == pytest.approx(ref_sign_p(n_a, n_b), rel=1e-9)
        assert p == pytest.approx(sign_test(b, a))  # two-sided: symmetric
        # adding concordant pairs (both right, both wrong) changes nothing
        assert sign_test(np.r_[a, [True, False] * 5], np.r_[b, [True, False] * 5]) == pytest.approx(p)


def test_sign_test_edge_cases_and_bad_input():
    assert sign_test([1, 0, 1], [1, 0, 1]) == 1.0
    assert sign_test(np.ones((3, 4), bool), np.ones((3, 4), bool)) == 1.0  # 2-D decision matrices
    with pytest.raises(ValueError, match="a_correct and b_correct must have the same shape"):
        sign_test([1, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="a_correct must hold only 0/1 or booleans, got 0.5"):
        sign_test([0.5, 1], [1, 0])
    with pytest.raises(TypeError, match="b_correct must be a numeric or boolean array"):
        sign_test([1, 0], ["x", "y"])


# ----------------------------------------------------------------------------------------------------------------
# Wilcoxon


def test_wilcoxon_matches_exact_enumeration():
    rng = np.random.default_rng(1)
    for _ in range(60):
        n = int(rng.integers(4, 11))
        a = rng.normal(size=n)
        b = a + rng.normal(0.3, 1.0, size=n)  # continuous: no zero and no tied |difference|
        assert wilcoxon(a, b) == pytest.approx(ref_wilcoxon_exact_p(a - b), rel=1e-9)


def test_wilcoxon_matches_scipy_and_handles_degenerate_cases():
    rng = np.random.default_rng(2)
    a = rng.random(200)
    b = a + rng.normal(0.02, 0.1, 200)
    assert wilcoxon(a, b) == pytest.approx(stats.wilcoxon(a, b).pvalue)
    assert wilcoxon(a, a) == 1.0  # every difference zero: scipy would fail or return NaN
    assert wilcoxon([np.nan, np.nan], [0.3, 0.2]) == 1.0  # no pair left
    # NaN pairs (instances where the metric is undefined) are dropped
    a_nan, b_nan = np.r_[a, np.nan, 0.4], np.r_[b, 0.1, np.nan]
    assert wilcoxon(a_nan, b_nan) == pytest.approx(wilcoxon(a, b))
    with pytest.raises(ValueError, match="a_values must not contain infinite values, got inf"):
        wilcoxon(np.r_[a, np.inf], np.r_[b, 0.0])
    with pytest.raises(ValueError, match="a_values and b_values must have the same shape"):
        wilcoxon(a, b[:-1])


def test_wilcoxon_ties_differences_equal_up_to_rounding():
    """NDCG differences equal in exact arithmetic but summed along other paths, (D1 + D3) - (D1 + D4) against
    (D2 + D3) - (D2 + D4) with D the discounts, differ in their last bits; the test must tie them, as it ties
    differences that are equal bit for bit (before, emotions' NDCG p-value in the quick profile moved from 0.0098
    to 0.0103 between two machines, and its mark from ** to *)."""
    D = 1.0 / np.log1p(np.arange(1, 7))
    rng = np.random.default_rng(3)
    a, b = [], []
    for _ in range(60):  # each instance: two relevant labels, one at the same rank in both systems
        top, low, high = rng.permutation(6)[:3]
        a.append(D[top] + D[min(low, high)])
        b.append(D[top] + D[max(low, high)])
    a, b = np.array(a), np.array(b)
    diff = a - b
    assert np.unique(diff).size > np.unique(np.round(diff, 12)).size  # rounding split some equal differences
    assert wilcoxon(a, b) == stats.wilcoxon(np.round(diff, 12)).pvalue
    # the p-value does not depend on rounding noise of the values' size
    for seed in range(20):
        noise = np.random.default_rng(seed).normal(scale=1e-14, size=(2, a.size))
        assert wilcoxon(a + noise[0], b + noise[1]) == wilcoxon(a, b)


def test_ties_up_to_rounding_groups_by_magnitude_and_keeps_signs():
    d = np.array([0.25 + 1e-15, -0.25, 2e-10, -3e-10, 0.7, 0.7 + 5e-10, -0.7 - 2e-9])
    out = significance.ties_up_to_rounding(d, 1e-9)
    assert out.tolist() == [0.25, -0.25, 0.0, -0.0, 0.7, 0.7, -0.7 - 2e-9]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=30),
       st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=30))
def test_property_p_values_are_probabilities_and_symmetric(x, y):
    n = min(len(x), len(y))
    a, b = np.array(x[:n]), np.array(y[:n])
    p = wilcoxon(a, b)
    assert 0.0 <= p <= 1.0 and p == pytest.approx(wilcoxon(b, a))
    ca, cb = a > 0, b > 0
    q = sign_test(ca, cb)
    assert 0.0 <= q <= 1.0 and q == pytest.approx(sign_test(cb, ca))


def test_type_one_error_rate_near_nominal():
    """Two exchangeable systems: about 5 % of the comparisons are marked at the 5 % level (fixed seed)."""
    rng = np.random.default_rng(3)
    rejections = {"sign": 0, "wilcoxon": 0}
    reps = 300
    for _ in range(reps):
        base = rng.random(80)
        a, b = base + rng.normal(0, 0.1, 80), base + rng.normal(0, 0.1, 80)
        rejections["wilcoxon"] += wilcoxon(a, b) <= 0.05
        rejections["sign"] += sign_test(rng.random(400) < 0.7, rng.random(400) < 0.7) <= 0.05
    for test, count in rejections.items():
        assert 0.01 <= count / reps <= 0.09, test


# ----------------------------------------------------------------------------------------------------------------
# marks


def test_mark_thresholds_and_bad_p():
    assert [mark(p) for p in (0.0, 0.0099, 0.01, 0.0101, 0.05, 0.0501, 1.0)] == ["**", "**", "**", "*", "*", "", ""]
    with pytest.raises(ValueError, match=r"p must be a probability in \[0, 1\], got nan"):
        mark(float("nan"))
    with pytest.raises(ValueError, match="got 1.5"):
        mark(1.5)
    with pytest.raises(TypeError, match="p must be a number, got 'small'"):
        mark("small")


# ----------------------------------------------------------------------------------------------------------------
# compare


def simulated_systems(seed=4, n=300, m=6):
    """System A's scores carry more signal than system B's; decisions threshold each at 0."""
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, m)) < 0.3).astype(int)
    a = 1.5 * (Y - 0.5) + rng.normal(size=(n, m))
    b = 0.5 * (Y - 0.5) + rng.normal(size=(n, m))
    return Y, a, b


def test_compare_picks_the_papers_test_and_values():
    Y, a, b = simulated_systems()
    for name, info in METRICS.items():
        out_a, out_b = (a, b) if info.kind == "rank" else ((a > 0).astype(int), (b > 0).astype(int))
        result = compare(name, Y, out_a, out_b)
        assert isinstance(result, Comparison) and result.metric == name
        assert result.test == ("sign" if name == "Micro-F1" else "wilcoxon")
        assert result.value_a == pytest.approx(info(Y, out_a))
        va, vb = info.values(Y, out_a), info.values(Y, out_b)
        expected_p = sign_test(va, vb) if name == "Micro-F1" else wilcoxon(va, vb)
        assert result.p_value == pytest.approx(expected_p)
        assert result.mark == mark(result.p_value)
        # the better system wins, and with 300 instances the difference is significant at 1 %
        better = result.value_a > result.value_b if info.higher_is_better else result.value_a < result.value_b
        if name != "Macro-F1":  # only 6 labels: Wilcoxon on 6 pairs cannot reach 1 %
            assert better and result.mark == "**", name


def test_compare_counts_defined_pairs():
    Y, a, b = simulated_systems()
    Y[:10] = 0  # ten instances with no relevant label: MAP undefined there
    res = compare("MAP", Y, a, b)
    defined = ~np.isnan(average_precision(Y, a, per_instance=True))
    assert res.n_pairs == int(np.sum(Y.sum(axis=1) > 0)) == np.sum(defined)
    res = compare("Micro-F1", Y, (a > 0).astype(int), (b > 0).astype(int))
    assert res.n_pairs == Y.size == micro_f1(Y, (a > 0).astype(int), per_decision=True).size


def test_compare_identical_systems_and_bad_name():
    Y, a, _ = simulated_systems()
    res = compare("NDCG", Y, a, a.copy())
    assert res.p_value == 1.0 and res.mark == ""
    with pytest.raises(ValueError, match="metric_name must be one of .* got 'F1'"):
        compare("F1", Y, a, a)


def test_docstring_examples():
    result = doctest.testmod(significance)
    assert result.attempted > 0 and result.failed == 0
