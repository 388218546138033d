"""The line-by-line reader of run and truth files, kept as the tests' oracle for :mod:`labelrank.runfiles`.

:mod:`labelrank.runfiles` reads a file at once, column by column with numpy; this module reads it one line at a
time, each rule written out where it applies. ``tests/lib/test_runfiles_oracle.py`` checks on many random files, good
and bad, that both return the same runs and truths and raise the same message. Fields here are separated by ASCII
whitespace, as in :mod:`labelrank.runfiles`.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labelrank.validation import shorten
from labelrank.runfiles import ORDERS, RunFileError, parse_decimal, parse_int, unknown_label

__all__ = ["Run", "read_truth", "read_runs", "ordered_run"]
TRUTH_FORMS: dict[int, str] = {2: "doc label", 4: "doc 0 label rel"}
RUN_FORMS: dict[int, str] = {4: "doc label rank score", 6: "doc Q0 label rank score tag"}


@dataclass
class Run:
    """A run: ``{doc: [labels]}`` and ``{doc: [scores]}``, best first, and the count of disagreeing documents."""

    ranking: dict[str, list[str]]
    scores: dict[str, list[float]]
    disagree: int = 0


def _quote(fields: Sequence[str]) -> str:
    return repr(shorten(" ".join(fields)))


def _read_bytes(path, what: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise RunFileError(f"{path}: {what} file not found") from None
    return data


def _data_lines(path: str | os.PathLike, what: str, forms: Mapping[int, str]):
    """Yield (line number, fields) of the non-blank, non-comment lines, all of one form (a key of ``forms``).

    The file is UTF-8; a byte-order mark at its start (Windows editors write one) is dropped. A UTF-16 file, a
    byte-order mark anywhere else, an empty file, a line of no known form and a line of another form than the
    first data line are errors that say so.
    """
    data = _read_bytes(path, what)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise RunFileError(f"{path}: the {what} file is UTF-16 (it starts with a UTF-16 byte-order mark); "
                           "save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RunFileError(f"{path}:{line}: the {what} file is not UTF-8 ({exc.reason} at byte {exc.start})") \
            from None
    described = " or ".join(f"{n} columns '{form}'" for n, form in forms.items())
    width, first = None, None
    for lineno, line in enumerate(io.StringIO(text, newline=None), start=1):  # lazily; \r, \r\n and \n end lines
        stripped = line.strip(" \t\n\r\x0b\x0c")
        if not stripped or stripped.startswith("#"):
            continue
        if "\ufeff" in stripped:
            raise RunFileError(f"{path}:{lineno}: a byte-order mark (U+FEFF) inside the {what} file, "
                               "not at its start (files joined together?)")
        fields = stripped.encode("utf-8").split()
        fields = [f.decode("utf-8") for f in fields]
        if width is None:
            if len(fields) not in forms:
                raise RunFileError(f"{path}:{lineno}: expected {described}, got {len(fields)}: {_quote(fields)}")
            width, first = len(fields), lineno
        elif len(fields) != width:
            mixed = " (the file mixes forms)" if len(fields) in forms else ""
            raise RunFileError(f"{path}:{lineno}: expected {width} columns '{forms[width]}' as on line {first}, got "
                               f"{len(fields)}{mixed}: {_quote(fields)}")
        yield lineno, fields
    if width is None:
        raise RunFileError(f"{path}: the {what} file is empty (no data lines)")


def read_truth(path: str | os.PathLike, labels: Collection[str] | None = None) -> dict[str, list[str]]:
    """As labelrank.runfiles.read_truth, one line at a time."""
    truth: dict[str, list[str]] = {}
    first: dict[tuple[str, str], int] = {}
    for lineno, fields in _data_lines(path, "truth", TRUTH_FORMS):
        where = f"{path}:{lineno}"
        if len(fields) == 2:
            (doc, label), relevant = fields, True
        else:
            doc, _, label, rel_text = fields
            rel = parse_int(rel_text)
            if rel is None:
                raise RunFileError(f"{where}: relevance {shorten(rel_text)!r} is not an integer (ASCII digits)")
            relevant = rel >= 1
        if labels is not None and label not in labels:
            raise RunFileError(f"{where}: {unknown_label(label, labels)}")
        if (doc, label) in first:
            raise RunFileError(f"{where}: duplicate line for document {shorten(doc)!r}, label {shorten(label)!r} "
                               f"(first on line {first[doc, label]})")
        first[doc, label] = lineno
        if relevant:
            truth.setdefault(doc, []).append(label)
    if not truth:
        raise RunFileError(f"{path}: the truth file judges no label relevant")
    return truth


def read_runs(path: str | os.PathLike, labels: Collection[str] | None = None, docs: Collection[str] = (),
              order: str = "rank") -> dict[str, Run]:
    """As labelrank.runfiles.read_runs, one line at a time."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    by_rank = order == "rank"
    # one string object per label and per document, however many lines name it (a run may have millions)
    label_of = {lab: lab for lab in labels} if labels is not None else None
    doc_of = {doc: doc for doc in docs}
    runs: dict[str, dict[str, list[tuple[int, str, float, int]]]] = {}
    name, seen = str(path), {}
    for lineno, fields in _data_lines(path, "run", RUN_FORMS):
        if len(fields) == 4:
            doc_text, label_text, rank_text, score_text = fields
        else:
            doc_text, _, label_text, rank_text, score_text, name = fields
        if label_of is None:  # no tree: every label, one string object per label
            label = seen.setdefault(label_text, label_text)
        else:
            label = label_of.get(label_text)
            if label is None:
                raise RunFileError(f"{path}:{lineno}: {unknown_label(label_text, labels)}")
        doc = doc_of.get(doc_text)
        if doc is None:
            raise RunFileError(f"{path}:{lineno}: document {shorten(doc_text)!r} is not in the truth file")
        rank = parse_int(rank_text)
        if rank is None or (by_rank and rank < 1):
            kind = "a positive integer" if by_rank else "an integer"
            raise RunFileError(f"{path}:{lineno}: rank {shorten(rank_text)!r} is not {kind} (ASCII digits)")
        score = parse_decimal(score_text)
        if score is None:
            raise RunFileError(f"{path}:{lineno}: score {shorten(score_text)!r} is not a finite number "
                               "(ASCII decimal)")
        runs.setdefault(name, {}).setdefault(doc, []).append((rank, label, score, lineno))
    for rows in runs.values():
        _check_duplicates(path, rows, by_rank)
    return {name: ordered_run(rows, order) for name, rows in runs.items()}


def ordered_run(rows: Mapping[str, list[tuple]], order: str = "rank") -> Run:
    """As labelrank.runfiles.ordered_run, one document at a time (sorted in place)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    by_rank = order == "rank"
    ranking, scores, disagree = {}, {}, 0
    for doc, items in rows.items():
        items.sort(key=lambda item: (item[0], -item[2]))  # by rank; equal ranks (order="score" only): by score
        by_rank_scores = [item[2] for item in items]
        disagree += any(b > a for a, b in zip(by_rank_scores, by_rank_scores[1:]))
        if not by_rank:  # trec_eval: score descending, then label descending
            items.sort(key=lambda item: (item[2], item[1].encode("utf-8")), reverse=True)
        ranking[doc] = [item[1] for item in items]
        scores[doc] = by_rank_scores if by_rank else [item[2] for item in items]
    return Run(ranking=ranking, scores=scores, disagree=disagree)


def _check_duplicates(path, rows: Mapping[str, list[tuple[int, str, float, int]]], by_rank: bool) -> None:
    """RunFileError for the first line (in file order) that repeats a document's label, or its rank under ``by_rank``."""
    worst: tuple[int, str] | None = None
    for doc, items in rows.items():
        for column, what in ((1, "line for document {doc}, label {value}"), (0, "rank {value} for document {doc}")):
            if column == 0 and not by_rank:
                continue
            values = [item[column] for item in items]
            if len(set(values)) == len(values):
                continue
            first: dict[Any, int] = {}
            for item in items:  # items are in file order here
                value, lineno = item[column], item[3]
                if value in first:
                    if worst is None or lineno < worst[0]:
                        shown = shorten(value) if isinstance(value, str) else value
                        text = what.format(doc=repr(shorten(doc)), value=repr(shown) if column else shown)
                        worst = (lineno, f"{path}:{lineno}: duplicate {text} (first on line {first[value]})")
                    break
                first[value] = lineno
    if worst is not None:
        raise RunFileError(worst[1])
