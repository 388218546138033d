"""``labelrank.textcolumns.Columns``: numpy's typed reading of the columns of numbers gives what the strict rules
(:func:`labelrank.textcolumns.numbers`, applied to the fields as text) give, value for value and bad row for bad
row."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from labelrank import textcolumns
from labelrank.textcolumns import Columns

NUMBERS = {3: {1: int, 2: float}}
ODD = ["1", "+1", "-1", "007", "1.0", "1e3", "1.", "0x10", "1_0", "\u0661", "inf", "-inf", "nan", "NaN", "Infinity",
       "1e", "e5", ".", "1.5.3", ".5", "5.", "-.5", "+.5e-3", "1E5", "1e+5", "--1", "+-1", "1d5", "1f", "1e400",
       "1e-400", "0.1e1", "TRUE", "True", "true", "False", "9223372036854775807", "-9223372036854775808",
       "9223372036854775808", "1,0", "N/A", "null", "1\u00a0", "\u00a01", "1\u0085", "1\u00e0", "\u00a0"]


def read_both(tmp_path, monkeypatch, lines: list[str], j: int, kind: type):
    """``numbers(j, kind)`` of the file by numpy's reader (typed if it may) and by bytes.split, and whether numpy
    read the column as numbers."""
    path = tmp_path / "f.txt"
    path.write_text("".join(line + "\n" for line in lines))
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    by_numpy = Columns(path, "test", {3: "doc n x"}, ValueError, NUMBERS)
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 1 << 62)
    by_split = Columns(path, "test", {3: "doc n x"}, ValueError, NUMBERS)
    data = path.read_bytes()
    single = b"  " not in data and b"\t" not in data and b" \n" not in data and not data.startswith(b" ")
    assert by_split.parser == "split" and by_numpy.parser == ("numpy" if single or data.isascii() else "split")
    return by_numpy.numbers(j, kind), by_split.numbers(j, kind), j in by_numpy.typed


def same(a, b) -> bool:
    return a[1:] == b[1:] and a[0].dtype == b[0].dtype and np.array_equal(a[0], b[0], equal_nan=a[0].dtype.kind == "f")


@pytest.mark.parametrize("kind", [int, float])
def test_odd_fields_read_as_the_strict_rules_read_them(tmp_path, monkeypatch, kind):
    j = 1 if kind is int else 2
    rng = random.Random(0)
    alphabet = "0123456789+-" if kind is int else "0123456789+-.eE"
    tokens = ODD + ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 8))) for _ in range(600)]
    typed = 0
    for token in tokens:
        fields = ["d", "1", "0.5"]
        fields[j] = token
        ours, strict, was_typed = read_both(tmp_path, monkeypatch, ["d 2 0.25", " ".join(fields)], j, kind)
        assert same(ours, strict), token
        typed += was_typed
    assert typed > 100  # the typed reading is what was compared


def test_decimals_are_read_exactly_as_float_reads_them(tmp_path, monkeypatch):
    rng = np.random.default_rng(1)
    texts = [f"{x:.{int(d)}f}" for x, d in zip(rng.random(3000), rng.integers(1, 25, 3000))]
    texts += [repr(float(x) * 10.0 ** int(e)) for x, e in zip(rng.random(3000), rng.integers(-300, 300, 3000))]
    texts += [f"{int(m)}e{int(e)}" for m, e in zip(rng.integers(1, 10**17, 3000), rng.integers(-320, 300, 3000))]
    texts += [f"{int(a)}.{int(b):09d}{int(c):09d}" for a, b, c in zip(*(rng.integers(0, 10**9, 3000) for _ in range(3)))]
    texts = [t for t in texts if np.isfinite(float(t))]
    ours, strict, typed = read_both(tmp_path, monkeypatch, [f"d 1 {t}" for t in texts], 2, float)
    assert typed and same(ours, strict)
    assert ours[0].tolist() == [float(t) for t in texts]


def test_fields_apart_by_any_whitespace_are_typed_too(tmp_path, monkeypatch):
    lines = ["d\t1  0.5", " d 2 0.25 ", "d 3\t\t1e-3"]
    ours, strict, typed = read_both(tmp_path, monkeypatch, lines, 2, float)
    assert typed and same(ours, strict) and ours[0].tolist() == [0.5, 0.25, 0.001]


# ------------------------------------------------------------------------- bounds on what a file may hold
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero and /dev/urandom")
def test_devices_that_never_end_are_stopped():
    """/dev/zero holds no newline: the line bound stops it; /dev/urandom is not UTF-8: read up to its first bad
    bytes, which Columns names."""
    with pytest.raises(ValueError, match=r"/dev/zero:1: a line longer than 1,048,576 bytes"):
        Columns("/dev/zero", "truth", {2: "doc label"})
    with pytest.raises(ValueError, match=r"/dev/urandom:\d+: the run file is not UTF-8"):
        Columns("/dev/urandom", "run", {4: "doc label rank score"})


def test_a_line_too_long_is_named(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("d1 a\n" + "d2 " + "b" * (textcolumns.MAX_LINE_BYTES + 1) + "\n")
    with pytest.raises(ValueError, match=r"t.txt:2: a line longer than 1,048,576 bytes"):
        Columns(path, "truth", {2: "doc label"})


def test_a_stream_larger_than_the_bound_is_refused(monkeypatch, tmp_path):
    import os
    import threading

    monkeypatch.setattr(textcolumns, "MAX_STREAM_BYTES", 100)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(b"d1 a\n" * 100))
    writer.start()
    try:
        with pytest.raises(ValueError, match="more than 100 bytes"):
            textcolumns.read_bytes(fifo, "truth")
    finally:
        writer.join()


@pytest.mark.parametrize("encoding, name", [("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32"), ("utf-16-le", "UTF-16"),
                                            ("utf-16-be", "UTF-16")])
def test_a_wide_encoding_is_named(tmp_path, encoding, name):
    """A UTF-32 file is not called UTF-16 (its little-endian mark begins with UTF-16's)."""
    import codecs

    path = tmp_path / "t.txt"
    bom = {"utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE, "utf-16-le": codecs.BOM_UTF16_LE,
           "utf-16-be": codecs.BOM_UTF16_BE}[encoding]
    path.write_bytes(bom + "d1 a\n".encode(encoding))
    with pytest.raises(ValueError, match=f"the truth file is {name} "):
        Columns(path, "truth", {2: "doc label"})


@pytest.mark.parametrize("text", ["x y z\nx y\nx y z w\n", "x y z\nx y z w\nx y\n", "x y z\nx y\nx y z w"])
def test_a_skipped_last_column_still_counts_every_lines_fields(tmp_path, monkeypatch, text):
    """A line short of a field and another with one too many keep the file's count of spaces; with the last
    column skipped numpy would not see the extra field, so the columns' own count names the first wrong line."""
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    path = tmp_path / "f.txt"
    path.write_text(text)
    table = Columns(path, "test", {3: "a b c"}, skip={3: (2,)})
    assert not table.plain
    with pytest.raises(ValueError, match=r"f.txt:2: expected 3 columns 'a b c' as on line 1, got [24]"):
        table.raise_error([])
    with pytest.raises(ValueError, match="column 2 of a test file of 3 columns is skipped"):
        table.text(2)


def test_skipped_columns_are_not_converted(tmp_path, monkeypatch):
    monkeypatch.setattr(textcolumns, "PARSE_FROM_BYTES", 0)
    path = tmp_path / "f.txt"
    path.write_text("d1 Q0 a 1\nd2 Q0 b 2\n")
    table = Columns(path, "test", {4: "doc q label n"}, numeric={4: {3: int}}, skip={4: (1,)})
    assert table.plain and table.parser == "numpy" and table._columns[1] is None
    names, codes = table.text(2)
    assert names == ["a", "b"] and codes.tolist() == [0, 1]
    assert table.numbers(3, int)[0].tolist() == [1, 2]
