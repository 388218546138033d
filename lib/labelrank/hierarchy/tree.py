"""Label hierarchies: :class:`LabelTree`, a rooted tree (or DAG) of labels.

A :class:`LabelTree` is built from a *parent map* that names each label's parent (``None`` for the one root; a list
of parents for a node of a DAG). It answers the structural questions the misclassification costs of
:mod:`labelrank.cost` ask: depths, root-to-node chains, root-to-leaf chains and their mean lengths, numbers of
children, common ancestors and heights.

Constructors
------------
* :meth:`LabelTree.from_parents` -- a ``dict`` parent map;
* :meth:`LabelTree.from_file` -- the project's YAML tree format (a parent map, see :meth:`LabelTree.from_file`);
* :meth:`LabelTree.from_fterms` -- F-term codes of one patent theme (theme -> viewpoints -> elements, sub-elements
  by dot level);
* :meth:`LabelTree.from_paths` -- separator-structured label names such as the Enron labels ``A.A1`` ... ``D.D19``.

:meth:`LabelTree.draw` draws a tree with matplotlib (a tidy layered layout; no graphviz needed).

Conventions: lengths are counted in *edges* unless a docstring says otherwise; the root has depth 0. In a DAG a node
may have several root-to-node chains; :meth:`LabelTree.depth` is the shortest.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from labelrank.validation import describe_value
from labelrank.hierarchy.arrays import MAX_CHAIN_ENTRIES, RMQ_MAX_ENTRIES, TreeArrays
from labelrank.hierarchy.io import _check_label, _mapping_line, _yaml_scalar, _yaml_value

__all__ = ["LabelTree", "TreeArrays", "MAX_CHAIN_ENTRIES", "RMQ_MAX_ENTRIES"]


# ----------------------------------------------------------------------------------------------------------- YAML

def _reachable(start: Iterable[str], links: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """Every label reached from ``start`` by following ``links`` (parents or children), ``start`` included."""
    out: set[str] = set()
    stack = list(start)
    while stack:
        x = stack.pop()
        if x not in out:
            out.add(x)
            stack.extend(links[x])
    return frozenset(out)


class LabelTree:
    """A rooted tree of labels, or a rooted DAG (a label with several parents).

    Build one with :meth:`from_parents`, :meth:`from_file`, :meth:`from_fterms` or :meth:`from_paths`. A tree is
    immutable; its derived quantities are computed once and cached.

    Parameters
    ----------
    parents : Mapping[str, tuple[str, ...]]
        Each label's parents (empty tuple for the root), in the order the labels should be listed.

    Raises
    ------
    ValueError
        For an unknown parent, a cycle, no root or several roots, a label listed twice as a parent of the same node;
        the message names the offending labels.
    TypeError
        For a label that is not a string.

    Examples
    --------
    >>> t = LabelTree.from_parents({"root": None, "A": "root", "B": "root", "A1": "A"})
    >>> t.root, t.depth("A1"), t.children("root"), t.leaves
    ('root', 2, ('A', 'B'), ('B', 'A1'))
    """

    def __init__(self, parents: Mapping[str, tuple[str, ...]]) -> None:
        if not isinstance(parents, Mapping):
            raise TypeError(f"parents must be a mapping label -> parent(s), got {describe_value(parents)}")
        if len(parents) == 0:
            raise ValueError("parents must name at least one label (the root), got an empty mapping")
        self._parents: dict[str, tuple[str, ...]] = {}
        for label, ps in parents.items():
            _check_label(label, "a label")
            ps = tuple(ps)
            for p in ps:
                _check_label(p, f"the parent of {describe_value(label)}")
            dup = sorted({p for p in ps if ps.count(p) > 1})
            if dup:
                raise ValueError(f"label {describe_value(label)} lists parent(s) {dup} more than once")
            self._parents[label] = ps
        unknown = {p: c for c, ps in self._parents.items() for p in ps if p not in self._parents}
        if unknown:
            shown = sorted(unknown.items())[:5]
            desc = ", ".join(f"{describe_value(p)} (parent of {describe_value(c)})" for p, c in shown)
            desc += f" and {len(unknown) - 5:,} more" if len(unknown) > 5 else ""
            raise ValueError(f"unknown parent label(s): {desc}; every parent must also be listed as a label")
        roots = [lab for lab, ps in self._parents.items() if not ps]
        if len(roots) > 1:
            raise ValueError(f"a LabelTree has exactly one root, got {len(roots)}: {describe_value(roots)}")
        self._labels: tuple[str, ...] = tuple(self._parents)
        self._index = {lab: i for i, lab in enumerate(self._labels)}
        children: dict[str, list[str]] = {lab: [] for lab in self._labels}
        for lab, ps in self._parents.items():
            for p in ps:
                children[p].append(lab)
        self._children = {lab: tuple(cs) for lab, cs in children.items()}
        # Raises on a cycle. With no root every label has a parent, so Kahn's order finds no start, stops empty and
        # reports a cycle: roots[0] below always exists.
        self._order = self._topological_order()
        self._root = roots[0]
        self._dag_chain_memo: dict[str, tuple[tuple[str, ...], ...]] = {}  # a DAG's chains, per label asked for

    # ------------------------------------------------------------------------------------------- constructors
    @classmethod
    def from_parents(cls, parents: Mapping[str, str | Sequence[str] | None]) -> LabelTree:
        """Build a tree from a parent map.

        Parameters
        ----------
        parents : dict[str, str | list[str] | None]
            ``parents[label]`` is the label's parent, ``None`` for the root, or a list of parents for a node of a DAG.
            The dict's order is the order of :attr:`labels`.

        Returns
        -------
        LabelTree

        Examples
        --------
        >>> LabelTree.from_parents({"r": None, "a": "r", "b": "r", "c": ["a", "b"]}).is_dag
        True
        """
        if not isinstance(parents, Mapping):
            raise TypeError(f"parents must be a dict label -> parent (None for the root), got {describe_value(parents)}")
        normal: dict[str, tuple[str, ...]] = {}
        for label, p in parents.items():
            if p is None:
                normal[label] = ()
            elif isinstance(p, str):
                normal[label] = (p,)
            elif isinstance(p, Sequence) and not isinstance(p, (bytes, bytearray)):
                if len(p) == 0:
                    raise ValueError(f"the parent list of {describe_value(label)} is empty; use None for the root")
                normal[label] = tuple(p)
            else:
                raise TypeError(
                    f"the parent of {describe_value(label)} must be a label, a list of labels or None, got {describe_value(p)}"
                )
        return cls(normal)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> LabelTree:
        """Read a tree from the project's YAML format: a parent map.

        The file is a YAML mapping ``label: parent``, with ``null`` for the root and a list for a node with several
        parents (a DAG)::

            # theme 2C088, a part
            2C088: null
            AA: 2C088
            AA01: AA
            X: [AA01, AA65]     # two parents

        Optionally the map sits under a ``parents:`` key, next to free-form metadata (``name``, ``description``,
        ``meta``), which is ignored here. Labels that YAML would read as numbers must be quoted. A label listed twice
        is an error (plain YAML would keep the last silently), and so is a YAML alias (``*name``). The file is UTF-8
        (or UTF-16 with a byte-order mark); a UTF-8 byte-order mark is allowed. With libyaml (PyYAML's C parser) a
        tree of 100,000 labels reads in about a second.

        Parameters
        ----------
        path : str or path-like

        Returns
        -------
        LabelTree
        """
        from labelrank.hierarchy.io import read_parent_map

        return cls.from_parents(read_parent_map(path))


    @classmethod
    def from_fterms(cls, theme: str, codes: Iterable[str | tuple[str, int]]) -> LabelTree:
        """Build the F-term tree of one patent theme: theme -> viewpoints -> elements -> sub-elements.

        The root is the theme (for example ``"2C088"``), the node the seed paper adds above the viewpoints. Each
        element code such as ``"AA01"`` hangs under its two-letter viewpoint (``"AA"``), created when first needed.
        Sub-elements follow the JPO code list's dot levels: an element with ``d`` dots hangs under the nearest
        preceding element of the same viewpoint with ``d - 1`` dots.

        Parameters
        ----------
        theme : str
            The theme code, used as the root label.
        codes : iterable of str or (str, int)
            In the order of the JPO code list. Each item is

            * ``"AA01"``: an element with dot level 0 (directly under its viewpoint);
            * ``".AA02"``, ``"..AA03"`` (or the list's own ``"・"``): the dot level given by leading dots;
            * ``("AA02", 1)``: an explicit (code, dots) pair;
            * ``"AA"``: a viewpoint, if you want it listed explicitly (``"AA00"``, the list's heading code, means the
              same).

            A code may carry the theme as a prefix (``"2C088AA01"``).

        Returns
        -------
        LabelTree

        Raises
        ------
        ValueError
            For a malformed or repeated code, a negative dot level, or a sub-element without a parent element one dot
            level up; the message names the code.

        Examples
        --------
        >>> t = LabelTree.from_fterms("2C088", ["AA01", ".AA02", "..AA03", "AA65", "BA01"])
        >>> t.parents("AA03"), t.parents("AA65"), t.children("2C088")
        (('AA02',), ('AA',), ('AA', 'BA'))
        """
        from labelrank.hierarchy.builders import fterm_parents

        return cls.from_parents(fterm_parents(theme, codes))

    @classmethod
    def from_paths(cls, labels: Iterable[str], sep: str = ".", root: str = "root") -> LabelTree:
        """Build a tree from structured label names: ``"A.A1"`` hangs under ``"A"``, ``"A"`` under ``root``.

        Each label's parent is its name up to the last ``sep``; missing ancestors are created. This gives, for
        example, the two-level tree of the Enron data set's labels ``A.A1`` ... ``D.D19``. The order of ``labels``
        does not matter (``["A.A1", "A"]`` and ``["A", "A.A1"]`` give the same tree); only a label listed twice is
        an error.

        Parameters
        ----------
        labels : iterable of str
        sep : str
            The separator, ``"."`` by default.
        root : str
            Label of the added root.

        Returns
        -------
        LabelTree

        Examples
        --------
        >>> t = LabelTree.from_paths(["A.A1", "A.A2", "B.B1"])
        >>> t.children("root"), t.children("A")
        (('A', 'B'), ('A.A1', 'A.A2'))
        """
        from labelrank.hierarchy.builders import path_parents

        return cls.from_parents(path_parents(labels, sep=sep, root=root))

    # ---------------------------------------------------------------------------------------------- basics
    def _topological_order(self) -> tuple[str, ...]:
        """Labels with every parent before its children (Kahn); raises ValueError naming a cycle."""
        indeg = {lab: len(ps) for lab, ps in self._parents.items()}
        queue = deque(lab for lab, d in indeg.items() if d == 0)
        order: list[str] = []
        while queue:
            lab = queue.popleft()
            order.append(lab)
            for c in self._children[lab]:
                indeg[c] -= 1
                if indeg[c] == 0:
                    queue.append(c)
        if len(order) < len(self._parents):
            left = {lab for lab, d in indeg.items() if d > 0}
            # follow parents inside the remainder until a label repeats: that is a cycle
            start = next(iter(left))
            path, seen = [start], {start: 0}
            while True:
                nxt = next(p for p in self._parents[path[-1]] if p in left)
                if nxt in seen:
                    cycle = path[seen[nxt]:] + [nxt]
                    break
                seen[nxt] = len(path)
                path.append(nxt)
            raise ValueError(
                f"the parent map has a cycle: {' -> '.join(map(repr, reversed(cycle)))} (each is the parent of the next)"
            )
        return tuple(order)

    def _check(self, label: Any, name: str = "label") -> str:
        if not isinstance(label, str):
            raise TypeError(f"{name} must be a label (str), got {describe_value(label)}")
        if label not in self._index:
            raise ValueError(f"{name} {describe_value(label)} is not a label of this tree ({len(self)} labels, root "
                             f"{describe_value(self._root)})")
        return label

    def __len__(self) -> int:
        return len(self._labels)

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels)

    def __contains__(self, label: object) -> bool:
        return label in self._index

    def __repr__(self) -> str:
        kind = "DAG" if self.is_dag else "tree"
        return f"LabelTree({kind}, {len(self)} labels, root={describe_value(self._root)}, {len(self.leaves)} leaves)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LabelTree):
            return NotImplemented
        return {k: set(v) for k, v in self._parents.items()} == {k: set(v) for k, v in other._parents.items()}

    __hash__ = None  # type: ignore[assignment]

    @property
    def labels(self) -> tuple[str, ...]:
        """All labels, in the order of the parent map."""
        return self._labels

    @property
    def root(self) -> str:
        """The root label."""
        return self._root

    @cached_property
    def is_dag(self) -> bool:
        """True when some label has more than one parent."""
        return any(len(ps) > 1 for ps in self._parents.values())

    def index(self, label: str) -> int:
        """Position of ``label`` in :attr:`labels`."""
        return self._index[self._check(label)]

    def parents(self, label: str) -> tuple[str, ...]:
        """The label's parents (empty for the root)."""
        return self._parents[self._check(label)]

    def children(self, label: str) -> tuple[str, ...]:
        """The label's direct children, in the order of the parent map."""
        return self._children[self._check(label)]

    def n_children(self, label: str) -> int:
        """Number of direct children (the *branching* of a node in BDM's BR)."""
        return len(self.children(label))

    def is_leaf(self, label: str) -> bool:
        """True when the label has no children."""
        return not self.children(label)

    @cached_property
    def leaves(self) -> tuple[str, ...]:
        """Labels without children, in the order of the parent map."""
        return tuple(lab for lab in self._labels if not self._children[lab])

    def preorder(self) -> list[str]:
        """Labels in depth-first order from the root, children in the order of the parent map.

        Every subtree is then a contiguous run (useful to order a heatmap). A DAG node is listed once, under its first
        parent.
        """
        out: list[str] = []
        stack = [self._root]
        while stack:
            lab = stack.pop()
            out.append(lab)
            stack.extend(c for c in reversed(self._children[lab]) if self._parents[c][0] == lab)
        return out

    def to_parents(self) -> dict[str, str | list[str] | None]:
        """The parent map (``None`` for the root, a list for a node with several parents)."""
        return {lab: (None if not ps else ps[0] if len(ps) == 1 else list(ps)) for lab, ps in self._parents.items()}

    def to_file(self, path: str | os.PathLike, header: str | None = None) -> None:
        """Write the tree in the YAML format :meth:`from_file` reads, with ``header`` as leading ``#`` comments."""
        lines = [f"# {line}".rstrip() for line in (header or "").splitlines()]
        for lab, p in self.to_parents().items():
            lines.append(_mapping_line(_yaml_scalar(lab), _yaml_value(p)))
        Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")

    # ------------------------------------------------------------------------------------------ structure
    @cached_property
    def chain_size(self) -> tuple[int, int]:
        """(The number of root-to-label chains over all labels, the labels they hold in all), counted without
        building them: a DAG's chains multiply with its depth, and a chain of n labels holds n (n + 1) / 2.

        Examples
        --------
        >>> LabelTree.from_parents({"r": None, "a": "r", "b": "r", "c": ["a", "b"]}).chain_size
        (5, 11)
        """
        count: dict[str, int] = {}
        held: dict[str, int] = {}
        for lab in self._order:
            ps = self._parents[lab]
            count[lab] = sum(count[p] for p in ps) if ps else 1
            held[lab] = sum(held[p] + count[p] for p in ps) if ps else 1
        return sum(count.values()), sum(held.values())

    @cached_property
    def _longest(self) -> dict[str, int]:
        """Per label, the edges on its longest root-to-label chain."""
        longest: dict[str, int] = {}
        for lab in self._order:
            longest[lab] = max((longest[p] + 1 for p in self._parents[lab]), default=0)
        return longest

    @cached_property
    def _chain_counts(self) -> dict[str, int]:
        """Per label, the number of its root-to-label chains (1 in a tree)."""
        count: dict[str, int] = {}
        for lab in self._order:
            ps = self._parents[lab]
            count[lab] = sum(count[p] for p in ps) if ps else 1
        return count

    def n_chains(self, label: str) -> int:
        """The number of root-to-``label`` chains (1 in a tree), counted without building them.

        Examples
        --------
        >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "c": ["a", "b"], "d": "c"})
        >>> t.n_chains("a"), t.n_chains("d")
        (1, 2)
        """
        return self._chain_counts[self._check(label)]

    def check_chain_bound(self, needed: int, what: str) -> None:
        """ValueError naming ``what`` and :data:`MAX_CHAIN_ENTRIES` when ``needed`` entries exceed that bound.

        Examples
        --------
        >>> t = LabelTree.from_parents({"r": None, "a": "r"})
        >>> t.check_chain_bound(10, "ten entries")  # within the bound: nothing happens
        """
        self._refuse_beyond_bound(needed, what)

    def _refuse_beyond_bound(self, needed: int, what: str) -> None:
        if needed > MAX_CHAIN_ENTRIES:
            raise ValueError(
                f"{what} need {needed:,} entries, more than the bound of {MAX_CHAIN_ENTRIES:,} that the measures "
                "which follow every chain of a DAG (BDM, LA, HEMKit's LCA-F) can hold in memory (a DAG's chains "
                "multiply with its depth)")

    def chains(self, label: str) -> tuple[tuple[str, ...], ...]:
        """All root-to-``label`` chains (each a tuple of labels, root first); one chain in a tree.

        In a tree the chain is read off the parents (``depth + 1`` labels). In a DAG the number of chains can grow
        exponentially with depth: more than :data:`MAX_CHAIN_ENTRIES` labels in all are refused (ValueError).
        """
        label = self._check(label)
        if not self.is_dag:
            chain = [label]
            while self._parents[chain[-1]]:
                chain.append(self._parents[chain[-1]][0])
            return (tuple(reversed(chain)),)
        if label not in self._dag_chain_memo:
            self._refuse_beyond_bound(self._chain_counts[label] * (self._longest[label] + 1),
                                      f"the {self._chain_counts[label]:,} root-to-{describe_value(label)} chains")
            memo = self._dag_chain_memo
            pending = [label]
            while pending:  # parents first, without recursion (a DAG may be deep)
                lab = pending[-1]
                missing = [p for p in self._parents[lab] if p not in memo]
                if missing:
                    pending.extend(missing)
                    continue
                pending.pop()
                ps = self._parents[lab]
                memo[lab] = tuple(c + (lab,) for p in ps for c in memo[p]) if ps else ((lab,),)
        return self._dag_chain_memo[label]

    def leaf_chains(self) -> list[tuple[str, ...]]:
        """All root-to-leaf chains, leaf by leaf in the order of :attr:`leaves` (bounded as :meth:`chains`)."""
        self._refuse_beyond_bound(sum(self._chain_counts[x] * (self._longest[x] + 1) for x in self.leaves),
                                  f"the tree's {sum(self._chain_counts[x] for x in self.leaves):,} root-to-leaf chains")
        return [c for leaf in self.leaves for c in self.chains(leaf)]

    @cached_property
    def _depths(self) -> dict[str, int]:
        depth: dict[str, int] = {}
        for lab in self._order:
            ps = self._parents[lab]
            depth[lab] = 0 if not ps else 1 + min(depth[p] for p in ps)
        return depth

    def depth(self, label: str) -> int:
        """Edges on the shortest root-to-``label`` chain (the root has depth 0)."""
        return self._depths[self._check(label)]

    @cached_property
    def max_depth(self) -> int:
        """Edges on the longest root-to-leaf chain."""
        return max(self._longest.values())

    @cached_property
    def _heights(self) -> dict[str, int]:
        height: dict[str, int] = {}
        for lab in reversed(self._order):
            cs = self._children[lab]
            height[lab] = 0 if not cs else 1 + max(height[c] for c in cs)
        return height

    def height(self, label: str) -> int:
        """Edges on the longest downward path from ``label`` to a leaf (0 for a leaf)."""
        return self._heights[self._check(label)]

    def ancestors(self, label: str) -> frozenset[str]:
        """All proper ancestors of ``label`` (over every chain in a DAG), found by walking up the parents."""
        return _reachable(self.parents(label), self._parents)

    def descendants(self, label: str) -> frozenset[str]:
        """All proper descendants of ``label``."""
        return _reachable(self.children(label), self._children)

    def lowest_common_ancestors(self, a: str, b: str) -> frozenset[str]:
        """The common ancestors-or-self of ``a`` and ``b`` none of whose descendants is also one (one in a tree)."""
        common = (self.ancestors(a) | {a}) & (self.ancestors(b) | {b})
        return frozenset(x for x in common if not (self.descendants(x) & common))

    @cached_property
    def _chain_stats(self) -> tuple[dict[str, float], float]:
        """Per label: mean edge length of the root-to-leaf chains through it; and the mean over all such chains.

        Counted as GATE counts them: a leaf with several chains contributes each chain. Dynamic programming over
        chain counts and length sums (never enumerating chains): chains through x = up(x) * down(x).
        """
        up_n: dict[str, int] = {}
        up_len: dict[str, int] = {}  # sum over root->x chains of their edge lengths
        for lab in self._order:
            ps = self._parents[lab]
            if not ps:
                up_n[lab], up_len[lab] = 1, 0
            else:
                up_n[lab] = sum(up_n[p] for p in ps)
                up_len[lab] = sum(up_len[p] + up_n[p] for p in ps)
        down_n: dict[str, int] = {}
        down_len: dict[str, int] = {}  # sum over x->leaf paths of their edge lengths
        for lab in reversed(self._order):
            cs = self._children[lab]
            if not cs:
                down_n[lab], down_len[lab] = 1, 0
            else:
                down_n[lab] = sum(down_n[c] for c in cs)
                down_len[lab] = sum(down_len[c] + down_n[c] for c in cs)
        through = {
            lab: (up_len[lab] * down_n[lab] + up_n[lab] * down_len[lab]) / (up_n[lab] * down_n[lab])
            for lab in self._labels
        }
        n_chains = sum(up_n[leaf] for leaf in self.leaves)
        n0 = sum(up_len[leaf] for leaf in self.leaves) / n_chains
        return through, n0

    def chain_length_through(self, label: str) -> float:
        """Mean edge length of the root-to-leaf chains that pass through ``label`` (BDM's n2 / n3).

        This is the full length of those chains, not the depth of ``label``: for a leaf it is its depth (mean over its
        chains in a DAG); for an inner node it is the mean depth of the leaves below it, weighted by chain counts.
        """
        return self._chain_stats[0][self._check(label)]

    @property
    def mean_chain_length(self) -> float:
        """Mean edge length of all root-to-leaf chains (BDM's n0)."""
        return self._chain_stats[1]

    @cached_property
    def mean_branching(self) -> float:
        """Mean number of direct children over the labels that have children (the normaliser of BDM's BR)."""
        counts = [len(cs) for cs in self._children.values() if cs]
        return sum(counts) / len(counts) if counts else 0.0

    @cached_property
    def arrays(self) -> TreeArrays:
        """Integer arrays over the (unfolded) tree for vectorized code; see :class:`TreeArrays`.

        A tree gives one row per label; a DAG one row per root-to-label chain, and its unfolding is refused when
        its rows and their lifting table would need more than :data:`MAX_CHAIN_ENTRIES` entries.
        """
        rows = sum(self._chain_counts.values())
        self._refuse_beyond_bound(rows * (max(1, self.max_depth.bit_length()) + 4),
                                  f"the unfolding of the DAG's {rows:,} root-to-label chains and its ancestry")
        node: list[int] = []
        parent: list[int] = []
        depth: list[int] = []
        rows_of: dict[str, list[int]] = {}
        for lab in self._order:
            rows_of[lab] = []
            ps = self._parents[lab]
            parent_rows = [-1] if not ps else [r for p in ps for r in rows_of[p]]
            for pr in parent_rows:
                rows_of[lab].append(len(node))
                node.append(self._index[lab])
                parent.append(pr)
                depth.append(0 if pr < 0 else depth[pr] + 1)
        return TreeArrays(np.asarray(node), np.asarray(parent), np.asarray(depth))

    # ------------------------------------------------------------------------------------------------ drawing
    def layout(self, fold: Collection[str] = ()) -> dict[str, tuple[float, float]]:
        """Positions for a tidy layered drawing: y = -depth, leaves evenly spaced, a parent centred over its children.

        A DAG is laid out along each label's first parent. Labels in ``fold`` (with their descendants) get no
        position; instead each parent with folded children gets one key ``"+n@parent"`` (``n`` folded labels).
        """
        from labelrank.hierarchy.drawing import layout

        return layout(self, fold)

    def draw(
        self,
        ax: Any = None,
        *,
        fold: Collection[str] = (),
        highlight: Iterable[str] = (),
        annotate: Mapping[str, str] | None = None,
        fontsize: float = 9,
        node_color: str = "#dde6f0",
        highlight_color: str = "#f6c667",
        text: Callable[[str], str] | None = None,
    ) -> Any:
        """Draw the tree with matplotlib in a tidy top-down layout (no graphviz needed).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure is made when omitted.
        fold : collection of str
            Labels to fold away with their descendants: each parent's folded children are drawn as one white box
            ``+n`` (``n`` labels folded), joined by a dotted edge.
        highlight : iterable of str
            Labels drawn in ``highlight_color``.
        annotate : dict[str, str], optional
            Text written under a label's box (e.g. ``{"AA01": "n2 = 3.2"}``).
        fontsize, node_color, highlight_color
            Styling.
        text : callable, optional
            The text shown in a label's box, ``text(label)`` (the label itself by default), e.g. the last part of a
            dotted name when the full names would overlap.

        Returns
        -------
        matplotlib Axes
        """
        from labelrank.hierarchy.drawing import draw

        return draw(self, ax, fold=fold, highlight=highlight, annotate=annotate, fontsize=fontsize,
                    node_color=node_color, highlight_color=highlight_color, text=text)


