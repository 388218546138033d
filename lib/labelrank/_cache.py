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
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import joblib

from labelrank._paths import replaced_atomically

__all__ = ["ResultCache"]


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
        """Whether ``func(*args, **kwargs)`` is stored."""
        return self.path(*args, **kwargs).is_file()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        path = self.path(*args, **kwargs)
        if path.is_file():
            try:
                return joblib.load(path, mmap_mode=self.mmap_mode)
            except Exception:  # noqa: BLE001 - a damaged entry fails in many ways: computed again and replaced below
                pass
        value = self.func(*args, **kwargs)
        path.parent.mkdir(parents=True, exist_ok=True)
        with replaced_atomically(path) as tmp:
            joblib.dump(value, tmp)
        return joblib.load(path, mmap_mode=self.mmap_mode) if self.mmap_mode else value
