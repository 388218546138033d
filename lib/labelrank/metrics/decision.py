"""Decision metrics of Yang & Gopal (2012), section 3.3: Micro-F1, Macro-F1 and Hamming loss.

Every metric here compares a 0/1 label matrix ``Y`` with a 0/1 decision matrix ``Y_pred`` of the same shape
(n_instances, n_labels). Counting over the decisions on label (category) ``c``,

.. math::

    TP_c = |\\{i : Y_{ic} = 1, \\hat Y_{ic} = 1\\}|, \\quad FP_c = |\\{i : Y_{ic} = 0, \\hat Y_{ic} = 1\\}|, \\quad
    FN_c = |\\{i : Y_{ic} = 1, \\hat Y_{ic} = 0\\}|.

F1 is computed as :math:`2TP / (2TP + FP + FN)`, which equals :math:`2PR/(P+R)` whenever P and R are defined,
and, following MULAN's ``InformationRetrievalMeasures.fMeasure``, is 1 when ``TP + FP + FN = 0`` (nothing to find
and nothing claimed). scikit-learn's ``f1_score`` agrees when called with ``zero_division=1``; its default
(``zero_division="warn"``) gives such a label 0.

Values for significance tests
-----------------------------
``micro_f1(..., per_decision=True)`` returns the (n_instances, n_labels) matrix of correct decisions that the
sign test compares; ``macro_f1(..., per_label=True)`` returns the per-label F1; ``hamming_loss(...,
per_instance=True)`` the per-instance error rates (both for the Wilcoxon test).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from labelrank.validation import describe_value, check_labels_and_predictions

__all__ = ["f_measure", "harmonic_f", "micro_f1", "macro_f1", "hamming_loss"]


def f_measure(tp: Any, fp: Any, fn: Any) -> np.ndarray | float:
    """F1 from counts, :math:`F_1 = 2TP / (2TP + FP + FN)`, and 1 where ``TP + FP + FN = 0`` (MULAN).

    Parameters
    ----------
    tp, fp, fn : int or array-like of int
        Non-negative counts of true positives, false positives and false negatives (broadcast together).

    Returns
    -------
    float or numpy.ndarray
        F1 in [0, 1].

    Examples
    --------
    >>> f_measure(3, 1, 2)
    0.6666666666666666
    >>> f_measure(0, 0, 0)
    1.0
    """
    tp, fp, fn = (np.asarray(v, dtype=np.float64) for v in (tp, fp, fn))
    for name, value in (("tp", tp), ("fp", fp), ("fn", fn)):
        if np.any(value < 0) or not np.all(np.isfinite(value)):
            raise ValueError(f"{name} must be finite non-negative counts, got {value!r}")
    denominator = 2 * tp + fp + fn
    f = np.divide(2 * tp, denominator, out=np.ones(np.broadcast(tp, fp, fn).shape), where=denominator > 0)
    return float(f) if f.ndim == 0 else f


def harmonic_f(precision: Any, recall: Any) -> np.ndarray | float:
    """Harmonic mean of precision and recall, :math:`F = 2PR / (P + R)`, and 0 where both are 0.

    The one F-from-(P, R) of the library: the clustering F-measures, the cost-based set F-measure and
    :class:`~labelrank.metrics.CostScorer` call it. (From counts, use :func:`f_measure`.)

    Parameters
    ----------
    precision, recall : float or array-like of float
        Values in [0, 1], broadcast together.

    Returns
    -------
    float or numpy.ndarray
        A float for scalar inputs, else an array of the broadcast shape.

    Raises
    ------
    TypeError
        If an input is not numeric (a string, ``None``, a ``bool``).
    ValueError
        If a value is NaN or outside [0, 1]; the message names the argument and the first offending value.

    Examples
    --------
    >>> round(harmonic_f(0.6, 0.75), 4)
    0.6667
    >>> harmonic_f([0.0, 1.0], [0.0, 0.5]).round(4).tolist()
    [0.0, 0.6667]
    """
    values = []
    for name, value in (("precision", precision), ("recall", recall)):
        arr = np.asarray(value)
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be a real number or an array of them, got {describe_value(value)}")
        arr = arr.astype(np.float64, copy=False)
        bad = ~((arr >= 0.0) & (arr <= 1.0))  # NaN fails both comparisons
        if bad.any():
            raise ValueError(f"{name} must lie in [0, 1], got {arr[bad].flat[0].item()!r}")
        values.append(arr)
    p, r = values
    total = p + r
    f = np.divide(2.0 * p * r, total, out=np.zeros(total.shape), where=total > 0)
    return float(f) if f.ndim == 0 else f


def _counts(Y: np.ndarray, Y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-label TP, FP, FN of two boolean matrices."""
    tp = (Y & Y_pred).sum(axis=0)
    fp = (~Y & Y_pred).sum(axis=0)
    fn = (Y & ~Y_pred).sum(axis=0)
    return tp, fp, fn


def micro_f1(Y: Any, Y_pred: Any, *, per_decision: bool = False) -> float | np.ndarray:
    """Micro-averaged F1, eq. (10)-(12) of Yang & Gopal (2012): F1 of the counts pooled over all labels.

    .. math::

        P = \\frac{\\sum_c TP_c}{\\sum_c (TP_c + FP_c)}, \\quad
        R = \\frac{\\sum_c TP_c}{\\sum_c (TP_c + FN_c)}, \\quad
        \\text{Micro-}F_1 = \\frac{2PR}{P + R}

    Parameters
    ----------
    Y : array-like or sparse of shape (n_instances, n_labels)
        0/1 relevance.
    Y_pred : array-like or sparse of the same shape
        0/1 decisions.
    per_decision : bool
        Return the boolean matrix ``Y_pred == Y`` of correct decisions (what the sign test of
        :func:`labelrank.metrics.significance.sign_test` pairs up) instead of the score.

    Returns
    -------
    float or numpy.ndarray of bool of shape (n_instances, n_labels)

    References
    ----------
    Lewis et al. (1996); Yang (1999); Yang & Gopal (2012), eq. (10)-(12).

    Examples
    --------
    >>> micro_f1([[1, 0], [1, 1]], [[1, 1], [0, 1]])   # TP = 2, FP = 1, FN = 1
    0.6666666666666666
    """
    Yb, Pb = check_labels_and_predictions(Y, Y_pred)
    if per_decision:
        return Yb == Pb
    tp, fp, fn = _counts(Yb, Pb)
    return float(f_measure(tp.sum(), fp.sum(), fn.sum()))


def macro_f1(Y: Any, Y_pred: Any, *, per_label: bool = False) -> float | np.ndarray:
    """Macro-averaged F1, eq. (13)-(15) of Yang & Gopal (2012): the mean over labels of each label's F1.

    .. math::

        P_c = \\frac{TP_c}{TP_c + FP_c}, \\quad R_c = \\frac{TP_c}{TP_c + FN_c}, \\quad
        \\text{Macro-}F_1 = \\frac{1}{m} \\sum_{c} \\frac{2 P_c R_c}{P_c + R_c}

    A label with ``TP + FP + FN = 0`` (never relevant, never predicted) has F1 = 1 (MULAN ``MacroFMeasure``),
    which is ``sklearn.metrics.f1_score(..., average="macro", zero_division=1)``.

    Parameters
    ----------
    Y, Y_pred
        As in :func:`micro_f1`.
    per_label : bool
        Return the per-label F1 (length n_labels) instead of their mean.

    Returns
    -------
    float or numpy.ndarray of shape (n_labels,)

    References
    ----------
    Yang (1999); Yang & Gopal (2012), eq. (13)-(15); MULAN ``MacroFMeasure``.

    Examples
    --------
    >>> macro_f1([[1, 0], [1, 1]], [[1, 1], [0, 1]])   # label 0: 2/3, label 1: 2/3
    0.6666666666666666
    """
    Yb, Pb = check_labels_and_predictions(Y, Y_pred)
    per = f_measure(*_counts(Yb, Pb))
    return per if per_label else float(per.mean())


def hamming_loss(Y: Any, Y_pred: Any, *, per_instance: bool = False) -> float | np.ndarray:
    """Hamming loss, eq. (16) of Yang & Gopal (2012): the fraction of wrong instance-label decisions.

    .. math::

        HLoss(D) = \\frac{\\sum_c (FP_c + FN_c)}{n \\times m}

    Parameters
    ----------
    Y, Y_pred
        As in :func:`micro_f1`.
    per_instance : bool
        Return each instance's fraction of wrong labels (their mean is the loss).

    Returns
    -------
    float or numpy.ndarray of shape (n_instances,)

    References
    ----------
    Schapire & Singer (1999); Yang & Gopal (2012), eq. (16).

    Examples
    --------
    >>> hamming_loss([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    0.5
    """
    Yb, Pb = check_labels_and_predictions(Y, Y_pred)
    per = (Yb != Pb).mean(axis=1)
    return per if per_instance else float(per.mean())
