r"""Compiled kernels (numba) of :mod:`labelrank.features`: distances, their exact recomputation and the selection
of each category's nearest members.

Each kernel is single-threaded, releases the GIL and writes into arrays its caller allocates, so that
:class:`~labelrank.features.MetaLevelFeatures` can share chunks of query rows among threads without copies.

Accuracy. A distance is summed from the differences of the coordinates wherever the data make that cheap (dense
input, dense centroids). Sparse input is handled with an inverted index over the shared non-zeros, which gives the
distances from norms and products,

.. math::

    \lVert a-b\rVert_2^2 = \lVert a\rVert_2^2 + \lVert b\rVert_2^2 - 2\,a \cdot b, \qquad
    \lVert a-b\rVert_1 = \lVert a\rVert_1 + \lVert b\rVert_1 - \sum_{j:\,a_j b_j \neq 0}
    (|a_j| + |b_j| - |a_j - b_j|),

whose rounding error is about :math:`\varepsilon (\lVert a\rVert^2 + \lVert b\rVert^2)`: harmless for
distances of the order of the norms, all of the value for near-duplicates or for data far from the origin.
Wherever the result is smaller than :data:`RECOMPUTE_BELOW` times the norms it came from, the pair's distance
is summed again from the differences themselves (a merge of the two sparse rows), so every :math:`L_1` and
:math:`L_2` value carries a relative error of at most about :math:`n_{nz}\,\varepsilon / \text{RECOMPUTE\_BELOW}`.
Cosine distances :math:`1 - a \cdot b / (\lVert a\rVert \lVert b\rVert)` are accurate to about
:math:`\varepsilon` in absolute terms (the distance lies in [0, 2]).

Examples
--------
>>> import numpy as np
>>> from labelrank.distance_kernels import dense_centroid_sq
>>> out = np.empty((1, 1))
>>> dense_centroid_sq(np.array([[1e8 + 0.5, 1e8]]), np.array([[1e8, 1e8 + 0.25]]), out)
>>> float(out[0, 0])  # 0.5**2 + 0.25**2, exactly; the expanded form gives 0.0 here
0.3125
"""

from __future__ import annotations

import numpy as np

from labelrank.optional import require

njit = require("numba", "labelrank.distance_kernels (the meta-level features' compiled kernels)").njit

__all__ = [
    "RECOMPUTE_BELOW", "dense_centroid_sq", "dense_finish", "dense_l1_l2_dot", "exclude_diagonal",
    "select_candidates", "sparse_centroid_sq", "sparse_l1_l2_cos", "sparse_row_distances", "write_block",
]

#: A distance from the expanded form smaller than this fraction of the norms it is computed from is summed again
#: from the coordinates' differences (sparse input). At 1/64 a pair is recomputed only when its squared distance is
#: below 1/64 of the squared norms (near-duplicates, or data far from the origin).
RECOMPUTE_BELOW = 1.0 / 64.0


@njit(nogil=True, fastmath=True, cache=True)
def dense_l1_l2_dot(A, B, d1, d2, dp):  # pragma: no cover - compiled
    """``d1[i, j] = ||A_i - B_j||_1``, ``d2[i, j] = ||A_i - B_j||_2^2`` and ``dp[i, j] = A_i . B_j`` for
    C-contiguous float64 ``A``, ``B``.

    Four query rows share every load of a training row (register tiling); the loop over features vectorises.
    The squared L2 distance is summed from the differences themselves, so it is exact to rounding even for
    near-duplicates (no ``|a|^2 + |b|^2 - 2 a.b`` cancellation).

    Every row goes through the same four-row code, the last tile filled up with copies of the last row (their
    results are not stored): ``fastmath`` lets the compiler reorder a sum differently in differently written
    loops, and a row's bits must not depend on whether the chunking put it in a full tile (so the features are the
    same for any ``chunk_size`` and ``n_jobs``).
    """
    n, d = A.shape
    m = B.shape[0]
    n_tiles = (n + 3) // 4
    for tile in range(n_tiles):
        i = tile * 4
        a0 = A[i]
        a1 = A[min(i + 1, n - 1)]
        a2 = A[min(i + 2, n - 1)]
        a3 = A[min(i + 3, n - 1)]
        for j in range(m):
            b = B[j]
            s0 = 0.0
            s1 = 0.0
            s2 = 0.0
            s3 = 0.0
            q0 = 0.0
            q1 = 0.0
            q2 = 0.0
            q3 = 0.0
            p0 = 0.0
            p1 = 0.0
            p2 = 0.0
            p3 = 0.0
            for t in range(d):
                bt = b[t]
                e0 = a0[t] - bt
                e1 = a1[t] - bt
                e2 = a2[t] - bt
                e3 = a3[t] - bt
                s0 += abs(e0)
                s1 += abs(e1)
                s2 += abs(e2)
                s3 += abs(e3)
                q0 += e0 * e0
                q1 += e1 * e1
                q2 += e2 * e2
                q3 += e3 * e3
                p0 += a0[t] * bt
                p1 += a1[t] * bt
                p2 += a2[t] * bt
                p3 += a3[t] * bt
            d1[i, j] = s0
            d2[i, j] = q0
            dp[i, j] = p0
            if i + 1 < n:
                d1[i + 1, j] = s1
                d2[i + 1, j] = q1
                dp[i + 1, j] = p1
            if i + 2 < n:
                d1[i + 2, j] = s2
                d2[i + 2, j] = q2
                dp[i + 2, j] = p2
            if i + 3 < n:
                d1[i + 3, j] = s3
                d2[i + 3, j] = q3
                dp[i + 3, j] = p3


@njit(nogil=True, fastmath=True, cache=True)
def dense_finish(s1, s2, sp_, qn, tn, o1, o2, oc):  # pragma: no cover - compiled
    """From L1 distances ``s1``, squared L2 distances ``s2``, dot products ``sp_`` and L2 norms: ``o1 = s1``,
    ``o2 = sqrt(s2)``, ``oc = 1 - a.b / (|a| |b|)`` clipped to [0, 2] (1 for a zero vector), stored in the
    outputs' dtype (the outputs may be the inputs themselves)."""
    n, m = s2.shape
    for i in range(n):
        a = qn[i]
        for j in range(m):
            b = tn[j]
            if a > 0.0 and b > 0.0:
                oc[i, j] = min(max(1.0 - sp_[i, j] / (a * b), 0.0), 2.0)
            else:
                oc[i, j] = 1.0
            o2[i, j] = np.sqrt(max(s2[i, j], 0.0))
            o1[i, j] = s1[i, j]


@njit(nogil=True, cache=True)
def sparse_row_distances(a_idx, a_val, b_idx, b_val):  # pragma: no cover - compiled
    """``(||a - b||_1, ||a - b||_2^2)`` of two sparse rows (sorted indices), summed from the differences."""
    s1 = 0.0
    s2 = 0.0
    p = 0
    q = 0
    na = a_idx.shape[0]
    nb = b_idx.shape[0]
    while p < na or q < nb:
        if q >= nb or (p < na and a_idx[p] < b_idx[q]):
            e = a_val[p]
            p += 1
        elif p >= na or b_idx[q] < a_idx[p]:
            e = b_val[q]
            q += 1
        else:
            e = a_val[p] - b_val[q]
            p += 1
            q += 1
        s1 += abs(e)
        s2 += e * e
    return s1, s2


@njit(nogil=True, cache=True)
def sparse_l1_l2_cos(
    q_ptr, q_idx, q_val, t_ptr, t_idx, t_val, r_ptr, r_idx, r_val, q_n1, q_n2, t_n1, t_n2, acc1, accd, o1, o2, oc
):  # pragma: no cover - compiled
    """Exact L1, L2 and cosine distances between CSR query rows and a CSC training matrix.

    For each query row the training matrix's columns act as an inverted index: every shared non-zero adds
    ``a_j b_j`` to the dot product (``accd``) and ``|a_j| + |b_j| - |a_j - b_j|`` to the L1 correction
    (``acc1``), so that ``L1 = |a|_1 + |b|_1 - correction``, ``L2^2 = |a|^2 + |b|^2 - 2 a.b`` and
    ``cos = 1 - a.b / (|a| |b|)``; work is proportional to the shared non-zeros, as in a sparse matrix product.
    A pair whose L1 or squared L2 distance comes out below :data:`RECOMPUTE_BELOW` times the norms it is computed
    from is summed again from the differences (:func:`sparse_row_distances` on the query row and the training
    row ``r_ptr``/``r_idx``/``r_val``, the training matrix in CSR form). The float64 accumulators may double as
    the outputs ``o1`` / ``oc``.
    """
    n = q_ptr.shape[0] - 1
    m = acc1.shape[1]
    for i in range(n):
        r1 = acc1[i]
        rd = accd[i]
        for j in range(m):
            r1[j] = 0.0
            rd[j] = 0.0
        for p in range(q_ptr[i], q_ptr[i + 1]):
            f = q_idx[p]
            a = q_val[p]
            aa = abs(a)
            for s in range(t_ptr[f], t_ptr[f + 1]):
                j = t_idx[s]
                b = t_val[s]
                rd[j] += a * b
                r1[j] += aa + abs(b) - abs(a - b)
        na = np.sqrt(q_n2[i])
        a_idx = q_idx[q_ptr[i] : q_ptr[i + 1]]
        a_val = q_val[q_ptr[i] : q_ptr[i + 1]]
        for j in range(m):
            dot = rd[j]
            mass1 = q_n1[i] + t_n1[j]
            mass2 = q_n2[i] + t_n2[j]
            l1 = mass1 - r1[j]
            sq = mass2 - 2.0 * dot
            if l1 < RECOMPUTE_BELOW * mass1 or sq < RECOMPUTE_BELOW * mass2:
                l1, sq = sparse_row_distances(a_idx, a_val, r_idx[r_ptr[j] : r_ptr[j + 1]],
                                              r_val[r_ptr[j] : r_ptr[j + 1]])
            o1[i, j] = max(l1, 0.0)
            o2[i, j] = np.sqrt(max(sq, 0.0))
            nb = np.sqrt(t_n2[j])
            if na > 0.0 and nb > 0.0:
                oc[i, j] = min(max(1.0 - dot / (na * nb), 0.0), 2.0)
            else:
                oc[i, j] = 1.0


@njit(nogil=True, cache=True)
def write_block(staging, D, row0, exclude_self, member, cat_ptr, k, out, off):  # pragma: no cover - compiled
    """Copy each category's sorted nearest distances from the staging buffer into ``out``, padding to ``k``.

    With ``n`` query rows, category ``c`` (members ``cat_ptr[c]`` to ``cat_ptr[c+1]``, ``n_c`` of them) occupies
    ``staging[n * cat_ptr[c]: n * cat_ptr[c+1]]`` as a C-ordered ``(n, n_c)`` block of the distances from each
    query row to the members, sorted in its first ``min(n_c, k)`` columns. With ``exclude_self`` query row ``r``
    is training row ``row0 + r``, whose own distance was set to infinity (so sorted last) and is skipped. Fewer
    than ``k`` members: their largest distance fills the remaining places (footnote 1); none: the largest
    distance to any other training row.
    """
    n, n_train = D.shape
    n_cat = cat_ptr.shape[0] - 1
    for r in range(n):
        me = row0 + r if exclude_self else -1
        for c in range(n_cat):
            n_c = cat_ptr[c + 1] - cat_ptr[c]
            base = n * cat_ptr[c] + r * n_c
            skip_self = me >= 0 and member[me, c] == 1
            n_eff = n_c - 1 if skip_self else n_c
            if n_eff == 0:
                far = 0.0
                for j in range(n_train):
                    if j != me and D[r, j] > far:
                        far = D[r, j]
                for t in range(k):
                    out[r, c, off + t] = far
            else:
                w = min(n_eff, k)
                for t in range(w):
                    out[r, c, off + t] = staging[base + t]
                last = staging[base + w - 1]
                for t in range(w, k):
                    out[r, c, off + t] = last


@njit(nogil=True, cache=True)
def exclude_diagonal(D, row0, value):  # pragma: no cover - compiled
    """``D[r, row0 + r] = value``: a training instance's distance to itself, when the queries are the training rows."""
    for r in range(D.shape[0]):
        D[r, row0 + r] = value


@njit(nogil=True, cache=True)
def select_candidates(cand_idx, cand_dist, exclude_self, lab_ptr, lab_idx, k, out, off):  # pragma: no cover
    """Approximate search: per category, the first ``k`` of each query's candidate neighbours that belong to it.

    ``cand_idx[r]`` / ``cand_dist[r]`` list training rows in ascending order of distance (a negative index marks
    no candidate); training row ``l`` belongs to the categories ``lab_idx[lab_ptr[l]:lab_ptr[l+1]]``; with
    ``exclude_self`` query row ``r`` is training row ``r`` and is skipped. A category with fewer than ``k``
    candidates repeats its largest one (footnote 1); one with none gets the largest candidate distance of the
    row, a lower bound of its true nearest distance.
    """
    n, n_cand = cand_idx.shape
    n_cat = out.shape[1]
    for r in range(n):
        me = r if exclude_self else -1
        cnt = np.zeros(n_cat, np.int64)
        far = 0.0
        for t in range(n_cand):
            j = cand_idx[r, t]
            if j < 0 or j == me:
                continue
            v = cand_dist[r, t]
            far = v
            for p in range(lab_ptr[j], lab_ptr[j + 1]):
                c = lab_idx[p]
                if cnt[c] < k:
                    out[r, c, off + cnt[c]] = v
                    cnt[c] += 1
        for c in range(n_cat):
            nc = cnt[c]
            if nc == 0:
                for t in range(k):
                    out[r, c, off + t] = far
            else:
                last = out[r, c, off + nc - 1]
                for t in range(nc, k):
                    out[r, c, off + t] = last


@njit(nogil=True, cache=True)
def dense_centroid_sq(A, C, out):  # pragma: no cover - compiled
    """``out[i, c] = ||A_i - C_c||_2^2``, summed from the differences (dense rows ``A``, centroids ``C``)."""
    n, d = A.shape
    m = C.shape[0]
    for i in range(n):
        a = A[i]
        for c in range(m):
            b = C[c]
            s = 0.0
            for t in range(d):
                e = a[t] - b[t]
                s += e * e
            out[i, c] = s


@njit(nogil=True, cache=True)
def sparse_centroid_sq(q_ptr, q_idx, q_val, C, c_n2, out):  # pragma: no cover - compiled
    """``out[i, c] = ||A_i - C_c||_2^2`` for CSR rows ``A`` (sorted indices) and dense centroids ``C``.

    The sum runs over the row's non-zeros, ``(a_t - c_t)^2``, plus the centroid's mass off the row's support,
    ``|C_c|^2 - sum_t c_t^2`` (``c_n2`` the centroids' squared norms); when that remainder is below
    :data:`RECOMPUTE_BELOW` of ``|C_c|^2`` (the row covers nearly all of the centroid's mass) it is summed
    directly over the features off the support, so that the result does not rest on a cancellation.
    """
    n = q_ptr.shape[0] - 1
    m, d = C.shape
    for i in range(n):
        lo = q_ptr[i]
        hi = q_ptr[i + 1]
        for c in range(m):
            b = C[c]
            on = 0.0
            mass = 0.0
            for p in range(lo, hi):
                bt = b[q_idx[p]]
                e = q_val[p] - bt
                on += e * e
                mass += bt * bt
            off = c_n2[c] - mass
            if off < RECOMPUTE_BELOW * c_n2[c]:
                off = 0.0
                p = lo
                for t in range(d):
                    if p < hi and q_idx[p] == t:
                        p += 1
                    else:
                        off += b[t] * b[t]
            out[i, c] = on + max(off, 0.0)
