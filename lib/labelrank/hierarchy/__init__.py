"""Label hierarchies: :class:`LabelTree`, a rooted tree (or DAG) of labels, and the arrays behind the vectorized
costs (:class:`TreeArrays`).

Modules: ``tree`` (the class: construction from a parent map, structure, chain statistics), ``io`` (the
YAML tree file), ``builders`` (parent maps from F-term codes and from dotted label names) and ``drawing``
(a tidy layered drawing with matplotlib).
"""

from labelrank.hierarchy.tree import MAX_CHAIN_ENTRIES, LabelTree, TreeArrays

__all__ = ["LabelTree", "TreeArrays", "MAX_CHAIN_ENTRIES"]
