"""The results table: every tuned configuration refitted on the training set and scored on the test set,
with significance against a reference method; ranks and rank totals."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from labelrank.optional import require
from labelrank.metrics import METRICS
from labelrank.metrics.significance import compare
from labelrank.protocol.data import load_data, meta_features
from labelrank.protocol.fits import check_representation, final_fit_task
from labelrank.protocol.keys import code_version, params_key, task_cache
from labelrank.protocol.runs import RecordedRun
from labelrank.protocol.search import run_full_grids, tune
from labelrank.protocol.tasks import run_calls, threads_per_task
from labelrank.protocol.settings import (
    Protocol,
    Representation,
    Thresholding,
    default_protocol,
    n_jobs,
)

tqdm = require("tqdm", "the experiment engine's progress bars").tqdm


def final_outputs(dataset: str, method: str, params: dict[str, Any], features: Representation = "original",
                 threshold: Thresholding = "default", proto: Protocol | None = None) -> dict[str, Any]:
    """Fit on the whole training set and score the test set (cached: one entry per configuration, holding the
    decisions of every threshold rule; a baseline's two rules share one fit of its model).

    Parameters
    ----------
    dataset, method, features
        As in :func:`cv_point_task`.
    params : dict
        Values of the method's axes.
    threshold : {"default", "regression"}
        The threshold rule of the decisions returned.
    proto : Protocol, optional
        As in :func:`load_data`.

    Returns
    -------
    dict
        ``scores`` (n_test, n_labels) float64, ``pred`` 0/1 int8 (under ``threshold``), ``n_warnings``,
        ``seconds`` and ``cpu_seconds`` (of the fit).
    """
    proto = default_protocol() if proto is None else proto
    features = "meta" if proto.spec(method).kind == "ranker" else features
    check_representation(method, features, proto)
    if threshold not in ("default", "regression"):
        raise ValueError(f"threshold must be 'default' or 'regression', got {threshold!r}")
    cached = task_cache(final_fit_task, "final_fit")
    out = cached(dataset, proto.data_key(dataset), method, features, params_key(params),
                 code_version(proto.spec(method)), proto, threads_per_task(1))
    return {**out, "pred": out["pred"][threshold]}


def jobs(dataset: str, proto: Protocol | None = None) -> list[tuple[str, str]]:
    """The (method, features) pairs :func:`results` runs on ``dataset``, in order: every method of
    :attr:`Protocol.methods` ("meta" for a ranker, "original" for a baseline), then the baselines of
    :attr:`Protocol.meta_methods` on concatenated meta-level features.

    Parameters
    ----------
    dataset, proto
        As in :func:`load_data`.
    """
    proto = default_protocol() if proto is None else proto
    pairs = [(m, "meta" if spec.kind == "ranker" else "original") for m, spec in proto.methods.items()]
    for method in proto.meta_methods.get(dataset, ()):
        if proto.spec(method).kind != "baseline":
            raise ValueError(f"meta_methods[{dataset!r}] names {method!r}, a {proto.spec(method).kind}: only "
                             "baselines choose their features")
        pairs.append((method, "meta"))
    return pairs


def results(profile: str | Protocol | None = None, *, datasets: Sequence[str] | None = None,
            progress: bool = True, also: Sequence[tuple[Any, tuple]] = ()) -> pd.DataFrame:
    """Run (or read from the cache) every method of a protocol on its data sets, tuned, refitted and tested; one
    tidy table.

    Parameters
    ----------
    profile : {"quick", "full"} or Protocol, optional
        ``LABELRANK_PROFILE`` when None; a :class:`Protocol` runs custom settings.
    datasets : sequence of str, optional
        A subset of the profile's data sets (all by default).
    progress : bool
        Show progress bars.
    also : sequence of (ResultCache, tuple)
        Other cached calls that depend on nothing here (a study's own tasks), handed out first in the full grids'
        pool (:func:`~labelrank.protocol.run_full_grids`) rather than in a pool of their own; their results are
        read from the cache afterwards.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method, features, threshold, metric) with columns ``value`` (on the test set),
        ``params`` (JSON of the configuration the metric is reported from: the one tuned for its selection
        metric, ``tuned_on``), ``cv_value`` (the metric's cross-validated mean at that configuration), ``p_value``
        and ``mark`` (the significance test against :attr:`Protocol.reference` on the same metric and data set,
        :func:`labelrank.metrics.significance.compare`; NaN and "" for the reference itself, and everywhere when
        the protocol has none), ``n_warnings``
        (convergence warnings of the final fit) and ``search``. ``features`` is "original" or "meta";
        ``threshold`` is "default" (the method's own rule) or "regression" (section 2.3's LLSF, the only rule of
        the meta-level rankers); a baseline's regression rows hold the three decision metrics only.
    """
    proto = profile if isinstance(profile, Protocol) else default_protocol(profile)
    names = proto.datasets if datasets is None else tuple(datasets)
    if proto.reference is not None:
        proto.spec(proto.reference)  # a ValueError naming the methods if the reference is none of them
    for name in names:
        if name not in proto.datasets:
            raise ValueError(f"datasets must be among the {proto.profile} profile's {proto.datasets}, got {name!r}")
    with RecordedRun(proto, names, "results"):
        for dataset in names:
            if all(features == "original" for _, features in jobs(dataset, proto)):
                continue  # no method reads meta-level features here
            for fold in tqdm(range(-1, proto.n_folds), desc=f"{dataset}: meta-level features",
                             disable=not progress, leave=False):
                meta_features(dataset, fold, proto)
        # every full grid in one pool of tasks (run_full_grids), before the tuning reads them
        run_full_grids([(dataset, method, features) for dataset in names for method, features in jobs(dataset, proto)
                        if proto.search_for(dataset, method) == "full"], proto, progress, also=also)
        tuned = {dataset: {(method, features): tune(dataset, method, features, proto, progress=progress)
                           for method, features in tqdm(jobs(dataset, proto), desc=f"{dataset}: tuning",
                                                        disable=not progress)}
                 for dataset in names}
        cells = {dataset: _cells(tuned[dataset], proto) for dataset in names}
        outputs = _final_fits(tuned, cells, proto, progress)
        table = pd.concat([_dataset_rows(dataset, tuned[dataset], cells[dataset], outputs[dataset], proto)
                           for dataset in names], ignore_index=True)
    return table


def _cells(tuned: dict[tuple[str, str], Any], proto: Protocol) -> list[tuple[str, str, str, str, dict]]:
    """The reported cells of one data set, (method, features, threshold, metric, configuration), in row order."""
    cells = []
    for (method, features), tr in tuned.items():
        for threshold in proto.methods[method].thresholds:
            for metric, info in METRICS.items():
                if threshold == "regression" and proto.methods[method].kind == "baseline" and info.kind == "rank":
                    continue
                cells.append((method, features, threshold, metric, tr.chosen[proto.selection[metric]]))
    return cells


def _final_fits(tuned: dict[str, dict], cells: dict[str, list], proto: Protocol,
                progress: bool) -> dict[str, dict[tuple, dict[str, Any]]]:
    """The final fits every data set's cells need (one per configuration, with the decisions of each threshold
    rule; a baseline's rules share its model), all data sets in one pool of tasks, the longest first.

    One pool for all data sets keeps both workers busy to the end, where a pool per data set would leave one idle
    while the other finishes the data set's longest fit (MLC-LightGBM on Reuters-21578's training set). A fit's
    length is estimated from its configuration's cross-validation CPU time, summed over the folds, scaled from
    the instances the folds fitted to the training set's (linear in instances). Only the order of the tasks
    changes, not what they compute.

    Returns
    -------
    dict
        Data set -> {(method, features, params key): the fit's output}.
    """
    cached = task_cache(final_fit_task, "final_fit")
    threads = threads_per_task(n_jobs())
    ranked = []
    for dataset, dataset_cells in cells.items():
        n_train = load_data(dataset, proto)[1].shape[0]
        n_cv = min(n_train, proto.tune_subsample.get(dataset, n_train))
        scale = n_train / (n_cv * (proto.n_folds - 1))  # the folds fit n_cv * (n_folds - 1) instances in all
        for method, features, pk in dict.fromkeys((m, f, params_key(p)) for m, f, _, _, p in dataset_cells):
            cost = tuned[dataset][(method, features)].cv_value(dict(pk), "cpu_seconds") * scale
            task = (dataset, proto.data_key(dataset), method, features, pk, code_version(proto.spec(method)),
                    proto, threads)
            ranked.append((-np.nan_to_num(cost), len(ranked), dataset, (method, features, pk), (cached, task)))
    ranked.sort(key=lambda r: r[:2])
    outputs: dict[str, dict[tuple, dict[str, Any]]] = {dataset: {} for dataset in cells}
    for (*_, dataset, fit, _), out in zip(ranked, run_calls([r[-1] for r in ranked], "final fits", progress)):
        outputs[dataset][fit] = out
    return outputs


def _dataset_rows(dataset: str, tuned: dict[tuple[str, str], Any], cells: list, outputs: dict[tuple, dict],
                  proto: Protocol) -> pd.DataFrame:
    """The rows of :func:`results` for one data set, from its tuning, its cells and its final fits."""
    _, _, _, Y_test = load_data(dataset, proto)
    rows = []
    for method, features, threshold, metric, params in cells:
        info = METRICS[metric]
        out = outputs[(method, features, params_key(params))]
        if proto.reference is None or method == proto.reference:
            p_value, mark = np.nan, ""
        else:
            ref_spec = proto.spec(proto.reference)
            ref_features = "meta" if ref_spec.kind == "ranker" else "original"
            ref_params = tuned[(proto.reference, ref_features)].chosen[proto.selection[metric]]
            ref = outputs[(proto.reference, ref_features, params_key(ref_params))]
            cmp = compare(metric, Y_test, _output(ref, info, ref_spec.thresholds[0]), _output(out, info, threshold))
            p_value, mark = cmp.p_value, cmp.mark
        rows.append({
            "dataset": dataset, "method": method, "features": features, "threshold": threshold, "metric": metric,
            "value": info(Y_test, _output(out, info, threshold)), "params": json.dumps(params, sort_keys=True),
            "tuned_on": proto.selection[metric], "cv_value": tuned[(method, features)].cv_value(params, metric),
            "p_value": p_value, "mark": mark, "n_warnings": int(out["n_warnings"]),
            "fit_seconds": float(out["seconds"]), "search": tuned[(method, features)].search,
        })
    return pd.DataFrame(rows)


def _output(out: dict[str, Any], info: Any, threshold: str) -> np.ndarray:
    """A final fit's scores (a ranking metric) or its decisions under ``threshold`` (a decision metric)."""
    return out["scores"] if info.kind == "rank" else out["pred"][threshold]


def _signed(table: pd.DataFrame, value: str) -> pd.Series:
    unknown = set(table["metric"]) - set(METRICS)
    if unknown:
        raise ValueError(f"table has metrics that are not in METRICS: {sorted(unknown)}")
    sign = table["metric"].map(lambda m: 1.0 if METRICS[m].higher_is_better else -1.0)
    return sign * pd.to_numeric(table[value])


def rank_methods(table: pd.DataFrame, value: str = "value", by: Sequence[str] = ("metric", "dataset"),
                 ties: Literal["min", "max", "average"] = "min") -> pd.Series:
    """Rank the methods (rows) within each group ``by``: 1 = best, using each metric's direction.

    Parameters
    ----------
    table : pandas.DataFrame
        With a ``metric`` column (names of ``METRICS``) and the ``value`` column.
    ties : {"min", "max", "average"}
        Rank of tied values (:meth:`pandas.Series.rank`); the paper uses both "min" and "max" (Table 6).

    Returns
    -------
    pandas.Series of ranks aligned with ``table``.
    """
    signed = _signed(table, value)
    return signed.groupby([table[b] for b in by]).rank(ascending=False, method=ties)


def rank_totals(table: pd.DataFrame, rank: str = "rank", method: str = "method") -> pd.Series:
    """The sum of the ranks of each method (the paper's "Rank Total"), in order of first appearance.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows with a method column and a rank column (e.g. :func:`rank_methods`'s).
    rank, method : str
        The names of those columns.
    """
    order = list(dict.fromkeys(table[method]))
    return pd.to_numeric(table[rank]).groupby(table[method]).sum().reindex(order)


def rank_conflicts(table: pd.DataFrame, value: str = "value", rank: str = "rank",
                   by: Sequence[str] = ("metric", "dataset")) -> pd.DataFrame:
    """Rows whose printed ``rank`` contradicts the values: outside the ranks the value's tie group can take.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows with values and printed ranks (e.g. a transcribed table of the paper).
    value, rank : str
        The names of the value and the rank columns.
    by : sequence of str
        The columns whose groups are ranked separately.

    Returns
    -------
    pandas.DataFrame
        The offending rows with two more columns, ``rank_min`` and ``rank_max``: the ranks their values admit.
    """
    lo = rank_methods(table, value, by, ties="min")
    hi = rank_methods(table, value, by, ties="max")
    printed = pd.to_numeric(table[rank])
    bad = (printed < lo) | (printed > hi)
    return table.assign(rank_min=lo.astype(int), rank_max=hi.astype(int))[bad]
