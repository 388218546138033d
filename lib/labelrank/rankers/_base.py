"""The rankers' shared parts: input checks, standardisation statistics, chunked linear scores, base classes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from labelrank.parameters import POSITIVE, SEED, DeclaredParameters, Flag, Integer, NoneOr
from labelrank.validation import check_label_matrix, describe_value

_CHUNK_ELEMENTS = 2**22  # elements of Z (n_chunk * m * d) processed at once by the chunked linear algebra

# ----------------------------------------------------------------------------------------------------------------
# validation and small helpers
# ----------------------------------------------------------------------------------------------------------------


def check_meta_features(Z: Any, name: str = "Z") -> np.ndarray:
    """Validate a meta-level feature array of shape (n_instances, n_labels, n_features) and return it.

    float32 and float64 arrays are returned as they are (no copy); other numeric types are converted to float64.

    Parameters
    ----------
    Z : array-like of shape (n_instances, n_labels, n_features)
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    TypeError
        If ``Z`` is None, a string, a scipy sparse matrix or non-numeric.
    ValueError
        If ``Z`` is not 3-D, has an empty dimension, or holds NaN or infinite values (the message shows the
        first offending entry).

    Examples
    --------
    >>> import numpy as np
    >>> check_meta_features(np.zeros((2, 3, 4), dtype=np.float32)).dtype
    dtype('float32')
    >>> check_meta_features(np.zeros((2, 3)))
    Traceback (most recent call last):
        ...
    ValueError: Z must be 3-D (n_instances, n_labels, n_features), got shape (2, 3)
    """
    if Z is None or isinstance(Z, (str, bytes)) or hasattr(Z, "tocsr"):
        raise TypeError(f"{name} must be a 3-D array (n_instances, n_labels, n_features), got {describe_value(Z)}")
    try:
        arr = np.asarray(Z)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 3:
        raise ValueError(f"{name} must be 3-D (n_instances, n_labels, n_features), got shape {arr.shape}")
    if 0 in arr.shape:
        raise ValueError(f"{name} must not have an empty dimension, got shape {arr.shape}")
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if not np.isfinite(np.sum(arr, dtype=np.float64)):  # cheap test; locate the culprit only if it fails
        bad = np.argwhere(~np.isfinite(arr))[0]
        where = tuple(int(b) for b in bad)
        raise ValueError(f"{name} must be finite, got {arr[where].item()!r} at position {where}")
    return arr


def _check_Z_Y(Z: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
    Z = check_meta_features(Z, "Z")
    if Y is None:
        raise ValueError("Y must be a label matrix of shape (n_instances, n_labels), got None")
    Y = check_label_matrix(Y, "Y")
    if Y.shape != Z.shape[:2]:
        raise ValueError(
            f"Y must have shape (n_instances, n_labels) = {Z.shape[:2]} to match Z of shape {Z.shape}, got {Y.shape}"
        )
    return Z, Y


def _chunk_rows(Z: np.ndarray) -> int:
    return max(1, _CHUNK_ELEMENTS // (Z.shape[1] * Z.shape[2]))


def _moments(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-feature mean and standard deviation over all (instance, label) pairs, in float64, chunk by chunk."""
    n, m, d = Z.shape
    step = _chunk_rows(Z)
    total = np.zeros(d)
    for start in range(0, n, step):
        total += Z[start : start + step].reshape(-1, d).sum(axis=0, dtype=np.float64)
    mean = total / (n * m)
    sq = np.zeros(d)
    for start in range(0, n, step):
        centred = Z[start : start + step].reshape(-1, d).astype(np.float64) - mean
        sq += np.einsum("ij,ij->j", centred, centred)
    std = np.sqrt(sq / (n * m))
    scale = np.where(std > 1e-12 * np.maximum(1.0, np.abs(mean)), std, 1.0)
    return mean, scale


def _linear_scores(Z: np.ndarray, w: np.ndarray, b: float = 0.0) -> np.ndarray:
    """``Z @ w + b`` of shape (n, m) in float64, computed chunk by chunk in ``Z``'s dtype (no full copy of Z)."""
    n, m, d = Z.shape
    out = np.empty((n, m))
    wz = w.astype(Z.dtype)
    step = _chunk_rows(Z)
    for start in range(0, n, step):
        out[start : start + step] = Z[start : start + step] @ wz
    out += b
    return out



# ----------------------------------------------------------------------------------------------------------------
# the rankers
# ----------------------------------------------------------------------------------------------------------------


class _Ranker(DeclaredParameters, BaseEstimator):
    """Shared plumbing: parameter and input checks, standardisation statistics, scoring of new data.

    Subclasses declare ``parameter_constraints`` (:mod:`labelrank.parameters`) and implement ``_fit(Z, Y)`` and
    ``_scores(Z)``.
    """

    _standardizes = True

    def fit(self, Z: Any, Y: Any) -> _Ranker:
        """Learn the scoring function from meta-level features ``Z`` (n, m, d) and 0/1 labels ``Y`` (n, m)."""
        Z, Y = self._prepare(Z, Y)
        self._fit(Z, Y)
        return self

    def _prepare(self, Z: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
        """Check the parameters and the input, set ``n_features_in_`` and the standardisation statistics."""
        self.check_params()
        Z, Y = _check_Z_Y(Z, Y)
        self.n_features_in_ = Z.shape[2]
        if self._standardizes and self.standardize:
            self.mean_, self.scale_ = _moments(Z)
        else:
            self.mean_, self.scale_ = np.zeros(Z.shape[2]), np.ones(Z.shape[2])
        return Z, Y

    def _take_preparation(self, template: _Ranker) -> None:
        """Take what ``template._prepare`` set (``n_features_in_``, the standardisation statistics) rather than
        compute it again: the fits of a grid on one data set (``fit_path``, ``fit_learning_rates``)."""
        self.n_features_in_, self.mean_, self.scale_ = template.n_features_in_, template.mean_, template.scale_

    def _fit_learning_rates(self, Z: Any, Y: Any, learning_rates: Sequence[float]) -> list[_Ranker]:
        """``fit_learning_rates`` of the rankers that train every rate of a grid at once: the subclass's
        ``_train(Z, Y, rates)`` gives one tuple per rate, which ``_set_trained`` stores on a fitted copy."""
        if isinstance(learning_rates, (str, bytes)) or not hasattr(learning_rates, "__len__"):
            raise TypeError(f"learning_rates must be a sequence of positive floats, got {learning_rates!r}")
        rates = [POSITIVE.check(r, f"learning_rates[{j}]") for j, r in enumerate(learning_rates)]
        if not rates:
            raise ValueError("learning_rates must hold at least one learning rate, got an empty sequence")
        template = clone(self)  # this ranker itself stays unfitted
        Z, Y = template._prepare(Z, Y)
        fitted = []
        for rate, trained in zip(rates, template._train(Z, Y, rates)):
            est = clone(self).set_params(learning_rate=rate)
            est._take_preparation(template)
            est._set_trained(*trained)
            fitted.append(est)
        return fitted

    def decision_function(self, Z: Any) -> np.ndarray:
        """Scores :math:`f(\\phi(x_i, c))` of shape (n, m), higher = more relevant; any number of labels m."""
        check_is_fitted(self, "n_features_in_")
        Z = check_meta_features(Z, "Z")
        if Z.shape[2] != self.n_features_in_:
            raise ValueError(
                f"Z has {Z.shape[2]} features per (instance, label) pair, but {type(self).__name__} was fitted "
                f"with {self.n_features_in_}"
            )
        return self._scores(Z)

    def _training_scores(self, Z: np.ndarray) -> np.ndarray:
        """The scores of the instances this ranker was just fitted on, ``Z`` (checked): ``decision_function(Z)``,
        or the same numbers kept from the fit where the fit computed them (LightGBM's booster updates its training
        scores tree by tree; they are handed out once and not kept). :class:`labelrank.MetaLevelRanker` fits its
        threshold on them."""
        kept = self.__dict__.pop("_fit_scores", None)
        if kept is not None and kept.shape == Z.shape[:2]:
            return kept
        return self.decision_function(Z)

    def _standardized(self, Zb: np.ndarray) -> np.ndarray:
        """``(Zb - mean_) / scale_`` in float64, in C order whatever the layout of ``Zb`` (the cached meta-level
        features are stored feature-major, and a batch gathered from them keeps that layout), in one new array."""
        out = np.subtract(Zb, self.mean_, dtype=np.float64, order="C")
        return np.divide(out, self.scale_, out=out)


class _LinearRanker(_Ranker):
    """A linear scoring function ``coef_ . (phi - mean_) / scale_ + intercept_``."""

    def _scores(self, Z: np.ndarray) -> np.ndarray:
        w = self.coef_ / self.scale_
        return _linear_scores(Z, w, self.intercept_ - float(self.mean_ @ w))


class _SVMRanker(_LinearRanker):
    """The SVM rankers' shared parameters: ``C``, the solver's ``tol`` and ``max_iter``, ``standardize``, a seed.

    ``tol`` and ``max_iter`` may be None where the subclass has solver defaults (:meth:`_default_tolerances`).
    """

    parameter_constraints = {"C": POSITIVE, "tol": NoneOr(POSITIVE), "max_iter": NoneOr(Integer()),
                             "standardize": Flag(), "random_state": SEED}

    def __init__(self, C: float, tol: float = 1e-3, max_iter: int = 1000, standardize: bool = True,
                 random_state: int = 0):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.standardize = standardize
        self.random_state = random_state

    def check_params(self) -> _SVMRanker:
        """Check the declared parameters, then set ``tol_``, ``max_iter_``: ``tol`` and ``max_iter``, or where they
        are None the solver's defaults (:meth:`_default_tolerances`); ``self``."""
        super().check_params()
        default_tol, default_max_iter = self._default_tolerances()
        self.tol_ = default_tol if self.tol is None else self.tol
        self.max_iter_ = default_max_iter if self.max_iter is None else self.max_iter
        return self

    def fit_path(self, Z: Any, Y: Any, Cs: Sequence[float]) -> list[_SVMRanker]:
        """One fitted copy of this ranker per value of ``C``, each starting from the previous one's solution.

        Element ``j`` solves the problem of ``clone(self).set_params(C=Cs[j]).fit(Z, Y)`` to the same tolerance,
        starting from the solution at ``Cs[j - 1]``: RankSVM-IR builds its pairs and rows once and starts from
        the last weights (with "alm", :func:`~labelrank.rankers.pairwise_newton.fit_pairwise_hinge_alm_path`) or
        dual point; SVM-MAP from the last working set (as refits with ``warm_start=True``). So each fit is the
        cold fit's optimum within the solver's tolerance, not the same floating-point numbers. Along an
        increasing grid of ``C`` this saves most of the work (``benchmarks/bench_protocol.py --compare``).

        Parameters
        ----------
        Z : array-like of shape (n, m, d)
        Y : array-like of shape (n, m)
        Cs : sequence of float
            Positive values of ``C`` (repeats allowed), fitted in this order.

        Returns
        -------
        list
            The fitted rankers, in the order of ``Cs``; this ranker itself stays unfitted.

        Examples
        --------
        >>> import numpy as np
        >>> from labelrank.rankers import RankSVMIR
        >>> rng = np.random.default_rng(0)
        >>> Y = rng.integers(0, 2, size=(40, 4)); Z = rng.normal(size=(40, 4, 3)); Z[..., 0] += 2 * Y
        >>> path = RankSVMIR().fit_path(Z, Y, [0.01, 0.1, 1.0])
        >>> alone = RankSVMIR(C=1.0).fit(Z, Y)
        >>> [r.C for r in path], bool(np.allclose(path[-1].coef_, alone.coef_, atol=1e-3))
        ([0.01, 0.1, 1.0], True)
        """
        if isinstance(Cs, (str, bytes)) or not hasattr(Cs, "__len__"):
            raise TypeError(f"Cs must be a sequence of positive floats, got {Cs!r}")
        values = [POSITIVE.check(c, f"Cs[{j}]") for j, c in enumerate(Cs)]
        if not values:
            raise ValueError("Cs must hold at least one value of C, got an empty sequence")
        return self._path(Z, Y, values)  # each subclass's own way of starting from the last solution

    def _default_tolerances(self) -> tuple[float | None, int | None]:
        """The (tol, max_iter) that None stands for; None here: the ranker needs both given."""
        return None, None
