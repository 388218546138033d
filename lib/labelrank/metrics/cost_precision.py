r"""Cost-based precision, A-Precision, R-Precision and F-measure: Li, Bontcheva & Cunningham (2007), eq. (2)-(5).

Single-label classification (section 2.4)
-----------------------------------------
:func:`cost_precision` is eq. (3): the precision of one class ``X`` in which every example the system put into
``X`` is credited with ``1 - c(y_e, X)``, its true class ``y_e`` against ``X``; with the binary cost it is the
ordinary precision of eq. (2). :func:`cost_recall` is the mirror image over the examples whose true class is ``X``.

One document with several true labels (sections 3.1-3.2)
--------------------------------------------------------
A document (an NTCIR-6 patent) has a set :math:`T^*` of true labels (F-terms); a system returns a list :math:`S_1`
of labels (a prefix of its ranking, or its assigned set). With a label similarity :math:`s(F, G)` in [0, 1] and
:math:`s(F, F) = 1` (the BDM, or ``1 - cost``), and :math:`T = S_1 \cap T^*` the exact matches, each listed label
:math:`F` earns a credit :math:`g(F)` and the precision is :math:`\sum_{F \in S_1} g(F) / |S_1|`:

``"binary"`` (eq. 2)
    :math:`g(F) = 1` if :math:`F \in T^*`, else 0.
``"high"`` (BDM-High, eq. 4)
    :math:`g(F) = \max_{G \in T^*} s(F, G)`: every listed label earns its best similarity to any true label.
``"low"`` (BDM-Low, eq. 5)
    :math:`g(F) = 1` for :math:`F \in T`; a wrong label :math:`F \in S_1 - T` earns
    :math:`\max_{G \in T^* - S_1} s(F, G)`, its best similarity to a true label the list *missed*
    (0 when none is missed). This reads eq. (5)'s sum over :math:`S_1 - T` with the text's pairing of the wrong
    listed labels with the missed true ones. With ``low_rule="matching"`` the wrong labels and the missed true ones
    are instead paired one-to-one (a maximum-weight matching), so that a missed true label credits at most one
    wrong listed label.

By construction binary <= low <= high: the exact matches earn 1 in all three, a wrong label earns 0, then a
maximum over a subset (the missed true labels), then a maximum over all true labels; the matching pairs each
wrong label with at most one missed true label, so ``"matching"`` <= ``"best"``.

Recall is the same idea seen from the true labels ("symmetric" recall): each true label earns 1 if listed; under
``"high"`` its best similarity to any listed label; under ``"low"`` a missed true label earns its best similarity
to a wrong listed label (the :math:`BDM_F` of the text of eq. 5). The F-measure is :math:`2PR / (P + R)`.

A-Precision and R-Precision of a ranked list (cut at ``cutoff`` = 200, the NTCIR-6 limit) follow trec_eval, with
the binary precision replaced by the cost-based one and *nothing else changed* (the paper modified "the part of the
precision computations in the script"): the recall levels are the ranks of the exactly matched true labels, and

.. math::

    \text{A-Precision} = \frac{1}{|T^*|} \sum_{k : F_k \in T^*} P_v(S_1 = F_1..F_k), \qquad
    \text{R-Precision} = \frac{\sum_{F \in F_1..F_R} g_R(F)}{R}, \quad R = |T^*|,

where :math:`g_R` is the credit within the top-R prefix (a list shorter than R still divides by R).

The per-document functions (:func:`set_precision`, :func:`set_recall`, :func:`set_f_measure`, :func:`a_precision`,
:func:`r_precision`) are the definitions, written for reading; :class:`CostScorer` computes the same numbers for
many documents at once with numpy (one similarity matrix per tree, e.g. :func:`labelrank.cost.bdm_matrix`).

References
----------
Li, Bontcheva & Cunningham (2007), "Cost-sensitive evaluation measures for F-term patent classification";
Iwayama et al. (2007), the NTCIR-6 patent classification task; trec_eval.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from labelrank.validation import (
    describe_value, check_choice, check_label_matrix, check_positive_int, check_score_matrix,
)
from labelrank.metrics.decision import harmonic_f
from labelrank.metrics.ranking import rank_labels

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "VARIANTS",
    "LOW_RULES",
    "MEASURES",
    "cost_precision",
    "cost_recall",
    "mean_cost_credit",
    "mean_set_credit",
    "missed_credit",
    "set_precision",
    "set_recall",
    "set_f_measure",
    "a_precision",
    "r_precision",
    "recall_level_precision",
    "CostScorer",
    "lists_from_matrix",
    "ranking_from_scores",
]

Variant = Literal["binary", "high", "low"]
LowRule = Literal["best", "matching"]
RecallRule = Literal["symmetric", "binary"]

VARIANTS: tuple[str, ...] = ("binary", "high", "low")
LOW_RULES: tuple[str, ...] = ("best", "matching")
RECALL_RULES: tuple[str, ...] = ("symmetric", "binary")
MEASURES: tuple[str, ...] = ("A-Precision", "R-Precision", "F-measure")
#: The cells of one (document, listed label, true label) array that :meth:`CostScorer.score` works on at once.
BLOCK_CELLS = 2 ** 17


# ------------------------------------------------------------------------------------------------- validation
def check_similarity(similarity: Any) -> tuple[tuple[str, ...], np.ndarray]:
    """Validate a square label-similarity DataFrame; return its labels and values."""
    import pandas as pd

    if not isinstance(similarity, pd.DataFrame):
        raise TypeError(
            "similarity must be a pandas DataFrame indexed by labels on both axes (e.g. labelrank.cost.bdm_matrix), "
            f"got {describe_value(similarity)}"
        )
    labels = tuple(similarity.index)
    if tuple(similarity.columns) != labels:
        raise ValueError("similarity must have the same labels, in the same order, as its index and its columns")
    if len(set(labels)) != len(labels):
        raise ValueError("similarity's index repeats a label")
    values = similarity.to_numpy(dtype=np.float64)
    bad = ~np.isfinite(values) | (values < 0) | (values > 1)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"similarity must lie in [0, 1], got {values[i, j]!r} at ({labels[i]!r}, {labels[j]!r})"
        )
    off = np.flatnonzero(np.diag(values) != 1.0)
    if off.size:
        raise ValueError(
            f"similarity of a label with itself must be 1, got {values[off[0], off[0]]!r} for {labels[off[0]]!r}"
        )
    return labels, values


def _check_labels(values: Any, name: str, *, known: Collection[str] | None, allow_empty: bool) -> list[str]:
    """A list of distinct labels (strings), each in ``known`` when given."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Collection):
        raise TypeError(f"{name} must be a collection of labels, got {describe_value(values)}")
    out = list(values)
    if not out and not allow_empty:
        raise ValueError(f"{name} must hold at least one label, got {describe_value(values)}")
    seen: set[str] = set()
    for lab in out:
        if not isinstance(lab, str):
            raise TypeError(f"{name} must hold labels (str), got {describe_value(lab)} in {describe_value(values)}")
        if lab in seen:
            raise ValueError(f"{name} lists label {lab!r} more than once")
        seen.add(lab)
        if known is not None and lab not in known:
            raise ValueError(f"{name} holds label {lab!r}, which the similarity matrix does not know")
    return out


def _prepare(
    true: Any, listed: Any, similarity: Any, variant: str, low_rule: str, listed_name: str
) -> tuple[list[str], list[str], np.ndarray]:
    """Validate one document's inputs; return (true, listed, W) with W[i, j] = s(listed[i], true[j])."""
    check_choice(variant, "variant", VARIANTS)
    check_choice(low_rule, "low_rule", LOW_RULES)
    if variant == "binary":
        true_ = _check_labels(true, "true", known=None, allow_empty=False)
        listed_ = _check_labels(listed, listed_name, known=None, allow_empty=True)
        W = np.array([[float(a == b) for b in true_] for a in listed_]).reshape(len(listed_), len(true_))
        return true_, listed_, W
    if similarity is None:
        raise ValueError(f"variant={variant!r} needs a similarity matrix, got similarity=None")
    labels, S = check_similarity(similarity)
    index = {lab: i for i, lab in enumerate(labels)}
    true_ = _check_labels(true, "true", known=index, allow_empty=False)
    listed_ = _check_labels(listed, listed_name, known=index, allow_empty=True)
    W = S[np.ix_([index[a] for a in listed_], [index[b] for b in true_])]
    return true_, listed_, W


def missed_credit(W: np.ndarray, wrong: np.ndarray, missed: np.ndarray, low_rule: str, axis: int) -> float:
    """BDM-Low's partial credit: wrong listed labels (rows) against missed true labels (columns).

    ``"best"`` sums, along the rows (``axis=1``: per wrong listed label, for precision) or the columns (``axis=0``:
    per missed true label, for recall), the best similarity on the other side; ``"matching"`` sums a one-to-one
    maximum-weight matching, the same for both sides.

    Parameters
    ----------
    W : numpy.ndarray of shape (n_listed, n_true)
        ``W[i, j]``: the similarity of the i-th listed label to the j-th true label.
    wrong, missed : numpy.ndarray of bool
        The listed labels that are no true label, the true labels that were not listed.
    low_rule : {"best", "matching"}
    axis : {1, 0}
        1 for precision (per listed label), 0 for recall (per true label).

    Returns
    -------
    float
        The summed credit (not yet divided by the list's length).

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 0.4], [0.0, 0.3]])  # listed a, x, y against true a, b
    >>> wrong, missed = np.array([False, True, True]), np.array([False, True])
    >>> missed_credit(W, wrong, missed, "best", axis=1), missed_credit(W, wrong, missed, "matching", axis=1)
    (0.7, 0.4)
    """
    sub = W[np.ix_(wrong, missed)]
    if sub.size == 0:
        return 0.0
    if low_rule == "matching":
        from scipy.optimize import linear_sum_assignment  # lazy: scoring without matchings needs no scipy

        rows, cols = linear_sum_assignment(sub, maximize=True)
        return float(sub[rows, cols].sum())
    return float(sub.max(axis=axis).sum())


def mean_set_credit(
    true_: list[str], listed_: list[str], W: np.ndarray, variant: str, low_rule: str, axis: int
) -> float:
    """Mean credit g of eq. (2), (4) or (5) per listed label (``axis=1``: precision) or true label (``axis=0``: recall).

    ``W[i, j] = s(listed_[i], true_[j])``. An exact match earns 1 under every variant; any other label earns 0
    (``"binary"``), its best similarity to the other side (``"high"``: the maximum of its row or column of ``W``),
    or, between a wrong listed label and a missed true label only, :func:`missed_credit` (``"low"``). An empty
    list scores 0.

    Parameters
    ----------
    true_, listed_ : list of str
        The document's true labels and the labels listed (a ranked list's head, or the assigned set).
    W : numpy.ndarray of shape (len(listed_), len(true_))
        Similarities of the listed labels to the true labels.
    variant : {"binary", "high", "low"}
    low_rule : {"best", "matching"}
        BDM-Low's pairing of wrong and missed labels (:func:`missed_credit`).
    axis : {1, 0}
        1 for precision (per listed label), 0 for recall (per true label).

    Returns
    -------
    float

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 0.4], [0.0, 0.3]])
    >>> [round(mean_set_credit(["a", "b"], ["a", "x", "y"], W, v, "best", axis=1), 4) for v in VARIANTS]
    [0.3333, 0.5667, 0.5667]
    """
    if not listed_:
        return 0.0
    true_set, found = set(true_), set(listed_)
    hit = np.array([lab in true_set for lab in listed_])  # listed label F is an exact match (in T)
    got = np.array([lab in found for lab in true_])  # true label G was listed (in T)
    exact, n = (hit, len(listed_)) if axis == 1 else (got, len(true_))
    if variant == "binary":
        return float(exact.sum() / n)
    if variant == "high":
        return float(W.max(axis=axis).sum() / n)
    extra = missed_credit(W, ~hit, ~got, low_rule, axis=axis)  # wrong listed F (S1 - T) x missed true G (T* - S1)
    return float((exact.sum() + extra) / n)


# ------------------------------------------------------------------------------------------- eq. (3), one class
def _cost_function(cost: Any) -> Callable[[Any, Any], float]:
    import pandas as pd

    if isinstance(cost, pd.DataFrame):
        return lambda key, response: float(cost.loc[key, response])
    if callable(cost):
        return cost
    raise TypeError(f"cost must be a DataFrame cost.loc[key, response] or a callable c(key, response), got "
                    f"{describe_value(cost)}")


def _check_single_label(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    yt = np.asarray(y_true, dtype=object)
    yp = np.asarray(y_pred, dtype=object)
    for name, arr, orig in (("y_true", yt, y_true), ("y_pred", yp, y_pred)):
        if arr.ndim != 1:
            raise ValueError(f"{name} must be a 1-D sequence of class labels, got shape {arr.shape} in {describe_value(orig)}")
    if yt.shape != yp.shape:
        raise ValueError(f"y_true and y_pred must have the same length, got {len(yt)} and {len(yp)}")
    return yt, yp


def mean_cost_credit(examples: list[tuple[Any, Any]], cost: Callable[[Any, Any], float]) -> float:
    """Mean credit ``1 - cost(key, response)`` over ``examples``, (key, response) pairs; NaN when there is none.

    Every cost must lie in [0, 1]; an error names the first that does not.

    Parameters
    ----------
    examples : list of (key, response)
        The test examples of eq. (3): each example's true class and the class it was put into.
    cost : callable
        ``cost(key, response)`` in [0, 1], for example ``1 - bdm(tree, key, response)``.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_cost_credit([("a", "a"), ("b", "a")], lambda k, r: 0.0 if k == r else 0.75)
    0.625
    """
    if not examples:
        return float("nan")
    credits = [1.0 - float(cost(key, response)) for key, response in examples]
    for (key, response), value in zip(examples, credits):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"cost must lie in [0, 1], got cost({key!r}, {response!r}) = {1.0 - value!r}")
    return float(sum(credits) / len(examples))


def cost_precision(y_true: Sequence[Any], y_pred: Sequence[Any], label: Any, cost: Any) -> float:
    r"""Cost-based precision of one class in single-label classification, eq. (3) of Li et al. (2007).

    .. math::

        P_{cost}(X) = \frac{\sum_{e \in S} \bigl(1 - c(y_e, X)\bigr)}{|S|}, \qquad S = \{e : \hat y_e = X\},

    where :math:`y_e` is the true class of example :math:`e` and :math:`c(K, R)` the cost of answering :math:`R`
    when the truth is :math:`K`. The paper writes the sum over :math:`S_0` and calls it "the examples in S that
    belong to class X"; read literally (true class X, predicted X) every term would be 1 and the cost would never
    enter, so the sum runs over all of S, each example credited by how close its true class is to X. With the
    binary cost, :math:`c(K, R) = [K \ne R]`, this is eq. (2), :math:`n_{match} / |S|`.

    Parameters
    ----------
    y_true, y_pred : sequence of labels
        True and predicted class of each example.
    label : label
        The class X.
    cost : pandas.DataFrame or callable
        ``cost.loc[key, response]`` (e.g. ``1 - bdm_matrix(tree)``) or ``cost(key, response)``, in [0, 1].

    Returns
    -------
    float
        In [0, 1]; NaN when no example was predicted as ``label`` (0/0).

    References
    ----------
    Li, Bontcheva & Cunningham (2007), eq. (2)-(3).

    Examples
    --------
    >>> binary = lambda key, response: float(key != response)
    >>> cost_precision(["a", "b", "a"], ["a", "a", "b"], "a", binary)
    0.5
    >>> cost_precision(["a", "b", "a"], ["a", "a", "b"], "a", lambda k, r: 0.0 if k == r else 0.25)
    0.875
    """
    yt, yp = _check_single_label(y_true, y_pred)
    c = _cost_function(cost)
    in_S = [(k, label) for k, p in zip(yt, yp) if p == label]  # the examples predicted as X, as (y_e, X)
    return mean_cost_credit(in_S, c)  # the mean of 1 - c(y_e, X); NaN for an empty S


def cost_recall(y_true: Sequence[Any], y_pred: Sequence[Any], label: Any, cost: Any) -> float:
    r"""Cost-based recall of one class, the mirror image of :func:`cost_precision`.

    .. math::

        R_{cost}(X) = \frac{\sum_{e \in S_0} \bigl(1 - c(X, \hat y_e)\bigr)}{|S_0|}, \qquad S_0 = \{e : y_e = X\},

    every example of class X credited by how close the predicted class is to X. (The other reading of eq. (3):
    this sum over :math:`S_0` divided by :math:`|S|` instead of :math:`|S_0|` is not a precision and can
    exceed 1.)

    Parameters
    ----------
    y_true, y_pred, label, cost
        As in :func:`cost_precision`.

    Returns
    -------
    float
        In [0, 1]; NaN when no example is of class ``label``.

    Examples
    --------
    >>> cost_recall(["a", "b", "a"], ["a", "a", "b"], "a", lambda k, r: 0.0 if k == r else 0.25)
    0.875
    """
    yt, yp = _check_single_label(y_true, y_pred)
    c = _cost_function(cost)
    in_S0 = [(label, p) for k, p in zip(yt, yp) if k == label]  # the examples of class X, as (X, predicted class)
    return mean_cost_credit(in_S0, c)  # the mean of 1 - c(X, predicted class); NaN for an empty S0


# ------------------------------------------------------------------------------ eq. (4)-(5), one document
def set_precision(
    true: Collection[str],
    listed: Sequence[str],
    similarity: pd.DataFrame | None = None,
    variant: Variant = "binary",
    *,
    low_rule: LowRule = "best",
) -> float:
    r"""Precision of a list (or set) of labels against a document's true labels: eq. (2), (4) or (5).

    With :math:`T = S_1 \cap T^*`,

    .. math::

        P_{binary} = \frac{|T|}{|S_1|}, \qquad
        P_{BDMhigh} = \frac{\sum_{F \in S_1} \max_{G \in T^*} s(F, G)}{|S_1|}, \qquad
        P_{BDMlow} = \frac{\sum_{F \in S_1 - T} \max_{G \in T^* - S_1} s(F, G) + |T|}{|S_1|}.

    Parameters
    ----------
    true : collection of str
        The document's true labels :math:`T^*` (at least one, no repeats).
    listed : sequence of str
        The system's labels :math:`S_1` (no repeats; order is irrelevant here).
    similarity : pandas.DataFrame, optional
        Square label similarity, ``similarity.loc[F, G]`` in [0, 1] with 1 on the diagonal
        (:func:`labelrank.cost.bdm_matrix`); needed unless ``variant="binary"``.
    variant : {"binary", "high", "low"}
    low_rule : {"best", "matching"}
        How ``"low"`` pairs wrong listed labels with missed true ones (see the module docstring).

    Returns
    -------
    float
        In [0, 1]; 0 for an empty list.

    References
    ----------
    Li, Bontcheva & Cunningham (2007), eq. (2), (4), (5).

    Examples
    --------
    >>> import pandas as pd
    >>> sim = pd.DataFrame([[1, .5, 0], [.5, 1, 0], [0, 0, 1]], index=list("abc"), columns=list("abc"))
    >>> [set_precision(["a", "c"], ["b", "c"], sim, v) for v in ("binary", "high", "low")]
    [0.5, 0.75, 0.75]
    >>> set_precision(["a", "b"], ["a", "c"], sim, "high"), set_precision(["a", "b"], ["a", "c"], sim, "low")
    (0.5, 0.5)
    """
    true_, listed_, W = _prepare(true, listed, similarity, variant, low_rule, "listed")
    return mean_set_credit(true_, listed_, W, variant, low_rule, axis=1)  # credit each listed label F


def set_recall(
    true: Collection[str],
    listed: Sequence[str],
    similarity: pd.DataFrame | None = None,
    variant: Variant = "binary",
    *,
    low_rule: LowRule = "best",
) -> float:
    r"""Recall of a set of labels against a document's true labels, in the binary, BDM-High or BDM-Low variant.

    The symmetric counterpart of :func:`set_precision`, each true label credited instead of each listed one:

    .. math::

        R_{binary} = \frac{|T|}{|T^*|}, \qquad
        R_{BDMhigh} = \frac{\sum_{G \in T^*} \max_{F \in S_1} s(F, G)}{|T^*|}, \qquad
        R_{BDMlow} = \frac{\sum_{G \in T^* - S_1} \max_{F \in S_1 - T} s(F, G) + |T|}{|T^*|}.

    The low variant's credit of a missed true label :math:`G` is the :math:`BDM_F` that the text of section 3.2
    defines ("for each F of those true F-terms which are not in the subset S1, the maximal BDM among the BDMs
    between F and the F-terms in S1 - T"). Parameters and return value as in :func:`set_precision` (0 for an
    empty list).

    Examples
    --------
    >>> import pandas as pd
    >>> sim = pd.DataFrame([[1, .5, 0], [.5, 1, 0], [0, 0, 1]], index=list("abc"), columns=list("abc"))
    >>> [set_recall(["a", "c"], ["b"], sim, v) for v in ("binary", "high", "low")]
    [0.0, 0.25, 0.25]
    """
    true_, listed_, W = _prepare(true, listed, similarity, variant, low_rule, "listed")
    return mean_set_credit(true_, listed_, W, variant, low_rule, axis=0)  # credit each true label G


def set_f_measure(
    true: Collection[str],
    assigned: Sequence[str],
    similarity: pd.DataFrame | None = None,
    variant: Variant = "binary",
    *,
    low_rule: LowRule = "best",
    recall: RecallRule = "symmetric",
) -> float:
    r"""F-measure of an assigned set of labels, :math:`F = 2PR / (P + R)` (0 when P + R = 0).

    P is :func:`set_precision`; R is :func:`set_recall` of the same variant (``recall="symmetric"``) or always the
    binary recall (``recall="binary"``: only the precision made cost-based, the other reading of the paper's
    "modifications on the part of the precision computations"). Either way F inherits binary <= low <= high.

    Parameters
    ----------
    true, assigned, similarity, variant, low_rule
        As in :func:`set_precision`.
    recall : {"symmetric", "binary"}

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> import pandas as pd
    >>> sim = pd.DataFrame([[1, .5, 0], [.5, 1, 0], [0, 0, 1]], index=list("abc"), columns=list("abc"))
    >>> set_f_measure(["a", "c"], ["b", "c"], sim, "high")   # P = 0.75, R = 0.75
    0.75
    """
    check_choice(recall, "recall", RECALL_RULES)
    p = set_precision(true, assigned, similarity, variant, low_rule=low_rule)
    r_variant = variant if recall == "symmetric" else "binary"
    r = set_recall(true, assigned, similarity, r_variant, low_rule=low_rule)
    return float(harmonic_f(p, r))


def a_precision(
    true: Collection[str],
    ranking: Sequence[str],
    similarity: pd.DataFrame | None = None,
    variant: Variant = "binary",
    *,
    cutoff: int = 200,
    low_rule: LowRule = "best",
) -> float:
    r"""A-Precision of a ranked list: the mean of the precisions at the ranks of the true labels (trec_eval's AP).

    .. math::

        \text{A-Precision} = \frac{1}{|T^*|} \sum_{k \le \text{cutoff},\ F_k \in T^*} P_v(F_1, \dots, F_k),

    :math:`P_v` being :func:`set_precision` of the prefix in the chosen variant. The recall levels are the ranks of
    the exactly matched true labels, as in the binary measure; a true label missing from the list (or below the
    cutoff) contributes 0, so the denominator is always :math:`|T^*|`.

    Parameters
    ----------
    true, similarity, variant, low_rule
        As in :func:`set_precision`.
    ranking : sequence of str
        The ranked labels, best first, no repeats.
    cutoff : int
        Only the first ``cutoff`` labels count (200 in NTCIR-6).

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> round(a_precision(["a", "c"], ["a", "b", "c"]), 4)          # (1/1 + 2/3) / 2
    0.8333
    """
    cutoff = check_positive_int(cutoff, "cutoff")
    true_set = set(_check_labels(true, "true", known=None, allow_empty=False))
    ranking = list(_check_labels(ranking, "ranking", known=None, allow_empty=True))[:cutoff]
    total = 0.0
    for k, label in enumerate(ranking, start=1):
        if label in true_set:
            total += set_precision(true, ranking[:k], similarity, variant, low_rule=low_rule)
    return total / len(true_set)


def r_precision(
    true: Collection[str],
    ranking: Sequence[str],
    similarity: pd.DataFrame | None = None,
    variant: Variant = "binary",
    *,
    cutoff: int = 200,
    low_rule: LowRule = "best",
) -> float:
    r"""R-Precision of a ranked list: the precision of its top :math:`R = |T^*|` labels (trec_eval).

    .. math::

        \text{R-Precision} = \frac{|S_1| \, P_v(S_1)}{R}, \qquad S_1 = F_1, \dots, F_{\min(R, n, \text{cutoff})},

    which is :math:`P_v(F_1..F_R)` when the list has at least R labels; a shorter list still divides by R.

    Parameters and return value as in :func:`a_precision`.

    Examples
    --------
    >>> r_precision(["a", "c"], ["a", "b", "c"])          # 1 of the top 2
    0.5
    """
    cutoff = check_positive_int(cutoff, "cutoff")
    true_ = _check_labels(true, "true", known=None, allow_empty=False)
    ranking = list(_check_labels(ranking, "ranking", known=None, allow_empty=True))[:cutoff]
    prefix = ranking[: len(true_)]
    if not prefix:
        return 0.0
    return set_precision(true, prefix, similarity, variant, low_rule=low_rule) * len(prefix) / len(true_)


def recall_level_precision(
    true: Collection[str],
    ranking: Sequence[str],
    similarity: pd.DataFrame | None = None,
    variant: Variant = "binary",
    *,
    levels: int = 11,
    cutoff: int = 200,
    low_rule: LowRule = "best",
) -> float:
    r"""The mean of the interpolated precisions at ``levels`` evenly spaced recall levels (the seed's R-Precision).

    Li et al. define R-Precision as "the mean of the precisions at some predefined recall levels"; with the
    eleven levels :math:`r = 0, 0.1, \dots, 1` this is TREC's 11-point interpolated average precision (trec_eval's
    ``iprec_at_recall``, averaged):

    .. math::

        \frac{1}{L} \sum_{r \in \{0, \frac{1}{L-1}, \dots, 1\}} \max_{k \le \text{cutoff}:\ \text{recall}(k) \ge r}
        P_v(F_1, \dots, F_k),

    recall(k) being the fraction of the true labels among the first k and the maximum 0 when no cutoff reaches
    r. A level r is reached, as trec_eval counts it, once :math:`\lfloor r\,|T^*| + 0.9 \rfloor` true labels
    are in (the rule of its historical implementations; the levels are :math:`i / (L - 1)` in floating point, so
    that the eleven are trec_eval's own). :func:`r_precision`, which NTCIR-6's script and the rest of the library
    compute, is the precision of the top :math:`R = |T^*|` instead.

    Parameters
    ----------
    true, ranking, similarity, variant, cutoff, low_rule
        As in :func:`a_precision`.
    levels : int
        The number of recall levels, from 0 to 1 (at least 2).

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> round(recall_level_precision(["a", "c"], ["a", "b", "c"]), 4)  # 1 up to recall 0.5, then 2/3
    0.8485
    """
    cutoff = check_positive_int(cutoff, "cutoff")
    levels = check_positive_int(levels, "levels")
    if levels < 2:
        raise ValueError(f"levels must be at least 2 (recall 0 and 1), got {levels}")
    true_set = set(_check_labels(true, "true", known=None, allow_empty=False))
    ranking = list(_check_labels(ranking, "ranking", known=None, allow_empty=True))[:cutoff]
    found, best_from = 0, np.zeros(len(true_set) + 1)  # best_from[m]: the best precision once m true labels are in
    for k, label in enumerate(ranking, start=1):
        found += label in true_set
        best_from[found] = max(best_from[found], set_precision(true, ranking[:k], similarity, variant,
                                                               low_rule=low_rule))
    best_from = np.maximum.accumulate(best_from[::-1])[::-1]  # at least m true labels in
    needed = (np.arange(levels) / (levels - 1) * len(true_set) + 0.9).astype(int)  # true labels that reach r
    return float(best_from[needed].mean())


# ------------------------------------------------------------------------------------------- many documents
def lists_from_matrix(Y: Any) -> np.ndarray:
    """The column indices of the 1 entries of each row of a 0/1 matrix, left-aligned and padded with -1.

    Examples
    --------
    >>> lists_from_matrix([[0, 1, 1], [0, 0, 0], [1, 0, 0]]).tolist()
    [[1, 2], [-1, -1], [0, -1]]
    """
    Yb = check_label_matrix(Y, "Y", dtype=bool)
    width = max(int(Yb.sum(axis=1).max()), 1)
    order = np.argsort(~Yb, axis=1, kind="stable")[:, :width]
    return np.where(np.take_along_axis(Yb, order, axis=1), order, -1)


def ranking_from_scores(scores: Any, cutoff: int | None = None) -> np.ndarray:
    """Column indices of each row's labels by decreasing score (ties: :func:`labelrank.metrics.rank_labels`).

    Parameters
    ----------
    scores : array-like of shape (n_documents, n_labels)
    cutoff : int, optional
        Keep the first ``cutoff`` labels of each ranking.

    Returns
    -------
    numpy.ndarray of int, shape (n_documents, min(n_labels, cutoff))

    Examples
    --------
    >>> ranking_from_scores([[0.1, 0.9, 0.5]]).tolist()
    [[1, 2, 0]]
    """
    S = check_score_matrix(scores)
    order = np.argsort(rank_labels(S), axis=1)
    if cutoff is not None:
        order = order[:, : check_positive_int(cutoff, "cutoff")]
    return order


class CostScorer:
    """Binary, BDM-High and BDM-Low A-Precision, R-Precision and F-measure of many documents at once.

    :meth:`score` works on padded integer arrays with numpy, in blocks of documents. The numbers are those of
    :func:`a_precision`, :func:`r_precision` and :func:`set_f_measure`. The label similarity comes either from a
    square matrix (validated once), or, with :meth:`from_tree`, from the tree's BDM computed only for the
    (listed, true) pairs that the scored documents hold (:class:`labelrank.cost.BDMIndex`): the cost of scoring
    grows with the runs, not with the square of the tree, so a tree of 100,000 labels is fine.

    Parameters
    ----------
    similarity : pandas.DataFrame
        Square label similarity with 1 on the diagonal, e.g. ``labelrank.cost.bdm_matrix(tree)``.

    Attributes
    ----------
    labels : tuple of str
        The labels; label ``i`` of an integer input is ``labels[i]``.
    matrix : numpy.ndarray
        The similarity values of every pair of labels (for a scorer built by :meth:`from_tree`, computed on first
        access: n_labels squared floats).
    matrix_built : bool
        Whether :attr:`matrix` is held.

    Examples
    --------
    >>> import pandas as pd
    >>> sim = pd.DataFrame([[1, .5, 0], [.5, 1, 0], [0, 0, 1]], index=list("abc"), columns=list("abc"))
    >>> CostScorer(sim).score([["a", "c"]], ranking=[["b", "c", "a"]], assigned=[["b", "c"]]).round(4)
    ... # doctest: +NORMALIZE_WHITESPACE
    variant      binary    high     low
    measure
    A-Precision  0.5833  0.7917  0.7083
    R-Precision  0.5000  0.7500  0.7500
    F-measure    0.5000  0.7500  0.7500
    """

    def __init__(self, similarity: pd.DataFrame) -> None:
        self.labels, matrix = check_similarity(similarity)
        self._index = {lab: i for i, lab in enumerate(self.labels)}
        self._matrix: np.ndarray | None = matrix
        self._bdm: Any = None  # a labelrank.cost.BDMIndex when built by from_tree
        self._rows: np.ndarray | None = None  # then, for a tree, each label's row of the BDMIndex

    @classmethod
    def from_tree(cls, tree: Any, labels: Sequence[str] | None = None) -> CostScorer:
        """A scorer with the BDM of ``tree`` as similarity, computed per needed pair (:class:`labelrank.cost.BDMIndex`).

        Parameters
        ----------
        tree : LabelTree
        labels : sequence of str, optional
            The labels the scorer accepts (and the order of integer inputs); all labels of ``tree`` by default.
        """
        from labelrank.cost import BDMIndex, resolve_labels

        bdm = BDMIndex(tree)
        labels = resolve_labels(bdm.tree, labels)
        to_tree = np.array([bdm.tree.index(lab) for lab in labels], dtype=np.int64)
        scorer = cls.__new__(cls)
        scorer.labels = tuple(labels)
        scorer._index = {lab: i for i, lab in enumerate(labels)}
        scorer._matrix = None
        scorer._bdm, scorer._to_tree = bdm, to_tree
        rows = bdm.label_rows
        scorer._rows = None if rows is None else rows[to_tree]  # a tree: each scorer label's row, for rows_bdm
        return scorer

    def _pairs(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Similarity of label ``a[p]`` (listed) to label ``b[p]`` (true), scorer indices."""
        if self._bdm is None:
            return self._matrix[a, b]
        return self._bdm.pairs(self._to_tree[a], self._to_tree[b])

    @property
    def matrix(self) -> np.ndarray:
        if self._matrix is None:  # from_tree: every pair, once
            n = len(self.labels)
            idx = np.arange(n)
            self._matrix = self._pairs(np.repeat(idx, n), np.tile(idx, n)).reshape(n, n)
        return self._matrix

    @property
    def matrix_built(self) -> bool:
        """Whether the similarity of every pair of labels is held (:attr:`matrix`); a scorer built by
        :meth:`from_tree` computes only the pairs it scores until :attr:`matrix` is asked for."""
        return self._matrix is not None

    def encode(self, lists: Any, name: str = "lists") -> np.ndarray:
        """Label lists as a padded integer array (-1 = padding); a 2-D integer array is checked and returned.

        Raises
        ------
        ValueError
            For an unknown label or index, a label repeated within a list, or padding before a label.
        """
        n_labels = len(self.labels)
        if isinstance(lists, np.ndarray) and lists.ndim == 2 and np.issubdtype(lists.dtype, np.integer):
            arr = lists.astype(np.int64, copy=False)
            if arr.size and (arr.max() >= n_labels or arr.min() < -1):
                bad = arr[(arr >= n_labels) | (arr < -1)][0]
                raise ValueError(f"{name} holds label index {bad}, outside -1 (padding) .. {n_labels - 1}")
        else:
            if isinstance(lists, (str, bytes)) or not isinstance(lists, Sequence):
                raise TypeError(f"{name} must be a sequence of label lists or a 2-D int array, got {describe_value(lists)}")
            arr = self._encode_lists(lists)
            if arr is None:  # some list is not one of distinct known labels: say which
                for d, row in enumerate(lists):
                    _check_labels(row, f"{name}[{d}]", known=self._index, allow_empty=True)
                raise AssertionError("unreachable: _encode_lists refused lists that _check_labels accepts")
            return arr
        valid = arr >= 0
        if arr.shape[1] > 1 and np.any(valid[:, 1:] & ~valid[:, :-1]):
            d = int(np.flatnonzero(np.any(valid[:, 1:] & ~valid[:, :-1], axis=1))[0])
            raise ValueError(f"{name}[{d}] has padding (-1) before a label: {arr[d].tolist()}")
        srt = np.sort(arr, axis=1)
        dup = (srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] >= 0)
        if dup.any():
            d = int(np.flatnonzero(dup.any(axis=1))[0])
            raise ValueError(f"{name}[{d}] lists a label more than once: {arr[d].tolist()}")
        return arr

    def _encode_lists(self, lists: Sequence[Any]) -> np.ndarray | None:
        """Label lists as a padded integer array at once, or None when a list is not a collection of distinct
        labels (str) that the scorer knows (:meth:`encode` then names the first such list)."""
        if not all(type(row) is list for row in lists) and any(  # (lists of lists: no need to look closer)
                isinstance(row, (str, bytes)) or not isinstance(row, Collection) for row in lists):
            return None
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        flat = [lab for row in lists for lab in row]
        try:
            codes = np.fromiter(map(self._index.__getitem__, flat), dtype=np.int64, count=len(flat))
        except (KeyError, TypeError):  # an unknown or unhashable label
            return None
        arr = np.full((len(lists), max(int(lengths.max(initial=0)), 1)), -1, dtype=np.int64)
        rows = np.repeat(np.arange(len(lists)), lengths)
        arr[rows, np.arange(len(flat)) - np.repeat(np.cumsum(lengths) - lengths, lengths)] = codes
        srt = np.sort(arr, axis=1)
        if ((srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] >= 0)).any():
            return None
        return arr

    # ------------------------------------------------------------------------------------------ the kernel
    def _numerators(self, T: np.ndarray, L: np.ndarray, W: np.ndarray, eq: np.ndarray) -> dict[str, np.ndarray]:
        """For each document and prefix length k: the summed credits of the first k listed labels per variant.

        ``T`` (n, t) true labels and ``L`` (n, m) listed labels, padded with -1; ``W`` and ``eq`` their
        :meth:`_similarities`. Also returns ``rel``, whether each listed label is a true label.
        """
        Lv = L >= 0
        t = T.shape[1]
        n, m = L.shape
        rel = eq.any(axis=0)  # listed label k is a true label
        wrong = Lv & ~rel
        found_count = np.cumsum(rel, axis=1)  # exact matches within the top k
        high = np.cumsum(W.max(axis=0), axis=1)  # (W is 0 where a label is padding)
        # BDM-Low: a wrong label at rank i earns, within the top k, its best similarity to the true labels not
        # found in the top k. Sort the true labels by the rank at which they are found (never found, then padding,
        # last); after f exact matches the missed ones are the sorted true labels f, f+1, ...: a suffix maximum.
        found_at = np.where(eq.any(axis=2), eq.argmax(axis=2), m)
        found_at = np.where(T.T >= 0, found_at, m + 1)
        order = np.argsort(found_at, axis=0, kind="stable")
        docs = np.arange(n)
        C = np.zeros((t + 1, n, m))  # C[f]: the suffix maximum from sorted true label f; C[t]: nothing left to miss
        for f in range(t - 1, -1, -1):
            np.maximum(W[order[f], docs], C[f + 1], out=C[f])
        C *= wrong
        np.cumsum(C, axis=2, out=C)
        low = found_count + np.take_along_axis(C, found_count[None], axis=0)[0]
        return {"binary": found_count.astype(np.float64), "high": high, "low": low, "rel": rel}

    def _similarities(self, T: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``W[j, d, i]``: the similarity of listed label ``L[d, i]`` to true label ``T[d, j]`` (0 where either is
        padding), and ``eq[j, d, i]``: whether they are the same label.

        The true labels' axis comes first, so that a maximum over them is one over whole (n, m) slices.
        """
        # one row of m listed labels per true label held (the padding of T left out), then put in place
        j, d = np.nonzero(T.T >= 0)
        listed, true = L[d], T[d, j][:, None]
        same = listed == true
        held = listed >= 0
        if self._rows is not None:  # a tree: the formula at once on the whole block, padding masked after
            values = np.where(held, self._bdm.rows_bdm(self._rows[np.maximum(listed, 0)], self._rows[true]), 0.0)
            values[same] = 1.0
        else:
            values = np.zeros(listed.shape)
            values[held] = self._pairs(listed[held], np.broadcast_to(true, listed.shape)[held])
        W = np.zeros((T.shape[1], *L.shape))
        eq = np.zeros(W.shape, dtype=bool)
        W[j, d], eq[j, d] = values, same
        return W, eq

    def _set_numerators(self, T: np.ndarray, A: np.ndarray, W: np.ndarray, eq: np.ndarray
                        ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """For each document's assigned set ``A``: the summed credits of its labels (precision's numerators) and
        of the true labels (recall's, symmetric), per variant; what :meth:`_numerators` gives at a list's end.

        A label earns, in BDM-High, its best similarity to any true label (a true label: its best similarity to
        any assigned one); in BDM-Low, an exact match earns 1 and a wrong label its best similarity to a true
        label the set misses (a missed true label: its best similarity to a wrong assigned one). ``W`` and ``eq``
        are the :meth:`_similarities` of ``T`` and ``A``.
        """
        got = eq.any(axis=2)  # true label j was assigned
        n_got = got.sum(axis=0).astype(np.float64)
        wrong = (A >= 0) & ~eq.any(axis=0)
        W_low = np.where(wrong[None] & (~got & (T.T >= 0))[:, :, None], W, 0.0)
        precision = {"binary": n_got, "high": W.max(axis=0).sum(axis=1),
                     "low": n_got + W_low.max(axis=0).sum(axis=1)}
        recall = {"binary": n_got, "high": W.max(axis=2, initial=0.0).sum(axis=0),
                  "low": n_got + W_low.max(axis=2, initial=0.0).sum(axis=0)}
        return precision, recall

    def _block(
        self, T: np.ndarray, L: np.ndarray | None, A: np.ndarray | None, recall: str
    ) -> dict[tuple[str, str], np.ndarray]:
        """All measures for one block of documents (padded arrays); NaN for documents without true labels."""
        t_n = (T >= 0).sum(axis=1).astype(np.float64)
        out: dict[tuple[str, str], np.ndarray] = {}
        with np.errstate(invalid="ignore", divide="ignore"):
            if L is not None:
                W, eq = self._similarities(T, L)
                num = self._numerators(T, L, W, eq)
                m = L.shape[1]
                n_listed = (L >= 0).sum(axis=1)
                k = np.arange(1, m + 1)
                r_k = np.minimum(t_n.astype(np.int64), n_listed)  # prefix length of R-Precision
                for v in VARIANTS:
                    ap = (num[v] / k * num["rel"]).sum(axis=1) / t_n
                    at_r = np.take_along_axis(num[v], np.maximum(r_k - 1, 0)[:, None], axis=1)[:, 0]
                    out[("A-Precision", v)] = ap
                    out[("R-Precision", v)] = np.where(r_k > 0, at_r, 0.0) / t_n
            if A is not None:
                w = A.shape[1]
                if L is not None and w <= L.shape[1] and np.array_equal(np.where(A >= 0, L[:, :w], -1), A):
                    # each assigned set is the head of its ranked list (a threshold on scores in ranked order):
                    # its similarities are the list's
                    assigned = (A >= 0)[None]
                    W, eq = np.where(assigned, W[:, :, :w], 0.0), eq[:, :, :w] & assigned
                else:
                    W, eq = self._similarities(T, A)
                precision_num, recall_num = self._set_numerators(T, A, W, eq)
                size = (A >= 0).sum(axis=1)
                for v in VARIANTS:
                    p = precision_num[v] / np.maximum(size, 1)
                    r_num = recall_num[v if recall == "symmetric" else "binary"]
                    r = np.divide(r_num, t_n, out=np.zeros_like(t_n), where=t_n > 0)  # t_n = 0: NaN below
                    out[("F-measure", v)] = np.where(size > 0, harmonic_f(p, r), 0.0)
        return {key: np.where(t_n > 0, value, np.nan) for key, value in out.items()}

    def score(
        self,
        truth: Any,
        ranking: Any = None,
        assigned: Any = None,
        *,
        cutoff: int = 200,
        recall: RecallRule = "symmetric",
        low_rule: LowRule = "best",
        per_document: bool = False,
        index: Sequence[Any] | None = None,
        block: int | None = None,
    ) -> pd.DataFrame:
        """Score documents: A-/R-Precision of ``ranking`` and F-measure of ``assigned``, in the three variants.

        Parameters
        ----------
        truth : sequence of label lists, or 2-D int array padded with -1
            The true labels of each document. A document with none is skipped (NaN, left out of the means).
        ranking : same kind, optional
            Each document's ranked labels, best first; cut at ``cutoff``. Gives A-Precision and R-Precision.
        assigned : same kind, optional
            Each document's assigned labels. Gives the F-measure.
        cutoff : int
            Ranked labels beyond this rank are ignored (200 in NTCIR-6).
        recall : {"symmetric", "binary"}
            The recall behind the F-measure (see :func:`set_f_measure`).
        low_rule : {"best", "matching"}
            ``"best"`` is computed with numpy; ``"matching"`` calls the per-document functions (slower).
        per_document : bool
            Return one row per document instead of the means over documents.
        index : sequence, optional
            Row labels of the per-document result (document ids).
        block : int, optional
            Documents processed at once (memory grows with ``block * cutoff * max |truth|``); by default as many
            as keep each of the block's arrays of (document, listed label, true label) near :data:`BLOCK_CELLS`.

        Returns
        -------
        pandas.DataFrame
            Means: index = measures, columns = variants ``binary``, ``high``, ``low``. Per document: one row per
            document, columns a (measure, variant) MultiIndex.
        """
        import pandas as pd

        result = self.score_arrays(truth, ranking, assigned, cutoff=cutoff, recall=recall, low_rule=low_rule,
                                   block=block)
        n = len(next(iter(result.values())))
        if index is not None and len(index) != n:
            raise ValueError(f"index must have one entry per document ({n}), got {len(index)}")
        per_doc = pd.DataFrame(result, index=pd.Index(range(n) if index is None else list(index), name="document"))
        per_doc.columns = pd.MultiIndex.from_tuples(list(result), names=["measure", "variant"])
        if per_document:
            return per_doc
        return per_doc.mean(axis=0).unstack("variant").reindex(
            [m for m in MEASURES if m in per_doc.columns.get_level_values(0)]
        )[list(VARIANTS)]

    def score_arrays(
        self,
        truth: Any,
        ranking: Any = None,
        assigned: Any = None,
        *,
        cutoff: int = 200,
        recall: RecallRule = "symmetric",
        low_rule: LowRule = "best",
        block: int | None = None,
    ) -> dict[tuple[str, str], np.ndarray]:
        """:meth:`score`'s per-document values as arrays, without pandas: ``{(measure, variant): values}``.

        Parameters
        ----------
        truth, ranking, assigned, cutoff, recall, low_rule, block
            As :meth:`score`.

        Returns
        -------
        dict of (str, str) to numpy.ndarray
            One array per (measure, variant), in the order of :data:`MEASURES` and :data:`VARIANTS`, one value per
            document (NaN for a document without true labels).

        Examples
        --------
        >>> from labelrank.hierarchy import LabelTree
        >>> scorer = CostScorer.from_tree(LabelTree.from_parents({"r": None, "a": "r", "b": "r"}))
        >>> scorer.score_arrays([["a"], ["b"]], ranking=[["a"], ["a", "b"]])[("A-Precision", "binary")]
        array([1. , 0.5])
        """
        check_choice(recall, "recall", RECALL_RULES)
        check_choice(low_rule, "low_rule", LOW_RULES)
        cutoff = check_positive_int(cutoff, "cutoff")
        if block is not None:
            block = check_positive_int(block, "block")
        if ranking is None and assigned is None:
            raise ValueError("score needs ranking=, assigned= or both, got neither")
        T = self.encode(truth, "truth")
        L = None if ranking is None else self.encode(ranking, "ranking")[:, :cutoff]
        A = None if assigned is None else self.encode(assigned, "assigned")
        for name, arr in (("ranking", L), ("assigned", A)):
            if arr is not None and arr.shape[0] != T.shape[0]:
                raise ValueError(f"{name} must have one row per document of truth ({T.shape[0]}), got {arr.shape[0]}")
        if block is None:
            widest = max(1, *(arr.shape[1] for arr in (L, A) if arr is not None))
            block = max(64, BLOCK_CELLS // (widest * T.shape[1]))
        if low_rule == "matching":
            result = self._score_matching(T, L, A, cutoff, recall)
        else:
            parts = [
                self._block(T[s : s + block], None if L is None else L[s : s + block],
                            None if A is None else A[s : s + block], recall)
                for s in range(0, T.shape[0], block)
            ]
            result = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
        return {(m, v): result[m, v] for m in MEASURES for v in VARIANTS if (m, v) in result}

    def _score_matching(
        self, T: np.ndarray, L: np.ndarray | None, A: np.ndarray | None, cutoff: int, recall: str
    ) -> dict[tuple[str, str], np.ndarray]:
        """``low_rule="matching"`` through the per-document definitions (binary and high are unaffected).

        Each document gets the similarity of the labels it holds only (its true, ranked and assigned labels).
        """
        names = np.array(self.labels, dtype=object)

        def row(arr, d):
            return [] if arr is None else [str(x) for x in names[arr[d][arr[d] >= 0]]]

        out: dict[tuple[str, str], list[float]] = {}
        for d in range(T.shape[0]):
            true = row(T, d)
            used = sorted({self._index[lab] for lab in true + row(L, d) + row(A, d)})
            n = len(used)
            sub = self._pairs(np.repeat(used, n).astype(np.int64), np.tile(used, n).astype(np.int64)).reshape(n, n)
            import pandas as pd

            sim = pd.DataFrame(sub, index=names[used].tolist(), columns=names[used].tolist())
            for v in VARIANTS:
                for key, value in (
                    (("A-Precision", v), None if L is None else (a_precision, row(L, d))),
                    (("R-Precision", v), None if L is None else (r_precision, row(L, d))),
                    (("F-measure", v), None if A is None else (set_f_measure, row(A, d))),
                ):
                    if value is None:
                        continue
                    func, listed = value
                    if not true:
                        result = float("nan")
                    elif func is set_f_measure:
                        result = set_f_measure(true, listed, sim, v, low_rule="matching", recall=recall)
                    else:
                        result = func(true, listed, sim, v, cutoff=cutoff, low_rule="matching")
                    out.setdefault(key, []).append(result)
        return {k: np.asarray(v) for k, v in out.items()}
