"""Where the project's files live: the checkout's ``data/`` folder and the download cache."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path | None:
    """The labelrank-book checkout this package was installed from (editable install), or None."""
    for parent in _PACKAGE_DIR.parents:
        if (parent / "_toc.yml").is_file() and (parent / "data").is_dir():
            return parent
    return None


def data_dir() -> Path:
    """The checkout's committed ``data/`` folder (paper tables, the reconstructed F-term tree)."""
    root = project_root()
    if root is None:
        raise FileNotFoundError(
            "labelrank's committed data (data/paper, data/fterm) lives in the labelrank-book checkout; "
            "install the package from a checkout with `pip install -e .`"
        )
    return root / "data"


def cache_dir() -> Path:
    """Download cache: ``$LABELRANK_CACHE``, else the checkout's git-ignored ``data/raw``, else the OS cache."""
    env = os.environ.get("LABELRANK_CACHE")
    if env:
        return Path(env).expanduser()
    root = project_root()
    if root is not None:
        return root / "data" / "raw"
    import pooch

    return Path(pooch.os_cache("labelrank"))
