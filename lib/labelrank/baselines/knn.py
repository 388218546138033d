"""The kNN baselines: ML-kNN (Zhang & Zhou 2007) and IBLR-ML (Cheng & Hüllermeier 2009), as MULAN computes them."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import NearestNeighbors

from labelrank.parameters import POSITIVE, Integer, Options
from labelrank.logistic import Design, ridge_logistic_newton, standardised_fit

from labelrank.baselines.base import KNNDistance, ThresholdRule, _MultiLabelBaseline

#: IBLRML fits its logistic regressions on the sparse label frequencies (labelrank.logistic.standardised_fit)
#: when at most this share of them is nonzero: the same iterates, the products costing the nonzeros.
IBLR_SPARSE_DENSITY = 0.25


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
        sparse = np.count_nonzero(counts) <= IBLR_SPARSE_DENSITY * counts.size
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
