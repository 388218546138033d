"""The scorecard (labelrank.studies.scorecard): the status rule at its boundaries, the papers' numbers read from data/paper
and nowhere else, "ours" equal to what the library gives, the summary's counts, and the errors on bad arguments.

The experiment-backed tables (Yang & Gopal's Tables 3-6) run on a small synthetic results frame, passed in or
monkeypatched over :func:`labelrank.studies.yang2012.experiments.results`, so no experiment is run here.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from labelrank.cost import bdm
from labelrank.datasets import DataUnavailableError
from labelrank.hierarchy import LabelTree
from labelrank.metrics import greedy_f_measure
from labelrank.paths import data_dir
from labelrank.studies import paper
from labelrank.studies import scorecard as sc
from labelrank.studies.li2007 import fterm_sim
from labelrank.studies.yang2012 import experiments, timing, vowel

FAST_TABLES = ["li2007_table1", "semanticsearchart_retrieval", "semanticsearchart_worked_example"]


# ---------------------------------------------------------------------------------------------- the status rule
@pytest.mark.parametrize("printed, expected", [
    ("0.64", 0.005), ("1.00", 0.005), ("0.6", 0.05), ("249", 0.5), ("0.74210", 5e-6), ("0.543498", 5e-7),
    ("1e-3", 5e-4), ("2.5E2", 5.0), (" 11 ", 0.5),
])
def test_half_unit_of_the_printed_digits(printed, expected):
    assert sc.half_unit(printed) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("bad", ["abc", "", "nan", "inf", "0.5.1"])
def test_half_unit_rejects_non_numbers_naming_them(bad):
    with pytest.raises(ValueError, match="printed"):
        sc.half_unit(bad)


@pytest.mark.parametrize("ours, expected", [
    (0.64, "matches"), (0.645, "matches"), (0.635, "matches"),     # on the rounding boundary
    (0.6451, "close"), (0.66, "close"), (0.62, "close"),            # 0.02 is the close boundary
    (0.6601, "differs"), (0.6199, "differs"), (1.0, "differs"),
    (math.nan, "paper only"),
])
def test_status_boundaries(ours, expected):
    assert sc.status(0.64, ours, 0.005, 0.02) == expected


def test_status_allows_only_floating_point_slack():
    assert 0.41 - 0.36 != 0.05  # the reason for the slack
    assert sc.status(0.41, 0.36, 0.005, 0.05) == "close"
    assert sc.status(0.41, 0.36, 0.005, 0.0499) == "differs"
    assert sc.status(100.0, 100.5 + 1e-8, 0.5, 0.5) == "matches"   # slack scales with |paper|
    assert sc.status(100.0, 100.5 + 1e-6, 0.5, 0.5) == "differs"


def test_status_not_comparable_is_always_differs():
    assert sc.status(0.17, 0.17, math.nan, math.nan) == "differs"
    assert sc.status(0.17, math.nan, math.nan, math.nan) == "paper only"


@pytest.mark.parametrize("args, word", [
    ((math.nan, 0.5, 0.005, 0.02), "paper_value"),
    ((0.5, 0.5, -0.1, 0.02), "tolerance"),
    ((0.5, 0.5, 0.05, 0.02), "close_tolerance"),
])
def test_status_rejects_bad_arguments(args, word):
    with pytest.raises(ValueError, match=word):
        sc.status(*args)


def test_tolerance_limits():
    assert sc.DETERMINISTIC.limits(0.64, 0.005) == (0.005, 0.02)
    assert sc.DETERMINISTIC.limits(39, 0.5) == (0.5, 0.5)              # close is never tighter than matches
    tol, close = sc.TUNED.limits(0.7, 5e-6)                          # relative: 1 % and 5 % of the paper's value
    assert tol == pytest.approx(0.007) and close == pytest.approx(0.035)
    assert sc.TUNED.limits(0.0004, 5e-5) == pytest.approx((5e-5, 5e-5))  # the rounding wins when larger
    assert all(math.isnan(v) for v in sc.TIMING.limits(3.78, 0.005))


def test_compare_applies_the_rule_and_the_reasons():
    records = [
        {"item": "a", "paper": 0.50, "printed": "0.50", "ours": 0.503},
        {"item": "b", "paper": 0.50, "printed": "0.50", "ours": 0.51, "why": "explained"},
        {"item": "c", "paper": 0.50, "printed": "0.50", "ours": 0.50, "why": "not shown: the row matches"},
        {"item": "d", "paper": 0.50, "printed": "0.50", "ours": math.nan, "reason": "not public"},
        {"item": "e", "paper": 12.0, "printed": "12", "ours": 13.0},
    ]
    out = sc.compare(records, source="S", table="T", tolerance=sc.DETERMINISTIC, reason="default", chapter="ch",
                     paper_table="f")
    assert list(out.columns) == list(sc.COLUMNS)
    assert list(out["status"]) == ["matches", "close", "matches", "paper only", "differs"]
    assert list(out["reason"]) == ["default", "explained", "default", "not public", "default"]
    assert out["abs_delta"].iloc[1] == pytest.approx(0.01)
    assert out["tolerance"].iloc[4] == 0.5


def test_compare_rejects_a_non_tolerance():
    with pytest.raises(TypeError, match="tolerance"):
        sc.compare([], source="S", table="T", tolerance=0.01, reason="", chapter="", paper_table="")


# ---------------------------------------------------------------------------- the papers' numbers: data/paper only
def _numbers_of(name: str) -> np.ndarray:
    """Every numeric cell of a transcribed table, as paper.load reads it."""
    table = paper.load(name)
    return table.select_dtypes("number").to_numpy(dtype=float).ravel()


@pytest.fixture(scope="module")
def fast_frame() -> pd.DataFrame:
    return sc.scorecard("quick", tables=FAST_TABLES)


def test_every_paper_number_is_read_from_data_paper(fast_frame):
    for row in fast_frame.itertuples():
        assert row.paper in _numbers_of(row.paper_table), (row.item, row.paper, row.paper_table)


def test_table1_of_li2007_cell_by_cell(fast_frame):
    tree = LabelTree.from_file(data_dir() / "fterm" / "2C088_figure1.yaml")
    table1 = paper.load("li2007_table1", index_col=0)
    rows = fast_frame[fast_frame["source"] == sc.LI]
    assert len(rows) == 21  # the upper triangle with the diagonal of a 6 x 6 table
    for row in rows.itertuples():
        key, response = row.item.split("–")
        assert row.paper == table1.loc[key, response]
        assert row.ours == pytest.approx(bdm(tree, key, response), abs=1e-12)
    assert (rows["tolerance"] == 0.005).all()
    # the tree was fitted to this table: agreement is built in, so no row counts as a match
    assert (rows["status"] == "reconstructed").all() and (rows["basis"] == "reconstructed").all()
    assert (rows["agreement"] == "matches").all()


def test_reconstructed_and_simulated_rows_never_match():
    frame = sc.scorecard("quick", ["li2007_table1", "li2007_table2", "li2007_table3", "yang2012_table1"])
    other = frame["basis"].isin(["reconstructed", "simulated"])
    assert set(frame.loc[other, "status"]) <= {"reconstructed", "simulated"}
    assert set(frame.loc[frame["table"].str.contains("simulated"), "status"]) == {"simulated"}
    assert (frame.loc[~other, "status"] == frame.loc[~other, "agreement"].replace("", "paper only")).all()
    counts = sc.by_basis(frame)
    assert list(counts.index) == list(sc.BASES) and counts["rows"].sum() == len(frame)
    judged = counts["rows"].where(counts.index != "paper only", 0)  # a paper-only row has no agreement
    assert (counts[list(sc.AGREEMENTS)].sum(axis=1) == judged).all()
    assert counts.loc["reconstructed", "rows"] == 21 and counts.loc["simulated", "rows"] > 0
    with pytest.raises(ValueError, match="basis"):
        sc.by_basis(frame.drop(columns=["basis"]))


def test_compare_refuses_an_unknown_basis():
    with pytest.raises(ValueError, match="basis"):
        sc.compare([], source="S", table="T", tolerance=sc.DETERMINISTIC, reason="", chapter="c", paper_table="p",
                    basis="fitted")


def test_worked_example_mean_f_is_the_library_s(fast_frame):
    C = paper.load("semanticsearchart_contingency").set_index("cluster").to_numpy()
    row = fast_frame.set_index("item").loc["mean F"]
    assert row["ours"] == greedy_f_measure(C)[0]
    assert row["paper"] == paper.load("semanticsearchart_summary").set_index("quantity").loc["mean_f", "value"]
    # the page's slips that the chapter explains carry their reason, and only where the row does not match
    slip = fast_frame.set_index("item").loc["precision / cluster 3, class 1"]
    assert slip["status"] == "differs" and "9/25" in slip["reason"]
    ssa = fast_frame[fast_frame["source"] == sc.SSA]
    assert (ssa.loc[ssa["status"] == "matches", "reason"] == sc._SSA_REASON).all()


def test_li2007_table2_is_kendall_table_of_the_simulation(monkeypatch):
    monkeypatch.setattr(fterm_sim, "book_n_patents", lambda profile=None: 25)
    frame = sc.li2007_table2("quick")
    tau = fterm_sim.kendall_table(fterm_sim.simulate_task(25, seed=0).evaluate())
    printed = paper.load("li2007_table2").set_index("variant")
    assert len(frame) == 6
    for row in frame.itertuples():
        variant, measure = row.item.split(" / ")
        assert row.ours == pytest.approx(tau.loc[variant, measure], abs=1e-15)
        assert row.paper == printed.loc[variant.removeprefix("BDM-"), measure]
        assert row.tolerance == sc.SIMULATED.match


def test_li2007_table3_pairs_the_runs_by_rank(monkeypatch):
    monkeypatch.setattr(fterm_sim, "book_n_patents", lambda profile=None: 25)
    frame = sc.li2007_table3("quick")
    top = fterm_sim.top_runs(fterm_sim.simulate_task(25, seed=0).evaluate(), "R-Precision", 3)
    first = frame.set_index("item").loc["BDM high / GATE-03 (1st)"]
    assert first["ours"] == top["BDM-High"].iloc[0]
    assert first["paper"] == paper.load("li2007_table3").set_index("score").loc["BDM high", "GATE-03"]
    assert top.index[0] in first["reason"]


# ---------------------------------------------------------------------- the experiment tables, on synthetic results
def _synthetic_results(factor: dict[str, float]) -> pd.DataFrame:
    """Results rows for emotions and yeast built from the paper's Tables 3 and 4: ours = paper x factor[dataset],
    plus rows the tables must not pick (meta-level baselines)."""
    rows = []
    t3 = paper.load("yang2012_table3", keep_default_na=False)
    t4 = paper.load("yang2012_table4", keep_default_na=False)
    for r in t3.itertuples():
        if r.dataset in factor and r.method == "MLC-ListNet":
            rows.append({"dataset": r.dataset, "method": r.method, "features": "meta", "threshold": "regression",
                         "metric": r.metric, "value": r.value * factor[r.dataset]})
        elif r.dataset in factor and r.metric not in ("Micro-F1", "Macro-F1", "HLoss"):  # Table 4 has the others
            rows.append({"dataset": r.dataset, "method": r.method, "features": "original", "threshold": "default",
                         "metric": r.metric, "value": r.value * factor[r.dataset]})
    for r in t4.itertuples():
        if r.dataset in factor:
            rows.append({"dataset": r.dataset, "method": r.method, "features": "original", "threshold": r.threshold,
                         "metric": r.metric, "value": r.value * factor[r.dataset]})
            rows.append({"dataset": r.dataset, "method": r.method, "features": "meta", "threshold": r.threshold,
                         "metric": r.metric, "value": -1.0})
    return pd.DataFrame(rows)


def test_table4_rows_statuses_and_leftouts():
    results = _synthetic_results({"emotions": 1.004, "yeast": 1.03, "scene": 1.2})
    frame = sc.yang2012_table4("quick", results=results)
    t4 = paper.load("yang2012_table4", keep_default_na=False)
    assert set(frame["item"].str.split(" / ").str[1]) == {"emotions", "yeast", "citeseer"}  # quick: no scene
    assert len(frame) == (t4["dataset"].isin(["emotions", "yeast", "citeseer"])).sum()
    by_dataset = frame.assign(dataset=frame["item"].str.split(" / ").str[1]).groupby("dataset")["status"]
    assert set(by_dataset.get_group("emotions")) == {"matches"}    # within 1 %
    assert set(by_dataset.get_group("yeast")) == {"close"}         # within 5 %
    assert set(by_dataset.get_group("citeseer")) == {"paper only"}
    assert not (frame["ours"] == -1.0).any()  # the meta-level baselines' rows are not Table 4's
    merged = frame.merge(t4.assign(item=t4["metric"] + " / " + t4["dataset"] + " / " + t4["method"] + " / "
                                   + t4["threshold"]), on="item")
    assert (merged["paper"] == merged["value"]).all() and len(merged) == len(frame)
    assert (frame["chapter"] == "thresholding").all()


def test_table3_through_a_monkeypatched_results(monkeypatch):
    results = _synthetic_results({"emotions": 1.0, "yeast": 1.2})
    calls = []

    def fake_results(profile=None, **kwargs):
        calls.append(profile)
        return results

    monkeypatch.setattr(experiments, "results", fake_results)
    frame = sc.scorecard("quick", tables=["yang2012_table3"])
    assert len(calls) == 1 and calls[0].profile == "quick"
    t3 = paper.load("yang2012_table3", keep_default_na=False)
    assert len(frame) == t3["dataset"].isin(["emotions", "yeast", "citeseer"]).sum()
    status = frame.set_index("item")["status"]
    assert status["MAP / emotions / MLC-ListNet"] == "matches"
    assert status["Micro-F1 / yeast / ML-kNN"] == "differs"
    assert status["MAP / citeseer / IBLR"] == "paper only"
    reason = frame.set_index("item")["reason"]
    assert "quick profile" in reason["Micro-F1 / yeast / ML-kNN"]
    # a cell missing from the results of a data set the profile runs is an error that names it, not "paper only"
    incomplete = results[~((results["metric"] == "MAP") & (results["dataset"] == "yeast")
                           & (results["method"] == "ML-kNN"))]
    monkeypatch.setattr(experiments, "results", lambda profile=None, **kwargs: incomplete)
    with pytest.raises(ValueError, match="'metric': 'MAP', 'dataset': 'yeast', 'method': 'ML-kNN'"):
        sc.scorecard("quick", tables=["yang2012_table3"])
    doubled = pd.concat([results, results.iloc[:1]])
    with pytest.raises(ValueError, match="more than one row"):
        sc.experiment_table(doubled, 3)


def test_experiment_rows_selection():
    results = _synthetic_results({"emotions": 1.0})
    t3, keys3 = sc.experiment_rows(results, 3)
    assert keys3 == ("metric", "dataset", "method")
    assert set(t3["threshold"][t3["method"] != "MLC-ListNet"]) == {"default"}
    assert set(t3["features"][t3["method"] != "MLC-ListNet"]) == {"original"}
    t4, keys4 = sc.experiment_rows(results, 4)
    assert "threshold" in keys4 and set(t4["threshold"]) == {"default", "regression"}
    assert set(t4["metric"]) == {"Micro-F1", "Macro-F1", "HLoss"} and set(t4["features"]) == {"original"}
    t5, _ = sc.experiment_rows(results, 5)
    assert set(t5["threshold"]) == {"regression"}
    listnet = t5["method"] == "MLC-ListNet"
    assert set(t5.loc[listnet, "features"]) == {"meta"} and set(t5.loc[~listnet, "features"]) == {"original"}
    assert not (t5["value"] == -1.0).any()  # the meta-level baselines' rows are not Table 5's
    assert not ((t5["features"] == "meta") & (t5["method"] != "MLC-ListNet")).any()
    with pytest.raises(ValueError, match="7"):
        sc.experiment_rows(results, 7)


# ---------------------------------------------------------------------------------------- tables on the real data
def test_yang2012_table1_is_datasets_table1():
    from labelrank import datasets

    try:
        ours = datasets.statistics_table(["emotions", "vowel"]).set_index("dataset")
    except DataUnavailableError as exc:
        pytest.skip(f"no data source: {exc}")
    frame = sc.yang2012_table1().set_index("item")
    assert frame.loc["emotions / #features", "ours"] == ours.loc["emotions", "n_features"]
    assert frame.loc["vowel / training size", "status"] == "matches"
    assert frame.loc["emotions / avg #categories per instance", "ours"] == \
        ours.loc["emotions", "avg_categories_per_instance"]
    assert (frame.loc[frame.index.str.startswith("citeseer"), "status"] == "paper only").all()
    for row in frame.itertuples():
        assert row.paper in _numbers_of("yang2012_table1")


# ------------------------------------------------------------------------------------------------ summary
def test_summary_counts_add_up(fast_frame):
    s = sc.summary(fast_frame)
    assert list(s.columns) == ["source", "table", "rows", *sc.STATUSES, "median |Δ|"]
    assert (s[list(sc.STATUSES)].sum(axis=1) == s["rows"]).all()
    assert s["rows"].sum() == len(fast_frame)
    assert list(s["table"]) == list(dict.fromkeys(fast_frame["table"]))  # the book's order, not sorted
    we = s.set_index("table").loc["Worked example"]
    assert we["median |Δ|"] == fast_frame.loc[fast_frame["table"] == "Worked example", "abs_delta"].median()


def test_summary_of_a_constructed_frame():
    frame = pd.DataFrame({"source": ["A", "A", "A", "B", "C"], "table": ["T", "T", "T", "U", "V"],
                          "status": ["matches", "differs", "paper only", "close", "differs"],
                          "abs_delta": [0.0, 0.4, math.nan, 0.1, 7.5],
                          "tolerance": [0.005, 0.005, 0.005, 0.01, math.nan]})
    s = sc.summary(frame).set_index("table")
    assert s.loc["T", ["rows", "matches", "close", "differs", "paper only"]].tolist() == [3, 1, 0, 1, 1]
    assert s.loc["T", "median |Δ|"] == pytest.approx(0.2)
    assert s.loc["U", "close"] == 1
    # a table without a tolerance (CPU seconds) is never judged by |Δ|: no median
    assert s.loc["V", "differs"] == 1 and math.isnan(s.loc["V", "median |Δ|"])


# ------------------------------------------------------------------------------------------------ bad arguments
def test_bad_arguments_raise_naming_the_value(fast_frame):
    with pytest.raises(ValueError, match="slow"):
        sc.scorecard("slow")
    with pytest.raises(ValueError, match="no_such_table"):
        sc.scorecard("quick", tables=["no_such_table"])
    with pytest.raises(ValueError, match="status"):
        sc.summary(fast_frame.drop(columns=["status"]))
    with pytest.raises(ValueError, match="fine"):
        sc.summary(fast_frame.assign(status="fine"))
    with pytest.raises(TypeError, match="frame"):
        sc.summary([1, 2])
    with pytest.raises(ValueError, match="slow"):
        fterm_sim.book_n_patents("slow")
    with pytest.raises(ValueError, match="slow"):
        vowel.book_grids("slow")
    with pytest.raises(ValueError, match="slow"):
        timing.table2_timing_plan("slow")
    with pytest.raises(ValueError, match="batch"):
        timing.neighbor_search_seconds(np.zeros((3, 2)), np.eye(3, dtype=int), np.zeros((1, 2)), "batch")


def test_simulated_tables_reject_bad_arguments():
    scores = fterm_sim.simulate_task(10, seed=0).evaluate()
    with pytest.raises(ValueError, match="Q-measure"):
        fterm_sim.top_runs(scores, "Q-measure")
    with pytest.raises(ValueError, match="n must be"):
        fterm_sim.top_runs(scores, n=0)
    with pytest.raises(TypeError, match="scores"):
        fterm_sim.kendall_table(scores.to_numpy())
    with pytest.raises(ValueError, match="F-measure"):
        fterm_sim.kendall_table(scores.drop(columns="F-measure", level=0))
    top = fterm_sim.top_runs(scores, "A-Precision", 4)
    assert list(top.columns) == ["binary", "BDM-High", "BDM-Low"]
    assert top["binary"].is_monotonic_decreasing and len(top) == 4


def test_in_book_reads_the_table_of_contents():
    assert sc.in_book("scorecard") and sc.in_book("la_bdm")
    assert not sc.in_book("no_such_chapter")
