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


#: The metrics every evaluation of the engine computes (:data:`labelrank.metrics.METRICS`), in order.
METRIC_NAMES = tuple(METRICS)


#: The selection rule: ranking metrics are reported from the configuration with the best cross-validated MAP,
#: decision metrics from the one with the best cross-validated Micro-F1.
_SELECTION = {name: ("MAP" if info.kind == "rank" else "Micro-F1") for name, info in METRICS.items()}


Representation = Literal["original", "meta"]


#: The thresholding a results row reports: "default", the method's own rule, or "regression", the LLSF map of
#: scores to a threshold (:class:`labelrank.threshold.LLSFThreshold`).
Thresholding = Literal["default", "regression"]


def unit_variance(X_train, X_test):
    """Each feature divided by its standard deviation on the training split (not centred; a constant feature is
    left as it is); dense features.

    Parameters
    ----------
    X_train, X_test : numpy.ndarray
        Dense features of the training and the test split.

    Examples
    --------
    >>> import numpy as np
    >>> unit_variance(np.array([[0.0, 1.0], [2.0, 1.0]]), np.array([[4.0, 3.0]]))[1]
    array([[4., 3.]])
    """
    import numpy as np

    scale = np.asarray(X_train).std(axis=0)
    scale[scale == 0] = 1.0
    return X_train / scale, X_test / scale


@dataclass(frozen=True)
class DataSource:
    """A data set of a study's own, for :attr:`Protocol.sources`: how to load it and the version of its numbers.

    Attributes
    ----------
    load : callable
        ``load() -> (X_train, Y_train, X_test, Y_test)``: features (dense or scipy sparse) and 0/1 label matrices
        of the training and the test split. Called once per process (the engine keeps the result).
    version : str
        Part of every cache key of the data set (:meth:`Protocol.data_key`): change it when the data change.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> toy = DataSource(lambda: (rng.normal(size=(20, 3)), rng.integers(0, 2, (20, 2)),
    ...                           rng.normal(size=(5, 3)), rng.integers(0, 2, (5, 2))), version="toy-1")
    >>> Protocol("demo", ("toy",), 3, 0, {}, sources={"toy": toy}).data_key("toy")
    ('toy', None, None, 3, 0, 0, 10, 'source', 'toy-1')
    """

    load: Callable[[], tuple[Any, Any, Any, Any]]
    version: str

    def __post_init__(self):
        if not callable(self.load):
            raise TypeError(f"load must be callable as load() -> (X_train, Y_train, X_test, Y_test), got "
                            f"{type(self.load).__name__}")
        if not isinstance(self.version, str) or not self.version:
            raise TypeError(f"version must be a non-empty string, got {self.version!r}")


#: The preparation steps a :class:`Protocol` may name per data set (:attr:`Protocol.preparation`): each takes the
#: training and test features and returns them prepared.
PREPARATIONS: dict[str, Callable[[Any, Any], tuple[Any, Any]]] = {"unit_variance": unit_variance}


@dataclass(frozen=True)
class Protocol:
    """The settings of one profile of the experiments.

    Attributes
    ----------
    profile : str
        The profile's name ("quick", "full", or a study's own).
    datasets : tuple of str
        The data sets: names of :func:`labelrank.datasets.load`, of :attr:`sources`, or
        :data:`~labelrank.protocol.SYNTHETIC`.
    n_folds : int
        Cross-validation folds on the training set.
    seed : int
        Seed of the fold split and of the subsamples; the estimators use their own fixed ``random_state=0``.
    grids : dict
        Axis name -> tuple of values; a method's :attr:`MethodSpec.axes` name the grids of its parameters. The grid
        ``"k"`` holds the numbers of neighbours (the meta-level features are computed once for the largest); a
        grid named ``"C"`` is widened when a choice sits on its boundary.
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
    meta_k : int
        ``k`` of the concatenated meta-level features (:func:`~labelrank.protocol.concatenated_meta_features`) on
        which the methods of :attr:`meta_methods` run.
    selection : dict
        Metric -> the metric whose cross-validated optimum configures it. The default: the ranking metrics follow MAP,
        the decision metrics Micro-F1.
    tune_subsample : dict
        Data set -> number of training instances (a seeded random subset) on which the cross-validation runs;
        absent = the whole training set. The final models are always fitted on the whole training set.
    methods : dict
        The methods, by name (:class:`MethodSpec`); a study fills it (Yang & Gopal's nine:
        :data:`labelrank.studies.yang2012.configuration.METHODS`).
    meta_methods : dict
        Data set -> methods of kind "baseline" that :func:`results` also runs on the concatenated meta-level
        features there (``features="meta"``), besides their original features.
    preparation : dict
        Data set -> the names of the steps of :data:`PREPARATIONS` applied to its features after loading, in order
        (``"unit_variance"``: each feature divided by its standard deviation on the training split).
    reference : str or None
        The method every other is compared with by the significance tests of :func:`results` (its ``p_value`` and
        ``mark`` columns); None: no tests.
    sources : dict
        Data set -> :class:`DataSource`: a study's own data sets, loaded by their ``load()`` instead of
        :func:`labelrank.datasets.load`.
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
    meta_k: int = 10
    selection: dict[str, str] = field(default_factory=lambda: dict(_SELECTION))
    tune_subsample: dict[str, int] = field(default_factory=dict)
    methods: Mapping[str, MethodSpec] = field(default_factory=dict)
    meta_methods: dict[str, tuple[str, ...]] = field(default_factory=dict)
    preparation: dict[str, tuple[str, ...]] = field(default_factory=dict)
    reference: str | None = None
    sources: Mapping[str, DataSource] = field(default_factory=dict)

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
        for dataset, methods in self.meta_methods.items():
            if isinstance(methods, str) or not all(isinstance(m, str) for m in methods):
                raise TypeError(f"meta_methods[{dataset!r}] must be a tuple of method names, got {methods!r}")
        for dataset, steps in self.preparation.items():
            if isinstance(steps, str) or any(step not in PREPARATIONS for step in steps):
                raise ValueError(f"preparation[{dataset!r}] must be a tuple of step names among "
                                 f"{list(PREPARATIONS)}, got {steps!r}")
        if self.reference is not None and not isinstance(self.reference, str):
            raise TypeError(f"reference must be None or a method name, got {self.reference!r}")
        for dataset, source in self.sources.items():
            if not isinstance(source, DataSource):
                raise TypeError(f"sources[{dataset!r}] must be a DataSource, got {type(source).__name__}")

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

    def spec(self, method: str) -> MethodSpec:
        """The :class:`MethodSpec` of ``method``, a key of :attr:`methods` (a ValueError naming the methods else).

        Examples
        --------
        >>> p = Protocol("demo", ("a",), 3, 0, {}, methods={"m": MethodSpec("m", "baseline", "MLkNN", ())})
        >>> p.spec("m").estimator
        'MLkNN'
        """
        if method not in self.methods:
            raise ValueError(f"method must be one of {list(self.methods)}, got {method!r}")
        return self.methods[method]

    @property
    def k_max(self) -> int:
        """The largest ``k`` of the grid: meta-level features are computed once for it (0 without a grid ``"k"``)."""
        return int(max(self.grids.get("k", (0,))))

    def data_key(self, dataset: str) -> tuple:
        """What identifies the data of one data set under this profile (part of every cache key).

        The settings that select and split the data, then the preparation steps applied to it: how the loader
        makes features (:func:`labelrank.datasets.preparation`; Reuters-21578's text analysis) or the version of a
        study's own source (:attr:`sources`), and the names of the protocol's own steps (:attr:`preparation`).
        """
        key = (dataset, self.subsample.get(dataset), self.tune_subsample.get(dataset), self.n_folds, self.seed,
               self.k_max, self.meta_k)
        if dataset in self.sources:
            key += ("source", self.sources[dataset].version)
        elif dataset in datasets_registry:
            key += preparation(dataset)
        return key + tuple(self.preparation.get(dataset, ()))

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
        "ranker": a :class:`~labelrank.meta_ranker.MetaLevelRanker` fitted on precomputed meta-level features;
        "baseline": an estimator of :mod:`labelrank.baselines`.
    estimator : str or callable
        For a ranker, the ``ranker`` argument of :class:`~labelrank.meta_ranker.MetaLevelRanker`; for a baseline,
        the class name in :mod:`labelrank.baselines`, or any callable ``estimator(threshold=..., **params)``
        returning an object with ``fit(X, Y)``, ``decision_function(X)`` and ``predict(X)`` (e.g. a stand-in in a
        test).
    axes : tuple of (parameter, grid) pairs
        The tuned parameters in the staged search's order, each with the name of its grid in
        :attr:`Protocol.grids`.
    version : int
        The version of this method's numbers, part of its cache keys (:func:`code_version`): bump it when a
        change to the estimator moves its results and nothing else's.
    warm_axis : str or None
        A parameter along which the method fits a path of values, each warm-started from the previous one's
        solution (:meth:`~labelrank.meta_ranker.MetaLevelRanker.fit_features_path`: ``C`` of RankSVM-IR and SVM-MAP; a
        baseline's ``fit_path``: ``C`` of :class:`~labelrank.baselines.BinarySVM` and
        :class:`~labelrank.baselines.RankSVM`). The full grid search then
        fits that axis's values of one configuration and fold in one task, in increasing order; each result is
        the same optimum up to the solver's tolerance (the staged search and the final fits stay cold).
    fixed : tuple of (parameter, value) pairs
        Settings given to every estimator of the method and never tuned, e.g. ``(("distance", "weka"),)``; part of
        the method's cache keys (:func:`~labelrank.protocol.keys.code_version`).
    batch_axis : str or None
        The learning-rate axis of a gradient ranker or LightGBM, whose values one call trains together
        (:meth:`~labelrank.meta_ranker.MetaLevelRanker.fit_features_path`): the full grid search fits that axis's
        values of one configuration and fold in one task, with results identical to one fit per value.
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

    Parameters
    ----------
    factory : callable
        ``factory(profile) -> Protocol``; ``profile`` a name or None.
    """
    if not callable(factory):
        raise TypeError(f"factory must be callable as factory(profile), got {type(factory).__name__}")
    _PROTOCOLS.append(factory)


def default_protocol(profile: str | None = None) -> Protocol:
    """The registered protocol of ``profile`` (see :func:`register_protocols`).

    Parameters
    ----------
    profile : str, optional
        A profile name the registered factory knows; ``LABELRANK_PROFILE`` when None.
    """
    if not _PROTOCOLS:
        raise ValueError("no protocol is registered: pass proto= (a Protocol), or import a study that registers "
                         "its protocols, e.g. labelrank.studies.yang2012.experiments")
    return _PROTOCOLS[-1](profile)
