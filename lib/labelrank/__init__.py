"""labelrank: label-relation-aware evaluation and multi-label learning to rank."""

__version__ = "0.1.0"
