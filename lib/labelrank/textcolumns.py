"""A text file of whitespace-separated fields, split into columns at once: the reader behind :mod:`labelrank.runfiles`.

:class:`Columns` reads a file whole: numpy finds its lines and counts their fields, so that every rule of form (a
known number of columns, the same on every line, no byte-order mark inside) is checked before any field is read;
the fields are then split by numpy's C reader (files of at least :data:`PARSE_FROM_BYTES`) or by ``bytes.split``.
:func:`numbers` reads a column of numbers strictly (ASCII decimals only), :func:`code_column` codes a column of names,
:func:`repeats` finds rows that repeat a key. Every problem is an exception of the class the caller names, with the
file and the line.
"""

from __future__ import annotations

import codecs
import gzip
import math
import os
import re
import stat
import sys
import zlib
from collections.abc import Collection, Mapping, Sequence
from itertools import compress

import numpy as np

from labelrank.validation import shorten

__all__ = ["Columns", "read_bytes", "code_column", "first_unknown", "numbers", "repeats", "INTEGER", "DECIMAL",
           "PARSE_FROM_BYTES", "NOT_PARSED"]

# ASCII only: Python's int() and float() also accept "1_0" (= 10) and non-ASCII digits such as "\u0661" (= 1).
INTEGER = re.compile(r"[+-]?[0-9]+\Z", re.ASCII)
DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z", re.ASCII)
SPACE_BYTES = np.zeros(256, dtype=bool)
SPACE_BYTES[list(b" \t\n\x0b\x0c")] = True  # bytes.split()'s whitespace once "\r" has become "\n"
#: ``bytes.translate`` table: 1 for the whitespace bytes, 0 for the others.
SPACE_TABLE = bytes(SPACE_BYTES.astype(np.uint8))
BOM = codecs.BOM_UTF8
#: A line may be at most this long (bytes), and a file read from a pipe or a device at most this large.
MAX_LINE_BYTES = 1 << 20
MAX_STREAM_BYTES = 1 << 30
#: Bytes that keep a file from numpy's reader: NUL (``S`` arrays drop trailing NULs), the vertical tab and the
#: form feed (which ``bytes.split`` splits at), and the separators ``\x1c``-``\x1f`` (which numpy's reader strips
#: from a field, as ``str.split`` does, and ``bytes.split`` keeps).
NOT_PARSED = (b"\x00", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x1f")
#: Files from this size on are parsed by numpy's C reader (:func:`numpy.loadtxt`); smaller ones by ``bytes.split``.
#: Both give the same columns (``tests/lib/test_runfiles_oracle.py`` reads every case both ways).
PARSE_FROM_BYTES = 1 << 20



def read_bytes(path: str | os.PathLike, what: str, error: type[Exception] = ValueError) -> bytes:
    """The file's bytes: standard input for ``-``, decompressed for a ``.gz`` suffix; problems raise ``error``.

    Parameters
    ----------
    path : str or os.PathLike
        The file, or ``-``.
    what : str
        What the file is, for messages (``"run"``, ``"truth"``).
    error : type of Exception, default=ValueError
        The exception raised for a missing, unreadable or broken file.

    Examples
    --------
    >>> read_bytes("no-such-file.txt", "run")
    Traceback (most recent call last):
        ...
    ValueError: no-such-file.txt: run file not found
    """
    try:
        if str(path) == "-":
            data = _read_stream(sys.stdin.buffer, path, what, error)
        else:
            with open(path, "rb") as fh:
                regular = stat.S_ISREG(os.fstat(fh.fileno()).st_mode)
                data = fh.read() if regular else _read_stream(fh, path, what, error)
    except FileNotFoundError:
        raise error(f"{path}: {what} file not found") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} file: {exc}") from exc
    if str(path).endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise error(f"{path}: the {what} file ends in .gz but is not a whole gzip file ({exc})") from None
    return data


def _read_stream(fh, path, what: str, error: type[Exception]) -> bytes:
    """A pipe's or a device's bytes, read in pieces up to :data:`MAX_STREAM_BYTES`, stopping at a line longer than
    :data:`MAX_LINE_BYTES` (``/dev/zero``) and, unless gzipped, at the first bytes that are not UTF-8
    (``/dev/urandom``: :class:`Columns` then names the place)."""
    decoder = None if str(path).endswith(".gz") else codecs.getincrementaldecoder("utf-8")()
    data, last_newline = bytearray(), -1
    while True:
        piece = fh.read(1 << 20)
        if not piece:
            return bytes(data)
        at = piece.rfind(b"\n")
        if at >= 0:
            last_newline = len(data) + at
        data += piece
        if decoder is not None:  # (a gzipped stream's bytes are neither text nor lines)
            try:
                decoder.decode(piece)
            except UnicodeDecodeError:
                return bytes(data)
            if len(data) - 1 - last_newline > MAX_LINE_BYTES:
                line = data.count(b"\n") + 1
                raise error(f"{path}:{line}: a line longer than {MAX_LINE_BYTES:,} bytes (the bound of one line of "
                            f"a {what} file)")
        if len(data) > MAX_STREAM_BYTES:
            raise error(f"{path}: more than {MAX_STREAM_BYTES:,} bytes (the bound of a {what} file read from a pipe "
                        "or a device; save it as a file)")


class Columns:
    """The data lines of a file, split into ``width`` columns: :meth:`text` and :meth:`numbers` read column ``j``
    (row ``r`` on line ``lines[r]``).

    numpy finds the lines and counts their fields first, so that every rule of form (a known number of columns,
    the same on every line, no byte-order mark inside) is checked before any field is read. A well-formed file
    of at least :data:`PARSE_FROM_BYTES` without comment lines and without the bytes of :data:`NOT_PARSED` (ASCII,
    unless one space stands between neighbouring fields) is then parsed by numpy's C reader: the columns that
    ``numeric`` names as numbers, when it reads them all, and the other fields as bytes, which :meth:`numbers`
    checks and converts. Any other file is split by ``bytes.split``. Both ways give the same columns
    (``tests/lib/test_runfiles_oracle.py``, ``tests/lib/test_textcolumns.py``).

    Parameters
    ----------
    path : str or os.PathLike
        The file, or ``-`` (standard input); ``.gz`` is read through gzip.
    what : str
        What the file is, for messages.
    forms : mapping of int to str
        The numbers of columns a line may have, each with its description.
    error : type of Exception, default=ValueError
        The exception raised, its message naming the file and the line.
    numeric : mapping of int to mapping of int to type, optional
        Per number of columns, the columns to read as numbers (``int`` or ``float``) when numpy's reader parses
        the file.
    skip : mapping of int to collection of int, optional
        Per number of columns, the columns no reader asks for (a TREC run's ``Q0``): they are fields, counted and
        checked for form like the others, but numpy's reader does not convert them, and :meth:`text` and
        :meth:`numbers` refuse them.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "t.txt")
    >>> _ = open(path, "w").write("# a comment\\nd1 a 1\\nd2 b 2\\n")
    >>> table = Columns(path, "test", {3: "doc label n"})
    >>> table.text(0), table.numbers(2, int)[0].tolist(), table.lines.tolist()
    ((['d1', 'd2'], array([0, 1])), [1, 2], [2, 3])
    """

    def __init__(self, path: str | os.PathLike, what: str, forms: Mapping[int, str],
                 error: type[Exception] = ValueError, numeric: Mapping[int, Mapping[int, type]] | None = None,
                 skip: Mapping[int, Collection[int]] | None = None) -> None:
        self.error_class = error
        self.skip = {width: frozenset(columns) for width, columns in (skip or {}).items()}
        data = read_bytes(path, what, error)
        if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # (before UTF-16: FF FE starts both)
            raise error(f"{path}: the {what} file is UTF-32 (it starts with a UTF-32 byte-order mark); "
                        "save it as UTF-8")
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise error(f"{path}: the {what} file is UTF-16 (it starts with a UTF-16 byte-order mark); "
                               "save it as UTF-8")
        if data.startswith(BOM):  # Windows editors write one
            data = data[len(BOM):]
        ascii_only = data.isascii()  # (then it is UTF-8 and holds no byte-order mark)
        try:
            if not ascii_only:
                data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise error(f"{path}:{line}: the {what} file is not UTF-8 ({exc.reason} at byte {exc.start})") \
                from None
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        self.path, self.what, self.data = path, what, data
        #: the columns read as numbers by numpy's C reader, whose acceptance and values are those of :func:`numbers`
        self.typed: set[int] = set()
        self._columns, self.error = None, None
        #: whether the file was read by :meth:`_read_plain` (every line a data line, fields one space apart)
        self.plain = len(data) >= PARSE_FROM_BYTES and ascii_only and self._read_plain(data, forms, numeric or {})
        if self.plain:
            return
        # fields per line from the byte array: a field starts where a non-space follows a space
        arr = np.frombuffer(data, dtype=np.uint8)
        space = np.frombuffer(data.translate(SPACE_TABLE), dtype=bool)
        start = ~space
        start[1:] &= space[:-1]
        starts = np.flatnonzero(start)
        del start
        ends = np.flatnonzero(arr == 10)
        if not data.endswith(b"\n"):
            ends = np.append(ends, len(data))
        if len(ends):
            longest = int(np.argmax(np.diff(ends, prepend=-1)))
            if ends[longest] - (ends[longest - 1] if longest else -1) - 1 > MAX_LINE_BYTES:
                raise error(f"{path}:{longest + 1}: a line longer than {MAX_LINE_BYTES:,} bytes (the bound of one "
                            f"line of a {what} file)")
        before = np.searchsorted(starts, ends)  # fields that start before each line's end
        counts = np.diff(before, prepend=0)
        comment = np.zeros(len(counts), dtype=bool)
        if b"#" in data:
            has = np.flatnonzero(counts)
            comment[has] = arr[starts[(before - counts)[has]]] == ord("#")
        data_line = (counts > 0) & ~comment
        lines = np.flatnonzero(data_line)
        if not lines.size:
            raise error(f"{path}: the {what} file is empty (no data lines)")
        width = int(counts[lines[0]])
        errors = []  # (line, check, message): the earliest line's, a byte-order mark before the columns
        bom = None if ascii_only else self._bom_line(lines)
        if bom is not None:
            errors.append((bom, 0, f"{path}:{bom + 1}: a byte-order mark (U+FEFF) inside the {what} file, not at "
                                   "its start (files joined together?)"))
        if width not in forms:
            described = " or ".join(f"{n} columns '{form}'" for n, form in forms.items())
            errors.append((lines[0], 1, f"{path}:{lines[0] + 1}: expected {described}, got {width}: "
                                        f"{self.quote(lines[0] + 1)}"))
        else:
            wrong = lines[counts[lines] != width]
            if wrong.size:
                n = int(counts[wrong[0]])
                mixed = " (the file mixes forms)" if n in forms else ""
                errors.append((wrong[0], 1, f"{path}:{wrong[0] + 1}: expected {width} columns '{forms[width]}' as "
                                            f"on line {lines[0] + 1}, got {n}{mixed}: {self.quote(wrong[0] + 1)}"))
        # the earliest such error stands for the file, unless a line before it has an error of its own (a reader
        # checks the rows before it first: :meth:`raise_error`)
        self.error = min(errors)[2] if errors else None
        if errors:
            lines = lines[: np.searchsorted(lines, min(errors)[0])]
            width = width if width in forms else next(iter(forms))  # no rows then: the error is on the first line
        self.width, self.lines = width, lines + 1
        # one space between neighbouring fields, none elsewhere: no tab, and a space per gap between fields
        single = b"\t" not in data and data.count(b" ") == len(starts) - len(lines)
        if (len(data) >= PARSE_FROM_BYTES and not errors and not comment.any() and (single or ascii_only)
                and not any(byte in data for byte in NOT_PARSED)):
            first = starts.reshape(-1, width)
            if single:  # a field ends one byte before the next one starts, a line's last at the line's end
                lengths = np.empty_like(first)
                lengths[:, :-1] = first[:, 1:] - first[:, :-1] - 1
                lengths[:, -1] = ends[lines] - first[:, -1]
            else:
                field_ends = np.flatnonzero(~space[:-1] & space[1:]) + 1
                if not space[-1]:
                    field_ends = np.append(field_ends, len(data))
                lengths = field_ends.reshape(-1, width) - first
            widths = lengths.max(axis=0)
            del first, lengths
            self._columns, self.typed = self._parse_numbers_first(data, widths, len(lines), single,
                                                                  (numeric or {}).get(width, {}),
                                                                  self.skip.get(width, frozenset()))
        #: how the fields were split: ``"numpy"`` (:func:`numpy.loadtxt`) or ``"split"`` (``bytes.split``)
        self.parser = "split" if self._columns is None else "numpy"
        del arr, starts, space
        if self._columns is None:
            tokens = data.split()
            if comment.any():
                tokens = list(compress(tokens, np.repeat(data_line, counts).tolist()))
            self._tokens = tokens[: len(lines) * width]

    def _read_plain(self, data: bytes, forms: Mapping[int, str], numeric: Mapping[int, Mapping[int, type]]) -> bool:
        """Read an ASCII file of the plainest form at once, without the line-by-line checks of form: every line a
        data line (no blank line, none starting with ``#``), fields one space apart, none of :data:`NOT_PARSED`.
        False (nothing set) for any other file, or when numpy's reader refuses it; the checks then name the line.

        Such a file's rows are its lines, so no check of form can fail where numpy reads the file whole with the
        same number of fields on every line (``tests/lib/test_runfiles_oracle.py`` compares both ways).
        """
        if (b"\t" in data or data.startswith((b" ", b"\n", b"#")) or data.endswith(b" ")
                or any(byte in data for byte in NOT_PARSED)):
            return False
        first = data[: data.find(b"\n")] if b"\n" in data else data
        width = first.count(b" ") + 1
        n_rows = data.count(b"\n") + (not data.endswith(b"\n"))
        if width not in forms or data.count(b" ") != n_rows * (width - 1):
            return False
        arr = np.frombuffer(data, dtype=np.uint8)
        bounds = np.flatnonzero((arr == 32) | (arr == 10))  # the byte after each field
        if not data.endswith(b"\n"):
            bounds = np.append(bounds, len(data))
        if len(bounds) != n_rows * width:
            return False
        # each field's length: the gap between its bound and the one before, less the bound's own byte; two bounds
        # side by side leave an empty field (two spaces, a space at a line's start or end, a blank line)
        lengths = np.empty(len(bounds), dtype=np.int64)
        lengths[0] = bounds[0]
        np.subtract(bounds[1:], bounds[:-1], out=lengths[1:])
        lengths[1:] -= 1
        if not lengths.all():
            return False
        # each row's last bound is a newline: as many rows as newlines end at one, so every line has ``width``
        # fields (numpy's reader would not see a line's extra fields in a column it skips)
        line_ends = bounds[width - 1 :: width]
        if not (arr[line_ends[: n_rows - (not data.endswith(b"\n"))]] == 10).all():
            return False
        line_starts = np.concatenate([[0], line_ends[:-1] + 1])
        if (line_ends - line_starts).max() > MAX_LINE_BYTES or (arr[line_starts] == ord("#")).any():
            return False
        del arr, bounds, line_ends, line_starts
        widths = lengths.reshape(n_rows, width).max(axis=0)
        columns, typed = self._parse_numbers_first(data, widths, n_rows, True, numeric.get(width, {}),
                                                   self.skip.get(width, frozenset()))
        if columns is None:
            return False
        self.width, self.lines = width, np.arange(1, n_rows + 1)
        self._columns, self.typed, self.parser = columns, typed, "numpy"
        return True

    @classmethod
    def _parse_numbers_first(cls, data: bytes, widths: np.ndarray, n_rows: int, single: bool,
                             kinds: Mapping[int, type], skip: Collection[int] = frozenset()
                             ) -> tuple[list[np.ndarray | None] | None, set[int]]:
        """:meth:`_parse` with the columns of ``kinds`` as numbers, else with every column as bytes (then
        :meth:`numbers` names the bad field); the columns (None if numpy refuses the file) and those read as
        numbers."""
        columns = cls._parse(data, widths, n_rows, single, kinds, skip) if kinds else None
        if columns is not None:
            return columns, set(kinds)
        return cls._parse(data, widths, n_rows, single, None, skip), set()

    @staticmethod
    def _parse(data: bytes, widths: np.ndarray, n_rows: int, single: bool,
               kinds: Mapping[int, type] | None = None, skip: Collection[int] = frozenset()
               ) -> list[np.ndarray | None] | None:
        r"""The fields by numpy's C reader (:func:`numpy.loadtxt`): the columns of ``kinds`` as int64 or float64,
        the others as bytes (``S`` dtype) as wide as their widest field, so that no field is cut, and None in place
        of the columns of ``skip``, which it does not convert (the caller has counted every line's fields). None if
        it refuses a number, reads one that is not finite, or reads the file otherwise than the line count says.

        With ``single`` (the fields are separated by single spaces, none before or after them), the delimiter is
        ``" "``; otherwise any run of spaces and tabs, which must then be ASCII (numpy's whitespace also holds the
        bytes ``\x85`` and ``\xa0`` of the Latin-1 reading). The bytes are read as Latin-1, which gives every byte
        back as it is. No file holding a byte of :data:`NOT_PARSED` comes here: in the others numpy's fields are
        ``bytes.split``'s, and its numbers are what :func:`numbers` reads (``tests/lib/test_textcolumns.py``): a
        UTF-8 character's last bytes may be ``\x85`` or ``\xa0``, which numpy strips from a number's ends, but its
        first byte, a letter in Latin-1, stays, and the number is refused.
        """
        import io

        dtype = [(f"f{j}", f"S{max(1, int(w))}") for j, w in enumerate(widths)]
        for j, kind in (kinds or {}).items():
            dtype[j] = (f"f{j}", np.int64 if kind is int else np.float64)
        used = [j for j in range(len(widths)) if j not in skip]
        try:
            table = np.loadtxt(io.BytesIO(data), dtype=[dtype[j] for j in used], delimiter=" " if single else None,
                               comments=None, quotechar=None, encoding="latin1", ndmin=1,
                               usecols=used if len(used) < len(widths) else None)
        except (ValueError, OverflowError):
            return None
        if len(table) != n_rows:
            return None
        columns = [None if j in skip else table[f"f{j}"] for j in range(len(widths))]
        if any(kind is float and not np.isfinite(columns[j]).all() for j, kind in (kinds or {}).items()):
            return None
        return columns

    def text(self, j: int) -> tuple[list[str], np.ndarray]:
        """Column ``j``'s distinct values in the order they first appear, and each row's code."""
        self._check_read(j)
        if self._columns is not None:
            return code_column(self._columns[j])
        return code_column(self._tokens[j:: self.width])

    def numbers(self, j: int, kind: type) -> tuple[np.ndarray, int | None, str]:
        """Column ``j`` read as ``kind`` (int or float) as :func:`numbers` reads it."""
        self._check_read(j)
        pattern = INTEGER if kind is int else DECIMAL
        if self._columns is None:
            return numbers(self._tokens[j:: self.width], kind, pattern)
        if j in self.typed:
            return self._columns[j], None, "form"
        return numbers(self._columns[j].tolist(), kind, pattern)

    def _check_read(self, j: int) -> None:
        if j in self.skip.get(self.width, ()):
            raise ValueError(f"column {j} of a {self.what} file of {self.width} columns is skipped (skip=)")

    def field(self, row: int, j: int) -> str:
        """Field ``j`` of row ``row``, as text (for a message)."""
        return self.data.split(b"\n")[self.lines[row] - 1].split()[j].decode("utf-8")

    def raise_error(self, errors: list[tuple[int, int, str]]) -> None:
        """Raise the error of the earliest row among ``errors`` (``(row, check, message)``, ties: the earliest
        check), else the file's own error of form (a line after every row), if any."""
        if errors:
            raise self.error_class(min(errors)[2])
        if self.error is not None:
            raise self.error_class(self.error)

    def _bom_line(self, lines: np.ndarray) -> int | None:
        """The first data line (0-based, of ``lines``) holding a byte-order mark, which is then not the file's
        first bytes (files joined together), or None."""
        at = self.data.find(BOM)
        while at >= 0:
            line = self.data.count(b"\n", 0, at)
            i = np.searchsorted(lines, line)
            if i < len(lines) and lines[i] == line:
                return line
            at = self.data.find(BOM, at + 1)
        return None

    def quote(self, lineno: int) -> str:
        """The fields of line ``lineno`` (1-based), quoted and shortened for a message."""
        fields = self.data.split(b"\n")[lineno - 1].decode("utf-8").split()
        return repr(shorten(" ".join(fields)))

    def where(self, row: int) -> str:
        return f"{self.path}:{self.lines[row]}"


def code_column(column: list[bytes] | np.ndarray) -> tuple[list[str], np.ndarray]:
    """The distinct values of ``column`` (decoded, in the order they first appear) and each row's code.

    Parameters
    ----------
    column : list of bytes, or numpy.ndarray of bytes (``S`` dtype)

    A column whose equal values stand together (a run's documents, one after another; a single tag) is coded
    from where the value changes, without a lookup per row; any other column by a sort of its values (of their
    bytes as one integer when a field is at most 8 bytes long).

    Examples
    --------
    >>> code_column([b"d1", b"d1", b"d2", b"d1"])
    (['d1', 'd2'], array([0, 0, 1, 0]))
    """
    n = len(column)
    values = column if isinstance(column, np.ndarray) else np.array(column, dtype=object)
    change = np.flatnonzero(values[1:] != values[:-1]) + 1 if n > 1 else np.zeros(0, np.int64)
    starts = np.concatenate([[0], change]) if n else np.zeros(0, np.int64)
    distinct = list(dict.fromkeys(values[starts].tolist())) if len(starts) <= n // 2 else None
    if distinct is not None and len(distinct) == len(starts):  # every value in one stretch
        codes = np.repeat(np.arange(len(starts), dtype=np.int64), np.diff(np.append(starts, n)))
    elif isinstance(column, np.ndarray):
        distinct, codes = _factorize(column)
    else:
        distinct = list(dict.fromkeys(column))
        code = {value: i for i, value in enumerate(distinct)}
        codes = np.fromiter(map(code.__getitem__, column), dtype=np.int64, count=n)
    if distinct and isinstance(distinct[0], bytes):
        distinct = [value.decode("utf-8") for value in distinct]
    return distinct, codes


def _factorize(column: np.ndarray) -> tuple[list[bytes], np.ndarray]:
    """The distinct values of a bytes array (``S`` dtype) in the order they first appear, and each row's code, by
    one sort (of the fields as integers when they are at most 8 bytes long: zero-padded, two fields are equal
    exactly when their integers are, as a file read this way holds no NUL byte)."""
    n = len(column)
    keys = column.astype("S8").view(np.uint64) if column.dtype.itemsize <= 8 else column
    order = np.argsort(keys)
    ordered = keys[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    first = np.full(int(new.sum()), n, dtype=np.int64)
    np.minimum.at(first, inverse, np.arange(n))
    by_first = np.argsort(first)
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    return column[first[by_first]].tolist(), rank[inverse]


def first_unknown(names: list[str], codes: np.ndarray, known) -> int | None:
    """The first row whose value (``names[codes[row]]``) is not in ``known``.

    Parameters
    ----------
    names : list of str
        The distinct values, in the order they first appear (:func:`code_column`).
    codes : numpy.ndarray of int
        Each row's value as an index into ``names``.
    known : collection of str

    Examples
    --------
    >>> first_unknown(["a", "z"], np.array([0, 0, 1, 1]), {"a"})
    2
    """
    for i, name in enumerate(names):  # in order of first appearance: the first unknown is the earliest
        if name not in known:
            return int(np.argmax(codes == i))
    return None


def numbers(column: list[bytes] | list[str], kind: type, pattern: re.Pattern) -> tuple[np.ndarray, int | None, str]:
    """The column read as ``kind`` (int or float); the first row that is not an ASCII number (else None) and why.

    The whole column is read by ``int()`` or ``float()`` when it is ASCII (they read other digits, such as
    ``"\u0661"``, as digits) and has no underscore (they read ``"1_0"`` as 10): of the rest they accept exactly
    what ``pattern`` matches, with ``inf`` and ``nan`` caught as not finite. Otherwise, or when they refuse a field,
    the fields are looked at one by one. The reason is ``"large"`` for an integer beyond 64 bits, else ``"form"``;
    with a bad row, the values are those of the rows before it.

    Parameters
    ----------
    column : list of bytes or list of str
    kind : {int, float}
    pattern : re.Pattern
        :data:`INTEGER` or :data:`DECIMAL`.

    Examples
    --------
    >>> numbers([b"1", b"2"], int, INTEGER)
    (array([1, 2]), None, 'form')
    >>> numbers([b"0.5", b"1_0"], float, DECIMAL)[1:]
    (1, 'form')
    """
    dtype = np.int64 if kind is int else np.float64
    if not column:
        return np.zeros(0, dtype=dtype), None, "form"
    joined = (b"\n" if isinstance(column[0], bytes) else "\n").join(column)
    if joined.isascii() and (b"_" if isinstance(joined, bytes) else "_") not in joined:
        try:
            values = np.fromiter(map(kind, column), dtype=dtype, count=len(column))
        except (ValueError, OverflowError):
            pass
        else:
            bad = np.flatnonzero(~np.isfinite(values)) if kind is float else np.zeros(0, np.int64)
            return values, (int(bad[0]) if bad.size else None), "form"
    good: list = []
    for row, value in enumerate(column):
        text = value.decode("utf-8") if isinstance(value, bytes) else value
        if not pattern.match(text) or (kind is float and not math.isfinite(float(text))):
            return np.array(good, dtype=dtype), row, "form"
        if kind is int and not -2 ** 63 <= int(text) < 2 ** 63:
            return np.array(good, dtype=dtype), row, "large"
        good.append(kind(text))
    raise AssertionError("unreachable: a column that int()/float() refused has a field that refuses it")


def repeats(keys: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rows whose ``keys`` (a tuple of equal-length non-negative integer arrays) repeat an earlier row's, and that
    earlier first row.

    Parameters
    ----------
    keys : sequence of numpy.ndarray

    Examples
    --------
    >>> repeats((np.array([0, 1, 0, 0]), np.array([5, 5, 5, 6])))
    (array([2]), array([0]))
    """
    n = len(keys[0])
    if n < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    combined, span = np.zeros(n, dtype=np.int64), 1
    for key in reversed(keys):  # one integer per row when the keys' ranges allow, else a sort on each key
        top = int(key.max()) + 1
        if span * top >= 2 ** 62:
            order = np.lexsort(tuple(reversed(keys)))
            break
        combined += key * span
        span *= top
    else:
        order = np.argsort(combined, kind="stable")
    same = np.ones(n - 1, dtype=bool)
    for key in keys:
        sk = key[order]
        same &= sk[1:] == sk[:-1]
    if not same.any():
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    same = np.concatenate([[False], same])
    group_start = np.maximum.accumulate(np.where(same, 0, np.arange(n)))
    repeat = np.flatnonzero(same)
    return order[repeat], order[group_start[repeat]]
