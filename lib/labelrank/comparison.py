"""Comparing runs: which system wins under which measure, and does a label-relation-aware measure change it?

:func:`compare` is ``labelrank compare`` as a function, the analysis of Li, Bontcheva & Cunningham's Table 2 for
anyone's runs: every run's mean of every measure; paired tests of each run against a baseline run, document by
document (Wilcoxon's signed-rank test and the sign test, as Yang & Gopal use them, and Fisher's randomization
test), corrected for the number of comparisons; Kendall's tau between the runs' rankings under every pair of
measure families (binary, BDM-High, BDM-Low, hF, LCA-F) with bootstrap intervals over the documents; and the
runs that change places between families.

Examples
--------
>>> truth = {f"d{i}": {"a": 1} for i in range(6)}
>>> runs = {"good": {d: {"a": 0.9, "b": 0.1} for d in truth}, "bad": {d: {"b": 0.9, "a": 0.1} for d in truth}}
>>> result = compare(truth, runs, n_boot=50, n_permutations=99)
>>> result.means["AP_binary"].to_dict()
{'good': 1.0, 'bad': 0.5}
>>> result.tests.loc[("AP_binary", "bad"), "baseline"]
'good'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["compare", "RunComparison", "bootstrap_taus", "rank_changes", "TESTS"]

#: the paired tests :func:`compare` runs
TESTS: tuple[str, ...] = ("wilcoxon", "sign", "randomization")


def bootstrap_taus(per_document: dict[str, pd.DataFrame], n_boot: int = 1000, seed: int = 0,
                   level: float = 0.95) -> pd.DataFrame:
    """Kendall's tau (tau-b) between the runs' rankings under every pair of measures, with bootstrap intervals.

    The runs' scores are the means of their per-document values; the documents are resampled with replacement
    ``n_boot`` times (the same resamples for every run and measure) and the interval is the percentile interval
    at ``level``.

    Parameters
    ----------
    per_document : dict of str to pandas.DataFrame
        Each run's per-document values, the same documents (rows) and measures (columns) for every run.
    n_boot, seed, level
        Resamples, their seed, and the interval's coverage.

    Returns
    -------
    pandas.DataFrame
        Index (first measure, second measure) for every pair in column order; columns ``tau``, ``low``,
        ``high``.

    Examples
    --------
    >>> runs = {r: pd.DataFrame({"x": [v, v + 0.1, v], "y": [v, v, v + 0.2]}) for r, v in (("a", 0.1), ("b", 0.5),
    ...                                                                                       ("c", 0.9))}
    >>> bootstrap_taus(runs, n_boot=20).round(3).loc[("x", "y")].tolist()
    [1.0, 1.0, 1.0]
    """
    names = list(per_document)
    measures = list(per_document[names[0]].columns)
    values = np.stack([per_document[n][measures].to_numpy(dtype=float) for n in names])  # (runs, docs, measures)
    n_docs = values.shape[1]
    counts = np.random.default_rng(seed).multinomial(n_docs, np.full(n_docs, 1.0 / n_docs), size=n_boot)
    boot = np.einsum("bd,rdm->brm", counts, values) / n_docs  # each resample's run means
    full = values.mean(axis=1)
    rows = {}
    for i, a in enumerate(measures):
        for j in range(i + 1, len(measures)):
            taus = [stats.kendalltau(b[:, i], b[:, j]).statistic for b in boot]
            lo, hi = np.nanpercentile(taus, [50 * (1 - level), 50 * (1 + level)])
            rows[(a, measures[j])] = {"tau": float(stats.kendalltau(full[:, i], full[:, j]).statistic),
                                      "low": float(lo), "high": float(hi)}
    return pd.DataFrame(rows).T.rename_axis(["measure", "versus"])


def rank_changes(means: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Each run's rank (1 = best, ties share the best rank) under each of ``columns``, and whether it moves.

    Parameters
    ----------
    means : pandas.DataFrame
        One row per run, one column per measure (higher is better).
    columns : sequence of str
        The measures to rank by.

    Returns
    -------
    pandas.DataFrame
        One column of ranks per measure and ``moves`` (True where a run's ranks differ), sorted by the first.

    Examples
    --------
    >>> means = pd.DataFrame({"x": [0.9, 0.5, 0.7], "y": [0.6, 0.8, 0.7]}, index=["a", "b", "c"])
    >>> rank_changes(means, ["x", "y"])
       x  y  moves
    a  1  3   True
    c  2  2  False
    b  3  1   True
    """
    ranks = pd.DataFrame({c: means[c].rank(ascending=False, method="min").astype(int) for c in columns})
    ranks["moves"] = ranks.nunique(axis=1) > 1
    return ranks.sort_values(list(columns)[0], kind="stable")


@dataclass
class RunComparison:
    """What :func:`compare` finds.

    Attributes
    ----------
    means : pandas.DataFrame
        One row per run, one column per measure (:func:`labelrank.evaluation.measure_name`).
    tests : pandas.DataFrame
        Index (measure, run) for every run but the baseline; columns ``baseline``, ``difference`` (the run's mean
        minus the baseline's), ``p_<test>`` and ``p_<test>_adjusted`` for each test of :data:`TESTS`.
    taus : pandas.DataFrame
        Index (measure, family, versus); columns ``tau`` (Kendall's tau-b between the runs' rankings), ``low``,
        ``high`` (the bootstrap percentile interval over documents).
    ranks : dict of str to pandas.DataFrame
        Per measure (``AP``, ``RP``, ``F``), the runs' ranks under each family (:func:`rank_changes`).
    per_document : dict of str to pandas.DataFrame
        Each run's per-document values.

    Examples
    --------
    >>> truth = {"d1": {"a": 1}, "d2": {"a": 1}}
    >>> result = compare(truth, {"r1": {"d1": {"a": 1.0}}, "r2": {"d2": {"a": 1.0}}}, n_boot=10, n_permutations=9)
    >>> sorted(result.per_document)
    ['r1', 'r2']
    """

    means: pd.DataFrame
    tests: pd.DataFrame
    taus: pd.DataFrame
    ranks: dict[str, pd.DataFrame]
    per_document: dict[str, pd.DataFrame]


def _runs_of(runs: Any, labels, truth, order: str | None) -> dict[str, Any]:
    """``{name: run}``: a mapping as given, or a sequence of paths (a TREC file of several tags gives several)."""
    from labelrank.runfiles import read_runs

    if isinstance(runs, Mapping):
        return dict(runs)
    if isinstance(runs, (str, os.PathLike)):
        runs = [runs]
    out: dict[str, Any] = {}
    for path in runs:
        for name, run in read_runs(path, labels, truth, order or "rank").items():
            if name in out:
                raise ValueError(f"two runs are named {name!r}; give them as a dict of distinct names")
            out[name] = run
    return out


def compare(truth: Any, runs: Any, tree: Any = None, measures: Sequence[str] | None = None, *,
            baseline: str | None = None, correction: str = "holm", n_permutations: int = 10_000,
            n_boot: int = 1000, level: float = 0.95, seed: int = 0, order: str | None = None, cutoff: int = 200,
            threshold: float = 0.5, top: int | None = None, convention: str | None = None,
            max_distance: int = 100_000) -> RunComparison:
    """Compare several runs on one truth: means, paired tests against a baseline, and rank agreement of measures.

    Parameters
    ----------
    truth : path, dict or pandas.DataFrame
        As :func:`labelrank.evaluation.evaluate`.
    runs : mapping of str to run, or sequence of paths
        ``{name: run}`` (each a path of one run, a ``{doc: {label: score}}`` dict, a DataFrame or a
        :class:`~labelrank.runfiles.Run`), or run files (a TREC file holds one run per tag).
    tree : LabelTree or path, optional
        Without it, the binary measures alone.
    measures : sequence of str, optional
        Families among :data:`labelrank.evaluation.MEASURES`; default binary, and BDM-High and BDM-Low with a tree.
    baseline : str, optional
        The run every other is tested against; default, for each measure, the run with the best mean.
    correction : {"holm", "bh", "none"}
        Across all (measure, run) comparisons of a test (:func:`labelrank.metrics.significance.adjust`).
    n_permutations, n_boot, level, seed
        The randomization test's sign patterns, the bootstrap's resamples and interval coverage, their seed.
    order, cutoff, threshold, top, convention, max_distance
        As :func:`labelrank.evaluation.evaluate`.

    Returns
    -------
    RunComparison

    Examples
    --------
    >>> truth = {f"d{i}": {"a": 1} for i in range(8)}
    >>> runs = {"A": {d: {"a": 0.9} for d in truth}, "B": {d: {"b": 0.9, "a": 0.2} for d in truth}}
    >>> tests = compare(truth, runs, n_boot=20, n_permutations=199).tests
    >>> row = tests.loc[("AP_binary", "B")]
    >>> row["baseline"], float(row["difference"]), float(row["p_sign"])
    ('A', -0.5, 0.0078125)
    """
    from labelrank.evaluation import MEASURES, as_truth, evaluate
    from labelrank.hierarchy import LabelTree
    from labelrank.metrics.significance import adjust, paired_sign_test, randomization_test, wilcoxon

    if isinstance(tree, (str, os.PathLike)):
        tree = LabelTree.from_file(tree)
    labels = set(tree.labels) if tree is not None else None
    truth = as_truth(truth, labels)
    named = _runs_of(runs, labels, truth, order)
    if len(named) < 2:
        raise ValueError(f"compare needs at least two runs, got {len(named)}")
    if baseline is not None and baseline not in named:
        raise ValueError(f"baseline {baseline!r} is not one of the runs {sorted(named)}")
    # without a tree each run's binary measures come from a flat tree of its own labels (evaluate): the same values
    per_document = {name: evaluate(truth, run, tree, measures, per_document=True, order=order,
                                   cutoff=cutoff, threshold=threshold, top=top, convention=convention,
                                   max_distance=max_distance) for name, run in named.items()}
    means = pd.DataFrame({name: table.mean() for name, table in per_document.items()}).T
    rows = {}
    for column in means.columns:
        base = baseline or str(means[column].idxmax())
        for name in named:
            if name == base:
                continue
            a, b = per_document[name][column].to_numpy(), per_document[base][column].to_numpy()
            rows[(column, name)] = {
                "baseline": base, "difference": float(means.loc[name, column] - means.loc[base, column]),
                "p_wilcoxon": wilcoxon(a, b), "p_sign": paired_sign_test(a, b),
                "p_randomization": randomization_test(a, b, n_permutations, seed)}
    tests = pd.DataFrame(rows).T.rename_axis(["measure", "run"])
    for test in TESTS:
        tests[f"p_{test}"] = tests[f"p_{test}"].astype(float)
        tests[f"p_{test}_adjusted"] = adjust(tests[f"p_{test}"].to_numpy(), correction)
    tests["difference"] = tests["difference"].astype(float)
    families = [m for m in MEASURES if any(c.endswith("_" + m) for c in means.columns)]
    taus, ranks = [], {}
    for short, measure in (("AP", "A-Precision"), ("RP", "R-Precision"), ("F", "F-measure")):
        columns = [c for c in (f"{short}_{f}" for f in families) if c in means.columns]
        if not columns:
            continue
        ranks[short] = rank_changes(means, columns)
        if len(columns) > 1:
            t = bootstrap_taus({name: table[columns] for name, table in per_document.items()}, n_boot, seed, level)
            t.index = pd.MultiIndex.from_tuples([(short, a.split("_", 1)[1], b.split("_", 1)[1]) for a, b in t.index],
                                                names=["measure", "family", "versus"])
            taus.append(t)
    taus = pd.concat(taus) if taus else pd.DataFrame(columns=["tau", "low", "high"])
    return RunComparison(means=means, tests=tests, taus=taus, ranks=ranks, per_document=per_document)
