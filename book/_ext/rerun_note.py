"""Add a "Re-run this chapter" note under the title of every chapter notebook, and its notebook as a download.

At the end of an HTML build every chapter's MyST source (``book/<name>.md``) is converted into a Jupyter notebook
(``_notebooks/<name>.ipynb`` in the built site, by jupytext, without outputs), and the note links it beside the
``.md`` source. The note says what re-runs the chapter on a fresh machine (the downloaded notebook and the
``notebooks`` extra of the library, the data from their public origins or a local mirror) and in a checkout (the
repository's commands), and the profile this page was built with (``LABELRANK_PROFILE`` at build time), so a
reader of the rendered book knows what produced the numbers.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

NOTE = """
:::{{admonition}} Re-run this chapter
:class: tip dropdown

- **Anywhere**: download the notebook <a href="../_notebooks/{name}.ipynb" download>{name}.ipynb</a> (or its
  source <a href="../_sources/book/{name}.md" download>{name}.md</a>, a MyST notebook that jupytext opens), install
  the library with what the chapters use, `pip install 'labelrank[notebooks]'`, and run all cells. The data sets
  are downloaded on first use (SHA-256 checked); `LABELRANK_DATA` points at a local copy instead, and
  `LABELRANK_PROFILE=quick` runs every cell in seconds.
- **In a checkout of the repository**: `LABELRANK_PROFILE=quick .venv/bin/python -m pytest book/{name}.md` runs
  this chapter under the quick profile; `make book` builds the whole book under the full profile, the papers'
  protocols.

This page was built with the **{profile}** profile. Results of long computations are cached (jupyter-cache for the
notebook, joblib for experiments), so a second run is fast.
:::
"""

#: chapters that read files only a checkout holds, and what they read
CHECKOUT_ONLY = {"performance": "the benchmark records in the repository's `benchmarks/records/`"}

CHECKOUT_NOTE = """
:::{{admonition}} Re-run this page
:class: tip dropdown

This page reads {what}, so it runs in a checkout of the repository:
`.venv/bin/python -m pytest book/{name}.md` executes it, and `make bench` writes new records. Its notebook,
<a href="../_notebooks/{name}.ipynb" download>{name}.ipynb</a>, runs wherever labelrank is installed from a
checkout (`pip install -e '.[notebooks]'`).
:::
"""

_TITLE = re.compile(r"^# .+$", re.M)


def is_chapter_notebook(text: str) -> bool:
    """A MyST text notebook (front matter with a kernelspec)."""
    return text.startswith("---") and "kernelspec:" in text[:2000]


def notebook_of(source: Path):
    """The chapter ``source`` (a MyST notebook) as an ``nbformat`` notebook without outputs, ready to download."""
    import jupytext

    notebook = jupytext.read(source, fmt="md:myst")
    notebook.metadata.pop("jupytext", None)
    return notebook


def write_notebooks(srcdir: Path, outdir: Path, docnames) -> list[Path]:
    """Convert every chapter notebook among ``docnames`` (``book/<name>``, not the API pages below it) into
    ``outdir/_notebooks/<name>.ipynb``."""
    import nbformat

    written = []
    target = outdir / "_notebooks"
    for docname in sorted(docnames):
        source = srcdir / f"{docname}.md"
        if not docname.startswith("book/") or "/" in docname[len("book/"):] or not source.is_file():
            continue
        if not is_chapter_notebook(source.read_text(encoding="utf-8")):
            continue
        target.mkdir(parents=True, exist_ok=True)
        path = target / f"{docname.split('/', 1)[1]}.ipynb"
        nbformat.write(notebook_of(source), path)
        written.append(path)
    return written


def _add_note(app, docname: str, source: list[str]) -> None:
    text = source[0]
    if not docname.startswith("book/") or "/" in docname[len("book/"):] or not is_chapter_notebook(text):
        return
    match = _TITLE.search(text)
    if match is None:
        return
    profile = os.environ.get("LABELRANK_PROFILE", "full")
    name = docname.split("/", 1)[1]
    if name in CHECKOUT_ONLY:
        note = CHECKOUT_NOTE.format(name=name, what=CHECKOUT_ONLY[name])
    else:
        note = NOTE.format(name=name, profile=profile)
    source[0] = text[: match.end()] + "\n" + note + text[match.end():]


def _write(app, exc) -> None:
    if exc is None and app.builder.format == "html":
        write_notebooks(Path(app.srcdir), Path(app.outdir), app.env.found_docs)


def setup(app):
    app.connect("source-read", _add_note)
    app.connect("build-finished", _write)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
