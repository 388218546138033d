r"""hP, hR, hF and LCA-P, LCA-R, LCA-F as HEMKit computes them, the tool of the measures' authors.

HEMKit (Kosmopoulos, Partalas, Gaussier, Paliouras & Androutsopoulos; C++, public in the BioASQ/Evaluation-Measures
repository, folder ``hierarchical/``; the official hierarchical measures of the BioASQ challenge) differs from
HiClass's reading of the same papers (:func:`labelrank.metrics.hierarchical_prf` with ``convention="hiclass"``) in
ways that change the numbers. This module follows HEMKit's source, read for its rules (not translated: HEMKit is GPL):

* **Nodes are integers.** Label ``tree.labels[i]`` is node ``i + 1``; :func:`hemkit_files` writes the hierarchy and
  the label files with these numbers, so that HEMKit itself can be run on the same input. HEMKit adds a top node 0
  above every node without a parent (here: above the tree's root), and a label's ancestors reach node 0.
* **hP, hR, hF** augment each set with all ancestors of its labels *and the labels*, the root and node 0 included,
  and average each document's P, R and F (macro).
* **LCA-P, LCA-R, LCA-F** first drop from each set every label that is an ancestor of another label of the same set.
  Then each label that is not in both sets is linked with its *nearest* labels of the other set: along each of its
  chains up to node 0 (and a dummy node -1 above it), the first node that a chain of the other set holds is their
  common ancestor, and the pairs of least total path length win. Among the candidate common ancestors HEMKit keeps
  those that link most labels (ties: the higher node number), and among a label's equally short paths to one other
  label the path through most labels of the two sets (ties: through most nodes of other labels' candidate paths,
  then the least sum of node numbers). The augmented sets are the labels and the nodes on the chosen paths;
  precision and recall compare them as sets, averaged over documents (macro). On a DAG a label has one chain per
  route to the top, and all of them compete.
* **Averages and empty sets.** A document whose true set is empty is left out (HEMKit skips an empty line of the
  truth file). A document with an empty predicted set has precision 0/0, which HEMKit prints as ``nan``, and makes
  every average ``nan``: so does this module.
* **Maximum distance** (HEMKit's fourth argument, ``max_distance``): ancestors are looked for up to
  ``max_distance + 1`` edges above a label, and LCA chains stop after ``max_distance`` edges, the dummy node -1
  then standing above them (HEMKit's default in its README, 100000, never stops). HEMKit's fifth argument, the
  maximum error, changes neither family (it enters only HEMKit's MGIA measure, which it does not print).

One rule of HEMKit's depends on its memory allocator rather than on its input, and is not followed: on a DAG it
keeps a node's parents in a set ordered by their memory addresses, and ties between a label's chains go to the
first. The addresses follow the order in which the hierarchy file first names the nodes where they get fresh
memory, as in the first of HEMKit's two graphs, but not always in the second (built in memory the first freed),
which its LCA measures use: the same files can give HEMKit two answers (glibc's thread cache on or off). This
module takes the file's order. Equally short path pairs are ordered as g++'s ``std::sort`` orders them
(:func:`gnu_sort`), which, beyond 16 of them, does not keep their order.

References
----------
A. Kosmopoulos, I. Partalas, E. Gaussier, G. Paliouras, I. Androutsopoulos (2015). Evaluation measures for
hierarchical classification: a unified view and novel approaches. Data Mining and Knowledge Discovery 29(3),
820-865. HEMKit: https://github.com/BioASQ/Evaluation-Measures (``hierarchical/software``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np

from labelrank.validation import check_positive_int
from labelrank.hierarchy import LabelTree

__all__ = ["HemkitGraph", "hemkit_files", "hemkit_scores", "hemkit_document", "gnu_sort"]

#: HEMKit's top node (above every node without a parent) and the dummy node above every LCA chain.
TOP, DUMMY = 0, -1
#: The maximum distance HEMKit's README recommends: large enough never to stop a search.
UNLIMITED = 100_000


class HemkitGraph:
    """A label tree (or DAG) as HEMKit holds it: nodes ``1..n`` in the order of ``tree.labels``, node 0 on top.

    Parameters
    ----------
    tree : LabelTree
    max_distance : int, default=100000
        HEMKit's maximum distance (its fourth argument).

    Attributes
    ----------
    ids : dict of str to int
        Each label's node number.
    edges : list of (int, int)
        The hierarchy file's lines, ``(parent, child)``: each label's parents, labels in tree order.

    Examples
    --------
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a"})
    >>> g = HemkitGraph(tree)
    >>> g.ids["a1"], g.edges, sorted(g.ancestors(g.ids["a1"]))
    (4, [(1, 2), (1, 3), (2, 4)], [0, 1, 2])
    >>> g.chains(g.ids["a1"])
    [(4, 2, 1, 0, -1)]
    """

    def __init__(self, tree: LabelTree, max_distance: int = UNLIMITED) -> None:
        if not isinstance(tree, LabelTree):
            raise TypeError(f"tree must be a labelrank.hierarchy.LabelTree, got {type(tree).__name__}")
        self.tree = tree
        self.max_distance = check_positive_int(max_distance, "max_distance", minimum=0)
        self.ids = {label: i + 1 for i, label in enumerate(tree.labels)}
        self.edges = [(self.ids[p], self.ids[label]) for label in tree.labels for p in tree.parents(label)]
        # HEMKit orders a node's parents by their memory addresses; here by where the file first names them (module)
        created: dict[int, int] = {}
        for parent, child in self.edges:
            created.setdefault(parent, len(created))
            created.setdefault(child, len(created))
        created.setdefault(TOP, len(created))
        self.parents: dict[int, list[int]] = {TOP: []}
        for label in tree.labels:
            ps = [self.ids[p] for p in tree.parents(label)] or [TOP]
            self.parents[self.ids[label]] = sorted(ps, key=created.__getitem__)
        self._ancestors: dict[int, frozenset[int]] = {}
        self._chains: dict[int, list[tuple[int, ...]]] = {}

    def ancestors(self, node: int) -> frozenset[int]:
        """The node's ancestors up to ``max_distance + 1`` edges above it (node 0 included), not the node."""
        if node not in self._ancestors:
            found: set[int] = set()
            level, depth = set(self.parents[node]), 0
            while level:
                found |= level
                if depth >= self.max_distance:
                    break
                level = {p for n in level for p in self.parents[n]} - found
                depth += 1
            found.discard(node)
            self._ancestors[node] = frozenset(found)
        return self._ancestors[node]

    def chains(self, node: int) -> list[tuple[int, ...]]:
        """The node's chains upwards, each from the node to node 0 (or cut after ``max_distance`` edges), then -1.

        A chain that would meet a node twice (a cycle, which a LabelTree never has) ends before it.
        """
        if node not in self._chains and not self.tree.is_dag:  # a tree: one way up, read off in one pass
            chain = [node]
            while self.parents[chain[-1]] and len(chain) - 1 < self.max_distance:
                chain.append(self.parents[chain[-1]][0])
            self._chains[node] = [(*chain, DUMMY)]
        if node not in self._chains and node > 0:
            label = self.tree.labels[node - 1]
            n = self.tree.n_chains(label)
            self.tree.check_chain_bound(n * (min(self.max_distance, self.tree.max_depth) + 2),
                                        f"the {n:,} chains of {label!r} that HEMKit's LCA pairs enumerate")
        if node not in self._chains:
            out: list[tuple[int, ...]] = []
            todo: list[tuple[bool, tuple[int, ...]]] = [(False, (node,))]  # (finished, chain), depth first
            while todo:
                finished, chain = todo.pop()
                ps = self.parents[chain[-1]]
                if finished or not ps or len(chain) - 1 == self.max_distance:
                    out.append(chain)
                    continue
                # the parents in order; one already on the chain (a cycle, which a LabelTree never has) ends it
                todo.extend((p in chain, chain if p in chain else chain + (p,)) for p in reversed(ps))
            self._chains[node] = [chain + (DUMMY,) for chain in out]
        return self._chains[node]

    def encode(self, labels: Collection[str], name: str) -> set[int]:
        """The node numbers of ``labels``; ValueError naming ``name`` and the label for one not in the tree."""
        out = set()
        for label in labels:
            if label not in self.ids:
                raise ValueError(f"{name} {label!r} is not a label of the tree")
            out.add(self.ids[label])
        return out


def _prf(overlap: int, n_pred: int, n_true: int) -> tuple[float, float, float]:
    """One document's P, R and F as HEMKit computes them: 0/0 is nan, F = 0 only when P = R = 0."""
    p = overlap / n_pred if n_pred else math.nan
    r = overlap / n_true if n_true else math.nan
    f = 2 * p * r / (p + r) if (p != 0 or r != 0) else 0.0
    return p, r, f


def _augmented_by_ancestors(graph: HemkitGraph, nodes: set[int]) -> set[int]:
    return set(nodes).union(*(graph.ancestors(n) for n in nodes))


def _without_ancestors(graph: HemkitGraph, nodes: set[int]) -> set[int]:
    """The set without the nodes that are ancestors of another of its nodes."""
    above = set().union(*(graph.ancestors(n) for n in nodes))
    return {n for n in nodes if n not in above}


def _nearest_pairs(own: list[tuple[int, ...]], others: list[tuple[int, ...]], other_nodes: set[int]
                   ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """A label's shortest links to the other set: (its chain up to the common node, the other chain up to it).

    Along each of the label's chains the common node is the first one that some chain of the other set holds; the
    pairs of least total length are kept, in the order found, then ordered by the sum of their node numbers.
    """
    best, found = math.inf, []
    for chain in own:
        at = next((k for k, node in enumerate(chain) if node in other_nodes), None)
        if at is None:
            continue
        node = chain[at]
        for other in others:
            if node in other:
                length = at + other.index(node)
                if length < best:
                    best, found = length, []
                if length == best:
                    found.append((chain[: at + 1], other[: other.index(node) + 1]))
    return gnu_sort(found, key=lambda pair: sum(pair[0]) + sum(pair[1]))


def gnu_sort(items: list, key) -> list:
    """``items`` in the order g++'s ``std::sort`` (libstdc++'s introsort) leaves them, comparing ``key(item)``.

    Parameters
    ----------
    items : list
    key : callable
        The sort key of an item; items compare by ``key(a) < key(b)`` alone.

    ``std::sort`` does not keep the order of equal elements once there are more than 16 of them: introsort
    partitions around a median of three, falls back to heapsort past a depth of 2 log2(n), and finishes with an
    insertion sort. HEMKit sorts a label's equally short path pairs by their sum of node numbers this way, and which
    pair comes last decides where it files a link (see :func:`_lca_sets`), so the same steps are taken here.

    Examples
    --------
    >>> gnu_sort([(1, "a"), (0, "b"), (1, "c")], key=lambda x: x[0])
    [(0, 'b'), (1, 'a'), (1, 'c')]
    """
    a = list(items)
    keys = [key(x) for x in a]
    n = len(a)

    def less(i: int, j: int) -> bool:
        return keys[i] < keys[j]

    def swap(i: int, j: int) -> None:
        a[i], a[j] = a[j], a[i]
        keys[i], keys[j] = keys[j], keys[i]

    def sift(first: int, hole: int, length: int, value, value_key) -> None:  # libstdc++'s __adjust_heap
        top, child = hole, hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if keys[first + child] < keys[first + child - 1]:
                child -= 1
            a[first + hole], keys[first + hole] = a[first + child], keys[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole], keys[first + hole] = a[first + child - 1], keys[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and keys[first + parent] < value_key:  # __push_heap
            a[first + hole], keys[first + hole] = a[first + parent], keys[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole], keys[first + hole] = value, value_key

    def heapsort(first: int, last: int) -> None:  # __partial_sort(first, last, last)
        length = last - first
        if length >= 2:
            parent = (length - 2) // 2
            while True:
                sift(first, parent, length, a[first + parent], keys[first + parent])
                if parent == 0:
                    break
                parent -= 1
        while last - first > 1:
            last -= 1
            value, value_key = a[last], keys[last]
            a[last], keys[last] = a[first], keys[first]
            sift(first, 0, last - first, value, value_key)

    def introsort(first: int, last: int, depth: int) -> None:
        while last - first > 16:
            if depth == 0:
                heapsort(first, last)
                return
            depth -= 1
            x, y, z = first + 1, first + (last - first) // 2, last - 1
            # the median of a[first + 1], a[middle], a[last - 1] moves to a[first]; then partition around it
            if less(x, y):
                swap(first, y if less(y, z) else z if less(x, z) else x)
            else:
                swap(first, x if less(x, z) else z if less(y, z) else y)
            lo, hi = first + 1, last
            while True:
                while less(lo, first):
                    lo += 1
                hi -= 1
                while less(first, hi):
                    hi -= 1
                if not lo < hi:
                    break
                swap(lo, hi)
                lo += 1
            introsort(lo, last, depth)
            last = lo

    def insert(i: int, guarded_from: int | None) -> None:
        value, value_key = a[i], keys[i]
        if guarded_from is not None and value_key < keys[guarded_from]:
            a[guarded_from + 1: i + 1], keys[guarded_from + 1: i + 1] = a[guarded_from:i], keys[guarded_from:i]
            a[guarded_from], keys[guarded_from] = value, value_key
            return
        j = i - 1
        while value_key < keys[j]:
            a[j + 1], keys[j + 1] = a[j], keys[j]
            j -= 1
        a[j + 1], keys[j + 1] = value, value_key

    if n > 1:
        introsort(0, n, 2 * (n.bit_length() - 1))
        for i in range(1, min(n, 16)):  # __insertion_sort of the first 16
            insert(i, 0)
        for i in range(16, n):  # __unguarded_insertion_sort of the rest
            insert(i, None)
    return a


def _lca_sets(graph: HemkitGraph, true: set[int], pred: set[int]) -> tuple[set[int], set[int]]:
    """HEMKit's LCA-augmented (true, predicted) node sets of one document (sets already without ancestors)."""
    chains = {n: graph.chains(n) for n in true | pred}
    true_only, pred_only, both = sorted(true - pred), sorted(pred - true), true & pred
    true_chains = [c for n in sorted(true) for c in chains[n]]
    pred_chains = [c for n in sorted(pred) for c in chains[n]]
    true_nodes = {x for c in true_chains for x in c}
    pred_nodes = {x for c in pred_chains for x in c}
    golden, predicted = set(true), set(pred)  # grow as common ancestors are chosen (HEMKit's bookkeeping)
    linked: dict[int, set[int]] = {}  # common node -> the labels it links
    links_of: dict[int, set[int]] = {}  # label -> its candidate common nodes
    candidates: dict[int, set[int]] = {}  # label -> the nodes of its candidate paths
    by_true: dict[int, dict[int, list]] = {}
    by_pred: dict[int, dict[int, list]] = {}

    def candidate(anc: int, p: int, g: int) -> None:
        linked.setdefault(anc, set()).update((p, g))
        links_of.setdefault(p, set()).add(anc)
        links_of.setdefault(g, set()).add(anc)

    for g in true_only:
        for g_path, p_path in _nearest_pairs(chains[g], pred_chains, pred_nodes):
            candidates.setdefault(g, set()).update(g_path)
            candidate(g_path[-1], p_path[0], g)
            by_true.setdefault(g, {}).setdefault(p_path[0], []).append((p_path, g_path))
    for p in pred_only:
        for p_path, g_path in _nearest_pairs(chains[p], true_chains, true_nodes):
            candidates.setdefault(p, set()).update(p_path)
            candidate(p_path[-1], p, g_path[0])
            by_pred.setdefault(p, {}).setdefault(g_path[0], []).append((p_path, g_path))
    to_satisfy = len(true) + len(pred)

    # the common nodes kept: most labels linked first (ties: the higher node); one whose labels all have other
    # candidates is dropped; then nodes are kept until every label of both sets has one
    order = sorted(linked, key=lambda a: (-len(linked[a]), -a))
    dropped = set()
    for a in order:
        if all(len(links_of[n]) != 1 for n in linked[a]):
            dropped.add(a)
            for n in linked[a]:
                links_of[n].discard(a)
    kept: set[int] = set()
    sat_true, sat_pred = set(both), set(both)
    for a in order:
        if len(sat_true) + len(sat_pred) == to_satisfy:
            break
        if a in dropped:
            continue
        for n in sorted(linked[a]):
            if n in golden and n not in sat_true:
                kept.add(a)
                golden.add(a)
                sat_true.add(n)
            if n in predicted and n not in sat_pred:
                kept.add(a)
                predicted.add(a)
                sat_pred.add(n)

    # for each (label, other label): one of their equally short path pairs through a kept node
    chosen: dict[int, dict[int, tuple[tuple[int, ...], bool]]] = {}  # node -> label -> (path, predicted side)
    for groups, is_true in ((by_true, True), (by_pred, False)):
        for label in sorted(groups):
            for other in sorted(groups[label]):
                best = None
                anc = None
                for p_path, g_path in groups[label][other]:
                    anc = (g_path if is_true else p_path)[-1]
                    if anc not in kept:
                        continue
                    shared = sum(x in predicted for x in p_path) + sum(x in golden for x in g_path)
                    total = sum(p_path) + sum(g_path)
                    if best is None or shared > best[0]:
                        best = [shared, 0, total, p_path, g_path]
                    elif shared == best[0]:
                        g_label, p_label = (label, other) if is_true else (other, label)
                        elsewhere = (max((len(set(g_path) & candidates[o]) for o in true_only
                                          if o != g_label and o in candidates), default=0)
                                     + max((len(set(p_path) & candidates[o]) for o in pred_only
                                            if o != p_label and o in candidates), default=0))
                        if elsewhere > best[1]:
                            best[1:] = [elsewhere, total, p_path, g_path]
                        elif total < best[2]:
                            best[2:] = [total, p_path, g_path]
                if best is not None:
                    # HEMKit files the pair under the common node of the last candidate looked at
                    p_path, g_path = best[3], best[4]
                    golden.add(g_path[0])
                    predicted.add(p_path[0])
                    paths = chosen.setdefault(anc, {})
                    paths.setdefault(p_path[0], (p_path, True))
                    paths.setdefault(g_path[0], (g_path, False))

    # the augmented sets: the labels, then per kept node the paths of the labels it still has to link
    aug_true, aug_pred = set(true), set(pred)
    sat_true, sat_pred = set(both), set(both)
    for a in sorted(kept):
        if len(sat_true) + len(sat_pred) == to_satisfy:
            break
        added = {True: 0, False: 0}
        shortest: dict[bool, tuple[int, ...] | None] = {True: None, False: None}
        for node, (path, pred_side) in sorted(chosen.get(a, {}).items()):
            satisfied = sat_pred if pred_side else sat_true
            if node in satisfied:
                if shortest[pred_side] is None or len(path) < len(shortest[pred_side]):
                    shortest[pred_side] = path
                continue
            (aug_pred if pred_side else aug_true).update(path)
            added[pred_side] += 1
            satisfied.add(node)
        if added[True] and not added[False]:  # predicted labels linked here: the true side's shortest path too
            aug_true.update(shortest[False] or ())
        elif added[False] and not added[True]:
            aug_pred.update(shortest[True] or ())
    return aug_true, aug_pred


def hemkit_document(graph: HemkitGraph, true: Collection[str], pred: Collection[str], family: str = "both"
                    ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """One document's (hP, hR, hF) and (LCA-P, LCA-R, LCA-F) as HEMKit computes them.

    Parameters
    ----------
    graph : HemkitGraph
    true, pred : collection of str
        The document's true and predicted labels (any labels of the tree, the root included).
    family : {"both", "h", "lca"}, default="both"
        The family to compute; the other one's triple is NaN.

    Examples
    --------
    The first of the two cases in which HEMKit and an edge cover part (chain 1 -> 2 -> 3 -> 4): 2 is an
    ancestor of 4 in the same set, so the truth is read as {4}:

    >>> chain = LabelTree.from_parents({"1": None, "2": "1", "3": "2", "4": "3"})
    >>> [round(x, 4) for x in hemkit_document(HemkitGraph(chain), ["2", "4"], ["3"])[1]]
    [1.0, 0.5, 0.6667]
    """
    if family not in ("both", "h", "lca"):
        raise ValueError(f"family must be one of ('both', 'h', 'lca'), got {family!r}")
    t, p = graph.encode(true, "a true label"), graph.encode(pred, "a predicted label")
    h = lca = (math.nan,) * 3
    if family != "lca":
        t_aug, p_aug = _augmented_by_ancestors(graph, t), _augmented_by_ancestors(graph, p)
        h = _prf(len(t_aug & p_aug), len(p_aug), len(t_aug))
    if family != "h":
        lt, lp = _lca_sets(graph, _without_ancestors(graph, t), _without_ancestors(graph, p))
        lca = _prf(len(lt & lp), len(lp), len(lt))
    return h, lca


def hemkit_scores(tree: LabelTree, truth: Sequence[Collection[str]], predicted: Sequence[Collection[str]],
                  max_distance: int = UNLIMITED, family: str = "both") -> np.ndarray:
    """Each document's hP, hR, hF, LCA-P, LCA-R, LCA-F as HEMKit computes them (NaN rows: no true label).

    Parameters
    ----------
    tree : LabelTree
    truth, predicted : sequence of collections of str
        One entry per document.
    max_distance : int, default=100000
        HEMKit's maximum distance.
    family : {"both", "h", "lca"}, default="both"
        The family to compute (:func:`hemkit_document`); the other's columns are NaN.

    Returns
    -------
    numpy.ndarray, shape (n_documents, 6)
        HEMKit's macro averages are the means of the columns over the rows that are not all NaN (a document
        without a true label is left out, as HEMKit skips an empty truth line); NaN in a row that has a true label
        (an empty predicted set) makes HEMKit's averages NaN.

    Examples
    --------
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> hemkit_scores(tree, [["a1"]], [["a2"]]).round(4).tolist()
    [[0.75, 0.75, 0.75, 0.5, 0.5, 0.5]]
    """
    graph = HemkitGraph(tree, max_distance)
    rows = np.full((len(truth), 6), np.nan)
    for d, (true, pred) in enumerate(zip(truth, predicted)):
        if len(true):
            h, lca = hemkit_document(graph, true, pred, family)
            rows[d] = (*h, *lca)
    return rows


def hemkit_files(tree: LabelTree, truth: Sequence[Collection[str]], predicted: Sequence[Collection[str]],
                 folder: str | os.PathLike) -> tuple[Path, Path, Path]:
    """Write HEMKit's three input files (hierarchy, true and predicted labels) with this module's node numbers.

    Documents without a true label are left out of both label files (HEMKit skips an empty truth line but would
    still read the next predicted line, pairing the rest wrongly). Run them as
    ``HEMKit hierarchy.txt true.txt predicted.txt 100000 5``.

    Parameters
    ----------
    tree : LabelTree
    truth, predicted : sequence of collections of str
        One entry per document.
    folder : str or os.PathLike
        Where the files go (created if missing).

    Returns
    -------
    (Path, Path, Path)
        The hierarchy, truth and prediction files.

    Examples
    --------
    >>> import tempfile
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r"})
    >>> files = hemkit_files(tree, [["a"], ["b", "a"]], [["b"], []], tempfile.mkdtemp())
    >>> [f.read_text().splitlines() for f in files]
    [['1 2', '1 3'], ['2', '2 3'], ['3', '']]
    """
    graph = HemkitGraph(tree)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    files = folder / "hierarchy.txt", folder / "true.txt", folder / "predicted.txt"
    files[0].write_text("".join(f"{p} {c}\n" for p, c in graph.edges))
    kept = [(t, p) for t, p in zip(truth, predicted) if len(t)]
    for path, sets in ((files[1], [t for t, _ in kept]), (files[2], [p for _, p in kept])):
        path.write_text("".join(" ".join(str(i) for i in sorted(graph.encode(s, "a label"))) + "\n" for s in sets))
    return files
