"""Tests of labelrank.rankers.pairwise_svm: worked examples, cross-checks against LIBLINEAR and an L-BFGS-B dual
solve."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.svm import LinearSVC

import labelrank.rankers.pairwise_svm as pairwise_svm
from labelrank.rankers.pairwise_svm import _grouped_order, dual_path_starts, fit_pairwise_hinge, pair_margins


def random_problem(seed, n_rows=30, d=4, n_pairs=60):
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(n_rows, d))
    a = rng.integers(0, n_rows, n_pairs)
    b = rng.integers(0, n_rows, n_pairs)
    return F, a, b


def liblinear_weights(Z, C):
    """Solve min 1/2||w||^2 + C sum_p hinge(w . z_p) with LIBLINEAR: labels +1, half the rows flipped to -1."""
    sign = np.where(np.arange(Z.shape[0]) % 2 == 0, 1.0, -1.0)
    svc = LinearSVC(loss="hinge", dual=True, fit_intercept=False, C=C, tol=1e-10, max_iter=200_000, random_state=0)
    return svc.fit(Z * sign[:, None], sign).coef_[0]


def lbfgs_dual_weights(Z, bounds):
    """Independent solution: maximise the dual sum(alpha) - 1/2 ||Z^T alpha||^2 over the box with L-BFGS-B."""

    def neg_dual(alpha):
        w = Z.T @ alpha
        return 0.5 * w @ w - alpha.sum(), Z @ w - 1.0

    res = minimize(neg_dual, np.zeros(Z.shape[0]), jac=True, method="L-BFGS-B",
                   bounds=list(zip(np.zeros_like(bounds), bounds)), options={"ftol": 1e-15, "gtol": 1e-12,
                                                                              "maxiter": 50_000})
    return Z.T @ res.x


# ---------------------------------------------------------------------------------------------------------------
# worked examples
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("C, w", [(0.25, 0.25), (10.0, 1.0)])
def test_one_pair_by_hand(C, w):
    # min 1/2 w^2 + C max(0, 1 - w): w = min(C, 1), alpha = w since w = alpha * (1 - 0)
    res = fit_pairwise_hinge([[0.0], [1.0]], [1], [0], C=C, tol=1e-12)
    assert res.coef.shape == (1, 1)
    assert res.coef[0, 0] == pytest.approx(w, abs=1e-12)
    assert res.alpha[0] == pytest.approx(w, abs=1e-12)
    assert res.converged
    assert res.primal_objective == pytest.approx(0.5 * w * w + C * max(0.0, 1.0 - w))
    assert res.duality_gap == pytest.approx(0.0, abs=1e-12)


def test_two_blocks_by_hand():
    # one instance x = (1), blocks 0 (relevant) and 1 (irrelevant): margin w0 - w1 >= 1, minimal norm w = (1/2, -1/2)
    res = fit_pairwise_hinge([[1.0]], [0], [0], C=100.0, pos_blocks=[0], neg_blocks=[1], tol=1e-12)
    np.testing.assert_allclose(res.coef, [[0.5], [-0.5]], atol=1e-12)
    assert res.alpha[0] == pytest.approx(0.5)


def test_identical_vectors_pair_is_at_its_bound_and_does_not_move_w():
    F = np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]])
    res = fit_pairwise_hinge(F, [0, 0], [1, 2], C=[0.3, 5.0], tol=1e-12)
    assert res.alpha[0] == pytest.approx(0.3)  # z_0 = F0 - F1 = 0
    alone = fit_pairwise_hinge(F, [0], [2], C=5.0, tol=1e-12)
    np.testing.assert_allclose(res.coef, alone.coef, atol=1e-12)
    assert res.primal_objective == pytest.approx(alone.primal_objective + 0.3)


def test_no_pairs_gives_zero_weights():
    res = fit_pairwise_hinge(np.ones((3, 2)), [], [], C=1.0, n_blocks=2)
    assert res.coef.shape == (2, 2) and not res.coef.any()
    assert res.converged and res.n_iter == 0 and res.primal_objective == 0.0


# ---------------------------------------------------------------------------------------------------------------
# cross-checks
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("C", [0.05, 1.0])
def test_matches_liblinear_on_explicit_differences(seed, C):
    F, a, b = random_problem(seed)
    res = fit_pairwise_hinge(F, a, b, C=C, tol=1e-9, max_iter=100_000, random_state=seed)
    assert res.converged
    np.testing.assert_allclose(res.coef[0], liblinear_weights(F[a] - F[b], C), atol=1e-5)


@pytest.mark.parametrize("seed", range(4))
def test_unequal_bounds_match_an_lbfgs_solution_of_the_dual(seed):
    F, a, b = random_problem(seed, n_rows=15, d=3, n_pairs=25)
    bounds = np.random.default_rng(100 + seed).uniform(0.01, 2.0, size=a.size)
    res = fit_pairwise_hinge(F, a, b, C=bounds, tol=1e-10, max_iter=100_000)
    np.testing.assert_allclose(res.coef[0], lbfgs_dual_weights(F[a] - F[b], bounds), atol=1e-5)


@pytest.mark.parametrize("seed", range(3))
def test_blocks_equal_the_flattened_single_block_problem(seed):
    # Elisseeff & Weston's form: pair (i, k, l) has z = e_k (x) x_i - e_l (x) x_i in the flattened weight space
    rng = np.random.default_rng(seed)
    n, d, m = 12, 3, 4
    X = rng.normal(size=(n, d))
    inst = rng.integers(0, n, 30)
    k = rng.integers(0, m, 30)
    l = (k + rng.integers(1, m, 30)) % m
    Z = np.zeros((30, m * d))
    for p in range(30):
        Z[p, k[p] * d:(k[p] + 1) * d] += X[inst[p]]
        Z[p, l[p] * d:(l[p] + 1) * d] -= X[inst[p]]
    res = fit_pairwise_hinge(X, inst, inst, C=0.7, pos_blocks=k, neg_blocks=l, n_blocks=m, tol=1e-10,
                             max_iter=100_000)
    assert res.coef.shape == (m, d)
    np.testing.assert_allclose(res.coef.ravel(), liblinear_weights(Z, 0.7), atol=1e-5)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("C", [0.05, 1.0])
def test_grouped_visiting_order_reaches_the_same_optimum(seed, C):
    """Visiting each group's pairs together is another order of the same coordinate descent: LIBLINEAR's optimum."""
    F, a, b = random_problem(seed)
    groups = a % 7  # e.g. the instance a pair comes from
    res = fit_pairwise_hinge(F, a, b, C=C, tol=1e-9, max_iter=100_000, random_state=seed, groups=groups)
    assert res.converged and res.duality_gap <= 1e-6 * max(res.primal_objective, 1.0)
    np.testing.assert_allclose(res.coef[0], liblinear_weights(F[a] - F[b], C), atol=1e-5)


@pytest.mark.parametrize("seed", range(5))
def test_grouped_order_is_a_permutation_with_each_group_together(seed):
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, 9, 200)
    active = rng.permutation(200)[:150].astype(np.int64)
    rank = rng.permutation(9)
    out = _grouped_order(active, groups, rank, 9, seed)
    assert sorted(out) == sorted(active)
    keys = rank[groups[out]]
    assert (np.diff(keys) >= 0).all()  # groups in the order of rank, each group's pairs adjacent
    assert np.array_equal(out, _grouped_order(active, groups, rank, 9, seed))  # seeded


def label_pairs_problem(seed, n=40, m=5, d=23, sparse=False):
    """Rank-SVM's kind of pairs (one block per label, both vectors of a pair one row), a few same-label pairs
    (z = 0) among them, rows of unequal length, some empty."""
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(n, d)) * rng.uniform(0.1, 3.0, size=(n, 1))
    if sparse:
        F[rng.random(F.shape) < 0.7] = 0.0
        F[rng.integers(0, n, 3)] = 0.0
    inst = np.repeat(np.arange(n), rng.integers(0, 8, n))
    pos = rng.integers(0, m, inst.size)
    neg = np.where(rng.random(inst.size) < 0.05, pos, (pos + rng.integers(1, m, inst.size)) % m)
    C = rng.uniform(0.01, 20.0, inst.size)
    return (sp.csr_matrix(F) if sparse else F), inst, pos, neg, m, C


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("sparse", [False, True])
def test_row_runs_epoch_is_the_pair_by_pair_epoch(seed, sparse):
    """_cd_epoch_rows keeps a row's scores along a run of its pairs instead of recomputing them per pair: from the
    same state (a random dual point and its W), over the same grouped order with the same shrinking bounds, one
    epoch gives what _cd_epoch gives, up to rounding (the same pairs set aside, the same dual point and W)."""
    F, inst, pos, neg, m, C = label_pairs_problem(seed, sparse=sparse)
    args = pairwise_svm._as_feature_matrix(F)
    is_sparse, dense, data, indices, indptr, n_rows, n_features = args
    qdiag = pairwise_svm._pair_sq_norms(inst, inst, pos, neg, n_features, is_sparse, dense, data, indices, indptr)
    row_sq = pairwise_svm._row_sq_norms(is_sparse, dense, data, indptr, n_rows)
    rng = np.random.default_rng(seed)
    alpha0 = np.where(rng.random(inst.size) < 0.5, 0.0, C * rng.uniform(0.2, 1.0, inst.size))
    at_cap = rng.random(inst.size) < 0.2
    alpha0[at_cap] = C[at_cap]  # pairs at both bounds and inside
    W0 = np.zeros((m, n_features))
    pairwise_svm._accumulate(W0, alpha0, inst, inst, pos, neg, is_sparse, dense, data, indices, indptr)
    rank = rng.permutation(n_rows)
    order = _grouped_order(np.arange(inst.size), inst, rank, n_rows, seed)
    gradients = pairwise_svm._margins(W0, inst, inst, pos, neg, is_sparse, dense, data, indices, indptr) - 1.0
    for bounds in ((np.inf, -np.inf), tuple(np.quantile(gradients, [0.7, 0.2]))):  # none, then some shrinking
        out = []
        for kernel in ("pairs", "rows"):
            index, alpha, W = order.copy(), alpha0.copy(), W0.copy()
            if kernel == "pairs":
                pg = pairwise_svm._cd_epoch(index, inst.size, *bounds, alpha, C, qdiag, W, inst, inst, pos, neg,
                                            is_sparse, dense, data, indices, indptr)
            else:
                pg = pairwise_svm._cd_epoch_rows(index, inst.size, *bounds, alpha, C, qdiag, W, inst, row_sq, pos,
                                                 neg, is_sparse, dense, data, indices, indptr)
            out.append((pg, index, alpha, W))
        (pg_ref, index_ref, alpha_ref, W_ref), (pg_fast, index_fast, alpha_fast, W_fast) = out
        assert pg_fast[2] == pg_ref[2] and np.array_equal(index_fast, index_ref)
        np.testing.assert_allclose(pg_fast[:2], pg_ref[:2], rtol=0, atol=1e-10)
        np.testing.assert_allclose(alpha_fast, alpha_ref, rtol=0, atol=1e-10 * C.max())
        np.testing.assert_allclose(W_fast, W_ref, rtol=0, atol=1e-10 * max(1.0, np.abs(W_ref).max()))
    assert pg_ref[2] < inst.size  # the second epoch did set pairs aside


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sparse", [False, True])
def test_row_runs_reach_the_pair_by_pair_optimum(monkeypatch, seed, sparse):
    """fit_pairwise_hinge with groups takes _cd_epoch_rows for Rank-SVM's pairs (pos_rows == neg_rows): the same
    optimum as the pair-by-pair epochs, from a warm start or cold (over thousands of epochs rounding may tip a
    shrinking decision, so the iterates themselves may part)."""
    F, inst, pos, neg, m, C = label_pairs_problem(seed, sparse=sparse)
    fits = []
    for row_runs in (False, True):
        monkeypatch.setattr(pairwise_svm, "_ROW_RUNS", row_runs)
        fits.append(fit_pairwise_hinge(F, inst, inst, C=C, pos_blocks=pos, neg_blocks=neg, n_blocks=m, tol=1e-6,
                                       max_iter=100_000, random_state=seed, groups=inst))
    for res in fits:
        assert res.converged and res.duality_gap <= 1e-6 * max(1.0, res.primal_objective)
    np.testing.assert_allclose(fits[1].coef, fits[0].coef, rtol=0, atol=1e-4 * max(1.0, np.abs(fits[0].coef).max()))


@pytest.mark.parametrize("seed", range(3))
def test_row_runs_reach_liblinears_optimum(seed):
    """The fast epochs solve the flattened problem (Elisseeff & Weston's pairs as explicit difference vectors)."""
    F, inst, pos, neg, m, _ = label_pairs_problem(seed, n=15, m=4, d=3)
    d = F.shape[1]
    keep = pos != neg
    inst, pos, neg = inst[keep], pos[keep], neg[keep]
    Z = np.zeros((inst.size, m * d))
    for p in range(inst.size):
        Z[p, pos[p] * d:(pos[p] + 1) * d] += F[inst[p]]
        Z[p, neg[p] * d:(neg[p] + 1) * d] -= F[inst[p]]
    res = fit_pairwise_hinge(F, inst, inst, C=0.7, pos_blocks=pos, neg_blocks=neg, n_blocks=m, tol=1e-10,
                             max_iter=100_000, groups=inst)
    assert res.converged
    np.testing.assert_allclose(res.coef.ravel(), liblinear_weights(Z, 0.7), atol=1e-5)


@pytest.mark.parametrize("seed", range(3))
def test_primal_equals_dual_at_convergence(seed):
    F, a, b = random_problem(seed, n_rows=50, d=6, n_pairs=200)
    res = fit_pairwise_hinge(F, a, b, C=0.5, tol=1e-8, max_iter=100_000)
    assert res.converged and res.violation <= 1e-8
    assert res.duality_gap >= -1e-9
    assert res.duality_gap <= 1e-6 * res.primal_objective
    # the reported primal objective is the primal at the returned weights
    margins = (F[a] - F[b]) @ res.coef[0]
    assert res.primal_objective == pytest.approx(0.5 * res.coef[0] @ res.coef[0]
                                                 + 0.5 * np.maximum(0, 1 - margins).sum())


def test_loose_tolerance_leaves_a_gap_and_max_iter_stops():
    F, a, b = random_problem(0, n_rows=50, d=6, n_pairs=200)
    res = fit_pairwise_hinge(F, a, b, C=50.0, tol=1e-12, max_iter=3)
    assert not res.converged and res.n_iter == 3 and res.violation > 1e-12
    assert res.duality_gap > 0


def test_sparse_and_dense_agree():
    F, a, b = random_problem(1)
    F[np.abs(F) < 0.7] = 0.0
    dense = fit_pairwise_hinge(F, a, b, C=0.5, tol=1e-9, max_iter=100_000)
    sparse = fit_pairwise_hinge(sp.csr_matrix(F), a, b, C=0.5, tol=1e-9, max_iter=100_000)
    np.testing.assert_allclose(sparse.coef, dense.coef, atol=1e-10)
    # a CSC or COO matrix with duplicate entries is accepted the same way
    coo = sp.coo_matrix(F)
    dup = sp.coo_matrix((np.r_[coo.data / 2, coo.data / 2], (np.r_[coo.row, coo.row], np.r_[coo.col, coo.col])),
                        shape=F.shape)
    twice = fit_pairwise_hinge(dup, a, b, C=0.5, tol=1e-9, max_iter=100_000)
    np.testing.assert_allclose(twice.coef, dense.coef, atol=1e-8)


@pytest.mark.parametrize("seed", range(6))
def test_dense_dot_products_follow_the_strict_sums_iterates(seed):
    """The dense kernels take their dot products from BLAS, the sparse ones sum in one strict order (the code
    before): on a matrix without zeros, as CSR, the same epochs of a fit stopped at its cap (yeast's Fig. 2 kind:
    one block per label, both rows of a pair the same) reach the same iterate up to rounding."""
    rng = np.random.default_rng(seed)
    n, m, d = 40, 4, 37
    F = rng.uniform(0.5, 2.0, size=(n, d))  # no zero entry: CSR holds every product the dense sum has
    inst = np.repeat(np.arange(n), 3)
    pos = rng.integers(0, m, inst.size)
    neg = (pos + rng.integers(1, m, inst.size)) % m
    fits = [fit_pairwise_hinge(G, inst, inst, C=50.0, pos_blocks=pos, neg_blocks=neg, n_blocks=m, tol=1e-12,
                               max_iter=30, random_state=seed) for G in (F, sp.csr_matrix(F))]
    assert not fits[0].converged and fits[0].n_iter == fits[1].n_iter == 30
    scale = np.abs(fits[1].coef).max()
    np.testing.assert_allclose(fits[0].coef, fits[1].coef, rtol=0, atol=1e-10 * scale)
    np.testing.assert_allclose(fits[0].alpha, fits[1].alpha, rtol=0, atol=1e-10 * 50.0)


def test_seeded_and_deterministic():
    F, a, b = random_problem(2)
    r1 = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-4, random_state=7)
    r2 = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-4, random_state=7)
    np.testing.assert_array_equal(r1.coef, r2.coef)
    np.testing.assert_array_equal(r1.alpha, r2.alpha)
    r3 = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-9, max_iter=100_000, random_state=8)
    np.testing.assert_allclose(r3.coef, r1.coef, atol=1e-2)


def test_warm_start_from_the_solution_converges_at_once():
    F, a, b = random_problem(3)
    res = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-8, max_iter=100_000)
    again = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-6, alpha_init=res.alpha)
    assert again.n_iter == 1
    np.testing.assert_allclose(again.coef, res.coef, atol=1e-7)
    # alpha_init is clipped into the new box [0, C]
    smaller = fit_pairwise_hinge(F, a, b, C=0.01, tol=1e-9, max_iter=100_000, alpha_init=res.alpha)
    cold = fit_pairwise_hinge(F, a, b, C=0.01, tol=1e-9, max_iter=100_000)
    np.testing.assert_allclose(smaller.coef, cold.coef, atol=1e-6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.3, 0.999999, 1.0, 1.0 - 1e-12]),
                          st.floats(0.01, 100.0)), min_size=1, max_size=20),
       st.floats(1e-3, 1e3))
def test_dual_path_starts_move_or_scale_the_previous_point_into_the_box(cases, factor):
    """Pair by pair: moved, at its old bound (within 1e-9) -> the new bound, otherwise its value clipped to the
    new box; scaled, its value times C'_p / C_p, clipped."""
    fraction, previous = (np.array(v) for v in zip(*cases))
    alpha, upper = fraction * previous, previous * factor
    moved, scaled = dual_path_starts(alpha, previous, upper)
    for a, c_old, c_new, got, got_scaled in zip(alpha, previous, upper, moved, scaled):
        assert got == (c_new if a >= (1 - 1e-9) * c_old else min(a, c_new))
        assert got_scaled == min(a * (c_new / c_old), c_new)
    assert (moved >= 0).all() and (moved <= upper).all() and (scaled >= 0).all() and (scaled <= upper).all()
    np.testing.assert_array_equal(dual_path_starts(alpha, 2.0, 3.0),
                                  dual_path_starts(alpha, np.full(alpha.size, 2.0), np.full(alpha.size, 3.0)))


def test_dual_path_starts_reject_bad_bounds():
    with pytest.raises(ValueError, match="previous_upper must be positive and finite, got 0"):
        dual_path_starts([0.5], 0.0, 1.0)
    with pytest.raises(ValueError, match=r"upper must be .* one bound per pair \(2\)"):
        dual_path_starts([0.5, 0.1], 1.0, [1.0])
    with pytest.raises(ValueError, match=r"alpha must be one-dimensional .* got shape \(1, 2\)"):
        dual_path_starts([[0.5, 0.1]], 1.0, 1.0)


@pytest.mark.parametrize("seed", [3, 4])
def test_several_starts_the_one_of_largest_dual_objective(seed):
    """Given rows of starts, the solve starts from the one of largest D: with the solution among them (in either
    place) it is the solve from the solution alone, number for number; with 0 it is 0's (D = 0 there)."""
    F, a, b = random_problem(seed)
    res = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-8, max_iter=100_000)
    zero = np.zeros_like(res.alpha)
    alone = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-6, alpha_init=res.alpha)
    assert alone.n_iter <= 3
    for starts in ([zero, res.alpha], [res.alpha, zero], [zero, res.alpha, 0.5 * res.alpha]):
        both = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-6, alpha_init=np.stack(starts))
        np.testing.assert_array_equal(both.alpha, alone.alpha)
        assert both.n_iter == alone.n_iter
    cold = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-6)
    from_zero = fit_pairwise_hinge(F, a, b, C=1.0, tol=1e-6, alpha_init=[zero, np.full_like(zero, 1e3)])
    np.testing.assert_array_equal(from_zero.alpha, cold.alpha)  # the second, clipped to C = 1: D < 0 here
    for bad in (np.zeros((2, 3)), np.zeros((0, 60)), np.zeros((1, 1, 60))):
        with pytest.raises(ValueError, match=rf"alpha_init must have shape \(60,\) or \(n_starts, 60\), "
                                             rf"got \({', '.join(map(str, bad.shape))}"):
            fit_pairwise_hinge(F, a, b, alpha_init=bad)
    # no pairs (every label relevant, or none): the starts are empty rows
    assert fit_pairwise_hinge(F, [], [], alpha_init=np.zeros((2, 0))).coef.shape == (1, F.shape[1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_past_the_hard_margin_the_moved_start_is_the_next_solution(seed):
    """Separable pairs: once no dual value sits at its bound, the solution stays the same for every larger C, so
    the moved start is the new solution, the solve from the two starts of dual_path_starts starts there and stops
    after an epoch or three (the first epoch's order is not the last one's at C) at the same weights; from the
    scaled point alone (the only start before) it needs over a hundred epochs to come back to it (133 to 547 on
    seeds 0 to 5)."""
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(40, 6))
    w_true = rng.normal(size=6)
    a, b = rng.integers(0, 40, 200), rng.integers(0, 40, 200)
    keep = F[a] @ w_true - F[b] @ w_true > 0.5  # separable pairs, with a margin
    a, b = a[keep], b[keep]
    C = 1e3
    res = fit_pairwise_hinge(F, a, b, C, tol=1e-6, max_iter=100_000)
    assert res.converged and res.alpha.max() < C  # no pair at its bound: the hard-margin solution
    kwargs = dict(tol=1e-6, max_iter=100_000)
    moved, scaled = dual_path_starts(res.alpha, C, 10 * C)
    both = fit_pairwise_hinge(F, a, b, 10 * C, alpha_init=np.stack([moved, scaled]), **kwargs)
    scaled_only = fit_pairwise_hinge(F, a, b, 10 * C, alpha_init=scaled, **kwargs)
    assert both.converged and scaled_only.converged
    assert both.n_iter <= 3 < 100 < scaled_only.n_iter
    np.testing.assert_allclose(both.coef, res.coef, atol=1e-6 * np.abs(res.coef).max())


def test_pair_margins():
    F, a, b = random_problem(4)
    W = np.random.default_rng(0).normal(size=(2, F.shape[1]))
    sa = np.arange(a.size) % 2
    sb = 1 - sa
    expected = np.einsum("pd,pd->p", W[sa], F[a]) - np.einsum("pd,pd->p", W[sb], F[b])
    np.testing.assert_allclose(pair_margins(F, W, a, b, sa, sb), expected)
    np.testing.assert_allclose(pair_margins(sp.csr_matrix(F), W[0], a, b), (F[a] - F[b]) @ W[0])


# ---------------------------------------------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(pos_rows=[0, 5], neg_rows=[1, 1]), ValueError, r"pos_rows must lie in \[0, 3\).*got 5"),
        (dict(pos_rows=[0, 1], neg_rows=[1]), ValueError, r"neg_rows must have one entry per pair \(2\)"),
        (dict(pos_rows=[0.5], neg_rows=[1]), TypeError, "pos_rows must hold integers"),
        (dict(pos_rows=[0], neg_rows=[1], C=0.0), ValueError, "C must be positive and finite, got 0"),
        (dict(pos_rows=[0], neg_rows=[1], C=[1.0, 2.0]), ValueError, r"C must be .* one bound per pair \(1\)"),
        (dict(pos_rows=[0], neg_rows=[1], pos_blocks=[0]), ValueError, "pos_blocks and neg_blocks"),
        (dict(pos_rows=[0], neg_rows=[1], pos_blocks=[0], neg_blocks=[3], n_blocks=2), ValueError,
         "n_blocks must exceed every block index"),
        # labelrank.validation.check_real's wording, shared by every positive real parameter (was "tol must be > 0")
        (dict(pos_rows=[0], neg_rows=[1], tol=0), ValueError, "tol must be positive and finite, got 0"),
        (dict(pos_rows=[0], neg_rows=[1], tol="1e-3"), TypeError, "tol must be a positive number, got '1e-3'"),
        (dict(pos_rows=[0], neg_rows=[1], max_iter=0), ValueError, "max_iter must be >= 1"),
        (dict(pos_rows=[0], neg_rows=[1], alpha_init=[1.0, 2.0]), ValueError, r"alpha_init must have shape \(1,\)"),
        (dict(pos_rows=[0], neg_rows=[1], groups=[0, 1]), ValueError, r"groups must have one entry per pair \(1\)"),
        (dict(pos_rows=[0], neg_rows=[1], groups=[-1]), ValueError, r"groups must lie in \[0, .*got -1"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        fit_pairwise_hinge(np.eye(3), **kwargs)


def test_bad_feature_matrix():
    with pytest.raises(ValueError, match="F must be finite"):
        fit_pairwise_hinge([[np.nan], [1.0]], [0], [1])
    with pytest.raises(ValueError, match="F must be 2-D"):
        fit_pairwise_hinge([1.0, 2.0], [0], [1])
    with pytest.raises(TypeError, match="F must be"):
        fit_pairwise_hinge(None, [0], [1])
