"""A disk cache of results keyed on what a result depends on, never on where the code that computes it lives.

:class:`ResultCache` wraps a function ``func(*args)``. A call is stored under
``root / name / <hash of the arguments> / output.pkl``, where ``name`` is a stable name for *what* is computed
("cv_point", "meta_features", ...) chosen by the caller, and the hash covers the arguments that decide the result
(the caller lists the others in ``ignore``: a protocol object, a thread count). The arguments carry the explicit
versions of the code that computes the result (the experiments' :func:`~labelrank.protocol.code_version`, the
parsers' version of :mod:`labelrank.datasets`); the function's module,
name and source text are *not* part of the key, so moving or refactoring the code keeps every entry (this is where
:class:`joblib.Memory`, which keys on the function's module and checks its source, would start afresh).

A result is written to a temporary file of its own and then renamed into place (``os.replace``), so a reader
sees a whole entry or none, whatever happens to the writer (an exception, SIGINT, SIGKILL), and two processes
computing the same entry do not disturb each other. An entry that cannot be read (truncated by a full disk, say)
is computed again and replaced.

Every entry is authenticated: beside ``output.pkl`` lies ``output.hmac``, the HMAC-SHA256 of its bytes under a
key of the user's, kept outside any cache folder (:func:`cache_key`: ``$LABELRANK_CACHE_KEY_FILE``, by default
``~/.config/labelrank/cache-key``, readable by its owner alone). An entry is unpickled only when its HMAC matches;
one that does not (changed on disk, damaged, written under another key, or without an HMAC at all) is
computed again, with a warning that names it. So a wrong or planted file is never used and never
runs code: a pickle can execute code when loaded, and only someone who holds the key can make one that is loaded.
Users who share a cache folder share its entries only if they share the key file, and then trust each other.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import os
import secrets
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import joblib

from labelrank._paths import replaced_atomically

__all__ = ["ResultCache", "cache_key", "key_file"]

_KEYS: dict[Path, bytes] = {}


def key_file() -> Path:
    """Where the user's cache key is: ``$LABELRANK_CACHE_KEY_FILE``, else ``$XDG_CONFIG_HOME/labelrank/cache-key``
    (``~/.config/labelrank/cache-key``)."""
    env = os.environ.get("LABELRANK_CACHE_KEY_FILE")
    if env:
        return Path(env).expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "labelrank" / "cache-key"


def cache_key() -> bytes:
    """The user's key for the cache entries' HMACs (32 random bytes), created on first use with mode 0600.

    Where the key file cannot be made (a read-only home), a key for this process alone is used, with a warning:
    its entries are then computed again by the next process, never trusted without a key.
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


def _digest(path: Path) -> str:
    """The HMAC-SHA256 (hex) of the file's bytes under :func:`cache_key`."""
    mac = hmac.new(cache_key(), digestmod=hashlib.sha256)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            mac.update(block)
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

    def path(self, *args: Any, **kwargs: Any) -> Path:
        """Where the result of ``func(*args, **kwargs)`` is (or will be) stored."""
        key = self.key(*args, **kwargs)
        return self.root / self.name / key[:2] / key / "output.pkl"

    def check_call_in_cache(self, *args: Any, **kwargs: Any) -> bool:
        """Whether ``func(*args, **kwargs)`` is stored (with its HMAC; the HMAC is checked when it is read)."""
        path = self.path(*args, **kwargs)
        return path.is_file() and path.with_name("output.hmac").is_file()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        path = self.path(*args, **kwargs)
        if path.is_file():
            if self._authentic(path):
                try:
                    return joblib.load(path, mmap_mode=self.mmap_mode)
                except Exception:  # noqa: BLE001 - a damaged entry fails in many ways: computed again, replaced
                    pass
            else:
                warnings.warn(f"the cache entry {path} does not match its HMAC (changed on disk, damaged, or written "
                              "under another key): it is computed again, never read", RuntimeWarning, stacklevel=2)
        value = self.func(*args, **kwargs)
        path.parent.mkdir(parents=True, exist_ok=True)
        with replaced_atomically(path) as tmp:
            joblib.dump(value, tmp)
            tag = _digest(tmp)
        with replaced_atomically(path.with_name("output.hmac")) as tmp:  # after the entry: a crash between the
            tmp.write_text(tag + "\n", encoding="ascii")  # two leaves an entry that does not match, so not read
        return joblib.load(path, mmap_mode=self.mmap_mode) if self.mmap_mode else value

    @staticmethod
    def _authentic(path: Path) -> bool:
        """Whether the entry's bytes match its HMAC under the user's key (read before anything is unpickled)."""
        try:
            tag = path.with_name("output.hmac").read_text(encoding="ascii").strip()
            return hmac.compare_digest(tag, _digest(path))
        except (OSError, UnicodeDecodeError):
            return False
