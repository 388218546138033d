"""The engine's settings: :class:`Protocol` (data sets, folds, grids, search, selection rule, methods) and
:class:`MethodSpec` (how to build an estimator and what to tune); the worker count; the registry through which a
study lets the engine resolve a profile name."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from labelrank.metrics import METRICS
from labelrank.datasets import REGISTRY as datasets_registry
from labelrank.datasets import preparation

_N_JOBS_ENV = "LABELRANK_N_JOBS"


_METRIC_NAMES = tuple(METRICS)


#: The selection rule: ranking metrics are reported from the configuration with the best cross-validated MAP,
#: decision metrics from the one with the best cross-validated Micro-F1.
_SELECTION = {name: ("MAP" if info.kind == "rank" else "Micro-F1") for name, info in METRICS.items()}


Representation = Literal["original", "meta"]


ThresholdRule = Literal["default", "regression"]


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
    search_by_dataset : dict
        Data set -> search strategy, where it differs from ``search`` (:meth:`search_for`).
    staged_methods : dict
        Data set -> the methods searched with the staged search there, whatever its strategy says (the costliest
        methods of a data set whose other methods have their full grids; :meth:`search_for`).
    patience : int
        Staged search along the ``C`` axis: stop after this many consecutive worse values on each side.
    widen_points : int
        Values added at the same spacing when a choice sits on the boundary of the ``C`` grid.
    max_widen : int
        How many times the ``C`` grid may be widened on each side.
    k_meta : int
        ``k`` of the meta-level features fed to the conventional methods in Fig. 2.
    selection : dict
        Metric -> the metric whose cross-validated optimum configures it. The default: the ranking metrics follow MAP,
        the decision metrics Micro-F1.
    tune_subsample : dict
        Data set -> number of training instances (a seeded random subset) on which the cross-validation runs;
        absent = the whole training set. The final models are always fitted on the whole training set.
    fig2_exclude : tuple of str
        Data sets left out of Fig. 2's runs of the conventional methods on meta-level features.
    methods : dict
        The methods, by name (:class:`MethodSpec`); a study fills it (Yang & Gopal's nine:
        :data:`labelrank.studies.yang2012.experiments.METHODS`).
    fig2_methods : tuple of str
        The conventional methods that Fig. 2 also runs on meta-level features.
    unit_variance : tuple of str
        Data sets whose features are divided by their standard deviation on the training split (not centred), a
        preparation step of the protocol (Yang & Gopal rescale emotions so).
    """

    profile: str
    datasets: tuple[str, ...]
    n_folds: int
    seed: int
    grids: dict[str, tuple[float, ...]]
    subsample: dict[str, tuple[int, int]] = field(default_factory=dict)
    search: Literal["staged", "full"] = "staged"
    search_by_dataset: dict[str, Literal["staged", "full"]] = field(default_factory=dict)
    staged_methods: dict[str, tuple[str, ...]] = field(default_factory=dict)
    patience: int = 1
    widen_points: int = 4
    max_widen: int = 2
    k_meta: int = 10
    selection: dict[str, str] = field(default_factory=lambda: dict(_SELECTION))
    tune_subsample: dict[str, int] = field(default_factory=dict)
    fig2_exclude: tuple[str, ...] = ()
    methods: Mapping[str, MethodSpec] = field(default_factory=dict)
    fig2_methods: tuple[str, ...] = ()
    unit_variance: tuple[str, ...] = ()

    def __post_init__(self):
        for name, value in (("search", self.search), *self.search_by_dataset.items()):
            if value not in ("staged", "full"):
                raise ValueError(f"search of {name!r} must be 'staged' or 'full', got {value!r}")
        for dataset, methods in self.staged_methods.items():
            if isinstance(methods, str) or not all(isinstance(m, str) for m in methods):
                raise TypeError(f"staged_methods[{dataset!r}] must be a tuple of method names, got {methods!r}")
            unknown = [m for m in methods if self.methods and m not in self.methods]
            if unknown:
                raise ValueError(f"staged_methods[{dataset!r}]: {unknown} not among the methods {list(self.methods)}")

    def search_for(self, dataset: str, method: str | None = None) -> Literal["staged", "full"]:
        """The search strategy :func:`tune` uses on ``dataset`` by default: for ``method`` if given (a method of
        :attr:`staged_methods` there is searched staged), else the data set's own.

        Examples
        --------
        >>> p = Protocol("demo", ("a", "b"), 5, 0, {}, search="full", search_by_dataset={"b": "staged"},
        ...              staged_methods={"a": ("slow",)})
        >>> p.search_for("a"), p.search_for("b"), p.search_for("a", "slow"), p.search_for("a", "fast")
        ('full', 'staged', 'staged', 'full')
        """
        if method is not None and method in self.staged_methods.get(dataset, ()):
            return "staged"
        return self.search_by_dataset.get(dataset, self.search)

    @property
    def fig2_datasets(self) -> tuple[str, ...]:
        """The data sets on which Fig. 2's conventional methods also run on meta-level features."""
        return tuple(d for d in self.datasets if d not in self.fig2_exclude)

    @property
    def k_max(self) -> int:
        """The largest ``k`` of the grid: meta-level features are computed once for it."""
        return int(max(self.grids["k"]))

    def data_key(self, dataset: str) -> tuple:
        """What identifies the data of one data set under this profile (part of every cache key).

        The settings that select and split the data, then the preparation steps applied to it: how the loader
        makes features (:func:`labelrank.datasets.preparation`; Reuters-21578's text analysis), and
        ``"unit_variance"`` where the protocol rescales the features.
        """
        key = (dataset, self.subsample.get(dataset), self.tune_subsample.get(dataset), self.n_folds, self.seed,
               self.k_max, self.k_meta)
        if dataset in datasets_registry:
            key += preparation(dataset)
        return key + (("unit_variance",) if dataset in self.unit_variance else ())

    @property
    def targets(self) -> tuple[str, ...]:
        """The metrics :func:`tune` optimises: the distinct values of :attr:`selection`."""
        return tuple(dict.fromkeys(self.selection.values()))


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
    warm_axis : str or None
        A parameter along which the method fits a path of values, each warm-started from the previous one's
        solution (:meth:`labelrank.MetaLevelRanker.fit_features_path`: ``C`` of RankSVM-IR and SVM-MAP; a
        baseline's ``fit_path``: ``C`` of :class:`~labelrank.baselines.BinarySVM` and
        :class:`~labelrank.baselines.RankSVM`). The full grid search then
        fits that axis's values of one configuration and fold in one task, in increasing order; each result is
        the same optimum up to the solver's tolerance (the staged search and the final fits stay cold).
    fixed : tuple of (parameter, value) pairs
        Settings given to every estimator of the method and never tuned, e.g. ``(("distance", "weka"),)``; part of
        the method's cache keys (:func:`~labelrank.protocol.keys.code_version`).
    batch_axis : str or None
        The learning-rate axis of a gradient ranker or LightGBM, whose values one call trains together
        (:meth:`labelrank.MetaLevelRanker.fit_features_path`): the full grid search fits that axis's values of one
        configuration and fold in one task, with results identical to one fit per value.
    """

    name: str
    kind: Literal["ranker", "baseline"]
    estimator: str | Callable[..., Any]
    axes: tuple[tuple[str, str], ...]
    version: int = 1
    warm_axis: str | None = None
    batch_axis: str | None = None
    fixed: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self):
        if self.batch_axis not in (None, "learning_rate"):
            raise ValueError(f"batch_axis must be None or 'learning_rate', got {self.batch_axis!r}")
        if self.warm_axis is not None and self.batch_axis is not None:
            raise ValueError(f"{self.name}: a method has a warm_axis or a batch_axis, not both")

    @property
    def path_axis(self) -> str | None:
        """The axis the full grid search fits in one task per configuration and fold: the warm or the batch axis."""
        return self.warm_axis if self.warm_axis is not None else self.batch_axis

    @property
    def thresholds(self) -> tuple[str, ...]:
        """The threshold rules reported: a baseline's own ("default") and the regression; a ranker's regression."""
        return ("regression",) if self.kind == "ranker" else ("default", "regression")


_PROTOCOLS: list[Callable[[str | None], Protocol]] = []


def register_protocols(factory: Callable[[str | None], Protocol]) -> None:
    """Let ``factory(profile)`` resolve a profile name ("quick", "full", or None for ``LABELRANK_PROFILE``).

    A study registers its protocols when it is imported (Yang & Gopal's:
    :func:`labelrank.studies.yang2012.experiments.protocol`); the engine's functions then accept ``proto=None``
    or a profile name. The latest registration wins.
    """
    if not callable(factory):
        raise TypeError(f"factory must be callable as factory(profile), got {type(factory).__name__}")
    _PROTOCOLS.append(factory)


def default_protocol(profile: str | None = None) -> Protocol:
    """The registered protocol of ``profile`` (see :func:`register_protocols`)."""
    if not _PROTOCOLS:
        raise ValueError("no protocol is registered: pass proto= (a Protocol), or import a study that registers "
                         "its protocols, e.g. labelrank.studies.yang2012.experiments")
    return _PROTOCOLS[-1](profile)


def _spec(method: str, proto: Protocol) -> MethodSpec:
    if method not in proto.methods:
        raise ValueError(f"method must be one of {list(proto.methods)}, got {method!r}")
    return proto.methods[method]
