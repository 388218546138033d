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
:func:`r_precision`) are the definitions, written for reading; :class:`~labelrank.metrics.CostScorer`
(``labelrank.metrics.cost_scorer``) computes the same numbers for many documents at once with numpy (one
similarity matrix per tree, e.g. :func:`labelrank.cost.bdm_matrix`).

References
----------
Li, Bontcheva & Cunningham (2007), "Cost-sensitive evaluation measures for F-term patent classification";
Iwayama et al. (2007), the NTCIR-6 patent classification task; trec_eval.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from labelrank.validation import describe_value, check_choice, check_positive_int
from labelrank.metrics.decision import harmonic_f

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
]

Variant = Literal["binary", "high", "low"]
LowRule = Literal["best", "matching"]
RecallRule = Literal["symmetric", "binary"]

VARIANTS: tuple[str, ...] = ("binary", "high", "low")
LOW_RULES: tuple[str, ...] = ("best", "matching")
RECALL_RULES: tuple[str, ...] = ("symmetric", "binary")
MEASURES: tuple[str, ...] = ("A-Precision", "R-Precision", "F-measure")


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
