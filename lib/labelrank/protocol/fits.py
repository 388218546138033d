"""One fit and its evaluation, as a cached task run in a worker: the estimators built from a
:class:`~labelrank.protocol.settings.MethodSpec`, the inputs of a fold, and the task functions of the
cross-validation (:func:`cv_point_task`, :func:`cv_path_task`) and of the final fits (:func:`final_fit_task`)."""

from __future__ import annotations

import time
import warnings
from typing import Any

import numpy as np

from labelrank.metrics import evaluate
from labelrank.protocol.data import (
    check_fold,
    fold_data,
    concatenated_meta_features,
    meta_features,
)
from labelrank.protocol.keys import params_key
from labelrank.protocol.tasks import start_task
from labelrank.protocol.settings import (
    Protocol,
    Thresholding,
    default_protocol,
)


def check_representation(method: str, features: str, proto: Protocol) -> None:
    """A ValueError unless ``features`` is "original" or "meta", and "meta" for a ranker (which reads meta-level
    features only).

    Parameters
    ----------
    method, features, proto
        As in :func:`cv_point_task`.
    """
    if features not in ("original", "meta"):
        raise ValueError(f"features must be 'original' or 'meta', got {features!r}")
    if features == "original" and proto.spec(method).kind == "ranker":
        raise ValueError(f"{method} works on meta-level features only; got features='original'")


def make_estimator(method: str, params: dict[str, Any], threshold: Thresholding = "default",
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
        A :class:`~labelrank.meta_ranker.MetaLevelRanker` (``empty_labels="last"``: cross-validation folds of
        Reuters-21578 lack some categories) or a :mod:`labelrank.baselines` estimator.
    """
    spec = (default_protocol() if proto is None else proto).spec(method)
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


class ConvergenceCounter:
    """Count the ConvergenceWarnings of the fits inside the block instead of printing them; ``count`` after it.

    Fits at large ``C`` stop at their iteration limit; the protocol counts them (``n_warnings``) rather than
    letting joblib's workers print them to the notebook's stderr. Every other warning is issued again on exit.
    """

    def __enter__(self) -> ConvergenceCounter:
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
        The fitted :class:`~labelrank.meta_ranker.MetaLevelRanker` and the features of the fitting instances (each
        excluded from its own neighbours) and of the evaluation instances (the test set for ``fold=-1``), at ``k``.
    """
    proto = default_protocol() if proto is None else proto
    if proto.spec(method).kind != "ranker":
        raise ValueError(f"method must be a meta-level ranker, got {method!r}")
    check_fold(fold, proto)
    Y_fit, _, Zf, Ze = ranker_inputs(dataset, int(params["k"]), fold, proto)
    return make_estimator(method, params, "regression", proto).fit_features(Zf, Y_fit), Zf, Ze


def ranker_inputs(dataset: str, k: int, fold: int, proto: Protocol):
    """(Y_fit, Y_eval, Z_fit, Z_eval) of a fold: its labels and its cached meta-level features sliced at ``k``.

    Parameters
    ----------
    dataset, fold, proto
        As in :func:`cv_point_task`.
    k : int
        Neighbours per metric and label, at most :attr:`Protocol.k_max`.
    """
    from labelrank.features import NeighborDistances

    _, Y_fit, _, Y_eval = fold_data(dataset, proto, fold)
    Z_fit, Z_eval, _ = meta_features(dataset, fold, proto)
    Zf, Ze = (NeighborDistances(Z, proto.k_max).features(k) for Z in (Z_fit, Z_eval))
    return Y_fit, Y_eval, Zf, Ze


def baseline_inputs(dataset: str, features: str, fold: int, proto: Protocol):
    """(X_fit, Y_fit, X_eval, Y_eval) of a fold for a baseline: the original features, or (``features="meta"``)
    concatenated meta-level features at :attr:`Protocol.meta_k`.

    Parameters
    ----------
    dataset, features, fold, proto
        As in :func:`cv_point_task`.
    """
    X_fit, Y_fit, X_eval, Y_eval = fold_data(dataset, proto, fold)
    if features == "meta":
        Z_fit, Z_eval, _ = meta_features(dataset, fold, proto)
        X_fit, X_eval = concatenated_meta_features(Z_fit, Z_eval, proto.meta_k, proto.k_max)
    return X_fit, Y_fit, X_eval, Y_eval


def fit_outputs(dataset: str, method: str, features: str, params: dict, thresholds: tuple[str, ...], fold: int,
                 proto: Protocol) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], int]:
    """Fit on the fold's fitting part (the whole training set for ``fold == -1``); (Y_eval, scores, 0/1 decisions
    under each of ``thresholds``, number of convergence warnings). A ranker's rules are all its LLSF; a baseline is
    fitted once for all of its rules (``fit_path`` along ``"threshold"``: the rules differ in the threshold alone),
    or once per rule if it has no ``fit_path``.

    Parameters
    ----------
    dataset, method, features, fold, proto
        As in :func:`cv_point_task`.
    params : dict
        Values of the method's axes.
    thresholds : tuple of str
        Threshold rules (:data:`Thresholding`) whose decisions are returned.
    """
    spec = proto.spec(method)
    with ConvergenceCounter() as caught:
        if spec.kind == "ranker":
            Y_eval = fold_data(dataset, proto, fold)[3]
            est, _, Ze = fit_ranker(dataset, method, params, fold, proto)
            scores, pred = est.decision_function_features(Ze), est.predict_features(Ze)
            preds = {rule: pred for rule in thresholds}
        else:
            X_fit, Y_fit, X_eval, Y_eval = baseline_inputs(dataset, features, fold, proto)
            estimators = [make_estimator(method, params, rule, proto) for rule in thresholds]
            if len(estimators) > 1 and hasattr(estimators[0], "fit_path"):
                models = estimators[0].fit_path(X_fit, Y_fit, "threshold", [e.threshold for e in estimators])
            else:
                models = [estimator.fit(X_fit, Y_fit) for estimator in estimators]
            scores = models[0].decision_function(X_eval)
            preds = {rule: model.predict(X_eval) for rule, model in zip(thresholds, models)}
    return (Y_eval, np.asarray(scores, dtype=np.float64),
            {rule: np.asarray(pred, dtype=np.int8) for rule, pred in preds.items()}, caught.count)


def cv_point_task(dataset: str, data_key: tuple, method: str, features: str, params_key: tuple, fold: int,
                  version: str, proto: Protocol, threads: int) -> dict[str, float]:
    """A method's cross-validation result at one configuration and fold: every metric on the fold's validation
    part (decisions under the method's own threshold rule), the fit's time and its convergence warnings.

    Parameters
    ----------
    dataset : str
        A data set of the protocol (:attr:`Protocol.datasets`).
    data_key : tuple
        :meth:`Protocol.data_key` of the data set (part of the cache key).
    method : str
        A key of :attr:`Protocol.methods`.
    features : {"original", "meta"}
        The representation (:data:`Representation`): a baseline's original features or concatenated meta-level
        features; a ranker's are always "meta".
    params_key : tuple
        :func:`params_key` of the configuration.
    fold : int
        A cross-validation fold, 0 .. ``n_folds - 1``, or -1 for the training and test split.
    version : str
        :func:`code_version` of the method (part of the cache key).
    proto : Protocol
        The protocol.
    threads : int
        BLAS threads of the task (:func:`threads_per_task`); not part of the cache key.

    Returns
    -------
    dict
        Metric name -> value, and ``n_warnings``, ``seconds``, ``cpu_seconds``.
    """
    start_task(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    Y_eval, scores, preds, n_warn = fit_outputs(dataset, method, features, dict(params_key), ("default",), fold,
                                                 proto)
    return _evaluation(Y_eval, scores, preds["default"], n_warn, time.perf_counter() - t0, time.process_time() - c0)


def cv_path_task(dataset: str, data_key: tuple, method: str, base_key: tuple, axis: str, values: tuple,
                 fold: int, version: str, proto: Protocol, threads: int,
                 features: str | None = None) -> list[dict[str, float]]:
    """A method's cross-validation results at ``values`` of ``axis`` (in that order); one dict per value, as
    :func:`cv_point_task`'s. One call fits them all, along the :attr:`MethodSpec.warm_axis` each fit
    warm-started from the previous one, along the :attr:`MethodSpec.batch_axis` all trained together: a ranker's
    :meth:`~labelrank.meta_ranker.MetaLevelRanker.fit_features_path`, a baseline's ``fit_path`` (on ``features``,
    "original" or "meta"; a ranker's tasks leave it out of their cache keys, as rankers have no representation to
    choose).
    Each value's time is the task's divided by the number of values, and the task's convergence warnings are
    counted with the first value.

    Parameters
    ----------
    dataset, data_key, method, fold, version, proto, threads
        As in :func:`cv_point_task`.
    base_key : tuple
        :func:`params_key` of the configuration's other axes.
    axis : str
        The path axis (:attr:`MethodSpec.path_axis`).
    values : tuple
        Its values, fitted in this order.
    features : {"original", "meta"}, optional
        A baseline's representation (None for a ranker).
    """
    start_task(threads)
    spec = proto.spec(method)
    if axis not in (spec.warm_axis, spec.batch_axis):
        raise ValueError(f"{method} has no path along {axis!r} (warm_axis={spec.warm_axis!r}, "
                         f"batch_axis={spec.batch_axis!r})")
    base = dict(base_key)
    if spec.kind == "ranker":
        Y_fit, Y_eval, Zf, Ze = ranker_inputs(dataset, int(base["k"]), fold, proto)
    else:
        if features not in ("original", "meta"):
            raise ValueError(f"features must be 'original' or 'meta' for the baseline {method}, got {features!r}")
        X_fit, Y_fit, X_eval, Y_eval = baseline_inputs(dataset, features, fold, proto)
    t0, c0 = time.perf_counter(), time.process_time()
    with ConvergenceCounter() as caught:
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


def final_fit_task(dataset: str, data_key: tuple, method: str, features: str, params_key: tuple, version: str,
                   proto: Protocol, threads: int) -> dict[str, Any]:
    """A method's fit on the whole training set and its test outputs: ``scores``, ``pred`` (a dict of 0/1
    decisions by threshold rule, "default" and "regression"; a ranker's "default" is its "regression"; a baseline
    fitted once for both), ``n_warnings``, ``seconds`` and ``cpu_seconds``.

    Parameters
    ----------
    dataset, data_key, method, features, params_key, version, proto, threads
        As in :func:`cv_point_task`; the fit is on the whole training set.
    """
    start_task(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    _, scores, preds, n_warn = fit_outputs(dataset, method, features, dict(params_key), ("default", "regression"),
                                            -1, proto)
    return {"scores": scores, "pred": preds, "n_warnings": n_warn, "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - c0}
