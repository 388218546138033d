"""The paper's eight metrics as one suite: ``METRICS`` (metadata) and :func:`evaluate` (all values at once).

The order is that of Yang & Gopal (2012), Tables 3 and 6: Micro-F1, Macro-F1, MAP, RankLoss, NDCG, One-Error,
Coverage, HLoss. Each :class:`MetricInfo` says whether higher is better, whether the metric judges a ranking
(``kind="rank"``, computed from scores) or decisions (``kind="decision"``, computed from 0/1 predictions), which
values a significance test pairs up (``unit``) and which test the paper uses (section 4.3: the sign test for
Micro-F1, the Wilcoxon signed-rank test for the others).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

import numpy as np

from labelrank.metrics.decision import hamming_loss, macro_f1, micro_f1
from labelrank.metrics.ranking import TieRule, average_precision, coverage, ndcg, one_error, ranking_loss

__all__ = ["MetricInfo", "METRICS", "evaluate"]


@dataclass(frozen=True)
class MetricInfo:
    """Metadata of one of the paper's metrics.

    Attributes
    ----------
    name : str
        The paper's name ("Micro-F1", "MAP", ...), the key of ``METRICS``.
    function : callable
        The metric, ``function(Y, scores_or_decisions, **options) -> float``.
    higher_is_better : bool
    kind : {"rank", "decision"}
        ``"rank"``: the second argument is a score matrix; ``"decision"``: a 0/1 matrix.
    unit : {"instance", "label", "decision"}
        What the paired values of a significance test are.
    test : {"wilcoxon", "sign"}
        The test of the paper's section 4.3.
    equations : str
        The paper's equation numbers.

    Examples
    --------
    >>> from labelrank.metrics import METRICS
    >>> info = METRICS["MAP"]
    >>> info.kind, info.higher_is_better, info.test, info.equations
    ('rank', True, 'wilcoxon', '3-4')
    """

    name: str
    function: Callable[..., Any]
    higher_is_better: bool
    kind: Literal["rank", "decision"]
    unit: Literal["instance", "label", "decision"]
    test: Literal["wilcoxon", "sign"]
    equations: str

    def values(self, Y: Any, output: Any, *, ties: TieRule = "mulan") -> np.ndarray:
        """The per-instance, per-label or per-decision values that the significance test pairs up."""
        if self.kind == "rank":
            return self.function(Y, output, ties=ties, per_instance=True)
        flag = {"instance": "per_instance", "label": "per_label", "decision": "per_decision"}[self.unit]
        return self.function(Y, output, **{flag: True})

    def __call__(self, Y: Any, output: Any, *, ties: TieRule = "mulan") -> float:
        """The metric's value; ``ties`` is used by ranking metrics only."""
        if self.kind == "rank":
            return self.function(Y, output, ties=ties)
        return self.function(Y, output)


METRICS: dict[str, MetricInfo] = {
    info.name: info
    for info in (
        MetricInfo("Micro-F1", micro_f1, True, "decision", "decision", "sign", "10-12"),
        MetricInfo("Macro-F1", macro_f1, True, "decision", "label", "wilcoxon", "13-15"),
        MetricInfo("MAP", average_precision, True, "rank", "instance", "wilcoxon", "3-4"),
        MetricInfo("RankLoss", ranking_loss, False, "rank", "instance", "wilcoxon", "5-6"),
        MetricInfo("NDCG", ndcg, True, "rank", "instance", "wilcoxon", "7-9"),
        MetricInfo("One-Error", one_error, False, "rank", "instance", "wilcoxon", "17"),
        MetricInfo("Coverage", coverage, False, "rank", "instance", "wilcoxon", "18"),
        MetricInfo("HLoss", hamming_loss, False, "decision", "instance", "wilcoxon", "16"),
    )
}
"""The eight metrics in the paper's order, keyed by name."""


def evaluate(Y: Any, scores: Any = None, Y_pred: Any = None, *, ties: TieRule = "mulan") -> dict[str, float]:
    """All of the paper's metrics for one system, in the paper's order.

    Parameters
    ----------
    Y : array-like or sparse of shape (n_instances, n_labels)
        0/1 relevance.
    scores : array-like or sparse of the same shape, optional
        The system's label scores; needed by the five ranking metrics (left out when ``None``).
    Y_pred : array-like or sparse of the same shape, optional
        The system's 0/1 decisions; needed by the three decision metrics (left out when ``None``).
    ties : {"mulan", "pessimistic", "optimistic"}
        Tie rule of the ranking metrics (:func:`labelrank.metrics.rank_labels`).

    Returns
    -------
    dict
        ``{metric name: value}`` ordered as ``METRICS``.

    Examples
    --------
    >>> sorted(evaluate([[1, 0]], [[0.7, 0.2]], [[1, 0]]).items())[:2]
    [('Coverage', 0.0), ('HLoss', 0.0)]
    """
    if scores is None and Y_pred is None:
        raise ValueError("evaluate needs scores or Y_pred (or both), got scores=None and Y_pred=None")
    outputs = {"rank": scores, "decision": Y_pred}
    return {
        name: info(Y, outputs[info.kind], ties=ties)
        for name, info in METRICS.items()
        if outputs[info.kind] is not None
    }
