r"""Run and truth files: reading and writing the ranked label lists that ``labelrank score`` and ``compare`` score.

Two forms of each, told apart per file by the number of columns of its first data line:

========  ======================================  ==========================================================
file      the project's form                      the TREC form (trec_eval, ir_measures, ranx, NTCIR)
========  ======================================  ==========================================================
truth     ``doc label`` (2 columns)               ``doc 0 label rel`` (4 columns; relevant when rel >= 1)
run       ``doc label rank score`` (4 columns)    ``doc Q0 label rank score tag`` (6 columns; tag = the run)
========  ======================================  ==========================================================

Here a TREC *query* is a document and a *docno* is a label. Columns are separated by spaces or tabs; lines end in
``\n``, ``\r\n`` or ``\r``; blank lines and lines starting with ``#`` are skipped. A file whose lines switch form is
an error that names the first line breaking the form of the first. A path ending in ``.gz`` is read through gzip;
``-`` is standard input. Every problem is one :class:`RunFileError` naming the file and the line; nothing read is
executed.

A file is read whole and split into columns at once (:mod:`labelrank.textcolumns`: numpy finds the lines and counts
their fields, numpy's C reader or ``bytes.split`` splits them), so that a run of millions of lines costs no Python
loop per line; a :class:`Run` holds its labels as integer codes in ranked order and hands the scorer padded label
matrices (:meth:`Run.label_matrix`) without building a Python list per document. ``tests/linereader.py`` keeps a line-by-line reader of the same rules, and a test checks
on random files, good and bad, that both give the same runs, truths and messages.

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

import math
import os
from collections.abc import Collection, Mapping, Sequence
from functools import cached_property

import numpy as np

from labelrank.validation import shorten
from labelrank.textcolumns import DECIMAL, INTEGER, Columns, first_unknown, repeats

__all__ = ["RunFileError", "Run", "Truth", "read_truth", "read_run", "read_runs", "ordered_run", "write_truth",
           "write_run", "parse_int", "parse_decimal", "unknown_label", "ORDERS", "TRUTH_FORMS", "RUN_FORMS",
           "TRUTH_NUMBERS", "RUN_NUMBERS", "TRUTH_UNREAD", "RUN_UNREAD"]

ORDERS: tuple[str, ...] = ("rank", "score")
#: columns of a truth line in each form
TRUTH_FORMS: dict[int, str] = {2: "doc label", 4: "doc 0 label rel"}
#: columns of a run line in each form
RUN_FORMS: dict[int, str] = {4: "doc label rank score", 6: "doc Q0 label rank score tag"}
#: the columns of numbers in each form (column: int or float), for :class:`labelrank.textcolumns.Columns`
TRUTH_NUMBERS: dict[int, dict[int, type]] = {4: {3: int}}
RUN_NUMBERS: dict[int, dict[int, type]] = {4: {2: int, 3: float}, 6: {3: int, 4: float}}
#: the columns that no rule reads (TREC's constant columns, ``0`` of qrels and ``Q0`` of runs, which trec_eval
#: ignores too), for :class:`labelrank.textcolumns.Columns`
TRUTH_UNREAD: dict[int, tuple[int, ...]] = {4: (1,)}
RUN_UNREAD: dict[int, tuple[int, ...]] = {6: (1,)}


def unknown_label(label: str, labels: Collection[str]) -> str:
    """The message for a label that is not among ``labels``, saying so when a tree label differs from it only by
    Unicode normalisation (``"café"`` typed with a combining accent, the tree's with a precomposed ``é``), both
    forms shown as code points.

    Parameters
    ----------
    label : str
        The label a file holds.
    labels : collection of str
        The tree's labels.

    Examples
    --------
    >>> unknown_label("zz", {"a"})
    "unknown label 'zz' (not in the tree)"
    >>> message = unknown_label("cafe\\u0301", {"caf\\u00e9"})  # e + combining accent; the tree's precomposed
    >>> message.split(":")[1]
    ' U+0063 U+0061 U+0066 U+0065 U+0301 here, U+0063 U+0061 U+0066 U+00E9 in the tree)'
    """
    import unicodedata

    def points(text: str) -> str:
        return " ".join(f"U+{ord(c):04X}" for c in text)

    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        wanted = unicodedata.normalize(form, label)
        match = next((x for x in labels if unicodedata.normalize(form, x) == wanted), None)
        if match is not None:
            return (f"unknown label {shorten(label)!r} (not in the tree, whose label {shorten(match)!r} differs from "
                    f"it only by Unicode normalisation: {shorten(points(label))} here, {shorten(points(match))} in "
                    "the tree)")
    return f"unknown label {shorten(label)!r} (not in the tree)"


class RunFileError(ValueError):
    """A run or truth file that cannot be read as one: the message names the file and the line.

    Examples
    --------
    >>> read_truth("no-such-file.txt", ["a"])
    Traceback (most recent call last):
        ...
    labelrank.runfiles.RunFileError: no-such-file.txt: truth file not found
    """


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
    return int(text) if INTEGER.match(text) else None


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
    if not DECIMAL.match(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def _distinct_codes(codes: np.ndarray, n: int = 0) -> np.ndarray:
    """The distinct values of ``codes`` (integers from 0, below ``n`` or any), in increasing order: ``np.unique``'s
    result by a count of each, in time linear in ``codes`` and without the import of ``numpy.ma`` that a plain
    ``np.unique`` makes on its first call."""
    return np.flatnonzero(np.bincount(codes, minlength=n))


class Truth(Mapping):
    """The relevant labels of each document, ``{doc: [labels]}`` (a read-only mapping), held as columns.

    :func:`read_truth` returns one: ``docs`` (the documents, in the mapping's order), ``labels`` (the label names
    the codes refer to), ``offsets`` (document ``i``'s labels are ``codes[offsets[i]:offsets[i + 1]]``) and
    ``codes``. A document's list is made when it is asked for, so a scorer gets its label matrix
    (:meth:`label_matrix`) without a Python step per document; ``dict(truth)`` gives a plain dict, equal to it.

    Parameters
    ----------
    docs : sequence of str
        The documents, each once.
    labels : sequence of str
        The distinct label names.
    offsets, codes : numpy.ndarray of int
        The columns; ``labels[codes[offsets[i] + j]]`` is label ``j`` of document ``docs[i]``.

    Examples
    --------
    >>> import numpy as np
    >>> t = Truth(["d1", "d2"], ["a", "b"], np.array([0, 2, 3]), np.array([0, 1, 1]))
    >>> t["d2"], t == {"d1": ["a", "b"], "d2": ["b"]}, t.label_matrix({"a": 5, "b": 7}).tolist()
    (['b'], True, [[5, 7], [7, -1]])
    """

    def __init__(self, docs: Sequence[str], labels: Sequence[str], offsets: np.ndarray, codes: np.ndarray) -> None:
        self.docs, self.labels = list(docs), list(labels)
        self.offsets, self.codes = np.asarray(offsets), np.asarray(codes)
        self._row = dict(zip(self.docs, range(len(self.docs))))
        if len(self._row) != len(self.docs) or len(self.offsets) != len(self.docs) + 1:
            raise ValueError("Truth needs distinct documents and one offset more than documents")

    def __getitem__(self, doc: str) -> list[str]:
        i = self._row[doc]
        return [self.labels[c] for c in self.codes[self.offsets[i]:self.offsets[i + 1]].tolist()]

    def __iter__(self):
        return iter(self.docs)

    def __len__(self) -> int:
        return len(self.docs)

    def __contains__(self, doc: object) -> bool:
        return doc in self._row

    def __repr__(self) -> str:
        return repr(dict(self))

    def relevant_labels(self) -> set[str]:
        """The labels relevant to at least one document."""
        return {self.labels[c] for c in _distinct_codes(self.codes, len(self.labels)).tolist()}

    def label_matrix(self, index: Mapping[str, int]) -> np.ndarray:
        """Every document's labels as a padded integer matrix (rows in the dict's order, -1 = padding).

        Parameters
        ----------
        index : mapping of str to int
            The integer of each label (every relevant label must have one).

        Returns
        -------
        numpy.ndarray of int64, shape (number of documents, the most labels of a document)
        """
        used = _distinct_codes(self.codes, len(self.labels))  # (a qrels file also names labels judged not relevant)
        to_index = np.full(len(self.labels), -1, dtype=np.int64)
        try:
            to_index[used] = [index[self.labels[c]] for c in used.tolist()]
        except KeyError as exc:
            raise ValueError(f"truth: label {exc.args[0]!r} has no index") from None
        lengths = np.diff(self.offsets)
        out = np.full((len(lengths), max(int(lengths.max(initial=0)), 1)), -1, dtype=np.int64)
        column = np.arange(len(self.codes)) - np.repeat(self.offsets[:-1], lengths)
        out[np.repeat(np.arange(len(lengths)), lengths), column] = to_index[self.codes]
        return out


class Run:
    """One run: per document, its labels in the order scored and their scores.

    Built by :func:`read_runs` and :func:`ordered_run`, or from ``{doc: [labels]}`` and ``{doc: [scores]}``. The
    run is held as columns: ``docs`` (its documents, in the order they first appear), ``labels`` (the label names
    the codes refer to), ``offsets`` (document ``i``'s rows are ``offsets[i]:offsets[i + 1]``), ``label_codes`` and
    ``score_values`` (one per row, best first). ``ranking`` and ``scores`` show it as dicts.

    Parameters
    ----------
    ranking : mapping of str to sequence of str
        ``{doc: [labels]}``, best first.
    scores : mapping of str to sequence of float
        ``{doc: [scores]}`` in the same order.
    disagree : int, default=0
        Documents in which a label ranked above another (by the rank column) has a lower score.

    Examples
    --------
    >>> run = ordered_run({"d1": [(1, "a2", 0.9), (2, "a1", 0.6)], "d2": [(1, "b", 0.8)]})
    >>> run
    Run(ranking={'d1': ['a2', 'a1'], 'd2': ['b']}, scores={'d1': [0.9, 0.6], 'd2': [0.8]}, disagree=0)
    >>> run.label_matrix(["d2", "d1", "d3"], {"a1": 0, "a2": 1, "b": 2})
    array([[ 2, -1],
           [ 1,  0],
           [-1, -1]])
    """

    def __init__(self, ranking: Mapping[str, Sequence[str]] | None = None,
                 scores: Mapping[str, Sequence[float]] | None = None, disagree: int = 0) -> None:
        ranking, scores = dict(ranking or {}), dict(scores or {})
        if set(ranking) != set(scores):
            raise ValueError("ranking and scores must name the same documents")
        labels: dict[str, int] = {}
        codes = [labels.setdefault(lab, len(labels)) for doc in ranking for lab in ranking[doc]]
        values = [float(s) for doc in ranking for s in scores[doc]]
        lengths = [len(ranking[doc]) for doc in ranking]
        if lengths != [len(scores[doc]) for doc in ranking]:
            raise ValueError("each document must have as many scores as labels")
        self._set(tuple(ranking), tuple(labels), np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]),
                  np.asarray(codes, dtype=np.int64), np.asarray(values, dtype=np.float64), disagree)

    def _set(self, docs, labels, offsets, codes, values, disagree) -> None:
        self.docs, self.labels, self.offsets = docs, labels, offsets
        self.label_codes, self.score_values, self.disagree = codes, values, int(disagree)

    @classmethod
    def from_columns(cls, docs: Sequence[str], labels: Sequence[str], offsets: np.ndarray, label_codes: np.ndarray,
                     score_values: np.ndarray, disagree: int = 0) -> Run:
        """A run from its columns; nothing is copied or checked.

        Parameters
        ----------
        docs : sequence of str
            The run's documents.
        labels : sequence of str
            The names that ``label_codes`` refer to.
        offsets : numpy.ndarray of int, shape (len(docs) + 1,)
            Document ``i``'s rows are ``offsets[i]:offsets[i + 1]``.
        label_codes, score_values : numpy.ndarray, shape (offsets[-1],)
            Each row's label code and score, each document's rows best first.
        disagree : int, default=0
            As the class's parameter.
        """
        run = cls.__new__(cls)
        run._set(tuple(docs), tuple(labels), offsets, label_codes, score_values, disagree)
        return run

    def __len__(self) -> int:
        return len(self.docs)

    def __contains__(self, doc: object) -> bool:
        return doc in self._position

    @cached_property
    def _position(self) -> dict[str, int]:
        return {doc: i for i, doc in enumerate(self.docs)}

    @cached_property
    def ranking(self) -> dict[str, list[str]]:
        """``{doc: [labels]}``, best first."""
        names = np.array(self.labels, dtype=object)[self.label_codes].tolist()
        bounds = self.offsets.tolist()
        return {doc: names[bounds[i]: bounds[i + 1]] for i, doc in enumerate(self.docs)}

    @cached_property
    def scores(self) -> dict[str, list[float]]:
        """``{doc: [scores]}``, in the order of :attr:`ranking`."""
        values, bounds = self.score_values.tolist(), self.offsets.tolist()
        return {doc: values[bounds[i]: bounds[i + 1]] for i, doc in enumerate(self.docs)}

    def rows_in(self, docs: Sequence[str]) -> np.ndarray:
        """For each document of the run (in :attr:`docs` order), its position in ``docs``, or -1 if absent.

        Examples
        --------
        >>> Run({"d1": ["a"], "d2": ["b"]}, {"d1": [1.0], "d2": [1.0]}).rows_in(["d2", "d3"]).tolist()
        [-1, 0]
        """
        target = np.full(len(self.docs) + 1, -1, dtype=np.int64)
        get = self._position.get
        target[[get(doc, -1) for doc in docs]] = np.arange(len(docs))  # (documents the run lacks land on -1)
        return target[:-1]

    def label_matrix(self, docs: Sequence[str], index: Mapping[str, int], *, width: int | None = None,
                     threshold: float | None = None, top: int | None = None,
                     rows_in: np.ndarray | None = None) -> np.ndarray:
        """The labels of ``docs`` as a padded integer matrix, row ``i`` for ``docs[i]``, best first, -1 = padding.

        Parameters
        ----------
        docs : sequence of str
            The documents, one row each (a document the run does not hold gets an empty row).
        index : mapping of str to int
            The integer of each label (every label of the run must have one).
        width : int, optional
            Keep the first ``width`` labels of each document (a ranked list's cutoff).
        threshold : float, optional
            Keep the labels whose score is at least ``threshold`` (an assigned set).
        top : int, optional
            Keep the first ``top`` labels (an assigned set of fixed size).
        rows_in : numpy.ndarray of int, optional
            :meth:`rows_in` of ``docs``, when the caller has it already (several matrices of the same documents).

        Returns
        -------
        numpy.ndarray of int64, shape (len(docs), the most labels kept in a row, at least 1)
        """
        try:
            to_index = np.array([index[lab] for lab in self.labels], dtype=np.int64)
        except KeyError as exc:
            raise ValueError(f"run: label {exc.args[0]!r} has no index") from None
        lengths = np.diff(self.offsets)
        target = self.rows_in(docs) if rows_in is None else rows_in
        rank = np.arange(len(self.label_codes)) - np.repeat(self.offsets[:-1], lengths)
        keep = np.repeat(target >= 0, lengths)
        for limit in (width, top):
            if limit is not None:
                keep &= rank < limit
        if threshold is not None:
            keep &= self.score_values >= threshold
        kept = np.cumsum(keep)
        before = np.concatenate([[0], kept])[self.offsets[:-1]]  # kept rows ahead of each document
        column = kept - 1 - np.repeat(before, lengths)
        rows = np.repeat(target, lengths)
        out = np.full((len(docs), max(int(column[keep].max(initial=-1)) + 1, 1)), -1, dtype=np.int64)
        out[rows[keep], column[keep]] = to_index[self.label_codes[keep]]
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Run):
            return NotImplemented
        return (self.ranking, self.scores, self.disagree) == (other.ranking, other.scores, other.disagree)

    def __repr__(self) -> str:
        return f"Run(ranking={self.ranking!r}, scores={self.scores!r}, disagree={self.disagree})"


# ------------------------------------------------------------------------------------------------ reading
def read_truth(path: str | os.PathLike, labels: Collection[str] | None = None) -> Truth:
    """Read a truth file into ``{doc: [relevant labels in file order]}`` (a :class:`Truth`, a read-only mapping).

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
    Truth
        A mapping of str to list of str: the documents with at least one relevant label, in the order their first
        relevant line comes.

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
    table = Columns(path, "truth", TRUTH_FORMS, RunFileError, TRUTH_NUMBERS, TRUTH_UNREAD)
    label_j = 1 if table.width == 2 else 2
    doc_names, doc_codes = table.text(0)
    label_names, label_codes = table.text(label_j)
    relevant = None
    errors = []
    if table.width == 4:
        rel, bad, why = table.numbers(3, int)
        if bad is not None:
            errors.append((bad, 0, f"{table.where(bad)}: relevance {shorten(table.field(bad, 3))!r} is not an "
                                   + ("integer (ASCII digits)" if why == "form" else "integer below 2**63")))
        else:
            relevant = rel >= 1
    if labels is not None:
        bad = first_unknown(label_names, label_codes, labels)
        if bad is not None:
            errors.append((bad, 1, f"{table.where(bad)}: {unknown_label(label_names[label_codes[bad]], labels)}"))
    again, first = repeats((doc_codes, label_codes))
    if again.size:
        row = int(again.argmin())
        r, f = int(again[row]), int(first[row])
        errors.append((r, 2, f"{table.where(r)}: duplicate line for document {shorten(doc_names[doc_codes[r]])!r}, "
                             f"label {shorten(label_names[label_codes[r]])!r} (first on line {table.lines[f]})"))
    table.raise_error(errors)
    if relevant is not None:
        doc_codes, label_codes = doc_codes[relevant], label_codes[relevant]
    if not len(doc_codes):
        raise RunFileError(f"{path}: the truth file judges no label relevant")
    # the documents in the order their first relevant line comes, each one's labels in file order
    docs, first = np.unique(doc_codes, return_index=True)
    docs = docs[np.argsort(first)]
    place = np.empty(len(doc_names), dtype=np.int64)
    place[docs] = np.arange(len(docs))
    rows = np.argsort(place[doc_codes], kind="stable")
    codes = label_codes[rows]
    ends = np.cumsum(np.bincount(doc_codes, minlength=len(doc_names))[docs])
    offsets = np.concatenate([[0], ends]).astype(np.int64)
    return Truth([doc_names[d] for d in docs.tolist()], label_names, offsets, codes)


def _ranked_order(group: np.ndarray, rank: np.ndarray, score: np.ndarray, label_key: np.ndarray, by_rank: bool
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The rows in ranked order within each ``group`` (groups in increasing order), and the groups in which, by
    rank, a label comes above another of higher score.

    By rank: rank ascending, equal ranks by score descending, then the file's order. By score (trec_eval): score
    descending, ties by ``label_key`` descending (the labels' UTF-8 bytes in sorted order); the rank column is
    ignored.
    """
    by_rank_order = _sorted_within(group, (-score, rank), lambda: (rank[1:] > rank[:-1]) | (rank[1:] == rank[:-1])
                                   & (score[1:] <= score[:-1]))
    g, s = group[by_rank_order], score[by_rank_order]
    disagree = _distinct_codes(g[1:][(g[1:] == g[:-1]) & (s[1:] > s[:-1])])
    if by_rank:
        return by_rank_order, disagree
    return _sorted_within(group, (-label_key, -score), lambda: (score[1:] < score[:-1]) | (score[1:] == score[:-1])
                          & (label_key[1:] < label_key[:-1])), disagree


def _sorted_within(group: np.ndarray, keys: tuple[np.ndarray, ...], in_order) -> np.ndarray:
    """The stable sort of the rows by ``group``, then ``keys`` (``np.lexsort`` order: the last key first).

    ``in_order()`` tells for each pair of neighbouring rows whether the second may follow the first. Where the
    groups stand in increasing order, only the groups with a pair out of order are sorted (most runs are written
    in ranked order already); elsewhere the rows keep their places, as a stable sort would leave them.
    """
    n = len(group)
    order = np.arange(n)
    if n < 2:
        return order
    step = group[1:] - group[:-1]
    if (step < 0).any():
        return np.lexsort((*keys, group))
    wrong = np.flatnonzero((step == 0) & ~in_order())
    if wrong.size:
        rows = np.flatnonzero(np.isin(group, group[wrong]))
        order[rows] = rows[np.lexsort(tuple(k[rows] for k in keys) + (group[rows],))]
    return order


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
    table = Columns(path, "run", RUN_FORMS, RunFileError, RUN_NUMBERS, RUN_UNREAD)
    doc_j, label_j, rank_j, score_j = (0, 1, 2, 3) if table.width == 4 else (0, 2, 3, 4)
    if table.width == 4:
        run_names, run_codes = [str(path)], np.zeros(len(table.lines), dtype=np.int64)
    else:
        run_names, run_codes = table.text(5)
    doc_names, doc_codes = table.text(doc_j)
    label_names, label_codes = table.text(label_j)
    errors = []
    if labels is not None:
        bad = first_unknown(label_names, label_codes, labels)
        if bad is not None:
            errors.append((bad, 0, f"{table.where(bad)}: {unknown_label(label_names[label_codes[bad]], labels)}"))
    bad = first_unknown(doc_names, doc_codes, docs if isinstance(docs, (set, dict)) else set(docs))
    if bad is not None:
        errors.append((bad, 1, f"{table.where(bad)}: document {shorten(doc_names[doc_codes[bad]])!r} is not in the "
                               "truth file"))
    rank, bad, why = table.numbers(rank_j, int)
    below = np.flatnonzero(rank < 1) if by_rank else []
    if len(below):  # before any bad row (rank holds the rows before it)
        bad, why = int(below[0]), "form"
    if bad is not None:
        kind = "a positive integer" if by_rank else "an integer"
        errors.append((bad, 2, f"{table.where(bad)}: rank {shorten(table.field(bad, rank_j))!r} is not {kind} "
                               + ("(ASCII digits)" if why == "form" else "below 2**63")))
    score, bad, _ = table.numbers(score_j, float)
    if bad is not None:
        errors.append((bad, 3, f"{table.where(bad)}: score {shorten(table.field(bad, score_j))!r} is not a finite "
                               "number (ASCII decimal)"))
    table.raise_error(errors)
    _check_repeats(table, run_codes, doc_codes, label_codes, rank if by_rank else None, doc_names, label_names)
    # a run's documents in the order they first appear in it
    pair = run_codes * len(doc_names) + doc_codes
    distinct_pairs, first_row, group = np.unique(pair, return_index=True, return_inverse=True)
    group = np.argsort(np.lexsort((first_row, distinct_pairs // len(doc_names))))[group.ravel()]
    label_key = np.argsort(np.argsort(np.array([name.encode("utf-8") for name in label_names], dtype=object)))
    rows, disagree = _ranked_order(group, rank, score, label_key[label_codes], by_rank)
    group_run = np.empty(len(distinct_pairs), dtype=np.int64)
    group_doc = np.empty(len(distinct_pairs), dtype=np.int64)
    group_run[group], group_doc[group] = run_codes, doc_codes
    sizes = np.bincount(group, minlength=len(distinct_pairs))
    disagree_run = np.bincount(group_run[disagree], minlength=len(run_names))
    runs = {}
    ends = np.cumsum(sizes)
    run_groups = np.searchsorted(group_run, np.arange(len(run_names) + 1))  # groups are ordered by run
    for r, name in enumerate(run_names):
        g0, g1 = run_groups[r], run_groups[r + 1]
        r0 = ends[g0 - 1] if g0 else 0
        offsets = np.concatenate([[0], ends[g0:g1] - r0])
        picked = rows[r0: ends[g1 - 1]] if g1 > g0 else rows[:0]
        runs[name] = Run.from_columns([doc_names[d] for d in group_doc[g0:g1].tolist()], label_names, offsets,
                                      label_codes[picked], score[picked], int(disagree_run[r]))
    return runs


def _check_repeats(table: Columns, run_codes, doc_codes, label_codes, rank, doc_names, label_names) -> None:
    """RunFileError for the first run (in the order of its tag) that repeats a document's label, or its rank when
    ``rank`` is given; the message names the earliest such line of that run (a label before a rank on one line)."""
    found = []
    for check, column in enumerate((label_codes, rank)):
        if column is None:
            continue
        again, first = repeats((run_codes, doc_codes, column))
        for a, f in zip(again.tolist(), first.tolist()):
            found.append((run_codes[a], a, check, f))
    if not found:
        return
    _, r, check, f = min(found)
    doc = repr(shorten(doc_names[doc_codes[r]]))
    text = (f"line for document {doc}, label {shorten(label_names[label_codes[r]])!r}" if check == 0
            else f"rank {rank[r]} for document {doc}")
    raise RunFileError(f"{table.where(r)}: duplicate {text} (first on line {table.lines[f]})")


def ordered_run(rows: Mapping[str, Sequence[tuple]], order: str = "rank") -> Run:
    """A :class:`Run` from each document's ``(rank, label, score, ...)`` items, ordered as ``order`` says.

    Parameters
    ----------
    rows : mapping of str to sequence of tuple
        ``{doc: [(rank, label, score, ...), ...]}``; further fields (a line number) are ignored.
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
    docs = list(rows)
    sizes = [len(rows[doc]) for doc in docs]
    items = [item for doc in docs for item in rows[doc]]
    group = np.repeat(np.arange(len(docs), dtype=np.int64), sizes)
    rank = np.array([item[0] for item in items], dtype=np.int64)
    score = np.array([item[2] for item in items], dtype=np.float64)
    labels: dict[str, int] = {}
    codes = np.array([labels.setdefault(item[1], len(labels)) for item in items], dtype=np.int64)
    names = list(labels)
    label_key = np.argsort(np.argsort(np.array([name.encode("utf-8") for name in names], dtype=object)))
    picked, disagree = _ranked_order(group, rank, score, label_key[codes] if len(codes) else codes, order == "rank")
    offsets = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
    return Run.from_columns(docs, names, offsets, codes[picked], score[picked], len(disagree))


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


# ------------------------------------------------------------------------------------------------ writing
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
