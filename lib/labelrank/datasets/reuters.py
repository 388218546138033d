"""Reuters-21578 (SGML), its ModApte split and the 90 categories with a training and a test document."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pandas as pd

from labelrank.datasets.download import fetch
from labelrank.datasets.registry import SPLITS
from labelrank.datasets.text import TextAnalyzer, _label_matrix, count_matrix, ltc_tfidf

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
        ``text`` (TITLE + BODY; for the unprocessed documents without those tags, the whole TEXT element) and
        ``text_all`` (the whole TEXT element: title, author, dateline and body), markup removed and entities such
        as ``&lt;`` decoded. Files are read as Latin-1.

    Examples
    --------
    >>> docs = reuters_documents()
    >>> len(docs), list(docs.columns)
    (21578, ['newid', 'lewissplit', 'topics_attr', 'topics', 'text', 'text_all'])
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
            text_all = _sgml_text(text_xml)
            if title_m or body_m:
                text = " ".join(_sgml_text(x.group(1)) for x in (title_m, body_m) if x)
            else:
                text = text_all
            rows.append(
                {
                    "newid": int(attrs["NEWID"]),
                    "lewissplit": attrs.get("LEWISSPLIT", ""),
                    "topics_attr": attrs.get("TOPICS", ""),
                    "topics": topics,
                    "text": text,
                    "text_all": text_all,
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

    Examples
    --------
    >>> split, categories = modapte_split(reuters_documents())
    >>> len(split["train"]), len(split["test"]), len(categories), categories[:3]
    (7770, 3019, 90, ['acq', 'alum', 'barley'])
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




# How load("reuters21578") reads a story: the whole TEXT element, cut into terms that start with a letter, minus
# scikit-learn's English stop words, Porter-stemmed. Of the variants the book searches, it gives the vocabulary
# closest to Yang & Gopal's 18,637 terms (chapter "Data sets"; labelrank.studies.yang2012.vocabulary).
REUTERS_FIELD = "text_all"
REUTERS_ANALYZER = TextAnalyzer(pattern=r"[a-z][a-z0-9]*", stop_words="english", stemmer="porter")


def reuters_preparation() -> tuple[str, ...]:
    """What turns Reuters-21578's files into :func:`labelrank.datasets.load`'s matrices, as strings for cache keys:
    the text field read, the analyzer, the weighting.

    Examples
    --------
    >>> reuters_preparation()
    ('field=text_all', "TextAnalyzer(pattern='[a-z][a-z0-9]*', stop_words='english', stemmer='porter')", 'ltc')
    """
    return (f"field={REUTERS_FIELD}", repr(REUTERS_ANALYZER), "ltc")


def _parse_reuters(folder: Path, field: str = REUTERS_FIELD, analyzer: TextAnalyzer = REUTERS_ANALYZER, *,
                   hashes=(), version=0):
    parts, categories = modapte_split(reuters_documents(folder))
    train_counts, test_counts, vocabulary = count_matrix(list(parts["train"][field]), list(parts["test"][field]),
                                                         analyzer)
    X_train, X_test = ltc_tfidf(train_counts, test_counts)
    return {
        "train": (X_train, _label_matrix(parts["train"]["topics"], categories)),
        "test": (X_test, _label_matrix(parts["test"]["topics"], categories)),
        "labels": categories,
        "vocabulary": vocabulary,
    }
