"""The benchmark data sets: a registry of verified files and loaders that turn them into arrays.

Every file a data set needs is listed in :data:`REGISTRY` with its sha256 and an origin URL pinned to a commit
(``https://raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>``), so what a reader downloads is byte-for-byte
what this book was built from. :func:`fetch` obtains the files

* from a local mirror when the environment variable ``LABELRANK_DATA`` names one (a folder with one sub-folder per
  data set, e.g. ``$LABELRANK_DATA/emotions/emotions-train.arff``); the files are read in place, never copied;
* else by download (pooch's HTTP downloader) into :func:`labelrank._paths.cache_dir` (the git-ignored ``data/raw``
  of a checkout).

Either way every file is sha256-checked; a file that fails the check raises :class:`ChecksumError` naming the file
and both hashes, and a downloaded bad file is deleted, never left in the cache.

:func:`load` returns ``(X, Y, label_names)`` for a split; :func:`load_texts` gives the raw 20 Newsgroups messages;
:func:`describe` and :func:`table1` compute the statistics of Yang & Gopal's Table 1.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import tarfile
import tempfile
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp

from labelrank._cache import ResultCache
from labelrank._paths import cache_dir, unwritable_reason
from labelrank._validation import check_choice

__all__ = [
    "REGISTRY",
    "DataFile",
    "Dataset",
    "ChecksumError",
    "DataUnavailableError",
    "UnknownDatasetError",
    "fetch",
    "verify",
    "load",
    "load_texts",
    "tokenize",
    "ltc_tfidf",
    "count_matrix",
    "mulan_xml_labels",
    "reuters_documents",
    "modapte_split",
    "vocabulary",
    "enron_label_parents",
    "enron_categories",
    "describe",
    "table1",
]

#: dtype of every label matrix ``Y`` that :func:`load` returns: a wide signed integer, so that arithmetic on ``Y``
#: (``2 * Y - 1``, ``Y.T @ Y``, ``Y.sum()``) neither wraps around nor overflows as uint8 would.
_Y_DTYPE = np.int64

Split = Literal["train", "test"]
SPLITS: tuple[str, ...] = ("train", "test")
_MULAN_NAMES = ("emotions", "scene", "yeast", "enron")


# --------------------------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DataFile:
    """One file of a data set.

    Attributes
    ----------
    path : str
        Path relative to the data set's folder (in the mirror and in the cache).
    sha256 : str
        sha256 of the file served at ``url``.
    url : str
        Origin URL, pinned to a commit (or the official release archive).
    size : int or None
        Size in bytes of the file at ``url`` when recorded (informative; verification uses the hash).
    also_accepted : tuple of str
        Further sha256 values accepted for the same content in another packaging (20 Newsgroups: the mirror's
        repack of the official archive).
    """

    path: str
    sha256: str
    url: str
    size: int | None
    also_accepted: tuple[str, ...] = ()

    @property
    def accepted(self) -> tuple[str, ...]:
        """Every sha256 that verifies this file."""
        return (self.sha256, *self.also_accepted)


@dataclass(frozen=True)
class Dataset:
    """A data set: its files, where they come from, and how to cite it."""

    name: str
    folder: str
    description: str
    origin: str
    files: tuple[DataFile, ...]
    cite: tuple[str, ...] = field(default=())

    def file(self, path: str) -> DataFile:
        """The registered file ``path`` (relative to the data set's folder)."""
        for f in self.files:
            if f.path == path:
                return f
        raise KeyError(f"data set {self.name!r} has no file {path!r}; files: {', '.join(f.path for f in self.files)}")


_MULAN = "https://raw.githubusercontent.com/tsoumakas/mulan/43f6389095ad71984264db4387a8074b22bc7d4a/data/multi-label"
_VOWEL = (
    "https://raw.githubusercontent.com/dgkim5360/the-elements-of-statistical-learning-notebooks/"
    "2c13a4818379451bcce802bcd7917f4878e12977/data/vowel"
)
_REUTERS = (
    "https://raw.githubusercontent.com/colibri17/TextCategorization/"
    "b6c2ca3d46a2540843400890792e5165448b4516/reuters21578"
)
_20NG = "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz"


def _files(base: str, rows: Iterable[tuple[str, str, int]]) -> tuple[DataFile, ...]:
    return tuple(DataFile(path, sha, f"{base}/{path}", size) for path, sha, size in rows)


_REUTERS_FILES = [
    ("README.txt", "eb669045dd883c56cb5a96da1848c3380bc6371894c5663709a46776e3262a96", 36388),
    ("all-exchanges-strings.lc.txt", "294fd95a1b39ad6ad620275437498873399a6d8d01d62ef191d8893c2c27395f", 186),
    ("all-orgs-strings.lc.txt", "c628b46661d0c3cbb712e83048caec00fd5ca077bf6641fd90bb26794558fa4d", 316),
    ("all-people-strings.lc.txt", "955ad731df714a4abe878285fc8f0e27117de161b4ebfee299e05b3f5942f8e4", 2474),
    ("all-places-strings.lc.txt", "508288f57c5b25fcc90bd8471f97ccc3cd3cf96a3a6e761374ad864a1f729c85", 1721),
    ("all-topics-strings.lc.txt", "f905159a05733e2fd3c99e34d86ac1691582510af14d779c26829e75a117ac42", 1005),
    ("cat-descriptions_120396.txt", "70ae663742b7f94217c9dc8b2741a07c339fd272460f17523aed683b5ad7ee1f", 28194),
    ("feldman-cia-worldfactbook-data.txt", "1a04607b98f5f5a7479833e3405bdd53b1006d83602538e61a5d43f68315121a", 273802),
    ("lewis.dtd", "8952ac0f68aa7ccf73f395654541ebf6650ab24681746ff103df4c1ac24b64e9", 1485),
    ("reut2-000.sgm", "0ec53cda8f6d605a3ba710df14be7f00fc02f0c222a14748101df22326afe0f6", 1324350),
    ("reut2-001.sgm", "1528e7e82d110d88d0234eb9619eadb7f9fd805711971df05975b92277dfdf4d", 1254440),
    ("reut2-002.sgm", "99f18068d0518952987dedd78c622e5c2a584e357d264d3754696c815f3e6628", 1217495),
    ("reut2-003.sgm", "78a3a8d7e04bc9d42c4614d5d5c60a4293dbe3f708df6fb5a71d9ef31f4b3fa3", 1298721),
    ("reut2-004.sgm", "726342c19a65873330b412378cd6a3f0d512035f5223146ddd60930c62eb6ff0", 1321623),
    ("reut2-005.sgm", "d09de619b6dd2d047d5124681f6df90550abaf592020d1c1ce338ae9b91522e7", 1388644),
    ("reut2-006.sgm", "b5535c0d66b01f4976f84621a4a795afbc00d2c4bd0a1b7ae426df6630fb361d", 1254765),
    ("reut2-007.sgm", "aa706007ec84a03537a3921ca976d60e11b3f99e4b9e9b2d5c81dd384d2c2062", 1256772),
    ("reut2-008.sgm", "a3994583694a00b7c744097c1d7eabfcf90f2e6650cc21663e46828035a336cb", 1410117),
    ("reut2-009.sgm", "29995f606dd1a9bdf907eacc9d879846c716860d9d9141676979474aaea39c7d", 1338903),
    ("reut2-010.sgm", "996df6008089bd09fa5b28a4d2eb0ee5f7b9d4601cde566fed3926ac82960fa3", 1371071),
    ("reut2-011.sgm", "d3a2782015247d9c2bffb8926267827fdd449c70d619435ef01a25a1c56a53ca", 1304117),
    ("reut2-012.sgm", "da31035d483851f2aebce5b66d779e5e2c0ac9dcfe098596c6d544e81c5604ab", 1323584),
    ("reut2-013.sgm", "8f7700bc0455fac3fcc12377ced4807b7df8aba1f21ecad059b9cc2b1cf0b8be", 1129687),
    ("reut2-014.sgm", "ef936bd3e0f36cf722afa9a6957563549775af32e9e28b4f539c8737ceda83ab", 1128671),
    ("reut2-015.sgm", "6d3bcec73eff871b8a5403588af814c4e50a0de6bc25707480522ab836f74026", 1258665),
    ("reut2-016.sgm", "be2f03a185fff70131f3b4fdbd6229b7ee2be077eba9691eaa597c8cfbda8812", 1316417),
    ("reut2-017.sgm", "f370e610b4b1342e41a98e0c426a08541044bd1d7e539674f32372a6060b73b5", 1546911),
    ("reut2-018.sgm", "a5f971bf25448e915781962309e669359a35fbcaf3017a806eca0590897f209a", 1258819),
    ("reut2-019.sgm", "d3b07097fba2633d130b4914aceba671645985248943ce9e39c289315339dffb", 1261780),
    ("reut2-020.sgm", "f6ad1b724125c202566c63b35ea0b5ee23881f8b7ed47a32829d5af05d8e860d", 1049566),
    ("reut2-021.sgm", "3f5196d32869723c9042aa5756805b4e90360f1f45ea17f4594fa0e2b3630b18", 621648),
]

#: The data sets by the name :func:`load` takes. ``folder`` is the sub-folder in the mirror and in the cache.
REGISTRY: dict[str, Dataset] = {
    "emotions": Dataset(
        name="emotions",
        folder="emotions",
        description="MULAN emotions: music clips, 72 rhythmic and timbre features, 6 emotion labels",
        origin="tsoumakas/mulan @ 43f6389095ad71984264db4387a8074b22bc7d4a, data/multi-label/emotions/",
        files=_files(
            f"{_MULAN}/emotions",
            [
                ("emotions-train.arff", "bbe704106c79bb8fb99c1d1d2e9bde081d6a2daeb01f100862f11fd91a3c1f98", 252080),
                ("emotions-test.arff", "f13d4b746b7b5c8eb484bd751d6ac463d4560dff998a93516a5c1fe35daf6c8f", 132007),
                ("emotions.xml", "dbce8e6ccbbb2fcbfd9e9edbb230d7ed12692c6e13f59fdbc0161fa9b6cf2dc0", 323),
            ],
        ),
        cite=("trohidis2008emotions", "tsoumakas2011mulan"),
    ),
    "scene": Dataset(
        name="scene",
        folder="scene",
        description="MULAN scene: images, 294 colour features (6x7 blocks x 7 moments), 6 scene labels",
        origin="tsoumakas/mulan @ 43f6389095ad71984264db4387a8074b22bc7d4a, data/multi-label/scene/",
        files=_files(
            f"{_MULAN}/scene",
            [
                ("scene-train.arff", "b53ba93bdf412de922e3960389bcee24744fa3e872ce610511fc1d750888b64d", 3127968),
                ("scene-test.arff", "ea38d20296b3ff7e220f477a3b802a9bcb2d768881fe6ee163efbc97ea527a42", 3090742),
                ("scene.xml", "55d8b247b949ad5c52e5a73d8c6775ec6e5469ce9682465b45b333b68ee4bcc5", 285),
            ],
        ),
        cite=("boutell2004scene", "tsoumakas2011mulan"),
    ),
    "yeast": Dataset(
        name="yeast",
        folder="yeast",
        description="MULAN yeast: genes, 103 micro-array expression features, 14 functional classes",
        origin="tsoumakas/mulan @ 43f6389095ad71984264db4387a8074b22bc7d4a, data/multi-label/yeast/",
        files=_files(
            f"{_MULAN}/yeast",
            [
                ("yeast-train.arff", "e759dc991ff54694a4ff9c4314f3be0d6fd2b1994a4b563f57e416394c6aebbd", 1501117),
                ("yeast-test.arff", "4aaac102bff9669a765bf0b378602e5cc8c3b181048282e2f003117b496d552a", 918515),
                ("yeast.xml", "c3056cc26444b5158b1588d1b73bec9c45429e10f0957ad085903423cb81f247", 526),
            ],
        ),
        cite=("elisseeff2001kernel", "tsoumakas2011mulan"),
    ),
    "enron": Dataset(
        name="enron",
        folder="enron",
        description="MULAN enron: e-mails, 1001 binary word features, 53 labels in a 2-level tree (A-D)",
        origin="tsoumakas/mulan @ 43f6389095ad71984264db4387a8074b22bc7d4a, data/multi-label/enron/",
        files=_files(
            f"{_MULAN}/enron",
            [
                ("enron-train.arff", "2988cefc1cdf7a8004a20ef84615cc8fa1b5d7434c16687283b41454e2d9d194", 607799),
                ("enron-test.arff", "2f3aad54a8f54caaab4ab01246fe9dd385ba944a2633028f52747b57eac5474e", 324140),
                ("enron.xml", "ed40c92d7f613eed51714912cab10dddc4ce456262137d8fef230d44c7f4457b", 1604),
                ("categories.txt", "55ed4182b82c7495e9b2a283cf812f6c1f3792de6bd09902d5361bf2472fe975", 1866),
                ("README.md", "9be9344adc3ed826fa6baf7f34f41a6fdd3216bc5390b9b044bc64e48bccffbd", 559),
            ],
        ),
        cite=("klimt2004enron", "read2008pruned"),
    ),
    "reuters21578": Dataset(
        name="reuters21578",
        folder="reuters21578",
        description="Reuters-21578 Distribution 1.0 (raw SGML); ModApte split, 90 topic categories",
        origin="colibri17/TextCategorization @ b6c2ca3d46a2540843400890792e5165448b4516, reuters21578/",
        files=_files(_REUTERS, _REUTERS_FILES),
        cite=("lewis1997reuters", "apte1994modapte", "yang1999reexamination"),
    ),
    "vowel": Dataset(
        name="vowel",
        folder="vowel",
        description="Deterding vowel recognition, ESL train/test split: 10 log-area-ratio features, 11 classes",
        origin="dgkim5360/the-elements-of-statistical-learning-notebooks @ "
        "2c13a4818379451bcce802bcd7917f4878e12977, data/vowel/",
        files=_files(
            _VOWEL,
            [
                ("vowel.train", "6285d72a3ec5af71286e6e0a778b836c229e3c41d6e0c2076294ee671e3ed9fb", 36858),
                ("vowel.test", "94720047d8e1d1f485b882347ad20b9b62fd04b080c855e23a10a4804e886f1b", 32338),
                ("vowel.info.txt", "7243569eebae2dacf35bc06d04189a4949a4ecc6f42989f38aee0fcdef1e1e2e", 15974),
            ],
        ),
        cite=("deterding1989speaker", "hastie2009esl"),
    ),
    "20newsgroups": Dataset(
        name="20newsgroups",
        folder="20newsgroups-bydate",
        description="20 Newsgroups, 'bydate' version: 18,846 Usenet posts in 20 groups, split by date",
        origin="official release http://qwone.com/~jason/20Newsgroups/ (the mirror holds a byte-identical repack "
        "of julenminer/mlnn_P65 @ 7393be663c8dd63e64c8264476494e62edf05c6e)",
        files=(
            DataFile(
                "20news-bydate.tar.gz",
                "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610",
                _20NG,
                None,
                also_accepted=("a9edaafcd6bb769e0f91b9397cb816373c1bf88f82901d4e62ec11c37f6f0741",),
            ),
        ),
        cite=("lang1995newsweeder",),
    ),
}


# --------------------------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------------------------


class UnknownDatasetError(KeyError, ValueError):
    """A data set name that is not in :data:`REGISTRY`; the message lists the known names."""

    def __str__(self) -> str:  # KeyError would print the message quoted
        return str(self.args[0]) if self.args else ""


class ChecksumError(ValueError):
    """A file whose sha256 is not the registered one (corrupt, truncated or a different version)."""


class DataUnavailableError(RuntimeError):
    """A data set could be neither read from a mirror nor downloaded."""


_MIRROR_HINT = (
    "To use a local copy instead, set the environment variable LABELRANK_DATA to a mirror folder holding one "
    "sub-folder per data set (emotions/, scene/, yeast/, enron/, vowel/, reuters21578/, 20newsgroups-bydate/), "
    "e.g. `export LABELRANK_DATA=/path/to/datasets` (in a labelrank-book checkout next to the shared staging "
    "area: `export LABELRANK_DATA=../shared/datasets`)."
)


def _dataset(name: str) -> Dataset:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__} {name!r}")
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownDatasetError(
            f"unknown data set name={name!r}; known data sets: {', '.join(sorted(REGISTRY))}"
        ) from None


def _check_split(split: str) -> str:
    return check_choice(split, "split", SPLITS)


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
    import pooch
    import requests

    # A temporary file of its own in the destination folder (so that os.replace is atomic), never a fixed name: two
    # processes fetching the same file must not write into each other's download.
    fd, tmp_name = tempfile.mkstemp(dir=dest.parent, prefix=dest.name + ".", suffix=".part")
    tmp = Path(tmp_name)
    try:
        os.close(fd)
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
        os.chmod(tmp, 0o644)  # mkstemp made it private (0600); the cached copy is an ordinary readable file
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def fetch(name: str, *, base_url: str | None = None) -> Path:
    """Obtain and sha256-verify every file of a data set; return the folder holding them.

    With ``LABELRANK_DATA`` set, the files are read in place from ``$LABELRANK_DATA/<folder>/`` (no copy). Else
    they are downloaded into ``cache_dir()/<folder>/`` (files already there and verified are kept).

    Parameters
    ----------
    name : str
        A key of :data:`REGISTRY`.
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


# Bump when a parser's output changes, so that the cache of parsed data sets is not reused.
_PARSE_VERSION = 2  # 2: Y is int64 (was uint8)


def _cached(func, kind: str, name: str, *args):
    """Call ``func(folder, *args)``, cached under ``cache_dir()/"parsed"/kind`` (:class:`labelrank._cache.ResultCache`).

    The cache key is the data set's file hashes, ``_PARSE_VERSION`` and ``args`` (passed on, with the keywords
    ``hashes`` and ``version`` that the parsers accept and ignore), not the folder nor where the parser's code
    lives, so the mirror and a download share one entry, a changed file is re-parsed and moving the code keeps the
    cache. ``kind`` names the parser ("mulan", "reuters", ...).

    If the cache folder cannot be written (a read-only or shared cache), the data set is parsed without caching,
    with a warning that names the folder: the data themselves come from the mirror or the download folder.
    """
    folder, hashes = _file_hashes(name)
    parsed = cache_dir() / "parsed"
    reason = unwritable_reason(parsed)
    if reason is not None:
        warnings.warn(f"the cache folder {parsed} cannot be written ({reason}); {name} is parsed without caching. "
                      "Set LABELRANK_CACHE to a writable folder to keep parsed data sets", RuntimeWarning,
                      stacklevel=3)
        return func(folder, *args, hashes=hashes, version=_PARSE_VERSION)
    cached = ResultCache(func, kind, root=parsed, ignore=("folder",))
    return cached(folder, *args, hashes=hashes, version=_PARSE_VERSION)


# --------------------------------------------------------------------------------------------------------------
# MULAN ARFF + XML
# --------------------------------------------------------------------------------------------------------------


def _mulan_label_names(xml_path: Path) -> list[str]:
    """Label names declared in a MULAN ``.xml`` file (in the file's order)."""
    root = ET.parse(xml_path).getroot()
    return [el.attrib["name"] for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "label"]


def mulan_xml_labels(name: str) -> list[str]:
    """The label names a MULAN data set's ``.xml`` file declares, in the file's order.

    This order need not be the order of the label columns in the ARFF files (for yeast it is not); :func:`load`
    selects the label columns by these names and orders them as the ARFF file declares them.
    """
    if name not in _MULAN_NAMES:
        _dataset(name)
        raise ValueError(f"name must be a MULAN data set {_MULAN_NAMES}, got name={name!r}")
    return _mulan_label_names(fetch(name) / f"{name}.xml")


def _parse_mulan(folder: Path, name: str, split: str, *, hashes=(), version=0):
    """Parse ``<name>-<split>.arff`` with liac-arff; labels are the attributes the ``.xml`` names."""
    import arff

    xml_labels = _mulan_label_names(folder / f"{name}.xml")
    with open(folder / f"{name}-{split}.arff", encoding="utf-8") as fh:
        data = arff.load(fh, return_type=arff.DENSE)
    attributes = [a for a, _ in data["attributes"]]
    missing = sorted(set(xml_labels) - set(attributes))
    if missing:
        raise ValueError(f"{name}.xml names labels absent from {name}-{split}.arff: {missing}")
    is_label = np.array([a in set(xml_labels) for a in attributes])
    values = np.array(data["data"], dtype=object)
    if any(v is None for v in values.ravel()):
        raise ValueError(f"{name}-{split}.arff has missing values")
    values = values.astype(float)  # nominal {0,1} attributes arrive as the strings '0'/'1'
    X = np.ascontiguousarray(values[:, ~is_label])
    Y = values[:, is_label]
    if not np.isin(Y, (0.0, 1.0)).all():
        raise ValueError(f"label columns of {name}-{split}.arff are not 0/1")
    # Label order: as the ARFF declares the attributes (MULAN's own convention), each selected by its name.
    label_names = [a for a, lab in zip(attributes, is_label) if lab]
    return X, Y.astype(_Y_DTYPE), label_names


# --------------------------------------------------------------------------------------------------------------
# vowel (ESL CSV)
# --------------------------------------------------------------------------------------------------------------


def _parse_vowel(folder: Path, split: str):
    frame = pd.read_csv(folder / f"vowel.{split}")
    expected = ["row.names", "y"] + [f"x.{i}" for i in range(1, 11)]
    if list(frame.columns) != expected:
        raise ValueError(f"vowel.{split}: unexpected header {list(frame.columns)}; expected {expected}")
    X = frame[expected[2:]].to_numpy(dtype=float)
    y = frame["y"].to_numpy()
    classes = np.arange(1, 12)
    if not np.isin(y, classes).all():
        raise ValueError(f"vowel.{split}: classes outside 1..11: {sorted(set(y) - set(classes))}")
    Y = (y[:, None] == classes[None, :]).astype(_Y_DTYPE)
    # vowel.info.txt lists the eleven words (heed, hid, ...) but not which class code 1..11 each one is.
    return X, Y, [str(c) for c in classes]


# --------------------------------------------------------------------------------------------------------------
# Text: tokenization and ltc weighting
# --------------------------------------------------------------------------------------------------------------

_TOKEN_RE = re.compile(r"[a-z]{2,}")


def tokenize(text: str) -> list[str]:
    """Split a text into the terms used for Reuters-21578 and 20 Newsgroups.

    The text is lower-cased and every maximal run of two or more ASCII letters is a term (regular expression
    ``[a-z]{2,}``): digits, punctuation and single letters separate terms and are dropped; no stemming, no stop
    list. ``"U.S. wheat exports rose 5.2%"`` gives ``['wheat', 'exports', 'rose']``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _TOKEN_RE.findall(text.lower())


def count_matrix(train_texts: Sequence[str], test_texts: Sequence[str]):
    """Term counts of training and test texts over the vocabulary of the training texts.

    Returns
    -------
    train_counts, test_counts : scipy.sparse.csr_matrix
        Raw term frequencies, shape (n_docs, n_terms); terms seen only in test texts are dropped.
    vocabulary : list of str
        The terms, sorted alphabetically (column order).
    """
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None)
    train_counts = vectorizer.fit_transform(train_texts).tocsr()
    test_counts = vectorizer.transform(test_texts).tocsr()
    return train_counts, test_counts, list(vectorizer.get_feature_names_out())


def ltc_tfidf(train_counts, test_counts):
    r"""SMART "ltc" TF-IDF weights: logarithmic tf, idf from the training set, cosine normalisation.

    For term :math:`t` in document :math:`d` with raw count :math:`\mathrm{tf}_{t,d} > 0`,

    .. math::

        w_{t,d} = (1 + \ln \mathrm{tf}_{t,d}) \, \ln\frac{N}{\mathrm{df}_t}, \qquad
        x_{t,d} = \frac{w_{t,d}}{\lVert w_{\cdot,d} \rVert_2},

    and :math:`x_{t,d} = 0` when :math:`\mathrm{tf}_{t,d} = 0`. :math:`N` is the number of training documents and
    :math:`\mathrm{df}_t` the number of training documents containing :math:`t`; both come from the training set
    only, so test documents are weighted without looking at the test set. A term in every training document gets
    weight 0; a document with no weighted term stays an all-zero row. Unlike scikit-learn's ``TfidfTransformer``
    there is no ``+1`` in the idf and no smoothing (Salton & Buckley 1988; used for Reuters-21578 and citeseer by
    Yang & Gopal 2012, section 3.4).

    Parameters
    ----------
    train_counts, test_counts : array-like or scipy.sparse matrix of shape (n_docs, n_terms)
        Non-negative raw term counts over the same vocabulary. Every column should occur in a training document
        (a column with df = 0 gets weight 0). A sparse matrix that stores a cell in several entries (duplicates)
        counts their sum.

    Raises
    ------
    ValueError
        For an input that is not 2-D (checked before any conversion), a negative or non-finite count, different
        numbers of terms, or no training document.

    Returns
    -------
    X_train, X_test : scipy.sparse.csr_matrix of float64
        Rows of unit L2 norm (or all zero).
    """
    mats = []
    for arg, m in (("train_counts", train_counts), ("test_counts", test_counts)):
        if m is None or isinstance(m, (str, bytes)):
            raise TypeError(f"{arg} must be a 2-D array or scipy sparse matrix of counts, got {m!r}")
        # the shape is checked before any conversion: csr_matrix would read a 1-D array as one row
        ndim = m.ndim if sp.issparse(m) else np.ndim(m)
        if ndim != 2:
            raise ValueError(f"{arg} must be 2-D (n_docs, n_terms), got {ndim}-D input of shape {np.shape(m)}")
        if sp.issparse(m):
            m = sp.csr_matrix(m, dtype=np.float64, copy=True)
        else:
            m = sp.csr_matrix(np.asarray(m, dtype=np.float64))
        # A CSR matrix may store one entry in several pieces; df and 1 + ln tf need the summed count per cell.
        m.sum_duplicates()
        if m.nnz and (m.data.min() < 0 or not np.isfinite(m.data).all()):
            raise ValueError(f"{arg} must hold finite non-negative counts, got min {m.data.min()}")
        m.eliminate_zeros()
        mats.append(m)
    train, test = mats
    if train.shape[1] != test.shape[1]:
        raise ValueError(
            f"train_counts and test_counts must have the same number of terms, got {train.shape[1]} "
            f"and {test.shape[1]}"
        )
    if train.shape[0] == 0:
        raise ValueError("train_counts must have at least one document (N = 0 leaves the idf undefined)")
    n_docs = train.shape[0]
    df = np.bincount(train.indices, minlength=train.shape[1])
    with np.errstate(divide="ignore"):
        idf = np.where(df > 0, np.log(n_docs / np.maximum(df, 1)), 0.0)
    out = []
    for m in (train, test):
        w = m.copy()
        w.data = 1.0 + np.log(w.data)
        w = (w @ sp.diags(idf)).tocsr()
        w.eliminate_zeros()
        norms = np.sqrt(np.asarray(w.multiply(w).sum(axis=1)).ravel())
        scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
        out.append((sp.diags(scale) @ w).tocsr())
    return out[0], out[1]


# --------------------------------------------------------------------------------------------------------------
# Reuters-21578 (SGML, ModApte)
# --------------------------------------------------------------------------------------------------------------

_DOC_RE = re.compile(r"<REUTERS(?P<attrs>[^>]*)>(?P<body>.*?)</REUTERS>", re.S)
_ATTR_RE = re.compile(r'(\w+)="([^"]*)"')
_TOPICS_RE = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D_RE = re.compile(r"<D>(.*?)</D>", re.S)
_TEXT_RE = re.compile(r"<TEXT[^>]*>(.*?)</TEXT>", re.S)
_TITLE_RE = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
_BODY_RE = re.compile(r"<BODY>(.*?)</BODY>", re.S)
_TAG_RE = re.compile(r"<[^>]+>")


def _sgml_text(fragment: str) -> str:
    return html.unescape(_TAG_RE.sub(" ", fragment))


def reuters_documents(folder: str | os.PathLike | None = None) -> pd.DataFrame:
    """Every ``<REUTERS>`` document of Reuters-21578 with its split attributes, topics and text.

    Parameters
    ----------
    folder : path, optional
        Folder holding ``reut2-000.sgm`` ... ``reut2-021.sgm``; by default ``fetch("reuters21578")``.

    Returns
    -------
    pandas.DataFrame
        One row per document (21,578): ``newid`` (int), ``lewissplit`` (TRAIN/TEST/NOT-USED), ``topics_attr``
        (the TOPICS attribute, YES/NO/BYPASS), ``topics`` (tuple of the ``<D>`` entries in ``<TOPICS>``) and
        ``text`` (TITLE + BODY; for the unprocessed documents without those tags, the whole TEXT element), entities
        such as ``&lt;`` decoded. Files are read as Latin-1.
    """
    folder = fetch("reuters21578") if folder is None else Path(folder)
    rows = []
    for i in range(22):
        raw = (folder / f"reut2-{i:03d}.sgm").read_text(encoding="latin-1")
        for m in _DOC_RE.finditer(raw):
            attrs = dict(_ATTR_RE.findall(m["attrs"]))
            body = m["body"]
            topics_m = _TOPICS_RE.search(body)
            topics = tuple(t.strip() for t in _D_RE.findall(topics_m.group(1))) if topics_m else ()
            text_m = _TEXT_RE.search(body)
            text_xml = text_m.group(1) if text_m else ""
            title_m, body_m = _TITLE_RE.search(text_xml), _BODY_RE.search(text_xml)
            if title_m or body_m:
                text = " ".join(_sgml_text(x.group(1)) for x in (title_m, body_m) if x)
            else:
                text = _sgml_text(text_xml)
            rows.append(
                {
                    "newid": int(attrs["NEWID"]),
                    "lewissplit": attrs.get("LEWISSPLIT", ""),
                    "topics_attr": attrs.get("TOPICS", ""),
                    "topics": topics,
                    "text": text,
                }
            )
    return pd.DataFrame(rows)


def modapte_split(docs: pd.DataFrame) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """The ModApte split of Reuters-21578 restricted to its 90 usable categories.

    Train = ``LEWISSPLIT="TRAIN"`` and ``TOPICS="YES"``, test = ``LEWISSPLIT="TEST"`` and ``TOPICS="YES"``
    (Apte et al. 1994); the categories kept are those with at least one training and one test document
    (90, as in Yang & Liu 1999), and a document is kept when it carries at least one of them (its other topics are
    dropped): 7,770 training and 3,019 test documents.

    Parameters
    ----------
    docs : pandas.DataFrame
        The output of :func:`reuters_documents`.

    Returns
    -------
    parts : dict
        ``{"train": DataFrame, "test": DataFrame}``, rows of ``docs`` with ``topics`` restricted to the kept
        categories.
    categories : list of str
        The kept categories, sorted.
    """
    required = {"lewissplit", "topics_attr", "topics"}
    if not isinstance(docs, pd.DataFrame) or not required <= set(docs.columns):
        raise ValueError(f"docs must be the DataFrame of reuters_documents() with columns {sorted(required)}")
    yes = docs[docs["topics_attr"] == "YES"]
    parts = {s: yes[yes["lewissplit"] == s.upper()] for s in SPLITS}
    in_split = {s: set(t for ts in parts[s]["topics"] for t in ts) for s in SPLITS}
    categories = sorted(in_split["train"] & in_split["test"])
    keep = set(categories)
    out = {}
    for s in SPLITS:
        p = parts[s].copy()
        p["topics"] = [tuple(t for t in ts if t in keep) for ts in p["topics"]]
        out[s] = p[p["topics"].map(len) > 0].reset_index(drop=True)
    return out, categories


def _label_matrix(label_sets: Iterable[Sequence[str]], labels: Sequence[str]) -> np.ndarray:
    index = {lab: j for j, lab in enumerate(labels)}
    label_sets = list(label_sets)
    Y = np.zeros((len(label_sets), len(labels)), dtype=_Y_DTYPE)
    for i, ls in enumerate(label_sets):
        Y[i, [index[lab] for lab in ls]] = 1
    return Y


def _parse_reuters(folder: Path, *, hashes=(), version=0):
    parts, categories = modapte_split(reuters_documents(folder))
    train_counts, test_counts, vocabulary = count_matrix(list(parts["train"]["text"]), list(parts["test"]["text"]))
    X_train, X_test = ltc_tfidf(train_counts, test_counts)
    return {
        "train": (X_train, _label_matrix(parts["train"]["topics"], categories)),
        "test": (X_test, _label_matrix(parts["test"]["topics"], categories)),
        "labels": categories,
        "vocabulary": vocabulary,
    }


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
    """
    if name != "20newsgroups":
        _dataset(name)
        raise ValueError(f"load_texts supports name='20newsgroups' only, got name={name!r} (use load())")
    _check_split(split)
    if not isinstance(strip_headers, bool):
        raise TypeError(f"strip_headers must be a bool, got {strip_headers!r}")
    rows = _cached(_parse_20ng_texts, "20newsgroups_texts", name)[split]
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
    else:  # the caller (_cached) has warned already
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


# --------------------------------------------------------------------------------------------------------------
# load
# --------------------------------------------------------------------------------------------------------------

def load(name: str, split: Split) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray, list[str]]:
    """Load a split of a benchmark data set.

    Parameters
    ----------
    name : {"emotions", "scene", "yeast", "enron", "reuters21578", "vowel", "20newsgroups"}
        The data set (a key of :data:`REGISTRY`).
    split : {"train", "test"}
        The conventional split the data set ships with: MULAN's train/test files, the ESL vowel files,
        Reuters-21578's ModApte split, 20 Newsgroups' bydate split.

    Returns
    -------
    X : numpy.ndarray of float64, or scipy.sparse.csr_matrix
        Features, shape (n, n_features). Dense for the MULAN sets and vowel; for ``reuters21578`` and
        ``20newsgroups`` a CSR matrix of "ltc" TF-IDF weights (:func:`ltc_tfidf`) over the training vocabulary of
        :func:`tokenize`.
    Y : numpy.ndarray of int64, shape (n, n_labels)
        Relevance 0/1; one-hot for the single-label sets (vowel, 20newsgroups). A signed 64-bit integer, so that
        ``2 * Y - 1`` gives -1/+1 and ``Y.T @ Y`` counts co-occurrences without overflow.
    label_names : list of str
        The label of each column of ``Y``. MULAN labels are the attributes named in the data set's ``.xml``,
        selected by name and ordered as the ARFF file declares them (yeast's ``.xml`` lists them in another order);
        Reuters: the 90 ModApte categories with at least one training and one test document, sorted; vowel:
        ``"1"`` ... ``"11"``; 20 Newsgroups: the sorted group names.

    Raises
    ------
    UnknownDatasetError
        For an unknown ``name`` (lists the known ones).
    ValueError
        For a ``split`` other than "train" or "test".

    Examples
    --------
    >>> X, Y, labels = load("emotions", "train")  # doctest: +SKIP
    >>> X.shape, Y.shape, labels[0]  # doctest: +SKIP
    ((391, 72), (391, 6), 'amazed-suprised')
    """
    _dataset(name)
    _check_split(split)
    if name in _MULAN_NAMES:
        return _cached(_parse_mulan, "mulan", name, name, split)
    if name == "vowel":
        return _parse_vowel(fetch(name), split)
    parser = {"reuters21578": _parse_reuters, "20newsgroups": _parse_20ng}[name]
    parsed = _cached(parser, name, name)
    X, Y = parsed[split]
    return X, Y, list(parsed["labels"])


def vocabulary(name: str) -> list[str]:
    """The terms (feature names) of a text data set's :func:`load` matrices, in column order."""
    if name not in ("reuters21578", "20newsgroups"):
        _dataset(name)
        raise ValueError(f"vocabulary is defined for the text data sets reuters21578 and 20newsgroups, got {name!r}")
    parser = {"reuters21578": _parse_reuters, "20newsgroups": _parse_20ng}[name]
    return list(_cached(parser, name, name)["vocabulary"])


# --------------------------------------------------------------------------------------------------------------
# enron's label tree
# --------------------------------------------------------------------------------------------------------------

ENRON_ROOT = "enron"
_ENRON_TOPS = ("A", "B", "C", "D")  # the four top categories, numbered 1 ... 4 in categories.txt


def enron_label_parents() -> dict[str, str | None]:
    """Enron's two-level label tree as a parent map ``{label: parent}``.

    The 53 labels ``A.A1`` ... ``D.D19`` hang below their top category ``A``, ``B``, ``C`` or ``D`` (coarse genre,
    included/forwarded information, primary topics, emotional tone; see :func:`enron_categories`), and these four
    below one root ``"enron"`` whose parent is ``None`` (the input of ``LabelTree.from_parents``). It is
    ``LabelTree.from_paths(labels, root="enron").to_parents()`` of the labels ``enron.xml`` declares.

    Raises
    ------
    ValueError
        If a label is not ``<top>.<code>`` with ``top`` one of A, B, C, D.
    """
    from labelrank.hierarchy import LabelTree  # here: hierarchy is not needed to load data

    labels = mulan_xml_labels("enron")
    for label in labels:
        top, sep, code = label.partition(".")
        if not sep or top not in _ENRON_TOPS or not code or "." in code:
            raise ValueError(f"enron.xml: label {label!r} is not of the form <A-D>.<code>")
    return LabelTree.from_paths(labels, root=ENRON_ROOT).to_parents()


def enron_categories() -> dict[str, str]:
    """Descriptions of enron's categories from ``categories.txt``: ``{"A": "Coarse genre", "A.A1": "Company
    Business, Strategy, etc. ...", ...}`` (the file numbers them 1 ... 4 and 1.1 ... 4.19)."""
    return _parse_enron_categories((fetch("enron") / "categories.txt").read_text(encoding="utf-8"))


def _parse_enron_categories(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = re.match(r"^\s*(\d+)(?:\.(\d+))?\s+(.+?)\s*$", line)
        if not m:
            continue
        number = int(m[1])
        if not 1 <= number <= len(_ENRON_TOPS):
            raise ValueError(
                f"categories.txt line {lineno}: top category {m[1]!r} is not one of 1 ... {len(_ENRON_TOPS)} "
                f"(A-D): {line.strip()!r}"
            )
        top = _ENRON_TOPS[number - 1]
        out[top if m[2] is None else f"{top}.{top}{m[2]}"] = m[3]
    return out


# --------------------------------------------------------------------------------------------------------------
# Statistics (Yang & Gopal 2012, Table 1)
# --------------------------------------------------------------------------------------------------------------


def describe(name: str) -> dict[str, float | int | str]:
    """The statistics of Yang & Gopal's Table 1 for one data set.

    Returns
    -------
    dict
        ``dataset``, ``train_size``, ``test_size``, ``n_categories`` (columns of ``Y``), ``n_features``
        (columns of ``X``; for the text sets the training vocabulary), and the label cardinality (mean number of
        relevant labels per instance) over three sets of instances: ``avg_categories_per_instance`` over train and
        test together (the convention that reproduces the paper's numbers), ``avg_categories_train`` and
        ``avg_categories_test``.
    """
    X_train, Y_train, labels = load(name, "train")
    X_test, Y_test, _ = load(name, "test")
    n_train, n_test = Y_train.shape[0], Y_test.shape[0]
    total = int(Y_train.sum()) + int(Y_test.sum())
    return {
        "dataset": name,
        "train_size": n_train,
        "test_size": n_test,
        "n_categories": len(labels),
        "avg_categories_per_instance": total / (n_train + n_test),
        "avg_categories_train": float(Y_train.sum(axis=1).mean()),
        "avg_categories_test": float(Y_test.sum(axis=1).mean()),
        "n_features": X_train.shape[1],
    }


def table1(names: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`describe` for each data set (all of :data:`REGISTRY` by default), one row each."""
    names = list(REGISTRY) if names is None else list(names)
    for n in names:
        _dataset(n)
    return pd.DataFrame([describe(n) for n in names])
