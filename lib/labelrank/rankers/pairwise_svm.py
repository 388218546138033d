"""A pairwise (ranking) hinge-loss linear SVM solved by dual coordinate descent.

Every large-margin ranker in this project is one instance of the same convex problem. Let ``F`` be a feature
matrix of shape (n_rows, d) and let the weights be a matrix ``W`` of shape (n_blocks, d) (one weight vector per
*block*; a single shared vector when ``n_blocks = 1``). A *pair* ``p`` names a positive row ``a_p`` of ``F`` scored
by block ``s_p`` and a negative row ``b_p`` scored by block ``t_p``; it asks for the margin

.. math::

    m_p(W) = \\langle w_{s_p}, F_{a_p} \\rangle - \\langle w_{t_p}, F_{b_p} \\rangle \\ge 1 .

The solver minimises the primal

.. math::

    P(W) = \\tfrac12 \\sum_{j} \\lVert w_j \\rVert^2 + \\sum_p C_p \\max(0,\\, 1 - m_p(W))    \\tag{P}

through its dual (Hsieh et al. 2008, eq. 4), with :math:`z_p = e_{s_p} \\otimes F_{a_p} - e_{t_p} \\otimes F_{b_p}`
the pair's *difference example* in the flattened weight space,

.. math::

    \\max_{0 \\le \\alpha_p \\le C_p} D(\\alpha) = \\sum_p \\alpha_p - \\tfrac12 \\Big\\lVert \\sum_p \\alpha_p z_p
    \\Big\\rVert^2 ,
    \\qquad W(\\alpha) = \\sum_p \\alpha_p z_p .                                              \\tag{D}

Two uses in this project:

* **RankSVM-IR** (Joachims 2002) over meta-level features: one block, ``F`` the rows :math:`\\phi(x_i, c)`, a pair
  per (instance, relevant category, irrelevant category), ``s_p = t_p = 0``.
* **Rank-SVM** (Elisseeff & Weston 2001) on the original features: one block per label, ``a_p = b_p = i`` (the
  instance), ``s_p = k`` a relevant and ``t_p = l`` an irrelevant label of instance ``i``, and
  ``C_p = C / (|Y_i| |\\bar Y_i|)`` (see :class:`labelrank.baselines.RankSVM`).

Algorithm (Hsieh et al. 2008, Algorithm 1, with shrinking)
-------------------------------------------------------------
Each epoch visits the pairs in a fresh random order drawn from ``numpy.random.default_rng(random_state)`` (with
``groups``, a random order of the groups and of the pairs within each, each group's pairs together). For pair
``p`` the dual gradient is :math:`G = m_p(W) - 1`; its projected gradient is ``min(G, 0)`` at ``alpha_p = 0``,
``max(G, 0)`` at ``alpha_p = C_p`` and ``G`` in between. If it is non-zero the single variable is minimised exactly,
:math:`\\alpha_p \\leftarrow \\min(\\max(\\alpha_p - G / Q_{pp}, 0), C_p)` with
:math:`Q_{pp} = \\lVert z_p \\rVert^2`, and ``W`` is updated by :math:`(\\Delta\\alpha_p) z_p` (touching only the
two rows of ``F`` involved, so a sparse ``F`` costs its non-zeros; a dense row's dot products come from BLAS). A
pair with :math:`z_p = 0` (identical positive and negative vector) can never be satisfied; its optimal dual value is
:math:`C_p` and it does not move ``W``.

Shrinking (Hsieh et al. 2008, section 3.2, as in LIBLINEAR): a pair at ``alpha_p = 0`` whose gradient is above the
previous epoch's largest projected gradient, or at ``alpha_p = C_p`` with gradient below the smallest, is set aside;
later epochs visit only the remaining *active* pairs, which makes an epoch much cheaper once most pairs sit at a
bound.

Stopping: after an epoch, with :math:`PG_{max}` and :math:`PG_{min}` the largest and smallest projected gradient
met during it, the active pairs are solved when :math:`\\max(PG_{max}, 0) - \\min(PG_{min}, 0) \\le` ``tol``
(LIBLINEAR's criterion, with 0 included so that a uniform non-zero gradient cannot pass). If pairs were set aside,
the next epoch visits all pairs again; the solver stops when an epoch over *all* pairs meets the criterion, or
after ``max_iter`` epochs (passes over the active pairs), in which case ``converged`` is False. At the optimum
every projected gradient is 0 and :math:`P(W) = D(\\alpha)`; the result reports both objectives so a caller can
check the duality gap. Like every dual coordinate descent for the hinge loss, the solver needs many epochs when
``C`` is large and the pairs cannot all be met (many dual variables strictly inside their box).

Biases: (P) has no unpenalised bias. A bias per block is obtained by appending a constant column (value
``intercept_scaling``) to ``F``; its weight is then regularised like the others, as in LIBLINEAR. Within one block
(RankSVM-IR) a constant feature cancels in every pair, so there is no bias to learn; across blocks (Elisseeff &
Weston) only differences :math:`b_k - b_l` enter the constraints, and the regulariser picks the solution with
:math:`\\sum_k b_k = 0`.

References
----------
C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan (2008). A dual coordinate descent method for
large-scale linear SVM. ICML, 408-415.
T. Joachims (2002). Optimizing search engines using clickthrough data. KDD, 133-142.
A. Elisseeff, J. Weston (2001). A kernel method for multi-labelled classification. NIPS 14, 681-687.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np
import scipy.sparse as sp

from labelrank.optional import require
from labelrank.validation import check_label_matrix, check_positive_int, check_real

numba = require("numba", "labelrank.rankers.pairwise_svm (the solver's compiled kernels)")

__all__ = ["PairwiseHingeResult", "dual_path_starts", "fit_pairwise_hinge", "pair_margins", "rank_svm_pairs"]

#: With ``groups``, pairs whose two vectors are one row of ``F`` (Rank-SVM's) take :func:`_cd_epoch_rows`, the
#: same epoch with one pass over a row per run of its pairs; False: :func:`_cd_epoch` (the reference, for tests
#: and ``benchmarks/bench_protocol.py --compare``).
_ROW_RUNS = True


@dataclass(frozen=True)
class PairwiseHingeResult:
    """The solution of the pairwise hinge-loss SVM (P) returned by :func:`fit_pairwise_hinge`.

    Attributes
    ----------
    coef : numpy.ndarray of shape (n_blocks, n_features)
        The weight matrix ``W`` (row ``j`` is block ``j``'s weight vector).
    alpha : numpy.ndarray of shape (n_pairs,)
        The dual variables, ``0 <= alpha_p <= C_p``; pass them as ``alpha_init`` to warm-start a related problem.
    n_iter : int
        Number of epochs run (passes over the active pairs).
    converged : bool
        Whether the projected-gradient criterion was met before ``max_iter`` epochs.
    violation : float
        ``max(PG_max, 0) - min(PG_min, 0)`` over the last epoch.
    primal_objective, dual_objective : float
        :math:`P(W)` and :math:`D(\\alpha)`; their difference is the duality gap (0 at the optimum).

    Examples
    --------
    >>> res = fit_pairwise_hinge([[0.0], [1.0]], pos_rows=[1], neg_rows=[0], C=10.0)
    >>> res.converged, res.alpha.tolist(), res.duality_gap
    (True, [1.0], 0.0)
    """

    coef: np.ndarray
    alpha: np.ndarray
    n_iter: int
    converged: bool
    violation: float
    primal_objective: float
    dual_objective: float

    @property
    def duality_gap(self) -> float:
        """:math:`P(W) - D(\\alpha) \\ge 0`."""
        return self.primal_objective - self.dual_objective


# ----------------------------------------------------------------------------------------------------------------
# numba kernels. F is passed in two forms, one of them empty: ``dense`` (n_rows, d) when is_sparse is False, or the
# CSR triplet (data, indices, indptr) when it is True.
# ----------------------------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _row_dot(W, block, row, is_sparse, dense, data, indices, indptr):
    if not is_sparse:  # BLAS's dot (W and dense in C order): a compiled loop's strict summation order is slower
        return np.dot(W[block], dense[row])
    s = 0.0
    for q in range(indptr[row], indptr[row + 1]):
        s += W[block, indices[q]] * data[q]
    return s


@numba.njit(cache=True, nogil=True)
def _row_axpy(W, block, row, scale, is_sparse, dense, data, indices, indptr):
    if is_sparse:
        for q in range(indptr[row], indptr[row + 1]):
            W[block, indices[q]] += scale * data[q]
    else:
        for j in range(dense.shape[1]):
            W[block, j] += scale * dense[row, j]


@numba.njit(cache=True, nogil=True)
def _pair_sq_norms(pos_rows, neg_rows, pos_blocks, neg_blocks, n_features, is_sparse, dense, data, indices, indptr):
    """Q_pp = ||z_p||^2 for every pair, with a scratch vector for the cross term of same-block pairs."""
    n_pairs = pos_rows.shape[0]
    q = np.empty(n_pairs)
    scratch = np.zeros((1, n_features))
    for p in range(n_pairs):
        a, b = pos_rows[p], neg_rows[p]
        sa, sb = pos_blocks[p], neg_blocks[p]
        if sa == sb and a == b:
            q[p] = 0.0
            continue
        # ||F_a||^2 + ||F_b||^2 - 2 [s_a == s_b] <F_a, F_b>
        _row_axpy(scratch, 0, a, 1.0, is_sparse, dense, data, indices, indptr)
        norm_a = _row_dot(scratch, 0, a, is_sparse, dense, data, indices, indptr)
        if sa == sb:
            cross = _row_dot(scratch, 0, b, is_sparse, dense, data, indices, indptr)
        else:
            cross = 0.0
        _row_axpy(scratch, 0, a, -1.0, is_sparse, dense, data, indices, indptr)
        _row_axpy(scratch, 0, b, 1.0, is_sparse, dense, data, indices, indptr)
        norm_b = _row_dot(scratch, 0, b, is_sparse, dense, data, indices, indptr)
        _row_axpy(scratch, 0, b, -1.0, is_sparse, dense, data, indices, indptr)  # 0 + x - x = 0 exactly
        q[p] = max(norm_a + norm_b - 2.0 * cross, 0.0)
    return q


@numba.njit(cache=True, nogil=True)
def _grouped_order(active, groups, group_rank, n_groups, seed):
    """``active`` reordered so that each group's pairs are adjacent, the groups in the order ``group_rank`` gives
    and each group's pairs shuffled (Fisher-Yates, seeded): a counting sort, O(n_active + n_groups)."""
    np.random.seed(seed)
    starts = np.zeros(n_groups + 1, dtype=np.int64)
    for p in active:
        starts[group_rank[groups[p]] + 1] += 1
    for k in range(n_groups):
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    out = np.empty_like(active)
    for p in active:
        k = group_rank[groups[p]]
        out[fill[k]] = p
        fill[k] += 1
    for k in range(n_groups):
        a = starts[k]
        for i in range(starts[k + 1] - 1, a, -1):
            j = a + np.random.randint(0, i - a + 1)
            out[i], out[j] = out[j], out[i]
    return out


@numba.njit(cache=True, nogil=True)
def _margins(W, pos_rows, neg_rows, pos_blocks, neg_blocks, is_sparse, dense, data, indices, indptr):
    n_pairs = pos_rows.shape[0]
    out = np.empty(n_pairs)
    for p in range(n_pairs):
        out[p] = _row_dot(W, pos_blocks[p], pos_rows[p], is_sparse, dense, data, indices, indptr) - _row_dot(
            W, neg_blocks[p], neg_rows[p], is_sparse, dense, data, indices, indptr
        )
    return out


@numba.njit(cache=True, nogil=True)
def _accumulate(W, alpha, pos_rows, neg_rows, pos_blocks, neg_blocks, is_sparse, dense, data, indices, indptr):
    """W += sum_p alpha_p z_p."""
    for p in range(alpha.shape[0]):
        if alpha[p] != 0.0:
            _row_axpy(W, pos_blocks[p], pos_rows[p], alpha[p], is_sparse, dense, data, indices, indptr)
            _row_axpy(W, neg_blocks[p], neg_rows[p], -alpha[p], is_sparse, dense, data, indices, indptr)


@numba.njit(cache=True, nogil=True)
def _projected_gradient(g, old, cap, bound_max, bound_min):
    """(set aside, projected gradient) of a pair with dual gradient ``g`` at ``alpha = old`` in ``[0, cap]``.

    Shrinking (Hsieh et al. 2008, section 3.2): a pair at ``alpha = 0`` whose gradient exceeds ``bound_max`` (or at
    ``alpha = cap`` with gradient below ``bound_min``), the previous epoch's extreme projected gradients, is very
    likely to stay at its bound and is set aside."""
    if old <= 0.0:
        return g > bound_max, min(g, 0.0)
    if old >= cap:
        return g < bound_min, max(g, 0.0)
    return False, g


@numba.njit(cache=True, nogil=True)
def _new_alpha(g, old, cap, q):
    """The value of ``alpha`` in ``[0, cap]`` that maximises the dual along the pair's coordinate."""
    if q > 0.0:
        return min(max(old - g / q, 0.0), cap)
    return cap  # z_p = 0: g = -1, the dual objective grows linearly in alpha_p


@numba.njit(cache=True, nogil=True)
def _cd_epoch(index, n_active, bound_max, bound_min, alpha, upper, qdiag, W, pos_rows, neg_rows, pos_blocks,
              neg_blocks, is_sparse, dense, data, indices, indptr):
    """One pass of dual coordinate descent over the active pairs ``index[:n_active]``, in that order; a pair set
    aside (:func:`_projected_gradient`) is swapped behind the active part. Returns (PG_max, PG_min, new number of
    active pairs).
    """
    pg_max = 0.0
    pg_min = 0.0
    t = 0
    while t < n_active:
        p = index[t]
        sa, sb = pos_blocks[p], neg_blocks[p]
        a, b = pos_rows[p], neg_rows[p]
        g = (_row_dot(W, sa, a, is_sparse, dense, data, indices, indptr)
             - _row_dot(W, sb, b, is_sparse, dense, data, indices, indptr) - 1.0)
        old = alpha[p]
        shrink, pg = _projected_gradient(g, old, upper[p], bound_max, bound_min)
        if shrink:
            n_active -= 1
            index[t], index[n_active] = index[n_active], index[t]
            continue
        t += 1
        pg_max = max(pg_max, pg)
        pg_min = min(pg_min, pg)
        if pg == 0.0:
            continue
        new = _new_alpha(g, old, upper[p], qdiag[p])
        delta = new - old
        if delta != 0.0:
            alpha[p] = new
            _row_axpy(W, sa, a, delta, is_sparse, dense, data, indices, indptr)
            _row_axpy(W, sb, b, -delta, is_sparse, dense, data, indices, indptr)
    return pg_max, pg_min, n_active


@numba.njit(cache=True, nogil=True)
def _flush_row(W, row, touched, n_touched, cached, pending, is_sparse, dense, data, indices, indptr):
    """Write a run's pending changes ``W[j] += pending[j] * F[row]`` and empty the run's score cache."""
    for k in range(n_touched):
        j = touched[k]
        if pending[j] != 0.0:
            _row_axpy(W, j, row, pending[j], is_sparse, dense, data, indices, indptr)
            pending[j] = 0.0
        cached[j] = False


@numba.njit(cache=True, nogil=True)
def _cd_epoch_rows(index, n_active, bound_max, bound_min, alpha, upper, qdiag, W, rows, row_sq, pos_blocks,
                   neg_blocks, is_sparse, dense, data, indices, indptr):
    """:func:`_cd_epoch` for pairs whose two vectors are one row of ``F`` (``pos_rows == neg_rows``, Rank-SVM's):
    the same visits, decisions and updates, with fewer passes over the rows.

    Pair ``p`` of row ``a`` has the gradient :math:`s_{s_p} - s_{t_p} - 1` with :math:`s_j = \\langle w_j, F_a
    \\rangle`, and its update :math:`\\Delta` changes only :math:`s_{s_p}` by :math:`+\\Delta \\lVert F_a
    \\rVert^2` and :math:`s_{t_p}` by :math:`-\\Delta \\lVert F_a \\rVert^2`. So along a run of consecutive pairs
    of one row (``groups`` puts a row's pairs together) the scores of the blocks the run touches are computed once,
    kept up to date by those two scalar changes, and the run's changes to ``W`` are written once at its end, one
    row operation per block instead of two dot products and two updates per pair. The arithmetic differs from
    :func:`_cd_epoch`'s by rounding only (``tests/lib/test_pairwise_svm.py`` compares the two).
    """
    n_blocks = W.shape[0]
    scores = np.zeros(n_blocks)
    pending = np.zeros(n_blocks)
    cached = np.zeros(n_blocks, dtype=np.bool_)
    touched = np.empty(n_blocks, dtype=np.int64)
    n_touched = 0
    current = -1
    pg_max = 0.0
    pg_min = 0.0
    t = 0
    while t < n_active:
        p = index[t]
        a = rows[p]
        if a != current:  # a new run (a pair swapped in by shrinking may interrupt a row's run)
            _flush_row(W, current, touched, n_touched, cached, pending, is_sparse, dense, data, indices, indptr)
            n_touched = 0
            current = a
        sa, sb = pos_blocks[p], neg_blocks[p]
        for j in (sa, sb):
            if not cached[j]:
                scores[j] = _row_dot(W, j, a, is_sparse, dense, data, indices, indptr)
                cached[j] = True
                touched[n_touched] = j
                n_touched += 1
        g = scores[sa] - scores[sb] - 1.0
        old = alpha[p]
        shrink, pg = _projected_gradient(g, old, upper[p], bound_max, bound_min)
        if shrink:
            n_active -= 1
            index[t], index[n_active] = index[n_active], index[t]
            continue
        t += 1
        pg_max = max(pg_max, pg)
        pg_min = min(pg_min, pg)
        if pg == 0.0:
            continue
        new = _new_alpha(g, old, upper[p], qdiag[p])
        delta = new - old
        if delta != 0.0:
            alpha[p] = new
            scores[sa] += delta * row_sq[a]
            scores[sb] -= delta * row_sq[a]
            pending[sa] += delta
            pending[sb] -= delta
    if current >= 0:
        _flush_row(W, current, touched, n_touched, cached, pending, is_sparse, dense, data, indices, indptr)
    return pg_max, pg_min, n_active


def _row_sq_norms(is_sparse: bool, dense: np.ndarray, data: np.ndarray, indptr: np.ndarray,
                  n_rows: int) -> np.ndarray:
    """:math:`\\lVert F_a \\rVert^2` of every row."""
    if not is_sparse:
        return np.einsum("ij,ij->i", dense, dense)
    return np.bincount(np.repeat(np.arange(n_rows), np.diff(indptr)), data * data, minlength=n_rows)


# ----------------------------------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------------------------------


def _as_feature_matrix(F: Any) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Split ``F`` into the kernels' (is_sparse, dense, data, indices, indptr) form."""
    if F is None or isinstance(F, (str, bytes)):
        raise TypeError(f"F must be a 2-D array or scipy sparse matrix, got {F!r}")
    if sp.issparse(F):
        if F.ndim != 2:
            raise ValueError(f"F must be 2-D, got shape {F.shape}")
        csr = sp.csr_matrix(F, dtype=np.float64, copy=True)
        csr.sum_duplicates()
        if not np.all(np.isfinite(csr.data)):
            raise ValueError("F must be finite, got a NaN or infinite entry")
        return (True, np.empty((0, 0)), csr.data, csr.indices.astype(np.int64), csr.indptr.astype(np.int64),
                csr.shape[0], csr.shape[1])
    dense = _as_dense_matrix(F)
    empty_i = np.empty(0, dtype=np.int64)
    return False, dense, np.empty(0), empty_i, empty_i, dense.shape[0], dense.shape[1]


def _as_dense_matrix(F: Any, keep_float32: bool = False) -> np.ndarray:
    """``F`` as a C-contiguous, finite float64 matrix of shape (n_rows, n_features) (``keep_float32``: a float32
    array stays float32, not copied to float64)."""
    float32 = keep_float32 and isinstance(F, np.ndarray) and F.dtype == np.float32
    try:
        dense = np.ascontiguousarray(F, dtype=np.float32 if float32 else np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"F must hold real numbers: {exc}") from exc
    if dense.ndim != 2:
        raise ValueError(f"F must be 2-D (n_rows, n_features), got shape {dense.shape}")
    if not np.all(np.isfinite(dense)):
        raise ValueError("F must be finite, got a NaN or infinite entry")
    return dense


def _as_index(values: Any, name: str, size: int | None, upper: int, upper_name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    if size is not None and arr.shape[0] != size:
        raise ValueError(f"{name} must have one entry per pair ({size}), got {arr.shape[0]}")
    arr = arr.astype(np.int64, copy=False)
    if arr.size and (arr.min() < 0 or arr.max() >= upper):
        bad = arr[(arr < 0) | (arr >= upper)][0]
        raise ValueError(f"{name} must lie in [0, {upper}) ({upper_name}), got {bad}")
    return np.ascontiguousarray(arr)


def _check_blocks(pos_blocks: Any, neg_blocks: Any, n_blocks: Any,
                  n_pairs: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The pairs' validated block indices (all 0 when neither is given) and the number of blocks (default
    ``1 + max`` index used)."""
    if (pos_blocks is None) != (neg_blocks is None):
        raise ValueError("pos_blocks and neg_blocks must be given together, got only one of them")
    if pos_blocks is None:
        used = 1
        pos_blocks = np.zeros(n_pairs, dtype=np.int64)
        neg_blocks = np.zeros(n_pairs, dtype=np.int64)
    else:
        big = np.iinfo(np.int64).max
        pos_blocks = _as_index(pos_blocks, "pos_blocks", n_pairs, big, "the blocks")
        neg_blocks = _as_index(neg_blocks, "neg_blocks", n_pairs, big, "the blocks")
        used = 1 + int(max(pos_blocks.max(initial=0), neg_blocks.max(initial=0)))
    if n_blocks is None:
        return pos_blocks, neg_blocks, used
    n_blocks = check_positive_int(n_blocks, "n_blocks")
    if n_blocks < used:
        raise ValueError(f"n_blocks must exceed every block index (max {used - 1}), got {n_blocks}")
    return pos_blocks, neg_blocks, n_blocks


def _pair_bounds(C: Any, n_pairs: int, name: str = "C") -> np.ndarray:
    """One positive, finite number per pair from a number or an array (``name`` in the error messages)."""
    if isinstance(C, Real) and not isinstance(C, bool):
        upper = np.full(n_pairs, check_real(C, name, low=0.0, low_inclusive=False))
    else:
        upper = np.asarray(C, dtype=np.float64)
        if upper.ndim != 1 or upper.shape[0] != n_pairs:
            raise ValueError(f"{name} must be a positive number or an array of one bound per pair ({n_pairs}), "
                             f"got shape {upper.shape}")
    if upper.size and not (np.all(np.isfinite(upper)) and upper.min() > 0):
        bad = upper[~(np.isfinite(upper) & (upper > 0))][0]
        raise ValueError(f"{name} must be positive and finite, got {bad}")
    return np.ascontiguousarray(upper)


def _dual_objective(alpha: np.ndarray, W: np.ndarray) -> float:
    """:math:`D(\\alpha) = \\sum_p \\alpha_p - \\tfrac12 \\lVert W(\\alpha) \\rVert^2` (eq. D), ``W`` being
    :math:`W(\\alpha)`."""
    return float(alpha.sum()) - 0.5 * float(np.sum(W * W))


def _check_tol(tol: Any) -> float:
    return check_real(tol, "tol", low=0.0, low_inclusive=False)


# ----------------------------------------------------------------------------------------------------------------
# public functions
# ----------------------------------------------------------------------------------------------------------------


def fit_pairwise_hinge(
    F: Any,
    pos_rows: Any,
    neg_rows: Any,
    C: float | Any = 1.0,
    *,
    pos_blocks: Any = None,
    neg_blocks: Any = None,
    n_blocks: int | None = None,
    tol: float = 1e-3,
    max_iter: int = 1000,
    random_state: int = 0,
    alpha_init: Any = None,
    groups: Any = None,
) -> PairwiseHingeResult:
    """Minimise the pairwise hinge-loss SVM (P) by dual coordinate descent (Hsieh et al. 2008).

    .. math::

        \\min_W \\tfrac12 \\sum_j \\lVert w_j \\rVert^2
        + \\sum_p C_p \\max\\big(0,\\, 1 - \\langle w_{s_p}, F_{a_p} \\rangle + \\langle w_{t_p}, F_{b_p} \\rangle\\big)

    With one block this is ``min 1/2 ||w||^2 + sum_p C_p max(0, 1 - w . (F[pos_rows[p]] - F[neg_rows[p]]))``.
    See the module docstring for the algorithm, the stopping rule and how to add biases.

    Parameters
    ----------
    F : array-like or scipy.sparse matrix of shape (n_rows, n_features)
        The vectors the pairs refer to (a sparse matrix is used as CSR without densifying).
    pos_rows, neg_rows : array-like of int, shape (n_pairs,)
        Row of ``F`` of the positive (should score higher) and negative vector of each pair.
    C : float or array-like of shape (n_pairs,), default=1.0
        The upper bound :math:`C_p > 0` of each dual variable (the weight of each pair's hinge loss).
    pos_blocks, neg_blocks : array-like of int, shape (n_pairs,), optional
        Block (row of ``W``) that scores the positive / negative vector; default all 0 (one shared weight vector).
    n_blocks : int, optional
        Number of weight vectors; default ``1 + max`` block index used.
    tol : float, default=1e-3
        Stop when the projected-gradient spread of an epoch, ``max(PG_max, 0) - min(PG_min, 0)``, is ``<= tol``.
    max_iter : int, default=1000
        Maximum number of epochs (passes over all pairs).
    random_state : int, default=0
        Seed of ``numpy.random.default_rng`` that draws the visiting order of each epoch.
    alpha_init : array-like of shape (n_pairs,) or (n_starts, n_pairs), optional
        Warm start: dual variables (clipped to ``[0, C_p]``), e.g. ``result.alpha`` for a nearby ``C``; given
        several (rows), the solve starts from the one of largest dual objective :math:`D` (the first of equal
        ones), e.g. the two of :func:`dual_path_starts`.
    groups : array-like of int, shape (n_pairs,), optional
        A group per pair (e.g. the instance whose list it comes from). Each epoch then visits the groups in a
        random order and each group's pairs together, in random order, instead of all pairs in one random order:
        pairs of one group share rows of ``F``, which then stay in the processor's cache when ``F`` does not fit
        in it (``benchmarks/bench_protocol.py --compare`` times both orders). Same problem, same stopping rule,
        another (still random) visiting order. Where both vectors of every pair are one row of ``F`` (Rank-SVM's
        pairs, grouped by instance), a group's visit computes the row's block scores once and updates them as
        scalars, writing ``W`` once at the end (:func:`_cd_epoch_rows`; the same epoch up to rounding).

    Returns
    -------
    PairwiseHingeResult

    Raises
    ------
    TypeError, ValueError
        For malformed input; the message names the argument and shows the offending value.

    References
    ----------
    Hsieh, Chang, Lin, Keerthi, Sundararajan (2008), A dual coordinate descent method for large-scale linear SVM,
    ICML; the dual and Algorithm 1 are those of LIBLINEAR's L1-loss SVM solver.

    Examples
    --------
    >>> F = [[0.0], [1.0]]
    >>> res = fit_pairwise_hinge(F, pos_rows=[1], neg_rows=[0], C=10.0)
    >>> float(res.coef[0, 0])        # the margin w * (1 - 0) = 1 is just met
    1.0
    """
    is_sparse, dense, data, indices, indptr, n_rows, n_features = _as_feature_matrix(F)
    pos_rows = _as_index(pos_rows, "pos_rows", None, n_rows, "the rows of F")
    n_pairs = pos_rows.shape[0]
    neg_rows = _as_index(neg_rows, "neg_rows", n_pairs, n_rows, "the rows of F")
    pos_blocks, neg_blocks, n_blocks = _check_blocks(pos_blocks, neg_blocks, n_blocks, n_pairs)
    upper = _pair_bounds(C, n_pairs)
    tol = _check_tol(tol)
    max_iter = check_positive_int(max_iter, "max_iter")
    random_state = check_positive_int(random_state, "random_state", minimum=0)

    args = (pos_rows, neg_rows, pos_blocks, neg_blocks, is_sparse, dense, data, indices, indptr)
    W = np.zeros((n_blocks, n_features))
    if alpha_init is None:
        alpha = np.zeros(n_pairs)
    else:
        starts = np.asarray(alpha_init, dtype=np.float64)
        starts = starts[None] if starts.ndim == 1 else starts
        if starts.ndim != 2 or starts.shape[1] != n_pairs or not starts.shape[0]:
            raise ValueError(f"alpha_init must have shape ({n_pairs},) or (n_starts, {n_pairs}), "
                             f"got {np.shape(alpha_init)}")
        if not np.all(np.isfinite(starts)):
            raise ValueError("alpha_init must be finite")
        best = -np.inf
        for start in starts:  # the start of largest dual objective D(alpha)
            start = np.ascontiguousarray(np.clip(start, 0.0, upper))
            W_start = np.zeros_like(W)
            _accumulate(W_start, start, *args)
            value = _dual_objective(start, W_start)
            if value > best:
                best, alpha, W = value, start, W_start

    n_groups = 0
    if groups is not None:
        groups = _as_index(groups, "groups", n_pairs, np.iinfo(np.int64).max, "non-negative group ids")
        groups = np.unique(groups, return_inverse=True)[1].astype(np.int64)  # 0 .. n_groups - 1
        n_groups = int(groups.max()) + 1 if n_pairs else 0
    rng = np.random.default_rng(random_state)
    n_iter, violation, converged = 0, 0.0, n_pairs == 0
    if n_pairs:
        qdiag = _pair_sq_norms(pos_rows, neg_rows, pos_blocks, neg_blocks, n_features, is_sparse, dense, data,
                               indices, indptr)
        index = np.arange(n_pairs)
        n_active, bound_max, bound_min = n_pairs, np.inf, -np.inf
        by_row = _ROW_RUNS and groups is not None and np.array_equal(pos_rows, neg_rows)
        if by_row:  # Rank-SVM's pairs, a row's pairs visited together: _cd_epoch_rows
            row_sq = _row_sq_norms(is_sparse, dense, data, indptr, n_rows)
        while n_iter < max_iter:
            if groups is None:
                index[:n_active] = rng.permutation(index[:n_active])
            else:
                rank = rng.permutation(n_groups)
                index[:n_active] = _grouped_order(index[:n_active], groups, rank, n_groups,
                                                  int(rng.integers(2**31)))
            if by_row:
                pg_max, pg_min, n_active = _cd_epoch_rows(index, n_active, bound_max, bound_min, alpha, upper,
                                                          qdiag, W, pos_rows, row_sq, pos_blocks, neg_blocks,
                                                          is_sparse, dense, data, indices, indptr)
            else:
                pg_max, pg_min, n_active = _cd_epoch(index, n_active, bound_max, bound_min, alpha, upper, qdiag,
                                                     W, *args)
            n_iter += 1
            violation = pg_max - pg_min
            if violation <= tol:
                if n_active == n_pairs:  # converged on all pairs
                    converged = True
                    break
                # converged on the active pairs: check all of them again in the next epoch
                n_active, bound_max, bound_min = n_pairs, np.inf, -np.inf
                continue
            bound_max = pg_max if pg_max > 0 else np.inf
            bound_min = pg_min if pg_min < 0 else -np.inf

    margins = _margins(W, *args)
    primal = 0.5 * float(np.sum(W * W)) + float(np.sum(upper * np.maximum(0.0, 1.0 - margins)))
    dual = _dual_objective(alpha, W)
    return PairwiseHingeResult(W, alpha, n_iter, converged, float(violation), primal, dual)


def dual_path_starts(alpha: Any, previous_upper: Any, upper: Any) -> np.ndarray:
    r"""Two points of the new box a solve along a path of ``C`` can start from: the previous solution moved into
    the box, and scaled to it.

    .. math::

        \alpha^{moved}_p = \begin{cases} C'_p & \text{if } \alpha_p = C_p \\ \min(\alpha_p, C'_p)
        & \text{otherwise,} \end{cases} \qquad
        \alpha^{scaled}_p = \min(\alpha_p C'_p / C_p,\; C'_p),

    with ``C_p`` the old and ``C'_p`` the new bound of pair ``p`` (a value within a relative 1e-9 of its bound
    counts as at it). The optimality conditions of (D) are the sign of each pair's projected gradient, which
    depends on ``W(alpha)`` and on whether ``alpha_p`` sits at 0, inside the box, or at its upper bound. A pair at
    its bound keeps that status when the bound moves (its loss is still active), a free pair keeps its value: so
    where no pair is at its upper bound (separable pairs past the hard margin's ``C``) the moved point *is* the new
    solution. Where some pairs stay at their bound as ``C`` grows, the free pairs' values grow in proportion to ``C``
    on the path's last linear piece, which the scaled point follows. :func:`fit_pairwise_hinge` given both starts
    from the one of larger dual objective. On Reuters-21578 (Rank-SVM, dual coordinate descent, fold 0 of the
    book's protocol, the 20 values of C from 1e-6 to 1e6) that is the moved point at every C but 8.9 on the
    2,000-document subsample (from C of about 3e3 on a solve from it takes one epoch, from the scaled one over
    300), and on all 6,216 training documents at every C up to 8.9 and at 695 and 2,980, the scaled one at 38,
    162 and from 1.3e4 on (where solves from the moved point alone ended at the epoch cap with duality gaps of half
    the primal objective and more). The augmented Lagrangian path
    (:func:`labelrank.rankers.pairwise_newton.fit_pairwise_hinge_alm_path`) starts from the moved point (offering it
    the scaled one too changed its C paths' CPU time by 0.94x to 1.02x on yeast and scene, fold 0).
    Where ``C`` decreases, values are clipped into the new box.

    Parameters
    ----------
    alpha : array-like of shape (n_pairs,)
        The previous solution's dual variables.
    previous_upper, upper : float or array-like of shape (n_pairs,)
        The old and new upper bounds ``C_p``, ``C'_p`` (positive).

    Returns
    -------
    numpy.ndarray of shape (2, n_pairs)
        The moved point (row 0) and the scaled point (row 1), both in the new box ``[0, C'_p]``.

    Examples
    --------
    >>> dual_path_starts([0.0, 0.5, 1.0], 1.0, 10.0).tolist()   # at 0, free, at the bound
    [[0.0, 0.5, 10.0], [0.0, 5.0, 10.0]]
    >>> dual_path_starts([0.0, 0.5, 1.0], 1.0, 0.25).tolist()   # a smaller C: clipped
    [[0.0, 0.25, 0.25], [0.0, 0.125, 0.25]]
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.ndim != 1:
        raise ValueError(f"alpha must be one-dimensional (one dual value per pair), got shape {alpha.shape}")
    previous_upper = _pair_bounds(previous_upper, alpha.shape[0], "previous_upper")
    upper = _pair_bounds(upper, alpha.shape[0], "upper")
    moved = np.where(alpha >= (1.0 - 1e-9) * previous_upper, upper, np.minimum(alpha, upper))
    return np.stack([moved, np.minimum(alpha * (upper / previous_upper), upper)])


def pair_margins(
    F: Any, coef: Any, pos_rows: Any, neg_rows: Any, pos_blocks: Any = None, neg_blocks: Any = None
) -> np.ndarray:
    """The margins :math:`m_p = \\langle w_{s_p}, F_{a_p} \\rangle - \\langle w_{t_p}, F_{b_p} \\rangle` of pairs.

    Parameters
    ----------
    F : array-like or scipy.sparse matrix of shape (n_rows, n_features)
    coef : array-like of shape (n_blocks, n_features) or (n_features,)
        The weights (``PairwiseHingeResult.coef``); a 1-D vector is one block.
    pos_rows, neg_rows, pos_blocks, neg_blocks
        As in :func:`fit_pairwise_hinge`.

    Returns
    -------
    numpy.ndarray of shape (n_pairs,)

    Examples
    --------
    Rows 1 and 2 each against row 0, one shared weight 2:

    >>> pair_margins([[0.0], [1.0], [3.0]], [2.0], pos_rows=[1, 2], neg_rows=[0, 0]).tolist()
    [2.0, 6.0]
    """
    is_sparse, dense, data, indices, indptr, n_rows, n_features = _as_feature_matrix(F)
    W = np.asarray(coef, dtype=np.float64)
    if W.ndim == 1:
        W = W[None, :]
    if W.ndim != 2 or W.shape[1] != n_features:
        raise ValueError(f"coef must have shape (n_blocks, {n_features}), got {np.shape(coef)}")
    W = np.ascontiguousarray(W)
    pos_rows = _as_index(pos_rows, "pos_rows", None, n_rows, "the rows of F")
    n_pairs = pos_rows.shape[0]
    neg_rows = _as_index(neg_rows, "neg_rows", n_pairs, n_rows, "the rows of F")
    if pos_blocks is None:
        pos_blocks = np.zeros(n_pairs, dtype=np.int64)
    if neg_blocks is None:
        neg_blocks = np.zeros(n_pairs, dtype=np.int64)
    pos_blocks = _as_index(pos_blocks, "pos_blocks", n_pairs, W.shape[0], "the rows of coef")
    neg_blocks = _as_index(neg_blocks, "neg_blocks", n_pairs, W.shape[0], "the rows of coef")
    return _margins(W, pos_rows, neg_rows, pos_blocks, neg_blocks, is_sparse, dense, data, indices, indptr)


def rank_svm_pairs(Y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All (instance, relevant label, irrelevant label) triples of a label matrix, instance by instance.

    Parameters
    ----------
    Y : array-like of shape (n_instances, n_labels)
        0/1 relevance.

    Returns
    -------
    instance, relevant, irrelevant : numpy.ndarray of int64, each of shape (sum_i |Y_i| |Ybar_i|,)
        Instances with no or with every label relevant contribute nothing.

    Examples
    --------
    >>> [a.tolist() for a in rank_svm_pairs([[1, 0, 1], [1, 1, 1]])]
    [[0, 0], [0, 2], [1, 1]]
    """
    Y = check_label_matrix(Y, "Y")
    inst, rel, irr = [], [], []
    for i, row in enumerate(Y):
        pos, neg = np.flatnonzero(row == 1), np.flatnonzero(row == 0)
        if pos.size and neg.size:
            inst.append(np.full(pos.size * neg.size, i))
            rel.append(np.repeat(pos, neg.size))
            irr.append(np.tile(neg, pos.size))
    if not inst:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty.copy(), empty.copy()
    return tuple(np.concatenate(a).astype(np.int64) for a in (inst, rel, irr))
