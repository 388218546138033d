"""What a cached result of the engine is keyed on, besides its inputs: explicit versions, never where the code
lives; and the cache of the engine's tasks (:class:`labelrank.cache.ResultCache` under
``cache_dir()/"experiments"``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from labelrank.cache import ResultCache
from labelrank.paths import cache_dir
from labelrank.datasets.download import PARSE_VERSION
from labelrank.protocol.settings import MethodSpec

#: The version of everything the engine computes for every method: the data preparation (rescaling, subsamples,
#: folds), the meta-level features, the thresholds and the metrics. Part of every cache key, with the data parsers'
#: version, the versions of the numerical libraries and, for a method's results, :attr:`MethodSpec.version`. Bump
#: it (or the method's version) when a change moves a number; the golden test of the quick profile's results
#: table (tests/engine/test_protocol_golden.py) fails until the change is acknowledged that way. Moving or refactoring
#: code without changing a number leaves every key, and so the cache, as it is.
ENGINE_VERSION = 2


@lru_cache(maxsize=1)
def _library_versions() -> str:
    """The versions of the libraries whose arithmetic the cached numbers depend on."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("numpy", "scipy", "scikit-learn", "numba", "lightgbm"):
        try:
            found.append(f"{name}={version(name)}")
        except PackageNotFoundError:  # pragma: no cover - all are dependencies
            found.append(f"{name}=none")
    return hashlib.sha256(",".join(found).encode()).hexdigest()[:8]


def code_version(spec: MethodSpec | None = None) -> str:
    """The explicit versions that, besides a task's inputs, decide its cached result.

    ``engine<ENGINE_VERSION>-data<parser version>-lib<hash of numpy, scipy, scikit-learn, numba and LightGBM
    versions>``, followed by ``-<method>v<MethodSpec.version>`` and the method's fixed settings
    (:attr:`MethodSpec.fixed`, e.g. ``-distance='weka'``) for a method's results. No file name or source text
    enters it: a behaviour-preserving move or refactor keeps the cache.

    Parameters
    ----------
    spec : MethodSpec, optional
        The method whose results are keyed; None for what every result shares.

    Examples
    --------
    >>> code_version().startswith(f"engine{ENGINE_VERSION}-data")
    True
    >>> code_version(MethodSpec("MLC-ListNet", "ranker", "listnet", ())).endswith("-MLC-ListNetv1")
    True
    >>> code_version(MethodSpec("ML-kNN", "baseline", "MLkNN", (), fixed=(("distance", "weka"),))).endswith(
    ...     "-ML-kNNv1-distance='weka'")
    True
    """
    base = f"engine{ENGINE_VERSION}-data{PARSE_VERSION}-lib{_library_versions()}"
    if spec is None:
        return base
    fixed = "".join(f"-{name}={value!r}" for name, value in spec.fixed)
    return f"{base}-{spec.name}v{spec.version}{fixed}"


def task_cache(func: Callable[..., Any], name: str, ignore: Sequence[str] = ("proto", "threads"),
               mmap: bool = False) -> ResultCache:
    """``func`` cached under ``cache_dir()/"experiments"/name``, keyed on its arguments less ``ignore``.

    A task function takes what decides its result as arguments (the data set, :meth:`Protocol.data_key`, the
    method, :func:`params_key` of its configuration, the fold, :func:`code_version`), then the protocol and the
    thread count, which the key ignores; ``mmap``: arrays of the entry are memory-mapped when read.

    Parameters
    ----------
    func : callable
        The task function.
    name : str
        The cache folder's name under ``experiments``.
    ignore : sequence of str
        Arguments left out of the key.
    mmap : bool
        Memory-map the arrays of an entry when reading it.
    """
    return ResultCache(func, name, root=cache_dir() / "experiments", ignore=ignore, mmap_mode="r" if mmap else None)


def params_key(params: dict[str, Any]) -> tuple:
    """A configuration as it enters a cache key: its (name, value) pairs sorted by name, numpy scalars as Python's.

    Parameters
    ----------
    params : dict
        A configuration: parameter name -> value.

    Examples
    --------
    >>> import numpy as np
    >>> params_key({"k": np.int64(30), "C": 0.5})
    (('C', 0.5), ('k', 30))
    """
    import numpy as np

    return tuple(sorted((str(k), v.item() if isinstance(v, np.generic) else v) for k, v in params.items()))
