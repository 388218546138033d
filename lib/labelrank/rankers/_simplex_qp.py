r"""The working-set QP of SVM-MAP's cutting planes, solved exactly by a primal active-set method.

.. math::

    \max_\alpha \; b^\top \alpha - \tfrac12 \alpha^\top G \alpha
    \quad \text{s.t.} \quad \alpha \ge 0, \; \textstyle\sum_t \alpha_t = \text{total},

with :math:`G = A A^\top` positive semidefinite, often singular (the cutting planes of consecutive iterations are
nearly parallel, and there may be more of them than dimensions). The method (Nocedal & Wright 2006, Algorithm
16.3) keeps a free set :math:`F` (the other coordinates are 0) and steps toward the maximiser of the objective
over :math:`\{\alpha_F : \sum \alpha_F = \text{total}\}`: a Newton step from a Cholesky factor of :math:`G_{FF}`
where that is accurate; otherwise from an eigendecomposition of :math:`G_{FF}` on an orthonormal basis of the
zero-sum directions, which gives the Newton step in the range of that reduced matrix or, when the objective still
rises along its null space, a step along that rise. A coordinate that would turn negative stops the step and
leaves :math:`F`. At the maximiser over :math:`F` the coordinate with the largest gradient enters if it beats the
free ones' common gradient by more than ``tol``; otherwise the point is optimal: :math:`g_t \le \nu + \text{tol}`
for every ``t``, where :math:`g = b - G\alpha` and :math:`\nu` is the free coordinates' gradient (the
Karush-Kuhn-Tucker conditions).

It replaced sequential minimal optimisation (pairs of coordinates), which on the ill-conditioned working sets of
large ``C`` stopped at its cap of 100,000 steps per solve (``benchmarks/bench_protocol.py --compare``). The
method runs compiled (numba): SVM-MAP solves one such QP per cutting plane, about 1,200 of them along yeast's C
grid at one ``k`` (fold 0, k = 50), of about 30 steps each on working sets of about 160 planes, where interpreted
code spent its time in per-step overhead, not arithmetic.

References
----------
J. Nocedal, S. J. Wright (2006). Numerical Optimization, 2nd ed., section 16.5. Springer.
"""

from __future__ import annotations

import numpy as np

from labelrank._optional import require

numba = require("numba", "labelrank.rankers._simplex_qp (SVM-MAP's compiled QP)")


@numba.njit(cache=True, nogil=True)
def _cholesky(H):  # pragma: no cover - compiled
    """The lower factor L of H = L L^T and True; False when a pivot is not positive (LAPACK's potrf test)."""
    n = H.shape[0]
    L = np.zeros((n, n))
    for j in range(n):
        s = H[j, j]
        for k in range(j):
            s -= L[j, k] * L[j, k]
        if not s > 0.0:  # also NaN
            return L, False
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            t = H[i, j]
            for k in range(j):
                t -= L[i, k] * L[j, k]
            L[i, j] = t / L[j, j]
    return L, True


@numba.njit(cache=True, nogil=True)
def _cho_solve(L, r):  # pragma: no cover - compiled
    """x with L L^T x = r (forward, then back substitution)."""
    n = r.shape[0]
    y = np.empty(n)
    for i in range(n):
        t = r[i]
        for k in range(i):
            t -= L[i, k] * y[k]
        y[i] = t / L[i, i]
    x = np.empty(n)
    for i in range(n - 1, -1, -1):
        t = y[i]
        for k in range(i + 1, n):
            t -= L[k, i] * x[k]
        x[i] = t / L[i, i]
    return x


@numba.njit(cache=True, nogil=True)
def _zero_sum_basis(n):  # pragma: no cover - compiled
    """An orthonormal basis (n x n-1) of the vectors that sum to 0: columns 2..n of the Householder reflection
    that maps e_1 onto 1/sqrt(n)."""
    v = np.full(n, 1.0 / np.sqrt(n))
    v[0] -= 1.0
    v /= np.sqrt(np.sum(v * v))
    basis = np.empty((n, n - 1))
    for i in range(n):
        for j in range(1, n):
            basis[i, j - 1] = (1.0 if i == j else 0.0) - 2.0 * v[i] * v[j]
    return basis


@numba.njit(cache=True, nogil=True)
def _step(G, g, free, tol):  # pragma: no cover - compiled
    """The step on the free coordinates ``free`` (indices, at least 2) toward the maximiser over them; whether it
    is a Newton step (True: at most to the maximiser) or a rise along a null direction (False: to the nearest
    bound); whether the eigendecomposition gave it."""
    nF = free.shape[0]
    H = np.empty((nF, nF))
    gF = np.empty(nF)
    for a in range(nF):
        gF[a] = g[free[a]]
        for c in range(nF):
            H[a, c] = G[free[a], free[c]]
    L, positive = _cholesky(H)
    if positive:  # the usual case, H positive definite: p = H^-1 (g - mu 1) with mu such that sum(p) = 0
        u = _cho_solve(L, gF)
        v = _cho_solve(L, np.ones(nF))
        p = u - (u.sum() / v.sum()) * v
        r = gF - H @ p
        if r.max() - r.min() <= tol:  # accurate: the gradients at the new point are equal
            return p, True, False
    # singular or ill-conditioned: the eigendecomposition of H on the zero-sum directions
    N = _zero_sum_basis(nF)
    Nt = np.ascontiguousarray(N.T)
    lam, V = np.linalg.eigh(Nt @ H @ N)
    c = np.ascontiguousarray(V.T) @ (Nt @ gF)  # the gradient along the zero-sum directions, in the eigenbasis
    flat = lam <= max(lam[-1], 0.0) * nF * 1e-13
    rise = np.where(flat, c, 0.0)
    if np.sqrt(np.sum(rise * rise)) > tol:
        return N @ (V @ rise), False, True
    return N @ (V @ np.where(flat, 0.0, c / np.where(flat, 1.0, lam))), True, True


@numba.njit(cache=True, nogil=True)
def _solve(G, b, alpha, total, tol, max_iter):  # pragma: no cover - compiled
    """The active-set iterations on ``alpha`` in place: (steps, optimal, eigendecompositions used)."""
    free = alpha > 0
    at_maximiser = False  # after a full Newton step, or where the free coordinates' gradients are equal
    n_eigen = 0
    for it in range(max_iter):
        g = b - G @ alpha
        F = np.flatnonzero(free)
        gF = g[F]
        if at_maximiser or gF.max() - gF.min() <= tol:
            nu = gF.mean()
            best, entering = -np.inf, -1
            for t in range(g.shape[0]):
                if not free[t] and g[t] > best:
                    best, entering = g[t], t
            if entering < 0 or best - nu <= tol:
                return it, True, n_eigen
            free[entering] = True
            at_maximiser = False
            continue
        p, newton, eigen = _step(G, g, F, tol)
        n_eigen += eigen
        s = 1.0 if newton else np.inf
        block = -1
        for a in range(F.shape[0]):  # the first coordinate to reach 0, if before the step's end
            if p[a] < 0 and alpha[F[a]] / -p[a] < s:
                s = alpha[F[a]] / -p[a]
                block = a
        if not np.isfinite(s):  # a rise with no coordinate shrinking: only rounding is left
            return it, False, n_eigen
        for a in range(F.shape[0]):
            alpha[F[a]] = max(alpha[F[a]] + s * p[a], 0.0)
        if block >= 0:
            alpha[F[block]] = 0.0
            free[F[block]] = False
        at_maximiser = block < 0
        alpha *= total / alpha.sum()  # keep the sum exact against rounding
    return max_iter, False, n_eigen


def solve_simplex_qp(G: np.ndarray, b: np.ndarray, alpha: np.ndarray, total: float, tol: float,
                     max_iter: int | None = None) -> tuple[int, bool]:
    """Maximise ``b @ alpha - alpha @ G @ alpha / 2`` over ``alpha >= 0, sum(alpha) = total``, in place.

    Parameters
    ----------
    G : numpy.ndarray of shape (T, T)
        Positive semidefinite.
    b : numpy.ndarray of shape (T,)
    alpha : numpy.ndarray of shape (T,)
        A feasible start (``>= 0``, summing to ``total``), overwritten with the solution; float64 and contiguous.
    total : float
    tol : float
        The optimality tolerance on the gradient :math:`g = b - G\\alpha`: at the end
        :math:`g_t \\le \\nu + \\text{tol}` for every coordinate.
    max_iter : int, optional
        Active-set iterations allowed (default ``10 * T + 100``).

    Returns
    -------
    n_iter : int
    optimal : bool
        False when ``max_iter`` ran out first (``alpha`` is then feasible, not optimal).

    Examples
    --------
    Two cutting planes and the trivial one (a = 0, b = 0):

    >>> import numpy as np
    >>> A = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    >>> b = np.array([0.0, 1.0, 1.0])
    >>> alpha = np.array([10.0, 0.0, 0.0])
    >>> n_iter, optimal = solve_simplex_qp(A @ A.T, b, alpha, 10.0, 1e-12)
    >>> alpha.round(6).tolist(), optimal
    ([8.75, 1.0, 0.25], True)
    """
    if not (isinstance(alpha, np.ndarray) and alpha.dtype == np.float64 and alpha.flags.c_contiguous):
        raise TypeError(f"alpha must be a contiguous float64 numpy array (solved in place), got {alpha!r}")
    T = b.shape[0]
    max_iter = 10 * T + 100 if max_iter is None else int(max_iter)
    G, b = (np.ascontiguousarray(v, dtype=np.float64) for v in (G, b))
    n_iter, optimal, _ = _solve(G, b, alpha, float(total), float(tol), max_iter)
    return int(n_iter), bool(optimal)
