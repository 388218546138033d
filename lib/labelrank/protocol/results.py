"""The results table: every tuned configuration refitted on the training set and scored on the test set,
with significance against a reference method; ranks and rank totals; our numbers beside a paper's."""

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
from labelrank.protocol.fits import (
    _check_representation,
    _params_key,
    _final_fit_uncached,
    _run_calls,
    _threads_per_task,
)
from labelrank.protocol.keys import _cached, code_version
from labelrank.protocol.runs import _recording
from labelrank.protocol.search import run_full_grids, tune
from labelrank.protocol.settings import (
    Protocol,
    Representation,
    ThresholdRule,
    _spec,
    default_protocol,
    n_jobs,
)

tqdm = require("tqdm", "the experiment engine's progress bars").tqdm


def final_outputs(dataset: str, method: str, params: dict[str, Any], features: Representation = "original",
                 threshold: ThresholdRule = "default", proto: Protocol | None = None) -> dict[str, Any]:
    """Fit on the whole training set and score the test set (cached: one entry per configuration, holding the
    decisions of every threshold rule; a baseline's two rules share one fit of its model).

    Returns
    -------
    dict
        ``scores`` (n_test, n_labels) float64, ``pred`` 0/1 int8 (under ``threshold``), ``n_warnings``,
        ``seconds`` and ``cpu_seconds`` (of the fit).
    """
    proto = default_protocol() if proto is None else proto
    features = "meta" if _spec(method, proto).kind == "ranker" else features
    _check_representation(method, features, proto)
    if threshold not in ("default", "regression"):
        raise ValueError(f"threshold must be 'default' or 'regression', got {threshold!r}")
    cached = _cached(_final_fit_uncached, "final_fit")
    out = cached(dataset, proto.data_key(dataset), method, features, _params_key(params),
                 code_version(_spec(method, proto)), proto, _threads_per_task(1))
    return {**out, "pred": out["pred"][threshold]}


def jobs(dataset: str, proto: Protocol | None = None) -> list[tuple[str, str]]:
    """The (method, features) pairs :func:`results` runs on ``dataset``, in order: every method of
    :attr:`Protocol.methods`, and the conventional methods of :attr:`Protocol.fig2_methods` on meta-level features
    where the
    profile runs Fig. 2 (:attr:`Protocol.fig2_datasets`)."""
    proto = default_protocol() if proto is None else proto
    pairs = [(m, "meta" if spec.kind == "ranker" else "original") for m, spec in proto.methods.items()]
    if dataset in proto.fig2_datasets:
        pairs += [(m, "meta") for m in proto.fig2_methods]
    return pairs


def results(profile: str | Protocol | None = None, *, datasets: Sequence[str] | None = None,
            progress: bool = True, also: Sequence[tuple[Any, tuple]] = ()) -> pd.DataFrame:
    """Run (or read from the cache) everything Tables 3-6 and Fig. 2 need; one tidy table.

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
        and ``mark`` (the paper's significance test against MLC-ListNet on the same metric and data set,
        :func:`labelrank.metrics.significance.compare`; NaN and "" for MLC-ListNet itself), ``n_warnings``
        (convergence warnings of the final fit) and ``search``. ``features`` is "original" or "meta";
        ``threshold`` is "default" (the method's own rule) or "regression" (section 2.3's LLSF, the only rule of
        the meta-level rankers); a baseline's regression rows hold the three decision metrics only.
    """
    proto = profile if isinstance(profile, Protocol) else default_protocol(profile)
    names = proto.datasets if datasets is None else tuple(datasets)
    for name in names:
        if name not in proto.datasets:
            raise ValueError(f"datasets must be among the {proto.profile} profile's {proto.datasets}, got {name!r}")
    with _recording(proto, names, "results"):
        for dataset in names:
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
    cached = _cached(_final_fit_uncached, "final_fit")
    threads = _threads_per_task(n_jobs())
    ranked = []
    for dataset, dataset_cells in cells.items():
        n_train = load_data(dataset, proto)[1].shape[0]
        n_cv = min(n_train, proto.tune_subsample.get(dataset, n_train))
        scale = n_train / (n_cv * (proto.n_folds - 1))  # the folds fit n_cv * (n_folds - 1) instances in all
        for method, features, pk in dict.fromkeys((m, f, _params_key(p)) for m, f, _, _, p in dataset_cells):
            cost = tuned[dataset][(method, features)].cv_value(dict(pk), "cpu_seconds") * scale
            task = (dataset, proto.data_key(dataset), method, features, pk, code_version(_spec(method, proto)),
                    proto, threads)
            ranked.append((-np.nan_to_num(cost), len(ranked), dataset, (method, features, pk), (cached, task)))
    ranked.sort(key=lambda r: r[:2])
    outputs: dict[str, dict[tuple, dict[str, Any]]] = {dataset: {} for dataset in cells}
    for (*_, dataset, fit, _), out in zip(ranked, _run_calls([r[-1] for r in ranked], "final fits", progress)):
        outputs[dataset][fit] = out
    return outputs


def _dataset_rows(dataset: str, tuned: dict[tuple[str, str], Any], cells: list, outputs: dict[tuple, dict],
                  proto: Protocol) -> pd.DataFrame:
    """The rows of :func:`results` for one data set, from its tuning, its cells and its final fits."""
    _, _, _, Y_test = load_data(dataset, proto)
    rows = []
    for method, features, threshold, metric, params in cells:
        info = METRICS[metric]
        out = outputs[(method, features, _params_key(params))]
        if method == "MLC-ListNet":
            p_value, mark = np.nan, ""
        else:
            ref_params = tuned[("MLC-ListNet", "meta")].chosen[proto.selection[metric]]
            ref = outputs[("MLC-ListNet", "meta", _params_key(ref_params))]
            cmp = compare(metric, Y_test, _output(ref, info, "regression"), _output(out, info, threshold))
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
    """The sum of the ranks of each method (the paper's "Rank Total"), in order of first appearance."""
    order = list(dict.fromkeys(table[method]))
    return pd.to_numeric(table[rank]).groupby(table[method]).sum().reindex(order)


def rank_conflicts(table: pd.DataFrame, value: str = "value", rank: str = "rank",
                   by: Sequence[str] = ("metric", "dataset")) -> pd.DataFrame:
    """Rows whose printed ``rank`` contradicts the values: outside the ranks the value's tie group can take.

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


def beside_paper(ours: pd.DataFrame, paper: pd.DataFrame, keys: Sequence[str] = ("metric", "dataset", "method"),
                 ties: Literal["min", "max", "average"] = "min") -> pd.DataFrame:
    """The paper's value beside ours, with Δ = ours - paper and both ranks.

    Parameters
    ----------
    ours : pandas.DataFrame
        Rows of :func:`results` for one table (``keys`` unique), with a ``value`` column (and ``mark`` if any).
    paper : pandas.DataFrame
        The transcribed table (:func:`labelrank.studies.paper.load`), with ``value`` and optionally ``rank``, ``mark``.
    keys : sequence of str
        Columns identifying a cell.

    Returns
    -------
    pandas.DataFrame
        ``keys``, ``paper``, ``ours``, ``delta``, ``paper_rank`` (printed, if the paper has ranks), ``our_rank``
        (among our methods present in ``ours``; ``ties``), ``paper_mark`` and ``our_mark`` (if available). Cells
        we do not have (citeseer) keep NaN in ``ours``.
    """
    keys = list(keys)
    left = paper.rename(columns={"value": "paper", "rank": "paper_rank", "mark": "paper_mark"})
    right = ours[keys + ["value"] + (["mark"] if "mark" in ours else [])].rename(
        columns={"value": "ours", "mark": "our_mark"})
    merged = left.merge(right, on=keys, how="left")
    merged["paper"] = pd.to_numeric(merged["paper"])
    merged["delta"] = merged["ours"] - merged["paper"]
    have = merged["ours"].notna()
    merged["our_rank"] = np.nan
    if have.any():
        sub = merged[have]
        merged.loc[have, "our_rank"] = rank_methods(sub, "ours", by=[k for k in keys if k != "method"], ties=ties)
    cols = keys + ["paper", "ours", "delta"] + [c for c in ("paper_rank", "our_rank", "paper_mark", "our_mark")
                                                if c in merged]
    return merged[cols]
