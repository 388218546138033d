"""Tests of labelrank.logistic: the sparse design's products against dense ones, and the sparse and standardised
fits against the dense fit they must equal (the same optimum, up to rounding)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

import labelrank.baselines as baselines
from labelrank.baselines import IBLRML
from labelrank.logistic import Design, ridge_logistic_newton, standardised_fit


def sparse_data(seed, n=80, d=6, density=0.3):
    """A sparse non-negative design (some rows and columns empty) and targets that depend on it."""
    rng = np.random.default_rng(seed)
    F = sp.random(n, d, density=density, random_state=rng, format="csr") * 3
    F[0] = 0  # an empty row
    y = (F @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0).astype(int)
    y[:2] = 0, 1
    return F.tocsr(), y


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), d=st.integers(1, 8),
       density=st.floats(0.0, 1.0))
def test_the_sparse_design_gives_the_dense_products(seed, n, d, density):
    rng = np.random.default_rng(seed)
    Z = sp.random(n, d, density=density, random_state=rng, format="csr")
    A = np.hstack([np.ones((n, 1)), Z.toarray()])
    w, r, beta = rng.uniform(0, 1, n), rng.normal(size=n), rng.normal(size=d + 1)
    design = Design(Z)
    np.testing.assert_allclose(design.gram(w), A.T @ np.diag(w) @ A, atol=1e-12)
    np.testing.assert_allclose(design.transpose(r), A.T @ r, atol=1e-12)
    np.testing.assert_allclose(design.scores(beta), A @ beta, atol=1e-12)


def test_the_sparse_design_sums_duplicate_entries():
    Z = sp.coo_matrix(([1.0, 2.0, 4.0], ([0, 0, 1], [1, 1, 0])), shape=(2, 2)).tocsr()  # (0, 1) given twice
    A = np.hstack([np.ones((2, 1)), Z.toarray()])
    np.testing.assert_allclose(Design(Z).gram(np.array([1.0, 2.0])), A.T @ np.diag([1.0, 2.0]) @ A)


def test_the_sparse_design_leaves_its_input_alone():
    Z = sp.csr_matrix((np.array([2.0, 1.0, 3.0]), np.array([1, 0, 1]), np.array([0, 2, 3])), shape=(2, 2))
    indices, data = Z.indices.copy(), Z.data.copy()  # row 0's indices unsorted
    Design(Z).gram(np.ones(2))
    np.testing.assert_array_equal(Z.indices, indices)
    np.testing.assert_array_equal(Z.data, data)


@pytest.mark.parametrize("seed", range(10))
def test_a_sparse_fit_equals_the_dense_fit(seed):
    F, y = sparse_data(seed)
    ridge = 10 ** np.random.default_rng(seed).uniform(-8, 0)
    dense, ok_dense = ridge_logistic_newton(F.toarray(), y, ridge)
    sparse, ok_sparse = ridge_logistic_newton(F, y, ridge)
    assert ok_dense and ok_sparse
    np.testing.assert_allclose(sparse, dense, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("seed", range(8))
def test_a_ridge_per_coefficient_is_a_ridge_on_rescaled_columns(seed):
    """lambda_j beta_j^2 on column z_j is the scalar ridge lambda on column z_j / sqrt(lambda_j / lambda)."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(50, 3))
    y = (Z @ rng.normal(size=3) + rng.normal(size=50) > 0).astype(int)
    ridges = 10 ** rng.uniform(-3, 0, 3)
    beta, _ = ridge_logistic_newton(Z, y, ridges)
    factor = np.sqrt(ridges / 0.1)
    scaled, _ = ridge_logistic_newton(Z / factor, y, 0.1)
    np.testing.assert_allclose(beta[1:], scaled[1:] / factor, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(beta[0], scaled[0], rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("ridge", [1e-8, 1e-2])
def test_the_standardised_fit_equals_the_fit_on_standardised_features(seed, ridge):
    """The affine map between the coefficients leaves Newton's iterates alone: the same optimum, the same number of
    steps, also for a (nearly) separable target whose optimum the small ridge alone holds far out."""
    F, y = sparse_data(seed)
    dense = F.toarray()
    mean, scale = dense.mean(axis=0), dense.std(axis=0)
    scale[scale == 0] = 1.0
    steps = {}
    for name, design in (("direct", (dense - mean) / scale), ("standardised", Design(F))):
        solves = 0
        for max_iter in range(1, 200):  # the fewest steps that converge
            if name == "direct":
                beta, converged = ridge_logistic_newton(design, y, ridge, max_iter=max_iter)
            else:
                beta, converged = standardised_fit(design, y, mean, scale, ridge, max_iter=max_iter)
            if converged:
                solves = max_iter
                break
        steps[name] = (solves, beta)
    (n_direct, direct), (n_standardised, standardised) = steps["direct"], steps["standardised"]
    assert n_direct > 0 and abs(n_direct - n_standardised) <= 1
    z = (dense - mean) / scale
    p_direct = 1 / (1 + np.exp(-(direct[0] + z @ direct[1:])))
    p_standardised = 1 / (1 + np.exp(-(standardised[0] + z @ standardised[1:])))
    np.testing.assert_allclose(p_standardised, p_direct, atol=1e-7)
    np.testing.assert_allclose(standardised, direct, rtol=1e-5, atol=1e-6 * max(1.0, np.abs(direct).max()))


def many_label_data(seed, n=120, m=30):
    """Many labels, few per instance: the neighbour label frequencies are mostly zero (as on Reuters-21578)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(m, 8)) * 3
    label = rng.integers(0, m, n)
    Y = np.zeros((n, m), dtype=int)
    Y[np.arange(n), label] = 1
    second = rng.random(n) < 0.3
    Y[second, rng.integers(0, m, second.sum())] = 1
    X = centres[label] + rng.normal(size=(n, 8))
    return X, Y


@pytest.mark.parametrize("seed", range(4))
def test_iblrml_fits_sparse_frequencies_as_it_fits_dense_ones(seed, monkeypatch):
    """IBLR-ML's regressions on the sparse frequencies (taken below the density threshold) give the scores of its
    regressions on the dense standardised frequencies, on training and test instances."""
    X, Y = many_label_data(seed)
    Xt, _ = many_label_data(seed + 100)
    model = IBLRML(k=5)
    counts = model.fit(X, Y)._label_counts(None)
    assert np.count_nonzero(counts) <= baselines.IBLR_SPARSE_DENSITY * counts.size  # the sparse path was taken
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        sparse = IBLRML(k=5).fit(X, Y)
        monkeypatch.setattr(baselines.knn, "IBLR_SPARSE_DENSITY", 0.0)  # where IBLRML reads it
        dense = IBLRML(k=5).fit(X, Y)
    np.testing.assert_allclose(sparse.decision_function(Xt), dense.decision_function(Xt), atol=1e-7)
    np.testing.assert_allclose(sparse.decision_function(X), dense.decision_function(X), atol=1e-7)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-5, atol=1e-6 * np.abs(dense.coef_).max())
