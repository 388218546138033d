"""The baselines' shared parts: parameter and input checks, the threshold rules, fits along a parameter, and the
linear SVMs' common parameters."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from labelrank.parameters import POSITIVE, SEED, DeclaredParameters, Integer, NoneOr, Options
from labelrank.validation import check_fit_input, check_magnitude, multilabel_tags
from labelrank.threshold import LLSFThreshold

ThresholdRule = Literal["default", "llsf"]
KNNDistance = Literal["euclidean", "weka"]


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
        >>> from labelrank.baselines import BinarySVM
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(40, 3)); Y = (X[:, :2] + 0.3 * rng.normal(size=(40, 2)) > 0).astype(int)
        >>> models = BinarySVM().fit_path(X, Y, "C", [0.01, 1.0, 100.0])
        >>> [m.C for m in models], models[2].converged_
        ([0.01, 1.0, 100.0], True)
        """
        models = self.copies_along(param, values)
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
