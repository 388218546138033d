"""Tests of labelrank.rankers: known-answer problems, gradients against finite differences, SVM-MAP's inference
against brute force, optimality certificates against independent solvers, determinism and input validation."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

import labelrank.rankers._base as rankers_module
from labelrank.baselines import rank_svm_pairs
from labelrank.metrics import average_precision, ndcg
from labelrank.rankers import (
    RANKERS,
    SVMMAP,
    LambdaRank,
    LightGBMLambdaRank,
    ListNet,
    RankSVMIR,
    ap_loss_augmented_inference,
    check_meta_features,
    delta_metric,
    lambda_gradients,
    listnet_gradient,
    listnet_loss,
    make_ranker,
    ranknet_cost,
)
import labelrank.rankers.gradient as gradient_module
from labelrank.rankers.gradient import _Network
from labelrank.rankers.losses import listnet_target
import labelrank.rankers.svm as svm_module
from labelrank.rankers.simplex_qp import solve_simplex_qp


def hidden_linear_problem(seed=0, n=160, m=8, d=6, noise=0.3):
    """Features on very different scales and offsets; relevance = top 3 of a hidden linear score plus noise.

    Returns train and test (Z, Y) and the hidden weights (on the standardised scale).
    """
    rng = np.random.default_rng(seed)
    scale = rng.uniform(0.1, 20.0, d)
    shift = rng.uniform(-50.0, 50.0, d)
    w = rng.normal(size=d)

    def draw(size):
        U = rng.normal(size=(size, m, d))
        u = U @ w + noise * rng.normal(size=(size, m))
        Y = np.zeros((size, m), dtype=int)
        np.put_along_axis(Y, np.argsort(-u, axis=1)[:, :3], 1, axis=1)
        return U * scale + shift, Y

    return draw(n), draw(n), w


def fast_rankers():
    return [
        ListNet(epochs=20, learning_rate=0.01),
        ListNet(epochs=20, target="softmax", hidden_units=4, learning_rate=0.01),
        LambdaRank(epochs=20, learning_rate=0.01),
        LambdaRank(epochs=20, metric="map", hidden_units=4, learning_rate=0.01),
        RankSVMIR(C=0.1),
        SVMMAP(C=1.0),
        LightGBMLambdaRank(n_estimators=30),
    ]


def rid(est):
    params = {k: v for k, v in est.get_params().items() if k in ("target", "metric", "hidden_units") and v}
    return type(est).__name__ + "".join(f"-{v}" for v in params.values())


# ---------------------------------------------------------------------------------------------------------------
# every ranker learns the hidden answer
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("est", fast_rankers(), ids=rid)
def test_each_ranker_beats_random_scores_by_a_wide_margin(est):
    (Z, Y), (Zt, Yt), w = hidden_linear_problem()
    rng = np.random.default_rng(1)
    random_map = np.mean([average_precision(Yt, rng.normal(size=Yt.shape)) for _ in range(20)])
    oracle_map = average_precision(Yt, ((Zt - Zt.mean((0, 1))) / Zt.std((0, 1))) @ w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = clone(est).fit(Z, Y)
    got = average_precision(Yt, fitted.decision_function(Zt))
    assert 0.5 < random_map < 0.6  # 3 relevant of 8: E[AP] of a random order is about 0.53
    assert got > random_map + 0.3, (got, random_map)
    assert got > oracle_map - 0.08, (got, oracle_map)


@pytest.mark.parametrize("est", fast_rankers(), ids=rid)
def test_same_seed_same_scores(est):
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=2, n=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = clone(est).fit(Z, Y).decision_function(Zt)
        b = clone(est).fit(Z.copy(), Y.copy()).decision_function(Zt)
    np.testing.assert_array_equal(a, b)


def test_different_seeds_give_different_networks():
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=3, n=60)
    a = ListNet(epochs=5, hidden_units=4, random_state=0).fit(Z, Y).decision_function(Zt)
    b = ListNet(epochs=5, hidden_units=4, random_state=1).fit(Z, Y).decision_function(Zt)
    assert not np.allclose(a, b)


@pytest.mark.parametrize(
    "est", [ListNet(epochs=10), LambdaRank(epochs=10), RankSVMIR(C=0.1), SVMMAP(C=1.0)], ids=rid
)
def test_scores_do_not_depend_on_the_units_of_the_features(est):
    # standardisation: a positive rescaling and a shift of every feature leave the model unchanged
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=4, n=80)
    a, b = np.linspace(0.01, 100.0, Z.shape[2]), np.linspace(-1e3, 1e3, Z.shape[2])
    s1 = clone(est).fit(Z, Y).decision_function(Zt)
    s2 = clone(est).fit(Z * a + b, Y).decision_function(Zt * a + b)
    np.testing.assert_allclose(s1 - s1.mean(axis=1, keepdims=True), s2 - s2.mean(axis=1, keepdims=True), atol=1e-5)


@pytest.mark.parametrize("est", [ListNet(epochs=5), RankSVMIR(), SVMMAP(), LambdaRank(epochs=5)], ids=rid)
def test_linear_scores_are_the_standardised_dot_product(est):
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=5, n=50)
    fitted = clone(est).fit(Z, Y)
    mean, std = Z.mean(axis=(0, 1)), Z.std(axis=(0, 1))
    np.testing.assert_allclose(fitted.mean_, mean)
    np.testing.assert_allclose(fitted.scale_, std)
    expected = ((Zt - mean) / std) @ fitted.coef_
    np.testing.assert_allclose(fitted.decision_function(Zt), expected, atol=1e-9)


@pytest.mark.parametrize("est", fast_rankers(), ids=rid)
def test_one_scoring_function_for_any_number_of_categories(est):
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=6, n=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = clone(est).fit(Z, Y)
    full = fitted.decision_function(Zt)
    np.testing.assert_allclose(fitted.decision_function(Zt[:, 2:5]), full[:, 2:5], atol=1e-10)
    np.testing.assert_allclose(fitted.decision_function(Zt[:7]), full[:7], atol=1e-10)
    np.testing.assert_allclose(fitted.decision_function(Zt.astype(np.float32)), full, atol=1e-3)


def test_float32_features_are_used_without_a_float64_copy():
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=7, n=60)
    s64 = SVMMAP().fit(Z, Y).decision_function(Zt)
    s32 = SVMMAP().fit(Z.astype(np.float32), Y).decision_function(Zt.astype(np.float32))
    np.testing.assert_allclose(s32, s64, atol=1e-3)


def test_chunked_linear_algebra_matches_the_direct_computation(monkeypatch):
    monkeypatch.setattr(rankers_module, "_CHUNK_ELEMENTS", 50)  # a few instances per chunk
    rng = np.random.default_rng(8)
    Z = rng.normal(size=(23, 4, 5)) * 3 + 1
    w = rng.normal(size=5)
    np.testing.assert_allclose(rankers_module._linear_scores(Z, w, 0.5), Z @ w + 0.5)
    mean, scale = rankers_module._moments(Z)
    np.testing.assert_allclose(mean, Z.mean(axis=(0, 1)))
    np.testing.assert_allclose(scale, Z.std(axis=(0, 1)))
    Z[:, :, 2] = 7.0  # a constant feature keeps scale 1
    assert rankers_module._moments(Z)[1][2] == 1.0


# ---------------------------------------------------------------------------------------------------------------
# ListNet
# ---------------------------------------------------------------------------------------------------------------


def test_listnet_loss_worked_example():
    # scores (0, log 3): P_s = (1/4, 3/4); labels (1, 0)
    s, y = [[0.0, np.log(3.0)]], [[1, 0]]
    assert listnet_loss(s, y, "normalized")[0] == pytest.approx(np.log(4.0))
    e = np.e
    p_y = np.array([e, 1.0]) / (e + 1.0)  # Cao et al.'s softmax of the labels
    assert listnet_loss(s, y, "softmax")[0] == pytest.approx(-(p_y[0] * np.log(0.25) + p_y[1] * np.log(0.75)))
    np.testing.assert_allclose(listnet_gradient(s, y, "normalized"), [[0.25 - 1.0, 0.75]])
    # a list with no relevant label has no normalized target; the softmax target is uniform
    assert listnet_loss([[1.0, 2.0]], [[0, 0]], "normalized")[0] == 0.0
    np.testing.assert_array_equal(listnet_gradient([[1.0, 2.0]], [[0, 0]], "normalized"), [[0.0, 0.0]])
    assert listnet_loss([[0.0, 0.0]], [[0, 0]], "softmax")[0] == pytest.approx(np.log(2.0))


@pytest.mark.parametrize("target", ["softmax", "normalized"])
def test_listnet_gradient_matches_finite_differences(target):
    rng = np.random.default_rng(10)
    S = rng.normal(size=(5, 6)) * 2
    Y = (rng.random((5, 6)) < 0.4).astype(int)
    Y[0] = 0
    grad = listnet_gradient(S, Y, target)
    h = 1e-6
    for i, c in itertools.product(range(5), range(6)):
        E = np.zeros_like(S)
        E[i, c] = h
        num = (listnet_loss(S + E, Y, target)[i] - listnet_loss(S - E, Y, target)[i]) / (2 * h)
        assert grad[i, c] == pytest.approx(num, abs=1e-7)


@pytest.mark.parametrize("hidden", [0, 3])
def test_network_backpropagation_matches_finite_differences(hidden):
    rng = np.random.default_rng(11)
    Zb = rng.normal(size=(4, 5, 3))
    Y = (rng.random((4, 5)) < 0.5).astype(int)
    net = _Network(3, hidden, np.random.default_rng(0))
    for p in net.params:
        p += rng.normal(size=p.shape) * 0.5

    def objective():
        return listnet_loss(net.forward(Zb)[0], Y, "softmax").sum()

    S, cache = net.forward(Zb)
    grads = net.backward(Zb, cache, listnet_gradient(S, Y, "softmax"))
    h = 1e-6
    for p, g in zip(net.params, grads):
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + h
            up = objective()
            p[idx] = old - h
            down = objective()
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / (2 * h), abs=1e-6)


def test_listnet_loss_decreases_during_training():
    (Z, Y), _, _ = hidden_linear_problem(seed=12, n=80)
    curve = ListNet(epochs=15, target="normalized").fit(Z, Y).loss_curve_
    assert len(curve) == 15 and curve[-1] < curve[0] - 0.1
    # the softmax target's cross-entropy is bounded below by the target's entropy (about 2.0 for 3 of 8 relevant)
    p = np.array([np.e] * 3 + [1.0] * 5) / (3 * np.e + 5)
    curve = ListNet(epochs=15, target="softmax").fit(Z, Y).loss_curve_
    assert -(p * np.log(p)).sum() < curve[-1] < curve[0]


@pytest.mark.parametrize("est", [r for r in fast_rankers() if isinstance(r, (ListNet, LambdaRank))], ids=rid)
@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_learning_rates_trained_together_equal_one_fit_each(est, optimizer):
    """fit_learning_rates gives, number for number, what one fit per learning rate gives (same batches, own Adam)."""
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=21, n=70)
    est = clone(est).set_params(epochs=4, batch_size=8, optimizer=optimizer, random_state=3)
    rates = [0.003, 0.1, 0.003, 0.03]
    fitted = est.fit_learning_rates(Z, Y, rates)
    assert [f.learning_rate for f in fitted] == rates and est.learning_rate == 0.01  # est itself is unchanged
    assert not hasattr(est, "n_features_in_")  # and unfitted
    for rate, together in zip(rates, fitted):
        alone = clone(est).set_params(learning_rate=rate).fit(Z, Y)
        np.testing.assert_array_equal(together.decision_function(Zt), alone.decision_function(Zt))
        assert together.loss_curve_ == alone.loss_curve_ and together.n_lists_used_ == alone.n_lists_used_
    assert not np.array_equal(fitted[0].decision_function(Zt), fitted[1].decision_function(Zt))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), adam=st.booleans(), decay=st.sampled_from([0.0, 1e-4, 0.3]),
       t=st.integers(1, 2000), size=st.integers(1, 40))
def test_gradient_step_is_numpys_arithmetic_bit_for_bit(seed, adam, decay, t, size):
    """The compiled step gives what numpy's expressions on whole arrays give, bit for bit (the same operations in
    the same order: no fused multiply-add, no reordering), on values of many magnitudes."""
    rng = np.random.default_rng(seed)
    p = rng.normal(size=size) * 10.0 ** rng.uniform(-6, 3, size)
    g = rng.normal(size=size) * 10.0 ** rng.uniform(-8, 2, size)
    m1, m2 = rng.normal(size=size) * 10.0 ** rng.uniform(-8, 0, size), rng.uniform(0, 1, size) * 1e-3
    lr, bias1, bias2 = float(rng.choice([1e-3, 0.03, 0.1])), 1 - 0.9**t, 1 - 0.999**t
    gd = g + decay * p if decay else g
    if adam:
        e1 = 0.9 * m1 + (1 - 0.9) * gd
        e2 = 0.999 * m2 + (1 - 0.999) * gd * gd
        ep = p - lr * (e1 / bias1) / (np.sqrt(e2 / bias2) + 1e-8)
    else:
        e1, e2, ep = m1.copy(), m2.copy(), p - lr * gd
    gradient_module._update(p, g, m1, m2, lr, decay, adam, bias1, bias2)
    for ours, expected in ((p, ep), (m1, e1), (m2, e2)):
        np.testing.assert_array_equal(ours, expected)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), target=st.sampled_from(["normalized", "softmax"]))
def test_listnet_targets_computed_once_are_each_batchs_targets(seed, target):
    """ListNet computes its lists' targets once per fit: row for row the numbers a batch's own labels give."""
    rng = np.random.default_rng(seed)
    Y = (rng.random((30, int(rng.integers(2, 12)))) < rng.uniform(0.05, 0.9)).astype(int)
    batch = rng.choice(30, size=int(rng.integers(1, 17)), replace=False)
    np.testing.assert_array_equal(ListNet(target=target)._targets(Y)[batch], listnet_target(Y[batch], target)[0])


def test_fit_learning_rates_rejects_bad_rates():
    (Z, Y), _, _ = hidden_linear_problem(seed=22, n=20)
    with pytest.raises(ValueError, match=r"learning_rates\[1\]"):
        ListNet(epochs=1).fit_learning_rates(Z, Y, [0.1, -1.0])
    with pytest.raises(ValueError, match="at least one learning rate"):
        LambdaRank(epochs=1).fit_learning_rates(Z, Y, [])
    with pytest.raises(TypeError, match="sequence of positive floats"):
        ListNet(epochs=1).fit_learning_rates(Z, Y, 0.1)


def test_listnet_normalized_target_skips_lists_without_relevant_labels():
    (Z, Y), _, _ = hidden_linear_problem(seed=13, n=40)
    Y[:5] = 0
    assert ListNet(epochs=1, target="normalized").fit(Z, Y).n_lists_used_ == 35
    assert ListNet(epochs=1, target="softmax").fit(Z, Y).n_lists_used_ == 40


# ---------------------------------------------------------------------------------------------------------------
# LambdaRank
# ---------------------------------------------------------------------------------------------------------------


def _swap_brute_force(S, Y, metric):
    """|change of the metric| for every swap, by swapping the two scores and re-evaluating with labelrank.metrics."""
    fn = {"ndcg": ndcg, "map": average_precision}[metric]
    n, m = S.shape
    out = np.zeros((n, m, m))
    base = fn(Y, S, per_instance=True)
    for i, a, b in itertools.product(range(n), range(m), range(m)):
        if Y[i, a] != Y[i, b]:
            T = S[i : i + 1].copy()
            T[0, [a, b]] = T[0, [b, a]]
            out[i, a, b] = abs(fn(Y[i : i + 1], T, per_instance=True)[0] - base[i])
    return out


@pytest.mark.parametrize("metric", ["ndcg", "map"])
@pytest.mark.parametrize("seed", range(4))
def test_delta_metric_equals_swapping_and_recomputing(metric, seed):
    rng = np.random.default_rng(seed)
    S = rng.permutation(7 * 9).reshape(7, 9).astype(float)  # distinct scores: no tie rule involved
    Y = (rng.random((7, 9)) < 0.4).astype(int)
    Y[0], Y[1] = 0, 1
    Y[2] = 0
    Y[2, 4] = 1
    np.testing.assert_allclose(delta_metric(S, Y, metric), _swap_brute_force(S, Y, metric), atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), m=st.integers(2, 9), levels=st.integers(1, 4))
def test_delta_ndcg_follows_the_metrics_tie_rule(seed, n, m, levels):
    """Scores with many ties: the positions behind |delta NDCG| are rank_labels' (MULAN's rule), pair by pair."""
    from labelrank.metrics import rank_labels

    rng = np.random.default_rng(seed)
    S = rng.integers(0, levels, size=(n, m)).astype(float)
    Y = (rng.random((n, m)) < 0.4).astype(int)
    pos = rank_labels(S)
    disc = 1.0 / np.log2(1.0 + pos)
    ideal = np.array([np.sum(1.0 / np.log2(2.0 + np.arange(r))) for r in Y.sum(axis=1)])
    pair = (Y[:, :, None] != Y[:, None, :]) & (Y.sum(axis=1) > 0)[:, None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = np.where(pair, np.abs(disc[:, :, None] - disc[:, None, :]) / ideal[:, None, None], 0.0)
    np.testing.assert_allclose(delta_metric(S, Y, "ndcg"), expected, rtol=1e-14, atol=0)


def test_lambda_gradients_reject_non_finite_scores():
    with pytest.raises(ValueError, match="scores must be finite"):
        lambda_gradients(np.array([[0.0, np.nan]]), np.array([[1, 0]]))
    with pytest.raises(ValueError, match="non-finite during training; lower the learning rate"):
        LambdaRank()._list_gradient(np.array([[np.inf, 0.0]]), np.array([[1, 0]]))


def test_lambda_gradients_with_constant_delta_are_the_ranknet_gradient():
    rng = np.random.default_rng(20)
    S = rng.normal(size=(6, 7)) * 2
    Y = (rng.random((6, 7)) < 0.4).astype(int)
    lam, cost = lambda_gradients(S, Y, metric="none", sigma=1.5)
    np.testing.assert_allclose(cost, ranknet_cost(S, Y, sigma=1.5))
    h = 1e-6
    for i, c in itertools.product(range(6), range(7)):
        E = np.zeros_like(S)
        E[i, c] = h
        num = (ranknet_cost(S + E, Y, 1.5)[i] - ranknet_cost(S - E, Y, 1.5)[i]) / (2 * h)
        assert lam[i, c] == pytest.approx(num, abs=1e-7)


@pytest.mark.parametrize("metric", ["ndcg", "map"])
def test_lambdas_are_the_gradient_of_the_delta_weighted_ranknet_cost(metric):
    rng = np.random.default_rng(21)
    S = rng.normal(size=(5, 6))
    Y = (rng.random((5, 6)) < 0.5).astype(int)
    lam, _ = lambda_gradients(S, Y, metric=metric)
    weights = delta_metric(S, Y, metric)  # frozen at S
    h = 1e-6
    for i, c in itertools.product(range(5), range(6)):
        E = np.zeros_like(S)
        E[i, c] = h
        num = (ranknet_cost(S + E, Y, 1.0, weights)[i] - ranknet_cost(S - E, Y, 1.0, weights)[i]) / (2 * h)
        assert lam[i, c] == pytest.approx(num, abs=1e-7)
    # descent direction: relevant labels are pushed up, irrelevant ones down; every list's lambdas sum to 0
    assert np.all(lam[Y == 1] <= 0) and np.all(lam[Y == 0] >= 0)
    np.testing.assert_allclose(lam.sum(axis=1), 0.0, atol=1e-12)


def test_lambdarank_skips_lists_without_pairs():
    (Z, Y), _, _ = hidden_linear_problem(seed=22, n=40)
    est = LambdaRank(epochs=3, standardize=False)
    base = clone(est).fit(Z, Y)
    Z2 = np.concatenate([Z, Z[:6]])
    Y2 = np.concatenate([Y, np.zeros((3, Y.shape[1]), int), np.ones((3, Y.shape[1]), int)])
    more = clone(est).fit(Z2, Y2)
    assert more.n_lists_used_ == base.n_lists_used_ == 40
    np.testing.assert_array_equal(more.coef_, base.coef_)


# ---------------------------------------------------------------------------------------------------------------
# SVM-MAP
# ---------------------------------------------------------------------------------------------------------------


def _ap_of_ranking(y, ranking):
    rel = y[ranking]
    hits = np.cumsum(rel)
    return float((hits / np.arange(1, len(y) + 1))[rel == 1].sum() / rel.sum())


def _augmented_objective(s, y, ranking):
    """Delta(y, ranking) + w.Psi(x, ranking) with w.phi_c = s_c, straight from the definitions."""
    pos = np.empty(len(y), dtype=int)
    pos[ranking] = np.arange(len(y))
    rel, irr = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    psi = sum((1.0 if pos[i] < pos[j] else -1.0) * (s[i] - s[j]) for i in rel for j in irr)
    return 1.0 - _ap_of_ranking(y, ranking) + psi / (len(rel) * len(irr))


def _brute_force_max(s, y):
    return max(_augmented_objective(s, y, np.array(p)) for p in itertools.permutations(range(len(y))))


@pytest.mark.parametrize("m", [2, 3, 4, 5, 6, 7])
def test_svmmap_inference_equals_brute_force_over_all_rankings(m):
    rng = np.random.default_rng(m)
    n_lists = 12 if m < 7 else 5
    S = rng.normal(size=(n_lists, m)) * rng.choice([0.01, 0.3, 1.0, 5.0], size=(n_lists, 1))
    S[0] = np.round(S[0])  # ties
    S[1] = 0.0  # all tied: the loss decides alone
    Y = np.zeros((n_lists, m), dtype=int)
    for i in range(n_lists):
        Y[i, rng.choice(m, size=1 + i % (m - 1), replace=False)] = 1
    ranking, coef, loss = ap_loss_augmented_inference(S, Y)
    for i in range(n_lists):
        assert sorted(ranking[i]) == list(range(m))
        ours = _augmented_objective(S[i], Y[i], ranking[i])
        assert ours == pytest.approx(_brute_force_max(S[i], Y[i]), abs=1e-12)
        # the returned loss and Psi difference describe the returned ranking
        assert loss[i] == pytest.approx(1.0 - _ap_of_ranking(Y[i], ranking[i]), abs=1e-12)
        truth = _augmented_objective(S[i], Y[i], np.argsort(-Y[i] - 1e-9 * np.arange(m), kind="stable"))
        assert truth == pytest.approx(np.mean(
            [S[i, a] - S[i, b] for a in np.flatnonzero(Y[i]) for b in np.flatnonzero(Y[i] == 0)]), abs=1e-12)
        # coef . s = w.Psi(y) - w.Psi(ranking), where the true ranking has loss 0
        assert coef[i] @ S[i] == pytest.approx(truth - (ours - loss[i]), abs=1e-12)
        assert coef[i].sum() == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_svmmap_constraint_in_one_pass_is_the_inference_and_two_sums(seed, dtype):
    """SVM-MAP's constraint from one pass over Z (_most_violated_constraint) equals the composition it replaces:
    the scores Z @ w, ap_loss_augmented_inference on them, and sum_i coef_i @ Z[i]; lists with no or every label
    relevant (coef 0) and tied scores (integer-valued Z and w, where every order of summation is exact) included."""
    from labelrank.rankers.svm import _most_violated_constraint

    rng = np.random.default_rng(seed)
    n, m, d = 37, 2 + seed, 11
    Z = rng.normal(size=(n, m, d)) * 2.0 + 0.5
    if seed % 2:
        Z = np.round(Z)  # ties among a list's scores
    Z = Z.astype(dtype)
    Y = (rng.random((n, m)) < 0.4).astype(np.int64)
    Y[0], Y[1] = 0, 1
    w = rng.normal(size=d) if seed % 2 == 0 else np.round(3 * rng.normal(size=d))  # integer sums are exact
    S = Z.astype(np.float64) @ w
    _, coef, loss = ap_loss_augmented_inference(S, Y)
    total, loss_sum = _most_violated_constraint(np.ascontiguousarray(Z), Y, w)
    np.testing.assert_allclose(total, np.einsum("ic,icd->d", coef, Z.astype(np.float64)), rtol=1e-12, atol=1e-10)
    assert loss_sum == pytest.approx(loss.sum(), rel=1e-12)
    assert loss_sum > 0  # some list is violated at this w


def test_svmmap_inference_worked_example():
    # one relevant label scored below two irrelevant ones, all scores equal: pure loss maximisation puts the
    # relevant label last, AP = 1/3
    ranking, coef, loss = ap_loss_augmented_inference([[0.0, 0.0, 0.0]], [[1, 0, 0]])
    assert ranking[0].tolist() == [1, 2, 0]
    assert loss[0] == pytest.approx(2.0 / 3.0)
    # Psi(y) - Psi(ybar) = 2/(R I) * sum over the 2 swapped pairs of (phi_rel - phi_irr)
    np.testing.assert_allclose(coef[0], [2.0, -1.0, -1.0])
    # with a clear margin the true ranking is the most violated one: every swap costs more score than loss
    ranking, coef, loss = ap_loss_augmented_inference([[10.0, 0.0, 0.0]], [[1, 0, 0]])
    assert ranking[0][0] == 0 and loss[0] == 0.0
    np.testing.assert_array_equal(coef[0], 0.0)
    # lists with no relevant or no irrelevant label
    ranking, coef, loss = ap_loss_augmented_inference([[1.0, 3.0], [2.0, 1.0]], [[0, 0], [1, 1]])
    assert ranking.tolist() == [[1, 0], [0, 1]]
    np.testing.assert_array_equal(coef, 0.0)
    np.testing.assert_array_equal(loss, 0.0)


@pytest.mark.parametrize("seed", range(5))
def test_simplex_qp_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    T, d, C = 6, 4, 2.5
    A = np.vstack([np.zeros(d), rng.normal(size=(T - 1, d))])
    b = np.concatenate([[0.0], rng.uniform(0.1, 1.0, T - 1)])
    G = A @ A.T
    alpha = np.concatenate([[C], np.zeros(T - 1)])
    assert solve_simplex_qp(G, b, alpha, C, 1e-12)[1]
    assert alpha.min() >= 0 and alpha.sum() == pytest.approx(C)

    def neg(x):
        return -(x @ b - 0.5 * x @ G @ x)

    ref = minimize(neg, np.full(T, C / T), method="SLSQP", bounds=[(0, None)] * T,
                   constraints=[{"type": "eq", "fun": lambda x: x.sum() - C}], options={"ftol": 1e-14})
    assert -neg(alpha) == pytest.approx(-ref.fun, abs=1e-8)
    assert -neg(alpha) >= -ref.fun - 1e-10


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 40), d=st.integers(1, 12),
       log_total=st.floats(-6, 6), repeats=st.integers(0, 3), start=st.sampled_from(["trivial", "spread", "random"]))
def test_simplex_qp_meets_the_kkt_conditions_on_singular_problems(seed, T, d, log_total, repeats, start):
    """Cutting planes of SVM-MAP's kind (the trivial one first, more planes than dimensions, repeated and nearly
    parallel planes, sums from 1e-6 to 1e6): the solution is feasible and optimal by the KKT conditions, and no
    worse than 5,000 steps of the sequential minimal optimisation it replaced (an independent solver)."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(T, d)) * rng.uniform(0.01, 10.0)
    A[0] = 0.0
    for _ in range(repeats):  # a repeated plane, and a nearly parallel one
        if T > 2:
            i, j = rng.choice(np.arange(1, T), size=2, replace=False)
            A[j] = A[i] * (1.0 + rng.normal() * 1e-9)
    b = np.concatenate([[0.0], rng.uniform(0.0, 1.0, T - 1)])
    G, total, tol = A @ A.T, 10.0**log_total, 1e-9 * max(1.0, 10.0**log_total * float(np.abs(A).max()) ** 2)
    alpha = {"trivial": np.eye(T)[0], "spread": np.full(T, 1.0 / T),
             "random": rng.dirichlet(np.ones(T)) * (rng.uniform(size=T) < 0.5 + 0.5 * np.eye(T)[0])}[start]
    alpha = alpha / alpha.sum() * total
    n_iter, optimal = solve_simplex_qp(G, b, alpha, total, tol)
    assert optimal and n_iter <= 10 * T + 100
    assert alpha.min() >= 0.0 and alpha.sum() == pytest.approx(total, rel=1e-12)
    g = b - G @ alpha
    nu = g[alpha > 0].mean()
    assert g.max() <= nu + 10 * tol
    assert np.abs(g[alpha > 0] - nu).max() <= 10 * tol + 1e-9 * np.abs(g).max()

    def dual(x):
        return x @ b - 0.5 * x @ G @ x

    smo = np.eye(T)[0] * total
    _smo(G, b, smo, 5_000)
    assert dual(alpha) >= dual(smo) - 10 * tol * total - 1e-12 * abs(dual(smo))


def test_simplex_qp_steps_along_a_null_direction_when_the_free_set_is_singular():
    """Two identical planes free at once (no Cholesky factor): the objective rises linearly along their difference,
    so the step goes to the bound; then the trivial plane (a = 0) and the better one share the total."""
    from labelrank.rankers import simplex_qp

    A = np.array([[0.0], [1.0], [1.0]])
    b = np.array([0.0, 1.0, 0.5])
    alpha = np.array([0.0, 5.0, 5.0])
    n_iter, optimal, n_eigen = simplex_qp._solve(A @ A.T, b, alpha, 10.0, 1e-12, 100)
    assert optimal and n_eigen > 0  # the eigendecomposition was used
    np.testing.assert_allclose(alpha, [9.0, 1.0, 0.0], atol=1e-12)
    again = np.array([0.0, 5.0, 5.0])
    assert solve_simplex_qp(A @ A.T, b, again, 10.0, 1e-12) == (n_iter, True)  # the public entry point
    np.testing.assert_array_equal(again, alpha)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(2, 30), moves=st.integers(1, 60))
def test_simplex_qp_factor_updates_give_the_cholesky_factor_of_the_free_block(seed, T, moves):
    """The QP's factor kept through coordinates entering (a row appended) and leaving (a row deleted, Givens
    rotations) in any order is numpy's Cholesky factor of the free block in that order (up to rounding), lower
    triangular with a positive diagonal; appending every coordinate in turn is the factorisation itself."""
    from labelrank.rankers import simplex_qp

    rng = np.random.default_rng(seed)
    A = rng.normal(size=(T, T + 2))
    G = A @ A.T  # positive definite
    L, order, n = np.zeros((T, T)), np.zeros(T, dtype=np.int64), 0
    for _ in range(moves):
        outside = np.setdiff1d(np.arange(T), order[:n])
        if n and (not outside.size or rng.uniform() < 0.4):  # one leaves
            a = int(rng.integers(n))
            simplex_qp._delete(L, n, a)
            order[a : n - 1] = order[a + 1 : n].copy()
            n -= 1
        else:  # one enters
            order[n] = rng.choice(outside)
            assert simplex_qp._append(L, n, G, order, order[n])
            n += 1
        if n == 0:
            continue
        F = order[:n]
        expected = np.linalg.cholesky(G[np.ix_(F, F)])
        np.testing.assert_allclose(np.tril(L[:n, :n]), expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
        np.testing.assert_array_equal(np.triu(L[:n, :n], 1), 0.0)
    fresh = np.zeros((T, T))
    perm = rng.permutation(T)
    assert simplex_qp.cholesky_factor(fresh, G, perm, T)  # whatever the order of the coordinates
    np.testing.assert_allclose(fresh, np.linalg.cholesky(G[np.ix_(perm, perm)]), rtol=1e-10,
                               atol=1e-12 * np.abs(G).max())
    singular = np.ones((3, 3))  # rank one: the second pivot is not positive
    assert not simplex_qp.cholesky_factor(np.zeros((3, 3)), singular, np.arange(3), 3)


def test_simplex_qp_needs_a_float_array_it_can_solve_in_place():
    G, b = np.eye(2), np.array([1.0, 0.0])
    for alpha in (np.array([1, 0]), [1.0, 0.0], np.array([[1.0, 9.0], [0.0, 9.0]])[:, 0]):
        with pytest.raises(TypeError, match="alpha must be a contiguous float64"):
            solve_simplex_qp(G, b, alpha, 1.0, 1e-9)


def _smo(G, b, alpha, steps):
    """Sequential minimal optimisation on the same QP (pairs of coordinates, the maximal violating pair)."""
    g = b - G @ alpha
    for _ in range(steps):
        i = int(np.argmax(g))
        support = np.flatnonzero(alpha > 0)
        j = int(support[np.argmin(g[support])])
        if g[i] - g[j] <= 1e-15:
            return
        eta = G[i, i] + G[j, j] - 2 * G[i, j]
        step = alpha[j] if eta <= 0 else min(alpha[j], (g[i] - g[j]) / eta)
        alpha[i] += step
        alpha[j] -= step
        g -= step * (G[:, i] - G[:, j])


def _svmmap_primal(Zs, Y, w, C):
    """1/2 |w|^2 + C/n sum_i max_ybar [Delta + w.Psi(ybar) - w.Psi(y)], inference by enumerating rankings."""
    total = 0.0
    for Zi, y in zip(Zs, Y):
        if 0 < y.sum() < len(y):
            s = Zi @ w
            truth = np.mean([s[a] - s[b] for a in np.flatnonzero(y) for b in np.flatnonzero(y == 0)])
            total += _brute_force_max(s, y) - truth
    return 0.5 * w @ w + C * total / len(Y)


@pytest.mark.parametrize("C", [0.1, 3.0, 50.0])
def test_svmmap_is_optimal_by_an_independent_duality_certificate(C):
    (Z, Y), _, _ = hidden_linear_problem(seed=30, n=12, m=5, d=3, noise=2.0)
    tol = 1e-4
    est = SVMMAP(C=C, tol=tol).fit(Z, Y)
    assert est.converged_
    Zs = (Z - est.mean_) / est.scale_
    primal = _svmmap_primal(Zs, Y, est.coef_, C)
    assert primal == pytest.approx(est.primal_objective_, abs=1e-9)
    # weak duality: any dual value is a lower bound of the optimum; the gap bounds our suboptimality
    assert est.dual_objective_ <= primal + 1e-9
    assert primal - est.dual_objective_ <= C * tol * 1.01 + 1e-9
    # no other point does better than the certificate allows
    rng = np.random.default_rng(0)
    for _ in range(6):
        other = est.coef_ + rng.normal(size=3) * 0.3
        assert _svmmap_primal(Zs, Y, other, C) >= est.dual_objective_ - 1e-9


def test_svmmap_pruning_keeps_the_optimum(monkeypatch):
    """Dropping idle constraints changes the path, not the optimum: both fits are C*tol-optimal."""
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=39, n=200, m=5, d=10, noise=3.0)
    C, tol = 1e3, 1e-4  # a long run: constraints sit idle for 50 iterations
    pruned = SVMMAP(C=C, tol=tol, warm_start=True).fit(Z, Y)  # warm_start keeps the working set to inspect
    assert pruned.converged_ and pruned._working_set["b"].size < pruned.n_iter_  # constraints were dropped
    monkeypatch.setattr(svm_module, "_PRUNE_AFTER", 10**9)
    full = SVMMAP(C=C, tol=tol).fit(Z, Y)
    assert full.converged_
    assert abs(pruned.primal_objective_ - full.primal_objective_) <= C * tol * 1.01
    Zs = (Z - pruned.mean_) / pruned.scale_
    assert _svmmap_primal(Zs, Y, pruned.coef_, C) == pytest.approx(pruned.primal_objective_, rel=1e-9)
    assert np.corrcoef(pruned.decision_function(Zt).ravel(), full.decision_function(Zt).ravel())[0, 1] > 0.999


def test_svmmap_warm_start_along_c_reaches_the_cold_optimum():
    """A warm-started path over a grid of C gives C*tol-optimal fits, the same choice of C, in fewer iterations."""
    (Z, Y), (Zt, Yt), _ = hidden_linear_problem(seed=37, n=100, m=6, d=5, noise=1.0)
    tol = 1e-5
    warm = SVMMAP(tol=tol, warm_start=True)
    cold_map, warm_map, cold_iter, warm_iter = [], [], 0, 0
    for C in np.logspace(-1, 4, 6):
        cold = SVMMAP(C=C, tol=tol).fit(Z, Y)
        warm.set_params(C=C).fit(Z, Y)
        assert cold.converged_ and warm.converged_
        assert abs(warm.primal_objective_ - cold.primal_objective_) <= C * tol * 1.01
        cold_map.append(average_precision(Yt, cold.decision_function(Zt)))
        warm_map.append(average_precision(Yt, warm.decision_function(Zt)))
        cold_iter, warm_iter = cold_iter + cold.n_iter_, warm_iter + warm.n_iter_
    assert np.argmax(warm_map) == np.argmax(cold_map) and np.allclose(warm_map, cold_map, atol=1e-3)
    assert warm_iter < cold_iter / 1.5


def test_svmmap_fit_path_is_the_sequence_of_warm_refits():
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=38, n=60, m=6, d=5, noise=1.0)
    Cs = [0.1, 3.0, 100.0]
    template = SVMMAP(tol=1e-4)
    path = template.fit_path(Z, Y, Cs)
    warm = SVMMAP(tol=1e-4, warm_start=True)
    for C, est in zip(Cs, path):
        warm.set_params(C=C).fit(Z, Y)
        assert est.C == C and est.n_iter_ == warm.n_iter_
        np.testing.assert_array_equal(est.decision_function(Zt), warm.decision_function(Zt))
    assert not hasattr(template, "coef_")


def test_svmmap_fit_path_prepares_its_input_once(monkeypatch):
    """The path checks and standardises Z once, not once per C, and puts a feature-major Z (the layout of the
    cached meta-level features) in C order once: the same fits as refits of a warm-started estimator."""
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=38, n=60, m=6, d=5, noise=1.0)
    Cs = [0.1, 3.0, 100.0]
    feature_major = np.ascontiguousarray(Z.transpose(2, 0, 1)).transpose(1, 2, 0)
    assert not feature_major.flags.c_contiguous
    warm = SVMMAP(tol=1e-4, warm_start=True)
    expected = []
    for C in Cs:
        warm.set_params(C=C).fit(feature_major, Y)
        expected.append((warm.n_iter_, warm.decision_function(Zt)))
    calls = []
    moments = rankers_module._moments
    monkeypatch.setattr(rankers_module, "_moments", lambda Z: calls.append(Z.shape) or moments(Z))
    path = SVMMAP(tol=1e-4).fit_path(feature_major, Y, Cs)
    assert calls == [Z.shape]
    for est, (n_iter, scores) in zip(path, expected):
        assert est.n_iter_ == n_iter
        np.testing.assert_array_equal(est.decision_function(Zt), scores)


@pytest.mark.parametrize("solver, tol", [("alm", 1e-8), ("dcd", 1e-6)])
def test_ranksvmir_fit_path_reaches_each_cold_optimum(solver, tol):
    """Each fit of the path solves the cold fit's problem: the same optimum within the solvers' tolerance (for the
    certified "alm": each within sqrt(2 gap) of the optimum, P being 1-strongly convex), in fewer steps."""
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=39, n=80, m=6, d=5, noise=1.0)
    # dcd: 10 values up to C = 10 (its epochs grow to thousands and vary by thousands with the random order: on
    # these data its path over 7 values from 1e-3 to 1 took 7,229 epochs, the cold fits 6,019; up to 10, 14,466
    # against 18,794)
    Cs = list(np.logspace(-3, 3, 7)) if solver == "alm" else list(np.logspace(-3, 1, 10))
    template = RankSVMIR(solver=solver, tol=tol, max_iter=None if solver == "alm" else 100_000)
    path = template.fit_path(Z, Y, Cs)
    warm_steps = cold_steps = 0
    for C, est in zip(Cs, path):
        cold = clone(template).set_params(C=C).fit(Z, Y)
        assert est.C == C and est.converged_ and cold.converged_
        np.testing.assert_array_equal(est.scale_, cold.scale_)
        assert est.primal_objective_ == pytest.approx(cold.primal_objective_, rel=1e-4 if solver == "dcd" else 1e-7)
        if solver == "alm":
            radius = sum(np.sqrt(2 * (r.primal_objective_ - r.dual_objective_)) for r in (est, cold))
            assert np.linalg.norm(est.coef_ - cold.coef_) <= radius + 1e-9
        np.testing.assert_allclose(est.decision_function(Zt), cold.decision_function(Zt), atol=1e-2)
        warm_steps, cold_steps = warm_steps + est.n_iter_, cold_steps + cold.n_iter_
    assert warm_steps < cold_steps
    assert not hasattr(template, "coef_")


@pytest.mark.parametrize("ranker", [RankSVMIR(), SVMMAP()])
@pytest.mark.parametrize("Cs, error, match", [
    (1.0, TypeError, "Cs must be a sequence of positive floats, got 1.0"),
    ([], ValueError, "Cs must hold at least one value of C"),
    ([1.0, -2.0], ValueError, r"Cs\[1\]"),
])
def test_fit_path_rejects_bad_values_of_C(ranker, Cs, error, match):
    (Z, Y), _, _ = hidden_linear_problem(seed=40, n=20)
    with pytest.raises(error, match=match):
        ranker.fit_path(Z, Y, Cs)


def test_svmmap_warm_start_on_other_data_starts_cold():
    (Z1, Y1), _, _ = hidden_linear_problem(seed=34, n=40)
    (Z2, Y2), _, _ = hidden_linear_problem(seed=35, n=40)
    warm = SVMMAP(C=10.0, warm_start=True).fit(Z1, Y1).fit(Z2, Y2)
    fresh = SVMMAP(C=10.0).fit(Z2, Y2)
    np.testing.assert_array_equal(warm.coef_, fresh.coef_)
    assert warm.n_iter_ == fresh.n_iter_


def test_svmmap_warm_start_must_be_a_bool():
    (Z, Y), _, _ = hidden_linear_problem(seed=36, n=20)
    with pytest.raises(TypeError, match="warm_start must be True or False, got 'yes'"):
        SVMMAP(warm_start="yes").fit(Z, Y)


def test_svmmap_does_not_claim_convergence_without_its_certificate(monkeypatch):
    """When the working set's QP stops at its iteration limit, the fit says so instead of reporting convergence."""
    import functools

    (Z, Y), _, _ = hidden_linear_problem(seed=33, n=80, m=6, d=5, noise=2.0)
    monkeypatch.setattr(svm_module, "solve_simplex_qp", functools.partial(solve_simplex_qp, max_iter=1))
    with pytest.warns(ConvergenceWarning, match="duality gap .* above C [*] tol"):
        est = SVMMAP(C=1e6, tol=1e-5).fit(Z, Y)
    assert not est.converged_ and est.primal_objective_ - est.dual_objective_ > 1e6 * 1e-5


def test_svmmap_is_certified_at_a_huge_c():
    """The case where sequential minimal optimisation stopped at its 100,000 steps per QP and the fit could not
    be certified (before the active-set QP): now C * tol-optimal, by the independent primal."""
    (Z, Y), _, _ = hidden_linear_problem(seed=33, n=80, m=6, d=5, noise=2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = SVMMAP(C=1e6, tol=1e-5).fit(Z, Y)
    assert est.converged_ and est.primal_objective_ - est.dual_objective_ <= 1e6 * 1e-5 * 1.01
    Zs = (Z - est.mean_) / est.scale_
    assert _svmmap_primal(Zs, Y, est.coef_, 1e6) == pytest.approx(est.primal_objective_, rel=1e-9)


def test_svmmap_warns_when_it_stops_early():
    (Z, Y), _, _ = hidden_linear_problem(seed=31, n=40, noise=3.0)
    with pytest.warns(ConvergenceWarning, match="SVMMAP did not converge"):
        est = SVMMAP(C=1e4, max_iter=2).fit(Z, Y)
    assert not est.converged_ and est.n_iter_ == 2


# ---------------------------------------------------------------------------------------------------------------
# RankSVM-IR
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("C", [0.05, 1.0])
def test_ranksvm_ir_matches_the_primal_qp_solved_by_scipy(C):
    (Z, Y), _, _ = hidden_linear_problem(seed=40, n=6, m=4, d=3, noise=2.0)
    est = RankSVMIR(C=C, tol=1e-8, max_iter=100000).fit(Z, Y)
    Zs = (Z - est.mean_) / est.scale_
    inst, rel, irr = rank_svm_pairs(Y)
    D = Zs[inst, rel] - Zs[inst, irr]  # one row per pair
    P, d = D.shape

    # variables (w, xi): min 1/2 |w|^2 + C sum xi  s.t.  D w >= 1 - xi, xi >= 0
    def objective(v):
        return 0.5 * v[:d] @ v[:d] + C * v[d:].sum()

    cons = [{"type": "ineq", "fun": lambda v: D @ v[:d] - 1 + v[d:], "jac": lambda v: np.hstack([D, np.eye(P)])}]
    ref = minimize(objective, np.zeros(d + P), method="SLSQP", bounds=[(None, None)] * d + [(0, None)] * P,
                   constraints=cons, jac=lambda v: np.concatenate([v[:d], np.full(P, C)]),
                   options={"ftol": 1e-12, "maxiter": 1000})
    # ftol 1e-14 is below SLSQP's rounding here: scipy 1.17.1 with one BLAS thread (make test's setting) stopped
    # with "Positive directional derivative for linesearch" at C = 1, its objective within 1e-13 of 1e-12's
    assert ref.success, ref.message
    ours = 0.5 * est.coef_ @ est.coef_ + C * np.maximum(0, 1 - D @ est.coef_).sum()
    assert ours == pytest.approx(ref.fun, rel=1e-6, abs=1e-9)
    assert est.primal_objective_ == pytest.approx(ours, rel=1e-9)
    np.testing.assert_allclose(est.coef_, ref.x[:d], atol=1e-4)
    assert est.intercept_ == 0.0


def test_ranksvm_ir_warns_when_it_stops_early():
    (Z, Y), _, _ = hidden_linear_problem(seed=41, n=40, noise=3.0)
    with pytest.warns(ConvergenceWarning, match="RankSVMIR did not converge"):
        RankSVMIR(C=1e3, max_iter=1).fit(Z, Y)


# ---------------------------------------------------------------------------------------------------------------
# LightGBM
# ---------------------------------------------------------------------------------------------------------------


def test_lightgbm_gets_one_query_group_per_instance():
    (Z, Y), _, _ = hidden_linear_problem(seed=50, n=30)
    est = LightGBMLambdaRank(n_estimators=5).fit(Z, Y)
    assert est.params_["objective"] == "lambdarank"
    assert est.booster_.num_trees() == 5
    assert est.booster_.params["deterministic"] is True
    np.testing.assert_allclose(est.mean_, 0.0)  # trees: no standardisation


def _lgbm_ranker(est, **extra):
    """LightGBM's own scikit-learn ranker with ``est``'s settings (an independent path to the same trees)."""
    import lightgbm

    return lightgbm.LGBMRanker(
        objective="lambdarank", n_estimators=est.n_estimators, learning_rate=est.learning_rate,
        num_leaves=est.num_leaves, min_child_samples=est.min_child_samples, reg_lambda=est.reg_lambda,
        n_jobs=est.n_jobs, random_state=est.random_state, deterministic=True, verbose=-1, **extra)


def _lgbm_fit(model, Z, Y):
    n, m, d = Z.shape
    return model.fit(Z.reshape(n * m, d), Y.reshape(-1), group=np.full(n, m))


@pytest.mark.parametrize("seed, n_jobs", [(51, 1), (52, 1), (53, 2)])
def test_lightgbm_column_wise_histograms_grow_the_row_wise_trees(seed, n_jobs):
    """force_col_wise (faster here) against LightGBM's row-wise histograms: the same predictions, bit for bit."""
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=seed, n=300, m=8, d=6, noise=1.0)
    est = LightGBMLambdaRank(n_estimators=40, min_child_samples=20, n_jobs=n_jobs).fit(Z, Y)
    assert est.booster_.params["force_col_wise"] is True
    rows = _lgbm_fit(_lgbm_ranker(est, force_row_wise=True), Z, Y)
    np.testing.assert_array_equal(est.decision_function(Zt).ravel(), rows.predict(Zt.reshape(-1, Zt.shape[2])))


@pytest.mark.parametrize("seed", [54, 55, 56])
def test_lightgbm_learning_rates_binned_once_grow_lgbmrankers_trees(seed):
    """fit_learning_rates (one Dataset for every rate) and fit (lightgbm.train) against LightGBM's own
    LGBMRanker at each rate: the same trees, so the same predictions bit for bit."""
    rng = np.random.default_rng(seed)
    (Z, Y), (Zt, _), _ = hidden_linear_problem(seed=seed, n=int(rng.integers(100, 300)), m=int(rng.integers(3, 9)),
                                               d=int(rng.integers(2, 7)), noise=1.0)
    base = LightGBMLambdaRank(n_estimators=30, min_child_samples=int(rng.integers(5, 30)),
                              num_leaves=int(rng.integers(2, 8)), reg_lambda=float(rng.uniform(0, 1)))
    rates = [0.3, 0.03, 0.1, 0.3]
    path = base.fit_learning_rates(Z, Y, rates)
    assert [est.learning_rate for est in path] == rates
    assert not hasattr(base, "booster_")
    d = Z.shape[2]
    for rate, est in zip(rates, path):
        alone = clone(base).set_params(learning_rate=rate).fit(Z, Y)
        theirs = _lgbm_fit(_lgbm_ranker(alone, force_col_wise=True), Z, Y)
        expected = theirs.predict(Zt.reshape(-1, d))
        np.testing.assert_array_equal(alone.decision_function(Zt).ravel(), expected)
        np.testing.assert_array_equal(est.decision_function(Zt).ravel(), expected)
        assert est.booster_.dump_model()["tree_info"] == theirs.booster_.dump_model()["tree_info"]
    with pytest.raises(ValueError, match="learning_rates\\[1\\] must be"):
        base.fit_learning_rates(Z, Y, [0.1, -1.0])
    with pytest.raises(ValueError, match="at least one learning rate"):
        base.fit_learning_rates(Z, Y, [])


@pytest.mark.parametrize("seed", [57, 58, 59])
def test_lightgbm_training_scores_kept_from_the_fit_are_its_predictions(seed):
    """The booster's own training scores, which MetaLevelRanker's threshold is fitted on: the predictions on the
    training rows bit for bit (at every rate of fit_learning_rates), handed out once, the booster's data let go;
    and the threshold equals the one fitted on predicted scores."""
    from labelrank import MetaLevelRanker
    from labelrank.threshold import LLSFThreshold

    rng = np.random.default_rng(seed)
    (Z, Y), _, _ = hidden_linear_problem(seed=seed, n=int(rng.integers(80, 250)), m=int(rng.integers(3, 9)),
                                         d=int(rng.integers(2, 7)), noise=1.0)
    base = LightGBMLambdaRank(n_estimators=25, min_child_samples=int(rng.integers(5, 30)),
                              num_leaves=int(rng.integers(2, 8)))
    for est in [clone(base).fit(Z, Y), *base.fit_learning_rates(Z, Y, [0.3, 0.03])]:
        kept = est._training_scores(Z)
        np.testing.assert_array_equal(kept, est.booster_.predict(Z.reshape(-1, Z.shape[2])).reshape(Y.shape))
        assert "_fit_scores" not in est.__dict__  # handed out once: the same numbers computed from now on
        np.testing.assert_array_equal(est._training_scores(Z), kept)
        assert "train_set" not in est.booster_.__dict__  # the Dataset let go, as lightgbm.train does by default
    meta = MetaLevelRanker(ranker="lightgbm", ranker_params={"n_estimators": 25}).fit_features(Z, Y)
    expected = LLSFThreshold().fit(meta.decision_function_features(Z), Y)
    np.testing.assert_array_equal(meta.threshold_.coef_, expected.coef_)
    assert meta.threshold_.intercept_ == expected.intercept_


# ---------------------------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------------------------


def test_make_ranker_and_registry():
    assert set(RANKERS) == {"listnet", "lambdarank", "ranksvm", "svmmap", "lightgbm"}
    assert make_ranker("ranksvm", C=2.0).C == 2.0
    with pytest.raises(ValueError, match=r"ranker must be one of .* got 'svm'"):
        make_ranker("svm")


def test_bad_features_give_clear_errors():
    Z = np.zeros((3, 2, 4))
    with pytest.raises(ValueError, match=r"Z must be 3-D .* got shape \(3, 2\)"):
        check_meta_features(Z[:, :, 0])
    with pytest.raises(ValueError, match="Z must not have an empty dimension"):
        check_meta_features(Z[:, :0])
    bad = Z.copy()
    bad[1, 0, 2] = np.nan
    with pytest.raises(ValueError, match=r"Z must be finite, got nan at position \(1, 0, 2\)"):
        check_meta_features(bad)
    with pytest.raises(TypeError, match="Z must be a 3-D array"):
        check_meta_features(None)
    with pytest.raises(TypeError, match="Z must hold numbers"):
        check_meta_features(np.array([[["a"]]]))
    assert check_meta_features(Z.astype(np.float32)).dtype == np.float32
    assert check_meta_features(Z.astype(int)).dtype == np.float64


@pytest.mark.parametrize("est", fast_rankers(), ids=rid)
def test_bad_input_to_a_ranker(est):
    (Z, Y), _, _ = hidden_linear_problem(seed=60, n=20)
    with pytest.raises(ValueError, match=r"Y must have shape .* \(20, 8\) .* got \(19, 8\)"):
        clone(est).fit(Z, Y[:-1])
    with pytest.raises(ValueError, match="Y must contain only 0 and 1"):
        clone(est).fit(Z, Y * 2)
    with pytest.raises(ValueError, match="Y must be a label matrix"):
        clone(est).fit(Z, None)
    with pytest.raises(Exception, match="not fitted"):
        clone(est).decision_function(Z)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = clone(est).fit(Z, Y)
    with pytest.raises(ValueError, match="Z has 5 features per .* fitted with 6"):
        fitted.decision_function(Z[:, :, :5])


@pytest.mark.parametrize(
    "est, error, match",
    [
        (ListNet(learning_rate=0.0), ValueError, "learning_rate must be positive and finite, got 0.0"),
        (ListNet(alpha=-1.0), ValueError, "alpha must be non-negative and finite, got -1.0"),
        (ListNet(target="uniform"), ValueError, r"target must be one of \('softmax', 'normalized'\)"),
        (ListNet(epochs=0), ValueError, "epochs must be >= 1, got 0"),
        (ListNet(batch_size=2.5), TypeError, "batch_size must be an integer, got 2.5"),
        (ListNet(optimizer="lbfgs"), ValueError, "optimizer must be one of"),
        (ListNet(standardize="yes"), TypeError, "standardize must be True or False"),
        (LambdaRank(metric="err"), ValueError, r"metric must be one of \('ndcg', 'map', 'none'\), got 'err'"),
        (LambdaRank(sigma=0), ValueError, "sigma must be positive"),
        (LambdaRank(random_state=-1), ValueError, "random_state must be >= 0, got -1"),
        (RankSVMIR(C=0.0), ValueError, "C must be positive and finite, got 0.0"),
        (RankSVMIR(C="1"), TypeError, "C must be a positive number, got '1'"),
        (SVMMAP(tol=np.inf), ValueError, "tol must be positive and finite, got inf"),
        (SVMMAP(max_iter=0), ValueError, "max_iter must be >= 1, got 0"),
        (LightGBMLambdaRank(num_leaves=1), ValueError, "num_leaves must be >= 2, got 1"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bad_hyperparameters(est, error, match):
    (Z, Y), _, _ = hidden_linear_problem(seed=61, n=10)
    with pytest.raises(error, match=match):
        est.fit(Z, Y)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 20), m=st.integers(1, 30), scale=st.floats(1e-3, 1e3))
def test_log_softmax_rows_is_scipys_number_for_number(seed, n, m, scale):
    from scipy.special import log_softmax

    from labelrank.rankers.losses import log_softmax_rows

    rng = np.random.default_rng(seed)
    S = rng.normal(scale=scale, size=(n, m))
    S[rng.random((n, m)) < 0.05] = -np.inf  # a label scored minus infinity
    S[rng.random(n) < 0.1] = -np.inf  # a whole row of them
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(log_softmax_rows(S), log_softmax(S, axis=1))
