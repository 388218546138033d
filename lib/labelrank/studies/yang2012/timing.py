"""Timing the neighbour search behind the meta-level features: Yang & Gopal's (2012) Table 2.

The paper's Table 2 gives the "CPU seconds for computing the nearest neighbors for all instances in a batch mode"
(section 3.4). :func:`neighbor_search_seconds` times the same work for :class:`labelrank.features.MetaLevelFeatures`
on given arrays; :func:`table2_seconds` does it on a data set prepared as the paper's protocol prepares it
(:func:`labelrank.protocol.load_data` under the full protocol: the whole splits, emotions rescaled to unit
variance). The chapter "Meta-level features" and the scorecard both call them.
"""

from __future__ import annotations

import gc
import time
from typing import Any

import numpy as np

from labelrank._validation import check_choice, check_positive_int
from labelrank.protocol.profile import resolve

__all__ = ["WORKLOADS", "table2_timing_plan", "neighbor_search_seconds", "table2_seconds"]

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
    """Best CPU seconds and best wall seconds of the neighbour search of the meta-level features.

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
        CPU seconds are :func:`time.process_time`, the paper's measure, which counts every thread of the process.
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
    from labelrank.studies.yang2012 import experiments

    X_train, Y_train, X_test, _ = experiments.load_data(dataset, experiments.protocol("full"))
    return neighbor_search_seconds(X_train, Y_train, X_test, workload, k=k, n_jobs=n_jobs, repeat=repeat)
