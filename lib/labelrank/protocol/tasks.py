"""The task pool of the engine: a list of cached calls run in order, the cached ones read here and the others
handed to :class:`joblib.Parallel` workers under a progress bar; how a worker process is set up for a task (its
thread count, a watch on its parent) and how the pool's idle workers are stopped at exit.

A *call* is a pair ``(cache, task)``: a :class:`labelrank.cache.ResultCache` (:func:`~labelrank.protocol.keys.task_cache`)
and the tuple of arguments of its function. A task function begins with :func:`start_task`.
"""

from __future__ import annotations

import os
import threading
import time
from functools import lru_cache
from typing import Any

import joblib

from labelrank.optional import require
from labelrank.protocol.settings import n_jobs

tqdm = require("tqdm", "the experiment engine's progress bars").tqdm


def start_task(threads: int) -> None:
    """Set up the process that runs one task: numba's thread count (joblib already limits BLAS threads in its
    workers), and in a joblib worker a watch on the parent process (:func:`_exit_with_parent`).

    Parameters
    ----------
    threads : int
        BLAS threads of the task (:func:`threads_per_task`); not part of the cache key.
    """
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


def threads_per_task(jobs: int) -> int:
    """The threads each of ``jobs`` tasks running at once may use: the cores shared out (at least 1; 1 for
    ``jobs = -1``, where the backend decides how many run).

    Parameters
    ----------
    jobs : int
        Worker processes running at once (:func:`n_jobs`).

    Examples
    --------
    >>> threads_per_task(os.cpu_count() or 1)
    1
    """
    cores = os.cpu_count() or 1
    return max(1, cores // max(1, jobs)) if jobs > 0 else 1


@lru_cache(maxsize=1)
def _stop_workers_at_exit() -> None:
    """Stop joblib's reusable worker pool first thing when the interpreter exits (once registered).

    loky's own exit handler stops the workers gently, and each is a Python process with numpy, scipy, numba and
    scikit-learn to finalise, which takes seconds; asking loky for "the" reusable executor would even start a new
    pool to stop it. Here the pool's workers, idle once every result is back, are killed and joblib's temporary
    folders removed. The handler goes where loky's goes, among the handlers Python runs before
    joining threads (``threading._register_atexit``, which ``concurrent.futures`` uses too), where the later ones
    run first: so it is registered after a pool has run (loky registers its handler when its first pool starts).
    """
    import atexit
    import threading

    register = getattr(threading, "_register_atexit", atexit.register)
    register(_stop_workers)


def _stop_workers() -> None:
    """Kill the idle workers of the pool joblib keeps for reuse, if there is one, and remove its temporary folders."""
    from joblib.externals.loky import reusable_executor

    executor = reusable_executor._executor  # the one reusable pool, a module global (loky has no accessor for it)
    if executor is None:
        return
    if hasattr(executor, "terminate"):  # joblib's MemmappingExecutor: shutdown, then its temporary folders
        executor.terminate(kill_workers=True)
    else:
        executor.shutdown(wait=True, kill_workers=True)


def run_calls(calls: list[tuple[Any, tuple]], desc: str, progress: bool) -> list:
    """``cache(*task)`` for every ``(cache, task)`` of ``calls``, in order; each ``cache`` a
    :class:`~labelrank.cache.ResultCache`, e.g. of :func:`~labelrank.protocol.keys.task_cache`.

    Cached results are read in this process; the others run through :class:`joblib.Parallel` (``n_jobs()``
    workers, the backend of :func:`joblib.parallel_config`), handed out in the order of ``calls``, under a tqdm
    progress bar.

    Parameters
    ----------
    calls : list of (ResultCache, tuple)
        Each call: a cached task and its arguments.
    desc : str
        The progress bar's label.
    progress : bool
        Show a progress bar.
    """
    done = {i: cache(*task) for i, (cache, task) in enumerate(calls) if cache.check_call_in_cache(*task)}
    pending = [i for i in range(len(calls)) if i not in done]
    if pending:
        jobs = n_jobs()
        parallel = jobs != 1 and len(pending) > 1
        if parallel:
            it = joblib.Parallel(n_jobs=jobs, return_as="generator")(
                joblib.delayed(calls[i][0])(*calls[i][1]) for i in pending)
        else:
            it = (calls[i][0](*calls[i][1]) for i in pending)
        for i, out in zip(pending, tqdm(it, total=len(pending), desc=desc, disable=not progress, leave=False)):
            done[i] = out
        if parallel:
            _stop_workers_at_exit()  # once the pool has started, so that this runs before loky's own exit handler
    return [done[i] for i in range(len(calls))]


