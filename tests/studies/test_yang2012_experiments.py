"""Yang & Gopal's protocol (``labelrank.studies.yang2012.experiments``) on the engine's tiny synthetic problem: its
profiles, the chapters' extra computations, the command line, the exact protocol and the search comparison."""

from __future__ import annotations

import dataclasses
import importlib
import json

import numpy as np
import pandas as pd
import pytest
from labelrank.metrics import METRICS
from labelrank.protocol import data as engine_data
from labelrank.studies.yang2012 import experiments as ex
from protocol_standins import (
    METHODS,
    proto,
)


def test_profiles():
    full, quick = ex.protocol("full"), ex.protocol("quick")
    assert full.datasets == ("emotions", "scene", "yeast", "reuters21578")
    assert full.n_folds == 5 and full.grids["k"] == tuple(range(10, 101, 10))
    np.testing.assert_allclose(full.grids["C"], np.logspace(-6, 6, 20))
    assert quick.datasets == ("emotions", "yeast")
    assert set(full.targets) == {"MAP", "Micro-F1"}
    assert {m: full.selection[m] for m in ("NDCG", "HLoss")} == {"NDCG": "MAP", "HLoss": "Micro-F1"}
    with pytest.raises(ValueError, match="profile"):
        ex.protocol("medium")
    # every method's full grid on every data set, our extra column's too; quick: staged
    assert not full.staged_methods
    assert {full.search_for(d) for d in full.datasets} == {"full"}
    assert {quick.search_for(d, m) for d in quick.datasets for m in quick.methods} == {"staged"}
    assert {ex.exact("full").search_for(d, m) for d in full.datasets for m in full.methods} == {"full"}


def test_staged_methods_are_searched_staged_and_left_out_of_the_full_grids(sandbox, monkeypatch):
    """A data set's staged methods: tune's default is the staged search for them only, results() leaves their grids
    out of its pool of full grids, and search_comparison() out of its default methods; bad settings are refused."""
    p = proto(search="full", staged_methods={ex.SYNTHETIC: ("StandIn-C",)})
    assert (p.search_for(ex.SYNTHETIC), p.search_for(ex.SYNTHETIC, "StandIn-C")) == ("full", "staged")
    staged = ex.tune(ex.SYNTHETIC, "StandIn-C", proto=p, progress=False)
    full = ex.tune(ex.SYNTHETIC, "StandIn-kC", proto=p, targets=["MAP"], progress=False)
    assert (staged.search, full.search) == ("staged", "full")
    assert len(full.points) == len(p.grids["k"]) * len(p.grids["C"])

    pooled = []

    def stop(jobs, proto=None, progress=True, also=()):
        pooled.extend(jobs)
        raise RuntimeError("stopped before the pool")

    # the module, which the package's function of the same name shadows as an attribute
    monkeypatch.setattr(importlib.import_module("labelrank.protocol.results"), "run_full_grids", stop)
    methods = {m: s for m, s in METHODS.items() if m.startswith("StandIn")}
    with pytest.raises(RuntimeError, match="stopped"):
        ex.results(dataclasses.replace(p, methods=methods, meta_methods={}, reference=None), progress=False)
    assert pooled == [(ex.SYNTHETIC, "StandIn-kC", "original")]
    tuned = []
    monkeypatch.setattr(ex, "staged_and_full", lambda dataset, method, **kw: tuned.append(method) or (staged, staged))
    ex.search_comparison(ex.SYNTHETIC, proto=dataclasses.replace(p, methods=methods), progress=False)
    assert tuned == ["StandIn-kC"]  # StandIn-C left out
    with pytest.raises(TypeError, match="staged_methods.*'StandIn-C'"):
        proto(staged_methods={ex.SYNTHETIC: "StandIn-C"})
    with pytest.raises(ValueError, match="staged_methods.*'Nope'"):
        proto(staged_methods={ex.SYNTHETIC: ("Nope",)})


def test_chapter_extras_on_synthetic(cache):
    """The splitting, LLSF-inputs and test-curve comparisons the chapters show, on the synthetic problem."""
    p = proto(grids={"k": (3, 5), "C": (1.0,), "lr": (0.01,), "lgbm_lr": (0.1,)}, max_widen=0)
    params = {"k": 5, "learning_rate": 0.01}
    inputs = ex.llsf_inputs_comparison(ex.SYNTHETIC, "MLC-ListNet", params, proto=p, progress=False)
    assert inputs.index.tolist() == ["ranked, rescaled", "ranked, raw", "labels, rescaled", "labels, raw"]
    ranking = ["MAP", "RankLoss", "NDCG", "One-Error", "Coverage"]
    assert (inputs[ranking].nunique() == 1).all()  # the threshold does not touch the ranking
    # the library's own threshold (ranked, rescaled) is the non-splitting row of the splitting comparison
    split = ex.splitting_comparison(ex.SYNTHETIC, "MLC-ListNet", params, proto=p, progress=False)
    np.testing.assert_allclose(split.loc["non-splitting"], inputs.loc["ranked, rescaled"])
    with pytest.raises(ValueError, match="meta-level ranker"):
        ex.llsf_inputs_comparison(ex.SYNTHETIC, "ML-kNN", {"k": 3}, proto=p)
    # the ranker of the whole training set, with its features: its scores are the cached test outputs
    est, Z_train, Z_test = ex.fit_ranker(ex.SYNTHETIC, "MLC-ListNet", params, proto=p)
    assert Z_train.shape[:2] == (150, 4) and Z_test.shape[:2] == (75, 4) and Z_train.shape[2] == 3 * 5 + 2
    out = ex.final_outputs(ex.SYNTHETIC, "MLC-ListNet", params, proto=p)
    np.testing.assert_allclose(est.decision_function_features(Z_test), out["scores"])
    with pytest.raises(ValueError, match="meta-level ranker"):
        ex.fit_ranker(ex.SYNTHETIC, "ML-kNN", {"k": 3}, proto=p)
    with pytest.raises(ValueError, match="fold"):
        ex.fit_ranker(ex.SYNTHETIC, "MLC-ListNet", params, fold=7, proto=p)
    curve = ex.held_out_curve(ex.SYNTHETIC, "ML-kNN", proto=p, progress=False)
    assert curve.index.tolist() == [3, 5] and list(curve.columns) == list(METRICS)
    out = ex.final_outputs(ex.SYNTHETIC, "ML-kNN", {"k": 5}, proto=p)
    _, _, _, Y_test = ex.load_data(ex.SYNTHETIC, p)
    assert curve.loc[5, "MAP"] == pytest.approx(METRICS["MAP"](Y_test, out["scores"]))
    with pytest.raises(ValueError, match="single tuned parameter"):
        ex.held_out_curve(ex.SYNTHETIC, "MLC-ListNet", proto=p)


def test_the_approximate_search_table_is_computed_once_and_then_read(cache, monkeypatch):
    """The chapter "Meta-level features"' comparison of neighbour searches, on emotions with the exact search alone
    (NN-descent's just-in-time compilation takes minutes): its rows, and the same rows, timings included, from the
    cache on the second call."""
    from labelrank.studies.yang2012 import timing

    assert timing.approximate_search_plan("quick") == () and "reuters21578" in timing.approximate_search_plan("full")
    monkeypatch.setattr(timing, "APPROXIMATE_SEARCHES", (("exact", None),))
    first = timing.approximate_search_table(["emotions"], k=10, progress=False)
    assert first["data set"].tolist() == ["emotions"] and first["search"].tolist() == ["exact"]
    assert list(first.columns[-2:]) == ["MAP (mean L2 of 10)", "MAP (mean cos of 10)"]
    assert 0.5 < first.loc[0, "MAP (mean L2 of 10)"] < 1 and (first[["fit CPU s", "wall s"]] > 0).all(axis=None)
    pd.testing.assert_frame_equal(timing.approximate_search_table(["emotions"], k=10, progress=False), first)
    both = timing.approximate_search_table(["yeast", "emotions"], k=10, progress=False)  # one task, in this order
    assert both["data set"].tolist() == ["yeast", "emotions"] and both.loc[1, "MAP (mean L2 of 10)"] == pytest.approx(
        first.loc[0, "MAP (mean L2 of 10)"])
    assert timing.approximate_search_table([], progress=False).empty
    with pytest.raises(ValueError, match="citeseer"):
        timing.approximate_search_table(["citeseer"])
    with pytest.raises(ValueError, match="k"):
        timing.approximate_search_table(["emotions"], k=0)
    with pytest.raises(ValueError, match="slow"):
        timing.approximate_search_plan("slow")


def test_rank_helpers():
    t = pd.DataFrame({"metric": ["MAP"] * 3 + ["Coverage"] * 3, "dataset": ["d"] * 6,
                      "method": list("abcabc"), "value": [0.5, 0.7, 0.7, 2.0, 1.0, 3.0], "rank": [3, 1, 1, 2, 1, 2]})
    assert ex.rank_methods(t).tolist() == [3, 1, 1, 2, 1, 3]
    assert ex.rank_methods(t, ties="max").tolist() == [3, 2, 2, 2, 1, 3]
    bad = ex.rank_conflicts(t)
    assert bad.index.tolist() == [5] and (bad["rank_min"].item(), bad["rank_max"].item()) == (3, 3)
    assert ex.rank_totals(t).to_dict() == {"a": 5, "b": 2, "c": 3}
    ours = t.assign(value=t["value"] + 0.1).drop(columns="rank")
    both = ex.beside_paper(ours, t)
    np.testing.assert_allclose(both["delta"], 0.1)
    assert both["our_rank"].tolist() == [3, 1, 1, 2, 1, 3]
    with pytest.raises(ValueError, match="metrics"):
        ex.rank_methods(t.assign(metric="F2"))


def test_command_line_bad_input_is_one_line_and_exit_code_2(tmp_path, monkeypatch, capsys):
    from labelrank import datasets

    assert ex.main(["--profile", "quick", "--datasets", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: --datasets: 'bogus' not in the quick profile" in err
    mirror = tmp_path / "mirror"
    for f in datasets.REGISTRY["emotions"].files:  # a damaged mirror: every file has the wrong bytes
        (mirror / datasets.REGISTRY["emotions"].folder / f.path).parent.mkdir(parents=True, exist_ok=True)
        (mirror / datasets.REGISTRY["emotions"].folder / f.path).write_text("damaged\n")
    monkeypatch.setenv("LABELRANK_DATA", str(mirror))
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "cache"))
    engine_data._load_data.cache_clear()
    assert ex.main(["--profile", "quick", "--datasets", "emotions"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err and "sha256" in err.lower() and "Traceback" not in err
    engine_data._load_data.cache_clear()
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "file" / "cache"))
    assert ex.main(["--profile", "quick"]) == 2
    assert "the experiment cache" in capsys.readouterr().err


def test_command_line_exact_runs_the_papers_protocol(tmp_path, monkeypatch, capsys):
    """--exact hands results() the protocol without the profile's concessions (stopped there: no fit runs)."""
    def stop(proto, datasets, also=()):
        searches = {d: proto.search_for(d) for d in proto.datasets}
        raise ValueError(f"search={searches} staged={proto.staged_methods} subsample={proto.tune_subsample} "
                         f"fig2={ex.fig2_datasets(proto)}")

    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(ex, "results", stop)
    assert ex.main(["--profile", "full", "--exact", "--datasets", "emotions"]) == 2
    full = "'emotions': 'full', 'scene': 'full', 'yeast': 'full'"
    assert (f"search={{{full}, 'reuters21578': 'full'}} staged={{}} subsample={{}} "
            "fig2=('emotions', 'scene', 'yeast', 'reuters21578')" in capsys.readouterr().err)
    assert ex.main(["--profile", "full", "--datasets", "emotions"]) == 2
    assert (f"search={{{full}, 'reuters21578': 'full'}} staged={{}} "
            "subsample={'reuters21578': 2000} "
            "fig2=('emotions', 'scene', 'yeast')" in capsys.readouterr().err)


def test_exact_protocol_runs_what_the_profile_leaves_out(cache):
    """exact() end to end: the cross-validation on every training row (150, where the profile takes 60) and Fig. 2
    on a data set the profile leaves out of it; each table's cross-validated MAP is recomputed here by hand."""
    from labelrank.metrics import average_precision

    p = proto(methods={m: ex.METHODS[m] for m in ("MLC-ListNet", "ML-kNN")}, meta_methods={},
              tune_subsample={ex.SYNTHETIC: 60})
    X, Y, _, _ = engine_data.load_data(ex.SYNTHETIC, p)
    for q, n_rows, features in ((p, 60, {"original"}), (ex.exact(p), 150, {"original", "meta"})):
        table = ex.results(q, progress=False)
        assert set(table.loc[table["method"] == "ML-kNN", "features"]) == features
        row = table[(table["method"] == "ML-kNN") & (table["features"] == "original")
                    & (table["threshold"] == "default") & (table["metric"] == "MAP")].iloc[0]
        k = json.loads(row["params"])["k"]
        rows = ex.tuning_rows(X.shape[0], ex.SYNTHETIC, q)
        assert rows.size == n_rows
        by_hand = []
        for fit, val in ex.fold_indices(rows.size, q.n_folds, q.seed):
            model = ex.make_estimator("ML-kNN", {"k": k}, "default").fit(X[rows[fit]], Y[rows[fit]])
            by_hand.append(average_precision(Y[rows[val]], model.decision_function(X[rows[val]])))
        assert row["cv_value"] == pytest.approx(np.mean(by_hand), rel=1e-12)


def test_final_fits_of_every_data_set_run_in_one_pool_the_longest_first(monkeypatch):
    """results() fits every data set's tuned configurations in one pool, ordered by the cross-validation CPU time
    of the configuration scaled from the folds' instances to the training set's, and gives each data set its own
    outputs back."""
    res = importlib.import_module("labelrank.protocol.results")  # the package's function results() shadows it
    p = ex.protocol("quick")
    datasets = p.datasets[:2]
    cpu = {(datasets[0], "ML-kNN"): 1.0, (datasets[0], "IBLR"): 8.0, (datasets[1], "ML-kNN"): 3.0}

    def tuned_result(dataset, method):
        points = pd.DataFrame({"k": [10, 20], "cpu_seconds": [cpu[(dataset, method)], 99.0]})
        return ex.TuneResult(dataset, method, "original", "full", points, {"MAP": {"k": 10}, "Micro-F1": {"k": 10}})

    tuned = {d: {(m, "original"): tuned_result(d, m) for (dd, m) in cpu if dd == d} for d in datasets}
    cells = {d: res._cells(tuned[d], p) for d in datasets}
    pools = []

    def spy(calls, desc, progress):
        pools.append([(task[0], task[2]) for _, task in calls])
        return [{"fit": (task[0], task[2])} for _, task in calls]

    monkeypatch.setattr(res, "run_calls", spy)
    outputs = res._final_fits(tuned, cells, p, progress=False)
    scale = {}
    for d in datasets:
        n = ex.load_data(d, p)[1].shape[0]
        scale[d] = n / (min(n, p.tune_subsample.get(d, n)) * (p.n_folds - 1))
    expected = sorted(cpu, key=lambda dm: -cpu[dm] * scale[dm[0]])
    assert pools == [expected]  # one pool, the longest fit first
    for d in datasets:
        assert {fit[:2]: out["fit"] for fit, out in outputs[d].items()} == {
            (m, "original"): (d, m) for (dd, m) in cpu if dd == d}


def test_the_chapter_extras_calls_are_those_the_comparisons_run(monkeypatch):
    """The experiments command's one pool of the chapter extras holds exactly the calls the splitting, test-value and
    LLSF-inputs comparisons then run with their default arguments (read from the cache, nothing left to fit)."""
    p = ex.protocol("quick")
    chosen = {"MAP": {"k": 20, "learning_rate": 0.01}, "Micro-F1": {"k": 10, "learning_rate": 0.01}}

    class Tuned:
        def __init__(self, dataset, method, *args, **kwargs):
            self.chosen = {t: {**c, **({"C": 1.0} if "RankSVM" in method or "SVM-MAP" in method else {})}
                           for t, c in chosen.items()}

    monkeypatch.setattr(ex, "tune", Tuned)
    names = p.datasets
    planned = {(c.name, c.key(*task)) for c, task in ex._chapter_extra_calls(p, names)}

    class Stop(Exception):
        pass

    ran = set()

    def record(calls, desc, progress):
        ran.update((c.name, c.key(*task)) for c, task in calls)
        raise Stop

    monkeypatch.setattr(ex, "run_calls", record)
    for dataset in names:
        for d, method in ex.CHAPTER_EXTRAS["splitting"]:
            if d == dataset:
                with pytest.raises(Stop):
                    ex.splitting_comparison(dataset, method, proto=p)
        with pytest.raises(Stop):
            ex.held_out_curve(dataset, ex.CHAPTER_EXTRAS["curve"], proto=p)
        for method in ex.CHAPTER_EXTRAS["llsf_inputs"]:
            with pytest.raises(Stop):
                ex.llsf_inputs_comparison(dataset, method, proto=p)
    assert ran and planned == ran


@pytest.mark.parametrize("method", ["MLC-ListNet", "Binary-SVM"])
def test_staged_and_full_walks_the_staged_search_over_the_full_grids_values(cache, tmp_path_factory, monkeypatch,
                                                                           method):
    """staged_and_full's full search is tune's; its staged search fits no point of its own and takes the full
    grid's value at every point it visits: along a batch axis (MLC-ListNet's learning rates: the batch's numbers
    are the point tasks') what the staged search gives on its own (another, empty cache), along a warm axis
    (Binary-SVM's C) the warm-started path's values, where the staged search on its own fits its points cold."""
    p = proto(grids={**proto().grids, "k": (10, 20, 30), "lr": (0.003, 0.01, 0.03)})
    staged, full = ex.staged_and_full(ex.SYNTHETIC, method, proto=p, progress=False)
    points = len(list((cache / "experiments" / "cv_point").rglob("output.lrc")))
    other = tmp_path_factory.mktemp("alone")
    monkeypatch.setenv("LABELRANK_CACHE", str(other))
    alone = {search: ex.tune(ex.SYNTHETIC, method, proto=p, search=search, progress=False)
             for search in ("staged", "full")}
    assert (full.search, full.chosen) == ("full", alone["full"].chosen)
    timing = ["seconds", "cpu_seconds"]
    pd.testing.assert_frame_equal(full.points.drop(columns=timing), alone["full"].points.drop(columns=timing))
    assert points == 0 and 0 < len(staged.points) < len(full.points)
    axes = [name for name, _ in ex.METHODS[method].axes]
    taken = staged.points.drop(columns=timing).merge(full.points.drop(columns=timing), on=axes, how="left",
                                                    suffixes=("", "_full"))
    for metric in p.targets:
        np.testing.assert_array_equal(taken[metric], taken[f"{metric}_full"])
    # on its own the staged search fits each point it visits (cold along a warm axis)
    fitted_alone = len(list((other / "experiments" / "cv_point").rglob("output.lrc")))
    assert fitted_alone == len(alone["staged"].points) * p.n_folds
    if method == "MLC-ListNet":
        assert (staged.search, staged.chosen) == ("staged", alone["staged"].chosen)
        pd.testing.assert_frame_equal(staged.points.drop(columns=timing),
                                      alone["staged"].points.drop(columns=timing))
    with pytest.raises(ValueError, match="targets must be metric names.*'AUC'"):
        ex.staged_and_full(ex.SYNTHETIC, method, proto=p, targets=["AUC"], progress=False)


def test_search_comparison_sets_the_staged_choices_beside_the_full_grids(cache):
    """One row per (method, target): the full grid's choice is at least as good on the training folds as its own
    value at the staged choice, which is the staged search's value (the staged search walks over the full grid's
    values, ML-kNN's one fit each and Binary-SVM's warm-started C path), and the full grid evaluated every grid
    point."""
    p = proto()
    comparison = ex.search_comparison(ex.SYNTHETIC, methods=["ML-kNN", "Binary-SVM"], proto=p, progress=False)
    assert list(comparison.columns[:3]) == ["dataset", "method", "target"]
    assert (comparison["dataset"] == ex.SYNTHETIC).all() and len(comparison) == 2 * len(p.targets)
    assert (comparison["cv_full"] >= comparison["cv_full_at_staged"]).all()
    np.testing.assert_array_equal(comparison["cv_full_at_staged"], comparison["cv_staged"])
    assert (comparison["same"] == (comparison["staged"] == comparison["full"])).all()
    grid_size = comparison["method"].map({"ML-kNN": len(p.grids["k"]), "Binary-SVM": len(p.grids["C"])})
    assert (comparison["points_full"] == grid_size).all()
    assert (comparison["points_staged"] <= comparison["points_full"]).all()


@pytest.mark.parametrize("code", ["ENOSPC", "EDQUOT", "EROFS"])
def test_a_full_disk_under_the_cache_is_one_line_and_exit_2(monkeypatch, capsys, code):
    """A disk that fills while the experiments run: one message on stderr and exit 2, not joblib's traceback."""
    import errno
    import os

    from labelrank.studies.yang2012 import experiments

    def full(args):
        raise OSError(getattr(errno, code), os.strerror(getattr(errno, code)))

    monkeypatch.setattr(experiments, "_main", full)
    assert experiments.main(["--profile", "quick"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot take more entries" in err and os.strerror(getattr(errno, code)) in err
