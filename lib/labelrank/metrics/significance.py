"""Significance tests of Yang & Gopal (2012), section 4.3.

* :func:`sign_test` -- for Micro-F1: the two systems' decisions on every instance-label pair are compared; a pair
  where exactly one system is right counts for that system, pairs where both are right or both wrong are dropped,
  and under the null hypothesis (both equally good) each counted pair favours system A with probability 1/2
  (two-sided binomial test, Yang & Liu 1999).
* :func:`wilcoxon` -- for the other seven metrics: the Wilcoxon signed-rank test on paired per-instance values
  (per-label F1 for Macro-F1), via :func:`scipy.stats.wilcoxon` (Demšar 2006).
* :func:`compare` -- picks the test and the paired values for a metric named as in ``METRICS``.
* :func:`mark` -- the paper's marks: ``"**"`` for p <= 0.01, ``"*"`` for p <= 0.05, else ``""``.

For comparing runs document by document (``labelrank compare``): :func:`paired_sign_test` (the sign test on the
signs of paired differences), :func:`randomization_test` (Fisher's paired randomization test, seeded) and
:func:`adjust` (Holm's or Benjamini & Hochberg's correction of several p-values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import stats

from labelrank.validation import check_choice, check_positive_int
from labelrank.metrics.ranking import TieRule
from labelrank.metrics.suite import METRICS

__all__ = ["sign_test", "wilcoxon", "compare", "Comparison", "mark", "paired_sign_test", "randomization_test",
           "adjust", "CORRECTIONS", "ties_up_to_rounding", "ROUNDING"]


def _paired_1d(a: Any, b: Any, name_a: str, name_b: str) -> tuple[np.ndarray, np.ndarray]:
    """Flatten two numeric arrays of equal shape to 1-D float arrays."""
    arrays = []
    for name, value in ((name_a, a), (name_b, b)):
        arr = np.asarray(value)
        if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
            raise TypeError(f"{name} must be a numeric or boolean array, got dtype {arr.dtype}")
        arrays.append(arr)
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"{name_a} and {name_b} must have the same shape, got {arrays[0].shape} and {arrays[1].shape}")
    return arrays[0].ravel().astype(np.float64), arrays[1].ravel().astype(np.float64)


def sign_test(a_correct: Any, b_correct: Any) -> float:
    """Two-sided sign test on paired binary decisions (Micro-F1 in the paper).

    With :math:`n_A` the number of instance-label pairs that system A gets right and B wrong, and :math:`n_B` the
    reverse, the p-value is that of a two-sided binomial test of :math:`n_A` successes in :math:`n_A + n_B`
    trials with success probability 1/2 (:func:`scipy.stats.binomtest`). Pairs both systems get right, or both
    wrong, are ties and are dropped; with no discordant pair the p-value is 1.

    Parameters
    ----------
    a_correct, b_correct : array-like of bool or 0/1, same shape
        Whether each decision of system A (B) is correct, e.g. ``micro_f1(Y, Y_pred, per_decision=True)``.

    Returns
    -------
    float
        The p-value.

    References
    ----------
    Yang & Liu (1999), the s-test; Yang & Gopal (2012), section 4.3.

    Examples
    --------
    >>> round(sign_test([1] * 10, [0] * 10), 6)   # A wins all 10 discordant pairs: 2 / 2**10
    0.001953
    """
    a, b = _paired_1d(a_correct, b_correct, "a_correct", "b_correct")
    for name, arr in (("a_correct", a), ("b_correct", b)):
        if not np.isin(arr, (0.0, 1.0)).all():
            raise ValueError(f"{name} must hold only 0/1 or booleans, got {arr[~np.isin(arr, (0.0, 1.0))][0].item()!r}")
    n_a = int(np.sum((a == 1) & (b == 0)))
    n_b = int(np.sum((a == 0) & (b == 1)))
    if n_a + n_b == 0:
        return 1.0
    return float(stats.binomtest(n_a, n_a + n_b, 0.5, alternative="two-sided").pvalue)


def wilcoxon(
    a_values: Any,
    b_values: Any,
    *,
    zero_method: Literal["wilcox", "pratt", "zsplit"] = "wilcox",
) -> float:
    """Two-sided Wilcoxon signed-rank test on paired values (every metric except Micro-F1 in the paper).

    Pairs in which either value is NaN are dropped first: these are the instances on which a metric is undefined
    (MAP and NDCG of an instance with no relevant label). With ``zero_method="wilcox"`` (scipy's default) zero
    differences are dropped too; if every difference is zero, or no pair is left, the systems cannot be told
    apart and the p-value is 1.

    Differences equal up to rounding are made equal first (:func:`ties_up_to_rounding`): the per-instance
    values of a ranking metric take few distinct values, many differences are equal in exact arithmetic but
    computed along different sums, and the test's ranks and tie correction would otherwise depend on their last
    bits (emotions' NDCG in the quick profile: p = 0.0103 or 0.0095, "*" or "**", from the same rankings).

    Parameters
    ----------
    a_values, b_values : array-like of float, same shape
        Per-instance (or per-label) values of the two systems, e.g. ``ndcg(Y, s, per_instance=True)``.
    zero_method : {"wilcox", "pratt", "zsplit"}
        Passed to :func:`scipy.stats.wilcoxon`.

    Returns
    -------
    float
        The p-value.

    References
    ----------
    Wilcoxon (1945); Demšar (2006); Yang & Gopal (2012), section 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.linspace(0, 1, 30)
    >>> bool(wilcoxon(a, a + 0.1) < 0.01), wilcoxon(a, a)  # all differences zero: p = 1
    (True, 1.0)
    """
    diff = _paired_differences(a_values, b_values)
    if diff.size == 0 or not diff.any():
        return 1.0
    return float(stats.wilcoxon(diff, zero_method=zero_method, alternative="two-sided").pvalue)


#: Differences closer than this times the values' magnitude count as equal (:func:`ties_up_to_rounding`).
ROUNDING = 1e-9


def ties_up_to_rounding(diff: np.ndarray, tol: float) -> np.ndarray:
    """``diff`` with magnitudes at most ``tol`` set to 0 and the others grouped: sorted by magnitude, a value
    within ``tol`` of its group's first joins the group and takes that first value's magnitude (its sign kept).

    Differences that are equal in exact arithmetic can differ in their last bits (a Hamming loss of three wrong
    out of three minus two out of three, against one out of three minus none); the Wilcoxon test ranks them
    together only once they are made equal.

    Parameters
    ----------
    diff : numpy.ndarray
        Paired differences.
    tol : float
        The largest magnitude set to 0, and the largest gap within a group.

    Examples
    --------
    >>> ties_up_to_rounding(np.array([0.3, -(0.1 + 0.2), 1e-17, 0.5]), 1e-9).tolist()
    [0.3, -0.3, 0.0, 0.5]
    """
    magnitude = np.abs(diff)
    order = np.argsort(magnitude, kind="stable")
    snapped = np.empty_like(magnitude)
    first = 0.0
    for i in order:
        if magnitude[i] - first > tol:
            first = magnitude[i]
        snapped[i] = first
    return np.copysign(snapped, diff)


def _paired_differences(a_values: Any, b_values: Any) -> np.ndarray:
    """``a - b`` of the pairs where neither is NaN, differences equal up to rounding made equal (0 stays 0)."""
    a, b = _paired_1d(a_values, b_values, "a_values", "b_values")
    for name, arr in (("a_values", a), ("b_values", b)):
        if np.isinf(arr).any():
            raise ValueError(f"{name} must not contain infinite values, got {arr[np.isinf(arr)][0].item()!r}")
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    if a.size == 0:
        return a
    scale = max(float(np.abs(a).max()), float(np.abs(b).max()))
    return ties_up_to_rounding(a - b, ROUNDING * scale)


def paired_sign_test(a_values: Any, b_values: Any) -> float:
    """Two-sided sign test on paired values: how often A beats B, against a fair coin.

    The pairs where A's value is higher count for A, those where it is lower for B, equal ones (up to rounding)
    are dropped; the p-value is the binomial test's (:func:`scipy.stats.binomtest`), 1 with no unequal pair.
    :func:`sign_test` is the same test on binary decisions.

    Parameters
    ----------
    a_values, b_values : array-like of float, same shape
        Per-document values of the two runs.

    Returns
    -------
    float

    Examples
    --------
    >>> round(paired_sign_test([0.9] * 10, [0.1] * 10), 6), paired_sign_test([1, 0], [0, 1])
    (0.001953, 1.0)
    """
    diff = _paired_differences(a_values, b_values)
    wins, losses = int(np.sum(diff > 0)), int(np.sum(diff < 0))
    if wins + losses == 0:
        return 1.0
    return float(stats.binomtest(wins, wins + losses, 0.5, alternative="two-sided").pvalue)


def randomization_test(a_values: Any, b_values: Any, n_permutations: int = 10_000, seed: int = 0) -> float:
    """Fisher's two-sided paired randomization test of the mean difference (Smucker, Allan & Carterette 2007).

    Under the null hypothesis the two runs' values of a document are exchangeable, so each paired difference
    keeps or flips its sign with probability 1/2. The p-value is :math:`(c + 1) / (N + 1)`, where ``c`` of ``N``
    seeded random sign patterns give a mean difference at least as far from 0 as the observed one (the ``+ 1``
    counts the observed pattern, so the p-value is never 0).

    Parameters
    ----------
    a_values, b_values : array-like of float, same shape
        Per-document values of the two runs.
    n_permutations : int, default=10000
    seed : int, default=0

    Returns
    -------
    float

    Examples
    --------
    >>> randomization_test([0.9] * 12, [0.1] * 12, n_permutations=999) == 1 / 1000
    True
    >>> randomization_test([0.5, 0.5], [0.5, 0.5])
    1.0
    """
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    diff = _paired_differences(a_values, b_values)
    if diff.size == 0 or not diff.any():
        return 1.0
    observed = abs(float(diff.mean()))
    rng = np.random.default_rng(seed)
    count, done = 0, 0
    while done < n_permutations:  # in blocks: memory stays small for many documents
        block = min(n_permutations - done, max(1, 2**22 // diff.size))
        signs = rng.integers(0, 2, size=(block, diff.size), dtype=np.int8) * 2 - 1
        means = np.abs(signs @ diff) / diff.size
        count += int(np.sum(means >= observed * (1 - 1e-12)))
        done += block
    return (count + 1) / (n_permutations + 1)


#: ``adjust``'s methods
CORRECTIONS: tuple[str, ...] = ("holm", "bh", "none")


def adjust(p_values: Any, method: str = "holm") -> np.ndarray:
    r"""P-values adjusted for testing several hypotheses at once.

    ``"holm"``: Holm's step-down correction of the family-wise error rate, :math:`\tilde p_{(i)} =
    \max_{j \le i} \min(1, (m - j + 1) p_{(j)})` for the p-values sorted ascending; ``"bh"``: Benjamini &
    Hochberg's false discovery rate (:func:`scipy.stats.false_discovery_control`); ``"none"``: as given.

    Parameters
    ----------
    p_values : array-like of float in [0, 1]
    method : {"holm", "bh", "none"}

    Returns
    -------
    numpy.ndarray
        In the order given.

    Examples
    --------
    >>> adjust([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    method = check_choice(method, "method", CORRECTIONS)
    p = np.asarray(p_values, dtype=float).ravel()
    if p.size and (np.isnan(p).any() or p.min() < 0 or p.max() > 1):
        raise ValueError(f"p_values must lie in [0, 1], got {p[np.isnan(p) | (p < 0) | (p > 1)][0]!r}")
    if method == "none" or p.size == 0:
        return p.copy()
    if method == "bh":
        return stats.false_discovery_control(p, method="bh")
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])
    out = np.empty_like(p)
    out[order] = np.maximum.accumulate(scaled)
    return out


def mark(p: float) -> str:
    """The paper's significance mark: ``"**"`` if p <= 0.01, ``"*"`` if p <= 0.05, else ``""``.

    Parameters
    ----------
    p : float
        A p-value.

    Returns
    -------
    str

    Examples
    --------
    >>> [mark(p) for p in (0.001, 0.01, 0.03, 0.05, 0.2)]
    ['**', '**', '*', '*', '']
    """
    try:
        value = float(p)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"p must be a number, got {p!r}") from exc
    if not 0.0 <= value <= 1.0:  # also rejects NaN
        raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
    if value <= 0.01:
        return "**"
    if value <= 0.05:
        return "*"
    return ""


@dataclass(frozen=True)
class Comparison:
    """The outcome of :func:`compare`: both systems' values, the test used, its p-value and mark.

    Attributes
    ----------
    metric : str
        The key of ``METRICS``.
    value_a, value_b : float
        The metric of system a and of system b.
    test : {"sign", "wilcoxon"}
        The paper's test for this metric (section 4.3).
    p_value : float
        Two-sided.
    mark : {"**", "*", ""}
        :func:`mark` of the p-value.
    n_pairs : int
        The number of paired values the test compared.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]] * 5)
    >>> good, noise = Y + 0.1 * rng.normal(size=Y.shape), rng.normal(size=Y.shape)
    >>> result = compare("MAP", Y, good, noise)
    >>> result.value_a, round(result.value_b, 4), result.test, result.mark, result.n_pairs
    (1.0, 0.5917, 'wilcoxon', '**', 20)
    """

    metric: str
    value_a: float
    value_b: float
    test: str
    p_value: float
    mark: str
    n_pairs: int


def compare(metric_name: str, Y: Any, a: Any, b: Any, *, ties: TieRule = "mulan") -> Comparison:
    """Compare two systems on one of the paper's metrics with the paper's test.

    Parameters
    ----------
    metric_name : str
        A key of ``METRICS`` ("Micro-F1", "Macro-F1", "MAP", "RankLoss", "NDCG",
        "One-Error", "Coverage", "HLoss").
    Y : array-like or sparse of shape (n_instances, n_labels)
        0/1 relevance.
    a, b : array-like or sparse of the same shape
        The two systems' outputs: scores for ranking metrics, 0/1 decisions for decision metrics.
    ties : {"mulan", "pessimistic", "optimistic"}
        Tie rule of the ranking metrics.

    Returns
    -------
    Comparison
        ``value_a``, ``value_b`` (the metric), ``test`` ("sign" or "wilcoxon"), ``p_value``, ``mark`` and
        ``n_pairs``, the number of paired values (decisions, labels, or instances on which the metric is defined).

    Examples
    --------
    Perfect scores against random ones on 20 instances:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]] * 5)
    >>> good, noise = Y + 0.1 * rng.normal(size=Y.shape), rng.normal(size=Y.shape)
    >>> result = compare("MAP", Y, good, noise)
    >>> result.test, round(result.p_value, 4), result.mark
    ('wilcoxon', 0.0006, '**')
    """
    metric_name = check_choice(metric_name, "metric_name", tuple(METRICS))
    info = METRICS[metric_name]
    values_a = np.asarray(info.values(Y, a, ties=ties), dtype=np.float64)
    values_b = np.asarray(info.values(Y, b, ties=ties), dtype=np.float64)
    if info.test == "sign":
        p = sign_test(values_a, values_b)
        n_pairs = values_a.size
    else:
        p = wilcoxon(values_a, values_b)
        n_pairs = int(np.sum(~(np.isnan(values_a) | np.isnan(values_b))))
    return Comparison(
        metric=metric_name,
        value_a=info(Y, a, ties=ties),
        value_b=info(Y, b, ties=ties),
        test=info.test,
        p_value=p,
        mark=mark(p),
        n_pairs=n_pairs,
    )
