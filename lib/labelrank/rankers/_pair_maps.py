"""The pairs of a pairwise hinge-loss problem as linear maps, their Newton systems, and a screen of their margins.

Used by :mod:`labelrank.rankers.pairwise_newton`, whose module docstring says what each part is for: the maps
``w -> Zw`` and ``r -> Z^T r`` of the pair differences :math:`z_p = F_{a_p} - F_{b_p}` without forming them,
a working set's copy of its rows, the Newton direction of a band of pairs (from its possibly sampled Gram matrix,
or its Woodbury form), and lower bounds on every margin from one exact pass.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg

#: Pairs whose difference vectors are formed at once when the band's Hessian is accumulated.
_CHUNK = 32_768

#: A band of more pairs has its Hessian estimated from a random sample of this many (subsampled Newton).
_GRAM_SAMPLE = 65_536

#: The Newton direction goes through the Woodbury identity's small system (a band of fewer pairs than columns)
#: while sigma ||Z_B||_F^2 is at most this (it loses about that many digits before its refinement step; see
#: _Pairs.newton_direction).
_WOODBURY_UP_TO = 1e8

#: The screen makes a new anchor (one exact pass over all pairs) when more than this share of the pairs would
#: otherwise need their margins computed one by one.
_REANCHOR = 0.1


def _system_solver(G: np.ndarray, sigma: float) -> Callable[[np.ndarray], np.ndarray]:
    r"""``r ->`` :math:`(I + \sigma G)^{-1} r` for a Gram matrix ``G``, factored once: by Cholesky, or, when
    rounding has made ``I + sigma G`` indefinite (large ``sigma`` and collinear features), through the eigenvalues
    of ``G`` clipped at 0, which keeps every eigenvalue of the system at least 1 as in exact arithmetic."""
    H = sigma * G
    H[np.diag_indices_from(H)] += 1.0
    try:
        factor = scipy.linalg.cho_factor(H, check_finite=False)
        return lambda r: scipy.linalg.cho_solve(factor, r, check_finite=False)
    except np.linalg.LinAlgError:
        lam, Q = scipy.linalg.eigh(G, check_finite=False)
        return lambda r: Q @ ((Q.T @ r) / (1.0 + sigma * np.maximum(lam, 0.0)))


class _Pairs:
    """The linear maps ``w -> Zw`` and ``r -> Z^T r`` of a dense ``F`` and its pairs, without forming ``Z``."""

    def __init__(self, F: np.ndarray, pos: np.ndarray, neg: np.ndarray):
        self.F, self.pos, self.neg = F, pos, neg
        self._norms: np.ndarray | None = None

    def apply(self, w: np.ndarray) -> np.ndarray:
        s = self.F @ w
        return s[self.pos] - s[self.neg]

    def apply_pairs(self, w: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """``(Zw)[pairs]`` from the rows of those pairs alone."""
        return self.F[self.pos[pairs]] @ w - self.F[self.neg[pairs]] @ w

    def norms(self) -> np.ndarray:
        r""":math:`\lVert z_p \rVert` of every pair (computed once, in chunks)."""
        if self._norms is None:
            self._norms = np.empty(self.pos.size)
            for start in range(0, self.pos.size, _CHUNK):
                idx = slice(start, start + _CHUNK)
                self._norms[idx] = np.linalg.norm(self.F[self.pos[idx]] - self.F[self.neg[idx]], axis=1)
        return self._norms

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

    def rows(self, pairs: np.ndarray) -> np.ndarray:
        """:math:`Z_B`: the difference vectors of the pairs ``pairs`` (indices), one row each."""
        return self.F[self.pos[pairs]] - self.F[self.neg[pairs]]

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
            Zb = self.rows(idx)
            out += Zb.T @ Zb
        return out

    def newton_direction(self, band: np.ndarray, sigma: float, grad: np.ndarray) -> np.ndarray:
        r"""The Newton direction :math:`-H^{-1}` ``grad``, :math:`H = I + \sigma Z_B^\top Z_B` of the pairs
        ``band``.

        Through the ``d`` x ``d`` system of :meth:`gram`, or, when the band has fewer pairs than ``d`` (a small
        band, or fewer rows than columns) and the system is well conditioned, through the :math:`|B|` x
        :math:`|B|` one of the Woodbury identity, :math:`H^{-1} g = g - \sigma A^\top (I + \sigma A
        A^\top)^{-1} A g` with :math:`A = Z_B`, at :math:`O(|B|^2 d)` instead of :math:`O(|B| d^2 + d^3)`. The
        identity subtracts two nearly equal vectors when :math:`\sigma \lVert A \rVert^2` is large, losing that
        many digits: it is used while :math:`\sigma \lVert A \rVert_F^2 \le` ``_WOODBURY_UP_TO``, and one step
        of iterative refinement (the residual :math:`g - Hx` solved again) makes the direction as accurate as a
        Cholesky solve of ``H``.
        """
        if band.size == 0:
            return -grad
        if band.size >= min(self.F.shape[1], _CHUNK):
            return -_system_solver(self.gram(band), sigma)(grad)
        A = self.rows(band)  # one chunk of fewer pairs than columns: gram(band) is A^T A, formed once here
        if sigma * float(np.einsum("ij,ij->", A, A)) > _WOODBURY_UP_TO:
            return -_system_solver(A.T @ A, sigma)(grad)
        solve = _system_solver(A @ A.T, sigma)

        def woodbury(g: np.ndarray) -> np.ndarray:
            return g - sigma * (A.T @ solve(A @ g))

        x = woodbury(grad)
        return -(x + woodbury(grad - x - sigma * (A.T @ (A @ x))))


class _Screen:
    r"""``Zw`` exactly where it matters, bounded below elsewhere, from one pass over all pairs.

    After an exact pass at an anchor :math:`w_0`, :math:`z_p \cdot w \ge z_p \cdot w_0 - \lVert z_p \rVert
    \lVert w - w_0 \rVert` (Cauchy-Schwarz) for every ``w``: a pair whose bound is at least a threshold needs no
    look at its rows (the idea of safe screening, El Ghaoui et al. 2012). :meth:`margins` computes the others
    exactly; when they are more than ``_REANCHOR`` of all pairs, it makes ``w`` the new anchor with one pass.
    """

    def __init__(self, Z: _Pairs, w: np.ndarray):
        self.Z = Z
        self.anchor(w)

    def anchor(self, w: np.ndarray) -> np.ndarray:
        """Make ``w`` the anchor; its exact ``Zw`` (a copy)."""
        self.w0, self.u0 = w.copy(), self.Z.apply(w)
        return self.u0.copy()

    def margins(self, w: np.ndarray, below: float | np.ndarray) -> np.ndarray:
        """``Zw`` where it is below ``below`` (a number or one per pair); elsewhere a lower bound that is not."""
        lower = self.u0 - self.Z.norms() * float(np.linalg.norm(w - self.w0))
        unsure = np.flatnonzero(lower < below)
        if unsure.size > _REANCHOR * lower.size:
            return self.anchor(w)
        lower[unsure] = self.Z.apply_pairs(w, unsure)
        return lower
