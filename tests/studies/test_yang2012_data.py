"""Yang & Gopal's data: the Reuters-21578 vocabulary the study settles on, and the transcribed Table 1
(``labelrank.studies.yang2012.vocabulary``, ``labelrank.studies.paper``)."""

from __future__ import annotations

import re

import numpy as np
from labelrank import datasets
from labelrank.datasets import (
    REGISTRY,
)
from support import need


def test_reuters_vocabulary_is_the_closest_searched_variant():
    need("reuters21578")
    from labelrank.studies.yang2012.vocabulary import vocabulary_variants
    from sklearn.feature_extraction.text import CountVectorizer

    table = vocabulary_variants(18637)
    assert len(table) == 2 * (4 * 3 * 3 + 4 * 3 * 1) * 3 * 2  # fields x (lower: all, kept: unstemmed) x df x source
    assert table["minus paper"].abs().is_monotonic_increasing
    vocab = datasets.vocabulary("reuters21578")
    assert table.loc[0, "terms"] == len(vocab) == 18597
    assert datasets.preparation("emotions") == () and datasets.preparation("reuters21578") == (
        datasets.reuters_preparation())
    assert datasets.reuters_preparation() == (
        "field=text_all", "TextAnalyzer(pattern='[a-z][a-z0-9]*', stop_words='english', stemmer='porter')", "ltc")
    # the search's sparse counting against an independent count, on other variants
    parts, _ = datasets.modapte_split(datasets.reuters_documents())
    train, test = list(parts["train"]["text"]), list(parts["test"]["text"])

    def row(**choices):
        sel = np.ones(len(table), dtype=bool)
        for k, v in choices.items():
            sel &= table[k].to_numpy() == v
        assert sel.sum() == 1, choices
        return int(table.loc[sel, "terms"].iloc[0])

    base = {"text": "TITLE + BODY", "case": "lower", "term": "[a-z]{2,}", "stop list": "none"}
    old = CountVectorizer(analyzer=datasets.tokenize)
    assert row(**base, stemmer="none", **{"min df": 1, "vocabulary of": "training"}) == len(old.fit(train).vocabulary_)
    assert row(**base, stemmer="none", **{"min df": 3, "vocabulary of": "training + test"}) == len(
        CountVectorizer(analyzer=datasets.tokenize, min_df=3).fit(train + test).vocabulary_)
    kept = CountVectorizer(analyzer=lambda t: re.findall(r"[a-z]+", t, re.IGNORECASE), min_df=2)
    assert row(**{**base, "case": "kept", "term": "[a-z]+"}, stemmer="none",
               **{"min df": 2, "vocabulary of": "training"}) == len(kept.fit(train).vocabulary_)
    porter2 = datasets.TextAnalyzer(r"[a-z0-9]+", "english", "porter2")
    assert row(**{**base, "term": "[a-z0-9]+", "stop list": "english"}, stemmer="porter2",
               **{"min df": 1, "vocabulary of": "training"}) == len(CountVectorizer(analyzer=porter2).fit(train).vocabulary_)


def test_table1_paper_file():
    from labelrank.studies import paper

    t = paper.load("yang2012_table1")
    assert list(t.columns[:6]) == [
        "dataset", "train_size", "test_size", "n_categories", "avg_categories_per_instance", "n_features",
    ]
    assert set(t["dataset"]) == {"vowel", "emotions", "scene", "yeast", "citeseer", "reuters21578"}
    assert set(t["dataset"]) - {"citeseer"} <= set(REGISTRY)
