"""Serve MathJax 3 from the book's own ``_static`` folder instead of a CDN.

The files come from the PyPI package ``sphinx-mathjax-offline`` (MathJax 3, Apache-2.0). That package installs its
module under a name with hyphens, so Sphinx cannot import it as an extension; this small extension finds its files
through the package metadata, points ``mathjax_path`` at them and copies them into the built site.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from sphinx.util.fileutil import copy_asset

MATHJAX_ENTRY = "mathjax/tex-chtml.js"


def mathjax_source_dir() -> Path:
    dist = metadata.distribution("sphinx-mathjax-offline")
    for f in dist.files or ():
        if f.name == "tex-chtml.js" and f.parent.name == "mathjax":
            return Path(dist.locate_file(f)).parent
    raise RuntimeError("sphinx-mathjax-offline is installed but carries no mathjax/tex-chtml.js")


def _set_path(app, config):
    config.mathjax_path = MATHJAX_ENTRY


def _copy(app, exc):
    if exc is None and app.builder.format == "html":
        copy_asset(str(mathjax_source_dir()), str(Path(app.outdir) / "_static" / "mathjax"))


def setup(app):
    mathjax_source_dir()  # fail early, with a clear message, if the files are missing
    app.connect("config-inited", _set_path, priority=900)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
