"""pytest configuration shared by the unit tests and the notebook tests.

nbval collects ``.ipynb`` files only; the book's chapters are MyST-markdown text notebooks (jupytext). The hook
below hands every ``book/*.md`` file that declares a kernel to nbval, reading it through jupytext, so nbval runs the
very files the book is built from, with the kernel's working directory the chapter's folder, as in the build.
"""

from __future__ import annotations

import os
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
