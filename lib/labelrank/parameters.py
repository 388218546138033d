"""Declared parameter constraints: each estimator states its hyper-parameters' allowed values once, one method checks.

An estimator class lists its constructor parameters in a class attribute ``parameter_constraints``, a dict from the
parameter's name to a :class:`Constraint`; :class:`DeclaredParameters` merges the dicts of the class and its bases
(a subclass's entry replaces its base's) and :meth:`DeclaredParameters.check_params` checks every parameter, in the
order declared, with the library's checks (:mod:`labelrank.validation`), whose messages name the parameter and the
value. This is scikit-learn's ``_parameter_constraints`` pattern with the library's own messages.

Examples
--------
>>> from sklearn.base import BaseEstimator
>>> class Smoother(DeclaredParameters, BaseEstimator):
...     parameter_constraints = {"k": Integer(minimum=1), "s": Real(low=0.0, low_inclusive=False),
...                              "kind": Options("mean", "median")}
...     def __init__(self, k=10, s=1.0, kind="mean"):
...         self.k, self.s, self.kind = k, s, kind
>>> Smoother(k=3).check_params().k
3
>>> Smoother(s=0).check_params()
Traceback (most recent call last):
...
ValueError: s must be positive and finite, got 0
>>> Smoother(kind="mode").check_params()
Traceback (most recent call last):
...
ValueError: kind must be one of ('mean', 'median'), got 'mode'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Any, ClassVar

import numpy as np

from labelrank.validation import check_choice, check_positive_int, check_real, describe_value

__all__ = [
    "Constraint",
    "Real",
    "Integer",
    "Options",
    "Flag",
    "NoneOr",
    "Jobs",
    "FloatType",
    "Keywords",
    "POSITIVE",
    "NON_NEGATIVE",
    "SEED",
    "DeclaredParameters",
    "declared_constraints",
]


class Constraint(ABC):
    """The allowed values of one parameter: :meth:`check` returns the value or raises naming ``name``.

    A subclass implements ``check(value, name)``: the value as the estimator uses it, or a :class:`TypeError`
    (wrong kind of object) or :class:`ValueError` (right kind, outside the allowed set) whose message begins with
    ``name`` and shows the value.

    Examples
    --------
    >>> class Even(Constraint):
    ...     def check(self, value, name):
    ...         if Integer(minimum=0).check(value, name) % 2:
    ...             raise ValueError(f"{name} must be even, got {value!r}")
    ...         return value
    >>> Even().check(4, "n")
    4
    >>> Even().check(3, "n")
    Traceback (most recent call last):
    ...
    ValueError: n must be even, got 3
    """

    @abstractmethod
    def check(self, value: Any, name: str) -> Any:
        """``value`` as the estimator uses it; a TypeError or ValueError naming ``name`` if it is not allowed."""

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class Real(Constraint):
    """A finite real number within bounds (:func:`labelrank.validation.check_real`); ``bool`` is rejected.

    Parameters
    ----------
    low, high : float, optional
        The bounds; None leaves a side open (infinity is never accepted).
    low_inclusive, high_inclusive : bool
        Whether the bound itself is allowed.

    Examples
    --------
    >>> Real(0, 1).check(0.25, "p")
    0.25
    >>> Real(0, 1, high_inclusive=False).check(1, "p")
    Traceback (most recent call last):
    ...
    ValueError: p must lie in [0, 1), got 1
    """

    def __init__(self, low: float | None = None, high: float | None = None, *, low_inclusive: bool = True,
                 high_inclusive: bool = True):
        self.low, self.high = low, high
        self.low_inclusive, self.high_inclusive = low_inclusive, high_inclusive

    def check(self, value: Any, name: str) -> float:
        return check_real(value, name, low=self.low, high=self.high, low_inclusive=self.low_inclusive,
                          high_inclusive=self.high_inclusive)


class Integer(Constraint):
    """An integer of at least ``minimum`` (:func:`labelrank.validation.check_positive_int`); ``bool`` is rejected.

    Parameters
    ----------
    minimum : int, default=1

    Examples
    --------
    >>> Integer(minimum=2).check(4, "num_leaves")
    4
    >>> Integer().check(2.0, "k")
    Traceback (most recent call last):
    ...
    TypeError: k must be an integer, got 2.0
    """

    def __init__(self, minimum: int = 1):
        self.minimum = minimum

    def check(self, value: Any, name: str) -> int:
        return check_positive_int(value, name, minimum=self.minimum)


class Options(Constraint):
    """One of a fixed set of values (:func:`labelrank.validation.check_choice`); ``True`` is not the option ``1``.

    Parameters
    ----------
    *choices
        The allowed values.

    Examples
    --------
    >>> Options("adam", "sgd").check("sgd", "optimizer")
    'sgd'
    >>> Options("adam", "sgd").check("rmsprop", "optimizer")
    Traceback (most recent call last):
    ...
    ValueError: optimizer must be one of ('adam', 'sgd'), got 'rmsprop'
    """

    def __init__(self, *choices: Any):
        self.choices = tuple(choices)

    def check(self, value: Any, name: str) -> Any:
        return check_choice(value, name, self.choices)


class Flag(Constraint):
    """``True`` or ``False`` (a numpy bool too), nothing that is merely truthy.

    Examples
    --------
    >>> Flag().check(False, "standardize")
    False
    >>> Flag().check("yes", "standardize")
    Traceback (most recent call last):
    ...
    TypeError: standardize must be True or False, got 'yes'
    """

    def check(self, value: Any, name: str) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {describe_value(value)}")
        return bool(value)


class NoneOr(Constraint):
    """``None`` (the parameter's automatic choice) or a value that ``inner`` accepts.

    Parameters
    ----------
    inner : Constraint

    Examples
    --------
    >>> NoneOr(POSITIVE).check(None, "tol") is None
    True
    >>> NoneOr(POSITIVE).check(0.0, "tol")
    Traceback (most recent call last):
    ...
    ValueError: tol must be positive and finite, got 0.0
    """

    def __init__(self, inner: Constraint):
        self.inner = inner

    def check(self, value: Any, name: str) -> Any:
        return None if value is None else self.inner.check(value, name)


class Jobs(Constraint):
    """A number of parallel workers as joblib takes it: ``None``, ``-1`` (every core) or a positive integer.

    Examples
    --------
    >>> Jobs().check(-1, "n_jobs")
    -1
    >>> Jobs().check(0, "n_jobs")
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be None, -1 or a positive integer, got 0
    """

    def check(self, value: Any, name: str) -> int | None:
        if value is None:
            return None
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral) or not (value >= 1 or value == -1):
            raise ValueError(f"{name} must be None, -1 or a positive integer, got {value!r}")
        return int(value)


class FloatType(Constraint):
    """A floating-point type given by name or as a type: ``"float64"`` or ``"float32"``; checked as a numpy dtype.

    Examples
    --------
    >>> FloatType().check("float32", "dtype")
    dtype('float32')
    >>> FloatType().check("int32", "dtype")
    Traceback (most recent call last):
    ...
    ValueError: dtype must be 'float64' or 'float32', got 'int32'
    """

    def check(self, value: Any, name: str) -> np.dtype:
        try:
            dtype = np.dtype(value)
        except TypeError as exc:
            raise TypeError(f"{name} must be 'float64' or 'float32', got {value!r}") from exc
        if dtype not in (np.dtype(np.float64), np.dtype(np.float32)):
            raise ValueError(f"{name} must be 'float64' or 'float32', got {value!r}")
        return dtype


class Keywords(Constraint):
    """A dict of further keyword arguments, or ``None`` for none (checked as the empty dict).

    Examples
    --------
    >>> Keywords().check(None, "ranker_params")
    {}
    >>> Keywords().check([("C", 1.0)], "ranker_params")
    Traceback (most recent call last):
    ...
    TypeError: ranker_params must be a dict or None, got [('C', 1.0)]
    """

    def check(self, value: Any, name: str) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise TypeError(f"{name} must be a dict or None, got {value!r}")
        return value


#: A positive, finite real number (``C``, ``tol``, a learning rate, a smoothing constant).
POSITIVE = Real(low=0.0, low_inclusive=False)
#: A non-negative, finite real number (a penalty that may be switched off).
NON_NEGATIVE = Real(low=0.0)
#: A seed of numpy's and the solvers' random generators: a non-negative integer.
SEED = Integer(minimum=0)


def declared_constraints(cls: type) -> dict[str, Constraint]:
    """The constraints a class declares, its bases' first and its own replacing theirs, in declaration order.

    Parameters
    ----------
    cls : type
        A class with ``parameter_constraints`` on it or its bases.

    Returns
    -------
    dict
        Parameter name -> :class:`Constraint`.

    Examples
    --------
    >>> class A:
    ...     parameter_constraints = {"C": POSITIVE, "tol": POSITIVE}
    >>> class B(A):
    ...     parameter_constraints = {"tol": NoneOr(POSITIVE), "solver": Options("auto")}
    >>> list(declared_constraints(B)), declared_constraints(B)["tol"]
    (['C', 'tol', 'solver'], NoneOr(inner=Real(low=0.0, high=None, low_inclusive=False, high_inclusive=True)))
    """
    merged: dict[str, Constraint] = {}
    for klass in reversed(cls.__mro__):
        own = klass.__dict__.get("parameter_constraints")
        if isinstance(own, Mapping):
            merged.update(own)
    return merged


class DeclaredParameters:
    """Mixin: the parameters of ``parameter_constraints`` (merged along the bases) checked in one place.

    The library's estimators, transformers and rankers inherit it before :class:`sklearn.base.BaseEstimator`;
    ``fit`` calls :meth:`check_params` before touching the data, so that a bad value fails first and names itself.

    Attributes
    ----------
    parameter_constraints : dict
        Parameter name -> :class:`Constraint`, for the parameters this class adds or constrains anew.

    Examples
    --------
    >>> from labelrank.baselines import MLkNN
    >>> list(declared_constraints(MLkNN))  # the baselines' threshold, the kNN methods' k and distance, then s
    ['threshold', 'k', 'distance', 's']
    >>> MLkNN(k=0).fit([[0.0], [1.0]], [[1], [0]])
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 1, got 0
    """

    parameter_constraints: ClassVar[dict[str, Constraint]] = {}

    def check_params(self):
        """Check every declared parameter's current value; return ``self``.

        Raises
        ------
        TypeError, ValueError
            For the first parameter, in declaration order, whose value its constraint rejects; the message names
            the parameter and the value.
        """
        for name, constraint in declared_constraints(type(self)).items():
            constraint.check(getattr(self, name), name)
        return self

    def copies_along(self, param: str, values: Sequence[Any]) -> list:
        """Unfitted copies of this estimator, one per value of ``param``: what a ``fit_path`` fits.

        Parameters
        ----------
        param : str
            A parameter of this estimator.
        values : sequence
            Its values, in order; at least one.

        Returns
        -------
        list
            ``clone(self).set_params(**{param: value})`` for each value.

        Raises
        ------
        TypeError, ValueError
            If ``values`` is not a sequence or is empty, or ``param`` is not a parameter of this estimator.
        """
        from sklearn.base import clone

        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise TypeError(f"values must be a sequence of values of {param!r}, got {values!r}")
        if param not in self.get_params():
            raise ValueError(f"param must be a parameter of {type(self).__name__}, got {param!r}")
        if len(values) == 0:
            raise ValueError(f"values must hold at least one value of {param!r}, got an empty sequence")
        return [clone(self).set_params(**{param: value}) for value in values]
