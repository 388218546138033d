"""The performance page ("How the experiments run and what they cost") states no figure of its own: every number
it shows is computed from the benchmark records, so its prose holds no number at all (only names such as
Reuters-21578 or eq. 1) and its code no number but small counts and unit conversions."""

import re
from pathlib import Path

import pytest

from literal_scan import NAMES, NUMBER, READING_TIME, ROLE, STRING, URL, YEAR, _scannable_lines

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "book" / "performance.md"
#: numbers the page's code may write: small counts, indices, figure sizes, and seconds per minute / hour
CODE_NUMBERS = {str(n) for n in range(10)} | {"60", "3600"}


def typed_numbers(text: str) -> list[str]:
    """Every number the page's prose or code states by hand, with its line."""
    found = []
    for number, line in _scannable_lines(text):
        clean = NAMES.sub(" ", READING_TIME.sub(" ", URL.sub(" ", ROLE.sub(" ", line))))
        for match in NUMBER.finditer(clean):
            value = match.group(0).strip()
            if re.fullmatch(r"\d{4}", value) and int(value) in YEAR:
                continue
            found.append(f"line {number}: {value!r} in {line.strip()[:100]!r}")
    fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if fence is None:
            match = re.match(r"^(`{3,}|~{3,})\{code-cell\}", stripped)
            fence = match.group(1) if match else None
            continue
        if stripped == fence:
            fence = None
            continue
        if stripped.startswith((":", "#")):
            continue
        code = STRING.sub(" ", re.sub(r"#.*", "", line))
        for match in NUMBER.finditer(code):
            if match.group(0).strip() not in CODE_NUMBERS:
                found.append(f"line {number} (code): {match.group(0).strip()!r} in {stripped[:100]!r}")
    return found


def test_the_performance_page_states_no_number_of_its_own():
    found = typed_numbers(PAGE.read_text(encoding="utf-8"))
    assert not found, "the performance page types numbers; read them from a record instead:\n" + "\n".join(found)


@pytest.mark.parametrize("page", [
    "Intro.\n\nThe exact protocol takes 15 CPU hours.\n",
    "Intro.\n\n```{code-cell} ipython3\nbudget = 1.5\n```\n",
    "Intro.\n\n```{code-cell} ipython3\nminutes = 45 * 2\n```\n",
    "Intro.\n\nOn a machine of 2 cores.\n",
])
def test_the_check_finds_a_typed_number(page):
    assert typed_numbers(page)


def test_the_page_is_in_the_back_matter():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    back = toc[toc.index("caption: Back matter"):]
    assert "file: book/performance" in back
