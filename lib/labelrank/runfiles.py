r"""Run and truth files: reading and writing the ranked label lists that ``labelrank score`` and ``compare`` score.

Two forms of each, told apart per file by the number of columns of its first data line:

========  ======================================  ==========================================================
file      the project's form                      the TREC form (trec_eval, ir_measures, ranx, NTCIR)
========  ======================================  ==========================================================
truth     ``doc label`` (2 columns)               ``doc 0 label rel`` (4 columns; relevant when rel >= 1)
run       ``doc label rank score`` (4 columns)    ``doc Q0 label rank score tag`` (6 columns; tag = the run)
========  ======================================  ==========================================================

Here a TREC *query* is a document and a *docno* is a label. A file whose lines switch form is an error that names
the first line breaking the form of the first. A path ending in ``.gz`` is read through gzip; ``-`` is standard
input. Every problem is one :class:`RunFileError` naming the file and the line; nothing read is executed.

Examples
--------
>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> qrels = os.path.join(folder, "qrels.txt")
>>> _ = open(qrels, "w").write("d1 0 a1 1\nd1 0 b 0\nd2 0 b 2\n")
>>> read_truth(qrels)
{'d1': ['a1'], 'd2': ['b']}
>>> trec = os.path.join(folder, "runs.txt")
>>> _ = open(trec, "w").write("d1 Q0 a2 1 0.9 sysA\nd1 Q0 a1 2 0.6 sysA\nd1 Q0 a1 1 0.7 sysB\n")
>>> sorted(read_runs(trec, docs=["d1", "d2"]))
['sysA', 'sysB']
"""

from __future__ import annotations

import codecs
import gzip
import io
import math
import os
import re
import sys
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labelrank._validation import shorten

__all__ = ["RunFileError", "Run", "read_truth", "read_run", "read_runs", "ordered_run", "write_truth", "write_run",
           "parse_int",
           "parse_decimal", "ORDERS", "TRUTH_FORMS", "RUN_FORMS"]

ORDERS: tuple[str, ...] = ("rank", "score")
#: columns of a truth line in each form
TRUTH_FORMS: dict[int, str] = {2: "doc label", 4: "doc 0 label rel"}
#: columns of a run line in each form
RUN_FORMS: dict[int, str] = {4: "doc label rank score", 6: "doc Q0 label rank score tag"}


class RunFileError(ValueError):
    """A run or truth file that cannot be read as one: the message names the file and the line.

    Examples
    --------
    >>> read_truth("no-such-file.txt", ["a"])
    Traceback (most recent call last):
        ...
    labelrank.runfiles.RunFileError: no-such-file.txt: truth file not found
    """


# ASCII only: Python's int() and float() also accept "1_0" (= 10) and non-ASCII digits such as "\u0661" (= 1).
_INTEGER = re.compile(r"[+-]?[0-9]+\Z", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z", re.ASCII)


def parse_int(text: str) -> int | None:
    """``text`` as an integer if it is one written in ASCII digits (an optional sign), else None.

    Parameters
    ----------
    text : str

    Examples
    --------
    >>> parse_int("42"), parse_int("-7"), parse_int("4_2"), parse_int("\u0664\u0662")  # Arabic-Indic digits: refused
    (42, -7, None, None)
    """
    return int(text) if _INTEGER.match(text) else None


def parse_decimal(text: str) -> float | None:
    """``text`` as a finite float if it is a plain ASCII decimal number (123, -4.5, .5, 1e-3), else None.

    Parameters
    ----------
    text : str

    Examples
    --------
    >>> parse_decimal("0.5"), parse_decimal("1e-3"), parse_decimal("inf"), parse_decimal("0_5")
    (0.5, 0.001, None, None)
    """
    if not _DECIMAL.match(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


@dataclass
class Run:
    """A run file read by :func:`read_run`: per document, its labels in the order scored and their scores.

    Attributes
    ----------
    ranking, scores : dict
        ``{doc: [labels]}`` and ``{doc: [scores]}``, best first under the run's ``order``.
    disagree : int
        Documents in which a label ranked above another (by the rank column) has a lower score.

    Examples
    --------
    >>> ordered_run({"d1": [(1, "a2", 0.9), (2, "a1", 0.6)], "d2": [(1, "b", 0.8)]})
    Run(ranking={'d1': ['a2', 'a1'], 'd2': ['b']}, scores={'d1': [0.9, 0.6], 'd2': [0.8]}, disagree=0)
    """

    ranking: dict[str, list[str]]
    scores: dict[str, list[float]]
    disagree: int = 0


def _quote(fields: Sequence[str]) -> str:
    return repr(shorten(" ".join(fields)))


def _read_bytes(path: str | os.PathLike, what: str) -> bytes:
    """The file's bytes: standard input for ``-``, decompressed for a ``.gz`` suffix."""
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        raise RunFileError(f"{path}: {what} file not found") from None
    except OSError as exc:
        raise RunFileError(f"{path}: cannot read the {what} file: {exc}") from exc
    if str(path).endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise RunFileError(f"{path}: the {what} file ends in .gz but is not a whole gzip file ({exc})") from None
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
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "\ufeff" in stripped:
            raise RunFileError(f"{path}:{lineno}: a byte-order mark (U+FEFF) inside the {what} file, "
                               "not at its start (files joined together?)")
        fields = stripped.split()
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
    """Read a truth file into ``{doc: [relevant labels in file order]}``.

    Parameters
    ----------
    path : str or os.PathLike
        The truth file: lines ``doc label``, or TREC qrels ``doc 0 label rel`` (a label is relevant when ``rel``
        is at least 1, trec_eval's default level; a line with a lower ``rel`` judges it not relevant); ``-`` is
        standard input, a ``.gz`` suffix is read through gzip.
    labels : collection of str, optional
        The labels of the tree; any other label is an error. None accepts every label.

    Returns
    -------
    dict of str to list of str
        The documents with at least one relevant label.

    Raises
    ------
    RunFileError
        For a missing, empty or non-UTF-8 file, a line of neither form (or not of the first line's), a label not in
        ``labels``, a ``rel`` that is not an integer, or a (doc, label) pair listed twice; the message names the
        file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "truth.txt")
    >>> write_truth(path, {"d1": ["a1"], "d2": ["b"]})
    >>> read_truth(path, ["a1", "a2", "b"])
    {'d1': ['a1'], 'd2': ['b']}
    """
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
            raise RunFileError(f"{where}: unknown label {shorten(label)!r} (not in the tree)")
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
    """Read a run file into one :class:`Run` per run it holds, each document's labels in the order ``order`` gives.

    Parameters
    ----------
    path : str or os.PathLike
        Lines ``doc label rank score`` (one run, named by the path), or TREC ``doc Q0 label rank score tag``
        (one run per tag, in the order the tags first appear); ``-`` is standard input, ``.gz`` is gzip.
    labels : collection of str, optional
        The labels of the tree; None accepts every label.
    docs : collection of str
        The documents of the truth file; a run's document outside it is an error.
    order : {"rank", "score"}
        ``"rank"``: by the rank column (each rank a positive integer, once per document and run). ``"score"``: as
        trec_eval orders a query's documents, by score descending, ties by label descending; the rank column is
        ignored (any integer).

    Returns
    -------
    dict of str to Run

    Raises
    ------
    RunFileError
        For a missing, empty or non-UTF-8 file, a line of neither form (or not of the first line's), a label not in
        ``labels``, a document not in ``docs``, a rank that is not an integer (a positive one under
        ``order="rank"``), a score that is not a finite decimal number, or a (doc, label) listed twice in a run
        (or, under ``order="rank"``, a (doc, rank)); the message names the file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "run.txt")
    >>> write_run(path, {"d1": ["a2", "a1"]}, {"d1": [0.9, 0.6]}, tag="mine")
    >>> print(open(path).read(), end="")
    d1 Q0 a2 1 0.9 mine
    d1 Q0 a1 2 0.6 mine
    >>> read_runs(path, docs=["d1"])["mine"].ranking
    {'d1': ['a2', 'a1']}
    """
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
                raise RunFileError(f"{path}:{lineno}: unknown label {shorten(label_text)!r} (not in the tree)")
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
    """A :class:`Run` from each document's ``(rank, label, score, ...)`` items, ordered as ``order`` says.

    Parameters
    ----------
    rows : mapping of str to list of tuple
        ``{doc: [(rank, label, score, ...), ...]}``; further fields (a line number) are ignored. Sorted in place.
    order : {"rank", "score"}
        By rank (equal ranks by score descending), or as trec_eval: score descending, ties by label descending.

    Returns
    -------
    Run
        ``disagree`` counts the documents where, by rank, a label comes above another of higher score.

    Examples
    --------
    >>> ordered_run({"d1": [(2, "a", 0.9), (1, "b", 0.5)]}, "score").ranking
    {'d1': ['a', 'b']}
    >>> ordered_run({"d1": [(2, "a", 0.9), (1, "b", 0.5)]}, "rank").disagree
    1
    """
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


def read_run(path: str | os.PathLike, labels: Collection[str] | None, docs: Collection[str],
             order: str = "rank") -> Run:
    """Read a run file that holds one run (:func:`read_runs`; a TREC file with several tags is an error).

    Parameters and return value as in :func:`read_runs`, but one :class:`Run`.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> write_truth(os.path.join(folder, "truth.txt"), {"d1": ["a1"], "d2": ["b"]})
    >>> write_run(os.path.join(folder, "run.txt"), {"d1": ["a2", "a1"], "d2": ["b"]}, {"d1": [0.9, 0.6], "d2": [0.8]})
    >>> truth = read_truth(os.path.join(folder, "truth.txt"))
    >>> run = read_run(os.path.join(folder, "run.txt"), ["a1", "a2", "b"], truth)
    >>> run.ranking["d1"], run.scores["d1"]
    (['a2', 'a1'], [0.9, 0.6])
    """
    runs = read_runs(path, labels, docs, order)
    if len(runs) > 1:
        raise RunFileError(f"{path}: the run file holds {len(runs)} runs (tags {', '.join(map(repr, runs))}); "
                           "read it with read_runs")
    return next(iter(runs.values()))


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


def write_truth(path: str | os.PathLike, truth: Mapping[str, Sequence[str]], trec: bool = False) -> None:
    """Write ``{doc: labels}`` as a truth file: lines ``doc label``, or TREC qrels ``doc 0 label 1``.

    Parameters
    ----------
    path : str or os.PathLike
    truth : mapping of str to sequence of str
        ``{doc: labels}``.
    trec : bool, default=False
        The TREC form.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "truth.txt")
    >>> write_truth(path, {"d1": ["a1", "b"]})
    >>> print(open(path).read(), end="")
    d1 a1
    d1 b
    """
    with open(path, "w", encoding="utf-8") as fh:
        for doc, labels in truth.items():
            for label in labels:
                fh.write(f"{doc} 0 {label} 1\n" if trec else f"{doc} {label}\n")


def write_run(path: str | os.PathLike, ranking: Mapping[str, Sequence[str]],
              scores: Mapping[str, Sequence[float]], tag: str | None = None) -> None:
    """Write ranked labels and their scores as a run file (rank 1 = first): ``doc label rank score``, or with a
    ``tag`` the TREC form ``doc Q0 label rank score tag``.

    Parameters
    ----------
    path : str or os.PathLike
    ranking : mapping of str to sequence of str
        ``{doc: labels, best first}``.
    scores : mapping of str to sequence of float
        ``{doc: the labels' scores}``, in the same order.
    tag : str, optional
        The run's name: write the TREC form.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "run.txt")
    >>> write_run(path, {"d1": ["a2", "a1"]}, {"d1": [0.9, 0.6]})
    >>> print(open(path).read(), end="")
    d1 a2 1 0.9
    d1 a1 2 0.6
    """
    if tag is not None and (not tag or any(c.isspace() for c in tag)):
        raise ValueError(f"a run's tag is one word, got {tag!r}")
    with open(path, "w", encoding="utf-8") as fh:
        for doc, labels in ranking.items():
            for rank, (label, score) in enumerate(zip(labels, scores[doc], strict=True), start=1):
                fh.write(f"{doc} Q0 {label} {rank} {score:.6g} {tag}\n" if tag is not None
                         else f"{doc} {label} {rank} {score:.6g}\n")
