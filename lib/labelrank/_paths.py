"""Where the project's files live: the checkout's ``data/`` folder and the download cache."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path | None:
    """The labelrank-book checkout this package was installed from (editable install), or None."""
    for parent in _PACKAGE_DIR.parents:
        if (parent / "_toc.yml").is_file() and (parent / "data").is_dir():
            return parent
    return None


def installed_data_dir() -> Path:
    """Where an installed (non-editable) package keeps the committed data: ``<prefix>/share/labelrank/data``."""
    import sysconfig

    return Path(sysconfig.get_path("data")) / "share" / "labelrank" / "data"


def data_dir() -> Path:
    """The committed ``data/`` folder (paper tables, the reconstructed F-term tree, MULAN's outputs).

    The checkout's, for an editable install; else the copy the package installs (:func:`installed_data_dir`).
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
    """Download cache: ``$LABELRANK_CACHE``, else the checkout's git-ignored ``data/raw``, else the OS cache."""
    env = os.environ.get("LABELRANK_CACHE")
    if env:
        return Path(env).expanduser()
    root = project_root()
    if root is not None:
        return root / "data" / "raw"
    from labelrank._optional import require

    pooch = require("pooch", "the download cache outside a checkout")

    return Path(pooch.os_cache("labelrank"))


def unwritable_reason(folder: Path) -> str | None:
    """Why files cannot be created in ``folder`` (made if missing), or None if they can.

    Tried, not inferred from permission bits: a read-only file system, a path through a regular file, or a folder
    the user may not write all show up here (``os.access`` says yes to root even on a read-only mount).
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
    """Write ``text`` to ``path`` so that a reader sees the old file or the new one (:func:`replaced_atomically`)."""
    with replaced_atomically(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
