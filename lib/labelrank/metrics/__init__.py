"""Evaluation measures: ranking and decision metrics, cost-based precision/F, clustering F-measures.

Each submodule holds one family of measures; this package re-exports their public names.
"""

from labelrank.metrics.clustering import (  # noqa: F401
    aligned_table, check_contingency, class_weighted_f_measure, clustering_accuracy, contingency_table, f_table, greedy_f_measure,
    greedy_matching, matched_f_measure, precision_table, recall_table, retrieval_scores,
)
from labelrank.metrics.ranking import (  # noqa: F401
    TIE_RULES, average_precision, coverage, ndcg, one_error, rank_labels, ranking_loss,
)
from labelrank.metrics.decision import f_measure, hamming_loss, harmonic_f, macro_f1, micro_f1  # noqa: F401
from labelrank.metrics.suite import METRICS, MetricInfo, evaluate  # noqa: F401
from labelrank.metrics import significance  # noqa: F401
from labelrank.metrics.hierarchical import hierarchical_prf, lca_prf  # noqa: F401
from labelrank.metrics.cost_precision import (  # noqa: F401  (eq. 3's function stays in its module, same name)
    CostScorer, a_precision, r_precision, set_f_measure, set_precision, set_recall,
)

__all__ = [
    # ranking metrics
    "average_precision", "ranking_loss", "ndcg", "one_error", "coverage", "rank_labels", "TIE_RULES",
    # decision metrics
    "hamming_loss", "micro_f1", "macro_f1", "f_measure", "harmonic_f",
    # all eight at once
    "evaluate", "METRICS", "MetricInfo",
    # cost-based precision (Li et al. 2007)
    "CostScorer", "a_precision", "r_precision", "set_precision", "set_recall", "set_f_measure",
    # hierarchical precision, recall and F (set-based and pair-based)
    "hierarchical_prf", "lca_prf",
    # clustering F-measures (Semantic Search Art)
    "contingency_table", "check_contingency", "precision_table", "recall_table", "f_table", "greedy_f_measure", "greedy_matching",
    "matched_f_measure", "class_weighted_f_measure", "aligned_table", "clustering_accuracy", "retrieval_scores",
]
