"""Tests of labelrank.studies.yang2012.vowel: the multi-class experiment of Yang & Gopal (2012, section 4.6, Table 7).

Everything runs on small synthetic data and tiny grids except one check on the real vowel files (1-NN reproduces
Hastie et al.'s "Nearest Neighbor" row), which is skipped without a data source.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from labelrank.datasets import DataUnavailableError, load
from labelrank.features import MetaLevelFeatures
from labelrank.studies import paper
from labelrank.studies.yang2012 import vowel
from sklearn.neighbors import KNeighborsClassifier


def blobs(n_per_class: int = 12, n_classes: int = 3, n_features: int = 4, seed: int = 0, spread: float = 1.0):
    """Gaussian blobs around well separated centres, one-hot labels."""
    rng = np.random.default_rng(seed)
    centres = 3.0 * rng.normal(size=(n_classes, n_features))
    y = np.repeat(np.arange(n_classes), n_per_class)
    X = centres[y] + spread * rng.normal(size=(y.size, n_features))
    return X, np.eye(n_classes, dtype=int)[y]


# ---- error rate ------------------------------------------------------------------------------------------------


def test_error_rate_counts_wrong_top_classes():
    Y = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]]
    scores = [[0.9, 0.1, 0.0], [0.8, 0.5, 0.1], [0.0, 0.1, 0.2], [0.3, 0.2, 0.1]]
    assert vowel.error_rate(Y, scores) == pytest.approx(0.5)


def test_error_rate_counts_a_tie_at_the_top_as_an_error():
    assert vowel.error_rate([[1, 0]], [[0.5, 0.5]]) == 1.0
    assert vowel.error_rate([[0, 1]], [[0.5, 0.5]]) == 1.0


def test_error_rate_rejects_multi_label_rows_naming_Y():
    with pytest.raises(ValueError, match=r"Y must be one-hot.*row 1 has 2"):
        vowel.error_rate([[1, 0], [1, 1]], [[0.1, 0.2], [0.3, 0.4]])
    with pytest.raises(ValueError, match="same shape"):
        vowel.error_rate([[1, 0]], [[0.1, 0.2, 0.3]])


# ---- folds and speakers ----------------------------------------------------------------------------------------


def test_speakers_are_blocks_of_66_rows():
    s = vowel.speakers(528)
    assert np.array_equal(np.bincount(s), np.full(8, 66))
    assert np.all(np.diff(s) >= 0)
    with pytest.raises(ValueError, match="n_rows must be a multiple of 66"):
        vowel.speakers(100)


def test_stratified_folds_partition_the_rows_and_are_seeded():
    _, Y = blobs(n_per_class=10)
    folds = vowel.cv_folds(Y, n_folds=5, seed=3)
    val = np.concatenate([v for _, v in folds])
    assert np.array_equal(np.sort(val), np.arange(len(Y)))
    for fit, v in folds:
        assert np.intersect1d(fit, v).size == 0
        assert np.array_equal(Y[v].sum(axis=0), [2, 2, 2])  # stratified
    again = vowel.cv_folds(Y, n_folds=5, seed=3)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, again))


def test_grouped_folds_keep_each_group_together():
    _, Y = blobs(n_per_class=8)
    groups = np.arange(len(Y)) % 4
    for fit, v in vowel.cv_folds(Y, n_folds=4, seed=0, groups=groups):
        assert np.intersect1d(groups[fit], groups[v]).size == 0
    with pytest.raises(ValueError, match="groups must have one entry per row"):
        vowel.cv_folds(Y, groups=groups[:-1])


# ---- representations -------------------------------------------------------------------------------------------


def test_meta_representation_is_phi_flattened_class_by_class_and_standardised():
    X, Y = blobs(n_per_class=6)
    X_new = X[:5] + 0.1
    k = 3
    A_fit, A_new = vowel.features("meta", X, Y, X_new, k=k)
    width = 3 * k + 2
    assert A_fit.shape == (len(X), 3 * width) and A_new.shape == (5, 3 * width)
    mlf = MetaLevelFeatures(k=k).fit(X, Y)
    Z_fit, Z_new = mlf.neighbor_distances().features(k), mlf.transform(X_new)
    mean, std = Z_fit.mean(axis=0), Z_fit.std(axis=0)
    std[std == 0] = 1.0
    for c in range(3):
        for j in (0, k, 2 * k, 3 * k + 1):  # nearest L2, L1 and cosine distance, cosine to the centroid
            col = c * width + j
            assert np.allclose(A_fit[:, col], (Z_fit[:, c, j] - mean[c, j]) / std[c, j])
            assert np.allclose(A_new[:, col], (Z_new[:, c, j] - mean[c, j]) / std[c, j])


def test_meta_k_beyond_the_class_size_pads_with_the_largest_distance():
    X, Y = blobs(n_per_class=4)  # a training instance has 3 other members of its class, 4 of each other class
    A_fit, _ = vowel.features("meta", X, Y, X[:2], k=6)
    l2_block = A_fit[:, 0:6]  # class 0's L2 distances 1..6, standardised per column
    assert np.allclose(l2_block[:, 4:], l2_block[:, [3]])  # 5th and 6th copy the 4th: columns without information
    assert not np.allclose(l2_block[:, 3], l2_block[:, 2])


def test_plain_features_are_standardised_with_fitting_statistics():
    X, Y = blobs()
    A_fit, A_new = vowel.features("plain", X, Y, X[:3] * 2)
    assert np.allclose(A_fit.mean(axis=0), 0) and np.allclose(A_fit.std(axis=0), 1)
    assert np.allclose(A_new, (X[:3] * 2 - X.mean(axis=0)) / X.std(axis=0))


def test_meta_needs_k():
    X, Y = blobs()
    with pytest.raises(ValueError, match="k must be a positive integer"):
        vowel.features("meta", X, Y, X)
    with pytest.raises(ValueError, match="method must be one of"):
        vowel.features("lda", X, Y, X)


def test_gram_linear_and_rbf():
    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(5, 3)), rng.normal(size=(2, 3))
    K, Kb = vowel.gram(A, B)
    assert np.allclose(K, A @ A.T) and np.allclose(Kb, B @ A.T)
    K, Kb = vowel.gram(A, B, gamma=0.5)
    assert np.allclose(Kb[1, 2], np.exp(-0.5 * np.sum((B[1] - A[2]) ** 2)))
    with pytest.raises(ValueError, match="gamma"):
        vowel.gram(A, B, gamma=-1.0)


# ---- the SVM ---------------------------------------------------------------------------------------------------


def test_ovr_svm_scores_and_primal_weights_agree():
    X, Y = blobs()
    A_fit, A_new = vowel.features("plain", X, Y, X[:7])
    K, K_new = vowel.gram(A_fit, A_new)
    models = vowel.fit_ovr_svm(K, Y, 1.0)
    assert len(models) == 3
    scores = vowel.ovr_scores(models, K_new)
    W, b = vowel.primal_weights(models, A_fit)
    assert np.allclose(A_new @ W.T + b, scores)
    assert vowel.error_rate(Y[:7], scores) == np.mean(scores.argmax(axis=1) != Y[:7].argmax(axis=1))


def test_ovr_svm_reports_the_iteration_limit():
    X, Y = blobs(spread=6.0)  # overlapping classes: a large C needs many iterations
    K, _ = vowel.gram(*vowel.features("plain", X, Y, X))
    assert vowel.fit_ovr_svm(K, Y, 1e6, max_iter=2) is None


def test_ovr_svm_rejects_bad_arguments():
    X, Y = blobs()
    K, _ = vowel.gram(X, X)
    with pytest.raises(ValueError, match="C must"):
        vowel.fit_ovr_svm(K, Y, 0.0)
    with pytest.raises(ValueError, match="K_fit must have shape"):
        vowel.fit_ovr_svm(K[:5], Y, 1.0)
    with pytest.raises(ValueError, match="at least one member"):
        vowel.fit_ovr_svm(K, np.c_[Y, np.zeros(len(Y), dtype=int)], 1.0)  # a class without members


def test_nearest_neighbour_scores_are_the_1nn_rule():
    X, Y = blobs(spread=3.0, seed=2)
    X_new = X + np.random.default_rng(5).normal(size=X.shape)
    ours = vowel.nearest_neighbour_scores(X, Y, X_new).argmax(axis=1)
    sk = KNeighborsClassifier(n_neighbors=1).fit(X, Y.argmax(axis=1)).predict(X_new)
    assert np.array_equal(ours, sk)


# ---- tuning ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method, params", [("plain", (None,)), ("rbf", (0.1, 1.0)), ("meta", (2, 4))])
def test_tune_returns_the_best_grid_point(method, params):
    X, Y = blobs(n_per_class=10, spread=2.5)
    C_grid = (0.01, 1.0, 100.0)
    result = vowel.tune(method, X, Y, params, C_grid, n_folds=3, cache=False)
    table = result.cv
    name = {"plain": None, "rbf": "gamma", "meta": "k"}[method]
    assert result.params["C"] in set(table["C"])
    if name:
        assert result.params[name] in params
    ok = table[table["converged"]]
    assert result.cv_error == pytest.approx(ok["error"].min())
    first = ok[ok["error"] == ok["error"].min()].iloc[0]  # ties: the first in grid order
    assert result.params["C"] == first["C"]
    assert table["error"].between(0, 1).all()


def test_tune_widens_the_C_grid_on_a_boundary_hit():
    X, Y = blobs(n_per_class=10, spread=2.5)
    grid = (1e-8, 1e-7)  # far too small: every C predicts a constant, the choice sits on the upper boundary
    result = vowel.tune_plain_svm(X, Y, grid, n_folds=3, cache=False)
    assert result.n_widened >= 1
    C = np.sort(result.cv["C"].unique())
    assert C.size > 2 and np.allclose(np.diff(np.log10(C)), 1.0)  # widened at the grid's spacing


def test_cv_errors_cache_roundtrip(tmp_path, monkeypatch):
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path))
    X, Y = blobs(n_per_class=6)
    first = vowel.cv_errors("plain", X, Y, None, (0.1, 1.0), n_folds=3)
    again = vowel.cv_errors("plain", X, Y, None, (0.1, 1.0), n_folds=3)
    pd.testing.assert_frame_equal(first, again)
    assert (tmp_path / "vowel").is_dir()


def test_test_error_checks_params():
    X, Y = blobs()
    with pytest.raises(ValueError, match="params must contain 'k'"):
        vowel.held_out_error("meta", {"C": 1.0}, X, Y, X, Y)
    with pytest.raises(TypeError, match="params must be a dict"):
        vowel.held_out_error("plain", 1.0, X, Y, X, Y)
    X_test, Y_test = X + np.random.default_rng(1).normal(size=X.shape), Y
    scores, models, _ = vowel.held_out_scores("plain", {"C": 1.0}, X, Y, X_test)
    assert len(models) == 3 and scores.shape == Y_test.shape
    expected = np.mean(scores.argmax(axis=1) != Y_test.argmax(axis=1))
    assert vowel.held_out_error("plain", {"C": 1.0}, X, Y, X_test, Y_test) == pytest.approx(expected)


# ---- the paper's table and the real data -----------------------------------------------------------------------


def test_table7_transcription():
    t7 = paper.load("yang2012_table7")
    assert list(t7.columns) == ["method", "error_rate", "source"]
    assert len(t7) == 12 and t7["method"].is_unique
    assert t7["error_rate"].between(0, 1).all()
    assert (t7["source"].iloc[:10] == "Hastie et al. 2009, p. 444").all()
    assert (t7["source"].iloc[10:] == "this paper").all()


def test_nearest_neighbour_on_vowel_matches_hastie():
    try:
        X, Y, _ = load("vowel", "train")
        X_test, Y_test, _ = load("vowel", "test")
    except DataUnavailableError as exc:
        pytest.skip(f"vowel: {exc}")
    assert X.shape == (528, 10) and X_test.shape == (462, 10)
    error = vowel.error_rate(Y_test, vowel.nearest_neighbour_scores(X, Y, X_test))
    hastie = paper.load("yang2012_table7").set_index("method").loc["Nearest Neighbor", "error_rate"]
    assert round(error, 2) == hastie
