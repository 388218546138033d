"""``labelrank.studies.yang2012.claims``: line counts and the Friedman test, on hand-made tables and against a
direct count."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from labelrank.studies.yang2012 import claims
from scipy import stats


def random_table(rng, methods=("A", "B", "C"), metrics=("MAP", "RankLoss", "Micro-F1"), datasets=("d1", "d2", "d3")):
    rows = [{"metric": m, "dataset": d, "method": x, "value": float(rng.integers(0, 4)) / 4}
            for m in metrics for d in datasets for x in methods]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seed", range(20))
def test_counts_agree_with_a_direct_count(seed):
    rng = np.random.default_rng(seed)
    t = random_table(rng)
    best = {x: 0 for x in "ABC"}
    wins = ties = 0
    for (metric, _), g in t.groupby(["metric", "dataset"]):
        v = g.set_index("method")["value"] * (-1 if metric == "RankLoss" else 1)  # RankLoss: lower is better
        for x in v.index[v == v.max()]:
            best[x] += 1
        wins += v["A"] > v["B"]
        ties += v["A"] == v["B"]
    assert claims.best_lines(t).to_dict() == best
    h = claims.head_to_head(t, "A", "B")
    assert (h["wins"], h["ties"], h["lines"]) == (wins, ties, 9) and h["wins"] + h["losses"] + h["ties"] == 9


def test_friedman_floor_is_the_test_on_identical_rankings():
    for n, k in ((4, 5), (5, 4), (10, 3)):
        rows = [[float(j) for j in range(k)] for _ in range(n)]
        assert claims.friedman_floor(n, k) == pytest.approx(stats.friedmanchisquare(*np.array(rows).T).pvalue)
    assert claims.friedman_floor(4, 5) > claims.friedman_floor(10, 5)  # more data sets, smaller p possible


def test_friedman_by_metric_blocks_by_data_set():
    rng = np.random.default_rng(3)
    t = random_table(rng, datasets=("d1", "d2", "d3", "d4"))
    t["value"] += rng.random(len(t)) * 1e-3  # no ties
    out = claims.friedman_by_metric(t)
    part = t[t["metric"] == "MAP"].pivot(index="dataset", columns="method", values="value")
    assert out.loc["MAP", "datasets"] == 4
    assert out.loc["MAP", "p_value"] == pytest.approx(stats.friedmanchisquare(*part.to_numpy().T).pvalue)
