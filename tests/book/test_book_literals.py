"""Nothing typed goes stale: every number a chapter states is glued, a constant, a labelled paper value or
allowlisted (see ``tests/literal_scan.py``), and every piece of Python in a chapter is executed."""

import re

import pytest

from literal_scan import ROOT, allowlist, literals_in, typed_literals

CHAPTERS = sorted((ROOT / "book").glob("*.md"))
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*(python|py|ipython3?|pycon)\s*$", re.M)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_typed_numbers(chapter):
    typed = typed_literals(chapter)
    assert not typed, f"{len(typed)} typed numbers; glue them or allowlist them with a reason:\n" + "\n".join(
        map(str, typed))


def indented_code(text):
    """Line numbers of indented code blocks (four spaces after a blank line) outside code cells."""
    lines, fence, found = text.splitlines(), None, []
    for i, line in enumerate(lines):
        opening = re.match(r"^(`{3,}|~{3,})\{code-cell\}", line.strip())
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None:
            fence = None if line.strip() == fence else fence
        elif re.match(r"^ {4}\S", line) and i and not lines[i - 1].strip():
            found.append(i + 1)
    return found


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_python_that_is_not_run(chapter):
    text = chapter.read_text(encoding="utf-8")
    blocks = FENCE.findall(text)
    assert not blocks, f"{chapter.name}: {len(blocks)} Python blocks that the build never runs; make them code cells"
    indented = indented_code(text)
    assert not indented, f"{chapter.name}: indented code blocks at lines {indented}; make them code cells"


def test_allowlist_is_short_and_every_entry_is_used_and_explained():
    entries = allowlist()
    assert len(entries) <= 15, f"{len(entries)} allowlist entries: glue instead"
    for entry in entries:
        assert entry["reason"].strip(), f"allowlist entry without a reason: {entry}"
        chapter = ROOT / "book" / f"{entry['chapter']}.md"
        hits = [lit for lit in literals_in(chapter) if lit.text == entry["literal"] and entry["context"] in lit.context]
        assert hits, f"allowlist entry matches nothing any more, remove it: {entry}"


def test_scanner_finds_what_it_should(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "---\njupytext: {}\n---\n\n# T\n\nWe found 0.524 and 7,532 messages; Table 3 in 2012 on 20 Newsgroups.\n"
        "Glued {glue:text}`x:.4f` and {eq}`eq-12`, L2 and 2C088 and Reuters-21578 are names.\n\n"
        "```{code-cell} ipython3\nx = 0.25  # about 0.75 of it\n```\n\nThe input 0.25 is the code's.\n",
        encoding="utf-8")
    found = [(lit.text, lit.line) for lit in typed_literals(page, allowed=[], paper=set(), protocol=set())]
    assert found == [("0.524", 7), ("7,532", 7), ("0.75", 11)]
