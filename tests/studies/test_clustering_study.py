"""The clustering study of Semantic Search Art (seed 001): its worked example as printed, the transcribed
tables, and the study's clustering runs (``labelrank.studies.semanticsearchart``), on the library's
clustering F-measures."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from labelrank.metrics import (
    aligned_table,
    clustering_accuracy,
    contingency_table,
    f_table,
    greedy_f_measure,
    greedy_matching,
    harmonic_f,
    matched_f_measure,
    precision_table,
    recall_table,
)
from labelrank.studies import paper
from labelrank.studies.semanticsearchart.clustering_study import (
    choose_groups,
    cluster_texts,
    score_clustering,
    spherical_kmeans,
    summarize,
)
from support import SEED, labels_from_table


# --------------------------------------------------------------------------------------------- worked example
def test_seed_table_matches_transcription_and_row_sums():
    table = paper.load("semanticsearchart_contingency").set_index("cluster").to_numpy()
    np.testing.assert_array_equal(table, SEED)
    sizes = paper.load("semanticsearchart_summary").set_index("quantity")["value"]
    assert SEED.sum(axis=1).tolist() == [sizes[f"cluster_{i}_documents"] for i in (1, 2, 3)]


def test_seed_greedy_assignment_and_mean():
    assert greedy_matching(f_table(SEED)) == [(1, 0), (2, 1), (0, 2)]  # cluster 2=class 1, 3=2, 1=3
    mean_f, assignment = greedy_f_measure(SEED)
    assert assignment.tolist() == [2, 0, 1]
    assert mean_f == pytest.approx(float((Fraction(62, 104) + Fraction(32, 58) + Fraction(22, 52)) / 3), abs=1e-15)
    assert round(mean_f, 2) == 0.52  # the seed prints 0.51 (see the chapter)
    printed = paper.load("semanticsearchart_assignment")
    assert [(c - 1, k - 1) for c, k in zip(printed["cluster"], printed["class"])] == greedy_matching(f_table(SEED))
    assert matched_f_measure(SEED)[1].tolist() == [2, 0, 1]  # here greedy is optimal


def test_seed_rearranged_table():
    _, assignment = greedy_f_measure(SEED)
    table, rows, cols = aligned_table(SEED, assignment)
    printed = paper.load("semanticsearchart_rearranged").set_index("cluster")
    assert list(printed.columns) == [f"class_{j + 1}" for j in cols]
    np.testing.assert_array_equal(table, printed.to_numpy())
    assert rows.tolist() == [0, 1, 2]
    assert np.trace(table) / SEED.sum() == clustering_accuracy(SEED, assignment) == pytest.approx(58 / 107)


def test_seed_printed_slips_are_exactly_the_known_cells():
    """Cells where the seed's printed two-decimal value is not the exact value rounded (to the nearest 0.01)."""
    exact = {"recall": recall_table(SEED), "precision": precision_table(SEED), "fmeasure": f_table(SEED)}
    slips = {}
    for name, values in exact.items():
        printed = paper.load(f"semanticsearchart_{name}").set_index("cluster").to_numpy()
        for i, j in zip(*np.nonzero(np.abs(printed - np.round(values, 2)) > 1e-9)):
            slips[(name, int(i) + 1, int(j) + 1)] = round(float(printed[i, j] - values[i, j]), 3)
    assert set(slips) == {
        ("recall", 1, 3), ("recall", 2, 3), ("recall", 3, 2),
        ("precision", 3, 1), ("precision", 3, 2),
        ("fmeasure", 2, 1), ("fmeasure", 3, 1), ("fmeasure", 3, 2),
    }
    # off by more than one rounding step: the precision row of cluster 3, and the F row computed from it
    assert {k for k, d in slips.items() if abs(d) > 0.01} == {
        ("precision", 3, 1), ("precision", 3, 2), ("fmeasure", 3, 1), ("fmeasure", 3, 2)
    }


def test_seed_f_row3_follows_from_the_printed_precision():
    P = paper.load("semanticsearchart_precision").set_index("cluster").to_numpy()
    F = paper.load("semanticsearchart_fmeasure").set_index("cluster").to_numpy()
    R = recall_table(SEED)
    for j in (0, 1):
        assert round(harmonic_f(P[2, j], R[2, j]), 2) == F[2, j]
        assert round(harmonic_f(precision_table(SEED)[2, j], R[2, j]), 2) != F[2, j]


# --------------------------------------------------------------------------------------------- study helpers
def test_spherical_kmeans_recovers_separated_topics():
    rng = np.random.default_rng(0)
    topics = np.zeros((3, 30))
    for t in range(3):
        topics[t, 10 * t: 10 * t + 10] = 1.0
    truth = np.repeat(np.arange(3), 40)
    X = topics[truth] * rng.random((120, 30)) + 0.05 * rng.random((120, 30))
    labels = spherical_kmeans(X, 3, n_init=2, random_state=1)
    assert clustering_accuracy(contingency_table(labels, truth)[0]) == 1.0
    np.testing.assert_array_equal(labels, spherical_kmeans(X, 3, n_init=2, random_state=1))  # seeded
    with pytest.raises(ValueError, match="n_clusters"):
        spherical_kmeans(X, 500)
    with pytest.raises(TypeError, match="n_init"):
        spherical_kmeans(X, 3, n_init=2.5)
    with pytest.raises(ValueError, match="tol must be non-negative and finite, got -1"):
        spherical_kmeans(X, 3, tol=-1)
    with pytest.raises(ValueError, match="tol must be non-negative and finite, got nan"):
        spherical_kmeans(X, 3, tol=float("nan"))
    with pytest.raises(TypeError, match="random_state must be an integer, got None"):  # runs are always seeded
        spherical_kmeans(X, 3, random_state=None)
    with pytest.raises(ValueError, match="method must be one of"):
        cluster_texts(["a b", "c d"], 2, method="dbscan")


def test_choose_groups_and_score_clustering():
    assert choose_groups(20, 3) == list(range(20))
    assert choose_groups(5, 1) == choose_groups(5, 1) and len(set(choose_groups(5, 1))) == 5
    assert choose_groups(5, 1) != choose_groups(5, 2)
    with pytest.raises(ValueError, match="n_groups"):
        choose_groups(21, 0)
    scores = score_clustering(*labels_from_table(SEED))
    assert scores["greedy_f"] == greedy_f_measure(SEED)[0] and scores["contingency"] == SEED.tolist()
    assert scores["accuracy_greedy"] == pytest.approx(58 / 107) and not scores["assignment_differs"]


def test_summarize_mean_and_std():
    import pandas as pd

    rows = [
        {"method": "kmeans", "n_groups": 5, "greedy_f": g, "matched_f": g, "class_weighted_f": g,
         "accuracy_greedy": g, "accuracy_optimal": g, "docs_per_second": 100.0}
        for g in (0.5, 0.7)
    ]
    table = summarize(pd.DataFrame(rows))
    assert table.loc[("kmeans", 5), ("greedy_f", "mean")] == pytest.approx(0.6)
    assert table.loc[("kmeans", 5), ("greedy_f", "std")] == pytest.approx(np.std([0.5, 0.7], ddof=1))
    assert table.loc[("kmeans", 5), ("runs", "")] == 2
    with pytest.raises(ValueError, match="greedy_f"):
        summarize(pd.DataFrame(rows).drop(columns="greedy_f"))


@pytest.mark.skipif("LABELRANK_DATA" not in __import__("os").environ, reason="needs the 20 Newsgroups mirror")
def test_run_one_on_a_small_20newsgroups_subsample():
    from labelrank.studies.semanticsearchart.clustering_study import run_one

    a = run_one(5, 0, "spherical_kmeans", docs_per_group=15, cache=False)
    b = run_one(5, 0, "spherical_kmeans", docs_per_group=15, cache=False)
    assert a["n_docs"] == 75 and len(a["groups"].split(",")) == 5
    assert np.asarray(a["contingency"]).sum() == 75 and np.asarray(a["contingency"]).shape == (5, 5)
    assert a["contingency"] == b["contingency"]  # seeded
    assert 0 < a["greedy_f"] <= a["matched_f"] <= 1 and a["docs_per_second"] > 0
    with pytest.raises(ValueError, match="method"):
        run_one(5, 0, "dbscan")
