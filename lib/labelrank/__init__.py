"""labelrank: label-relation-aware evaluation and multi-label learning to rank."""

__version__ = "0.1.0"


def __getattr__(name):  # lazy re-export: `import labelrank` stays fast (the estimator loads scikit-learn and numba)
    if name == "MetaLevelRanker":
        from labelrank.meta_ranker import MetaLevelRanker
        return MetaLevelRanker
    if name == "evaluate":
        from labelrank.evaluation import evaluate
        return evaluate
    if name == "compare":
        from labelrank.comparison import compare
        return compare
    raise AttributeError(f"module 'labelrank' has no attribute {name!r}")
