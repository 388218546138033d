"""Benchmark records (``labelrank.studies.performance``): written as plain JSON with the machine and the code
version, read back newest first per benchmark and arguments, and nothing else accepted."""

import json
import os

import numpy as np
import pytest
from labelrank.studies import performance


def test_a_record_holds_its_figures_the_machine_and_the_code(tmp_path):
    path = performance.write_record("bench_x", {"t": [{"n": np.int64(3), "s": np.float64(0.25), "ok": True}]},
                                    values={"unit": 1.5}, argv=["--n", "3"], folder=tmp_path)
    record = json.loads(path.read_text())
    assert record["tables"]["t"] == [{"n": 3, "s": 0.25, "ok": True}]
    assert record["values"] == {"unit": 1.5} and record["variant"] == "--n 3"
    assert record["machine"]["cores"] == os.cpu_count() and record["machine"]["memory_gib"] > 0
    assert record["code"]["labelrank"] and record["date"].endswith("+00:00")
    assert {0.25, 3.0, 1.5, float(os.cpu_count())} <= performance.record_numbers(record)
    # True is not the number 1 (the table alone: the machine's load average may be 1.0 itself)
    assert 1.0 not in performance.record_numbers({"tables": record["tables"], "values": record["values"]})


def test_the_latest_record_of_a_variant_wins(tmp_path):
    for seconds, argv in ((1.0, ["a"]), (2.0, ["b"]), (3.0, ["a"])):
        path = performance.write_record("bench_x", {"t": [{"s": seconds}]}, argv=argv, folder=tmp_path)
        record = json.loads(path.read_text())
        record["date"] = f"2026-01-0{int(seconds)}T00:00:00+00:00"  # distinct dates within one second
        path.rename(tmp_path / f"bench_x-{int(seconds)}.json")
        (tmp_path / f"bench_x-{int(seconds)}.json").write_text(json.dumps(record))
    assert performance.latest("bench_x", "a", folder=tmp_path)["tables"]["t"][0]["s"] == 3.0
    assert performance.latest("bench_x", "b", folder=tmp_path)["tables"]["t"][0]["s"] == 2.0
    assert performance.latest("bench_x", folder=tmp_path)["tables"]["t"][0]["s"] == 3.0
    with pytest.raises(LookupError, match="no record of bench_y"):
        performance.latest("bench_y", folder=tmp_path)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), object()])
def test_a_record_refuses_what_json_cannot_hold_exactly(tmp_path, bad):
    with pytest.raises((ValueError, TypeError)):
        performance.write_record("bench_x", {"t": [{"s": bad}]}, argv=[], folder=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_a_record_is_named(tmp_path):
    (tmp_path / "bench_x-1.json").write_text('{"schema": 99}')
    with pytest.raises(ValueError, match="bench_x-1.json: not a benchmark record"):
        performance.load_records(tmp_path)


def test_committed_records_are_readable():
    """Each committed record comes from a script of benchmarks/, at a commit git knows, named by its own date."""
    import re
    import subprocess

    root = performance.records_dir().parents[1]
    for record in performance.load_records():
        assert (root / "benchmarks" / f"{record['benchmark']}.py").is_file(), record["file"]
        stamp = re.sub(r"[-:]", "", record["date"][:19]) + "Z"
        assert record["file"] == f"{record['benchmark']}-{stamp}.json", record["file"]
        assert record["tables"] and record["machine"]["cores"] >= 1
        commit = record["code"]["commit"]
        if commit and (root / ".git").exists():
            known = subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"],
                                   capture_output=True)
            shallow = subprocess.run(["git", "-C", str(root), "rev-parse", "--is-shallow-repository"],
                                     capture_output=True, text=True).stdout.strip() == "true"
            assert known.returncode == 0 or shallow, f"{record['file']}: unknown commit {commit}"
