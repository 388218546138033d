r"""The experimental protocol of Yang & Gopal (2012, section 3.4), cached and parallel.

One function, :func:`results`, runs everything the paper's Tables 3-6 and Fig. 2 need on the data sets of a
*profile* and returns one tidy :class:`pandas.DataFrame` (one row per data set, method, representation, threshold
rule and metric). The chapters "Learning to rank categories" and "Thresholding" read it; a second call returns the
cached table in seconds.

The protocol (section 3.4), and where we depart from it
-------------------------------------------------------
* **Inputs.** *emotions* rescaled to unit variance per feature (each feature divided by its standard deviation on
  the training split; not centred); Reuters-21578 in "ltc" TF-IDF (:func:`labelrank.datasets.load` does that);
  *scene* and *yeast* as shipped; no feature selection.
* **Tuning.** Five-fold cross-validation on the training set (:class:`sklearn.model_selection.KFold`, shuffled
  with a fixed seed; no multi-label stratification). Tuned: the number of neighbours ``k`` in 10, 20, ..., 100
  (of the meta-level features, of ML-kNN and of IBLR-ML), the regularisation ``C`` over the 20 values
  ``numpy.logspace(-6, 6, 20)`` (of Binary-SVM, Rank-SVM, MLC-RankSVM-IR and MLC-SVM-MAP; the grid is *widened* by
  :attr:`Protocol.widen_points` values at the same spacing whenever the choice sits on its boundary), and the
  learning rate of MLC-ListNet, MLC-LambdaRank and LightGBM. The paper tunes "the regularization parameter in
  Ranking-MLC (if any) ... as well as the learning rate in Ranking-MLC (if any)": we read the "if any" as "the
  SVM rankers have a C, the gradient rankers a learning rate" and keep the gradient rankers' small L2 penalty at
  its default. 50 epochs for the gradient rankers.
* **Selection rule.** The paper tunes "with respect to a variety of metrics" (section 4.4). Every grid point is
  scored on all eight metrics in every fold (:func:`labelrank.metrics.evaluate`); the configuration of the
  *ranking* metrics (MAP, RankLoss, NDCG, One-error, Coverage) is the one with the best cross-validated MAP, and
  that of the *decision* metrics (Micro-F1, Macro-F1, Hamming loss) the one with the best cross-validated
  Micro-F1 (:attr:`Protocol.selection`; ties: the first in grid order, i.e. the smaller ``k``, ``C`` or learning
  rate). The model is refitted on the whole training set once per distinct chosen configuration (one or two per
  method and data set), and each metric is reported from the configuration chosen for it (the results table's
  ``tuned_on`` column).
* **Thresholds.** A method's own rule ("default": 0 for Binary-SVM, 0.5 for ML-kNN and IBLR-ML, Elisseeff &
  Weston's LLSF for Rank-SVM) or the instance-based regression of section 2.3 ("regression", the only rule of
  the meta-level rankers). Table 4's regression columns reuse the hyper-parameters tuned with the default rule, so
  that only the threshold changes.
* **Search.** ``search="full"`` evaluates the whole grid (the product of the axes). ``search="staged"`` (the
  profiles' choice, for time) tunes one axis at a time in the order of :attr:`MethodSpec.axes`: first ``k``
  with the other axes at the middle of their grids, then ``C`` (or the learning rate) at the ``k`` chosen for each
  target metric. Along each axis it walks out from the middle of the grid and stops once
  :attr:`Protocol.patience` consecutive values on each side of every target's best are worse (or the grid ends;
  a ``C`` grid is widened instead). This skips the far ends of the grids, where the SVMs' large ``C`` values
  are the slowest fits. It assumes the cross-validated curves have one optimum along each axis; the chapter
  "Learning to rank categories" runs both searches on *emotions* and compares the choices
  (:func:`search_comparison`).
* **Meta-level features** are computed once per (data set, fold) for the largest ``k`` in float32
  (:class:`labelrank.features.MetaLevelFeatures`, the training part with self-exclusion), stored on disk and
  memory-mapped, and sliced for smaller ``k`` (:meth:`labelrank.features.NeighborDistances.features`).
  Fig. 2's conventional methods on meta-level features take the flattened vector
  :math:`z_i = (\phi(x_i, c_1), \dots, \phi(x_i, c_m))` (eq. 2) at ``k = Protocol.k_meta``, standardised with the
  training mean and standard deviation of each column.

Parallelism, caching and progress
---------------------------------
Every (grid point, fold) is one task of :class:`joblib.Parallel` with ``n_jobs`` workers: 2 by default, or the
environment variable ``LABELRANK_N_JOBS``. The backend is whatever :func:`joblib.parallel_config` says, so a user
with a Dask cluster runs the protocol there with::

    from dask.distributed import Client
    import joblib
    client = Client("scheduler-address:8786")
    with joblib.parallel_config(backend="dask"):
        table = labelrank.experiments.results("full")

(set ``LABELRANK_N_JOBS=-1`` to let Dask decide how many tasks run at once, and ``LABELRANK_CACHE`` to a folder
that every worker can read and write). Each task's result is cached (:class:`labelrank._cache.ResultCache`) under
``cache_dir() / "experiments"``, keyed on what the result depends on: the data set and the profile's data
settings, the fold, the method and its parameters, and explicit versions (:func:`code_version`: the engine's
:data:`ENGINE_VERSION`, the data parsers' version, the numerical libraries' versions and the method's
:attr:`MethodSpec.version`). No file name or source text is part of a key, so moving or refactoring code keeps the
cache; a change that moves a number must bump a version, which the golden test of the quick profile enforces.
Long loops show :mod:`tqdm` progress bars.

Profiles
--------
``full``: the protocol above on emotions, scene, yeast and Reuters-21578 (citeseer is not publicly retrievable),
with two concessions to time on Reuters-21578, whose fits are the slowest: its cross-validation runs on a seeded
random 2,000 of the 7,770 training documents (:attr:`Protocol.tune_subsample`; the final models use all of them),
and Fig. 2's conventional methods on meta-level features leave it out (:attr:`Protocol.fig2_exclude`: one-vs-rest
SVMs on the 2,880-dimensional dense concatenation of eq. 2 take minutes per fold and label set).
``quick``: the same code paths on emotions and a subsample of yeast, three folds and tiny grids; it exists so that
the notebooks can be tested in a few minutes and its numbers are not comparable with the paper's.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import resource
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import joblib
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold
from tqdm import tqdm

from labelrank import datasets
from labelrank._paths import cache_dir, unwritable_reason, write_text_atomic
from labelrank.metrics import METRICS, evaluate
from labelrank.metrics.significance import compare
from labelrank.profile import get_profile
from labelrank._cache import ResultCache

__all__ = [
    "SYNTHETIC",
    "Protocol",
    "MethodSpec",
    "METHODS",
    "FIG2_METHODS",
    "protocol",
    "n_jobs",
    "load_data",
    "fold_indices",
    "meta_features",
    "make_estimator",
    "jobs",
    "tuning_rows",
    "tune",
    "TuneResult",
    "fit_ranker",
    "concatenated_meta_features",
    "widen_grid",
    "search_comparison",
    "splitting_comparison",
    "llsf_inputs_comparison",
    "test_curve",
    "test_outputs",
    "results",
    "run_info",
    "rank_methods",
    "rank_totals",
    "rank_conflicts",
    "beside_paper",
    "code_version",
]

_N_JOBS_ENV = "LABELRANK_N_JOBS"
_METRIC_NAMES = tuple(METRICS)
#: The selection rule: ranking metrics are reported from the configuration with the best cross-validated MAP,
#: decision metrics from the one with the best cross-validated Micro-F1.
_SELECTION = {name: ("MAP" if info.kind == "rank" else "Micro-F1") for name, info in METRICS.items()}
Representation = Literal["original", "meta"]
ThresholdRule = Literal["default", "regression"]


# ----------------------------------------------------------------------------------------------------------------
# The protocol's settings
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Protocol:
    """The settings of one profile of the experiments.

    Attributes
    ----------
    profile : {"quick", "full"}
    datasets : tuple of str
        The data sets, names of :func:`labelrank.datasets.load`.
    n_folds : int
        Cross-validation folds on the training set.
    seed : int
        Seed of the fold split and of the subsamples; the estimators use their own fixed ``random_state=0``.
    grids : dict
        Axis name -> tuple of values: ``"k"`` (neighbours), ``"C"`` (regularisation), ``"lr"`` (learning rate of
        ListNet and LambdaRank), ``"lgbm_lr"`` (LightGBM's learning rate).
    subsample : dict
        Data set -> (training instances, test instances) drawn at random (``seed``); absent = all.
    search : {"staged", "full"}
        Default search strategy of :func:`tune`.
    patience : int
        Staged search along the ``C`` axis: stop after this many consecutive worse values on each side.
    widen_points : int
        Values added at the same spacing when a choice sits on the boundary of the ``C`` grid.
    max_widen : int
        How many times the ``C`` grid may be widened on each side.
    k_meta : int
        ``k`` of the meta-level features fed to the conventional methods in Fig. 2.
    selection : dict
        Metric -> the metric whose cross-validation optimum configures it (see the module docstring).
    tune_subsample : dict
        Data set -> number of training instances (a seeded random subset) on which the cross-validation runs;
        absent = the whole training set. The final models are always fitted on the whole training set.
    fig2_exclude : tuple of str
        Data sets left out of Fig. 2's runs of the conventional methods on meta-level features.
    """

    profile: str
    datasets: tuple[str, ...]
    n_folds: int
    seed: int
    grids: dict[str, tuple[float, ...]]
    subsample: dict[str, tuple[int, int]] = field(default_factory=dict)
    search: Literal["staged", "full"] = "staged"
    patience: int = 1
    widen_points: int = 4
    max_widen: int = 2
    k_meta: int = 10
    selection: dict[str, str] = field(default_factory=lambda: dict(_SELECTION))
    tune_subsample: dict[str, int] = field(default_factory=dict)
    fig2_exclude: tuple[str, ...] = ()

    @property
    def fig2_datasets(self) -> tuple[str, ...]:
        """The data sets on which Fig. 2's conventional methods also run on meta-level features."""
        return tuple(d for d in self.datasets if d not in self.fig2_exclude)

    @property
    def k_max(self) -> int:
        """The largest ``k`` of the grid: meta-level features are computed once for it."""
        return int(max(self.grids["k"]))

    def data_key(self, dataset: str) -> tuple:
        """What identifies the data of one data set under this profile (part of every cache key)."""
        return (dataset, self.subsample.get(dataset), self.tune_subsample.get(dataset), self.n_folds, self.seed,
                self.k_max, self.k_meta)

    @property
    def targets(self) -> tuple[str, ...]:
        """The metrics :func:`tune` optimises: the distinct values of :attr:`selection`."""
        return tuple(dict.fromkeys(self.selection.values()))


def protocol(profile: str | None = None) -> Protocol:
    """The :class:`Protocol` of a profile (``LABELRANK_PROFILE`` when None; see :mod:`labelrank.profile`).

    Examples
    --------
    >>> p = protocol("full")
    >>> p.datasets, p.n_folds, len(p.grids["C"]), p.grids["k"][:3]
    (('emotions', 'scene', 'yeast', 'reuters21578'), 5, 20, (10, 20, 30))
    """
    profile = get_profile() if profile is None else profile
    if profile == "full":
        return Protocol(
            profile="full",
            datasets=("emotions", "scene", "yeast", "reuters21578"),
            n_folds=5,
            seed=0,
            patience=1,
            tune_subsample={"reuters21578": 2000},
            fig2_exclude=("reuters21578",),
            grids={
                "k": tuple(range(10, 101, 10)),
                "C": tuple(float(c) for c in np.logspace(-6, 6, 20)),
                "lr": (1e-3, 3e-3, 1e-2, 3e-2, 1e-1),
                "lgbm_lr": (0.03, 0.1, 0.3),
            },
        )
    if profile == "quick":
        return Protocol(
            profile="quick",
            datasets=("emotions", "yeast"),
            n_folds=3,
            seed=0,
            grids={
                "k": (10, 20),
                "C": tuple(float(c) for c in np.logspace(-3, 0, 4)),
                "lr": (1e-2, 3e-2),
                "lgbm_lr": (0.1,),
            },
            subsample={"emotions": (300, 202), "yeast": (400, 300)},
            patience=1,
            widen_points=1,
            max_widen=1,
        )
    raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")


def n_jobs() -> int:
    """Parallel workers: ``$LABELRANK_N_JOBS`` (an integer, -1 = all) or 2."""
    value = os.environ.get(_N_JOBS_ENV, "").strip()
    if not value:
        return 2
    try:
        jobs = int(value)
    except ValueError as exc:
        raise ValueError(f"{_N_JOBS_ENV} must be an integer (-1 for all cores), got {value!r}") from exc
    if jobs == 0 or jobs < -1:
        raise ValueError(f"{_N_JOBS_ENV} must be a positive integer or -1, got {jobs}")
    return jobs


# ----------------------------------------------------------------------------------------------------------------
# Methods
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MethodSpec:
    """One row of the paper's tables: how to build the estimator and what to tune.

    Attributes
    ----------
    name : str
        The paper's name ("MLC-ListNet", "Binary-SVM", ...).
    kind : {"ranker", "baseline"}
        "ranker": a :class:`labelrank.MetaLevelRanker` fitted on precomputed meta-level features;
        "baseline": an estimator of :mod:`labelrank.baselines`.
    estimator : str or callable
        For a ranker, the ``ranker`` argument of :class:`~labelrank.MetaLevelRanker`; for a baseline, the class
        name in :mod:`labelrank.baselines`, or any callable ``estimator(threshold=..., **params)`` returning an
        object with ``fit(X, Y)``, ``decision_function(X)`` and ``predict(X)`` (e.g. a stand-in in a test).
    axes : tuple of (parameter, grid) pairs
        The tuned parameters in the staged search's order, each with the name of its grid in
        :attr:`Protocol.grids`.
    version : int
        The version of this method's numbers, part of its cache keys (:func:`code_version`): bump it when a
        change to the estimator moves its results and nothing else's.
    """

    name: str
    kind: Literal["ranker", "baseline"]
    estimator: str | Callable[..., Any]
    axes: tuple[tuple[str, str], ...]
    version: int = 1

    @property
    def thresholds(self) -> tuple[str, ...]:
        """The threshold rules reported: a baseline's own ("default") and the regression; a ranker's regression."""
        return ("regression",) if self.kind == "ranker" else ("default", "regression")


#: The methods of Tables 3-6, by the paper's names; "MLC-LightGBM" is our extra column of Table 6.
METHODS: dict[str, MethodSpec] = {
    spec.name: spec
    for spec in (
        MethodSpec("MLC-ListNet", "ranker", "listnet", (("k", "k"), ("learning_rate", "lr"))),
        MethodSpec("Binary-SVM", "baseline", "BinarySVM", (("C", "C"),)),
        MethodSpec("RankSVM", "baseline", "RankSVM", (("C", "C"),)),
        MethodSpec("IBLR", "baseline", "IBLRML", (("k", "k"),)),
        MethodSpec("ML-kNN", "baseline", "MLkNN", (("k", "k"),)),
        MethodSpec("MLC-SVM-MAP", "ranker", "svmmap", (("k", "k"), ("C", "C"))),
        MethodSpec("MLC-RankSVM-IR", "ranker", "ranksvm", (("k", "k"), ("C", "C"))),
        MethodSpec("MLC-LambdaRank", "ranker", "lambdarank", (("k", "k"), ("learning_rate", "lr"))),
        MethodSpec("MLC-LightGBM", "ranker", "lightgbm", (("k", "k"), ("learning_rate", "lgbm_lr"))),
    )
}

#: The conventional methods that Fig. 2 also runs on meta-level features.
FIG2_METHODS: tuple[str, ...] = ("Binary-SVM", "RankSVM", "IBLR", "ML-kNN")


def _spec(method: str) -> MethodSpec:
    if method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    return METHODS[method]


def _check_representation(method: str, features: str) -> None:
    if features not in ("original", "meta"):
        raise ValueError(f"features must be 'original' or 'meta', got {features!r}")
    if features == "original" and _spec(method).kind == "ranker":
        raise ValueError(f"{method} works on meta-level features only; got features='original'")


def make_estimator(method: str, params: dict[str, Any], threshold: ThresholdRule = "default"):
    """A fresh, unfitted estimator for ``method`` with hyper-parameters ``params``.

    Parameters
    ----------
    method : str
        A key of :data:`METHODS`.
    params : dict
        Values of the method's axes, e.g. ``{"k": 30, "learning_rate": 0.01}`` or ``{"C": 0.5}``.
    threshold : {"default", "regression"}
        The threshold rule; a ranker has only "regression" (its LLSF), and "default" means the same for it.

    Returns
    -------
    estimator
        A :class:`labelrank.MetaLevelRanker` (``empty_labels="last"``: cross-validation folds of Reuters-21578
        lack some categories) or a :mod:`labelrank.baselines` estimator.
    """
    spec = _spec(method)
    if threshold not in ("default", "regression"):
        raise ValueError(f"threshold must be 'default' or 'regression', got {threshold!r}")
    if spec.kind == "ranker":
        from labelrank.meta_ranker import MetaLevelRanker

        return MetaLevelRanker(ranker=spec.estimator, empty_labels="last", **params)
    if callable(spec.estimator):
        factory = spec.estimator
    else:
        from labelrank import baselines

        factory = getattr(baselines, spec.estimator)
    return factory(threshold="default" if threshold == "default" else "llsf", **params)


# ----------------------------------------------------------------------------------------------------------------
# Data, folds and meta-level features
# ----------------------------------------------------------------------------------------------------------------


#: A small seeded problem (scikit-learn's ``make_multilabel_classification``) for tests and experiments with the
#: protocol itself: 150 training and 75 test instances, 12 features, 4 labels.
SYNTHETIC = "synthetic"


def _synthetic(seed: int):
    from sklearn.datasets import make_multilabel_classification

    X, Y = make_multilabel_classification(n_samples=225, n_features=12, n_classes=4, n_labels=2,
                                          allow_unlabeled=False, random_state=seed)
    X = X / X.std(axis=0).clip(min=1e-12)
    return X[:150], Y[:150], X[150:], Y[150:]


@lru_cache(maxsize=8)
def _load_data(dataset: str, subsample: tuple[int, int] | None, seed: int):
    if dataset == SYNTHETIC:
        X_train, Y_train, X_test, Y_test = _synthetic(seed)
    else:
        X_train, Y_train, _ = datasets.load(dataset, "train")
        X_test, Y_test, _ = datasets.load(dataset, "test")
    if subsample is not None:
        rng = np.random.default_rng(seed)
        tr = np.sort(rng.choice(Y_train.shape[0], min(subsample[0], Y_train.shape[0]), replace=False))
        te = np.sort(rng.choice(Y_test.shape[0], min(subsample[1], Y_test.shape[0]), replace=False))
        X_train, Y_train, X_test, Y_test = X_train[tr], Y_train[tr], X_test[te], Y_test[te]
    if dataset == "emotions":  # section 3.4: "each feature was rescaled to a unit variance representation"
        scale = np.asarray(X_train).std(axis=0)
        scale[scale == 0] = 1.0
        X_train, X_test = X_train / scale, X_test / scale
    for arr in (X_train, Y_train, X_test, Y_test):
        if isinstance(arr, np.ndarray):
            arr.setflags(write=False)
    return X_train, np.asarray(Y_train, dtype=np.int64), X_test, np.asarray(Y_test, dtype=np.int64)


def load_data(dataset: str, proto: Protocol | None = None):
    """The training and test split of ``dataset`` as the protocol uses them.

    Returns
    -------
    X_train, Y_train, X_test, Y_test
        ``X`` dense or CSR (Reuters-21578); *emotions* divided by the training standard deviation of each
        feature; under the quick profile a seeded random subsample. ``Y`` int64 0/1. Arrays are read-only.
    """
    proto = protocol() if proto is None else proto
    if dataset not in proto.datasets:
        raise ValueError(f"dataset must be one of the {proto.profile} profile's {proto.datasets}, got {dataset!r}")
    return _load_data(dataset, proto.subsample.get(dataset), proto.seed)


def fold_indices(n: int, n_folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(fit rows, validation rows) of each fold: :class:`~sklearn.model_selection.KFold`, shuffled with ``seed``."""
    return list(KFold(n_splits=n_folds, shuffle=True, random_state=seed).split(np.zeros((n, 1))))


def _split(dataset: str, proto: Protocol, fold: int):
    """(X_fit, Y_fit, X_eval, Y_eval) of a CV fold (0 .. n_folds-1), or of train/test for ``fold == -1``."""
    X_train, Y_train, X_test, Y_test = load_data(dataset, proto)
    if fold == -1:
        return X_train, Y_train, X_test, Y_test
    rows = tuning_rows(Y_train.shape[0], dataset, proto)
    fit, val = fold_indices(rows.size, proto.n_folds, proto.seed)[fold]
    fit, val = rows[fit], rows[val]
    return X_train[fit], Y_train[fit], X_train[val], Y_train[val]


def tuning_rows(n_train: int, dataset: str, proto: Protocol) -> np.ndarray:
    """The training rows the cross-validation uses: all, or a seeded random subset (``proto.tune_subsample``)."""
    size = proto.tune_subsample.get(dataset)
    if size is None or size >= n_train:
        return np.arange(n_train)
    return np.sort(np.random.default_rng(proto.seed + 1).choice(n_train, size, replace=False))


def _cached(func: Callable[..., Any], name: str, ignore: Sequence[str] = ("proto", "threads"),
            mmap: bool = False) -> ResultCache:
    """``func`` cached under ``cache_dir()/"experiments"/name``, keyed on its arguments less ``ignore``."""
    return ResultCache(func, name, root=cache_dir() / "experiments", ignore=ignore, mmap_mode="r" if mmap else None)


def _meta_features_uncached(dataset: str, data_key: tuple, fold: int, proto: Protocol, version: str):
    from labelrank.features import MetaLevelFeatures

    X_fit, Y_fit, X_eval, _ = _split(dataset, proto, fold)
    kept = Y_fit.any(axis=0)
    mlf = MetaLevelFeatures(k=proto.k_max, dtype="float32", n_jobs=n_jobs() if n_jobs() > 0 else None)
    mlf.fit(X_fit, Y_fit[:, kept])
    return mlf.neighbor_distances().values, mlf.transform(X_eval), kept


def meta_features(dataset: str, fold: int, proto: Protocol | None = None):
    """Meta-level features of one fold at ``k = proto.k_max`` (float32), cached on disk and memory-mapped.

    Parameters
    ----------
    dataset : str
    fold : int
        A cross-validation fold (0 .. n_folds - 1) or -1 for the training/test split.
    proto : Protocol, optional

    Returns
    -------
    Z_fit : numpy.ndarray of shape (n_fit, n_kept, 3 k_max + 2)
        The fitting instances' features, each instance excluded from its own neighbours.
    Z_eval : numpy.ndarray of shape (n_eval, n_kept, 3 k_max + 2)
    kept : numpy.ndarray of bool, shape (n_labels,)
        The labels with a positive fitting instance (the others have no :math:`\\phi`).

    Slice a smaller ``k`` with ``NeighborDistances(Z, proto.k_max).features(k)``.
    """
    proto = protocol() if proto is None else proto
    _check_fold(fold, proto)
    cached = _cached(_meta_features_uncached, "meta_features", ignore=("proto",), mmap=True)
    return cached(dataset, proto.data_key(dataset), fold, proto, code_version())


def _check_fold(fold: int, proto: Protocol) -> None:
    if isinstance(fold, bool) or not isinstance(fold, (int, np.integer)) or not -1 <= fold < proto.n_folds:
        raise ValueError(f"fold must be an integer in -1 .. {proto.n_folds - 1}, got {fold!r}")


def concatenated_meta_features(Z_fit: np.ndarray, Z_eval: np.ndarray, k: int,
                               k_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Fig. 2: eq. (2)'s concatenation of phi over the labels at ``k``, standardised with training statistics.

    ``Z_fit`` and ``Z_eval`` hold the features at ``k_max`` (shape (n, m, 3 k_max + 2)); the result is two
    dense matrices of shape (n, m (3 k + 2)) whose columns have the fitting part's mean 0 and standard deviation 1
    (a constant column is only centred).
    """
    from labelrank.features import NeighborDistances

    A = np.asarray(NeighborDistances(Z_fit, k_max).features(k), dtype=np.float64).reshape(Z_fit.shape[0], -1)
    B = np.asarray(NeighborDistances(Z_eval, k_max).features(k), dtype=np.float64).reshape(Z_eval.shape[0], -1)
    mean, std = A.mean(axis=0), A.std(axis=0)
    std[std == 0] = 1.0
    return (A - mean) / std, (B - mean) / std


# ----------------------------------------------------------------------------------------------------------------
# One fit: a grid point on a fold, or a configuration on the test set
# ----------------------------------------------------------------------------------------------------------------


#: The version of everything the engine computes for every method: the data preparation (rescaling, subsamples,
#: folds), the meta-level features, the thresholds and the metrics. Part of every cache key, with the data parsers'
#: version, the versions of the numerical libraries and, for a method's results, :attr:`MethodSpec.version`. Bump
#: it (or the method's version) when a change moves a number; the golden test of the quick profile's results
#: table (tests/test_protocol_golden.py) fails until the change is acknowledged that way. Moving or refactoring
#: code without changing a number leaves every key, and so the cache, as it is.
ENGINE_VERSION = 1


@lru_cache(maxsize=1)
def _library_versions() -> str:
    """The versions of the libraries whose arithmetic the cached numbers depend on."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("numpy", "scipy", "scikit-learn", "numba", "lightgbm"):
        try:
            found.append(f"{name}={version(name)}")
        except PackageNotFoundError:  # pragma: no cover - all are dependencies
            found.append(f"{name}=none")
    return hashlib.sha256(",".join(found).encode()).hexdigest()[:8]


def code_version(method: str | None = None) -> str:
    """The explicit versions that, besides a task's inputs, decide its cached result.

    ``engine<ENGINE_VERSION>-data<parser version>-lib<hash of numpy, scipy, scikit-learn, numba and LightGBM
    versions>``, followed by ``-<method>v<MethodSpec.version>`` for a method's results. No file name or source
    text enters it: a behaviour-preserving move or refactor keeps the cache.

    Examples
    --------
    >>> code_version().startswith(f"engine{ENGINE_VERSION}-data")
    True
    >>> code_version("MLC-ListNet").endswith("-MLC-ListNetv1")
    True
    """
    base = f"engine{ENGINE_VERSION}-data{datasets._PARSE_VERSION}-lib{_library_versions()}"
    return base if method is None else f"{base}-{method}v{_spec(method).version}"


class _ConvergenceWarnings:
    """Count the ConvergenceWarnings of the fits inside the block instead of printing them; ``count`` after it.

    Fits at large ``C`` stop at their iteration limit; the protocol counts them (``n_warnings``) rather than
    letting joblib's workers print them to the notebook's stderr. Every other warning is issued again on exit.
    """

    def __enter__(self) -> _ConvergenceWarnings:
        from sklearn.exceptions import ConvergenceWarning

        self._catcher = warnings.catch_warnings(record=True)
        self._caught = self._catcher.__enter__()
        warnings.simplefilter("always", ConvergenceWarning)
        self._category = ConvergenceWarning
        return self

    def __exit__(self, *exc) -> None:
        self._catcher.__exit__(*exc)
        self.count = sum(issubclass(w.category, self._category) for w in self._caught)
        for w in self._caught:
            if not issubclass(w.category, self._category):
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def fit_ranker(dataset: str, method: str, params: dict[str, Any], fold: int = -1, proto: Protocol | None = None):
    """A meta-level ranker fitted on a fold's cached meta-level features at ``params["k"]``.

    Parameters
    ----------
    dataset, method : str
        A data set of the profile and a meta-level ranker of :data:`METHODS`.
    params : dict
        Its hyper-parameters, e.g. ``{"k": 60, "learning_rate": 0.01}``.
    fold : int
        A cross-validation fold, or -1 (the default) for the whole training set.
    proto : Protocol, optional

    Returns
    -------
    estimator, Z_fit, Z_eval
        The fitted :class:`labelrank.MetaLevelRanker` and the features of the fitting instances (each excluded from
        its own neighbours) and of the evaluation instances (the test set for ``fold=-1``), at ``k``.
    """
    from labelrank.features import NeighborDistances

    proto = protocol() if proto is None else proto
    if _spec(method).kind != "ranker":
        raise ValueError(f"method must be a meta-level ranker, got {method!r}")
    _check_fold(fold, proto)
    _, Y_fit, _, _ = _split(dataset, proto, fold)
    Z_fit, Z_eval, _ = meta_features(dataset, fold, proto)
    k = int(params["k"])
    Zf, Ze = NeighborDistances(Z_fit, proto.k_max).features(k), NeighborDistances(Z_eval, proto.k_max).features(k)
    return make_estimator(method, params, "regression").fit_features(Zf, Y_fit), Zf, Ze


def _fit_outputs(dataset: str, method: str, features: str, params: dict, threshold: str, fold: int,
                 proto: Protocol) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Fit on the fold's fitting part; (Y_eval, scores, 0/1 decisions, number of convergence warnings)."""
    spec = _spec(method)
    X_fit, Y_fit, X_eval, Y_eval = _split(dataset, proto, fold)
    with _ConvergenceWarnings() as caught:
        if spec.kind == "ranker":
            est, _, Ze = fit_ranker(dataset, method, params, fold, proto)
            scores, pred = est.decision_function_features(Ze), est.predict_features(Ze)
        else:
            if features == "meta":
                Z_fit, Z_eval, _ = meta_features(dataset, fold, proto)
                X_fit, X_eval = concatenated_meta_features(Z_fit, Z_eval, proto.k_meta, proto.k_max)
            est = make_estimator(method, params, threshold).fit(X_fit, Y_fit)
            scores, pred = est.decision_function(X_eval), est.predict(X_eval)
    return Y_eval, np.asarray(scores, dtype=np.float64), np.asarray(pred, dtype=np.int8), caught.count


def _start_task(threads: int) -> None:
    """Set up the process that runs one task: numba's thread count (joblib already limits BLAS threads in its
    workers), and in a joblib worker a watch on the parent process (:func:`_exit_with_parent`)."""
    try:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    except (ImportError, ValueError):  # pragma: no cover - numba is a dependency
        pass
    _exit_with_parent()


_WATCHED_PARENT: list[int] = []  # the parent process a worker watches, once its watch has started


def _exit_with_parent(poll: float = 0.5) -> None:
    """In a joblib (loky) worker process: exit within ``poll`` seconds of the parent process's death.

    A worker whose parent was killed (SIGKILL, an out-of-memory kill) would otherwise finish its task, several
    minutes for a large fit, then wait out loky's idle timeout (300 s), holding its memory all along. A daemon
    thread compares ``os.getppid()`` with the parent seen at the first task; when the parent is gone the worker is
    re-parented and the thread ends it with ``os._exit``. Does nothing in the main process (where the parent is a
    shell or a notebook server, whose exit must not end a run started with ``nohup``) or in other kinds of worker.
    """
    from joblib.externals.loky import process_executor

    if _WATCHED_PARENT or process_executor._CURRENT_DEPTH < 1:
        return
    parent = os.getppid()
    _WATCHED_PARENT.append(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(70)  # EX_SOFTWARE: nobody is left to receive the result

    threading.Thread(target=watch, name="labelrank-parent-watch", daemon=True).start()


def _cv_point_uncached(dataset: str, data_key: tuple, method: str, features: str, params_key: tuple, fold: int,
                       version: str, proto: Protocol, threads: int) -> dict[str, float]:
    _start_task(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    Y_eval, scores, pred, n_warn = _fit_outputs(dataset, method, features, dict(params_key), "default", fold, proto)
    out = evaluate(Y_eval, scores, pred)
    out["n_warnings"] = n_warn
    out["seconds"] = time.perf_counter() - t0
    out["cpu_seconds"] = time.process_time() - c0
    return out


def _test_point_uncached(dataset: str, data_key: tuple, method: str, features: str, params_key: tuple,
                         threshold: str, version: str, proto: Protocol, threads: int):
    _start_task(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    _, scores, pred, n_warn = _fit_outputs(dataset, method, features, dict(params_key), threshold, -1, proto)
    return {"scores": scores, "pred": pred, "n_warnings": n_warn, "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - c0}


def _params_key(params: dict[str, Any]) -> tuple:
    return tuple(sorted((str(k), v.item() if isinstance(v, np.generic) else v) for k, v in params.items()))


def _threads_per_task(jobs: int) -> int:
    cores = os.cpu_count() or 1
    return max(1, cores // max(1, jobs)) if jobs > 0 else 1


@lru_cache(maxsize=1)
def _stop_workers_at_exit() -> None:
    """Shut joblib's reusable worker pool down when the interpreter exits (once registered).

    Without it a Jupyter kernel that ran the protocol exits with live workers, and joblib's resource tracker
    reports their semaphores and memory-mapping folders as leaked.
    """
    import atexit

    from joblib.externals.loky import get_reusable_executor

    atexit.register(lambda: get_reusable_executor().shutdown(wait=True))


def _run_tasks(tasks: list[tuple], func: Any, desc: str, progress: bool) -> list:
    """``func(*task)`` for every task, in task order; ``func`` is a :class:`~labelrank._cache.ResultCache`.

    Cached results are read in this process; the others run through :class:`joblib.Parallel` (``n_jobs()``
    workers, the backend of :func:`joblib.parallel_config`) under a tqdm progress bar.
    """
    done = {i: func(*t) for i, t in enumerate(tasks) if func.check_call_in_cache(*t)}
    pending = [i for i in range(len(tasks)) if i not in done]
    if pending:
        _stop_workers_at_exit()
        jobs = n_jobs()
        if jobs == 1 or len(pending) == 1:
            it = (func(*tasks[i]) for i in pending)
        else:
            it = joblib.Parallel(n_jobs=jobs, return_as="generator")(joblib.delayed(func)(*tasks[i]) for i in pending)
        for i, out in zip(pending, tqdm(it, total=len(pending), desc=desc, disable=not progress, leave=False)):
            done[i] = out
    return [done[i] for i in range(len(tasks))]


# ----------------------------------------------------------------------------------------------------------------
# Tuning
# ----------------------------------------------------------------------------------------------------------------


@dataclass
class TuneResult:
    """What :func:`tune` found.

    Attributes
    ----------
    dataset, method, features, search : str
    points : pandas.DataFrame
        One row per evaluated grid point: the parameters, the mean over the folds of each of the eight metrics,
        ``n_warnings`` (convergence warnings summed over the folds), ``seconds`` and ``cpu_seconds`` (wall and
        CPU time of the fits, summed over the folds).
    chosen : dict
        Target metric -> the parameter dict with the best cross-validated value of that metric.
    """

    dataset: str
    method: str
    features: str
    search: str
    points: pd.DataFrame
    chosen: dict[str, dict[str, Any]]

    def configurations(self) -> list[dict[str, Any]]:
        """The distinct chosen configurations, in the order of the metrics that chose them."""
        seen: dict[tuple, dict] = {}
        for params in self.chosen.values():
            seen.setdefault(_params_key(params), params)
        return list(seen.values())

    def cv_value(self, params: dict[str, Any], metric: str) -> float:
        """The cross-validated mean of ``metric`` at ``params`` (an evaluated point)."""
        mask = np.ones(len(self.points), dtype=bool)
        for name, value in params.items():
            mask &= np.isclose(self.points[name].to_numpy(dtype=float), float(value), rtol=1e-12, atol=0)
        if mask.sum() != 1:
            raise KeyError(f"params {params!r} is not an evaluated point of this TuneResult")
        return float(self.points.loc[mask, metric].iloc[0])


class _Evaluator:
    """Scores grid points by cross-validation, through the cache, and remembers them."""

    def __init__(self, dataset: str, method: str, features: str, proto: Protocol, progress: bool):
        self.dataset, self.method, self.features, self.proto, self.progress = dataset, method, features, proto, progress
        self.table: dict[tuple, dict[str, float]] = {}
        self.cached = _cached(_cv_point_uncached, "cv_point")

    def __call__(self, configs: Iterable[dict[str, Any]]) -> None:
        pending = [c for c in {_params_key(c): c for c in configs}.values() if _params_key(c) not in self.table]
        if not pending:
            return
        threads = _threads_per_task(n_jobs())
        key = self.proto.data_key(self.dataset)
        version = code_version(self.method)
        tasks = [(self.dataset, key, self.method, self.features, _params_key(c), f, version, self.proto,
                  threads) for c in pending for f in range(self.proto.n_folds)]
        desc = f"{self.dataset} {self.method}{' (meta)' if self.features == 'meta' and _spec(self.method).kind == 'baseline' else ''}"
        out = _run_tasks(tasks, self.cached, desc, self.progress)
        for i, c in enumerate(pending):
            folds = out[i * self.proto.n_folds : (i + 1) * self.proto.n_folds]
            row = {m: float(np.nanmean([f[m] for f in folds])) for m in _METRIC_NAMES}
            row["n_warnings"] = int(sum(f["n_warnings"] for f in folds))
            row["seconds"] = float(sum(f["seconds"] for f in folds))
            row["cpu_seconds"] = float(sum(f["cpu_seconds"] for f in folds))
            self.table[_params_key(c)] = row

    def best(self, configs: Sequence[dict[str, Any]], metric: str) -> dict[str, Any]:
        """The config of ``configs`` (already evaluated) with the best mean ``metric``; ties: the first."""
        sign = 1.0 if METRICS[metric].higher_is_better else -1.0
        values = [sign * self.table[_params_key(c)][metric] for c in configs]
        return configs[int(np.nanargmax(values))]

    def frame(self) -> pd.DataFrame:
        rows = [dict(k) | v for k, v in self.table.items()]
        return pd.DataFrame(rows)


def widen_grid(values: list[float], side: Literal["low", "high"], points: int) -> list[float]:
    """The log-spaced grid ``values`` with ``points`` more values beyond its ``"low"`` or ``"high"`` end, at its spacing.

    Examples
    --------
    >>> widen_grid([0.1, 1.0, 10.0], "high", 2)
    [0.1, 1.0, 10.0, 100.0, 1000.0]
    """
    logs = np.log10(values)
    step = (logs[-1] - logs[0]) / (len(values) - 1) if len(values) > 1 else 1.0
    if side == "high":
        return values + [float(10 ** (logs[-1] + step * (i + 1))) for i in range(points)]
    return [float(10 ** (logs[0] - step * (points - i))) for i in range(points)] + values


def _scan_walk(ev: _Evaluator, base: dict, name: str, values: list[float], targets: Sequence[str],
               proto: Protocol, widen: bool) -> dict[str, dict]:
    """Staged search along one axis: walk out from the middle while some target's best is within
    ``proto.patience`` values of an explored end; a C axis (``widen``) grows beyond the grid's ends."""
    values = list(values)
    lo = hi = (len(values) - 1) // 2
    lo, hi = max(0, lo - 1), min(len(values) - 1, hi + 1)
    widened = {"low": 0, "high": 0}
    while True:
        configs = [base | {name: v} for v in values[lo : hi + 1]]
        ev(configs)
        best_idx = [lo + configs.index(ev.best(configs, t)) for t in targets]
        left = min(best_idx) - lo < proto.patience
        right = hi - max(best_idx) < proto.patience
        if widen and left and lo == 0 and widened["low"] < proto.max_widen:
            values = widen_grid(values, "low", proto.widen_points)
            widened["low"] += 1
            lo, hi = lo + proto.widen_points, hi + proto.widen_points
        if widen and right and hi == len(values) - 1 and widened["high"] < proto.max_widen:
            values = widen_grid(values, "high", proto.widen_points)
            widened["high"] += 1
        step_left = left and lo > 0
        step_right = right and hi < len(values) - 1
        if not (step_left or step_right):
            return {t: ev.best(configs, t) for t in targets}
        lo, hi = lo - int(step_left), hi + int(step_right)


def tune(dataset: str, method: str, features: Representation = "original", proto: Protocol | None = None,
         search: Literal["staged", "full"] | None = None, targets: Sequence[str] | None = None,
         progress: bool = True) -> TuneResult:
    """Tune ``method`` on ``dataset`` by cross-validation on the training set, for each metric.

    Parameters
    ----------
    dataset : str
        One of the profile's data sets.
    method : str
        A key of :data:`METHODS`.
    features : {"original", "meta"}
        The representation; the rankers take "meta" only, and "original" is read as "meta" for them.
    proto : Protocol, optional
        The profile's settings (:func:`protocol` of ``LABELRANK_PROFILE`` when None).
    search : {"staged", "full"}, optional
        ``proto.search`` when None; see the module docstring.
    targets : sequence of str, optional
        The metrics to choose a configuration for; ``proto.targets`` (MAP and Micro-F1) by default.
    progress : bool
        Show progress bars.

    Returns
    -------
    TuneResult
    """
    proto = protocol() if proto is None else proto
    spec = _spec(method)
    features = "meta" if spec.kind == "ranker" else features
    _check_representation(method, features)
    if dataset not in proto.datasets:
        raise ValueError(f"dataset must be one of the {proto.profile} profile's {proto.datasets}, got {dataset!r}")
    search = proto.search if search is None else search
    if search not in ("staged", "full"):
        raise ValueError(f"search must be 'staged' or 'full', got {search!r}")
    targets = proto.targets if targets is None else tuple(targets)
    for t in targets:
        if t not in METRICS:
            raise ValueError(f"targets must be metric names of {list(METRICS)}, got {t!r}")
    ev = _Evaluator(dataset, method, features, proto, progress)
    axes = [(name, list(proto.grids[grid]), grid == "C") for name, grid in spec.axes]
    if search == "full":
        chosen = _full_search(ev, axes, targets, proto)
    else:
        middle = {name: values[(len(values) - 1) // 2] for name, values, _ in axes}
        chosen = {t: dict(middle) for t in targets}
        for name, values, is_c in axes:
            bases = {_params_key({a: v for a, v in c.items() if a != name}): {a: v for a, v in c.items() if a != name}
                     for c in chosen.values()}
            new = {}
            for base in bases.values():
                mine = [t for t in targets if _params_key({a: v for a, v in chosen[t].items() if a != name})
                        == _params_key(base)]
                new.update(_scan_walk(ev, base, name, values, mine, proto, widen=is_c))
            chosen = {t: new[t] for t in targets}
    return TuneResult(dataset, method, features, search, ev.frame(), chosen)


def _full_search(ev: _Evaluator, axes: list, targets: Sequence[str], proto: Protocol) -> dict[str, dict]:
    """The product of the axes; a C axis is widened (and the product re-evaluated) on boundary hits."""
    grids = {name: list(values) for name, values, _ in axes}
    widened = {"low": 0, "high": 0}
    while True:
        configs = [dict(zip(grids, combo)) for combo in itertools.product(*grids.values())]
        ev(configs)
        best = {t: ev.best(configs, t) for t in targets}
        grow = []
        for name, _, is_c in axes:
            if not is_c:
                continue
            hits = {b[name] for b in best.values()}
            for side, edge in (("low", grids[name][0]), ("high", grids[name][-1])):
                if edge in hits and widened[side] < proto.max_widen:
                    grow.append((name, side))
        if not grow:
            return best
        for name, side in grow:
            grids[name] = widen_grid(grids[name], side, proto.widen_points)
            widened[side] += 1


def search_comparison(dataset: str = "emotions", methods: Sequence[str] | None = None,
                      proto: Protocol | None = None, progress: bool = True) -> pd.DataFrame:
    """The staged search's choices beside the full grid's, method by method (cached like :func:`tune`).

    Parameters
    ----------
    dataset : str
        A data set of the profile (the chapter uses *emotions*, where the full grid is affordable).
    methods : sequence of str, optional
        Keys of :data:`METHODS`; by default the four baselines (grids over ``C`` or ``k``), MLC-ListNet and
        MLC-LambdaRank (``k`` x learning rate). The ``k`` x ``C`` grids of the SVM rankers are left out: their
        fits at ``C`` near :math:`10^6` take up to a minute each, even on emotions.
    proto : Protocol, optional
    progress : bool

    Returns
    -------
    pandas.DataFrame
        One row per (method, target metric): ``staged`` and ``full`` (the chosen parameters, JSON), ``same``,
        ``cv_staged`` and ``cv_full`` (the target's cross-validated mean at each choice), ``points_staged`` and
        ``points_full`` (grid points evaluated).
    """
    proto = protocol() if proto is None else proto
    methods = ("Binary-SVM", "RankSVM", "IBLR", "ML-kNN", "MLC-ListNet", "MLC-LambdaRank") if methods is None \
        else tuple(methods)
    rows = []
    for method in methods:
        staged = tune(dataset, method, proto=proto, search="staged", progress=progress)
        full = tune(dataset, method, proto=proto, search="full", progress=progress)
        for target in proto.targets:
            a, b = staged.chosen[target], full.chosen[target]
            rows.append({
                "method": method, "target": target,
                "staged": json.dumps(a, sort_keys=True), "full": json.dumps(b, sort_keys=True),
                "same": _params_key(a) == _params_key(b),
                "cv_staged": staged.cv_value(a, target), "cv_full": full.cv_value(b, target),
                "points_staged": len(staged.points), "points_full": len(full.points),
            })
    return pd.DataFrame(rows)


def test_curve(dataset: str, method: str, features: Representation = "original", proto: Protocol | None = None,
               progress: bool = True) -> pd.DataFrame:
    """The test-set value of every metric at every value of a one-parameter method's grid (cached).

    Not a tuning tool (the test set must not choose hyper-parameters): the chapters use it to find which grid
    value reproduces a number of the paper, e.g. the ``k`` behind each of the paper's ML-kNN cells.

    Returns
    -------
    pandas.DataFrame
        Index: the grid values of the method's only axis; columns: the eight metrics (default threshold rule).
    """
    proto = protocol() if proto is None else proto
    spec = _spec(method)
    if len(spec.axes) != 1:
        raise ValueError(f"method must have a single tuned parameter, got {method!r} with axes {spec.axes}")
    features = "meta" if spec.kind == "ranker" else features
    _check_representation(method, features)
    name, grid = spec.axes[0]
    values = proto.grids[grid]
    cached = _cached(_test_point_uncached, "test_point")
    threads = _threads_per_task(n_jobs())
    tasks = [(dataset, proto.data_key(dataset), method, features, _params_key({name: v}), "default",
              code_version(method), proto, threads) for v in values]
    outs = _run_tasks(tasks, cached, f"{dataset} {method}: test values over the grid", progress)
    _, _, _, Y_test = load_data(dataset, proto)
    rows = {v: evaluate(Y_test, o["scores"], o["pred"]) for v, o in zip(values, outs)}
    return pd.DataFrame(rows).T.rename_axis(name)


def _splitting_fold(dataset: str, data_key: tuple, method: str, params_key: tuple, fold: int, secondary: float,
                    version: str, proto: Protocol, threads: int) -> dict[str, dict[str, float]]:
    from labelrank.threshold import LLSFThreshold

    _start_task(threads)
    X_fit, Y_fit, X_val, Y_val = _split(dataset, proto, fold)
    params = dict(params_key)
    out = {}
    # non-splitting: ranker and threshold on the same instances (the estimator's own LLSF)
    with _ConvergenceWarnings():
        est = make_estimator(method, params, "regression").fit(X_fit, Y_fit)
    out["non-splitting"] = evaluate(Y_val, est.decision_function(X_val), est.predict(X_val))
    # splitting: the ranker on a primary part, the LLSF map on the scores of the secondary part
    rng = np.random.default_rng(proto.seed + 2 + fold)
    order = rng.permutation(Y_fit.shape[0])
    n_sec = int(round(secondary * Y_fit.shape[0]))
    sec, prim = np.sort(order[:n_sec]), np.sort(order[n_sec:])
    with _ConvergenceWarnings():
        est = make_estimator(method, params, "regression").fit(X_fit[prim], Y_fit[prim])
    threshold = LLSFThreshold(rescale=True).fit(est.decision_function(X_fit[sec]), Y_fit[sec])
    scores = est.decision_function(X_val)
    out["splitting"] = evaluate(Y_val, scores, threshold.predict(scores))
    return out


def splitting_comparison(dataset: str, method: str = "MLC-ListNet", params: dict[str, Any] | None = None,
                         secondary: float = 0.25, proto: Protocol | None = None,
                         progress: bool = True) -> pd.DataFrame:
    """Section 3.4's two ways to train the LLSF threshold, compared by cross-validation on the training set.

    *Non-splitting* (the paper's choice): the ranker and the threshold map are fitted on the same instances.
    *Splitting*: the ranker is fitted on a primary part of each fold's training instances (``1 - secondary``) and
    the threshold map on the ranker's scores of the secondary part. Both are scored on the fold's validation
    instances; the estimator works on the raw data (a :class:`~labelrank.MetaLevelRanker` computes its own
    meta-level features from the instances it is fitted on).

    Parameters
    ----------
    dataset, method : str
    params : dict, optional
        The hyper-parameters; by default those :func:`tune` chose for Micro-F1.
    secondary : float
        The fraction of each fold's training instances held out for the threshold map, in (0, 1).
    proto : Protocol, optional
    progress : bool

    Returns
    -------
    pandas.DataFrame
        Index: "non-splitting", "splitting"; columns: the eight metrics (means over the folds).
    """
    proto = protocol() if proto is None else proto
    if not 0.0 < float(secondary) < 1.0:
        raise ValueError(f"secondary must be a fraction in (0, 1), got {secondary!r}")
    if params is None:
        params = tune(dataset, method, proto=proto, progress=progress).chosen["Micro-F1"]
    return _fold_means(_splitting_fold, "splitting_fold", dataset, method, params, (float(secondary),), proto,
                       f"{dataset} {method}: splitting vs non-splitting", progress)


def _fold_means(func: Callable, name: str, dataset: str, method: str, params: dict[str, Any], extra: tuple,
                proto: Protocol, desc: str, progress: bool) -> pd.DataFrame:
    """Run the cached ``func(dataset, data_key, method, params_key, fold, *extra, version, proto, threads)`` on
    every fold; each returns ``{variant: {metric: value}}``. The means over the folds, one row per variant."""
    cached = _cached(func, name)
    tasks = [(dataset, proto.data_key(dataset), method, _params_key(params), f, *extra, code_version(method), proto,
              _threads_per_task(n_jobs())) for f in range(proto.n_folds)]
    folds = _run_tasks(tasks, cached, desc, progress)
    return pd.DataFrame({v: {m: float(np.nanmean([f[v][m] for f in folds])) for m in _METRIC_NAMES}
                         for v in folds[0]}).T


def _llsf_inputs_fold(dataset: str, data_key: tuple, method: str, params_key: tuple, fold: int, version: str,
                      proto: Protocol, threads: int) -> dict[str, dict[str, float]]:
    from labelrank.threshold import LLSFThreshold

    _start_task(threads)
    _, Y_fit, _, Y_val = _split(dataset, proto, fold)
    with _ConvergenceWarnings():
        est, Zf, Zv = fit_ranker(dataset, method, dict(params_key), fold, proto)
    train_scores, scores = est.decision_function_features(Zf), est.decision_function_features(Zv)
    out = {}
    for inputs in ("ranked", "labels"):
        for rescale in (True, False):
            threshold = LLSFThreshold(rescale=rescale, inputs=inputs).fit(train_scores, Y_fit)
            out[f"{inputs}, {'rescaled' if rescale else 'raw'}"] = evaluate(Y_val, scores, threshold.predict(scores))
    return out


def llsf_inputs_comparison(dataset: str, method: str = "MLC-ListNet", params: dict[str, Any] | None = None,
                           proto: Protocol | None = None, progress: bool = True) -> pd.DataFrame:
    """What the LLSF threshold map reads, compared by cross-validation on the training set (section 2.3).

    Section 2.3 maps "an arbitrary ranked list of categories" (a vector of system-scored categories) to a threshold,
    Elisseeff & Weston's method with one modification, scores "rescaled to sum to one". Four readings of one
    ranker's scores, each fitted on a fold's training instances (non-splitting) and scored on its validation
    instances: the map reads the score vector in category order (Elisseeff & Weston's input, the literal reading)
    or the scores sorted decreasingly (the library's default, our reading), rescaled or raw
    (:class:`labelrank.threshold.LLSFThreshold`). The test set is not used.

    Parameters
    ----------
    dataset : str
    method : str
        A meta-level ranker of :data:`METHODS`.
    params : dict, optional
        Its hyper-parameters; by default those :func:`tune` chose for MAP. The ranking-tuned configuration does
        not depend on the threshold rule, so it favours none of the four readings (the Micro-F1-tuned one was
        chosen with the library's default reading and would favour it).
    proto : Protocol, optional
    progress : bool

    Returns
    -------
    pandas.DataFrame
        Index: "ranked, rescaled", "ranked, raw", "labels, rescaled", "labels, raw"; columns: the eight metrics
        (means over the folds; the five ranking metrics are the same in every row).
    """
    proto = protocol() if proto is None else proto
    if _spec(method).kind != "ranker":
        raise ValueError(f"method must be a meta-level ranker, got {method!r}")
    if params is None:
        params = tune(dataset, method, proto=proto, progress=progress).chosen["MAP"]
    return _fold_means(_llsf_inputs_fold, "llsf_inputs_fold", dataset, method, params, (), proto,
                       f"{dataset} {method}: LLSF inputs",
                       progress)


# ----------------------------------------------------------------------------------------------------------------
# Test-set outputs and the results table
# ----------------------------------------------------------------------------------------------------------------


def test_outputs(dataset: str, method: str, params: dict[str, Any], features: Representation = "original",
                 threshold: ThresholdRule = "default", proto: Protocol | None = None) -> dict[str, Any]:
    """Fit on the whole training set and score the test set (cached).

    Returns
    -------
    dict
        ``scores`` (n_test, n_labels) float64, ``pred`` 0/1 int8, ``n_warnings`` and ``seconds``.
    """
    proto = protocol() if proto is None else proto
    features = "meta" if _spec(method).kind == "ranker" else features
    _check_representation(method, features)
    cached = _cached(_test_point_uncached, "test_point")
    return cached(dataset, proto.data_key(dataset), method, features, _params_key(params), threshold,
                  code_version(method), proto, _threads_per_task(1))


def jobs(dataset: str, proto: Protocol | None = None) -> list[tuple[str, str]]:
    """The (method, features) pairs :func:`results` runs on ``dataset``, in order: every method of
    :data:`METHODS`, and the conventional methods of :data:`FIG2_METHODS` on meta-level features where the
    profile runs Fig. 2 (:attr:`Protocol.fig2_datasets`)."""
    proto = protocol() if proto is None else proto
    pairs = [(m, "meta" if METHODS[m].kind == "ranker" else "original") for m in METHODS]
    if dataset in proto.fig2_datasets:
        pairs += [(m, "meta") for m in FIG2_METHODS]
    return pairs


class _PeakMemory:
    """Peak resident memory of this process plus its children, sampled every 0.2 s (psutil), or rusage."""

    def __init__(self):
        self.peak = 0
        self._stop = threading.Event()
        try:
            import psutil

            self._proc = psutil.Process()
        except ImportError:  # pragma: no cover - psutil is optional
            self._proc = None
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _total(self) -> int:
        total = self._proc.memory_info().rss
        for child in self._proc.children(recursive=True):
            try:
                total += child.memory_info().rss
            except Exception:  # noqa: BLE001 - a child may exit between listing and reading
                pass
        return total

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._total())
            self._stop.wait(0.2)

    def __enter__(self):
        if self._proc is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._proc is not None:
            self._thread.join()
        usage = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                 + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) * 1024
        self.peak_rusage = usage
        return False


def _run_info_path(profile: str) -> Path:
    return cache_dir() / "experiments" / f"run_info_{profile}.json"


def run_info(profile: str | None = None) -> dict[str, Any]:
    """Wall time and peak memory of the recorded runs that computed something, newest last.

    :func:`results` records itself; ``python -m labelrank.experiments`` records one run covering everything the
    chapters compute. Each record: ``profile``, ``what`` (what was run), ``datasets``, ``started`` (local ISO
    time), ``wall_seconds``, ``peak_rss_mb`` (resident memory of the process and its worker processes, summed,
    sampled every 0.2 s; memory-mapped pages shared by several processes count once per process),
    ``peak_rusage_mb`` (``ru_maxrss`` of the process plus that of its largest finished child), ``n_jobs``,
    ``cpu_count``, ``code_version``, ``results_computed`` (cache entries written: a cold run writes all of them)
    and ``load`` (the 1-minute load average when the run started: how busy the machine already was).

    A record that cannot be read (damaged by hand, or written by another program) is renamed to
    ``run_info_<profile>.json.damaged-<time>`` with a warning, and an empty record is returned: the run record is
    bookkeeping, and never stops an experiment or a chapter.
    """
    profile = get_profile() if profile is None else profile
    path = _run_info_path(profile)
    empty: dict[str, Any] = {"profile": profile, "runs": []}
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(info, dict) and isinstance(info.get("runs"), list):
            return info
        problem = f"it holds {type(info).__name__}, not a record with a list of runs"
    except FileNotFoundError:
        return empty
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        problem = f"{type(exc).__name__}: {exc}"
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
    try:
        os.replace(path, aside)
    except FileNotFoundError:  # another process set it aside first
        pass
    warnings.warn(f"the run record {path} could not be read ({problem}); it was set aside as {aside.name} and "
                  "a new record is started", RuntimeWarning, stacklevel=2)
    return empty


def results(profile: str | Protocol | None = None, *, datasets: Sequence[str] | None = None,
            progress: bool = True) -> pd.DataFrame:
    """Run (or read from the cache) everything Tables 3-6 and Fig. 2 need; one tidy table.

    Parameters
    ----------
    profile : {"quick", "full"} or Protocol, optional
        ``LABELRANK_PROFILE`` when None; a :class:`Protocol` runs custom settings.
    datasets : sequence of str, optional
        A subset of the profile's data sets (all by default).
    progress : bool
        Show progress bars.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method, features, threshold, metric) with columns ``value`` (on the test set),
        ``params`` (JSON of the configuration the metric is reported from: the one tuned for its selection
        metric, ``tuned_on``), ``cv_value`` (the metric's cross-validated mean at that configuration), ``p_value``
        and ``mark`` (the paper's significance test against MLC-ListNet on the same metric and data set,
        :func:`labelrank.metrics.significance.compare`; NaN and "" for MLC-ListNet itself), ``n_warnings``
        (convergence warnings of the final fit) and ``search``. ``features`` is "original" or "meta";
        ``threshold`` is "default" (the method's own rule) or "regression" (section 2.3's LLSF, the only rule of
        the meta-level rankers); a baseline's regression rows hold the three decision metrics only.
    """
    proto = profile if isinstance(profile, Protocol) else protocol(profile)
    names = proto.datasets if datasets is None else tuple(datasets)
    for name in names:
        if name not in proto.datasets:
            raise ValueError(f"datasets must be among the {proto.profile} profile's {proto.datasets}, got {name!r}")
    with _recording(proto, names, "results"):
        table = pd.concat([_dataset_results(dataset, proto, progress) for dataset in names], ignore_index=True)
    return table


class _recording:
    """Time a block and record it in :func:`run_info` if it computed (did not only read) something."""

    def __init__(self, proto: Protocol, names: Sequence[str], what: str):
        self.proto, self.names, self.what = proto, tuple(names), what

    def __enter__(self):
        self.started, self.load, self.before = time.time(), os.getloadavg()[0], _cache_size()
        self.mem = _PeakMemory().__enter__()
        return self

    def __exit__(self, *exc):
        self.mem.__exit__(*exc)
        computed = _cache_size() - self.before
        if exc[0] is None and computed > 0:
            _record_run(self.proto, self.names, self.what, self.started, time.time() - self.started, self.mem,
                        self.load, computed)
        return False


def _dataset_results(dataset: str, proto: Protocol, progress: bool) -> pd.DataFrame:
    """The rows of :func:`results` for one data set."""
    _, _, _, Y_test = load_data(dataset, proto)
    for fold in tqdm(range(-1, proto.n_folds), desc=f"{dataset}: meta-level features", disable=not progress,
                     leave=False):
        meta_features(dataset, fold, proto)
    tuned = {(method, features): tune(dataset, method, features, proto, progress=progress)
             for method, features in tqdm(jobs(dataset, proto), desc=f"{dataset}: tuning", disable=not progress)}
    # which final fit each reported cell needs
    cells = []
    for (method, features), tr in tuned.items():
        for threshold in METHODS[method].thresholds:
            for metric, info in METRICS.items():
                if threshold == "regression" and METHODS[method].kind == "baseline" and info.kind == "rank":
                    continue
                cells.append((method, features, threshold, metric, tr.chosen[proto.selection[metric]]))
    fits = list(dict.fromkeys((m, f, th, _params_key(p)) for m, f, th, _, p in cells))
    cached = _cached(_test_point_uncached, "test_point")
    threads = _threads_per_task(n_jobs())
    tasks = [(dataset, proto.data_key(dataset), m, f, pk, th, code_version(m), proto, threads)
             for m, f, th, pk in fits]
    outputs = dict(zip(fits, _run_tasks(tasks, cached, f"{dataset}: final fits", progress)))
    rows = []
    for method, features, threshold, metric, params in cells:
        info = METRICS[metric]
        out = outputs[(method, features, threshold, _params_key(params))]
        key = "scores" if info.kind == "rank" else "pred"
        if method == "MLC-ListNet":
            p_value, mark = np.nan, ""
        else:
            ref_params = tuned[("MLC-ListNet", "meta")].chosen[proto.selection[metric]]
            ref = outputs[("MLC-ListNet", "meta", "regression", _params_key(ref_params))]
            cmp = compare(metric, Y_test, ref[key], out[key])
            p_value, mark = cmp.p_value, cmp.mark
        rows.append({
            "dataset": dataset, "method": method, "features": features, "threshold": threshold, "metric": metric,
            "value": info(Y_test, out[key]), "params": json.dumps(params, sort_keys=True),
            "tuned_on": proto.selection[metric], "cv_value": tuned[(method, features)].cv_value(params, metric),
            "p_value": p_value, "mark": mark, "n_warnings": int(out["n_warnings"]),
            "fit_seconds": float(out["seconds"]), "search": tuned[(method, features)].search,
        })
    return pd.DataFrame(rows)


def _cache_size() -> int:
    """Number of cached results (a proxy for "was anything computed"): output files under the cache folder."""
    root = cache_dir() / "experiments"
    return sum(1 for _ in root.rglob("output.pkl")) if root.is_dir() else 0


def _record_run(proto: Protocol, names: tuple[str, ...], what: str, started: float, wall: float, mem: _PeakMemory,
                load: float, computed: int) -> None:
    """Append one run to the run record: read, change and replace the file under a lock (several runs may end at
    once), the new file written whole before it replaces the old (:func:`labelrank._paths.write_text_atomic`)."""
    from filelock import FileLock

    path = _run_info_path(proto.profile)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "profile": proto.profile,
        "what": what,
        "datasets": list(names),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "wall_seconds": round(wall, 1),
        "peak_rss_mb": round(mem.peak / 2**20, 1),
        "peak_rusage_mb": round(mem.peak_rusage / 2**20, 1),
        "n_jobs": n_jobs(),
        "code_version": code_version(),
        "results_computed": computed,
        "load": round(load, 2),
        "cpu_count": os.cpu_count(),
    }
    with FileLock(path.with_name(path.name + ".lock")):
        info = run_info(proto.profile)
        info["runs"].append(record)
        write_text_atomic(path, json.dumps(info, indent=1))


# ----------------------------------------------------------------------------------------------------------------
# Ranks and the paper's numbers beside ours
# ----------------------------------------------------------------------------------------------------------------


def _signed(table: pd.DataFrame, value: str) -> pd.Series:
    unknown = set(table["metric"]) - set(METRICS)
    if unknown:
        raise ValueError(f"table has metrics that are not in METRICS: {sorted(unknown)}")
    sign = table["metric"].map(lambda m: 1.0 if METRICS[m].higher_is_better else -1.0)
    return sign * pd.to_numeric(table[value])


def rank_methods(table: pd.DataFrame, value: str = "value", by: Sequence[str] = ("metric", "dataset"),
                 ties: Literal["min", "max", "average"] = "min") -> pd.Series:
    """Rank the methods (rows) within each group ``by``: 1 = best, using each metric's direction.

    Parameters
    ----------
    table : pandas.DataFrame
        With a ``metric`` column (names of :data:`labelrank.metrics.METRICS`) and the ``value`` column.
    ties : {"min", "max", "average"}
        Rank of tied values (:meth:`pandas.Series.rank`); the paper uses both "min" and "max" (Table 6).

    Returns
    -------
    pandas.Series of ranks aligned with ``table``.
    """
    signed = _signed(table, value)
    return signed.groupby([table[b] for b in by]).rank(ascending=False, method=ties)


def rank_totals(table: pd.DataFrame, rank: str = "rank", method: str = "method") -> pd.Series:
    """The sum of the ranks of each method (the paper's "Rank Total"), in order of first appearance."""
    order = list(dict.fromkeys(table[method]))
    return pd.to_numeric(table[rank]).groupby(table[method]).sum().reindex(order)


def rank_conflicts(table: pd.DataFrame, value: str = "value", rank: str = "rank",
                   by: Sequence[str] = ("metric", "dataset")) -> pd.DataFrame:
    """Rows whose printed ``rank`` contradicts the values: outside the ranks the value's tie group can take.

    Returns
    -------
    pandas.DataFrame
        The offending rows with two more columns, ``rank_min`` and ``rank_max``: the ranks their values admit.
    """
    lo = rank_methods(table, value, by, ties="min")
    hi = rank_methods(table, value, by, ties="max")
    printed = pd.to_numeric(table[rank])
    bad = (printed < lo) | (printed > hi)
    return table.assign(rank_min=lo.astype(int), rank_max=hi.astype(int))[bad]


def beside_paper(ours: pd.DataFrame, paper: pd.DataFrame, keys: Sequence[str] = ("metric", "dataset", "method"),
                 ties: Literal["min", "max", "average"] = "min") -> pd.DataFrame:
    """The paper's value beside ours, with Δ = ours - paper and both ranks.

    Parameters
    ----------
    ours : pandas.DataFrame
        Rows of :func:`results` for one table (``keys`` unique), with a ``value`` column (and ``mark`` if any).
    paper : pandas.DataFrame
        The transcribed table (:func:`labelrank.studies.paper.load`), with ``value`` and optionally ``rank``, ``mark``.
    keys : sequence of str
        Columns identifying a cell.

    Returns
    -------
    pandas.DataFrame
        ``keys``, ``paper``, ``ours``, ``delta``, ``paper_rank`` (printed, if the paper has ranks), ``our_rank``
        (among our methods present in ``ours``; ``ties``), ``paper_mark`` and ``our_mark`` (if available). Cells
        we do not have (citeseer) keep NaN in ``ours``.
    """
    keys = list(keys)
    left = paper.rename(columns={"value": "paper", "rank": "paper_rank", "mark": "paper_mark"})
    right = ours[keys + ["value"] + (["mark"] if "mark" in ours else [])].rename(
        columns={"value": "ours", "mark": "our_mark"})
    merged = left.merge(right, on=keys, how="left")
    merged["paper"] = pd.to_numeric(merged["paper"])
    merged["delta"] = merged["ours"] - merged["paper"]
    have = merged["ours"].notna()
    merged["our_rank"] = np.nan
    if have.any():
        sub = merged[have]
        merged.loc[have, "our_rank"] = rank_methods(sub, "ours", by=[k for k in keys if k != "method"], ties=ties)
    cols = keys + ["paper", "ours", "delta"] + [c for c in ("paper_rank", "our_rank", "paper_mark", "our_mark")
                                                if c in merged]
    return merged[cols]


#: What the chapters compute besides :func:`results`: the staged-versus-full comparison (on one data set), the test
#: values of ML-kNN over its whole grid (every data set), the splitting-versus-non-splitting comparison (on these
#: (data set, method) pairs) and the LLSF inputs comparison (these rankers, every data set).
CHAPTER_EXTRAS: dict[str, Any] = {
    "search": "emotions",
    "curve": "ML-kNN",
    "splitting": (("emotions", "MLC-ListNet"), ("emotions", "RankSVM"), ("yeast", "MLC-ListNet"), ("yeast", "RankSVM")),
    "llsf_inputs": ("MLC-ListNet", "MLC-LambdaRank", "MLC-RankSVM-IR", "MLC-SVM-MAP"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m labelrank.experiments [--profile quick|full]``: run the protocol, print wall time and memory."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m labelrank.experiments", description=main.__doc__)
    parser.add_argument("--profile", choices=("quick", "full"), default=None)
    parser.add_argument("--datasets", nargs="*", default=None, help="a subset of the profile's data sets")
    args = parser.parse_args(argv)
    try:
        return _main(args)
    except (ValueError, datasets.ChecksumError, datasets.DataUnavailableError, FileNotFoundError) as exc:
        # bad input (an unknown data set, a damaged or missing data file, a bad setting): one line, exit code 2
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"python -m labelrank.experiments: error: {message}", file=sys.stderr)
        return 2


def _main(args: Any) -> int:
    # run through the imported module, not ``__main__``: joblib's workers unpickle functions by module name
    from labelrank import experiments

    t0 = time.time()
    proto = experiments.protocol(args.profile)
    names = proto.datasets if args.datasets is None else tuple(args.datasets)
    unknown = [name for name in names if name not in proto.datasets]
    if unknown:
        raise ValueError(f"--datasets: {', '.join(map(repr, unknown))} not in the {proto.profile} profile's "
                         f"data sets {', '.join(proto.datasets)}")
    reason = unwritable_reason(cache_dir() / "experiments")
    if reason is not None:
        raise ValueError(f"the experiment cache {cache_dir() / 'experiments'} cannot be written ({reason}); set "
                         "LABELRANK_CACHE to a writable folder")
    with experiments._recording(proto, names, "everything the chapters compute"):
        table = experiments.results(proto, datasets=names)
        for dataset, method in experiments.CHAPTER_EXTRAS["splitting"]:
            if dataset in names:
                experiments.splitting_comparison(dataset, method, proto=proto)
        for dataset in names:
            experiments.test_curve(dataset, experiments.CHAPTER_EXTRAS["curve"], proto=proto)
            for method in experiments.CHAPTER_EXTRAS["llsf_inputs"]:
                experiments.llsf_inputs_comparison(dataset, method, proto=proto)
        if experiments.CHAPTER_EXTRAS["search"] in names:
            experiments.search_comparison(experiments.CHAPTER_EXTRAS["search"], proto=proto)
    print(f"{len(table)} result rows in {time.time() - t0:.1f} s")
    runs = experiments.run_info(args.profile)["runs"]
    if runs:
        print(json.dumps(runs[-1], indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    from labelrank.experiments import main as _main

    raise SystemExit(_main())
