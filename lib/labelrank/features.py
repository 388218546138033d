r"""Meta-level features :math:`\phi(x, c)`: an instance described by its distances to each category.

Yang & Gopal (2012, section 2.1) replace an instance's raw features (words, pixels, gene expression levels) by one
short vector per category, built from distances to that category's training instances:

.. math::

    \phi(x, c) = [\phi_{L_2}(x, c), \phi_{L_1}(x, c), \phi_{\cos}(x, c), \phi_{\mathrm{mod}}(x, c)]
    \qquad \text{(eq. 1)}

where :math:`\phi_{L_2}(x, c) = (d_{L_2}(x, \hat x_1), \dots, d_{L_2}(x, \hat x_k))` are the Euclidean distances to
the :math:`k` nearest training instances :math:`\hat x_1, \dots, \hat x_k` of category :math:`c` (nearest under
:math:`L_2`, ascending), :math:`\phi_{L_1}` and :math:`\phi_{\cos}` the same under the :math:`L_1` (Manhattan) and
cosine distances, and :math:`\phi_{\mathrm{mod}}(x, c) = (d_{L_2}(x, \bar x_c), d_{\cos}(x, \bar x_c))` the
distances to the category's centroid :math:`\bar x_c`. Every category gets :math:`3k + 2` values; the
representation of :math:`x` with respect to all :math:`m` categories (eq. 2) is the array of shape
``(m, 3k + 2)`` that :class:`MetaLevelFeatures` returns per instance.

Conventions (the paper's choices where it states them, ours where it does not):

* cosine distance :math:`d_{\cos}(a, b) = 1 - a \cdot b / (\lVert a\rVert_2 \lVert b\rVert_2)`, clipped to
  [0, 2]; an all-zero vector has cosine similarity 0 with everything (distance 1), as in scikit-learn's
  ``cosine_distances``;
* fewer than :math:`k` members (footnote 1): the largest of the available distances is repeated up to :math:`k`;
* no member at all (only possible for a training instance that is the single member of its category, once it is
  excluded from its own neighbours): each of the :math:`k` values is the distance from :math:`x` to the farthest
  training instance under that metric ("at least as far as anything in the training set");
* a training instance is never its own neighbour (:meth:`MetaLevelFeatures.fit_transform`,
  :meth:`MetaLevelFeatures.neighbor_distances` with no argument); duplicates of it are ordinary neighbours;
* centroids are computed once, at :meth:`~MetaLevelFeatures.fit`, from all training members of the category. A
  training instance's centroid features therefore use a centroid it helped to form (it moves the centroid of
  the other :math:`n_c - 1` members towards itself by :math:`1/n_c` of their distance); test instances see the
  same centroids. This is the simple choice; the paper does not say which it made.

Exact neighbours (``algorithm="exact"``) are found by brute force, chunked over query rows: one pass computes the
:math:`L_1` and :math:`L_2` distances and the dot products (dense input: a register-tiled kernel; sparse input: an
inverted index over the training matrix's columns, where :math:`\lVert a-b\rVert_1 = \lVert a\rVert_1 +
\lVert b\rVert_1 - \sum_{j} (|a_j| + |b_j| - |a_j - b_j|)` over the shared non-zeros), the cosine distances
follow from the dot products, and a selection per category keeps the :math:`k` smallest distances among its
members. Approximate neighbours (``algorithm="approximate"``) come from one NN-descent graph per metric
(Dong et al. 2011, ``pynndescent``).

References
----------
Y. Yang and S. Gopal. Multilabel classification with meta-level features in a learning-to-rank framework.
*Machine Learning* 88(1-2):47-68, 2012, section 2.1, eq. (1)-(2), footnote 1.

W. Dong, M. Charikar and K. Li. Efficient k-nearest neighbor graph construction for generic similarity measures.
*Proc. WWW* 2011, pp. 577-586.
"""

from __future__ import annotations

import os
import queue
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.exceptions import NotFittedError

from labelrank import distance_kernels as kernels
from labelrank.optional import require
from labelrank.parameters import SEED, DeclaredParameters, FloatType, Integer, Jobs, NoneOr, Options
from labelrank.validation import describe_value, check_label_matrix, check_magnitude, check_positive_int

__all__ = ["BLOCKS", "MetaLevelFeatures", "NeighborDistances", "feature_names", "reference_features"]

#: The neighbour blocks of eq. (1), in order; each has ``k`` values, followed by the two centroid distances.
BLOCKS: tuple[str, ...] = ("l2", "l1", "cosine")
_CENTROID_NAMES = ("centroid_l2", "centroid_cosine")
_PYNNDESCENT_METRIC = {"l2": "euclidean", "l1": "manhattan", "cosine": "cosine"}
_CHUNK_BYTES = 4 * 2**20  # work arrays of one chunk of query rows (distances, staging): about an L2 cache


def reference_features(X_train: Any, Y_train: Any, X: Any, k: int) -> np.ndarray:
    r""":math:`\phi(x, c)` of eq. (1) for new instances ``X``, written straight from the paper with loops: the
    reference that :class:`MetaLevelFeatures` (whose fast path gives the same values) is tested against.

    Parameters
    ----------
    X_train : array-like of shape (n_train, n_features)
        Training instances (dense).
    Y_train : array-like of shape (n_train, n_labels)
        0/1 category membership; every category needs a member.
    X : array-like of shape (n, n_features)
        New instances.
    k : int
        Neighbours per metric and category.

    Returns
    -------
    numpy.ndarray of shape (n, n_labels, 3k + 2)

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 4.0]])
    >>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    >>> reference_features(X, Y, [[1.0, 1.0]], k=2)[0, 0].round(3).tolist()
    [1.0, 1.414, 1.0, 2.0, 0.293, 1.0, 1.118, 0.293]
    """
    X_train, X = np.asarray(X_train, dtype=float), np.asarray(X, dtype=float)
    Y_train = np.asarray(Y_train).astype(bool)

    def distances(a: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        norms = np.linalg.norm(a) * np.linalg.norm(B, axis=1)
        cos = np.where(norms > 0, 1.0 - B @ a / np.where(norms > 0, norms, 1.0), 1.0)
        return np.linalg.norm(B - a, axis=1), np.abs(B - a).sum(axis=1), np.clip(cos, 0.0, 2.0)

    out = np.empty((X.shape[0], Y_train.shape[1], 3 * k + 2))
    for i, x in enumerate(X):
        for c in range(Y_train.shape[1]):
            members = X_train[Y_train[:, c]]
            for b, d in enumerate(distances(x, members)):  # L2, L1, cosine
                nearest = np.sort(d)[:k]
                out[i, c, b * k : (b + 1) * k] = np.pad(nearest, (0, k - nearest.size), mode="edge")  # footnote 1
            l2, _, cos = distances(x, members.mean(axis=0, keepdims=True))  # the centroid
            out[i, c, 3 * k :] = l2[0], cos[0]
    return out


def feature_names(k: int) -> list[str]:
    """Names of the ``3k + 2`` values of :math:`\\phi(x, c)` in the order of eq. (1).

    Parameters
    ----------
    k : int
        Neighbours per distance block.

    Returns
    -------
    list of str
        ``l2_1 .. l2_k, l1_1 .. l1_k, cosine_1 .. cosine_k, centroid_l2, centroid_cosine``.

    Examples
    --------
    >>> feature_names(2)
    ['l2_1', 'l2_2', 'l1_1', 'l1_2', 'cosine_1', 'cosine_2', 'centroid_l2', 'centroid_cosine']
    """
    k = check_positive_int(k, "k")
    return [f"{block}_{j}" for block in BLOCKS for j in range(1, k + 1)] + list(_CENTROID_NAMES)


def _slice_positions(k: int, k_max: int) -> np.ndarray:
    """Positions, in an eq.-(1) vector built for ``k_max``, of the vector for ``k <= k_max``."""
    first = np.arange(k)
    return np.concatenate([first, k_max + first, 2 * k_max + first, [3 * k_max, 3 * k_max + 1]])


@dataclass(frozen=True)
class NeighborDistances:
    """Meta-level features computed once for the largest ``k`` of a grid, sliceable to any smaller ``k``.

    The :math:`j`-th nearest distance does not depend on :math:`k`, and the padding of footnote 1 repeats the
    largest available distance, so the features for :math:`k \\le k_{\\max}` are exactly the first :math:`k`
    values of each neighbour block plus the two centroid values.

    Attributes
    ----------
    values : numpy.ndarray of shape (n_instances, n_labels, 3 * k_max + 2)
        :math:`\\phi(x_i, c)` for ``k = k_max`` in the order of eq. (1).
    k_max : int
        The number of neighbours per block in ``values``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X, Y = rng.normal(size=(30, 4)), rng.integers(0, 2, size=(30, 3))
    >>> Z = MetaLevelFeatures(k=3).fit_transform(X, Y)  # 3 k + 2 = 11 features per (instance, label)
    >>> distances = NeighborDistances(Z, k_max=3)
    >>> Z2 = distances.features(2)  # what MetaLevelFeatures(k=2) computes
    >>> Z2.shape, np.array_equal(Z2, MetaLevelFeatures(k=2).fit_transform(X, Y))
    ((30, 3, 8), True)
    """

    values: np.ndarray
    k_max: int

    def features(self, k: int | None = None) -> np.ndarray:
        """:math:`\\phi(x, c)` for ``k <= k_max`` (``k_max`` when None), shape (n, n_labels, 3k + 2).

        For ``k == k_max`` this is ``values`` itself (no copy); otherwise a new array.
        """
        if k is None or k == self.k_max:
            return self.values
        k = check_positive_int(k, "k")
        if k > self.k_max:
            raise ValueError(f"k must be <= k_max={self.k_max} of these neighbour distances, got {k}")
        return self.values[:, :, _slice_positions(k, self.k_max)]

    def block(self, name: str) -> np.ndarray:
        """The ``k_max`` nearest distances under one metric (``"l2"``, ``"l1"``, ``"cosine"``), a view.

        ``"centroid"`` gives the two centroid distances (L2, cosine).
        """
        if name == "centroid":
            return self.values[:, :, 3 * self.k_max :]
        if name not in BLOCKS:
            raise ValueError(f"name must be one of {BLOCKS + ('centroid',)}, got {name!r}")
        j = BLOCKS.index(name)
        return self.values[:, :, j * self.k_max : (j + 1) * self.k_max]


# --------------------------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------------------------


def _check_X(X: Any, name: str = "X") -> np.ndarray | sp.csr_matrix:
    """``X`` as a C-contiguous float64 array or a canonical float64 CSR matrix; finite, 2-D, non-empty."""
    if X is None or isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a 2-D array or scipy sparse matrix, got {describe_value(X)}")
    if sp.issparse(X):
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D (n_instances, n_features), got shape {X.shape}")
        if not (np.issubdtype(X.dtype, np.number) or X.dtype == np.bool_):
            raise TypeError(f"{name} must hold numbers, got dtype {X.dtype}")
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)
        X.sum_duplicates()
        X.sort_indices()
        bad = ~np.isfinite(X.data)
        if bad.any():
            p = int(np.flatnonzero(bad)[0])
            i = int(np.searchsorted(X.indptr, p, side="right") - 1)
            value, j = float(X.data[p]), int(X.indices[p])
            raise ValueError(f"{name} must be finite, got {value!r} at position ({i}, {j})")
    else:
        try:
            arr = np.asarray(X)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
        if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
            raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype} in {describe_value(X)}")
        if np.iscomplexobj(arr):
            raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D (n_instances, n_features), got shape {arr.shape}")
        X = np.ascontiguousarray(arr, dtype=np.float64)
        bad = ~np.isfinite(X)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(f"{name} must be finite, got {float(X[i, j])!r} at position ({i}, {j})")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must have at least one row and one column, got shape {X.shape}")
    check_magnitude(X, name)
    return X


def _row_norms(X: np.ndarray | sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Per-row L1 norms and squared L2 norms."""
    if sp.issparse(X):
        n1 = np.asarray(abs(X).sum(axis=1)).ravel()
        n2 = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    else:
        n1 = np.abs(X).sum(axis=1)
        n2 = np.einsum("ij,ij->i", X, X)
    return n1, n2


def _padded(X: np.ndarray, multiple: int = 8) -> np.ndarray:
    """Dense rows zero-padded to a multiple of ``multiple`` columns (whole SIMD vectors; zeros add nothing)."""
    d = X.shape[1]
    width = -(-d // multiple) * multiple
    if width == d:
        return X
    out = np.zeros((X.shape[0], width))
    out[:, :d] = X
    return out


class _Workspace:
    """Work arrays of one thread for chunks of up to ``rows`` query rows: float64 sums, the three distance
    matrices in the output dtype (the sums themselves for float64) and the per-category staging buffer."""

    def __init__(self, rows: int, n_train: int, n_members: int, dtype: np.dtype) -> None:
        self.s1, self.s2, self.s3 = (np.empty((rows, n_train)) for _ in range(3))
        if dtype == np.float64:
            self.o1, self.o2, self.oc = self.s1, self.s2, self.s3
        else:
            self.o1, self.o2, self.oc = (np.empty((rows, n_train), dtype) for _ in range(3))
        self.staging = np.empty(rows * n_members, dtype)


# --------------------------------------------------------------------------------------------------------------
# The transformer
# --------------------------------------------------------------------------------------------------------------


class MetaLevelFeatures(DeclaredParameters, TransformerMixin, BaseEstimator):
    r"""Meta-level features :math:`\phi(x, c)` of Yang & Gopal (2012), eq. (1)-(2): kNN distances per category.

    For an instance :math:`x` and each category :math:`c` the transformer returns :math:`3k + 2` values: the
    :math:`L_2` distances from :math:`x` to its :math:`k` nearest training members of :math:`c` (ascending), the
    same for the :math:`L_1` and the cosine distance, then the :math:`L_2` and cosine distances from :math:`x` to
    the centroid :math:`\bar x_c` of :math:`c`'s training members:

    .. math::

        \phi(x, c) = [d_{L_2}(x, \hat x^{L_2}_{1..k}), d_{L_1}(x, \hat x^{L_1}_{1..k}),
        d_{\cos}(x, \hat x^{\cos}_{1..k}), d_{L_2}(x, \bar x_c), d_{\cos}(x, \bar x_c)]

    Parameters
    ----------
    k : int, default 10
        Neighbours per metric and category (the paper tunes it in 10, 20, ..., 100).
    algorithm : {"exact", "approximate"}, default "exact"
        ``"exact"``: brute force over all training instances, chunked over query rows (numba kernels).
        ``"approximate"``: candidates from one NN-descent index per metric (``pynndescent``); each category keeps its
        nearest candidates, so a category with fewer than ``k`` members among a query's ``n_candidates``
        candidates is padded with its largest candidate distance, and one with none gets the largest candidate
        distance of the query (a lower bound of the true value).
    n_candidates : int or None, default None
        Approximate search only: candidates per query and metric; None means ``3 * k + 50`` (at most
        ``n_train``).
    dtype : {"float64", "float32"}, default "float64"
        dtype of the returned features. Distances are accumulated in float64 and rounded once to ``dtype``
        before the selection; rounding is monotone, so float32 features equal the float64 ones rounded to
        float32. float32 halves the memory (Reuters-21578's 7,770 training instances x 90 categories x 302
        values take 0.84 GB instead of 1.7 GB) and speeds up the selection.
    chunk_size : int or None, default None
        Query rows per chunk (None: as many as keep the chunk's work arrays near 4 MiB, at least 32).
    n_jobs : int or None, default None
        Threads that share the chunks of query rows (None or -1: one per available core); also passed to
        ``pynndescent``. The kernels are single-threaded and release the GIL, so threads add no spinning or
        synchronisation cost beyond handing out chunks.
    random_state : int, default 0
        Seed of the approximate index (the exact search has no randomness).

    Attributes
    ----------
    n_features_in_ : int
        Number of input features seen at :meth:`fit`.
    n_labels_ : int
        Number of categories (columns of ``Y``).
    label_counts_ : numpy.ndarray of shape (n_labels,)
        Training members per category.
    centroids_ : numpy.ndarray of shape (n_labels, n_features)
        :math:`\bar x_c`, the mean of the training members of each category.

    Notes
    -----
    A training instance is never its own neighbour in :meth:`fit_transform` and :meth:`neighbor_distances`
    called without data; :meth:`transform` treats its argument as new data (an exact copy of a training instance
    is at distance 0 from it). Centroids include every training member, the instance itself included. See the
    module docstring for the padding rules.

    To tune ``k`` compute the neighbours once for the largest value and slice:
    ``MetaLevelFeatures(k=100).fit(X, Y).neighbor_distances(X_val).features(30)``.

    References
    ----------
    Yang & Gopal (2012), section 2.1, eq. (1)-(2) and footnote 1; Dong, Charikar & Li (2011) for NN-descent.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 4.0]])
    >>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    >>> mlf = MetaLevelFeatures(k=2).fit(X, Y)
    >>> phi = mlf.transform([[1.0, 1.0]])    # shape (1 instance, 2 categories, 3k + 2 = 8)
    >>> phi[0, 0].round(3).tolist()  # category 0: L2 1, sqrt(2); L1 1, 2; cosine 1 - 1/sqrt(2), 1 (zero vector)
    [1.0, 1.414, 1.0, 2.0, 0.293, 1.0, 1.118, 0.293]
    """

    parameter_constraints = {"k": Integer(), "algorithm": Options("exact", "approximate"),
                             "n_candidates": NoneOr(Integer()), "dtype": FloatType(), "chunk_size": NoneOr(Integer()),
                             "n_jobs": Jobs(), "random_state": SEED}

    def __init__(
        self,
        k: int = 10,
        *,
        algorithm: Literal["exact", "approximate"] = "exact",
        n_candidates: int | None = None,
        dtype: str | type = "float64",
        chunk_size: int | None = None,
        n_jobs: int | None = None,
        random_state: int = 0,
    ) -> None:
        self.k = k
        self.algorithm = algorithm
        self.n_candidates = n_candidates
        self.dtype = dtype
        self.chunk_size = chunk_size
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _check_fitted(self) -> None:
        if not hasattr(self, "centroids_"):
            raise NotFittedError(
                "This MetaLevelFeatures instance is not fitted yet; call 'fit' with training data first"
            )

    # ---- fit --------------------------------------------------------------------------------------------------

    def fit(self, X: Any, Y: Any) -> MetaLevelFeatures:
        """Store the training instances, their categories and the category centroids.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_train, n_features)
            Training instances (dense, or sparse such as TF-IDF); finite.
        Y : array-like or scipy.sparse matrix of shape (n_train, n_labels)
            0/1 category membership. Every category needs at least one training member.

        Returns
        -------
        self

        Raises
        ------
        ValueError
            If ``X`` and ``Y`` have different numbers of rows, if a column of ``Y`` has no positive entry
            (its centroid and neighbours would not exist; the message lists the columns), or on bad parameters.
        """
        self.check_params()
        X = _check_X(X, "X")
        Y = check_label_matrix(Y, "Y", dtype=np.uint8)
        if Y.shape[0] != X.shape[0]:
            raise ValueError(
                f"X and Y must have the same number of rows (instances), got {X.shape[0]} and {Y.shape[0]}"
            )
        counts = Y.sum(axis=0, dtype=np.int64)
        empty = np.flatnonzero(counts == 0)
        if empty.size:
            shown = ", ".join(str(c) for c in empty[:10]) + (", ..." if empty.size > 10 else "")
            raise ValueError(
                f"Y has {empty.size} column(s) with no positive training instance (columns {shown}); "
                "phi(x, c) needs at least one member of c: drop those labels before fitting"
            )
        self.n_features_in_ = X.shape[1]
        self.n_labels_ = Y.shape[1]
        self.label_counts_ = counts
        self._Y = np.ascontiguousarray(Y)
        self._X = X
        # members of each category (ascending), and categories of each training instance, as index lists
        self._cat_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self._cat_idx = np.nonzero(Y.T)[1].astype(np.int64)
        self._lab_ptr = np.concatenate([[0], np.cumsum(Y.sum(axis=1, dtype=np.int64))]).astype(np.int64)
        self._lab_idx = np.nonzero(Y)[1].astype(np.int64)
        self._n1, self._n2 = _row_norms(X)
        if sp.issparse(X):
            self._csc = X.tocsc()
            self._csc.sort_indices()
            sums = (sp.csr_matrix(Y.T, dtype=np.float64) @ X).toarray()
        else:
            self._Xpad = _padded(X)
            # category sums without BLAS (its threads' spinning would count as CPU time)
            sums = np.add.reduceat(X[self._cat_idx], self._cat_ptr[:-1], axis=0)
        self.centroids_ = np.asarray(sums) / counts[:, None]
        self._centroid_n2 = np.einsum("ij,ij->i", self.centroids_, self.centroids_)
        self._indexes = self._build_indexes(X) if self.algorithm == "approximate" else None
        return self

    def _build_indexes(self, X: np.ndarray | sp.csr_matrix) -> dict[str, Any]:
        NNDescent = require("pynndescent", "MetaLevelFeatures(neighbors='approximate')").NNDescent

        n_jobs = self._n_threads()
        indexes = {}
        for block in BLOCKS:
            index = NNDescent(
                X,
                metric=_PYNNDESCENT_METRIC[block],
                n_neighbors=min(30, X.shape[0] - 1) if X.shape[0] > 2 else 1,
                random_state=self.random_state,
                n_jobs=n_jobs,
            )
            index.prepare()
            indexes[block] = index
        return indexes

    # ---- transform --------------------------------------------------------------------------------------------

    def neighbor_distances(self, X: Any = None) -> NeighborDistances:
        """Features for ``k = self.k`` in a form that slices to any smaller ``k`` without recomputation.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n, n_features), or None
            New instances; None means the training instances, each excluded from its own neighbours.

        Returns
        -------
        NeighborDistances
        """
        self._check_fitted()
        self.check_params()
        return NeighborDistances(self._compute(X, check_positive_int(self.k, "k")), int(self.k))

    def transform(self, X: Any, k: int | None = None) -> np.ndarray:
        """:math:`\\phi(x, c)` for new instances ``X`` (eq. 1-2).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n, n_features)
            New instances (a copy of a training instance counts that instance as a neighbour at distance 0).
        k : int or None
            Neighbours per metric (``self.k`` when None); any positive value, the data are searched anew.

        Returns
        -------
        numpy.ndarray of shape (n, n_labels, 3k + 2)
            Blocks in the order of eq. (1): k L2, k L1, k cosine distances (each ascending), L2 and cosine
            distance to the centroid.
        """
        self._check_fitted()
        self.check_params()
        if X is None:
            raise TypeError("X must be a 2-D array or scipy sparse matrix, got None")
        return self._compute(X, self.k if k is None else check_positive_int(k, "k"))

    def fit_transform(self, X: Any, Y: Any, k: int | None = None) -> np.ndarray:
        """Fit on ``(X, Y)`` and return the training instances' features, each instance excluded from its own
        neighbours (its centroid features use the centroids of :meth:`fit`, which include it).

        Returns
        -------
        numpy.ndarray of shape (n_train, n_labels, 3k + 2)
        """
        self.fit(X, Y)
        return self._compute(None, self.k if k is None else check_positive_int(k, "k"))

    def feature_names(self, k: int | None = None) -> list[str]:
        """Names of the ``3k + 2`` values per category (``k = self.k`` when None); see :func:`feature_names`."""
        return feature_names(self.k if k is None else k)

    # ---- computation ------------------------------------------------------------------------------------------

    def _compute(self, X: Any, k: int) -> np.ndarray:
        exclude_self = X is None
        if exclude_self:
            Xq = self._X
        else:
            Xq = _check_X(X, "X")
            if Xq.shape[1] != self.n_features_in_:
                raise ValueError(
                    f"X has {Xq.shape[1]} features, but MetaLevelFeatures was fitted with {self.n_features_in_}"
                )
            if sp.issparse(Xq) != sp.issparse(self._X):  # queries take the format of the training data
                Xq = sp.csr_matrix(Xq) if sp.issparse(self._X) else np.ascontiguousarray(Xq.toarray())
        n, m = Xq.shape[0], self.n_labels_
        out = np.empty((n, m, 3 * k + 2), dtype=np.dtype(self.dtype))
        q_n1, q_n2 = (self._n1, self._n2) if exclude_self else _row_norms(Xq)
        if self.algorithm == "exact":
            self._exact_blocks(Xq, q_n1, q_n2, exclude_self, k, out)
        else:
            self._approximate_blocks(Xq, exclude_self, k, out)
        self._centroid_block(Xq, q_n2, out[:, :, 3 * k :])
        return out

    def _n_threads(self) -> int:
        """``n_jobs``, at most the CPUs this process may use (``taskset`` or a batch system may allow fewer than
        the machine has; numba and pynndescent refuse more threads than that)."""
        available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if self.n_jobs is None or self.n_jobs == -1:
            return available
        return min(int(self.n_jobs), available)

    def _chunk_rows(self, n: int, itemsize: int, n_threads: int) -> int:
        """Query rows per chunk: ``chunk_size``, else as many as keep a chunk's work arrays near 4 MiB (at least
        32), and at most a quarter of each thread's share of the rows (so that threads finish together)."""
        if self.chunk_size is not None:
            return min(n, int(self.chunk_size))
        n_train = self._X.shape[0]
        per_row = 24 * n_train + itemsize * (3 * n_train + self._cat_idx.shape[0])
        rows = max(32, _CHUNK_BYTES // per_row)
        if n_threads > 1:
            rows = min(rows, max(16, -(-n // (4 * n_threads))))
        return min(n, rows)

    def _exact_blocks(self, Xq, q_n1, q_n2, exclude_self: bool, k: int, out: np.ndarray) -> None:
        """Brute force over chunks of query rows; with ``n_jobs > 1`` the chunks are shared by a thread pool
        (the compiled kernels and numpy's take, partition and sort release the GIL)."""
        n, n_train = Xq.shape[0], self._X.shape[0]
        n_threads = max(1, min(self._n_threads(), -(-n // 16)))
        rows = self._chunk_rows(n, out.dtype.itemsize, n_threads)
        chunks = [(r0, min(n, r0 + rows)) for r0 in range(0, n, rows)]
        n_threads = min(n_threads, len(chunks))
        sparse = sp.issparse(Xq)
        shared = {
            "members": [self._cat_idx[self._cat_ptr[c] : self._cat_ptr[c + 1]] for c in range(self.n_labels_)],
            "exclude_self": exclude_self,
            "k": k,
            "out": out,
        }
        if sparse:
            shared.update(t_ptr=self._csc.indptr.astype(np.int64), t_idx=self._csc.indices.astype(np.int64),
                          r_ptr=self._X.indptr.astype(np.int64), r_idx=self._X.indices.astype(np.int64))
        else:
            shared.update(A=self._Xpad if exclude_self else _padded(Xq), q_norm=np.sqrt(q_n2), t_norm=np.sqrt(self._n2))
        workspaces: queue.SimpleQueue = queue.SimpleQueue()
        for _ in range(n_threads):
            workspaces.put(_Workspace(rows, n_train, self._cat_idx.shape[0], out.dtype))

        def task(chunk: tuple[int, int]) -> None:
            ws = workspaces.get()
            try:
                self._exact_chunk(ws, Xq, q_n1, q_n2, chunk[0], chunk[1], shared)
            finally:
                workspaces.put(ws)

        if n_threads == 1:
            for chunk in chunks:
                task(chunk)
        else:
            with ThreadPoolExecutor(max_workers=n_threads) as pool:
                list(pool.map(task, chunks))

    def _exact_chunk(self, ws: _Workspace, Xq, q_n1, q_n2, r0: int, r1: int, shared: dict) -> None:
        """Features of query rows ``r0:r1``: all distances, then per category a partial sort.

        The distances of the chunk to each category's members are gathered into a contiguous block of the staging
        buffer, whose rows are sorted (for large categories: cut to the ``k`` smallest with ``numpy.partition``
        first; numpy's sort and partition are SIMD-accelerated); :func:`~labelrank.distance_kernels.write_block` pads and stores them.
        """
        nr = r1 - r0
        k, out, exclude_self = shared["k"], shared["out"], shared["exclude_self"]
        b1, b2, bc = ws.o1[:nr], ws.o2[:nr], ws.oc[:nr]
        if sp.issparse(Xq):
            block = Xq[r0:r1]
            kernels.sparse_l1_l2_cos(
                block.indptr.astype(np.int64), block.indices.astype(np.int64), block.data,
                shared["t_ptr"], shared["t_idx"], self._csc.data, shared["r_ptr"], shared["r_idx"], self._X.data,
                q_n1[r0:r1], q_n2[r0:r1], self._n1, self._n2,
                ws.s1[:nr], ws.s3[:nr], b1, b2, bc,
            )
        else:
            kernels.dense_l1_l2_dot(shared["A"][r0:r1], self._Xpad, ws.s1[:nr], ws.s2[:nr], ws.s3[:nr])
            kernels.dense_finish(ws.s1[:nr], ws.s2[:nr], ws.s3[:nr], shared["q_norm"][r0:r1], shared["t_norm"], b1, b2, bc)
        staging = ws.staging
        # numpy's SIMD sort of a whole row beats partition-then-sort up to about 4-5 k elements
        full_sort = (5 if out.dtype == np.float32 else 4) * k
        for j, D in enumerate((b2, b1, bc)):
            if exclude_self:
                kernels.exclude_diagonal(D, r0, np.inf)
            for c, idx in enumerate(shared["members"]):
                p0 = self._cat_ptr[c]
                S = staging[nr * p0 : nr * (p0 + idx.size)].reshape(nr, idx.size)
                np.take(D, idx, axis=1, out=S, mode="clip")  # mode="clip": unbuffered
                if idx.size <= full_sort:
                    S.sort(axis=1)
                else:
                    S.partition(k - 1, axis=1)
                    S[:, :k].sort(axis=1)
            kernels.write_block(staging, D, r0, exclude_self, self._Y, self._cat_ptr, k, out[r0:r1], j * k)

    def _approximate_blocks(self, Xq, exclude_self: bool, k: int, out: np.ndarray) -> None:
        """Candidates from the NN-descent index of each metric, then :func:`~labelrank.distance_kernels.select_candidates`."""
        n_train = self._X.shape[0]
        n_cand = self.n_candidates if self.n_candidates is not None else 3 * k + 50
        n_cand = min(n_train, n_cand + (1 if exclude_self else 0))
        for j, block in enumerate(BLOCKS):
            idx, dist = self._indexes[block].query(Xq, k=n_cand)
            order = np.argsort(dist, axis=1, kind="stable")
            idx = np.take_along_axis(idx, order, axis=1).astype(np.int64)
            dist = np.take_along_axis(dist, order, axis=1).astype(np.float64)
            kernels.select_candidates(idx, dist, exclude_self, self._lab_ptr, self._lab_idx, k, out, j * k)

    def _centroid_block(self, Xq, q_n2: np.ndarray, out: np.ndarray) -> None:
        """L2 distance of every query row to every centroid, summed from the differences
        (:func:`~labelrank.distance_kernels.dense_centroid_sq`, :func:`~labelrank.distance_kernels.sparse_centroid_sq`),
        and the cosine distance from the dot products, clipped to [0, 2]."""
        sq = np.empty((Xq.shape[0], self.n_labels_))
        if sp.issparse(Xq):
            dots = np.asarray(Xq @ self.centroids_.T)
            kernels.sparse_centroid_sq(Xq.indptr.astype(np.int64), Xq.indices.astype(np.int64), Xq.data,
                                       self.centroids_, self._centroid_n2, sq)
        else:  # einsum's own loop: for these small products BLAS threads would cost more than they save
            dots = np.einsum("ij,cj->ic", Xq, self.centroids_)
            kernels.dense_centroid_sq(Xq, self.centroids_, sq)
        out[:, :, 0] = np.sqrt(sq)
        norms = np.sqrt(q_n2)[:, None] * np.sqrt(self._centroid_n2)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            cos = np.where(norms > 0, 1.0 - dots / np.where(norms > 0, norms, 1.0), 1.0)
        out[:, :, 1] = np.clip(cos, 0.0, 2.0)
