"""Integer-indexed arrays of a label tree (:class:`TreeArrays`), for vectorized ancestry: binary lifting, lowest
common rows, path sums; and the bounds that keep a DAG's unfolding within memory."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

__all__ = ["TreeArrays", "MAX_CHAIN_ENTRIES", "RMQ_MAX_ENTRIES"]

#: The most entries that the chains of a DAG (the root-to-label chains a measure enumerates, or the unfolding of
#: :attr:`LabelTree.arrays`, one row per chain) may need: beyond, the chain-based measures refuse the DAG with a
#: message instead of running out of memory. A tree needs no enumeration: its arrays are linear in its labels.
MAX_CHAIN_ENTRIES = 50_000_000
#: The most entries of the range-minimum table behind :meth:`TreeArrays.lowest_common` (rows times the bits of
#: their number, 8 bytes each): a larger unfolding answers by binary lifting, in more steps and no extra memory.
RMQ_MAX_ENTRIES = 1 << 23


class TreeArrays:
    r"""Integer-indexed arrays describing a tree, for vectorized computations (see :class:`labelrank.cost.BDMIndex`).

    For a DAG the arrays describe its *unfolding*: one row per root-to-node chain, ``node`` mapping each row back to
    the label index. For a tree the unfolding is the tree itself (``node[i] == i``). Rows are listed parents first.

    Ancestry is kept in space linear in the rows (times the logarithm of the depth): ``up[b, i]`` is the row
    :math:`2^b` levels above row ``i`` (the root above itself), the table of binary lifting, from which
    :meth:`ancestor` answers any number of queries in :math:`O(\log \text{depth})` vectorized steps each; no table
    of all chains is built. :meth:`lowest_common` answers in a constant number of steps from a range-minimum table
    over the rows in depth-first order (built on first use, :math:`m \log m` entries, up to
    :data:`RMQ_MAX_ENTRIES`), and by binary lifting beyond.

    Attributes
    ----------
    node : ndarray of int, shape (m,)
        Label index of each row.
    parent : ndarray of int, shape (m,)
        Row of the parent in the unfolding (-1 for the root).
    depth : ndarray of int, shape (m,)
        Edge depth of the row's chain.
    up : ndarray of int, shape (levels, m)
        ``up[b, i]``: the row :math:`2^b` levels above ``i``, or the root where the chain is shorter;
        ``levels = max(1, max_depth.bit_length())``.

    Examples
    --------
    >>> from labelrank.hierarchy import LabelTree
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> t.labels
    ('r', 'a', 'b', 'a1', 'a2')
    >>> arrays = t.arrays
    >>> arrays.parent.tolist(), arrays.depth.tolist()
    ([-1, 0, 0, 1, 1], [0, 1, 1, 2, 2])
    >>> arrays.ancestor([3, 4, 2], 1).tolist()  # the depth-1 ancestors of a1, a2 and b
    [1, 1, 2]
    >>> arrays.lowest_common([3, 3], [4, 2]).tolist()  # a1 and a2 meet at a, a1 and b at the root
    [1, 0]
    """

    def __init__(self, node: np.ndarray, parent: np.ndarray, depth: np.ndarray) -> None:
        self.node = np.asarray(node, dtype=np.int64)
        self.parent = np.asarray(parent, dtype=np.int64)
        self.depth = np.asarray(depth, dtype=np.int64)
        m = len(self.node)
        max_depth = int(self.depth.max()) if m else 0
        levels = max(1, max_depth.bit_length())
        up = np.empty((levels, m), dtype=np.int64)
        up[0] = np.where(self.parent >= 0, self.parent, np.arange(m))
        for b in range(1, levels):
            up[b] = up[b - 1][up[b - 1]]
        self.up = up

    def ancestor(self, rows: Sequence[int] | np.ndarray, depth: int | np.ndarray) -> np.ndarray:
        """The row at ``depth`` on each row's chain (``depth`` at most the row's own; broadcast against ``rows``)."""
        rows = np.asarray(rows, dtype=np.int64)
        lift = self.depth[rows] - np.asarray(depth, dtype=np.int64)
        if np.any(lift < 0):
            raise ValueError("depth must not exceed the depth of the row")
        for b in range(self.up.shape[0]):
            move = ((lift >> b) & 1).astype(bool)
            if move.any():
                rows = np.where(move, self.up[b][rows], rows)
        return rows

    def lowest_common(self, i: Sequence[int] | np.ndarray, j: Sequence[int] | np.ndarray) -> np.ndarray:
        """The deepest row on both the chain of ``i`` and the chain of ``j``, pair by pair (``i`` and ``j``
        broadcast against each other).

        In depth-first order the rows strictly after the earlier of two distinct rows, up to the later one, lie
        below their lowest common row, and the shallowest of them is one of its children: its parent is the answer
        (a query of the range-minimum table :attr:`range_minimum`). Without the table (:data:`RMQ_MAX_ENTRIES`),
        both rows are lifted to the same depth and then together (:meth:`lowest_common_lifting`).
        """
        i = np.asarray(i, dtype=np.int64)
        j = np.asarray(j, dtype=np.int64)
        table = self.range_minimum
        if table is None:
            return self.lowest_common_lifting(i, j)
        position, keys, parent_at, log2 = table
        m = len(self.node)
        pi, pj = position[i], position[j]
        lo = np.minimum(pi, pj) + 1
        hi = np.maximum(pi, pj)
        level = log2[np.maximum(hi - lo + 1, 1)]
        start = level * m
        shallowest = np.minimum(keys[start + np.minimum(lo, m - 1)],
                                keys[start + np.maximum(hi - (1 << level) + 1, 0)])
        return np.where(i == j, i, parent_at[shallowest & 0xFFFFFFFF])

    @cached_property
    def range_minimum(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """The range-minimum table of :meth:`lowest_common`, or None beyond :data:`RMQ_MAX_ENTRIES`.

        ``(position, keys, parent_at, log2)``: each row's place in depth-first order; ``keys[b * m + p]``, the
        smallest ``depth << 32 | place`` among the places ``p .. p + 2**b - 1`` (a sparse table); the parent of the
        row at each place; ``log2[n]``, the floor of the binary logarithm of ``n``.
        """
        m = len(self.node)
        levels = max(1, m.bit_length())
        if m * levels > RMQ_MAX_ENTRIES:
            return None
        children = np.argsort(self.parent, kind="stable")  # rows grouped by parent, in row order within a group
        first = np.searchsorted(self.parent[children], np.arange(m + 1))
        kids, starts = children.tolist(), first.tolist()
        order, stack = [], np.flatnonzero(self.parent < 0).tolist()[::-1]
        while stack:
            row = stack.pop()
            order.append(row)
            stack.extend(reversed(kids[starts[row]:starts[row + 1]]))
        order = np.asarray(order, dtype=np.int64)
        position = np.empty(m, dtype=np.int64)
        position[order] = np.arange(m)
        keys = np.empty((levels, m), dtype=np.int64)
        keys[0] = (self.depth[order] << 32) | np.arange(m)
        for b in range(1, levels):
            half = 1 << (b - 1)
            keys[b] = keys[b - 1]
            np.minimum(keys[b - 1, : m - half], keys[b - 1, half:], out=keys[b, : m - half])
        log2 = np.zeros(m + 1, dtype=np.int64)
        if m > 1:
            log2[2:] = np.log2(np.arange(2, m + 1)).astype(np.int64)
        return position, keys.reshape(-1), self.parent[order], log2

    def lowest_common_lifting(self, i: Sequence[int] | np.ndarray, j: Sequence[int] | np.ndarray) -> np.ndarray:
        """:meth:`lowest_common` by binary lifting (the table ``up``): no memory beyond the queries'."""
        i = np.asarray(i, dtype=np.int64)
        j = np.asarray(j, dtype=np.int64)
        level = np.minimum(self.depth[i], self.depth[j])
        a, b = self.ancestor(i, level), self.ancestor(j, level)
        for k in range(self.up.shape[0] - 1, -1, -1):
            ua, ub = self.up[k][a], self.up[k][b]
            move = ua != ub
            if move.any():
                a, b = np.where(move, ua, a), np.where(move, ub, b)
        return np.where(a == b, a, self.up[0][a])

    def path_sums(self, values: np.ndarray) -> np.ndarray:
        """``values`` summed along each row's chain from the root, the row itself included (pointer doubling:
        ``levels`` vectorized steps)."""
        total = np.asarray(values, dtype=np.float64).copy()
        reach = self.depth + 1  # the rows on each chain; after step b, total sums the lowest 2^(b+1) of them
        for b in range(self.up.shape[0]):
            far = np.flatnonzero(reach > (1 << b))
            if far.size == 0:
                break
            total[far] = total[far] + total[self.up[b][far]]  # the right side is read whole before the write
        return total

    @property
    def ancestor_at(self) -> np.ndarray:
        """``ancestor_at[d, i]``: the row of ``i``'s ancestor at depth ``d`` (``i`` itself at its own depth), -1
        below: the full table, (max_depth + 1) x m entries, built on demand; refused beyond
        :data:`MAX_CHAIN_ENTRIES`."""
        m = len(self.node)
        max_depth = int(self.depth.max()) if m else 0
        size = (max_depth + 1) * m
        if size > MAX_CHAIN_ENTRIES:
            raise ValueError(f"the ancestor table would need {size:,} entries, more than the bound of "
                             f"{MAX_CHAIN_ENTRIES:,}: use TreeArrays.ancestor, which needs none")
        anc = np.full((max_depth + 1, m), -1, dtype=np.int64)
        rows = np.arange(m)
        for d in range(max_depth + 1):
            ok = self.depth >= d
            anc[d, ok] = self.ancestor(rows[ok], d)
        return anc
