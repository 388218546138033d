"""The registry of the benchmark data sets: each file with its pinned public origin and sha256, the errors of
the data layer, and the argument checks shared by the loaders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from labelrank.validation import check_choice

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

    Examples
    --------
    >>> from labelrank.datasets import REGISTRY
    >>> first = REGISTRY["emotions"].files[0]
    >>> first.path, first.size, first.url.startswith("https://raw.githubusercontent.com/tsoumakas/mulan/")
    ('emotions-train.arff', 252080, True)
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
    """A data set: its files, where they come from, and how to cite it.

    Attributes
    ----------
    name : str
        The key of ``REGISTRY`` and the name :func:`labelrank.datasets.load` takes.
    folder : str
        The data set's folder in a mirror (``LABELRANK_DATA``) and in the download cache.
    description, origin : str
        What the data set is and where its files come from.
    files : tuple of DataFile
    cite : tuple of str
        Keys of the works to cite for it (``book/references.bib``).

    Examples
    --------
    >>> from labelrank.datasets import REGISTRY
    >>> emotions = REGISTRY["emotions"]
    >>> emotions.folder, [f.path for f in emotions.files][:2]
    ('emotions', ['emotions-train.arff', 'emotions-test.arff'])
    """

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
    """A data set name that is not in ``REGISTRY``; the message lists the known names.

    Examples
    --------
    >>> from labelrank.datasets import load
    >>> load("mnist", "train")
    Traceback (most recent call last):
        ...
    labelrank.datasets.registry.UnknownDatasetError: unknown data set name='mnist'; known data sets: 20newsgroups, ...
    """

    def __str__(self) -> str:  # KeyError would print the message quoted
        return str(self.args[0]) if self.args else ""


class ChecksumError(ValueError):
    """A file whose sha256 is not the registered one (corrupt, truncated or a different version).

    It is a :class:`ValueError`; :func:`labelrank.datasets.verify` raises it, and :func:`labelrank.datasets.fetch`
    after a download whose file does not match (the file is then removed, never used).

    Examples
    --------
    >>> issubclass(ChecksumError, ValueError)
    True
    """


class DataUnavailableError(RuntimeError):
    """A data set could be neither read from a mirror nor downloaded.

    It is a :class:`RuntimeError` whose message says what was tried (the mirror folder, the download) and how to point
    ``LABELRANK_DATA`` at a local copy.

    Examples
    --------
    >>> issubclass(DataUnavailableError, RuntimeError)
    True
    """


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
