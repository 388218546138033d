r"""The pairwise hinge-loss SVM, solved in the primal by an augmented Lagrangian method.

The problem is :mod:`labelrank.rankers.pairwise_svm`'s (P). In its one-block case: rows ``F`` of shape
(n_rows, d), pairs ``p`` of a positive row :math:`a_p` and a negative row :math:`b_p`, their difference
:math:`z_p = F_{a_p} - F_{b_p}` and

.. math::

    \min_w P(w) = \tfrac12 \lVert w \rVert^2 + \sum_p C_p \max(0,\, 1 - z_p \cdot w) .   \tag{P}

With blocks (Rank-SVM: one weight vector per label, pair ``p`` comparing labels :math:`s_p` and :math:`t_p` of
one row) ``w`` is the flattened weight matrix and :math:`z_p = (e_{s_p} - e_{t_p}) \otimes F_{a_p}`: the same
problem in ``n_blocks * d`` dimensions (:class:`~labelrank.rankers.pair_maps._LabelPairs`).

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
below. :math:`\varphi` is convex and once differentiable, with gradient :math:`w + Z^\top e'(v)`; the inner solver
is the semismooth Newton method, whose generalised Hessian :math:`I + \sigma Z_B^\top Z_B` involves only the pairs
``B`` with ``v`` inside the quadratic band (a ``d`` x ``d`` system, Cholesky; a :math:`|B|` x :math:`|B|` one by the
Woodbury identity when the band has fewer pairs than ``d``). Its step length is exact: along a line :math:`\varphi`
is a piecewise quadratic whose minimum one sort of its kinks finds (Keerthi & DeCoste 2005; :func:`_exact_step`),
which needs fewer Newton steps than Armijo's backtracking from step 1. Armijo's test still guards the step, and backtracking from it follows where
rounding makes the exact step fail the test (where the decrease it asks for is below :math:`\varphi`'s
floating-point resolution, a step that lowers the gradient's norm is taken instead). Then :math:`\mu \leftarrow
e'(v)` and :math:`\sigma` grows fourfold, up to a cap, unless the inner solve was cut short at its step limit: with
:math:`\sigma \gg C_p` the quadratic band :math:`[1 - C_p/\sigma, 1)` is so narrow that the Newton steps cross kinks
at every step, and a penalty that kept growing would leave the inner solves at their step limit for good (as on a
label of scene at ``C`` = 2.3e5). Any fixed :math:`\sigma` converges (the method is a proximal point method on the dual,
Rockafellar 1976).

The multiplier is a dual point: :math:`\alpha = -\mu` always lies in the box :math:`[0, C_p]`, and at the inner
problem's optimum :math:`w = Z^\top\alpha`, as in (D) of :mod:`~labelrank.rankers.pairwise_svm`. So every outer
step yields a certificate: the duality gap :math:`P(w) - D(\alpha) \ge 0` with
:math:`D(\alpha) = \sum_p \alpha_p - \tfrac12 \lVert Z^\top \alpha \rVert^2`. The solver stops when the gap is at
most ``tol`` times :math:`\max(1, P(w))`, and returns the ``w`` with the smallest primal objective seen.

Every product with ``Z`` is one pass over ``F`` (``F @ w``, then a gather over the pairs) and every product
with :math:`Z^\top` is one scatter over the pairs and ``F.T @ c`` over the rows it touches; no pair's difference
vector is stored except those of the band, in chunks.

Five things make a large ranking problem cheap, none of which changes the optimum or its certificate:

* **A working set** (``shrinking=True``; Joachims 1999's shrinking, in the form of Hsieh et al. 2008). A pair with
  :math:`v_p \ge 1` adds nothing to :math:`\varphi` or its gradient, and a ranking problem's pairs mostly end far
  beyond their margin (Reuters-21578 at ``k = 50``: fewer than 3% have a margin below 2, on 3% of the rows). Each
  inner solve runs its Newton steps on the pairs with :math:`v_p < 2` and a copy of their rows, then recomputes
  ``Zw`` and the gradient of the whole problem; a left-out pair that has come below 1 joins, and the solve goes
  on. Everything the outer iteration and the certificate use is of the whole problem.
* **A screen** (with the working set): one exact pass over all pairs at an anchor :math:`w_0` bounds every margin
  from below for any later ``w``, :math:`z_p \cdot w \ge z_p \cdot w_0 - \lVert z_p \rVert \lVert w - w_0
  \rVert`, so "recomputes ``Zw``" above touches only the rows of the pairs whose bound falls below 2, and a new
  anchor (a pass over every row) is needed only when they become many (safe screening, El Ghaoui et al. 2012).
* **A sampled Hessian** for a band of more than 65,536 pairs (at ``w = 0`` every pair is in it): the
  Gram matrix of a seeded random sample of the band, scaled up (sub-sampled Newton, Roosta-Khorasani & Mahoney
  2019). It is still positive definite, so the direction still descends, and the line search decides the step.
* **Low-rank updates of the Newton system** where it has many unknowns (Rank-SVM's ``n_labels * (d + 1)``: 1,456
  on yeast), whose Gram matrix and Cholesky factor would be most of a fit's time: consecutive Newton steps of one
  inner solve mostly differ in a few dozen pairs of their bands, so the next system is the last one factored
  plus a change of low rank, solved through the Woodbury identity from that factor and checked against its own
  residual (:class:`~labelrank.rankers.pair_maps._Factored`), which saves most of the factorisations.
* **Rows read in float32** where they come so (RankSVM-IR's rows of the meta-level features): most of a
  RankSVM-IR fit is passes over ``F`` (``F @ w`` and ``F.T @ c``, each limited by the bytes it reads), and float32
  halves them; the products are computed and summed in float64 by compiled loops, so the problem solved is
  exactly the one with those float32 values (:class:`~labelrank.rankers.pair_maps._Pairs`).

References
----------
S. S. Keerthi, D. DeCoste (2005). A modified finite Newton method for fast solution of large scale linear SVMs.
Journal of Machine Learning Research 6, 341-361.
Y. Yan, Q. Li (2020). An efficient augmented Lagrangian method for support vector machine. Optimization Methods
and Software (arXiv:1912.06800).
T. Joachims (1999). Making large-scale SVM learning practical. In Advances in Kernel Methods: Support Vector
Learning, MIT Press, 169-184.
C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan (2008). A dual coordinate descent method for
large-scale linear SVM. ICML, 408-415.
L. El Ghaoui, V. Viallon, T. Rabbani (2012). Safe feature elimination in sparse supervised learning. Pacific
Journal of Optimization 8(4), 667-698.
F. Roosta-Khorasani, M. W. Mahoney (2019). Sub-sampled Newton methods. Mathematical Programming 174, 293-326.
R. T. Rockafellar (1976). Augmented Lagrangians and applications of the proximal point algorithm in convex
programming. Mathematics of Operations Research 1(2), 97-116.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from labelrank.validation import check_positive_int, check_real
from labelrank.rankers.pair_maps import _LabelPairs, _Pairs, _Screen
from labelrank.rankers.pairwise_svm import (
    PairwiseHingeResult,
    _as_dense_matrix,
    _as_index,
    _check_blocks,
    _pair_bounds,
    dual_path_starts,
)

__all__ = ["fit_pairwise_hinge_alm", "fit_pairwise_hinge_alm_path"]

#: The penalty starts at this multiple of the median ``C_p`` and grows by ``_SIGMA_GROWTH`` per outer iteration.
_SIGMA_START = 1.0
_SIGMA_GROWTH = 4.0
_SIGMA_MAX = 4.0**12  # times the start: any bounded penalty converges, a huge one only loses precision

#: Where the exact step fails Armijo's test, the line search halves it down to this length (a gradient step on
#: badly scaled rows may need it).
_SMALLEST_STEP = 1e-30

#: The relative floating-point resolution of phi below which the line search compares gradient norms instead.
_RESOLUTION = 64 * np.finfo(np.float64).eps

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
_LOOK_AGAIN_ABOVE = 10_000  # pairs


def _envelope(v: np.ndarray, upper: np.ndarray, sigma: float) -> tuple[float, np.ndarray]:
    """Sum of the pairs' Moreau envelopes at ``v`` and their derivatives ``e'(v)`` (in ``[-C_p, 0]``)."""
    gap = 1.0 - v
    deriv = -np.minimum(np.maximum(sigma * gap, 0.0), upper)
    linear = sigma * gap > upper
    value = np.where(linear, upper * gap - upper * upper / (2.0 * sigma), 0.5 * sigma * np.maximum(gap, 0.0) ** 2)
    return float(value.sum()), deriv


def _exact_step(w: np.ndarray, direction: np.ndarray, v: np.ndarray, Zd: np.ndarray, upper: np.ndarray,
                sigma: float) -> float:
    r"""The step ``t > 0`` that minimises :math:`\varphi(w + t d)` exactly (1 where ``d`` is no descent direction).

    Along a line :math:`\varphi` is a convex piecewise quadratic in ``t``: pair ``p``'s envelope derivative
    :math:`e_p'(v_p + t (Zd)_p)` is linear in ``t`` between two kinks, where its argument crosses
    :math:`1 - C_p / \sigma` and 1. So :math:`\varphi'(t) = w \cdot d + t \lVert d \rVert^2 + \sum_p (Zd)_p
    e_p'(v_p + t (Zd)_p)` is continuous, non-decreasing and piecewise linear, and its root is exact after a sort of
    the kinks (the exact line search of Keerthi & DeCoste 2005). The root is bracketed first (``t`` = 1, 2, 4, ...
    until :math:`\varphi'(t) \ge 0`) and only the kinks inside the bracket are sorted: a semismooth Newton step is
    mostly close to 1."""
    moving = np.flatnonzero(Zd)
    zd, v0, c = Zd[moving], v[moving], upper[moving]
    wd, dd = float(w @ direction), float(direction @ direction)

    def derivative(t: float) -> float:
        return wd + t * dd + float(-np.minimum(np.maximum(sigma * (1.0 - (v0 + t * zd)), 0.0), c) @ zd)

    low_t, high_t, low_value = 0.0, 1.0, derivative(0.0)
    if not low_value < 0.0:
        return 1.0
    while (high_value := derivative(high_t)) < 0.0:  # the root lies beyond: double the bracket
        if high_t > 2.0**60:
            return high_t
        low_t, low_value, high_t = high_t, high_value, 2.0 * high_t
    # the slope of phi' just after low_t: ||d||^2 plus sigma zd^2 of the pairs then inside the band [1 - C/sigma, 1)
    at, band_low = v0 + low_t * zd, 1.0 - c / sigma
    inside = ((at > band_low) & (at < 1.0)) | ((at == band_low) & (zd > 0.0)) | ((at == 1.0) & (zd < 0.0))
    curvature = sigma * zd * zd
    slope = dd + float(curvature[inside].sum())
    # the kinks inside the bracket, with the change of slope at each (+ entering the band, - leaving it)
    kinks = np.concatenate([(band_low - v0) / zd, (1.0 - v0) / zd])
    entering = np.where(zd > 0.0, curvature, -curvature)  # at the kink at 1 - C/sigma; its opposite at 1
    change = np.concatenate([entering, -entering])
    ahead = np.flatnonzero((kinks > low_t) & (kinks < high_t))
    order = ahead[np.argsort(kinks[ahead], kind="stable")]
    starts = np.concatenate([[low_t], kinks[order]])
    slopes = slope + np.concatenate([[0.0], np.cumsum(change[order])])  # on [starts[j], starts[j + 1])
    values = low_value + np.concatenate([[0.0], np.cumsum(slopes[:-1] * np.diff(starts))])  # phi' at starts
    j = int(np.searchsorted(values >= 0.0, True)) - 1  # the last start where phi' is still negative
    t = float(starts[j]) - float(values[j]) / float(slopes[j]) if slopes[j] > 0.0 else high_t
    return min(max(t, float(starts[j])), high_t) if np.isfinite(t) else 1.0


def _primal(w: np.ndarray, margins: np.ndarray, upper: np.ndarray) -> float:
    return 0.5 * float(w @ w) + float(upper @ np.maximum(0.0, 1.0 - margins))


def _inner_newton(Z: _Pairs | _LabelPairs, w: np.ndarray, u: np.ndarray, mu: np.ndarray, upper: np.ndarray,
                  sigma: float, tol: float,
                  max_steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
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
        direction = Z.newton_direction(band, sigma, grad)
        slope = float(grad @ direction)
        if slope >= 0.0:  # no descent left at floating-point precision
            break
        Zd = Z.apply(direction)
        resolution = _RESOLUTION * max(1.0, abs(phi))
        t, accepted = _exact_step(w, direction, u + shift, Zd, upper, sigma), False
        while not accepted:
            w_new = w + t * direction
            u_new = u + t * Zd
            value, deriv_new = _envelope(u_new + shift, upper, sigma)
            phi_new = 0.5 * float(w_new @ w_new) + value
            if phi_new <= phi + 1e-4 * t * slope:
                accepted = phi_new < phi
                break
            if -t * slope <= resolution and phi_new <= phi + resolution:
                # the decrease is below phi's floating-point resolution, where Armijo's test only sees rounding:
                # the gradient's norm decides (a step that lowers it is taken)
                accepted = np.linalg.norm(w_new + Z.apply_t(deriv_new)) < np.linalg.norm(grad)
                if not accepted and t * slope > -1e-6 * resolution:
                    break
            elif t < _SMALLEST_STEP:
                break
            t *= 0.5
        if not accepted:  # the line search found no decrease: phi is at its floor
            break
        w, u, deriv, phi = w_new, u_new, deriv_new, phi_new
        steps += 1
    return w, u, deriv, grad, steps


def _inner_solve(Z: _Pairs | _LabelPairs, screen: _Screen | None, w: np.ndarray, u: np.ndarray, mu: np.ndarray,
                 upper: np.ndarray, sigma: float,
                 tol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    r""":func:`_inner_newton` over all pairs, or, with a ``screen`` (``shrinking``), over a working set of them.

    A pair with :math:`v_p \ge 1` adds nothing to :math:`\varphi` or its gradient, and at the optimum of a ranking
    problem most pairs sit far above 1 (on Reuters-21578 fewer than 3% of the pairs have a margin below 2). So the
    Newton steps run on the pairs with :math:`v_p < 1 +` ``_KEEP_MARGIN`` (and on a copy of their rows only); then
    the screen gives ``Zw`` of every pair that may have come below that (the others keep a lower bound above it),
    and any pair left out that has come below 1 joins the working set for another round. Steps on all pairs (while
    more than ``_SHRINK_BELOW`` of them are in the working set) start from an exact pass. What is returned is of
    the whole problem, as :func:`_inner_newton` returns it: (w, u, e'(v), the gradient, Newton steps taken), where
    ``u`` is ``Zw`` on every pair with :math:`v_p < 1 +` ``_KEEP_MARGIN`` and a lower bound at least that elsewhere.
    """
    shift = mu / sigma
    keep = 1.0 + _KEEP_MARGIN - shift  # the margins below which a pair may matter
    steps, working = 0, None
    for _ in range(_MAX_ROUNDS):
        if working is None:
            working = np.flatnonzero(u < keep) if screen is not None else np.arange(u.size)
        if working.size > _SHRINK_BELOW * u.size or screen is None:
            # looking again for a smaller working set pays on large problems only; on small ones, cutting the
            # steps on all pairs short stalled the method (hypothesis: 3 pairs, C = 1, rows scaled by 100)
            looks = screen is not None and u.size > _LOOK_AGAIN_ABOVE
            limit = min(_INNER_STEPS - steps, _FULL_STEPS if looks else _INNER_STEPS)
            if screen is not None:  # the steps on all pairs update u: it must be exact everywhere
                u = screen.u0.copy() if np.array_equal(w, screen.w0) else screen.anchor(w)
            w, u, deriv, grad, taken = _inner_newton(Z, w, u, mu, upper, sigma, tol, limit)
            steps += taken
            if taken < limit or steps >= _INNER_STEPS or float(np.linalg.norm(grad)) <= tol:
                break
            working = None  # look again for the pairs that matter
            continue
        w, _, _, _, taken = _inner_newton(Z.subset(working), w, u[working], mu[working], upper[working], sigma,
                                          tol, _INNER_STEPS - steps)
        steps += taken
        u = screen.margins(w, keep)
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
    pos_blocks: Any = None,
    neg_blocks: Any = None,
    n_blocks: int | None = None,
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
        Dense rows (the method forms ``n_features`` x ``n_features`` systems; meant for a few hundred columns). A
        float32 array of one block is used as it is (every product with it is summed in float64); anything else
        is read as float64.
    pos_rows, neg_rows : array-like of int, shape (n_pairs,)
        Row of ``F`` of the positive and the negative vector of each pair.
    C : float or array-like of shape (n_pairs,), default=1.0
        The weight :math:`C_p > 0` of each pair's hinge loss.
    pos_blocks, neg_blocks : array-like of int, shape (n_pairs,), optional
        As for :func:`~labelrank.rankers.pairwise_svm.fit_pairwise_hinge`: the row of the weight matrix ``W``
        that scores the positive / negative vector (Rank-SVM's labels). Here both vectors of a pair must be one
        row of ``F`` (``pos_rows == neg_rows``), as in Rank-SVM: then
        :math:`z_p = (e_{s_p} - e_{t_p}) \otimes F_{a_p}`, and the Newton systems have ``n_blocks *
        n_features`` unknowns (formed from one weighted :math:`F^\top F` per pair of blocks).
    n_blocks : int, optional
        Rows of ``W``; default ``1 + max`` block index used.
    tol : float, default=1e-6
        Stop when :math:`P(w) - D(\alpha) \le` ``tol`` :math:`\cdot \max(1, P(w))`.
    max_iter : int, default=100
        Maximum number of outer (multiplier) updates; ``converged`` is False when it is reached first.
    coef_init : array-like of shape (n_features,) or (n_blocks, n_features), optional
        Warm start for ``w``, e.g. the solution at a nearby ``C``.
    shrinking : bool, default=True
        Run the Newton steps on a working set of the pairs whose margins are below 2 (rechecked on all pairs after
        each inner solve, so the optimum and its certificate are those of the whole problem). Much faster when few
        pairs are near their margin, as in ranking many irrelevant labels; False runs every step on every pair.

    Returns
    -------
    PairwiseHingeResult
        ``coef`` of shape (n_blocks, n_features) (one block by default), ``alpha`` the dual point of the
        certificate, ``n_iter`` the number of Newton steps, ``violation`` the relative duality gap reached.

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
    Z, tol, max_iter = _checked(F, pos_rows, neg_rows, tol, max_iter, shrinking, pos_blocks, neg_blocks, n_blocks)
    d = Z.dim
    if coef_init is None:
        w = np.zeros(d)
    else:
        w = np.asarray(coef_init, dtype=np.float64).ravel()
        if w.shape != (d,) or not np.all(np.isfinite(w)):
            raise ValueError(f"coef_init must be {d} finite numbers, got shape {np.shape(coef_init)}")
        w = w.copy()
    return _alm(Z, _pair_bounds(C, Z.n_pairs), w, tol, max_iter, bool(shrinking))


def fit_pairwise_hinge_alm_path(
    F: Any,
    pos_rows: Any,
    neg_rows: Any,
    Cs: Sequence[float],
    *,
    weights: Any = None,
    pos_blocks: Any = None,
    neg_blocks: Any = None,
    n_blocks: int | None = None,
    tol: float = 1e-6,
    max_iter: int = 100,
    shrinking: bool = True,
) -> list[PairwiseHingeResult]:
    r"""(P) at each value of ``C`` in turn, each solve starting from the previous solution.

    What :func:`fit_pairwise_hinge_alm` computes at each ``C`` (``C_p = C`` times the pair's weight), to the same
    certified tolerance, with the input checked once and the pairs' norms of the screen (module docstring) computed
    once. Each solve starts from the previous weights and from the previous dual point in the new box as its
    multiplier :math:`\mu = -\alpha`: a pair at its upper bound starts at the new bound, any other keeps its value
    (clipped to the box where ``C`` decreases). Along an increasing grid of ``C`` the weights skip the first Newton
    steps, in which every pair is in the quadratic band, and the dual point skips outer updates; where the optimum
    stops changing with ``C`` (separable pairs past the hard margin's ``C``) a solve needs a step or two. The dual
    point is kept as it is rather than scaled by the ratio of the ``C`` values, because a free pair's dual value
    settles as ``C`` grows. A warm-started solve that stops at ``max_iter`` short of the tolerance is solved again
    from ``w = 0`` and a zero multiplier, as :func:`fit_pairwise_hinge_alm` would solve it (``n_iter`` counts the
    steps of both): a safety net, since a warm start far from the new optimum can leave the inner solves at their
    step limit (the penalty grows only after settled inner solves, module docstring, which makes that rare).

    Parameters
    ----------
    F, pos_rows, neg_rows, pos_blocks, neg_blocks, n_blocks, tol, max_iter, shrinking
        As for :func:`fit_pairwise_hinge_alm`.
    Cs : sequence of float
        Positive values of ``C``, solved in this order.
    weights : array-like of shape (n_pairs,), optional
        Positive weight of each pair's hinge loss, :math:`C_p = C w_p` (Rank-SVM's :math:`1 / (|Y_i| |\bar
        Y_i|)`); 1 by default.

    Returns
    -------
    list of PairwiseHingeResult
        One per value of ``Cs``.

    Examples
    --------
    >>> path = fit_pairwise_hinge_alm_path([[0.0], [1.0]], [1], [0], [0.25, 10.0])
    >>> [round(float(r.coef[0, 0]), 6) for r in path]
    [0.25, 1.0]
    """
    Z, tol, max_iter = _checked(F, pos_rows, neg_rows, tol, max_iter, shrinking, pos_blocks, neg_blocks, n_blocks)
    base = np.ones(Z.n_pairs) if weights is None else _pair_bounds(weights, Z.n_pairs, "weights")
    if isinstance(Cs, (str, bytes)) or not hasattr(Cs, "__len__"):
        raise TypeError(f"Cs must be a sequence of positive floats, got {Cs!r}")
    values = [check_real(c, f"Cs[{j}]", low=0.0, low_inclusive=False) for j, c in enumerate(Cs)]
    if not values:
        raise ValueError("Cs must hold at least one value of C, got an empty sequence")
    w, alpha, previous, results = np.zeros(Z.dim), None, None, []
    for C in values:
        upper = float(C) * base
        # the previous dual point in this C's box: a pair at its upper bound starts at the new one, the others
        # where they were (clipped)
        start = None if alpha is None else dual_path_starts(alpha, previous, upper)[0]
        res = _alm(Z, upper, w, tol, max_iter, bool(shrinking), start)
        if not res.converged and w.any():  # the warm start failed: solve again from w = 0, as a cold fit would
            cold = _alm(Z, upper, np.zeros_like(w), tol, max_iter, bool(shrinking))
            res = dataclasses.replace(cold if cold.converged or cold.violation < res.violation else res,
                                      n_iter=res.n_iter + cold.n_iter)
        results.append(res)
        w, alpha, previous = res.coef.ravel().copy(), res.alpha, upper
    return results


def _checked(F: Any, pos_rows: Any, neg_rows: Any, tol: Any, max_iter: Any, shrinking: Any, pos_blocks: Any = None,
             neg_blocks: Any = None, n_blocks: Any = None) -> tuple[_Pairs | _LabelPairs, float, int]:
    """The pair maps of validated ``F``, ``pos_rows``, ``neg_rows`` (and blocks); ``tol`` and ``max_iter``
    checked."""
    if F is None or isinstance(F, (str, bytes)) or hasattr(F, "tocsr"):
        raise TypeError(f"F must be a dense 2-D array, got {type(F).__name__}")
    one_block = pos_blocks is None and neg_blocks is None
    F = _as_dense_matrix(F, keep_float32=one_block)  # _Pairs reads float32 rows as they are
    n_rows = F.shape[0]
    pos = _as_index(pos_rows, "pos_rows", None, n_rows, "the rows of F")
    neg = _as_index(neg_rows, "neg_rows", pos.shape[0], n_rows, "the rows of F")
    tol = check_real(tol, "tol", low=0.0, low_inclusive=False)
    max_iter = check_positive_int(max_iter, "max_iter")
    if not isinstance(shrinking, (bool, np.bool_)):
        raise TypeError(f"shrinking must be True or False, got {shrinking!r}")
    if one_block:
        if n_blocks is not None:
            raise ValueError(f"n_blocks needs pos_blocks and neg_blocks, got n_blocks={n_blocks!r} alone")
        return _Pairs(F, pos, neg), tol, max_iter
    s, t, n_blocks = _check_blocks(pos_blocks, neg_blocks, n_blocks, pos.size)
    if not np.array_equal(pos, neg):
        p = int(np.flatnonzero(pos != neg)[0])
        raise ValueError("with blocks, both vectors of a pair must be one row of F (pos_rows == neg_rows, as in "
                         f"Rank-SVM); pair {p} has rows {pos[p]} and {neg[p]}")
    return _LabelPairs(F, pos, s, t, n_blocks), tol, max_iter


def _alm(Z: _Pairs | _LabelPairs, upper: np.ndarray, w: np.ndarray, tol: float, max_iter: int, shrinking: bool,
         alpha_init: np.ndarray | None = None) -> PairwiseHingeResult:
    """The augmented Lagrangian iterations of :func:`fit_pairwise_hinge_alm` on validated input, from the weights
    ``w`` and the multiplier ``-alpha_init`` (a dual point in the box ``[0, upper]``; 0 by default)."""
    n_pairs, d = Z.n_pairs, Z.dim
    shape = Z.coef_shape
    if n_pairs == 0:
        return PairwiseHingeResult(np.zeros(shape), np.zeros(0), 0, True, 0.0, 0.0, 0.0)
    mu = np.zeros(n_pairs) if alpha_init is None else -alpha_init
    sigma = sigma_start = _SIGMA_START * float(np.median(upper))
    screen = _Screen(Z, w) if shrinking else None
    u = Z.apply(w) if screen is None else screen.u0.copy()
    best_w, best_primal = w, np.inf
    alpha, dual, gap, steps, converged = np.zeros(n_pairs), -np.inf, np.inf, 0, False
    settled = True  # whether the last inner solve ended before its step limit
    for _ in range(max_iter):
        inner_tol = _INNER_TOL * tol * max(1.0, float(np.sqrt(w @ w)))
        # a working set is taken from settled iterates only: after an inner solve cut short, w can be far from
        # phi's minimum, and the minimum over the pairs near their margins there runs away from the others'
        shrink = screen is not None and settled
        if screen is not None and not shrink:
            u = Z.apply(w)  # every margin exactly, for steps on every pair
        w, u, mu, grad, taken = _inner_solve(Z, screen if shrink else None, w, u, mu, upper, sigma, inner_tol)
        settled = taken < _INNER_STEPS
        steps += taken
        primal = _primal(w, u, upper)
        if primal < best_primal:
            best_w, best_primal = w, primal
        # alpha = -mu is a dual point, and Z^T alpha = w - grad (the gradient is w + Z^T mu)
        w_dual = w - grad
        candidate_dual = float(-mu.sum()) - 0.5 * float(w_dual @ w_dual)
        if candidate_dual > dual:
            alpha, dual = -mu, candidate_dual
        # often the better primal point; a lower bound of at least 1 on a margin is as good as its value here
        u_dual = Z.apply(w_dual) if screen is None else screen.margins(w_dual, 1.0)
        primal_of_dual = _primal(w_dual, u_dual, upper)
        if primal_of_dual < best_primal:
            best_w, best_primal = w_dual, primal_of_dual
        gap = (best_primal - dual) / max(1.0, best_primal)
        if gap <= tol:
            converged = True
            break
        if settled:  # a larger penalty only after an inner solve that was not cut short
            sigma = min(sigma * _SIGMA_GROWTH, _SIGMA_MAX * sigma_start)
    # the reported objective from one exact pass at the returned weights (the loop's margins were updated step by
    # step, or screened)
    best_primal = _primal(best_w, Z.apply(best_w), upper)
    gap = (best_primal - dual) / max(1.0, best_primal)
    return PairwiseHingeResult(best_w.reshape(shape).copy(), alpha, steps, converged, float(gap), best_primal, dual)
