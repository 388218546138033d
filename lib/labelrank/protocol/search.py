"""Tuning on the cross-validation folds: the grid search, full or staged, with widening of a ``C`` grid whose choice
sits on its boundary.

``search="full"`` evaluates the whole grid (the product of the axes). ``search="staged"`` tunes one axis at a time in
the order of :attr:`MethodSpec.axes`: first ``k`` with the other axes at the middle of their grids, then ``C`` (or
the learning rate) at the ``k`` chosen for each target metric. Along each axis it walks out from the middle of the
grid and stops once :attr:`Protocol.patience` consecutive values on each side of every target's best are worse (or
the grid ends; a ``C`` grid is widened instead). It assumes the cross-validated curves have one optimum along each
axis. :func:`staged_and_full` runs both searches of a method, for comparing their choices.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from labelrank.metrics import METRICS
from labelrank.protocol.fits import check_representation, cv_path_task, cv_point_task
from labelrank.protocol.keys import code_version, params_key, task_cache
from labelrank.protocol.tasks import run_calls, threads_per_task
from labelrank.protocol.settings import (
    METRIC_NAMES,
    Protocol,
    Representation,
    default_protocol,
    n_jobs,
)


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
            seen.setdefault(params_key(params), params)
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
        # points another search of the same data set, method and protocol evaluated, taken instead of fitted again
        # (staged_and_full: the staged search walks over the full grid's values)
        self.known: dict[tuple, dict[str, float]] = {}
        self.cached = task_cache(cv_point_task, "cv_point")
        self.cached_path = task_cache(cv_path_task, "cv_path")

    def __call__(self, configs: Iterable[dict[str, Any]], paths: bool = False) -> None:
        """Evaluate the configurations not evaluated yet; ``paths``: along the method's
        :attr:`~labelrank.protocol.settings.MethodSpec.path_axis`, one task per configuration and fold (the full
        search)."""
        for key in dict.fromkeys(params_key(c) for c in configs):  # in visiting order (frame rows)
            if key in self.known and key not in self.table:
                self.table[key] = self.known[key]
        pending = [c for c in {params_key(c): c for c in configs}.values() if params_key(c) not in self.table]
        if not pending:
            return
        calls, per_config = self.calls(pending, paths)
        spec = self.proto.spec(self.method)
        on_meta = self.features == "meta" and spec.kind == "baseline"
        desc = f"{self.dataset} {self.method}{' (meta)' if on_meta else ''}"
        for c, fold_results in zip(pending, per_config(run_calls(calls, desc, self.progress))):
            row = {m: float(np.nanmean([f[m] for f in fold_results])) for m in METRIC_NAMES}
            row["n_warnings"] = int(sum(f["n_warnings"] for f in fold_results))
            row["seconds"] = float(sum(f["seconds"] for f in fold_results))
            row["cpu_seconds"] = float(sum(f["cpu_seconds"] for f in fold_results))
            self.table[params_key(c)] = row

    def calls(self, configs: list[dict[str, Any]],
              paths: bool) -> tuple[list[tuple[Any, tuple]], Callable[[list], list[list[dict]]]]:
        """The cached calls that evaluate ``configs`` (distinct) on every fold, as ``(cache, task)`` pairs for
        :func:`~labelrank.protocol.tasks.run_calls`, and the function that turns their outputs, in order, into
        each configuration's results on the folds."""
        spec = self.proto.spec(self.method)
        threads = threads_per_task(n_jobs())
        key = self.proto.data_key(self.dataset)
        version = code_version(spec)
        folds = range(self.proto.n_folds)
        if paths and spec.path_axis is not None:
            axis = spec.path_axis
            groups: dict[tuple, list] = {}
            for c in configs:
                groups.setdefault(params_key({a: v for a, v in c.items() if a != axis}), []).append(c[axis])
            paths_ = [(base, tuple(sorted(values))) for base, values in groups.items()]
            on = () if spec.kind == "ranker" else (self.features,)  # a ranker's keys predate the argument
            tasks = [(self.dataset, key, self.method, base, axis, values, f, version, self.proto, threads, *on)
                     for base, values in paths_ for f in folds]

            def per_config(outputs: list) -> list[list[dict]]:
                out, per_fold = iter(outputs), {}
                for (base, values), _ in itertools.product(paths_, folds):
                    for value, result in zip(values, next(out)):
                        per_fold.setdefault(params_key({**dict(base), axis: value}), []).append(result)
                return [per_fold[params_key(c)] for c in configs]

            return [(self.cached_path, t) for t in tasks], per_config
        tasks = [(self.dataset, key, self.method, self.features, params_key(c), f, version, self.proto, threads)
                 for c in configs for f in folds]
        n = self.proto.n_folds
        return [(self.cached, t) for t in tasks], lambda out: [out[i * n : (i + 1) * n] for i in range(len(configs))]

    def best(self, configs: Sequence[dict[str, Any]], metric: str) -> dict[str, Any]:
        """The config of ``configs`` (already evaluated) with the best mean ``metric``; ties: the first."""
        sign = 1.0 if METRICS[metric].higher_is_better else -1.0
        values = [sign * self.table[params_key(c)][metric] for c in configs]
        return configs[int(np.nanargmax(values))]

    def frame(self) -> pd.DataFrame:
        rows = [dict(k) | v for k, v in self.table.items()]
        return pd.DataFrame(rows)


def widen_grid(values: list[float], side: Literal["low", "high"], points: int) -> list[float]:
    """The log-spaced grid ``values`` with ``points`` more values beyond its ``"low"`` or ``"high"`` end, at its
    spacing.

    Parameters
    ----------
    values : list of float
        A log-spaced grid, increasing.
    side : {"low", "high"}
        The end to extend.
    points : int
        How many values to add.

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
        A key of :attr:`Protocol.methods`.
    features : {"original", "meta"}
        The representation; the rankers take "meta" only, and "original" is read as "meta" for them.
    proto : Protocol, optional
        The profile's settings (:func:`protocol` of ``LABELRANK_PROFILE`` when None).
    search : {"staged", "full"}, optional
        ``proto.search_for(dataset, method)`` when None: ``"full"`` evaluates the product of the axes' grids,
        ``"staged"`` one axis at a time (this module's docstring).
    targets : sequence of str, optional
        The metrics to choose a configuration for; ``proto.targets`` (MAP and Micro-F1) by default.
    progress : bool
        Show progress bars.

    Returns
    -------
    TuneResult
    """
    proto = default_protocol() if proto is None else proto
    ev = _evaluator(dataset, method, features, proto, progress)
    search = proto.search_for(dataset, method) if search is None else search
    if search not in ("staged", "full"):
        raise ValueError(f"search must be 'staged' or 'full', got {search!r}")
    return _search(ev, search, _check_targets(proto, targets))


def staged_and_full(dataset: str, method: str, features: Representation = "original", proto: Protocol | None = None,
                    targets: Sequence[str] | None = None, progress: bool = True) -> tuple[TuneResult, TuneResult]:
    """Both searches of ``method`` on ``dataset``, to compare their choices: ``(staged, full)``, as :func:`tune`
    gives them with ``search="staged"`` and ``search="full"``.

    The full grid is searched first, and the staged search walks over its numbers: a point the full grid evaluated
    is taken, not fitted again, so both searches choose from the same cross-validated values and the comparison is
    about the search alone. For a method without a path axis (one cache entry per point either way) and one with
    a :attr:`~labelrank.protocol.settings.MethodSpec.batch_axis` (learning rates trained together give what one fit
    each gives) these are the staged search's own numbers, number for number. Along a
    :attr:`~labelrank.protocol.settings.MethodSpec.warm_axis` the full grid fits each ``C`` warm-started from the
    previous one, where the staged search as the search fits it from zero: the same optimum within the solver's
    tolerance, whose scores (and the order of nearly tied labels) may differ a little, so a staged search run on
    its own can turn another way at a near tie. Points beyond the full grid (a ``C`` grid the staged search widened)
    are fitted as the staged search fits them.

    Parameters and the checks of the input are :func:`tune`'s.

    Parameters
    ----------
    dataset, method, features, proto, targets, progress
        As in :func:`tune`.

    Returns
    -------
    (TuneResult, TuneResult)
        The staged search's result (its ``points`` are the points it visited; those taken from the full grid
        carry the full grid's ``seconds`` and ``cpu_seconds``) and the full grid's.
    """
    proto = default_protocol() if proto is None else proto
    targets = _check_targets(proto, targets)
    full_ev = _evaluator(dataset, method, features, proto, progress)
    full = _search(full_ev, "full", targets)
    ev = _evaluator(dataset, method, features, proto, progress)
    ev.known = full_ev.table
    return _search(ev, "staged", targets), full


def _check_targets(proto: Protocol, targets: Sequence[str] | None) -> tuple[str, ...]:
    """``targets`` (``proto.targets`` when None), each a metric name."""
    targets = proto.targets if targets is None else tuple(targets)
    for t in targets:
        if t not in METRICS:
            raise ValueError(f"targets must be metric names of {list(METRICS)}, got {t!r}")
    return targets


def _search(ev: _Evaluator, search: Literal["staged", "full"], targets: tuple[str, ...]) -> TuneResult:
    """The ``search`` of ``ev``'s method on its data set, choosing a configuration for each of ``targets``."""
    dataset, method, proto = ev.dataset, ev.method, ev.proto
    axes = _axes(method, proto)
    if search == "full":
        chosen = _full_search(ev, axes, targets, proto)
    else:
        middle = {name: values[(len(values) - 1) // 2] for name, values, _ in axes}
        chosen = {t: dict(middle) for t in targets}
        for name, values, is_c in axes:
            bases = {params_key({a: v for a, v in c.items() if a != name}): {a: v for a, v in c.items() if a != name}
                     for c in chosen.values()}
            new = {}
            for base in bases.values():
                mine = [t for t in targets if params_key({a: v for a, v in chosen[t].items() if a != name})
                        == params_key(base)]
                new.update(_scan_walk(ev, base, name, values, mine, proto, widen=is_c))
            chosen = {t: new[t] for t in targets}
    return TuneResult(dataset, method, ev.features, search, ev.frame(), chosen)


def _evaluator(dataset: str, method: str, features: Representation, proto: Protocol, progress: bool) -> _Evaluator:
    """The evaluator of ``method`` on ``dataset`` (the rankers' features read as "meta"), the input checked."""
    features = "meta" if proto.spec(method).kind == "ranker" else features
    check_representation(method, features, proto)
    if dataset not in proto.datasets:
        raise ValueError(f"dataset must be one of the {proto.profile} profile's {proto.datasets}, got {dataset!r}")
    return _Evaluator(dataset, method, features, proto, progress)


def _axes(method: str, proto: Protocol) -> list[tuple[str, list[Any], bool]]:
    """The method's tuned axes: (name, grid values, whether it is a ``C`` axis, which a search may widen)."""
    return [(name, list(proto.grids[grid]), grid == "C") for name, grid in proto.spec(method).axes]


def _product(grids: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every configuration of the grids' product."""
    return [dict(zip(grids, combo)) for combo in itertools.product(*grids.values())]


def run_full_grids(jobs: Sequence[tuple[str, str, Representation]], proto: Protocol | None = None,
                   progress: bool = True, also: Sequence[tuple[Any, tuple]] = ()) -> None:
    """Cross-validate the full grid of every ``(dataset, method, features)`` of ``jobs`` in one pool of tasks, for
    :func:`tune` (``search="full"``) to read from the cache.

    Tuning one method after another runs each method's tasks in a pool of their own, and the workers wait at the
    end of each for its last task: five path tasks (one per fold) on two workers leave one worker idle while the
    fifth runs. One pool keeps every worker busy until the last task of all. It hands out the longest tasks first
    (the path tasks of a one-axis method, each fitting its whole grid, then the other paths, then single points;
    among equals the later jobs first): longest-first scheduling, whose makespan is close to the tasks' sum divided
    by the workers. The tasks and their cache entries are those :func:`tune` computes, so the results are the
    same; only the order of their computation changes. A ``C`` grid widened at a boundary is evaluated by
    :func:`tune`.

    Parameters
    ----------
    jobs : sequence of (str, str, str)
        Data set, method (a key of :attr:`Protocol.methods`) and representation ("original" or "meta").
    proto : Protocol, optional
    progress : bool
        Show a progress bar.
    also : sequence of (ResultCache, tuple)
        Other cached calls independent of the grids (a study's own tasks), handed out first, in their order: a
        pool of their own would leave a worker idle while its last task runs (the chapter "Meta-level features"'
        two neighbour-search tasks are such calls).
    """
    proto = default_protocol() if proto is None else proto
    ranked = [(-1, 0, position, call) for position, call in enumerate(also)]
    for position, (dataset, method, features) in enumerate(jobs):
        ev = _evaluator(dataset, method, features, proto, progress=False)
        axes = _axes(method, proto)
        calls = ev.calls(_product({name: values for name, values, _ in axes}), paths=True)[0]
        for cache, task in calls:
            # the longest tasks first: paths along a one-axis method's whole grid, other paths, single points;
            # among equals the later jobs first (a profile lists its larger data sets and Fig. 2's features last)
            kind = 2 if cache.name != "cv_path" else 0 if len(axes) == 1 else 1
            ranked.append((kind, -position, len(ranked), (cache, task)))
    run_calls([call for *_, call in sorted(ranked, key=lambda r: r[:3])], "full grids", progress)


def _full_search(ev: _Evaluator, axes: list, targets: Sequence[str], proto: Protocol) -> dict[str, dict]:
    """The product of the axes; a C axis is widened (and the product re-evaluated) on boundary hits."""
    grids = {name: list(values) for name, values, _ in axes}
    widened = {"low": 0, "high": 0}
    while True:
        configs = _product(grids)
        ev(configs, paths=True)
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
