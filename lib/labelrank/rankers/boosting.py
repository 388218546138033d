"""LightGBM's LambdaMART on the meta-level features: a maintained booster as an extra, modern column."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from labelrank.optional import require
from labelrank.parameters import NON_NEGATIVE, POSITIVE, SEED, Integer
from labelrank.rankers._base import _Ranker


class LightGBMLambdaRank(_Ranker):
    r"""LightGBM's LambdaMART (``LGBMRanker(objective="lambdarank")``) on the same meta-level features.

    The modern extra column: gradient-boosted regression trees fitted to LambdaRank gradients (NDCG weights),
    each instance a query group of its ``m`` categories. Trees are invariant to the standardisation, so none is
    done. Training is made reproducible with ``deterministic=True``, ``force_col_wise=True``, a fixed ``seed``
    and ``n_jobs`` threads. Column-wise histograms give the same trees as row-wise ones (each bin's sum runs over
    the rows in the same order) and are faster on the meta-level features' many rows and few columns.

    Parameters
    ----------
    n_estimators : int, default=300
        Boosting rounds.
    learning_rate : float, default=0.03
    num_leaves : int, default=4
    min_child_samples : int, default=100
        Small, heavily populated trees: :math:`\phi` has few, smooth features, and LightGBM's usual 31 leaves
        overfit the short training sets (emotions, 391 lists: MAP 0.744 with 15 leaves and 20 samples per leaf,
        0.793 with these defaults). Tune them with the other hyper-parameters.
    reg_lambda : float, default=0.0
        L2 penalty on the leaf values.
    n_jobs : int, default=1
    random_state : int, default=0

    Attributes
    ----------
    booster_ : lightgbm.Booster
    params_ : dict
        The parameters given to :func:`lightgbm.train`.

    Examples
    --------
    Lists of 4 labels whose first feature is informative:

    >>> import numpy as np
    >>> from labelrank.metrics import average_precision
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.integers(0, 2, size=(200, 4))
    >>> Y[:, 0] = 1 - Y[:, 1]  # every list has a relevant and an irrelevant label
    >>> Z = rng.normal(size=(200, 4, 3))  # 4 labels per list, 3 features per (instance, label)
    >>> Z[..., 0] += 2 * Y  # the first feature is larger for the relevant labels
    >>> ranker = LightGBMLambdaRank(random_state=0).fit(Z, Y)
    >>> scores = ranker.decision_function(Z)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9)
    ((200, 4), True)
    """

    _standardizes = False
    parameter_constraints = {"n_estimators": Integer(), "learning_rate": POSITIVE, "num_leaves": Integer(minimum=2),
                             "min_child_samples": Integer(), "reg_lambda": NON_NEGATIVE, "n_jobs": Integer(),
                             "random_state": SEED}

    def __init__(self, n_estimators: int = 300, learning_rate: float = 0.03, num_leaves: int = 4,
                 min_child_samples: int = 100, reg_lambda: float = 0.0, n_jobs: int = 1, random_state: int = 0):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.reg_lambda = reg_lambda
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        self._set_trained(*self._train(Z, Y, [float(self.learning_rate)])[0])

    def fit_learning_rates(self, Z: Any, Y: Any, learning_rates: Sequence[float]) -> list[LightGBMLambdaRank]:
        """One fitted copy of this ranker per learning rate, the features binned once for all of them.

        Element ``j`` equals ``clone(self).set_params(learning_rate=learning_rates[j]).fit(Z, Y)`` exactly (the
        same trees): LightGBM's bins depend on the features and the binning parameters, not on the learning rate,
        so one :class:`lightgbm.Dataset` serves every rate, and the binning, a sizeable part of a fit on many
        rows, is done once.

        Parameters
        ----------
        Z : array-like of shape (n, m, d)
        Y : array-like of shape (n, m)
        learning_rates : sequence of float
            Positive learning rates (repeats allowed).

        Returns
        -------
        list of LightGBMLambdaRank
            The fitted rankers, in the order of ``learning_rates``; this ranker itself stays unfitted.
        """
        return self._fit_learning_rates(Z, Y, learning_rates)

    def _params(self, learning_rate: float) -> dict[str, Any]:
        """The parameters ``lightgbm.LGBMRanker`` gives :func:`lightgbm.train` for this ranker's settings (less its
        evaluation settings, which do nothing without a validation set)."""
        return {
            "objective": "lambdarank", "boosting_type": "gbdt", "learning_rate": float(learning_rate),
            "num_leaves": int(self.num_leaves), "max_depth": -1, "min_child_samples": int(self.min_child_samples),
            "min_child_weight": 1e-3, "min_split_gain": 0.0, "reg_alpha": 0.0, "reg_lambda": float(self.reg_lambda),
            "subsample": 1.0, "subsample_freq": 0, "colsample_bytree": 1.0, "subsample_for_bin": 200000,
            "random_state": int(self.random_state), "num_threads": int(self.n_jobs), "deterministic": True,
            "force_col_wise": True, "verbose": -1,
        }

    def _train(self, Z: np.ndarray, Y: np.ndarray, rates: list[float]) -> list[tuple[Any, dict[str, Any], Any]]:
        """(booster, parameters, training scores) per learning rate, trained on one Dataset of the lists' rows.

        The training scores are the booster's own, which it updates tree by tree as it trains: the numbers
        ``booster.predict`` gives on the training rows (summed over the same trees in the same order), without
        another pass over the trees."""
        lightgbm = require("lightgbm", "LightGBMLambdaRank")

        n, m, d = Z.shape
        data = lightgbm.Dataset(Z.reshape(n * m, d), Y.reshape(-1), group=np.full(n, m), params=self._params(rates[0]))
        out = []
        for rate in rates:
            params = self._params(rate)
            booster = lightgbm.train(params, data, num_boost_round=int(self.n_estimators),
                                     keep_training_booster=True)
            scores = []
            booster.eval_train(feval=lambda preds, _: _keep(scores, preds))
            # what lightgbm.train does without keep_training_booster: the model reloaded, the data let go
            booster.model_from_string(booster.model_to_string()).free_dataset()
            out.append((booster, params, scores[0].reshape(n, m)))
        return out

    def _set_trained(self, booster: Any, params: dict[str, Any], train_scores: np.ndarray) -> None:
        self.booster_ = booster
        self.params_ = params
        self._fit_scores = train_scores

    def _scores(self, Z: np.ndarray) -> np.ndarray:
        n, m, d = Z.shape
        return self.booster_.predict(Z.reshape(n * m, d), num_threads=int(self.n_jobs)).reshape(n, m)


def _keep(kept: list, preds: np.ndarray) -> tuple[str, float, bool]:
    """A LightGBM evaluation function that appends the scores it is handed (``Booster.eval_train`` hands it the
    training scores) to ``kept`` and reports nothing of interest."""
    kept.append(np.array(preds, dtype=float))
    return "kept", 0.0, True
