"""Ranking metrics of Yang & Gopal (2012), section 3.3: MAP, RankLoss, NDCG, One-error and Coverage.

Every metric here takes a 0/1 label matrix ``Y`` and a real score matrix ``scores`` of the same shape
(n_instances, n_labels), higher score = more relevant, and works on the *ranks* that one shared helper,
:func:`rank_labels`, derives from the scores. The rank of label ``c`` for instance ``i`` is written
:math:`r_i(c) \\in \\{1, \\dots, m\\}`, 1 being the top of the list.

Ties
----
Equal scores are broken by one documented rule, chosen with the keyword ``ties`` that every metric accepts:

``"mulan"`` (default)
    MULAN's rule: MULAN ranks with Weka's stable ascending sort and numbers the sorted list from the bottom,
    so among labels with equal scores the one with the **larger column index** is ranked first. This is the rule
    of the implementations (ML-kNN, IBLR-ML) the paper ran in MULAN. It is deterministic but arbitrary: the
    result of a tied ranking depends on the order of the columns.
``"pessimistic"``
    Among tied labels the irrelevant ones come first (the worst case). RankLoss then counts tied
    relevant/irrelevant pairs as errors and Coverage counts ties against the system, as scikit-learn does.
``"optimistic"``
    Among tied labels the relevant ones come first (the best case).

Within a tie the pessimistic and optimistic rules fall back on the MULAN order; no metric depends on the order
of two tied labels of the same relevance. Scores are compared exactly (Weka treats scores closer than 1e-6 as
equal; we do not).

Empty and full rows
-------------------
Following MULAN (Tsoumakas et al. 2011), an instance with no relevant label is *skipped* by MAP and NDCG
(its per-instance value is NaN and it is left out of the mean), scores One-error 1 (the top label is not
relevant), RankLoss 0 and Coverage 0; an instance with every label relevant scores AP 1, NDCG 1, RankLoss 0.

Per-instance values
-------------------
With ``per_instance=True`` each function returns the array of per-instance values whose (NaN-skipping) mean is
the metric; these are the values the Wilcoxon signed-rank test pairs up (:mod:`labelrank.metrics.significance`).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from labelrank.validation import check_choice, check_labels_and_scores, check_score_matrix

__all__ = [
    "TIE_RULES",
    "rank_labels",
    "average_precision",
    "ranking_loss",
    "ndcg",
    "one_error",
    "coverage",
]

TieRule = Literal["mulan", "pessimistic", "optimistic"]
TIE_RULES: tuple[str, ...] = ("mulan", "pessimistic", "optimistic")


def rank_labels(scores: Any, Y: Any = None, ties: TieRule = "mulan") -> np.ndarray:
    """Rank the labels of each instance by decreasing score; the one ranking helper of every metric.

    Parameters
    ----------
    scores : array-like or sparse of shape (n_instances, n_labels)
        Finite real scores, higher = more relevant.
    Y : array-like or sparse of shape (n_instances, n_labels), optional
        0/1 relevance, needed by the ``"pessimistic"`` and ``"optimistic"`` tie rules only.
    ties : {"mulan", "pessimistic", "optimistic"}
        How equal scores are ordered (see the module docstring): ``"mulan"`` puts the larger column index
        first; ``"pessimistic"`` puts irrelevant labels first; ``"optimistic"`` puts relevant labels first.

    Returns
    -------
    numpy.ndarray of int of shape (n_instances, n_labels)
        ``ranks[i, c]`` is :math:`r_i(c)`, a permutation of 1..m in each row (1 = top).

    Examples
    --------
    >>> rank_labels([[0.2, 0.9, 0.2]]).tolist()      # the tie 0.2 = 0.2 goes to the larger index
    [[3, 1, 2]]
    >>> rank_labels([[0.2, 0.9, 0.2]], Y=[[1, 0, 0]], ties="pessimistic").tolist()
    [[3, 1, 2]]
    >>> rank_labels([[0.2, 0.9, 0.2]], Y=[[1, 0, 0]], ties="optimistic").tolist()
    [[2, 1, 3]]
    """
    ties = check_choice(ties, "ties", TIE_RULES)
    if ties == "mulan":
        S = check_score_matrix(scores)
        keys: tuple[np.ndarray, ...] = ()
    else:
        if Y is None:
            raise ValueError(f"ties={ties!r} needs the relevance matrix Y, got Y=None")
        Yv, S = check_labels_and_scores(Y, scores)
        # lexsort: the last key is the primary one; within a tie irrelevant (0) before relevant (1)
        keys = (Yv,) if ties == "pessimistic" else (1 - Yv,)
    n, m = S.shape
    larger_index_first = np.broadcast_to(-np.arange(m), (n, m))
    order = np.lexsort((larger_index_first, *keys, -S), axis=1)
    ranks = np.empty((n, m), dtype=np.int64)
    np.put_along_axis(ranks, order, np.broadcast_to(np.arange(1, m + 1), (n, m)), axis=1)
    return ranks


def _relevance_in_rank_order(Y: Any, scores: Any, ties: TieRule) -> np.ndarray:
    """Validate, rank, and return the 0/1 relevance of each row's labels listed from rank 1 to rank m."""
    Yv, S = check_labels_and_scores(Y, scores)
    ranks = rank_labels(S, Yv, ties=ties)
    order = np.argsort(ranks, axis=1)
    return np.take_along_axis(Yv, order, axis=1)


def _mean_skipping_nan(values: np.ndarray) -> float:
    """Mean over the defined (non-NaN) entries; NaN when none is defined (MULAN's 0/0)."""
    defined = values[~np.isnan(values)]
    return float(defined.mean()) if defined.size else float("nan")


def average_precision(
    Y: Any, scores: Any, *, ties: TieRule = "mulan", per_instance: bool = False
) -> float | np.ndarray:
    """Mean Average Precision over instances, eq. (3)-(4) of Yang & Gopal (2012), as trec_eval and MULAN.

    .. math::

        MAP(D) = \\frac{1}{n} \\sum_{i=1}^{n} AP(x_i), \\qquad
        AP(x_i) = \\frac{1}{|R_i|} \\sum_{c \\in R_i}
                  \\frac{|\\{c' \\in R_i : r_i(c') \\le r_i(c)\\}|}{r_i(c)}

    The numerator counts the relevant labels ranked at or above :math:`c`, :math:`c` included: the paper's
    eq. (4) prints ``<``, which would make a perfect ranking score below 1 (a typo). Instances with no
    relevant label are skipped (MULAN's ``AveragePrecision``), so ``n`` counts the others only.

    Parameters
    ----------
    Y : array-like or sparse of shape (n_instances, n_labels)
        0/1 relevance.
    scores : array-like or sparse of the same shape
        Finite scores, higher = more relevant.
    ties : {"mulan", "pessimistic", "optimistic"}
        Tie rule of :func:`rank_labels`.
    per_instance : bool
        Return the per-instance AP (NaN where no label is relevant) instead of their mean.

    Returns
    -------
    float or numpy.ndarray of shape (n_instances,)
        MAP in [0, 1] (NaN if no instance has a relevant label), or the per-instance values.

    References
    ----------
    Voorhees (2003); Yang & Gopal (2012), eq. (3)-(4); Tsoumakas et al. (2011), MULAN ``AveragePrecision``.

    Examples
    --------
    >>> average_precision([[1, 0, 1]], [[0.9, 0.8, 0.1]])   # relevant at ranks 1 and 3: (1/1 + 2/3) / 2
    0.8333333333333333
    """
    rel = _relevance_in_rank_order(Y, scores, ties)
    m = rel.shape[1]
    n_rel = rel.sum(axis=1)
    precision_at_rank = np.cumsum(rel, axis=1) / np.arange(1, m + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = (precision_at_rank * rel).sum(axis=1) / n_rel
    ap[n_rel == 0] = np.nan
    return ap if per_instance else _mean_skipping_nan(ap)


def ranking_loss(
    Y: Any, scores: Any, *, ties: TieRule = "mulan", per_instance: bool = False
) -> float | np.ndarray:
    """Ranking loss, eq. (5)-(6) of Yang & Gopal (2012): the fraction of relevant/irrelevant pairs ranked wrongly.

    .. math::

        RL(x_i) = \\frac{|\\{(c, c') \\in R_i \\times \\bar R_i : r_i(c) > r_i(c')\\}|}{|R_i|\\,|\\bar R_i|}

    An instance whose labels are all relevant or all irrelevant has no pair and scores 0 (MULAN). With
    ``ties="pessimistic"`` a tied pair counts as an error, which is scikit-learn's ``label_ranking_loss``.

    Parameters
    ----------
    Y, scores, ties, per_instance
        As in :func:`average_precision`.

    Returns
    -------
    float or numpy.ndarray of shape (n_instances,)
        RankLoss in [0, 1] (lower is better), or the per-instance values.

    References
    ----------
    Schapire & Singer (2000); Elisseeff & Weston (2001); Yang & Gopal (2012), eq. (5)-(6).

    Examples
    --------
    >>> ranking_loss([[1, 0, 1]], [[0.9, 0.8, 0.1]])   # of the pairs (0,1), (2,1) only (2,1) is reversed
    0.5
    """
    rel = _relevance_in_rank_order(Y, scores, ties)
    m = rel.shape[1]
    n_rel = rel.sum(axis=1)
    n_irr = m - n_rel
    irrelevant_above = np.cumsum(1 - rel, axis=1)  # irrelevant labels at this rank or above
    reversed_pairs = (irrelevant_above * rel).sum(axis=1)
    pairs = n_rel * n_irr
    rl = np.divide(reversed_pairs, pairs, out=np.zeros(len(rel)), where=pairs > 0)
    return rl if per_instance else float(rl.mean())


def ndcg(
    Y: Any, scores: Any, *, ties: TieRule = "mulan", per_instance: bool = False
) -> float | np.ndarray:
    """Normalized Discounted Cumulative Gain with binary relevance, eq. (7)-(9) of Yang & Gopal (2012).

    .. math::

        NDCG(x_i) = \\frac{DCG(x_i)}{IDCG(x_i)}, \\quad
        DCG(x_i) = \\sum_{c \\in R_i} \\frac{1}{\\log(1 + r_i(c))}, \\quad
        IDCG(x_i) = \\sum_{k=1}^{|R_i|} \\frac{1}{\\log(1 + k)}

    The base of the logarithm cancels in the ratio (``log_b x = ln x / ln b``), so natural logs are used and the
    value equals the usual base-2 NDCG. Instances with no relevant label (0/0) are skipped, as in MAP.

    Parameters
    ----------
    Y, scores, ties, per_instance
        As in :func:`average_precision`.

    Returns
    -------
    float or numpy.ndarray of shape (n_instances,)
        NDCG in (0, 1] (NaN if no instance has a relevant label), or the per-instance values.

    References
    ----------
    Järvelin & Kekäläinen (2000); Yang & Gopal (2012), eq. (7)-(9).

    Examples
    --------
    >>> round(ndcg([[1, 0, 1]], [[0.9, 0.8, 0.1]]), 6)   # (1/log 2 + 1/log 4) / (1/log 2 + 1/log 3)
    0.919721
    """
    rel = _relevance_in_rank_order(Y, scores, ties)
    m = rel.shape[1]
    discount = 1.0 / np.log1p(np.arange(1, m + 1))
    n_rel = rel.sum(axis=1)
    dcg = rel @ discount
    ideal = np.concatenate(([0.0], np.cumsum(discount)))[n_rel]
    with np.errstate(invalid="ignore", divide="ignore"):
        values = dcg / ideal
    values[n_rel == 0] = np.nan
    return values if per_instance else _mean_skipping_nan(values)


def one_error(
    Y: Any, scores: Any, *, ties: TieRule = "mulan", per_instance: bool = False
) -> float | np.ndarray:
    """One-error, eq. (17) of Yang & Gopal (2012): how often the top-ranked label is not relevant.

    .. math::

        OneError(D) = \\frac{1}{n} \\sum_{i=1}^{n} I\\big(c_i^{(1)} \\notin R_i\\big) = 1 - \\mathrm{prec@1}

    An instance with no relevant label scores 1 (MULAN). Which label is on top when several share the highest
    score is decided by ``ties``.

    Parameters
    ----------
    Y, scores, ties, per_instance
        As in :func:`average_precision`.

    Returns
    -------
    float or numpy.ndarray of shape (n_instances,)
        One-error in [0, 1] (lower is better), or the per-instance 0/1 values.

    References
    ----------
    Schapire & Singer (2000); Yang & Gopal (2012), eq. (17).

    Examples
    --------
    >>> one_error([[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [0.9, 0.8, 0.1]])
    0.5
    """
    rel = _relevance_in_rank_order(Y, scores, ties)
    values = 1.0 - rel[:, 0]
    return values if per_instance else float(values.mean())


def coverage(
    Y: Any, scores: Any, *, ties: TieRule = "mulan", per_instance: bool = False
) -> float | np.ndarray:
    """Coverage, eq. (18) of Yang & Gopal (2012): how far down the list one goes to find every relevant label.

    .. math::

        Coverage(D) = \\frac{1}{n} \\sum_{i=1}^{n} \\Big(\\max_{c \\in R_i} r_i(c) - 1\\Big)

    MULAN's ``Coverage``: the rank of the worst relevant label minus 1, so a perfect ranking scores
    :math:`|R_i| - 1` and an instance with no relevant label scores 0. scikit-learn's ``coverage_error`` has no
    "-1" and counts ties against the system; with ``ties="pessimistic"``, ``coverage = coverage_error - 1`` on
    every instance with a relevant label.

    Parameters
    ----------
    Y, scores, ties, per_instance
        As in :func:`average_precision`.

    Returns
    -------
    float or numpy.ndarray of shape (n_instances,)
        Coverage in [0, m - 1] (lower is better), or the per-instance values.

    References
    ----------
    Schapire & Singer (2000); Yang & Gopal (2012), eq. (18); MULAN ``Coverage``.

    Examples
    --------
    >>> coverage([[1, 0, 1]], [[0.9, 0.8, 0.1]])   # worst relevant label at rank 3
    2.0
    """
    rel = _relevance_in_rank_order(Y, scores, ties)
    m = rel.shape[1]
    deepest = (rel * np.arange(1, m + 1)).max(axis=1)  # 0 when no label is relevant
    values = np.maximum(deepest - 1, 0).astype(np.float64)
    return values if per_instance else float(values.mean())
