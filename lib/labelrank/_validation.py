"""Input validation shared by every module of :mod:`labelrank`.

Each checker converts its argument to a dense :class:`numpy.ndarray` (scipy sparse matrices are densified), checks
one property and raises :class:`TypeError` (wrong kind of object) or :class:`ValueError` (right kind, bad value)
with a message that names the argument and shows the offending value, in the style of scikit-learn's
``sklearn.utils.validation``.

The public helpers are

* :func:`as_2d_array` -- any array-like or sparse matrix to a dense 2-D array;
* :func:`check_label_matrix` -- a 0/1 label matrix ``Y`` of shape (n_instances, n_labels);
* :func:`check_score_matrix` -- a finite real score matrix;
* :func:`check_same_shape` -- two arrays of equal shape;
* :func:`check_labels_and_scores` / :func:`check_labels_and_predictions` -- the pairs the metrics take;
* :func:`check_positive_int` -- an integer hyper-parameter such as ``k``.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
import scipy.sparse as sp

__all__ = [
    "as_2d_array",
    "check_label_matrix",
    "check_score_matrix",
    "check_same_shape",
    "check_labels_and_scores",
    "check_labels_and_predictions",
    "check_positive_int",
]


def _describe(value: Any, limit: int = 60) -> str:
    """A short ``repr`` of ``value`` for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_2d_array(X: Any, name: str = "X") -> np.ndarray:
    """Return ``X`` as a dense, non-empty, numeric 2-D :class:`numpy.ndarray`.

    Parameters
    ----------
    X : array-like or scipy.sparse matrix
        The input; sparse matrices and arrays are converted with ``toarray()``.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    numpy.ndarray
        A 2-D array (a view of ``X`` when no conversion is needed).

    Raises
    ------
    TypeError
        If ``X`` is ``None``, a string, or has a non-numeric dtype.
    ValueError
        If ``X`` is not 2-D or has no rows or no columns.
    """
    if X is None or isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a 2-D array or scipy sparse matrix, got {_describe(X)}")
    if sp.issparse(X):
        X = X.toarray()
    try:
        arr = np.asarray(X)
    except (TypeError, ValueError) as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype} in {_describe(X)}")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_instances, n_labels), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one row and one column, got shape {arr.shape}")
    return arr


def check_label_matrix(Y: Any, name: str = "Y", dtype: type = np.int64) -> np.ndarray:
    """Validate a label matrix with entries in {0, 1} and return it as ``dtype``.

    Parameters
    ----------
    Y : array-like or scipy.sparse matrix of shape (n_instances, n_labels)
        ``Y[i, j] = 1`` when label ``j`` is relevant to instance ``i``. Booleans are accepted.
    name : str
        The argument's name, used in error messages.
    dtype : numpy dtype
        The dtype of the returned array (``np.int64`` by default, ``bool`` for masks).

    Returns
    -------
    numpy.ndarray of shape (n_instances, n_labels)

    Raises
    ------
    ValueError
        If an entry is not 0 or 1 (NaN included); the message shows the first offending entry.

    Examples
    --------
    >>> check_label_matrix([[0, 1], [1, 1]]).tolist()
    [[0, 1], [1, 1]]
    """
    arr = as_2d_array(Y, name)
    bad = ~((arr == 0) | (arr == 1))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} must contain only 0 and 1, got {arr[i, j].item()!r} at position ({i}, {j})"
        )
    return arr.astype(dtype, copy=False)


def check_score_matrix(scores: Any, name: str = "scores") -> np.ndarray:
    """Validate a real-valued score matrix (higher = more relevant) and return it as float64.

    Parameters
    ----------
    scores : array-like or scipy.sparse matrix of shape (n_instances, n_labels)
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    numpy.ndarray of float64

    Raises
    ------
    ValueError
        If an entry is NaN or infinite; the message shows the first offending entry.
    """
    arr = as_2d_array(scores, name).astype(np.float64, copy=False)
    finite = np.isfinite(arr)
    if not finite.all():
        i, j = np.argwhere(~finite)[0]
        raise ValueError(
            f"{name} must be finite, got {arr[i, j].item()!r} at position ({i}, {j})"
        )
    return arr


def check_same_shape(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Raise :class:`ValueError` unless ``a`` and ``b`` have the same shape."""
    if np.shape(a) != np.shape(b):
        raise ValueError(
            f"{name_a} and {name_b} must have the same shape, got {np.shape(a)} and {np.shape(b)}"
        )


def check_labels_and_scores(
    Y: Any, scores: Any, y_name: str = "Y", scores_name: str = "scores"
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a label matrix and a score matrix of the same shape.

    Returns
    -------
    (Y, scores) : tuple of numpy.ndarray
        ``Y`` as int64 in {0, 1}, ``scores`` as finite float64.
    """
    Y = check_label_matrix(Y, y_name)
    scores = check_score_matrix(scores, scores_name)
    check_same_shape(Y, scores, y_name, scores_name)
    return Y, scores


def check_labels_and_predictions(
    Y: Any, Y_pred: Any, y_name: str = "Y", pred_name: str = "Y_pred"
) -> tuple[np.ndarray, np.ndarray]:
    """Validate two 0/1 matrices of the same shape (true labels and decisions).

    Returns
    -------
    (Y, Y_pred) : tuple of numpy.ndarray of bool
    """
    Y = check_label_matrix(Y, y_name, dtype=bool)
    Y_pred = check_label_matrix(Y_pred, pred_name, dtype=bool)
    check_same_shape(Y, Y_pred, y_name, pred_name)
    return Y, Y_pred


def check_positive_int(value: Any, name: str, minimum: int = 1) -> int:
    """Return ``value`` as ``int`` if it is an integer ``>= minimum``.

    Raises
    ------
    TypeError
        If ``value`` is not an integer (``bool`` is rejected too).
    ValueError
        If ``value < minimum``.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)
