"""20 Newsgroups, the bydate split (the official archive): messages, groups, optional header stripping."""

from __future__ import annotations

import tarfile
from pathlib import Path

import numpy as np

from labelrank.cache import ResultCache
from labelrank.paths import cache_dir, unwritable_reason
from labelrank.datasets.download import cached_parse
from labelrank.datasets.registry import REGISTRY, SPLITS, Split, _check_split, _dataset
from labelrank.datasets.text import _label_matrix, count_matrix, ltc_tfidf

# --------------------------------------------------------------------------------------------------------------
# 20 Newsgroups (bydate tar.gz)
# --------------------------------------------------------------------------------------------------------------


def _read_20ng(archive: Path) -> dict[str, list[tuple[str, str, str]]]:
    """(group, message id, text) for each split, sorted by group then numeric id, read straight from the tar.gz."""
    out: dict[str, list[tuple[str, str, str]]] = {s: [] for s in SPLITS}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            if not member.isfile():
                continue
            parts = member.name.split("/")
            if len(parts) != 3 or not parts[0].startswith("20news-bydate-"):
                continue
            split = parts[0].removeprefix("20news-bydate-")
            if split not in out or not parts[2].isdigit():
                continue
            text = tar.extractfile(member).read().decode("latin-1")
            out[split].append((parts[1], parts[2], text))
    for split in SPLITS:
        out[split].sort(key=lambda r: (r[0], int(r[1])))
    return out


def _parse_20ng_texts(folder: Path, *, hashes=(), version=0):
    return _read_20ng(folder / REGISTRY["20newsgroups"].files[0].path)


def _strip_header(message: str) -> str:
    head, sep, body = message.partition("\n\n")
    return body if sep else message


def load_texts(
    name: str, split: Split, *, strip_headers: bool = False
) -> tuple[list[str], np.ndarray, list[str]]:
    """Raw texts of a text data set (``"20newsgroups"``) with one class per document.

    Parameters
    ----------
    name : {"20newsgroups"}
        The data set.
    split : {"train", "test"}
        The bydate split (11,314 training and 7,532 test messages).
    strip_headers : bool, default False
        Drop each message's header block (everything up to the first blank line: ``From:``, ``Subject:``,
        ``Organization:``, ``Lines:`` ...). The bydate release already removed most other headers.

    Returns
    -------
    texts : list of str
        The messages (decoded as Latin-1), ordered by group name, then by numeric message id.
    y : numpy.ndarray of int, shape (n,)
        Index of each message's group in ``group_names``.
    group_names : list of str
        The 20 group names, sorted (e.g. ``alt.atheism``, ``comp.graphics``, ...).

    Examples
    --------
    >>> texts, y, groups = load_texts("20newsgroups", "train")
    >>> len(texts), y.shape, groups[:2]
    (11314, (11314,), ['alt.atheism', 'comp.graphics'])
    """
    if name != "20newsgroups":
        _dataset(name)
        raise ValueError(f"load_texts supports name='20newsgroups' only, got name={name!r} (use load())")
    _check_split(split)
    if not isinstance(strip_headers, bool):
        raise TypeError(f"strip_headers must be a bool, got {strip_headers!r}")
    rows = cached_parse(_parse_20ng_texts, "20newsgroups_texts", name)[split]
    group_names = sorted({g for g, _, _ in rows})
    index = {g: i for i, g in enumerate(group_names)}
    texts = [_strip_header(t) if strip_headers else t for _, _, t in rows]
    y = np.array([index[g] for g, _, _ in rows], dtype=np.int64)
    return texts, y, group_names


def _parse_20ng(folder: Path, *, hashes=(), version=0):
    # The texts' own cache entry (the one load_texts reads, same key): the archive is decompressed once, not again
    # for the matrices.
    if unwritable_reason(cache_dir() / "parsed") is None:
        cached = ResultCache(_parse_20ng_texts, "20newsgroups_texts", root=cache_dir() / "parsed", ignore=("folder",))
        rows = cached(folder, hashes=hashes, version=version)
    else:  # the caller (cached_parse) has warned already
        rows = _parse_20ng_texts(folder, hashes=hashes, version=version)
    groups = sorted({g for g, _, _ in rows["train"]})
    train_counts, test_counts, vocabulary = count_matrix([t for *_, t in rows["train"]], [t for *_, t in rows["test"]])
    X_train, X_test = ltc_tfidf(train_counts, test_counts)
    return {
        "train": (X_train, _label_matrix([(g,) for g, *_ in rows["train"]], groups)),
        "test": (X_test, _label_matrix([(g,) for g, *_ in rows["test"]], groups)),
        "labels": groups,
        "vocabulary": vocabulary,
    }
