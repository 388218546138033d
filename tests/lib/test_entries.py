"""labelrank._entries: cache entries as data (a JSON description and raw arrays), read without unpickling."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import pickle

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from labelrank._entries import MAGIC, EntryError, encodable, read_entry, read_entry_file, write_entry
from labelrank.features import NeighborDistances


def round_trip(value):
    buf = io.BytesIO()
    write_entry(value, buf)
    data = buf.getvalue()
    assert data.startswith(MAGIC)
    return read_entry(data)


def assert_same(a, b):
    """Equal values of equal types, all the way down (arrays: dtype, shape and bits)."""
    assert type(a) is type(b), (type(a), type(b))
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.dtype.hasobject:
            for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
                assert_same(x, y)
        else:
            assert a.tobytes() == b.tobytes()
    elif isinstance(a, np.generic):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    elif sp.issparse(a):
        assert a.format == b.format and a.shape == b.shape and (a != b).nnz == 0
        assert a.dtype == b.dtype
    elif isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        assert a.attrs == b.attrs
    elif isinstance(a, (pd.Series, pd.Index)):
        (pd.testing.assert_series_equal if isinstance(a, pd.Series) else pd.testing.assert_index_equal)(
            a, b, check_exact=True)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif dataclasses.is_dataclass(a):
        for field in dataclasses.fields(a):
            assert_same(getattr(a, field.name), getattr(b, field.name))
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b)
    else:
        assert a == b


def test_the_values_the_caches_hold_round_trip_exactly():
    rng = np.random.default_rng(0)
    X = sp.random(20, 30, density=0.2, random_state=0, format="csr")
    frame = pd.DataFrame({"dataset": ["emotions", "yeast"], "value": [0.5, np.nan], "n": [3, 4],
                          "ok": [True, False]}, index=pd.Index(["a", "b"], name="row"))
    frame.attrs["source"] = "test"
    wide = pd.DataFrame(rng.normal(size=(3, 4)), columns=pd.MultiIndex.from_product([["AP", "RP"], ["x", "y"]]))
    value = {
        "scores": rng.normal(size=(5, 3)), "pred": {"default": rng.integers(0, 2, (5, 3)).astype(np.uint8)},
        "n_warnings": 0, "seconds": 1.25, "big": 2**70, "inf": math.inf, "nan": math.nan, "none": None,
        "labels": ["a", "é", "\U0001f600"], "pair": (1, "x", 2.5), (1, 2): "tuple key", 3: b"\x00\xff",
        "X": X, "Xc": X.tocsc(), "coo": X.tocoo(), "sparse_array": sp.csr_array(X), "frame": frame,
        "wide": wide, "series": pd.Series([1.0, 2.0], index=pd.RangeIndex(2), name="s"),
        "strings": np.array(["a", "bb"]), "objects": np.array(["a", None, 3], dtype=object),
        "scalar": np.float32(1.5), "bool": np.bool_(True), "f32": np.arange(6, dtype=np.float32).reshape(2, 3),
        "fortran": np.asfortranarray(rng.normal(size=(3, 4))), "empty": np.zeros((0, 4)),
        "neighbours": NeighborDistances(rng.normal(size=(2, 3, 11)), 3),
    }
    assert encodable(value)
    assert_same(round_trip(value), value)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary()
    | hnp.arrays(hnp.scalar_dtypes(), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=4),
    max_leaves=12))
def test_any_nest_of_plain_values_and_arrays_round_trips(value):
    assert_same(round_trip(value), value)


@pytest.mark.parametrize("value", [{1, 2}, object(), lambda: 1, pd.Categorical(["a"]),
                                   np.array([(1, 2.0)], dtype=[("a", "i4"), ("b", "f8")])])
def test_what_the_format_cannot_hold_is_named(value):
    assert not encodable(value)
    with pytest.raises(EntryError):
        write_entry(value, io.BytesIO())


def test_a_file_that_is_not_an_entry_is_refused_without_running_anything(tmp_path):
    class Planted:
        def __reduce__(self):
            return (exec, ("raise SystemExit('ran')",))

    for data, message in ((pickle.dumps(Planted()), "not a labelrank cache entry"),
                          (MAGIC + (10**6).to_bytes(8, "little") + b"{}", "header runs past its end"),
                          (MAGIC + (2).to_bytes(8, "little") + b"{x", "not a well-formed description")):
        with pytest.raises(EntryError, match=message):
            read_entry(data)
    # a header naming a class outside the library, or an object dtype, is refused
    def entry(value_node) -> bytes:
        header = json.dumps({"value": value_node, "offsets": []}).encode()
        return MAGIC + len(header).to_bytes(8, "little") + header

    for module, name in (("os", "system"), ("labelrank_os.features", "NeighborDistances"),
                         ("labelrank.features", "MetaLevelFeatures")):
        with pytest.raises(EntryError, match="outside labelrank|is not a dataclass"):
            read_entry(entry({"t": "dataclass", "module": module, "name": name, "v": {}}))
    buf = io.BytesIO()
    write_entry(np.zeros(3), buf)
    with pytest.raises(EntryError, match="dtype object"):
        read_entry(buf.getvalue().replace(b'"dtype":"<f8"', b'"dtype":"|O8"'))


def test_memory_mapped_reading(tmp_path):
    values = {"a": np.arange(1000.0).reshape(10, 100), "b": [np.arange(3)]}
    path = tmp_path / "entry"
    with open(path, "wb") as fh:
        write_entry(values, fh)
    got = read_entry_file(path, mmap_mode="r")
    assert isinstance(got["a"].base, np.memmap) or isinstance(got["a"], np.memmap)
    assert not got["a"].flags.writeable
    assert_same(np.asarray(got["a"]).copy(), values["a"])
    plain = read_entry_file(path)
    assert plain["a"].flags.writeable and plain["a"].flags.c_contiguous
