"""``benchmarks/bench_protocol.py`` keeps running as the library changes: its table of the protocol's cost, for the
cross-validation and for Fig. 2's runs (``--fig2``), on one small data set and two cheap methods."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from labelrank.paths import data_dir
from labelrank.studies.performance import latest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("fig2", [False, True])
def test_bench_protocol_prints_its_cost_table(tmp_path, fig2):
    if not os.environ.get("LABELRANK_DATA") and not (data_dir() / "raw" / "emotions").is_dir():
        pytest.skip("emotions needs a data source (set LABELRANK_DATA to a mirror such as ../shared/datasets)")
    argv = [sys.executable, str(ROOT / "benchmarks" / "bench_protocol.py"), "--datasets", "emotions",
            "--methods", "ML-kNN", "MLC-ListNet", *(["--fig2"] if fig2 else [])]
    records = tmp_path / "records"
    env = {**os.environ, "LABELRANK_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT / "lib"),
           "LABELRANK_BENCH_RECORDS": str(records)}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    header = "Fig. 2's runs (meta-level features)"
    assert (header in done.stdout) == fig2
    rows = re.findall(r"^(\S+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\w+ x\d+)\s+(\d+\.\d+)\s+(\d+)\s+(\d+\.\d+)$",
                      done.stdout, flags=re.M)
    # --fig2 leaves out MLC-ListNet, a ranker and not one of Fig. 2's conventional methods
    assert [row[0] for row in rows] == (["ML-kNN"] if fig2 else ["ML-kNN", "MLC-ListNet"])
    assert rows[0][3] == "k x10" and all(float(row[1]) > 0 for row in rows)
    # the printed table is the record's, row for row
    record = latest("bench_protocol", folder=records)
    assert [row["method"] for row in record["tables"]["methods"]] == [row[0] for row in rows]
    assert [round(row["axis_seconds"], 2) for row in record["tables"]["methods"]] == [float(row[4]) for row in rows]
    assert record["variant"] == " ".join(argv[2:]) and record["machine"]["cores"] == os.cpu_count()


def test_bench_build_runs_the_clone_without_another_checkouts_code_or_caches(monkeypatch):
    """A PYTHONPATH (or a cache, a profile) inherited by the clone's make would time another checkout's code and
    caches; bench_build.py drops them and keeps the data mirror."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_build", Path(__file__).parents[2] / "benchmarks" / "bench_build.py")
    bench_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_build)
    for name in bench_build.FOREIGN:
        monkeypatch.setenv(name, "/elsewhere")
    monkeypatch.setenv("LABELRANK_DATA", "/mirror")
    env = bench_build.clean_environment()
    assert not set(bench_build.FOREIGN) & set(env) and env["LABELRANK_DATA"] == "/mirror"
