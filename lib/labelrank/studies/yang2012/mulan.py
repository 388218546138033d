"""The kNN baselines and the metrics checked against MULAN's own outputs (``data/mulan``, see its README).

Yang & Gopal ran MULAN's ML-kNN and IBLR-ML (their section 3.2). MULAN itself was run on emotions and scene
(k = 10 and 20): these functions read its confidences, decisions and measures and compare them with
:class:`labelrank.baselines.MLkNN`, :class:`labelrank.baselines.IBLRML` and :mod:`labelrank.metrics`. Used by the
chapter "Learning to rank categories" (section "Checked against MULAN") and by ``tests/studies/test_mulan.py``.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable

import numpy as np
import pandas as pd

from labelrank import datasets, metrics
from labelrank.paths import data_dir
from labelrank.baselines import IBLRML, MLkNN

#: The runs MULAN's files hold: (data set, MULAN's method name, k).
CASES: tuple[tuple[str, str, int], ...] = tuple(
    (d, m, k) for d in ("emotions", "scene") for m in ("MLkNN", "IBLR_ML") for k in (10, 20)
)
ESTIMATORS = {"MLkNN": MLkNN, "IBLR_ML": IBLRML}
#: MULAN's measure -> (ours, applied to "confidences" or "decisions"), for the measures both compute.
MEASURES: dict[str, tuple[Callable, str]] = {
    "Hamming Loss": (metrics.hamming_loss, "decisions"),
    "Micro-averaged F-Measure": (metrics.micro_f1, "decisions"),
    "Macro-averaged F-Measure": (metrics.macro_f1, "decisions"),
    "Average Precision": (metrics.average_precision, "confidences"),
    "Coverage": (metrics.coverage, "confidences"),
    "OneError": (metrics.one_error, "confidences"),
    "Ranking Loss": (metrics.ranking_loss, "confidences"),
}


def mulan_outputs(dataset: str, method: str, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MULAN's confidences, 0/1 decisions and truth for every test instance, in file order.

    Parameters
    ----------
    dataset : {"emotions", "scene"}
    method : {"MLkNN", "IBLR_ML"}
    k : {10, 20}
    """
    if (dataset, method, k) not in CASES:
        raise ValueError(f"MULAN's outputs exist for {CASES}, got {(dataset, method, k)!r}")
    conf, dec, truth = [], [], []
    with gzip.open(data_dir() / "mulan" / f"conf_{dataset}_{method}_k{k}.tsv.gz", "rt") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            first, second = (i for i, x in enumerate(fields) if x == "|")
            conf.append([float(x) for x in fields[1:first]])
            dec.append([int(x) for x in fields[first + 1 : second]])
            truth.append([int(x) for x in fields[second + 1 :]])
    return np.array(conf), np.array(dec), np.array(truth)


def mulan_measures() -> pd.Series:
    """MULAN's measures, indexed by (data set, method, k, measure)."""
    rows = []
    with open(data_dir() / "mulan" / "mulan_measures.tsv") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "RESULT":
                rows.append(fields[1:])
    table = pd.DataFrame(rows, columns=["dataset", "method", "k", "measure", "value"])
    table = table.astype({"k": int, "value": float})
    return table.set_index(["dataset", "method", "k", "measure"]).sort_index()["value"]


def our_measures(Y: np.ndarray, confidences: np.ndarray, decisions: np.ndarray) -> dict[str, float]:
    """:mod:`labelrank.metrics`' values of the measures of :data:`MEASURES`, by MULAN's names."""
    return {name: float(func(Y, confidences if on == "confidences" else decisions))
            for name, (func, on) in MEASURES.items()}


def comparison(distance: str = "weka") -> pd.DataFrame:
    """Our ML-kNN and IBLR-ML beside MULAN's, run by run.

    Each estimator is fitted on the training split with MULAN's ``k`` and the given ``distance``
    (:class:`labelrank.baselines.MLkNN`), and scores the test split.

    Returns
    -------
    pandas.DataFrame
        One row per run of :data:`CASES`: ``max |confidence diff|`` (over all test instances and labels),
        ``decisions differing`` (count), ``max |measure diff|`` (over :data:`MEASURES`, our estimator's outputs
        against MULAN's printed measures) and ``metrics on MULAN's outputs`` (the largest difference between
        MULAN's measures and :mod:`labelrank.metrics` applied to MULAN's own confidences and decisions).
    """
    printed = mulan_measures()
    splits = {d: (datasets.load(d, "train")[:2], datasets.load(d, "test")[:2])  # each data set read once
              for d in dict.fromkeys(case[0] for case in CASES)}
    rows = []
    for dataset, method, k in CASES:
        conf, dec, truth = mulan_outputs(dataset, method, k)
        (X, Y), (X_test, Y_test) = splits[dataset]
        if not np.array_equal(truth, Y_test):
            raise ValueError(f"MULAN's truth for {dataset} is not the test split's labels")
        est = ESTIMATORS[method](k=k, distance=distance).fit(X, Y)
        ours, pred = est.decision_function(X_test), est.predict(X_test)
        expected = printed.loc[(dataset, method, k)]
        mine = our_measures(Y_test, ours, pred)
        theirs = our_measures(truth, conf, dec)
        rows.append({
            "dataset": dataset, "method": method, "k": k,
            "max |confidence diff|": float(np.abs(ours - conf).max()),
            "decisions differing": int((pred != dec).sum()),
            "max |measure diff|": max(abs(mine[m] - expected[m]) for m in MEASURES),
            "metrics on MULAN's outputs": max(abs(theirs[m] - expected[m]) for m in MEASURES),
        })
    return pd.DataFrame(rows)
