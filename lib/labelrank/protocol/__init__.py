"""The experiment engine: a protocol for any estimator and data set, cached and parallel.

:func:`results` runs everything a results table needs on the data sets of a :class:`Protocol` (data preparation,
folds, meta-level features, grid search per method, refits on the training set, test scores with significance) and
returns one tidy :class:`pandas.DataFrame`; :func:`tune` is one method's search, :func:`staged_and_full` both
searches of one method (for comparing them) and :func:`run_full_grids` the full grids of many in one pool of tasks;
:func:`run_info` the record of past runs. A study supplies the protocol (Yang & Gopal's:
``labelrank.studies.yang2012.experiments``).

Modules: ``settings`` (the protocol, the methods, the data sources, the preparation steps), ``keys`` (cache keys
and versions, the task cache), ``data`` (data sets, folds, meta-level features), ``fits`` (estimators and the task
functions), ``tasks`` (the task pool), ``search`` (tuning), ``results`` (the results table, ranks), ``runs`` (the
run record); this page documents their public names, all importable from ``labelrank.protocol``.

The engine knows no paper. A study states its protocol (a :class:`Protocol` with its :class:`MethodSpec` methods,
grids, data sets or :class:`DataSource` of its own, preparation steps and reference method) and may add tasks of
its own through the same public names: a task function ``f(dataset, data_key, ..., version, proto, threads)`` that
begins with :func:`start_task` and reads a fold with :func:`fold_data`, cached with :func:`task_cache`, run with
:func:`run_calls` and recorded with :class:`RecordedRun`.

Examples
--------
A protocol of one's own: scikit-learn-shaped methods (here ML-kNN; any callable returning an object with ``fit``,
``decision_function`` and ``predict`` will do) on a data set of one's own, searched over a grid with three folds.
``results(proto)`` would then tune, refit and test it (``tests/engine/test_engine_seam.py`` runs a made-up method
so).

>>> import numpy as np
>>> def toy():
...     rng = np.random.default_rng(0)
...     Y = rng.integers(0, 2, size=(90, 3)); X = rng.normal(size=(90, 4)); X[:, :3] += 2 * Y
...     return X[:60], Y[:60], X[60:], Y[60:]
>>> proto = Protocol("mine", ("toy",), n_folds=3, seed=0, grids={"k": (5, 10)},
...                  methods={"ML-kNN": MethodSpec("ML-kNN", "baseline", "MLkNN", (("k", "k"),))},
...                  sources={"toy": DataSource(toy, version="toy-1")})
>>> jobs("toy", proto)
[('ML-kNN', 'original')]
>>> X_fit, Y_fit, X_val, Y_val = fold_data("toy", proto, 0)
>>> X_fit.shape, X_val.shape
((40, 4), (20, 4))
>>> make_estimator("ML-kNN", {"k": 5}, proto=proto)
MLkNN(k=5)
>>> proto.data_key("toy")  # part of every cache key of the data set
('toy', None, None, 3, 0, 10, 10, 'source', 'toy-1')

Parallelism, caching and progress
---------------------------------
Every (grid point, fold) is one task of :class:`joblib.Parallel` with ``n_jobs`` workers: 2 by default, or the
environment variable ``LABELRANK_N_JOBS``. The backend is whatever :func:`joblib.parallel_config` says, so a user
with a Dask cluster runs the protocol there with::

    from dask.distributed import Client
    import joblib
    from labelrank.studies.yang2012 import experiments   # Yang & Gopal's protocol
    client = Client("scheduler-address:8786")
    with joblib.parallel_config(backend="dask"):
        table = experiments.results(experiments.protocol("full"))

(set ``LABELRANK_N_JOBS=-1`` to let Dask decide how many tasks run at once, and ``LABELRANK_CACHE`` to a folder
that every worker can read and write; the README's section "The exact protocol on a cluster" says more, and
``tests/engine/test_dask.py`` runs the recipe on a local cluster and finds the serial run's table). Each task's
result is cached (:class:`labelrank.cache.ResultCache`) under
``cache_dir() / "experiments"``, keyed on what the result depends on: the data set and the profile's data
settings, the fold, the method and its parameters, and explicit versions (:func:`code_version`: the engine's
:data:`ENGINE_VERSION`, the data parsers' version, the numerical libraries' versions and the method's
:attr:`MethodSpec.version`). No file name or source text is part of a key, so moving or refactoring code keeps the
cache; a change that moves a number must bump a version, which the golden test of the quick profile enforces.
Long loops show :mod:`tqdm` progress bars.

The engine needs the ``protocol`` extra (``pip install 'labelrank[protocol]'``); importing it without names it.
"""

from labelrank.optional import ENGINE_MODULES, require

for _module in ENGINE_MODULES:
    require(_module, "labelrank.protocol (the experiment engine)", extra="protocol")
from labelrank.protocol.data import (
    SYNTHETIC,
    check_fold,
    concatenated_meta_features,
    fold_data,
    fold_indices,
    load_data,
    meta_features,
    tuning_rows,
)
from labelrank.protocol.fits import (
    ConvergenceCounter,
    baseline_inputs,
    check_representation,
    cv_path_task,
    cv_point_task,
    final_fit_task,
    fit_outputs,
    fit_ranker,
    make_estimator,
    ranker_inputs,
)
from labelrank.protocol.keys import ENGINE_VERSION, code_version, params_key, task_cache
from labelrank.protocol.results import (
    final_outputs,
    jobs,
    rank_conflicts,
    rank_methods,
    rank_totals,
    results,
)
from labelrank.protocol.runs import RecordedRun, run_info
from labelrank.protocol.search import TuneResult, run_full_grids, staged_and_full, tune, widen_grid
from labelrank.protocol.settings import (
    METRIC_NAMES,
    DataSource,
    PREPARATIONS,
    MethodSpec,
    Protocol,
    Representation,
    Thresholding,
    default_protocol,
    n_jobs,
    register_protocols,
    unit_variance,
)
from labelrank.protocol.tasks import run_calls, start_task, threads_per_task

__all__ = [
    "SYNTHETIC",
    "Protocol",
    "MethodSpec",
    "DataSource",
    "Representation",
    "Thresholding",
    "METRIC_NAMES",
    "PREPARATIONS",
    "unit_variance",
    "register_protocols",
    "default_protocol",
    "n_jobs",
    "load_data",
    "fold_indices",
    "tuning_rows",
    "fold_data",
    "check_fold",
    "meta_features",
    "concatenated_meta_features",
    "make_estimator",
    "check_representation",
    "ConvergenceCounter",
    "fit_ranker",
    "ranker_inputs",
    "baseline_inputs",
    "fit_outputs",
    "cv_point_task",
    "cv_path_task",
    "final_fit_task",
    "jobs",
    "tune",
    "staged_and_full",
    "run_full_grids",
    "TuneResult",
    "widen_grid",
    "final_outputs",
    "results",
    "run_info",
    "RecordedRun",
    "rank_methods",
    "rank_totals",
    "rank_conflicts",
    "code_version",
    "params_key",
    "task_cache",
    "ENGINE_VERSION",
    "run_calls",
    "start_task",
    "threads_per_task",
]
