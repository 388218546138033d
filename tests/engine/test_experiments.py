"""The experiment engine (labelrank.protocol) on a tiny synthetic problem: its settings, searches, cache, results
table, run record, worker processes and warm-started paths (Yang & Gopal's protocol itself:
``tests/studies/test_yang2012_experiments.py``).

Most tests run in-process (``LABELRANK_N_JOBS=1``) with *stand-in* estimators whose cross-validated quality is a
known function of their hyper-parameters, so that the selection rule, the boundary widening and the staged search
can be checked against a known answer; each test gets its own cache folder.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from labelrank.metrics import METRICS
from labelrank.protocol import data as engine_data
from labelrank.protocol import fits, runs
from labelrank.studies.yang2012 import experiments as ex
from protocol_standins import (
    FITS,
    METHODS,
    StandIn,
    proto,
)

# ---- the protocol's settings --------------------------------------------------------------------------------------


def test_search_by_dataset_sets_tunes_default(sandbox):
    """A data set's own strategy is tune's default there; a bad strategy is refused when the protocol is made."""
    p = proto(grids={**proto().grids, "C": tuple(float(c) for c in np.logspace(-6, 6, 13))})
    staged = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=p, targets=["MAP"], progress=False)
    p = dataclasses.replace(p, search_by_dataset={ex.SYNTHETIC: "full"})
    full = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=p, targets=["MAP"], progress=False)
    assert (staged.search, full.search) == ("staged", "full")
    assert len(full.points) == 13 > len(staged.points) and full.chosen == staged.chosen
    with pytest.raises(ValueError, match="'synthetic'.*'random'"):
        proto(search_by_dataset={"synthetic": "random"})
    with pytest.raises(ValueError, match="'search'.*'grid'"):
        proto(search="grid")


def test_n_jobs_from_environment(monkeypatch):
    monkeypatch.delenv("LABELRANK_N_JOBS", raising=False)
    assert ex.n_jobs() == 2
    monkeypatch.setenv("LABELRANK_N_JOBS", "-1")
    assert ex.n_jobs() == -1
    for bad in ("two", "0", "-3"):
        monkeypatch.setenv("LABELRANK_N_JOBS", bad)
        with pytest.raises(ValueError, match="LABELRANK_N_JOBS"):
            ex.n_jobs()


def test_bad_arguments_name_themselves(sandbox):
    p = proto()
    with pytest.raises(ValueError, match="method"):
        ex.tune(ex.SYNTHETIC, "SVM-Light", proto=p)
    with pytest.raises(ValueError, match="dataset"):
        ex.tune("emotions", "ML-kNN", proto=p)
    with pytest.raises(ValueError, match="search"):
        ex.tune(ex.SYNTHETIC, "ML-kNN", proto=p, search="random")
    with pytest.raises(ValueError, match="targets"):
        ex.tune(ex.SYNTHETIC, "ML-kNN", proto=p, targets=["F2"])
    with pytest.raises(ValueError, match="features"):
        ex.tune(ex.SYNTHETIC, "ML-kNN", "words", proto=p)
    with pytest.raises(ValueError, match="fold"):
        ex.meta_features(ex.SYNTHETIC, 3, p)
    with pytest.raises(ValueError, match="threshold"):
        ex.make_estimator("ML-kNN", {"k": 3}, "zero")


def test_folds_and_tuning_subsample(cache):
    folds = ex.fold_indices(10, 3, seed=0)
    assert sorted(np.concatenate([v for _, v in folds]).tolist()) == list(range(10))
    assert all(np.intersect1d(f, v).size == 0 for f, v in folds)
    p = proto(tune_subsample={ex.SYNTHETIC: 60})
    rows = ex.tuning_rows(150, ex.SYNTHETIC, p)
    assert rows.size == 60 and np.unique(rows).size == 60
    X_fit, Y_fit, X_val, Y_val = engine_data.fold_data(ex.SYNTHETIC, p, 0)
    assert X_fit.shape[0] + X_val.shape[0] == 60
    X_tr, _, X_te, _ = engine_data.fold_data(ex.SYNTHETIC, p, -1)
    assert (X_tr.shape[0], X_te.shape[0]) == (150, 75)


# ---- selection, widening, staged vs full search -------------------------------------------------------------------


def test_selection_rule_per_target_metric(sandbox):
    tr = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=proto(), search="full", progress=False)
    assert tr.chosen["MAP"] == {"C": StandIn.C_RANK}
    assert tr.chosen["Micro-F1"] == {"C": StandIn.C_DECIDE}
    assert len(tr.points) == 5
    assert len(tr.configurations()) == 2
    # the chosen point is the best of the evaluated ones, on the metric's own direction
    assert tr.cv_value(tr.chosen["MAP"], "MAP") == tr.points["MAP"].max() == pytest.approx(1.0)
    assert tr.cv_value(tr.chosen["MAP"], "RankLoss") == tr.points["RankLoss"].min()
    with pytest.raises(KeyError):
        tr.cv_value({"C": 123.0}, "MAP")


def test_boundary_widening(sandbox, monkeypatch):
    monkeypatch.setattr(StandIn, "C_RANK", 1000.0)  # one decade beyond the grid 1e-2 .. 1e2
    for search in ("full", "staged"):
        tr = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=proto(), search=search, targets=["MAP"], progress=False)
        assert tr.chosen["MAP"]["C"] == pytest.approx(1000.0), search
        assert tr.points["C"].max() == pytest.approx(1e4)  # widened twice, one value each time
    tr = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=proto(max_widen=0), search="full", targets=["MAP"],
                 progress=False)
    assert tr.chosen["MAP"]["C"] == pytest.approx(100.0)  # not allowed to widen: stuck on the boundary


def test_staged_search_matches_full_grid_and_evaluates_fewer_points(sandbox):
    p = proto(grids={**proto().grids, "C": tuple(float(c) for c in np.logspace(-3, 3, 7))})
    full = ex.tune(ex.SYNTHETIC, "StandIn-kC", proto=p, search="full", progress=False)
    staged = ex.tune(ex.SYNTHETIC, "StandIn-kC", proto=p, search="staged", progress=False)
    assert full.chosen == staged.chosen
    assert staged.chosen["MAP"] == {"k": StandIn.K_BEST, "C": StandIn.C_RANK}
    assert len(staged.points) < len(full.points) == 3 * 7


def test_staged_walk_stops_after_patience(sandbox):
    """Along C the staged search walks out from the middle and stops ``patience`` values past the best."""
    p = proto(grids={**proto().grids, "C": tuple(float(c) for c in np.logspace(-6, 6, 13))}, patience=2)
    tr = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=p, search="staged", targets=["MAP"], progress=False)
    assert tr.chosen["MAP"]["C"] == pytest.approx(10.0)
    assert sorted(np.log10(tr.points["C"]).round().astype(int)) == [-1, 0, 1, 2, 3]


# ---- caching and determinism ---------------------------------------------------------------------------------------


def test_second_call_hits_the_cache(sandbox):
    p = proto()
    first = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=p, search="full", progress=False)
    fits = FITS["n"]
    assert fits == 5 * p.n_folds
    second = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=p, search="full", progress=False)
    assert FITS["n"] == fits  # nothing refitted
    pd.testing.assert_frame_equal(first.points, second.points)
    out1 = ex.final_outputs(ex.SYNTHETIC, "StandIn-C", {"C": 10.0}, proto=p)
    out2 = ex.final_outputs(ex.SYNTHETIC, "StandIn-C", {"C": 10.0}, proto=p, threshold="regression")
    assert FITS["n"] == fits + 2  # one fit per threshold rule (a stand-in has no fit_path), both in one entry
    np.testing.assert_array_equal(out1["scores"], out2["scores"])
    assert (sandbox / "experiments").is_dir()


def test_a_baselines_final_fit_serves_both_threshold_rules(cache, monkeypatch):
    """One fit of the model for the default and the regression threshold (fit_path along "threshold"), each
    output what a fit with that rule alone gives."""
    from labelrank import baselines

    p = proto()
    calls = {"n": 0}
    original = baselines.MLkNN._fit

    def counted(self, X, Y):
        calls["n"] += 1
        return original(self, X, Y)

    monkeypatch.setattr(baselines.MLkNN, "_fit", counted)
    outs = {rule: ex.final_outputs(ex.SYNTHETIC, "ML-kNN", {"k": 5}, proto=p, threshold=rule)
            for rule in ("default", "regression")}
    assert calls["n"] == 1
    X_train, Y_train, X_test, _ = ex.load_data(ex.SYNTHETIC, p)
    for rule, out in outs.items():
        single = ex.make_estimator("ML-kNN", {"k": 5}, rule, p).fit(X_train, Y_train)
        np.testing.assert_array_equal(out["scores"], single.decision_function(X_test))
        np.testing.assert_array_equal(out["pred"], single.predict(X_test))
    assert not np.array_equal(outs["default"]["pred"], outs["regression"]["pred"])
    with pytest.raises(ValueError, match="threshold must be 'default' or 'regression', got 'scut'"):
        ex.final_outputs(ex.SYNTHETIC, "ML-kNN", {"k": 5}, proto=p, threshold="scut")


def test_cache_key_includes_the_data_settings(sandbox):
    ex.tune(ex.SYNTHETIC, "StandIn-C", proto=proto(), search="full", progress=False)
    fits = FITS["n"]
    ex.tune(ex.SYNTHETIC, "StandIn-C", proto=proto(seed=1), search="full", progress=False)
    assert FITS["n"] == 2 * fits  # another split: recomputed


def test_real_estimators_deterministic_and_parallel_equals_serial(cache, monkeypatch, tmp_path_factory):
    p = proto()
    serial = ex.tune(ex.SYNTHETIC, "ML-kNN", proto=p, progress=False).points
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path_factory.mktemp("parallel")))
    monkeypatch.setenv("LABELRANK_N_JOBS", "2")
    parallel = ex.tune(ex.SYNTHETIC, "ML-kNN", proto=p, progress=False).points
    cols = list(METRICS)
    pd.testing.assert_frame_equal(serial[["k"] + cols], parallel[["k"] + cols])


def test_meta_features_are_float32_and_sliceable(cache):
    p = proto()
    Z_fit, Z_eval, kept = ex.meta_features(ex.SYNTHETIC, 0, p)
    assert Z_fit.dtype == np.float32 and Z_fit.shape[2] == 3 * p.k_max + 2
    assert Z_fit.shape[0] + Z_eval.shape[0] == 150 and kept.all()
    from labelrank.features import MetaLevelFeatures, NeighborDistances

    X_fit, Y_fit, X_val, _ = engine_data.fold_data(ex.SYNTHETIC, p, 0)
    direct = MetaLevelFeatures(k=10).fit(X_fit, Y_fit).transform(X_val)
    np.testing.assert_allclose(NeighborDistances(np.asarray(Z_eval), p.k_max).features(10), direct, rtol=1e-5,
                               atol=1e-5)


# ---- the results table -----------------------------------------------------------------------------------------------


def test_results_table_on_synthetic(cache):
    p = proto(grids={"k": (3, 5), "C": (1.0,), "lr": (0.01,), "lgbm_lr": (0.1,)}, max_widen=0)
    table = ex.results(p, progress=False)
    assert {"dataset", "method", "features", "threshold", "metric", "value", "params", "cv_value", "p_value",
            "mark", "tuned_on"} <= set(table.columns)
    assert set(table["method"]) >= {"MLC-ListNet", "Binary-SVM", "RankSVM", "IBLR", "ML-kNN", "MLC-SVM-MAP",
                                    "MLC-RankSVM-IR", "MLC-LambdaRank", "MLC-LightGBM"}
    assert not table.duplicated(["dataset", "method", "features", "threshold", "metric"]).any()
    ln = table[table["method"] == "MLC-ListNet"]
    assert len(ln) == 8 and ln["p_value"].isna().all() and (ln["mark"] == "").all()
    others = table[table["method"] != "MLC-ListNet"]
    assert others["p_value"].between(0, 1).all() and set(others["mark"]) <= {"", "*", "**"}
    reg = table[(table["threshold"] == "regression") & (table["method"] == "Binary-SVM")]
    assert set(reg["metric"]) == {"Micro-F1", "Macro-F1", "HLoss"}
    fig2 = table[table["features"] == "meta"]
    assert set(fig2["method"]) >= {"Binary-SVM", "RankSVM", "IBLR", "ML-kNN"}
    for _, row in table.iterrows():
        params = json.loads(row["params"])
        assert row["tuned_on"] == ("MAP" if METRICS[row["metric"]].kind == "rank" else "Micro-F1")
        assert isinstance(params, dict)
    records = ex.run_info("quick")["runs"]
    assert records and records[-1]["wall_seconds"] > 0 and records[-1]["peak_rss_mb"] > 0


# ---- ranks and the paper beside ours -------------------------------------------------------------------------------


def test_doctests():
    import doctest

    assert doctest.testmod(ex).failed == 0


def test_convergence_warnings_are_counted_not_printed(recwarn):
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    with fits.ConvergenceCounter() as caught:
        warnings.warn("stopped at max_iter", ConvergenceWarning)
        warnings.warn("stopped again", ConvergenceWarning)
    assert caught.count == 2 and len(recwarn) == 0
    # any other warning is issued again
    with fits.ConvergenceCounter() as caught:
        warnings.warn("stopped", ConvergenceWarning)
        warnings.warn("something else", RuntimeWarning)
    assert caught.count == 1 and [w.category for w in recwarn] == [RuntimeWarning]


# ---- the run record under concurrent writers and damage -------------------------------------------------------------


def _record_many(cache_folder: str, n: int) -> None:
    """A separate process appending ``n`` runs to the quick profile's run record."""
    import os

    os.environ["LABELRANK_CACHE"] = cache_folder
    from labelrank.protocol import runs

    mem = type("Mem", (), {"peak": 2**20, "peak_rusage": 2**20})()
    for _ in range(n):
        runs._record_run(proto(), ("synthetic",), "test", 0.0, 1.0, mem, 0.0, 1)


def test_concurrent_run_records_lose_nothing(cache):
    """4 writers at once once left the record unparsable in 4 of 5 trials; now every record is kept."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_record_many, args=(str(cache), 15)) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    records = json.loads(runs._run_info_path("quick").read_text())["runs"]
    assert len(records) == 60
    assert not list(runs._run_info_path("quick").parent.glob("*.part"))  # no temporary file left behind


def test_a_damaged_run_record_is_set_aside_with_a_warning(cache):
    path = runs._run_info_path("quick")
    path.parent.mkdir(parents=True)
    path.write_text('{"profile": "quick", "runs": [{"wall')
    with pytest.warns(RuntimeWarning, match="could not be read .*JSONDecodeError.*set aside as run_info_quick"):
        assert ex.run_info("quick") == {"profile": "quick", "runs": []}
    assert not path.exists() and len(list(path.parent.glob("run_info_quick.json.damaged-*"))) == 1
    _record_many(str(cache), 1)
    assert len(ex.run_info("quick")["runs"]) == 1
    path.write_text("[1, 2]")
    with pytest.warns(RuntimeWarning, match="it holds list"):
        assert ex.run_info("quick")["runs"] == []


# ---- the command line and the worker processes ------------------------------------------------------------------------


def _worker_task(seconds: float) -> int:
    import os
    import time

    from labelrank.protocol import start_task

    start_task(1)
    time.sleep(seconds)
    return os.getpid()


def _children(pid: int) -> list[int]:
    from pathlib import Path

    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not __import__("os").path.isdir("/proc"), reason="reads /proc")
def test_workers_exit_soon_after_their_parent_is_killed(tmp_path):
    """After a SIGKILL of a run's parent process, two 277 MB workers once lingered for minutes."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import joblib, sys, time\n"
        "sys.path[:0] = %r\n"  # this folder, and the helpers' (tests/)
        "from test_experiments import _worker_task\n"
        "print(joblib.Parallel(n_jobs=2)(joblib.delayed(_worker_task)(s) for s in (0.1, 0.1)), flush=True)\n"
        "joblib.Parallel(n_jobs=2)(joblib.delayed(_worker_task)(60) for _ in range(2))\n"
        % [str(Path(__file__).parent), str(Path(__file__).parents[1])])
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        workers = set(eval(proc.stdout.readline()))  # the two worker pids, each now watching its parent
        assert len(workers) == 2 and workers <= set(_children(proc.pid))
        time.sleep(1.0)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        def running(pid):  # a zombie (exited, not yet reaped by whoever adopted it) is not running
            try:
                return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
            except OSError:
                return False

        deadline = time.time() + 10
        while time.time() < deadline and any(running(w) for w in workers):
            time.sleep(0.2)
        alive = [w for w in workers if running(w)]
        assert not alive, f"workers {alive} outlived their parent by 10 s"
    finally:
        if proc.poll() is None:
            proc.kill()


_MARKED: list[bool] = []


def _task_marking_its_finalisation(folder: str, i: int) -> int:
    """A task whose worker, if Python finalises it, leaves a file ``finalised-<pid>`` in ``folder``."""
    import atexit
    import os

    if not _MARKED:
        _MARKED.append(True)
        atexit.register(lambda: (Path(folder) / f"finalised-{os.getpid()}").touch())
    return os.getpid()


def test_a_run_stops_its_workers_first_thing_at_exit(tmp_path):
    """The pool is stopped by the run's exit handler, before loky's gentle shutdown finalises each worker (3 s of a
    5.8 s exit on a busy 2-core machine), and nothing is left for joblib's resource tracker to report."""
    import subprocess
    import sys

    script = tmp_path / "run.py"
    script.write_text(
        "import os, sys\n"
        "sys.path[:0] = %r\n"
        "os.environ['LABELRANK_N_JOBS'] = '2'\n"
        "from labelrank.cache import ResultCache\n"
        "from labelrank.protocol import tasks\n"
        "from test_experiments import _task_marking_its_finalisation as task\n"
        "cache = ResultCache(task, 'marking', root=%r)\n"
        "print(os.getpid(), sorted(set(tasks.run_calls([(cache, (%r, i)) for i in range(6)], 'tasks', False))))\n"
        % ([str(Path(__file__).parent), str(Path(__file__).parents[1])], str(tmp_path / "cache"), str(tmp_path)))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    pid, workers = done.stdout.strip().splitlines()[-1].split(" ", 1)
    workers = json.loads(workers)
    assert workers and int(pid) not in workers, (pid, workers)  # the tasks ran in the pool's workers
    assert not list(tmp_path.glob("finalised-*")), "loky's gentle shutdown finalised the workers"
    assert not _left_behind(done.stderr), done.stderr


def _left_behind(stderr: str) -> list[str]:
    """The resources joblib's resource tracker reports as leaked at shutdown and could still remove: each one it
    reports is followed by its unlink's error where the resource was already gone. Under load the pool's
    ``sem_unlink`` can land while its message to the tracker does not (seen once in a fresh-clone CI rehearsal:
    1 leaked semlock, then ``FileNotFoundError`` for it); such a lock was removed, nothing was left."""
    import ast
    import re

    reports = re.findall(r"leaked \w+ objects to clean up at shutdown(?:: (\{.*?\}))?", stderr)
    reported = [name for found in reports for name in (ast.literal_eval(found) if found else ["(unnamed)"])]
    return [name for name in reported if f"resource_tracker: {name}: FileNotFoundError" not in stderr]


def test_a_lock_already_removed_is_not_left_behind():
    """The check above: a reported lock whose unlink found nothing is gone; one the tracker removed was left."""
    report = ("UserWarning: resource_tracker: There appear to be 1 leaked semlock objects to clean up at shutdown: "
              "{'/loky-1-a': 1}\n")
    gone = "UserWarning: resource_tracker: /loky-1-a: FileNotFoundError(2, 'No such file or directory')\n"
    assert _left_behind(report) == ["/loky-1-a"]
    assert _left_behind(report + gone) == []
    assert _left_behind("") == []
    assert _left_behind("There appear to be 2 leaked semlock objects to clean up at shutdown\n") == ["(unnamed)"]


# ---- warm-started paths along a method's warm_axis, batched ones along its batch_axis (the full search) ---------

_METRIC_COLUMNS = list(METRICS)


@pytest.mark.parametrize("method", ["MLC-SVM-MAP", "MLC-RankSVM-IR"])
def test_a_warm_path_starts_with_the_cold_fit(cache, method):
    """The first value of a path is fitted cold: exactly the point task's result; the later ones are warm."""
    from labelrank.protocol.fits import cv_path_task, cv_point_task, params_key

    p = proto()
    key, values = p.data_key(ex.SYNTHETIC), (0.01, 1.0, 100.0)
    assert METHODS[method].path_axis == "C"
    path = cv_path_task(ex.SYNTHETIC, key, method, params_key({"k": 10}), "C", values, 0, "v", p, 1)
    assert len(path) == len(values)
    for value, warm in zip(values, path):
        cold = cv_point_task(ex.SYNTHETIC, key, method, "original", params_key({"k": 10, "C": value}),
                                  0, "v", p, 1)
        for metric in ("MAP", "RankLoss", "Micro-F1"):
            if value == values[0]:
                assert warm[metric] == cold[metric]
            else:  # C * tol-optimal both: the same model up to the solver's tolerance
                assert warm[metric] == pytest.approx(cold[metric], abs=0.02)


@pytest.mark.parametrize("method", ["MLC-SVM-MAP", "MLC-RankSVM-IR"])
def test_the_full_search_walks_the_warm_axis_and_chooses_as_cold_fits(cache, method):
    """Warm and cold fits are the same optimum up to the solver's tolerance (SVM-MAP: C * tol): the same MAP
    choice; where two configurations are closer than that noise (Micro-F1 on 40 synthetic instances), either may
    win, and each run's choice is then within the noise of the other's optimum."""
    p = proto()
    warm = ex.tune(ex.SYNTHETIC, method, proto=p, search="full", progress=False)
    no_warm = {**METHODS, method: dataclasses.replace(METHODS[method], warm_axis=None)}
    cold = ex.tune(ex.SYNTHETIC, method, proto=proto(methods=no_warm), search="full", progress=False)
    assert warm.chosen["MAP"] == cold.chosen["MAP"]
    for target in ("MAP", "Micro-F1"):
        for run, other in ((warm, cold), (cold, warm)):
            best_in_other = other.points[target].max()
            assert other.cv_value(run.chosen[target], target) >= best_in_other - 0.01
    both = warm.points.merge(cold.points, on=["k", "C"], suffixes=("_warm", "_cold"))
    assert len(both) == len(warm.points) == len(p.grids["k"]) * len(p.grids["C"])
    assert np.allclose(both["MAP_warm"], both["MAP_cold"], atol=0.01)
    assert any((cache / "experiments" / "cv_path").rglob("*"))  # the paths are cached tasks of their own


@pytest.mark.parametrize("features", ["original", "meta"])
def test_a_baseline_warm_path_starts_with_the_cold_fit(cache, features):
    """Binary-SVM's C axis as one task (on the original features or Fig. 2's meta-level ones): the first value
    exactly the point task's result, the later ones the same optimum within the solver's tolerance."""
    from labelrank.protocol.fits import cv_path_task, cv_point_task, params_key

    p = proto()
    key, values = p.data_key(ex.SYNTHETIC), (0.01, 1.0, 100.0)
    assert METHODS["Binary-SVM"].path_axis == "C"
    path = cv_path_task(ex.SYNTHETIC, key, "Binary-SVM", (), "C", values, 0, "v", p, 1, features)
    for value, warm in zip(values, path):
        cold = cv_point_task(ex.SYNTHETIC, key, "Binary-SVM", features, params_key({"C": value}), 0, "v", p,
                                  1)
        for metric in _METRIC_COLUMNS:
            if value == values[0]:
                assert warm[metric] == cold[metric] or (np.isnan(warm[metric]) and np.isnan(cold[metric]))
            else:
                assert warm[metric] == pytest.approx(cold[metric], abs=0.02, nan_ok=True)
    with pytest.raises(ValueError, match="features must be 'original' or 'meta' for the baseline Binary-SVM"):
        cv_path_task(ex.SYNTHETIC, key, "Binary-SVM", (), "C", values, 0, "v", p, 1)


def test_the_full_search_walks_a_baselines_warm_axis_and_chooses_as_cold_fits(cache):
    """Binary-SVM's full search with its C axis as warm path tasks (one per fold) chooses as the cold point tasks."""
    p = proto()
    warm = ex.tune(ex.SYNTHETIC, "Binary-SVM", proto=p, search="full", progress=False)
    no_warm = {**METHODS, "Binary-SVM": dataclasses.replace(METHODS["Binary-SVM"], warm_axis=None)}
    cold = ex.tune(ex.SYNTHETIC, "Binary-SVM", proto=proto(methods=no_warm), search="full", progress=False)
    assert warm.chosen == cold.chosen
    both = warm.points.merge(cold.points, on=["C"], suffixes=("_warm", "_cold"))
    assert len(both) == len(p.grids["C"])
    assert np.allclose(both["MAP_warm"], both["MAP_cold"], atol=0.01)
    assert len(list((cache / "experiments" / "cv_path").rglob("output.lrc"))) == p.n_folds


@pytest.mark.parametrize("method", ["MLC-ListNet", "MLC-LambdaRank", "MLC-LightGBM"])
def test_a_batch_path_equals_one_fit_per_learning_rate(cache, method):
    """Along the batch axis one fit trains every learning rate: each result is the point task's, number for number."""
    from labelrank.protocol.fits import cv_path_task, cv_point_task, params_key

    p = proto()
    key, values = p.data_key(ex.SYNTHETIC), (1e-3, 3e-2, 1e-1)
    assert METHODS[method].path_axis == "learning_rate"
    path = cv_path_task(ex.SYNTHETIC, key, method, params_key({"k": 10}), "learning_rate", values, 1, "v", p,
                             1)
    for value, batched in zip(values, path):
        point = cv_point_task(ex.SYNTHETIC, key, method, "original",
                                   params_key({"k": 10, "learning_rate": value}), 1, "v", p, 1)
        assert {m: batched[m] for m in _METRIC_COLUMNS} == {m: point[m] for m in _METRIC_COLUMNS}
    with pytest.raises(ValueError, match="no path along 'C'"):
        cv_path_task(ex.SYNTHETIC, key, method, params_key({"k": 10}), "C", (1.0,), 1, "v", p, 1)


def test_the_full_search_batches_learning_rates_and_equals_point_tasks(cache):
    grids = {**proto().grids, "k": (10, 20), "lr": (0.003, 0.03)}
    p = proto(grids=grids)
    batched = ex.tune(ex.SYNTHETIC, "MLC-ListNet", proto=p, search="full", progress=False)
    plain = {**METHODS, "MLC-ListNet": dataclasses.replace(METHODS["MLC-ListNet"], batch_axis=None)}
    points = ex.tune(ex.SYNTHETIC, "MLC-ListNet", proto=proto(methods=plain, grids=grids), search="full",
                     progress=False)
    assert batched.chosen == points.chosen
    cols = ["k", "learning_rate", *_METRIC_COLUMNS]
    assert len(batched.points) == len(p.grids["k"]) * len(p.grids["lr"])
    pd.testing.assert_frame_equal(batched.points[cols].sort_values(cols[:2]).reset_index(drop=True),
                                  points.points[cols].sort_values(cols[:2]).reset_index(drop=True))


def test_fixed_settings_reach_the_estimator_and_the_cache_key():
    from labelrank.protocol.keys import code_version

    plain = METHODS["ML-kNN"]
    weka = dataclasses.replace(plain, fixed=(("distance", "weka"),))
    p = proto(methods={**METHODS, "ML-kNN": weka})
    assert ex.make_estimator("ML-kNN", {"k": 5}, "default", p).get_params()["distance"] == "weka"
    assert ex.make_estimator("ML-kNN", {"k": 5}, "default", proto()).get_params()["distance"] == "euclidean"
    assert code_version(weka) != code_version(plain) and code_version(weka).startswith(code_version(plain))


def test_a_method_has_one_path_axis_at_most():
    with pytest.raises(ValueError, match="warm_axis or a batch_axis, not both"):
        dataclasses.replace(METHODS["MLC-ListNet"], warm_axis="C")
    with pytest.raises(ValueError, match="batch_axis must be None or 'learning_rate'"):
        dataclasses.replace(METHODS["MLC-ListNet"], batch_axis="k")


def test_run_full_grids_runs_every_methods_tasks_in_one_pool_for_tune_to_read(cache, tmp_path_factory, monkeypatch):
    """run_full_grids hands the full searches' tasks of several methods to one pool, the longest first (a one-axis
    method's paths, the other paths, single points); tune then finds every task it needs in the cache and returns
    what it returns on its own (another, empty cache)."""
    import labelrank.protocol.search as search

    p = proto(grids={**proto().grids, "k": (10, 20), "C": (0.1, 10.0)}, max_widen=0)  # no widened C grids
    jobs = [(ex.SYNTHETIC, "ML-kNN", "original"), (ex.SYNTHETIC, "Binary-SVM", "original"),
            (ex.SYNTHETIC, "MLC-RankSVM-IR", "meta")]
    pools, run_calls = [], search.run_calls

    def spy(calls, desc, progress):
        pools.append(([(c.name, task[2]) for c, task in calls], all(c.check_call_in_cache(*task) for c, task in calls)))
        return run_calls(calls, desc, progress)

    monkeypatch.setattr(search, "run_calls", spy)
    ex.run_full_grids(jobs, p, progress=False)
    (order, _), = pools
    n, n_k = p.n_folds, len(p.grids["k"])
    assert order == ([("cv_path", "Binary-SVM")] * n + [("cv_path", "MLC-RankSVM-IR")] * n * n_k
                     + [("cv_point", "ML-kNN")] * n * n_k)
    pools.clear()
    after = [ex.tune(dataset, method, features, p, search="full", progress=False) for dataset, method, features in jobs]
    assert len(pools) == len(jobs) and all(cached for _, cached in pools)
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path_factory.mktemp("alone")))
    alone = [ex.tune(dataset, method, features, p, search="full", progress=False) for dataset, method, features in jobs]
    for a, b in zip(after, alone):
        assert a.chosen == b.chosen
        pd.testing.assert_frame_equal(a.points.drop(columns=["seconds", "cpu_seconds"]),
                                      b.points.drop(columns=["seconds", "cpu_seconds"]))


def test_run_full_grids_hands_out_independent_calls_first_in_its_pool(cache, monkeypatch):
    """``also``: a study's own cached calls go first, in their order, into the one pool of the grids' tasks, and are
    in the cache afterwards."""
    import labelrank.protocol.search as search
    from labelrank.cache import ResultCache

    p = proto(grids={**proto().grids, "k": (10, 20), "C": (0.1, 10.0)}, max_widen=0)
    extra = ResultCache(divmod, "divmod", root=cache)
    pools, run_calls = [], search.run_calls

    def spy(calls, desc, progress):
        pools.append([c.name for c, _ in calls])
        return run_calls(calls, desc, progress)

    monkeypatch.setattr(search, "run_calls", spy)
    ex.run_full_grids([(ex.SYNTHETIC, "Binary-SVM", "original")], p, progress=False,
                      also=[(extra, (9, 4)), (extra, (7, 2))])
    (names,) = pools
    assert names == ["divmod", "divmod"] + ["cv_path"] * p.n_folds
    assert extra.check_call_in_cache(9, 4) and extra.check_call_in_cache(7, 2)
