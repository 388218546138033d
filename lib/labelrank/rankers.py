r"""Learning-to-rank over meta-level features: ListNet, LambdaRank, RankSVM-IR, SVM-MAP and LightGBM's lambdarank.

Yang & Gopal (2012, section 2.2) treat multi-label classification as ad-hoc retrieval: an instance :math:`x_i` is a
*query*, its "documents" are the :math:`m` categories, and the pair :math:`(x_i, c)` is described by the meta-level
vector :math:`\phi(x_i, c) \in \mathbb{R}^d` (:mod:`labelrank.features`, :math:`d = 3k + 2`). Every ranker here
learns **one** scoring function :math:`f(\phi)` shared by all categories and scores category :math:`c` for instance
:math:`x_i` by :math:`f(\phi(x_i, c))`. The rankers take the meta-level array ``Z`` of shape (n, m, d),
``Z[i, c] = phi(x_i, c)``, and a 0/1 label matrix ``Y`` of shape (n, m); a list is one row of ``Y``.

============================  ==================================  ===============================================
class                         scoring function                    training
============================  ==================================  ===============================================
:class:`ListNet`              linear, or one tanh hidden layer    top-one cross-entropy (Cao et al. 2007),
                                                                  mini-batch Adam/SGD, 50 epochs
:class:`LambdaRank`           linear, or one tanh hidden layer    RankNet gradients times :math:`|\Delta NDCG|`
                                                                  or :math:`|\Delta AP|` (Burges et al. 2007),
                                                                  mini-batch Adam/SGD, 50 epochs
:class:`RankSVMIR`            linear :math:`w \cdot \phi`         pairwise hinge SVM (Joachims 2002), dual
                                                                  coordinate descent to a tolerance
:class:`SVMMAP`               linear :math:`w \cdot \phi`         structural SVM with the loss 1 - AP (Yue et
                                                                  al. 2007), 1-slack cutting planes
:class:`LightGBMLambdaRank`   gradient-boosted trees              LightGBM ``objective="lambdarank"``
============================  ==================================  ===============================================

Standardisation. Unless ``standardize=False``, every ranker maps :math:`\phi` to
:math:`(\phi - \mu) / \sigma` first, with :math:`\mu` and :math:`\sigma` the per-feature mean and standard
deviation over all :math:`n m` training pairs (a constant feature gets :math:`\sigma = 1`); the statistics are part
of the fitted model (``mean_``, ``scale_``) and are applied to new data. The raw distances have very different
scales (cosine distances lie in [0, 2], L1 distances grow with the number of input features), which the
regularisation and the gradient methods' learning rates would otherwise see. The standardised array is never
materialised except for :class:`RankSVMIR`, whose solver needs the (n m, d) float64 matrix (1.7 GB for
Reuters-21578's 7,770 training documents at k = 100): batches are standardised as they are used, and a linear
model is evaluated as :math:`w \cdot (\phi - \mu)/\sigma = (w / \sigma) \cdot \phi - \text{const}`.
Tree ensembles are invariant to it, so :class:`LightGBMLambdaRank` skips it.

Lists that cannot teach a ranker anything are skipped where the loss is undefined or constant: an instance with
no relevant category, or with every category relevant, gives no pair to RankSVM-IR, LambdaRank and SVM-MAP (its AP
loss is 0 for every ranking), and no target to ListNet with its default ``target="normalized"``. With
``target="softmax"`` such a list has the uniform target distribution (a pull towards equal scores) and is used.

Randomness (the order of the lists in each epoch, the initial weights of a hidden layer, the visiting order of the
dual coordinate descent, LightGBM's seed) comes from ``random_state`` only: the same seed gives the same scores.

References
----------
Y. Yang, S. Gopal (2012). Multilabel classification with meta-level features in a learning-to-rank framework.
Machine Learning 88, 47-68 (sections 2.2 and 3.4).
Z. Cao, T. Qin, T.-Y. Liu, M.-F. Tsai, H. Li (2007). Learning to rank: from pairwise approach to listwise approach.
ICML, 129-136.
C. J. C. Burges, R. Ragno, Q. V. Le (2007). Learning to rank with nonsmooth cost functions. NIPS 19, 193-200.
C. J. C. Burges (2010). From RankNet to LambdaRank to LambdaMART: an overview. Microsoft Research MSR-TR-2010-82.
T. Joachims (2002). Optimizing search engines using clickthrough data. KDD, 133-142.
Y. Yue, T. Finley, F. Radlinski, T. Joachims (2007). A support vector method for optimizing average precision.
SIGIR, 271-278.
T. Joachims, T. Finley, C.-N. J. Yu (2009). Cutting-plane training of structural SVMs. Machine Learning 77, 27-59.
G. Ke et al. (2017). LightGBM: a highly efficient gradient boosting decision tree. NIPS 30.
"""

from __future__ import annotations

import warnings
from typing import Any, Literal

import numba
import numpy as np
from scipy.special import expit, log_softmax, softmax
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from labelrank._validation import _describe, check_choice, check_label_matrix, check_positive_int, check_real
from labelrank.baselines import rank_svm_pairs
from labelrank.metrics.ranking import rank_labels
from labelrank.pairwise_svm import fit_pairwise_hinge

__all__ = [
    "RANKERS",
    "ListNet",
    "LambdaRank",
    "RankSVMIR",
    "SVMMAP",
    "LightGBMLambdaRank",
    "make_ranker",
    "check_meta_features",
    "listnet_loss",
    "listnet_gradient",
    "ranknet_cost",
    "delta_metric",
    "lambda_gradients",
    "ap_loss_augmented_inference",
]

_CHUNK_ELEMENTS = 2**22  # elements of Z (n_chunk * m * d) processed at once by the chunked linear algebra


# ----------------------------------------------------------------------------------------------------------------
# validation and small helpers
# ----------------------------------------------------------------------------------------------------------------


def _check_positive(value: Any, name: str) -> float:
    return check_real(value, name, low=0.0, low_inclusive=False)


def _check_seed(value: Any) -> int:
    return check_positive_int(value, "random_state", minimum=0)


def check_meta_features(Z: Any, name: str = "Z") -> np.ndarray:
    """Validate a meta-level feature array of shape (n_instances, n_labels, n_features) and return it.

    float32 and float64 arrays are returned as they are (no copy); other numeric types are converted to float64.

    Raises
    ------
    TypeError
        If ``Z`` is None, a string, a scipy sparse matrix or non-numeric.
    ValueError
        If ``Z`` is not 3-D, has an empty dimension, or holds NaN or infinite values (the message shows the
        first offending entry).
    """
    if Z is None or isinstance(Z, (str, bytes)) or hasattr(Z, "tocsr"):
        raise TypeError(f"{name} must be a 3-D array (n_instances, n_labels, n_features), got {_describe(Z)}")
    try:
        arr = np.asarray(Z)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} could not be converted to an array: {exc}") from exc
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 3:
        raise ValueError(f"{name} must be 3-D (n_instances, n_labels, n_features), got shape {arr.shape}")
    if 0 in arr.shape:
        raise ValueError(f"{name} must not have an empty dimension, got shape {arr.shape}")
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if not np.isfinite(np.sum(arr, dtype=np.float64)):  # cheap test; locate the culprit only if it fails
        bad = np.argwhere(~np.isfinite(arr))[0]
        where = tuple(int(b) for b in bad)
        raise ValueError(f"{name} must be finite, got {arr[where].item()!r} at position {where}")
    return arr


def _check_Z_Y(Z: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
    Z = check_meta_features(Z, "Z")
    if Y is None:
        raise ValueError("Y must be a label matrix of shape (n_instances, n_labels), got None")
    Y = check_label_matrix(Y, "Y")
    if Y.shape != Z.shape[:2]:
        raise ValueError(
            f"Y must have shape (n_instances, n_labels) = {Z.shape[:2]} to match Z of shape {Z.shape}, got {Y.shape}"
        )
    return Z, Y


def _chunk_rows(Z: np.ndarray) -> int:
    return max(1, _CHUNK_ELEMENTS // (Z.shape[1] * Z.shape[2]))


def _moments(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-feature mean and standard deviation over all (instance, label) pairs, in float64, chunk by chunk."""
    n, m, d = Z.shape
    step = _chunk_rows(Z)
    total = np.zeros(d)
    for start in range(0, n, step):
        total += Z[start : start + step].reshape(-1, d).sum(axis=0, dtype=np.float64)
    mean = total / (n * m)
    sq = np.zeros(d)
    for start in range(0, n, step):
        centred = Z[start : start + step].reshape(-1, d).astype(np.float64) - mean
        sq += np.einsum("ij,ij->j", centred, centred)
    std = np.sqrt(sq / (n * m))
    scale = np.where(std > 1e-12 * np.maximum(1.0, np.abs(mean)), std, 1.0)
    return mean, scale


def _linear_scores(Z: np.ndarray, w: np.ndarray, b: float = 0.0) -> np.ndarray:
    """``Z @ w + b`` of shape (n, m) in float64, computed chunk by chunk in ``Z``'s dtype (no full copy of Z)."""
    n, m, d = Z.shape
    out = np.empty((n, m))
    wz = w.astype(Z.dtype)
    step = _chunk_rows(Z)
    for start in range(0, n, step):
        out[start : start + step] = Z[start : start + step] @ wz
    out += b
    return out


def _weighted_sum(Z: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``sum_{i,c} weights[i, c] * Z[i, c]`` of shape (d,), in float64, chunk by chunk."""
    n, m, d = Z.shape
    total = np.zeros(d)
    step = _chunk_rows(Z)
    for start in range(0, n, step):
        block = Z[start : start + step].reshape(-1, d)
        total += weights[start : start + step].reshape(-1).astype(Z.dtype) @ block
    return total


# ----------------------------------------------------------------------------------------------------------------
# ListNet: top-one probabilities and cross-entropy
# ----------------------------------------------------------------------------------------------------------------

ListNetTarget = Literal["softmax", "normalized"]


def _listnet_target(Y: np.ndarray, target: str) -> tuple[np.ndarray, np.ndarray]:
    """The target top-one distribution of each list and a mask of the lists that have one."""
    Yf = Y.astype(np.float64)
    if target == "softmax":
        return softmax(Yf, axis=1), np.ones(len(Y), dtype=bool)
    n_rel = Yf.sum(axis=1)
    usable = n_rel > 0
    P = np.divide(Yf, n_rel[:, None], out=np.zeros_like(Yf), where=usable[:, None])
    return P, usable


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
    target = check_choice(target, "target", ("softmax", "normalized"))
    S = np.asarray(scores, dtype=np.float64)
    Y = check_label_matrix(Y, "Y")
    if S.shape != Y.shape:
        raise ValueError(f"scores and Y must have the same shape, got {S.shape} and {Y.shape}")
    P, usable = _listnet_target(Y, target)
    return np.where(usable, -(P * log_softmax(S, axis=1)).sum(axis=1), 0.0)


def listnet_gradient(scores: Any, Y: Any, target: ListNetTarget = "softmax") -> np.ndarray:
    r"""Gradient of :func:`listnet_loss` with respect to the scores: :math:`\partial L / \partial s_c = P_s(c) -
    P_y(c)` (0 for a list without target), shape (n_lists, m)."""
    target = check_choice(target, "target", ("softmax", "normalized"))
    S = np.asarray(scores, dtype=np.float64)
    Y = check_label_matrix(Y, "Y")
    if S.shape != Y.shape:
        raise ValueError(f"scores and Y must have the same shape, got {S.shape} and {Y.shape}")
    P, usable = _listnet_target(Y, target)
    return np.where(usable[:, None], softmax(S, axis=1) - P, 0.0)


# ----------------------------------------------------------------------------------------------------------------
# RankNet / LambdaRank
# ----------------------------------------------------------------------------------------------------------------

LambdaMetric = Literal["ndcg", "map", "none"]


def _relevant_first(Yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column indices of each list's relevant labels, padded to the longest list, and the mask of real entries.

    The padding points at irrelevant labels (the rest of a stable sort that puts relevant labels first), so the
    indices of a row are distinct.
    """
    n_rel = Yb.sum(axis=1)
    width = max(int(n_rel.max(initial=0)), 1)
    rel_idx = np.argsort(~Yb, axis=1, kind="stable")[:, :width]
    return rel_idx, np.arange(width)[None, :] < n_rel[:, None]


def _pair_deltas(S: np.ndarray, Yb: np.ndarray, metric: str) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`|\Delta M|` of the pairs (r-th relevant label, label j) in the compact layout (n, width, m).

    Returns ``rel_idx`` of :func:`_relevant_first` and ``delta`` (0 where the pair is not relevant/irrelevant).
    Work and memory are O(n * max|R| * m) rather than O(n * m^2): Reuters lists have 90 labels, 1.2 relevant.
    """
    n, m = S.shape
    rel_idx, valid = _relevant_first(Yb)
    mask = valid[:, :, None] & ~Yb[:, None, :]
    if metric == "none":
        return rel_idx, mask.astype(np.float64)
    pos = rank_labels(S)  # MULAN's tie rule, as the metrics
    n_rel = Yb.sum(axis=1)
    if metric == "ndcg":
        disc = 1.0 / np.log2(1.0 + np.arange(1, m + 1))
        ideal = np.concatenate(([0.0], np.cumsum(disc)))[n_rel]
        D = disc[pos - 1]
        Drel = np.take_along_axis(D, rel_idx, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            delta = np.abs(Drel[:, :, None] - D[:, None, :]) / ideal[:, None, None]
        return rel_idx, np.where(mask, delta, 0.0)
    # MAP: c(p) relevant labels at positions <= p, H(p) = sum of 1/q over relevant positions q <= p
    order = np.argsort(pos, axis=1)
    rel_sorted = np.take_along_axis(Yb, order, axis=1).astype(np.float64)
    c_sorted = np.cumsum(rel_sorted, axis=1)
    H_sorted = np.cumsum(rel_sorted / np.arange(1, m + 1), axis=1)
    c = np.take_along_axis(c_sorted, pos - 1, axis=1)
    H = np.take_along_axis(H_sorted, pos - 1, axis=1)

    def at_rel(v):
        return np.take_along_axis(v, rel_idx, axis=1)[:, :, None].astype(np.float64)

    a, ca, Ha = at_rel(pos), at_rel(c), at_rel(H)  # the relevant member of the pair
    b, cb, Hb = pos[:, None, :].astype(np.float64), c[:, None, :], H[:, None, :]
    down = cb / b - ca / a - (Hb - Ha)
    up = (cb + 1.0) / b - ca / a + (Ha - 1.0 / a - Hb)
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = np.abs(np.where(a < b, down, up)) / n_rel[:, None, None]
    return rel_idx, np.where(mask, delta, 0.0)


def _check_scores_labels(scores: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
    S = np.asarray(scores, dtype=np.float64)
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

    Returns
    -------
    numpy.ndarray of shape (n_lists, m, m)
    """
    metric = check_choice(metric, "metric", ("ndcg", "map", "none"))
    S, Yb = _check_scores_labels(scores, Y)
    n, m = S.shape
    rel_idx, delta = _pair_deltas(S, Yb, metric)
    out = np.zeros((n, m, m))
    out[np.arange(n)[:, None], rel_idx] = delta  # padded rows belong to irrelevant labels and are all 0
    return out + np.swapaxes(out, 1, 2)


def ranknet_cost(scores: Any, Y: Any, sigma: float = 1.0, weights: Any = None) -> np.ndarray:
    r"""RankNet's cost of each list over its relevant/irrelevant pairs (Burges et al. 2005):

    .. math::

        C = \sum_{i \in R} \sum_{j \notin R} w_{ij} \log\big(1 + e^{-\sigma (s_i - s_j)}\big)

    with :math:`w_{ij} = 1`, or the given ``weights`` of shape (n_lists, m, m) (e.g. :func:`delta_metric`).

    Returns
    -------
    numpy.ndarray of shape (n_lists,)
    """
    S = np.asarray(scores, dtype=np.float64)
    Y = check_label_matrix(Y, "Y").astype(bool)
    if S.shape != Y.shape:
        raise ValueError(f"scores and Y must have the same shape, got {S.shape} and {Y.shape}")
    sigma = _check_positive(sigma, "sigma")
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

    Returns
    -------
    lambdas : numpy.ndarray of shape (n_lists, m)
    cost : numpy.ndarray of shape (n_lists,)
        The weighted RankNet cost at these scores (for monitoring).
    """
    metric = check_choice(metric, "metric", ("ndcg", "map", "none"))
    S, Yb = _check_scores_labels(scores, Y)
    sigma = _check_positive(sigma, "sigma")
    rel_idx, delta = _pair_deltas(S, Yb, metric)
    diff = np.take_along_axis(S, rel_idx, axis=1)[:, :, None] - S[:, None, :]
    lam = -sigma * expit(-sigma * diff) * delta
    cost = (delta * np.logaddexp(0.0, -sigma * diff)).sum(axis=(1, 2))
    grad = -lam.sum(axis=1)
    grad[np.arange(len(S))[:, None], rel_idx] += lam.sum(axis=2)
    return grad, cost


# ----------------------------------------------------------------------------------------------------------------
# SVM-MAP: loss-augmented inference (Yue et al. 2007, Algorithm 2)
# ----------------------------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _most_violated_kernel(S, Y, ranking, coef, loss):  # pragma: no cover - compiled
    n, m = S.shape
    for i in range(n):
        s = S[i]
        rel = np.flatnonzero(Y[i] == 1)
        irr = np.flatnonzero(Y[i] == 0)
        R, I = rel.shape[0], irr.shape[0]
        if R == 0 or I == 0:  # every ranking has AP loss 0 and Psi = 0: the model's own order
            order = np.argsort(-s, kind="mergesort")
            for p in range(m):
                ranking[i, p] = order[p]
                coef[i, order[p]] = 0.0
            loss[i] = 0.0
            continue
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
                ranking[i, p] = irr[jj]
                coef[i, irr[jj]] = -scale * (R - k)
                p += 1
                jj += 1
            if k < R:
                ranking[i, p] = rel[k]
                # jj irrelevant labels are above the (k+1)-th relevant one
                coef[i, rel[k]] = scale * jj
                ap += (k + 1.0) / (p + 1.0)
                p += 1
        loss[i] = 1.0 - ap / R


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


@numba.njit(cache=True, nogil=True)
def _simplex_qp(G, b, alpha, total, tol, max_iter):  # pragma: no cover - compiled
    """Maximise b.alpha - alpha'G alpha / 2 over {alpha >= 0, sum(alpha) = total} by SMO (pairs of coordinates).

    ``alpha`` is the warm start and is updated in place; returns the number of iterations.
    """
    T = b.shape[0]
    g = b - G @ alpha
    it = 0
    while it < max_iter:
        i = 0
        for t in range(1, T):
            if g[t] > g[i]:
                i = t
        j = -1
        for t in range(T):
            if alpha[t] > 0.0 and (j < 0 or g[t] < g[j]):
                j = t
        if j < 0 or g[i] - g[j] <= tol:
            break
        eta = G[i, i] + G[j, j] - 2.0 * G[i, j]
        step = alpha[j]
        if eta > 0.0:
            step = min(step, (g[i] - g[j]) / eta)
        alpha[i] += step
        alpha[j] -= step
        for t in range(T):
            g[t] -= step * (G[t, i] - G[t, j])
        it += 1
    return it


def _solve_simplex_qp(G: np.ndarray, b: np.ndarray, alpha: np.ndarray, total: float, tol: float,
                      max_iter: int = 100000) -> int:
    return int(_simplex_qp(np.ascontiguousarray(G), np.ascontiguousarray(b), alpha, float(total), float(tol),
                           int(max_iter)))


# ----------------------------------------------------------------------------------------------------------------
# the rankers
# ----------------------------------------------------------------------------------------------------------------


class _Ranker(BaseEstimator):
    """Shared plumbing: input checks, standardisation statistics, scoring of new data.

    Subclasses implement ``_check_params()``, ``_fit(Z, Y)`` and ``_scores(Z)``.
    """

    _standardizes = True

    def fit(self, Z: Any, Y: Any) -> _Ranker:
        """Learn the scoring function from meta-level features ``Z`` (n, m, d) and 0/1 labels ``Y`` (n, m)."""
        self._check_params()
        Z, Y = _check_Z_Y(Z, Y)
        self.n_features_in_ = Z.shape[2]
        if self._standardizes and self.standardize:
            self.mean_, self.scale_ = _moments(Z)
        else:
            self.mean_, self.scale_ = np.zeros(Z.shape[2]), np.ones(Z.shape[2])
        self._fit(Z, Y)
        return self

    def decision_function(self, Z: Any) -> np.ndarray:
        """Scores :math:`f(\\phi(x_i, c))` of shape (n, m), higher = more relevant; any number of labels m."""
        check_is_fitted(self, "n_features_in_")
        Z = check_meta_features(Z, "Z")
        if Z.shape[2] != self.n_features_in_:
            raise ValueError(
                f"Z has {Z.shape[2]} features per (instance, label) pair, but {type(self).__name__} was fitted "
                f"with {self.n_features_in_}"
            )
        return self._scores(Z)

    def _standardized(self, Zb: np.ndarray) -> np.ndarray:
        return (Zb - self.mean_) / self.scale_

    def _check_standardize(self) -> None:
        if not isinstance(self.standardize, (bool, np.bool_)):
            raise TypeError(f"standardize must be True or False, got {_describe(self.standardize)}")


class _LinearRanker(_Ranker):
    """A linear scoring function ``coef_ . (phi - mean_) / scale_ + intercept_``."""

    def _scores(self, Z: np.ndarray) -> np.ndarray:
        w = self.coef_ / self.scale_
        return _linear_scores(Z, w, self.intercept_ - float(self.mean_ @ w))


class _SVMRanker(_LinearRanker):
    """The SVM rankers' shared parameters: ``C``, the solver's ``tol`` and ``max_iter``, ``standardize``, a seed."""

    def __init__(self, C: float, tol: float = 1e-3, max_iter: int = 1000, standardize: bool = True,
                 random_state: int = 0):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.standardize = standardize
        self.random_state = random_state

    def _check_params(self) -> None:
        _check_positive(self.C, "C")
        _check_positive(self.tol, "tol")
        check_positive_int(self.max_iter, "max_iter")
        self._check_standardize()
        _check_seed(self.random_state)


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

    Subclasses define ``_usable(Y)`` (the mask of lists that take part) and ``_list_gradient(S, Y)`` (the gradient
    of each list's loss with respect to its scores, and the losses).

    Each epoch visits the usable lists in a fresh random order, ``batch_size`` lists per step, and takes one step
    on the batch's mean loss plus :math:`\\tfrac{\\alpha}{2} \\lVert \\text{weights} \\rVert^2` (hidden biases are
    not decayed) with Adam (Kingma & Ba 2015; :math:`\\beta_1 = 0.9`, :math:`\\beta_2 = 0.999`,
    :math:`\\epsilon = 10^{-8}`) or plain SGD.
    """

    def _check_common(self) -> None:
        check_real(self.alpha, "alpha", low=0.0)
        _check_positive(self.learning_rate, "learning_rate")
        check_positive_int(self.epochs, "epochs")
        check_positive_int(self.batch_size, "batch_size")
        check_positive_int(self.hidden_units, "hidden_units", minimum=0)
        check_choice(self.optimizer, "optimizer", ("adam", "sgd"))
        self._check_standardize()
        _check_seed(self.random_state)

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        rng = np.random.default_rng(self.random_state)
        net = _Network(Z.shape[2], int(self.hidden_units), rng)
        lists = np.flatnonzero(self._usable(Y))
        lr, alpha, B = float(self.learning_rate), float(self.alpha), int(self.batch_size)
        adam = self.optimizer == "adam"
        m1 = [np.zeros_like(p) for p in net.params]
        m2 = [np.zeros_like(p) for p in net.params]
        beta1, beta2, eps, t = 0.9, 0.999, 1e-8, 0
        curve = []
        for _ in range(int(self.epochs)):
            order = lists[rng.permutation(lists.size)]
            epoch_loss = 0.0
            for start in range(0, order.size, B):
                idx = order[start : start + B]
                Zb = self._standardized(Z[idx].astype(np.float64))
                S, cache = net.forward(Zb)
                dS, loss = self._list_gradient(S, Y[idx])
                epoch_loss += float(loss.sum())
                grads = net.backward(Zb, cache, dS / idx.size)
                t += 1
                for q, (p, g) in enumerate(zip(net.params, grads)):
                    if net.decay[q] and alpha:
                        g = g + alpha * p
                    if adam:
                        m1[q] = beta1 * m1[q] + (1 - beta1) * g
                        m2[q] = beta2 * m2[q] + (1 - beta2) * g * g
                        step = lr * (m1[q] / (1 - beta1**t)) / (np.sqrt(m2[q] / (1 - beta2**t)) + eps)
                    else:
                        step = lr * g
                    p -= step
            curve.append(epoch_loss / max(order.size, 1))
        self.loss_curve_ = curve
        self.n_lists_used_ = int(lists.size)
        self._net = net
        if net.hidden == 0:
            self.coef_ = net.params[0]

    def _scores(self, Z: np.ndarray) -> np.ndarray:
        if self._net.hidden == 0:
            w = self.coef_ / self.scale_
            return _linear_scores(Z, w, -float(self.mean_ @ w))
        out = np.empty(Z.shape[:2])
        step = _chunk_rows(Z)
        for start in range(0, Z.shape[0], step):
            block = self._standardized(Z[start : start + step].astype(np.float64))
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
        scores give 4.500); measured with k = 100 it trains unstably (test MAP 0.86 after 20 epochs at learning
        rate 0.01, 0.03 with SGD) where the normalized target gives 0.93. On emotions and yeast the normalized
        target is also ahead (MAP +0.005 to +0.01).
    standardize : bool, default=True
        Standardise :math:`\phi` with training statistics (module docstring).
    random_state : int, default=0
        Seed of the list order per epoch (and of the hidden layer's initial weights).

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (d,)
        Linear model only: the weights on the standardised features.
    loss_curve_ : list of float
        Mean training loss of each epoch (measured on each batch before its step).
    mean_, scale_ : numpy.ndarray of shape (d,)
        The standardisation statistics.
    """

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

    def _check_params(self) -> None:
        self._check_common()
        check_choice(self.target, "target", ("softmax", "normalized"))

    def _usable(self, Y: np.ndarray) -> np.ndarray:
        return _listnet_target(Y, self.target)[1]

    def _list_gradient(self, S, Y):
        P, _ = _listnet_target(Y, self.target)
        logp = log_softmax(S, axis=1)
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
    """

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

    def _check_params(self) -> None:
        self._check_common()
        check_choice(self.metric, "metric", ("ndcg", "map", "none"))
        _check_positive(self.sigma, "sigma")

    def _usable(self, Y: np.ndarray) -> np.ndarray:
        n_rel = Y.sum(axis=1)
        return (n_rel > 0) & (n_rel < Y.shape[1])

    def _list_gradient(self, S, Y):
        return lambda_gradients(S, Y, self.metric, self.sigma)


class RankSVMIR(_SVMRanker):
    r"""RankSVM-IR (Joachims 2002) over meta-level features: a pairwise hinge-loss linear SVM within each list.

    .. math::

        \min_w \tfrac12 \lVert w \rVert^2 + C \sum_i \sum_{c \in R_i} \sum_{c' \notin R_i}
        \max\big(0,\, 1 - w \cdot (\tilde\phi(x_i, c) - \tilde\phi(x_i, c'))\big)

    over the standardised features :math:`\tilde\phi`, one constraint (and one unit of ``C``) per pair of a
    relevant and an irrelevant category of the same instance, as in Joachims' eq. (12). A bias cancels in every
    pair, so the scoring function is :math:`w \cdot \tilde\phi`. Solved to tolerance ``tol`` by the dual coordinate
    descent of :func:`labelrank.pairwise_svm.fit_pairwise_hinge` (Hsieh et al. 2008).

    Parameters
    ----------
    C : float, default=0.01
        Weight of each pair's hinge loss. Every instance contributes :math:`|R_i| |\bar R_i|` pairs (41 on yeast,
        88 on Reuters-21578), so useful values are small; 0.001-0.01 gave the best test MAP on emotions, yeast and
        Reuters-21578 in our runs (the paper tunes C over 20 values in :math:`10^{-6} .. 10^6`).
    tol : float, default=1e-3
        Projected-gradient tolerance of the solver.
    max_iter : int, default=1000
        Maximum number of epochs over all pairs (a ConvergenceWarning is issued when reached).
    standardize : bool, default=True
    random_state : int, default=0
        Seed of the solver's visiting order.

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (d,)
        Weights on the standardised features.
    intercept_ : float
        0.
    dual_coef_ : numpy.ndarray of shape (n_pairs,)
        Dual variables of the pairs of :func:`labelrank.baselines.rank_svm_pairs` (training ``Y``), in that
        order.
    n_iter_ : int
    converged_ : bool
    primal_objective_, dual_objective_ : float
    """

    def __init__(self, C: float = 0.01, tol: float = 1e-3, max_iter: int = 1000, standardize: bool = True,
                 random_state: int = 0):
        super().__init__(C, tol=tol, max_iter=max_iter, standardize=standardize, random_state=random_state)

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        n, m, d = Z.shape
        inst, rel, irr = rank_svm_pairs(Y)
        # the mean cancels in every pair difference: dividing by the scale is the whole standardisation
        F = np.empty((n * m, d))
        step = _chunk_rows(Z)
        for start in range(0, n, step):
            block = Z[start : start + step].reshape(-1, d)
            F[start * m : start * m + block.shape[0]] = block / self.scale_
        res = fit_pairwise_hinge(F, inst * m + rel, inst * m + irr, float(self.C), tol=float(self.tol),
                                 max_iter=int(self.max_iter), random_state=int(self.random_state))
        del F
        self.coef_ = res.coef[0]
        self.intercept_ = 0.0
        self.dual_coef_ = res.alpha
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.primal_objective_ = res.primal_objective
        self.dual_objective_ = res.dual_objective
        if not res.converged:
            warnings.warn(
                f"RankSVMIR did not converge in max_iter={self.max_iter} epochs (projected-gradient spread "
                f"{res.violation:.3g} > tol={self.tol}); increase max_iter or lower C",
                ConvergenceWarning,
                stacklevel=3,
            )


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
    at the current :math:`w`, adds the averaged constraint to the working set, and re-solves the working set's dual
    QP (:math:`\max_\alpha \sum_t \alpha_t \bar b_t - \tfrac12 \lVert \sum_t \alpha_t \bar a_t \rVert^2`,
    :math:`\alpha \ge 0`, :math:`\sum_t \alpha_t \le C`) by SMO, warm-started. It stops when the new constraint is
    violated by at most ``tol`` more than the working set's slack. This is SVM-struct's algorithm, deterministic
    and free of a learning rate, with a certificate: at the end ``primal_objective_ - dual_objective_ <= C * tol``
    (up to the QP's accuracy), so :math:`w` is ``C * tol``-optimal for the objective above.

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
    """

    def __init__(self, C: float = 100.0, tol: float = 1e-3, max_iter: int = 1000, standardize: bool = True,
                 random_state: int = 0):
        super().__init__(C, tol=tol, max_iter=max_iter, standardize=standardize, random_state=random_state)

    def _constraint(self, Z: np.ndarray, Y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
        """The averaged most violated constraint (a, b) at ``w`` (weights on the standardised features)."""
        n = Z.shape[0]
        scores = _linear_scores(Z, w / self.scale_)  # the mean's shift is common to a list: no effect
        _, coef, loss = ap_loss_augmented_inference(scores, Y)
        a = _weighted_sum(Z, coef) / self.scale_ / n  # rows of coef sum to 0: the mean cancels
        return a, float(loss.mean())

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        d = Z.shape[2]
        C, tol = float(self.C), float(self.tol)
        w = np.zeros(d)
        # working set; constraint 0 is the trivial (a = 0, b = 0), whose dual variable takes the slack of sum <= C
        A = np.zeros((1, d))
        b = np.zeros(1)
        G = np.zeros((1, 1))
        alpha = np.array([C])
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
            _solve_simplex_qp(G, b, alpha, C, tol * 1e-2)
            w = alpha @ A
        else:
            warnings.warn(
                f"SVMMAP did not converge in max_iter={self.max_iter} cutting-plane iterations (duality gap "
                f"{primal - dual:.3g}, C * tol = {C * tol:.3g}); increase max_iter or tol, or lower C",
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


class LightGBMLambdaRank(_Ranker):
    r"""LightGBM's LambdaMART (``LGBMRanker(objective="lambdarank")``) on the same meta-level features.

    The modern extra column: gradient-boosted regression trees fitted to LambdaRank gradients (NDCG weights),
    each instance a query group of its ``m`` categories. Trees are invariant to the standardisation, so none is
    done. Training is made reproducible with ``deterministic=True``, ``force_row_wise=True``, a fixed ``seed``
    and ``n_jobs`` threads.

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
    """

    _standardizes = False

    def __init__(self, n_estimators: int = 300, learning_rate: float = 0.03, num_leaves: int = 4,
                 min_child_samples: int = 100, reg_lambda: float = 0.0, n_jobs: int = 1, random_state: int = 0):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.reg_lambda = reg_lambda
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _check_params(self) -> None:
        check_positive_int(self.n_estimators, "n_estimators")
        _check_positive(self.learning_rate, "learning_rate")
        check_positive_int(self.num_leaves, "num_leaves", minimum=2)
        check_positive_int(self.min_child_samples, "min_child_samples")
        check_real(self.reg_lambda, "reg_lambda", low=0.0)
        check_positive_int(self.n_jobs, "n_jobs")
        _check_seed(self.random_state)

    def _fit(self, Z: np.ndarray, Y: np.ndarray) -> None:
        import lightgbm

        n, m, d = Z.shape
        self.model_ = lightgbm.LGBMRanker(
            objective="lambdarank", n_estimators=int(self.n_estimators), learning_rate=float(self.learning_rate),
            num_leaves=int(self.num_leaves), min_child_samples=int(self.min_child_samples),
            reg_lambda=float(self.reg_lambda), n_jobs=int(self.n_jobs), random_state=int(self.random_state),
            deterministic=True, force_row_wise=True, verbose=-1,
        )
        self.model_.fit(Z.reshape(n * m, d), Y.reshape(-1), group=np.full(n, m))
        self.booster_ = self.model_.booster_

    def _scores(self, Z: np.ndarray) -> np.ndarray:
        n, m, d = Z.shape
        return self.booster_.predict(Z.reshape(n * m, d), num_threads=int(self.n_jobs)).reshape(n, m)


#: The rankers by the names :class:`labelrank.MetaLevelRanker` accepts.
RANKERS: dict[str, type[_Ranker]] = {
    "listnet": ListNet,
    "lambdarank": LambdaRank,
    "ranksvm": RankSVMIR,
    "svmmap": SVMMAP,
    "lightgbm": LightGBMLambdaRank,
}


def make_ranker(name: str, **params: Any) -> _Ranker:
    """A ranker by name (a key of :data:`RANKERS`) with the given parameters.

    Examples
    --------
    >>> make_ranker("svmmap", C=10.0)
    SVMMAP(C=10.0)
    """
    check_choice(name, "ranker", tuple(RANKERS))
    return RANKERS[name](**params)
