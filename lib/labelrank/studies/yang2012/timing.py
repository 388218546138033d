"""Timing the neighbour search behind the meta-level features: Yang & Gopal's (2012) Table 2, and the approximate
search the paper mentions.

The paper's Table 2 times "computing the nearest neighbors for all instances in a batch mode" (section 3.4) in
processor time. :func:`neighbor_search_seconds` times the same work for :class:`labelrank.features.MetaLevelFeatures`
on given arrays; :func:`table2_seconds` does it on a data set prepared as the paper's protocol prepares it
(:func:`labelrank.protocol.load_data` under the full protocol: the whole splits, emotions rescaled to unit
variance). The chapter "Meta-level features" and the scorecard both call them. :func:`approximate_search_table`
compares the exact search with NN-descent's ("run times could be considerably reduced using the approximate
option", section 3.4): cost and MAP, one thread per data set, cached like the experiments' fits.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from labelrank.optional import require
from labelrank.validation import check_choice, check_positive_int
from labelrank.protocol.profile import resolve

__all__ = ["WORKLOADS", "table2_timing_plan", "neighbor_search_seconds", "table2_seconds", "APPROXIMATE_SEARCHES",
           "approximate_search_plan", "approximate_search_table"]

#: ``"test"``: fit plus the neighbours of every test instance (the batch that Table 2 most plausibly times);
#: ``"all"``: also every training instance, excluding itself (what a full experiment needs).
WORKLOADS: tuple[str, ...] = ("test", "all")
#: What the book times for Table 2 under each profile: the data sets (citeseer is not publicly retrievable) and
#: the number of timed calls after the warm-up call.
_TABLE2_TIMING: dict[str, dict[str, Any]] = {
    "quick": {"datasets": ("emotions", "yeast"), "repeat": 2},
    "full": {"datasets": ("emotions", "yeast", "scene", "reuters21578"), "repeat": 3},
}


def table2_timing_plan(profile: str | None = None) -> dict[str, Any]:
    """``{"datasets": ..., "repeat": ...}``: what the book times for Table 2 under ``profile``
    (``LABELRANK_PROFILE`` when None)."""
    return dict(_TABLE2_TIMING[resolve(profile)])


def neighbor_search_seconds(X_train, Y_train, X_test, workload: str = "test", *, k: int = 100, n_jobs: int = 1,
                            dtype: str = "float32", repeat: int = 3) -> tuple[float, float]:
    """The best processor time and the best wall time, in seconds, of the neighbour search of the meta-level
    features.

    Parameters
    ----------
    X_train, Y_train, X_test
        The training split and the test instances.
    workload : {"test", "all"}
        See :data:`WORKLOADS`.
    k, n_jobs, dtype
        Passed to :class:`labelrank.features.MetaLevelFeatures`.
    repeat : int
        Timed calls; each number is the best of them. One warm-up call before them is not timed (numba's compiled
        kernels load from their cache, the output's memory is mapped).

    Returns
    -------
    (cpu_seconds, wall_seconds)
        The processor time is :func:`time.process_time` (the paper's kind of time), over every thread of the
        process.
    """
    from labelrank.features import MetaLevelFeatures

    workload = check_choice(workload, "workload", WORKLOADS)
    repeat = check_positive_int(repeat, "repeat")

    def run():
        mlf = MetaLevelFeatures(k=k, n_jobs=n_jobs, dtype=dtype).fit(X_train, Y_train)
        out = [mlf.neighbor_distances(X_test)]
        if workload == "all":
            out.append(mlf.neighbor_distances())
        return out

    run()
    gc.collect()
    cpu = wall = np.inf
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        result = run()
        cpu, wall = min(cpu, time.process_time() - c0), min(wall, time.perf_counter() - w0)
        del result
        gc.collect()
    return float(cpu), float(wall)


def table2_seconds(dataset: str, workload: str = "test", *, n_jobs: int = 1, repeat: int = 3,
                   k: int = 100) -> tuple[float, float]:
    """:func:`neighbor_search_seconds` on ``dataset`` as the paper's protocol prepares it (the whole training and
    test splits, emotions rescaled to unit variance: :func:`labelrank.protocol.load_data`, full protocol)."""
    from labelrank.protocol import load_data
    from labelrank.studies.yang2012.configuration import protocol

    X_train, Y_train, X_test, _ = load_data(dataset, protocol("full"))
    return neighbor_search_seconds(X_train, Y_train, X_test, workload, k=k, n_jobs=n_jobs, repeat=repeat)


#: The searches :func:`approximate_search_table` compares: ``(algorithm, n_candidates)`` of
#: :class:`~labelrank.features.MetaLevelFeatures` (None: its default, 3k + 50 candidates).
APPROXIMATE_SEARCHES: tuple[tuple[str, int | None], ...] = (("exact", None), ("approximate", None),
                                                            ("approximate", 1000))
#: The data sets the book compares them on under each profile: none under the quick one, where pynndescent's
#: just-in-time compilation alone would take over a minute.
_APPROXIMATE_PLAN: dict[str, tuple[str, ...]] = {"quick": (), "full": ("emotions", "yeast", "scene", "reuters21578")}


def approximate_search_plan(profile: str | None = None) -> tuple[str, ...]:
    """The data sets the chapter "Meta-level features" compares the searches on under ``profile``
    (``LABELRANK_PROFILE`` when None)."""
    return _APPROXIMATE_PLAN[resolve(profile)]


def _approximate_search_uncached(datasets: tuple, data_keys: tuple, k: int, searches: tuple, version: str,
                                 threads: int) -> list[dict[str, Any]]:
    """The rows of :func:`approximate_search_table` for data sets of one storage, dense or sparse, one after
    another in one process (one thread: BLAS and numba), so that pynndescent compiles its kernels for that storage
    once."""
    from labelrank.features import MetaLevelFeatures
    from labelrank.metrics import average_precision
    from labelrank.protocol import load_data, start_task
    from labelrank.studies.yang2012.configuration import protocol

    start_task(1)
    rows = []
    for dataset in datasets:
        X_train, Y_train, X_test, Y_test = load_data(dataset, protocol("full"))
        with threadpool_limits(1):
            for algorithm, candidates in searches:
                options = {} if candidates is None else {"n_candidates": candidates}

                def make():
                    return MetaLevelFeatures(k=k, algorithm=algorithm, n_jobs=1, dtype="float32", **options)

                if algorithm == "approximate":  # compile pynndescent's functions before timing
                    warm = Y_train[:60].any(axis=0)
                    make().fit(X_train[:60], Y_train[:60][:, warm]).transform(X_test[:5])
                c0, w0 = time.process_time(), time.perf_counter()
                mlf = make().fit(X_train, Y_train)
                c1 = time.process_time()
                Z = mlf.transform(X_test)
                c2, w2 = time.process_time(), time.perf_counter()
                shown = candidates if candidates is not None else 3 * k + 50
                rows.append({
                    "data set": dataset,
                    "search": algorithm + (f", {shown} candidates" if algorithm != "exact" else ""),
                    "fit CPU s": c1 - c0, "transform CPU s": c2 - c1, "wall s": w2 - w0,
                    f"MAP (mean L2 of {k})": average_precision(Y_test, -Z[:, :, :k].mean(axis=-1)),
                    f"MAP (mean cos of {k})": average_precision(Y_test, -Z[:, :, 2 * k:3 * k].mean(axis=-1)),
                })
    return rows


def approximate_search_calls(datasets: Sequence[str], k: int = 10) -> list[tuple[Any, tuple]]:
    """The cached calls of :func:`approximate_search_table` (``(cache, task)``, one per storage kind of
    ``datasets``), for the experiment engine to hand out in a pool with other tasks
    (:func:`~labelrank.protocol.results`'s ``also``); the input checked as there."""
    from labelrank.protocol import code_version, load_data, task_cache
    from labelrank.studies.yang2012.configuration import protocol

    k = check_positive_int(k, "k")
    full = protocol("full")
    for dataset in datasets:
        if dataset not in full.datasets:
            raise ValueError(f"datasets must be among the full profile's {full.datasets}, got {dataset!r}")
    if not datasets:
        return []
    require("pynndescent", "approximate_search_table")
    code = f"{code_version()}-pynndescent={version('pynndescent')}"
    groups: dict[bool, list[str]] = {}  # dense and sparse data sets apart: one compilation of each kind of kernel
    for dataset in datasets:
        groups.setdefault(sp.issparse(load_data(dataset, full)[0]), []).append(dataset)
    cached = task_cache(_approximate_search_uncached, "approximate_search", ignore=("threads",))
    return [(cached, (tuple(group), tuple(full.data_key(d) for d in group), k, APPROXIMATE_SEARCHES, code, 1))
            for group in groups.values()]


def approximate_search_table(datasets: Sequence[str], k: int = 10, progress: bool = True) -> pd.DataFrame:
    """The exact neighbour search against NN-descent's on whole data sets: cost and the MAP of a one-feature ranker.

    For each data set (prepared as :func:`table2_seconds` prepares it) and each of :data:`APPROXIMATE_SEARCHES`,
    :class:`~labelrank.features.MetaLevelFeatures` with ``k`` neighbours is fitted on the training split and
    transforms the test split, in one thread (pynndescent's functions compiled before the timing), and the test
    categories are ranked by their mean L2 (and cosine) distance to the ``k`` nearest neighbours. The dense and
    the sparse data sets (Reuters-21578) are two tasks of the experiment engine (:func:`approximate_search_calls`;
    the experiments command hands them out first in the full grids' pool), side by side in its workers (each
    compiles pynndescent's kernels for its storage once; as one task per data set, a worker restarted by loky after
    a compilation compiled again), cached under ``cache_dir()/"experiments"/"approximate_search"``, keyed on the
    data sets, ``k``, the searches and the versions of the engine, the data parsers, the numerical libraries and
    pynndescent: the timings are those of the run that computed them.

    Parameters
    ----------
    datasets : sequence of str
        Data sets of the full profile (:func:`approximate_search_plan`).
    k : int, default=10
    progress : bool, default=True

    Returns
    -------
    pandas.DataFrame
        One row per (data set, search): ``data set``, ``search``, ``fit CPU s``, ``transform CPU s``, ``wall s``,
        ``MAP (mean L2 of k)``, ``MAP (mean cos of k)``.

    Examples
    --------
    >>> approximate_search_table([]).shape[0]
    0
    """
    from labelrank.protocol import run_calls

    columns = ["data set", "search", "fit CPU s", "transform CPU s", "wall s", f"MAP (mean L2 of {k})",
               f"MAP (mean cos of {k})"]
    calls = approximate_search_calls(datasets, k)
    if not calls:
        return pd.DataFrame(columns=columns)
    outs = run_calls(calls, "approximate neighbour search", progress)
    table = pd.DataFrame([row for out in outs for row in out], columns=columns)
    order = {dataset: i for i, dataset in enumerate(datasets)}
    return table.sort_values("data set", key=lambda names: names.map(order), kind="stable", ignore_index=True)
