"""One fit and its evaluation, as a cached task run in a worker: the explicit versions in every cache key, the
estimators built from a :class:`~labelrank.protocol.settings.MethodSpec`, the task functions and the parallel runner."""

from __future__ import annotations

import os
import threading
import time
import warnings
from functools import lru_cache
from typing import Any

import joblib
import numpy as np

from labelrank.optional import require
from labelrank.metrics import evaluate
from labelrank.protocol.data import (
    _check_fold,
    _split,
    concatenated_meta_features,
    meta_features,
)
from labelrank.protocol.settings import (
    Protocol,
    ThresholdRule,
    _spec,
    default_protocol,
    n_jobs,
)

tqdm = require("tqdm", "the experiment engine's progress bars").tqdm


def _check_representation(method: str, features: str, proto: Protocol) -> None:
    if features not in ("original", "meta"):
        raise ValueError(f"features must be 'original' or 'meta', got {features!r}")
    if features == "original" and _spec(method, proto).kind == "ranker":
        raise ValueError(f"{method} works on meta-level features only; got features='original'")


def make_estimator(method: str, params: dict[str, Any], threshold: ThresholdRule = "default",
                   proto: Protocol | None = None):
    """A fresh, unfitted estimator for ``method`` with hyper-parameters ``params``.

    Parameters
    ----------
    method : str
        A key of :attr:`Protocol.methods`.
    params : dict
        Values of the method's axes, e.g. ``{"k": 30, "learning_rate": 0.01}`` or ``{"C": 0.5}``.
    threshold : {"default", "regression"}
        The threshold rule; a ranker has only "regression" (its LLSF), and "default" means the same for it.
    proto : Protocol, optional
        Where ``method`` is looked up (:attr:`Protocol.methods`); the registered default protocol when None.

    Returns
    -------
    estimator
        A :class:`labelrank.MetaLevelRanker` (``empty_labels="last"``: cross-validation folds of Reuters-21578
        lack some categories) or a :mod:`labelrank.baselines` estimator.
    """
    spec = _spec(method, default_protocol() if proto is None else proto)
    if threshold not in ("default", "regression"):
        raise ValueError(f"threshold must be 'default' or 'regression', got {threshold!r}")
    if spec.kind == "ranker":
        from labelrank.meta_ranker import MetaLevelRanker

        return MetaLevelRanker(ranker=spec.estimator, empty_labels="last", **dict(spec.fixed), **params)
    if callable(spec.estimator):
        factory = spec.estimator
    else:
        from labelrank import baselines

        factory = getattr(baselines, spec.estimator)
    return factory(threshold="default" if threshold == "default" else "llsf", **dict(spec.fixed), **params)


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
        A data set of the profile and a meta-level ranker of :attr:`Protocol.methods`.
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
    proto = default_protocol() if proto is None else proto
    if _spec(method, proto).kind != "ranker":
        raise ValueError(f"method must be a meta-level ranker, got {method!r}")
    _check_fold(fold, proto)
    Y_fit, _, Zf, Ze = _ranker_inputs(dataset, int(params["k"]), fold, proto)
    return make_estimator(method, params, "regression", proto).fit_features(Zf, Y_fit), Zf, Ze


def _ranker_inputs(dataset: str, k: int, fold: int, proto: Protocol):
    """(Y_fit, Y_eval, Z_fit, Z_eval) of a fold: its labels and its cached meta-level features sliced at ``k``."""
    from labelrank.features import NeighborDistances

    _, Y_fit, _, Y_eval = _split(dataset, proto, fold)
    Z_fit, Z_eval, _ = meta_features(dataset, fold, proto)
    Zf, Ze = (NeighborDistances(Z, proto.k_max).features(k) for Z in (Z_fit, Z_eval))
    return Y_fit, Y_eval, Zf, Ze


def _baseline_inputs(dataset: str, features: str, fold: int, proto: Protocol):
    """(X_fit, Y_fit, X_eval, Y_eval) of a fold for a baseline: the original features, or (``features="meta"``)
    Fig. 2's concatenated meta-level features."""
    X_fit, Y_fit, X_eval, Y_eval = _split(dataset, proto, fold)
    if features == "meta":
        Z_fit, Z_eval, _ = meta_features(dataset, fold, proto)
        X_fit, X_eval = concatenated_meta_features(Z_fit, Z_eval, proto.k_meta, proto.k_max)
    return X_fit, Y_fit, X_eval, Y_eval


def _fit_outputs(dataset: str, method: str, features: str, params: dict, thresholds: tuple[str, ...], fold: int,
                 proto: Protocol) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], int]:
    """Fit on the fold's fitting part (the whole training set for ``fold == -1``); (Y_eval, scores, 0/1 decisions
    under each of ``thresholds``, number of convergence warnings). A ranker's rules are all its LLSF; a baseline is
    fitted once for all of its rules (``fit_path`` along ``"threshold"``: the rules differ in the threshold alone),
    or once per rule if it has no ``fit_path``."""
    spec = _spec(method, proto)
    with _ConvergenceWarnings() as caught:
        if spec.kind == "ranker":
            Y_eval = _split(dataset, proto, fold)[3]
            est, _, Ze = fit_ranker(dataset, method, params, fold, proto)
            scores, pred = est.decision_function_features(Ze), est.predict_features(Ze)
            preds = {rule: pred for rule in thresholds}
        else:
            X_fit, Y_fit, X_eval, Y_eval = _baseline_inputs(dataset, features, fold, proto)
            estimators = [make_estimator(method, params, rule, proto) for rule in thresholds]
            if len(estimators) > 1 and hasattr(estimators[0], "fit_path"):
                models = estimators[0].fit_path(X_fit, Y_fit, "threshold", [e.threshold for e in estimators])
            else:
                models = [estimator.fit(X_fit, Y_fit) for estimator in estimators]
            scores = models[0].decision_function(X_eval)
            preds = {rule: model.predict(X_eval) for rule, model in zip(thresholds, models)}
    return (Y_eval, np.asarray(scores, dtype=np.float64),
            {rule: np.asarray(pred, dtype=np.int8) for rule, pred in preds.items()}, caught.count)


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
    Y_eval, scores, preds, n_warn = _fit_outputs(dataset, method, features, dict(params_key), ("default",), fold,
                                                 proto)
    return _evaluation(Y_eval, scores, preds["default"], n_warn, time.perf_counter() - t0, time.process_time() - c0)


def _cv_path_uncached(dataset: str, data_key: tuple, method: str, base_key: tuple, axis: str, values: tuple,
                      fold: int, version: str, proto: Protocol, threads: int,
                      features: str | None = None) -> list[dict[str, float]]:
    """A method's cross-validation results at ``values`` of ``axis`` (in that order); one dict per value, as
    :func:`_cv_point_uncached`'s. One call fits them all, along the :attr:`MethodSpec.warm_axis` each fit
    warm-started from the previous one, along the :attr:`MethodSpec.batch_axis` all trained together: a ranker's
    :meth:`~labelrank.MetaLevelRanker.fit_features_path`, a baseline's ``fit_path`` (on ``features``, "original"
    or "meta"; a ranker's tasks leave it out of their cache keys, as rankers have no representation to choose).
    Each value's time is the task's divided by the number of values, and the task's convergence warnings are
    counted with the first value."""
    _start_task(threads)
    spec = _spec(method, proto)
    if axis not in (spec.warm_axis, spec.batch_axis):
        raise ValueError(f"{method} has no path along {axis!r} (warm_axis={spec.warm_axis!r}, "
                         f"batch_axis={spec.batch_axis!r})")
    base = dict(base_key)
    if spec.kind == "ranker":
        Y_fit, Y_eval, Zf, Ze = _ranker_inputs(dataset, int(base["k"]), fold, proto)
    else:
        if features not in ("original", "meta"):
            raise ValueError(f"features must be 'original' or 'meta' for the baseline {method}, got {features!r}")
        X_fit, Y_fit, X_eval, Y_eval = _baseline_inputs(dataset, features, fold, proto)
    t0, c0 = time.perf_counter(), time.process_time()
    with _ConvergenceWarnings() as caught:
        if spec.kind == "ranker":
            models = make_estimator(method, base, "regression", proto).fit_features_path(Zf, Y_fit, axis, values)
            outputs = [(est.decision_function_features(Ze), est.predict_features(Ze)) for est in models]
        else:
            models = make_estimator(method, base, "default", proto).fit_path(X_fit, Y_fit, axis, values)
            outputs = [(est.decision_function(X_eval), est.predict(X_eval)) for est in models]
    seconds, cpu = (time.perf_counter() - t0) / len(values), (time.process_time() - c0) / len(values)
    return [_evaluation(Y_eval, scores, pred, caught.count if i == 0 else 0, seconds, cpu)
            for i, (scores, pred) in enumerate(outputs)]


def _evaluation(Y_eval: np.ndarray, scores: Any, pred: Any, n_warnings: int, seconds: float,
                cpu_seconds: float) -> dict[str, float]:
    """The metrics of one fit's evaluation with its warnings and times (a cross-validation task's result)."""
    out = evaluate(Y_eval, np.asarray(scores, dtype=np.float64), np.asarray(pred, dtype=np.int8))
    out["n_warnings"] = n_warnings
    out["seconds"] = seconds
    out["cpu_seconds"] = cpu_seconds
    return out


def _final_fit_uncached(dataset: str, data_key: tuple, method: str, features: str, params_key: tuple, version: str,
                        proto: Protocol, threads: int) -> dict[str, Any]:
    """A method's fit on the whole training set and its test outputs: ``scores``, ``pred`` (a dict of 0/1
    decisions by threshold rule, "default" and "regression"; a ranker's "default" is its "regression"; a baseline
    fitted once for both), ``n_warnings``, ``seconds`` and ``cpu_seconds``."""
    _start_task(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    _, scores, preds, n_warn = _fit_outputs(dataset, method, features, dict(params_key), ("default", "regression"),
                                            -1, proto)
    return {"scores": scores, "pred": preds, "n_warnings": n_warn, "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - c0}


def _params_key(params: dict[str, Any]) -> tuple:
    return tuple(sorted((str(k), v.item() if isinstance(v, np.generic) else v) for k, v in params.items()))


def _threads_per_task(jobs: int) -> int:
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


def _run_calls(calls: list[tuple[Any, tuple]], desc: str, progress: bool) -> list:
    """``cache(*task)`` for every ``(cache, task)`` of ``calls``, in order; each ``cache`` a
    :class:`~labelrank._cache.ResultCache`.

    Cached results are read in this process; the others run through :class:`joblib.Parallel` (``n_jobs()``
    workers, the backend of :func:`joblib.parallel_config`), handed out in the order of ``calls``, under a tqdm
    progress bar.
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


