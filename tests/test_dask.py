"""The protocol on a Dask cluster gives the serial run's table, cell for cell (README: "Running the protocol on a
cluster").

A :class:`dask.distributed.LocalCluster` starts worker processes on 127.0.0.1; the quick protocol runs for one data set
under ``joblib.parallel_config(backend="dask")`` with the experiment cache in a folder every worker reaches
(``LABELRANK_CACHE``), and again serially (``LABELRANK_N_JOBS=1``) with a cache of its own, so that neither run reads
the other's results.
"""

import dataclasses

import joblib
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed", reason="the `dask` extra is not installed: pip install -e '.[dask]'")

from labelrank.studies.yang2012 import experiments  # noqa: E402


def _quick_emotions():
    return dataclasses.replace(experiments.protocol("quick"), datasets=("emotions",))


def _table(monkeypatch, cache, jobs):
    monkeypatch.setenv("LABELRANK_CACHE", str(cache))
    monkeypatch.setenv("LABELRANK_N_JOBS", str(jobs))
    return experiments.results(_quick_emotions(), progress=False)


def test_dask_cluster_results_equal_the_serial_run(tmp_path, monkeypatch):
    serial = _table(monkeypatch, tmp_path / "serial", 1)
    # the workers start after LABELRANK_CACHE is set, so they see the shared folder
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "shared"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        with joblib.parallel_config(backend="dask"), distributed.get_task_stream(client) as stream:
            on_cluster = _table(monkeypatch, tmp_path / "shared", 2)
        workers = client.run(lambda: __import__("os").getpid())
    assert len(workers) == 2
    ran_on = {task["worker"] for task in stream.data}
    assert len(stream.data) > 50 and len(ran_on) == 2, (len(stream.data), ran_on)  # the workers did the fits
    assert any((tmp_path / "shared" / "experiments").rglob("*.pkl")), "nothing was cached in the shared folder"
    keys = ["dataset", "method", "features", "threshold", "metric"]
    timings = [c for c in serial.columns if c.endswith("_seconds")]  # measured, not computed
    assert timings == ["fit_seconds"], timings
    pd.testing.assert_frame_equal(on_cluster.drop(columns=timings).sort_values(keys).reset_index(drop=True),
                                  serial.drop(columns=timings).sort_values(keys).reset_index(drop=True),
                                  check_exact=True)
    assert len(serial) > 100
