"""Fixtures of the experiment tests (``tests/engine``, ``tests/studies``): an own cache folder and one worker per
test, the synthetic problem with its labels in X, and a fresh count of the stand-ins' fits."""

from __future__ import annotations

import numpy as np
import pytest
from labelrank.protocol import data as engine_data
from protocol_standins import FITS


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """Own cache folder and one worker (in-process, so that monkeypatched code is what runs)."""
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path))
    monkeypatch.setenv("LABELRANK_N_JOBS", "1")
    engine_data._load_data.cache_clear()
    yield tmp_path
    engine_data._load_data.cache_clear()


@pytest.fixture
def labels_in_x(monkeypatch):
    """Make the synthetic X carry Y in its first columns, so the stand-ins can produce perfect scores."""
    original = engine_data._synthetic

    def synthetic(seed):
        X_tr, Y_tr, X_te, Y_te = original(seed)
        return np.hstack([Y_tr, X_tr]), Y_tr, np.hstack([Y_te, X_te]), Y_te

    monkeypatch.setattr(engine_data, "_synthetic", synthetic)
    engine_data._load_data.cache_clear()


@pytest.fixture
def sandbox(cache, labels_in_x, monkeypatch):
    """The cache fixture, the labels in X, and a fresh count of the stand-ins' fits."""
    FITS["n"] = 0
    return cache
