r"""The pairwise hinge-loss SVM of one weight vector, solved in the primal by an augmented Lagrangian method.

The problem is the one-block case of :mod:`labelrank.rankers.pairwise_svm`'s (P): rows ``F`` of shape
(n_rows, d), pairs ``p`` of a positive row :math:`a_p` and a negative row :math:`b_p`, their difference
:math:`z_p = F_{a_p} - F_{b_p}` and

.. math::

    \min_w P(w) = \tfrac12 \lVert w \rVert^2 + \sum_p C_p \max(0,\, 1 - z_p \cdot w) .   \tag{P}

Dual coordinate descent (:func:`~labelrank.rankers.pairwise_svm.fit_pairwise_hinge`) slows down as ``C`` grows:
many dual variables then sit strictly inside their box and every epoch moves each of them a little. This module
solves (P) in its own ``d`` dimensions instead, so that its cost depends on ``C`` only mildly; it is meant for
dense rows with few columns, as the meta-level features are (``d = 3k + 2``).

Algorithm (Yan & Li 2020, an augmented Lagrangian method for the L1-loss SVM)
---------------------------------------------------------------------------------
Write :math:`g(u) = \sum_p C_p \max(0, 1 - u_p)` and :math:`u = Zw`. With a multiplier :math:`\mu` and a penalty
:math:`\sigma > 0`, each outer step minimises over ``w``

.. math::

    \varphi(w) = \tfrac12 \lVert w \rVert^2 + \sum_p e_p(v_p), \qquad v = Zw + \mu / \sigma ,

where :math:`e_p` is the Moreau envelope of the pair's hinge, a Huber function: 0 for :math:`v \ge 1`,
:math:`\tfrac{\sigma}{2}(1 - v)^2` for :math:`1 - C_p/\sigma \le v < 1` and :math:`C_p(1 - v) - C_p^2/(2\sigma)`
below. :math:`\varphi` is convex and once differentiable, with gradient :math:`w + Z^\top e'(v)`; the inner
solver is the semismooth Newton method, whose generalised Hessian :math:`I + \sigma Z_B^\top Z_B` involves only
the pairs ``B`` with ``v`` inside the quadratic band (a ``d`` x ``d`` system, Cholesky), with an Armijo line
search. Then :math:`\mu \leftarrow e'(v)` and :math:`\sigma` grows (fourfold, up to a cap).

The multiplier is a dual point: :math:`\alpha = -\mu` always lies in the box :math:`[0, C_p]`, and at the inner
problem's optimum :math:`w = Z^\top\alpha`, as in (D) of :mod:`~labelrank.rankers.pairwise_svm`. So every outer
step yields a certificate: the duality gap :math:`P(w) - D(\alpha) \ge 0` with
:math:`D(\alpha) = \sum_p \alpha_p - \tfrac12 \lVert Z^\top \alpha \rVert^2`. The solver stops when the gap is at
most ``tol`` times :math:`\max(1, P(w))`, and returns the ``w`` with the smallest primal objective seen.

Every product with ``Z`` is one pass over ``F`` (``F @ w``, then a gather over the pairs) and every product
with :math:`Z^\top` is one scatter over the pairs and ``F.T @ c`` over the rows it touches; no pair's difference
vector is stored except those of the band, in chunks.

Two things make a large ranking problem cheap, neither of which changes the optimum or its certificate:

* **A working set** (``shrinking=True``; Joachims 1999's shrinking, in the form of Hsieh et al. 2008). A pair with
  :math:`v_p \ge 1` adds nothing to :math:`\varphi` or its gradient, and a ranking problem's pairs mostly end far
  beyond their margin (Reuters-21578 at ``k = 50``: fewer than 3% have a margin below 2, on 3% of the rows). Each
  inner solve runs its Newton steps on the pairs with :math:`v_p < 2` and a copy of their rows, then one pass over
  every pair recomputes ``Zw`` and the gradient; a left-out pair that has come below 1 joins, and the solve goes
  on. Everything the outer iteration and the certificate use is of the whole problem.
* **A sampled Hessian** for a band of more than ``_GRAM_SAMPLE`` pairs (at ``w = 0`` every pair is in it): the
  Gram matrix of a seeded random sample of the band, scaled up (sub-sampled Newton, Roosta-Khorasani & Mahoney
  2019). It is still positive definite, so the direction still descends, and the line search decides the step.

References
----------
Y. Yan, Q. Li (2020). An efficient augmented Lagrangian method for support vector machine. Optimization Methods
and Software (arXiv:1912.06800).
T. Joachims (1999). Making large-scale SVM learning practical. In Advances in Kernel Methods: Support Vector
Learning, MIT Press, 169-184.
C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan (2008). A dual coordinate descent method for
large-scale linear SVM. ICML, 408-415.
F. Roosta-Khorasani, M. W. Mahoney (2019). Sub-sampled Newton methods. Mathematical Programming 174, 293-326.
R. T. Rockafellar (1976). Augmented Lagrangians and applications of the proximal point algorithm in convex
programming. Mathematics of Operations Research 1(2), 97-116.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from labelrank._validation import check_positive_int, check_real
from labelrank.rankers.pairwise_svm import PairwiseHingeResult, _as_dense_matrix, _as_index, _pair_bounds

__all__ = ["fit_pairwise_hinge_alm"]

#: Pairs whose difference vectors are formed at once when the band's Hessian is accumulated.
_CHUNK = 32_768

#: A band of more pairs has its Hessian estimated from a random sample of this many (subsampled Newton).
_GRAM_SAMPLE = 65_536

#: The penalty starts at this multiple of the median ``C_p`` and grows by ``_SIGMA_GROWTH`` per outer iteration.
_SIGMA_START = 1.0
_SIGMA_GROWTH = 4.0
_SIGMA_MAX = 4.0**12  # times the start: any bounded penalty converges, a huge one only loses precision

#: The line search halves the step down to this length (a gradient step on badly scaled rows may need it).
_SMALLEST_STEP = 1e-30

#: Each inner Newton solve stops at a gradient norm of ``_INNER_TOL * tol * max(1, ||w||)``.
_INNER_TOL = 1e-2
_INNER_STEPS = 50

#: Shrinking: the inner solve works on the pairs with ``v < 1 + _KEEP_MARGIN`` when they are fewer than
#: ``_SHRINK_BELOW`` of all pairs; otherwise it takes at most ``_FULL_STEPS`` Newton steps on all of them before it
#: looks again. ``_MAX_ROUNDS`` bounds the rounds of one inner solve.
_KEEP_MARGIN = 1.0
_SHRINK_BELOW = 0.5
_FULL_STEPS = 2
_MAX_ROUNDS = 25


class _Pairs:
    """The linear maps ``w -> Zw`` and ``r -> Z^T r`` of a dense ``F`` and its pairs, without forming ``Z``."""

    def __init__(self, F: np.ndarray, pos: np.ndarray, neg: np.ndarray):
        self.F, self.pos, self.neg = F, pos, neg

    def apply(self, w: np.ndarray) -> np.ndarray:
        s = self.F @ w
        return s[self.pos] - s[self.neg]

    def apply_t(self, r: np.ndarray) -> np.ndarray:
        n = self.F.shape[0]
        c = np.bincount(self.pos, r, minlength=n) - np.bincount(self.neg, r, minlength=n)
        rows = np.flatnonzero(c)
        if rows.size > n // 4:
            return self.F.T @ c
        return self.F[rows].T @ c[rows]  # the usual case near the optimum: few pairs have a nonzero r

    def subset(self, pairs: np.ndarray) -> _Pairs:
        """The maps of the pairs ``pairs`` (indices) alone, on a copy of the rows they use."""
        rows, inverse = np.unique(np.concatenate([self.pos[pairs], self.neg[pairs]]), return_inverse=True)
        return _Pairs(self.F[rows], inverse[: pairs.size], inverse[pairs.size :])

    def gram(self, band: np.ndarray) -> np.ndarray:
        """:math:`Z_B^\\top Z_B` of the pairs ``band`` (indices), accumulated in chunks; above ``_GRAM_SAMPLE``
        pairs, estimated from a seeded random sample of that many, scaled up."""
        d = self.F.shape[1]
        out = np.zeros((d, d))
        if band.size > _GRAM_SAMPLE:
            scale = band.size / _GRAM_SAMPLE
            band = np.sort(np.random.default_rng(0).choice(band, _GRAM_SAMPLE, replace=False))
            return scale * self.gram(band)
        for start in range(0, band.size, _CHUNK):
            idx = band[start : start + _CHUNK]
            Zb = self.F[self.pos[idx]] - self.F[self.neg[idx]]
            out += Zb.T @ Zb
        return out


def _envelope(v: np.ndarray, upper: np.ndarray, sigma: float) -> tuple[float, np.ndarray]:
    """Sum of the pairs' Moreau envelopes at ``v`` and their derivatives ``e'(v)`` (in ``[-C_p, 0]``)."""
    gap = 1.0 - v
    deriv = -np.minimum(np.maximum(sigma * gap, 0.0), upper)
    linear = sigma * gap > upper
    value = np.where(linear, upper * gap - upper * upper / (2.0 * sigma), 0.5 * sigma * np.maximum(gap, 0.0) ** 2)
    return float(value.sum()), deriv


def _primal(w: np.ndarray, margins: np.ndarray, upper: np.ndarray) -> float:
    return 0.5 * float(w @ w) + float(upper @ np.maximum(0.0, 1.0 - margins))


def _newton_solve(G: np.ndarray, sigma: float, grad: np.ndarray) -> np.ndarray:
    r""":math:`(I + \sigma G)^{-1}` ``grad`` for a Gram matrix ``G``: by Cholesky, or, when rounding has made
    ``I + sigma G`` indefinite (large ``sigma`` and collinear features), through the eigenvalues of ``G`` clipped
    at 0, which keeps every eigenvalue of the system at least 1 as in exact arithmetic."""
    H = sigma * G
    H[np.diag_indices_from(H)] += 1.0
    try:
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(H, check_finite=False), grad, check_finite=False)
    except np.linalg.LinAlgError:
        lam, Q = scipy.linalg.eigh(G, check_finite=False)
        return Q @ ((Q.T @ grad) / (1.0 + sigma * np.maximum(lam, 0.0)))


def _inner_newton(Z: _Pairs, w: np.ndarray, u: np.ndarray, mu: np.ndarray, upper: np.ndarray, sigma: float,
                  tol: float, max_steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Minimise phi by semismooth Newton from ``w`` (with ``u = Zw``) until its gradient's norm is at most
    ``tol``; returns (w, Zw, e'(v), the gradient, Newton steps taken), all at the returned ``w``."""
    shift = mu / sigma
    value, deriv = _envelope(u + shift, upper, sigma)
    phi = 0.5 * float(w @ w) + value
    steps = 0
    while True:
        grad = w + Z.apply_t(deriv)
        if steps == max_steps or float(np.linalg.norm(grad)) <= tol:
            break
        v = u + shift
        # the pairs where e is quadratic, its lower kink included (from w = 0 at sigma = C every pair sits there)
        band = np.flatnonzero((v < 1.0) & (sigma * (1.0 - v) <= upper))
        direction = -_newton_solve(Z.gram(band), sigma, grad)
        slope = float(grad @ direction)
        if slope >= 0.0:  # no descent left at floating-point precision
            break
        Zd = Z.apply(direction)
        t = 1.0
        while True:
            w_new = w + t * direction
            u_new = u + t * Zd
            value, deriv_new = _envelope(u_new + shift, upper, sigma)
            phi_new = 0.5 * float(w_new @ w_new) + value
            if phi_new <= phi + 1e-4 * t * slope or t < _SMALLEST_STEP:
                break
            t *= 0.5
        if phi_new >= phi:  # the line search found no decrease: phi is at its floor
            break
        w, u, deriv, phi = w_new, u_new, deriv_new, phi_new
        steps += 1
    return w, u, deriv, grad, steps


def _inner_solve(Z: _Pairs, w: np.ndarray, u: np.ndarray, mu: np.ndarray, upper: np.ndarray, sigma: float,
                 tol: float, shrinking: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    r""":func:`_inner_newton` over all pairs, or, with ``shrinking``, over a working set of them.

    A pair with :math:`v_p \ge 1` adds nothing to :math:`\varphi` or its gradient, and at the optimum of a ranking
    problem most pairs sit far above 1 (on Reuters-21578 fewer than 3% of the pairs have a margin below 2). So the
    Newton steps run on the pairs with :math:`v_p < 1 +` ``_KEEP_MARGIN`` (and on a copy of their rows only); then
    one pass over all pairs recomputes ``Zw`` and the gradient, and any pair left out that has come below 1 joins
    the working set for another round. What is returned is always of the whole problem: (w, Zw, e'(v), the
    gradient, Newton steps taken), as :func:`_inner_newton` returns them.
    """
    shift = mu / sigma
    steps, working = 0, None
    for _ in range(_MAX_ROUNDS):
        if working is None:
            working = np.flatnonzero(u + shift < 1.0 + _KEEP_MARGIN) if shrinking else np.arange(u.size)
        if working.size > _SHRINK_BELOW * u.size or not shrinking:
            limit = min(_INNER_STEPS - steps, _FULL_STEPS if shrinking else _INNER_STEPS)
            w, u, deriv, grad, taken = _inner_newton(Z, w, u, mu, upper, sigma, tol, limit)
            steps += taken
            if taken < limit or steps >= _INNER_STEPS or float(np.linalg.norm(grad)) <= tol:
                break
            working = None  # look again for the pairs that matter
            continue
        w, _, _, _, taken = _inner_newton(Z.subset(working), w, u[working], mu[working], upper[working], sigma,
                                          tol, _INNER_STEPS - steps)
        steps += taken
        u = Z.apply(w)
        deriv = _envelope(u + shift, upper, sigma)[1]
        grad = w + Z.apply_t(deriv)
        if steps >= _INNER_STEPS or float(np.linalg.norm(grad)) <= tol:
            break
        grown = np.union1d(working, np.flatnonzero(u + shift < 1.0))
        if grown.size == working.size:  # no pair came in: the working set's solve stopped at its floor
            break
        working = grown
    return w, u, deriv, grad, steps


def fit_pairwise_hinge_alm(
    F: Any,
    pos_rows: Any,
    neg_rows: Any,
    C: float | Any = 1.0,
    *,
    tol: float = 1e-6,
    max_iter: int = 100,
    coef_init: Any = None,
    shrinking: bool = True,
) -> PairwiseHingeResult:
    r"""Minimise the one-block pairwise hinge-loss SVM (P) by an augmented Lagrangian method (Yan & Li 2020).

    .. math::

        \min_w \tfrac12 \lVert w \rVert^2 + \sum_p C_p \max\big(0,\, 1 - w \cdot (F_{a_p} - F_{b_p})\big)

    The same problem as :func:`~labelrank.rankers.pairwise_svm.fit_pairwise_hinge` with one block, solved in the
    primal (see the module docstring) and stopped by a duality-gap certificate, so its cost hardly depends on
    ``C``.

    Parameters
    ----------
    F : array-like of shape (n_rows, n_features)
        Dense rows (the method forms ``n_features`` x ``n_features`` systems; meant for a few hundred columns).
    pos_rows, neg_rows : array-like of int, shape (n_pairs,)
        Row of ``F`` of the positive and the negative vector of each pair.
    C : float or array-like of shape (n_pairs,), default=1.0
        The weight :math:`C_p > 0` of each pair's hinge loss.
    tol : float, default=1e-6
        Stop when :math:`P(w) - D(\alpha) \le` ``tol`` :math:`\cdot \max(1, P(w))`.
    max_iter : int, default=100
        Maximum number of outer (multiplier) updates; ``converged`` is False when it is reached first.
    coef_init : array-like of shape (n_features,), optional
        Warm start for ``w``, e.g. the solution at a nearby ``C``.
    shrinking : bool, default=True
        Run the Newton steps on a working set of the pairs whose margins are below 2 (rechecked on all pairs after
        each inner solve, so the optimum and its certificate are those of the whole problem). Much faster when few
        pairs are near their margin, as in ranking many irrelevant labels; False runs every step on every pair.

    Returns
    -------
    PairwiseHingeResult
        ``coef`` of shape (1, n_features), ``alpha`` the dual point of the certificate, ``n_iter`` the number of
        Newton steps, ``violation`` the relative duality gap reached.

    Raises
    ------
    TypeError, ValueError
        For malformed input; the message names the argument and shows the offending value.

    Examples
    --------
    >>> res = fit_pairwise_hinge_alm([[0.0], [1.0]], pos_rows=[1], neg_rows=[0], C=10.0)
    >>> res.converged, round(float(res.coef[0, 0]), 6), res.duality_gap < 1e-6
    (True, 1.0, True)
    """
    if F is None or isinstance(F, (str, bytes)) or hasattr(F, "tocsr"):
        raise TypeError(f"F must be a dense 2-D array, got {type(F).__name__}")
    F = _as_dense_matrix(F)
    n_rows, d = F.shape
    pos = _as_index(pos_rows, "pos_rows", None, n_rows, "the rows of F")
    neg = _as_index(neg_rows, "neg_rows", pos.shape[0], n_rows, "the rows of F")
    upper = _pair_bounds(C, pos.shape[0])
    tol = check_real(tol, "tol", low=0.0, low_inclusive=False)
    max_iter = check_positive_int(max_iter, "max_iter")
    if not isinstance(shrinking, (bool, np.bool_)):
        raise TypeError(f"shrinking must be True or False, got {shrinking!r}")
    if coef_init is None:
        w = np.zeros(d)
    else:
        w = np.asarray(coef_init, dtype=np.float64).ravel()
        if w.shape != (d,) or not np.all(np.isfinite(w)):
            raise ValueError(f"coef_init must be {d} finite numbers, got shape {np.shape(coef_init)}")
        w = w.copy()

    return _alm(_Pairs(F, pos, neg), upper, w, tol, max_iter, bool(shrinking))


def _alm(Z: _Pairs, upper: np.ndarray, w: np.ndarray, tol: float, max_iter: int,
         shrinking: bool) -> PairwiseHingeResult:
    """The augmented Lagrangian iterations of :func:`fit_pairwise_hinge_alm` on validated input."""
    n_pairs, d = Z.pos.size, Z.F.shape[1]
    if n_pairs == 0:
        return PairwiseHingeResult(np.zeros((1, d)), np.zeros(0), 0, True, 0.0, 0.0, 0.0)
    mu = np.zeros(n_pairs)
    sigma = sigma_start = _SIGMA_START * float(np.median(upper))
    u = Z.apply(w)
    best_w, best_primal = w, np.inf
    alpha, dual, gap, steps, converged = np.zeros(n_pairs), -np.inf, np.inf, 0, False
    for _ in range(max_iter):
        inner_tol = _INNER_TOL * tol * max(1.0, float(np.sqrt(w @ w)))
        w, u, mu, grad, taken = _inner_solve(Z, w, u, mu, upper, sigma, inner_tol, shrinking)
        steps += taken
        primal = _primal(w, u, upper)
        if primal < best_primal:
            best_w, best_primal = w, primal
        # alpha = -mu is a dual point, and Z^T alpha = w - grad (the gradient is w + Z^T mu)
        w_dual = w - grad
        candidate_dual = float(-mu.sum()) - 0.5 * float(w_dual @ w_dual)
        if candidate_dual > dual:
            alpha, dual = -mu, candidate_dual
        primal_of_dual = _primal(w_dual, Z.apply(w_dual), upper)  # often the better primal point
        if primal_of_dual < best_primal:
            best_w, best_primal = w_dual, primal_of_dual
        gap = (best_primal - dual) / max(1.0, best_primal)
        if gap <= tol:
            converged = True
            break
        sigma = min(sigma * _SIGMA_GROWTH, _SIGMA_MAX * sigma_start)
    return PairwiseHingeResult(best_w[None, :].copy(), alpha, steps, converged, float(gap), best_primal, dual)
