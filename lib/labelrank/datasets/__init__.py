"""The benchmark data sets: a registry of verified files and loaders that turn them into arrays.

Every file a data set needs is listed in ``REGISTRY`` with its sha256 and an origin URL pinned to a commit
(``https://raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>``), so what a reader downloads is byte-for-byte
what this book was built from. :func:`fetch` obtains the files

* from a local mirror when the environment variable ``LABELRANK_DATA`` names one (a folder with one sub-folder per
  data set, e.g. ``$LABELRANK_DATA/emotions/emotions-train.arff``); the files are read in place, never copied;
* else by download (pooch's HTTP downloader) into :func:`labelrank.paths.cache_dir` (the git-ignored ``data/raw``
  of a checkout).

Either way every file is sha256-checked; a file that fails the check raises :class:`ChecksumError` naming the file
and both hashes, and a downloaded bad file is deleted, never left in the cache.

:func:`load` returns ``(X, Y, label_names)`` for a split; :func:`load_texts` gives the raw 20 Newsgroups messages;
:func:`describe` and :func:`statistics_table` compute a data set's statistics (those of Yang & Gopal's Table 1).

Modules: ``registry`` (the files, their origins and hashes; the errors), ``download`` (fetching,
verification and the cache of parsed data sets), one parser per format (``mulan`` for MULAN's ARFF + XML and
enron's tree, ``reuters`` for Reuters-21578's SGML, ``newsgroups`` for the 20 Newsgroups archive,
``vowel`` for the ESL vowel CSV) and ``text`` (tokenization and ltc TF-IDF). Everything public is
importable from :mod:`labelrank.datasets` itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from labelrank.datasets.download import cached_parse, fetch, verify
from labelrank.datasets.mulan import (
    ENRON_ROOT,
    _parse_mulan,
    enron_categories,
    enron_label_parents,
    mulan_xml_labels,
)
from labelrank.datasets.newsgroups import _parse_20ng, load_texts
from labelrank.datasets.registry import (
    _MULAN_NAMES,
    REGISTRY,
    SPLITS,
    ChecksumError,
    DataFile,
    Dataset,
    DataUnavailableError,
    Split,
    UnknownDatasetError,
    _check_split,
    _dataset,
)
from labelrank.datasets.reuters import (
    REUTERS_ANALYZER,
    REUTERS_FIELD,
    _parse_reuters,
    modapte_split,
    reuters_documents,
    reuters_preparation,
)
from labelrank.datasets.text import TextAnalyzer, count_matrix, ltc_tfidf, stop_list, tokenize
from labelrank.datasets.vowel import _parse_vowel

__all__ = [
    "REGISTRY",
    "SPLITS",
    "ENRON_ROOT",
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
    "TextAnalyzer",
    "stop_list",
    "REUTERS_FIELD",
    "REUTERS_ANALYZER",
    "reuters_preparation",
    "preparation",
    "ltc_tfidf",
    "count_matrix",
    "mulan_xml_labels",
    "reuters_documents",
    "modapte_split",
    "vocabulary",
    "enron_label_parents",
    "enron_categories",
    "describe",
    "statistics_table",
]


# --------------------------------------------------------------------------------------------------------------
# load
# --------------------------------------------------------------------------------------------------------------

def load(name: str, split: Split) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray, list[str]]:
    """Load a split of a benchmark data set.

    Parameters
    ----------
    name : {"emotions", "scene", "yeast", "enron", "reuters21578", "vowel", "20newsgroups"}
        The data set (a key of ``REGISTRY``).
    split : {"train", "test"}
        The conventional split the data set ships with: MULAN's train/test files, the ESL vowel files,
        Reuters-21578's ModApte split, 20 Newsgroups' bydate split.

    Returns
    -------
    X : numpy.ndarray of float64, or scipy.sparse.csr_matrix
        Features, shape (n, n_features). Dense for the MULAN sets and vowel; for ``reuters21578`` and
        ``20newsgroups`` a CSR matrix of "ltc" TF-IDF weights (:func:`ltc_tfidf`) over the training vocabulary:
        for 20 Newsgroups of :func:`tokenize`; for Reuters-21578 of ``REUTERS_ANALYZER`` applied to each
        story's ``REUTERS_FIELD`` (Porter-stemmed terms of the whole TEXT element, see
        :func:`reuters_preparation`).
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
    >>> X, Y, labels = load("emotions", "train")
    >>> X.shape, Y.shape, labels[0]
    ((391, 72), (391, 6), 'amazed-suprised')
    """
    _dataset(name)
    _check_split(split)
    if name in _MULAN_NAMES:
        return cached_parse(_parse_mulan, "mulan", name, name, split)
    if name == "vowel":
        return _parse_vowel(fetch(name), split)
    if name == "reuters21578":
        parsed = cached_parse(_parse_reuters, name, name, REUTERS_FIELD, REUTERS_ANALYZER)
    else:
        parsed = cached_parse(_parse_20ng, name, name)
    X, Y = parsed[split]
    return X, Y, list(parsed["labels"])


def preparation(name: str) -> tuple[str, ...]:
    """How :func:`load` turns a data set's files into features beyond parsing them, as strings for cache keys:
    :func:`reuters_preparation` for Reuters-21578, nothing for the others (their features are the files').

    Parameters
    ----------
    name : str
        A key of ``REGISTRY``.

    Examples
    --------
    >>> preparation("emotions"), preparation("reuters21578") == reuters_preparation()
    ((), True)
    """
    _dataset(name)
    return reuters_preparation() if name == "reuters21578" else ()


def vocabulary(name: str) -> list[str]:
    """The terms (feature names) of a text data set's :func:`load` matrices, in column order.

    Parameters
    ----------
    name : {"reuters21578", "20newsgroups"}

    Returns
    -------
    list of str
        The training vocabulary, one term per column of ``X``.

    Examples
    --------
    Reuters-21578's ModApte training vocabulary after ``REUTERS_ANALYZER`` (Porter stems):

    >>> terms = vocabulary("reuters21578")
    >>> len(terms), terms[:3]
    (18597, ['a14', 'a340', 'aa'])
    """
    if name not in ("reuters21578", "20newsgroups"):
        _dataset(name)
        raise ValueError(f"vocabulary is defined for the text data sets reuters21578 and 20newsgroups, got {name!r}")
    if name == "reuters21578":
        return list(cached_parse(_parse_reuters, name, name, REUTERS_FIELD, REUTERS_ANALYZER)["vocabulary"])
    return list(cached_parse(_parse_20ng, name, name)["vocabulary"])



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

    Parameters
    ----------
    name : str
        A key of ``REGISTRY``.

    Examples
    --------
    >>> stats = describe("emotions")
    >>> stats["train_size"], stats["test_size"], stats["n_categories"], stats["n_features"]
    (391, 202, 6, 72)
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


def statistics_table(names: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`describe` for each data set (all of ``REGISTRY`` by default), one row each.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of ``REGISTRY``.

    Returns
    -------
    pandas.DataFrame
        One row per data set, the keys of :func:`describe` as columns.

    Examples
    --------
    >>> statistics_table(["emotions", "yeast"])[["dataset", "train_size", "n_categories"]]
        dataset  train_size  n_categories
    0  emotions         391             6
    1     yeast        1500            14
    """
    names = list(REGISTRY) if names is None else list(names)
    for n in names:
        _dataset(n)
    return pd.DataFrame([describe(n) for n in names])
