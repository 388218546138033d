"""Helpers the test layers share: the clustering seed's worked example, random label trees (hypothesis), the data
sets' availability, runs in TREC's form. A helper lives here when a library test and a study test both use it."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import strategies as st
from labelrank.datasets import REGISTRY
from labelrank.hierarchy import LabelTree
from labelrank.paths import cache_dir

# The seed's worked example: rows = clusters 1..3, columns = classes 1..3.
SEED = np.array([[21, 7, 11], [31, 10, 2], [9, 16, 0]])


def labels_from_table(C):
    """(cluster, class) of every instance counted in a contingency table, cluster by cluster."""
    clusters, classes = [], []
    for (i, j), n in np.ndenumerate(C):
        clusters += [i] * int(n)
        classes += [j] * int(n)
    return np.array(clusters), np.array(classes)


@st.composite
def trees(draw, max_size: int = 14, dag: bool = False):
    """A random label tree of 2 .. ``max_size`` nodes (a DAG with ``dag=True``)."""
    n = draw(st.integers(2, max_size))
    parents: dict[str, object] = {"n0": None}
    for i in range(1, n):
        p = draw(st.integers(0, i - 1))
        q = draw(st.integers(0, i - 1)) if dag and i > 1 and draw(st.booleans()) else p
        parents[f"n{i}"] = f"n{p}" if q == p else [f"n{p}", f"n{q}"]
    return LabelTree.from_parents(parents)


def data_available(name: str) -> bool:
    """Whether the data set ``name`` can be loaded here: a mirror (``LABELRANK_DATA``) or its files in the cache."""
    if os.environ.get("LABELRANK_DATA"):
        return True
    ds = REGISTRY[name]
    return all((cache_dir() / ds.folder / f.path).is_file() for f in ds.files)


def need(name: str) -> None:
    """Skip the calling test when the data set ``name`` has no source on this machine."""
    if not data_available(name):
        pytest.skip(
            f"{name}: no data source (set LABELRANK_DATA to a mirror folder such as ../shared/datasets, "
            "or run `labelrank data fetch`)"
        )


def as_trec(run_text, tag):
    """A run in the project's form (``doc label rank score`` lines) written in TREC's, with the run tag ``tag``."""
    return "".join(f"{d} Q0 {lab} {r} {s} {tag}\n" for d, lab, r, s in (line.split() for line in run_text.splitlines()))
