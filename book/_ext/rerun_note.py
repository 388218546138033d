"""Add a "Re-run this chapter" note under the title of every chapter notebook.

The note names the chapter's own file, the commands that re-run it under each profile, and the profile this page
was built with (``LABELRANK_PROFILE`` at build time), so a reader of the rendered book knows what produced the numbers.
"""

from __future__ import annotations

import os
import re

NOTE = """
:::{{admonition}} Re-run this chapter
:class: tip dropdown

Open `book/{name}.md` in Jupyter (jupytext opens it as a notebook) and run all cells, or from the project root:

- `LABELRANK_PROFILE=quick .venv/bin/python -m pytest book/{name}.md`: the quick profile, every cell in seconds;
- `make book`: the whole book under the full profile, the papers' protocols.

This page was built with the **{profile}** profile. Results of long computations are cached (jupyter-cache for the
notebook, joblib for experiments), so a second run is fast.
:::
"""

_TITLE = re.compile(r"^# .+$", re.M)


def _add_note(app, docname: str, source: list[str]) -> None:
    text = source[0]
    if not docname.startswith("book/") or not text.startswith("---") or "kernelspec:" not in text[:2000]:
        return
    match = _TITLE.search(text)
    if match is None:
        return
    profile = os.environ.get("LABELRANK_PROFILE", "full")
    note = NOTE.format(name=docname.split("/", 1)[1], profile=profile)
    source[0] = text[: match.end()] + "\n" + note + text[match.end():]


def setup(app):
    app.connect("source-read", _add_note)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
