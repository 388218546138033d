"""The PATENTCORPUS5000 layout and retrieval with class definitions as queries.

PATENTCORPUS5000 (Semantic Search Art, seed 001 of this book) is a zip of 5000 plain-text patent descriptions from
50 USPTO classes, 100 per class. Each class has a folder named by its class number, and each document is named
``C{class}P{patent}.txt`` (for example ``131/C131P7024994.txt``). The corpus also ships, for every class, the
USPTO class definition, a short expert-written text that serves as a query for that class.

The exact file names of the class definitions are not documented by the seed, so :func:`load_patent_corpus`
accepts any ``.txt`` file that is not a document and whose name is a class number, optionally with a prefix or
suffix such as ``Q``, ``query``, ``class`` or ``definition`` (``131.txt``, ``Q131.txt``, ``queries/class_131.txt``,
``131_definition.txt``); pass ``query_pattern`` for another convention.

:func:`class_query_retrieval` runs each class definition as a query against the documents (TF-IDF cosine
similarity), keeps the top answers and scores them with precision, recall and F
(:func:`labelrank.metrics.retrieval_scores`).
"""

from __future__ import annotations

import re
import warnings
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pandas as pd

from labelrank.metrics.clustering import retrieval_scores

__all__ = [
    "DOCUMENT_PATTERN",
    "QUERY_PATTERN",
    "PatentCorpus",
    "load_patent_corpus",
    "query_similarities",
    "class_query_retrieval",
]

#: A document file name: ``C{class}P{patent}.txt`` (class and patent may carry a letter prefix, e.g. D, PLT, RE).
DOCUMENT_PATTERN = re.compile(r"^C(?P<cls>[A-Z]{0,3}\d+)P(?P<patent>[A-Z]{0,3}\d+)\.txt$", re.IGNORECASE)

#: A class-definition file name: the class number with an optional prefix or suffix (``Q131.txt``, ``131.txt``).
QUERY_PATTERN = re.compile(
    r"^(?:query|q|class|c|definition|def)?[_\- ]?(?P<cls>[A-Z]{0,3}\d+)"
    r"(?:[_\- ]?(?:query|q|definition|def))?\.txt$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PatentCorpus:
    """Documents and class-definition queries in the PATENTCORPUS5000 layout.

    Attributes
    ----------
    texts : list of str
        The documents, sorted by (class, patent).
    classes : numpy.ndarray of str
        The class number of each document, read from its file name.
    patents : list of str
        The patent number of each document.
    paths : list of str
        Each document's path inside the zip (or relative to the folder).
    queries : dict of str to str
        Class number -> class definition text (empty when the corpus has none).
    """

    texts: list[str]
    classes: np.ndarray
    patents: list[str]
    paths: list[str]
    queries: dict[str, str] = field(default_factory=dict)

    @property
    def class_names(self) -> list[str]:
        """The distinct class numbers, sorted numerically where possible."""
        return sorted(set(self.classes.tolist()), key=_class_sort_key)

    def __len__(self) -> int:
        return len(self.texts)


def _class_sort_key(cls: str) -> tuple[str, int]:
    match = re.match(r"^([A-Z]*)(\d+)$", cls, re.IGNORECASE)
    return (match.group(1).upper(), int(match.group(2))) if match else (cls, -1)


def _iter_text_files(source: Path):
    """Yield (relative posix path, bytes) of every ``.txt`` file in a zip archive or a folder."""
    if source.is_dir():
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.suffix.lower() == ".txt":
                yield path.relative_to(source).as_posix(), path.read_bytes()
    elif zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                if not info.is_dir() and info.filename.lower().endswith(".txt"):
                    yield info.filename, archive.read(info)
    else:
        raise ValueError(f"source must be a zip archive or a folder, got {str(source)!r}")


def load_patent_corpus(
    source: str | Path, *, query_pattern: str | re.Pattern | None = None, encoding: str = "utf-8"
) -> PatentCorpus:
    """Read a corpus laid out like PATENTCORPUS5000 from a zip archive or an extracted folder.

    Parameters
    ----------
    source : str or pathlib.Path
        ``PATENTCORPUS5000.zip`` or the folder it was extracted into.
    query_pattern : str or re.Pattern, optional
        Regular expression with a named group ``cls`` that a class-definition file's *name* must match in full;
        default :data:`QUERY_PATTERN`.
    encoding : str
        Text encoding of the files (the seed says ASCII); undecodable bytes are replaced.

    Returns
    -------
    PatentCorpus

    Raises
    ------
    FileNotFoundError
        If ``source`` does not exist.
    ValueError
        If ``source`` holds no document, if a document sits in a numbered folder other than its class, if a
        (class, patent) pair occurs twice, or if two files define the same class.
    """
    source = Path(source)
    if not source.exists():
        raise FileNotFoundError(f"source {str(source)!r} does not exist")
    if query_pattern is None:
        pattern = QUERY_PATTERN
    else:
        pattern = re.compile(query_pattern, re.IGNORECASE) if isinstance(query_pattern, str) else query_pattern
        if "cls" not in pattern.groupindex:
            raise ValueError(f"query_pattern must have a named group 'cls', got {pattern.pattern!r}")

    documents: dict[tuple[str, str], tuple[str, str]] = {}
    queries: dict[str, str] = {}
    query_paths: dict[str, str] = {}
    for relpath, data in _iter_text_files(source):
        name = PurePosixPath(relpath).name
        if name.startswith("._") or "__MACOSX" in relpath:  # resource forks added by macOS zip tools
            continue
        text = data.decode(encoding, errors="replace")
        doc = DOCUMENT_PATTERN.match(name)
        if doc:
            cls, patent = doc.group("cls").upper(), doc.group("patent").upper()
            folder = PurePosixPath(relpath).parent.name
            if re.fullmatch(r"[A-Z]{0,3}\d+", folder, re.IGNORECASE) and folder.upper() != cls:
                raise ValueError(f"document {relpath!r} names class {cls} but sits in folder {folder!r}")
            if (cls, patent) in documents:
                raise ValueError(
                    f"document C{cls}P{patent} occurs twice: {documents[(cls, patent)][0]!r} and {relpath!r}"
                )
            documents[(cls, patent)] = (relpath, text)
            continue
        query = pattern.fullmatch(name)
        if query:
            cls = query.group("cls").upper()
            if cls in queries:
                raise ValueError(f"class {cls} has two definitions: {query_paths[cls]!r} and {relpath!r}")
            queries[cls] = text.strip()
            query_paths[cls] = relpath
    if not documents:
        raise ValueError(f"source {str(source)!r} holds no document named C<class>P<patent>.txt")
    known = {cls for cls, _ in documents}
    orphans = sorted(set(queries) - known)
    if orphans:
        warnings.warn(
            f"ignoring class definitions for classes without documents: {[query_paths[c] for c in orphans]}",
            stacklevel=2,
        )
        queries = {cls: text for cls, text in queries.items() if cls in known}

    keys = sorted(documents, key=lambda k: (_class_sort_key(k[0]), k[1]))
    return PatentCorpus(
        texts=[documents[k][1] for k in keys],
        classes=np.array([k[0] for k in keys]),
        patents=[k[1] for k in keys],
        paths=[documents[k][0] for k in keys],
        queries=dict(sorted(queries.items(), key=lambda item: _class_sort_key(item[0]))),
    )


def query_similarities(queries: Sequence[str], texts: Sequence[str], vectorizer: Any = None) -> np.ndarray:
    """Cosine similarity between each query and each document in TF-IDF space.

    .. math::

        s(q, d) = \\frac{\\mathbf{q} \\cdot \\mathbf{d}}{\\lVert \\mathbf{q} \\rVert \\, \\lVert \\mathbf{d} \\rVert} ,

    with :math:`\\mathbf{q}, \\mathbf{d}` the TF-IDF vectors of the vectorizer fitted on the documents only (the
    queries do not change the vocabulary or the idf weights).

    Parameters
    ----------
    queries : sequence of str
    texts : sequence of str
        The documents.
    vectorizer : scikit-learn text vectorizer, optional
        Unfitted; it is fitted on ``texts``. Default
        :func:`labelrank.studies.semanticsearchart.clustering_study.tfidf_vectorizer` with ``min_df=1``.

    Returns
    -------
    numpy.ndarray of shape (n_queries, n_documents), entries in [0, 1]
    """
    for name, value in (("queries", queries), ("texts", texts)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be a sequence of strings, got {type(value).__name__}")
        if len(value) == 0:
            raise ValueError(f"{name} must not be empty")
        bad = next((v for v in value if not isinstance(v, str)), None)
        if bad is not None:
            raise TypeError(f"{name} must hold strings, got {bad!r}")
    if vectorizer is None:
        from labelrank.studies.semanticsearchart.clustering_study import tfidf_vectorizer

        vectorizer = tfidf_vectorizer(min_df=1)
    D = vectorizer.fit_transform(texts)
    Q = vectorizer.transform(queries)
    # TfidfVectorizer rows are L2-normalised, so the dot product is the cosine.
    return np.asarray((Q @ D.T).toarray())


def class_query_retrieval(
    texts: Sequence[str],
    classes: Any,
    queries: Mapping[str, str],
    *,
    n_results: int | Sequence[int] | None = None,
    vectorizer: Any = None,
) -> pd.DataFrame:
    """Use each class definition as a query and score its answers with precision, recall and F.

    For class ``c`` with definition ``q_c``, the documents are ranked by :func:`query_similarities`; the top
    ``n_results`` (by default as many as class ``c`` has documents, so that precision = recall = F, the
    R-precision of the query) are its answer set, and a document is relevant when its class is ``c``.

    Parameters
    ----------
    texts : sequence of str
        The documents.
    classes : array-like of shape (n_documents,)
        Each document's class (compared with the query keys as strings).
    queries : mapping of class -> str
        The class definitions; every key must be a class that occurs in ``classes``.
    n_results : int or sequence of int, optional
        Size of every answer set (default: the class size); with several sizes, one row per class and size, from
        a single ranking.
    vectorizer : scikit-learn text vectorizer, optional
        Passed to :func:`query_similarities`.

    Returns
    -------
    pandas.DataFrame
        One row per query (and answer-set size): ``class``, ``n_relevant``, ``n_retrieved``,
        ``n_relevant_retrieved``, ``precision``, ``recall``, ``f``.

    Notes
    -----
    Ties in similarity are broken by document order (a stable sort), so the result is deterministic.
    """
    classes = np.asarray(classes).astype(str)
    if classes.ndim != 1 or classes.shape[0] != len(texts):
        raise ValueError(f"classes must be 1-D with one entry per text ({len(texts)}), got shape {classes.shape}")
    if not isinstance(queries, Mapping) or len(queries) == 0:
        raise ValueError(f"queries must be a non-empty mapping of class -> definition, got {queries!r:.60}")
    unknown = [k for k in queries if str(k) not in set(classes.tolist())]
    if unknown:
        raise ValueError(f"queries has classes that no document belongs to: {unknown[:5]}")
    sizes = [n_results] if n_results is None or not isinstance(n_results, Sequence) else list(n_results)
    if not sizes:
        raise ValueError("n_results must not be an empty sequence")
    for size in sizes:
        if size is not None and (isinstance(size, bool) or not isinstance(size, (int, np.integer))):
            raise TypeError(f"n_results must be an integer, a sequence of integers or None, got {n_results!r}")
        if size is not None and size < 1:
            raise ValueError(f"n_results must be >= 1, got {size}")

    keys = [str(k) for k in queries]
    S = query_similarities([queries[k] for k in queries], list(texts), vectorizer)
    rows = []
    for key, sims in zip(keys, S):
        relevant = classes == key
        n_relevant = int(relevant.sum())
        hits = np.cumsum(relevant[np.argsort(-sims, kind="stable")])  # relevant answers among the top 1, 2, ...
        for size in sizes:
            n_retrieved = min(n_relevant if size is None else int(size), len(texts))
            n_hit = int(hits[n_retrieved - 1])
            precision, recall, f = retrieval_scores(n_retrieved, n_hit, n_relevant)
            rows.append(
                {
                    "class": key,
                    "n_relevant": n_relevant,
                    "n_retrieved": n_retrieved,
                    "n_relevant_retrieved": n_hit,
                    "precision": precision,
                    "recall": recall,
                    "f": f,
                }
            )
    return pd.DataFrame(rows)
