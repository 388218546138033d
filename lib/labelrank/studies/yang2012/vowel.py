r"""Meta-level features for multi-class classification: the *vowel* experiment of Yang & Gopal (2012, section 4.6).

The paper trains one binary SVM per class ("one-vs-rest") and assigns each test instance the class with the top
score, once on the 10 plain features of the Deterding vowel data and once on the meta-level features of eq. (2),
and compares the two test error rates with ten methods quoted from Hastie et al. (2009, p. 444) in its Table 7.
This module runs that experiment and two reference points of our own (an RBF-kernel SVM on the plain features and
the nearest-neighbour rule).

Representations (what :func:`features` returns for ``method``)
--------------------------------------------------------------
``"plain"`` and ``"rbf"``
    The 10 features, each standardised with the mean and standard deviation of the instances the model is fitted
    on (:class:`sklearn.preprocessing.StandardScaler`).
``"meta"``
    :math:`z = (\phi(x, c_1), \dots, \phi(x, c_{11}))` of eq. (2), the ``11 x (3k + 2)`` array of
    :class:`labelrank.features.MetaLevelFeatures` flattened class by class into ``11 (3k + 2)`` values, each
    column standardised with the fitting instances' mean and standard deviation (a constant column keeps scale 1),
    as for Fig. 2 in :mod:`labelrank.protocol`. The fitting instances' own features exclude the instance itself
    from its neighbours, so they look like the features of new data. The neighbours are found once for the
    largest ``k`` of a grid and sliced for the smaller ones.

Footnote 1 of the paper pads :math:`\phi` when ``k`` exceeds the members of a class: the largest available
distance is repeated up to ``k`` values. *vowel* has 48 training instances per class, so ``k`` up to 48 needs
no padding for new data; a training instance has only 47 other members of its own class; inside a fold of
5-fold cross-validation a class has 38 or 39 fitting members. Every ``k`` of the paper's grid (10, ..., 100)
above those counts therefore appends copies of the last distance of a block: the representation gains columns
but no information (after standardisation a copied column only multiplies the weight the regulariser allows
that distance).

The SVM
-------
One binary SVM per class with the hinge loss and an unregularised bias,

.. math::

    \min_{w_c, b_c} \tfrac12 \lVert w_c \rVert^2 + C \sum_i \max\big(0, 1 - y_{ic} (\langle w_c, x_i\rangle
    + b_c)\big), \qquad y_{ic} = \pm 1,

solved in the dual by libsvm (:class:`sklearn.svm.SVC`) on the Gram matrix ``K = A A^T`` of the fitting instances
(``"plain"``, ``"meta"``) or on the RBF kernel :math:`\exp(-\gamma \lVert a - a'\rVert^2)` (``"rbf"``). We do not
use :class:`labelrank.baselines.BinarySVM`, which penalises the bias (LIBLINEAR's problem; LIBLINEAR is its solver
on more than 4,096 dense columns). Nor LIBLINEAR: on the meta-level features, with up to 3,322 columns for 422
fitting instances, the data are separable, and LIBLINEAR's dual coordinate descent needs thousands of passes; from
``k = 40`` and ``C = 0.1`` on it stops at its 10,000-pass limit, far from the optimum, while libsvm solves the
same problem on the 422 x 422 Gram matrix in milliseconds. Where the data are not separable and ``C`` is very
large (the plain features from ``C`` of about 100 on) libsvm needs millions of iterations; a binary SVM that
reaches ``max_iter`` iterations marks its grid point *not converged*, the point is skipped in the remaining folds
and is not eligible in the selection.

Tuning (section 3.4)
--------------------
Five-fold cross-validation on the training set (:class:`sklearn.model_selection.StratifiedKFold`, shuffled with
``seed``); the grid point with the lowest mean validation error rate is chosen (ties: the first in grid order, so
the smaller ``k`` or ``gamma``, then the smaller ``C``). ``C`` runs over the paper's 20 values
``numpy.logspace(-6, 6, 20)``; when the choice is the smallest or the largest ``C`` evaluated, the ``C`` grid is
widened by 4 values at the same spacing on that side (at most twice per side, as in :mod:`labelrank.protocol`).
The error rate of a fold is :func:`error_rate`.

Random folds are the paper's protocol, but on *vowel* they leak: each utterance was cut into six nearly identical
frames, so a validation frame has near-copies among the fitting frames. ``groups=speakers(n)`` (:func:`speakers`)
keeps each speaker's rows in one fold (:class:`sklearn.model_selection.GroupKFold`), which asks the test set's
question, new voices. Cross-validation tables are cached (:class:`labelrank.cache.ResultCache`) under
``labelrank.paths.cache_dir() / "vowel"``, keyed on the data, the grid and :data:`CV_VERSION`.

References
----------
Y. Yang, S. Gopal (2012). Multilabel classification with meta-level features in a learning-to-rank framework.
Machine Learning 88, 47-68: section 2.1 (eq. 1-2, footnote 1), section 3.4, section 4.6 and Table 7.
T. Hastie, R. Tibshirani, J. Friedman (2009). The Elements of Statistical Learning, 2nd ed., Springer, p. 444.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import GroupKFold, StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from tqdm import tqdm

from labelrank.cache import ResultCache
from labelrank.paths import cache_dir
from labelrank.validation import as_2d_array, check_label_matrix, check_positive_int, check_real
from labelrank.protocol import concatenated_meta_features, widen_grid
from labelrank.features import MetaLevelFeatures, NeighborDistances
from labelrank.metrics import one_error
from labelrank.protocol.profile import resolve

__all__ = [
    "C_GRID",
    "K_GRID",
    "GAMMA_GRID",
    "MAX_ITER",
    "TABLE7_ROWS",
    "book_grids",
    "METHODS",
    "TuneResult",
    "error_rate",
    "speakers",
    "cv_folds",
    "plain_features",
    "meta_features",
    "features",
    "gram",
    "fit_ovr_svm",
    "ovr_scores",
    "primal_weights",
    "nearest_neighbour_scores",
    "cv_errors",
    "tune",
    "tune_plain_svm",
    "tune_rbf_svm",
    "tune_meta_svm",
    "held_out_scores",
    "held_out_error",
]

Method = Literal["plain", "rbf", "meta"]

#: The methods: linear SVM on the plain features, RBF SVM on the plain features, linear SVM on meta-level features.
METHODS: tuple[str, ...] = ("plain", "rbf", "meta")
#: The paper's regularisation grid (section 3.4): 20 values from 1e-6 to 1e6.
C_GRID: tuple[float, ...] = tuple(float(c) for c in np.logspace(-6, 6, 20))
#: The paper's grid of neighbours per block of phi (section 3.4).
K_GRID: tuple[int, ...] = tuple(range(10, 101, 10))
#: Our grid of RBF widths for the standardised plain features (1 / n_features = 0.1 is the middle).
GAMMA_GRID: tuple[float, ...] = tuple(float(g) for g in np.logspace(-2, 1, 7))
#: libsvm iterations after which a binary SVM counts as not converged.
MAX_ITER: int = 100_000
#: The rows of the paper's Table 7 that the book recomputes, and what recomputes each: a method of :func:`tune`, or
#: ``"1nn"`` for :func:`nearest_neighbour_scores`.
TABLE7_ROWS: dict[str, str] = {"SVM with plain features": "plain", "SVM with only meta-level features": "meta",
                               "Nearest Neighbor": "1nn"}
_BOOK_GRIDS: dict[str, dict[str, tuple]] = {
    "quick": {"C": tuple(float(c) for c in np.logspace(-3, 3, 7)), "k": (10, 40), "gamma": (0.1, 1.0)},
    "full": {"C": C_GRID, "k": K_GRID, "gamma": GAMMA_GRID},
}
_WIDEN_POINTS = 4
_MAX_WIDEN = 2
_PARAM_NAME = {"plain": None, "rbf": "gamma", "meta": "k"}
_ROWS_PER_SPEAKER = 66


def book_grids(profile: str | None = None) -> dict[str, tuple]:
    """The grids the book's vowel chapter tunes over: ``{"C": ..., "k": ..., "gamma": ...}``.

    The paper's grids (:data:`C_GRID`, :data:`K_GRID`, :data:`GAMMA_GRID`) under the full profile; seven ``C``
    values from 1e-3 to 1e3 and two values of ``k`` and ``gamma`` under the quick one. ``profile`` defaults to
    ``LABELRANK_PROFILE``.
    """
    return dict(_BOOK_GRIDS[resolve(profile)])


def _check_method(method: Any) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return method


def _check_one_hot(Y: Any, name: str = "Y") -> np.ndarray:
    """A 0/1 matrix with exactly one 1 per row (single-label data), as int64."""
    Y = check_label_matrix(Y, name)
    per_row = Y.sum(axis=1)
    bad = np.flatnonzero(per_row != 1)
    if bad.size:
        raise ValueError(
            f"{name} must be one-hot (exactly one 1 per row); row {bad[0]} has {per_row[bad[0]]} ones "
            f"({bad.size} such rows)"
        )
    return Y


def _check_X_Y(X: Any, Y: Any, x_name: str = "X", y_name: str = "Y") -> tuple[np.ndarray, np.ndarray]:
    X = as_2d_array(X, x_name)
    if not np.isfinite(X).all():
        raise ValueError(f"{x_name} must be finite (no NaN or infinity)")
    Y = _check_one_hot(Y, y_name)
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"{x_name} and {y_name} must have the same number of rows, got {X.shape[0]} and "
                         f"{Y.shape[0]}")
    return X, Y


def error_rate(Y: Any, scores: Any) -> float:
    """Multi-class error rate: the share of instances whose top-scoring class is not their class.

    For single-label data this is the One-error of eq. (17) (:func:`labelrank.metrics.one_error`), with a tie
    for the top score counted as an error (``ties="pessimistic"``).

    Parameters
    ----------
    Y : array-like of shape (n_instances, n_classes)
        One-hot true classes.
    scores : array-like of shape (n_instances, n_classes)
        Finite class scores, higher = more likely.

    Returns
    -------
    float
        In [0, 1], lower is better.

    Examples
    --------
    >>> error_rate([[1, 0, 0], [0, 1, 0]], [[0.9, 0.5, 0.1], [0.9, 0.5, 0.1]])
    0.5
    """
    Y = _check_one_hot(Y)
    return float(one_error(Y, scores, ties="pessimistic"))


def speakers(n_rows: int) -> np.ndarray:
    """Speaker of each row of the ESL *vowel* files: row ``i`` was spoken by speaker ``i // 66``.

    Each speaker said each of the 11 words once, and six frames were cut from the steady part of every
    utterance (Deterding 1989, in ``vowel.info.txt``): 66 rows per speaker, 8 speakers in the training file and 7
    in the test file. The files do not name the speakers; the row order does (the rows cycle through the classes
    1..11, and the distance between consecutive cycles jumps every sixth cycle, at a change of speaker).
    """
    n_rows = check_positive_int(n_rows, "n_rows")
    if n_rows % _ROWS_PER_SPEAKER:
        raise ValueError(f"n_rows must be a multiple of {_ROWS_PER_SPEAKER} (rows per speaker), got {n_rows}")
    return np.arange(n_rows) // _ROWS_PER_SPEAKER


def cv_folds(Y: Any, n_folds: int = 5, seed: int = 0,
             groups: Any = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """(fitting rows, validation rows) of ``n_folds``-fold cross-validation, shuffled with ``seed``.

    Without ``groups`` the folds are stratified by class (:class:`~sklearn.model_selection.StratifiedKFold`), the
    paper's protocol; with ``groups`` (e.g. :func:`speakers`) all rows of a group fall in the same fold
    (:class:`~sklearn.model_selection.GroupKFold`).
    """
    Y = _check_one_hot(Y)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    seed = check_positive_int(seed, "seed", minimum=0)
    y = Y.argmax(axis=1)
    if groups is None:
        splitter = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
        return list(splitter.split(np.zeros((y.size, 1)), y))
    groups = np.asarray(groups)
    if groups.shape != y.shape:
        raise ValueError(f"groups must have one entry per row of Y, shape {y.shape}, got {groups.shape}")
    if np.unique(groups).size < n_folds:
        raise ValueError(f"groups must have at least n_folds={n_folds} distinct values, got {np.unique(groups).size}")
    splitter = GroupKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return list(splitter.split(np.zeros((y.size, 1)), y, groups))


def plain_features(X_fit: np.ndarray, X_eval: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The plain features standardised with the fitting instances' mean and standard deviation."""
    scaler = StandardScaler().fit(X_fit)
    return scaler.transform(X_fit), scaler.transform(X_eval)


def meta_features(X_fit: np.ndarray, Y_fit: np.ndarray, X_eval: np.ndarray,
                  k_max: int) -> tuple[NeighborDistances, NeighborDistances]:
    """phi(x, c) of the fitting instances (each excluded from its own neighbours) and of new instances at
    ``k_max``, sliceable to any smaller ``k`` (:class:`labelrank.features.NeighborDistances`)."""
    mlf = MetaLevelFeatures(k=check_positive_int(k_max, "k_max"), n_jobs=1).fit(X_fit, Y_fit)
    return mlf.neighbor_distances(), mlf.neighbor_distances(X_eval)


def features(method: Method, X_fit: Any, Y_fit: Any, X_eval: Any,
             k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The representation of a method (see the module docstring) for fitting and new instances.

    Parameters
    ----------
    method : {"plain", "rbf", "meta"}
    X_fit, Y_fit : array-like
        Fitting instances and their one-hot classes.
    X_eval : array-like
        New instances.
    k : int, optional
        Neighbours per block of phi; required for ``"meta"``, ignored otherwise.

    Returns
    -------
    A_fit : numpy.ndarray of shape (n_fit, n_features)
    A_eval : numpy.ndarray of shape (n_eval, n_features)
        ``n_features`` is 10 for the plain features and ``n_classes * (3k + 2)`` for ``"meta"``, whose column
        ``c * (3k + 2) + j`` is value ``j`` of phi(x, c) in the order of eq. (1).
    """
    method = _check_method(method)
    X_fit, Y_fit = _check_X_Y(X_fit, Y_fit, "X_fit", "Y_fit")
    X_eval = as_2d_array(X_eval, "X_eval")
    if method != "meta":
        return plain_features(X_fit, X_eval)
    if k is None:
        raise ValueError("k must be a positive integer for method='meta', got None")
    k = check_positive_int(k, "k")
    Z_fit, Z_eval = meta_features(X_fit, Y_fit, X_eval, k)
    return concatenated_meta_features(Z_fit.values, Z_eval.values, k, k)


def gram(A_fit: np.ndarray, A_eval: np.ndarray, gamma: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Kernel matrices ``K_fit = k(A_fit, A_fit)`` and ``K_eval = k(A_eval, A_fit)``: the inner product when
    ``gamma`` is None, else the RBF kernel :math:`\\exp(-\\gamma \\lVert a - a' \\rVert^2)`."""
    if gamma is None:
        return A_fit @ A_fit.T, A_eval @ A_fit.T
    gamma = check_real(gamma, "gamma", low=0, low_inclusive=False)
    return rbf_kernel(A_fit, gamma=gamma), rbf_kernel(A_eval, A_fit, gamma=gamma)


def fit_ovr_svm(K_fit: np.ndarray, Y_fit: Any, C: float, *, max_iter: int = MAX_ITER) -> list[SVC] | None:
    """One binary SVM per class (this class vs the rest) on a precomputed kernel.

    Parameters
    ----------
    K_fit : numpy.ndarray of shape (n_fit, n_fit)
        Kernel matrix of the fitting instances (:func:`gram`).
    Y_fit : array-like of shape (n_fit, n_classes)
        One-hot classes; every class needs a member and a non-member.
    C : float
        Weight of the hinge loss (positive).
    max_iter : int
        libsvm's iteration limit per binary SVM.

    Returns
    -------
    list of sklearn.svm.SVC, or None
        The ``n_classes`` fitted SVMs, or None as soon as one of them stops at ``max_iter`` iterations (the
        remaining classes are then not fitted).
    """
    Y_fit = _check_one_hot(Y_fit, "Y_fit")
    C = check_real(C, "C", low=0, low_inclusive=False)
    max_iter = check_positive_int(max_iter, "max_iter")
    K_fit = np.asarray(K_fit, dtype=np.float64)
    if K_fit.shape != (Y_fit.shape[0], Y_fit.shape[0]):
        raise ValueError(f"K_fit must have shape (n_fit, n_fit) = {(Y_fit.shape[0],) * 2}, got {K_fit.shape}")
    counts = Y_fit.sum(axis=0)
    if counts.min() == 0 or counts.max() == Y_fit.shape[0]:
        raise ValueError("Y_fit needs at least one member and one non-member of every class (column)")
    models = []
    for c in range(Y_fit.shape[1]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # reported through the return value instead
            svm = SVC(kernel="precomputed", C=C, max_iter=max_iter).fit(K_fit, Y_fit[:, c])
        if svm.fit_status_ != 0:
            return None
        models.append(svm)
    return models


def ovr_scores(models: list[SVC], K_eval: np.ndarray) -> np.ndarray:
    """Scores (signed distances to each class's hyperplane) of shape (n_eval, n_classes)."""
    return np.column_stack([svm.decision_function(K_eval) for svm in models])


def primal_weights(models: list[SVC], A_fit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weights ``w_c`` and biases ``b_c`` of linear-kernel SVMs: :math:`w_c = \\sum_i \\alpha_i y_{ic} a_i`.

    Returns
    -------
    W : numpy.ndarray of shape (n_classes, n_features)
    b : numpy.ndarray of shape (n_classes,)
        The score of class ``c`` for a representation ``a`` is ``W[c] @ a + b[c]``.
    """
    W = np.vstack([svm.dual_coef_[0] @ A_fit[svm.support_] for svm in models])
    return W, np.array([svm.intercept_[0] for svm in models])


def nearest_neighbour_scores(X_train: Any, Y_train: Any, X_eval: Any) -> np.ndarray:
    """The nearest-neighbour rule read off the meta-level features: minus the L2 distance from each new instance
    to the nearest training member of each class, the first value of phi(x, c) (eq. 1). The top score is the
    class of the (Euclidean) nearest neighbour."""
    X_train, Y_train = _check_X_Y(X_train, Y_train, "X_train", "Y_train")
    return -MetaLevelFeatures(k=1, n_jobs=1).fit(X_train, Y_train).transform(as_2d_array(X_eval, "X_eval"))[:, :, 0]


# ----------------------------------------------------------------------------------------------------------------
# Cross-validation
# ----------------------------------------------------------------------------------------------------------------


#: The version of the numbers :func:`cv_errors` caches (its cache key holds it with the inputs): bump it when a
#: change to this module or to the meta-level features moves an error rate. No file name or source text is part
#: of the key, so moving code keeps the cache.
CV_VERSION = 1


def _check_grid(values: Any, name: str, kind: Literal["k", "real"]) -> tuple:
    values = tuple(values)
    if not values:
        raise ValueError(f"{name} must not be empty")
    if kind == "k":
        return tuple(check_positive_int(v, name) for v in values)
    return tuple(check_real(v, name, low=0, low_inclusive=False) for v in values)


def _cv_errors_uncached(method: str, X: np.ndarray, Y: np.ndarray, params: tuple, C_values: tuple, n_folds: int,
                        seed: int, groups: np.ndarray | None, max_iter: int, version: int,
                        progress: bool) -> pd.DataFrame:
    folds = cv_folds(Y, n_folds, seed, groups)
    dead: set[tuple] = set()  # (param, C) not converged in some fold: not evaluated further
    errors = {(p, C): [] for p in params for C in C_values}
    k_max = max(params) if method == "meta" else None
    for fit, val in tqdm(folds, desc=f"{method}: folds", disable=not progress, leave=False):
        if method == "meta":
            Z_fit, Z_val = meta_features(X[fit], Y[fit], X[val], k_max)
        else:
            A_fit, A_val = plain_features(X[fit], X[val])
        for p in params:
            if method == "meta":
                A_fit, A_val = concatenated_meta_features(Z_fit.values, Z_val.values, p, k_max)
            K_fit, K_val = gram(A_fit, A_val, p if method == "rbf" else None)
            for C in C_values:
                if (p, C) in dead:
                    continue
                models = fit_ovr_svm(K_fit, Y[fit], C, max_iter=max_iter)
                if models is None:
                    dead.add((p, C))
                    continue
                errors[(p, C)].append(error_rate(Y[val], ovr_scores(models, K_val)))
    rows = []
    for (p, C), errs in errors.items():
        ok = (p, C) not in dead
        rows.append({"param": p, "C": C, "error": float(np.mean(errs)) if ok else np.nan,
                     "error_std": float(np.std(errs)) if ok else np.nan, "converged": ok})
    return pd.DataFrame(rows)


def cv_errors(method: Method, X: Any, Y: Any, params: Any, C_values: Any, *, n_folds: int = 5, seed: int = 0,
              groups: Any = None, max_iter: int = MAX_ITER, cache: bool = True,
              progress: bool = False) -> pd.DataFrame:
    """Mean validation error rate of every grid point (``params`` x ``C_values``) in cross-validation.

    Parameters
    ----------
    method : {"plain", "rbf", "meta"}
    X, Y : array-like
        Training instances and their one-hot classes.
    params : sequence
        ``k`` values for ``"meta"``, ``gamma`` values for ``"rbf"``, ignored for ``"plain"`` (one point per ``C``).
    C_values : sequence of float
    n_folds, seed : int
        The folds (:func:`cv_folds`).
    groups : array-like of shape (n_instances,), optional
        Rows that must share a fold (:func:`cv_folds`); None: stratified folds.
    max_iter : int
        libsvm's iteration limit per binary SVM (:func:`fit_ovr_svm`).
    cache : bool
        Read and write the disk cache (see the module docstring).
    progress : bool
        Show a progress bar over the folds.

    Returns
    -------
    pandas.DataFrame
        One row per grid point, in grid order: the parameter column (``k`` or ``gamma``; none for ``"plain"``),
        ``C``, ``error`` (mean over the folds), ``error_std`` (their standard deviation) and ``converged``
        (False: some binary SVM stopped at ``max_iter``; ``error`` is then NaN).
    """
    method = _check_method(method)
    X, Y = _check_X_Y(X, Y)
    params = (None,) if method == "plain" else _check_grid(params, "params", "k" if method == "meta" else "real")
    C_values = _check_grid(C_values, "C_values", "real")
    args = (method, X, Y, params, C_values, check_positive_int(n_folds, "n_folds", minimum=2),
            check_positive_int(seed, "seed", minimum=0), None if groups is None else np.asarray(groups),
            check_positive_int(max_iter, "max_iter"), CV_VERSION, progress)
    if cache:
        table = ResultCache(_cv_errors_uncached, "cv_errors", root=cache_dir() / "vowel", ignore=("progress",))(*args)
    else:
        table = _cv_errors_uncached(*args)
    name = _PARAM_NAME[method]
    return table.drop(columns="param") if name is None else table.rename(columns={"param": name})


@dataclass(frozen=True)
class TuneResult:
    """The outcome of :func:`tune`.

    Attributes
    ----------
    method : str
    cv : pandas.DataFrame
        :func:`cv_errors` of every grid point evaluated, the widened ``C`` values included.
    params : dict
        The chosen grid point: ``{"C": ...}`` plus ``"k"`` (meta) or ``"gamma"`` (rbf).
    cv_error : float
        Its mean validation error rate.
    n_widened : int
        How many times the ``C`` grid was widened.
    """

    method: str
    cv: pd.DataFrame
    params: dict[str, float]
    cv_error: float
    n_widened: int

    @property
    def n_not_converged(self) -> int:
        """Grid points where some binary SVM stopped at the iteration limit."""
        return int((~self.cv["converged"]).sum())


def _in_grid_order(table: pd.DataFrame, method: str) -> pd.DataFrame:
    name = _PARAM_NAME[method]
    return table.sort_values(([name] if name else []) + ["C"], kind="stable", ignore_index=True)


def _best(table: pd.DataFrame) -> pd.Series:
    ok = table[table["converged"]]
    if ok.empty:
        raise RuntimeError("no grid point converged; raise max_iter or lower the C grid")
    return ok.loc[ok["error"].idxmin()]  # idxmin: the first minimum in grid order


def tune(method: Method, X: Any, Y: Any, params: Any = (None,), C_grid: Any = C_GRID, *, n_folds: int = 5,
         seed: int = 0, groups: Any = None, max_iter: int = MAX_ITER, cache: bool = True,
         progress: bool = False) -> TuneResult:
    """Choose the grid point of lowest cross-validated error rate, widening the ``C`` grid on boundary hits.

    Parameters are those of :func:`cv_errors`; ``C_grid`` is sorted first. Ties go to the first grid point in the
    order (parameter, ``C``), both ascending.

    Returns
    -------
    TuneResult
    """
    method = _check_method(method)
    C_values = sorted(_check_grid(C_grid, "C_grid", "real"))
    kwargs = dict(n_folds=n_folds, seed=seed, groups=groups, max_iter=max_iter, cache=cache, progress=progress)
    table = cv_errors(method, X, Y, params, C_values, **kwargs)
    widened = {"low": 0, "high": 0}
    while True:
        best = _best(table)
        side = "low" if best["C"] == C_values[0] else "high" if best["C"] == C_values[-1] else None
        if side is None or widened[side] == _MAX_WIDEN:
            break
        grown = widen_grid(C_values, side, _WIDEN_POINTS)
        new = [c for c in grown if c not in C_values]
        table = _in_grid_order(pd.concat([table, cv_errors(method, X, Y, params, new, **kwargs)]), method)
        C_values = grown
        widened[side] += 1
    name = _PARAM_NAME[method]
    chosen = {"C": float(best["C"])}
    if name == "k":
        chosen["k"] = int(best["k"])
    elif name == "gamma":
        chosen["gamma"] = float(best["gamma"])
    return TuneResult(method, table, chosen, float(best["error"]), widened["low"] + widened["high"])


def tune_plain_svm(X: Any, Y: Any, C_grid: Any = C_GRID, **kwargs) -> TuneResult:
    """:func:`tune` for the one-vs-rest linear SVM on the standardised plain features."""
    return tune("plain", X, Y, (None,), C_grid, **kwargs)


def tune_rbf_svm(X: Any, Y: Any, gamma_grid: Any = GAMMA_GRID, C_grid: Any = C_GRID, **kwargs) -> TuneResult:
    """:func:`tune` for the one-vs-rest RBF-kernel SVM on the standardised plain features."""
    return tune("rbf", X, Y, gamma_grid, C_grid, **kwargs)


def tune_meta_svm(X: Any, Y: Any, k_grid: Any = K_GRID, C_grid: Any = C_GRID, **kwargs) -> TuneResult:
    """:func:`tune` for the one-vs-rest linear SVM on the flattened, standardised meta-level features."""
    return tune("meta", X, Y, k_grid, C_grid, **kwargs)


# ----------------------------------------------------------------------------------------------------------------
# Test set
# ----------------------------------------------------------------------------------------------------------------


def held_out_scores(method: Method, params: dict[str, float], X_train: Any, Y_train: Any, X_test: Any, *,
                    max_iter: int = MAX_ITER) -> tuple[np.ndarray, list[SVC], np.ndarray]:
    """Fit a method on the whole training set with ``params`` (e.g. ``TuneResult.params``) and score new data.

    Returns
    -------
    scores : numpy.ndarray of shape (n_test, n_classes)
    models : list of sklearn.svm.SVC
    A_train : numpy.ndarray
        The training instances' representation (for :func:`primal_weights`).

    Raises
    ------
    RuntimeError
        If a binary SVM stops at ``max_iter`` iterations.
    """
    method = _check_method(method)
    if not isinstance(params, dict) or "C" not in params:
        raise TypeError(f"params must be a dict with key 'C' (and 'k' or 'gamma'), got {params!r}")
    name = _PARAM_NAME[method]
    if name is not None and name not in params:
        raise ValueError(f"params must contain {name!r} for method={method!r}, got {params!r}")
    A_train, A_test = features(method, X_train, Y_train, X_test, k=params.get("k"))
    K_train, K_test = gram(A_train, A_test, params.get("gamma") if method == "rbf" else None)
    Y_train = _check_one_hot(Y_train, "Y_train")
    models = fit_ovr_svm(K_train, Y_train, params["C"], max_iter=max_iter)
    if models is None:
        raise RuntimeError(f"a binary SVM did not converge in max_iter={max_iter} iterations at {params}")
    return ovr_scores(models, K_test), models, A_train


def held_out_error(method: Method, params: dict[str, float], X_train: Any, Y_train: Any, X_test: Any, Y_test: Any, *,
                   max_iter: int = MAX_ITER) -> float:
    """Test error rate (:func:`error_rate`) of a method fitted on the whole training set with ``params``."""
    scores, _, _ = held_out_scores(method, params, X_train, Y_train, X_test, max_iter=max_iter)
    return error_rate(Y_test, scores)
