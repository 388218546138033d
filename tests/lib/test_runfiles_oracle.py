"""``labelrank.runfiles`` (a file read at once, column by column) against ``tests/linereader.py`` (the same rules
applied one line at a time): on random files, good and bad, the same truths, the same runs in the same order, the
same disagreement counts, and the same message for the same first error."""

from __future__ import annotations

import codecs
import random

import pytest

import linereader
from labelrank import runfiles, textcolumns

LABELS = ["A", "B", "AA", "AB", "B-1", "b", "\u00e9t\u00e9", "C#"]
DOCS = ["d1", "d2", "d3", "#d4"]
# odd numbers, good and bad; a reader that took what its parser accepts would take "1.0", "1e3" and "True" as integers
BAD_RANKS = ["0", "-1", "1_0", "x", "\u0661", "1.5", "+2", "1.0", "1e3", "True", "007"]  # (ranks beyond 2**63: below)
BAD_SCORES = ["nan", "inf", "1e999", "0_5", ".5", "1.", "-0", "+.5e-3", "1e", "0x10", "\u0661", "True", "-inf",
              "Infinity", "NaN", "1e-400", "0.1000000000000000055511151231257827"]


def _line(rng: random.Random, fields: list[str]) -> str:
    sep = [rng.choice([" "] * 30 + ["  ", "\t", " \t", "\x0b"]) for _ in fields]  # \x0b: bytes.split's space too
    text = "".join(f + s for f, s in zip(fields, sep)).rstrip(" \t")
    return rng.choice(["", " ", "\t"]) + text + rng.choice(["", " "])


def _noise(rng: random.Random, lines: list[str], other: str) -> list[str]:
    """Comments and blank lines between the data lines; now and then one line of another form or a stray mark."""
    out = []
    for line in lines:
        if rng.random() < 0.1:
            out.append(rng.choice(["", "# a comment", "   ", "#"]))
        out.append(line)
    if out and rng.random() < 0.05:
        out.insert(rng.randrange(len(out)), "\ufeff" + out[rng.randrange(len(out))])
    if out and rng.random() < 0.05:
        out.insert(rng.randrange(len(out)), rng.choice(["d1 AA 1", other]))
    return out


def _join(rng: random.Random, lines: list[str]) -> bytes:
    end = rng.choice(["\n", "\n", "\r\n", "\r"])
    text = end.join(lines) + (end if rng.random() < 0.8 else "")
    data = text.encode("utf-8")
    if rng.random() < 0.1:
        data = codecs.BOM_UTF8 + data
    return data


def random_truth(rng: random.Random) -> bytes:
    trec = rng.random() < 0.5
    lines = []
    for _ in range(rng.randrange(0, 9)):
        doc, label = rng.choice(DOCS[:3]), rng.choice(LABELS + ["ZZ"] * (rng.random() < 0.05))
        if trec:
            rel = rng.choice(["1", "0", "2", "-1"] + (["yes", "1_0", "1.0", "True"] if rng.random() < 0.05 else []))
            lines.append(_line(rng, [doc, "0", label, rel]))
        else:
            lines.append(_line(rng, [doc, label]))
    if rng.random() < 0.5:
        lines.sort(key=lambda line: line.split()[0])
    return _join(rng, _noise(rng, lines, "d1 AA" if trec else "d1 0 AA 1"))


def random_run(rng: random.Random) -> bytes:
    trec = rng.random() < 0.6
    lines = []
    for _ in range(rng.randrange(0, 12)):
        doc = rng.choice(DOCS[:3] + ["d9"] * (rng.random() < 0.05))
        label = rng.choice(LABELS + ["ZZ"] * (rng.random() < 0.05))
        rank = str(rng.randrange(1, 6)) if rng.random() > 0.04 else rng.choice(BAD_RANKS)
        score = str(rng.choice([0.1, 0.5, 0.5, 0.9, 0.25, 1.0])) if rng.random() > 0.04 else rng.choice(BAD_SCORES)
        fields = [doc, "Q0", label, rank, score, rng.choice(["runA", "runB"])] if trec else [doc, label, rank, score]
        lines.append(_line(rng, fields))
    if rng.random() < 0.5:  # each document's lines together, as most runs are written
        lines.sort(key=lambda line: line.split()[0])
    return _join(rng, _noise(rng, lines, "d1 AA 1 0.5" if trec else "d1 Q0 AA 1 0.5 runA"))


def outcome(read, *args):
    """What a reader gives: its result, or the message of the error it raises."""
    try:
        return "ok", read(*args)
    except (runfiles.RunFileError, linereader.RunFileError) as exc:
        return "error", str(exc)


def as_plain(runs) -> list:
    return [(name, run.ranking, run.scores, run.disagree) for name, run in runs.items()]


@pytest.fixture(params=["split", "numpy"])
def parser(request, monkeypatch):
    """Both ways ``labelrank.runfiles`` parses a file: bytes.split (small files) and numpy's C reader (large ones)."""
    if request.param == "numpy":
        monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    return request.param


@pytest.mark.parametrize("seed", range(300))
def test_truth_files_read_alike(tmp_path, seed, parser):
    rng = random.Random(seed)
    path = tmp_path / "truth.txt"
    path.write_bytes(random_truth(rng))
    labels = None if rng.random() < 0.3 else set(LABELS)
    ours, theirs = outcome(runfiles.read_truth, path, labels), outcome(linereader.read_truth, path, labels)
    assert ours[0] == theirs[0], (ours, theirs, path.read_bytes())
    if ours[0] == "ok":
        assert list(ours[1].items()) == list(theirs[1].items())
    else:
        assert ours[1] == theirs[1], path.read_bytes()


@pytest.mark.parametrize("seed", range(400))
def test_run_files_read_alike(tmp_path, seed, parser):
    rng = random.Random(1000 + seed)
    path = tmp_path / "run.txt"
    path.write_bytes(random_run(rng))
    runs_read_alike(path, rng)


def runs_read_alike(path, rng: random.Random) -> None:
    """The run file at ``path`` gives the line reader's runs or message, under labels and an order drawn from
    ``rng``."""
    labels = None if rng.random() < 0.3 else set(LABELS)
    order = rng.choice(runfiles.ORDERS)
    docs = set(DOCS[:3])
    ours = outcome(runfiles.read_runs, path, labels, docs, order)
    theirs = outcome(linereader.read_runs, path, labels, docs, order)
    assert ours[0] == theirs[0], (ours, theirs, path.read_bytes())
    if ours[0] == "ok":
        assert as_plain(ours[1]) == as_plain(theirs[1]), path.read_bytes()
    else:
        assert ours[1] == theirs[1], path.read_bytes()


def test_the_random_files_reach_every_kind_of_outcome(tmp_path, monkeypatch):
    """The generators make good files and every kind of error, and files that numpy's reader parses and files that
    bytes.split does, so the comparisons above compare something."""
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    messages, parsed_by, typed, plain = [], [], [], []
    for seed in range(400):
        rng = random.Random(1000 + seed)
        path = tmp_path / "run.txt"
        path.write_bytes(random_run(rng))
        messages.append(outcome(runfiles.read_runs, path, set(LABELS), set(DOCS[:3]), "rank")[1])
        try:
            table = textcolumns.Columns(path, "run", runfiles.RUN_FORMS, runfiles.RunFileError, runfiles.RUN_NUMBERS)
            parsed_by.append(table.parser == "numpy")
            plain.append(table.plain)
            if table.parser == "numpy":
                typed.append(bool(table.typed))
        except runfiles.RunFileError:
            pass
    # (numpy's reader takes ASCII files, and others whose fields stand one space apart; most generated files have
    # other whitespace, non-ASCII labels or a vertical tab; tests/lib/test_textcolumns.py compares the numbers of many)
    assert sum(parsed_by) > 50 and len(parsed_by) - sum(parsed_by) > 50
    assert sum(typed) > 40 and len(typed) - sum(typed) >= 5  # numbers read by numpy, and files it reads as text
    assert sum(parsed_by) - sum(plain) > 40  # (the plain files have a test of their own, below)
    text = " ".join(m for m in messages if isinstance(m, str))
    for phrase in ("unknown label", "is not in the truth file", "is not a positive integer", "is not a finite number",
                   "duplicate line", "duplicate rank", "the file mixes forms", "byte-order mark", "empty"):
        assert phrase in text, phrase
    assert sum(not isinstance(m, str) for m in messages) > 100
    assert any(not isinstance(m, str) and m and any(r.disagree for r in m.values()) for m in messages)


def test_a_rank_beyond_64_bits_is_named(tmp_path, parser):
    """The line reader takes any integer; the column reader holds ranks in 64 bits and says so."""
    (tmp_path / "run.txt").write_text("d1 A 1 0.5\nd1 B 99999999999999999999 0.4\n")
    with pytest.raises(runfiles.RunFileError, match=r"run.txt:2: rank '99999999999999999999' is not a positive "
                                                    r"integer below 2\*\*63"):
        runfiles.read_runs(tmp_path / "run.txt", None, {"d1"})


def plain_run(rng: random.Random) -> bytes:
    """A run file of the plainest form (fields one space apart, every line a data line, ASCII), good or not: odd
    numbers, unknown labels and documents, repeated lines, now and then a line of the other form."""
    trec = rng.random() < 0.6
    lines = []
    for _ in range(rng.randrange(1, 12)):
        doc = rng.choice(DOCS[:3] + ["d9"] * (rng.random() < 0.05))
        label = rng.choice([lab for lab in LABELS if lab.isascii()] + ["ZZ"] * (rng.random() < 0.05))
        rank = str(rng.randrange(1, 6)) if rng.random() > 0.05 else rng.choice([r for r in BAD_RANKS if r.isascii()])
        score = (str(rng.choice([0.1, 0.5, 0.9, 0.25, 1.0])) if rng.random() > 0.05
                 else rng.choice([b for b in BAD_SCORES if b.isascii()]))
        lines.append(" ".join([doc, "Q0", label, rank, score, rng.choice(["runA", "runB"])] if trec
                              else [doc, label, rank, score]))
    if rng.random() < 0.05:
        lines.insert(rng.randrange(len(lines) + 1), "d1 AA 1 0.5" if trec else "d1 Q0 AA 1 0.5 runA")
    if len(lines) > 1 and rng.random() < 0.08:  # a field moved to another line: as many spaces, a line short
        short, long = rng.sample(range(len(lines)), 2)
        head, moved = lines[short].rsplit(" ", 1)
        lines[short], lines[long] = head, f"{lines[long]} {moved}"
    return ("\n".join(lines) + ("\n" if rng.random() < 0.9 else "")).encode("ascii")


@pytest.mark.parametrize("seed", range(300))
def test_plain_run_files_read_alike(tmp_path, seed, monkeypatch):
    """Files of the plainest form take numpy's reader without the line-by-line checks (Columns.plain); they must
    give the line reader's runs and messages all the same."""
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    rng = random.Random(5000 + seed)
    path = tmp_path / "run.txt"
    path.write_bytes(plain_run(rng))
    runs_read_alike(path, rng)


def test_the_plain_files_take_the_plain_way(tmp_path, monkeypatch):
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    plain, messages = [], []
    for seed in range(300):
        path = tmp_path / "run.txt"
        path.write_bytes(plain_run(random.Random(5000 + seed)))
        try:
            plain.append(textcolumns.Columns(path, "run", runfiles.RUN_FORMS, runfiles.RunFileError,
                                             runfiles.RUN_NUMBERS, runfiles.RUN_UNREAD).plain)
        except runfiles.RunFileError:
            plain.append(False)
        messages.append(outcome(runfiles.read_runs, path, set(LABELS), set(DOCS[:3]), "rank")[1])
    assert sum(plain) > 200
    text = " ".join(m for m in messages if isinstance(m, str))
    for phrase in ("unknown label", "is not in the truth file", "is not a positive integer", "is not a finite number",
                   "duplicate", "the file mixes forms", "columns 'doc Q0 label rank score tag' as on line"):
        assert phrase in text, phrase

