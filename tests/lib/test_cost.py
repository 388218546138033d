"""Tests of labelrank.cost: path distance, common-ancestor height, LA, BDM and bdm_matrix (the study's criteria
and Table 1: ``tests/studies/test_li2007_criteria.py``)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from labelrank.cost import (
    BDMIndex,
    bdm,
    bdm_matrix,
    bdm_pairs,
    bdm_terms,
    common_ancestor_height,
    la_terms,
    learning_accuracy,
    pairwise_matrix,
    path_distance,
)
from labelrank.hierarchy import LabelTree
from support import trees

SPORT = LabelTree.from_parents({
    "root": None,
    "Sport": "root",
    "Politics": "root",
    "Football": "Sport",
    "Tennis": "Sport",
    "Athletics": "Sport",
    "Premier League": "Football",
    "World Cup": "Football",
    "Marathon": "Athletics",
    "Elections": "Politics",
})


# ---------------------------------------------------------------------------- an independent GATE-style port
def gate_bdm_all(tree: LabelTree) -> dict[tuple[str, str], float]:
    """BDM of every pair, following the structure of GATE's BDMTool.computeBDMStatic step by step.

    Chains run from a concept up to the top (concept first), as GATE builds them; the best pair of chains is kept
    (without GATE's overwrite of the best by a later chain pair with no common node).
    """
    parents = {x: list(tree.parents(x)) for x in tree}
    children = defaultdict(list)
    for x, ps in parents.items():
        for p in ps:
            children[p].append(x)

    def obtain_chains(c):
        if not parents[c]:
            return [[c]]
        return [[c] + ch for p in parents[c] for ch in obtain_chains(p)]

    chains = {c: obtain_chains(c) for c in parents}
    con_len, con_num = defaultdict(float), defaultdict(int)
    n0, num = 0.0, 0
    for leaf in (c for c in parents if not children[c]):
        for ch in chains[leaf]:
            length = len(ch) - 1
            n0 += length
            num += 1
            for con in ch:
                con_len[con] += length
                con_num[con] += 1
    if num > 1:
        n0 /= num
    m = {c: con_len[c] / con_num[c] for c in parents}
    branch = {c: len(children[c]) for c in parents if children[c]}
    aver = sum(branch.values())
    if len(branch) > 1:
        aver /= len(branch)
    out = {}
    for c1 in parents:
        for c2 in parents:
            if c1 == c2:
                out[c1, c2] = 1.0
                continue
            best = 0.0
            for ch1 in chains[c1]:
                for ch2 in chains[c2]:
                    len11, len22 = len(ch1), len(ch2)
                    cp = 0
                    for ii in range(min(len11, len22)):
                        if ch1[len11 - 1 - ii] == ch2[len22 - 1 - ii]:
                            cp += 1
                        else:
                            break
                    if cp == 0:
                        continue
                    common = ch1[len11 - cp]
                    cp -= 1
                    dpk, dpr = len11 - 1 - cp, len22 - 1 - cp
                    bran, num11 = float(branch.get(common, 0)), 1
                    for i in range(1, len11 - cp - 1):
                        bran += branch.get(ch1[i], 0)
                        num11 += 1
                    for i in range(1, len22 - cp - 1):
                        bran += branch.get(ch2[i], 0)
                        num11 += 1
                    if num11 > 1:
                        bran /= num11
                    bran /= aver
                    v = bran * cp / n0
                    v = v / (v + dpk / m[c1] + dpr / m[c2])
                    best = max(best, v)
            out[c1, c2] = best
    return out


def random_tree(rng: np.random.Generator, n: int, dag: bool = False) -> LabelTree:
    parents: dict[str, object] = {"n0": None}
    for i in range(1, n):
        p = int(rng.integers(0, i))
        q = int(rng.integers(0, i)) if dag and rng.random() < 0.25 else p
        parents[f"n{i}"] = f"n{p}" if q == p else [f"n{p}", f"n{q}"]
    return LabelTree.from_parents(parents)


# ------------------------------------------------------------------------------------ hand-worked examples
def test_path_distance_and_height_by_hand():
    assert path_distance(SPORT, "Premier League", "Tennis") == 3
    assert path_distance(SPORT, "Premier League", "Elections") == 5
    assert path_distance(SPORT, "Football", "Premier League") == 1
    assert path_distance(SPORT, "Tennis", "Tennis") == 0
    # heights: Sport 2, root 3, Football 1
    assert common_ancestor_height(SPORT, "Premier League", "Tennis") == 2
    assert common_ancestor_height(SPORT, "Premier League", "World Cup") == 1
    assert common_ancestor_height(SPORT, "Tennis", "Elections") == 3
    assert common_ancestor_height(SPORT, "Football", "World Cup") == 1
    assert common_ancestor_height(SPORT, "Sport", "Sport") == 0
    # in a DAG the path may pass through a common descendant
    dag = LabelTree.from_parents({"r": None, "a": "r", "a1": "a", "a2": "a1", "b": "r", "x": ["a2", "b"]})
    assert path_distance(dag, "a2", "b") == 2


def test_learning_accuracy_by_hand():
    # key Premier League (SP = 4 nodes), response Tennis: FP = 3, CP = 2 (root, Sport), DP = 1
    t = la_terms(SPORT, "Premier League", "Tennis")
    assert (t.sp, t.fp, t.cp, t.dp, t.msca) == (4, 3, 2, 1, "Sport")
    assert learning_accuracy(SPORT, "Premier League", "Tennis") == pytest.approx(2 / 4)
    # the other way round: FP = 4, DP = 2 -> 2 / 6 (LA is asymmetric)
    assert learning_accuracy(SPORT, "Tennis", "Premier League") == pytest.approx(2 / 6)
    # any ancestor of the key, the root included, scores 1
    for r in ("Football", "Sport", "root"):
        assert learning_accuracy(SPORT, "Premier League", r) == 1.0
    assert learning_accuracy(SPORT, "Premier League", "Premier League") == 1.0
    assert la_terms(SPORT, "World Cup", "World Cup").fp == 0
    # different top branches: CP = 1 (the root), FP = 3, DP = 2
    assert learning_accuracy(SPORT, "Tennis", "Elections") == pytest.approx(1 / 5)


def test_bdm_by_hand():
    # n0 = 13/5, mean branching 9/5
    t = bdm_terms(SPORT, "Premier League", "Tennis")
    assert (t.cp, t.dpk, t.dpr, t.msca) == (1, 2, 1, "Sport")
    assert (t.n0, t.n2, t.n3) == (pytest.approx(2.6), pytest.approx(3.0), pytest.approx(2.0))
    # BR: Sport (3 children) and Football (2), strictly between Sport and the key: mean 2.5 over 9/5
    assert t.br == pytest.approx(Fraction(5, 2) / Fraction(9, 5))
    # v = 125/234; BDM = v / (v + 2/3 + 1/2) = 125/398
    assert bdm(SPORT, "Premier League", "Tennis") == pytest.approx(125 / 398, abs=1e-14)
    assert bdm(SPORT, "Tennis", "Premier League") == pytest.approx(125 / 398, abs=1e-14)
    # inner node as key: n2 is the full chain length through Football (3), not its depth (2)
    t = bdm_terms(SPORT, "Football", "Marathon")
    assert (t.cp, t.dpk, t.dpr, t.n2, t.n3) == (1, 1, 2, 3.0, 3.0)
    assert t.br == pytest.approx((3 + 1) / 2 / 1.8)  # Sport and Athletics
    assert bdm(SPORT, "Football", "Marathon") == pytest.approx(50 / 167, abs=1e-14)
    # key an ancestor of the response: DPK = 0, only the MSCA in BR
    t = bdm_terms(SPORT, "Football", "World Cup")
    assert (t.cp, t.dpk, t.dpr) == (2, 0, 1) and t.br == pytest.approx(2 / 1.8)
    assert bdm(SPORT, "Tennis", "Elections") == 0.0
    assert bdm(SPORT, "root", "Sport") == 0.0
    assert bdm(SPORT, "Sport", "Sport") == 1.0


def test_bdm_dag_takes_best_chain_pair():
    t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a", "x": ["a1", "b"], "y": "b"})
    # via a1 the pair (x, a2) meets at a (CP = 1); via b it meets only at the root (0)
    assert bdm(t, "x", "a2") > 0
    assert bdm(t, "x", "a2") == pytest.approx(gate_bdm_all(t)["x", "a2"])
    assert bdm(t, "x", "y") == pytest.approx(gate_bdm_all(t)["x", "y"]) and bdm(t, "x", "y") > 0


# --------------------------------------------------------------------------- cross-checks on random trees
def test_bdm_equals_gate_port_on_random_trees_and_dags():
    rng = np.random.default_rng(0)
    for trial in range(60):
        t = random_tree(rng, int(rng.integers(2, 16)), dag=trial % 2 == 1)
        ref = gate_bdm_all(t)
        M = bdm_matrix(t)
        for (a, b), value in ref.items():
            assert bdm(t, a, b) == pytest.approx(value, abs=1e-12), (trial, a, b)
            assert M.loc[a, b] == pytest.approx(value, abs=1e-12), (trial, a, b)


def test_bdm_matrix_equals_pairwise_on_random_trees():
    rng = np.random.default_rng(1)
    for trial in range(40):
        t = random_tree(rng, int(rng.integers(2, 40)), dag=trial % 3 == 0)
        labels = list(rng.permutation(t.labels)[: int(rng.integers(1, len(t) + 1))])
        M = bdm_matrix(t, labels=labels, block_rows=int(rng.integers(1, 9)))
        P = pairwise_matrix(t, bdm, labels=labels)
        assert list(M.index) == labels and list(M.columns) == labels
        np.testing.assert_allclose(M.to_numpy(), P.to_numpy(), atol=1e-12)


def test_bdm_pairs_equal_the_matrix_and_the_definition_on_random_trees_and_dags():
    """The pair path (what ``labelrank score`` uses) against bdm_matrix and the per-pair definition."""
    rng = np.random.default_rng(11)
    for trial in range(60):
        t = random_tree(rng, int(rng.integers(1, 60)), dag=trial % 3 == 0)
        M = bdm_matrix(t)
        labels = np.array(t.labels)
        keys = rng.choice(labels, size=50)
        responses = np.where(rng.random(50) < 0.1, keys, rng.choice(labels, size=50))
        got = bdm_pairs(t, keys, responses)
        assert got.tolist() == [M.loc[k, r] for k, r in zip(keys, responses)]  # bit for bit
        np.testing.assert_allclose(got, [bdm(t, k, r) for k, r in zip(keys, responses)], atol=1e-12)
        # integer label indices, any shape
        idx = BDMIndex(t)
        ki = np.array([t.index(k) for k in keys]).reshape(5, 10)
        ri = np.array([t.index(r) for r in responses]).reshape(5, 10)
        assert idx.pairs(ki, ri).reshape(-1).tolist() == got.tolist()


def test_bdm_pairs_on_a_deep_chain_and_bad_input():
    parents = {"n0": None, **{f"n{i}": f"n{i - 1}" for i in range(1, 40)}, "x": "n20"}
    t = LabelTree.from_parents(parents)
    assert bdm_pairs(t, ["n39", "x"], ["x", "x"]).tolist() == pytest.approx([bdm(t, "n39", "x"), 1.0])
    with pytest.raises(ValueError, match="'nope'"):
        bdm_pairs(t, ["nope"], ["x"])
    with pytest.raises(ValueError, match="same shape"):
        bdm_pairs(t, ["x", "n1"], ["x"])
    with pytest.raises(ValueError, match="label index 41, outside 0 .. 40"):
        BDMIndex(t).pairs(np.array([41]), np.array([0]))
    assert bdm_pairs(t, [], []).shape == (0,)


def test_path_distance_equals_graph_bfs():
    import scipy.sparse as sp
    from scipy.sparse.csgraph import shortest_path

    rng = np.random.default_rng(2)
    for trial in range(20):
        t = random_tree(rng, int(rng.integers(2, 25)), dag=trial % 2 == 1)
        idx = {x: i for i, x in enumerate(t.labels)}
        rows = [idx[x] for x in t for _ in t.parents(x)]
        cols = [idx[p] for x in t for p in t.parents(x)]
        A = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(t), len(t)))
        D = shortest_path(A, directed=False, unweighted=True)
        assert pairwise_matrix(t, path_distance).to_numpy().tolist() == D.tolist()


# ------------------------------------------------------------------------------------------- properties
@settings(max_examples=80, deadline=None)
@given(trees(dag=True))
def test_bdm_properties(t):
    M = bdm_matrix(t)
    vals = M.to_numpy()
    assert ((vals >= 0) & (vals <= 1)).all()
    np.testing.assert_allclose(vals, vals.T, atol=1e-12)
    for a in t:
        for b in t:
            v = M.loc[a, b]
            if a == b:
                assert v == 1.0
                continue
            assert v < 1.0
            # 0 exactly when every pair of chains meets only at the root
            only_root = all(ca[:2] != cb[:2] or len(ca) < 2 for ca in t.chains(a) for cb in t.chains(b))
            assert (v == 0.0) == only_root


@settings(max_examples=60, deadline=None)
@given(trees())
def test_tree_costs_properties(t):
    for a in t:
        for b in t:
            d = path_distance(t, a, b)
            assert d == path_distance(t, b, a)
            (m,) = t.lowest_common_ancestors(a, b)
            assert d == t.depth(a) + t.depth(b) - 2 * t.depth(m)
            assert common_ancestor_height(t, a, b) == (0 if a == b else t.height(m))
            if a != b:
                assert (bdm(t, a, b) == 0.0) == (m == t.root)


# -------------------------------------------------------------------------------------------- bad input
def test_bad_input_raises():
    with pytest.raises(TypeError, match="tree must be a labelrank.hierarchy.LabelTree"):
        bdm({"r": None}, "r", "r")
    with pytest.raises(ValueError, match="key 'Golf' is not a label"):
        bdm(SPORT, "Golf", "Tennis")
    with pytest.raises(ValueError, match="response 'Golf' is not a label"):
        learning_accuracy(SPORT, "Tennis", "Golf")
    with pytest.raises(TypeError, match="response must be a label"):
        path_distance(SPORT, "Tennis", 3)
    with pytest.raises(ValueError, match="'Golf' is not a label"):
        bdm_matrix(SPORT, labels=["Tennis", "Golf"])
    with pytest.raises(ValueError, match=r"labels must not repeat.*'Tennis'"):
        bdm_matrix(SPORT, labels=["Tennis", "Tennis"])
    with pytest.raises(TypeError, match="single string"):
        bdm_matrix(SPORT, labels="Tennis")
    # check_positive_int's wording, shared by every integer parameter (was "block_rows must be a positive integer")
    with pytest.raises(ValueError, match="block_rows must be >= 1, got 0"):
        bdm_matrix(SPORT, block_rows=0)
    with pytest.raises(TypeError, match="block_rows must be an integer, got 2.5"):  # a wrong type is a TypeError
        bdm_matrix(SPORT, block_rows=2.5)
    with pytest.raises(TypeError, match="func must be callable"):
        pairwise_matrix(SPORT, "bdm")


def test_single_node_tree():
    t = LabelTree.from_parents({"only": None})
    assert bdm(t, "only", "only") == 1.0 and learning_accuracy(t, "only", "only") == 1.0
    assert bdm_matrix(t).to_numpy().tolist() == [[1.0]]
