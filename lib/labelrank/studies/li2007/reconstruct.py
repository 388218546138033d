"""Reconstructing the seed's Figure 1 (a part of F-term theme 2C088) from its Table 1 of BDM values.

Li, Bontcheva & Cunningham (2007) print BDM among six F-terms of theme 2C088 (their Table 1) computed "on the
structure shown in Figure 1", but the figure is not in the text we have. BDM depends on the whole tree (branching,
chain lengths), so Table 1 constrains the tree; this module searches for trees that reproduce it.

Two steps:

1. :func:`screen_topologies` -- which way do the labelled F-terms hang together? For each of the 125 ways to hang
   AA01, AA65, AA02 and AA03 under AA, a *continuous relaxation* replaces each node's number of children and the
   mean length of the chains through it by free positive numbers and minimises the largest |difference| from
   Table 1. No tree of that topology can do better than the relaxation (up to the local optimiser finding its
   minimum).
2. :func:`search_figure1` -- within the best topology (AA -> AA01 -> AA02 -> AA03, AA -> AA65), hill-climb over
   integer shapes (:class:`Figure1Shape`): how many unseen elements hang under each labelled F-term, as leaves or as
   small bushes, and how many other viewpoints and elements the theme has. Every candidate is scored with
   :func:`labelrank.cost.bdm_terms` on a real :class:`~labelrank.hierarchy.LabelTree`.

The global normalisers of BDM enter every entry of Table 1 only through the product :math:`x = 1/(\\bar B\\, n_0)`
of the mean branching and the mean chain length: ``BDM = A x / (A x + B)`` with ``A`` (branching around the pair
times CP) and ``B`` (DPK/n2 + DPR/n3) fixed by the AA subtree. Other viewpoints change only ``x``; the search uses
this to pick their number in one vectorized step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd

from labelrank.validation import check_positive_int, check_real
from labelrank.cost import common_prefix, bdm_matrix, bdm_terms
from labelrank.hierarchy import LabelTree
from labelrank.studies.paper import load

__all__ = [
    "THEME",
    "TABLE1_LABELS",
    "ELEMENTS",
    "paper_table1",
    "compare_table1",
    "element_topologies",
    "relaxation_bound",
    "screen_topologies",
    "Figure1Shape",
    "search_figure1",
]

THEME = "2C088"
TABLE1_LABELS: tuple[str, ...] = ("AA", "BA", "AA01", "AA65", "AA02", "AA03")
ELEMENTS: tuple[str, ...] = ("AA01", "AA65", "AA02", "AA03")
# the 10 entries of Table 1 that are neither on the diagonal (1) nor involve BA (0: the MSCA is the root)
_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for i, a in enumerate(TABLE1_LABELS) for b in TABLE1_LABELS[i + 1 :] if "BA" not in (a, b)
)


def paper_table1() -> pd.DataFrame:
    """Table 1 of the seed (BDM among six F-terms of 2C088), from ``data/paper/li2007_table1.csv``."""
    table = load("li2007_table1", index_col=0)
    if list(table.index) != list(TABLE1_LABELS) or list(table.columns) != list(TABLE1_LABELS):
        raise ValueError(f"li2007_table1.csv must have rows and columns {TABLE1_LABELS}")
    return table


def compare_table1(tree: LabelTree, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The 21 entries of Table 1 (upper triangle with the diagonal): the paper's value, ours, and |difference|.

    Parameters
    ----------
    tree : LabelTree
        A tree holding the six labels of :data:`TABLE1_LABELS`.
    table : DataFrame, optional
        The paper's table; :func:`paper_table1` by default.

    Returns
    -------
    pandas.DataFrame
        Columns ``key, response, paper, ours, abs_diff``, one row per unordered pair.
    """
    table = paper_table1() if table is None else table
    ours = bdm_matrix(tree, labels=TABLE1_LABELS)
    rows = []
    for i, a in enumerate(TABLE1_LABELS):
        for b in TABLE1_LABELS[i:]:
            p, o = float(table.loc[a, b]), float(ours.loc[a, b])
            rows.append({"key": a, "response": b, "paper": p, "ours": o, "abs_diff": abs(o - p)})
    return pd.DataFrame(rows)


# -------------------------------------------------------------------------------- step 1: topology screening
def element_topologies() -> list[dict[str, str]]:
    """Every way to hang AA01, AA65, AA02, AA03 under AA with one parent each among AA and each other (125)."""
    out = []
    for ps in itertools.product(("AA",) + ELEMENTS, repeat=len(ELEMENTS)):
        parent = dict(zip(ELEMENTS, ps))
        ok = True
        for e in ELEMENTS:
            seen, x = set(), e
            while x != "AA" and ok:
                if x in seen:
                    ok = False
                seen.add(x)
                x = parent[x]
        if ok:
            out.append(parent)
    return out


def _relaxation_rows(topology: dict[str, str]):
    nodes = ("AA",) + ELEMENTS
    tree = LabelTree.from_parents({"AA": None, **topology})  # raises on a cycle or an unknown parent

    def chain(e: str) -> list[str]:
        """The chain from AA down to ``e`` (one chain: each element has one parent)."""
        return list(tree.chains(e)[0])

    table = paper_table1()
    rows = []
    for k, r in _PAIRS:
        ck, cr = chain(k), chain(r)
        c = common_prefix(ck, cr)
        between = [ck[c - 1]] + ck[c:-1] + cr[c:-1]  # the MSCA and the nodes strictly between it and k / r
        # CP counts edges from the theme root, one above AA: CP = c
        rows.append((c, [nodes.index(x) for x in between], len(ck) - c, len(cr) - c, nodes.index(k),
                     nodes.index(r), float(table.loc[k, r])))
    inner = {e: any(topology[c] == e for c in ELEMENTS) for e in nodes}
    lower = [len(chain(e)) + (1 if inner[e] else 0) for e in nodes]  # n2 >= depth (+1 with children)
    return rows, lower


def relaxation_bound(topology: dict[str, str], starts: int = 8, seed: int = 0) -> tuple[float, dict[str, float]]:
    r"""Smallest max |BDM - Table 1| over a continuous relaxation of all trees with this topology.

    For every labelled node ``s`` the relaxation has a free :math:`X_s = b_s x > 0` (number of children times the
    global factor :math:`x = 1/(\bar B n_0)`) and a free :math:`L_s \ge` depth (+1 when it has labelled children),
    the mean length of the chains through it. Each entry of Table 1 is then
    :math:`v / (v + DPK/L_K + DPR/L_R)` with :math:`v = CP \cdot \mathrm{mean}(X \text{ over MSCA and nodes between})`.
    The minimax problem is solved by SLSQP from ``starts`` random starting points.

    Returns
    -------
    (bound, solution) : tuple[float, dict[str, float]]
        The smallest max |difference| found and the X and L values achieving it.
    """
    from scipy.optimize import minimize

    rows, lower = _relaxation_rows(topology)
    target = np.array([row[-1] for row in rows])

    def values(z: np.ndarray) -> np.ndarray:
        X, L = np.exp(z[:5]), z[5:10]
        out = np.empty(len(rows))
        for i, (cp, between, dpk, dpr, k, r, _) in enumerate(rows):
            v = cp * X[between].mean()
            out[i] = v / (v + dpk / L[k] + dpr / L[r])
        return out

    cons = {"type": "ineq", "fun": lambda z: np.r_[z[-1] - (values(z) - target), z[-1] + (values(z) - target)]}
    bounds = [(-8.0, 3.0)] * 5 + [(lo, 30.0) for lo in lower] + [(0.0, 1.0)]
    rng = np.random.default_rng(seed)
    best, best_z = np.inf, None
    for _ in range(starts):
        z0 = np.r_[rng.uniform(-3, 0.5, 5), [lo + rng.uniform(0, 3) for lo in lower], 0.5]
        res = minimize(lambda z: z[-1], z0, constraints=[cons], bounds=bounds, method="SLSQP",
                       options={"maxiter": 300})
        if res.success:
            err = float(np.abs(values(res.x) - target).max())
            if err < best:
                best, best_z = err, res.x
    names = ("AA",) + ELEMENTS
    sol = {} if best_z is None else {
        **{f"X_{n}": float(np.exp(best_z[i])) for i, n in enumerate(names)},
        **{f"L_{n}": float(best_z[5 + i]) for i, n in enumerate(names)},
    }
    return best, sol


def _describe_topology(topology: dict[str, str]) -> str:
    return ", ".join(f"{e}<{topology[e]}" for e in ELEMENTS)


def screen_topologies(
    topologies: Iterable[dict[str, str]] | None = None, starts: int = 8, seed: int = 0
) -> pd.DataFrame:
    """:func:`relaxation_bound` for each topology (all 125 by default), best first.

    Returns
    -------
    pandas.DataFrame
        Columns ``topology`` (``"AA02<AA01"`` means AA02 is a child of AA01), ``bound`` and the four parents.
    """
    topologies = element_topologies() if topologies is None else list(topologies)
    rows = []
    for topo in topologies:
        bound, _ = relaxation_bound(topo, starts=starts, seed=seed)
        rows.append({"topology": _describe_topology(topo), "bound": bound, **{f"parent_{e}": topo[e] for e in ELEMENTS}})
    return pd.DataFrame(rows).sort_values("bound", kind="stable").reset_index(drop=True)


# ------------------------------------------------------------------------------------ step 2: shape search
@dataclass(frozen=True)
class Figure1Shape:
    """A candidate for the seed's Figure 1 in the topology AA -> AA01 -> AA02 -> AA03, AA -> AA65.

    Unseen F-terms are added as *fillers*. Under each labelled F-term ``s`` hang ``leaves`` unseen leaf elements and
    ``bushes`` unseen elements with ``bush_size`` leaf sub-elements each; the triple is ``(leaves, bushes,
    bush_size)``. AA itself gets ``aa_leaves`` unseen leaf elements. Besides AA the theme has ``viewpoints``
    viewpoints (BA, then BB, then unseen ones) sharing ``elements`` leaf elements round-robin.

    Unseen labels are named after their parent: ``AA01-u3`` is the third unseen child of AA01, ``AA01-u3-2`` its
    second sub-element, ``vp-u4`` the fourth viewpoint, ``BA-e1`` an element of BA.
    """

    aa_leaves: int = 0
    aa01: tuple[int, int, int] = (0, 0, 1)
    aa65: tuple[int, int, int] = (0, 0, 1)
    aa02: tuple[int, int, int] = (0, 0, 1)
    aa03: tuple[int, int, int] = (0, 0, 1)
    viewpoints: int = 1
    elements: int = 1

    def __post_init__(self) -> None:
        for name in ("aa_leaves", "viewpoints", "elements"):
            check_positive_int(getattr(self, name), name, minimum=0 if name == "aa_leaves" else 1)
        for name in ("aa01", "aa65", "aa02", "aa03"):
            v = getattr(self, name)
            if (not isinstance(v, tuple) or len(v) != 3 or any(not isinstance(t, (int, np.integer)) for t in v)
                    or v[0] < 0 or v[1] < 0 or v[2] < 1):
                raise ValueError(f"{name} must be (leaves >= 0, bushes >= 0, bush_size >= 1), got {v!r}")
        if self.elements < self.viewpoints:
            raise ValueError(f"elements ({self.elements}) must be >= viewpoints ({self.viewpoints}): "
                             "every viewpoint has an element")

    def parents(self) -> dict[str, str | None]:
        """The parent map of the candidate tree."""
        p: dict[str, str | None] = {THEME: None, "AA": THEME}
        vps = ["BA", "BB"][: self.viewpoints] + [f"vp-u{i}" for i in range(3, self.viewpoints + 1)]
        for v in vps:
            p[v] = THEME
        p.update({"AA01": "AA", "AA65": "AA", "AA02": "AA01", "AA03": "AA02"})
        for i in range(1, self.aa_leaves + 1):
            p[f"AA-u{i}"] = "AA"
        for s in ("AA01", "AA65", "AA02", "AA03"):
            leaves, bushes, size = getattr(self, s.lower())
            for i in range(1, leaves + bushes + 1):
                p[f"{s}-u{i}"] = s
                if i > leaves:
                    for j in range(1, size + 1):
                        p[f"{s}-u{i}-{j}"] = f"{s}-u{i}"
        for i in range(self.elements):
            v = vps[i % len(vps)]
            p[f"{v}-e{i // len(vps) + 1}"] = v
        return p

    def tree(self) -> LabelTree:
        """The candidate as a :class:`LabelTree`."""
        return LabelTree.from_parents(self.parents())

    def unseen(self) -> list[str]:
        """Labels of the candidate that are not in Table 1 nor the theme root (for folding them in a drawing)."""
        return [lab for lab in self.parents() if lab not in TABLE1_LABELS and lab not in (THEME, "BB")]

    def vector(self) -> np.ndarray:
        """The local parameters as an integer vector (see :meth:`from_vector`)."""
        return np.array([self.aa_leaves, *self.aa01, *self.aa65, *self.aa02, *self.aa03])

    @classmethod
    def from_vector(cls, v: Sequence[int], viewpoints: int = 1, elements: int = 1) -> Figure1Shape:
        """Inverse of :meth:`vector`: ``(aa_leaves, *aa01, *aa65, *aa02, *aa03)``, 13 integers.

        ``bush_size`` is set to 1 where there are no bushes, so that equal trees have equal vectors.
        """
        if len(v) != 13:
            raise ValueError(f"v must have 13 integers (aa_leaves and four triples), got {len(v)}")
        v = [int(t) for t in v]
        triples = [tuple(v[i : i + 3]) for i in (1, 4, 7, 10)]
        triples = [(a, b, c if b > 0 else 1) for a, b, c in triples]
        return cls(v[0], *triples, viewpoints=viewpoints, elements=elements)


# search bounds of the local vector: aa_leaves, then (leaves, bushes, bush_size) for AA01, AA65, AA02, AA03
DEFAULT_LOW = np.array([0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])
DEFAULT_HIGH = np.array([10, 20, 8, 4, 8, 6, 4, 6, 4, 4, 8, 6, 4])


def _score_local(
    local: Figure1Shape, min_viewpoints: int, max_viewpoints: int, max_elements: int, floor: float,
    table: pd.DataFrame,
):
    """Best (viewpoints, elements) for a local shape: returns (key, max_abs_diff, shape)."""
    tree = local.tree()  # viewpoints = elements = 1
    avg_b0 = tree.mean_branching
    A, B, target = [], [], []
    for k, r in _PAIRS:
        t = bdm_terms(tree, k, r)
        A.append(t.br * avg_b0 * t.cp)  # mean branching around the pair times CP
        B.append(t.dpk / t.n2 + t.dpr / t.n3)
        target.append(float(table.loc[k, r]))
    A, B, target = np.array(A), np.array(B), np.array(target)
    n_nodes = len(tree)
    n_inner = n_nodes - len(tree.leaves)
    n_leaves = len(tree.leaves)
    depth_sum = tree.mean_chain_length * n_leaves
    W, E = np.meshgrid(np.arange(min_viewpoints, max_viewpoints + 1), np.arange(1, max_elements + 1), indexing="ij")
    ok = E >= W
    nodes = n_nodes + (W - 1) + (E - 1)
    mean_b = (nodes - 1) / (n_inner + (W - 1))
    n0 = (depth_sum + 2 * (E - 1)) / (n_leaves + (E - 1))
    x = 1.0 / (mean_b * n0)
    ax = A[None, None, :] * x[..., None]
    err = np.abs(ax / (ax + B) - target).max(axis=-1)
    err = np.where(ok, err, np.inf)
    key = np.where(err <= floor, nodes, np.inf)
    if np.isfinite(key).any():
        i, j = np.unravel_index(np.argmin(key), key.shape)
    else:
        i, j = np.unravel_index(np.argmin(err), err.shape)
    shape = replace(local, viewpoints=int(W[i, j]), elements=int(E[i, j]))
    e = float(err[i, j])
    return (max(e, floor), int(nodes[i, j])), e, shape


def search_figure1(
    restarts: int = 30,
    seed: int = 0,
    floor: float = 0.004,
    low: Sequence[int] | None = None,
    high: Sequence[int] | None = None,
    min_viewpoints: int = 2,
    max_viewpoints: int = 30,
    max_elements: int = 300,
    progress: bool = False,
) -> pd.DataFrame:
    """Hill-climb over :class:`Figure1Shape` for trees whose BDM reproduces Table 1.

    Each restart starts from a random local shape (seeded) and moves one parameter by +-1 while that improves the
    key ``(max(max_abs_diff, floor), number of labels)``: first the largest |difference| from Table 1, then, once
    it is below ``floor`` (Table 1 has two decimals, so below 0.005 every entry rounds to the paper's), the smallest
    tree. For every local shape the number of other viewpoints and elements is chosen by a vectorized scan.

    Parameters
    ----------
    restarts : int
        Random starting points.
    seed : int
        Seed of the starting points.
    floor : float
        Differences below this count as exact (default 0.004, a margin below the rounding half-unit 0.005).
    low, high : sequence of 13 int, optional
        Bounds of the local vector ``(aa_leaves, AA01 triple, AA65 triple, AA02 triple, AA03 triple)``.
    min_viewpoints, max_viewpoints, max_elements : int
        Range of the scan over the rest of the theme: viewpoints besides AA (at least BA and BB, the two the seed
        names) and their elements.
    progress : bool
        Show a tqdm progress bar over restarts.

    Returns
    -------
    pandas.DataFrame
        One row per restart, best first: ``max_abs_diff``, ``n_labels``, ``shape`` (a :class:`Figure1Shape`),
        ``evaluations`` and the shape's fields.
    """
    for name, v in (("restarts", restarts), ("min_viewpoints", min_viewpoints), ("max_viewpoints", max_viewpoints),
                    ("max_elements", max_elements)):
        check_positive_int(v, name)
    if max_viewpoints < min_viewpoints or max_elements < min_viewpoints:
        raise ValueError(f"need min_viewpoints <= max_viewpoints and min_viewpoints <= max_elements, got "
                         f"{min_viewpoints}, {max_viewpoints}, {max_elements}")
    check_real(floor, "floor", low=0.0, high=1.0, high_inclusive=False)
    low = DEFAULT_LOW if low is None else np.asarray(low, dtype=int)
    high = DEFAULT_HIGH if high is None else np.asarray(high, dtype=int)
    if low.shape != DEFAULT_LOW.shape or high.shape != DEFAULT_LOW.shape or (low > high).any():
        raise ValueError(f"low and high must be 13 integers with low <= high, got {low!r} and {high!r}")
    if (low < DEFAULT_LOW).any():
        raise ValueError(f"low must be >= {DEFAULT_LOW.tolist()} (bush sizes >= 1), got {low.tolist()}")
    table = paper_table1()
    rng = np.random.default_rng(seed)
    cache: dict[tuple[int, ...], tuple] = {}

    def score(v: np.ndarray):
        shape = Figure1Shape.from_vector(v)
        key = tuple(shape.vector())
        if key not in cache:
            cache[key] = _score_local(shape, min_viewpoints, max_viewpoints, max_elements, floor, table)
        return cache[key]

    iterator: Iterable[int] = range(restarts)
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(iterator, desc="restarts")
    rows = []
    for _ in iterator:
        v = rng.integers(low, high + 1)
        cur = score(v)
        while True:
            best_v, best = None, cur
            for i in range(len(v)):
                for d in (-1, 1):
                    w = v.copy()
                    w[i] += d
                    if low[i] <= w[i] <= high[i]:
                        s = score(w)
                        if s[0] < best[0]:
                            best_v, best = w, s
            if best_v is None:
                break
            v, cur = best_v, best
        _, err, shape = cur
        rows.append({"max_abs_diff": err, "n_labels": len(shape.parents()), "shape": shape,
                     "evaluations": len(cache), **asdict(shape)})
    out = pd.DataFrame(rows)
    order = np.lexsort((out["n_labels"].to_numpy(), np.maximum(out["max_abs_diff"].to_numpy(), floor)))
    return out.iloc[order].reset_index(drop=True)
