"""Declared parameter constraints (``labelrank.parameters``): every estimator of the library declares each of its
constructor's parameters once, and the one check rejects a bad value with a message naming the parameter and the
value, at ``fit`` and before the data are touched."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import clone

from labelrank import MetaLevelRanker, baselines, parameters, rankers
from labelrank.features import MetaLevelFeatures
from labelrank.parameters import (
    NON_NEGATIVE,
    POSITIVE,
    SEED,
    DeclaredParameters,
    Flag,
    FloatType,
    Integer,
    Jobs,
    Keywords,
    NoneOr,
    Options,
    Real,
    declared_constraints,
)
from labelrank.threshold import LLSFThreshold

#: every estimator, transformer and ranker class a user of the library fits
ESTIMATORS = [
    baselines.BinarySVM, baselines.RankSVM, baselines.MLkNN, baselines.IBLRML,
    rankers.ListNet, rankers.LambdaRank, rankers.RankSVMIR, rankers.SVMMAP, rankers.LightGBMLambdaRank,
    MetaLevelFeatures, MetaLevelRanker, LLSFThreshold,
]


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_every_constructor_parameter_is_declared_once(cls):
    assert issubclass(cls, DeclaredParameters)
    signature = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    assert set(declared_constraints(cls)) == set(signature)
    cls().check_params()  # the defaults are allowed


#: a value each kind of constraint rejects, and the words of its message
BAD = {
    Real: ("x", TypeError, "must be"),
    Integer: (1.5, TypeError, "must be an integer"),
    Options: ("no-such-option", ValueError, "must be one of"),
    Flag: ("yes", TypeError, "must be True or False"),
    Jobs: (0, ValueError, "must be None, -1 or a positive integer"),
    FloatType: ("int8", ValueError, "must be 'float64' or 'float32'"),
    Keywords: ([1], TypeError, "must be a dict or None"),
}


def _kind(constraint):
    return type(constraint.inner) if isinstance(constraint, NoneOr) else type(constraint)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_a_bad_value_fails_at_fit_naming_the_parameter_and_the_value(cls):
    for name, constraint in declared_constraints(cls).items():
        value, error, words = BAD[_kind(constraint)]
        est = clone(cls()).set_params(**{name: value})
        with pytest.raises(error, match=f"^{name} {words}") as raised:
            est.check_params()
        assert repr(value) in str(raised.value) or str(value) in str(raised.value)
        # fit checks the parameters before it looks at the data: no data at all still gets the parameter's message
        with pytest.raises(error, match=f"^{name} {words}"):
            est.fit(None, None)


def test_real_bounds_and_messages():
    assert POSITIVE.check(2, "C") == 2.0
    with pytest.raises(ValueError, match=r"^C must be positive and finite, got 0$"):
        POSITIVE.check(0, "C")
    with pytest.raises(ValueError, match=r"^alpha must be non-negative and finite, got -1.0$"):
        NON_NEGATIVE.check(-1.0, "alpha")
    with pytest.raises(TypeError, match=r"^C must be a positive number, got True"):
        POSITIVE.check(True, "C")
    with pytest.raises(ValueError, match=r"^p must lie in \[0, 1\], got 2$"):
        Real(0, 1).check(2, "p")
    with pytest.raises(ValueError, match=r"must be positive and finite, got inf"):
        POSITIVE.check(float("inf"), "tol")
    assert NoneOr(POSITIVE).check(None, "tol") is None
    with pytest.raises(ValueError, match=r"^tol must be positive"):
        NoneOr(POSITIVE).check(-1, "tol")


def test_seeds_jobs_options_flags():
    assert SEED.check(0, "random_state") == 0
    with pytest.raises(ValueError, match=r"^random_state must be >= 0, got -1$"):
        SEED.check(-1, "random_state")
    with pytest.raises(TypeError, match=r"^random_state must be an integer, got True$"):
        SEED.check(True, "random_state")
    assert Jobs().check(-1, "n_jobs") == -1 and Jobs().check(None, "n_jobs") is None
    with pytest.raises(ValueError, match=r"n_jobs must be None, -1 or a positive integer, got True"):
        Jobs().check(True, "n_jobs")
    assert Options("a", 1).check(1, "x") == 1
    with pytest.raises(ValueError, match=r"^x must be one of \('a', 1\), got True"):
        Options("a", 1).check(True, "x")  # True is not the option 1
    assert Flag().check(np.bool_(True), "standardize") is True
    with pytest.raises(TypeError, match=r"^standardize must be True or False, got 1"):
        Flag().check(1, "standardize")
    assert FloatType().check("float32", "dtype") == np.dtype(np.float32)
    with pytest.raises(TypeError, match=r"^dtype must be 'float64' or 'float32'"):
        FloatType().check("no-such-type", "dtype")
    assert Keywords().check(None, "ranker_params") == {}


@given(st.floats(allow_nan=True, allow_infinity=True), st.one_of(st.none(), st.floats(-10, 10)),
       st.one_of(st.none(), st.floats(-10, 10)), st.booleans(), st.booleans())
def test_real_accepts_exactly_the_finite_values_within_its_bounds(x, low, high, low_inclusive, high_inclusive):
    constraint = Real(low, high, low_inclusive=low_inclusive, high_inclusive=high_inclusive)
    inside = np.isfinite(x)
    if low is not None:
        inside &= x >= low if low_inclusive else x > low
    if high is not None:
        inside &= x <= high if high_inclusive else x < high
    try:
        constraint.check(x, "v")
        accepted = True
    except ValueError as exc:
        assert str(exc).startswith("v must ") and repr(x) in str(exc)
        accepted = False
    assert accepted == bool(inside)


def test_a_subclass_replaces_its_base_entries_in_place():
    class Base(DeclaredParameters):
        parameter_constraints = {"C": POSITIVE, "tol": POSITIVE}

        def __init__(self, C=1.0, tol=1e-3):
            self.C, self.tol = C, tol

    class Child(Base):
        parameter_constraints = {"tol": NoneOr(POSITIVE)}

    assert list(declared_constraints(Child)) == ["C", "tol"]
    Child(tol=None).check_params()
    with pytest.raises(ValueError, match="^tol must be positive"):
        Child(tol=-1.0).check_params()
    with pytest.raises(TypeError, match="^tol must be a positive number, got None"):
        Base(tol=None).check_params()


def test_the_module_names_what_it_exports():
    assert set(parameters.__all__) <= set(dir(parameters))
