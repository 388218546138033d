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

An active-set method rather than sequential minimal optimisation (pairs of coordinates), which on the
ill-conditioned working sets of large ``C`` stops at any cap on its steps short of the optimum
(``benchmarks/bench_protocol.py --compare`` times the two). The method runs compiled (numba): SVM-MAP solves one
such QP per cutting plane, over a thousand of them along a C grid, each of a few dozen steps on working sets of
a few hundred planes, where interpreted code would spend its time in per-step overhead, not arithmetic.

A step changes the free set by one coordinate, so the Cholesky factor of :math:`G_{FF}` is kept and updated: a row
appended when a coordinate enters, a row deleted and the factor restored by Givens rotations when one leaves
(Golub & Van Loan 2013, section 6.5), :math:`O(|F|^2)` each where factoring every step's block afresh cost
:math:`O(|F|^3)`; a block that is not positive definite is factored again once the free set has changed. The
gradient is computed from the free columns of :math:`G` alone, at the free coordinates after every step and at the
others only when one of them may enter. It takes the same steps as a fresh factor per step, with weights equal up
to rounding (``benchmarks/bench_protocol.py --compare`` times both).

References
----------
J. Nocedal, S. J. Wright (2006). Numerical Optimization, 2nd ed., section 16.5. Springer.
G. H. Golub, C. F. Van Loan (2013). Matrix Computations, 4th ed. Johns Hopkins University Press.
"""

from __future__ import annotations

import numpy as np

from labelrank.optional import require

numba = require("numba", "labelrank.rankers.simplex_qp (SVM-MAP's compiled QP)")

__all__ = ["solve_simplex_qp"]


@numba.njit(cache=True, nogil=True)
def _append(L, n, G, order, t):  # pragma: no cover - compiled
    """Extend ``L[:n, :n]``, the lower Cholesky factor of ``G[order[:n], order[:n]]``, by coordinate ``t`` (row
    ``n``): True when the new pivot is positive (LAPACK's potrf test). Appending every coordinate in turn is the
    Cholesky factorisation itself."""
    for i in range(n):
        s = G[order[i], t]
        for k in range(i):
            s -= L[i, k] * L[n, k]
        L[n, i] = s / L[i, i]
    s = G[t, t]
    for k in range(n):
        s -= L[n, k] * L[n, k]
    if not s > 0.0:  # also NaN
        return False
    L[n, n] = np.sqrt(s)
    return True


@numba.njit(cache=True, nogil=True)
def cholesky_factor(L, G, order, n):  # pragma: no cover - compiled
    """The Cholesky factor of ``G[order[:n], order[:n]]`` into ``L[:n, :n]``: True if it is positive definite."""
    for j in range(n):
        if not _append(L, j, G, order, order[j]):
            return False
    return True


@numba.njit(cache=True, nogil=True)
def _delete(L, n, a):  # pragma: no cover - compiled
    """``L[:n-1, :n-1]`` the factor of the matrix factored by ``L[:n, :n]`` less its row and column ``a``: the rows
    below ``a`` move up a row, and Givens rotations of neighbouring columns clear what then lies above the
    diagonal (Golub & Van Loan 2013, section 6.5)."""
    for i in range(a, n - 1):
        for k in range(i + 2):
            L[i, k] = L[i + 1, k]
    for j in range(a, n - 1):
        x, y = L[j, j], L[j, j + 1]
        r = np.hypot(x, y)
        c, s = x / r, y / r
        for i in range(j, n - 1):
            u, v = L[i, j], L[i, j + 1]
            L[i, j] = c * u + s * v
            L[i, j + 1] = c * v - s * u
        L[j, j + 1] = 0.0


@numba.njit(cache=True, nogil=True)
def _cho_solve(L, r):  # pragma: no cover - compiled
    """x with L L^T x = r, ``L[:n, :n]`` for the ``n`` entries of ``r`` (forward, then back substitution)."""
    n = r.shape[0]
    y = np.empty(n)
    for i in range(n):
        t = r[i]
        for k in range(i):
            t -= L[i, k] * y[k]
        y[i] = t / L[i, i]
    for i in range(n - 1, -1, -1):  # back substitution by rows of L: y[k] -= L[i, k] x[i] for k < i
        y[i] /= L[i, i]
        for k in range(i):
            y[k] -= L[i, k] * y[i]
    return y


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
def newton_step(G, g, F, L, factored, tol):  # pragma: no cover - compiled
    """The step on the free coordinates ``F`` (indices, at least 2; ``L`` the Cholesky factor of ``G[F, F]`` where
    ``factored``) toward the maximiser over them; whether it is a Newton step (True: at most to the maximiser) or
    a rise along a null direction (False: to the nearest bound); whether the eigendecomposition gave it."""
    nF = F.shape[0]
    gF = np.empty(nF)
    for a in range(nF):
        gF[a] = g[F[a]]
    if factored:  # the usual case, G[F, F] positive definite: p = H^-1 (g - mu 1) with mu such that sum(p) = 0
        u = _cho_solve(L, gF)
        v = _cho_solve(L, np.ones(nF))
        p = u - (u.sum() / v.sum()) * v
        lo, hi = np.inf, -np.inf
        for a in range(nF):  # the gradients at the new point, gF - H p
            r = gF[a]
            for c in range(nF):
                r -= G[F[a], F[c]] * p[c]
            lo, hi = min(lo, r), max(hi, r)
        if hi - lo <= tol:  # accurate: the gradients at the new point are equal
            return p, True, False
    # singular or ill-conditioned: the eigendecomposition of H on the zero-sum directions
    H = np.empty((nF, nF))
    for a in range(nF):
        for c in range(nF):
            H[a, c] = G[F[a], F[c]]
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
def _gradient(G, b, alpha, F, g, free, of_free):  # pragma: no cover - compiled
    """``g = b - G @ alpha`` into ``g`` at the free coordinates (``of_free``) or at the others, from the columns
    ``F`` (the free ones: alpha is 0 elsewhere)."""
    for t in range(b.shape[0]):
        if free[t] == of_free:
            acc = b[t]
            for a in range(F.shape[0]):
                acc -= G[t, F[a]] * alpha[F[a]]
            g[t] = acc


@numba.njit(cache=True, nogil=True)
def _solve(G, b, alpha, total, tol, max_iter):  # pragma: no cover - compiled
    """The active-set iterations on ``alpha`` in place: (steps, optimal, eigendecompositions used).

    The free coordinates are kept in ``order[:n]`` (in the order they became free) with the Cholesky factor of
    their block of ``G`` in ``L``, updated as a coordinate enters (a row appended) or leaves (a row deleted), where
    the factorisation of each step's block from scratch took most of a solve's time; a block that is not positive
    definite is factored again from scratch once the free set has changed."""
    T = b.shape[0]
    free = alpha > 0
    order = np.empty(T, dtype=np.int64)
    n = 0
    for t in range(T):
        if free[t]:
            order[n] = t
            n += 1
    L = np.empty((T, T))
    factored = cholesky_factor(L, G, order, n)
    g = np.empty(T)
    at_maximiser = False  # after a full Newton step, or where the free coordinates' gradients are equal
    # g is computed at the free coordinates after every move of alpha, and at the others only when one of them
    # may enter (a step needs the free ones' alone; a coordinate entering does not move alpha)
    moved, others = True, False
    n_eigen = 0
    for it in range(max_iter):
        F = order[:n]
        if moved:
            _gradient(G, b, alpha, F, g, free, True)
            moved, others = False, False
        lo, hi, mean = np.inf, -np.inf, 0.0
        for a in range(n):
            lo, hi, mean = min(lo, g[F[a]]), max(hi, g[F[a]]), mean + g[F[a]]
        if at_maximiser or hi - lo <= tol:
            nu = mean / n
            if not others:
                _gradient(G, b, alpha, F, g, free, False)
                others = True
            best, entering = -np.inf, -1
            for t in range(T):
                if not free[t] and g[t] > best:
                    best, entering = g[t], t
            if entering < 0 or best - nu <= tol:
                return it, True, n_eigen
            free[entering] = True
            order[n] = entering
            factored = factored and _append(L, n, G, order, entering)
            n += 1
            at_maximiser = False
            continue
        if not factored:
            factored = cholesky_factor(L, G, order, n)
        p, newton, eigen = newton_step(G, g, F, L, factored, tol)
        n_eigen += eigen
        s = 1.0 if newton else np.inf
        block = -1
        for a in range(n):  # the first coordinate to reach 0, if before the step's end
            if p[a] < 0 and alpha[F[a]] / -p[a] < s:
                s = alpha[F[a]] / -p[a]
                block = a
        if not np.isfinite(s):  # a rise with no coordinate shrinking: only rounding is left
            return it, False, n_eigen
        for a in range(n):
            alpha[F[a]] = max(alpha[F[a]] + s * p[a], 0.0)
        moved = True
        if block >= 0:
            alpha[F[block]] = 0.0
            free[F[block]] = False
            if factored:
                _delete(L, n, block)
            for a in range(block, n - 1):
                order[a] = order[a + 1]
            n -= 1
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
