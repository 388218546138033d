"""Evaluation measures: ranking and decision metrics, cost-based precision/F, clustering F-measures.

Each submodule holds one family of measures; this package re-exports their public names.
"""

import importlib

# Each name is imported from its submodule when first used, so that importing one measure (``labelrank score``
# needs cost_precision alone) does not load scipy.stats for the significance tests or the clustering measures.
_SUBMODULE = {
    **dict.fromkeys(["aligned_table", "check_contingency", "class_weighted_f_measure", "clustering_accuracy",
                     "contingency_table", "f_table", "greedy_f_measure", "greedy_matching", "matched_f_measure",
                     "precision_table", "recall_table", "retrieval_scores"], "clustering"),
    **dict.fromkeys(["TIE_RULES", "average_precision", "coverage", "ndcg", "one_error", "rank_labels",
                     "ranking_loss"], "ranking"),
    **dict.fromkeys(["f_measure", "hamming_loss", "harmonic_f", "macro_f1", "micro_f1"], "decision"),
    **dict.fromkeys(["METRICS", "MetricInfo", "evaluate"], "suite"),
    **dict.fromkeys(["hierarchical_prf", "lca_prf"], "hierarchical"),
    **dict.fromkeys(["a_precision", "r_precision", "recall_level_precision", "set_f_measure", "set_precision",
                     "set_recall"], "cost_precision"),
    "CostScorer": "cost_scorer",
}
_SUBMODULES = ("clustering", "ranking", "decision", "suite", "significance", "hierarchical", "cost_precision",
               "cost_scorer")


def __getattr__(name: str):
    if name in _SUBMODULE:
        value = getattr(importlib.import_module(f"labelrank.metrics.{_SUBMODULE[name]}"), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"labelrank.metrics.{name}")
    else:
        raise AttributeError(f"module 'labelrank.metrics' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_SUBMODULE, *_SUBMODULES])


__all__ = [
    # ranking metrics
    "average_precision", "ranking_loss", "ndcg", "one_error", "coverage", "rank_labels", "TIE_RULES",
    # decision metrics
    "hamming_loss", "micro_f1", "macro_f1", "f_measure", "harmonic_f",
    # all eight at once
    "evaluate", "METRICS", "MetricInfo",
    # cost-based precision (Li et al. 2007)
    "CostScorer", "a_precision", "r_precision", "recall_level_precision", "set_precision", "set_recall",
    "set_f_measure",
    # hierarchical precision, recall and F (set-based and pair-based)
    "hierarchical_prf", "lca_prf",
    # clustering F-measures (Semantic Search Art)
    "contingency_table", "check_contingency", "precision_table", "recall_table", "f_table", "greedy_f_measure", "greedy_matching",
    "matched_f_measure", "class_weighted_f_measure", "aligned_table", "clustering_accuracy", "retrieval_scores",
]
