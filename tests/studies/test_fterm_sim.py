"""Tests of labelrank.studies.li2007.fterm_sim: the synthetic F-term theme, simulated patents and the family of
simulated runs."""

from __future__ import annotations

import dataclasses
import doctest
import hashlib
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from labelrank.cost import bdm_matrix
from labelrank.hierarchy import LabelTree
from labelrank.metrics.cost_precision import a_precision
from labelrank.metrics.cost_scorer import CostScorer
from labelrank.studies.li2007 import fterm_sim as fs

SMALL = fs.ThemeSpec(n_viewpoints=5, mean_elements=12)


@pytest.fixture(scope="module")
def small_task():
    return fs.simulate_task(120, seed=3, theme=SMALL)


def test_doctests():
    result = doctest.testmod(fs)
    assert result.attempted >= 6 and result.failed == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 30), st.floats(3, 40), st.integers(0, 4))
def test_code_lists_are_valid_jpo_style_lists(seed, n_vp, mean_el, max_dots):
    spec = fs.ThemeSpec(n_viewpoints=n_vp, mean_elements=mean_el, max_dots=max_dots)
    codes = fs.synthetic_fterm_codes(spec, seed)
    assert codes == fs.synthetic_fterm_codes(spec, seed)  # seeded
    viewpoints = [c for c, _ in codes if len(c) == 2]
    assert len(viewpoints) == n_vp and len(set(viewpoints)) == n_vp
    assert len({c for c, _ in codes}) == len(codes)
    prev = {}
    for code, dots in codes:
        assert 0 <= dots <= max_dots
        if len(code) == 4:
            assert re.fullmatch(r"[A-Z]{2}\d{2}", code)
            assert dots <= prev.get(code[:2], -1) + 1  # at most one level deeper than the element before
            prev[code[:2]] = dots
    tree = LabelTree.from_fterms("9Z999", codes)  # raises if a sub-element had no parent
    for code, dots in codes:
        if len(code) == 4:
            assert tree.depth(code) == 2 + dots


def test_theme_shape_and_elements():
    tree = fs.synthetic_theme(seed=0)
    el = fs.fterm_elements(tree)
    assert tree.root == "9Z999" and len(tree.children("9Z999")) == fs.ThemeSpec().n_viewpoints
    assert 150 <= len(el) <= 800  # a few hundred F-terms, like a real theme
    assert all(re.fullmatch(r"[A-Z]{2}\d{2}", tree.labels[i]) for i in el)
    assert tree.max_depth >= 4  # viewpoint + element + dot levels


def _within_viewpoint_similarity(T, S, labels):
    return np.mean([S[a, b] for row in T for r in [row[row >= 0]] for i, a in enumerate(r) for b in r[i + 1:]
                    if labels[a][:2] == labels[b][:2]])


def test_patents_are_clustered_elements(small_task):
    task = small_task
    el = set(fs.fterm_elements(task.tree).tolist())
    n_true = []
    for row in task.truth:
        row = row[row >= 0]
        n_true.append(len(row))
        assert len(set(row.tolist())) == len(row) and set(row.tolist()) <= el
    assert 2 <= np.mean(n_true) <= 10 and max(n_true) > 1
    # a patent's F-terms of one viewpoint cluster around a focus: closer than drawn uniformly (concentration 0)
    S, labels = task.similarity.to_numpy(), task.tree.labels
    clustered = fs.simulate_patents(task.tree, task.similarity, 300, seed=1)
    uniform = fs.simulate_patents(task.tree, task.similarity, 300, seed=1, concentration=0.0)
    assert _within_viewpoint_similarity(clustered, S, labels) > _within_viewpoint_similarity(uniform, S, labels) + 0.04


def test_run_family_mirrors_the_seed():
    specs = fs.run_family(0)
    assert len(specs) == 43 and len({s.name for s in specs}) == 43
    counts = {team: sum(s.team == team for s in specs) for team, *_ in fs.TEAMS}
    assert counts == {"G": 4, "J": 2, "N": 2, "I": 5, "U": 6, "R": 24}
    hier = [s.name for s in specs if s.kind == "hierarchical"]
    assert hier == ["G-01", "G-02"]
    assert fs.run_family(0) == specs and fs.run_family(1) != specs


def test_runs_are_well_formed(small_task):
    task = small_task
    el = set(fs.fterm_elements(task.tree).tolist())
    assert len(task.runs) == 43
    for run in task.runs[:10]:
        assert run.ranking.shape == (120, min(200, len(el)))
        for r, a in zip(run.ranking, run.assigned):
            assert len(set(r.tolist())) == len(r) and set(r.tolist()) <= el
            a = a[a >= 0]
            assert (a == r[: len(a)]).all()  # the assigned set is a prefix of the ranking (z >= threshold)


def test_seeded_and_reproducible():
    a = fs.simulate_task(30, seed=5, theme=SMALL)
    b = fs.simulate_task(30, seed=5, theme=SMALL)
    c = fs.simulate_task(30, seed=6, theme=SMALL)
    assert (a.truth == b.truth).all() and all((x.ranking == y.ranking).all() for x, y in zip(a.runs, b.runs))
    assert a.truth.shape != c.truth.shape or not (a.truth == c.truth).all()


def _two_systems(task, signal, h_flat, h_hier, seed=0):
    S = task.similarity.to_numpy()
    cand = fs.fterm_elements(task.tree)
    scorer = CostScorer(task.similarity)
    out = []
    for h in (h_flat, h_hier):
        spec = fs.SystemSpec("x", "x", "flat", signal, h, 2.5)
        run = fs.simulate_run(spec, task.truth, S, cand, seed=seed)
        out.append(scorer.score(task.truth, run.ranking, run.assigned))
    return out


def test_closeness_moves_misses_next_to_the_truth(small_task):
    flat, hier = _two_systems(small_task, signal=2.5, h_flat=0.0, h_hier=0.8)
    gain_flat = flat["high"] - flat["binary"]
    gain_hier = hier["high"] - hier["binary"]
    assert (gain_hier > gain_flat + 0.05).all()  # hierarchical systems gain more under BDM
    assert hier.loc["A-Precision", "binary"] < flat.loc["A-Precision", "binary"]  # and make fewer exact matches


def test_signal_raises_the_exact_match_rate(small_task):
    S = small_task.similarity.to_numpy()
    cand = fs.fterm_elements(small_task.tree)
    scorer = CostScorer(small_task.similarity)
    ap = []
    for signal in (0.5, 1.5, 3.0):
        run = fs.simulate_run(fs.SystemSpec("x", "x", "flat", signal, 0.2, 2.5), small_task.truth, S, cand, seed=1)
        ap.append(scorer.score(small_task.truth, run.ranking).loc["A-Precision", "binary"])
    assert ap[0] < ap[1] < ap[2]


def test_evaluate_table(small_task):
    table = small_task.evaluate()
    assert table.shape == (43, 9) and list(table.index[:2]) == ["G-01", "G-02"]
    for m in ("A-Precision", "R-Precision", "F-measure"):
        assert (table[(m, "binary")] <= table[(m, "low")] + 1e-12).all()
        assert (table[(m, "low")] <= table[(m, "high")] + 1e-12).all()
    # one run, one patent, recomputed with the per-document definition
    run = small_task.runs[0]
    labels = small_task.similarity.index
    truth0 = [labels[i] for i in small_task.truth[0] if i >= 0]
    per = CostScorer(small_task.similarity).score(small_task.truth, run.ranking, per_document=True)
    assert per.iloc[0][("A-Precision", "low")] == pytest.approx(
        a_precision(truth0, [labels[i] for i in run.ranking[0]], small_task.similarity, "low"))
    assert small_task.specs.loc["G-01", "closeness"] == 0.8


def test_neighbourhood_is_the_best_similarity_to_a_true_term(small_task):
    S = small_task.similarity.to_numpy()
    cand = fs.fterm_elements(small_task.tree)
    nbr = fs.neighbourhood(small_task.truth[:20], S, cand)
    for d in range(20):
        row = small_task.truth[d][small_task.truth[d] >= 0]
        np.testing.assert_allclose(nbr[d], S[np.ix_(cand, row)].max(axis=1))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: fs.ThemeSpec(n_viewpoints=0), ValueError, "n_viewpoints must be >= 1"),
        (lambda: fs.ThemeSpec(mean_elements=1), ValueError, "mean_elements must lie in"),
        (lambda: fs.ThemeSpec(p_deeper=0.8, p_shallower=0.5), ValueError, "p_deeper \\+ p_shallower"),
        (lambda: fs.synthetic_fterm_codes("spec"), TypeError, "spec must be a ThemeSpec"),
        # a negative integer has the right type and a wrong value: ValueError (the test used to lock in TypeError)
        (lambda: fs.synthetic_fterm_codes(SMALL, seed=-1), ValueError, "seed must be >= 0, got -1"),
        (lambda: fs.synthetic_fterm_codes(SMALL, seed=1.5), TypeError, "seed must be an integer"),
        (lambda: fs.simulate_task(5, seed=True), TypeError, "seed must be an integer"),
        (lambda: fs.ThemeSpec(viewpoints_per_group=27), ValueError, "viewpoints_per_group must be <= 26"),
        (lambda: fs.ThemeSpec(n_viewpoints=30, viewpoints_per_group=1), ValueError,
         "n_viewpoints must be <= 26 \\* viewpoints_per_group.*n_viewpoints=30 and viewpoints_per_group=1"),
        (lambda: fs.ThemeSpec(n_viewpoints=105), ValueError, "n_viewpoints=105 and viewpoints_per_group=4"),
        (lambda: fs.ThemeSpec(p_deeper="0.3"), TypeError, "p_deeper must be a real number"),
        (lambda: fs.ThemeSpec(mean_elements=np.nan), ValueError, "mean_elements must lie in"),
        (lambda: fs.SystemSpec("x", "x", "deep", 1.0, 0.5, 2.0), ValueError, "kind must be"),
        (lambda: fs.SystemSpec("x", "x", "flat", 1.0, 1.5, 2.0), ValueError, "closeness must lie in"),
        (lambda: fs.fterm_elements(LabelTree.from_parents({"r": None, "a": "r"})), ValueError, "no F-term element"),
        (lambda: fs.simulate_task(0), ValueError, "n_patents must be >= 1"),
    ],
)
def test_validation(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_simulate_patents_checks_the_similarity():
    tree = fs.synthetic_theme(SMALL, seed=0)
    S = bdm_matrix(tree)
    with pytest.raises(ValueError, match="indexed by tree.labels"):
        fs.simulate_patents(tree, S.iloc[::-1, ::-1], 5)
    with pytest.raises(TypeError, match="similarity must be a DataFrame"):
        fs.simulate_patents(tree, S.to_numpy(), 5)
    spec = dataclasses.replace(fs.run_family(0)[0], signal=1.0)
    with pytest.raises(TypeError, match="spec must be a SystemSpec"):
        fs.simulate_run(vars(spec), np.zeros((1, 1), int), S.to_numpy(), fs.fterm_elements(tree), seed=0)


@pytest.mark.parametrize(
    "spec",
    [
        fs.ThemeSpec(n_viewpoints=100, mean_elements=4),  # needed 26 letters of 4 viewpoints nearly every time
        fs.ThemeSpec(n_viewpoints=104, mean_elements=4),  # every letter full
        fs.ThemeSpec(n_viewpoints=26, viewpoints_per_group=1, mean_elements=4),
        fs.ThemeSpec(n_viewpoints=30, viewpoints_per_group=26, mean_elements=4),
        fs.ThemeSpec(n_viewpoints=676, viewpoints_per_group=26, mean_elements=3),
    ],
)
def test_every_accepted_theme_spec_gives_a_code_list(spec):
    """Specs ThemeSpec accepts used to crash with an IndexError when the 26 first letters ran out."""
    for seed in range(3):
        codes = fs.synthetic_fterm_codes(spec, seed)
        viewpoints = [c for c, _ in codes if len(c) == 2]
        assert len(viewpoints) == len(set(viewpoints)) == spec.n_viewpoints
        assert all(re.fullmatch("[A-Z]{2}", vp) for vp in viewpoints)
        counts = {}
        for vp in viewpoints:
            counts[vp[0]] = counts.get(vp[0], 0) + 1
        assert max(counts.values()) <= spec.viewpoints_per_group
        LabelTree.from_fterms("9Z999", codes)


@pytest.mark.parametrize(
    "spec, digest",
    [
        (fs.ThemeSpec(), "612cbcdf6f28b2019b7211e376c2d75fcc843442bf54e7884c622e8c3fb8d2c4"),
        (SMALL, "19cf739ded693000dd514fdeb6f15c0bf66ba1272afda61e3e7903928c83f227"),
    ],
)
def test_codes_of_specs_that_always_fitted_are_unchanged(spec, digest):
    """A group is enlarged only when the letters left could not hold the rest, so a spec that never ran out of
    letters keeps the code list it had before (digests of the lists the book was built with, seed 0)."""
    codes = fs.synthetic_fterm_codes(spec, 0)
    assert hashlib.sha256(repr(codes).encode()).hexdigest() == digest


def test_similarity_checks_are_those_of_cost_scorer():
    """simulate_patents checks the similarity's values as CostScorer does, not only the label order."""
    tree = fs.synthetic_theme(SMALL, seed=0)
    S = bdm_matrix(tree)
    bad = S.copy()
    bad.iloc[1, 2] = 1.5
    with pytest.raises(ValueError, match="similarity must lie in \\[0, 1\\]"):
        fs.simulate_patents(tree, bad, 5)
    bad = S.copy()
    bad.iloc[3, 3] = 0.5
    with pytest.raises(ValueError, match="similarity of a label with itself must be 1"):
        fs.simulate_patents(tree, bad, 5)
    bad = S.copy()
    bad.iloc[0, 1] = np.nan
    with pytest.raises(ValueError, match="similarity must lie in"):
        fs.simulate_patents(tree, bad, 5)


def test_simulate_run_and_neighbourhood_check_their_arrays(small_task):
    S = small_task.similarity.to_numpy()
    cand = fs.fterm_elements(small_task.tree)
    truth = small_task.truth
    spec = fs.run_family(0)[0]
    n = S.shape[0]
    cases = [
        (dict(truth=truth[0]), TypeError, "truth must be a 2-D integer array"),
        (dict(truth=truth.astype(float)), TypeError, "truth must be a 2-D integer array"),
        (dict(truth=np.where(truth == truth[0, 0], n, truth)), ValueError,
         f"truth must hold label indices in \\[-1, {n - 1}\\].*got {n}"),
        (dict(truth=np.full_like(truth, -2)), ValueError, "truth must hold label indices .* got -2"),
        (dict(S=S[:, :-1]), ValueError, "S must be a square numeric matrix"),
        (dict(S=np.where(np.eye(n, dtype=bool), np.nan, S)), ValueError, "S must be finite"),
        (dict(candidates=cand[None, :]), TypeError, "candidates must be a 1-D integer array"),
        (dict(candidates=np.r_[cand, -1]), ValueError, "candidates must hold label indices in \\[0,"),
        (dict(candidates=np.r_[cand, cand[:1]]), ValueError, "candidates must not repeat"),
        (dict(candidates=cand[:0]), ValueError, "candidates must not be empty"),
    ]
    for change, error, message in cases:
        args = {"truth": truth, "S": S, "candidates": cand, **change}
        with pytest.raises(error, match=message):
            fs.neighbourhood(args["truth"], args["S"], args["candidates"])
        with pytest.raises(error, match=message):
            fs.simulate_run(spec, args["truth"], args["S"], args["candidates"], seed=0)
    with pytest.raises(ValueError, match="nbr must have shape"):
        fs.simulate_run(spec, truth, S, cand, seed=0, nbr=np.zeros((len(truth), len(cand) - 1)))
    run = fs.simulate_run(spec, truth.tolist(), S, cand.tolist(), seed=0)  # lists of integers are accepted
    np.testing.assert_array_equal(run.ranking, fs.simulate_run(spec, truth, S, cand, seed=0).ranking)
