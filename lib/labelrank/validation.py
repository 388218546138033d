"""Input validation shared by every module of the library (``labelrank``).

Each checker checks one property of its argument (the matrix checkers first convert it to a dense
:class:`numpy.ndarray`, scipy sparse matrices densified; :func:`check_fit_input` keeps a sparse ``X`` in CSR) and
raises :class:`TypeError` (wrong kind of object) or :class:`ValueError` (right kind, bad value) with a message that
names the argument and shows the offending value, in the style of scikit-learn's ``sklearn.utils.validation``.

The public helpers are

* :func:`as_2d_array` -- any array-like or sparse matrix to a dense 2-D array;
* :func:`check_label_matrix` -- a 0/1 label matrix ``Y`` of shape (n_instances, n_labels);
* :func:`check_score_matrix` -- a finite real score matrix;
* :func:`check_same_shape` -- two arrays of equal shape;
* :func:`check_labels_and_scores` / :func:`check_labels_and_predictions` -- the pairs the metrics take;
* :func:`check_positive_int` -- an integer hyper-parameter such as ``k``;
* :func:`check_real` -- a real hyper-parameter such as ``C`` or ``tol``, optionally within bounds;
* :func:`check_choice` -- one of a fixed set of options such as ``split`` or ``variant``;
* :func:`check_fit_input` -- the ``(X, Y)`` pair of an estimator's ``fit`` (``X`` dense or CSR, ``Y`` 0/1);
* :func:`check_magnitude` -- entries of ``X`` small enough for float64 squared distances.

Scalar checkers raise :class:`TypeError` for a value of the wrong kind (a string, ``None``, a ``bool`` where a number
is expected) and :class:`ValueError` for a value of the right kind outside the allowed set (NaN included).
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Sequence
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = [
    "as_2d_array",
    "check_label_matrix",
    "check_score_matrix",
    "check_same_shape",
    "check_labels_and_scores",
    "check_labels_and_predictions",
    "check_positive_int",
    "check_real",
    "check_choice",
    "check_fit_input",
    "check_magnitude",
]


def issparse(X: Any) -> bool:
    """Whether ``X`` is a scipy sparse matrix or array, without importing scipy (a sparse ``X`` has imported it)."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(X)


def _bounded_repr() -> reprlib.Repr:
    r = reprlib.Repr()
    r.maxlevel, r.maxstring, r.maxother = 3, 60, 60
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = r.maxfrozenset = r.maxdeque = r.maxarray = 6
    return r


_REPR = _bounded_repr()


def describe_value(value: Any, limit: int = 60) -> str:
    """A short ``repr`` of ``value`` for error messages, at most ``limit`` characters.

    The text is built with :mod:`reprlib`, which looks at a few items of a few levels only, so describing a huge
    or deeply shared object (a YAML "billion laughs" structure, a 1 MB string) costs little time and memory.
    """
    if isinstance(value, (str, bytes)) and len(value) > limit:
        value = value[:limit]
    text = repr(value) if isinstance(value, (int, float, str, bytes, type(None))) else _REPR.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to at most ``limit`` characters (with a note of the full length), for quoting user input."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 30]}... ({len(text):,} characters)"


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

    Examples
    --------
    >>> as_2d_array([[1, 2], [3, 4]]).shape
    (2, 2)
    >>> as_2d_array([1, 2])
    Traceback (most recent call last):
    ...
    ValueError: X must be 2-D (n_instances, n_labels), got shape (2,)
    """
    if X is None or isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a 2-D array or scipy sparse matrix, got {describe_value(X)}")
    if issparse(X):
        X = X.toarray()
    try:
        arr = np.asarray(X)
    except (TypeError, ValueError) as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype} in {describe_value(X)}")
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

    Examples
    --------
    >>> check_score_matrix([[0.5, 1]]).dtype
    dtype('float64')
    >>> check_score_matrix([[0.5, float("nan")]])
    Traceback (most recent call last):
    ...
    ValueError: scores must be finite, got nan at position (0, 1)
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
    """Raise :class:`ValueError` unless ``a`` and ``b`` have the same shape.

    Parameters
    ----------
    a, b : array-like
    name_a, name_b : str
        The arguments' names, used in the message.

    Examples
    --------
    >>> check_same_shape(np.zeros((2, 3)), np.zeros((2, 3)), "Y", "scores")
    >>> check_same_shape(np.zeros((2, 3)), np.zeros((3, 2)), "Y", "scores")
    Traceback (most recent call last):
    ...
    ValueError: Y and scores must have the same shape, got (2, 3) and (3, 2)
    """
    if np.shape(a) != np.shape(b):
        raise ValueError(
            f"{name_a} and {name_b} must have the same shape, got {np.shape(a)} and {np.shape(b)}"
        )


def check_labels_and_scores(
    Y: Any, scores: Any, y_name: str = "Y", scores_name: str = "scores"
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a label matrix and a score matrix of the same shape.

    Parameters
    ----------
    Y : array-like or scipy.sparse matrix of shape (n_instances, n_labels)
        0/1 labels (:func:`check_label_matrix`).
    scores : array-like or scipy.sparse matrix of the same shape
        Finite scores (:func:`check_score_matrix`).
    y_name, scores_name : str
        The arguments' names, used in error messages.

    Returns
    -------
    (Y, scores) : tuple of numpy.ndarray
        ``Y`` as int64 in {0, 1}, ``scores`` as finite float64.

    Examples
    --------
    >>> Y, s = check_labels_and_scores([[0, 1]], [[0.2, 0.9]])
    >>> Y.dtype, s.dtype
    (dtype('int64'), dtype('float64'))
    """
    Y = check_label_matrix(Y, y_name)
    scores = check_score_matrix(scores, scores_name)
    check_same_shape(Y, scores, y_name, scores_name)
    return Y, scores


def check_labels_and_predictions(
    Y: Any, Y_pred: Any, y_name: str = "Y", pred_name: str = "Y_pred"
) -> tuple[np.ndarray, np.ndarray]:
    """Validate two 0/1 matrices of the same shape (true labels and decisions).

    Parameters
    ----------
    Y, Y_pred : array-like or scipy.sparse matrix of shape (n_instances, n_labels)
        0/1 entries (:func:`check_label_matrix`).
    y_name, pred_name : str
        The arguments' names, used in error messages.

    Returns
    -------
    (Y, Y_pred) : tuple of numpy.ndarray of bool

    Examples
    --------
    >>> check_labels_and_predictions([[0, 1]], [[1, 2]])
    Traceback (most recent call last):
    ...
    ValueError: Y_pred must contain only 0 and 1, got 2 at position (0, 1)
    """
    Y = check_label_matrix(Y, y_name, dtype=bool)
    Y_pred = check_label_matrix(Y_pred, pred_name, dtype=bool)
    check_same_shape(Y, Y_pred, y_name, pred_name)
    return Y, Y_pred


def check_positive_int(value: Any, name: str, minimum: int = 1) -> int:
    """Return ``value`` as ``int`` if it is an integer ``>= minimum``.

    Parameters
    ----------
    value : object
        A Python or numpy integer (``bool`` is rejected).
    name : str
        The argument's name, used in error messages.
    minimum : int
        The smallest value allowed.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``value`` is not an integer (``bool`` is rejected too).
    ValueError
        If ``value < minimum``.

    Examples
    --------
    >>> check_positive_int(np.int64(3), "k")
    3
    >>> check_positive_int(0, "k")
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 1, got 0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {describe_value(value)}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def _bounds_text(low: float | None, high: float | None, low_inclusive: bool, high_inclusive: bool) -> str:
    """The allowed set of :func:`check_real` in words, e.g. ``"lie in [0, 1]"`` or ``"be positive and finite"``."""
    if low is not None and high is not None:
        return f"lie in {'[' if low_inclusive else '('}{low}, {high}{']' if high_inclusive else ')'}"
    if low is not None:
        if low == 0:
            return "be non-negative and finite" if low_inclusive else "be positive and finite"
        return f"be {'>=' if low_inclusive else '>'} {low} and finite"
    if high is not None:
        return f"be {'<=' if high_inclusive else '<'} {high} and finite"
    return "be finite"


def check_real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
) -> float:
    """Return ``value`` as ``float`` if it is a finite real number within the given bounds.

    Parameters
    ----------
    value : object
        The value to check: a Python or numpy integer or float (``bool`` is rejected).
    name : str
        The argument's name, used in error messages.
    low, high : float, optional
        Lower and upper bound; ``None`` leaves that side open (infinity is never accepted).
    low_inclusive, high_inclusive : bool
        Whether ``value == low`` (``value == high``) is allowed.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``value`` is not a real number (``None``, a string, a ``bool``, a complex number, an array).
    ValueError
        If ``value`` is NaN, infinite or outside the bounds; the message names the argument and the value.

    Examples
    --------
    >>> check_real(0.5, "p", low=0, high=1)
    0.5
    >>> check_real(0, "C", low=0, low_inclusive=False)
    Traceback (most recent call last):
    ...
    ValueError: C must be positive and finite, got 0
    """
    allowed = _bounds_text(low, high, low_inclusive, high_inclusive)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        kind = {"be positive and finite": "a positive number", "be non-negative and finite": "a non-negative number"}
        raise TypeError(f"{name} must be {kind.get(allowed, 'a real number')}, got {describe_value(value)}")
    x = float(value)
    ok = np.isfinite(x)
    if ok and low is not None:
        ok = x >= low if low_inclusive else x > low
    if ok and high is not None:
        ok = x <= high if high_inclusive else x < high
    if not ok:
        raise ValueError(f"{name} must {allowed}, got {value!r}")
    return x


def check_choice(value: Any, name: str, choices: Sequence[Any]) -> Any:
    """Return the entry of ``choices`` equal to ``value``; raise :class:`ValueError` naming the options if none is.

    Parameters
    ----------
    value : object
    name : str
        The argument's name, used in error messages.
    choices : sequence
        The allowed values; ``True`` does not stand for the option ``1``, nor an array for any option.

    Examples
    --------
    >>> check_choice("train", "split", ("train", "test"))
    'train'
    >>> check_choice("dev", "split", ("train", "test"))
    Traceback (most recent call last):
    ...
    ValueError: split must be one of ('train', 'test'), got 'dev'
    """
    if not isinstance(value, np.ndarray):  # an array is never one option (and == would compare elementwise)
        for choice in choices:
            if isinstance(value, (bool, np.bool_)) != isinstance(choice, (bool, np.bool_)):
                continue  # True is not the option 1
            try:
                same = bool(value == choice)
            except (TypeError, ValueError):
                same = False
            if same:
                return choice
    raise ValueError(f"{name} must be one of {tuple(choices)}, got {describe_value(value)}")


def check_magnitude(X: Any, name: str = "X") -> None:
    """Raise :class:`ValueError` if the entries of a finite ``X`` are too large for float64 distances and norms.

    Parameters
    ----------
    X : numpy.ndarray or scipy.sparse matrix
        Finite features, one row per instance.
    name : str
        The argument's name, used in error messages.

    Distances, norms and dot products of rows sum squares: with ``d`` features and entries up to ``M`` in absolute
    value a squared distance reaches ``4 d M^2``, which must stay below the largest float64 (about 1.8e308). Past
    that, the kNN-based estimators and the meta-level features would compute inf and NaN and go on silently;
    this check stops them with the largest entry, its position and the bound. (Values below the bound but far from
    1, such as 1e100, are computed correctly; rescaling X is still the better habit.)

    Examples
    --------
    >>> check_magnitude(np.array([[1e160, 0.0]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X holds 1e+160 at position (0, 0): its squared distances overflow float64 (with 2 features ...
    """
    values = X.data if issparse(X) else np.asarray(X)
    if values.size == 0:
        return
    n_features = X.shape[1] if len(X.shape) == 2 else 1
    bound = float(np.sqrt(np.finfo(np.float64).max / (4.0 * n_features)))
    biggest = float(np.max(np.abs(values)))
    if biggest < bound:
        return
    if issparse(X):
        coo = X.tocoo()
        p = int(np.argmax(np.abs(coo.data)))
        where = (int(coo.row[p]), int(coo.col[p]))
        value = float(coo.data[p])
    else:
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(np.abs(values))), values.shape))
        value = float(values[where])
    raise ValueError(
        f"{name} holds {value:.3g} at position {where}: its squared distances overflow float64 (with {n_features:,} "
        f"features every |x| must stay below {bound:.2g}); rescale {name}, e.g. divide it by its largest absolute "
        "value"
    )


def check_fit_input(
    estimator: Any, X: Any, Y: Any, *, ensure_min_samples: int = 1
) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray]:
    """Validate the ``(X, Y)`` of an estimator's ``fit`` and record ``n_features_in_`` on ``estimator``.

    ``X`` goes through scikit-learn's ``validate_data`` (dense float64, or CSR for sparse input; finite; at least
    ``ensure_min_samples`` rows), ``Y`` through :func:`check_label_matrix`, and both must have one row per instance.

    Parameters
    ----------
    estimator : scikit-learn estimator
        The estimator being fitted (its ``n_features_in_`` is set, as scikit-learn's own estimators do).
    X : array-like or scipy.sparse matrix of shape (n_instances, n_features)
    Y : array-like or scipy.sparse matrix of shape (n_instances, n_labels)
        0/1 labels.
    ensure_min_samples : int
        Minimum number of rows of ``X``.

    Returns
    -------
    (X, Y) : tuple
        ``X`` as a float64 ndarray or CSR matrix, ``Y`` as an int64 ndarray.

    Raises
    ------
    ValueError
        For ``Y=None`` (in scikit-learn's wording "requires y to be passed"), a non-finite or empty ``X``, entries
        of ``Y`` other than 0 and 1, or a different number of rows.

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> est = BaseEstimator()
    >>> X, Y = check_fit_input(est, [[0.0, 1.0], [1.0, 0.0]], [[1], [0]])
    >>> est.n_features_in_, Y.dtype
    (2, dtype('int64'))
    >>> check_fit_input(est, [[0.0, 1.0]], [[1], [0]])
    Traceback (most recent call last):
    ...
    ValueError: X and Y must have the same number of rows (instances), got X with 1 rows and Y with 2 rows
    """
    from sklearn.utils.validation import validate_data  # lazy: importing this module must stay cheap

    if Y is None:  # scikit-learn's wording, which its estimator checks look for
        raise ValueError(f"{type(estimator).__name__} requires y to be passed, but the target y is None: pass the "
                         "label matrix Y of shape (n_instances, n_labels)")
    X = validate_data(estimator, X, accept_sparse="csr", dtype=np.float64, ensure_min_samples=ensure_min_samples,
                      ensure_all_finite=False)
    if not np.isfinite(X.data if issparse(X) else X).all():  # the words scikit-learn's checks look for: NaN, inf
        raise ValueError("X must be finite, got NaN or infinite entries")
    check_magnitude(X, "X")
    Y = check_label_matrix(Y, "Y")
    if Y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and Y must have the same number of rows (instances), got X with {X.shape[0]} rows and Y with "
            f"{Y.shape[0]} rows"
        )
    return X, Y


def multilabel_tags(tags):
    """Set scikit-learn's estimator tags for a model fitted on ``(X, Y)``: ``Y`` a 2-D 0/1 label matrix (required,
    multi-output), ``X`` possibly sparse. Call it from ``__sklearn_tags__`` on the tags of ``super()``."""
    tags.target_tags.required = True
    tags.target_tags.multi_output = True
    tags.target_tags.single_output = False
    tags.input_tags.sparse = True
    return tags
