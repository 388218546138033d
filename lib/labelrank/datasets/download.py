"""Obtaining and verifying the files of a data set: from the mirror folder named by ``LABELRANK_DATA``, else by
download into the cache, every file checked against its sha256; and the cache of parsed data sets."""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Sequence
from pathlib import Path

from labelrank.cache import ResultCache
from labelrank.optional import require
from labelrank.paths import cache_dir, replaced_atomically, unwritable_reason
from labelrank.datasets.registry import (
    _MIRROR_HINT,
    REGISTRY,
    ChecksumError,
    DataUnavailableError,
    _dataset,
)

# --------------------------------------------------------------------------------------------------------------
# Obtaining and verifying files
# --------------------------------------------------------------------------------------------------------------

# (resolved path, size, mtime_ns) -> sha256: hashing 40 MB once per process is enough.
_HASH_MEMO: dict[tuple[str, int, int], str] = {}


def _sha256(path: Path) -> str:
    """sha256 of a file, memoized per process on (path, size, mtime)."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _HASH_MEMO:
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
        _HASH_MEMO[key] = digest.hexdigest()
    return _HASH_MEMO[key]


def verify(path: str | os.PathLike, expected: str | Sequence[str]) -> str:
    """Check that the file ``path`` has (one of) the sha256 ``expected``; return its sha256.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ChecksumError
        If the hash differs; the message names the file, the expected and the actual sha256.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    expected : str or sequence of str
        The sha256 (hex digest) it must have, or several accepted ones.

    Returns
    -------
    str
        The file's sha256.

    Examples
    --------
    >>> import hashlib, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "file.txt")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b"abc")
    >>> verify(path, hashlib.sha256(b"abc").hexdigest()) == hashlib.sha256(b"abc").hexdigest()
    True
    >>> from labelrank.datasets.registry import ChecksumError
    >>> try:
    ...     verify(path, "0" * 64)
    ... except ChecksumError as exc:
    ...     print(str(exc).split(":")[0], "...")
    sha256 mismatch for ... ...
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"data file not found: {path}")
    accepted = (expected,) if isinstance(expected, str) else tuple(expected)
    actual = _sha256(path)
    if actual not in accepted:
        raise ChecksumError(
            f"sha256 mismatch for {path} ({path.stat().st_size} bytes): expected "
            f"{' or '.join(accepted)}, got {actual}; the file is corrupt, truncated or another version"
        )
    return actual


def _mirror_root() -> Path | None:
    value = os.environ.get("LABELRANK_DATA", "").strip()
    return Path(value).expanduser() if value else None


def _download(url: str, dest: Path, accepted: Sequence[str]) -> None:
    """Download ``url`` to ``dest`` through a temporary file; ``dest`` appears only once its sha256 is verified.

    The temporary file ``<dest.name>.<random>.part`` is unique to this call and is deleted on every path out (success,
    download error, checksum error, interrupt).
    """
    pooch = require("pooch", "downloading a data set")
    requests = require("requests", "downloading a data set")

    with replaced_atomically(dest) as tmp:  # dest appears only if the block ends without an exception
        downloader = pooch.HTTPDownloader(progressbar=False, timeout=60)
        try:
            downloader(url, str(tmp), None)
        except (requests.RequestException, OSError) as exc:
            raise DataUnavailableError(
                f"could not download {dest.name} from {url}: {exc.__class__.__name__}: {exc}. {_MIRROR_HINT}"
            ) from exc
        try:
            verify(tmp, accepted)
        except ChecksumError as exc:
            raise ChecksumError(
                f"downloaded {dest.name} from {url} failed verification and was deleted: {exc}"
            ) from None


def fetch(name: str, *, base_url: str | None = None) -> Path:
    """Obtain and sha256-verify every file of a data set; return the folder holding them.

    With ``LABELRANK_DATA`` set, the files are read in place from ``$LABELRANK_DATA/<folder>/`` (no copy). Else
    they are downloaded into ``cache_dir()/<folder>/`` (files already there and verified are kept).

    Parameters
    ----------
    name : str
        A key of ``REGISTRY``.
    base_url : str, optional
        Download ``<base_url>/<folder>/<file>`` instead of each file's registered origin URL (the environment
        variable ``LABELRANK_BASE_URL`` does the same); used to test the download path against a local server.

    Returns
    -------
    pathlib.Path
        The folder with the verified files.

    Raises
    ------
    UnknownDatasetError
        If ``name`` is not registered (a ``KeyError`` and a ``ValueError``); the message lists the known names.
    ChecksumError
        If a file's sha256 is not the registered one. A downloaded file that fails is deleted.
    FileNotFoundError
        If ``LABELRANK_DATA`` is set but a file is missing there.
    DataUnavailableError
        If a download fails (no network); the message explains how to set ``LABELRANK_DATA``.

    Examples
    --------
    >>> folder = fetch("emotions")
    >>> (folder / "emotions-train.arff").is_file()
    True
    """
    ds = _dataset(name)
    mirror = _mirror_root()
    if mirror is not None:
        folder = mirror / ds.folder
        for f in ds.files:
            path = folder / f.path
            if not path.is_file():
                raise FileNotFoundError(
                    f"LABELRANK_DATA={str(mirror)!r} is set but {path} does not exist; the mirror must hold "
                    f"{ds.folder}/{f.path} (or unset LABELRANK_DATA to download into {cache_dir()})"
                )
            verify(path, f.accepted)
        return folder

    base = base_url or os.environ.get("LABELRANK_BASE_URL", "").strip() or None
    folder = cache_dir() / ds.folder
    folder.mkdir(parents=True, exist_ok=True)
    for f in ds.files:
        path = folder / f.path
        if path.is_file():
            try:
                verify(path, f.accepted)
                continue
            except ChecksumError:
                path.unlink()  # a damaged cached copy is replaced by a fresh download
        url = f"{base.rstrip('/')}/{ds.folder}/{f.path}" if base else f.url
        _download(url, path, f.accepted)
    return folder


def _file_hashes(name: str) -> tuple[Path, tuple[str, ...]]:
    """Fetch ``name`` and return its folder and the sha256 of its files (the key of the parse cache)."""
    folder = fetch(name)
    ds = REGISTRY[name]
    return folder, tuple(_sha256(folder / f.path) for f in ds.files)


#: The version of the parsed arrays, part of every parsed-data and experiment cache key: raised whenever they
#: change (they hold Y as int64).
PARSE_VERSION = 2


def cached_parse(func, kind: str, name: str, *args):
    """Call ``func(folder, *args)``, cached under ``cache_dir()/"parsed"/kind`` (:class:`labelrank.cache.ResultCache`).

    The cache key is the data set's file hashes, ``PARSE_VERSION`` and ``args`` (passed on, with the keywords
    ``hashes`` and ``version`` that the parsers accept and ignore), not the folder nor where the parser's code
    lives, so the mirror and a download share one entry, a changed file is re-parsed and moving the code keeps the
    cache. ``kind`` names the parser ("mulan", "reuters", ...).

    If the cache folder cannot be written (a read-only or shared cache), the data set is parsed without caching,
    with a warning that names the folder: the data themselves come from the mirror or the download folder.

    Parameters
    ----------
    func : callable
        The parser, called as ``func(folder, *args, hashes=..., version=...)``.
    kind : str
        The parser's name, the cache's sub-folder.
    name : str
        The data set (a name of :data:`labelrank.datasets.REGISTRY`).
    *args
        Passed on to ``func`` and part of the key.
    """
    folder, hashes = _file_hashes(name)
    parsed = cache_dir() / "parsed"
    reason = unwritable_reason(parsed)
    if reason is not None:
        warnings.warn(f"the cache folder {parsed} cannot be written ({reason}); {name} is parsed without caching. "
                      "Set LABELRANK_CACHE to a writable folder to keep parsed data sets", RuntimeWarning,
                      stacklevel=3)
        return func(folder, *args, hashes=hashes, version=PARSE_VERSION)
    cached = ResultCache(func, kind, root=parsed, ignore=("folder",))
    return cached(folder, *args, hashes=hashes, version=PARSE_VERSION)
