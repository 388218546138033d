"""Tests of labelrank.baselines: worked examples, cross-checks against independent implementations, scikit-learn
estimator checks, and input validation."""

from __future__ import annotations

import pickle
import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.spatial.distance import cdist
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from labelrank.baselines import IBLRML, BinarySVM, MLkNN, RankSVM, rank_svm_pairs, ridge_logistic_newton
from labelrank.threshold import LLSFThreshold
from sklearn_checks import EXPECTED_FAILED_CHECKS, assert_bad_input_gives_clear_errors


def make_data(seed=0, n=60, d=5, m=4):
    """Multi-label data from a linear model, every label with positives and negatives."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(m, d))
    Y = (X @ W.T + 0.3 * rng.normal(size=(n, m)) > 0.3).astype(int)
    Y[0], Y[1] = 1, 0  # one instance with every label, one with none
    return X, Y


def all_estimators():
    return [BinarySVM(), RankSVM(), MLkNN(k=3), IBLRML(k=3)]


def ids(est):
    return type(est).__name__


def naive_label_counts(X_train, Y_train, k, X=None):
    """Neighbour label counts by an explicit distance matrix; a training instance is not its own neighbour."""
    if X is None:
        D = cdist(X_train, X_train)
        np.fill_diagonal(D, np.inf)
    else:
        D = cdist(X, X_train)
    idx = np.argsort(D, axis=1, kind="stable")[:, :k]
    return Y_train[idx].sum(axis=1)


# ---------------------------------------------------------------------------------------------------------------
# scikit-learn estimator checks
# ---------------------------------------------------------------------------------------------------------------

# The checks the generic suite is expected to fail, and why: tests/sklearn_checks.py.


@parametrize_with_checks(all_estimators(), expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_sklearn_properties_with_a_label_matrix(est):
    X, Y = make_data(1)
    fitted = clone(est)
    assert fitted.fit(X, Y) is fitted  # fit returns self
    assert fitted.n_features_in_ == X.shape[1] and fitted.n_labels_ == Y.shape[1]
    scores, pred = fitted.decision_function(X), fitted.predict(X)
    assert scores.shape == Y.shape and pred.shape == Y.shape and set(np.unique(pred)) <= {0, 1}
    before = pickle.dumps(fitted.__dict__)
    fitted.predict(X)
    assert pickle.dumps(fitted.__dict__) == before  # predicting changes nothing
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(fitted)).decision_function(X), scores)
    assert clone(est).get_params() == est.get_params()  # fit did not change the parameters
    # sample-order and subset invariance of the predictions
    perm = np.random.default_rng(0).permutation(X.shape[0])
    np.testing.assert_allclose(fitted.decision_function(X[perm]), scores[perm], atol=1e-12)
    np.testing.assert_allclose(fitted.decision_function(X[:7]), scores[:7], atol=1e-12)
    # other input dtypes and layouts: the same model
    for variant in (X.astype(np.float32), np.asfortranarray(X), X.tolist()):
        other = clone(est).fit(variant, Y)
        np.testing.assert_allclose(other.decision_function(X), scores, atol=1e-5)
    readonly = X.copy()
    readonly.flags.writeable = False
    np.testing.assert_allclose(clone(est).fit(readonly, Y).decision_function(readonly), scores, atol=1e-12)
    # a single feature is fine
    clone(est).fit(X[:, :1], Y).predict(X[:, :1])
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :2])
    with pytest.raises(ValueError, match="2D array"):
        fitted.predict(X[0])


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
@pytest.mark.parametrize("fmt", ["csr_matrix", "csc_matrix", "coo_matrix", "csr_array"])
def test_sparse_input_gives_the_dense_result(est, fmt):
    X, Y = make_data(2)
    X[np.abs(X) < 0.5] = 0.0
    Xs = getattr(sp, fmt)(X)
    dense = clone(est).fit(X, Y)
    sparse = clone(est).fit(Xs, Y)
    np.testing.assert_allclose(sparse.decision_function(Xs), dense.decision_function(X), atol=1e-6)
    np.testing.assert_array_equal(sparse.predict(Xs), dense.predict(X))


# ---------------------------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_bad_input_gives_clear_errors(est):
    X, Y = make_data(3)
    assert_bad_input_gives_clear_errors(est, X, Y, nan_above=1.5)
    with pytest.raises(ValueError, match="threshold must be one of .* got 'zero'"):
        clone(est).set_params(threshold="zero").fit(X, Y)


@pytest.mark.parametrize(
    "est, match, error",
    [
        (BinarySVM(C=0.0), "C must be positive and finite, got 0.0", ValueError),
        (BinarySVM(C="1"), "C must be a positive number, got '1'", TypeError),
        (RankSVM(C=-1.0), "C must be positive and finite, got -1.0", ValueError),
        (RankSVM(max_iter=0), "max_iter must be >= 1, got 0", ValueError),
        (RankSVM(intercept_scaling=np.inf), "intercept_scaling must be positive and finite", ValueError),
        (MLkNN(k=0), "k must be >= 1, got 0", ValueError),
        (MLkNN(k=2.5), "k must be an integer, got 2.5", TypeError),
        (MLkNN(s=0.0), "s must be positive and finite", ValueError),
        (MLkNN(k=60), r"k must be smaller than the number of training instances \(60\).*got k=60", ValueError),
        (IBLRML(k=60), r"k must be smaller than the number of training instances \(60\)", ValueError),
        (IBLRML(ridge=-1e-8), "ridge must be positive and finite", ValueError),
        (MLkNN(distance="manhattan"), "distance must be one of .*got 'manhattan'", ValueError),
        (IBLRML(distance=None), "distance must be one of", ValueError),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bad_hyperparameters(est, match, error):
    X, Y = make_data(3)
    with pytest.raises(error, match=match):
        est.fit(X, Y)


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_label_without_positives_is_handled(est):
    # an all-zero (or all-one) label column is not an error: CV folds of Reuters have such labels
    X, Y = make_data(4)
    Y[:, 1] = 0
    Y[:, 2] = 1
    fitted = clone(est).fit(X, Y)
    scores, pred = fitted.decision_function(X), fitted.predict(X)
    assert np.all(np.isfinite(scores))
    if isinstance(est, BinarySVM):  # the documented constant margins
        np.testing.assert_array_equal(scores[:, 1], -1.0)
        np.testing.assert_array_equal(scores[:, 2], 1.0)
        assert not pred[:, 1].any() and pred[:, 2].all()
    elif isinstance(est, IBLRML):  # the documented constant probabilities
        np.testing.assert_array_equal(scores[:, 1], 0.0)
        np.testing.assert_array_equal(scores[:, 2], 1.0)
        assert not pred[:, 1].any() and pred[:, 2].all()
    elif isinstance(est, MLkNN):  # the smoothed estimates, with s = 1 and k = 3
        n, k = X.shape[0], 3
        # prior 1/(n+2); P(E_j|H1) = 1/(k+1) for every j; all n negatives have count 0: P(E_0|H0) = (1+n)/(k+1+n)
        prior, pos, neg = 1 / (n + 2), 1 / (k + 1), (1 + n) / (k + 1 + n)
        np.testing.assert_allclose(scores[:, 1], prior * pos / (prior * pos + (1 - prior) * neg))
        assert not pred[:, 1].any() and pred[:, 2].all()
    else:  # Rank-SVM: label 1 only ever appears as irrelevant, label 2 as relevant: a bias difference separates them
        assert np.all(scores[:, 2] > scores[:, 1])
        assert fitted.intercept_[2] - fitted.intercept_[1] > 0.5


# ---------------------------------------------------------------------------------------------------------------
# ML-kNN
# ---------------------------------------------------------------------------------------------------------------

X_HAND = np.array([[0.0], [1.0], [3.0], [6.0], [10.0]])
Y_HAND = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1]])


def test_mlknn_worked_example_by_hand():
    # k = 1; nearest other instance: 0->1, 1->0, 3->1, 6->3, 10->6. Label 0 counts (1, 1, 1, 0, 0), label 1 counts
    # (0, 0, 0, 1, 1). Label 0: prior (1+3)/(2+5) = 4/7; positives have counts 1, 1, 0 -> P(E_j|H1) = (1+c)/(2+3)
    # = (2/5, 3/5); negatives 1, 0 -> (2/4, 2/4). Label 1: prior 4/7; positives 0, 1, 1 -> (2/5, 3/5); negatives 0, 0
    # -> (3/4, 1/4).
    est = MLkNN(k=1).fit(X_HAND, Y_HAND)
    np.testing.assert_allclose(est.prior_, [4 / 7, 4 / 7])
    np.testing.assert_allclose(est.cond_pos_, [[2 / 5, 3 / 5], [2 / 5, 3 / 5]])
    np.testing.assert_allclose(est.cond_neg_, [[1 / 2, 1 / 2], [3 / 4, 1 / 4]])

    def posterior(prior, pos, neg):
        return float(prior * pos / (prior * pos + (1 - prior) * neg))

    p = Fraction(4, 7)
    # x = 0.4: nearest 0 (labels 1, 0) -> counts (1, 0); x = 5: nearest 6 (labels 0, 1) -> counts (0, 1)
    expected = [[posterior(p, Fraction(3, 5), Fraction(1, 2)), posterior(p, Fraction(2, 5), Fraction(3, 4))],
                [posterior(p, Fraction(2, 5), Fraction(1, 2)), posterior(p, Fraction(3, 5), Fraction(1, 4))]]
    np.testing.assert_allclose(expected, [[8 / 13, 32 / 77], [16 / 31, 16 / 21]])
    np.testing.assert_allclose(est.decision_function([[0.4], [5.0]]), expected)
    np.testing.assert_array_equal(est.predict([[0.4], [5.0]]), [[1, 0], [1, 1]])


def test_mlknn_training_instances_are_not_their_own_neighbours():
    # with itself counted (scikit-multilearn 0.2.0) and k = 1, each count would equal the instance's own label and
    # P(E_1 | H_1) would be (1 + 3)/(2 + 3) = 4/5; leaving itself out gives the 3/5 of the worked example above
    est = MLkNN(k=1).fit(X_HAND, Y_HAND)
    assert est.cond_pos_[0, 1] == pytest.approx(3 / 5)
    # duplicated instances are each other's neighbours, still never their own
    X = np.vstack([X_HAND, X_HAND])
    Y = np.vstack([Y_HAND, Y_HAND])
    dup = MLkNN(k=1).fit(X, Y)
    # every instance's only neighbour is its twin, with the same labels: counts = own labels
    np.testing.assert_allclose(dup.cond_pos_[:, 1], (1 + 6) / (2 + 6))


@pytest.mark.parametrize("cls", [MLkNN, IBLRML])
@pytest.mark.parametrize("seed", range(5))
def test_weka_distance_is_euclidean_on_min_max_scaled_features(cls, seed):
    """distance="weka" equals the plain distance on features mapped to (x - min) / (max - min) by the training
    range (a constant feature mapped to 0), is invariant to any positive rescaling and shift of a feature, and
    takes sparse input as dense."""
    rng = np.random.default_rng(seed)
    X, Y = make_data(seed)
    X_test = rng.normal(size=(15, X.shape[1])) * 3.0  # test values outside the training range are not clipped
    X[:, 1] = 2.5  # constant in training
    low, width = X.min(axis=0), X.max(axis=0) - X.min(axis=0)
    factor = np.where(width > 0, 1.0 / np.where(width > 0, width, 1.0), 0.0)
    ref = cls(k=4).fit((X - low) * factor, Y).decision_function((X_test - low) * factor)
    weka = cls(k=4, distance="weka").fit(X, Y)
    np.testing.assert_allclose(weka.decision_function(X_test), ref, atol=1e-9)
    scale, shift = rng.uniform(0.1, 50.0, X.shape[1]), rng.normal(size=X.shape[1]) * 100
    moved = cls(k=4, distance="weka").fit(X * scale + shift, Y).decision_function(X_test * scale + shift)
    np.testing.assert_allclose(moved, ref, atol=1e-6)
    Xp = np.abs(X) * (rng.random(X.shape) < 0.5)  # non-negative and sparse: the scaling keeps sparsity
    Xp_test = np.abs(X_test) * (rng.random(X_test.shape) < 0.5)
    Xp[:, 0], Xp_test[:, 0] = np.abs(X[:, 0]), np.abs(X_test[:, 0])  # no all-zero rows: no tied distances
    dense = cls(k=4, distance="weka").fit(Xp, Y).decision_function(Xp_test)
    sparse = cls(k=4, distance="weka").fit(sp.csr_matrix(Xp), Y).decision_function(sp.csr_matrix(Xp_test))
    np.testing.assert_allclose(sparse, dense, atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_mlknn_matches_a_naive_implementation(seed):
    X, Y = make_data(seed, n=40, m=3)
    k, s = 4, 0.7
    est = MLkNN(k=k, s=s, threshold="llsf").fit(X, Y)
    counts = naive_label_counts(X, Y, k)
    n = X.shape[0]
    Xq = np.random.default_rng(seed).normal(size=(15, X.shape[1]))
    counts_q = naive_label_counts(X, Y, k, Xq)
    expected, loo = np.zeros((15, 3)), np.zeros((n, 3))
    for lab in range(3):
        prior = (s + Y[:, lab].sum()) / (2 * s + n)
        c1 = np.array([np.sum((counts[:, lab] == j) & (Y[:, lab] == 1)) for j in range(k + 1)])
        c0 = np.array([np.sum((counts[:, lab] == j) & (Y[:, lab] == 0)) for j in range(k + 1)])
        pos = (s + c1) / (s * (k + 1) + c1.sum())
        neg = (s + c0) / (s * (k + 1) + c0.sum())
        for out, cnt in ((expected, counts_q), (loo, counts)):
            a = prior * pos[cnt[:, lab]]
            out[:, lab] = a / (a + (1 - prior) * neg[cnt[:, lab]])
    np.testing.assert_allclose(est.decision_function(Xq), expected)
    # the LLSF threshold is fitted on the leave-one-out training scores (non-splitting strategy)
    reference = LLSFThreshold().fit(loo, Y)
    np.testing.assert_array_equal(est.predict(Xq), reference.predict(expected))


# ---------------------------------------------------------------------------------------------------------------
# IBLR-ML
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_ridge_logistic_newton_matches_scikit_learn(seed):
    """Damped Newton and scikit-learn's L-BFGS on the same penalised likelihood (C = 1 / (2 ridge)), where both
    converge (a ridge that keeps the problem well conditioned)."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(60, 4))
    y = (Z @ rng.normal(size=4) + rng.normal(size=60) > 0).astype(int)
    ridge = 10 ** rng.uniform(-3, 1)
    beta, converged = ridge_logistic_newton(Z, y, ridge)
    lr = LogisticRegression(C=1 / (2 * ridge), solver="lbfgs", tol=1e-12, max_iter=10_000).fit(Z, y)
    assert converged
    np.testing.assert_allclose(beta, np.r_[lr.intercept_, lr.coef_[0]], atol=1e-5)
    p = 1 / (1 + np.exp(-(beta[0] + Z @ beta[1:])))
    grad = np.r_[np.sum(p - y), Z.T @ (p - y) + 2 * ridge * beta[1:]]
    assert np.abs(grad).max() < 1e-6  # the optimum's gradient is zero


def test_ridge_logistic_newton_reaches_the_far_optimum_of_a_separable_label():
    """Separable data: no finite maximum likelihood; the ridge alone holds the optimum, far out, and Newton's
    method gets there (the gradient vanishes) where the coefficient grows as the ridge shrinks."""
    Z = np.r_[np.linspace(-2, -0.5, 10), np.linspace(0.5, 2, 10)][:, None]
    y = (Z[:, 0] > 0).astype(int)
    sizes = []
    for ridge in (1e-4, 1e-8):
        beta, converged = ridge_logistic_newton(Z, y, ridge)
        p = 1 / (1 + np.exp(-(beta[0] + Z[:, 0] * beta[1])))
        assert converged and abs(np.sum(Z[:, 0] * (p - y)) + 2 * ridge * beta[1]) < 1e-6
        sizes.append(beta[1])
    assert 5 < sizes[0] < sizes[1] < 1e3
    _, converged = ridge_logistic_newton(Z, y, 1e-8, max_iter=2)
    assert not converged


def test_iblrml_warns_when_a_regression_stops_early():
    X, Y = make_data(4)
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter=1 Newton steps"):
        IBLRML(k=3, max_iter=1).fit(X, Y)


@pytest.mark.parametrize("seed", range(3))
def test_iblrml_matches_a_naive_implementation(seed):
    X, Y = make_data(seed, n=80, m=3)
    k, ridge = 5, 1e-3
    est = IBLRML(k=k, ridge=ridge, tol=1e-10).fit(X, Y)
    freq = naive_label_counts(X, Y, k) / k  # label frequencies among the k neighbours, self excluded
    mean, sd = freq.mean(axis=0), freq.std(axis=0)
    sd[sd == 0] = 1.0
    Xq = np.random.default_rng(seed).normal(size=(20, X.shape[1]))
    Zq = (naive_label_counts(X, Y, k, Xq) / k - mean) / sd
    for lab in range(3):
        # an independent solver (L-BFGS) of the same penalised likelihood: ridge * ||beta||^2 <=> C = 1/(2 ridge)
        lr = LogisticRegression(C=1 / (2 * ridge), solver="lbfgs", tol=1e-12, max_iter=10_000)
        lr.fit((freq - mean) / sd, Y[:, lab])
        np.testing.assert_allclose(est.decision_function(Xq)[:, lab], lr.predict_proba(Zq)[:, 1], atol=1e-6)
    np.testing.assert_array_equal(est.predict(Xq), (est.decision_function(Xq) >= 0.5).astype(int))


def test_iblrml_learns_label_dependence():
    # label 1 is the negation of label 0: the frequency of label 0 among the neighbours must predict label 1
    rng = np.random.default_rng(5)
    X = np.r_[rng.normal(-2, 1, size=(50, 2)), rng.normal(2, 1, size=(50, 2))]
    y0 = np.r_[np.zeros(50), np.ones(50)].astype(int)
    Y = np.c_[y0, 1 - y0]
    est = IBLRML(k=7).fit(X, Y)
    assert est.coef_[1, 0] < 0 < est.coef_[0, 0]
    p = est.decision_function([[2.0, 2.0], [-2.0, -2.0]])
    assert p[0, 0] > 0.9 and p[0, 1] < 0.1 and p[1, 0] < 0.1 and p[1, 1] > 0.9


# ---------------------------------------------------------------------------------------------------------------
# Binary-SVM
# ---------------------------------------------------------------------------------------------------------------


def test_binary_svm_is_liblinear_per_label_with_threshold_zero():
    X, Y = make_data(6)
    est = BinarySVM(C=0.3, solver="liblinear").fit(X, Y)
    Xq = np.random.default_rng(0).normal(size=(10, X.shape[1]))
    for lab in range(Y.shape[1]):
        svc = LinearSVC(C=0.3, loss="hinge", dual=True, max_iter=10_000, random_state=0).fit(X, Y[:, lab])
        np.testing.assert_allclose(est.decision_function(Xq)[:, lab], svc.decision_function(Xq), atol=1e-10)
    scores = est.decision_function(Xq)
    np.testing.assert_array_equal(est.predict(Xq), (scores >= 0).astype(int))
    assert est.threshold_ == 0.0


def _svm_primal(X, y, C, w, b):
    """LIBLINEAR's primal objective of one label: 1/2 (||w||^2 + b^2) + C sum hinge."""
    margins = (2 * y - 1) * (X @ w + b)
    return 0.5 * (w @ w + b * b) + C * np.maximum(0.0, 1.0 - margins).sum()


@pytest.mark.parametrize("seed", range(8))
def test_binary_svm_solvers_reach_the_same_optimum(seed):
    """The augmented Lagrangian method and LIBLINEAR (run to a tight tolerance) on random problems: the same primal
    objective and margins (the optimum is unique: the objective is strictly convex in (w, b))."""
    rng = np.random.default_rng(seed)
    X, Y = make_data(seed, n=int(rng.integers(20, 80)), d=int(rng.integers(2, 8)), m=3)
    C = float(10 ** rng.uniform(-2, 1))
    alm = BinarySVM(C=C, solver="alm").fit(X, Y)
    lib = BinarySVM(C=C, solver="liblinear", tol=1e-10, max_iter=1_000_000).fit(X, Y)
    assert alm.solver_ == "alm" and alm.converged_ and lib.converged_
    for j in range(Y.shape[1]):
        p_alm = _svm_primal(X, Y[:, j], C, alm.coef_[j], alm.intercept_[j])
        p_lib = _svm_primal(X, Y[:, j], C, lib.coef_[j], lib.intercept_[j])
        assert p_alm == pytest.approx(p_lib, rel=1e-5)
    np.testing.assert_allclose(alm.decision_function(X), lib.decision_function(X), atol=2e-3)


def test_binary_svm_alm_is_optimal_where_liblinear_stops_early():
    """At a large C LIBLINEAR stops at max_iter (it warns and says so in converged_); the ALM's certified solution
    has the lower objective."""
    X, Y = make_data(3, n=80, d=6, m=2)
    X = X * 5.0
    with pytest.warns(ConvergenceWarning):
        lib = BinarySVM(C=1e4, solver="liblinear", max_iter=200).fit(X, Y)
    alm = BinarySVM(C=1e4, solver="alm").fit(X, Y)
    assert not lib.converged_ and alm.converged_
    for j in range(Y.shape[1]):
        p_alm = _svm_primal(X, Y[:, j], 1e4, alm.coef_[j], alm.intercept_[j])
        assert p_alm <= _svm_primal(X, Y[:, j], 1e4, lib.coef_[j], lib.intercept_[j]) * (1 + 1e-6)


def test_binary_svm_auto_solver_follows_the_number_of_columns():
    """The ALM on dense X of at most 4,096 columns and on sparse X (which it densifies) of at most 1,000."""
    X, Y = make_data(4)
    assert BinarySVM().fit(X, Y).solver_ == "alm"
    rng = np.random.default_rng(0)
    for columns, solver in ((4_096, "alm"), (4_097, "liblinear")):
        dense = rng.normal(size=(X.shape[0], columns))
        assert BinarySVM().fit(dense, Y).solver_ == solver
    for columns, solver in ((1_000, "alm"), (1_001, "liblinear")):
        wide = sp.random(60, columns, density=0.01, format="csr", random_state=0)
        assert BinarySVM().fit(wide, Y).solver_ == solver
    with pytest.raises(ValueError, match="solver must be one of .* got 'newton'"):
        BinarySVM(solver="newton").fit(X, Y)


@pytest.mark.parametrize("solver", ["alm", "liblinear"])
def test_binary_svm_path_along_c_is_the_cold_fits(solver):
    """fit_path along C: LIBLINEAR cold at each value (the same numbers); the ALM warm-started, its first value
    exactly the cold fit and the others the same optimum within its certified tolerance."""
    X, Y = make_data(5, n=70)
    Cs = [1e-3, 0.1, 10.0, 1e3]
    path = BinarySVM(solver=solver, threshold="llsf").fit_path(X, Y, "C", Cs)
    assert [m.C for m in path] == Cs
    for i, (C, warm) in enumerate(zip(Cs, path)):
        cold = BinarySVM(C=C, solver=solver, threshold="llsf").fit(X, Y)
        if solver == "liblinear" or i == 0:
            np.testing.assert_array_equal(warm.decision_function(X), cold.decision_function(X))
            np.testing.assert_array_equal(warm.predict(X), cold.predict(X))
            continue
        for j in range(Y.shape[1]):
            p_warm = _svm_primal(X, Y[:, j], C, warm.coef_[j], warm.intercept_[j])
            p_cold = _svm_primal(X, Y[:, j], C, cold.coef_[j], cold.intercept_[j])
            assert p_warm == pytest.approx(p_cold, rel=2e-6)
        assert warm.converged_ and isinstance(warm.threshold_, LLSFThreshold)


def test_fit_path_of_any_other_parameter_is_one_fit_after_another():
    X, Y = make_data(6)
    for est, param, values in ((RankSVM(), "intercept_scaling", [0.5, 2.0]),
                               (RankSVM(solver="dcd"), "threshold", ["default", "llsf"]),
                               (MLkNN(), "k", [3, 5]), (BinarySVM(), "threshold", ["default", "llsf"])):
        for value, model in zip(values, est.fit_path(X, Y, param, values)):
            single = clone(est).set_params(**{param: value}).fit(X, Y)
            np.testing.assert_array_equal(model.decision_function(X), single.decision_function(X))
            np.testing.assert_array_equal(model.predict(X), single.predict(X))


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_fit_path_along_the_threshold_fits_the_model_once(est, monkeypatch):
    """The threshold rules share the model: one fit, and each copy exactly what a fit with its rule gives."""
    X, Y = make_data(7)
    calls = {"n": 0}
    original = type(est)._fit

    def counted(self, X, Y):
        calls["n"] += 1
        return original(self, X, Y)

    monkeypatch.setattr(type(est), "_fit", counted)
    models = est.fit_path(X, Y, "threshold", ["default", "llsf", "default"])
    assert calls["n"] == 1 and [m.threshold for m in models] == ["default", "llsf", "default"]
    monkeypatch.setattr(type(est), "_fit", original)
    for model in models:
        single = clone(est).set_params(threshold=model.threshold).fit(X, Y)
        np.testing.assert_array_equal(model.decision_function(X), single.decision_function(X))
        np.testing.assert_array_equal(model.predict(X), single.predict(X))
    assert models[1].threshold_ is not models[0].threshold_ and isinstance(models[1].threshold_, LLSFThreshold)
    with pytest.raises(ValueError, match="threshold must be one of .*'scut'"):
        est.fit_path(X, Y, "threshold", ["default", "scut"])


def test_fit_path_bad_input():
    X, Y = make_data(6)
    with pytest.raises(ValueError, match="param must be a parameter of BinarySVM, got 'gamma'"):
        BinarySVM().fit_path(X, Y, "gamma", [1.0])
    with pytest.raises(ValueError, match="values must hold at least one value of 'C'"):
        BinarySVM().fit_path(X, Y, "C", [])
    with pytest.raises(TypeError, match="values must be a sequence"):
        BinarySVM().fit_path(X, Y, "C", 1.0)
    with pytest.raises(ValueError, match="C must be positive and finite, got -1.0"):
        BinarySVM().fit_path(X, Y, "C", [1.0, -1.0])


# ---------------------------------------------------------------------------------------------------------------
# Rank-SVM
# ---------------------------------------------------------------------------------------------------------------


def test_rank_svm_pairs():
    inst, rel, irr = rank_svm_pairs([[1, 0, 1], [0, 0, 0], [0, 1, 0], [1, 1, 1]])
    assert list(zip(inst, rel, irr)) == [(0, 0, 1), (0, 2, 1), (2, 1, 0), (2, 1, 2)]
    assert all(a.size == 0 for a in rank_svm_pairs([[1, 1], [0, 0]]))


def slsqp_rank_svm(X, Y, C, intercept_scaling=1.0):
    """Elisseeff & Weston's primal as a QP in (W, b, xi), solved by SLSQP: an independent reference.

    The bias penalty is b_k^2 / (2 intercept_scaling^2), written with the variable v_k = b_k / intercept_scaling.
    """
    n, d = X.shape
    m = Y.shape[1]
    inst, rel, irr = rank_svm_pairs(Y)
    size = Y.sum(axis=1) * (m - Y.sum(axis=1))
    nw, P = m * (d + 1), inst.size
    Xt = np.hstack([X, np.full((n, 1), intercept_scaling)])
    A = np.zeros((P, nw))  # margin of pair p = A[p] . w
    for p, (i, k, l) in enumerate(zip(inst, rel, irr)):
        A[p, k * (d + 1):(k + 1) * (d + 1)] += Xt[i]
        A[p, l * (d + 1):(l + 1) * (d + 1)] -= Xt[i]
    cost = C / size[inst]

    def objective(v):
        return 0.5 * v[:nw] @ v[:nw] + cost @ v[nw:], np.r_[v[:nw], cost]

    cons = [{"type": "ineq", "fun": lambda v: A @ v[:nw] - 1 + v[nw:], "jac": lambda v: np.hstack([A, np.eye(P)])}]
    res = minimize(objective, np.r_[np.zeros(nw), np.ones(P)], jac=True, method="SLSQP", constraints=cons,
                   bounds=[(None, None)] * nw + [(0, None)] * P, options={"ftol": 1e-14, "maxiter": 2000})
    assert res.success or res.status == 8, res.message  # 8: no descent direction left, at the optimum
    W = res.x[:nw].reshape(m, d + 1)
    return W[:, :d], W[:, d] * intercept_scaling


@pytest.mark.parametrize("solver", ["alm", "dcd"])
@pytest.mark.parametrize("seed, scaling", [(0, 1.0), (1, 1.0), (2, 1.0), (3, 3.0)])
def test_rank_svm_matches_the_primal_qp(seed, scaling, solver):
    X, Y = make_data(seed, n=14, d=2, m=3)  # instances with 1 or 2 relevant labels: unequal pair weights
    X = X + 1.0  # off the origin, so that the bias and its penalty matter
    max_iter = 200_000 if solver == "dcd" else 1_000
    est = RankSVM(C=2.0, intercept_scaling=scaling, tol=1e-10, max_iter=max_iter, solver=solver).fit(X, Y)
    assert est.solver_ == solver and est.converged_
    W, b = slsqp_rank_svm(X, Y, 2.0, scaling)
    np.testing.assert_allclose(est.coef_, W, atol=1e-5)
    np.testing.assert_allclose(est.intercept_, b, atol=1e-5)
    # the regulariser centres the weights and biases (only differences enter the constraints)
    np.testing.assert_allclose(est.coef_.sum(axis=0), 0.0, atol=1e-8)
    np.testing.assert_allclose(est.intercept_.sum(), 0.0, atol=1e-8)


def test_rank_svm_ranks_relevant_labels_first():
    X, Y = make_data(8, n=200, d=6, m=5)
    est = RankSVM(C=10.0).fit(X, Y)
    S = est.decision_function(X)
    errors = [np.mean(S[i, Y[i] == 1][:, None] <= S[i, Y[i] == 0][None, :])
              for i in range(len(Y)) if 0 < Y[i].sum() < Y.shape[1]]
    assert np.mean(errors) < 0.1  # ranking loss on a nearly linear problem


def test_rank_svm_thresholds():
    X, Y = make_data(9)
    default = RankSVM(C=1.0).fit(X, Y)
    llsf = RankSVM(C=1.0, threshold="llsf").fit(X, Y)
    train = default.decision_function(X)
    assert isinstance(default.threshold_, LLSFThreshold) and default.threshold_.rescale is False
    assert llsf.threshold_.rescale is True
    Xq = np.random.default_rng(1).normal(size=(25, X.shape[1]))
    S = default.decision_function(Xq)
    np.testing.assert_array_equal(default.predict(Xq), LLSFThreshold(rescale=False, inputs="labels").fit(train, Y).predict(S))
    np.testing.assert_array_equal(llsf.predict(Xq), LLSFThreshold().fit(train, Y).predict(S))


def test_rank_svm_warns_when_it_stops_early():
    X, Y = make_data(10)
    with pytest.warns(ConvergenceWarning, match="RankSVM.solver='dcd'. did not converge in max_iter=1 epochs"):
        est = RankSVM(C=100.0, tol=1e-12, max_iter=1, solver="dcd").fit(X, Y)
    assert est.n_iter_ == 1 and not est.converged_
    with pytest.warns(ConvergenceWarning, match="RankSVM.solver='alm'. did not converge in max_iter=1 multiplier"):
        est = RankSVM(C=100.0, tol=1e-12, max_iter=1, solver="alm").fit(X, Y)
    assert not est.converged_


def _rank_svm_primal(est, X, Y):
    """Elisseeff & Weston's objective at a fitted RankSVM (the bias penalised as the constant feature's weight)."""
    inst, rel, irr = rank_svm_pairs(Y)
    m, n_rel = Y.shape[1], Y.sum(axis=1)
    S = est.decision_function(X)
    hinge = np.maximum(0.0, 1.0 - (S[inst, rel] - S[inst, irr])) / (n_rel[inst] * (m - n_rel[inst]))
    W = np.hstack([est.coef_, est.intercept_[:, None] / est.intercept_scaling])
    return 0.5 * float((W**2).sum()) + est.C * float(hinge.sum())


def test_rank_svm_alm_reaches_the_optimum_that_dcd_misses_at_large_C():
    """At a large C dual coordinate descent stops at max_iter (it warns); the ALM's certified solution has the
    lower objective."""
    X, Y = make_data(3, n=80, d=6, m=4)
    X = X * 3.0 + 2.0
    with pytest.warns(ConvergenceWarning):
        dcd = RankSVM(C=1e4, solver="dcd").fit(X, Y)
    alm = RankSVM(C=1e4, solver="alm").fit(X, Y)
    assert not dcd.converged_ and alm.converged_
    assert _rank_svm_primal(alm, X, Y) < 0.9 * _rank_svm_primal(dcd, X, Y)


def test_rank_svm_auto_solver_follows_the_number_of_unknowns():
    X, Y = make_data(4)
    assert RankSVM().fit(X, Y).solver_ == "alm"
    wide = sp.random(60, 2048 // Y.shape[1], density=0.05, format="csr", random_state=0)  # m (d + 1) > 2,048
    assert RankSVM().fit(wide, Y).solver_ == "dcd"
    with pytest.raises(ValueError, match="solver must be one of .* got 'newton'"):
        RankSVM(solver="newton").fit(X, Y)


@pytest.mark.parametrize("solver", ["alm", "dcd"])
def test_rank_svm_path_along_c_is_the_cold_fits(solver):
    """fit_path along C, each solve warm-started from the previous one: its first value exactly the cold fit, the
    others the same optimum within the solver's tolerance (the ALM's certified duality gap; for DCD, whose
    tolerance is on the projected gradient, within 0.5% of the ALM's certified objective, as the cold fit is)."""
    X, Y = make_data(5, n=70)
    Cs = [1e-3, 0.1, 10.0, 1e3] if solver == "alm" else [1e-3, 0.1, 1.0, 10.0]
    path = RankSVM(solver=solver).fit_path(X, Y, "C", Cs)
    assert [m.C for m in path] == Cs
    for i, (C, warm) in enumerate(zip(Cs, path)):
        cold = RankSVM(C=C, solver=solver).fit(X, Y)
        if i == 0:
            np.testing.assert_array_equal(warm.decision_function(X), cold.decision_function(X))
            np.testing.assert_array_equal(warm.predict(X), cold.predict(X))
            continue
        assert warm.converged_ and cold.converged_
        if solver == "alm":
            assert _rank_svm_primal(warm, X, Y) == pytest.approx(_rank_svm_primal(cold, X, Y), rel=2e-6)
        else:
            optimum = _rank_svm_primal(RankSVM(C=C, solver="alm").fit(X, Y), X, Y)
            for fit in (warm, cold):
                assert optimum <= _rank_svm_primal(fit, X, Y) * (1 + 1e-9) <= optimum * 1.005
            assert not np.array_equal(warm.dual_coef_, cold.dual_coef_)  # another point within the tolerance
        assert isinstance(warm.threshold_, LLSFThreshold)


def test_rank_svm_dcd_path_starts_each_c_from_the_previous_dual_point_moved_or_scaled(monkeypatch):
    """The next solve gets the two starts of dual_path_starts from the last dual point, old bounds C_old w_p and
    new C_new w_p, and starts from the one of larger dual objective."""
    import labelrank.rankers.pairwise_svm as pairwise_svm_module
    from labelrank.rankers.pairwise_svm import dual_path_starts

    X, Y = make_data(5, n=70)
    fit, starts = pairwise_svm_module.fit_pairwise_hinge, []

    def spy(*args, alpha_init=None, **kwargs):
        res = fit(*args, alpha_init=alpha_init, **kwargs)
        starts.append((alpha_init, args[3], res.alpha))
        return res

    monkeypatch.setattr(pairwise_svm_module, "fit_pairwise_hinge", spy)
    RankSVM(solver="dcd").fit_path(X, Y, "C", [0.1, 1.0, 4.0])
    assert starts[0][0] is None
    for (_, upper_before, alpha_before), (start, upper, _) in zip(starts, starts[1:]):
        np.testing.assert_array_equal(start, dual_path_starts(alpha_before, upper_before, upper))
        assert (start[0] != start[1]).any()  # free pairs: the two differ


@pytest.mark.parametrize("est", [BinarySVM(), MLkNN(k=3), IBLRML(k=3)], ids=ids)
def test_llsf_option_uses_the_training_scores(est):
    X, Y = make_data(11)
    default = clone(est).fit(X, Y)
    llsf = clone(est).set_params(threshold="llsf").fit(X, Y)
    np.testing.assert_array_equal(llsf.decision_function(X), default.decision_function(X))
    assert isinstance(llsf.threshold_, LLSFThreshold) and llsf.threshold_.rescale is True
    if isinstance(est, BinarySVM):  # training scores of an SVM: its decision function on the training set
        reference = LLSFThreshold().fit(default.decision_function(X), Y)
        np.testing.assert_allclose(llsf.threshold_.coef_, reference.coef_)
