"""Tests of labelrank.features (meta-level features, Yang & Gopal 2012, eq. 1-2).

Hand-computed values, a brute-force reference written straight from eq. (1) and footnote 1 (scipy ``cdist`` and a
sort per instance and category), a cross-check against scikit-learn's ``NearestNeighbors`` run per category,
hypothesis properties, and the documented handling of bad input.
"""

from __future__ import annotations

import doctest
import math
import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.spatial.distance import cdist
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.neighbors import NearestNeighbors

import labelrank.features as features
from labelrank.features import MetaLevelFeatures, NeighborDistances, feature_names

# ----------------------------------------------------------------------------------------------------------------
# the reference: eq. (1) and footnote 1 with plain loops over instances and categories


def cosine_distance_matrix(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """1 - cos, with an all-zero vector at distance 1 from everything, clipped to [0, 2]."""
    na = np.linalg.norm(A, axis=1)[:, None]
    nb = np.linalg.norm(B, axis=1)[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        sim = np.where((na > 0) & (nb > 0), (A @ B.T) / (na * nb), 0.0)
    return np.clip(1.0 - sim, 0.0, 2.0)


def reference(X_train, Y_train, X_query, k, exclude_self):
    Xt = X_train.toarray() if sp.issparse(X_train) else np.asarray(X_train, float)
    Xq = X_query.toarray() if sp.issparse(X_query) else np.asarray(X_query, float)
    Y_train = np.asarray(Y_train)
    n, m = Xq.shape[0], Y_train.shape[1]
    out = np.empty((n, m, 3 * k + 2))
    blocks = [cdist(Xq, Xt), cdist(Xq, Xt, "cityblock"), cosine_distance_matrix(Xq, Xt)]
    for b, D in enumerate(blocks):
        for i in range(n):
            others = np.delete(np.arange(Xt.shape[0]), i) if exclude_self else np.arange(Xt.shape[0])
            for c in range(m):
                members = [j for j in others if Y_train[j, c]]
                if not members:  # only a training instance alone in its category: the farthest training instance
                    values = np.full(k, D[i, others].max())
                else:
                    values = np.sort(D[i, members])[:k]
                    values = np.concatenate([values, np.full(k - values.size, values[-1])])  # footnote 1
                out[i, c, b * k : (b + 1) * k] = values
    centroids = (Y_train.T @ Xt) / Y_train.sum(axis=0)[:, None]
    out[:, :, 3 * k] = cdist(Xq, centroids)
    out[:, :, 3 * k + 1] = cosine_distance_matrix(Xq, centroids)
    return out


def random_problem(rng, n=40, d=6, m=4, sparse=False, density=0.4):
    X = rng.normal(size=(n, d))
    if sparse:
        X[rng.random(X.shape) > density] = 0.0
    Y = (rng.random((n, m)) < 0.35).astype(int)
    Y[rng.integers(0, n, size=m), np.arange(m)] = 1  # every category has a member
    return (sp.csr_matrix(X) if sparse else X), Y


# ----------------------------------------------------------------------------------------------------------------
# worked examples


def test_hand_computed_new_instance():
    # one category with members a=(4,3), b=(1,5); query q=(1,0). The three metrics order a and b differently:
    # L2: |q-a| = 3*sqrt(2) < |q-b| = 5; L1: 5 (b) < 6 (a); cosine: 1 - 4/5 = 0.2 (a) < 1 - 1/sqrt(26) (b).
    X = np.array([[4.0, 3.0], [1.0, 5.0], [-3.0, -3.0]])
    Y = np.array([[1, 0], [1, 0], [0, 1]])
    phi = MetaLevelFeatures(k=2).fit(X, Y).transform([[1.0, 0.0]])
    assert phi.shape == (1, 2, 8)
    centroid = np.array([2.5, 4.0])
    expected_a = [
        3 * math.sqrt(2), 5.0,  # L2
        5.0, 6.0,  # L1
        0.2, 1 - 1 / math.sqrt(26),  # cosine
        math.hypot(1.5, 4.0), 1 - 2.5 / np.linalg.norm(centroid),  # centroid L2, cosine
    ]
    np.testing.assert_allclose(phi[0, 0], expected_a, rtol=1e-12)
    # category 1 has a single member at (-3,-3): L2 5, L1 7, cosine 1 + 1/sqrt(2), each repeated (footnote 1)
    cos_b = 1 + 3 / math.sqrt(18)
    np.testing.assert_allclose(phi[0, 1], [5, 5, 7, 7, cos_b, cos_b, 5, cos_b], rtol=1e-12)


def test_hand_computed_training_instances_exclude_themselves():
    # 1-D: category A = {0, 1, 3}, category B = {10} (instance 3 alone)
    X = np.array([[0.0], [1.0], [3.0], [10.0]])
    Y = np.array([[1, 0], [1, 0], [1, 0], [0, 1]])
    phi = MetaLevelFeatures(k=3).fit_transform(X, Y)
    # instance 0: A's other members at 1 and 3, padded with 3; B at 10. Instance 0 is the zero vector: cosine 1.
    np.testing.assert_allclose(phi[0, 0], [1, 3, 3, 1, 3, 3, 1, 1, 1, 4 / 3, 1])
    np.testing.assert_allclose(phi[0, 1], [10, 10, 10, 10, 10, 10, 1, 1, 1, 10, 1])
    # instance 3: A at 7, 9, 10 (cosine: 0, 0 for 1 and 3, 1 for the zero vector); B has no other member, so
    # every value is the distance to the farthest training instance (10; cosine: max(1, 0, 0) = 1); the
    # centroid of B is instance 3 itself (centroids include all members).
    np.testing.assert_allclose(phi[3, 0], [7, 9, 10, 7, 9, 10, 0, 0, 1, 10 - 4 / 3, 0])
    np.testing.assert_allclose(phi[3, 1], [10, 10, 10, 10, 10, 10, 1, 1, 1, 0, 0])


def test_doctests():
    result = doctest.testmod(features, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# ----------------------------------------------------------------------------------------------------------------
# against the reference on random data


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_matches_reference(sparse, seed):
    rng = np.random.default_rng(seed)
    n, d, m = int(rng.integers(3, 50)), int(rng.integers(1, 12)), int(rng.integers(1, 6))
    X, Y = random_problem(rng, n, d, m, sparse)
    Q, _ = random_problem(rng, int(rng.integers(1, 15)), d, 1, sparse)
    k = int(rng.integers(1, 2 * n))
    mlf = MetaLevelFeatures(k=k, chunk_size=int(rng.integers(1, 9))).fit(X, Y)
    np.testing.assert_allclose(mlf.transform(Q), reference(X, Y, Q, k, False), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(mlf.fit_transform(X, Y), reference(X, Y, X, k, True), rtol=1e-10, atol=1e-10)


def test_sparse_equals_dense_and_handles_empty_rows():
    rng = np.random.default_rng(7)
    X, Y = random_problem(rng, 60, 30, 5, sparse=True, density=0.1)
    X = X.tolil()
    X[3] = 0.0  # an all-zero training row (cosine distance 1 to everything)
    X = X.tocsr()
    Q = sp.csr_matrix(np.vstack([np.zeros(30), rng.normal(size=(4, 30))]))
    a = MetaLevelFeatures(k=5).fit(X, Y)
    b = MetaLevelFeatures(k=5).fit(X.toarray(), Y)
    np.testing.assert_allclose(a.transform(Q), b.transform(Q.toarray()), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a.neighbor_distances().values, b.neighbor_distances().values, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a.transform(Q), reference(X, Y, Q, 5, False), rtol=1e-10, atol=1e-12)
    # queries in the other format than the training data are converted
    np.testing.assert_allclose(a.transform(Q.toarray()), b.transform(Q), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("metric,block", [("euclidean", 0), ("manhattan", 1), ("cosine", 2)])
def test_against_sklearn_nearest_neighbors(metric, block):
    """An independent implementation: scikit-learn's brute-force search, one index per category."""
    rng = np.random.default_rng(11)
    X, Y = random_problem(rng, 120, 8, 5)
    Q = rng.normal(size=(30, 8))
    k = 10
    ours = MetaLevelFeatures(k=k).fit(X, Y)
    phi_new, phi_train = ours.transform(Q), ours.fit_transform(X, Y)
    for c in range(Y.shape[1]):
        members = np.flatnonzero(Y[:, c])
        nn = NearestNeighbors(n_neighbors=min(k, members.size), algorithm="brute", metric=metric).fit(X[members])
        dist, _ = nn.kneighbors(Q)
        got = phi_new[:, c, block * k : block * k + dist.shape[1]]
        np.testing.assert_allclose(got, dist, rtol=1e-9, atol=1e-9)
        # training instances: ask for one more neighbour and drop the instance itself
        nn = NearestNeighbors(n_neighbors=min(k + 1, members.size), algorithm="brute", metric=metric)
        dist, idx = nn.fit(X[members]).kneighbors(X[members])
        for row, i in enumerate(members):
            keep = dist[row][members[idx[row]] != i][:k]
            np.testing.assert_allclose(phi_train[i, c, block * k : block * k + keep.size], keep, atol=1e-9)


# ----------------------------------------------------------------------------------------------------------------
# the rules of footnote 1, self-exclusion, k slicing, dtype, chunks, threads


def test_padding_repeats_largest_distance():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 4))
    Y = np.zeros((30, 2), int)
    Y[:3, 0] = 1  # 3 members
    Y[3:, 1] = 1
    phi = MetaLevelFeatures(k=8).fit(X, Y).transform(rng.normal(size=(5, 4)))
    for b in range(3):
        block = phi[:, 0, b * 8 : (b + 1) * 8]
        assert np.all(block[:, 3:] == block[:, 2:3])  # positions 4..8 repeat the 3rd (largest) distance
        assert np.all(np.diff(block[:, :3], axis=1) >= 0)


def test_self_is_excluded_but_duplicates_are_neighbours():
    X = np.array([[0.0, 1.0], [0.0, 1.0], [5.0, 5.0], [9.0, 0.0]])
    Y = np.array([[1], [1], [1], [1]])
    mlf = MetaLevelFeatures(k=1)
    phi_train = mlf.fit_transform(X, Y)
    assert phi_train[0, 0, 0] == 0.0 and phi_train[1, 0, 0] == 0.0  # each other's duplicate
    assert phi_train[2, 0, 0] == pytest.approx(math.hypot(5, 4))  # not 0: itself excluded
    # transform treats its argument as new data: every training instance finds itself at distance 0
    assert np.all(mlf.transform(X)[:, 0, 0] == 0.0)
    np.testing.assert_array_equal(mlf.neighbor_distances().values, phi_train)


def test_singleton_category_without_other_members_gets_farthest_distance():
    X = np.array([[0.0], [2.0], [7.0]])
    Y = np.array([[1, 0], [1, 0], [0, 1]])
    phi = MetaLevelFeatures(k=2).fit_transform(X, Y)
    np.testing.assert_allclose(phi[2, 1, :4], [7, 7, 7, 7])  # farthest other training instance: 0, at 7


@pytest.mark.parametrize("sparse", [False, True])
def test_neighbor_distances_slice_to_smaller_k(sparse):
    rng = np.random.default_rng(5)
    X, Y = random_problem(rng, 70, 10, 4, sparse)
    Q, _ = random_problem(rng, 9, 10, 1, sparse)
    mlf = MetaLevelFeatures(k=25).fit(X, Y)
    nd_new, nd_train = mlf.neighbor_distances(Q), mlf.neighbor_distances()
    assert isinstance(nd_new, NeighborDistances) and nd_new.k_max == 25
    assert nd_new.features() is nd_new.values
    for k in (1, 4, 10, 24, 25):
        np.testing.assert_array_equal(nd_new.features(k), mlf.transform(Q, k=k))
        np.testing.assert_array_equal(nd_train.features(k), mlf.fit_transform(X, Y, k=k))
        assert nd_new.features(k).shape == (9, 4, 3 * k + 2)
    np.testing.assert_array_equal(nd_new.block("l1"), nd_new.values[:, :, 25:50])
    np.testing.assert_array_equal(nd_new.block("centroid"), nd_new.values[:, :, 75:])
    with pytest.raises(ValueError, match="k must be <= k_max=25"):
        nd_new.features(26)
    with pytest.raises(ValueError, match="name must be one of"):
        nd_new.block("l3")


@pytest.mark.parametrize("sparse", [False, True])
def test_float32_equals_float64_rounded(sparse):
    rng = np.random.default_rng(9)
    X, Y = random_problem(rng, 80, 12, 3, sparse)
    a = MetaLevelFeatures(k=7).fit_transform(X, Y)
    b = MetaLevelFeatures(k=7, dtype="float32").fit_transform(X, Y)
    assert b.dtype == np.float32
    # rounding is monotone: the k nearest of the rounded distances are the rounded k nearest
    np.testing.assert_array_equal(b[..., :21], a[..., :21].astype(np.float32))
    np.testing.assert_allclose(b, a, rtol=1e-6)


def test_chunks_and_threads_do_not_change_results():
    rng = np.random.default_rng(4)
    X, Y = random_problem(rng, 90, 7, 3)
    Q = rng.normal(size=(33, 7))
    base = MetaLevelFeatures(k=6).fit(X, Y).transform(Q)
    for chunk, jobs in [(1, 1), (5, 2), (32, None), (1000, -1)]:
        got = MetaLevelFeatures(k=6, chunk_size=chunk, n_jobs=jobs).fit(X, Y).transform(Q)
        # equal up to rounding: rows in a 4-row tile and left-over rows sum their features in different orders
        np.testing.assert_allclose(got, base, rtol=1e-13, atol=1e-15)


# ----------------------------------------------------------------------------------------------------------------
# approximate search (the candidate walk; pynndescent itself is exercised by the chapter, its JIT takes a minute)


class _ExactIndex:
    """Stands in for a pynndescent index: exact candidates, optionally only the first ``limit``."""

    def __init__(self, X, metric, limit=None):
        self.X, self.metric, self.limit = X, metric, limit

    def query(self, Q, k):
        X = self.X.toarray() if sp.issparse(self.X) else self.X
        Q = Q.toarray() if sp.issparse(Q) else Q
        D = cosine_distance_matrix(Q, X) if self.metric == "cosine" else cdist(Q, X, self.metric)
        order = np.argsort(D, axis=1, kind="stable")[:, : min(k, self.limit or k)]
        return order, np.take_along_axis(D, order, axis=1)


def _with_fake_indexes(monkeypatch, limit=None):
    def build(self, X):
        metric = {"l2": "euclidean", "l1": "cityblock", "cosine": "cosine"}
        return {b: _ExactIndex(X, metric[b], limit) for b in features.BLOCKS}

    monkeypatch.setattr(MetaLevelFeatures, "_build_indexes", build)


def test_approximate_with_all_candidates_equals_exact(monkeypatch):
    _with_fake_indexes(monkeypatch)
    rng = np.random.default_rng(2)
    X, Y = random_problem(rng, 50, 5, 4)
    Q = rng.normal(size=(8, 5))
    exact = MetaLevelFeatures(k=6).fit(X, Y)
    approx = MetaLevelFeatures(k=6, algorithm="approximate", n_candidates=50).fit(X, Y)
    np.testing.assert_allclose(approx.transform(Q), exact.transform(Q), atol=1e-12)
    np.testing.assert_allclose(approx.fit_transform(X, Y), exact.fit_transform(X, Y), atol=1e-12)


def test_approximate_with_few_candidates_pads_and_bounds(monkeypatch):
    _with_fake_indexes(monkeypatch, limit=5)
    rng = np.random.default_rng(8)
    X, Y = random_problem(rng, 60, 5, 6)
    Q = rng.normal(size=(10, 5))
    k = 4
    exact = MetaLevelFeatures(k=k).fit(X, Y).transform(Q)
    approx = MetaLevelFeatures(k=k, algorithm="approximate", n_candidates=5).fit(X, Y).transform(Q)
    metric = {0: "euclidean", 1: "cityblock", 2: "cosine"}
    for b in range(3):
        D = cosine_distance_matrix(Q, X) if b == 2 else cdist(Q, X, metric[b])
        fifth = np.sort(D, axis=1)[:, 4]  # the farthest of the 5 candidates of each query
        ex, ap = exact[:, :, b * k : (b + 1) * k], approx[:, :, b * k : (b + 1) * k]
        # members among the candidates are found exactly; missing ones are replaced by a smaller value
        # (the largest found, or the farthest candidate): the approximation is a lower bound
        found = ex <= fifth[:, None, None]
        np.testing.assert_allclose(ap[found], ex[found], atol=1e-12)
        assert np.all(ap <= ex + 1e-12)
        assert np.all(ap <= fifth[:, None, None] + 1e-12)
        assert np.any(~found)  # the test data do exercise the padding
    np.testing.assert_array_equal(approx[:, :, 3 * k :], exact[:, :, 3 * k :])  # centroids are always exact


# ----------------------------------------------------------------------------------------------------------------
# properties


@st.composite
def problems(draw):
    n = draw(st.integers(2, 25))
    d = draw(st.integers(1, 6))
    m = draw(st.integers(1, 4))
    # six decimals: no magnitudes whose squares underflow (norms and dot products of 1e-160 are not meaningful)
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.floats(-50, 50).map(lambda v: round(v, 6))))
    Y = draw(hnp.arrays(np.int64, (n, m), elements=st.integers(0, 1)))
    Y[draw(st.integers(0, n - 1)), :] = 1
    k = draw(st.integers(1, n + 2))
    return X, Y, k


@settings(max_examples=40, deadline=None)
@given(problems())
def test_property_blocks_sorted_bounded_and_ordered(problem):
    X, Y, k = problem
    phi = MetaLevelFeatures(k=k).fit_transform(X, Y)
    l2, l1, cos = phi[..., :k], phi[..., k : 2 * k], phi[..., 2 * k : 3 * k]
    for block in (l2, l1, cos):
        assert np.all(np.diff(block, axis=-1) >= 0)
    assert np.all(l2 >= 0) and np.all((cos >= 0) & (cos <= 2))
    # ||v||_2 <= ||v||_1 member by member, hence for every order statistic
    assert np.all(l2 <= l1 * (1 + 1e-12) + 1e-9)
    np.testing.assert_allclose(phi, reference(X, Y, X, k, True), rtol=1e-9, atol=1e-7)


@settings(max_examples=25, deadline=None)
@given(problems(), st.floats(0.1, 10), st.integers(0, 2**31 - 1))
def test_property_invariances(problem, scale, seed):
    X, Y, k = problem
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(3, X.shape[1]))
    base = MetaLevelFeatures(k=k).fit(X, Y).transform(Q)
    # the order of the training instances does not matter
    perm = rng.permutation(X.shape[0])
    np.testing.assert_allclose(MetaLevelFeatures(k=k).fit(X[perm], Y[perm]).transform(Q), base, atol=1e-9)
    # scaling all data by s > 0 scales the L2, L1 and centroid-L2 values by s and leaves cosines unchanged
    scaled = MetaLevelFeatures(k=k).fit(scale * X, Y).transform(scale * Q)
    lin = np.r_[0 : 2 * k, 3 * k]
    np.testing.assert_allclose(scaled[..., lin], scale * base[..., lin], rtol=1e-9, atol=1e-7)
    cos = np.r_[2 * k : 3 * k, 3 * k + 1]
    np.testing.assert_allclose(scaled[..., cos], base[..., cos], atol=1e-9)


# ----------------------------------------------------------------------------------------------------------------
# API and bad input


def test_feature_names_and_estimator_api():
    assert feature_names(1) == ["l2_1", "l1_1", "cosine_1", "centroid_l2", "centroid_cosine"]
    mlf = MetaLevelFeatures(k=3, dtype="float32")
    assert mlf.feature_names() == feature_names(3) and len(feature_names(30)) == 92
    assert clone(mlf).get_params() == mlf.get_params()
    X, Y = random_problem(np.random.default_rng(0), 20, 3, 2)
    mlf.fit(X, Y)
    assert mlf.n_features_in_ == 3 and mlf.n_labels_ == 2
    np.testing.assert_array_equal(mlf.label_counts_, Y.sum(axis=0))
    np.testing.assert_allclose(mlf.centroids_, [X[Y[:, c] == 1].mean(axis=0) for c in range(2)])


def test_bad_input():
    X, Y = random_problem(np.random.default_rng(0), 20, 3, 2)
    with pytest.raises(ValueError, match="same number of rows.*20 and 19"):
        MetaLevelFeatures().fit(X, Y[:19])
    with pytest.raises(ValueError, match=r"k must be >= 1, got 0"):
        MetaLevelFeatures(k=0).fit(X, Y)
    with pytest.raises(TypeError, match="k must be an integer"):
        MetaLevelFeatures(k=2.5).fit(X, Y)
    with pytest.raises(ValueError, match=r"k must be >= 1, got -1"):
        MetaLevelFeatures(k=3).fit(X, Y).transform(X, k=-1)
    Y_empty = Y.copy()
    Y_empty[:, 1] = 0
    with pytest.raises(ValueError, match=r"no positive training instance \(columns 1\)"):
        MetaLevelFeatures().fit(X, Y_empty)
    with pytest.raises(ValueError, match="Y must contain only 0 and 1, got 2"):
        MetaLevelFeatures().fit(X, np.where(Y == 1, 2, 0))
    X_nan = X.copy()
    X_nan[4, 2] = np.nan
    with pytest.raises(ValueError, match=r"X must be finite, got nan at position \(4, 2\)"):
        MetaLevelFeatures().fit(X_nan, Y)
    X_inf = sp.csr_matrix(X)
    X_inf.data[0] = np.inf
    with pytest.raises(ValueError, match="X must be finite, got inf"):
        MetaLevelFeatures().fit(X_inf, Y)
    with pytest.raises(ValueError, match="X must be 2-D"):
        MetaLevelFeatures().fit(X[:, 0], Y)
    with pytest.raises(TypeError, match="X must hold numbers"):
        MetaLevelFeatures().fit(np.array([["a"] * 3] * 20), Y)
    with pytest.raises(TypeError, match="X must be a 2-D array"):
        MetaLevelFeatures().fit(None, Y)
    with pytest.raises(ValueError, match="at least one row and one column"):
        MetaLevelFeatures().fit(np.empty((0, 3)), np.empty((0, 2)))
    fitted = MetaLevelFeatures(k=2).fit(X, Y)
    with pytest.raises(ValueError, match="X has 4 features, but MetaLevelFeatures was fitted with 3"):
        fitted.transform(np.zeros((2, 4)))
    with pytest.raises(TypeError, match="got None"):
        fitted.transform(None)
    with pytest.raises(NotFittedError):
        MetaLevelFeatures().transform(X)
    for params, message in [
        (dict(algorithm="kdtree"), "algorithm must be one of \\('exact', 'approximate'\\), got 'kdtree'"),
        (dict(dtype="int32"), "dtype must be 'float64' or 'float32', got 'int32'"),
        (dict(n_jobs=0), "n_jobs must be None, -1 or a positive integer, got 0"),
        (dict(chunk_size=0), "chunk_size must be >= 1, got 0"),
        (dict(n_candidates=0), "n_candidates must be >= 1, got 0"),
    ]:
        with pytest.raises(ValueError, match=message):
            MetaLevelFeatures(**params).fit(X, Y)


# ----------------------------------------------------------------------------------------------------------------
# the same bits on any machine: chunking and threads never change a value


@pytest.mark.parametrize("kind", ["dense", "sparse"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_features_are_identical_for_any_chunk_size_and_thread_count(kind, dtype):
    """float64 features once differed in 2,177 to 59,748 cells between n_jobs=1 and 2 or two chunk sizes: the
    dense kernel summed a row differently when the chunking left it outside a full four-row tile."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(203, 29)) * rng.lognormal(size=29)
    X_new = rng.normal(size=(61, 29))
    if kind == "sparse":
        X, X_new = (sp.csr_matrix(np.where(rng.random(A.shape) < 0.25, A, 0.0)) for A in (X, X_new))
    Y = (rng.random((203, 5)) < 0.3).astype(int)
    Y[0] = 1
    ref = None
    for n_jobs in (1, 2, 3):
        for chunk_size in (None, 5, 33):
            mlf = MetaLevelFeatures(k=6, dtype=dtype, n_jobs=n_jobs, chunk_size=chunk_size)
            got = (mlf.fit_transform(X, Y), mlf.transform(X_new))
            if ref is None:
                ref = got
                continue
            for a, b in zip(got, ref):
                np.testing.assert_array_equal(a, b, err_msg=f"n_jobs={n_jobs}, chunk_size={chunk_size}")


@pytest.mark.parametrize("kind", ["dense", "sparse"])
def test_values_too_large_for_float64_distances_are_rejected_by_name(kind):
    """|x| >= 1e155 once gave NaN and inf features silently (and MLkNN other scores); now a ValueError names X."""
    from labelrank import MetaLevelRanker
    from labelrank.baselines import IBLRML, MLkNN

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6))
    Y = (rng.random((40, 3)) < 0.4).astype(int)
    Y[0] = 1
    big = X.copy()
    big[3, 2] = 1e160
    wrap = sp.csr_matrix if kind == "sparse" else np.asarray
    message = r"X holds 1e\+160 at position \(3, 2\): its squared distances overflow float64"
    for estimator in (MetaLevelFeatures(k=3), MetaLevelRanker(ranker="listnet", k=3), MLkNN(k=3), IBLRML(k=3)):
        with pytest.raises(ValueError, match=message):
            estimator.fit(wrap(big), Y)
        estimator.fit(wrap(X), Y)
        method = estimator.transform if isinstance(estimator, MetaLevelFeatures) else estimator.decision_function
        with pytest.raises(ValueError, match=message):
            method(wrap(big))
    # just below the bound everything stays finite
    ok = X.copy()
    ok[3, 2] = 0.9 * np.sqrt(np.finfo(np.float64).max / (4 * X.shape[1]))
    assert np.isfinite(MetaLevelFeatures(k=3).fit_transform(wrap(ok), Y)).all()


def test_n_jobs_is_clipped_to_the_cpus_the_process_may_use(monkeypatch):
    """In a process allowed one CPU (``taskset -c 0``), n_jobs=2 runs one thread: pynndescent and numba refuse more
    ("The number of threads must be between 1 and 1"), and the NN-descent indexes are built with what is allowed."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert MetaLevelFeatures(n_jobs=2)._n_threads() == 1
    assert MetaLevelFeatures(n_jobs=None)._n_threads() == MetaLevelFeatures(n_jobs=-1)._n_threads() == 1
    built = []

    class Index:
        def __init__(self, X, **kwargs):
            built.append(kwargs["n_jobs"])

        def prepare(self):
            pass

    monkeypatch.setattr(features, "require", lambda *args: type("pynndescent", (), {"NNDescent": Index}))
    MetaLevelFeatures(n_jobs=2, algorithm="approximate")._build_indexes(np.zeros((5, 2)))
    assert built and set(built) == {1}


# ----------------------------------------------------------------------------------------------------------------
# accuracy far from the origin and at zero distance: every L1 and L2 value summed from differences


def extended_precision_blocks(mlf, X_train, Y_train, X_query, k, exclude_self):
    """The L2, L1 and centroid-L2 features of the stored values, from explicit differences in long double."""
    L = np.longdouble
    Xt = (X_train.toarray() if sp.issparse(X_train) else np.asarray(X_train)).astype(L)
    Xq = (X_query.toarray() if sp.issparse(X_query) else np.asarray(X_query)).astype(L)
    diff = Xq[:, None, :] - Xt[None, :, :]
    blocks = {"l2": np.sqrt((diff**2).sum(-1)), "l1": np.abs(diff).sum(-1)}
    out = {}
    for name, D in blocks.items():
        values = np.empty((Xq.shape[0], Y_train.shape[1], k), L)
        for i in range(Xq.shape[0]):
            others = np.delete(np.arange(Xt.shape[0]), i) if exclude_self else np.arange(Xt.shape[0])
            for c in range(Y_train.shape[1]):
                s = np.sort(D[i, [j for j in others if Y_train[j, c]]])[:k]
                values[i, c] = np.concatenate([s, np.full(k - s.size, s[-1])])
        out[name] = values
    out["centroid_l2"] = np.sqrt(((Xq[:, None, :] - mlf.centroids_.astype(L)[None, :, :]) ** 2).sum(-1))
    return out


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize(("offset", "rtol"), [(0.0, 1e-9), (1e6, 1e-7), (1e8, 1e-6)])
def test_distances_stay_exact_far_from_the_origin(sparse, offset, rtol):
    """40 points in 4 dimensions, 2 labels, k = 3, moved by ``offset``: the expanded form
    ``|x|^2 + |c|^2 - 2 x.c`` was off by 3.46 at 1e8 (true values 0.54 to 2.94) for the centroid L2 feature and by
    2.61 for the sparse k-NN L2 feature; every L1 and L2 value is now within ``rtol`` of explicit differences."""
    rng = np.random.default_rng(0)
    X = rng.random((40, 4)) + offset
    Y = (rng.random((40, 2)) < 0.5).astype(int)
    Y[0] = 1
    Q = np.vstack([X[:5], rng.random((6, 4)) + offset])  # copies of training rows: zero distances
    wrap = sp.csr_matrix if sparse else np.asarray
    k = 3
    mlf = MetaLevelFeatures(k=k).fit(wrap(X), Y)
    for phi, queries, exclude in ((mlf.fit_transform(wrap(X), Y), X, True), (mlf.transform(wrap(Q)), Q, False)):
        ref = extended_precision_blocks(mlf, X, Y, queries, k, exclude)
        got = {"l2": phi[..., :k], "l1": phi[..., k : 2 * k], "centroid_l2": phi[..., 3 * k]}
        for name in got:
            np.testing.assert_allclose(got[name], ref[name].astype(float), rtol=rtol, atol=0, err_msg=name)
    copies = mlf.transform(wrap(Q[:5]))
    assert (copies[..., 0][Y[:5] == 1] == 0).all() and (copies[..., k][Y[:5] == 1] == 0).all()


def test_sparse_and_dense_input_agree_to_1e_10_relative_zero_distances_included():
    """Sparse near-duplicates gave sqrt(eps)-sized distances (4e-8) where dense input gives 0."""
    rng = np.random.default_rng(3)
    X = np.where(rng.random((50, 12)) < 0.4, rng.normal(size=(50, 12)), 0.0)
    X[10] = X[11] = X[12]  # duplicates among the training rows
    X[20] = X[21] * (1 + 1e-9)  # near-duplicates
    Y = (rng.random((50, 3)) < 0.4).astype(int)
    Y[0] = 1
    Q = np.vstack([X[:8], X[10], X[21] + 1e-12, np.where(rng.random((5, 12)) < 0.4, 1.0, 0.0)])
    k = 4
    a = MetaLevelFeatures(k=k).fit(sp.csr_matrix(X), Y)
    b = MetaLevelFeatures(k=k).fit(X, Y)
    exact = np.r_[0 : 2 * k, 3 * k]
    for got, want in ((a.fit_transform(sp.csr_matrix(X), Y), b.fit_transform(X, Y)),
                      (a.transform(sp.csr_matrix(Q)), b.transform(Q))):
        np.testing.assert_allclose(got[..., exact], want[..., exact], rtol=1e-10, atol=0)
        cos = np.r_[2 * k : 3 * k, 3 * k + 1]
        np.testing.assert_allclose(got[..., cos], want[..., cos], rtol=1e-10, atol=1e-15)
    copies = a.transform(sp.csr_matrix(Q[:8]))
    assert (copies[..., 0][Y[:8] == 1] == 0).all() and (copies[..., k][Y[:8] == 1] == 0).all()


@pytest.mark.parametrize("seed", range(20))
def test_sparse_exact_recomputation_matches_the_expanded_form_where_both_are_accurate(seed):
    """The recomputed pairs and the expanded form agree on ordinary data (well-separated sparse rows)."""
    rng = np.random.default_rng(seed)
    X, Y = random_problem(rng, int(rng.integers(5, 40)), int(rng.integers(2, 20)), 3, sparse=True)
    Q, _ = random_problem(rng, 6, X.shape[1], 1, sparse=True)
    k = int(rng.integers(1, 6))
    mlf = MetaLevelFeatures(k=k).fit(X, Y)
    np.testing.assert_allclose(mlf.transform(Q), reference(X, Y, Q, k, False), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_the_books_reference_equals_the_fast_path(seed):
    """reference_features (the loop the meta-features chapter prints) against MetaLevelFeatures.transform."""
    rng = np.random.default_rng(seed)
    X, Y = random_problem(rng, int(rng.integers(3, 40)), int(rng.integers(1, 8)), int(rng.integers(1, 5)))
    Q = rng.normal(size=(5, X.shape[1]))
    Q[0] = 0.0  # a zero vector: cosine distance 1
    k = int(rng.integers(1, 2 * X.shape[0]))
    np.testing.assert_allclose(features.reference_features(X, Y, Q, k), MetaLevelFeatures(k=k).fit(X, Y).transform(Q),
                               rtol=1e-10, atol=1e-12)
