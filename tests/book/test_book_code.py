"""The chapters show the library's public code, highlighted and without docstrings (labelrank.studies.source)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from labelrank.studies.source import show_source, source_text

BOOK = Path(__file__).resolve().parents[2] / "book"


@pytest.mark.parametrize("page", sorted(p.name for p in BOOK.glob("*.md")))
def test_no_chapter_prints_raw_source_or_a_private_name(page):
    text = (BOOK / page).read_text(encoding="utf-8")
    assert "inspect.getsource" not in text, page
    for call in re.findall(r"show_source\(([^)]*)\)", text):
        for name in call.split(","):
            last = name.strip().split(".")[-1]
            assert not (last.startswith("_") and not last.startswith("__")), (page, name)


def test_source_text_drops_docstrings_and_refuses_private_code():
    from labelrank.cost import BDMIndex
    from labelrank.distance_kernels import write_block

    text = source_text(BDMIndex)
    assert text.startswith("class BDMIndex") and '"""' not in text and "def rows_bdm" in text
    assert source_text(write_block).startswith("@njit")  # a compiled kernel: its Python source
    with pytest.raises(ValueError, match="is private"):
        source_text(BDMIndex.__init__.__globals__["_check_tree"])
    shown = show_source(BDMIndex.pairs, BDMIndex.rows_bdm).data
    assert shown.startswith("def pairs(") and "\ndef rows_bdm(" in shown and "Examples" not in shown
