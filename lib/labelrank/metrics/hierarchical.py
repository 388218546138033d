r"""Hierarchical precision, recall and F: the set-based and the pair-based measures on a label tree.

Both families compare a document's predicted labels :math:`\hat Y` with its true labels :math:`Y` after
*augmenting* each set with ancestors, and then count the overlap as flat precision and recall do:

.. math::

    P = \frac{|\hat Y_{aug} \cap Y_{aug}|}{|\hat Y_{aug}|}, \qquad
    R = \frac{|\hat Y_{aug} \cap Y_{aug}|}{|Y_{aug}|}, \qquad F = \frac{2 P R}{P + R} .

* **Set-based** (:func:`hierarchical_prf`; hP, hR, hF of Kiritchenko, Matwin, Nock & Famili 2006): each set is
  augmented with *all* ancestors of its labels. A near miss earns the ancestors it shares with the truth, so a
  wrong guess deep in the right branch earns much.
* **Pair-based** (:func:`lca_prf`; LCA-P, LCA-R, LCA-F of Kosmopoulos, Partalas, Gaussier, Paliouras &
  Androutsopoulos 2015): predicted and true labels are first *paired*, each label of either set in at least one
  pair, the pairs chosen to minimise the sum of their tree distances (a minimum-cost edge cover of the bipartite
  graph :math:`\hat Y \times Y`); each label is then augmented only with its ancestors up to the lowest common
  ancestor (LCA) of its pair, the LCA included. A near miss earns the path down to where it left the truth, and
  nothing above that, so shared ancestors high in the tree are not counted again for every label.

Two conventions (``convention=``) read these definitions differently, and their numbers differ:

* ``"hiclass"`` (HiClass's, the default of :func:`hierarchical_prf`): the root (added above the top-level labels,
  as Li et al. add one above the viewpoints) never counts, it is removed from every augmented set and refused as a
  label; ``average="micro"`` pools the counts over documents (:math:`P = \sum_d |\cap_d| / \sum_d |\hat
  Y_{aug,d}|`, the papers' definition, and HiClass's), ``average="macro"`` averages each document's P, R and F. A
  document with an empty predicted (true) augmented set has precision (recall) 0 in the macro average and adds
  nothing to the micro one's denominators; an F with P + R = 0 is 0. LCA-F pairs the labels by a minimum-cost edge
  cover, on trees only.
* ``"hemkit"`` (the measures' authors' tool, the default of :func:`lca_prf`; :mod:`labelrank.metrics.hemkit`): the
  root and a top node above it count, each document's P, R and F are averaged (macro), a set is first cleared of
  labels that are ancestors of another of its labels, LCA-F links each label with its nearest labels of the other
  set, by HEMKit's rules for ties, on trees and DAGs; an empty predicted set makes the averages NaN, as HEMKit
  prints them.

Two minimal cases show the second difference (chain 1 -> 2 -> 3 -> 4, truth {2, 4}, prediction {3}: HEMKit reads
the truth as {4}) and the third (tree 1 -> {2, 3, 7}, 2 -> {4, 5}, 5 -> 6, truth {3, 4}, prediction {6, 4}: HEMKit
links 6 with 4 and 3 with 4, the edge cover 6 with 3); ``tests/lib/test_hemkit.py`` holds them with HEMKit's output.

The cost grows with the documents' label sets and the tree's depth (chains are read per label, pairs per
document), never with the square of the tree.

References
----------
S. Kiritchenko, S. Matwin, R. Nock, A. F. Famili (2006). Learning and evaluation in the presence of class hierarchies:
application to text categorization. Canadian AI, LNCS 4013, 395-406.
A. Kosmopoulos, I. Partalas, E. Gaussier, G. Paliouras, I. Androutsopoulos (2015). Evaluation measures for
hierarchical classification: a unified view and novel approaches. Data Mining and Knowledge Discovery 29(3),
820-865.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Literal

import math

import numpy as np

from labelrank.validation import describe_value, check_choice
from labelrank.cost import common_prefix
from labelrank.hierarchy import LabelTree

__all__ = ["hierarchical_prf", "lca_prf", "CONVENTIONS"]

Average = Literal["micro", "macro"]
Convention = Literal["hiclass", "hemkit"]
#: The readings of the measures (module docstring): HiClass's and HEMKit's.
CONVENTIONS: tuple[str, ...] = ("hiclass", "hemkit")


def _resolve(convention: Any, average: Any) -> tuple[str, str]:
    """The convention and the average it implies (None: micro for HiClass's, macro for HEMKit's)."""
    convention = check_choice(convention, "convention", CONVENTIONS)
    if average is None:
        average = "micro" if convention == "hiclass" else "macro"
    average = check_choice(average, "average", ("micro", "macro"))
    if convention == "hemkit" and average != "macro":
        raise ValueError("convention='hemkit' averages each document's P, R and F (HEMKit's macro average); "
                         f"average={average!r} is HiClass's reading (convention='hiclass')")
    return convention, average


def _hemkit(tree: Any, truth: Any, predicted: Any, max_distance: int, columns: slice) -> tuple[float, float, float]:
    """HEMKit's macro averages of three of :func:`labelrank.metrics.hemkit.hemkit_scores`'s columns."""
    from labelrank.metrics.hemkit import hemkit_scores

    tree, truth, predicted = _check_sets(tree, truth, predicted, root_allowed=True)
    rows = hemkit_scores(tree, truth, predicted, max_distance, "h" if columns.start == 0 else "lca")[:, columns]
    rows = rows[~np.isnan(rows).all(axis=1)]  # documents without a true label: left out, as HEMKit skips them
    if not len(rows):
        return math.nan, math.nan, math.nan
    return tuple(float(x) for x in rows.mean(axis=0))  # NaN in a row (an empty predicted set) stays NaN


def _check_sets(tree: Any, truth: Any, predicted: Any, root_allowed: bool = False
                ) -> tuple[LabelTree, list[list[str]], list[list[str]]]:
    if not isinstance(tree, LabelTree):
        raise TypeError(f"tree must be a labelrank.hierarchy.LabelTree, got {describe_value(tree)}")
    out = []
    for name, docs in (("truth", truth), ("predicted", predicted)):
        if isinstance(docs, (str, bytes)) or not isinstance(docs, Sequence | np.ndarray):
            raise TypeError(f"{name} must be a sequence of label collections (one per document), got {describe_value(docs)}")
        sets = []
        for d, labels in enumerate(docs):
            if isinstance(labels, (str, bytes)) or not isinstance(labels, Collection | np.ndarray):
                raise TypeError(f"{name}[{d}] must be a collection of labels, got {describe_value(labels)}")
            labels = list(dict.fromkeys(labels))  # a label listed twice counts once
            for label in labels:
                tree._check(label, f"{name}[{d}]'s label")
                if label == tree.root and not root_allowed:
                    raise ValueError(f"{name}[{d}] holds the root {label!r}, which never counts under "
                                     "convention='hiclass'; leave it out (convention='hemkit' counts it)")
            sets.append(labels)
        out.append(sets)
    if len(out[0]) != len(out[1]):
        raise ValueError(f"truth and predicted must have one entry per document, got {len(out[0])} and {len(out[1])}")
    return tree, out[0], out[1]


def _prf(counts: np.ndarray, average: str) -> tuple[float, float, float]:
    """(P, R, F) from per-document rows (overlap, predicted size, true size)."""
    def f(p, r):
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    if not len(counts):
        return 0.0, 0.0, 0.0
    overlap, n_pred, n_true = counts.T
    if average == "micro":
        p = float(overlap.sum() / n_pred.sum()) if n_pred.sum() > 0 else 0.0
        r = float(overlap.sum() / n_true.sum()) if n_true.sum() > 0 else 0.0
        return p, r, f(p, r)
    ps = np.divide(overlap, n_pred, out=np.zeros(len(counts)), where=n_pred > 0)
    rs = np.divide(overlap, n_true, out=np.zeros(len(counts)), where=n_true > 0)
    fs = [f(p, r) for p, r in zip(ps, rs)]
    return float(np.mean(ps)), float(np.mean(rs)), float(np.mean(fs))


class _Chains:
    """Each label's chain from the top (root excluded), read once per call."""

    def __init__(self, tree: LabelTree) -> None:
        self.tree, self._chains = tree, {}

    def __call__(self, label: str) -> tuple[tuple[str, ...], ...]:
        if label not in self._chains:
            self._chains[label] = tuple(chain[1:] for chain in self.tree.chains(label))
        return self._chains[label]


def hierarchical_prf(tree: LabelTree, truth: Sequence[Collection[str]], predicted: Sequence[Collection[str]],
                     average: Average | None = None, *, convention: Convention = "hiclass",
                     max_distance: int = 100_000) -> tuple[float, float, float]:
    r"""Hierarchical precision, recall and F (hP, hR, hF): both sets augmented with all their ancestors.

    .. math::

        \hat Y_{aug} = \bigcup_{l \in \hat Y} \mathrm{anc}(l) \cup \{l\} \setminus \{root\}, \qquad
        hP = \frac{\sum_d |\hat Y_{aug,d} \cap Y_{aug,d}|}{\sum_d |\hat Y_{aug,d}|}, \quad
        hR = \frac{\sum_d |\hat Y_{aug,d} \cap Y_{aug,d}|}{\sum_d |Y_{aug,d}|}, \quad
        hF = \frac{2\, hP\, hR}{hP + hR}

    (micro average; see the module for the macro one). In a DAG every ancestor on every chain counts. With
    ``convention="hemkit"`` the root and a top node above it are in every augmented set, and each document's P, R
    and F are averaged, as HEMKit computes them.

    Parameters
    ----------
    tree : LabelTree
    truth, predicted : sequence of collections of str
        One entry per document: its true and its predicted labels (any labels of ``tree``; the root only under
        ``convention="hemkit"``).
    average : {"micro", "macro"}, optional
        Default: ``"micro"`` under ``"hiclass"``; ``"hemkit"`` takes only ``"macro"``, HEMKit's.
    convention : {"hiclass", "hemkit"}, default="hiclass"
        HiClass's reading (the root not counted) or HEMKit's (:mod:`labelrank.metrics.hemkit`).
    max_distance : int, default=100000
        HEMKit's maximum distance (``convention="hemkit"`` only): ancestors up to ``max_distance + 1`` edges above
        a label count.

    Returns
    -------
    precision, recall, f : float

    Raises
    ------
    TypeError
        If ``tree`` is not a LabelTree or an entry is not a collection of labels (a bare string is refused).
    ValueError
        For an unknown label, the root as a label, or ``truth`` and ``predicted`` of different lengths.

    References
    ----------
    Kiritchenko, Matwin, Nock & Famili (2006); HiClass's ``hiclass.metrics`` computes the same (micro) values.

    Examples
    --------
    A sibling of the true label shares its parent:

    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a", "b1": "b"})
    >>> hierarchical_prf(t, [["a1"]], [["a2"]])
    (0.5, 0.5, 0.5)
    >>> hierarchical_prf(t, [["a1"]], [["a"]])  # an ancestor: precise, not complete
    (1.0, 0.5, 0.6666666666666666)
    >>> hierarchical_prf(t, [["a1"]], [["a2"]], convention="hemkit")  # the root and HEMKit's top node count too
    (0.75, 0.75, 0.75)
    """
    convention, average = _resolve(convention, average)
    if convention == "hemkit":
        return _hemkit(tree, truth, predicted, max_distance, slice(0, 3))
    tree, truth, predicted = _check_sets(tree, truth, predicted)
    return _prf(_set_counts(tree, truth, predicted), average)


def _set_counts(tree: LabelTree, truth: list[list[str]], predicted: list[list[str]]) -> np.ndarray:
    """Per document: (overlap, predicted size, true size) of the ancestor-augmented sets."""
    seen: dict[str, frozenset[str]] = {}

    def with_ancestors(label: str) -> frozenset[str]:  # the label and its ancestors below the root
        if label not in seen:
            seen[label] = (tree.ancestors(label) | {label}) - {tree.root}
        return seen[label]

    def augmented(labels):
        return set().union(*(with_ancestors(label) for label in labels))

    counts = []
    for true, pred in zip(truth, predicted):
        t, p = augmented(true), augmented(pred)
        counts.append((len(t & p), len(p), len(t)))
    return np.array(counts, dtype=float).reshape(-1, 3)


def _edge_cover(cost: np.ndarray) -> list[tuple[int, int]]:
    """A minimum-cost edge cover of the complete bipartite graph with the given (rows x columns) costs.

    The classic reduction: with :math:`m_u` the cheapest edge at each vertex, a cover of cost
    :math:`\\sum_u m_u - \\sum_{(u,v) \\in M} (m_u + m_v - c_{uv})` comes from a maximum-weight matching M on the
    weights :math:`m_u + m_v - c_{uv}` (only positive ones are worth matching), every unmatched vertex then taking
    its cheapest edge. Ties: scipy's assignment on the weights, then the cheapest edge of the lowest index.
    """
    row_min, col_min = cost.min(axis=1), cost.min(axis=0)
    gain = row_min[:, None] + col_min[None, :] - cost
    from scipy.optimize import linear_sum_assignment  # lazy: scoring without matchings needs no scipy

    rows, cols = linear_sum_assignment(np.maximum(gain, 0.0), maximize=True)
    pairs = [(int(i), int(j)) for i, j in zip(rows, cols) if gain[i, j] > 0]
    covered_rows, covered_cols = {i for i, _ in pairs}, {j for _, j in pairs}
    pairs += [(i, int(np.argmin(cost[i]))) for i in range(cost.shape[0]) if i not in covered_rows]
    pairs += [(int(np.argmin(cost[:, j])), j) for j in range(cost.shape[1]) if j not in covered_cols]
    return sorted(set(pairs))


def lca_prf(tree: LabelTree, truth: Sequence[Collection[str]], predicted: Sequence[Collection[str]],
            average: Average | None = None, *, convention: Convention = "hemkit", max_distance: int = 100_000
            ) -> tuple[float, float, float]:
    r"""LCA-based precision, recall and F (Kosmopoulos et al. 2015): labels augmented up to their pair's LCA.

    The default, ``convention="hemkit"``, computes them as the measures' authors' tool HEMKit does (labels that are
    ancestors of another label of their set dropped, each label linked with its nearest labels of the other set,
    the root and a top node counted, each document's P, R and F averaged; trees and DAGs):
    :mod:`labelrank.metrics.hemkit` gives the rules. ``convention="hiclass"`` is the reading below, on trees.

    For each document, the pairs :math:`M \subseteq \hat Y \times Y` are a minimum-cost edge cover: every predicted
    and every true label lies in at least one pair, and :math:`\sum_{(\hat y, y) \in M} \mathrm{dist}(\hat y, y)`
    (edges on the tree path) is minimal. Then

    .. math::

        \hat Y_{aug} = \bigcup_{(\hat y, y) \in M} \mathrm{path}(\hat y \to \mathrm{lca}(\hat y, y)), \qquad
        Y_{aug} = \bigcup_{(\hat y, y) \in M} \mathrm{path}(y \to \mathrm{lca}(\hat y, y)),

    both paths including the LCA and the root left out, and LCA-P, LCA-R, LCA-F are the overlap counts of the
    module's formula (micro: pooled over documents). A correct label pairs with itself (its LCA is itself); a
    document with no true or no predicted label has no pairs and its sets are left as they are.

    Every label must lie in a pair, so a true label that no prediction comes near pairs with the nearest one at the
    root and adds that prediction's whole chain to :math:`\hat Y_{aug}`; one consequence is that LCA-P is not
    monotone: a wrong prediction in another branch can *raise* it, by taking over such a pair (tree r -> A -> A1 ->
    A11, r -> B, r -> C; truth {A11, B}: predicting {A11} gives LCA-P 1/3, predicting {A11, C} gives 1/2). The
    set-based hP cannot rise that way (``tests/lib/test_hierarchical_measures.py`` checks both).

    Ties: several pairings can reach the minimum and give different augmented sets; this function takes the
    maximum-weight matching of :func:`scipy.optimize.linear_sum_assignment` on the reduced weights (labels in the
    order given, each document's duplicates dropped) and covers every remaining label with its cheapest partner,
    the first in that order among equally cheap ones. The result is deterministic for a given input order.

    Parameters
    ----------
    tree : LabelTree
        A tree; a DAG under ``convention="hemkit"`` only (under ``"hiclass"`` a label with several parents has no
        single LCA: refused).
    truth, predicted : sequence of collections of str
        One entry per document, any labels of ``tree`` (the root only under ``convention="hemkit"``).
    average : {"micro", "macro"}, optional
        Default: ``"macro"`` under ``"hemkit"`` (the only one it takes), ``"micro"`` under ``"hiclass"``.
    convention : {"hemkit", "hiclass"}, default="hemkit"
    max_distance : int, default=100000
        HEMKit's maximum distance (``convention="hemkit"`` only): chains stop after ``max_distance`` edges.

    Returns
    -------
    precision, recall, f : float

    Raises
    ------
    TypeError, ValueError
        As :func:`hierarchical_prf`; ValueError for a DAG under ``convention="hiclass"``.

    References
    ----------
    Kosmopoulos, Partalas, Gaussier, Paliouras & Androutsopoulos (2015), section 5 (pair-based measures).

    Examples
    --------
    A sibling counts only its parent, the LCA; a cousin in another branch counts nothing (set-based measures would
    give the sibling and the cousin the same credit here, one shared ancestor):

    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a", "b1": "b"})
    >>> lca_prf(t, [["a1"]], [["a2"]])
    (0.5, 0.5, 0.5)
    >>> lca_prf(t, [["a1"]], [["b1"]])  # HEMKit: the LCA is the root, which counts
    (0.3333333333333333, 0.3333333333333333, 0.3333333333333333)
    >>> lca_prf(t, [["a1"]], [["b1"]], convention="hiclass")
    (0.0, 0.0, 0.0)
    >>> lca_prf(t, [["a1", "b1"]], [["a2"]], convention="hiclass")  # b1 must pair with a2 too (LCA: the root)
    (0.5, 0.25, 0.3333333333333333)
    """
    convention, average = _resolve(convention, average)
    if convention == "hemkit":
        return _hemkit(tree, truth, predicted, max_distance, slice(3, 6))
    tree, truth, predicted = _check_sets(tree, truth, predicted)
    return _prf(_lca_counts(_check_tree(tree), truth, predicted), average)


def _check_tree(tree: LabelTree) -> LabelTree:
    if tree.is_dag:
        raise ValueError("lca_prf with convention='hiclass' needs a tree: a label with several parents has no single "
                         "lowest common ancestor (convention='hemkit' follows HEMKit on DAGs)")
    return tree


def _lca_counts(tree: LabelTree, truth: list[list[str]], predicted: list[list[str]]) -> np.ndarray:
    """Per document: (overlap, predicted size, true size) of the LCA-augmented sets."""
    chains = _Chains(tree)

    def path(chain: tuple[str, ...], common: int) -> set[str]:
        """The chain's nodes from its label up to the LCA (chain[common - 1]; the whole chain if it is the root)."""
        return set(chain[common - 1:]) if common else set(chain)

    counts = []
    for true, pred in zip(truth, predicted):
        if not true or not pred:
            counts.append((0, len(pred), len(true)))
            continue
        tc, pc = [chains(x)[0] for x in true], [chains(x)[0] for x in pred]
        shared = np.array([[common_prefix(p, t) for t in tc] for p in pc])  # nodes below the root both chains share
        cost = np.array([[len(p) + len(t) for t in tc] for p in pc]) - 2 * shared
        aug_pred, aug_true = set(), set()
        for i, j in _edge_cover(cost):
            aug_pred |= path(pc[i], shared[i, j])
            aug_true |= path(tc[j], shared[i, j])
        counts.append((len(aug_pred & aug_true), len(aug_pred), len(aug_true)))
    return np.array(counts, dtype=float).reshape(-1, 3)


def per_document_f(tree: LabelTree, truth: Sequence[Collection[str]], predicted: Sequence[Collection[str]],
                   measure: Literal["hF", "LCA-F"], convention: Convention | None = None,
                   max_distance: int = 100_000) -> np.ndarray:
    """Each document's hF or LCA-F (the values whose mean is the macro average), for ``labelrank score``.

    ``convention`` defaults to each measure's own: ``"hiclass"`` for hF, ``"hemkit"`` for LCA-F. Under
    ``"hemkit"`` a document without a true label is NaN (HEMKit leaves it out), and one with an empty predicted set
    scores 0, as under ``"hiclass"`` and as the binary F-measure of ``labelrank score`` (HEMKit's own 0/0 is NaN,
    which :func:`lca_prf` keeps).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a", "b1": "b"})
    >>> per_document_f(t, [["a1"], ["a1"]], [["a2"], ["b1"]], "hF").tolist()
    [0.5, 0.0]
    >>> per_document_f(t, [["a1"], ["a1"]], [["a2"], ["b1"]], "LCA-F").round(4).tolist()
    [0.5, 0.3333]
    """
    measure = check_choice(measure, "measure", ("hF", "LCA-F"))
    convention = check_choice(DEFAULT_CONVENTION[measure] if convention is None else convention, "convention",
                              CONVENTIONS)
    if convention == "hemkit":
        from labelrank.metrics.hemkit import hemkit_scores

        tree, truth, predicted = _check_sets(tree, truth, predicted, root_allowed=True)
        family, column = ("h", 2) if measure == "hF" else ("lca", 5)
        f = hemkit_scores(tree, truth, predicted, max_distance, family)[:, column]
        empty = np.array([bool(t) and not p for t, p in zip(truth, predicted)], dtype=bool)
        return np.where(empty, 0.0, f)
    tree, truth, predicted = _check_sets(tree, truth, predicted)
    counts = _set_counts(tree, truth, predicted) if measure == "hF" else _lca_counts(_check_tree(tree), truth, predicted)
    return np.array([_prf(row[None, :], "macro")[2] for row in counts])


#: Each measure's default convention: HiClass's for hF, HEMKit's (the authors') for LCA-F.
DEFAULT_CONVENTION: dict[str, str] = {"hF": "hiclass", "LCA-F": "hemkit"}
