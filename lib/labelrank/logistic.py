"""Ridge logistic regression by damped Newton steps: the per-label model of IBLR-ML
(:class:`~labelrank.baselines.IBLRML`).

One function, :func:`ridge_logistic_newton`, for a dense or a scipy sparse design. Newton's method is invariant
under an affine change of the coefficients, which is what lets IBLR-ML fit its standardised features, which are
dense, through the sparse label frequencies they are computed from (:func:`standardised_fit`): the same iterates
and the same optimum, with products that cost the frequencies' nonzeros instead of every entry.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import expit

__all__ = ["Design", "ridge_logistic_newton", "standardised_fit"]


class Design:
    r"""The design :math:`A = [1, Z]` of a logistic regression, with the three products Newton's method needs,
    prepared once and shared by the regressions of several targets on the same ``Z``.

    A dense ``Z`` is used as given. A sparse one is never densified: :math:`A^\top A` weighted by ``w`` needs
    :math:`\sum_i w_i z_{ia} z_{ib}` for every pair of columns, and for each row only the pairs of its nonzeros
    contribute, so those products are tabulated once (the upper triangle, one row per pair of columns) and each
    Hessian is one sparse matrix-vector product with ``w``: about :math:`\sum_i \mathrm{nnz}_i^2 / 2`
    multiply-adds instead of :math:`n d^2`.

    Parameters
    ----------
    Z : numpy.ndarray or scipy sparse matrix of shape (n, d)

    Examples
    --------
    >>> Z = sp.csr_matrix(np.array([[0.0, 2.0], [1.0, 0.0], [3.0, 1.0]]))
    >>> A = np.hstack([np.ones((3, 1)), Z.toarray()]); w = np.array([0.5, 1.0, 2.0])
    >>> bool(np.allclose(Design(Z).gram(w), A.T @ np.diag(w) @ A))
    True
    """

    def __init__(self, Z):
        self.shape = Z.shape
        n, d = Z.shape
        if not sp.issparse(Z):
            self._A = np.hstack([np.ones((n, 1)), np.asarray(Z, dtype=np.float64)])
            return
        self._A = None
        self._Z = sp.csr_matrix(Z, dtype=np.float64, copy=True)  # sum_duplicates below must not touch Z
        self._Z.sum_duplicates()
        self._Zt = self._Z.T.tocsr()
        indptr, indices, data = self._Z.indptr, self._Z.indices, self._Z.data
        nnz = np.diff(indptr)
        counts = nnz**2  # the ordered pairs of each row's nonzeros
        row = np.repeat(np.arange(n), counts)
        k = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        a = indptr[row] + k // nnz[row]
        b = indptr[row] + k % nnz[row]
        upper = indices[a] <= indices[b]
        a, b, row = a[upper], b[upper], row[upper]
        self._pairs = sp.csr_matrix((data[a] * data[b], (indices[a] * d + indices[b], row)), shape=(d * d, n))

    def scores(self, beta: np.ndarray) -> np.ndarray:
        r""":math:`A \beta`."""
        if self._A is not None:
            return self._A @ beta
        return beta[0] + self._Z @ beta[1:]

    def transpose(self, r: np.ndarray) -> np.ndarray:
        r""":math:`A^\top r`."""
        if self._A is not None:
            return self._A.T @ r
        return np.r_[r.sum(), self._Zt @ r]

    def gram(self, w: np.ndarray) -> np.ndarray:
        r""":math:`A^\top \mathrm{diag}(w) A`, dense, of shape (d + 1, d + 1)."""
        if self._A is not None:
            return (self._A.T * w) @ self._A
        d = self.shape[1]
        upper = (self._pairs @ w).reshape(d, d)
        G = np.empty((d + 1, d + 1))
        G[0, 0] = w.sum()
        G[0, 1:] = G[1:, 0] = self._Zt @ w
        G[1:, 1:] = upper + upper.T - np.diag(np.diag(upper))
        return G


def ridge_logistic_newton(Z, y: np.ndarray, ridge, tol: float = 1e-14,
                          max_iter: int = 1000) -> tuple[np.ndarray, bool]:
    r"""Logistic regression with an unpenalised intercept and a ridge, minimised by damped Newton steps.

    .. math::

        f(\beta_0, \beta) = \sum_i \big[\log(1 + e^{s_i}) - y_i s_i\big] + \sum_j \lambda_j \beta_j^2,
        \qquad s_i = \beta_0 + z_i \cdot \beta,

    the objective of Weka's ``Logistic`` (le Cessie & van Houwelingen 1992) for one binary class, with one
    :math:`\lambda` for every coefficient (Weka's) or one per coefficient. Each step solves
    :math:`H \delta = -g` with the exact Hessian :math:`H = A^\top D A + 2\Lambda'` (:math:`A = [1, Z]`,
    :math:`D = \mathrm{diag}(p_i (1 - p_i))`, :math:`\Lambda'` the diagonal of the :math:`\lambda_j`, 0 for the
    intercept) and halves the step until :math:`f` decreases (Armijo). It stops when the Newton decrement
    :math:`\delta^\top H \delta / 2`, which estimates :math:`f - f^*` near the optimum, is at most ``tol``. A
    label that the features (nearly) separate has its optimum far out, held finite by the ridge alone; Newton's
    method gets there in tens of steps where first-order solvers stall.

    Parameters
    ----------
    Z : numpy.ndarray, scipy sparse matrix of shape (n, d) or Design
        A sparse ``Z`` is never densified (:class:`Design`); pass a :class:`Design` to share its preparation
        between the regressions of several targets.
    y : numpy.ndarray of shape (n,)
        0/1 targets.
    ridge : float or numpy.ndarray of shape (d,)
        :math:`\lambda > 0`, one for all coefficients or one per coefficient.
    tol : float, default=1e-14
        Stop when the Newton decrement is at most ``tol`` (objective units); Newton's quadratic convergence makes
        a tiny value cost one or two steps more than a loose one.
    max_iter : int, default=1000

    Returns
    -------
    beta : numpy.ndarray of shape (d + 1,)
        The intercept, then the coefficients.
    converged : bool

    Examples
    --------
    >>> Z = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0, 1, 0, 1])
    >>> beta, converged = ridge_logistic_newton(Z, y, ridge=1e-8)
    >>> converged, np.round(beta, 4).tolist()
    (True, [-1.3623, 0.9082])
    >>> beta_sparse, _ = ridge_logistic_newton(sp.csr_matrix(Z), y, ridge=1e-8)
    >>> bool(np.allclose(beta_sparse, beta))
    True
    """
    design = Z if isinstance(Z, Design) else Design(Z)
    d = design.shape[1]
    penalty = np.zeros(d + 1)
    penalty[1:] = 2.0 * np.asarray(ridge, dtype=np.float64)
    ridge = penalty[1:] / 2.0
    y = np.asarray(y, dtype=np.float64)

    def objective(beta):
        s = design.scores(beta)
        return float(np.sum(np.logaddexp(0.0, s) - y * s) + ridge * beta[1:] @ beta[1:])

    beta = np.zeros(d + 1)
    value = objective(beta)
    for _ in range(max_iter):
        p = expit(design.scores(beta))
        grad = design.transpose(p - y) + penalty * beta
        hess = design.gram(p * (1.0 - p)) + np.diag(penalty)
        try:
            step = -np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = -np.linalg.lstsq(hess, grad, rcond=None)[0]
        decrement = float(-grad @ step) / 2.0
        if decrement <= tol:
            return beta, True
        t = 1.0
        while True:
            candidate = beta + t * step
            new = objective(candidate)
            if new <= value - 0.25 * t * 2.0 * decrement or t < 1e-10:
                break
            t /= 2.0
        beta, value = candidate, new
    return beta, False


def standardised_fit(F, y: np.ndarray, mean: np.ndarray, scale: np.ndarray, ridge: float, tol: float = 1e-14,
                     max_iter: int = 1000) -> tuple[np.ndarray, bool]:
    r""":func:`ridge_logistic_newton` on the standardised features :math:`Z = (F - \mu) / \sigma`, computed
    from ``F`` itself (dense or sparse) without forming :math:`Z`.

    With :math:`\gamma_j = \beta_j / \sigma_j` and :math:`\gamma_0 = \beta_0 - \sum_j \mu_j \gamma_j`,
    :math:`\beta_0 + z_i \cdot \beta = \gamma_0 + f_i \cdot \gamma` and :math:`\lambda \lVert\beta\rVert^2 =
    \sum_j \lambda \sigma_j^2 \gamma_j^2`: the same objective at every point, in coefficients that an affine map
    ties to :math:`\beta`. Newton's steps, the decrement and Armijo's test are invariant under that map, so the
    iterates are the same (up to rounding) and so is the optimum, mapped back.

    Parameters
    ----------
    F : numpy.ndarray, scipy sparse matrix of shape (n, d) or Design
    y : numpy.ndarray of shape (n,)
    mean, scale : numpy.ndarray of shape (d,)
        :math:`\mu` and :math:`\sigma > 0`.
    ridge, tol, max_iter
        As in :func:`ridge_logistic_newton`, on :math:`\beta`.

    Returns
    -------
    beta : numpy.ndarray of shape (d + 1,)
        The intercept, then the coefficients of the standardised features.
    converged : bool

    Examples
    --------
    >>> F = sp.csr_matrix(np.array([[0.0, 0.2], [0.4, 0.0], [0.0, 0.0], [0.6, 0.2]]))
    >>> y = np.array([0, 1, 0, 1]); mean, scale = F.toarray().mean(0), F.toarray().std(0)
    >>> beta, _ = standardised_fit(F, y, mean, scale, ridge=1e-2)
    >>> direct, _ = ridge_logistic_newton((F.toarray() - mean) / scale, y, ridge=1e-2)
    >>> bool(np.allclose(beta, direct))
    True
    """
    scale = np.asarray(scale, dtype=np.float64)
    gamma, converged = ridge_logistic_newton(F, y, ridge * scale**2, tol=tol, max_iter=max_iter)
    beta = np.empty_like(gamma)
    beta[1:] = gamma[1:] * scale
    beta[0] = gamma[0] + np.asarray(mean, dtype=np.float64) @ gamma[1:]
    return beta, converged
