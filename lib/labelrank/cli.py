"""Command-line interface: ``labelrank data fetch``, ``labelrank score`` and friends.

Each subcommand lives in a function ``_cmd_<name>`` registered in :func:`build_parser`; errors in the user's input
are reported as one line on stderr with exit code 2. The file formats of ``labelrank score`` are read by
:func:`read_truth` and :func:`read_run` (and written by :func:`write_truth` and :func:`write_run`).
"""

from __future__ import annotations

import argparse
import codecs
import io
import math
import os
import re
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labelrank._validation import shorten

__all__ = ["main", "build_parser", "UsageError", "Run", "read_truth", "read_run", "write_truth", "write_run",
           "score_run", "parse_int", "parse_decimal", "SCORE_FORMATS", "ORDERS"]


class UsageError(Exception):
    """Bad input from the command line or an input file: printed as one line, exit code 2.

    Examples
    --------
    >>> read_truth("no-such-file.txt", ["a"])
    Traceback (most recent call last):
        ...
    labelrank.cli.UsageError: no-such-file.txt: truth file not found
    """


def _cmd_data_fetch(args: argparse.Namespace) -> int:
    from labelrank import datasets

    names = args.names or list(datasets.REGISTRY)
    for name in names:
        if name not in datasets.REGISTRY:
            raise UsageError(f"unknown data set {name!r}; known: {', '.join(sorted(datasets.REGISTRY))}")
    for name in names:
        try:
            folder = datasets.fetch(name)
        except (datasets.DataUnavailableError, datasets.ChecksumError, FileNotFoundError) as exc:
            raise UsageError(f"{name}: {exc}") from exc
        print(f"{name}: verified in {folder}")
    return 0


# ------------------------------------------------------------------------------------------------ labelrank score
SCORE_FORMATS = """\
file formats (UTF-8, a byte-order mark at the start is allowed; whitespace-separated columns;
blank lines and lines starting with # are ignored):
  TREE   the project's tree format: a YAML map "label: parent" with null for the root,
         e.g. data/fterm/2C088_figure1.yaml (YAML anchors and aliases are rejected)
  TRUTH  one line per true label of a document:      doc label
         e.g.  JP2001-000123  AA01
  RUN    one line per ranked label (TREC-like):      doc label rank score
         e.g.  JP2001-000123  AA02  1  0.93
         rank: an integer written in ASCII digits; score: a finite decimal number
         (123, -4.5, 1e-3; no "1_0", no non-ASCII digits). Labels with score >= --threshold
         (or the --top best) form the assigned set behind the F-measure.

order of a document's labels (--order):
  rank   by the rank column, 1 = best (default; each rank a positive integer, once per document)
  score  as trec_eval orders: score descending, ties broken by label descending (the byte
         order of the label strings), the rank column ignored
  a warning on stderr counts the documents whose ranks and scores disagree (a label ranked
  above another with a lower score).

measures (per document, then the mean over the documents of TRUTH; a document of TRUTH
that RUN never mentions scores 0, as trec_eval -c):
  A-Precision  mean precision at the ranks of the true labels (trec_eval AP), list cut at --cutoff
  R-Precision  precision of the top R labels, R = number of true labels
  F-measure    2PR/(P+R) of the assigned set
each as binary (exact matches), BDM-High (eq. 4: a listed label earns its best BDM to a true
label) and BDM-Low (eq. 5: a wrong label earns its best BDM to a true label the list missed);
recall is symmetric. Li, Bontcheva & Cunningham (2007). BDM is computed for the (listed, true)
pairs a run holds, so the cost grows with the run, not with the size of the tree.

exit status: 0 on success, 2 on bad input (one message naming the file and line)."""

ORDERS: tuple[str, ...] = ("rank", "score")
#: The hierarchical F-measures ``labelrank score --measures`` adds (``labelrank.metrics.hierarchical``).
HIERARCHICAL_MEASURES: tuple[str, ...] = ("hF", "LCA-F")

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
    >>> import os, tempfile
    >>> from labelrank.hierarchy import LabelTree
    >>> from labelrank.metrics import CostScorer
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> folder = tempfile.mkdtemp()
    >>> write_truth(os.path.join(folder, "truth.txt"), {"d1": ["a1"], "d2": ["b"]})
    >>> write_run(os.path.join(folder, "run.txt"), {"d1": ["a2", "a1"], "d2": ["b"]}, {"d1": [0.9, 0.6], "d2": [0.8]})
    >>> truth = read_truth(os.path.join(folder, "truth.txt"), tree.labels)
    >>> run = read_run(os.path.join(folder, "run.txt"), tree.labels, truth)
    >>> run
    Run(ranking={'d1': ['a2', 'a1'], 'd2': ['b']}, scores={'d1': [0.9, 0.6], 'd2': [0.8]}, disagree=0)
    """

    ranking: dict[str, list[str]]
    scores: dict[str, list[float]]
    disagree: int = 0


def _quote(fields: Sequence[str]) -> str:
    return repr(shorten(" ".join(fields)))


def _data_lines(path: str | os.PathLike, what: str):
    """Yield (line number, fields) of the non-blank, non-comment lines; UsageError if unreadable or empty.

    The file is UTF-8; a byte-order mark at its start (Windows editors write one) is dropped. A UTF-16 file, or a
    byte-order mark anywhere else, is an error that says so.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise UsageError(f"{path}: {what} file not found") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the {what} file: {exc}") from exc
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UsageError(f"{path}: the {what} file is UTF-16 (it starts with a UTF-16 byte-order mark); "
                         "save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UsageError(f"{path}:{line}: the {what} file is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    found = False
    for lineno, line in enumerate(io.StringIO(text, newline=None), start=1):  # lazily; \r, \r\n and \n end lines
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "\ufeff" in stripped:
            raise UsageError(f"{path}:{lineno}: a byte-order mark (U+FEFF) inside the {what} file, "
                             "not at its start (files joined together?)")
        found = True
        yield lineno, stripped.split()
    if not found:
        raise UsageError(f"{path}: the {what} file is empty (no data lines)")


def read_truth(path: str | os.PathLike, labels: Collection[str]) -> dict[str, list[str]]:
    """Read a TRUTH file (lines ``doc label``) into ``{doc: [labels in file order]}``.

    Parameters
    ----------
    path : str or os.PathLike
        The truth file.
    labels : collection of str
        The labels of the tree; any other label is an error.

    Returns
    -------
    dict of str to list of str

    Raises
    ------
    UsageError
        For a missing, empty or non-UTF-8 file, a line without exactly two fields, a label not in ``labels``, or a
        (doc, label) pair listed twice; the message names the file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> from labelrank.hierarchy import LabelTree
    >>> from labelrank.metrics import CostScorer
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> folder = tempfile.mkdtemp()
    >>> write_truth(os.path.join(folder, "truth.txt"), {"d1": ["a1"], "d2": ["b"]})
    >>> write_run(os.path.join(folder, "run.txt"), {"d1": ["a2", "a1"], "d2": ["b"]}, {"d1": [0.9, 0.6], "d2": [0.8]})
    >>> truth = read_truth(os.path.join(folder, "truth.txt"), tree.labels)
    >>> run = read_run(os.path.join(folder, "run.txt"), tree.labels, truth)
    >>> truth
    {'d1': ['a1'], 'd2': ['b']}
    """
    truth: dict[str, list[str]] = {}
    first: dict[tuple[str, str], int] = {}
    for lineno, fields in _data_lines(path, "truth"):
        where = f"{path}:{lineno}"
        if len(fields) != 2:
            raise UsageError(f"{where}: expected 2 columns 'doc label', got {len(fields)}: {_quote(fields)}")
        doc, label = fields
        if label not in labels:
            raise UsageError(f"{where}: unknown label {shorten(label)!r} (not in the tree)")
        if (doc, label) in first:
            raise UsageError(f"{where}: duplicate line for document {shorten(doc)!r}, label {shorten(label)!r} "
                             f"(first on line {first[doc, label]})")
        first[doc, label] = lineno
        truth.setdefault(doc, []).append(label)
    return truth


def read_run(path: str | os.PathLike, labels: Collection[str], docs: Collection[str], order: str = "rank") -> Run:
    """Read a RUN file (lines ``doc label rank score``), each document's labels in the order ``order`` gives.

    Parameters
    ----------
    path : path of the run file
    labels : the labels of the tree
    docs : the documents of the truth file
    order : {"rank", "score"}
        ``"rank"``: by the rank column (each rank a positive integer, once per document). ``"score"``: as trec_eval
        orders a query's documents, by score descending, ties by label descending; the rank column is ignored
        (any integer).

    Raises
    ------
    UsageError
        For a missing, empty or non-UTF-8 file, a line without exactly four fields, a label not in ``labels``, a
        document not in ``docs``, a rank that is not an integer (a positive one under ``order="rank"``), a score
        that is not a finite decimal number, or a (doc, label) listed twice (or, under ``order="rank"``, a (doc,
        rank)); the message names the file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> from labelrank.hierarchy import LabelTree
    >>> from labelrank.metrics import CostScorer
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> folder = tempfile.mkdtemp()
    >>> write_truth(os.path.join(folder, "truth.txt"), {"d1": ["a1"], "d2": ["b"]})
    >>> write_run(os.path.join(folder, "run.txt"), {"d1": ["a2", "a1"], "d2": ["b"]}, {"d1": [0.9, 0.6], "d2": [0.8]})
    >>> truth = read_truth(os.path.join(folder, "truth.txt"), tree.labels)
    >>> run = read_run(os.path.join(folder, "run.txt"), tree.labels, truth)
    >>> run.ranking["d1"], run.scores["d1"]
    (['a2', 'a1'], [0.9, 0.6])
    """
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    by_rank = order == "rank"
    # one string object per label and per document, however many lines name it (a run may have millions)
    label_of = {lab: lab for lab in labels}
    doc_of = {doc: doc for doc in docs}
    rows: dict[str, list[tuple[int, str, float, int]]] = {}
    for lineno, fields in _data_lines(path, "run"):
        if len(fields) != 4:
            raise UsageError(f"{path}:{lineno}: expected 4 columns 'doc label rank score', got {len(fields)}: "
                             f"{_quote(fields)}")
        doc_text, label_text, rank_text, score_text = fields
        label = label_of.get(label_text)
        if label is None:
            raise UsageError(f"{path}:{lineno}: unknown label {shorten(label_text)!r} (not in the tree)")
        doc = doc_of.get(doc_text)
        if doc is None:
            raise UsageError(f"{path}:{lineno}: document {shorten(doc_text)!r} is not in the truth file")
        rank = parse_int(rank_text)
        if rank is None or (by_rank and rank < 1):
            kind = "a positive integer" if by_rank else "an integer"
            raise UsageError(f"{path}:{lineno}: rank {shorten(rank_text)!r} is not {kind} (ASCII digits)")
        score = parse_decimal(score_text)
        if score is None:
            raise UsageError(f"{path}:{lineno}: score {shorten(score_text)!r} is not a finite number (ASCII decimal)")
        rows.setdefault(doc, []).append((rank, label, score, lineno))
    _check_duplicates(path, rows, by_rank)
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
    """UsageError for the first line (in file order) that repeats a document's label, or its rank under ``by_rank``."""
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
        raise UsageError(worst[1])


def write_truth(path: str | os.PathLike, truth: Mapping[str, Sequence[str]]) -> None:
    """Write ``{doc: labels}`` as a TRUTH file (the format :func:`read_truth` reads).

    Parameters
    ----------
    path : str or os.PathLike
    truth : mapping of str to sequence of str
        ``{doc: labels}``.

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
                fh.write(f"{doc} {label}\n")


def write_run(path: str | os.PathLike, ranking: Mapping[str, Sequence[str]],
              scores: Mapping[str, Sequence[float]]) -> None:
    """Write ranked labels and their scores as a RUN file (``doc label rank score``, rank 1 = first).

    Parameters
    ----------
    path : str or os.PathLike
    ranking : mapping of str to sequence of str
        ``{doc: labels, best first}``.
    scores : mapping of str to sequence of float
        ``{doc: the labels' scores}``, in the same order.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "run.txt")
    >>> write_run(path, {"d1": ["a2", "a1"]}, {"d1": [0.9, 0.6]})
    >>> print(open(path).read(), end="")
    d1 a2 1 0.9
    d1 a1 2 0.6
    """
    with open(path, "w", encoding="utf-8") as fh:
        for doc, labels in ranking.items():
            for rank, (label, score) in enumerate(zip(labels, scores[doc], strict=True), start=1):
                fh.write(f"{doc} {label} {rank} {score:.6g}\n")


_SHORT = {"A-Precision": "AP", "R-Precision": "RP", "F-measure": "F"}
_VARIANT_NAMES = {"binary": "binary", "high": "BDM-High", "low": "BDM-Low"}


def _cmd_score(args: argparse.Namespace) -> int:
    from labelrank.hierarchy import LabelTree
    from labelrank.metrics.cost_precision import CostScorer

    args.cutoff = _number_option(args.cutoff, "--cutoff")
    args.threshold = _number_option(args.threshold, "--threshold")
    if args.top is not None:
        args.top = _number_option(args.top, "--top")
    try:
        tree = LabelTree.from_file(args.tree)
    except FileNotFoundError:
        raise UsageError(f"{args.tree}: tree file not found") from None
    except Exception as exc:  # the YAML parser and LabelTree report malformed trees with several exception types
        raise UsageError(f"{args.tree}: not a valid tree file: {shorten(str(exc), 300)}") from exc
    labels = set(tree.labels)
    truth = read_truth(args.truth, labels)
    docs = list(truth)
    scorer = CostScorer.from_tree(tree)
    for i, path in enumerate(args.run):
        run = read_run(path, labels, truth, order=args.order)
        if run.disagree:
            rule = ("ordered by the rank column (--order rank)" if args.order == "rank"
                    else "ordered by score as trec_eval does (--order score)")
            print(f"labelrank: warning: {path}: ranks and scores disagree in {run.disagree} of {len(run.ranking)} "
                  f"documents (a label ranked above another has a lower score); {rule}", file=sys.stderr)
        table = score_run(scorer, truth, run, cutoff=args.cutoff, threshold=args.threshold, top=args.top,
                          per_document=args.per_doc, measures=args.measures, tree=tree)
        missing = sum(1 for d in docs if d not in run.ranking)
        if i:
            print()
        print(f"run: {path}  ({len(docs)} documents" + (f", {missing} not in the run: scored 0)" if missing else ")"))
        print(_format_table(table, args.per_doc))
    return 0


def score_run(scorer, truth: Mapping[str, Sequence[str]], run: Run, *, cutoff: int = 200, threshold: float = 0.5,
              top: int | None = None, per_document: bool = False, measures: Sequence[str] = (), tree=None):
    """The table ``labelrank score`` prints for one run: the means, or one row per document of ``truth``.

    Parameters
    ----------
    scorer : labelrank.metrics.CostScorer
    truth : ``{doc: true labels}`` (:func:`read_truth`)
    run : Run (:func:`read_run`)
    cutoff, threshold, top, per_document, measures
        As the options ``--cutoff``, ``--threshold``, ``--top``, ``--per-doc`` and ``--measures``.
    tree : LabelTree, optional
        The tree, needed by ``measures`` (``labelrank.metrics.hierarchical.per_document_f``).

    Returns
    -------
    pandas.DataFrame
        As :meth:`labelrank.metrics.CostScorer.score`; a document of ``truth`` that the run does not mention scores 0.

    Examples
    --------
    A document that ranks a sibling of its label first (BDM gives partial credit), and one ranked exactly; with
    ``measures``, the hierarchical F-measures of the assigned set appear beside the F-measure's variants:

    >>> import os, tempfile
    >>> from labelrank.hierarchy import LabelTree
    >>> from labelrank.metrics import CostScorer
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> folder = tempfile.mkdtemp()
    >>> write_truth(os.path.join(folder, "truth.txt"), {"d1": ["a1"], "d2": ["b"]})
    >>> write_run(os.path.join(folder, "run.txt"), {"d1": ["a2", "a1"], "d2": ["b"]}, {"d1": [0.9, 0.6], "d2": [0.8]})
    >>> truth = read_truth(os.path.join(folder, "truth.txt"), tree.labels)
    >>> run = read_run(os.path.join(folder, "run.txt"), tree.labels, truth)
    >>> score_run(CostScorer.from_tree(tree), truth, run).round(4)
    variant      binary    high     low
    measure
    A-Precision  0.7500  0.8438  0.7500
    R-Precision  0.5000  0.6875  0.6875
    F-measure    0.8333  0.9074  0.8333
    >>> score_run(CostScorer.from_tree(tree), truth, run, measures=["hF", "LCA-F"], tree=tree).round(4)
    variant      binary    high     low   hF  LCA-F
    measure
    A-Precision  0.7500  0.8438  0.7500  NaN    NaN
    R-Precision  0.5000  0.6875  0.6875  NaN    NaN
    F-measure    0.8333  0.9074  0.8333  0.9    0.9
    """
    docs = list(truth)
    ranking = [run.ranking.get(d, []) for d in docs]
    if top is not None:
        assigned = [r[:top] for r in ranking]
    else:
        assigned = [[lab for lab, s in zip(run.ranking.get(d, []), run.scores.get(d, [])) if s >= threshold]
                    for d in docs]
    table = scorer.score([truth[d] for d in docs], ranking, assigned, cutoff=cutoff, per_document=per_document,
                         index=docs)
    if measures:
        from labelrank.metrics.hierarchical import per_document_f

        if tree is None:
            raise ValueError("score_run needs tree= to compute the hierarchical measures")
        for measure in measures:
            values = per_document_f(tree, [truth[d] for d in docs], assigned, measure)
            if per_document:
                table[("F-measure", measure)] = values
            else:
                table[measure] = float("nan")
                table.loc["F-measure", measure] = float(values.mean())
    return table


def _format_table(table, per_doc: bool) -> str:
    """The means (measures x variants), or one row per document followed, apart, by the row of means.

    The mean row is not a row of the documents' table (a document may be called "mean"); it is printed below a
    rule, its label ``(mean of N)`` holding a space, which no document name can.
    """
    import pandas as pd

    fmt = {"float_format": lambda x: f"{x:.4f}"}
    if not per_doc:
        table = table.rename(columns=_VARIANT_NAMES)
        table.columns.name = None
        table.index.name = None
        return table.to_string(na_rep="", **fmt)
    both = pd.concat([table, table.mean(axis=0).to_frame().T])  # one frame only to align the columns
    both.index = [*table.index, f"(mean of {len(table)})"]
    both.columns = [f"{_SHORT[m]}.{_VARIANT_NAMES.get(v, v)}" for m, v in table.columns]
    lines = both.to_string(**fmt).splitlines()
    return "\n".join([*lines[:-1], "=" * len(lines[0]), lines[-1]])


def _number_option(text: str, name: str) -> int | float:
    """An option's value, parsed as strictly as the files' columns (ASCII digits; a finite number)."""
    if name == "--threshold":
        value = parse_decimal(text)
        if value is None:
            raise UsageError(f"--threshold must be a finite number, got {shorten(text)!r}")
        return value
    value = parse_int(text)
    if value is None or value < 1:
        raise UsageError(f"{name} must be a positive integer, got {shorten(text)!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``labelrank``: ``--version`` and the subcommands ``score`` and ``data``.

    Returns
    -------
    argparse.ArgumentParser
        Each subcommand's parser sets ``func``, the function that runs it.

    Examples
    --------
    >>> args = build_parser().parse_args(["score", "--tree", "t.yaml", "--truth", "truth.txt", "--run", "run.txt"])
    >>> args.command, args.run, args.order, args.cutoff
    ('score', ['run.txt'], 'rank', '200')
    """
    from labelrank import __version__

    parser = argparse.ArgumentParser(
        prog="labelrank",
        description="Label-relation-aware evaluation and multi-label learning to rank (labelrank-book).",
    )
    parser.add_argument("--version", action="version", version=f"labelrank {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    data = sub.add_parser("data", help="obtain and verify the benchmark data sets")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    fetch = data_sub.add_parser(
        "fetch",
        help="download (or take from $LABELRANK_DATA) and sha256-verify data sets",
        description="Obtain each named data set (all when none is named): from the mirror folder named by "
        "$LABELRANK_DATA when set, else by download into the cache; every file is sha256-checked.",
    )
    fetch.add_argument("names", nargs="*", help="data set names (default: all)")
    fetch.set_defaults(func=_cmd_data_fetch)

    score = sub.add_parser(
        "score",
        help="binary, BDM-High and BDM-Low A-Precision, R-Precision and F-measure of ranked runs",
        description="Score one or more runs against the true labels of each document, with the binary measures and "
        "the cost-based BDM-High and BDM-Low measures of Li, Bontcheva & Cunningham (2007), BDM computed on TREE.",
        epilog=SCORE_FORMATS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    score.add_argument("--tree", required=True, metavar="TREE", help="label tree (YAML parent map)")
    score.add_argument("--truth", required=True, metavar="TRUTH", help="true labels: lines 'doc label'")
    score.add_argument("--run", required=True, nargs="+", action="extend", metavar="RUN",
                       help="one or more runs: lines 'doc label rank score' (repeat --run or list several)")
    score.add_argument("--order", choices=ORDERS, default="rank",
                       help="order of a document's labels: 'rank' by the rank column (default) or 'score' as "
                       "trec_eval (score descending, ties by label descending, rank column ignored)")
    score.add_argument("--cutoff", default="200",
                       help="only the first CUTOFF ranked labels count (default: 200, as in NTCIR-6)")
    assign = score.add_mutually_exclusive_group()
    assign.add_argument("--threshold", default="0.5",
                        help="assigned set for the F-measure: labels with score >= THRESHOLD, a finite number "
                        "(default: 0.5)")
    assign.add_argument("--top", default=None,
                        help="assigned set for the F-measure: the TOP best-ranked labels instead")
    score.add_argument("--per-doc", action="store_true", help="print every document's scores, then the mean")
    score.add_argument("--measures", nargs="+", choices=HIERARCHICAL_MEASURES, default=[], metavar="MEASURE",
                       help="also the hierarchical F-measures of the assigned set, beside binary, BDM-High and "
                       "BDM-Low: 'hF' (set-based, Kiritchenko et al.) and/or 'LCA-F' (pair-based, Kosmopoulos et "
                       "al.); the mean over documents of each document's value, the root never counted")
    score.set_defaults(func=_cmd_score)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input, 141 when stdout was closed).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after ``labelrank`` (``sys.argv[1:]`` by default).

    Examples
    --------
    Bad input prints one line on stderr (here: ``labelrank: error: no-such-tree.yaml: ...``) and returns 2:

    >>> main(["score", "--tree", "no-such-tree.yaml", "--truth", "truth.txt", "--run", "run.txt"])
    2
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        print(f"labelrank: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `labelrank score ... | head`: the reader has gone; say nothing, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's final flush of stdout must not fail again
        return 141  # 128 + SIGPIPE, the status of a shell tool killed by the closed pipe


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
