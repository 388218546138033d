"""The papers' published numbers, transcribed by hand into ``data/paper/<name>.csv``.

These CSV files are the only place where a paper's number is typed; chapters read them with :func:`load` and put
our recomputed value beside each one.
"""

from __future__ import annotations

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
