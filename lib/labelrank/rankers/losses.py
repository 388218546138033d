"""The list losses of the gradient rankers: ListNet's top-one cross-entropy (Cao et al. 2007) and RankNet /
LambdaRank's pairwise gradients weighted by |delta NDCG| or |delta AP| (Burges et al. 2007)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from scipy.special import softmax

from labelrank.optional import require
from labelrank.validation import (
    check_choice,
    check_label_matrix,
    check_score_matrix,
)
from labelrank.parameters import POSITIVE

numba = require("numba", "labelrank.rankers.losses (LambdaRank's compiled kernel)")

# ----------------------------------------------------------------------------------------------------------------
# ListNet: top-one probabilities and cross-entropy
# ----------------------------------------------------------------------------------------------------------------

ListNetTarget = Literal["softmax", "normalized"]


def log_softmax_rows(S: np.ndarray) -> np.ndarray:
    """``scipy.special.log_softmax(S, axis=1)`` for a 2-D float array, by the same operations in the same order
    (so the same numbers) without scipy's array-API dispatch, which cost more than the arithmetic on a training
    batch (a test compares the two)."""
    top = S.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    shifted = S - top
    with np.errstate(divide="ignore"):
        return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def listnet_target(Y: np.ndarray, target: str) -> tuple[np.ndarray, np.ndarray]:
    """The target top-one distribution of each list and a mask of the lists that have one."""
    Yf = Y.astype(np.float64)
    if target == "softmax":
        return softmax(Yf, axis=1), np.ones(len(Y), dtype=bool)
    n_rel = Yf.sum(axis=1)
    usable = n_rel > 0
    P = np.divide(Yf, n_rel[:, None], out=np.zeros_like(Yf), where=usable[:, None])
    return P, usable


def _checked_lists(scores: Any, Y: Any, target: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores as float64, the target distributions P, which lists have one) after checking the inputs."""
    target = check_choice(target, "target", ("softmax", "normalized"))
    S = np.asarray(scores, dtype=np.float64)
    Y = check_label_matrix(Y, "Y")
    if S.shape != Y.shape:
        raise ValueError(f"scores and Y must have the same shape, got {S.shape} and {Y.shape}")
    P, usable = listnet_target(Y, target)
    return S, P, usable


def listnet_loss(scores: Any, Y: Any, target: ListNetTarget = "softmax") -> np.ndarray:
    r"""ListNet's loss of each list: the cross-entropy between the top-one distributions of labels and scores.

    .. math::

        L(y, s) = -\sum_{c=1}^{m} P_y(c) \log P_s(c), \qquad P_s(c) = \frac{e^{s_c}}{\sum_{c'} e^{s_{c'}}}

    (Cao et al. 2007, eq. 1-3 with :math:`\phi = \exp`). The target :math:`P_y` is ``"softmax"``, Cao et al.'s
    top-one probability of the relevance labels, :math:`P_y(c) = e^{y_c} / \sum_{c'} e^{y_{c'}}` (a relevant
    category gets :math:`e \approx 2.72` times the mass of an irrelevant one), or ``"normalized"``,
    :math:`P_y(c) = y_c / |R|` (all mass on the relevant categories; a list with no relevant category has no
    target and loss 0).

    Parameters
    ----------
    scores : array-like of shape (n_lists, m)
    Y : array-like of shape (n_lists, m)
        0/1 relevance.
    target : {"softmax", "normalized"}

    Returns
    -------
    numpy.ndarray of shape (n_lists,)

    Examples
    --------
    >>> float(listnet_loss([[0.0, 0.0]], [[1, 0]], target="normalized")[0])   # -log(1/2)
    0.6931471805599453
    """
    S, P, usable = _checked_lists(scores, Y, target)
    return np.where(usable, -(P * log_softmax_rows(S)).sum(axis=1), 0.0)


def listnet_gradient(scores: Any, Y: Any, target: ListNetTarget = "softmax") -> np.ndarray:
    r"""Gradient of :func:`listnet_loss` with respect to the scores: :math:`\partial L / \partial s_c = P_s(c) -
    P_y(c)` (0 for a list without target), shape (n_lists, m).

    Parameters
    ----------
    scores : array-like of shape (n_lists, m)
        The scores of the m labels of each list.
    Y : array-like of shape (n_lists, m)
        0/1 relevance.
    target : {"softmax", "uniform"}
        As in :func:`listnet_loss`.

    Returns
    -------
    numpy.ndarray of shape (n_lists, m)

    Examples
    --------
    >>> import numpy as np
    >>> listnet_gradient(np.array([[2.0, 0.0, 1.0]]), np.array([[1, 0, 1]])).round(3)
    array([[ 0.243, -0.065, -0.178]])
    """
    S, P, usable = _checked_lists(scores, Y, target)
    return np.where(usable[:, None], softmax(S, axis=1) - P, 0.0)


# ----------------------------------------------------------------------------------------------------------------
# RankNet / LambdaRank
# ----------------------------------------------------------------------------------------------------------------

LambdaMetric = Literal["ndcg", "map", "none"]


_METRIC_CODES = {"none": 0, "ndcg": 1, "map": 2}


@numba.njit(cache=True, nogil=True)
def _lambda_lists(S, Yb, metric, sigma, grad, cost, delta):  # pragma: no cover - compiled
    r"""For each list: ``grad`` (+=) and ``cost`` (=) of :func:`lambda_gradients`, and, when ``delta`` is not empty,
    :math:`|\Delta M|` of every relevant/irrelevant pair in both orders (:func:`delta_metric`). ``metric``: 0 none,
    1 NDCG, 2 MAP. Positions follow :func:`labelrank.metrics.rank_labels` (decreasing score, ties to the larger
    column index): a stable sort of the negated scores taken from the last column to the first."""
    n, m = S.shape
    fill = delta.shape[0] > 0
    disc = 1.0 / np.log2(1.0 + np.arange(1, m + 1))
    keys = np.empty(m)
    pos = np.empty(m, dtype=np.int64)
    c = np.zeros(m)  # MAP: relevant labels at or above each label's position ...
    H = np.zeros(m)  # ... and the sum of 1/q over those positions q
    for i in range(n):
        n_rel = 0
        for t in range(m):
            n_rel += Yb[i, t]
        cost[i] = 0.0
        if n_rel == 0 or n_rel == m:
            continue
        for t in range(m):
            keys[t] = -S[i, m - 1 - t]
        order = np.argsort(keys, kind="mergesort")
        ideal, above, harmonic = 0.0, 0.0, 0.0
        for r in range(m):
            label = m - 1 - order[r]
            pos[label] = r + 1
            if Yb[i, label]:
                above += 1.0
                harmonic += 1.0 / (r + 1)
            c[label], H[label] = above, harmonic
        for r in range(n_rel):
            ideal += disc[r]
        for a in range(m):
            if not Yb[i, a]:
                continue
            for b in range(m):
                if Yb[i, b]:
                    continue
                if metric == 1:
                    d = abs(disc[pos[a] - 1] - disc[pos[b] - 1]) / ideal
                elif metric == 2:
                    pa, pb = float(pos[a]), float(pos[b])
                    if pa < pb:  # the relevant label moves down
                        d = abs(c[b] / pb - c[a] / pa - (H[b] - H[a])) / n_rel
                    else:
                        d = abs((c[b] + 1.0) / pb - c[a] / pa + (H[a] - 1.0 / pa - H[b])) / n_rel
                else:
                    d = 1.0
                x = -sigma * (S[i, a] - S[i, b])
                lam = -sigma * (1.0 / (1.0 + np.exp(-x))) * d  # scipy's expit(x)
                # numpy's logaddexp(0, x)
                cost[i] += d * (np.log(2.0) if x == 0.0 else (x + np.log1p(np.exp(-x)) if x > 0 else
                                                              np.log1p(np.exp(x))))
                grad[i, a] += lam
                grad[i, b] -= lam
                if fill:
                    delta[i, a, b] = d
                    delta[i, b, a] = d


def _lambdas(S: np.ndarray, Yb: np.ndarray, metric: str, sigma: float,
             with_delta: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, m = S.shape
    grad, cost = np.zeros((n, m)), np.zeros(n)
    delta = np.zeros((n, m, m) if with_delta else (0, 0, 0))
    _lambda_lists(np.ascontiguousarray(S, dtype=np.float64), np.ascontiguousarray(Yb, dtype=np.bool_),
                  _METRIC_CODES[metric], float(sigma), grad, cost, delta)
    return grad, cost, delta


def _check_scores_labels(scores: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
    S = check_score_matrix(scores, "scores")  # finite, as the ranking needs
    Yb = check_label_matrix(Y, "Y").astype(bool)
    if S.shape != Yb.shape:
        raise ValueError(f"scores and Y must have the same shape, got {S.shape} and {Yb.shape}")
    return S, Yb


def delta_metric(scores: Any, Y: Any, metric: LambdaMetric = "ndcg") -> np.ndarray:
    r""":math:`|\Delta M_{ij}|`: how much a list's metric changes when labels ``i`` and ``j`` swap ranks.

    The ranking is by descending score, ties broken as in the metrics (:func:`labelrank.metrics.rank_labels`,
    MULAN's rule: the larger column index first). Only pairs of a relevant ``i`` and an
    irrelevant ``j`` (or the reverse) can change the metric; all other entries, and lists with no relevant label,
    are 0. The result is symmetric in ``(i, j)``.

    * ``"ndcg"`` (binary gains, :math:`D(r) = 1/\log_2(1 + r)`):
      :math:`|\Delta NDCG_{ij}| = |D(r_i) - D(r_j)| / IDCG`, :math:`IDCG = \sum_{k=1}^{|R|} D(k)`.
    * ``"map"``: with positions :math:`a = r_i` (relevant), :math:`b = r_j` (irrelevant), :math:`c(p)` the number
      of relevant labels at positions :math:`\le p` and :math:`H(p) = \sum_{q \le p, \text{relevant}} 1/q`,

      .. math::

          |R|\,\Delta AP_{ij} = \begin{cases}
          c(b)/b - c(a)/a - (H(b) - H(a)) & a < b \text{ (the relevant label moves down)} \\
          (c(b) + 1)/b - c(a)/a + (H(a) - 1/a - H(b)) & a > b \text{ (it moves up)}
          \end{cases}

      (the moved label's precision changes, and each relevant label between the two positions loses or gains
      one relevant label above it).
    * ``"none"``: 1 for every relevant/irrelevant pair (LambdaRank then reduces to RankNet).

    Parameters
    ----------
    scores : array-like of shape (n_lists, m)
        The scores of the m labels of each list.
    Y : array-like of shape (n_lists, m)
        0/1 relevance.
    metric : {"ndcg", "map", "none"}
        The metric whose change is measured (``"none"``: 1 for every relevant/irrelevant pair).

    Returns
    -------
    numpy.ndarray of shape (n_lists, m, m)

    Examples
    --------
    Labels 0 and 2 are relevant; scores rank them 3rd and 2nd. Swapping labels 0 and 1 would put a relevant label
    on top (AP from 0.583 to 1, a change of 0.4167):

    >>> import numpy as np
    >>> delta_metric(np.array([[0.0, 2.0, 1.0]]), np.array([[1, 0, 1]]), metric="map").round(4)
    array([[[0.    , 0.4167, 0.    ],
            [0.4167, 0.    , 0.25  ],
            [0.    , 0.25  , 0.    ]]])
    """
    metric = check_choice(metric, "metric", ("ndcg", "map", "none"))
    S, Yb = _check_scores_labels(scores, Y)
    return _lambdas(S, Yb, metric, 1.0, with_delta=True)[2]


def ranknet_cost(scores: Any, Y: Any, sigma: float = 1.0, weights: Any = None) -> np.ndarray:
    r"""RankNet's cost of each list over its relevant/irrelevant pairs (Burges et al. 2005):

    .. math::

        C = \sum_{i \in R} \sum_{j \notin R} w_{ij} \log\big(1 + e^{-\sigma (s_i - s_j)}\big)

    with :math:`w_{ij} = 1`, or the given ``weights`` of shape (n_lists, m, m) (e.g. :func:`delta_metric`).

    Parameters
    ----------
    scores : array-like of shape (n_lists, m)
        The scores of the m labels of each list.
    Y : array-like of shape (n_lists, m)
        0/1 relevance.
    sigma : float, default=1.0
        The slope of the pair's logistic.
    weights : array-like of shape (n_lists, m, m), optional
        :math:`w_{ij}`; 1 for every pair by default.

    Returns
    -------
    numpy.ndarray of shape (n_lists,)

    Examples
    --------
    >>> import numpy as np
    >>> ranknet_cost(np.array([[0.0, 2.0, 1.0]]), np.array([[1, 0, 1]])).round(4)
    array([3.4402])
    """
    S = np.asarray(scores, dtype=np.float64)
    Y = check_label_matrix(Y, "Y").astype(bool)
    if S.shape != Y.shape:
        raise ValueError(f"scores and Y must have the same shape, got {S.shape} and {Y.shape}")
    sigma = POSITIVE.check(sigma, "sigma")
    pair = Y[:, :, None] & ~Y[:, None, :]
    diff = S[:, :, None] - S[:, None, :]
    cost = np.logaddexp(0.0, -sigma * diff)
    W = pair if weights is None else pair * np.asarray(weights, dtype=np.float64)
    return (W * cost).sum(axis=(1, 2))


def lambda_gradients(
    scores: Any, Y: Any, metric: LambdaMetric = "ndcg", sigma: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    r"""LambdaRank's gradients :math:`\lambda_c = \partial C / \partial s_c` of each list (Burges et al. 2007).

    For a relevant ``i`` and an irrelevant ``j``,

    .. math::

        \lambda_{ij} = -\frac{\sigma}{1 + e^{\sigma (s_i - s_j)}}\, |\Delta M_{ij}|, \qquad
        \lambda_c = \sum_{j:\,(c, j)} \lambda_{cj} - \sum_{i:\,(i, c)} \lambda_{ic},

    the RankNet gradient of the pair scaled by the change :math:`|\Delta M_{ij}|` of the metric when the two swap
    places (:func:`delta_metric`; ``metric="none"`` gives RankNet's gradient). Gradient *descent* on the scores
    moves relevant labels up. With the weights held fixed, :math:`\lambda` is the gradient of
    :func:`ranknet_cost` with ``weights = delta_metric(...)``.

    Parameters
    ----------
    scores : array-like of shape (n_lists, m)
        The scores of the m labels of each list.
    Y : array-like of shape (n_lists, m)
        0/1 relevance.
    metric : {"ndcg", "map", "none"}
        As in :func:`delta_metric`.
    sigma : float, default=1.0
        As in :func:`ranknet_cost`.

    Returns
    -------
    lambdas : numpy.ndarray of shape (n_lists, m)
    cost : numpy.ndarray of shape (n_lists,)
        The weighted RankNet cost at these scores (for monitoring).

    Examples
    --------
    The irrelevant label 1 on top gets a positive gradient (descent pushes it down), the relevant ones negative:

    >>> import numpy as np
    >>> lambdas, cost = lambda_gradients(np.array([[0.0, 2.0, 1.0]]), np.array([[1, 0, 1]]), metric="map")
    >>> lambdas.round(4)
    array([[-0.367 ,  0.5498, -0.1828]])
    """
    metric = check_choice(metric, "metric", ("ndcg", "map", "none"))
    S, Yb = _check_scores_labels(scores, Y)
    sigma = POSITIVE.check(sigma, "sigma")
    grad, cost, _ = _lambdas(S, Yb, metric, sigma)
    return grad, cost
