"""Deterding's vowel data as distributed with Hastie, Tibshirani & Friedman's ESL (CSV), one-hot labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from labelrank.datasets.registry import _Y_DTYPE

# --------------------------------------------------------------------------------------------------------------
# vowel (ESL CSV)
# --------------------------------------------------------------------------------------------------------------


def _parse_vowel(folder: Path, split: str):
    frame = pd.read_csv(folder / f"vowel.{split}")
    expected = ["row.names", "y"] + [f"x.{i}" for i in range(1, 11)]
    if list(frame.columns) != expected:
        raise ValueError(f"vowel.{split}: unexpected header {list(frame.columns)}; expected {expected}")
    X = frame[expected[2:]].to_numpy(dtype=float)
    y = frame["y"].to_numpy()
    classes = np.arange(1, 12)
    if not np.isin(y, classes).all():
        raise ValueError(f"vowel.{split}: classes outside 1..11: {sorted(set(y) - set(classes))}")
    Y = (y[:, None] == classes[None, :]).astype(_Y_DTYPE)
    # vowel.info.txt lists the eleven words (heed, hid, ...) but not which class code 1..11 each one is.
    return X, Y, [str(c) for c in classes]
