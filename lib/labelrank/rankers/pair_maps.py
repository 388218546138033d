r"""The pairs of a pairwise hinge-loss problem as linear maps, their Newton systems, and a screen of their margins.

Used by :mod:`labelrank.rankers.pairwise_newton`, whose module docstring says what each part is for: the maps
``w -> Zw`` and ``r -> Z^T r`` of the pair differences without forming them, a working set's copy of its rows, the
Newton direction of a band of pairs (from its possibly sampled Gram matrix, or its Woodbury form, or as a low-rank
update of the last system factored), and lower bounds on every margin from one exact pass. Two kinds of pairs:
:class:`_Pairs`, :math:`z_p = F_{a_p} - F_{b_p}` (one weight vector), and :class:`_LabelPairs`, Rank-SVM's, where
pair ``p`` compares two labels :math:`s_p, t_p` of one row, :math:`z_p = (e_{s_p} - e_{t_p}) \otimes F_{a_p}` in the
space of the flattened weight matrix ``W`` (one weight vector per label).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import scipy.linalg

from labelrank.optional import require

numba = require("numba", "labelrank.rankers.pair_maps (the pair maps' compiled kernels)")

#: Pairs whose difference vectors are formed at once when the band's Hessian is accumulated.
_CHUNK = 32_768

#: A band of more pairs has its Hessian estimated from a random sample of this many (subsampled Newton).
GRAM_SAMPLE = 65_536

#: The Newton direction goes through the Woodbury identity's small system (a band of fewer pairs than columns)
#: while sigma ||Z_B||_F^2 is at most this (it loses about that many digits before its refinement step; see
#: _Pairs.newton_direction).
WOODBURY_UP_TO = 1e8

#: A Newton system of at least ``UPDATE_FROM_DIM`` unknowns (Rank-SVM's on every data set, Binary-SVM's on
#: yeast's Fig. 2 features: where its Gram matrix and factor are most of a fit's time; not RankSVM-IR's, at most
#: 302, whose working sets leave little to reuse) whose band differs from the last one factored (same pairs, same
#: penalty) in at most ``_UPDATE_RANK`` pairs is solved as a low-rank update of that factor, and accepted when the
#: residual of the system itself is at most ``_UPDATE_TOL`` times the gradient's norm.
UPDATE_FROM_DIM = 320
_UPDATE_RANK = 64
_UPDATE_TOL = 1e-10

#: The screen makes a new anchor (one exact pass over all pairs) when more than this share of the pairs would
#: otherwise need their margins computed one by one.
_REANCHOR = 0.1


@numba.njit(cache=True, nogil=True, fastmath=True)
def _row_dots(F, w):  # pragma: no cover - compiled
    """``F @ w`` for a float32 or float64 ``F``, each product and sum in float64 (reassociated, so vectorised)."""
    n, d = F.shape
    out = np.empty(n)
    for i in range(n):
        acc = 0.0
        for j in range(d):
            acc += F[i, j] * w[j]
        out[i] = acc
    return out


@numba.njit(cache=True, nogil=True, fastmath=True)
def _weighted_rows(F, c):  # pragma: no cover - compiled
    """``F.T @ c`` in float64, reading only the rows with ``c != 0``."""
    n, d = F.shape
    out = np.zeros(d)
    for i in range(n):
        v = c[i]
        if v != 0.0:
            for j in range(d):
                out[j] += v * F[i, j]
    return out


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
        scale = 1.0 + sigma * np.maximum(lam, 0.0)
        return lambda r: Q @ ((Q.T @ r) / (scale if r.ndim == 1 else scale[:, None]))


class _Pairs:
    """The linear maps ``w -> Zw`` and ``r -> Z^T r`` of a dense ``F`` and its pairs, without forming ``Z``.

    ``F`` is float64 or float32 (the meta-level features' type: half the bytes to pass over, which is what the
    maps cost on large problems); every product with float32 rows is computed and summed in float64 by compiled
    loops (:func:`_row_dots`, :func:`_weighted_rows`), float64 rows go to BLAS, and the pairs' difference vectors
    are formed in float64.
    """

    def __init__(self, F: np.ndarray, pos: np.ndarray, neg: np.ndarray):
        self.F, self.pos, self.neg = F, pos, neg
        self._norms: np.ndarray | None = None
        self.factored: _Factored | None = None  # the last Newton system factored (_newton_direction)

    @property
    def dim(self) -> int:
        return self.F.shape[1]

    @property
    def n_pairs(self) -> int:
        return self.pos.size

    @property
    def coef_shape(self) -> tuple[int, int]:
        return (1, self.F.shape[1])

    def apply(self, w: np.ndarray) -> np.ndarray:
        s = self._dots(self.F, w)
        return s[self.pos] - s[self.neg]

    def apply_pairs(self, w: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """``(Zw)[pairs]`` from the rows of those pairs alone."""
        return self._dots(self.F[self.pos[pairs]], w) - self._dots(self.F[self.neg[pairs]], w)

    @staticmethod
    def _dots(F: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``F @ w`` in float64: BLAS for float64 rows, :func:`_row_dots` for float32 ones (BLAS would sum them
        in float32, numpy would copy them to float64 first)."""
        return F @ w if F.dtype == np.float64 else _row_dots(F, w)

    def norms(self) -> np.ndarray:
        r""":math:`\lVert z_p \rVert` of every pair (computed once, in chunks)."""
        if self._norms is None:
            self._norms = np.empty(self.pos.size)
            for start in range(0, self.pos.size, _CHUNK):
                idx = slice(start, start + _CHUNK)
                self._norms[idx] = np.linalg.norm(self.rows(np.arange(start, min(start + _CHUNK, self.pos.size))),
                                                  axis=1)
        return self._norms

    def apply_t(self, r: np.ndarray) -> np.ndarray:
        n = self.F.shape[0]
        c = np.bincount(self.pos, r, minlength=n) - np.bincount(self.neg, r, minlength=n)
        if self.F.dtype != np.float64:
            return _weighted_rows(self.F, c)  # reads only the rows with c != 0
        rows = np.flatnonzero(c)
        if rows.size > n // 4:
            return self.F.T @ c
        return self.F[rows].T @ c[rows]  # the usual case near the optimum: few pairs have a nonzero r

    def subset(self, pairs: np.ndarray) -> _Pairs:
        """The maps of the pairs ``pairs`` (indices) alone, on a copy of the rows they use."""
        rows, inverse = np.unique(np.concatenate([self.pos[pairs], self.neg[pairs]]), return_inverse=True)
        return _Pairs(self.F[rows], inverse[: pairs.size], inverse[pairs.size :])

    def rows(self, pairs: np.ndarray) -> np.ndarray:
        """:math:`Z_B`: the difference vectors of the pairs ``pairs`` (indices), one row each, in float64."""
        return self.F[self.pos[pairs]].astype(np.float64, copy=False) - self.F[self.neg[pairs]]

    def columns(self, pairs: np.ndarray) -> np.ndarray:
        """:math:`Z_B^\\top`: the difference vectors of the pairs ``pairs`` (indices), one column each."""
        return self.rows(pairs).T

    def gram(self, band: np.ndarray) -> np.ndarray:
        """:math:`Z_B^\\top Z_B` of the pairs ``band`` (indices), accumulated in chunks; above ``GRAM_SAMPLE``
        pairs, estimated from a seeded random sample of that many, scaled up."""
        d = self.F.shape[1]
        out = np.zeros((d, d))
        if band.size > GRAM_SAMPLE:
            scale = band.size / GRAM_SAMPLE
            band = np.sort(np.random.default_rng(0).choice(band, GRAM_SAMPLE, replace=False))
            return scale * self.gram(band)
        for start in range(0, band.size, _CHUNK):
            idx = band[start : start + _CHUNK]
            Zb = self.rows(idx)
            out += Zb.T @ Zb
        return out

    def newton_direction(self, band: np.ndarray, sigma: float, grad: np.ndarray) -> np.ndarray:
        """The Newton direction of the pairs ``band`` (:func:`_newton_direction`)."""
        return _newton_direction(self, band, sigma, grad)

    def band(self, band: np.ndarray) -> _DenseBand:
        """:math:`Z_B` of the pairs ``band`` (fewer than ``_CHUNK``), formed."""
        return _DenseBand(self.rows(band))


class _DenseBand:
    """A band's :math:`A = Z_B`, formed: the products :func:`_newton_direction` needs."""

    def __init__(self, A: np.ndarray):
        self.A = A

    def frobenius2(self) -> float:
        return float(np.einsum("ij,ij->", self.A, self.A))

    def outer(self) -> np.ndarray:
        return self.A @ self.A.T

    def inner(self) -> np.ndarray:
        return self.A.T @ self.A

    def dot(self, g: np.ndarray) -> np.ndarray:
        return self.A @ g

    def tdot(self, y: np.ndarray) -> np.ndarray:
        return self.A.T @ y


class _LabelPairs:
    r"""Rank-SVM's pairs as linear maps: pair ``p`` says label :math:`s_p` of row :math:`a_p` of ``F`` outranks
    label :math:`t_p`, :math:`z_p = (e_{s_p} - e_{t_p}) \otimes F_{a_p}`, and ``w`` is the weight matrix ``W``
    (one row per label) flattened row by row, so :math:`z_p \cdot w = F_{a_p} \cdot (W_{s_p} - W_{t_p})`.

    Nothing of size ``n_pairs`` x ``dim`` is formed. The Gram matrix of a band is :math:`\sum_a L_a \otimes
    F_a F_a^\top`, with :math:`L_a` the graph Laplacian of the row's label pairs in the band: one weighted
    :math:`F^\top F` per pair of labels, at :math:`O(m^2 n d^2)` whatever the band's size.
    """

    def __init__(self, F: np.ndarray, rows: np.ndarray, pos_blocks: np.ndarray, neg_blocks: np.ndarray,
                 n_blocks: int):
        self.F, self.a, self.s, self.t, self.m = F, rows, pos_blocks, neg_blocks, n_blocks
        self._norms: np.ndarray | None = None
        self.factored: _Factored | None = None  # the last Newton system factored (_newton_direction)

    @property
    def dim(self) -> int:
        return self.m * self.F.shape[1]

    @property
    def n_pairs(self) -> int:
        return self.a.size

    @property
    def coef_shape(self) -> tuple[int, int]:
        return (self.m, self.F.shape[1])

    def _scatter(self, r: np.ndarray) -> np.ndarray:
        r"""The (rows, labels) matrix :math:`R` with :math:`Z^\top r = \mathrm{vec}(R^\top F)` (rows up to the
        last one a pair uses)."""
        n, m = self.a.max(initial=-1) + 1, self.m
        cells = self.a * m
        R = np.bincount(cells + self.s, r, minlength=n * m) - np.bincount(cells + self.t, r, minlength=n * m)
        return R.reshape(n, m)

    def apply(self, w: np.ndarray) -> np.ndarray:
        S = self.F @ w.reshape(self.m, -1).T
        return S[self.a, self.s] - S[self.a, self.t]

    def apply_pairs(self, w: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """``(Zw)[pairs]`` from the rows of those pairs alone."""
        W = w.reshape(self.m, -1)
        return np.einsum("pd,pd->p", self.F[self.a[pairs]], W[self.s[pairs]] - W[self.t[pairs]])

    def norms(self) -> np.ndarray:
        r""":math:`\lVert z_p \rVert = \sqrt 2 \lVert F_{a_p} \rVert` of every pair (computed once)."""
        if self._norms is None:
            self._norms = np.sqrt(2.0) * np.linalg.norm(self.F, axis=1)[self.a]
        return self._norms

    def apply_t(self, r: np.ndarray) -> np.ndarray:
        R = self._scatter(r)
        rows = np.flatnonzero(R.any(axis=1))
        if rows.size > self.F.shape[0] // 4:
            return (R.T @ self.F[: R.shape[0]]).ravel()
        return (R[rows].T @ self.F[rows]).ravel()

    def columns(self, pairs: np.ndarray) -> np.ndarray:
        """:math:`Z_B^\\top`: the pairs' flattened :math:`z_p`, one column each."""
        E = np.zeros((pairs.size, self.m, self.F.shape[1]))
        rows, index = self.F[self.a[pairs]], np.arange(pairs.size)
        E[index, self.s[pairs]] += rows
        E[index, self.t[pairs]] -= rows
        return E.reshape(pairs.size, -1).T

    def subset(self, pairs: np.ndarray) -> _LabelPairs:
        """The maps of the pairs ``pairs`` (indices) alone, on a copy of the rows they use."""
        rows, inverse = np.unique(self.a[pairs], return_inverse=True)
        return _LabelPairs(self.F[rows], inverse, self.s[pairs], self.t[pairs], self.m)

    def gram(self, band: np.ndarray) -> np.ndarray:
        r""":math:`Z_B^\top Z_B = \sum_a L_a \otimes F_a F_a^\top` of the pairs ``band`` (indices)."""
        m, d = self.m, self.F.shape[1]
        rows, a = np.unique(self.a[band], return_inverse=True)
        s, t, n = self.s[band], self.t[band], rows.size
        laplacian = np.zeros(n * m * m)
        for i, j, sign in ((s, s, 1.0), (t, t, 1.0), (s, t, -1.0), (t, s, -1.0)):
            laplacian += np.bincount((a * m + i) * m + j, minlength=n * m * m) * sign
        laplacian = laplacian.reshape(n, m, m)
        F = self.F[rows]
        G = np.zeros((m, d, m, d))
        for i in range(m):
            for j in range(i, m):
                weight = laplacian[:, i, j]
                used = np.flatnonzero(weight)
                if used.size:
                    block = (F[used] * weight[used, None]).T @ F[used]
                    G[i, :, j, :] = block
                    if j != i:
                        G[j, :, i, :] = block.T
        return G.reshape(m * d, m * d)

    def newton_direction(self, band: np.ndarray, sigma: float, grad: np.ndarray) -> np.ndarray:
        """The Newton direction of the pairs ``band`` (:func:`_newton_direction`)."""
        return _newton_direction(self, band, sigma, grad)

    def band(self, band: np.ndarray) -> _LabelBand:
        return _LabelBand(self, band)


class _LabelBand:
    r"""A band of :class:`_LabelPairs`, not formed: :math:`A A^\top = M \circ (F_B F_B^\top)` with
    :math:`M_{pq} = (e_{s_p} - e_{t_p}) \cdot (e_{s_q} - e_{t_q})`, and products through ``W``'s shape."""

    def __init__(self, Z: _LabelPairs, band: np.ndarray):
        self.Z, self.band = Z, band
        self.X, self.s, self.t = Z.F[Z.a[band]], Z.s[band], Z.t[band]

    def frobenius2(self) -> float:
        return 2.0 * float(np.einsum("ij,ij->", self.X, self.X))

    def outer(self) -> np.ndarray:
        s, t = self.s, self.t
        same = ((s[:, None] == s) * 1.0 - (s[:, None] == t) - (t[:, None] == s) + (t[:, None] == t))
        return same * (self.X @ self.X.T)

    def inner(self) -> np.ndarray:
        return self.Z.gram(self.band)

    def dot(self, g: np.ndarray) -> np.ndarray:
        W = g.reshape(self.Z.m, -1)
        return np.einsum("pd,pd->p", self.X, W[self.s] - W[self.t])

    def tdot(self, y: np.ndarray) -> np.ndarray:
        R = np.zeros((y.size, self.Z.m))
        R[np.arange(y.size), self.s] = y
        R[np.arange(y.size), self.t] = -y
        return (R.T @ self.X).ravel()


def _newton_direction(Z: _Pairs | _LabelPairs, band: np.ndarray, sigma: float, grad: np.ndarray) -> np.ndarray:
    r"""The Newton direction :math:`-H^{-1}` ``grad``, :math:`H = I + \sigma Z_B^\top Z_B` of the pairs ``band``.

    Through the ``dim`` x ``dim`` system of ``Z.gram``, or, when the band has fewer pairs than ``dim`` (a small
    band, or fewer rows than columns) and the system is well conditioned, through the :math:`|B|` x :math:`|B|` one
    of the Woodbury identity, :math:`H^{-1} g = g - \sigma A^\top (I + \sigma A A^\top)^{-1} A g` with
    :math:`A = Z_B`, at :math:`O(|B|^2 d)` instead of :math:`O(|B| d^2 + d^3)`. The identity subtracts two nearly
    equal vectors when :math:`\sigma \lVert A \rVert^2` is large, losing that many digits: it is used while
    :math:`\sigma \lVert A \rVert_F^2 \le` ``WOODBURY_UP_TO``, and one step of iterative refinement (the
    residual :math:`g - Hx` solved again) makes the direction as accurate as a Cholesky solve of ``H``.

    A ``dim`` x ``dim`` system of at least ``UPDATE_FROM_DIM`` unknowns is kept (``Z.factored``), and the next
    Newton step's system, whose band mostly differs from it in a few dozen pairs (Rank-SVM's C path on yeast, fold
    0: a median of 51), is solved as its low-rank update (:meth:`_Factored.solve`) where that is accurate.
    """
    if band.size == 0:
        return -grad
    if Z.factored is not None:
        x = Z.factored.solve(Z, band, sigma, grad)
        if x is not None:
            return -x
    A = None if band.size >= min(Z.dim, _CHUNK) else Z.band(band)  # fewer pairs than columns: Woodbury's form
    if A is None or sigma * A.frobenius2() > WOODBURY_UP_TO:  # the dim x dim system (A^T A from a small band)
        solve = _system_solver(Z.gram(band) if A is None else A.inner(), sigma)
        if Z.dim >= UPDATE_FROM_DIM and band.size <= GRAM_SAMPLE:  # kept, unless a sampled Gram matrix's
            Z.factored = _Factored(sigma, band, solve)
        return -solve(grad)
    solve = _system_solver(A.outer(), sigma)

    def woodbury(g: np.ndarray) -> np.ndarray:
        return g - sigma * A.tdot(solve(A.dot(g)))

    x = woodbury(grad)
    return -(x + woodbury(grad - x - sigma * A.tdot(A.dot(x))))


class _Factored:
    r"""A factored Newton system :math:`H_0 = I + \sigma Z_{B_0}^\top Z_{B_0}` and its low-rank updates.

    A band ``B`` that differs from :math:`B_0` in the pairs ``E`` (those it adds, with sign +1, and those it drops,
    -1) has :math:`H = H_0 + \sigma E S E^\top`, whose inverse the Woodbury identity gives from :math:`H_0`'s
    factor, :math:`H^{-1} = H_0^{-1} - Y (S / \sigma + E^\top Y)^{-1} Y^\top` with :math:`Y = H_0^{-1} E`: ``|E|``
    solves with the factor instead of a new Gram matrix and factor. Dropping pairs subtracts, which can lose
    digits, so :meth:`solve` measures the residual :math:`g - Hx` with ``Z``'s maps (two passes over the rows),
    refines once, and gives up (None) unless the residual is at most ``_UPDATE_TOL`` times :math:`\lVert g \rVert`.
    """

    def __init__(self, sigma: float, band: np.ndarray, solve: Callable[[np.ndarray], np.ndarray]):
        self.sigma, self.band, self.solve_0 = sigma, band, solve

    def solve(self, Z: _Pairs | _LabelPairs, band: np.ndarray, sigma: float, grad: np.ndarray) -> np.ndarray | None:
        """:math:`H^{-1}` ``grad`` for the pairs ``band`` at ``sigma``, or None where an update does not apply."""
        if sigma != self.sigma:
            return None
        added = np.setdiff1d(band, self.band, assume_unique=True)
        dropped = np.setdiff1d(self.band, band, assume_unique=True)
        if added.size + dropped.size > _UPDATE_RANK:
            return None
        if added.size + dropped.size == 0:
            return self.solve_0(grad)
        E = Z.columns(np.concatenate([added, dropped]))
        sign = np.concatenate([np.ones(added.size), -np.ones(dropped.size)])
        Y = self.solve_0(E)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", scipy.linalg.LinAlgWarning)  # a singular small system
                small = scipy.linalg.lu_factor(np.diag(sign / sigma) + E.T @ Y, check_finite=False)
        except (ValueError, np.linalg.LinAlgError, scipy.linalg.LinAlgWarning):
            return None

        def inverse(g: np.ndarray) -> np.ndarray:
            y = self.solve_0(g)
            return y - Y @ scipy.linalg.lu_solve(small, E.T @ y, check_finite=False)

        weights = np.zeros(Z.n_pairs)
        weights[band] = sigma
        goal = _UPDATE_TOL * float(np.linalg.norm(grad))
        x = inverse(grad)
        for refined in (False, True):
            residual = grad - x - Z.apply_t(weights * Z.apply(x))
            if not np.all(np.isfinite(residual)):
                return None
            if float(np.linalg.norm(residual)) <= goal:
                return x
            if not refined:
                x = x + inverse(residual)
        return None


class _Screen:
    r"""``Zw`` exactly where it matters, bounded below elsewhere, from one pass over all pairs.

    After an exact pass at an anchor :math:`w_0`, :math:`z_p \cdot w \ge z_p \cdot w_0 - \lVert z_p \rVert
    \lVert w - w_0 \rVert` (Cauchy-Schwarz) for every ``w``: a pair whose bound is at least a threshold needs no
    look at its rows (the idea of safe screening, El Ghaoui et al. 2012). :meth:`margins` computes the others
    exactly; when they are more than ``_REANCHOR`` of all pairs, it makes ``w`` the new anchor with one pass.
    """

    def __init__(self, Z: _Pairs | _LabelPairs, w: np.ndarray):
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
