"""The gradient rankers, ListNet and LambdaRank: a linear or one-hidden-layer scoring function trained by
mini-batch Adam/SGD on the losses of :mod:`labelrank.rankers.losses`."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from labelrank.optional import require
from labelrank.parameters import NON_NEGATIVE, POSITIVE, SEED, Flag, Integer, Options
from labelrank.rankers._base import (
    _chunk_rows,
    _linear_scores,
    _Ranker,
)
from labelrank.rankers.losses import (
    LambdaMetric,
    ListNetTarget,
    _lambdas,
    listnet_target,
    log_softmax_rows,
)

numba = require("numba", "labelrank.rankers.gradient (the gradient rankers' compiled parameter update)")

#: Adam's constants (Kingma & Ba 2015): beta_1, beta_2, epsilon.
_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8


@numba.njit(cache=True, nogil=True)
def _update(p, g, m1, m2, lr, decay, adam, bias1, bias2):  # pragma: no cover - compiled
    """One step on the parameters ``p`` (flat, in place) from their gradient ``g``: ``g + decay * p`` (``decay``
    0: no penalty) then Adam's moments ``m1``, ``m2`` (in place; ``bias1``, ``bias2``: 1 - beta^t) or plain SGD.
    The arithmetic of each element is numpy's on whole arrays in the same order, so the same numbers, without a
    temporary array per operation (a test compares the two)."""
    for k in range(p.shape[0]):
        gk = g[k] + decay * p[k] if decay != 0.0 else g[k]
        if adam:
            m1[k] = _BETA1 * m1[k] + (1 - _BETA1) * gk
            m2[k] = _BETA2 * m2[k] + (1 - _BETA2) * gk * gk
            p[k] -= lr * (m1[k] / bias1) / (np.sqrt(m2[k] / bias2) + _EPS)
        else:
            p[k] -= lr * gk


class _Network:
    """The scoring function of the gradient rankers: linear, or one tanh hidden layer.

    ``hidden_units = 0``: :math:`f(z) = w \\cdot z`. ``hidden_units = h > 0``:
    :math:`f(z) = v \\cdot \\tanh(W^\\top z + b)` with Glorot-uniform initial ``W``, ``v`` and zero ``b``. No output
    bias: every loss here depends on score differences within a list only.
    """

    def __init__(self, d: int, hidden: int, rng: np.random.Generator):
        self.hidden = hidden
        if hidden == 0:
            self.params = [np.zeros(d)]
            self.decay = [True]
        else:
            lim1 = np.sqrt(6.0 / (d + hidden))
            lim2 = np.sqrt(6.0 / (hidden + 1))
            self.params = [rng.uniform(-lim1, lim1, (d, hidden)), np.zeros(hidden), rng.uniform(-lim2, lim2, hidden)]
            self.decay = [True, False, True]

    def forward(self, Zb: np.ndarray) -> tuple[np.ndarray, Any]:
        if self.hidden == 0:
            return Zb @ self.params[0], None
        W, b, v = self.params
        H = np.tanh(Zb @ W + b)
        return H @ v, H

    def backward(self, Zb: np.ndarray, cache: Any, dscores: np.ndarray) -> list[np.ndarray]:
        d = Zb.shape[-1]
        flat = Zb.reshape(-1, d)
        if self.hidden == 0:
            return [dscores.reshape(-1) @ flat]
        W, b, v = self.params
        H = cache.reshape(-1, self.hidden)
        ds = dscores.reshape(-1)
        gv = ds @ H
        dA = ds[:, None] * v[None, :] * (1.0 - H * H)
        return [flat.T @ dA, dA.sum(axis=0), gv]


class _GradientRanker(_Ranker):
    """Mini-batch training of a :class:`_Network` on a per-list loss (ListNet, LambdaRank).

    Subclasses define ``_usable(Y)`` (the mask of lists that take part), ``_targets(Y)`` (what the loss compares
    the scores with, per list, computed once per fit) and ``_list_gradient(S, T)`` (the gradient of each list's
    loss with respect to its scores ``S`` given the lists' targets ``T``, and the losses).

    Each epoch visits the usable lists in a fresh random order, ``batch_size`` lists per step, and takes one step
    on the batch's mean loss plus :math:`\\tfrac{\\alpha}{2} \\lVert \\text{weights} \\rVert^2` (hidden biases are
    not decayed) with Adam (Kingma & Ba 2015; :math:`\\beta_1 = 0.9`, :math:`\\beta_2 = 0.999`,
    :math:`\\epsilon = 10^{-8}`) or plain SGD.
    """

    parameter_constraints = {"alpha": NON_NEGATIVE, "learning_rate": POSITIVE, "epochs": Integer(),
                             "batch_size": Integer(), "hidden_units": Integer(minimum=0),
                             "optimizer": Options("adam", "sgd"), "standardize": Flag(), "random_state": SEED}

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        self._set_trained(*self._train(Z, Y, [float(self.learning_rate)])[0])

    def fit_learning_rates(self, Z: Any, Y: Any, learning_rates: Sequence[float]) -> list[Any]:
        """One fitted copy of this ranker per learning rate, all trained in one pass over the lists per epoch.

        Element ``j`` equals ``clone(self).set_params(learning_rate=learning_rates[j]).fit(Z, Y)`` exactly: the
        copies see the same lists in the same order (one seed), and each step computes the batch's standardised
        features once for all of them; each copy keeps its own weights and Adam moments. On a grid of learning
        rates this saves the gathering and standardising of every batch but one, the larger part of a linear
        ListNet's step (``benchmarks/bench_protocol.py --compare`` times it).

        Parameters
        ----------
        Z : array-like of shape (n, m, d)
        Y : array-like of shape (n, m)
        learning_rates : sequence of float
            Positive learning rates (repeats allowed).

        Returns
        -------
        list
            The fitted rankers, in the order of ``learning_rates``.
        """
        return self._fit_learning_rates(Z, Y, learning_rates)

    def _set_trained(self, net: _Network, curve: list[float], n_lists: int) -> None:
        self.loss_curve_ = curve
        self.n_lists_used_ = n_lists
        self._net = net
        if net.hidden == 0:
            self.coef_ = net.params[0]

    def _train(self, Z: np.ndarray, Y: np.ndarray, rates: list[float]) -> list[tuple[_Network, list[float], int]]:
        """Train one network per learning rate on the same sequence of batches: (network, loss curve, lists)."""
        rng = np.random.default_rng(self.random_state)
        first = _Network(Z.shape[2], int(self.hidden_units), rng)
        nets = [first] + [copy.deepcopy(first) for _ in rates[1:]]  # the same initial weights for every rate
        lists = np.flatnonzero(self._usable(Y))
        targets = self._targets(Y)
        # standardised once, in C order (a float64 copy of the training features): the cached meta-level
        # features are stored feature-major, and batches gathered from them would keep that layout (every
        # reshape in backward() a copy)
        Zs = self._standardized(Z)
        alpha, B = float(self.alpha), int(self.batch_size)
        adam = self.optimizer == "adam"
        # each parameter array as a flat view (they are C-contiguous: the step updates them in place) and its
        # Adam moments
        flat = [[p.reshape(-1) for p in net.params] for net in nets]
        assert all(np.shares_memory(f, p) for fs, net in zip(flat, nets) for f, p in zip(fs, net.params))
        m1 = [[np.zeros(f.size) for f in fs] for fs in flat]
        m2 = [[np.zeros(f.size) for f in fs] for fs in flat]
        t = 0
        curves: list[list[float]] = [[] for _ in rates]
        for _ in range(int(self.epochs)):
            order = lists[rng.permutation(lists.size)]
            epoch_loss = [0.0] * len(rates)
            for start in range(0, order.size, B):
                idx = order[start : start + B]
                Zb, Tb = Zs[idx], targets[idx]
                t += 1
                bias1, bias2 = 1 - _BETA1**t, 1 - _BETA2**t
                for j, (net, lr) in enumerate(zip(nets, rates)):
                    S, cache = net.forward(Zb)
                    dS, loss = self._list_gradient(S, Tb)
                    epoch_loss[j] += float(loss.sum())
                    grads = net.backward(Zb, cache, dS / idx.size)
                    for q, (p, g) in enumerate(zip(flat[j], grads)):
                        _update(p, np.ascontiguousarray(g).reshape(-1), m1[j][q], m2[j][q], float(lr),
                                alpha if net.decay[q] else 0.0, adam, bias1, bias2)
            for j in range(len(rates)):
                curves[j].append(epoch_loss[j] / max(order.size, 1))
        return [(net, curve, int(lists.size)) for net, curve in zip(nets, curves)]

    def _scores(self, Z: np.ndarray) -> np.ndarray:
        if self._net.hidden == 0:
            w = self.coef_ / self.scale_
            return _linear_scores(Z, w, -float(self.mean_ @ w))
        out = np.empty(Z.shape[:2])
        step = _chunk_rows(Z)
        for start in range(0, Z.shape[0], step):
            block = self._standardized(Z[start : start + step])
            out[start : start + step] = self._net.forward(block)[0]
        return out


class ListNet(_GradientRanker):
    r"""ListNet (Cao et al. 2007): top-one probability cross-entropy over each list of categories.

    Minimises :math:`\frac{1}{n} \sum_i L(y_i, f(Z_i)) + \frac{\alpha}{2} \lVert \text{weights} \rVert^2` with
    :math:`L` the cross-entropy of :func:`listnet_loss` between the top-one distributions of the labels and of the
    scores. Cao et al. train a linear neural network (:math:`f(\phi) = w \cdot \phi`) by gradient descent with one
    update per query; the default here is that linear model, trained with mini-batches of ``batch_size`` lists
    (``batch_size=1`` is Cao et al.'s per-query update; larger batches vectorise over lists) for ``epochs`` = 50
    passes (Yang & Gopal, section 3.4). The linear objective is convex. ``hidden_units > 0`` adds one tanh hidden
    layer.

    Parameters
    ----------
    alpha : float, default=1e-4
        L2 penalty on the weights.
    learning_rate : float, default=0.001
        Adam's step size (0.01 makes the loss oscillate on Reuters-21578 with k = 100).
    epochs : int, default=50
    batch_size : int, default=16
        Lists per gradient step.
    hidden_units : int, default=0
        0: linear scoring function; ``h > 0``: one tanh hidden layer of ``h`` units.
    optimizer : {"adam", "sgd"}, default="adam"
    target : {"softmax", "normalized"}, default="normalized"
        The target top-one distribution (:func:`listnet_loss`): the labels divided by their sum (lists with no
        relevant label are skipped), or Cao et al.'s literal softmax of the 0/1 labels. The softmax target is a
        poor fit for binary labels on long lists: it gives a single relevant label of Reuters-21578's 90 only
        :math:`e/(e + 89) \approx 3\%` of the mass, its minimum pins every relevant/irrelevant score gap at
        exactly 1, and the loss barely separates good from bad rankings (the target's entropy is 4.488, uniform
        scores give 4.500), so on such lists it trains unstably where the normalized target does not. The
        normalized target is the default for that reason.
    standardize : bool, default=True
        Standardise :math:`\phi` with training statistics (module docstring).
    random_state : int, default=0
        Seed of the list order per epoch (and of the hidden layer's initial weights).

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (d,)
        Linear model only: the weights on the standardised features.
    loss_curve_ : list of float
        Mean training loss of each epoch (each batch's loss taken before its step).
    mean_, scale_ : numpy.ndarray of shape (d,)
        The standardisation statistics.

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
    >>> ranker = ListNet(random_state=0).fit(Z, Y)
    >>> bool(ranker.coef_[0] > abs(ranker.coef_[1:]).max())  # the informative feature weighs most
    True
    >>> scores = ranker.decision_function(Z)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.9)
    ((40, 4), True)
    """

    parameter_constraints = {"target": Options("softmax", "normalized")}

    def __init__(self, alpha: float = 1e-4, learning_rate: float = 0.001, epochs: int = 50, batch_size: int = 16,
                 hidden_units: int = 0, optimizer: str = "adam", target: ListNetTarget = "normalized",
                 standardize: bool = True, random_state: int = 0):
        self.alpha = alpha
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.batch_size = batch_size
        self.hidden_units = hidden_units
        self.optimizer = optimizer
        self.target = target
        self.standardize = standardize
        self.random_state = random_state

    def _usable(self, Y: np.ndarray) -> np.ndarray:
        return listnet_target(Y, self.target)[1]

    def _targets(self, Y: np.ndarray) -> np.ndarray:
        return listnet_target(Y, self.target)[0]  # each list's top-one distribution P, row by row

    def _list_gradient(self, S, P):
        logp = log_softmax_rows(S)
        return np.exp(logp) - P, -(P * logp).sum(axis=1)


class LambdaRank(_GradientRanker):
    r"""LambdaRank (Burges, Ragno & Le 2007): RankNet's pairwise gradients scaled by the change in the metric.

    Each step moves the scores of a batch of lists along :func:`lambda_gradients`, the RankNet gradient of every
    relevant/irrelevant pair, :math:`-\sigma / (1 + e^{\sigma (s_i - s_j)})`, times :math:`|\Delta M_{ij}|`, the
    change in the list's metric if the two swapped places (:func:`delta_metric`; NDCG by default, MAP as an
    option; Burges et al. tune LambdaRank to several metrics, as Donmez et al. 2009 discuss), backpropagated to the
    parameters of the scoring function, plus the L2 penalty's gradient. The metric changes are recomputed from the
    current ranking at every step. Burges et al. train one- and two-layer nets; the default here is linear,
    ``hidden_units > 0`` gives one tanh hidden layer.

    Parameters
    ----------
    alpha : float, default=1e-4
        L2 penalty on the weights.
    learning_rate : float, default=0.001
        Adam's step size (0.01 makes the loss oscillate on Reuters-21578 with k = 100).
    epochs : int, default=50
    batch_size : int, default=16
    hidden_units : int, default=0
    optimizer : {"adam", "sgd"}, default="adam"
    metric : {"ndcg", "map", "none"}, default="ndcg"
        The metric whose :math:`|\Delta|` weights the pairs; "none" weights all pairs 1 (RankNet).
    sigma : float, default=1.0
        The slope :math:`\sigma` of RankNet's logistic.
    standardize : bool, default=True
    random_state : int, default=0

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (d,)
        Linear model only.
    loss_curve_ : list of float
        Mean :math:`|\Delta M|`-weighted RankNet cost (:func:`ranknet_cost`) of each epoch, per usable list.

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
    >>> ranker = LambdaRank(random_state=0).fit(Z, Y)
    >>> scores = ranker.decision_function(Z)
    >>> scores.shape, bool(average_precision(Y, scores) > 0.85)
    ((40, 4), True)
    """

    parameter_constraints = {"metric": Options("ndcg", "map", "none"), "sigma": POSITIVE}

    def __init__(self, alpha: float = 1e-4, learning_rate: float = 0.001, epochs: int = 50, batch_size: int = 16,
                 hidden_units: int = 0, optimizer: str = "adam", metric: LambdaMetric = "ndcg", sigma: float = 1.0,
                 standardize: bool = True, random_state: int = 0):
        self.alpha = alpha
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.batch_size = batch_size
        self.hidden_units = hidden_units
        self.optimizer = optimizer
        self.metric = metric
        self.sigma = sigma
        self.standardize = standardize
        self.random_state = random_state

    def _usable(self, Y: np.ndarray) -> np.ndarray:
        n_rel = Y.sum(axis=1)
        return (n_rel > 0) & (n_rel < Y.shape[1])

    def _targets(self, Y: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(Y, dtype=np.bool_)  # the type the compiled lambdas take

    def _list_gradient(self, S, Y):
        # lambda_gradients without its input checks (the batch comes from checked training data), but the
        # ranking needs finite scores, which a diverging step could break
        if not np.isfinite(S).all():
            raise ValueError("LambdaRank's scores became non-finite during training; lower the learning rate")
        return _lambdas(S, Y, self.metric, float(self.sigma))[:2]
