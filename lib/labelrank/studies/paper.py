"""The papers' published numbers, transcribed by hand into ``data/paper/<name>.csv``.

These CSV files are the only place where a paper's number is typed; chapters read them with :func:`load` and put
our recomputed value beside each one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from labelrank.paths import data_dir


def available() -> list[str]:
    """Names of the transcribed tables (file stems in ``data/paper``)."""
    return sorted(p.stem for p in (data_dir() / "paper").glob("*.csv"))


def load(name: str, **read_csv_kwargs) -> pd.DataFrame:
    """Read the transcribed table ``data/paper/<name>.csv``.

    Raises
    ------
    KeyError
        If no such table was transcribed; the message lists the ones that were.
    """
    path = data_dir() / "paper" / f"{name}.csv"
    if not path.is_file():
        raise KeyError(f"no transcribed paper table {name!r}; available: {', '.join(available()) or '(none)'}")
    return pd.read_csv(path, **read_csv_kwargs)


def beside_paper(ours: pd.DataFrame, paper: pd.DataFrame, keys: Sequence[str] = ("metric", "dataset", "method"),
                 ties: Literal["min", "max", "average"] = "min") -> pd.DataFrame:
    """The paper's value beside ours, with Δ = ours - paper and both ranks.

    Parameters
    ----------
    ours : pandas.DataFrame
        Rows of :func:`labelrank.protocol.results` for one table (``keys`` unique), with a ``value`` column (and ``mark`` if any).
    paper : pandas.DataFrame
        The transcribed table (:func:`load`), with ``value`` and optionally ``rank``, ``mark``.
    keys : sequence of str
        Columns identifying a cell.

    Returns
    -------
    pandas.DataFrame
        ``keys``, ``paper``, ``ours``, ``delta``, ``paper_rank`` (printed, if the paper has ranks), ``our_rank``
        (among our methods present in ``ours``; ``ties``), ``paper_mark`` and ``our_mark`` (if available). Cells
        we do not have (citeseer) keep NaN in ``ours``.
    """
    from labelrank.protocol import rank_methods  # the engine's ranks (its extra is needed here only)

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
