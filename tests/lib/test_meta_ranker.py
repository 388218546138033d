"""Tests of labelrank.MetaLevelRanker: the pipeline features -> ranker -> LLSF threshold, its precomputed-features
path, scikit-learn estimator checks, and input validation."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

import labelrank
from labelrank.features import MetaLevelFeatures
from labelrank.meta_ranker import MetaLevelRanker
from labelrank.metrics import average_precision
from labelrank.rankers import RANKERS, make_ranker
from labelrank.threshold import LLSFThreshold
from sklearn_checks import EXPECTED_FAILED_CHECKS, assert_bad_input_gives_clear_errors

FAST = {"epochs": 10}


def all_estimators():
    return [
        MetaLevelRanker(ranker="listnet", k=3, **FAST),
        MetaLevelRanker(ranker="lambdarank", k=3, **FAST),
        MetaLevelRanker(ranker="ranksvm", k=3, C=0.1),
        MetaLevelRanker(ranker="svmmap", k=3),
        MetaLevelRanker(ranker="lightgbm", k=3, ranker_params={"n_estimators": 10}),
    ]


def ids(est):
    return est.ranker


def clustered_data(seed=0, n=60, d=4, m=3, spread=3.0, noise=1.0):
    """Each label owns a Gaussian cluster centre; an instance sits at the mean of its labels' centres plus noise."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(m, d)) * spread
    Y = (rng.random((n, m)) < 0.4).astype(int)
    Y[Y.sum(axis=1) == 0, rng.integers(0, m)] = 1
    X = (Y @ centres) / Y.sum(axis=1, keepdims=True) + noise * rng.normal(size=(n, d))
    return X, Y


# ---------------------------------------------------------------------------------------------------------------
# scikit-learn estimator checks
# ---------------------------------------------------------------------------------------------------------------

# The checks the generic suite is expected to fail, and why: tests/sklearn_checks.py.


@parametrize_with_checks(
    [MetaLevelRanker(ranker="listnet", k=3, **FAST), MetaLevelRanker(ranker="svmmap", k=3)],
    expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_sklearn_properties_with_a_label_matrix(est):
    X, Y = clustered_data(1)
    fitted = clone(est)
    assert fitted.fit(X, Y) is fitted
    assert fitted.n_features_in_ == X.shape[1] and fitted.n_labels_ == Y.shape[1]
    scores, pred = fitted.decision_function(X), fitted.predict(X)
    assert scores.shape == Y.shape and pred.shape == Y.shape and set(np.unique(pred)) <= {0, 1}
    before = pickle.dumps(fitted.__dict__)
    fitted.predict(X)
    assert pickle.dumps(fitted.__dict__) == before  # predicting changes nothing
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(fitted)).decision_function(X), scores)
    assert clone(est).get_params() == est.get_params()
    perm = np.random.default_rng(0).permutation(X.shape[0])
    np.testing.assert_allclose(fitted.decision_function(X[perm]), scores[perm], atol=1e-10)
    np.testing.assert_allclose(fitted.decision_function(X[:7]), scores[:7], atol=1e-10)
    for variant in (np.asfortranarray(X), X.tolist()):
        np.testing.assert_allclose(clone(est).fit(variant, Y).decision_function(X), scores, atol=1e-10)
    rounded = clone(est).fit(X.astype(np.float32), Y)  # X rounded to float32: nearly the same model
    np.testing.assert_allclose(rounded.decision_function(X), scores, atol=1e-3)
    readonly = X.copy()
    readonly.flags.writeable = False
    np.testing.assert_allclose(clone(est).fit(readonly, Y).decision_function(readonly), scores, atol=1e-10)
    clone(est).fit(X[:, :1], Y).predict(X[:, :1])  # one feature
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :2])
    with pytest.raises(ValueError, match="2D array"):
        fitted.predict(X[0])


def test_sparse_input_gives_the_dense_result():
    X, Y = clustered_data(2)
    X[np.abs(X) < 0.5] = 0.0
    est = MetaLevelRanker(ranker="svmmap", k=3)
    dense = clone(est).fit(X, Y)
    sparse = clone(est).fit(sp.csr_matrix(X), Y)
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(X)), dense.decision_function(X), atol=1e-4)


def test_lazy_reexport():
    assert labelrank.MetaLevelRanker is MetaLevelRanker
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        labelrank.Nope  # noqa: B018


# ---------------------------------------------------------------------------------------------------------------
# the pipeline
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_fit_is_fit_features_on_the_training_features(est):
    X, Y = clustered_data(3)
    Xt, _ = clustered_data(4)
    a = clone(est).fit(X, Y)
    mlf = MetaLevelFeatures(k=3).fit(X, Y)
    b = clone(est).fit_features(mlf.neighbor_distances().features(), Y)
    np.testing.assert_array_equal(a.decision_function(Xt), b.decision_function_features(mlf.transform(Xt)))
    np.testing.assert_array_equal(a.predict(Xt), b.predict_features(mlf.transform(Xt)))
    # the threshold is the LLSF map fitted on the training scores (non-splitting strategy)
    train_scores = a.decision_function_features(mlf.neighbor_distances().features())
    ref = LLSFThreshold(rescale=True).fit(train_scores, Y)
    np.testing.assert_allclose(a.threshold_.coef_, ref.coef_)
    np.testing.assert_array_equal(a.predict(Xt), ref.predict(a.decision_function(Xt)))


def path_problem(ranker):
    """Training and test features of clustered data with a label without positive instance (ranked last, as by
    fit_features), and an estimator for a path over one parameter."""
    X, Y = clustered_data(3)
    Y[:, -1] = 0
    Xt, _ = clustered_data(4)
    mlf = MetaLevelFeatures(k=3).fit(X, Y[:, :-1])
    Z, Zt = mlf.neighbor_distances().features(), mlf.transform(Xt)
    extra = {"n_estimators": 5} if ranker == "lightgbm" else None
    return Z, Y, Zt, MetaLevelRanker(ranker=ranker, k=3, epochs=3, empty_labels="last", ranker_params=extra)


@pytest.mark.parametrize("ranker", ["listnet", "lambdarank", "lightgbm"])
def test_fit_features_learning_rates_is_one_fit_features_per_rate(ranker):
    Z, Y, Zt, est = path_problem(ranker)
    rates = (0.003, 0.3)
    models = est.fit_features_learning_rates(Z, Y, rates)
    assert [m.learning_rate for m in models] == list(rates) and est.learning_rate is None
    for rate, model in zip(rates, models):
        one = clone(est).set_params(learning_rate=rate).fit_features(Z, Y)
        np.testing.assert_array_equal(model.decision_function_features(Zt), one.decision_function_features(Zt))
        np.testing.assert_array_equal(model.predict_features(Zt), one.predict_features(Zt))
    with pytest.raises(TypeError, match="sequence of positive floats"):
        est.fit_features_learning_rates(Z, Y, 0.1)
    with pytest.raises(ValueError, match="at least one learning rate"):
        est.fit_features_learning_rates(Z, Y, [])


@pytest.mark.parametrize("ranker", ["ranksvm", "svmmap", "lightgbm"])
def test_fit_features_path_along_C(ranker):
    """Along C the SVM rankers fit one warm-started path (the ranker's fit_path, whose own tests compare it with
    cold fits); a ranker without C (LightGBM) is fitted once per value, as fit_features fits it."""
    Z, Y, Zt, est = path_problem(ranker)
    values = (0.01, 1.0) if ranker != "lightgbm" else (0.1, 0.3)
    param = "C" if ranker != "lightgbm" else "alpha"
    models = est.fit_features_path(Z, Y, param, values)
    assert [getattr(m, param) for m in models] == list(values) and getattr(est, param) is None
    if ranker != "lightgbm":
        direct = make_ranker(ranker, random_state=0).fit_path(Z, Y[:, :-1], list(values))
    for value, model, j in zip(values, models, range(len(values))):
        if ranker == "lightgbm":
            one = clone(est).set_params(**{param: value}).fit_features(Z, Y)
            np.testing.assert_array_equal(model.decision_function_features(Zt), one.decision_function_features(Zt))
        else:
            np.testing.assert_array_equal(model.ranker_.coef_, direct[j].coef_)
        assert model.predict_features(Zt).shape == (Zt.shape[0], Y.shape[1])
    with pytest.raises(ValueError, match="param must be a parameter of MetaLevelRanker, got 'gamma'"):
        est.fit_features_path(Z, Y, "gamma", [1.0])
    with pytest.raises(ValueError, match="at least one value of 'C'"):
        est.fit_features_path(Z, Y, "C", [])


def test_features_sliced_from_a_larger_k_give_the_same_model():
    X, Y = clustered_data(5)
    Xt, _ = clustered_data(6)
    mlf = MetaLevelFeatures(k=8).fit(X, Y)
    train, test = mlf.neighbor_distances(), mlf.neighbor_distances(Xt)
    sliced = MetaLevelRanker(ranker="listnet", k=3, **FAST).fit_features(train.features(3), Y)
    direct = MetaLevelRanker(ranker="listnet", k=3, **FAST).fit(X, Y)
    np.testing.assert_allclose(sliced.decision_function_features(test.features(3)), direct.decision_function(Xt),
                               atol=1e-12)


@pytest.mark.parametrize("ranker", sorted(RANKERS))
def test_every_ranker_learns_the_clustered_labels(ranker):
    X, Y = clustered_data(7, n=240, m=4, spread=5.0, noise=0.5)
    X, Y, Xt, Yt = X[:120], Y[:120], X[120:], Y[120:]  # same centres, new instances
    params = {"ranker_params": {"n_estimators": 20}} if ranker == "lightgbm" else FAST
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = MetaLevelRanker(ranker=ranker, k=5, C=0.1, **params).fit(X, Y)
    rng = np.random.default_rng(0)
    random_map = np.mean([average_precision(Yt, rng.random(Yt.shape)) for _ in range(20)])
    got = average_precision(Yt, fitted.decision_function(Xt))
    assert got > random_map + 0.3, (got, random_map)
    accuracy = (fitted.predict(Xt) == Yt).mean()
    assert accuracy > (Yt == 0).mean() + 0.2, accuracy  # well above saying no to every label


def test_parameters_reach_the_ranker():
    X, Y = clustered_data(8)
    m = MetaLevelRanker(ranker="lambdarank", k=2, alpha=0.5, learning_rate=0.2, epochs=3,
                        ranker_params={"metric": "map", "hidden_units": 2}, random_state=4).fit(X, Y)
    r = m.ranker_
    assert (r.alpha, r.learning_rate, r.epochs, r.metric, r.hidden_units, r.random_state) == (0.5, 0.2, 3, "map", 2, 4)
    m = MetaLevelRanker(ranker="svmmap", k=2, C=7.0, learning_rate=5.0).fit(X, Y)  # learning_rate: not SVM-MAP's
    assert m.ranker_.C == 7.0
    m = MetaLevelRanker(ranker="lightgbm", k=2, alpha=0.3, learning_rate=0.05, ranker_params={"n_estimators": 4})
    r = m.fit(X, Y).ranker_
    assert (r.reg_lambda, r.learning_rate, r.n_estimators) == (0.3, 0.05, 4)
    assert m.features_.k == 2 and m.ranker_.n_features_in_ == 3 * 2 + 2


def test_same_seed_same_predictions():
    X, Y = clustered_data(9)
    est = MetaLevelRanker(ranker="listnet", k=3, epochs=5, ranker_params={"hidden_units": 3})
    np.testing.assert_array_equal(clone(est).fit(X, Y).decision_function(X), clone(est).fit(X, Y).decision_function(X))


# ---------------------------------------------------------------------------------------------------------------
# labels without positive instances
# ---------------------------------------------------------------------------------------------------------------


def test_label_without_positives_is_an_error_by_default():
    X, Y = clustered_data(10)
    Y[:, 1] = 0
    with pytest.raises(ValueError, match=r"Y has 1 column\(s\) with no positive training instance \(columns 1\).*"
                                         r"empty_labels='last'"):
        MetaLevelRanker(k=3).fit(X, Y)
    with pytest.raises(ValueError, match="no positive training instance"):
        MetaLevelRanker(k=3).fit_features(np.zeros((60, 3, 11)), Y)
    with pytest.raises(ValueError, match="at least one label needs a positive instance"):
        MetaLevelRanker(k=3, empty_labels="last").fit(X, np.zeros_like(Y))


@pytest.mark.parametrize("ranker", ["listnet", "svmmap"])
def test_label_without_positives_is_ranked_last_on_request(ranker):
    X, Y = clustered_data(11, m=4)
    Xt, _ = clustered_data(12, m=4)
    Y[:, 2] = 0
    est = MetaLevelRanker(ranker=ranker, k=3, empty_labels="last", **(FAST if ranker == "listnet" else {}))
    fitted = clone(est).fit(X, Y)
    np.testing.assert_array_equal(fitted.kept_labels_, [True, True, False, True])
    scores = fitted.decision_function(Xt)
    others = scores[:, [0, 1, 3]]
    np.testing.assert_allclose(scores[:, 2], others.min(axis=1) - 1.0)
    assert not fitted.predict(Xt)[:, 2].any()
    # the other labels get exactly the model fitted without the empty label
    reduced = clone(est).fit(X, Y[:, [0, 1, 3]])
    np.testing.assert_allclose(others, reduced.decision_function(Xt), atol=1e-12)
    # the precomputed path takes features of the kept labels only
    mlf = MetaLevelFeatures(k=3).fit(X, Y[:, [0, 1, 3]])
    viaz = clone(est).fit_features(mlf.neighbor_distances().features(), Y)
    np.testing.assert_allclose(viaz.decision_function_features(mlf.transform(Xt)), scores, atol=1e-12)
    with pytest.raises(ValueError, match=r"Z must have one column per label of Y with a positive instance \(3 of 4\)"):
        clone(est).fit_features(np.zeros((60, 4, 11)), Y)


# ---------------------------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("est", all_estimators(), ids=ids)
def test_bad_input_gives_clear_errors(est):
    X, Y = clustered_data(13)
    assert_bad_input_gives_clear_errors(est, X, Y, nan_above=2.0)


def test_bad_precomputed_features():
    X, Y = clustered_data(14)
    Z = MetaLevelFeatures(k=2).fit_transform(X, Y)
    est = MetaLevelRanker(ranker="svmmap")
    with pytest.raises(ValueError, match="Z and Y must have the same number of rows .* Z with 60 rows and Y with 59"):
        clone(est).fit_features(Z, Y[:-1])
    with pytest.raises(ValueError, match="needs at least 2 training instances, got 1"):
        clone(est).fit_features(Z[:1], Y[:1])
    with pytest.raises(ValueError, match="Z must be 3-D"):
        clone(est).fit_features(Z[:, 0], Y)
    with pytest.raises(ValueError, match="Z must be finite"):
        clone(est).fit_features(np.where(Z > 1.0, np.inf, Z), Y)
    fitted = clone(est).fit_features(Z, Y)
    assert not hasattr(fitted, "features_") and not hasattr(fitted, "n_features_in_")
    with pytest.raises(NotFittedError, match="fitted with fit_features on precomputed features"):
        fitted.predict(X)
    with pytest.raises(ValueError, match=r"Z must have 3 label columns \(the labels kept at fit\), got 2"):
        fitted.decision_function_features(Z[:, :2])
    with pytest.raises(ValueError, match="Z has 6 features per .* fitted with 8"):
        fitted.decision_function_features(Z[:, :, :6])
    # refitting from features forgets a feature map from an earlier fit(X, Y)
    both = clone(est).fit(X, Y)
    assert hasattr(both, "features_")
    both.fit_features(Z, Y)
    assert not hasattr(both, "features_")


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"ranker": "svm"}, ValueError, r"ranker must be one of \('listnet', 'lambdarank', 'ranksvm', 'svmmap', "
                                        r"'lightgbm'\), got 'svm'"),
        ({"threshold": "zero"}, ValueError, r"threshold must be one of \('llsf',\), got 'zero'"),
        ({"empty_labels": "drop"}, ValueError, "empty_labels must be one of .* got 'drop'"),
        ({"k": 0}, ValueError, "k must be >= 1, got 0"),
        ({"k": 2.5}, TypeError, "k must be an integer, got 2.5"),
        ({"ranker": "svmmap", "C": -1.0}, ValueError, "C must be positive and finite, got -1.0"),
        ({"learning_rate": 0.0}, ValueError, "learning_rate must be positive and finite, got 0.0"),
        ({"epochs": 0}, ValueError, "epochs must be >= 1, got 0"),
        ({"ranker_params": {"hidden": 3}}, TypeError, "ranker_params has a parameter that 'listnet' does not take"),
        ({"ranker_params": [("a", 1)]}, TypeError, "ranker_params must be a dict or None"),
        ({"algorithm": "fast"}, ValueError, "algorithm must be one of \\('exact', 'approximate'\\), got 'fast'"),
    ],
    ids=lambda v: str(v) if isinstance(v, str) else None,
)
def test_bad_hyperparameters(params, error, match):
    X, Y = clustered_data(15)
    with pytest.raises(error, match=match):
        MetaLevelRanker(**params).fit(X, Y)


def test_warm_start_through_ranker_params_matches_cold_fits():
    """``ranker_params={"warm_start": True}``: refits along C reuse SVM-MAP's working set and stay C*tol-optimal."""
    from labelrank.features import MetaLevelFeatures

    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    Y = (X[:, :3] + rng.normal(scale=0.8, size=(60, 3)) > 0.3).astype(int)
    Y[Y.sum(axis=1) == 0, 0] = 1
    Z = MetaLevelFeatures(k=5).fit_transform(X, Y)
    warm = MetaLevelRanker(ranker="svmmap", k=5, ranker_params={"warm_start": True, "tol": 1e-4})
    iterations = {"warm": 0, "cold": 0}
    for C in (0.1, 1.0, 10.0, 100.0):
        warm.set_params(C=C).fit_features(Z, Y)
        cold = MetaLevelRanker(ranker="svmmap", k=5, C=C, ranker_params={"tol": 1e-4}).fit_features(Z, Y)
        assert warm.ranker_.converged_ and cold.ranker_.converged_
        assert abs(warm.ranker_.primal_objective_ - cold.ranker_.primal_objective_) <= C * 1e-4 * 1.01
        iterations["warm"] += warm.ranker_.n_iter_
        iterations["cold"] += cold.ranker_.n_iter_
    assert iterations["warm"] < iterations["cold"]
