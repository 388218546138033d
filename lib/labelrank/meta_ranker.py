r"""``MetaLevelRanker``: Yang & Gopal's (2012) multi-label classifier, as one scikit-learn estimator.

The three components of section 2 in sequence:

1. meta-level features :math:`\phi(x, c)` (eq. 1-2) from the training data,
   :class:`labelrank.features.MetaLevelFeatures` (for the training instances an instance is never its own
   neighbour);
2. a learning-to-rank algorithm over :math:`\phi`, one scoring function shared by all categories
   (:mod:`labelrank.rankers`: ListNet, LambdaRank, RankSVM-IR, SVM-MAP, or LightGBM's lambdarank as a modern extra);
3. the instance-based LLSF threshold (section 2.3) fitted on the training instances' scores (the *non-splitting*
   strategy of section 3.4), :class:`labelrank.threshold.LLSFThreshold`.

``fit(X, Y)`` computes the training features and calls the same code as ``fit_features(Z, Y)``;
``decision_function(X)`` computes the test features and calls ``decision_function_features(Z)``. The ``*_features``
methods let an experiment compute the neighbours once (``MetaLevelFeatures(k=k_max).fit(X, Y)``,
``neighbor_distances().features(k)``) and fit many hyper-parameter settings on the same arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted, validate_data

from labelrank.parameters import (NON_NEGATIVE, POSITIVE, SEED, DeclaredParameters, FloatType, Integer, Jobs,
                                   Keywords, NoneOr, Options)
from labelrank.validation import check_fit_input, check_label_matrix, multilabel_tags
from labelrank.features import MetaLevelFeatures
from labelrank.rankers import RANKERS, check_meta_features, make_ranker
from labelrank.threshold import LLSFThreshold

__all__ = ["MetaLevelRanker"]

# which MetaLevelRanker parameter goes to which ranker parameter
_PARAM_MAP: dict[str, dict[str, str]] = {
    "listnet": {"alpha": "alpha", "learning_rate": "learning_rate", "epochs": "epochs"},
    "lambdarank": {"alpha": "alpha", "learning_rate": "learning_rate", "epochs": "epochs"},
    "ranksvm": {"C": "C"},
    "svmmap": {"C": "C"},
    "lightgbm": {"alpha": "reg_lambda", "learning_rate": "learning_rate"},
}
_EMPTY_LABEL_RULES = ("error", "last")

#: The rankers' methods that fit a sequence of values of one of their parameters together.
_PATHS = {"learning_rate": "fit_learning_rates", "C": "fit_path"}


class MetaLevelRanker(DeclaredParameters, BaseEstimator):
    r"""Multi-label learning to rank over meta-level features (Yang & Gopal 2012), with LLSF thresholds.

    Parameters
    ----------
    ranker : {"listnet", "lambdarank", "ranksvm", "svmmap", "lightgbm"}, default="listnet"
        The learning-to-rank algorithm (``labelrank.rankers.RANKERS``): MLC-ListNet, MLC-LambdaRank,
        MLC-RankSVM-IR, MLC-SVM-MAP of the paper's Table 6, or LightGBM's LambdaMART.
    k : int, default=10
        Neighbours per metric and category in :math:`\phi` (:math:`d = 3k + 2` features; the paper tunes 10..100).
    C : float or None, default=None
        Regularisation trade-off of the SVM rankers ("ranksvm", "svmmap"); ignored by the others. None: the
        ranker's default (0.01 per pair for RankSVM-IR, 100 for SVM-MAP, whose slack is averaged over instances).
    alpha : float or None, default=None
        L2 penalty of the gradient rankers ("listnet", "lambdarank") and LightGBM's ``reg_lambda``; None: the
        ranker's default.
    learning_rate : float or None, default=None
        Learning rate of "listnet", "lambdarank" and "lightgbm"; None: the ranker's default.
    epochs : int, default=50
        Passes over the training lists of "listnet" and "lambdarank" (50 in the paper, section 3.4).
    threshold : {"llsf"}, default="llsf"
        The instance-based LLSF threshold on rescaled scores, a linear map of the ranked list (section 2.3).
    empty_labels : {"error", "last"}, default="error"
        What to do with a label that has no positive training instance (its :math:`\phi` does not exist).
        "error": raise a ValueError naming the columns. "last": leave the label out of the features and the
        ranker, score it one below the lowest score of the other labels of the instance (ranked last), and never
        predict it; this keeps cross-validation folds of Reuters-21578, whose rarest categories have one or two
        training documents, usable.
    ranker_params : dict or None, default=None
        Further parameters of the ranker class (e.g. ``{"hidden_units": 16}``, ``{"metric": "map"}``,
        ``{"n_estimators": 300}``); they override the mapped parameters above. ``{"warm_start": True}`` (SVM-MAP)
        makes each refit on the same features, e.g. along a grid of ``C`` with ``set_params``, start from the
        previous fit.
    algorithm : {"exact", "approximate"}, default="exact"
        Neighbour search of :class:`~labelrank.features.MetaLevelFeatures`.
    dtype : {"float64", "float32"}, default="float64"
        dtype of the meta-level features (float32 halves their memory).
    n_jobs : int or None, default=None
        Threads of the neighbour search.
    random_state : int, default=0
        Seed of the ranker (and of an approximate neighbour index).

    Attributes
    ----------
    features_ : MetaLevelFeatures
        The fitted feature map (absent when fitted with :meth:`fit_features`).
    ranker_ : ListNet, LambdaRank, RankSVMIR, SVMMAP or LightGBMLambdaRank
        The fitted ranker; it standardises :math:`\phi` with the training mean and standard deviation of each
        feature (over all training (instance, label) pairs) before scoring; trees skip this.
    threshold_ : LLSFThreshold
        The threshold map fitted on the training instances' scores.
    n_features_in_ : int
        Input features of ``X`` (absent when fitted with :meth:`fit_features`).
    n_labels_ : int
    kept_labels_ : numpy.ndarray of bool, shape (n_labels,)
        The labels that have a positive training instance (all True unless ``empty_labels="last"`` dropped some);
        the meta-level features hold these labels only.

    Notes
    -----
    Feature standardisation: every ranker but LightGBM maps :math:`\phi` to :math:`(\phi - \mu) / \sigma` with
    the per-feature mean and standard deviation of the *training* meta-level features (over all training
    (instance, label) pairs) and applies the same map to test features (:mod:`labelrank.rankers`). The raw
    distances of eq. (1) have very different scales (cosine distances in [0, 2], L1 distances growing with the
    number of input features); without it one ``C`` or learning rate would weight the blocks arbitrarily.

    Rescale inputs whose features have incomparable ranges before fitting (the paper rescales *emotions* to unit
    variance, section 3.4): the distances in :math:`\phi` are taken on ``X`` as given.

    Invalid input raises a ValueError (TypeError for the wrong kind of object) naming the argument: ``X`` and
    ``Y`` with different numbers of rows, fewer than 2 instances, ``Y`` not 0/1 or not 2-D, a label without
    positive instance (with ``empty_labels="error"``), NaN or infinite features, bad hyper-parameters.

    References
    ----------
    Y. Yang, S. Gopal (2012). Multilabel classification with meta-level features in a learning-to-rank framework.
    Machine Learning 88, 47-68.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3)); Y = (X[:, :2] + 0.3 * rng.normal(size=(40, 2)) > 0).astype(int)
    >>> model = MetaLevelRanker(ranker="svmmap", k=3).fit(X, Y)
    >>> model.decision_function(X[:2]).shape, model.predict(X[:2]).shape
    ((2, 2), (2, 2))
    """

    parameter_constraints = {"ranker": Options(*RANKERS), "k": Integer(), "C": NoneOr(POSITIVE),
                             "alpha": NoneOr(NON_NEGATIVE), "learning_rate": NoneOr(POSITIVE), "epochs": Integer(),
                             "threshold": Options("llsf"), "empty_labels": Options(*_EMPTY_LABEL_RULES),
                             "ranker_params": Keywords(), "algorithm": Options("exact", "approximate"),
                             "dtype": FloatType(), "n_jobs": Jobs(), "random_state": SEED}

    def __init__(
        self,
        ranker: str = "listnet",
        k: int = 10,
        C: float | None = None,
        alpha: float | None = None,
        learning_rate: float | None = None,
        epochs: int = 50,
        threshold: Literal["llsf"] = "llsf",
        empty_labels: Literal["error", "last"] = "error",
        ranker_params: dict[str, Any] | None = None,
        algorithm: Literal["exact", "approximate"] = "exact",
        dtype: str = "float64",
        n_jobs: int | None = None,
        random_state: int = 0,
    ):
        self.ranker = ranker
        self.k = k
        self.C = C
        self.alpha = alpha
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.threshold = threshold
        self.empty_labels = empty_labels
        self.ranker_params = ranker_params
        self.algorithm = algorithm
        self.dtype = dtype
        self.n_jobs = n_jobs
        self.random_state = random_state

    def __sklearn_tags__(self):
        return multilabel_tags(super().__sklearn_tags__())

    # ---- parameters -------------------------------------------------------------------------------------------

    def _make_ranker(self):
        self.check_params()
        extra = {} if self.ranker_params is None else self.ranker_params
        params: dict[str, Any] = {"random_state": self.random_state}
        for ours, theirs in _PARAM_MAP[self.ranker].items():
            value = getattr(self, ours)
            if value is not None:
                params[theirs] = value
        params.update(extra)
        try:
            ranker = make_ranker(self.ranker, **params)
        except TypeError as exc:
            raise TypeError(f"ranker_params has a parameter that {self.ranker!r} does not take: {exc}") from exc
        ranker.check_params()
        return ranker

    def _kept_labels(self, Y: np.ndarray) -> np.ndarray:
        kept = Y.any(axis=0)
        if not kept.all():
            empty = np.flatnonzero(~kept)
            shown = ", ".join(str(c) for c in empty[:10]) + (", ..." if empty.size > 10 else "")
            if self.empty_labels == "error" or not kept.any():
                raise ValueError(
                    f"Y has {empty.size} column(s) with no positive training instance (columns {shown}); "
                    "phi(x, c) needs at least one member of c: drop those labels, or pass empty_labels='last' "
                    "to rank them last and never predict them"
                    + ("" if kept.any() else " (but at least one label needs a positive instance)")
                )
        return kept

    # ---- fitting ----------------------------------------------------------------------------------------------

    def fit(self, X: Any, Y: Any) -> MetaLevelRanker:
        """Compute the training instances' meta-level features, fit the ranker and the LLSF threshold.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n, n_features)
        Y : array-like of shape (n, n_labels)
            0/1 relevance.

        Returns
        -------
        self
        """
        ranker = self._make_ranker()
        X, Y = check_fit_input(self, X, Y, ensure_min_samples=2)
        kept = self._kept_labels(Y)
        features = MetaLevelFeatures(k=self.k, algorithm=self.algorithm, dtype=self.dtype, n_jobs=self.n_jobs,
                                     random_state=self.random_state)
        Z = features.fit_transform(X, Y if kept.all() else Y[:, kept])
        self._fit_features(Z, Y, ranker)
        self.features_ = features
        return self

    def fit_features(self, Z: Any, Y: Any) -> MetaLevelRanker:
        """Fit the ranker and the threshold on precomputed training features (the code path of :meth:`fit`).

        Parameters
        ----------
        Z : array-like of shape (n, n_kept, 3k + 2)
            :math:`\\phi(x_i, c)` of the training instances (each excluded from its own neighbours), e.g.
            ``MetaLevelFeatures(k=k).fit_transform(X, Y)`` or a slice ``neighbor_distances().features(k)``;
            ``n_kept`` is the number of labels of ``Y`` with a positive instance (all of them unless
            ``empty_labels="last"``), in column order. ``k`` is read from ``Z``, not from ``self.k``.
        Y : array-like of shape (n, n_labels)

        Returns
        -------
        self
        """
        ranker = self._make_ranker()
        for name in ("features_", "n_features_in_", "feature_names_in_"):
            self.__dict__.pop(name, None)
        self._fit_features(Z, Y, ranker)
        return self

    def fit_features_path(self, Z: Any, Y: Any, param: str, values: Sequence[Any]) -> list[MetaLevelRanker]:
        """One fitted copy per value of ``param``, as ``clone(self).set_params(**{param: v}).fit_features(Z, Y)``
        gives it, fitted together where the ranker can.

        * ``"learning_rate"`` of "listnet" and "lambdarank": one pass over the lists per epoch for every rate
          (:meth:`labelrank.rankers.ListNet.fit_learning_rates`); of "lightgbm": the features binned once for
          every rate (:meth:`labelrank.rankers.LightGBMLambdaRank.fit_learning_rates`); the same numbers as the
          single fits, exactly.
        * ``"C"`` of "ranksvm" and "svmmap": one problem built once, each value warm-started from the previous
          one's solution (:meth:`labelrank.rankers.RankSVMIR.fit_path`, :meth:`labelrank.rankers.SVMMAP.fit_path`);
          the same optima as the single fits within the solver's tolerance.
        * anything else: one fit after another.

        The experiment engine's full grid search fits a method's path axis so.

        Parameters
        ----------
        Z : array-like of shape (n, n_kept, 3k + 2)
            As for :meth:`fit_features`.
        Y : array-like of shape (n, n_labels)
        param : str
            A parameter of this estimator.
        values : sequence
            Its values, fitted in this order.

        Returns
        -------
        list of MetaLevelRanker
            Fitted copies, in the order of ``values``.

        Examples
        --------
        >>> import numpy as np
        >>> from labelrank.features import MetaLevelFeatures
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(40, 3)); Y = (X[:, :2] + 0.3 * rng.normal(size=(40, 2)) > 0).astype(int)
        >>> Z = MetaLevelFeatures(k=3).fit_transform(X, Y)
        >>> models = MetaLevelRanker(ranker="ranksvm", k=3).fit_features_path(Z, Y, "C", [0.01, 1.0])
        >>> [m.C for m in models], models[1].ranker_.converged_
        ([0.01, 1.0], True)
        """
        models = self.copies_along(param, values)
        rankers = [model._make_ranker() for model in models]
        Z, Y, kept = self._check_features(Z, Y)
        theirs = _PARAM_MAP[self.ranker].get(param)
        path = getattr(rankers[0], _PATHS.get(theirs, ""), None)
        if path is not None and len({type(r) for r in rankers}) == 1:
            # ranker_params may override the value: fit each copy at the value its ranker was given
            fitted = path(Z, Y[:, kept], [getattr(r, theirs) for r in rankers])
        else:
            fitted = [ranker.fit(Z, Y[:, kept]) for ranker in rankers]
        for model, ranker in zip(models, fitted):
            model._set_fitted(Z, Y, kept, ranker)
        return models

    def fit_features_learning_rates(self, Z: Any, Y: Any, learning_rates: Sequence[float]) -> list[MetaLevelRanker]:
        """One fitted copy per learning rate, each as ``clone(self).set_params(learning_rate=lr).fit_features(Z, Y)``
        gives it, exactly: :meth:`fit_features_path` along ``"learning_rate"``.

        Parameters
        ----------
        Z : array-like of shape (n, n_kept, 3k + 2)
            As for :meth:`fit_features`.
        Y : array-like of shape (n, n_labels)
        learning_rates : sequence of float

        Returns
        -------
        list of MetaLevelRanker
            Fitted copies, in the order of ``learning_rates``.
        """
        if isinstance(learning_rates, (str, bytes)) or not hasattr(learning_rates, "__len__"):
            raise TypeError(f"learning_rates must be a sequence of positive floats, got {learning_rates!r}")
        if len(learning_rates) == 0:
            raise ValueError("learning_rates must hold at least one learning rate, got an empty sequence")
        return self.fit_features_path(Z, Y, "learning_rate", learning_rates)

    def _fit_features(self, Z: Any, Y: Any, ranker) -> None:
        Z, Y, kept = self._check_features(Z, Y)
        previous = getattr(self, "ranker_", None)
        if getattr(ranker, "warm_start", False) and type(previous) is type(ranker):
            ranker._take_warm_start(previous)  # ranker_params={"warm_start": True}: continue from the last fit
        self._set_fitted(Z, Y, kept, ranker.fit(Z, Y[:, kept]))

    def _set_fitted(self, Z: np.ndarray, Y: np.ndarray, kept: np.ndarray, ranker) -> None:
        """Keep the fitted ranker and fit the LLSF threshold on its training scores."""
        self.kept_labels_ = kept
        self.n_labels_ = Y.shape[1]
        self.ranker_ = ranker
        train_scores = self._all_scores(self.ranker_._training_scores(Z))
        self.threshold_ = LLSFThreshold().fit(train_scores, Y)

    def _check_features(self, Z: Any, Y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Validated ``Z``, ``Y`` and the mask of the labels kept (those with a positive instance)."""
        Z = check_meta_features(Z, "Z")
        if Y is None:
            raise ValueError("Y must be a label matrix of shape (n_instances, n_labels), got None")
        Y = check_label_matrix(Y, "Y")
        if Y.shape[0] != Z.shape[0]:
            raise ValueError(
                f"Z and Y must have the same number of rows (instances), got Z with {Z.shape[0]} rows and Y with "
                f"{Y.shape[0]} rows"
            )
        if Y.shape[0] < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 training instances, got {Y.shape[0]}")
        kept = self._kept_labels(Y)
        if Z.shape[1] != kept.sum():
            raise ValueError(
                f"Z must have one column per label of Y with a positive instance ({int(kept.sum())} of "
                f"{Y.shape[1]}), got {Z.shape[1]}"
            )
        return Z, Y, kept

    # ---- prediction -------------------------------------------------------------------------------------------

    def _all_scores(self, kept_scores: np.ndarray) -> np.ndarray:
        if self.kept_labels_.all():
            return kept_scores
        scores = np.empty((kept_scores.shape[0], self.n_labels_))
        scores[:, self.kept_labels_] = kept_scores
        scores[:, ~self.kept_labels_] = kept_scores.min(axis=1, keepdims=True) - 1.0
        return scores

    def decision_function_features(self, Z: Any) -> np.ndarray:
        """Label scores of shape (n, n_labels) from precomputed features ``Z`` of shape (n, n_kept, d)."""
        check_is_fitted(self, "threshold_")
        Z = check_meta_features(Z, "Z")
        n_kept = int(self.kept_labels_.sum())
        if Z.shape[1] != n_kept:
            raise ValueError(f"Z must have {n_kept} label columns (the labels kept at fit), got {Z.shape[1]}")
        return self._all_scores(self.ranker_.decision_function(Z))

    def predict_features(self, Z: Any) -> np.ndarray:
        """0/1 decisions of shape (n, n_labels) from precomputed features: the LLSF-thresholded scores."""
        pred = self.threshold_.predict(self.decision_function_features(Z))
        pred[:, ~self.kept_labels_] = 0
        return pred

    def _features(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "threshold_")
        if not hasattr(self, "features_"):
            raise NotFittedError(
                f"This {type(self).__name__} was fitted with fit_features on precomputed features; score new data "
                "with decision_function_features / predict_features"
            )
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        return self.features_.transform(X)

    def decision_function(self, X: Any) -> np.ndarray:
        """Label scores of shape (n, n_labels), higher = more relevant."""
        return self.decision_function_features(self._features(X))

    def predict(self, X: Any) -> np.ndarray:
        """0/1 decisions of shape (n, n_labels): labels scoring at or above the instance's LLSF threshold."""
        return self.predict_features(self._features(X))
