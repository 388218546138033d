"""Instance-based LLSF thresholding (Yang & Gopal 2012, section 2.3; Elisseeff & Weston 2001).

A ranker gives each instance a score vector :math:`s \\in \\mathbb{R}^m` over the m labels. To turn it into yes/no
decisions, a *threshold map* :math:`g: \\mathbb{R}^m \\to \\mathbb{R}` is learned from training lists:

1. score the training instances with the fitted ranker (the *non-splitting* strategy of section 3.4: the same
   training data fit the ranker and the threshold map);
2. (Yang & Gopal's modification) rescale each score vector to sum to one, :func:`rescale_scores`;
3. for each training list find the threshold :math:`t_i` that minimises the number of false positives plus false
   negatives, :func:`optimal_thresholds`;
4. fit :math:`g(s) = \\langle \\beta, v(s) \\rangle + \\beta_0` by linear least squares (LLSF),
   :math:`\\min_{\\beta, \\beta_0} \\sum_i (\\langle \\beta, v(s_i) \\rangle + \\beta_0 - t_i)^2`, where the input
   :math:`v(s)` is the score vector in category order, :math:`v(s) = s`, as in Elisseeff & Weston's Rank-SVM (the
   literal reading of the paper, whose only stated change to their method is the rescaling), or the scores sorted in
   decreasing order, :math:`(s_{(1)}, \\dots, s_{(m)})` -- the library's default, our reading of the paper's "a
   linear mapping g from an arbitrary ranked list of categories to a threshold";
5. on a new instance, the labels whose (rescaled) score is at or above :math:`g(s)` receive a yes.

The sorted input suits the meta-level rankers, whose one scoring function is shared by all categories: it knows
nothing of a category's identity, so neither need the threshold map. It is a departure from the literal reading,
made after the rankers' Micro-F1 fell short of the paper's with the category-order input. The chapter "Thresholding" compares
the two inputs by cross-validation on the training sets (:func:`labelrank.studies.yang2012.experiments.llsf_inputs_comparison`).

:class:`LLSFThreshold` does steps 2-5 on score matrices; every estimator in :mod:`labelrank.baselines` and the
meta-level rankers use it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from labelrank.parameters import DeclaredParameters, Flag, Options
from labelrank.validation import check_labels_and_scores, check_score_matrix

__all__ = ["rescale_scores", "optimal_thresholds", "LLSFThreshold"]


def rescale_scores(scores: Any) -> np.ndarray:
    """Rescale each row of ``scores`` to non-negative values summing to one, preserving the order.

    Yang & Gopal (2012, section 2.3) "rescale the scores of categories for each test instance to make them sum to
    one" without saying what to do with negative scores (SVM margins). The rule used here is

    .. math::

        s'_j = \\frac{s_j - \\mu}{\\sum_l (s_l - \\mu)}, \\qquad \\mu = \\min(0, \\min_l s_l),

    i.e. a row of non-negative scores (probabilities) is just divided by its sum, as in the paper, and a row with a
    negative entry is first shifted so that its smallest score becomes 0. The rule is continuous in ``s`` (the two
    cases agree when the minimum is 0) and strictly increasing within a row, so it never changes a ranking. A row
    that sums to 0 after the shift (all scores equal to 0, or all equal and negative) becomes uniform, ``1/m``.

    Parameters
    ----------
    scores : array-like of shape (n_instances, n_labels)
        Finite real scores, higher = more relevant.

    Returns
    -------
    numpy.ndarray of shape (n_instances, n_labels)
        Non-negative rows summing to one.

    Examples
    --------
    >>> rescale_scores([[1.0, 3.0], [-1.0, 1.0], [0.0, 0.0]]).tolist()
    [[0.25, 0.75], [0.0, 1.0], [0.5, 0.5]]
    """
    s = check_score_matrix(scores, "scores")
    shift = np.minimum(0.0, s.min(axis=1, keepdims=True))
    shifted = s - shift
    total = shifted.sum(axis=1, keepdims=True)
    out = np.full_like(shifted, 1.0 / s.shape[1])
    ok = total[:, 0] > 0
    out[ok] = shifted[ok] / total[ok]
    return out


def optimal_thresholds(scores: Any, Y: Any) -> np.ndarray:
    """The per-instance threshold that minimises false positives + false negatives on a ranked list.

    For instance ``i`` with scores sorted decreasingly, :math:`s_{(1)} \\ge \\dots \\ge s_{(m)}`, a cut after
    position ``j`` (``0 <= j <= m``) says yes to the top ``j`` labels and costs
    :math:`FP_i(j) + FN_i(j) = |\\{r \\le j : y_{(r)} = 0\\}| + |\\{r > j : y_{(r)} = 1\\}|`. Only cuts between
    two *different* scores are possible (``j = 0``, ``j = m`` or :math:`s_{(j)} > s_{(j+1)}`), since tied labels
    get the same decision. Among the cuts of minimal cost the one with the **most** yes decisions is chosen: all of
    them make the same number of errors, and the longest has the most true positives, hence the highest F1.

    The returned threshold is the midpoint :math:`(s_{(j)} + s_{(j+1)}) / 2` of the chosen cut, so the rule
    "score >= threshold" reproduces it exactly. The end cuts use a virtual score one *mean gap* beyond the list,
    :math:`\\delta = (s_{(1)} - s_{(m)}) / (m - 1)` (:math:`\\delta = 1` when all scores are equal or
    :math:`m = 1`): :math:`t = s_{(1)} + \\delta / 2` when the best is to say no to every label (e.g. no label is
    relevant) and :math:`t = s_{(m)} - \\delta / 2` when it is to say yes to all (e.g. all labels are relevant).

    Parameters
    ----------
    scores : array-like of shape (n_instances, n_labels)
        Finite real scores, higher = more relevant.
    Y : array-like of shape (n_instances, n_labels)
        The 0/1 relevance of each label.

    Returns
    -------
    numpy.ndarray of shape (n_instances,)

    References
    ----------
    A. Elisseeff, J. Weston (2001), A kernel method for multi-labelled classification, NIPS 14 (section 5: the
    threshold minimising the symmetric difference); Y. Yang, S. Gopal (2012), Multilabel classification with
    meta-level features in a learning-to-rank framework, Machine Learning 88, section 2.3.

    Examples
    --------
    >>> optimal_thresholds([[0.9, 0.5, 0.1]], [[1, 1, 0]]).tolist()
    [0.3]
    """
    Y, s = check_labels_and_scores(Y, scores)
    n, m = s.shape
    order = np.argsort(-s, axis=1, kind="stable")
    s_sorted = np.take_along_axis(s, order, axis=1)
    y_sorted = np.take_along_axis(Y, order, axis=1)
    # cost of the cut after position j, j = 0..m: FN(0) = |Y_i|, and each step adds +1 (a negative) or -1 (a positive)
    steps = np.where(y_sorted == 1, -1, 1)
    cost = np.concatenate([Y.sum(axis=1, keepdims=True), Y.sum(axis=1, keepdims=True) + np.cumsum(steps, axis=1)],
                          axis=1)
    feasible = np.ones((n, m + 1), dtype=bool)
    feasible[:, 1:m] = s_sorted[:, :-1] > s_sorted[:, 1:]
    cost = np.where(feasible, cost, np.iinfo(np.int64).max)
    # the last minimiser: reverse, take the first argmin
    best = m - np.argmin(cost[:, ::-1], axis=1)
    spread = s_sorted[:, 0] - s_sorted[:, -1]
    gap = np.where(spread > 0, spread / max(m - 1, 1), 1.0)
    padded = np.concatenate([(s_sorted[:, 0] + gap)[:, None], s_sorted, (s_sorted[:, -1] - gap)[:, None]], axis=1)
    rows = np.arange(n)
    return 0.5 * (padded[rows, best] + padded[rows, best + 1])


class LLSFThreshold(DeclaredParameters, BaseEstimator):
    """Learned per-instance threshold: a least-squares map from a score vector to its optimal threshold.

    ``fit(scores, Y)`` rescales the training scores (if ``rescale``; :func:`rescale_scores`), computes each list's
    optimal threshold :math:`t_i` (:func:`optimal_thresholds`, minimal FP + FN), and solves

    .. math::

        \\min_{\\beta \\in \\mathbb{R}^m, \\beta_0} \\sum_i \\big(\\langle \\beta, v(s_i) \\rangle + \\beta_0 - t_i\\big)^2

    with :func:`numpy.linalg.lstsq` (the minimum-norm solution when the design is rank deficient: rescaled rows sum
    to one, so the intercept column is the sum of the others; the fitted thresholds are unique regardless). The
    input :math:`v(s)` is the row sorted in decreasing order (``inputs="ranked"``) or the row itself
    (``inputs="labels"``).
    ``predict(scores)`` says yes to the labels whose (rescaled) score is at or above :math:`g(s)`.

    Pass the *training-set* scores of the fitted ranker (the paper's non-splitting strategy, section 3.4).

    Parameters
    ----------
    rescale : bool, default=True
        Rescale each score row to sum to one first (Yang & Gopal's modification, section 2.3). ``False`` gives
        Elisseeff & Weston's original LLSF on the raw scores.
    inputs : {"ranked", "labels"}, default="ranked"
        What the linear map reads: the scores sorted decreasingly (one weight per rank position, so a row's
        threshold does not depend on which category got which score; the book's reading of Yang & Gopal's "ranked
        list", the default) or the score vector in category order (Elisseeff & Weston's input, one weight per
        category; the literal reading of the paper, whose one stated modification of Elisseeff & Weston's method is
        the rescaling).

    Attributes
    ----------
    coef_ : numpy.ndarray of shape (n_labels,)
        :math:`\\beta` (weights of the rank positions with ``inputs="ranked"``, of the labels otherwise).
    intercept_ : float
        :math:`\\beta_0`.
    n_labels_ : int
        Number of labels seen in ``fit``.

    References
    ----------
    A. Elisseeff, J. Weston (2001), NIPS 14; Y. Yang, S. Gopal (2012), Machine Learning 88, sections 2.3 and 3.4.

    Examples
    --------
    >>> t = LLSFThreshold().fit([[3.0, 1.0], [1.0, 3.0], [2.0, 2.0]], [[1, 0], [0, 1], [1, 1]])
    >>> t.predict([[4.0, 0.5]]).tolist()
    [[1, 0]]
    """

    parameter_constraints = {"rescale": Flag(), "inputs": Options("ranked", "labels")}

    def __init__(self, rescale: bool = True, inputs: str = "ranked"):
        self.rescale = rescale
        self.inputs = inputs

    def _transform(self, scores: Any) -> np.ndarray:
        self.check_params()
        return rescale_scores(scores) if self.rescale else check_score_matrix(scores, "scores")

    def design_matrix(self, s: np.ndarray) -> np.ndarray:
        """The LLSF inputs v(s) with a column of ones: the ranked list (decreasing scores) or the label-order row.

        ``s`` holds scores already rescaled as :meth:`fit` rescales them; one row per instance.
        """
        v = -np.sort(-s, axis=1) if self.inputs == "ranked" else s
        return np.hstack([v, np.ones((s.shape[0], 1))])

    def fit(self, scores: Any, Y: Any) -> LLSFThreshold:
        """Fit the threshold map on training scores and labels of the same shape (n_instances, n_labels)."""
        self.check_params()
        Y, _ = check_labels_and_scores(Y, scores)
        s = self._transform(scores)
        targets = optimal_thresholds(s, Y)
        beta, *_ = np.linalg.lstsq(self.design_matrix(s), targets, rcond=None)
        self.coef_ = beta[:-1]
        self.intercept_ = float(beta[-1])
        self.n_labels_ = s.shape[1]
        return self

    def _check_scores(self, scores: Any) -> np.ndarray:
        check_is_fitted(self, "coef_")
        s = self._transform(scores)
        if s.shape[1] != self.n_labels_:
            raise ValueError(f"scores must have {self.n_labels_} columns (labels seen in fit), got {s.shape[1]}")
        return s

    def predict_threshold(self, scores: Any) -> np.ndarray:
        """The threshold :math:`g(s_i)` of each row, on the rescaled scale if ``rescale``; shape (n_instances,)."""
        s = self._check_scores(scores)
        return self.design_matrix(s) @ np.r_[self.coef_, self.intercept_]

    def predict(self, scores: Any) -> np.ndarray:
        """0/1 decisions, shape (n_instances, n_labels): 1 where the (rescaled) score is >= the row's threshold."""
        s = self._check_scores(scores)
        t = self.design_matrix(s) @ np.r_[self.coef_, self.intercept_]
        return (s >= t[:, None]).astype(np.int64)
