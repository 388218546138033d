"""The quick profile's whole results table, pinned: any change of a number is caught here.

The experiment cache is keyed on explicit versions (``labelrank.protocol.ENGINE_VERSION`` and each method's
``MethodSpec.version``), not on the source code, so that moving or refactoring code keeps a 40-minute cache. The
price is that a change which moves a number must bump a version, and this test is what makes that happen: it
recomputes the quick profile from empty caches and compares it with ``tests/golden/quick_results.csv``.

When a change is meant to move numbers: bump the version of what changed, then regenerate the file with
``LABELRANK_UPDATE_GOLDEN=1 LABELRANK_DATA=... pytest tests/engine/test_protocol_golden.py`` and commit it with the change.

The same test checks that the table does not depend on the number of worker processes: one (serial) and three
(more workers than this 2-core machine's cores, so that tasks finish out of order). ``tests/engine/test_dask.py`` checks
a Dask cluster's table against the same file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from labelrank.protocol import data as engine_data
from labelrank.studies.yang2012 import experiments as ex

GOLDEN = Path(__file__).parents[1] / "golden" / "quick_results.csv"
NUMBERS = ["value", "cv_value", "p_value"]
KEYS = ["dataset", "method", "features", "threshold", "metric"]


def golden_table() -> pd.DataFrame:
    """The pinned table, as :func:`experiments.results` returns it (``fit_seconds`` left out)."""
    return pd.read_csv(GOLDEN, keep_default_na=False, na_values={c: [""] for c in NUMBERS})


def changed_cells(golden: pd.DataFrame, ours: pd.DataFrame) -> list[str]:
    """Every cell where ``ours`` differs from ``golden``: a number by more than 1e-12 + 1e-9 of its size (the last
    bits of sums may differ between machines' linear algebra), any other column at all, and any row in only one."""
    assert list(golden.columns) == list(ours.columns), (list(golden.columns), list(ours.columns))
    presence = golden[KEYS].merge(ours[KEYS], how="outer", indicator=True)
    side = {"left_only": "pinned", "right_only": "new"}
    changed = [f"only in the {side[row['_merge']]} table: {tuple(row[k] for k in KEYS)}"
               for _, row in presence[presence["_merge"] != "both"].iterrows()]
    merged = golden.merge(ours, on=KEYS, how="inner", suffixes=("_golden", "_ours"))  # keeps the columns' types
    for column in ours.columns.difference(KEYS):
        a, b = merged[f"{column}_golden"], merged[f"{column}_ours"]
        if column in NUMBERS:
            a, b = pd.to_numeric(a), pd.to_numeric(b)
            same = ((a - b).abs() <= 1e-12 + 1e-9 * b.abs()) | (a.isna() & b.isna())
        else:
            same = a.astype(str) == b.astype(str)
        changed += [f"{column} of {tuple(row[k] for k in KEYS)}: {row[f'{column}_golden']!r} -> "
                    f"{row[f'{column}_ours']!r}" for _, row in merged[~same].iterrows()]
    return changed


@pytest.mark.skipif(not os.environ.get("LABELRANK_DATA"), reason="needs the data mirror (LABELRANK_DATA)")
def test_quick_profile_results_are_pinned_and_identical_for_any_number_of_workers(tmp_path, monkeypatch):
    tables = []
    for jobs in (1, 3):
        monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / f"jobs{jobs}"))
        monkeypatch.setenv("LABELRANK_N_JOBS", str(jobs))
        engine_data._load_data.cache_clear()
        tables.append(ex.results("quick", progress=False).drop(columns=["fit_seconds"]))
    engine_data._load_data.cache_clear()
    for table in tables[1:]:
        pd.testing.assert_frame_equal(table, tables[0], check_exact=True)
    ours = tables[0]
    if os.environ.get("LABELRANK_UPDATE_GOLDEN") == "1":
        ours.to_csv(GOLDEN, index=False, float_format="%.17g")
    changed = changed_cells(golden_table(), ours)
    assert not changed, ("the quick profile's numbers moved; if that is intended, bump ENGINE_VERSION or the "
                         "method's MethodSpec.version and regenerate the golden file (see the module docstring):\n"
                         + "\n".join(changed[:20]))
