"""Li et al. (2007): the criteria a cost must meet, the complete tree's closed form, Table 1 as transcribed
and as reconstructed from Figure 1 (``labelrank.studies.li2007.criteria`` and ``.reconstruct``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from labelrank.cost import (
    bdm_terms,
    learning_accuracy,
)
from labelrank.hierarchy import LabelTree
from labelrank.paths import data_dir
from labelrank.studies.li2007.criteria import COSTS, check_criteria, complete_tree
from labelrank.studies.li2007.reconstruct import (
    TABLE1_LABELS,
    Figure1Shape,
    compare_table1,
    element_topologies,
    paper_table1,
    relaxation_bound,
    search_figure1,
)
from labelrank.studies.paper import load
from support import trees


@settings(max_examples=80, deadline=None)
@given(trees(dag=True))
def test_learning_accuracy_and_cost_properties(t):
    for a in t:
        for b in t:
            la = learning_accuracy(t, a, b)
            assert 0 < la <= 1
            if b in t.ancestors(a) or a == b:
                assert la == 1.0
    for name, cost in COSTS.items():
        for a in t:
            assert cost(t, a, a) == 0, name


# --------------------------------------------------------------------------------------------- criteria
def test_criteria_verdicts():
    verdict, details = check_criteria()
    claims = load("li2007_criteria_claims", index_col=0)
    assert list(verdict.index) == list(claims.index)
    main = verdict[["1", "2", "3", "4"]]
    # where our executable criteria agree with the seed's claims, and the one cell where they do not
    disagree = [(c, k) for c in main.index for k in main.columns if bool(main.loc[c, k]) != bool(claims.loc[c, k])]
    assert disagree == [("Learning Accuracy", "1")]
    assert verdict.loc["BDM"].tolist() == [True, True, True, True, False]
    lost = details[(details.cost == "Learning Accuracy") & (details.criterion == "1") & ~details.passed]
    assert lost["case"].tolist() == ["key one level deeper below the same MSCA"]


def test_complete_tree_bdm_closed_form():
    # in a complete tree BR = 1 and n0 = n2 = n3, so BDM = CP / (CP + DPK + DPR)
    t = complete_tree(3, 4)
    for a, b in [("000", "011"), ("0000", "0111"), ("0", "0121"), ("012", "2")]:
        terms = bdm_terms(t, a, b)
        assert terms.value == pytest.approx(terms.cp / (terms.cp + terms.dpk + terms.dpr))
    with pytest.raises(ValueError, match="branching"):
        complete_tree(0, 2)
    with pytest.raises(ValueError, match="branching must be <= 10"):
        complete_tree(11, 2)
    with pytest.raises(TypeError, match="branching must be an integer, got True"):  # True used to pass as 1
        complete_tree(True, 2)
    with pytest.raises(TypeError, match="depth must be an integer, got False"):
        complete_tree(2, False)
    with pytest.raises(ValueError, match="depth must be >= 0, got -1"):
        complete_tree(2, -1)
    assert complete_tree(np.int64(2), np.int64(1)).labels == ("r", "0", "1")


# ------------------------------------------------------------------------------------- Table 1 (seed 000)
def test_table1_transcription():
    table = paper_table1()
    assert list(table.index) == list(TABLE1_LABELS)
    np.testing.assert_array_equal(table.to_numpy(), table.to_numpy().T)
    assert (np.diag(table.to_numpy()) == 1).all() and (table.loc["BA"].drop("BA") == 0).all()


def test_stored_figure1_reproduces_table1():
    tree = LabelTree.from_file(data_dir() / "fterm" / "2C088_figure1.yaml")
    comp = compare_table1(tree)
    assert len(comp) == 21
    assert comp["abs_diff"].max() < 0.005  # every entry rounds to the paper's two decimals
    assert (comp["ours"].round(2) == comp["paper"]).all()


def test_search_scores_match_the_library_and_find_a_close_tree():
    res = search_figure1(restarts=1, seed=3, max_viewpoints=8, max_elements=60)
    best = res.iloc[0]
    tree = best["shape"].tree()
    assert compare_table1(tree)["abs_diff"].max() == pytest.approx(best["max_abs_diff"], abs=1e-12)
    assert best["max_abs_diff"] < 0.03
    # check_positive_int's wording (was "restarts must be a positive integer")
    with pytest.raises(ValueError, match="restarts must be >= 1, got 0"):
        search_figure1(restarts=0)
    with pytest.raises(TypeError, match="restarts must be an integer, got True"):
        search_figure1(restarts=True)
    with pytest.raises(ValueError, match=r"floor must lie in \[0.0, 1.0\), got nan"):
        search_figure1(restarts=1, floor=float("nan"))
    with pytest.raises(TypeError, match="floor must be a real number"):
        search_figure1(restarts=1, floor="0.5")
    with pytest.raises(TypeError, match="viewpoints must be an integer"):
        Figure1Shape(viewpoints=2.0)
    with pytest.raises(ValueError, match="bush_size"):
        Figure1Shape(aa01=(1, 1, 0))
    with pytest.raises(ValueError, match="elements"):
        Figure1Shape(viewpoints=3, elements=2)


def test_relaxation_singles_out_the_chain_topology():
    topologies = element_topologies()
    assert len(topologies) == 125  # Cayley: 5^(5-2) trees on 5 labelled nodes rooted at AA
    chain = {"AA01": "AA", "AA65": "AA", "AA02": "AA01", "AA03": "AA02"}
    siblings = {"AA01": "AA", "AA65": "AA", "AA02": "AA01", "AA03": "AA01"}
    bound_chain, sol = relaxation_bound(chain, starts=4)
    bound_siblings, _ = relaxation_bound(siblings, starts=4)
    assert bound_chain < 0.005 < 0.02 < bound_siblings
    # the bound is a lower bound: the stored tree cannot beat it
    tree = LabelTree.from_file(data_dir() / "fterm" / "2C088_figure1.yaml")
    assert compare_table1(tree)["abs_diff"].max() >= bound_chain - 1e-9
    assert set(sol) == {f"{q}_{n}" for q in "XL" for n in ("AA", "AA01", "AA65", "AA02", "AA03")}


def test_compare_table1_frame():
    tree = LabelTree.from_file(data_dir() / "fterm" / "2C088_figure1.yaml")
    comp = compare_table1(tree)
    assert list(comp.columns) == ["key", "response", "paper", "ours", "abs_diff"]
    assert isinstance(comp, pd.DataFrame)
    assert comp.set_index(["key", "response"]).loc[("AA", "BA"), "ours"] == 0.0
