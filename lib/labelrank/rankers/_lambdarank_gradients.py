r"""LightGBM's LambdaRank gradients for lists of relevant and irrelevant labels, compiled: the same numbers, faster.

LightGBM's ``lambdarank`` objective spends its time on pairs that do nothing: for each of a list's first 30
positions it visits every later position and skips the pairs of equal relevance, about 2,300 visits per list of
Reuters-21578's 86 categories for about 100 pairs of a relevant and an irrelevant label; it sorts every list from
scratch at every boosting round and looks up a sigmoid table of 8 MB, a cache miss per pair. With binary relevance
this module visits only the pairs that count, in the order LightGBM visits them, re-sorts each list starting from
its order at the previous round (scores move little between rounds) and computes the table's entry instead of
reading it. Every floating-point operation is LightGBM's, in its order and precision (the lambdas summed in
float32), so the boosters grow the same trees: ``tests/test_rankers.py`` checks them tree for tree against
``lightgbm.LGBMRanker(objective="lambdarank")``.

For a list with scores :math:`s`, sorted in decreasing order (ties: the earlier label first), a relevant label
:math:`a` and an irrelevant one :math:`b` at 0-based positions :math:`r_a, r_b`, at least one of them before the
truncation level :math:`T = 30`, with discount :math:`D(r) = 1 / \log_2(2 + r)` and the list's best
:math:`\mathrm{DCG}@T` (the sum of :math:`D(r)` over its first :math:`\min(T, \#\text{relevant})` positions):

.. math::

    \Delta_{ab} = \frac{|D(r_a) - D(r_b)|}{\mathrm{DCG}@T \,(0.01 + |s_a - s_b|)}, \qquad
    \rho_{ab} = \frac{1}{1 + e^{\sigma (s_a - s_b)}}, \qquad
    \lambda_{ab} = -\sigma \Delta_{ab} \rho_{ab}, \qquad h_{ab} = \sigma^2 \Delta_{ab} \rho_{ab} (1 - \rho_{ab});

:math:`a` gets :math:`\lambda_{ab}` added to its gradient, :math:`b` gets it subtracted, both :math:`h_{ab}` added
to their hessians (the division by :math:`0.01 + |s_a - s_b|` only where the list's scores are not all equal), and
the list's gradients and hessians are then scaled by :math:`\log_2(1 + S) / S`, :math:`S = -2 \sum \lambda_{ab}`.
:math:`\rho` is LightGBM's table of :math:`2^{20}` sigmoid values over :math:`[-25 / \sigma, 25 / \sigma]`, the
entry below the difference (Burges 2010, "From RankNet to LambdaRank to LambdaMART", MSR-TR-2010-82; LightGBM's
``src/objective/rank_objective.hpp``, ``LambdarankNDCG``, with its defaults ``sigmoid=1``,
``lambdarank_truncation_level=30``, ``lambdarank_norm=true``).
"""

from __future__ import annotations

import math

import numpy as np

from labelrank._optional import require

numba = require("numba", "labelrank.rankers._lambdarank_gradients (the compiled LambdaRank gradients)")

SIGMOID = 1.0
TRUNCATION = 30
_TABLE_BINS = 1024 * 1024
_TABLE_LOW = -50.0 / SIGMOID / 2  # LightGBM's table spans [-50 / sigmoid / 2, 50 / sigmoid / 2]
_TABLE_FACTOR = _TABLE_BINS / (-2 * _TABLE_LOW)
_SCORE_GAP = float(np.float32(0.01))  # LightGBM adds the float literal 0.01f to a double


@numba.njit(cache=True, nogil=True)
def _table_entry(i):
    """Entry ``i`` of LightGBM's sigmoid table, computed as LightGBM fills it."""
    return 1.0 / (1.0 + math.exp((i / _TABLE_FACTOR + _TABLE_LOW) * SIGMOID))


@numba.njit(cache=True, nogil=True)
def _sigmoid(delta):
    if delta <= _TABLE_LOW:
        return _table_entry(0)
    if delta >= -_TABLE_LOW:
        return _table_entry(_TABLE_BINS - 1)
    return _table_entry(np.uint64((delta - _TABLE_LOW) * _TABLE_FACTOR))


@numba.njit(cache=True, nogil=True)
def _discounts(m):
    out = np.empty(m)
    for r in range(m):
        out[r] = 1.0 / math.log2(2.0 + r)
    return out


@numba.njit(cache=True, nogil=True)
def _inverse_best_dcg(Y, discount):
    """1 / DCG@T of each list's ideal order (0 for a list without a relevant label), summed as LightGBM sums it."""
    n, m = Y.shape
    out = np.zeros(n)
    for q in range(n):
        relevant = 0
        for a in range(m):
            relevant += Y[q, a]
        best = 0.0
        for r in range(min(TRUNCATION, m, relevant)):
            best += discount[r]
        if best > 0.0:
            out[q] = 1.0 / best
    return out


@numba.njit(cache=True, nogil=True)
def _resort(order, s):
    """Insertion sort of ``order`` by decreasing ``s[order]``, ties by label index: std::stable_sort's result."""
    for a in range(1, order.size):
        v = order[a]
        b = a - 1
        while b >= 0 and (s[order[b]] < s[v] or (s[order[b]] == s[v] and order[b] > v)):
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = v


@numba.njit(cache=True, nogil=True)
def _gradients(scores, Y, order, inverse_dcg, discount, grad, hess):
    n, m = Y.shape
    relevant_at = np.empty(m, np.int64)  # the positions of the relevant labels, increasing
    lam = np.empty(m, np.float32)
    hes = np.empty(m, np.float32)
    for q in range(n):
        s = scores[q * m:(q + 1) * m]
        o = order[q]
        _resort(o, s)
        n_relevant = 0
        for r in range(m):
            lam[r] = 0.0
            hes[r] = 0.0
            if Y[q, o[r]]:
                relevant_at[n_relevant] = r
                n_relevant += 1
        spread = s[o[0]] != s[o[m - 1]]
        total = 0.0
        for i in range(min(m - 1, TRUNCATION)):  # LightGBM's pairs (i, j > i) with one relevant label, in order
            i_relevant = Y[q, o[i]] != 0
            for t in range(i + 1 if i_relevant else 0, m if i_relevant else n_relevant):
                if i_relevant:
                    if Y[q, o[t]]:
                        continue
                    high, low = i, t
                else:
                    if relevant_at[t] <= i:
                        continue
                    high, low = relevant_at[t], i
                a, b = o[high], o[low]
                delta = s[a] - s[b]
                gain = abs(discount[high] - discount[low]) * inverse_dcg[q]
                if spread:
                    gain /= _SCORE_GAP + abs(delta)
                rho = _sigmoid(delta)
                p_lambda = rho * (-SIGMOID * gain)
                p_hessian = rho * (1.0 - rho) * (SIGMOID * SIGMOID * gain)
                lam[b] -= np.float32(p_lambda)
                hes[b] += np.float32(p_hessian)
                lam[a] += np.float32(p_lambda)
                hes[a] += np.float32(p_hessian)
                total -= 2 * p_lambda
        if total > 0:
            factor = math.log2(1 + total) / total
            for r in range(m):
                lam[r] = np.float32(lam[r] * factor)
                hes[r] = np.float32(hes[r] * factor)
        grad[q * m:(q + 1) * m] = lam
        hess[q * m:(q + 1) * m] = hes


class LambdaRankGradients:
    """LightGBM's ``lambdarank`` objective for lists of binary relevance, as a custom objective of
    :func:`lightgbm.train` (``params["objective"] = LambdaRankGradients(Y)``): the same gradients, so the same trees.

    One object per training: it keeps each list's order from the previous boosting round.

    Parameters
    ----------
    Y : array-like of shape (n_lists, m)
        Binary relevance; list ``q`` is rows ``q * m`` to ``(q + 1) * m - 1`` of the training data.

    Examples
    --------
    >>> import numpy as np
    >>> g, h = LambdaRankGradients(np.array([[1, 0, 0]]))(np.zeros(3), None)  # round 1: all scores equal
    >>> [round(float(v), 4) for v in g]  # the relevant label pushed up, the others down, the last one more
    [-0.4512, 0.1916, 0.2596]
    """

    def __init__(self, Y):
        self.Y = np.ascontiguousarray(Y, dtype=np.int8)
        n, m = self.Y.shape
        self.discount = _discounts(m)
        self.inverse_dcg = _inverse_best_dcg(self.Y, self.discount)
        self.order = np.tile(np.arange(m, dtype=np.int64), (n, 1))
        self.grad = np.empty(n * m, np.float32)
        self.hess = np.empty(n * m, np.float32)

    def __call__(self, scores, dataset):
        _gradients(np.asarray(scores, dtype=np.float64), self.Y, self.order, self.inverse_dcg, self.discount,
                   self.grad, self.hess)
        return self.grad, self.hess
