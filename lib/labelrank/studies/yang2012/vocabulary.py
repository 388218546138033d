"""Which text preprocessing gives Yang & Gopal's Reuters-21578 vocabulary of 18,637 terms?

The paper (Table 1) reports 18,637 features for the 7,770 ModApte training documents and says only that the
terms are weighted "ltc". :func:`vocabulary_variants` counts the vocabulary under every combination of the choices
such a pipeline makes (which part of the story is read, case, what a term is, stop list, stemmer, a
document-frequency cut, whether test documents contribute terms), so that the chapter "Data sets" can show which
choices matter and adopt the closest (:data:`labelrank.datasets.REUTERS_ANALYZER`).
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import scipy.sparse as sp

from labelrank.datasets import modapte_split, reuters_documents, stop_list
from labelrank.datasets.download import cached_parse
from labelrank.datasets.text import stem_words

FIELDS = {"text": "TITLE + BODY", "text_all": "whole TEXT"}
PATTERNS = (r"[a-z]{2,}", r"[a-z]+", r"[a-z][a-z0-9]*", r"[a-z0-9]+")
STOP_LISTS = ("none", "english", "smart")
STEMMERS = ("none", "porter", "porter2")
MIN_DF = (1, 2, 3)
VOCABULARY_FROM = ("training", "training + test")


def _binary_matrix(word_lists: list[list[str]], index: dict[str, int]) -> sp.csr_matrix:
    """Documents x words, 1 where the document holds the word."""
    rows, cols = [], []
    for i, words in enumerate(word_lists):
        ids = {index[w] for w in words}
        rows.extend([i] * len(ids))
        cols.extend(ids)
    shape = (len(word_lists), len(index))
    return sp.csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=shape)


def _term_map(words: list[str], stop: str, stemmer: str) -> sp.csr_matrix:
    """Words x terms, 1 where the word becomes the term (a stopped word or an empty stem becomes none)."""
    stopped = stop_list(stop)
    terms = {}
    cols = []
    for w in words:
        if w.lower() in stopped:
            cols.append(-1)
            continue
        stem = stem_words(stemmer, [w])
        cols.append(terms.setdefault(stem[0], len(terms)) if stem else -1)
    cols = np.array(cols)
    keep = np.flatnonzero(cols >= 0)
    return sp.csr_matrix((np.ones(len(keep), dtype=np.int32), (keep, cols[keep])), shape=(len(words), len(terms)))


def _variants_uncached(folder, *, hashes=(), version=0) -> pd.DataFrame:
    parts, _ = modapte_split(reuters_documents(folder))
    rows = []
    for (field, field_name), case_kept, pattern in itertools.product(FIELDS.items(), (False, True), PATTERNS):
        compiled = re.compile(pattern, re.IGNORECASE if case_kept else 0)
        lists = {s: [compiled.findall(t if case_kept else t.lower()) for t in parts[s][field]] for s in parts}
        words = sorted({w for s in lists for ws in lists[s] for w in ws})
        index = {w: j for j, w in enumerate(words)}
        docs = {s: _binary_matrix(lists[s], index) for s in lists}
        # a stemmer works on lower-case words: with the case kept, only the unstemmed variants are counted
        for stop, stemmer in itertools.product(STOP_LISTS, ("none",) if case_kept else STEMMERS):
            mapping = _term_map(words, stop, stemmer)
            df_train = np.asarray(((docs["train"] @ mapping) > 0).sum(axis=0)).ravel()
            df_test = np.asarray(((docs["test"] @ mapping) > 0).sum(axis=0)).ravel()
            for source, min_df in itertools.product(VOCABULARY_FROM, MIN_DF):
                df = df_train if source == "training" else df_train + df_test
                rows.append({"text": field_name, "case": "kept" if case_kept else "lower", "term": pattern,
                             "stop list": stop, "stemmer": stemmer, "min df": min_df, "vocabulary of": source,
                             "terms": int((df >= min_df).sum())})
    return pd.DataFrame(rows)


def vocabulary_variants(paper_terms: int | None = None) -> pd.DataFrame:
    """The size of the ModApte training vocabulary of Reuters-21578 under every preprocessing variant.

    The choices, all combined: the ``text`` read (TITLE + BODY, or the whole TEXT element with dateline and
    author), the ``case`` (lower-cased, or kept; a stemmer needs lower case, so kept-case variants are
    unstemmed), the ``term`` pattern (letters only, of length 2 or more or any; a letter then letters or
    digits; letters or digits, so numbers count), the ``stop list`` and ``stemmer`` of
    :class:`labelrank.datasets.TextAnalyzer` (the stop list applies to the word before stemming), the ``min df``
    (a term must occur in at least that many documents) and whether the ``vocabulary of`` the training documents
    only or of training and test documents is counted.

    Counted over the 7,770 training (and 3,019 test) documents of :func:`labelrank.datasets.modapte_split`;
    cached with the parsed data sets (computing it takes a while: every document is analysed once per variant).

    Parameters
    ----------
    paper_terms : int, optional
        If given, a column ``minus paper`` (``terms - paper_terms``) is added and the rows are sorted by its
        absolute value, closest first (ties in the order of the choices above).

    Returns
    -------
    pandas.DataFrame
        One row per variant: the seven choices and ``terms``.
    """
    table = cached_parse(_variants_uncached, "reuters21578-vocabulary", "reuters21578").copy()
    if paper_terms is not None:
        table["minus paper"] = table["terms"] - int(paper_terms)
        order = np.argsort(table["minus paper"].abs().to_numpy(), kind="stable")
        table = table.iloc[order].reset_index(drop=True)
    return table
