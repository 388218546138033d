"""The figures of the F-term chapters: one measure of many runs under binary and BDM scoring (the seed's Figures 2-7).

Examples
--------
>>> import pandas as pd
>>> runs = pd.DataFrame({("A-Precision", v): [0.5, 0.4] for v in VARIANT_NAMES}, index=["r1", "r2"])
>>> fig = score_figure(runs, "A-Precision", shaded=["r2"], what="run")
>>> len(fig.axes)
2
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["VARIANT_NAMES", "VARIANT_COLORS", "score_figure"]

#: The three variants of the cost-based measures, as the chapters name them.
VARIANT_NAMES: dict[str, str] = {"binary": "binary", "high": "BDM-High", "low": "BDM-Low"}
#: Their colours in every figure.
VARIANT_COLORS: dict[str, str] = {"binary": "0.35", "high": "#d95f02", "low": "#1b9e77"}


def score_figure(table: pd.DataFrame, measure: str, shaded: Sequence[str] = (), what: str = "run"):
    """The seed's pair of figures for one measure: each run's score in the three variants (top) and the BDM scores
    minus the binary one (bottom), runs in the order of ``table``'s rows, the runs of ``shaded`` shaded.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per run, columns ``(measure, variant)`` for the variants of :data:`VARIANT_NAMES`.
    measure : str
        "A-Precision", "R-Precision" or "F-measure".
    shaded : sequence of str
        Runs to shade (the hierarchical ones).
    what : str
        The label of the runs' axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    x = np.arange(len(table))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 5.6), sharex=True)
    for v, marker in (("binary", "o"), ("high", "^"), ("low", "v")):
        top.plot(x, table[(measure, v)], marker=marker, ms=4, lw=0.8, color=VARIANT_COLORS[v],
                 label=VARIANT_NAMES[v])
    for v, marker in (("high", "^"), ("low", "v")):
        bottom.plot(x, table[(measure, v)] - table[(measure, "binary")], marker=marker, ms=4, lw=0.8,
                    color=VARIANT_COLORS[v], label=f"{VARIANT_NAMES[v]} - binary")
    for ax in (top, bottom):
        for name in shaded:
            ax.axvspan(table.index.get_loc(name) - 0.45, table.index.get_loc(name) + 0.45, color="#fdd49e",
                       zorder=0)
        ax.grid(axis="y", color="0.9")
    top.set_ylabel(measure)
    bottom.set_ylabel("difference from binary")
    bottom.set_xticks(x, table.index, rotation=90, fontsize=7)
    bottom.set_xlabel(what)
    top.legend(ncol=3, fontsize=8, loc="lower left")
    bottom.legend(ncol=2, fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig
