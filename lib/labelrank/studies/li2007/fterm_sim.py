r"""A simulated NTCIR-6 F-term classification task: a synthetic theme, patents, and a family of 43 systems.

The runs submitted to the NTCIR-6 patent classification subtask are not public, so Li, Bontcheva & Cunningham's
(2007) comparison of binary and BDM scores cannot be recomputed. This module simulates it, keeping the structure of
the task and changing only what is unavailable:

* :func:`synthetic_fterm_codes` / :func:`synthetic_theme` -- an F-term theme: viewpoints (``AA``, ``AB``, ...,
  ``BA``, ...) grouped by first letter, each with a list of elements ``AA01``, ``AA02``, ... whose dot levels
  (0-3) nest sub-elements under elements, read into a :class:`~labelrank.hierarchy.LabelTree` with
  :meth:`~labelrank.hierarchy.LabelTree.from_fterms` (the root is the theme, as in the paper's Figure 1);
* :func:`simulate_patents` -- patents with several true F-terms, drawn in one to a few viewpoints and clustered
  in the tree around a focus F-term (real F-term assignments describe a few aspects, each with related codes);
* :func:`run_family` and :func:`simulate_run` -- systems that score every F-term of the theme as

  .. math:: z_{d,l} = a \bigl( (1 - h)\, y_{d,l} + h \max_{G \in T^*_d} s(l, G) \bigr) + \varepsilon_{d,l},
            \qquad \varepsilon_{d,l} \sim N(0, 1),

  where :math:`y_{d,l} = 1` for a true F-term, :math:`s` is the BDM, the *signal* :math:`a` sets how often the
  true F-terms come first (the exact-match rate) and the *closeness* :math:`h \in [0, 1]` how much of the evidence
  is spread from each true F-term to its neighbours in the tree: :math:`h = 0` is a flat classifier whose misses
  are wherever the noise puts them, a large :math:`h` a hierarchical one whose misses sit next to the true F-terms
  (the seed's GATE-01/02 against GATE-03/04). A run ranks the 200 best F-terms by :math:`z` and assigns those with
  :math:`z \ge` its threshold;
* :func:`simulate_task` -- all of it at once, seeded: a :class:`SimulatedTask`;
* :func:`kendall_table` and :func:`top_runs` -- the seed's Tables 2 and 3 computed from the runs' scores
  (:meth:`SimulatedTask.evaluate`); :func:`book_n_patents` is the number of patents the book simulates.

Everything is seeded (``numpy.random.default_rng``) and vectorised over patents and F-terms.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats

from labelrank.validation import describe_value, check_choice, check_positive_int, check_real
from labelrank.parameters import SEED
from labelrank.cost import bdm_matrix
from labelrank.hierarchy import LabelTree
from labelrank.metrics.cost_precision import check_similarity
from labelrank.metrics.cost_scorer import CostScorer
from labelrank.protocol.profile import resolve

__all__ = [
    "ThemeSpec",
    "SystemSpec",
    "SimulatedRun",
    "SimulatedTask",
    "TEAMS",
    "synthetic_fterm_codes",
    "synthetic_theme",
    "fterm_elements",
    "simulate_patents",
    "run_family",
    "simulate_run",
    "simulate_task",
    "MEASURES",
    "VARIANT_NAMES",
    "book_n_patents",
    "kendall_table",
    "top_runs",
]

_ELEMENT = re.compile(r"^[A-Z]{2}\d{2}$")


def _check_unit(value: object, name: str, low: float = 0.0, high: float = 1.0) -> float:
    return check_real(value, name, low=low, high=high)


# ------------------------------------------------------------------------------------------------------ a theme
@dataclass(frozen=True)
class ThemeSpec:
    """Shape of a synthetic F-term theme.

    Attributes
    ----------
    n_viewpoints : int
        Number of viewpoints (``AA``, ``AB``, ...).
    mean_elements : float
        Mean number of elements per viewpoint (geometric around it, at least 3, at most 99).
    max_dots : int
        Deepest dot level of a sub-element (0 = elements only).
    p_deeper, p_shallower : float
        Probability that the next element of a list goes one dot level deeper, or back up to a shallower level.
    viewpoints_per_group : int
        At most this many viewpoints share a first letter (``AA``-``AD``, then ``BA``, ...); at most 26.

    The 26 first letters must hold every viewpoint: ``n_viewpoints <= 26 * viewpoints_per_group``.
    """

    n_viewpoints: int = 14
    mean_elements: float = 28.0
    max_dots: int = 3
    p_deeper: float = 0.35
    p_shallower: float = 0.3
    viewpoints_per_group: int = 4

    def __post_init__(self) -> None:
        check_positive_int(self.n_viewpoints, "n_viewpoints")
        check_positive_int(self.viewpoints_per_group, "viewpoints_per_group")
        check_positive_int(self.max_dots, "max_dots", minimum=0)
        _check_unit(self.mean_elements, "mean_elements", 3.0, 99.0)
        _check_unit(self.p_deeper, "p_deeper")
        _check_unit(self.p_shallower, "p_shallower")
        if self.p_deeper + self.p_shallower > 1:
            raise ValueError(f"p_deeper + p_shallower must be <= 1, got {self.p_deeper} + {self.p_shallower}")
        if self.viewpoints_per_group > 26:
            raise ValueError(
                f"viewpoints_per_group must be <= 26 (second letters A-Z), got {self.viewpoints_per_group}"
            )
        if self.n_viewpoints > 26 * self.viewpoints_per_group:
            raise ValueError(
                f"n_viewpoints must be <= 26 * viewpoints_per_group (26 first letters A-Z with at most "
                f"viewpoints_per_group viewpoints each), got n_viewpoints={self.n_viewpoints} and "
                f"viewpoints_per_group={self.viewpoints_per_group}"
            )


def synthetic_fterm_codes(spec: ThemeSpec = ThemeSpec(), seed: int = 0) -> list[tuple[str, int]]:
    """The code list of a synthetic theme: ``(code, dots)`` pairs in list order, ready for ``from_fterms``.

    Viewpoints are filled group by group (first letter ``A``, ``B``, ...; 1 to ``viewpoints_per_group`` per
    group, drawn uniformly, but never so few that the letters left could not hold the remaining viewpoints).
    A viewpoint has ``3 + Geometric`` elements numbered ``01``, ``02``, ...; along the list the dot level
    goes one deeper with probability ``p_deeper`` (up to ``max_dots``), back to a random shallower level with
    probability ``p_shallower``, and otherwise stays, so every sub-element has a parent one level up.

    Parameters
    ----------
    spec : ThemeSpec
    seed : int

    Returns
    -------
    list of (str, int)
        The viewpoint headings (``("AA", 0)``) followed by their elements.

    Examples
    --------
    >>> codes = synthetic_fterm_codes(ThemeSpec(n_viewpoints=2, mean_elements=4), seed=1)
    >>> codes[0], codes[1]
    (('AA', 0), ('AA01', 0))
    """
    if not isinstance(spec, ThemeSpec):
        raise TypeError(f"spec must be a ThemeSpec, got {describe_value(spec)}")
    rng = np.random.default_rng(SEED.check(seed, "seed"))
    viewpoints: list[str] = []
    letters = string.ascii_uppercase
    group = 0
    while len(viewpoints) < spec.n_viewpoints:
        size = int(rng.integers(1, spec.viewpoints_per_group + 1))
        left = spec.n_viewpoints - len(viewpoints)
        # the groups after this one hold at most (25 - group) * viewpoints_per_group viewpoints: take the rest here
        size = max(size, left - (len(letters) - 1 - group) * spec.viewpoints_per_group)
        for k in range(min(size, left)):
            viewpoints.append(letters[group] + letters[k])
        group += 1
    codes: list[tuple[str, int]] = []
    for vp in viewpoints:
        n = int(min(99, 3 + rng.geometric(1.0 / max(spec.mean_elements - 2.0, 1.0))))
        codes.append((vp, 0))
        dots = 0
        for i in range(1, n + 1):
            if i > 1:
                u = rng.random()
                if u < spec.p_deeper and dots < spec.max_dots:
                    dots += 1
                elif u < spec.p_deeper + spec.p_shallower and dots > 0:
                    dots = int(rng.integers(0, dots))
            codes.append((f"{vp}{i:02d}", dots))
    return codes


def synthetic_theme(spec: ThemeSpec = ThemeSpec(), seed: int = 0, theme: str = "9Z999") -> LabelTree:
    """A synthetic F-term theme as a :class:`~labelrank.hierarchy.LabelTree` (root = ``theme``).

    The default theme code ``9Z999`` is not a JPO theme.

    Examples
    --------
    >>> t = synthetic_theme(ThemeSpec(n_viewpoints=3, mean_elements=5), seed=0)
    >>> t.root, t.children("9Z999")
    ('9Z999', ('AA', 'AB', 'AC'))
    """
    return LabelTree.from_fterms(theme, synthetic_fterm_codes(spec, seed))


def fterm_elements(tree: LabelTree) -> np.ndarray:
    """Indices (into ``tree.labels``) of the assignable F-terms: the element codes such as ``AA01``.

    The theme (root) and the viewpoints (``AA``) are headings; patents and systems use elements only.
    """
    if not isinstance(tree, LabelTree):
        raise TypeError(f"tree must be a LabelTree, got {describe_value(tree)}")
    idx = np.array([i for i, lab in enumerate(tree.labels) if _ELEMENT.match(lab)], dtype=np.int64)
    if idx.size == 0:
        raise ValueError(f"tree has no F-term element labels such as 'AA01': {tree!r}")
    return idx


# ----------------------------------------------------------------------------------------------------- patents
def _viewpoint_of(tree: LabelTree, elements: np.ndarray) -> np.ndarray:
    vps = sorted({tree.labels[i][:2] for i in elements})
    pos = {vp: k for k, vp in enumerate(vps)}
    return np.array([pos[tree.labels[i][:2]] for i in elements])


def simulate_patents(
    tree: LabelTree,
    similarity: pd.DataFrame,
    n_patents: int,
    *,
    seed: int = 0,
    mean_viewpoints: float = 1.8,
    mean_terms_per_viewpoint: float = 2.6,
    concentration: float = 12.0,
) -> np.ndarray:
    r"""True F-terms of simulated patents, clustered in a few viewpoints.

    A patent uses :math:`1 + \text{Poisson}(\text{mean\_viewpoints} - 1)` viewpoints (chosen with probability
    proportional to their size); in each it has :math:`1 + \text{Poisson}(\text{mean\_terms\_per\_viewpoint} - 1)`
    F-terms: a focus element drawn uniformly, then others of the viewpoint drawn without replacement with
    probability :math:`\propto \exp(\text{concentration} \cdot s(\text{focus}, l))`, so that a patent's F-terms
    tend to be near each other in the tree.

    Parameters
    ----------
    tree : LabelTree
        An F-term theme (:func:`synthetic_theme`).
    similarity : pandas.DataFrame
        ``bdm_matrix(tree)`` (labels in the order of ``tree.labels``).
    n_patents : int
    seed : int
    mean_viewpoints, mean_terms_per_viewpoint : float
        Means, at least 1.
    concentration : float
        0 draws a viewpoint's F-terms uniformly; larger values cluster them around the focus.

    Returns
    -------
    numpy.ndarray of int, shape (n_patents, max F-terms)
        Indices into ``tree.labels``, each row padded with -1.
    """
    n_patents = check_positive_int(n_patents, "n_patents")
    rng = np.random.default_rng(SEED.check(seed, "seed"))
    _check_unit(mean_viewpoints, "mean_viewpoints", 1.0, 50.0)
    _check_unit(mean_terms_per_viewpoint, "mean_terms_per_viewpoint", 1.0, 50.0)
    _check_unit(concentration, "concentration", 0.0, 100.0)
    S = _similarity_values(tree, similarity)
    elements = fterm_elements(tree)
    vp = _viewpoint_of(tree, elements)
    members = [elements[vp == k] for k in range(vp.max() + 1)]
    vp_p = np.array([len(m) for m in members], dtype=np.float64)
    vp_p /= vp_p.sum()
    rows: list[list[int]] = []
    for _ in range(n_patents):
        n_vp = min(1 + rng.poisson(mean_viewpoints - 1.0), len(members))
        chosen_vps = rng.choice(len(members), size=n_vp, replace=False, p=vp_p)
        row: list[int] = []
        for k in chosen_vps:
            cand = members[k]
            n_terms = min(1 + rng.poisson(mean_terms_per_viewpoint - 1.0), len(cand))
            focus = cand[rng.integers(len(cand))]
            rest = cand[cand != focus]
            if n_terms > 1:
                w = np.exp(concentration * S[focus, rest])
                row.append(int(focus))
                row.extend(int(x) for x in rng.choice(rest, size=n_terms - 1, replace=False, p=w / w.sum()))
            else:
                row.append(int(focus))
        rows.append(row)
    width = max(len(r) for r in rows)
    out = np.full((n_patents, width), -1, dtype=np.int64)
    for d, r in enumerate(rows):
        out[d, : len(r)] = r
    return out


def _similarity_values(tree: LabelTree, similarity: pd.DataFrame) -> np.ndarray:
    """The values of ``similarity`` after the checks of :class:`CostScorer` (a square DataFrame in [0, 1] with 1
    on the diagonal and no repeated label) and one more: its labels are ``tree.labels``, in that order."""
    if not isinstance(similarity, pd.DataFrame):
        raise TypeError(f"similarity must be a DataFrame (bdm_matrix(tree)), got {describe_value(similarity)}")
    if tuple(similarity.index) != tree.labels or tuple(similarity.columns) != tree.labels:
        raise ValueError("similarity must be indexed by tree.labels, in that order, on both axes (bdm_matrix(tree))")
    _, values = check_similarity(similarity)
    return values


# ------------------------------------------------------------------------------------------------------ systems
@dataclass(frozen=True)
class SystemSpec:
    """One simulated system (run).

    Attributes
    ----------
    name : str
        Run name, e.g. ``"G-01"``.
    team : str
    kind : {"flat", "hierarchical"}
        Descriptive: "hierarchical" for runs whose evidence is spread along the tree (large ``closeness``).
    signal : float
        :math:`a`, the weight of the true F-terms against unit Gaussian noise (higher = more exact matches).
    closeness : float
        :math:`h` in [0, 1], the share of the evidence spread from each true F-term to its neighbours.
    threshold : float
        F-terms with :math:`z \\ge` threshold are assigned (the set behind the F-measure).
    """

    name: str
    team: str
    kind: Literal["flat", "hierarchical"]
    signal: float
    closeness: float
    threshold: float

    def __post_init__(self) -> None:
        if self.kind not in ("flat", "hierarchical"):
            raise ValueError(f"kind must be 'flat' or 'hierarchical', got {self.kind!r}")
        _check_unit(self.signal, "signal", 0.0, 100.0)
        _check_unit(self.closeness, "closeness")
        _check_unit(self.threshold, "threshold", -100.0, 100.0)


#: The seed's 43 runs by team, in the order of its Figure 2 (GATE, JSPAT, NCS, NICT, NUT, RDNDC), with the
#: letter that names the simulated team standing in for each and the ranges its runs' parameters are drawn from:
#: (letter, runs, signal range, closeness range). The GATE stand-in ``G`` is fixed by hand in :func:`run_family`.
TEAMS: tuple[tuple[str, int, tuple[float, float], tuple[float, float]], ...] = (
    ("G", 4, (0.0, 0.0), (0.0, 0.0)),
    ("J", 2, (2.1, 2.3), (0.30, 0.45)),
    ("N", 2, (2.35, 2.40), (0.45, 0.55)),
    ("I", 5, (1.7, 2.25), (0.25, 0.60)),
    ("U", 6, (1.4, 2.1), (0.20, 0.50)),
    ("R", 24, (0.85, 2.1), (0.20, 0.55)),
)


def run_family(seed: int = 0) -> list[SystemSpec]:
    """The 43 simulated systems, named after the seed's team structure (G-01..G-04, J-01, ..., R-24).

    ``G-01`` and ``G-02`` are hierarchical (closeness 0.8 and 0.75, weaker signal: fewer exact matches),
    ``G-03`` and ``G-04`` flat and strong (closeness 0.25, the best signal), mirroring GATE-01/02 versus
    GATE-03/04. The other teams' runs draw signal and closeness uniformly from the ranges in :data:`TEAMS`
    (closeness 0.2-0.6: even a flat classifier's misses lean towards related F-terms, which share vocabulary);
    every run's threshold is drawn from [2.2, 3.0] (higher = fewer F-terms assigned). The magnitudes were chosen
    so that the best runs' binary R-Precision is of the order of the seed's Table 3 (about 0.4-0.5).

    Examples
    --------
    >>> specs = run_family(0)
    >>> len(specs), specs[0].name, specs[0].kind, specs[-1].name
    (43, 'G-01', 'hierarchical', 'R-24')
    """
    rng = np.random.default_rng(SEED.check(seed, "seed"))
    specs = [
        SystemSpec("G-01", "G", "hierarchical", 2.00, 0.80, 2.6),
        SystemSpec("G-02", "G", "hierarchical", 1.95, 0.75, 2.5),
        SystemSpec("G-03", "G", "flat", 2.45, 0.25, 2.6),
        SystemSpec("G-04", "G", "flat", 2.40, 0.25, 2.5),
    ]
    for team, n_runs, (s_lo, s_hi), (h_lo, h_hi) in TEAMS[1:]:
        for r in range(n_runs):
            h = float(rng.uniform(h_lo, h_hi))
            specs.append(
                SystemSpec(
                    name=f"{team}-{r + 1:02d}",
                    team=team,
                    kind="hierarchical" if h >= 0.7 else "flat",
                    signal=float(rng.uniform(s_lo, s_hi)),
                    closeness=h,
                    threshold=float(rng.uniform(2.2, 3.0)),
                )
            )
    return specs


@dataclass
class SimulatedRun:
    """A run: the system and, per patent, its ranked F-terms (best first) and its assigned F-terms.

    ``ranking`` and ``assigned`` are indices into the theme's labels, padded with -1.
    """

    spec: SystemSpec
    ranking: np.ndarray
    assigned: np.ndarray


def _check_index_array(value: object, name: str, ndim: int, n_labels: int, padding: bool) -> np.ndarray:
    """An integer array of label indices in ``0 .. n_labels - 1`` (``-1`` also allowed when ``padding``)."""
    arr = np.asarray(value)
    if arr.ndim != ndim or not (np.issubdtype(arr.dtype, np.integer) and arr.dtype != np.bool_):
        raise TypeError(f"{name} must be a {ndim}-D integer array of label indices, got {describe_value(value)}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    low = -1 if padding else 0
    bad = (arr < low) | (arr >= n_labels)
    if bad.any():
        raise ValueError(f"{name} must hold label indices in [{low}, {n_labels - 1}]"
                         f"{' (-1 = padding)' if padding else ''}, got {arr[bad].flat[0]}")
    return arr.astype(np.int64, copy=False)


def _check_run_inputs(truth: object, S: object, candidates: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate the arrays of :func:`neighbourhood` and :func:`simulate_run` against each other."""
    S_arr = np.asarray(S)
    if S_arr.ndim != 2 or S_arr.shape[0] != S_arr.shape[1] or not np.issubdtype(S_arr.dtype, np.number):
        raise ValueError(f"S must be a square numeric matrix (labels x labels), got {describe_value(S)}")
    S_arr = S_arr.astype(np.float64, copy=False)
    if not np.isfinite(S_arr).all():
        raise ValueError("S must be finite, got NaN or infinite entries")
    n_labels = S_arr.shape[0]
    truth = _check_index_array(truth, "truth", 2, n_labels, padding=True)
    candidates = _check_index_array(candidates, "candidates", 1, n_labels, padding=False)
    if np.unique(candidates).size != candidates.size:
        raise ValueError("candidates must not repeat a label index")
    return truth, S_arr, candidates


def neighbourhood(truth: np.ndarray, S: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    r""":math:`\max_{G \in T^*_d} s(l, G)` for every patent d and candidate label l (1 for a true label).

    Parameters
    ----------
    truth : ndarray of int, shape (n, t), padded with -1
    S : ndarray, the label similarity matrix
    candidates : ndarray of int, the label indices l

    Returns
    -------
    ndarray of shape (n, len(candidates))

    Raises
    ------
    TypeError, ValueError
        For a ``truth`` or ``candidates`` that is not an integer array of the right dimension, an index outside
        ``S`` (``truth`` may hold -1 as padding), a repeated candidate, or an ``S`` that is not square and finite.
    """
    return _neighbourhood(*_check_run_inputs(truth, S, candidates))


def _neighbourhood(truth: np.ndarray, S: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """:func:`neighbourhood` of validated arrays."""
    out = np.zeros((truth.shape[0], len(candidates)))
    for j in range(truth.shape[1]):
        col = truth[:, j]
        ok = col >= 0
        out[ok] = np.maximum(out[ok], S[np.ix_(col[ok], candidates)])
    return out


def simulate_run(
    spec: SystemSpec,
    truth: np.ndarray,
    S: np.ndarray,
    candidates: np.ndarray,
    *,
    seed: int,
    cutoff: int = 200,
    nbr: np.ndarray | None = None,
) -> SimulatedRun:
    r"""One system's output on every patent: :math:`z = a((1-h) y + h\,\mathrm{nbr}) + \varepsilon`.

    Parameters
    ----------
    spec : SystemSpec
    truth : ndarray of int, shape (n, t), padded with -1
    S : ndarray
        Label similarity (BDM) over all labels of the theme.
    candidates : ndarray of int
        The F-terms a system may return (:func:`fterm_elements`).
    seed : int
        Seeds the noise.
    cutoff : int
        Length of each ranked list (200 in NTCIR-6).
    nbr : ndarray, optional
        :func:`neighbourhood` of ``truth`` (pass it when simulating many runs on the same patents).

    Returns
    -------
    SimulatedRun

    Raises
    ------
    TypeError, ValueError
        As :func:`neighbourhood`, and for an ``nbr`` whose shape is not (patents, candidates).
    """
    if not isinstance(spec, SystemSpec):
        raise TypeError(f"spec must be a SystemSpec, got {describe_value(spec)}")
    cutoff = check_positive_int(cutoff, "cutoff")
    rng = np.random.default_rng(SEED.check(seed, "seed"))
    truth, S, candidates = _check_run_inputs(truth, S, candidates)
    if nbr is None:
        nbr = _neighbourhood(truth, S, candidates)
    else:
        nbr = np.asarray(nbr, dtype=np.float64)
        if nbr.shape != (truth.shape[0], len(candidates)):
            raise ValueError(f"nbr must have shape (n_patents, n_candidates) = {(truth.shape[0], len(candidates))}, "
                             f"got {nbr.shape}")
    y = (truth[:, :, None] == candidates[None, None, :]).any(axis=1)
    z = spec.signal * ((1.0 - spec.closeness) * y + spec.closeness * nbr) + rng.standard_normal(nbr.shape)
    k = min(cutoff, len(candidates))
    top = np.argpartition(-z, k - 1, axis=1)[:, :k] if k < len(candidates) else np.tile(np.arange(k), (len(z), 1))
    order = np.argsort(-np.take_along_axis(z, top, axis=1), axis=1, kind="stable")
    top = np.take_along_axis(top, order, axis=1)
    ranking = candidates[top]
    z_top = np.take_along_axis(z, top, axis=1)
    assigned = np.where(z_top >= spec.threshold, ranking, -1)  # z_top is sorted, so -1 only trails
    width = max(int((assigned >= 0).sum(axis=1).max()), 1)
    return SimulatedRun(spec=spec, ranking=ranking, assigned=assigned[:, :width])


# --------------------------------------------------------------------------------------------------- the task
@dataclass
class SimulatedTask:
    """A simulated NTCIR-6-style evaluation: theme, BDM matrix, patents' true F-terms and the runs.

    Attributes
    ----------
    tree : LabelTree
    similarity : pandas.DataFrame
        ``bdm_matrix(tree)``.
    truth : ndarray of int, (n_patents, t), padded with -1
    runs : list of SimulatedRun
    """

    tree: LabelTree
    similarity: pd.DataFrame
    truth: np.ndarray
    runs: list[SimulatedRun] = field(default_factory=list)

    @property
    def specs(self) -> pd.DataFrame:
        """One row per run: team, kind, signal, closeness, threshold."""
        return pd.DataFrame([vars(r.spec) for r in self.runs]).set_index("name")

    def evaluate(self, *, cutoff: int = 200, recall: str = "symmetric", progress: bool = False) -> pd.DataFrame:
        """Mean binary/high/low A-Precision, R-Precision and F-measure of every run.

        Parameters
        ----------
        cutoff : int
            Ranked F-terms beyond this rank are ignored.
        recall : {"symmetric", "binary"}
            The recall behind the F-measure (:func:`labelrank.metrics.set_f_measure`).
        progress : bool
            Show a progress bar over the runs.

        Returns
        -------
        pandas.DataFrame
            One row per run (index = run name); columns a (measure, variant) MultiIndex.
        """
        scorer = CostScorer(self.similarity)
        rows = {}
        runs = self.runs
        if progress:
            from tqdm import tqdm

            runs = tqdm(runs, desc="scoring runs", unit="run")
        for run in runs:
            table = scorer.score(self.truth, run.ranking, run.assigned, cutoff=cutoff, recall=recall)
            rows[run.spec.name] = table.stack()
        out = pd.DataFrame(rows).T
        out.index.name = "run"
        return out


def simulate_task(
    n_patents: int = 1000,
    *,
    seed: int = 0,
    theme: ThemeSpec = ThemeSpec(),
    specs: list[SystemSpec] | None = None,
    cutoff: int = 200,
) -> SimulatedTask:
    """Simulate the whole task: a theme, ``n_patents`` patents, and the runs of ``specs`` (default the 43 of
    :func:`run_family`), everything derived from ``seed``.

    Examples
    --------
    >>> task = simulate_task(20, seed=1, theme=ThemeSpec(n_viewpoints=3, mean_elements=8))
    >>> len(task.runs), task.truth.shape[0]
    (43, 20)
    """
    seed = SEED.check(seed, "seed")
    seeds = np.random.SeedSequence(seed).generate_state(3)
    tree = synthetic_theme(theme, seed=int(seeds[0]))
    similarity = bdm_matrix(tree)
    truth = simulate_patents(tree, similarity, n_patents, seed=int(seeds[1]))
    S = similarity.to_numpy()
    candidates = fterm_elements(tree)
    nbr = neighbourhood(truth, S, candidates)
    specs = run_family(int(seeds[2])) if specs is None else list(specs)
    run_seeds = np.random.SeedSequence([seed, 1]).generate_state(len(specs))
    runs = [
        simulate_run(spec, truth, S, candidates, seed=int(s), cutoff=cutoff, nbr=nbr)
        for spec, s in zip(specs, run_seeds)
    ]
    return SimulatedTask(tree=tree, similarity=similarity, truth=truth, runs=runs)


# ------------------------------------------------------------------------------------- the seed's Tables 2 and 3
#: The three measures of the NTCIR-6 subtask, in the order of the seed's tables.
MEASURES: tuple[str, ...] = ("A-Precision", "R-Precision", "F-measure")
#: Display names of the variants of :meth:`SimulatedTask.evaluate`'s columns.
VARIANT_NAMES: dict[str, str] = {"binary": "binary", "high": "BDM-High", "low": "BDM-Low"}
#: Patents the book simulates under each profile (``LABELRANK_PROFILE``).
_BOOK_N_PATENTS: dict[str, int] = {"quick": 150, "full": 1000}


def book_n_patents(profile: str | None = None) -> int:
    """The number of simulated patents of the book's F-term case study: 1,000 (full profile) or 150 (quick).

    ``profile`` defaults to ``LABELRANK_PROFILE`` (:func:`labelrank.protocol.profile.get_profile`).
    """
    return _BOOK_N_PATENTS[resolve(profile)]


def _check_scores(scores: object) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame) or not isinstance(scores.columns, pd.MultiIndex):
        raise TypeError(f"scores must be the DataFrame of SimulatedTask.evaluate(), got {describe_value(scores)}")
    missing = [(m, v) for m in MEASURES for v in VARIANT_NAMES if (m, v) not in scores.columns]
    if missing:
        raise ValueError(f"scores lacks the columns {missing} (expected SimulatedTask.evaluate()'s)")
    return scores


def kendall_table(scores: pd.DataFrame) -> pd.DataFrame:
    """The seed's Table 2: Kendall's tau between the runs' binary ranking and each BDM ranking, per measure.

    Parameters
    ----------
    scores : pandas.DataFrame
        :meth:`SimulatedTask.evaluate`'s table (one row per run).

    Returns
    -------
    pandas.DataFrame
        Rows ``BDM-High``, ``BDM-Low``; columns :data:`MEASURES`; :func:`scipy.stats.kendalltau` (tau-b).
    """
    scores = _check_scores(scores)
    return pd.DataFrame({
        m: {VARIANT_NAMES[v]: float(stats.kendalltau(scores[(m, "binary")], scores[(m, v)]).statistic)
            for v in ("high", "low")}
        for m in MEASURES
    })


def top_runs(scores: pd.DataFrame, measure: str = "R-Precision", n: int = 3) -> pd.DataFrame:
    """The seed's Table 3: the ``n`` best runs by the binary ``measure``, with their binary and BDM scores.

    Returns
    -------
    pandas.DataFrame
        One row per run, best binary score first (ties keep the runs' order); columns ``binary``, ``BDM-High``,
        ``BDM-Low``.
    """
    scores = _check_scores(scores)
    measure = check_choice(measure, "measure", MEASURES)
    n = check_positive_int(n, "n")
    table = scores[measure].rename(columns=VARIANT_NAMES)[list(VARIANT_NAMES.values())]
    return table.sort_values("binary", ascending=False, kind="stable").head(n)
