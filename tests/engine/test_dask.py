"""The protocol on a Dask cluster gives the pinned table, cell for cell (README: "The exact protocol on a
cluster").

A :class:`dask.distributed.LocalCluster` starts worker processes on 127.0.0.1; the quick protocol runs for one data set
under ``joblib.parallel_config(backend="dask")`` with the experiment cache in an empty folder every worker reaches
(``LABELRANK_CACHE``). Its table is compared with that data set's rows of ``tests/golden/quick_results.csv``, the
quick profile's table that ``tests/engine/test_protocol_golden.py`` recomputes serially and with three workers, under the
same tolerance (a serial run here as well would cost this test half its time and check nothing more).
"""

import dataclasses

import joblib
import pytest
from test_protocol_golden import changed_cells, golden_table

distributed = pytest.importorskip("distributed", reason="the `dask` extra is not installed: pip install -e '.[dask]'")

from labelrank.studies.yang2012 import experiments  # noqa: E402


def _quick_emotions():
    return dataclasses.replace(experiments.protocol("quick"), datasets=("emotions",))


def test_dask_cluster_results_equal_the_pinned_table(tmp_path, monkeypatch):
    # the workers start after LABELRANK_CACHE is set, so they see the shared folder
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "shared"))
    monkeypatch.setenv("LABELRANK_N_JOBS", "2")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        with joblib.parallel_config(backend="dask"), distributed.get_task_stream(client) as stream:
            on_cluster = experiments.results(_quick_emotions(), progress=False)
        workers = client.run(lambda: __import__("os").getpid())
    assert len(workers) == 2
    ran_on = {task["worker"] for task in stream.data}
    assert len(stream.data) > 50 and len(ran_on) == 2, (len(stream.data), ran_on)  # the workers did the fits
    assert any((tmp_path / "shared" / "experiments").rglob("output.lrc")), "nothing was cached in the shared folder"
    timings = [c for c in on_cluster.columns if c.endswith("_seconds")]  # measured, not computed
    assert timings == ["fit_seconds"], timings
    golden = golden_table()
    golden = golden[golden["dataset"] == "emotions"]
    assert len(golden) > 100
    changed = changed_cells(golden, on_cluster.drop(columns=timings))
    assert not changed, "the cluster's table differs from the pinned one:\n" + "\n".join(changed[:20])
