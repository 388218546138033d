"""The SVM rankers: RankSVM-IR (pairwise hinge, Joachims 2002) and SVM-MAP (structural SVM with the loss
1 - AP, Yue et al. 2007, with its loss-augmented inference and 1-slack cutting planes)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from labelrank.optional import require
from labelrank.parameters import POSITIVE, Flag, Integer, Options
from labelrank.validation import check_label_matrix
from labelrank.rankers._base import (
    _chunk_rows,
    _SVMRanker,
)
from labelrank.rankers.simplex_qp import solve_simplex_qp
from labelrank.rankers.pairwise_newton import fit_pairwise_hinge_alm, fit_pairwise_hinge_alm_path
from labelrank.rankers.pairwise_svm import PairwiseHingeResult, dual_path_starts, fit_pairwise_hinge, rank_svm_pairs

numba = require("numba", "labelrank.rankers (the SVM rankers' compiled kernels)")

# ----------------------------------------------------------------------------------------------------------------
# SVM-MAP: loss-augmented inference (Yue et al. 2007, Algorithm 2)
# ----------------------------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _most_violated_list(s, y, ranking, coef):  # pragma: no cover - compiled
    """One list's most violated ranking (written to ``ranking`` and ``coef``, rows of the caller's arrays); returns
    its loss 1 - AP."""
    m = s.shape[0]
    rel = np.flatnonzero(y == 1)
    irr = np.flatnonzero(y == 0)
    R, I = rel.shape[0], irr.shape[0]
    if R == 0 or I == 0:  # every ranking has AP loss 0 and Psi = 0: the model's own order
        order = np.argsort(-s, kind="mergesort")
        for p in range(m):
            ranking[p] = order[p]
            coef[order[p]] = 0.0
        return 0.0
    rel = rel[np.argsort(-s[rel], kind="mergesort")]
    irr = irr[np.argsort(-s[irr], kind="mergesort")]
    sp = s[rel]
    sn = s[irr]
    scale = 2.0 / (R * I)
    # delta_j(p): gain of placing irrelevant j (1-based) after exactly p relevant labels rather than after all
    # R of them: sum over k = p+1..R of [k / (R (k+j-1)(k+j)) - 2 (s+_k - s-_j) / (R I)]
    place = np.empty(I, dtype=np.int64)
    prev = 0
    for jj in range(I):
        j = jj + 1
        best_val = 0.0  # p = R: empty sum
        best_p = R
        acc = 0.0
        for p in range(R - 1, -1, -1):  # add the term k = p + 1
            k = p + 1
            acc += k / (R * (k + j - 1.0) * (k + j)) - scale * (sp[k - 1] - sn[jj])
            if acc >= best_val:  # ties go to the smaller p (higher placement)
                best_val = acc
                best_p = p
        if best_p < prev:  # argmaxes are monotone (Yue et al., Lemma 1); guard against rounding
            best_p = prev
        place[jj] = best_p
        prev = best_p
    # merge: irrelevant jj comes right after the first place[jj] relevant labels (and after irrelevant jj-1)
    ap = 0.0
    p = 0
    jj = 0
    for k in range(R + 1):
        while jj < I and place[jj] == k:
            ranking[p] = irr[jj]
            coef[irr[jj]] = -scale * (R - k)
            p += 1
            jj += 1
        if k < R:
            ranking[p] = rel[k]
            # jj irrelevant labels are above the (k+1)-th relevant one
            coef[rel[k]] = scale * jj
            ap += (k + 1.0) / (p + 1.0)
            p += 1
    return 1.0 - ap / R


def _c_order(Z: np.ndarray, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``Z`` and ``Y`` (int64) in C order, copied only if they are not: every cutting-plane iteration passes over
    ``Z`` once (:func:`_most_violated_constraint`), list by list."""
    return np.ascontiguousarray(Z), np.ascontiguousarray(Y, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def _most_violated_kernel(S, Y, ranking, coef, loss):  # pragma: no cover - compiled
    for i in range(S.shape[0]):
        loss[i] = _most_violated_list(S[i], Y[i], ranking[i], coef[i])


@numba.njit(cache=True, nogil=True, fastmath=True)
def _most_violated_constraint(Z, Y, w):  # pragma: no cover - compiled
    """SVM-MAP's averaged most violated constraint from one pass over ``Z`` (n, m, d): per list the scores
    ``Z[i] @ w``, the list's most violated ranking, and its ``coef @ Z[i]`` while the list's rows are in the cache.
    Returns (sum over the lists of ``coef_i @ Z[i]``, sum of the losses); sums in float64 whatever ``Z``'s dtype,
    reassociated (``fastmath``) so that the compiler may vectorise them."""
    n, m, d = Z.shape
    total = np.zeros(d)
    loss = 0.0
    s = np.empty(m)
    ranking = np.empty(m, dtype=np.int64)
    coef = np.zeros(m)
    for i in range(n):
        for c in range(m):
            acc = 0.0
            for j in range(d):
                acc += Z[i, c, j] * w[j]
            s[c] = acc
        loss += _most_violated_list(s, Y[i], ranking, coef)
        for c in range(m):
            v = coef[c]
            if v != 0.0:
                for j in range(d):
                    total[j] += v * Z[i, c, j]
    return total, loss


def ap_loss_augmented_inference(scores: Any, Y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""SVM-MAP's most violated ranking of each list (Yue, Finley, Radlinski & Joachims 2007, Algorithm 2).

    For a list with relevant set :math:`R` (size :math:`|R|`), irrelevant set :math:`\bar R` and scores
    :math:`s_c = w \cdot \phi_c`, the joint feature map of a ranking :math:`\bar y` is

    .. math::

        \Psi(x, \bar y) = \frac{1}{|R|\,|\bar R|} \sum_{i \in R} \sum_{j \in \bar R} \bar y_{ij} (\phi_i - \phi_j),
        \qquad \bar y_{ij} = \begin{cases} +1 & i \text{ ranked above } j \\ -1 & \text{otherwise} \end{cases}

    and the inference finds :math:`\arg\max_{\bar y} \Delta(y, \bar y) + w \cdot \Psi(x, \bar y)` with
    :math:`\Delta = 1 - AP(\bar y)`. Yue et al. show that an optimum ranks the relevant labels among themselves,
    and the irrelevant ones among themselves, by descending score, and that the objective then splits over the
    irrelevant labels: with :math:`s^+_1 \ge \dots \ge s^+_{|R|}` and :math:`s^-_1 \ge \dots` the sorted scores and
    :math:`p_j` the number of relevant labels above the :math:`j`-th irrelevant one, the objective is a constant plus
    :math:`\sum_j \delta_j(p_j)`,

    .. math::

        \delta_j(p) = \sum_{k=p+1}^{|R|} \left[ \frac{1}{|R|} \frac{k}{(k + j - 1)(k + j)}
        - \frac{2 (s^+_k - s^-_j)}{|R|\,|\bar R|} \right],

    whose independent maximisers :math:`p_j` are non-decreasing in :math:`j`, i.e. a valid interleaving. Cost: a
    sort, :math:`O(m \log m)`, plus the :math:`|R| \times |\bar R|` table of :math:`\delta_j(p)` per list (at most
    :math:`m^2/4`, which for :math:`m \le 90` is cheaper than the bookkeeping of a sub-quadratic variant). Ties in
    :math:`\delta_j` go to the higher placement. A list with no relevant or no irrelevant label has loss 0 and
    :math:`\Psi = 0` for every ranking; its ranking is by score.

    Parameters
    ----------
    scores : array-like of shape (n_lists, m)
    Y : array-like of shape (n_lists, m)
        0/1 relevance.

    Returns
    -------
    ranking : numpy.ndarray of int64, shape (n_lists, m)
        ``ranking[i, p]`` is the label at position ``p`` (0 = top) of the most violated ranking.
    coef : numpy.ndarray of shape (n_lists, m)
        :math:`\Psi(x, y) - \Psi(x, \bar y) = \sum_c \text{coef}_c \phi_c`; each row sums to 0, and
        ``(coef * scores).sum(1)`` is :math:`w \cdot \Psi(x, y) - w \cdot \Psi(x, \bar y)`.
    loss : numpy.ndarray of shape (n_lists,)
        :math:`\Delta(y, \bar y) = 1 - AP(\bar y)`.

    Examples
    --------
    >>> import numpy as np
    >>> ranking, coef, loss = ap_loss_augmented_inference(np.array([[0.0, 2.0, 1.0]]), np.array([[1, 0, 1]]))
    >>> ranking.tolist(), coef.tolist(), loss.round(4).tolist()
    ([[1, 2, 0]], [[1.0, -2.0, 1.0]], [0.4167])
    """
    S = np.ascontiguousarray(scores, dtype=np.float64)
    Yv = check_label_matrix(Y, "Y")
    if S.ndim != 2 or S.shape != Yv.shape:
        raise ValueError(f"scores and Y must have the same 2-D shape, got {S.shape} and {Yv.shape}")
    if not np.all(np.isfinite(S)):
        raise ValueError("scores must be finite")
    n, m = S.shape
    ranking = np.empty((n, m), dtype=np.int64)
    coef = np.zeros((n, m))
    loss = np.zeros(n)
    _most_violated_kernel(S, np.ascontiguousarray(Yv, dtype=np.int64), ranking, coef, loss)
    return ranking, coef, loss


#: RankSVM-IR visits the pairs instance by instance (``groups``) when its feature rows take more bytes than this:
#: then they do not fit in the processor's cache, and visiting an instance's rows together saves their reloads;
#: below it the single random order is as fast or faster (benchmarks/bench_protocol.py --compare times both).
_GROUP_PAIRS_ABOVE = 64 * 2**20


#: RankSVMIR's solvers and their default (tol, max_iter): the relative duality gap and outer iterations of the
#: augmented Lagrangian method, the projected-gradient spread and epochs of dual coordinate descent.
_SOLVER_DEFAULTS = {"alm": (1e-6, 100), "dcd": (1e-3, 1000)}


class RankSVMIR(_SVMRanker):
    r"""RankSVM-IR (Joachims 2002) over meta-level features: a pairwise hinge-loss linear SVM within each list.

    .. math::

        \min_w \tfrac12 \lVert w \rVert^2 + C \sum_i \sum_{c \in R_i} \sum_{c' \notin R_i}
        \max\big(0,\, 1 - w \cdot (\tilde\phi(x_i, c) - \tilde\phi(x_i, c'))\big)

    over the standardised features :math:`\tilde\phi`, one constraint (and one unit of ``C``) per pair of a
    relevant and an irrelevant category of the same instance, as in Joachims' eq. (12). A bias cancels in every
    pair, so the scoring function is :math:`w \cdot \tilde\phi`.

    Two solvers of the same problem. ``solver="alm"`` (the default): the augmented Lagrangian method of
    :func:`labelrank.rankers.pairwise_newton.fit_pairwise_hinge_alm` (Yan & Li 2020), which works in the ``d``
    dimensions of :math:`w` and stops when the relative duality gap is at most ``tol``, at any ``C``.
    ``solver="dcd"``: the dual coordinate descent of :func:`labelrank.rankers.pairwise_svm.fit_pairwise_hinge`
    (Hsieh et al. 2008), stopped at a projected-gradient spread of ``tol``; when the standardised features take
    more than 64 MB, each epoch visits each instance's pairs together (``groups``), so that the instance's rows
    stay in cache. Dual coordinate descent needs many epochs once ``C`` is large (on yeast at k = 50 it stops at
    its 1000-epoch cap from ``C`` = 1 on, far from the optimum at ``C`` = 1000), which the default solver does not.

    Parameters
    ----------
    C : float, default=0.01
        Weight of each pair's hinge loss. Every instance contributes :math:`|R_i| |\bar R_i|` pairs (41 on yeast,
        88 on Reuters-21578), so useful values are small; 0.001-0.01 gave the best test MAP on emotions, yeast and
        Reuters-21578 in our runs (the paper tunes C over 20 values in :math:`10^{-6} .. 10^6`).
    tol : float, optional
        The solver's tolerance: the relative duality gap for "alm" (default 1e-6), the projected-gradient spread
        for "dcd" (default 1e-3).
    max_iter : int, optional
        The solver's iteration limit (a ConvergenceWarning is issued when it is reached): outer iterations for
        "alm" (default 100), epochs over all pairs for "dcd" (default 1000).
    standardize : bool, default=True
    random_state : int, default=0
        Seed of the "dcd" solver's visiting order ("alm" is deterministic).
    solver : {"alm", "dcd"}, default="alm"
        The augmented Lagrangian method or dual coordinate descent (above).

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (d,)
        Weights on the standardised features.
    intercept_ : float
        0.
    tol_, max_iter_ : float, int
        The tolerance and iteration limit used (the solver's defaults where ``tol`` or ``max_iter`` is None).
    dual_coef_ : numpy.ndarray of shape (n_pairs,)
        Dual variables of the pairs of :func:`labelrank.rankers.pairwise_svm.rank_svm_pairs` (training ``Y``), in that
        order.
    n_iter_ : int
        Epochs ("dcd") or Newton steps ("alm") run.
    converged_ : bool
    primal_objective_, dual_objective_ : float

    Examples
    --------
    Lists of 4 labels whose first feature is informative:

    >>> import numpy as np
    >>> from labelrank.metrics import average_precision
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(40, 4))
    >>> Y[:, 0] = 1 - Y[:, 1]  # every list has a relevant and an irrelevant label
    >>> Z = rng.normal(size=(40, 4, 3))  # 4 labels per list, 3 features per (instance, label)
    >>> Z[..., 0] += 2 * Y  # the first feature is larger for the relevant labels
    >>> ranker = RankSVMIR(random_state=0).fit(Z, Y)
    >>> gap = ranker.primal_objective_ - ranker.dual_objective_
    >>> ranker.converged_, bool(gap <= 1e-6 * max(1.0, ranker.primal_objective_))
    (True, True)
    >>> scores = ranker.decision_function(Z)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9)
    ((40, 4), True)
    """

    parameter_constraints = {"solver": Options("alm", "dcd")}

    def __init__(self, C: float = 0.01, tol: float | None = None, max_iter: int | None = None,
                 standardize: bool = True, random_state: int = 0, solver: str = "alm"):
        super().__init__(C, tol=tol, max_iter=max_iter, standardize=standardize, random_state=random_state)
        self.solver = solver

    def _default_tolerances(self) -> tuple[float, int]:
        return _SOLVER_DEFAULTS[self.solver]  # the solver is checked first (parameter_constraints)

    def _path(self, Z: Any, Y: Any, values: list[float]) -> list[RankSVMIR]:
        # the pairs and standardised rows built once; "alm": fit_pairwise_hinge_alm_path (each C from the last
        # weights, the pairs' norms computed once), "dcd": each C from the last dual point moved or scaled into
        # its box
        template = clone(self)  # this ranker itself stays unfitted
        Z, Y = template._prepare(Z, Y)
        F, pos, neg, inst = template._pair_rows(Z, Y)
        fitted = [clone(self).set_params(C=C) for C in values]
        for est in fitted:
            est.check_params()
            est._take_preparation(template)
        if self.solver == "alm":
            path = fit_pairwise_hinge_alm_path(F, pos, neg, values, tol=float(template.tol_),
                                               max_iter=int(template.max_iter_))
            for est, res in zip(fitted, path):
                est._set_result(res)
        else:
            for j, est in enumerate(fitted):
                est._solve(F, pos, neg, inst, fitted[j - 1] if j else None)
        return fitted

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        self._solve(*self._pair_rows(Z, Y))

    def _pair_rows(self, Z: np.ndarray, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The standardised rows ``F`` (one per (instance, label), in ``Z``'s float type: float32 meta-level
        features give float32 rows, half the bytes the solver passes over), each pair's positive and negative row,
        and each pair's instance."""
        n, m, d = Z.shape
        inst, rel, irr = rank_svm_pairs(Y)
        # the mean cancels in every pair difference: dividing by the scale is the whole standardisation
        F = np.empty((n * m, d), dtype=np.float32 if Z.dtype == np.float32 else np.float64)
        step = _chunk_rows(Z)
        for start in range(0, n, step):
            block = Z[start : start + step].reshape(-1, d)
            F[start * m : start * m + block.shape[0]] = block / self.scale_
        return F, inst * m + rel, inst * m + irr, inst

    def _solve(self, F: np.ndarray, pos: np.ndarray, neg: np.ndarray, inst: np.ndarray,
               previous: RankSVMIR | None = None) -> None:
        """Solve on the rows of :meth:`_pair_rows` ("dcd": from ``previous``'s dual point moved or scaled into this
        C's box, :func:`~labelrank.rankers.pairwise_svm.dual_path_starts`)."""
        if self.solver == "alm":
            res = fit_pairwise_hinge_alm(F, pos, neg, float(self.C), tol=float(self.tol_),
                                         max_iter=int(self.max_iter_))
        else:
            start = None if previous is None else dual_path_starts(previous.dual_coef_, float(previous.C),
                                                                   float(self.C))
            groups = inst if F.nbytes > _GROUP_PAIRS_ABOVE else None  # see _GROUP_PAIRS_ABOVE
            res = fit_pairwise_hinge(F, pos, neg, float(self.C), tol=float(self.tol_),
                                     max_iter=int(self.max_iter_), random_state=int(self.random_state),
                                     groups=groups, alpha_init=start)
        self._set_result(res)

    def _set_result(self, res: PairwiseHingeResult) -> None:
        self.coef_ = res.coef[0]
        self.intercept_ = 0.0
        self.dual_coef_ = res.alpha
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.primal_objective_ = res.primal_objective
        self.dual_objective_ = res.dual_objective
        if not res.converged:
            what = (f"outer iterations (relative duality gap {res.violation:.3g} > tol={self.tol_})"
                    if self.solver == "alm" else
                    f"epochs (projected-gradient spread {res.violation:.3g} > tol={self.tol_})")
            warnings.warn(
                f"RankSVMIR did not converge in max_iter={self.max_iter_} {what}; increase max_iter or lower C",
                ConvergenceWarning,
                stacklevel=4,
            )


#: A working-set constraint whose dual variable has been 0 for this many iterations is dropped (SVM-struct's
#: pruning of inactive constraints); it can be added again if it becomes the most violated one.
_PRUNE_AFTER = 50


class SVMMAP(_SVMRanker):
    r"""SVM-MAP (Yue, Finley, Radlinski & Joachims 2007): a structural SVM whose loss is :math:`1 - AP`.

    .. math::

        \min_{w, \xi \ge 0} \tfrac12 \lVert w \rVert^2 + \frac{C}{n} \sum_{i=1}^n \xi_i
        \quad \text{s.t.} \quad \forall i, \forall \bar y:\;
        w \cdot \Psi(x_i, y_i) - w \cdot \Psi(x_i, \bar y) \ge \Delta(y_i, \bar y) - \xi_i

    with :math:`\Psi` the joint feature map over rankings and :math:`\Delta = 1 - AP` of
    :func:`ap_loss_augmented_inference`, on standardised features. Trained with the **1-slack cutting-plane
    algorithm** of SVM-struct 3 (Joachims, Finley & Yu 2009, Algorithm 4, margin rescaling), which solves the
    equivalent problem :math:`\min \tfrac12 \lVert w \rVert^2 + C \xi` s.t. :math:`w \cdot \bar a \ge \bar b - \xi`
    for every joint choice of rankings, :math:`\bar a = \frac1n \sum_i \delta\Psi_i`,
    :math:`\bar b = \frac1n \sum_i \Delta_i`: each iteration runs the exact loss-augmented inference on every list
    at the current :math:`w` (one pass over the features: a list's scores, its most violated ranking and its share
    of :math:`\bar a` together), adds the averaged constraint to the working set, and re-solves the working set's
    dual QP (:math:`\max_\alpha \sum_t \alpha_t \bar b_t - \tfrac12 \lVert \sum_t \alpha_t \bar a_t \rVert^2`,
    :math:`\alpha \ge 0`, :math:`\sum_t \alpha_t \le C`) exactly, by an active-set method warm-started from the
    last solution (:func:`labelrank.rankers.simplex_qp.solve_simplex_qp`); as in SVM-struct, a constraint whose
    dual variable has stayed 0 for 50 iterations leaves the working set (it comes back if it is the
    most violated one again), which keeps the QP small at large ``C``. It stops when the new constraint is
    violated by at most ``tol`` more than the working set's slack. This is SVM-struct's algorithm, deterministic
    and free of a learning rate, with a certificate: ``converged_`` is True only when, at the end,
    ``primal_objective_ - dual_objective_ <= C * tol``, so :math:`w` is ``C * tol``-optimal for the objective
    above. Should the working set's QP stop at its iteration limit before that holds, the fit warns and reports
    ``converged_ = False``.

    Parameters
    ----------
    C : float, default=100.0
        Trade-off; the slacks are averaged over the instances (SVM-struct's ``C/n``) and :math:`\Psi` over the
        pairs, so useful values are large: C = 1 under-fits scene and Reuters-21578 (test MAP 0.855 and 0.913 at
        k = 10) where C = 100 gives 0.871 and 0.925 and C = 1e4 gives 0.940 on Reuters; emotions and yeast are
        flat over 0.1 .. 1000.
    tol : float, default=1e-3
        The cutting-plane precision :math:`\varepsilon` (on the scale of the loss :math:`1 - AP`).
    max_iter : int, default=1000
        Maximum number of cutting-plane iterations (a ConvergenceWarning is issued when reached).
    standardize : bool, default=True
    random_state : int, default=0
        Unused (the algorithm is deterministic); kept for a uniform interface.
    warm_start : bool, default=False
        Reuse the previous fit's working set when fitted again on the same data (same shape and standardisation),
        typically with another ``C``: the cutting planes do not depend on ``C``, so the dual variables are rescaled
        to the new ``C``, the working set's QP is re-solved and the iterations continue from there. The stopping
        rule is the same, so the result is ``C * tol``-optimal as a cold start's, at a fraction of the iterations
        along a grid of ``C`` (``benchmarks/bench_protocol.py`` measures it). Different data start cold.

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (d,)
    intercept_ : float
        0 (a bias cancels in :math:`\Psi`).
    n_iter_ : int
        Cutting-plane iterations.
    n_constraints_ : int
        Size of the final working set.
    converged_ : bool
    primal_objective_, dual_objective_ : float
        The 1-slack primal at ``coef_`` (with the exact most violated constraint) and the working-set dual.

    Examples
    --------
    Lists of 4 labels whose first feature is informative:

    >>> import numpy as np
    >>> from labelrank.metrics import average_precision
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(40, 4))
    >>> Y[:, 0] = 1 - Y[:, 1]  # every list has a relevant and an irrelevant label
    >>> Z = rng.normal(size=(40, 4, 3))  # 4 labels per list, 3 features per (instance, label)
    >>> Z[..., 0] += 2 * Y  # the first feature is larger for the relevant labels
    >>> ranker = SVMMAP(random_state=0).fit(Z, Y)
    >>> ranker.converged_
    True
    >>> scores = ranker.decision_function(Z)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9)
    ((40, 4), True)
    """

    parameter_constraints = {"tol": POSITIVE, "max_iter": Integer(), "warm_start": Flag()}

    def __init__(self, C: float = 100.0, tol: float = 1e-3, max_iter: int = 1000, standardize: bool = True,
                 random_state: int = 0, warm_start: bool = False):
        super().__init__(C, tol=tol, max_iter=max_iter, standardize=standardize, random_state=random_state)
        self.warm_start = warm_start

    def _path(self, Z: Any, Y: Any, values: list[float]) -> list[SVMMAP]:
        # each C warm-started from the last one's working set, as refits of one estimator with warm_start=True; the
        # input checked, standardised and put in C order once (refits redo it per C: a third of a path's time on
        # Reuters-21578, whose cached meta-level features are feature-major)
        template = clone(self).set_params(warm_start=True)  # this ranker itself stays unfitted
        Z, Y = template._prepare(Z, Y)
        Z, Y = _c_order(Z, Y)
        fitted, previous = [], None
        for C in values:
            est = clone(template).set_params(C=C)
            est.check_params()
            est._take_preparation(template)
            if previous is not None:
                est._take_warm_start(previous)
            est._fit(Z, Y)
            fitted.append(est)
            previous = est
        return fitted

    def _take_warm_start(self, previous: SVMMAP) -> None:
        """Start the next fit from ``previous``'s working set (a fitted SVMMAP with ``warm_start=True``)."""
        self._working_set = getattr(previous, "_working_set", None)

    def _initial_working_set(self, Z: np.ndarray, C: float):
        """(A, b, G, alpha) to start from: the trivial constraint, or the previous fit's set rescaled to ``C``."""
        previous = getattr(self, "_working_set", None) if self.warm_start else None
        if previous is not None and previous["shape"] == Z.shape and np.array_equal(previous["scale"], self.scale_):
            A, b, G, alpha = (previous[key].copy() for key in ("A", "b", "G", "alpha"))
            alpha *= C / previous["C"]  # feasible for the new C: alpha >= 0 and sum(alpha) = C
            solve_simplex_qp(G, b, alpha, C, float(self.tol) * 1e-2)
            return A, b, G, alpha
        # constraint 0 is the trivial (a = 0, b = 0), whose dual variable takes the slack of sum <= C
        return np.zeros((1, Z.shape[2])), np.zeros(1), np.zeros((1, 1)), np.array([C])

    def _constraint(self, Z: np.ndarray, Y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
        """The averaged most violated constraint (a, b) at ``w`` (weights on the standardised features)."""
        n = Z.shape[0]
        # the mean's shift is common to a list (no effect on its ranking), and the rows of coef sum to 0 (it
        # cancels in the constraint): the raw features and the weights over the scale are the whole standardisation
        total, loss = _most_violated_constraint(Z, Y, w / self.scale_)
        return total / self.scale_ / n, loss / n

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        C, tol = float(self.C), float(self.tol)
        Z, Y = _c_order(Z, Y)
        A, b, G, alpha = self._initial_working_set(Z, C)
        idle = np.zeros(b.shape[0], dtype=np.int64)  # iterations each constraint has spent at alpha = 0
        w = alpha @ A
        converged = False
        primal = dual = 0.0
        it = 0
        for it in range(1, int(self.max_iter) + 1):
            a_new, b_new = self._constraint(Z, Y, w)
            xi = max(0.0, float(np.max(b - A @ w)))
            violation = b_new - float(a_new @ w)
            half_sq = 0.5 * float(w @ w)
            primal = half_sq + C * max(violation, 0.0)
            dual = float(alpha @ b) - half_sq
            if violation <= xi + tol:
                converged = True
                break
            A = np.vstack([A, a_new])
            b = np.append(b, b_new)
            col = A @ a_new
            G = np.block([[G, col[:-1, None]], [col[None, :-1], col[-1:, None]]])
            alpha = np.append(alpha, 0.0)
            idle = np.append(idle, 0)
            solve_simplex_qp(G, b, alpha, C, tol * 1e-2)
            w = alpha @ A
            idle = np.where(alpha > 0, 0, idle + 1)
            keep = idle <= _PRUNE_AFTER
            keep[0] = True
            if not keep.all():
                A, b, G, alpha, idle = A[keep], b[keep], G[np.ix_(keep, keep)], alpha[keep], idle[keep]
        else:
            warnings.warn(
                f"SVMMAP did not converge in max_iter={self.max_iter} cutting-plane iterations (duality gap "
                f"{primal - dual:.3g}, C * tol = {C * tol:.3g}); increase max_iter or tol, or lower C",
                ConvergenceWarning,
                stacklevel=3,
            )
        if converged and primal - dual > 1.01 * C * tol + 1e-12:
            # the cutting planes stopped, but the working set's QP was not solved accurately enough (its solver
            # stopped at its iteration limit): the certificate does not hold, so do not claim convergence
            converged = False
            warnings.warn(
                f"SVMMAP stopped with a duality gap {primal - dual:.3g} above C * tol = {C * tol:.3g}: the working "
                "set's QP was not solved to its accuracy, so the solution is not certified; lower C or raise tol",
                ConvergenceWarning,
                stacklevel=3,
            )
        self.coef_ = w
        self.intercept_ = 0.0
        self.n_iter_ = it
        self.n_constraints_ = int(np.count_nonzero(alpha[1:] > 0))
        self.converged_ = converged
        self.primal_objective_ = primal
        self.dual_objective_ = dual
        self.dual_coef_ = alpha[1:].copy()
        self._working_set = ({"shape": Z.shape, "scale": self.scale_.copy(), "A": A, "b": b, "G": G, "alpha": alpha,
                              "C": C} if self.warm_start else None)
