"""Binary-SVM (one-vs-rest linear SVMs) and Elisseeff & Weston's Rank-SVM, each by the augmented Lagrangian method or
by dual coordinate descent (LIBLINEAR's, for Binary-SVM)."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC
from sklearn.utils.extmath import safe_sparse_dot

from labelrank.parameters import POSITIVE, Options

from labelrank.baselines.base import ThresholdRule, _LinearSVMBaseline

#: BinarySVM(solver="auto") uses the augmented Lagrangian method on a dense X of at most ALM_MAX_FEATURES columns (it
#: forms d x d Newton systems, 134 MB at 4,096) and on a sparse X, which it densifies, of at most
#: _ALM_MAX_SPARSE_FEATURES; LIBLINEAR on more. Up to these widths the ALM is the faster of the two on Fig. 2's
#: meta-level features, where LIBLINEAR stops at its pass cap (the book's performance page gives the measurements).
ALM_MAX_FEATURES = 4096
_ALM_MAX_SPARSE_FEATURES = 1000

#: RankSVM's "auto" solver: the augmented Lagrangian method up to this many unknowns, n_labels * (n_features + 1).
RANK_SVM_ALM_MAX_UNKNOWNS = 2048


def binary_svm_solver(X) -> str:
    """The solver of ``BinarySVM(solver="auto")`` for ``X``: "alm" or "liblinear" (by its columns, above).

    Examples
    --------
    >>> import numpy as np
    >>> binary_svm_solver(np.zeros((3, 10))), binary_svm_solver(np.zeros((3, 10_000)))
    ('alm', 'liblinear')
    """
    limit = _ALM_MAX_SPARSE_FEATURES if sp.issparse(X) else ALM_MAX_FEATURES
    return "alm" if X.shape[1] <= limit else "liblinear"


# ----------------------------------------------------------------------------------------------------------------
# Binary-SVM
# ----------------------------------------------------------------------------------------------------------------


class BinarySVM(_LinearSVMBaseline):
    """One-vs-rest linear SVM ("Binary-SVM" of Yang & Gopal 2012, section 3.2), hinge loss, threshold 0.

    For each label ``j`` a linear SVM with the standard hinge loss solves

    .. math::

        \\min_{w_j, b_j} \\tfrac12 (\\lVert w_j \\rVert^2 + b_j^2)
        + C \\sum_i \\max\\big(0,\\, 1 - y_{ij} (\\langle w_j, x_i \\rangle + b_j)\\big), \\quad y_{ij} \\in \\{-1, 1\\}

    (LIBLINEAR's problem: the bias is regularised, a constant feature 1). The score of label ``j`` is the margin
    :math:`\\langle w_j, x \\rangle + b_j`; by default a label is predicted when its margin is >= 0. A label with no
    positive (no negative) training instance gets the constant score -1 (+1): the decision of the trivial classifier,
    placed on the margin.

    Two solvers reach the same optimum. ``"liblinear"`` is :class:`sklearn.svm.LinearSVC` (LIBLINEAR's dual
    coordinate descent, Hsieh et al. 2008), whose passes grow with ``C``: on yeast it stops at ``max_iter`` for
    about 9 of the paper's 20 values of ``C``, short of the optimum. ``"alm"`` is the augmented Lagrangian method of
    :func:`labelrank.rankers.pairwise_newton.fit_pairwise_hinge_alm` (the hinge of instance ``i`` is the pair of
    :math:`y_{ij} (x_i, 1)` and the origin), stopped by a duality-gap certificate at any ``C``; it forms
    ``d`` x ``d`` Newton systems from dense rows, so ``"auto"`` uses it for a dense ``X`` of at most 4,096 columns
    and a sparse one of at most 1,000 (densified), and LIBLINEAR for more (text features); on dense meta-level
    features of a few thousand columns LIBLINEAR stops at its pass cap where the ALM certifies its optimum. A fit
    that stops at ``max_iter`` warns with a
    :class:`~sklearn.exceptions.ConvergenceWarning`.

    Parameters
    ----------
    C : float, default=1.0
        Regularisation trade-off (the paper tunes it over 20 values in 1e-6 .. 1e6).
    threshold : {"default", "llsf"}, default="default"
        "default": margin >= 0; "llsf": instance-based regression (:class:`labelrank.threshold.LLSFThreshold`).
    tol : float, optional
        Stopping tolerance: LIBLINEAR's (default 1e-4), or the relative duality gap of ``"alm"`` (default 1e-6).
    max_iter : int, optional
        LIBLINEAR's maximum number of passes (default 10,000), or the ALM's of multiplier updates (default 100).
    random_state : int, default=0
        Seed of LIBLINEAR's coordinate order (the ALM is deterministic).
    solver : {"auto", "alm", "liblinear"}, default="auto"

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (n_labels, n_features)
    intercept_ : numpy.ndarray of shape (n_labels,)
    threshold_ : float or LLSFThreshold
    solver_ : str
        The solver used.
    converged_ : bool
        Whether every label's fit met the tolerance before ``max_iter``.

    References
    ----------
    V. Vapnik (2000), The Nature of Statistical Learning Theory; R.-E. Fan et al. (2008), LIBLINEAR, JMLR 9;
    C.-J. Hsieh et al. (2008), A dual coordinate descent method for large-scale linear SVM, ICML; Y. Yan, Q. Li
    (2020), An efficient augmented Lagrangian method for support vector machine, Optimization Methods and Software.

    Examples
    --------
    >>> import numpy as np
    >>> from labelrank.metrics import average_precision, micro_f1
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(60, 3))
    >>> X = rng.normal(size=(60, 5))
    >>> X[:, :3] += 3 * Y  # feature j is large when label j is relevant
    >>> model = BinarySVM().fit(X, Y)
    >>> scores, labels = model.decision_function(X), model.predict(X)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9), bool(micro_f1(Y, labels) > 0.9), model.solver_
    ((60, 3), True, True, 'alm')
    """

    parameter_constraints = {"solver": Options("auto", "alm", "liblinear")}
    default_threshold = 0.0

    def _fit_path(self, X, Y, models):
        solver = self.solver
        if solver == "auto":
            solver = binary_svm_solver(X)
        n_labels, Cs = Y.shape[1], [float(model.C) for model in models]
        coef, intercept = np.zeros((len(Cs), n_labels, X.shape[1])), np.zeros((len(Cs), n_labels))
        converged = np.ones(len(Cs), dtype=bool)
        for j in range(n_labels):
            y = Y[:, j]
            if y.min() == y.max():  # one class only: constant margin -1 or +1
                intercept[:, j] = 1.0 if y[0] == 1 else -1.0
                continue
            for i, (w, b, done) in enumerate(self._solve(solver, X, y, Cs)):
                coef[i, j], intercept[i, j] = w, b
                converged[i] &= done
        for i, model in enumerate(models):
            model.coef_, model.intercept_, model.solver_ = coef[i], intercept[i], solver
            model.converged_ = bool(converged[i])
            if solver == "alm" and not converged[i]:
                warnings.warn(f"BinarySVM(solver='alm') did not reach its tolerance in max_iter="
                              f"{self.max_iter or 100} multiplier updates at C={Cs[i]:.6g}; increase max_iter",
                              ConvergenceWarning, stacklevel=4)
        return [model._scores(X) for model in models]

    def _solve(self, solver: str, X, y: np.ndarray, Cs: list[float]):
        """``(w, b, converged)`` of label column ``y`` at each of ``Cs``: LIBLINEAR cold at each value, the ALM
        along them, each solve warm-started from the previous one."""
        if solver == "liblinear":
            max_iter = self.max_iter or 10_000
            for C in Cs:  # LinearSVC warns itself when it stops at max_iter
                svm = LinearSVC(C=C, loss="hinge", dual=True, tol=self.tol or 1e-4, max_iter=max_iter,
                                random_state=self.random_state).fit(X, y)
                yield svm.coef_[0], svm.intercept_[0], svm.n_iter_ < max_iter
            return
        try:
            from labelrank.rankers.pairwise_newton import fit_pairwise_hinge_alm_path
        except ImportError as exc:
            raise ImportError("BinarySVM's augmented Lagrangian solver (solver='alm', the default on at most 4,096 "
                              "dense columns) needs the `rank` extra: pip install 'labelrank[rank]', or pass "
                              "solver='liblinear'") from exc

        n = X.shape[0]
        rows = np.arange(n)
        dense = X.toarray() if sp.issparse(X) else X
        F = np.vstack([np.hstack([dense, np.ones((n, 1))]), np.zeros((1, X.shape[1] + 1))])  # row n: the origin
        path = fit_pairwise_hinge_alm_path(F, np.where(y == 1, rows, n), np.where(y == 1, n, rows), Cs,
                                           tol=self.tol or 1e-6, max_iter=self.max_iter or 100)
        for res in path:
            yield res.coef[0, :-1], res.coef[0, -1], res.converged

    def _scores(self, X):
        return np.asarray(safe_sparse_dot(X, self.coef_.T)) + self.intercept_


# ----------------------------------------------------------------------------------------------------------------
# Rank-SVM (Elisseeff & Weston 2001)
# ----------------------------------------------------------------------------------------------------------------


class RankSVM(_LinearSVMBaseline):
    """Elisseeff & Weston's (2001) Rank-SVM, linear kernel, with their LLSF threshold.

    One weight vector and bias per label, :math:`f_k(x) = \\langle w_k, x \\rangle + b_k`, trained so that every
    relevant label of an instance outranks every irrelevant one by a margin:

    .. math::

        \\min_{W, b, \\xi} \\tfrac12 \\sum_{k=1}^m \\lVert w_k \\rVert^2
        + C \\sum_{i=1}^n \\frac{1}{|Y_i| |\\bar Y_i|} \\sum_{(k, l) \\in Y_i \\times \\bar Y_i} \\xi_{ikl}
        \\quad \\text{s.t.} \\quad \\langle w_k - w_l, x_i \\rangle + b_k - b_l \\ge 1 - \\xi_{ikl},
        \\ \\xi_{ikl} \\ge 0 .

    This is the pairwise hinge SVM of :mod:`labelrank.rankers.pairwise_svm` with one block per label: pair
    (i, k, l) has positive vector :math:`\\tilde x_i` in block k, negative vector :math:`\\tilde x_i` in block l, and
    weight :math:`C / (|Y_i| |\\bar Y_i|)`, where :math:`\\tilde x_i = (x_i, \\text{intercept\\_scaling})`. The bias
    :math:`b_k` is ``intercept_scaling`` times the weight of that constant feature, so it is regularised by
    :math:`b_k^2 / (2\\,\\text{intercept\\_scaling}^2)`; Elisseeff & Weston leave it free, which a large
    ``intercept_scaling`` approaches, at the price of a worse conditioned problem. Only bias differences enter the
    constraints, and the regulariser makes :math:`\\sum_k b_k = 0` (likewise :math:`\\sum_k w_k = 0`).

    Two solvers reach the same optimum. ``"alm"`` is the augmented Lagrangian method of
    :func:`labelrank.rankers.pairwise_newton.fit_pairwise_hinge_alm` with these blocks, stopped by a duality-gap
    certificate at any ``C``; its Newton systems have ``n_labels * (n_features + 1)`` unknowns, so ``"auto"`` uses
    it for problems of at most 2,048 of them (a sparse ``X`` densified; emotions, scene, yeast). ``"dcd"`` is dual
    coordinate descent (:func:`~labelrank.rankers.pairwise_svm.fit_pairwise_hinge`) visiting each instance's pairs
    together (``groups``), so that an instance's label scores are computed once per visit instead of twice per pair
    (4.3 times less CPU time along yeast's Fig. 2 C path, fold 0). It slows down as ``C`` grows: on emotions (fold
    0 of the book's protocol) it stops at 1,000 epochs from ``C`` of about 0.1 on, with an objective 2.4 times the
    optimum's at ``C`` = 8.9 and 1,400 times at ``C`` = 1e6. A fit that stops at ``max_iter`` warns with a
    :class:`~sklearn.exceptions.ConvergenceWarning`.

    Thresholds. ``threshold="default"`` is Elisseeff & Weston's: the LLSF map from the raw score vector to the
    optimal (minimal FP + FN) threshold of each training instance (:class:`labelrank.threshold.LLSFThreshold`
    with ``rescale=False, inputs="labels"``); ``threshold="llsf"`` is Yang & Gopal's variant, which first rescales
    each score row to sum to one and maps the ranked list (the sorted scores) to the threshold. That this is what separates the "Default" and "Regression" columns of the paper's Table 4 for
    Rank-SVM (0.641 vs 0.735 Micro-F1 on scene) is our reading; the paper says only that the default is "the LLSF
    solution ... as proposed by Elisseeff and Weston".

    Parameters
    ----------
    C : float, default=1.0
        Weight of the (per-instance normalised) ranking loss.
    threshold : {"default", "llsf"}, default="default"
    intercept_scaling : float, default=1.0
        Value of the constant feature that carries the biases.
    tol : float, optional
        The relative duality gap of ``"alm"`` (default 1e-6), or the projected-gradient tolerance of ``"dcd"``
        (default 1e-3; see :mod:`labelrank.rankers.pairwise_svm`).
    max_iter : int, optional
        The ALM's maximum number of multiplier updates (default 100), or DCD's of epochs over all pairs (default
        1,000).
    random_state : int, default=0
        Seed of DCD's coordinate order (the ALM is deterministic).
    solver : {"auto", "alm", "dcd"}, default="auto"

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (n_labels, n_features)
    intercept_ : numpy.ndarray of shape (n_labels,)
    dual_coef_ : numpy.ndarray of shape (n_pairs,)
        The dual variables of the pairs of :func:`~labelrank.rankers.pairwise_svm.rank_svm_pairs` (training ``Y``),
        in that order (the ALM's: the dual point of its certificate).
    n_iter_ : int
        DCD's epochs, or the ALM's Newton steps.
    converged_ : bool
    solver_ : str
        The solver used.
    threshold_ : LLSFThreshold

    References
    ----------
    A. Elisseeff, J. Weston (2001). A kernel method for multi-labelled classification. NIPS 14, 681-687.

    Examples
    --------
    >>> import numpy as np
    >>> from labelrank.metrics import average_precision, micro_f1
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(60, 3))
    >>> X = rng.normal(size=(60, 5))
    >>> X[:, :3] += 3 * Y  # feature j is large when label j is relevant
    >>> model = RankSVM().fit(X, Y)
    >>> scores, labels = model.decision_function(X), model.predict(X)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9), bool(micro_f1(Y, labels) > 0.75), model.solver_
    ((60, 3), True, True, 'alm')
    """

    parameter_constraints = {"intercept_scaling": POSITIVE, "solver": Options("auto", "alm", "dcd")}
    default_threshold = None

    def __init__(self, C: float = 1.0, threshold: ThresholdRule = "default", intercept_scaling: float = 1.0,
                 tol: float | None = None, max_iter: int | None = None, random_state: int = 0,
                 solver: str = "auto"):
        super().__init__(C, threshold, tol=tol, max_iter=max_iter, random_state=random_state, solver=solver)
        self.intercept_scaling = intercept_scaling

    def _fit_path(self, X, Y, models):
        """Training scores of each of ``models`` (copies differing in ``C``): the ALM or DCD along them, each solve
        warm-started from the previous one."""
        n, m = Y.shape
        from labelrank.rankers.pairwise_newton import fit_pairwise_hinge_alm_path  # the `rank` extra
        from labelrank.rankers.pairwise_svm import dual_path_starts, fit_pairwise_hinge, rank_svm_pairs

        solver = self.solver
        if solver == "auto":
            solver = "alm" if m * (X.shape[1] + 1) <= RANK_SVM_ALM_MAX_UNKNOWNS else "dcd"
        inst, rel, irr = rank_svm_pairs(Y)
        n_rel = Y.sum(axis=1)
        weights = 1.0 / (n_rel[inst] * (m - n_rel[inst]))
        const = np.full((n, 1), self.intercept_scaling)
        if solver == "alm":
            F = np.hstack([X.toarray() if sp.issparse(X) else X, const])
            path = fit_pairwise_hinge_alm_path(F, inst, inst, [float(model.C) for model in models], weights=weights,
                                               pos_blocks=rel, neg_blocks=irr, n_blocks=m, tol=self.tol or 1e-6,
                                               max_iter=self.max_iter or 100)
        else:
            F = sp.hstack([X, sp.csr_matrix(const)], format="csr") if sp.issparse(X) else np.hstack([X, const])
            path, previous = [], None
            for model in models:  # each solve from the previous dual point, moved or scaled into this C's box
                start = None if previous is None else dual_path_starts(previous[1].alpha, previous[0] * weights,
                                                                       float(model.C) * weights)
                res = fit_pairwise_hinge(F, inst, inst, float(model.C) * weights, pos_blocks=rel, neg_blocks=irr,
                                         n_blocks=m, tol=self.tol or 1e-3, max_iter=self.max_iter or 1000,
                                         random_state=self.random_state, groups=inst, alpha_init=start)
                path.append(res)
                previous = (float(model.C), res)
        for model, res in zip(models, path):
            model.coef_ = res.coef[:, :-1]
            model.intercept_ = res.coef[:, -1] * self.intercept_scaling
            model.dual_coef_, model.n_iter_, model.converged_ = res.alpha, res.n_iter, res.converged
            model.solver_ = solver
            if not res.converged:
                limit = f"{self.max_iter or 100} multiplier updates" if solver == "alm" else \
                    f"{self.max_iter or 1000} epochs (projected-gradient spread {res.violation:.3g})"
                warnings.warn(
                    f"RankSVM(solver={solver!r}) did not converge in max_iter={limit} at C={model.C:.6g}, relative "
                    f"duality gap {res.duality_gap / max(res.primal_objective, 1e-300):.2g}; increase max_iter"
                    + (" or lower C" if solver == "dcd" else ""),
                    ConvergenceWarning,
                    stacklevel=4,
                )
        return [model._scores(X) for model in models]

    def _scores(self, X):
        return np.asarray(safe_sparse_dot(X, self.coef_.T)) + self.intercept_
