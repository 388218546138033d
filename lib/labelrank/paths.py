"""Where the project's files live: the checkout's ``data/`` folder and the download cache, and how a file is
replaced whole.

The library, the engine and the studies find the committed inputs (:func:`data_dir`: the papers' tables, the
reconstructed F-term tree, MULAN's outputs) and the git-ignored cache (:func:`cache_dir`: downloads, parsed data
sets, experiment results) here, and write files that others may read at the same time with
:func:`write_text_atomic`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["project_root", "installed_data_dir", "data_dir", "cache_dir", "unwritable_reason",
           "replaced_atomically", "write_text_atomic"]

_PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path | None:
    """The labelrank-book checkout this package was installed from (editable install), or None.

    Examples
    --------
    >>> root = project_root()
    >>> root is None or (root / "_toc.yml").is_file()
    True
    """
    for parent in _PACKAGE_DIR.parents:
        if (parent / "_toc.yml").is_file() and (parent / "data").is_dir():
            return parent
    return None


def installed_data_dir() -> Path:
    """Where an installed (non-editable) package keeps the committed data: ``<prefix>/share/labelrank/data``.

    Examples
    --------
    >>> installed_data_dir().parts[-3:]
    ('share', 'labelrank', 'data')
    """
    import sysconfig

    return Path(sysconfig.get_path("data")) / "share" / "labelrank" / "data"


def data_dir() -> Path:
    """The committed ``data/`` folder (paper tables, the reconstructed F-term tree, MULAN's outputs).

    The checkout's, for an editable install; else the copy the package installs (:func:`installed_data_dir`).

    Raises
    ------
    FileNotFoundError
        If neither holds the data.

    Examples
    --------
    >>> (data_dir() / "paper").is_dir()
    True
    """
    root = project_root()
    if root is not None:
        return root / "data"
    installed = installed_data_dir()
    if (installed / "paper").is_dir():
        return installed
    raise FileNotFoundError(
        f"labelrank's committed data (data/paper, data/fterm) is neither in a labelrank-book checkout nor at "
        f"{installed}; reinstall the package (`pip install labelrank`)"
    )


def cache_dir() -> Path:
    """Download cache: ``$LABELRANK_CACHE``, else the checkout's git-ignored ``data/raw``, else the OS cache.

    Examples
    --------
    >>> import os
    >>> os.environ.get("LABELRANK_CACHE") is not None or cache_dir().name in ("raw", "labelrank")
    True
    """
    env = os.environ.get("LABELRANK_CACHE")
    if env:
        return Path(env).expanduser()
    root = project_root()
    if root is not None:
        return root / "data" / "raw"
    from labelrank.optional import require

    pooch = require("pooch", "the download cache outside a checkout")

    return Path(pooch.os_cache("labelrank"))


def unwritable_reason(folder: Path) -> str | None:
    """Why files cannot be created in ``folder`` (made if missing), or None if they can.

    Tried, not inferred from permission bits: a read-only file system, a path through a regular file, or a folder
    the user may not write all show up here (``os.access`` says yes to root even on a read-only mount).

    Parameters
    ----------
    folder : pathlib.Path

    Examples
    --------
    >>> import tempfile
    >>> unwritable_reason(Path(tempfile.mkdtemp())) is None
    True
    """
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=folder, prefix=".write-test-")
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    return None


@contextmanager
def replaced_atomically(path: Path) -> Iterator[Path]:
    """A temporary path to write ``path``'s new content to; on leaving the block it replaces ``path`` whole.

    The temporary file is unique to this call and lives in ``path``'s folder (so ``os.replace`` is atomic): a reader
    sees the old file or the new one, never a part of either, two writers never write into each other's file, and
    an exception or an interrupt inside the block leaves ``path`` as it was and the temporary file removed. The
    new file is an ordinary readable file (mode 0644).

    Parameters
    ----------
    path : pathlib.Path
        The file to replace (or create).

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.txt"
    >>> with replaced_atomically(target) as tmp:
    ...     _ = tmp.write_text("new")
    >>> target.read_text()
    'new'
    """
    import tempfile

    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".part")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new one (:func:`replaced_atomically`).

    Parameters
    ----------
    path : pathlib.Path
    text : str

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.txt"
    >>> write_text_atomic(target, "hello")
    >>> target.read_text()
    'hello'
    """
    with replaced_atomically(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
