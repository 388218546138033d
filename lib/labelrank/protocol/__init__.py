"""The experiment engine: a protocol for any estimator and data set, cached and parallel.

:func:`results` runs everything a results table needs on the data sets of a :class:`Protocol` (data preparation,
folds, meta-level features, grid search per method, refits on the training set, test scores with significance) and
returns one tidy :class:`pandas.DataFrame`; :func:`tune` is one method's search, :func:`staged_and_full` both searches of one
method (for comparing them) and :func:`run_full_grids` the full grids of many in one pool of tasks; :func:`run_info`
the record of past runs. A study supplies the protocol (Yang &
Gopal's: :mod:`labelrank.studies.yang2012.experiments`).

Modules: :mod:`.settings`, :mod:`.keys` (cache keys and versions), :mod:`.data`, :mod:`.fits`, :mod:`.search`,
:mod:`.results`, :mod:`.runs`.

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
``tests/test_dask.py`` runs the recipe on a local cluster and finds the serial run's table). Each task's result is cached (:class:`labelrank._cache.ResultCache`) under
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
    concatenated_meta_features,
    fold_indices,
    load_data,
    meta_features,
    tuning_rows,
)
from labelrank.protocol.fits import fit_ranker, make_estimator
from labelrank.protocol.keys import ENGINE_VERSION, code_version
from labelrank.protocol.results import (
    beside_paper,
    jobs,
    rank_conflicts,
    rank_methods,
    rank_totals,
    results,
    final_outputs,
)
from labelrank.protocol.runs import run_info
from labelrank.protocol.search import TuneResult, run_full_grids, staged_and_full, tune, widen_grid
from labelrank.protocol.settings import (
    MethodSpec,
    Protocol,
    default_protocol,
    n_jobs,
    register_protocols,
)

__all__ = [
    "SYNTHETIC",
    "Protocol",
    "MethodSpec",
    "register_protocols",
    "default_protocol",
    "n_jobs",
    "load_data",
    "fold_indices",
    "meta_features",
    "make_estimator",
    "jobs",
    "tuning_rows",
    "tune",
    "staged_and_full",
    "run_full_grids",
    "TuneResult",
    "fit_ranker",
    "concatenated_meta_features",
    "widen_grid",
    "final_outputs",
    "results",
    "run_info",
    "rank_methods",
    "rank_totals",
    "rank_conflicts",
    "beside_paper",
    "code_version",
    "ENGINE_VERSION",
]
