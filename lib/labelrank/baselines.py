"""The four multi-label baselines of Yang & Gopal (2012, section 3.2) on the original features.

Every estimator has the same shape: ``fit(X, Y)`` with ``X`` of shape (n, d) (dense or scipy sparse) and a 0/1 label
matrix ``Y`` of shape (n, m); ``decision_function(X)`` gives label scores of shape (n, m), higher = more relevant;
``predict(X)`` gives 0/1 decisions. A label receives a yes when its score is **at or above** the threshold
(section 2.3: "above or at the threshold").

========================  ==========================================  ================================================
estimator                 scores                                      ``threshold="default"``
========================  ==========================================  ================================================
:class:`BinarySVM`        one-vs-rest linear SVM margins              0
:class:`RankSVM`          Elisseeff & Weston's linear ranking SVM     LLSF on the raw scores (Elisseeff & Weston)
:class:`MLkNN`            ML-kNN posterior probabilities              0.5
:class:`IBLRML`           IBLR-ML logistic probabilities              0.5
========================  ==========================================  ================================================

``threshold="llsf"`` replaces the default by the instance-based regression of section 2.3 (scores rescaled to sum to
one, the threshold a linear map of the ranked list, :class:`labelrank.threshold.LLSFThreshold`), fitted on the training instances' scores of the fitted model (the
non-splitting strategy of section 3.4); this is the "Regression" column of the paper's Table 4. For the kNN methods
the training scores are leave-one-out by construction (a training instance is never its own neighbour).

Labels without positive (or without negative) training instances
-----------------------------------------------------------------
A label column of ``Y`` that is all 0 (or all 1) is not an error: it happens in cross-validation folds of Reuters,
whose rarest categories have one or two training documents. Each method handles it as its model implies:
:class:`BinarySVM` gives the label the constant margin -1 (+1 when all are relevant) instead of training an SVM on
one class; :class:`RankSVM` needs nothing special (the label only takes part in pairs as the irrelevant, or
relevant, one); :class:`MLkNN`'s smoothed estimates are defined for any counts; :class:`IBLRML` gives the label the
constant probability 0 (1). An instance with no or with every label relevant gives Rank-SVM no pair and is
otherwise used normally.

Invalid input -- ``Y`` not 0/1 or not 2-D, ``X`` and ``Y`` with different numbers of rows, fewer than 2
instances, ``k`` not smaller than the number of training instances, NaN or infinite features -- raises
:class:`ValueError` (or :class:`TypeError` for the wrong kind of object) naming the argument.

References
----------
A. Elisseeff, J. Weston (2001). A kernel method for multi-labelled classification. NIPS 14, 681-687.
M.-L. Zhang, Z.-H. Zhou (2007). ML-KNN: a lazy learning approach to multi-label learning. Pattern Recognition 40(7).
W. Cheng, E. Hüllermeier (2009). Combining instance-based learning and logistic regression for multilabel
classification. Machine Learning 76(2-3), 211-225.
Y. Yang, S. Gopal (2012). Multilabel classification with meta-level features in a learning-to-rank framework.
Machine Learning 88, 47-68.
G. Tsoumakas et al. (2011). MULAN: a Java library for multi-label learning. JMLR 12, 2411-2414 (the ML-kNN and
IBLR-ML implementations the paper ran: ``mulan/classifier/lazy/MLkNN.java``, ``IBLR_ML.java``).
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import scipy.sparse as sp
from scipy.special import expit
from sklearn.base import BaseEstimator, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import NearestNeighbors
from sklearn.svm import LinearSVC
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.validation import check_is_fitted, validate_data

from labelrank.parameters import POSITIVE, SEED, DeclaredParameters, Integer, NoneOr, Options
from labelrank.validation import check_fit_input, check_magnitude, multilabel_tags
from labelrank.logistic import Design, ridge_logistic_newton, standardised_fit  # noqa: F401 (re-exported)
from labelrank.threshold import LLSFThreshold

__all__ = ["BinarySVM", "RankSVM", "MLkNN", "IBLRML", "rank_svm_pairs",  # noqa: F822 (rank_svm_pairs: __getattr__)
           "ALM_MAX_FEATURES", "RANK_SVM_ALM_MAX_UNKNOWNS"]


def __getattr__(name: str):
    # rank_svm_pairs lives with the pairwise solver, whose compiled kernels need the `rank` extra: re-exported
    # lazily, so that the other baselines import without it
    if name == "rank_svm_pairs":
        from labelrank.rankers.pairwise_svm import rank_svm_pairs

        return rank_svm_pairs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

ThresholdRule = Literal["default", "llsf"]
KNNDistance = Literal["euclidean", "weka"]

#: BinarySVM(solver="auto") uses the augmented Lagrangian method on a dense X of at most ALM_MAX_FEATURES columns (it
#: forms d x d Newton systems, 134 MB at 4,096) and on a sparse X, which it densifies, of at most
#: _ALM_MAX_SPARSE_FEATURES; LIBLINEAR on more. Up to these widths the ALM is the faster of the two on Fig. 2's
#: meta-level features, where LIBLINEAR stops at its pass cap (the book's performance page gives the measurements).
ALM_MAX_FEATURES = 4096
_ALM_MAX_SPARSE_FEATURES = 1000


def _binary_svm_auto_solver(X) -> str:
    """The solver of ``BinarySVM(solver="auto")`` for ``X``: "alm" or "liblinear" (by its columns, above)."""
    limit = _ALM_MAX_SPARSE_FEATURES if sp.issparse(X) else ALM_MAX_FEATURES
    return "alm" if X.shape[1] <= limit else "liblinear"

#: IBLRML fits its logistic regressions on the sparse label frequencies (labelrank.logistic.standardised_fit)
#: when at most this share of them is nonzero: the same iterates, the products costing the nonzeros.
_IBLR_SPARSE_DENSITY = 0.25

#: RankSVM's "auto" solver: the augmented Lagrangian method up to this many unknowns, n_labels * (n_features + 1).
RANK_SVM_ALM_MAX_UNKNOWNS = 2048


class _MultiLabelBaseline(DeclaredParameters, BaseEstimator):
    """Shared parameter and input checks, thresholding and scikit-learn plumbing of the baselines.

    Subclasses declare ``parameter_constraints`` (:mod:`labelrank.parameters`), implement
    ``_fit(X, Y) -> training scores`` and ``_scores(X)``, and set ``default_threshold`` (a number, or ``None`` for
    LLSF on raw scores). A subclass that names parameters in ``_warm_params`` also implements
    ``_fit_path(X, Y, models) -> training scores of each model``, which fits copies differing in one of them
    together (:meth:`fit_path` calls it for those parameters only).
    """

    parameter_constraints = {"threshold": Options("default", "llsf")}
    default_threshold: float | None = 0.0

    def __sklearn_tags__(self):
        return multilabel_tags(super().__sklearn_tags__())

    #: Parameters along which :meth:`fit_path` starts each fit from the previous one's solution.
    _warm_params: tuple[str, ...] = ()

    def fit(self, X: Any, Y: Any) -> _MultiLabelBaseline:
        """Fit the model and its threshold on instances ``X`` (n, d) and 0/1 labels ``Y`` (n, m)."""
        X, Y = self._fit_input(X, Y)
        return self._fit_threshold(self._fit(X, Y), Y)

    def fit_path(self, X: Any, Y: Any, param: str, values: Sequence[Any]) -> list[_MultiLabelBaseline]:
        """One fitted copy per value of ``param``, each as ``clone(self).set_params(**{param: v}).fit(X, Y)``
        gives it, fitted together where the estimator can.

        Along ``"threshold"`` the model is fitted once and each copy fits its own threshold rule on the same
        training scores (the rules differ in the threshold alone; the experiment engine's final fits use it).
        Along ``"C"`` of :class:`BinarySVM` and :class:`RankSVM` with the augmented Lagrangian solver, each fit
        starts from the previous value's solution (the same optimum within the solver's certified tolerance; the
        first value is fitted cold, exactly as :meth:`fit` fits it); so does :class:`RankSVM`'s dual coordinate
        descent, from the previous dual point moved or scaled into the new box, whichever has the larger dual
        objective (:func:`~labelrank.rankers.pairwise_svm.dual_path_starts`: the same optimum within its tolerance
        where both converge; other iterates where a fit stops at ``max_iter``). Anything else is one fit after
        another. The experiment engine's full grid search fits a method's warm axis so, in increasing order.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n, d)
        Y : array-like of shape (n, n_labels)
        param : str
            A parameter of this estimator.
        values : sequence
            Its values, fitted in this order.

        Returns
        -------
        list
            Fitted copies, in the order of ``values``.

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(40, 3)); Y = (X[:, :2] + 0.3 * rng.normal(size=(40, 2)) > 0).astype(int)
        >>> models = BinarySVM().fit_path(X, Y, "C", [0.01, 1.0, 100.0])
        >>> [m.C for m in models], models[2].converged_
        ([0.01, 1.0, 100.0], True)
        """
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise TypeError(f"values must be a sequence of values of {param!r}, got {values!r}")
        if param not in self.get_params():
            raise ValueError(f"param must be a parameter of {type(self).__name__}, got {param!r}")
        if len(values) == 0:
            raise ValueError(f"values must hold at least one value of {param!r}, got an empty sequence")
        models = [clone(self).set_params(**{param: value}) for value in values]
        if param == "threshold":  # the model does not depend on it: fitted once, then each copy's threshold
            for model in models:
                model.check_params()
            X, Y = models[0]._fit_input(X, Y)
            train_scores = models[0]._fit(X, Y)
            models = [models[0]] + [copy.deepcopy(models[0]).set_params(threshold=model.threshold)
                                    for model in models[1:]]
            return [model._fit_threshold(train_scores, Y) for model in models]
        if param not in self._warm_params:
            return [model.fit(X, Y) for model in models]
        X, Y = [model._fit_input(X, Y) for model in models][0]  # every copy checked and given n_features_in_
        for model, train_scores in zip(models, self._fit_path(X, Y, models)):
            model._fit_threshold(train_scores, Y)
        return models

    def _fit_input(self, X: Any, Y: Any) -> tuple[Any, np.ndarray]:
        """Check the parameters and ``(X, Y)``; record ``n_features_in_`` and ``n_labels_``."""
        self.check_params()
        X, Y = check_fit_input(self, X, Y, ensure_min_samples=2)
        self.n_labels_ = Y.shape[1]
        return X, Y

    def _fit_threshold(self, train_scores: np.ndarray, Y: np.ndarray) -> _MultiLabelBaseline:
        """Fit the threshold rule on the training instances' scores; ``self``."""
        if self.threshold == "llsf":
            self.threshold_ = LLSFThreshold().fit(train_scores, Y)
        elif self.default_threshold is None:
            self.threshold_ = LLSFThreshold(rescale=False, inputs="labels").fit(train_scores, Y)
        else:
            self.threshold_ = self.default_threshold
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Label scores of shape (n, n_labels), higher = more relevant."""
        check_is_fitted(self, "threshold_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        check_magnitude(X, "X")
        return self._scores(X)

    def predict(self, X: Any) -> np.ndarray:
        """0/1 decisions of shape (n, n_labels): scores at or above the fitted threshold (``threshold_``)."""
        scores = self.decision_function(X)
        if isinstance(self.threshold_, LLSFThreshold):
            return self.threshold_.predict(scores)
        return (scores >= self.threshold_).astype(np.int64)


class _LinearSVMBaseline(_MultiLabelBaseline):
    """The parameters and the fit shared by :class:`BinarySVM` and :class:`RankSVM`: ``C``, the solver, its
    ``tol`` and ``max_iter`` (None: the solver's defaults), a seed; fits along ``C`` start from the last solution.
    Subclasses declare their ``solver`` options and implement ``_fit_path``."""

    parameter_constraints = {"C": POSITIVE, "tol": NoneOr(POSITIVE), "max_iter": NoneOr(Integer()),
                             "random_state": SEED}
    _warm_params = ("C",)

    def __init__(self, C: float = 1.0, threshold: ThresholdRule = "default", tol: float | None = None,
                 max_iter: int | None = None, random_state: int = 0, solver: str = "auto"):
        self.C = C
        self.threshold = threshold
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state
        self.solver = solver

    def _fit(self, X, Y):
        return self._fit_path(X, Y, [self])[0]


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
            solver = _binary_svm_auto_solver(X)
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


# ----------------------------------------------------------------------------------------------------------------
# kNN methods: ML-kNN and IBLR-ML share the neighbour search
# ----------------------------------------------------------------------------------------------------------------


class _KNNBaseline(_MultiLabelBaseline):
    """Neighbour search shared by :class:`MLkNN` and :class:`IBLRML`.

    Neighbours are the ``k`` training instances of smallest Euclidean distance (scikit-learn's brute-force
    :class:`~sklearn.neighbors.NearestNeighbors`; ties at the k-th distance are broken by its ordering). For a
    training instance the search excludes the instance itself (``kneighbors(X=None)``), as MULAN does (Weka's
    ``LinearNNSearch`` skips the query object) and unlike scikit-multilearn 0.2.0. Everything the two methods need is
    the count matrix :math:`C_{il}` = number of the k neighbours of instance ``i`` that have label ``l``.

    ``distance`` chooses what "Euclidean" is taken on. ``"euclidean"`` (the default, the book's protocol): the
    features as given, so rescale them first if their ranges differ (the paper rescales *emotions* to unit
    variance, section 3.4). ``"weka"``: MULAN's distance, Weka's ``EuclideanDistance``, which maps every feature
    to :math:`(x - \\min) / (\\max - \\min)` with the minimum and maximum of the *training* set (test values are
    not clipped to [0, 1]; a feature constant in training counts 0 for every instance). With it, ML-kNN gives
    MULAN's confidences exactly and IBLR-ML within 1e-5 (``tests/studies/test_mulan.py``, chapter "Learning to rank
    categories", section "Checked against MULAN").

    ``decision_function`` treats its input as new data: called on the training instances, each finds itself among
    its neighbours. The scores the ``"llsf"`` threshold is fitted on are the leave-one-out ones computed in ``fit``.
    """

    parameter_constraints = {"k": Integer(), "distance": Options("euclidean", "weka")}
    default_threshold = 0.5

    def _check_k(self, n_train: int) -> int:
        k = int(self.k)  # a positive integer (parameter_constraints)
        if k >= n_train:
            raise ValueError(
                f"k must be smaller than the number of training instances ({n_train}), since an instance is never "
                f"its own neighbour; got k={k}"
            )
        return k

    def _fit_neighbours(self, X, Y) -> np.ndarray:
        """Store the search structure; return the training instances' neighbour label counts (self excluded)."""
        self._check_k(X.shape[0])
        if self.distance == "weka":
            low = np.asarray(X.min(axis=0).todense() if sp.issparse(X) else X.min(axis=0), dtype=np.float64).ravel()
            high = np.asarray(X.max(axis=0).todense() if sp.issparse(X) else X.max(axis=0), dtype=np.float64).ravel()
            self.feature_min_ = low
            self.feature_range_ = high - low
            X = self._weka_scaled(X)
        self.neighbours_ = NearestNeighbors(n_neighbors=self.k, algorithm="brute", metric="euclidean").fit(X)
        self.Y_train_ = sp.csr_matrix(Y, dtype=np.float64)
        return self._label_counts(None)

    def _weka_scaled(self, X):
        """``(X - min) / range`` with the training minimum and range; a constant feature becomes 0 (Weka's norm)."""
        factor = np.divide(1.0, self.feature_range_, out=np.zeros_like(self.feature_range_),
                           where=self.feature_range_ > 0)
        if sp.issparse(X) and not self.feature_min_.any():  # non-negative sparse features: scaling keeps sparsity
            return (X @ sp.diags(factor)).tocsr()
        dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        return (dense - self.feature_min_) * factor

    def _label_counts(self, X) -> np.ndarray:
        """C[i, l] = number of the k nearest training instances of X[i] (training set if X is None) with label l."""
        if X is not None and self.distance == "weka":
            X = self._weka_scaled(X)
        graph = self.neighbours_.kneighbors_graph(X, n_neighbors=self.k, mode="connectivity")
        return np.rint(np.asarray((graph @ self.Y_train_).todense())).astype(np.int64)


class MLkNN(_KNNBaseline):
    """ML-kNN (Zhang & Zhou 2007): a MAP decision on the number of neighbours having each label.

    With :math:`C_{il}` the number of the k nearest training neighbours of instance i having label l (an instance is
    never its own neighbour) and smoothing s, the training set gives

    .. math::

        P(H_1^l) = \\frac{s + \\sum_i y_{il}}{2s + n}, \\qquad
        P(E_j^l \\mid H_b^l) = \\frac{s + c_b^l[j]}{s (k + 1) + \\sum_{p=0}^k c_b^l[p]}, \\quad j = 0, \\dots, k,

    where :math:`c_1^l[j]` (:math:`c_0^l[j]`) counts the training instances with (without) label l whose
    :math:`C_{il} = j`. The score of label l for an instance with count :math:`C_l = j` is the posterior

    .. math::

        P(H_1^l \\mid E_j^l) = \\frac{P(H_1^l) P(E_j^l \\mid H_1^l)}
        {P(H_1^l) P(E_j^l \\mid H_1^l) + P(H_0^l) P(E_j^l \\mid H_0^l)},

    and the default decision is posterior >= 0.5 (Zhang & Zhou's MAP rule; MULAN breaks an exact tie at 0.5 at
    random, here it is a yes). This is the computation of MULAN's ``MLkNN`` (``ComputePrior``, ``ComputeCond``).

    Parameters
    ----------
    k : int, default=10
        Number of neighbours (the paper tunes 10, 20, ..., 100).
    s : float, default=1.0
        Smoothing (1 = Laplace, the paper's and MULAN's default).
    threshold : {"default", "llsf"}, default="default"
    distance : {"euclidean", "weka"}, default="euclidean"
        Neighbours on the features as given, or on the features min-max normalised by their training range, as
        MULAN's Weka ``EuclideanDistance`` does (then the confidences are MULAN's, exactly).

    Attributes
    ----------
    prior_ : numpy.ndarray of shape (n_labels,)
        :math:`P(H_1^l)`.
    cond_pos_, cond_neg_ : numpy.ndarray of shape (n_labels, k + 1)
        :math:`P(E_j^l \\mid H_1^l)` and :math:`P(E_j^l \\mid H_0^l)`.
    threshold_ : float or LLSFThreshold

    References
    ----------
    M.-L. Zhang, Z.-H. Zhou (2007). ML-KNN: a lazy learning approach to multi-label learning. Pattern Recognition
    40(7), 2038-2048.

    Examples
    --------
    >>> import numpy as np
    >>> from labelrank.metrics import average_precision, micro_f1
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(60, 3))
    >>> X = rng.normal(size=(60, 5))
    >>> X[:, :3] += 3 * Y  # feature j is large when label j is relevant
    >>> model = MLkNN().fit(X, Y)
    >>> scores, labels = model.decision_function(X), model.predict(X)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9), bool(micro_f1(Y, labels) > 0.9)
    ((60, 3), True, True)
    """

    parameter_constraints = {"s": POSITIVE}

    def __init__(self, k: int = 10, s: float = 1.0, threshold: ThresholdRule = "default",
                 distance: KNNDistance = "euclidean"):
        self.k = k
        self.s = s
        self.threshold = threshold
        self.distance = distance

    def _fit(self, X, Y):
        counts = self._fit_neighbours(X, Y)
        n, m = Y.shape
        k, s = self.k, float(self.s)
        self.prior_ = (s + Y.sum(axis=0)) / (2 * s + n)
        hist_pos = np.zeros((m, k + 1))
        hist_neg = np.zeros((m, k + 1))
        for lab in range(m):
            hist_pos[lab] = np.bincount(counts[Y[:, lab] == 1, lab], minlength=k + 1)
            hist_neg[lab] = np.bincount(counts[Y[:, lab] == 0, lab], minlength=k + 1)
        self.cond_pos_ = (s + hist_pos) / (s * (k + 1) + hist_pos.sum(axis=1, keepdims=True))
        self.cond_neg_ = (s + hist_neg) / (s * (k + 1) + hist_neg.sum(axis=1, keepdims=True))
        return self._posterior(counts)

    def _posterior(self, counts: np.ndarray) -> np.ndarray:
        labels = np.arange(counts.shape[1])
        p_in = self.prior_ * self.cond_pos_[labels, counts]
        p_out = (1.0 - self.prior_) * self.cond_neg_[labels, counts]
        return p_in / (p_in + p_out)

    def _scores(self, X):
        return self._posterior(self._label_counts(X))


class IBLRML(_KNNBaseline):
    """IBLR-ML (Cheng & Hüllermeier 2009) as implemented in MULAN: logistic regression on neighbour label frequencies.

    Each instance is described by the m label frequencies of its k nearest training neighbours,
    :math:`f_{il} = C_{il} / k` (a training instance is never its own neighbour); for each label j a logistic
    regression with intercept is fitted on these m features,

    .. math::

        P(y_j = 1 \\mid x) = \\sigma\\big(\\beta_{j0} + \\textstyle\\sum_{l=1}^m \\beta_{jl} \\tilde f_l(x)\\big),

    and the default decision is probability >= 0.5. This follows MULAN's ``IBLR_ML`` (the implementation the paper
    ran): plain fractions ``count / k``, no distance weighting (Cheng & Hüllermeier's paper allows weighting; the
    code's ``distanceWeighting`` field is unused), one Weka ``Logistic`` per label. Weka's ``Logistic`` standardises
    the features (:math:`\\tilde f`) and adds a ridge penalty :math:`\\lambda \\sum_l \\beta_{jl}^2` with
    :math:`\\lambda = 10^{-8}` to the negative log-likelihood, and runs its optimiser to convergence; we minimise
    the same objective by damped Newton steps to a Newton decrement of ``tol``
    (:func:`~labelrank.logistic.ridge_logistic_newton`: m features only, and it reaches the far-out optimum of a
    nearly separable label where first-order solvers, and scikit-learn's Newton solver when it falls back to
    L-BFGS, stall). When at most a quarter of the frequencies are nonzero (many labels, few of them among an
    instance's neighbours: Reuters-21578), the regressions run on the sparse frequencies themselves
    (:func:`~labelrank.logistic.standardised_fit`: the same Newton iterates up to rounding, with the cost of the
    nonzeros rather than of the dense matrix). A label whose training column is
    constant gets the constant probability 0 (1).

    Parameters
    ----------
    k : int, default=10
        Number of neighbours (the paper tunes 10, 20, ..., 100).
    ridge : float, default=1e-8
        Weka's ridge :math:`\\lambda`.
    threshold : {"default", "llsf"}, default="default"
    tol : float, default=1e-14
        Newton decrement at which a regression stops (:func:`~labelrank.logistic.ridge_logistic_newton`). The
        default runs each to convergence, as Weka's ``Logistic`` does in MULAN: the ridge keeps the optimum finite
        even for a (nearly) separable label, but it lies far out (scene, label Beach, k = 10: largest coefficient
        34.4, where scikit-learn's solver at its default tolerance stops at 11.7, confidences off by up to
        0.042). With ``distance="weka"`` the converged fits give MULAN's confidences within 1e-5. A looser ``tol``
        saves a few Newton steps per label and gives another, unconverged model.
    max_iter : int, default=1000
        Newton iterations per logistic regression.
    distance : {"euclidean", "weka"}, default="euclidean"
        The features the neighbours are found on: as given, or min-max normalised by the training range as in
        MULAN (see :class:`MLkNN`).

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (n_labels, n_labels)
        :math:`\\beta_{jl}` on the standardised frequencies.
    intercept_ : numpy.ndarray of shape (n_labels,)
    feature_mean_, feature_scale_ : numpy.ndarray of shape (n_labels,)
        The standardisation (scale 1 for a constant frequency).
    constant_ : numpy.ndarray of shape (n_labels,)
        0 or 1 for a label constant in training (its fixed probability), NaN otherwise.
    threshold_ : float or LLSFThreshold

    References
    ----------
    W. Cheng, E. Hüllermeier (2009). Combining instance-based learning and logistic regression for multilabel
    classification. Machine Learning 76(2-3), 211-225. MULAN ``mulan/classifier/lazy/IBLR_ML.java`` (Cheng,
    Spyromitros-Xioufis, Tsoumakas, version 2010.12.29).

    Examples
    --------
    >>> import numpy as np
    >>> from labelrank.metrics import average_precision, micro_f1
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(60, 3))
    >>> X = rng.normal(size=(60, 5))
    >>> X[:, :3] += 3 * Y  # feature j is large when label j is relevant
    >>> model = IBLRML().fit(X, Y)
    >>> scores, labels = model.decision_function(X), model.predict(X)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9), bool(micro_f1(Y, labels) > 0.9)
    ((60, 3), True, True)
    """

    parameter_constraints = {"ridge": POSITIVE, "tol": POSITIVE, "max_iter": Integer()}

    def __init__(self, k: int = 10, ridge: float = 1e-8, threshold: ThresholdRule = "default", tol: float = 1e-14,
                 max_iter: int = 1000, distance: KNNDistance = "euclidean"):
        self.k = k
        self.ridge = ridge
        self.threshold = threshold
        self.tol = tol
        self.max_iter = max_iter
        self.distance = distance

    def _features(self, counts: np.ndarray) -> np.ndarray:
        return (counts / self.k - self.feature_mean_) / self.feature_scale_

    def _fit(self, X, Y):
        counts = self._fit_neighbours(X, Y)
        freq = counts / self.k
        self.feature_mean_ = freq.mean(axis=0)
        scale = freq.std(axis=0)
        self.feature_scale_ = np.where(scale > 0, scale, 1.0)
        Z = self._features(counts)
        # the standardised frequencies are dense; few neighbours share most labels (Reuters-21578, k = 50: 10% of
        # the frequencies are nonzero), and then the regressions run on the sparse frequencies themselves
        sparse = np.count_nonzero(counts) <= _IBLR_SPARSE_DENSITY * counts.size
        freq = Design(sp.csr_matrix(freq)) if sparse else None
        m = Y.shape[1]
        self.coef_ = np.zeros((m, m))
        self.intercept_ = np.zeros(m)
        self.constant_ = np.full(m, np.nan)
        for j in range(m):
            y = Y[:, j]
            if y.min() == y.max():
                self.constant_[j] = float(y[0])
                continue
            if sparse:
                beta, converged = standardised_fit(freq, y, self.feature_mean_, self.feature_scale_, self.ridge,
                                                   tol=self.tol, max_iter=self.max_iter)
            else:
                beta, converged = ridge_logistic_newton(Z, y, self.ridge, tol=self.tol, max_iter=self.max_iter)
            if not converged:
                warnings.warn(f"IBLRML: the logistic regression of label {j} did not converge in "
                              f"max_iter={self.max_iter} Newton steps; increase max_iter or tol", ConvergenceWarning,
                              stacklevel=3)
            self.intercept_[j], self.coef_[j] = beta[0], beta[1:]
        return self._probabilities(Z)

    def _probabilities(self, Z: np.ndarray) -> np.ndarray:
        p = expit(Z @ self.coef_.T + self.intercept_)
        fixed = ~np.isnan(self.constant_)
        p[:, fixed] = self.constant_[fixed]
        return p

    def _scores(self, X):
        return self._probabilities(self._features(self._label_counts(X)))
