"""Cross-references of the API reference that Sphinx cannot resolve by itself, resolved or turned into plain text.

The docstrings name types and functions the way a reader writes them: ``LabelTree`` (documented on another page as
``labelrank.hierarchy.LabelTree``), ``numpy.ndarray``, ``scipy.stats.wilcoxon``, ``ValueError``, or numpydoc's type
words ("of shape (n, m)"). On a ``missing-reference`` of the Python domain this extension

- links a short name to the one public ``labelrank`` object it names (``LabelTree`` -> ``labelrank.hierarchy.
  LabelTree``), when exactly one documented object ends with it;
- shows every other name that is not one of labelrank's public objects (other packages' objects, Python's
  built-ins, type words, the engine's and the studies' objects, private names) as plain code text: the book is read
  offline, so there is no intersphinx inventory to link them to, and a dead link would be worse than none.

A missing public ``labelrank`` object is left alone, so ``-n`` still reports a reference that should resolve.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.util.nodes import make_refnode

_PUBLIC_LABELRANK = re.compile(r"labelrank(\.[A-Za-z]\w*)*\Z")
_NOT_DOCUMENTED = re.compile(r"labelrank\.(protocol|studies)\b|(^|\.)_")


def _plain(contnode: nodes.Node) -> nodes.Node:
    """The reference's text without the ``xref`` class (which marks an unresolved reference in the page)."""
    node = contnode.deepcopy()
    if isinstance(node, nodes.Element):
        node["classes"] = [c for c in node["classes"] if c != "xref"]
    return node


def _resolve(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    if _PUBLIC_LABELRANK.match(target) and not _NOT_DOCUMENTED.search(target):
        return None  # one of labelrank's public objects: Sphinx's own warning must stand
    domain = env.get_domain("py")
    if "." not in target:
        matches = [name for name in domain.objects
                   if name.startswith("labelrank.") and name.endswith("." + target) and not _NOT_DOCUMENTED.search(name)]
        if len(matches) == 1:
            obj = domain.objects[matches[0]]
            return make_refnode(app.builder, node["refdoc"], obj.docname, obj.node_id, contnode, matches[0])
    return _plain(contnode)


def setup(app):
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
