"""A disk cache of results keyed on what a result depends on, never on where the code that computes it lives.

:class:`ResultCache` wraps a function ``func(*args)``. A call is stored in the folder
``root / name / <hash of the arguments>``, where ``name`` is a stable name for *what* is computed
("cv_point", "meta_features", ...) chosen by the caller, and the hash covers the arguments that decide the result
(the caller lists the others in ``ignore``: a protocol object, a thread count). The arguments carry the explicit
versions of the code that computes the result (the experiments' :func:`~labelrank.protocol.code_version`, the
parsers' version of :mod:`labelrank.datasets`); the function's module,
name and source text are *not* part of the key, so moving or refactoring the code keeps every entry (this is where
:class:`joblib.Memory`, which keys on the function's module and checks its source, would start afresh).

An entry is data, not code: ``output.lrc`` holds the result as a JSON description and raw arrays
(:mod:`labelrank._entries`: numbers, strings, containers, numpy arrays, sparse matrices, pandas tables and the
library's dataclasses), read without unpickling anything. A result of any other type is kept as ``output.pkl``
(joblib's pickle), the one form that could run code when loaded.

Every entry is authenticated: beside it lies ``output.hmac``, the HMAC-SHA256 of the entry's name, key and bytes
under a key of the user's, kept outside any cache folder (:func:`cache_key`: ``$LABELRANK_CACHE_KEY_FILE``, by
default ``~/.config/labelrank/cache-key``, readable by its owner alone). The HMAC is checked on the very bytes that
are then decoded, before anything is decoded or unpickled; an entry that does not match (changed on disk, damaged,
copied from another entry, written under another key, or without an HMAC at all) is computed again, with a warning
that names it. So a wrong or planted file is never used and never runs code. Users who share a cache folder share
its entries only if they share the key file, and then trust each other.

A result is written to a temporary file of its own and then renamed into place (``os.replace``), so a reader
sees a whole entry or none, whatever happens to the writer (an exception, SIGINT, SIGKILL), and two processes
computing the same entry do not disturb each other. An entry that cannot be read (truncated by a full disk, say)
is computed again and replaced.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import io
import os
import secrets
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import joblib

import numpy as np

from labelrank._entries import encodable, read_entry, write_entry
from labelrank.paths import replaced_atomically

__all__ = ["ResultCache", "cache_key", "key_file"]

#: The files an entry may be stored in, data first; ``output.hmac`` authenticates whichever is present.
ENTRY_FILES = ("output.lrc", "output.pkl")

_KEYS: dict[Path, bytes] = {}


def key_file() -> Path:
    """Where the user's cache key is: ``$LABELRANK_CACHE_KEY_FILE``, else ``$XDG_CONFIG_HOME/labelrank/cache-key``
    (``~/.config/labelrank/cache-key``).

    Examples
    --------
    >>> key_file().name
    'cache-key'
    """
    env = os.environ.get("LABELRANK_CACHE_KEY_FILE")
    if env:
        return Path(env).expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "labelrank" / "cache-key"


def cache_key() -> bytes:
    """The user's key for the cache entries' HMACs (32 random bytes), created on first use with mode 0600.

    Where the key file cannot be made (a read-only home), a key for this process alone is used, with a warning:
    its entries are then computed again by the next process, never trusted without a key.

    Examples
    --------
    >>> len(cache_key()), cache_key() == cache_key()
    (32, True)
    """
    path = key_file()
    if path in _KEYS:
        return _KEYS[path]
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.part")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_bytes(32))
            try:
                os.link(tmp, path)  # fails if another process made the key meanwhile: then that one is the key
            except FileExistsError:
                pass
            finally:
                tmp.unlink(missing_ok=True)
            key = path.read_bytes()
        except OSError as exc:
            warnings.warn(f"the cache key {path} cannot be made ({exc.strerror or exc}); cache entries written now "
                          "are trusted by this process only. Set LABELRANK_CACHE_KEY_FILE to a writable place",
                          RuntimeWarning, stacklevel=3)
            key = secrets.token_bytes(32)
    if len(key) < 16:
        raise ValueError(f"the cache key {path} holds {len(key)} bytes, fewer than 16: remove it to make a new one")
    _KEYS[path] = key
    return key


def _digest(label: str, data: bytes | bytearray | np.ndarray) -> str:
    """The HMAC-SHA256 (hex) of an entry's label (its name and key) and bytes under :func:`cache_key`."""
    mac = hmac.new(cache_key(), digestmod=hashlib.sha256)
    mac.update(label.encode("utf-8") + b"\0")
    view = memoryview(data).cast("B")
    for start in range(0, len(view), 1 << 24):
        mac.update(view[start : start + (1 << 24)])
    return mac.hexdigest()


class ResultCache:
    """``func(*args)``, computed once and kept on disk under a stable name.

    Parameters
    ----------
    func : callable
        A module-level function (it is pickled to joblib's workers with the cache).
    name : str
        What ``func`` computes, e.g. ``"cv_point"``: the folder of its entries. Keep it when the code moves;
        change it (or a version among the arguments) when the meaning of the result changes.
    root : path-like
        The cache folder.
    ignore : sequence of str
        Parameters of ``func`` that do not decide the result (left out of the key).
    mmap_mode : {None, "r"}
        ``"r"``: numpy arrays of a cached result are memory-mapped instead of read into memory.

    Examples
    --------
    >>> import tempfile
    >>> cached = ResultCache(divmod, "divmod", root=tempfile.mkdtemp())
    >>> cached(7, 2), cached.check_call_in_cache(7, 2), cached.check_call_in_cache(8, 2)
    ((3, 1), True, False)
    """

    def __init__(self, func: Callable[..., Any], name: str, *, root: str | os.PathLike,
                 ignore: Sequence[str] = (), mmap_mode: str | None = None) -> None:
        if not callable(func):
            raise TypeError(f"func must be callable, got {type(func).__name__}")
        if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
            raise ValueError(f"name must be a non-empty folder name, got {name!r}")
        if mmap_mode not in (None, "r"):
            raise ValueError(f"mmap_mode must be None or 'r', got {mmap_mode!r}")
        self.func, self.name, self.root, self.mmap_mode = func, name, Path(root), mmap_mode
        try:
            params = list(inspect.signature(func).parameters)
        except (TypeError, ValueError):  # builtins without a signature: keep every argument
            params = []
        unknown = [p for p in ignore if p not in params]
        if unknown:
            raise ValueError(f"ignore names {unknown}, which are not parameters of {getattr(func, '__name__', func)}")
        self._ignored = {params.index(p) for p in ignore}
        self._ignored_names = set(ignore)

    def key(self, *args: Any, **kwargs: Any) -> str:
        """The hash of the arguments that decide the result (joblib's hash of their pickled form)."""
        kept = [a for i, a in enumerate(args) if i not in self._ignored]
        named = sorted((k, v) for k, v in kwargs.items() if k not in self._ignored_names)
        return joblib.hash([self.name, kept, named])

    def folder(self, *args: Any, **kwargs: Any) -> Path:
        """The folder of the entry of ``func(*args, **kwargs)``."""
        key = self.key(*args, **kwargs)
        return self.root / self.name / key[:2] / key

    def path(self, *args: Any, **kwargs: Any) -> Path:
        """The file that holds (or will hold) the result of ``func(*args, **kwargs)``: ``output.lrc`` unless a
        pickle, ``output.pkl``, is there instead."""
        folder = self.folder(*args, **kwargs)
        pickled = folder / ENTRY_FILES[1]
        return pickled if pickled.is_file() and not (folder / ENTRY_FILES[0]).is_file() else folder / ENTRY_FILES[0]

    def check_call_in_cache(self, *args: Any, **kwargs: Any) -> bool:
        """Whether ``func(*args, **kwargs)`` is stored (with its HMAC; the HMAC is checked when it is read)."""
        folder = self.folder(*args, **kwargs)
        return (folder / "output.hmac").is_file() and any((folder / f).is_file() for f in ENTRY_FILES)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        folder = self.folder(*args, **kwargs)
        label = f"{self.name}/{folder.name}"
        for stored in ENTRY_FILES:
            path = folder / stored
            if not path.is_file():
                continue
            try:
                data = self._read(path)
                if not self._authentic(folder, label, data):
                    warnings.warn(f"the cache entry {path} does not match its HMAC (changed on disk, damaged, copied "
                                  "or written under another key): it is computed again, never read", RuntimeWarning,
                                  stacklevel=2)
                    break
                if stored == "output.lrc":
                    return read_entry(data)
                return joblib.load(io.BytesIO(bytes(data)), mmap_mode=None)
            except Exception:  # noqa: BLE001 - a damaged entry fails in many ways: computed again, replaced
                break
        value = self.func(*args, **kwargs)
        folder.mkdir(parents=True, exist_ok=True)
        stored = ENTRY_FILES[0] if encodable(value) else ENTRY_FILES[1]
        with replaced_atomically(folder / stored) as tmp:
            with open(tmp, "wb") as fh:
                if stored == "output.lrc":
                    write_entry(value, fh)
                else:
                    joblib.dump(value, fh)
            tag = _digest(label, self._read(tmp))
        with replaced_atomically(folder / "output.hmac") as tmp:  # after the entry: a crash between the
            tmp.write_text(tag + "\n", encoding="ascii")  # two leaves an entry that does not match, so not read
        for other in ENTRY_FILES:
            if other != stored:
                (folder / other).unlink(missing_ok=True)
        if self.mmap_mode:
            return read_entry(self._read(folder / stored)) if stored == "output.lrc" else value
        return value

    def _read(self, path: Path) -> bytearray | np.ndarray:
        """The file's bytes: memory-mapped (read-only) for an entry of a cache with ``mmap_mode="r"``."""
        if self.mmap_mode and path.name != ENTRY_FILES[1] and path.stat().st_size:
            return np.memmap(path, dtype=np.uint8, mode="r")
        with open(path, "rb") as fh:
            return bytearray(fh.read())

    @staticmethod
    def _authentic(folder: Path, label: str, data: bytes | bytearray | np.ndarray) -> bool:
        """Whether the entry's bytes (the very bytes then decoded) match its HMAC under the user's key."""
        try:
            tag = (folder / "output.hmac").read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return False
        return hmac.compare_digest(tag, _digest(label, data))
