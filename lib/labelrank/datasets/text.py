"""Text features: tokenization, count matrices and the "ltc" TF-IDF weighting of the text data sets."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import scipy.sparse as sp

from labelrank.optional import require
from labelrank.datasets.registry import _Y_DTYPE

# --------------------------------------------------------------------------------------------------------------
# Text: tokenization and ltc weighting
# --------------------------------------------------------------------------------------------------------------


def tokenize(text: str) -> list[str]:
    """Split a text into the terms used for 20 Newsgroups.

    The text is lower-cased and every maximal run of two or more ASCII letters is a term (regular expression
    ``[a-z]{2,}``): digits, punctuation and single letters separate terms and are dropped; no stemming, no stop
    list (the default :class:`TextAnalyzer`). ``"U.S. wheat exports rose 5.2%"`` gives
    ``['wheat', 'exports', 'rose']``.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str
        The terms, in their order in the text.

    Examples
    --------
    >>> tokenize("Re: 3D graphics, in C++ & OpenGL!")
    ['re', 'graphics', 'in', 'opengl']
    """
    return TextAnalyzer()(text)


_STOP_LISTS = ("none", "english", "smart")
_STEMMERS = ("none", "porter", "porter2")


@dataclass(frozen=True)
class TextAnalyzer:
    r"""A text-to-terms pipeline: lower case, a term pattern, an optional stop list, an optional stemmer.

    ``analyzer(text)`` lower-cases the text, takes every match of ``pattern``, drops the words of the stop list
    and stems the rest (dropping a stem that is empty). The stop list applies to words, before stemming (so
    "having" is removed by a list that holds it, and not reduced to "have" first). The default analyzer is
    :func:`tokenize`'s.

    Parameters
    ----------
    pattern : str
        Regular expression a term matches in the lower-cased text, e.g. ``"[a-z]{2,}"`` (two or more letters) or
        ``"[a-z][a-z0-9]*"`` (a letter followed by letters or digits, so "1987" is dropped and "g7" kept).
    stop_words : {"none", "english", "smart"}
        No stop list; scikit-learn's English list (318 words, ``ENGLISH_STOP_WORDS``); or the list of the SMART
        system (Salton 1971) as the ``python-rake`` package ships it (571 entries, 570 words: "would" twice).
    stemmer : {"none", "porter", "porter2"}
        No stemming; Porter's 1980 algorithm; or its revision "Porter2" (Snowball's English stemmer); both from
        the ``snowballstemmer`` package.

    Raises
    ------
    ValueError
        For a pattern that does not compile or matches the empty string, or an unknown stop list or stemmer.

    Examples
    --------
    >>> TextAnalyzer()("U.S. wheat exports rose 5.2%")
    ['wheat', 'exports', 'rose']
    >>> TextAnalyzer(r"[a-z][a-z0-9]*", "english", "porter")("The G7 ministers were meeting in 1987")
    ['g7', 'minist', 'meet']
    """

    pattern: str = r"[a-z]{2,}"
    stop_words: str = "none"
    stemmer: str = "none"

    def __post_init__(self):
        try:
            compiled = re.compile(self.pattern)
        except (re.error, TypeError) as exc:
            raise ValueError(f"pattern must be a regular expression, got {self.pattern!r} ({exc})") from None
        if compiled.fullmatch(""):
            raise ValueError(f"pattern must not match the empty string, got {self.pattern!r}")
        if self.stop_words not in _STOP_LISTS:
            raise ValueError(f"stop_words must be one of {_STOP_LISTS}, got {self.stop_words!r}")
        if self.stemmer not in _STEMMERS:
            raise ValueError(f"stemmer must be one of {_STEMMERS}, got {self.stemmer!r}")

    def __call__(self, text: str) -> list[str]:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        words = _compiled(self.pattern).findall(text.lower())
        stop = stop_list(self.stop_words)
        if stop:
            words = [w for w in words if w not in stop]
        return stem_words(self.stemmer, words)


@lru_cache(maxsize=None)
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


@lru_cache(maxsize=None)
def stop_list(name: str) -> frozenset[str]:
    """The words of a stop list of :class:`TextAnalyzer`: ``"none"`` (empty), ``"english"`` or ``"smart"``.

    Examples
    --------
    >>> len(stop_list("english")), len(stop_list("smart")), "the" in stop_list("english")
    (318, 570, True)
    """
    if name not in _STOP_LISTS:
        raise ValueError(f"stop list must be one of {_STOP_LISTS}, got {name!r}")
    if name == "english":
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        return frozenset(ENGLISH_STOP_WORDS)
    if name == "smart":
        try:
            from RAKE.stoplists.SmartStopList import words
        except ImportError:
            raise ImportError("the SMART stop list needs the python-rake package: pip install python-rake") from None
        return frozenset(words())
    return frozenset()


_STEM_MEMO: dict[str, dict[str, str]] = {}


def stem_words(stemmer: str, words: list[str]) -> list[str]:
    """Stem ``words``, each distinct word once (a per-stemmer memo; Snowball stemmers are pure Python).

    A word whose stem is empty is dropped: Porter's algorithm reduces the word "s" (of "U.S.") to "".
    """
    if stemmer == "none":
        return words
    snowballstemmer = require("snowballstemmer", f"stemming ({stemmer!r})")

    memo = _STEM_MEMO.setdefault(stemmer, {})
    new = [w for w in dict.fromkeys(words) if w not in memo]
    if new:
        algorithm = snowballstemmer.stemmer({"porter": "porter", "porter2": "english"}[stemmer])
        memo.update(zip(new, algorithm.stemWords(new)))
    return [memo[w] for w in words if memo[w]]


def count_matrix(train_texts: Sequence[str], test_texts: Sequence[str],
                 analyzer: Callable[[str], list[str]] | None = None):
    """Term counts of training and test texts over the vocabulary of the training texts.

    ``analyzer`` cuts a text into terms (default :func:`tokenize`; e.g. a :class:`TextAnalyzer`).

    Returns
    -------
    train_counts, test_counts : scipy.sparse.csr_matrix
        Raw term frequencies, shape (n_docs, n_terms); terms seen only in test texts are dropped.
    vocabulary : list of str
        The terms, sorted alphabetically (column order).

    Parameters
    ----------
    train_texts, test_texts : sequence of str
    analyzer : callable, optional
        ``analyzer(text) -> list of str``.

    Examples
    --------
    >>> train, test, terms = count_matrix(["the cat sat", "the dog"], ["a cat"])
    >>> terms, train.toarray().tolist(), test.toarray().tolist()
    (['cat', 'dog', 'sat', 'the'], [[1, 0, 1, 1], [0, 1, 0, 1]], [[1, 0, 0, 0]])
    """
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(analyzer=tokenize if analyzer is None else analyzer)
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

    Examples
    --------
    "the" is in every training document (idf 0); "cat" and "sat" share the first document's weight:

    >>> train, test, terms = count_matrix(["the cat sat", "the dog"], ["a cat"])
    >>> X_train, X_test = ltc_tfidf(train, test)
    >>> X_train.toarray().round(3).tolist(), X_test.toarray().tolist()
    ([[0.707, 0.0, 0.707, 0.0], [0.0, 1.0, 0.0, 0.0]], [[1.0, 0.0, 0.0, 0.0]])
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



def _label_matrix(label_sets: Iterable[Sequence[str]], labels: Sequence[str]) -> np.ndarray:
    index = {lab: j for j, lab in enumerate(labels)}
    label_sets = list(label_sets)
    Y = np.zeros((len(label_sets), len(labels)), dtype=_Y_DTYPE)
    for i, ls in enumerate(label_sets):
        Y[i, [index[lab] for lab in ls]] = 1
    return Y
