"""Cache entries in a data format that cannot run code when read: a JSON description followed by raw arrays.

An entry file is ``MAGIC``, the length of a JSON header (8 bytes, little-endian), the header, and the bytes of
every array it holds, each at an offset aligned to 64 bytes. The header describes the value as a tree of plain
JSON nodes: numbers, strings, lists, tuples, dicts (any of these as keys), numpy arrays and scalars of a fixed-size
dtype, scipy sparse matrices and arrays, pandas ``Index``, ``RangeIndex``, ``MultiIndex``, ``Series`` and
``DataFrame`` with such columns, and dataclasses defined in :mod:`labelrank` (named in the header; only a class
found under ``labelrank.`` and decorated as a dataclass is rebuilt, from its fields). Reading parses the JSON and
views the array bytes (``numpy.frombuffer`` or, with ``mmap_mode="r"``, ``numpy.memmap``); nothing is unpickled,
no code named by the file is run, and an array's dtype is never ``object``.

:func:`encodable` tells whether a value fits; :mod:`labelrank.cache` stores one that does not as an authenticated
pickle (its HMAC checked before it is loaded).

Examples
--------
>>> import io, numpy as np
>>> buf = io.BytesIO()
>>> write_entry({"scores": np.arange(3.0), "names": ("a", "b"), 1: None}, buf)
>>> read_entry(buf.getvalue())
{'scores': array([0., 1., 2.]), 'names': ('a', 'b'), 1: None}
>>> import pickle
>>> read_entry(pickle.dumps(print))  # a pickle is not an entry: refused, never loaded
Traceback (most recent call last):
...
labelrank._entries.EntryError: not a labelrank cache entry (its first bytes differ)
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import os
import sys
from typing import Any, BinaryIO

import numpy as np

__all__ = ["MAGIC", "EntryError", "encodable", "read_entry", "read_entry_file", "write_entry"]

#: The first bytes of every entry file (format version 1).
MAGIC = b"LRCACHE1"
_ALIGN = 64
#: pandas' extension dtypes a column may have, by name (their values are stored one by one and the dtype rebuilt
#: from its name: no categories, no Python objects).
_EXTENSION_DTYPES = frozenset({"str", "string", "boolean", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16",
                               "UInt32", "UInt64", "Float32", "Float64"})


class EntryError(ValueError):
    """A value that this format cannot hold, or a file that is not a well-formed entry."""


# ------------------------------------------------------------------------------------------------------ encoding

class _Encoder:
    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []

    def array(self, arr: np.ndarray) -> dict:
        if arr.dtype.hasobject or arr.dtype.fields is not None:
            raise EntryError(f"an array of dtype {arr.dtype} (Python objects or fields) is not held as data")
        self.arrays.append(np.ascontiguousarray(arr))
        return {"t": "nd", "i": len(self.arrays) - 1, "dtype": arr.dtype.str, "shape": list(arr.shape)}

    def node(self, value: Any) -> Any:  # noqa: C901 - one branch per type
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int) and type(value) is int:
            return value if abs(value) < 2**53 else {"t": "int", "v": str(value)}
        if type(value) is float:
            return value if math.isfinite(value) else {"t": "float", "v": repr(value)}
        if type(value) is bytes:
            return {"t": "bytes", "v": value.hex()}
        if type(value) is list:
            return [self.node(v) for v in value]
        if type(value) is tuple:
            return {"t": "tuple", "v": [self.node(v) for v in value]}
        if type(value) is dict:
            return {"t": "dict", "v": [[self.node(k), self.node(v)] for k, v in value.items()]}
        if isinstance(value, np.ndarray) and type(value) in (np.ndarray, np.memmap):
            if value.dtype.hasobject:
                return {"t": "objarray", "shape": list(value.shape), "v": [self.node(v) for v in value.ravel().tolist()]}
            return self.array(value)
        if isinstance(value, np.generic):
            if value.dtype.hasobject:
                raise EntryError(f"a numpy scalar of dtype {value.dtype}")
            return {"t": "np", "v": self.array(np.asarray(value))}
        if "scipy.sparse" in sys.modules and sys.modules["scipy.sparse"].issparse(value):
            return self.sparse(value)
        if "pandas" in sys.modules:
            pandas_node = self.pandas(value, sys.modules["pandas"])
            if pandas_node is not None:
                return pandas_node
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            cls = type(value)
            if not cls.__module__.startswith("labelrank.") or "<locals>" in cls.__qualname__:
                raise EntryError(f"a dataclass from outside labelrank ({cls.__module__}.{cls.__qualname__})")
            fields = {f.name: self.node(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
            return {"t": "dataclass", "module": cls.__module__, "name": cls.__qualname__, "v": fields}
        raise EntryError(f"a value of type {type(value).__module__}.{type(value).__qualname__}")

    def sparse(self, value: Any) -> dict:
        fmt = value.format
        kind = "array" if type(value).__name__.endswith("_array") else "matrix"
        if fmt in ("csr", "csc"):
            parts = {"data": value.data, "indices": value.indices, "indptr": value.indptr}
        elif fmt == "coo":
            parts = {"data": value.data, "row": value.row, "col": value.col}
        else:
            value = value.tocsr()
            fmt = "csr"
            parts = {"data": value.data, "indices": value.indices, "indptr": value.indptr}
        return {"t": "sparse", "format": fmt, "kind": kind, "shape": list(value.shape),
                "sorted": bool(getattr(value, "has_sorted_indices", False)),
                "v": {k: self.array(np.asarray(v)) for k, v in parts.items()}}

    def pandas(self, value: Any, pd: Any) -> dict | None:
        if isinstance(value, pd.RangeIndex):
            return {"t": "range", "v": [value.start, value.stop, value.step], "name": self.node(value.name)}
        if isinstance(value, pd.MultiIndex):
            return {"t": "multiindex", "levels": [self.node(value.get_level_values(i)) for i in range(value.nlevels)],
                    "names": [self.node(n) for n in value.names]}
        if isinstance(value, pd.Index):
            return {"t": "index", "v": self.column(value.to_numpy(), value.dtype), "name": self.node(value.name)}
        if isinstance(value, pd.Series):
            return {"t": "series", "v": self.column(value.to_numpy(), value.dtype), "index": self.node(value.index),
                    "name": self.node(value.name)}
        if isinstance(value, pd.DataFrame):
            if value.columns.has_duplicates:
                raise EntryError("a DataFrame with repeated column labels")
            return {"t": "frame", "columns": self.node(value.columns), "index": self.node(value.index),
                    "v": [self.column(value[c].to_numpy(), value[c].dtype) for c in value.columns],
                    "attrs": self.node(dict(value.attrs))}
        return None

    def column(self, values: np.ndarray, dtype: Any) -> dict:
        if not isinstance(dtype, np.dtype):
            name = str(dtype)
            if name not in _EXTENSION_DTYPES:
                raise EntryError(f"a pandas column of dtype {dtype}")
            return {"t": "extcol", "dtype": name, "v": [self.node(v) for v in values.tolist()]}
        if values.dtype.hasobject:
            return {"t": "objcol", "v": [self.node(v) for v in values.tolist()]}
        return {"t": "col", "v": self.array(values)}


def encodable(value: Any) -> bool:
    """Whether :func:`write_entry` can hold ``value``.

    Examples
    --------
    >>> encodable({"a": [1, 2.5, "x"]}), encodable(object())
    (True, False)
    """
    try:
        _Encoder().node(value)
    except (EntryError, RecursionError):
        return False
    return True


def write_entry(value: Any, fh: BinaryIO) -> None:
    """Write ``value`` to the open binary file ``fh`` (raises :class:`EntryError` for a value it cannot hold)."""
    enc = _Encoder()
    try:
        tree = enc.node(value)
    except RecursionError as exc:
        raise EntryError("a value nested too deeply") from exc
    offsets, pos = [], 0
    for arr in enc.arrays:
        pos = -(-pos // _ALIGN) * _ALIGN
        offsets.append(pos)
        pos += arr.nbytes
    header = json.dumps({"value": tree, "offsets": offsets}, allow_nan=False, separators=(",", ":")).encode()
    start = -(-(len(MAGIC) + 8 + len(header)) // _ALIGN) * _ALIGN
    fh.write(MAGIC + len(header).to_bytes(8, "little") + header)
    fh.write(b"\0" * (start - len(MAGIC) - 8 - len(header)))
    written = 0
    for arr, off in zip(enc.arrays, offsets):
        fh.write(b"\0" * (off - written))
        fh.write(arr.reshape(-1).view(np.uint8).data if arr.nbytes else b"")
        written = off + arr.nbytes


# ------------------------------------------------------------------------------------------------------ decoding

class _Decoder:
    def __init__(self, buffer: np.ndarray, offsets: list[int], start: int) -> None:
        self.buffer, self.offsets, self.start = buffer, offsets, start

    def array(self, node: dict) -> np.ndarray:
        dtype = np.dtype(node["dtype"])
        if dtype.hasobject or dtype.fields is not None:
            raise EntryError(f"an array of dtype {dtype}")
        shape = tuple(int(s) for s in node["shape"])
        offset = self.start + int(self.offsets[node["i"]])
        nbytes = math.prod(shape) * dtype.itemsize
        if offset + nbytes > len(self.buffer):
            raise EntryError("an array runs past the end of the entry")
        # a view of the buffer: the entry's own bytes (a bytearray) or a read-only memory map of its file
        return self.buffer[offset : offset + nbytes].view(dtype).reshape(shape)

    def node(self, node: Any) -> Any:  # noqa: C901 - one branch per type
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if isinstance(node, list):
            return [self.node(v) for v in node]
        if not isinstance(node, dict) or "t" not in node:
            raise EntryError(f"an unknown node {str(node)[:80]!r}")
        t = node["t"]
        if t == "int":
            return int(node["v"])
        if t == "float":
            return float(node["v"])
        if t == "bytes":
            return bytes.fromhex(node["v"])
        if t == "tuple":
            return tuple(self.node(v) for v in node["v"])
        if t == "dict":
            return {self.node(k): self.node(v) for k, v in node["v"]}
        if t == "nd":
            return self.array(node)
        if t == "objarray":
            out = np.empty(len(node["v"]), dtype=object)
            out[:] = [self.node(v) for v in node["v"]]
            return out.reshape(tuple(node["shape"]))
        if t == "np":
            return self.array(node["v"])[()]
        if t == "sparse":
            return self.sparse(node)
        if t in ("range", "multiindex", "index", "series", "frame"):
            return self.pandas(node)
        if t == "dataclass":
            return self.dataclass(node)
        raise EntryError(f"an unknown node type {t!r}")

    def sparse(self, node: dict) -> Any:
        import scipy.sparse as sp

        parts = {k: self.array(v) for k, v in node["v"].items()}
        shape = tuple(node["shape"])
        fmt, kind = node["format"], node["kind"]
        if fmt not in ("csr", "csc", "coo") or kind not in ("array", "matrix"):
            raise EntryError(f"an unknown sparse format {fmt!r} ({kind})")
        cls = getattr(sp, f"{fmt}_{kind}")
        if fmt == "coo":
            return cls((parts["data"], (parts["row"], parts["col"])), shape=shape)
        out = cls((parts["data"], parts["indices"], parts["indptr"]), shape=shape)
        if node.get("sorted"):
            out.has_sorted_indices = True
        return out

    def pandas(self, node: dict) -> Any:
        import pandas as pd

        t = node["t"]
        if t == "range":
            return pd.RangeIndex(*node["v"], name=self.node(node["name"]))
        if t == "multiindex":
            return pd.MultiIndex.from_arrays([self.node(v) for v in node["levels"]],
                                             names=[self.node(n) for n in node["names"]])
        if t == "index":
            return pd.Index(self.column(node["v"]), name=self.node(node["name"]), tupleize_cols=False, copy=False)
        if t == "series":
            return pd.Series(self.column(node["v"]), index=self.node(node["index"]), name=self.node(node["name"]))
        columns = self.node(node["columns"])
        data = {i: self.column(v) for i, v in enumerate(node["v"])}
        frame = pd.DataFrame(data, index=self.node(node["index"]))
        frame.columns = columns
        frame.attrs.update(self.node(node["attrs"]))
        return frame

    def column(self, node: dict) -> np.ndarray:
        if node["t"] == "col":
            return self.array(node["v"])
        if node["t"] == "objcol":
            out = np.empty(len(node["v"]), dtype=object)
            out[:] = [self.node(v) for v in node["v"]]
            return out
        if node["t"] == "extcol" and node["dtype"] in _EXTENSION_DTYPES:
            import pandas as pd

            return pd.array([self.node(v) for v in node["v"]], dtype=node["dtype"])
        raise EntryError(f"an unknown column node {node['t']!r}")

    def dataclass(self, node: dict) -> Any:
        module, name = node["module"], node["name"]
        if not isinstance(module, str) or not module.startswith("labelrank.") or "<" in name:
            raise EntryError(f"a dataclass from outside labelrank ({module}.{name})")
        cls: Any = importlib.import_module(module)
        for part in name.split("."):
            cls = getattr(cls, part)
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise EntryError(f"{module}.{name} is not a dataclass")
        return cls(**{k: self.node(v) for k, v in node["v"].items()})


def read_entry(data: bytes | bytearray | np.ndarray) -> Any:
    """The value held by the entry bytes ``data``: a ``bytearray`` (its arrays are writable views of it), a
    ``numpy.memmap`` of ``uint8`` (read-only views of the file) or ``bytes`` (copied first)."""
    if isinstance(data, bytes):
        data = bytearray(data)
    buffer = data if isinstance(data, np.ndarray) else np.frombuffer(data, dtype=np.uint8)
    if buffer.dtype != np.uint8 or buffer.ndim != 1:
        raise EntryError("an entry is read from bytes")
    if len(buffer) < len(MAGIC) + 8 or buffer[: len(MAGIC)].tobytes() != MAGIC:
        raise EntryError("not a labelrank cache entry (its first bytes differ)")
    size = int.from_bytes(buffer[len(MAGIC) : len(MAGIC) + 8].tobytes(), "little")
    end = len(MAGIC) + 8 + size
    if end > len(buffer):
        raise EntryError("the entry's header runs past its end")
    try:
        header = json.loads(buffer[len(MAGIC) + 8 : end].tobytes())
        offsets, tree = header["offsets"], header["value"]
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise EntryError(f"the entry's header is not a well-formed description ({exc})") from exc
    start = -(-end // _ALIGN) * _ALIGN
    return _Decoder(buffer, offsets, start).node(tree)


def read_entry_file(path: str | os.PathLike, mmap_mode: str | None = None) -> Any:
    """The value held by the entry file ``path``; with ``mmap_mode="r"`` its arrays are read-only memory maps."""
    if mmap_mode == "r":
        return read_entry(np.memmap(path, dtype=np.uint8, mode="r"))
    with open(path, "rb") as fh:
        return read_entry(bytearray(fh.read()))
