"""Clustering 20 Newsgroups and scoring it with the F-measures of seed 001.

The study behind the chapter "F-measure for clustering": for a number of groups ``g`` (5, 10, 20) and a seed, draw
``g`` of the 20 newsgroups at random, take their messages (headers stripped), turn them into TF-IDF vectors, cluster
them into ``g`` clusters and score the clustering against the groups with

* the greedy mean F of the seed (:func:`labelrank.metrics.greedy_f_measure`),
* the matched mean F (:func:`labelrank.metrics.matched_f_measure`),
* Larsen & Aone's class-weighted F (:func:`labelrank.metrics.class_weighted_f_measure`),
* accuracy: the fraction of messages on the diagonal after the seed's greedy assignment, and after the
  assignment that maximises accuracy (:func:`labelrank.metrics.clustering_accuracy`),

and time the vectorising plus clustering to get documents per second on this machine.

The documents are represented with scikit-learn's TF-IDF (:func:`tfidf_vectorizer`: sublinear tf, smoothed idf,
English stop words) and not with the "ltc" weights of :func:`labelrank.datasets.ltc_tfidf`: seed 001 prescribes no
term weighting for its clustering F-measure, and ``TfidfVectorizer`` is the common baseline representation for
clustering 20 Newsgroups, whereas ltc is what Yang & Gopal's classification experiments (Reuters-21578) use.

Two clustering methods: ``"kmeans"`` (scikit-learn's :class:`~sklearn.cluster.KMeans`, Euclidean, on the
L2-normalised TF-IDF rows) and ``"spherical_kmeans"`` (:func:`spherical_kmeans`, cosine similarity with unit-length
centroids, Dhillon & Modha 2001). Runs are cached (:class:`labelrank.cache.ResultCache`) under
:func:`labelrank.paths.cache_dir`, keyed on their parameters and ``_STUDY_VERSION``; a cached run keeps the timing
measured when it was computed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.cluster import KMeans
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

from labelrank.cache import ResultCache
from labelrank.paths import cache_dir
from labelrank.validation import check_choice, check_positive_int, check_real
from labelrank.metrics.clustering import (
    class_weighted_f_measure,
    clustering_accuracy,
    contingency_table,
    greedy_f_measure,
    matched_f_measure,
)

__all__ = [
    "METHODS",
    "tfidf_vectorizer",
    "spherical_kmeans",
    "cluster_texts",
    "choose_groups",
    "score_clustering",
    "run_one",
    "run_study",
    "summarize",
]

METHODS = ("kmeans", "spherical_kmeans")

# Bump when the study's computation changes, so that cached runs are recomputed.
_STUDY_VERSION = 1


def tfidf_vectorizer(min_df: int | float = 2, max_df: float = 0.5) -> TfidfVectorizer:
    """The TF-IDF representation used for clustering and for class-definition queries.

    Sublinear term frequency :math:`1 + \\log \\mathrm{tf}`, smoothed idf, English stop words removed, terms in
    fewer than ``min_df`` documents or in more than a fraction ``max_df`` of them dropped, rows L2-normalised
    (Salton & Buckley 1988).

    Parameters
    ----------
    min_df : int or float
        Minimum document frequency (count, or fraction of documents).
    max_df : float
        Maximum document frequency as a fraction of documents.

    Returns
    -------
    sklearn.feature_extraction.text.TfidfVectorizer
        Unfitted.
    """
    return TfidfVectorizer(
        sublinear_tf=True, stop_words="english", min_df=min_df, max_df=max_df, dtype=np.float32
    )


def _kmeans_plus_plus_cosine(X: sp.csr_matrix, n_clusters: int, rng: np.random.Generator) -> np.ndarray:
    """k-means++ seeding with the cosine dissimilarity 1 - cos (proportional to the squared distance of unit rows)."""
    n = X.shape[0]
    centers = [int(rng.integers(n))]
    best = np.asarray((X @ X[centers[0]].T).toarray()).ravel()
    for _ in range(1, n_clusters):
        weights = np.clip(1.0 - best, 0.0, None)
        total = weights.sum()
        nxt = int(rng.choice(n, p=weights / total)) if total > 0 else int(rng.integers(n))
        centers.append(nxt)
        best = np.maximum(best, np.asarray((X @ X[nxt].T).toarray()).ravel())
    return np.asarray(X[centers].toarray(), dtype=np.float64)


def spherical_kmeans(
    X: Any, n_clusters: int, *, n_init: int = 3, max_iter: int = 100, tol: float = 1e-6, random_state: int = 0
) -> np.ndarray:
    """Spherical k-means: k-means with cosine similarity and unit-length centroids.

    Maximises the total cosine similarity between documents and their cluster's concept vector,

    .. math::

        Q = \\sum_{c=1}^{k} \\sum_{x \\in \\pi_c} x^\\top m_c, \\qquad
        m_c = \\frac{\\sum_{x \\in \\pi_c} x}{\\lVert \\sum_{x \\in \\pi_c} x \\rVert},

    alternating assignment (each unit-length row to the centroid of largest cosine) and update (normalised sum),
    from k-means++ seeds drawn with the dissimilarity :math:`1 - \\cos`; the best of ``n_init`` runs (largest Q)
    is kept (Dhillon & Modha 2001, "Concept decompositions for large sparse text data using clustering").

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n_documents, n_features)
        Document vectors; rows are L2-normalised here (an all-zero row is similar to no centroid and goes to
        cluster 0).
    n_clusters : int
        Number of clusters, at most ``n_documents``.
    n_init : int
        Number of seeded restarts.
    max_iter : int
        Maximum assignment/update rounds per restart.
    tol : float
        Stop when Q improves by less than ``tol * |Q|`` (>= 0; 0 runs until Q stops improving or ``max_iter``).
    random_state : int
        Seed of the restarts, a non-negative integer (``None`` is refused: every run is repeatable).

    Returns
    -------
    numpy.ndarray of int64, shape (n_documents,)
        Cluster labels in ``0 .. n_clusters - 1``.
    """
    n_clusters = check_positive_int(n_clusters, "n_clusters")
    n_init = check_positive_int(n_init, "n_init")
    max_iter = check_positive_int(max_iter, "max_iter")
    tol = check_real(tol, "tol", low=0.0)
    random_state = check_positive_int(random_state, "random_state", minimum=0)  # a fixed seed: runs are repeatable
    X = normalize(sp.csr_matrix(X, dtype=np.float64))
    n = X.shape[0]
    if n_clusters > n:
        raise ValueError(f"n_clusters must be <= the number of documents ({n}), got {n_clusters}")
    rng = np.random.default_rng(random_state)
    best_labels, best_q = None, -np.inf
    for _ in range(n_init):
        centroids = _kmeans_plus_plus_cosine(X, n_clusters, rng)
        previous = -np.inf
        for _ in range(max_iter):
            sims = np.asarray(X @ centroids.T)
            labels = sims.argmax(axis=1)
            q = float(sims[np.arange(n), labels].sum())
            membership = sp.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(n_clusters, n))
            sums = np.asarray((membership @ X).todense())
            empty = np.flatnonzero(np.linalg.norm(sums, axis=1) == 0)
            if empty.size:  # re-seed an empty cluster with the documents farthest from their centroids
                worst = np.argsort(sims[np.arange(n), labels], kind="stable")[: empty.size]
                sums[empty] = X[worst].toarray()
            centroids = normalize(sums)
            if q - previous <= tol * abs(q):
                break
            previous = q
        if q > best_q:
            best_q, best_labels = q, labels
    return best_labels.astype(np.int64)


def cluster_texts(
    texts: Sequence[str],
    n_clusters: int,
    method: str = "kmeans",
    *,
    seed: int = 0,
    n_init: int = 3,
    min_df: int | float = 2,
) -> tuple[np.ndarray, dict[str, float]]:
    """Vectorise texts with :func:`tfidf_vectorizer` and cluster them, timing both steps.

    Parameters
    ----------
    texts : sequence of str
    n_clusters : int
    method : {"kmeans", "spherical_kmeans"}
    seed : int
        Random state of the clustering.
    n_init : int
        Restarts of the clustering (the best is kept).
    min_df : int or float
        Passed to :func:`tfidf_vectorizer`.

    Returns
    -------
    labels : numpy.ndarray of int64, shape (n_documents,)
    info : dict
        ``n_features``, ``seconds_vectorize``, ``seconds_cluster`` (wall clock, :func:`time.perf_counter`).
    """
    method = check_choice(method, "method", METHODS)
    start = time.perf_counter()
    X = tfidf_vectorizer(min_df=min_df).fit_transform(texts)
    middle = time.perf_counter()
    if method == "kmeans":
        model = KMeans(n_clusters=n_clusters, n_init=n_init, random_state=seed)
        labels = model.fit_predict(X)
    else:
        labels = spherical_kmeans(X, n_clusters, n_init=n_init, random_state=seed)
    end = time.perf_counter()
    info = {"n_features": float(X.shape[1]), "seconds_vectorize": middle - start, "seconds_cluster": end - middle}
    return np.asarray(labels, dtype=np.int64), info


def choose_groups(n_groups: int, seed: int, n_available: int = 20) -> list[int]:
    """The ``n_groups`` group indices (sorted) that run ``seed`` clusters: a seeded draw without replacement."""
    n_groups = check_positive_int(n_groups, "n_groups")
    if n_groups > n_available:
        raise ValueError(f"n_groups must be <= {n_available}, got {n_groups}")
    rng = np.random.default_rng([seed, n_groups])
    return sorted(rng.choice(n_available, size=n_groups, replace=False).tolist())


def score_clustering(labels: Any, classes: Any) -> dict[str, Any]:
    """All the clustering scores of the study for one clustering.

    Returns
    -------
    dict
        ``greedy_f``, ``matched_f``, ``class_weighted_f``, ``accuracy_greedy`` (diagonal after the greedy
        F assignment, the seed's rearranged table), ``accuracy_optimal`` (best one-to-one on counts),
        ``contingency`` (rows = clusters, columns = classes, as a nested list) and ``assignment_differs``
        (greedy and matched F assignments differ).
    """
    table, _, _ = contingency_table(labels, classes)
    greedy_f, greedy_assignment = greedy_f_measure(table)
    matched_f, matched_assignment = matched_f_measure(table)
    return {
        "greedy_f": greedy_f,
        "matched_f": matched_f,
        "class_weighted_f": class_weighted_f_measure(table),
        "accuracy_greedy": clustering_accuracy(table, greedy_assignment),
        "accuracy_optimal": clustering_accuracy(table),
        "assignment_differs": bool((greedy_assignment != matched_assignment).any()),
        "contingency": table.tolist(),
    }


def _run_one(
    n_groups: int, seed: int, method: str, split: str, docs_per_group: int | None, n_init: int, version: int
) -> dict[str, Any]:
    from labelrank.datasets import load_texts

    texts, y, group_names = load_texts("20newsgroups", split, strip_headers=True)
    groups = choose_groups(n_groups, seed, len(group_names))
    rng = np.random.default_rng([seed, n_groups, 1])
    index = []
    for g in groups:
        members = np.flatnonzero(y == g)
        if docs_per_group is not None and docs_per_group < members.size:
            members = np.sort(rng.choice(members, size=docs_per_group, replace=False))
        index.extend(members.tolist())
    index = np.asarray(index)
    subset = [texts[i] for i in index]
    labels, info = cluster_texts(subset, n_groups, method, seed=seed, n_init=n_init)
    seconds = info["seconds_vectorize"] + info["seconds_cluster"]
    return {
        "method": method,
        "n_groups": n_groups,
        "seed": seed,
        "split": split,
        "groups": ",".join(group_names[g] for g in groups),
        "n_docs": int(index.size),
        "n_chars": int(sum(len(t) for t in subset)),
        **info,
        "docs_per_second": index.size / seconds,
        **score_clustering(labels, y[index]),
    }


def run_one(
    n_groups: int,
    seed: int,
    method: str = "kmeans",
    *,
    split: str = "test",
    docs_per_group: int | None = None,
    n_init: int = 3,
    cache: bool = True,
) -> dict[str, Any]:
    """One run of the study: draw ``n_groups`` groups with ``seed``, cluster their messages, score the result.

    Parameters
    ----------
    n_groups : int
        Number of newsgroups (and of clusters), 1..20.
    seed : int
        Seeds the choice of groups, the document subsample and the clustering.
    method : {"kmeans", "spherical_kmeans"}
    split : {"train", "test"}
        The 20 Newsgroups bydate split whose messages are clustered.
    docs_per_group : int, optional
        Subsample at most this many messages per group (the quick profile); default all.
    n_init : int
        Restarts of the clustering.
    cache : bool
        Keep runs on disk under ``cache_dir()/studies`` (timings are those of the first computation).

    Returns
    -------
    dict
        The run's parameters, ``n_docs``, ``n_chars`` (characters of text), ``n_features``, timings,
        ``docs_per_second`` and the scores of
        :func:`score_clustering`.
    """
    check_positive_int(n_groups, "n_groups")
    check_positive_int(n_init, "n_init")
    if docs_per_group is not None:
        check_positive_int(docs_per_group, "docs_per_group")
    method = check_choice(method, "method", METHODS)
    func = _run_one
    if cache:
        func = ResultCache(_run_one, "clustering_run", root=cache_dir() / "studies")
    return func(n_groups, seed, method, split, docs_per_group, n_init, _STUDY_VERSION)


def run_study(
    group_counts: Sequence[int] = (5, 10, 20),
    seeds: Sequence[int] = (0, 1, 2, 3, 4),
    methods: Sequence[str] = METHODS,
    *,
    split: str = "test",
    docs_per_group: int | None = None,
    n_init: int = 3,
    cache: bool = True,
    progress: bool = True,
) -> pd.DataFrame:
    """Run :func:`run_one` over every (method, number of groups, seed), with a progress bar.

    Returns
    -------
    pandas.DataFrame
        One row per run (the keys of :func:`run_one`).
    """
    from tqdm import tqdm  # the text bar: works in a terminal and in a notebook without ipywidgets

    grid = [(m, g, s) for m in methods for g in group_counts for s in seeds]
    rows = []
    for method, n_groups, seed in tqdm(grid, desc="clustering runs", disable=not progress):
        rows.append(
            run_one(
                n_groups, seed, method, split=split, docs_per_group=docs_per_group, n_init=n_init, cache=cache
            )
        )
    return pd.DataFrame(rows)


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation over seeds of each score, per method and number of groups.

    Returns
    -------
    pandas.DataFrame
        Index (method, n_groups); columns (score, "mean" | "std") for ``greedy_f``, ``matched_f``,
        ``class_weighted_f``, ``accuracy_greedy``, ``accuracy_optimal``, ``docs_per_second``, plus ``runs``.
    """
    scores = ["greedy_f", "matched_f", "class_weighted_f", "accuracy_greedy", "accuracy_optimal", "docs_per_second"]
    missing = [c for c in scores + ["method", "n_groups"] if c not in results.columns]
    if missing:
        raise ValueError(f"results lacks the columns {missing}")
    grouped = results.groupby(["method", "n_groups"])
    table = grouped[scores].agg(["mean", "std"])
    table[("runs", "")] = grouped.size()
    return table
