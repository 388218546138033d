"""Tests of labelrank.threshold: score rescaling, optimal per-list thresholds (brute force), LLSF recovery."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from labelrank.threshold import LLSFThreshold, optimal_thresholds, rescale_scores


def errors(scores_row, y_row, t):
    yes = scores_row >= t
    return int(np.sum(yes & (y_row == 0)) + np.sum(~yes & (y_row == 1)))


# ---------------------------------------------------------------------------------------------------------------
# rescale_scores
# ---------------------------------------------------------------------------------------------------------------


def test_rescale_worked_examples():
    out = rescale_scores([[1.0, 3.0, 4.0], [-1.0, 1.0, 2.0], [0.0, 0.0, 0.0], [-2.0, -2.0, -2.0], [0.0, 0.0, 5.0]])
    np.testing.assert_allclose(out, [[0.125, 0.375, 0.5], [0.0, 2 / 5, 3 / 5], [1 / 3] * 3, [1 / 3] * 3, [0, 0, 1]])


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)),
              elements=st.floats(-100, 100, allow_nan=False, width=32)))
def test_rescale_rows_sum_to_one_and_keep_the_order(scores):
    out = rescale_scores(scores)
    assert np.all(out >= 0)
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    for s, r in zip(scores, out):
        if np.ptp(s) > 1e-6 * max(1.0, np.abs(s).max()):
            i, j = np.argmin(s), np.argmax(s)
            assert r[i] < r[j]
        # a non-negative row is only divided by its sum, as in the paper
        if s.min() >= 0 and s.sum() > 0:
            np.testing.assert_allclose(r, s / s.sum())


def test_rescale_is_continuous_where_the_rule_switches():
    base = np.array([[0.0, 1.0, 3.0]])
    eps = 1e-9
    np.testing.assert_allclose(rescale_scores(base - [[eps, 0, 0]]), rescale_scores(base), atol=1e-8)


def test_rescale_rejects_bad_scores():
    with pytest.raises(ValueError, match="scores must be finite"):
        rescale_scores([[1.0, np.inf]])
    with pytest.raises(ValueError, match="scores must be 2-D"):
        rescale_scores([1.0, 2.0])


# ---------------------------------------------------------------------------------------------------------------
# optimal_thresholds
# ---------------------------------------------------------------------------------------------------------------


def test_optimal_threshold_worked_examples():
    scores = [[0.9, 0.5, 0.1, 0.3],   # relevant 0.9, 0.3: cuts after 1 (cost 1) and 3 (cost 1) tie -> the longer
              [4.0, 2.0, 1.0, 0.0],   # relevant 4 and 2: cut between 2 and 1
              [3.0, 2.0, 1.0, 0.0],   # none relevant: above the top by half the mean gap (1)
              [3.0, 2.0, 1.0, 0.0],   # all relevant: below the bottom by half the mean gap
              [1.0, 1.0, 1.0, 1.0]]   # all tied, two relevant: yes to all (cost 2) ties no to all (cost 2)
    Y = [[1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 0, 0]]
    np.testing.assert_allclose(optimal_thresholds(scores, Y), [0.2, 1.5, 3.5, -0.5, 0.5])


def test_optimal_threshold_cannot_split_ties():
    # tied labels get one decision: relevant/irrelevant at 2.0 cannot be separated
    t = optimal_thresholds([[2.0, 2.0, 0.0]], [[1, 0, 0]])[0]
    assert t == pytest.approx(1.0)  # yes to both tied labels (1 FP) ties no to both (1 FN): the longer cut wins


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 7).flatmap(lambda m: st.tuples(
    arrays(np.int64, (5, m), elements=st.integers(-3, 3)),  # small integers: many ties
    arrays(np.int64, (5, m), elements=st.integers(0, 1)))))
def test_optimal_threshold_minimises_fp_plus_fn_by_brute_force(data):
    scores, Y = data
    scores = scores.astype(float) / 2.0
    t = optimal_thresholds(scores, Y)
    for s, y, ti in zip(scores, Y, t):
        # every achievable decision is "score >= c" for c a score value or +inf
        candidates = np.r_[np.unique(s), np.inf]
        costs = np.array([errors(s, y, c) for c in candidates])
        best = costs.min()
        assert errors(s, y, ti) == best
        # among the optimal cuts the returned one says yes to the most labels
        most_yes = max(np.sum(s >= c) for c, cost in zip(candidates, costs) if cost == best)
        assert np.sum(s >= ti) == most_yes
        # and it is the midpoint of its gap (strictly between two scores, or beyond the ends)
        assert not np.any(s == ti)


def test_optimal_threshold_checks_its_arguments():
    with pytest.raises(ValueError, match="Y and scores must have the same shape"):
        optimal_thresholds([[1.0, 2.0]], [[1, 0, 0]])
    with pytest.raises(ValueError, match="Y must contain only 0 and 1"):
        optimal_thresholds([[1.0, 2.0]], [[2, 0]])


# ---------------------------------------------------------------------------------------------------------------
# LLSFThreshold
# ---------------------------------------------------------------------------------------------------------------


def test_llsf_worked_example():
    scores = np.array([[3.0, 1.0], [1.0, 3.0], [2.0, 2.0]])
    Y = np.array([[1, 0], [0, 1], [1, 1]])
    t = LLSFThreshold(inputs="labels").fit(scores, Y)
    # rescaled rows (.75, .25), (.25, .75), (.5, .5); optimal thresholds .5, .5, 0: symmetric, so g = 1/3
    np.testing.assert_allclose(t.predict_threshold([[1.0, 1.0], [5.0, 0.0]]), [1 / 3, 1 / 3])
    np.testing.assert_array_equal(t.predict([[4.0, 0.5], [1.0, 1.0]]), [[1, 0], [1, 1]])
    # ranked lists (.75, .25), (.75, .25), (.5, .5) with the same targets: g(r) = r_1 - r_2 fits them exactly
    t = LLSFThreshold().fit(scores, Y)
    np.testing.assert_allclose(t.predict_threshold([[1.0, 1.0], [5.0, 0.0], [4.0, 0.5]]), [0.0, 1.0, 7 / 9],
                               atol=1e-12)
    np.testing.assert_array_equal(t.predict([[4.0, 0.5], [1.0, 1.0]]), [[1, 0], [1, 1]])


@pytest.mark.parametrize("rescale", [False, True])
def test_llsf_recovers_a_known_linear_threshold_map(rescale):
    # labels generated by a known linear threshold map g(s) = beta . s + beta0: Y = [s >= g(s)]
    rng = np.random.default_rng(0)
    n, m = 3000, 40
    raw = rng.uniform(0.0, 1.0, size=(n, m))
    s = raw / raw.sum(axis=1, keepdims=True) if rescale else raw
    beta = rng.normal(0.0, 1.0, size=m) * (1.0 / m if rescale else 0.03)
    beta0 = 1.0 / m if rescale else 0.5
    Y = (s >= (s @ beta + beta0)[:, None]).astype(int)
    assert 0.2 < Y.mean() < 0.8
    model = LLSFThreshold(rescale=rescale, inputs="labels").fit(s, Y)
    # the learned map is the true one up to the noise of the midpoints (uniform within a gap between two scores)
    test = rng.uniform(0.0, 1.0, size=(500, m))
    test = test / test.sum(axis=1, keepdims=True) if rescale else test
    gap = np.ptp(s) / m  # the typical gap between neighbouring scores of a list
    err = np.abs(model.predict_threshold(test) - (test @ beta + beta0))
    assert err.mean() < 0.1 * gap and err.max() < 0.5 * gap
    if not rescale:  # the design has full rank: the coefficients themselves are recovered (|beta| up to 0.07)
        np.testing.assert_allclose(model.coef_, beta, atol=0.005)
        assert model.intercept_ == pytest.approx(beta0, abs=0.01)
    # and the decisions on the training lists are almost all right
    assert np.mean(model.predict(s) != Y) < 0.005


def test_llsf_is_least_squares_on_the_optimal_thresholds():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(50, 5))
    Y = (rng.uniform(size=(50, 5)) < 0.4).astype(int)
    model = LLSFThreshold(rescale=False, inputs="labels").fit(scores, Y)
    target = optimal_thresholds(scores, Y)
    design = np.hstack([scores, np.ones((50, 1))])
    expected, *_ = np.linalg.lstsq(design, target, rcond=None)
    np.testing.assert_allclose(np.r_[model.coef_, model.intercept_], expected)
    # inputs="ranked": the same least squares on the rows sorted in decreasing order
    ranked = LLSFThreshold(rescale=False).fit(scores, Y)
    design = np.hstack([np.sort(scores, axis=1)[:, ::-1], np.ones((50, 1))])
    expected, *_ = np.linalg.lstsq(design, target, rcond=None)
    np.testing.assert_allclose(np.r_[ranked.coef_, ranked.intercept_], expected)
    # rescale=True works on rescaled scores, and its decisions are made on the same scale
    scaled = LLSFThreshold().fit(scores, Y)
    r = rescale_scores(scores)
    np.testing.assert_allclose(scaled.predict_threshold(scores),
                               np.sort(r, axis=1)[:, ::-1] @ scaled.coef_ + scaled.intercept_)
    np.testing.assert_array_equal(scaled.predict(scores), r >= scaled.predict_threshold(scores)[:, None])


def test_llsf_recovers_a_known_map_of_the_ranked_list():
    # Y = [s >= g(sorted s)] for a known linear g of the rank positions: the ranked reading recovers g
    rng = np.random.default_rng(3)
    n, m = 3000, 12
    s = rng.uniform(0.0, 1.0, size=(n, m))
    ranked = np.sort(s, axis=1)[:, ::-1]
    beta = rng.normal(0.0, 0.05, size=m)
    beta[0] += 0.6  # mostly "within a margin of the top score": a map of the ranked list, not of the labels
    beta0 = 0.0
    Y = (s >= (ranked @ beta + beta0)[:, None]).astype(int)
    assert 0.2 < Y.mean() < 0.8
    model = LLSFThreshold(rescale=False).fit(s, Y)
    # the learned map is the true one up to the noise of the midpoints (a fraction of the gap between scores)
    test = rng.uniform(0.0, 1.0, size=(500, m))
    err = np.abs(model.predict_threshold(test) - (np.sort(test, axis=1)[:, ::-1] @ beta + beta0))
    gap = 1.0 / (m + 1)  # the mean gap between neighbouring sorted uniform scores
    assert err.mean() < 0.15 * gap and err.max() < 0.6 * gap
    assert np.mean(model.predict(s) != Y) < 0.01
    # the label-order reading cannot express this map (its weights belong to labels, not rank positions)
    assert np.mean(LLSFThreshold(rescale=False, inputs="labels").fit(s, Y).predict(s) != Y) > 0.02


def test_llsf_ranked_threshold_ignores_which_category_got_which_score():
    # a fitted ranked-list map gives a row the same threshold whatever the order of its scores; a label-order map
    # (one weight per category) does not
    rng = np.random.default_rng(4)
    scores = rng.normal(size=(80, 6))
    Y = (rng.uniform(size=(80, 6)) < 0.4).astype(int)
    test = rng.normal(size=(20, 6))
    perm = rng.permutation(6)
    ranked = LLSFThreshold().fit(scores, Y)
    np.testing.assert_allclose(ranked.predict_threshold(test[:, perm]), ranked.predict_threshold(test))
    labels = LLSFThreshold(inputs="labels").fit(scores, Y)
    assert not np.allclose(labels.predict_threshold(test[:, perm]), labels.predict_threshold(test))


def test_llsf_is_invariant_to_a_positive_rescaling_of_the_scores_when_rescaling():
    rng = np.random.default_rng(2)
    scores = rng.uniform(0.0, 1.0, size=(60, 4))
    Y = (rng.uniform(size=(60, 4)) < 0.5).astype(int)
    a = LLSFThreshold().fit(scores, Y).predict(scores)
    b = LLSFThreshold().fit(7.0 * scores, Y).predict(7.0 * scores)
    np.testing.assert_array_equal(a, b)


def test_llsf_errors():
    model = LLSFThreshold()
    with pytest.raises(Exception, match="not fitted"):
        model.predict([[1.0, 2.0]])
    model.fit([[1.0, 2.0], [2.0, 1.0]], [[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="scores must have 2 columns"):
        model.predict([[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match="rescale must be True or False"):
        LLSFThreshold(rescale="yes").fit([[1.0, 2.0]], [[0, 1]])
    with pytest.raises(ValueError, match="inputs must be one of"):
        LLSFThreshold(inputs="sorted").fit([[1.0, 2.0]], [[0, 1]])
    with pytest.raises(ValueError, match="Y and scores must have the same shape"):
        LLSFThreshold().fit([[1.0, 2.0]], [[0, 1], [1, 0]])


def test_doctests():
    import doctest

    import labelrank.threshold as th

    assert doctest.testmod(th).failed == 0
