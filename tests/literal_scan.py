"""Find the numbers a chapter states by hand.

A chapter's result must come from its computation: a number in prose, a caption, a title, an admonition or an
exercise solution is either glued (``{glue:text}`name```), a value of a paper transcribed in ``data/paper``, or
an entry of the short allowlist in ``tests/literal_allowlist.csv`` with its reason. :func:`typed_literals`
returns everything else, with the line it stands on.

What counts as a literal: a number with a fractional part (``0.524``), a percentage (``6 %``) or an integer of
10 or more (``391``, ``7,532``), anywhere outside executed code cells, and in the comments of code cells too
(a comment can state a result as well as a sentence can). Not literals: numbers inside names (``L2``, ``2C088``, node names with a leading zero such as ``010``, reference numbers ``[13]``, math subscripts ``F_{12}``,
``Reuters-21578``, ``20 Newsgroups``), numbers of tables, figures, equations and sections (``Table 3``), years
(four digits from 1950 to 2030 without a thousands comma), and the targets of roles (``{eq}`x-1```).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Names with digits in them, removed before scanning.
NAMES = re.compile(
    r"\[\d+\]|(?<![\d.,])0\d+|_\{[^}]*\}|20 ?Newsgroups|20news[\w.-]*|Reuters-21578|NTCIR-\d+|PATENTCORPUS\d+|RCV1(?:-v2)?|ISO \d+|"
    r"UTF-\d+|Python \d[\d.]*|jupyter-book \d[\d.x]*|Jupyter Book \d|MathJax \d|Sphinx \d|[A-Z]\d[A-Z]\d+|"
    r"\d+-core|\d+-bit|(?:Table|Tables|Fig\.|Figs\.?|Figure|Figures|eq\.|eqs\.|Eq\.|Eqs\.|equation|equations|"
    r"Section|Sections|section|sections|Appendix|Chapter|chapter|issue|Issue|page|pages|p\.|pp\.|No\.|vol\.|"
    r"Vol\.|Volume|Theorem|Lemma|Definition|Exercise|exercise|step|Step)(?:\s|&nbsp;|~)+"
    r"\(?[\dA-Z]+\)?(?:[.,–-]\s?\(?[\dA-Z]+\)?)*(?:\s?(?:and|to|-|–)\s?\(?\d+\)?)?|\\tag\{\d+\}"
)
ROLE = re.compile(r"\{(?:glue|glue:text|glue:any|glue:md|glue:figure|eq|cite|cite:p|cite:t|numref|ref|doc|"
                  r"download|math|term|label)\}`[^`]*`")
URL = re.compile(r"https?://\S+|<[^>]+>")
LABEL_LINE = re.compile(r"^\s*(?:\([\w:.-]+\)=|:[\w-]+:.*)$")
STRING = re.compile(r"\"[^\"]*\"|'[^']*'")
COMMENT = re.compile(r"(?:^\s*|\s)#\s.*$")
READING_TIME = re.compile(r"\*\*Reading time\.\*\*.*")
CUE = re.compile(r"paper|page|seed|printed|prints|table|fig|\{cite|ntcir|authors|report", re.I)
NUMBER = re.compile(r"(?<![\w.\-/\\$^_])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?%)?(?![\w/]|-\d)")
YEAR = range(1950, 2031)


@dataclass(frozen=True)
class Literal:
    chapter: str
    line: int
    text: str
    context: str
    paragraph: str = ""

    def __str__(self):
        return f"{self.chapter}:{self.line}: {self.text!r} in {self.context.strip()[:110]!r}"


def _is_literal(integer: str, fraction: str | None, percent: str | None) -> bool:
    if fraction or percent:
        return True
    value = int(integer.replace(",", ""))
    if "," not in integer and len(integer) == 4 and value in YEAR:
        return False
    return value >= 10


def _scannable_lines(text: str):
    """(line number, text) of the lines a reader sees as prose, and of code cells' comments."""
    lines = text.splitlines()
    i = 0
    if lines and lines[0].strip() == "---":  # front matter
        i = lines.index("---", 1) + 1
    fence = None  # the fence of the code cell we are in, or None
    for number, line in enumerate(lines[i:], start=i + 1):
        stripped = line.strip()
        if fence is not None:
            if stripped == fence:
                fence = None
            elif not stripped.startswith("#|") and COMMENT.search(line):
                yield number, COMMENT.search(line).group(0)
            continue
        match = re.match(r"^(`{3,}|~{3,})\{code-cell\}", stripped)
        if match:
            fence = match.group(1)
            continue
        if LABEL_LINE.match(line):
            continue
        yield number, line


def code_constants(text: str) -> set[str]:
    """The numbers written in the chapter's executed code: the inputs it shows (not those in comments or in
    strings, where a typed result would hide)."""
    values, fence = set(), None
    for line in text.splitlines():
        stripped = line.strip()
        if fence is None:
            match = re.match(r"^(`{3,}|~{3,})\{code-cell\}", stripped)
            fence = match.group(1) if match else None
        elif stripped == fence:
            fence = None
        elif not stripped.startswith(("#", ":")):
            values |= _numbers(STRING.sub(" ", re.sub(r"#.*", "", line)))
    return values


def protocol_constants() -> set[str]:
    """The numbers of the experiment protocol's settings under both profiles (grids, folds, subsample sizes)."""
    from labelrank.studies.yang2012.experiments import protocol

    values = set()
    for profile in ("quick", "full"):
        proto = protocol(profile)
        numbers = [proto.n_folds, *proto.tune_subsample.values()]
        numbers += [v for grid in proto.grids.values() for v in grid]
        numbers += [v for pair in proto.subsample.values() for v in pair]
        values |= {s for v in numbers for s in _numbers(f"{v:g}" if isinstance(v, float) else str(v))}
    return values


def _paragraph(lines: list[str], i: int) -> str:
    """The paragraph (lines between blank lines) around line index ``i``."""
    start, stop = i, i
    while start > 0 and lines[start - 1].strip():
        start -= 1
    while stop + 1 < len(lines) and lines[stop + 1].strip():
        stop += 1
    return "\n".join(lines[start:stop + 1])


def literals_in(path: Path) -> list[Literal]:
    """Every typed numeric literal of one chapter."""
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in _scannable_lines("\n".join(lines)):
        clean = READING_TIME.sub(" ", URL.sub(" ", ROLE.sub(" ", line)))
        clean = NAMES.sub(" ", clean)
        for match in NUMBER.finditer(clean):
            if _is_literal(*match.groups()):
                found.append(Literal(path.stem, number, match.group(0).strip(), line, _paragraph(lines, number - 1)))
    return found


def _numbers(text: str) -> set[str]:
    """The number spellings of a cell: as written, and without trailing zeros."""
    out = set()
    for match in NUMBER.finditer(text):
        whole = match.group(1).replace(",", "") + (match.group(2) or "")
        out.add(whole)
        if "." in whole:
            out.add(whole.rstrip("0").rstrip("."))
    return out


def paper_values() -> set[str]:
    """Every number of every transcribed paper table, in the spellings :func:`normalised` gives."""
    values = set()
    for path in sorted((ROOT / "data" / "paper").glob("*.csv")):
        with path.open(encoding="utf-8") as f:
            for row in csv.reader(f):
                for cell in row:
                    values |= _numbers(cell)
    return values


def normalised(literal: str) -> set[str]:
    """Spellings of a literal to look up among :func:`paper_values` (percent sign and commas dropped)."""
    return _numbers(literal.replace("%", "").strip())


def allowlist() -> list[dict]:
    with (ROOT / "tests" / "literal_allowlist.csv").open(encoding="utf-8") as f:
        return [row for row in csv.DictReader(f) if row["chapter"].strip() and not row["chapter"].startswith("#")]


def typed_literals(path: Path, allowed=None, paper=None, protocol=None) -> list[Literal]:
    """The literals of a chapter that are not glued, not a constant of its code or of the protocol, not a paper
    value in a sentence that says so (a cue such as "paper", "page", "Table" or a citation), not allowlisted."""
    allowed = allowlist() if allowed is None else allowed
    paper = paper_values() if paper is None else paper
    constants = (protocol_constants() if protocol is None else protocol) | code_constants(path.read_text("utf-8"))
    mine = [(a["literal"], a["context"]) for a in allowed if a["chapter"] == path.stem]
    out = []
    for lit in literals_in(path):
        spellings = normalised(lit.text)
        small_integer = re.fullmatch(r"\d\d", lit.text) is not None  # too common to be told apart by value
        if spellings & constants or (spellings & paper and CUE.search(lit.paragraph) and not small_integer):
            continue
        if any(lit.text == text and context in lit.context for text, context in mine):
            continue
        out.append(lit)
    return out
