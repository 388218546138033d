r"""The counts of Yang & Gopal's sections 4.1 and 4.2, recounted from a table of values, and the test of section 4.3
that the paper declines.

Section 4.1 reads Table 3 by counting lines (one line: one metric on one data set): "MLC-ListNet is the best in
32 out of the total 40 lines", "[Rank-SVM] outperforms [Binary-SVM] on 21 out of the 38 lines (the remaining two
performed equally)", and so on; section 4.2 reads Table 5 the same way ("the best performance in 10 out of the
total 12 cases"). :func:`best_lines` and :func:`head_to_head` count them from any long table of values (the
paper's printed one, or ours), each metric in its own direction (:data:`labelrank.metrics.METRICS`). The paper's
stated counts are in ``data/paper/yang2012_claims.csv`` (:func:`stated_counts`).

Section 4.3 explains why the paper does not use the Friedman test: "it treats each dataset as a random event, and
requires a relatively large number of datasets". :func:`friedman_by_metric` runs it per metric over the data sets
of a table, and :func:`friedman_floor` gives the smallest p-value it can reach with so few data sets, when every
data set ranks the methods alike.

Examples
--------
>>> import pandas as pd
>>> t = pd.DataFrame({"metric": ["MAP"] * 4, "dataset": ["a", "a", "b", "b"], "method": ["X", "Y"] * 2,
...                   "value": [0.9, 0.8, 0.7, 0.7]})
>>> best_lines(t).to_dict()
{'X': 2, 'Y': 1}
>>> head_to_head(t, "X", "Y")
{'wins': 1, 'losses': 0, 'ties': 1, 'lines': 2}
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from labelrank.metrics import METRICS
from labelrank.studies import paper

__all__ = ["best_lines", "head_to_head", "stated_counts", "friedman_by_metric", "friedman_floor"]


def _signed(table: pd.DataFrame, value: str) -> pd.Series:
    """The values with the sign that makes higher better for every metric."""
    sign = table["metric"].map(lambda m: 1.0 if METRICS[m].higher_is_better else -1.0)
    return pd.to_numeric(table[value]) * sign


def best_lines(table: pd.DataFrame, value: str = "value", methods: Sequence[str] | None = None) -> pd.Series:
    """How many lines (metric, data set) each method is best on; a tie for the best counts for each tied method.

    Parameters
    ----------
    table : pandas.DataFrame
        Long form: columns ``metric``, ``dataset``, ``method`` and ``value``.
    value : str
        The column of values.
    methods : sequence of str, optional
        The methods compared (the others' rows are dropped first); default every method of ``table``.

    Returns
    -------
    pandas.Series of int, indexed by method, in the order of ``methods`` (or of first appearance).
    """
    if methods is not None:
        table = table[table["method"].isin(methods)]
    order = list(methods) if methods is not None else list(dict.fromkeys(table["method"]))
    signed = _signed(table, value)
    best = signed.groupby([table["metric"], table["dataset"]]).transform("max")
    return (signed == best).groupby(table["method"]).sum().reindex(order, fill_value=0).astype(int)


def head_to_head(table: pd.DataFrame, a: str, b: str, value: str = "value") -> dict[str, int]:
    """On how many lines method ``a`` is better than ``b`` (``wins``), worse (``losses``) or equal (``ties``).

    Only the lines where both have a value count (``lines``).
    """
    signed = _signed(table, value)
    wide = signed.groupby([table["metric"], table["dataset"], table["method"]]).first().unstack("method")
    pair = wide[[a, b]].dropna()
    return {"wins": int((pair[a] > pair[b]).sum()), "losses": int((pair[a] < pair[b]).sum()),
            "ties": int((pair[a] == pair[b]).sum()), "lines": len(pair)}


def stated_counts() -> pd.DataFrame:
    """The counts the paper's text states for Tables 3 and 5, as transcribed: one row per claim, with ``table``,
    ``kind`` (``best``: lines a method is best on; ``beats``: lines ``method`` is better than ``other``),
    ``method``, ``other``, ``count``, ``of`` (the lines the claim counts over) and the ``location`` in the paper."""
    return paper.load("yang2012_claims", keep_default_na=False)


def friedman_by_metric(table: pd.DataFrame, value: str = "value", methods: Sequence[str] | None = None
                       ) -> pd.DataFrame:
    """The Friedman test of each metric: the data sets as blocks, the methods as treatments.

    Returns
    -------
    pandas.DataFrame
        Per metric: the number of data sets, the statistic and its p-value (scipy's chi-squared approximation).
    """
    if methods is not None:
        table = table[table["method"].isin(methods)]
    rows = {}
    for metric, part in table.groupby("metric", sort=False):
        wide = _signed(part, value).groupby([part["dataset"], part["method"]]).first().unstack("method").dropna()
        statistic, p = stats.friedmanchisquare(*(wide[m].to_numpy() for m in wide.columns))
        rows[metric] = {"datasets": len(wide), "statistic": float(statistic), "p_value": float(p)}
    return pd.DataFrame.from_dict(rows, orient="index")


def friedman_floor(n_datasets: int, n_methods: int) -> float:
    """The smallest p-value of the Friedman test (scipy's chi-squared approximation) over ``n_datasets`` data sets
    and ``n_methods`` methods: the one it gives when every data set ranks the methods in the same order.

    Examples
    --------
    >>> round(friedman_floor(4, 5), 4)
    0.003
    """
    same_order = np.tile(np.arange(n_methods, dtype=float), (n_datasets, 1))
    return float(stats.friedmanchisquare(*same_order.T).pvalue)
