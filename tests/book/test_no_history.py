"""The library's docstrings and comments, the README and the changelog say what the code does, not how it went:
no dated measurement, no commit reference, no benchmark figure and no "before / since" history (issue 50). The
figures live in the benchmark records (``benchmarks/records``), the history in git."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: what a measurement or a piece of history looks like in prose
PATTERNS = {
    "a date": r"\b20\d\d-[01]\d-[0-3]\d\b",
    "a commit": r"`[0-9a-f]{7,40}`|\b(?:commit|since|at) [0-9a-f]{7,40}\b",
    "a CPU-time figure": r"\b\d[\d,.]*\s?(?:CPU )?(?:CPU s|CPU seconds|CPU minutes|CPU hours)\b",
    "a wall-time figure": r"\b\d[\d,.]*\s?(?:s|ms|min|minutes|seconds|hours)\b (?:of|against|instead|on|for|before)\b",
    "a speed ratio": r"\b\d+(?:\.\d+)?x (?:faster|slower)\b|\bx\d+\.\d+\b|\b\d+(?:\.\d+)? times (?:faster|slower)\b",
    "a measurement": r"\b[Mm]easured (?:on|at|with)\b|\btook \d|\btakes about \d",
    "history": r"\bas (?:it did |they did |this did )?before\b|\bbefore (?:it|they|this|that) (?:was|were|did)\b|\bno longer\b"
               r"|\bpreviously\b|\bformerly\b|\bsince (?:commit|version)\b|\bused to (?:be|take|fit|give)\b"
               r"|\bthe previous (?:path|code|implementation|version)\b|\bour first implementation\b",
}
COMPILED = {name: re.compile(pattern) for name, pattern in PATTERNS.items()}


def scanned_files():
    yield from sorted((ROOT / "lib").rglob("*.py"))
    yield ROOT / "README.md"
    yield ROOT / "CHANGELOG.md"
    yield ROOT / "Makefile"


#: a figure that names the benchmark record it comes from, and is checked against it (tests/book/test_readme.py)
FROM_A_RECORD = "(the newest records of `benchmarks/"


def findings(path: Path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FROM_A_RECORD in line:
            continue
        for name, pattern in COMPILED.items():
            match = pattern.search(line)
            if match:
                yield f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{number}: {name} ({match.group(0)!r}): {line.strip()[:120]}"


def test_no_measurement_or_history_in_the_library_readme_and_changelog():
    found = [f for path in scanned_files() for f in findings(path)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("line, kind", [
    ("    # measured on 2026-11-28 at commit `4c40cae`: 3.1 CPU s", "a date"),
    ("the path took 377 Newton steps", "a measurement"),
    ("exit in 2.8 s instead of 5.8", "a wall-time figure"),
    ("the C path 1.87x faster on emotions", "a speed ratio"),
    ("Reuters-21578's C axis x3.1", "a speed ratio"),
    ("(0.35 of the 8.6 CPU s of one fit)", "a CPU-time figure"),
    ("asking loky for the pool (as this did before)", "history"),
    ("since `78ab828` the solver", "a commit"),
])
def test_the_scan_finds_what_it_looks_for(tmp_path, line, kind):
    path = tmp_path / "probe.txt"
    path.write_text(line + "\n", encoding="utf-8")
    assert any(f": {kind} (" in f for f in findings(path)), list(findings(path))
