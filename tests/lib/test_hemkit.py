"""``convention="hemkit"``: hF and LCA-F as HEMKit (Kosmopoulos et al.'s tool) computes them.

HEMKit cannot run here (C++, GPL, on no package index). ``data/hemkit/cases.json`` holds worked examples with what
HEMKit printed for them, written by ``benchmarks/hemkit_agreement.py --write-cases`` with HEMKit built from
github.com/BioASQ/Evaluation-Measures (``hierarchical/software``; ``g++ -O1 main.cpp bestPathfinder.cpp graph.cpp
subGraphCreator.cpp``), run as ``HEMKit hierarchy.txt true.txt predicted.txt MAX_DISTANCE 5`` on the files
:func:`labelrank.metrics.hemkit.hemkit_files` writes; once as built (6 digits), once from a build that prints 17
digits, each also with glibc's thread cache off. The same script's record ``hemkit_agreement`` holds the largest
differences on random trees and DAGs (the book's cross-checks appendix shows it).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelrank.hierarchy import LabelTree
from labelrank.metrics import hierarchical_prf, lca_prf
from labelrank.metrics.hemkit import HemkitGraph, gnu_sort, hemkit_document, hemkit_files, hemkit_scores

CASES = json.loads((Path(__file__).resolve().parents[2] / "data" / "hemkit" / "cases.json").read_text())["cases"]


def averages(case) -> list[float]:
    rows = hemkit_scores(LabelTree.from_parents(case["parents"]), case["truth"], case["predicted"],
                         case["max_distance"])
    return rows[~np.isnan(rows).all(axis=1)].mean(axis=0).tolist()


def same(ours: list[float], printed: list[float | None], tol: float) -> bool:
    return all((x is None and math.isnan(y)) or (x is not None and abs(x - y) <= tol) for x, y in zip(printed, ours))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_case_is_what_hemkit_printed(case):
    """Every measure is HEMKit's to the last digit it prints, under glibc's default allocator and with its thread
    cache off; in the one case where those two differ (a DAG), it is one of them."""
    ours = averages(case)
    if case["name"] == "memory order decides":
        assert same(ours, case["hemkit_17_digits_no_tcache"], 1e-12), ours
        return
    for printed, tol in (("hemkit_17_digits", 1e-12), ("hemkit_17_digits_no_tcache", 1e-12), ("hemkit", 5e-7),
                         ("hemkit_no_tcache", 5e-7)):
        assert same(ours, case[printed], tol), (printed, ours)


def test_on_a_dag_hemkit_depends_on_its_allocator():
    """The same files, the same binary: on this DAG HEMKit's LCA measures change with glibc's thread cache (it
    keeps a node's parents in the order of their memory addresses, and ties between chains follow that order),
    while its set-based measures do not."""
    case = next(c for c in CASES if c["name"] == "memory order decides")
    default, no_cache = case["hemkit_17_digits"], case["hemkit_17_digits_no_tcache"]
    assert default[:3] == no_cache[:3] and default[3:] != no_cache[3:]
    assert LabelTree.from_parents(case["parents"]).is_dag


def test_the_issue_s_two_minimal_cases():
    """HEMKit drops a true label that is an ancestor of another ({2, 4} read as {4}), and links each label with
    its nearest labels of the other set (6 with 4, 3 with 4) where the edge cover pairs 6 with 3."""
    chain = LabelTree.from_parents({"1": None, "2": "1", "3": "2", "4": "3"})
    assert lca_prf(chain, [["2", "4"]], [["3"]]) == pytest.approx((1, 0.5, 2 / 3))
    assert lca_prf(chain, [["2", "4"]], [["3"]], convention="hiclass") == pytest.approx((1, 2 / 3, 0.8))
    small = {"1": None, "2": "1", "3": "1", "7": "1", "4": "2", "5": "2", "6": "5"}
    assert lca_prf(LabelTree.from_parents(small), [["3", "4"]], [["6", "4"]]) == pytest.approx((0.6, 0.75, 2 / 3))
    lifted = LabelTree.from_parents({"top": None, **small, "1": "top"})  # 1 counted, as HEMKit counts the root
    assert lca_prf(lifted, [["3", "4"]], [["6", "4"]], convention="hiclass") == pytest.approx((0.4, 2 / 3, 0.5))


def test_the_public_functions_give_the_module_s_averages():
    for case in CASES:
        tree = LabelTree.from_parents(case["parents"])
        ours = averages(case)
        args = (tree, case["truth"], case["predicted"])
        h = hierarchical_prf(*args, convention="hemkit", max_distance=case["max_distance"])
        lca = lca_prf(*args, max_distance=case["max_distance"])
        assert np.allclose(h, ours[:3], equal_nan=True) and np.allclose(lca, ours[3:], equal_nan=True)


def test_an_empty_prediction_makes_the_averages_nan_as_hemkit_prints_them():
    case = next(c for c in CASES if c["name"] == "an empty prediction")
    assert case["hemkit"][0] is None and case["hemkit"][1] is not None  # hR stays a number: 0 / |truth|
    tree = LabelTree.from_parents(case["parents"])
    assert math.isnan(lca_prf(tree, case["truth"], case["predicted"])[2])


def test_a_document_without_true_labels_is_left_out():
    tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r"})
    assert lca_prf(tree, [["a"], []], [["a"], ["b"]]) == lca_prf(tree, [["a"]], [["a"]]) == (1.0, 1.0, 1.0)
    assert np.isnan(hemkit_scores(tree, [[]], [["a"]])).all()


def test_conventions_and_averages_are_checked():
    tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r"})
    with pytest.raises(ValueError, match="convention must be one of"):
        lca_prf(tree, [["a"]], [["a"]], convention="bioasq")
    with pytest.raises(ValueError, match="macro average"):
        hierarchical_prf(tree, [["a"]], [["a"]], average="micro", convention="hemkit")
    with pytest.raises(ValueError, match="max_distance"):
        lca_prf(tree, [["a"]], [["a"]], max_distance=-1)
    with pytest.raises(ValueError, match="root"):  # HiClass's reading refuses the root; HEMKit's counts it
        hierarchical_prf(tree, [["r"]], [["a"]])
    assert hierarchical_prf(tree, [["r"]], [["a"]], convention="hemkit") == pytest.approx((2 / 3, 1, 0.8))


def test_the_files_hemkit_reads():
    tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "c": ["a", "b"]})
    graph = HemkitGraph(tree)
    assert graph.ids == {"r": 1, "a": 2, "b": 3, "c": 4} and graph.edges == [(1, 2), (1, 3), (2, 4), (3, 4)]
    assert graph.chains(4) == [(4, 2, 1, 0, -1), (4, 3, 1, 0, -1)]
    assert graph.ancestors(4) == {0, 1, 2, 3}
    assert HemkitGraph(tree, max_distance=0).ancestors(4) == {2, 3}  # max_distance + 1 edges up
    assert HemkitGraph(tree, max_distance=1).chains(4) == [(4, 2, -1), (4, 3, -1)]  # chains cut after 1 edge
    import tempfile

    folder = Path(tempfile.mkdtemp())
    h, t, p = hemkit_files(tree, [["c", "a"], [], ["b"]], [["b"], ["a"], []], folder)
    assert h.read_text() == "1 2\n1 3\n2 4\n3 4\n"
    assert t.read_text() == "2 4\n3\n" and p.read_text() == "3\n\n"  # the document without a truth: left out


# ----------------------------------------------------------------------------- g++'s sort and HiClass's reading
GNU_SORTED = [  # keys, and the order g++ 12's std::sort (libstdc++) left their positions in
    ([1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1],
     [2, 15, 13, 12, 10, 9, 8, 16, 14, 11, 0, 7, 6, 5, 4, 3, 1]),
    ([1, 0, 2, 0, 3, 3, 3, 3, 1, 0, 3, 0, 3, 3, 0, 3, 2, 1, 0, 2, 0, 0, 0, 0],
     [1, 23, 22, 21, 20, 18, 14, 11, 9, 3, 8, 17, 0, 16, 19, 2, 10, 7, 12, 13, 6, 15, 5, 4]),
    ([0, 0, 0, 1, 0, 2, 2, 1, 1, 2, 0, 2, 0, 2, 2, 0, 1, 2, 1, 2, 2, 1, 2, 1, 2, 1, 0, 0, 1, 1, 1, 1, 1, 2, 0, 2, 0, 0,
      0, 0],
     [1, 39, 38, 37, 36, 34, 27, 26, 15, 12, 0, 2, 4, 10, 25, 3, 32, 31, 30, 29, 28, 7, 23, 21, 18, 16, 8, 11, 22, 9,
      13, 14, 35, 5, 33, 17, 19, 6, 20, 24]),
    ([1, 4, 4, 1, 2, 4, 3, 5, 4, 0, 4, 0, 6, 3, 2, 4, 1, 1, 5, 3, 4, 6, 4, 3, 3, 5, 6, 1, 1, 5, 1, 6, 4],
     [11, 9, 0, 17, 16, 27, 28, 3, 30, 4, 14, 6, 24, 23, 13, 19, 22, 20, 32, 15, 10, 8, 5, 2, 1, 18, 25, 7, 29, 21,
      12, 26, 31]),
]


@pytest.mark.parametrize("keys, order", GNU_SORTED)
def test_gnu_sort_leaves_equal_keys_where_g_plus_plus_does(keys, order):
    assert [i for _, i in gnu_sort([(k, i) for i, k in enumerate(keys)], key=lambda x: x[0])] == order


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=80))
def test_gnu_sort_sorts(keys):
    out = gnu_sort(list(enumerate(keys)), key=lambda x: x[1])
    assert [k for _, k in out] == sorted(keys) and sorted(out) == list(enumerate(keys))
    if len(keys) <= 16:  # insertion sort alone: stable
        assert out == sorted(enumerate(keys), key=lambda x: x[1])


@st.composite
def trees_and_documents(draw):
    n = draw(st.integers(2, 15))
    parents = {"r": None}
    for i in range(n):
        parents[f"n{i}"] = draw(st.sampled_from(list(parents)))
    labels = [x for x in parents if x != "r"]
    sets = st.lists(st.sampled_from(labels), min_size=1, max_size=4, unique=True)
    docs = draw(st.integers(1, 4))
    return parents, [draw(sets) for _ in range(docs)], [draw(sets) for _ in range(docs)]


@settings(max_examples=200, deadline=None)
@given(trees_and_documents())
def test_hemkit_s_hf_is_hiclass_s_on_a_tree_lifted_by_two_nodes(case):
    """HEMKit's hP, hR, hF count the root and its top node; HiClass's reading (macro) on the tree with two labels
    added above the root, the upper one the root it leaves out, counts the same."""
    parents, truth, predicted = case
    lifted = LabelTree.from_parents({"top": None, "zero": "top", **{k: v or "zero" for k, v in parents.items()}})
    assert hierarchical_prf(LabelTree.from_parents(parents), truth, predicted, convention="hemkit") == pytest.approx(
        hierarchical_prf(lifted, truth, predicted, average="macro"))


def test_one_document_at_a_time():
    tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    h, lca = hemkit_document(HemkitGraph(tree), ["a1"], ["a2"])
    assert h == pytest.approx((0.75, 0.75, 0.75)) and lca == pytest.approx((0.5, 0.5, 0.5))


# ------------------------------------------------------------------------------------------- the command line
def test_labelrank_score_reads_hf_and_lca_f_either_way(tmp_path):
    (tmp_path / "tree.yaml").write_text("r: null\na: r\nb: r\nc: [a, b]\nd: c\n")
    (tmp_path / "truth.txt").write_text("d1 d\nd2 r\n")
    (tmp_path / "run.txt").write_text("d1 c 1 0.9\nd1 b 2 0.6\nd2 a 1 0.8\n")
    base = [sys.executable, "-m", "labelrank.cli", "score", "--tree", str(tmp_path / "tree.yaml"), "--truth",
            str(tmp_path / "truth.txt"), "--run", str(tmp_path / "run.txt"), "--measures", "LCA-F", "--format", "csv"]
    out = subprocess.run(base + ["--convention", "hemkit"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "c": ["a", "b"], "d": "c"})
    expected = lca_prf(tree, [["d"], ["r"]], [["c", "b"], ["a"]])[2]
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    mean = next(r for r in rows if r["measure"] == "F_LCA-F" and not r["document"])
    assert float(mean["value"]) == pytest.approx(expected), out.stdout
    # HiClass's reading refuses the DAG for LCA-F and the root in the truth: one message, exit 2
    out = subprocess.run(base + ["--convention", "hiclass"], capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "root" in out.stderr, out.stderr
    out = subprocess.run(base + ["--max-distance", "-1"], capture_output=True, text=True)
    assert out.returncode == 2 and "--max-distance must be a non-negative integer" in out.stderr
