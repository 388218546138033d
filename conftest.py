"""pytest configuration shared by the unit tests and the notebook tests.

The tests are laid out like the code: ``tests/lib`` (the library), ``tests/engine`` (the experiment engine),
``tests/studies`` (the reproductions), ``tests/book`` (chapters, pages, README, packaging); the doctests of
``lib/labelrank`` and the chapters (``book/*.md``) belong to the layer of their module. Each test carries its
layer's marker, so that ``pytest -m lib`` (or ``engine``, ``studies``, ``book``) runs one layer alone. The
helpers the layers share (``tests/*.py`` other than tests, ``tests/golden``) sit at the top of ``tests/``.

nbval collects ``.ipynb`` files only; the book's chapters are MyST-markdown text notebooks (jupytext). The hook
below hands every ``book/*.md`` file that declares a kernel to nbval, reading it through jupytext, so nbval runs the
very files the book is built from, with the kernel's working directory the chapter's folder, as in the build.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import jupytext
import nbformat
import nbval.plugin
from hypothesis import settings

# Notebook tests run the quick profile unless the caller asks for the full one.
os.environ.setdefault("LABELRANK_PROFILE", "quick")

# Property tests draw the same examples in every run, as everything else here is seeded (a failure found once is
# found again, and CI's verdict does not depend on luck); HYPOTHESIS_PROFILE=explore draws new ones each run.
settings.register_profile("deterministic", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))  # the shared helpers: support, linereader, literal_scan, ...

LAYERS = ("lib", "engine", "studies", "book")


def layer_of(path: Path) -> str | None:
    """The layer of a collected file: its folder under ``tests/``, its package under ``lib/labelrank``, or
    ``book`` for a chapter."""
    try:
        parts = path.resolve().relative_to(ROOT).parts
    except ValueError:
        return None
    if parts[:1] == ("tests",) and len(parts) > 2 and parts[1] in LAYERS:
        return parts[1]
    if parts[:2] == ("lib", "labelrank"):
        return {"protocol": "engine", "studies": "studies"}.get(parts[2] if len(parts) > 3 else "", "lib")
    if parts[:1] == ("book",):
        return "book"
    return None


def pytest_configure(config):
    for layer in LAYERS:
        config.addinivalue_line("markers", f"{layer}: a test of the {layer} layer (tests/{layer}, its doctests)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        layer = layer_of(Path(str(item.fspath)))
        if layer is not None:
            item.add_marker(layer)


class _JupytextAwareNbformat:
    """Stand-in for the ``nbformat`` module inside nbval: reads ``.md`` notebooks with jupytext."""

    def __getattr__(self, name):
        return getattr(nbformat, name)

    @staticmethod
    def read(path, as_version=4, **kwargs):
        if str(path).endswith(".md"):
            return jupytext.read(path, as_version=as_version)
        return nbformat.read(path, as_version=as_version, **kwargs)


nbval.plugin.nbformat = _JupytextAwareNbformat()


def is_text_notebook(path: Path) -> bool:
    """A MyST markdown file whose front matter declares a kernel (plain pages have none)."""
    if path.suffix != ".md" or path.parent != ROOT / "book":
        return False
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "kernelspec:" in head


def pytest_collect_file(file_path, parent):
    opt = parent.config.option
    if (opt.nbval or opt.nbval_lax) and is_text_notebook(Path(file_path)):
        return nbval.plugin.IPyNbFile.from_parent(parent, path=file_path)
    return None
