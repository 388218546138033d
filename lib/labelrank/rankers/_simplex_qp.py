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
large ``C`` stopped at its cap of 100,000 steps per solve (``benchmarks/bench_protocol.py --compare``).

References
----------
J. Nocedal, S. J. Wright (2006). Numerical Optimization, 2nd ed., section 16.5. Springer.
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg


@functools.lru_cache(maxsize=256)
def _zero_sum_basis(n: int) -> np.ndarray:
    """An orthonormal basis (n x n-1) of the vectors that sum to 0: columns 2..n of the Householder reflection
    that maps e_1 onto 1/sqrt(n)."""
    v = np.full(n, 1.0 / np.sqrt(n))
    v[0] -= 1.0
    v /= np.linalg.norm(v)
    basis = np.eye(n)[:, 1:] - 2.0 * np.outer(v, v[1:])
    basis.flags.writeable = False
    return basis


def _step(G: np.ndarray, g: np.ndarray, free: np.ndarray, tol: float) -> tuple[np.ndarray, bool]:
    """The step on the free coordinates ``free`` (indices) toward the maximiser over them, and whether it is a
    Newton step (True: at most to the maximiser) or a rise along a null direction (False: to the nearest bound)."""
    H, gF = G[np.ix_(free, free)], g[free]
    try:  # the usual case, H positive definite: p = H^-1 (g - mu 1) with mu such that sum(p) = 0
        factor = scipy.linalg.cho_factor(H, check_finite=False)
        u, v = scipy.linalg.cho_solve(factor, np.column_stack([gF, np.ones(free.size)]), check_finite=False).T
        p = u - (u.sum() / v.sum()) * v
        if np.ptp(gF - H @ p) <= tol:  # accurate: the gradients at the new point are equal
            return p, True
    except np.linalg.LinAlgError:
        pass
    # singular or ill-conditioned: the eigendecomposition of H on the zero-sum directions
    N = _zero_sum_basis(free.size)
    lam, V = np.linalg.eigh(N.T @ H @ N)
    c = V.T @ (N.T @ gF)  # the gradient along the zero-sum directions, in the eigenbasis
    flat = lam <= max(lam[-1], 0.0) * free.size * 1e-13
    rise = np.where(flat, c, 0.0)
    if np.linalg.norm(rise) > tol:
        return N @ (V @ rise), False
    return N @ (V @ np.where(flat, 0.0, c / np.where(flat, 1.0, lam))), True


def solve_simplex_qp(G: np.ndarray, b: np.ndarray, alpha: np.ndarray, total: float, tol: float,
                     max_iter: int | None = None) -> tuple[int, bool]:
    """Maximise ``b @ alpha - alpha @ G @ alpha / 2`` over ``alpha >= 0, sum(alpha) = total``, in place.

    Parameters
    ----------
    G : numpy.ndarray of shape (T, T)
        Positive semidefinite.
    b : numpy.ndarray of shape (T,)
    alpha : numpy.ndarray of shape (T,)
        A feasible start (``>= 0``, summing to ``total``), overwritten with the solution.
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
    T = b.shape[0]
    max_iter = 10 * T + 100 if max_iter is None else int(max_iter)
    free = alpha > 0
    at_maximiser = False  # after a full Newton step, or where the free coordinates' gradients are equal
    for it in range(max_iter):
        g = b - G @ alpha
        F = np.flatnonzero(free)
        if at_maximiser or np.ptp(g[F]) <= tol:
            nu = float(g[F].mean())
            out = np.flatnonzero(~free)
            if out.size == 0 or float(g[out].max()) - nu <= tol:
                return it, True
            free[out[np.argmax(g[out])]] = True
            at_maximiser = False
            continue
        p, newton = _step(G, g, F, tol)
        shrinking = p < 0
        ratios = alpha[F][shrinking] / -p[shrinking]
        s = 1.0 if newton else np.inf
        block = -1
        if ratios.size and ratios.min() < s:
            block = int(np.flatnonzero(shrinking)[np.argmin(ratios)])
            s = float(ratios.min())
        if not np.isfinite(s):  # a rise with no coordinate shrinking: only rounding is left
            return it, False
        alpha[F] = np.maximum(alpha[F] + s * p, 0.0)
        if block >= 0:
            alpha[F[block]] = 0.0
            free[F[block]] = False
        at_maximiser = block < 0
        alpha *= total / alpha.sum()  # keep the sum exact against rounding
    return max_iter, False
