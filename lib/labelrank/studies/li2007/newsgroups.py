r"""Li et al.'s study on a real label tree and real systems: 20 Newsgroups and the Usenet hierarchy.

The NTCIR-6 runs that Li, Bontcheva & Cunningham re-score were never published, so the chapter "NTCIR-6, simulated"
simulates them. This module tests the paper's claim (cost-based measures keep most runs' positions but move some,
the top ones included) on real data instead:

* **the tree** (:func:`newsgroups_tree`): the 20 group names are Usenet's own hierarchy; ``comp.sys.ibm.pc.hardware``
  lies under ``comp.sys.ibm.pc``, ``comp.sys.ibm``, ``comp.sys`` and ``comp``, and an added root ``usenet`` sits
  above the top-level hierarchies as the paper adds one above the viewpoints of a theme;
* **the systems** (:data:`SYSTEMS`): 24 real classifiers trained on the bydate training messages, spanning what the
  participants of a shared task submit: different learners (linear SVM, logistic regression, modified-Huber SGD,
  multinomial and complement naive Bayes, kNN, nearest centroid, a small MLP), different features (ltc TF-IDF, raw
  counts, binary indicators, headers kept or stripped, vocabularies of 1,000 to all 89,012 terms), flat or top-down
  over the tree, and weaker runs trained on 2-10 % of the messages. Each ranks the 20 groups for every test message
  (:func:`run_system`, seeded and cached);
* **the paper's measures** (:func:`score_runs`): binary, BDM-High and BDM-Low A-Precision, R-Precision and
  F-measure (eq. 3-5, :class:`labelrank.metrics.CostScorer`) of every run, the assigned set being the top-ranked
  group (each message has one group);
* **the paper's tables**: Kendall's tau between the runs' rankings under the binary and the BDM measures with
  bootstrap intervals over test messages (:func:`kendall_intervals`, Table 2) and the runs that change places
  (:func:`rank_moves`, Table 3's question); where the errors fall in the tree (:func:`confusion_by_distance`,
  :func:`top_confusions`).

The quick profile (``LABELRANK_PROFILE=quick``) runs :data:`QUICK_SYSTEMS` on a seeded sample of 1,500 training and
600 test messages.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import SGDClassifier
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

from labelrank.cache import ResultCache
from labelrank.paths import cache_dir
from labelrank.datasets import REGISTRY, count_matrix, load_texts, ltc_tfidf
from labelrank.cost import bdm, path_distance
from labelrank.hierarchy import LabelTree
from labelrank.metrics import CostScorer
from labelrank.protocol.profile import resolve
from labelrank.comparison import bootstrap_taus
from labelrank.studies.li2007.fterm_sim import MEASURES, VARIANT_NAMES

__all__ = ["ROOT", "System", "SYSTEMS", "QUICK_SYSTEMS", "newsgroups_tree", "tree_shape", "sample_sizes",
           "run_system", "study_runs", "systems_table", "score_runs", "kendall_intervals", "rank_moves", "confusion_by_distance", "top_confusions"]

#: The added root above the Usenet hierarchies (alt, comp, misc, rec, sci, soc, talk).
ROOT = "usenet"
#: Bump when a run's scores change for the same System (the cache keys carry it).
_VERSION = 1
#: Training and test messages of each profile (None: all 11,314 and 7,532).
_SAMPLE = {"quick": (1500, 600), "full": (None, None)}


def newsgroups_tree(groups: list[str] | None = None) -> LabelTree:
    """The Usenet hierarchy of the 20 groups: a node for every dotted prefix, below the added root ``usenet``.

    Parameters
    ----------
    groups : list of str, optional
        Group names (default: the 20 of :func:`labelrank.datasets.load_texts`).

    Examples
    --------
    >>> tree = newsgroups_tree(["comp.graphics", "comp.sys.mac.hardware", "rec.autos"])
    >>> tree.chains("comp.sys.mac.hardware")[0]
    ('usenet', 'comp', 'comp.sys', 'comp.sys.mac', 'comp.sys.mac.hardware')
    """
    if groups is None:
        groups = load_texts("20newsgroups", "test")[2]
    return LabelTree.from_paths(groups, sep=".", root=ROOT)


def tree_shape(tree: LabelTree, leaves: list[str]) -> pd.DataFrame:
    """Nodes, groups (leaves) and branching of the tree, depth by depth (depth in edges below the root).

    Examples
    --------
    >>> tree_shape(newsgroups_tree(["comp.graphics", "comp.sys.mac.hardware", "rec.autos"]),
    ...            ["comp.graphics", "comp.sys.mac.hardware", "rec.autos"])["nodes"].tolist()
    [1, 2, 3, 1, 1]
    """
    rows = {}
    for label in tree.labels:
        d = tree.depth(label)
        row = rows.setdefault(d, {"nodes": 0, "groups": 0, "children": []})
        row["nodes"] += 1
        row["groups"] += label in leaves
        if tree.children(label):
            row["children"].append(len(tree.children(label)))
    table = pd.DataFrame({d: {"nodes": r["nodes"], "groups": r["groups"],
                              "mean branching": float(np.mean(r["children"])) if r["children"] else np.nan}
                          for d, r in sorted(rows.items())}).T
    table.index.name = "depth"
    return table.astype({"nodes": int, "groups": int})


# ----------------------------------------------------------------------------------------------------- systems
Learner = Literal["linear_svm", "logistic", "huber_sgd", "multinomial_nb", "complement_nb", "knn", "centroid", "mlp"]


@dataclass(frozen=True)
class System:
    """One participant's run: a learner on features, flat or top-down over the tree.

    Attributes
    ----------
    name : str
    learner : {"linear_svm", "logistic", "huber_sgd", "multinomial_nb", "complement_nb", "knn", "centroid", "mlp"}
    features : {"tfidf", "counts", "binary"}
        ltc TF-IDF (:func:`labelrank.datasets.ltc_tfidf`), raw term counts, or 0/1 indicators scaled to unit length.
    headers : bool
        Keep the messages' header blocks (``From:``, ``Subject:``, ...).
    vocabulary : int or None
        Keep the terms of the largest training document frequency (None: all).
    train_fraction : float
        Share of the training messages used (a seeded sample): the weaker runs.
    structure : {"flat", "top-down"}
        One classifier over the 20 groups, or one per internal node over its children, a group's score being the
        product of the probabilities along its chain.
    neighbours : int
        k of the kNN learner.
    """

    name: str
    learner: Learner
    features: Literal["tfidf", "counts", "binary"] = "tfidf"
    headers: bool = True
    vocabulary: int | None = None
    train_fraction: float = 1.0
    structure: Literal["flat", "top-down"] = "flat"
    neighbours: int = 10


#: The family of real runs (24).
SYSTEMS: tuple[System, ...] = (
    System("SVM", "linear_svm"),
    System("LR", "logistic"),
    System("Huber", "huber_sgd"),
    System("Centroid", "centroid"),
    System("kNN-10", "knn"),
    System("kNN-1", "knn", neighbours=1),
    System("MNB", "multinomial_nb", "counts"),
    System("CNB", "complement_nb", "counts"),
    System("MNB-tfidf", "multinomial_nb"),
    System("MLP-5k", "mlp", vocabulary=5000),
    System("SVM-binary", "linear_svm", "binary"),
    System("SVM-noheaders", "linear_svm", headers=False),
    System("MNB-noheaders", "multinomial_nb", "counts", headers=False),
    System("Centroid-noheaders", "centroid", headers=False),
    System("SVM-2k", "linear_svm", vocabulary=2000),
    System("MNB-1k", "multinomial_nb", "counts", vocabulary=1000),
    System("LR-TD", "logistic", structure="top-down"),
    System("MNB-TD", "multinomial_nb", "counts", structure="top-down"),
    System("LR-TD-noheaders", "logistic", headers=False, structure="top-down"),
    System("MNB-TD-1k", "multinomial_nb", "counts", vocabulary=1000, structure="top-down"),
    System("SVM-10%", "linear_svm", train_fraction=0.10),
    System("LR-TD-10%", "logistic", train_fraction=0.10, structure="top-down"),
    System("MNB-5%", "multinomial_nb", "counts", train_fraction=0.05),
    System("Centroid-2%", "centroid", train_fraction=0.02),
)

#: The runs of the quick profile.
QUICK_SYSTEMS: tuple[str, ...] = ("SVM", "MNB", "Centroid", "LR-TD", "MNB-TD", "SVM-10%")


def sample_sizes(profile: str | None = None) -> tuple[int | None, int | None]:
    """(training, test) messages of a profile: all under ``full``, a seeded 1,500 and 600 under ``quick``."""
    return _SAMPLE[resolve(profile)]


def _sample(n: int, size: int | None, seed: int) -> np.ndarray:
    if size is None or size >= n:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size, replace=False))


def _corpus(headers: bool, n_train: int | None, n_test: int | None, version: tuple) -> dict:
    """Term counts of the (sampled) training and test messages, their groups and the terms."""
    train, y_train, groups = load_texts("20newsgroups", "train", strip_headers=not headers)
    test, y_test, _ = load_texts("20newsgroups", "test", strip_headers=not headers)
    keep_train, keep_test = _sample(len(train), n_train, 0), _sample(len(test), n_test, 1)
    counts_train, counts_test, terms = count_matrix([train[i] for i in keep_train], [test[i] for i in keep_test])
    return {"train": counts_train, "test": counts_test, "y_train": y_train[keep_train], "y_test": y_test[keep_test],
            "groups": groups, "terms": terms}


def _data_version() -> tuple:
    return (_VERSION, tuple(f.sha256 for f in REGISTRY["20newsgroups"].files))


def _cached_corpus(headers: bool, n_train: int | None, n_test: int | None) -> dict:
    cached = ResultCache(_corpus, "newsgroups_corpus", root=cache_dir() / "studies")
    return cached(headers, n_train, n_test, _data_version())


def _features(system: System, corpus: dict) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    train, test = corpus["train"], corpus["test"]
    if system.vocabulary is not None:  # the terms in most training messages (ties: alphabetical)
        df = np.asarray((train > 0).sum(axis=0)).ravel()
        keep = np.sort(np.argsort(-df, kind="stable")[: system.vocabulary])
        train, test = train[:, keep], test[:, keep]
    if system.features == "counts":
        return train.astype(np.float64), test.astype(np.float64)
    if system.features == "binary":
        return (normalize((train > 0).astype(np.float64)), normalize((test > 0).astype(np.float64)))
    return ltc_tfidf(train, test)


def _estimator(system: System, seed: int):
    if system.learner == "linear_svm":
        return LinearSVC(C=1.0, random_state=seed)
    if system.learner == "logistic":
        return SGDClassifier(loss="log_loss", alpha=1e-5, max_iter=50, tol=1e-4, random_state=seed)
    if system.learner == "huber_sgd":
        return SGDClassifier(loss="modified_huber", alpha=1e-4, random_state=seed)
    if system.learner == "multinomial_nb":
        return MultinomialNB(alpha=0.01)
    if system.learner == "complement_nb":
        return ComplementNB(alpha=0.3)
    if system.learner == "knn":
        return KNeighborsClassifier(system.neighbours, metric="cosine", algorithm="brute", weights="distance")
    if system.learner == "mlp":
        return MLPClassifier((64,), alpha=1e-4, max_iter=20, random_state=seed)
    raise ValueError(f"unknown learner {system.learner!r}")


def _scores(estimator, X: sp.csr_matrix, n_classes: int, probabilities: bool) -> np.ndarray:
    """Class scores of a fitted estimator in columns 0 .. n_classes - 1, a class it never saw scoring lowest:
    probabilities when asked (top-down), else the margin (linear models) or log-probability (naive Bayes; kNN and
    the MLP give probabilities, whose log would be minus infinity for a class no neighbour has)."""
    if probabilities or not hasattr(estimator, "decision_function") and not hasattr(estimator, "feature_log_prob_"):
        raw, missing = estimator.predict_proba(X), 0.0
    elif hasattr(estimator, "decision_function"):
        raw = estimator.decision_function(X)
        raw = raw if raw.ndim == 2 else np.column_stack([-raw, raw])
        missing = raw.min() - 1.0
    else:
        raw = estimator.predict_log_proba(X)
        missing = raw.min() - 1.0
    out = np.full((X.shape[0], n_classes), missing)
    out[:, estimator.classes_] = raw
    return out


def _centroid_scores(X_train, y_train, X_test, n_classes: int) -> np.ndarray:
    """Rocchio: cosine of each test row with every class's mean training row (unit length)."""
    onehot = sp.csr_matrix((np.ones(len(y_train)), (y_train, np.arange(len(y_train)))), shape=(n_classes, len(y_train)))
    centroids = normalize(onehot @ X_train)
    return np.asarray((normalize(X_test) @ centroids.T).todense())


def _flat(system: System, X_train, y_train, X_test, n_classes: int, seed: int) -> np.ndarray:
    if system.learner == "centroid":
        return _centroid_scores(X_train, y_train, X_test, n_classes)
    estimator = _estimator(system, seed).fit(X_train, y_train)
    return _scores(estimator, X_test, n_classes, probabilities=False)


def _top_down(system: System, tree: LabelTree, groups: list[str], X_train, y_train, X_test, seed: int) -> np.ndarray:
    """Log of the product of P(child | node, x) along each group's chain; one classifier per branching node."""
    below = {node: {g for g, name in enumerate(groups) if node in tree.chains(name)[0]} for node in tree.labels}
    log_p = {}
    for node in tree.labels:
        children = tree.children(node)
        if len(children) < 2:
            continue
        rows = np.flatnonzero(np.isin(y_train, sorted(below[node])))
        target = np.array([next(c for c, child in enumerate(children) if y in below[child]) for y in y_train[rows]])
        present = np.unique(target)
        if len(present) == 1:  # a node whose training messages all fall under one child
            p = np.zeros((X_test.shape[0], len(children)))
            p[:, present[0]] = 1.0
        else:
            estimator = clone(_estimator(system, seed)).fit(X_train[rows], target)
            p = _scores(estimator, X_test, len(children), probabilities=True)
        with np.errstate(divide="ignore"):
            for c, child in enumerate(children):
                log_p[child] = np.log(p[:, c])
    scores = np.zeros((X_test.shape[0], len(groups)))
    for g, name in enumerate(groups):
        for node in tree.chains(name)[0][1:]:
            scores[:, g] += log_p.get(node, 0.0)
    return np.maximum(scores, -1e300)  # a zero probability ranks last, and stays a finite score


def _run(system: System, n_train: int | None, n_test: int | None, version: tuple) -> dict:
    corpus = _cached_corpus(system.headers, n_train, n_test)
    X_train, X_test = _features(system, corpus)
    y_train, groups = corpus["y_train"], corpus["groups"]
    rows = _sample(len(y_train), max(1, round(system.train_fraction * len(y_train))), 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        if system.structure == "top-down":
            scores = _top_down(system, newsgroups_tree(groups), groups, X_train[rows], y_train[rows], X_test, seed=0)
        else:
            scores = _flat(system, X_train[rows], y_train[rows], X_test, len(groups), seed=0)
    n_warnings = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
    return {"scores": scores, "y_test": corpus["y_test"], "groups": groups, "n_train": len(rows),
            "convergence_warnings": n_warnings}


def run_system(system: System, profile: str | None = None) -> dict:
    """One system's run, cached: its scores of the 20 groups for every test message.

    Parameters
    ----------
    system : System
    profile : {"quick", "full"}, optional
        The active profile by default (:func:`sample_sizes`).

    Returns
    -------
    dict
        ``scores`` (n_test, 20), ``y_test`` (the true group of each message), ``groups``, ``n_train`` (messages
        trained on) and ``convergence_warnings`` (their number).
    """
    n_train, n_test = sample_sizes(profile)
    cached = ResultCache(_run, "newsgroups_run", root=cache_dir() / "studies")
    return cached(system, n_train, n_test, _data_version())


def study_runs(profile: str | None = None, progress: bool = False) -> dict[str, dict]:
    """:func:`run_system` for every system of the profile (:data:`SYSTEMS` or :data:`QUICK_SYSTEMS`), by name."""
    profile = resolve(profile)
    systems = [s for s in SYSTEMS if profile == "full" or s.name in QUICK_SYSTEMS]
    if progress:
        from tqdm import tqdm

        systems = tqdm(systems, desc="20 Newsgroups runs", unit="run")
    return {s.name: run_system(s, profile) for s in systems}


def systems_table(profile: str | None = None) -> pd.DataFrame:
    """The systems of a profile as a table (one row each)."""
    profile = resolve(profile)
    return pd.DataFrame([asdict(s) for s in SYSTEMS if profile == "full" or s.name in QUICK_SYSTEMS]).set_index("name")


# ------------------------------------------------------------------------------------------------ the measures
def score_runs(tree: LabelTree, runs: dict[str, dict]) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Binary, BDM-High and BDM-Low A-Precision, R-Precision and F-measure of every run.

    Each message's ranking is its 20 groups by descending score (ties: the group listed first); its assigned set
    (the F-measure's) is the top-ranked group.

    Returns
    -------
    means : pandas.DataFrame
        One row per run, columns a (measure, variant) MultiIndex, as :meth:`SimulatedTask.evaluate`'s.
    per_document : dict of str to pandas.DataFrame
        Each run's per-message scores (the same columns), for bootstrap intervals.
    """
    first = next(iter(runs.values()))
    groups = list(first["groups"])
    scorer = CostScorer.from_tree(tree, labels=groups)
    truth = [[groups[y]] for y in first["y_test"]]
    means, per_document = {}, {}
    for name, run in runs.items():
        order = np.argsort(-run["scores"], axis=1, kind="stable")
        ranking = [[groups[g] for g in row] for row in order]
        table = scorer.score(truth, ranking, [r[:1] for r in ranking], per_document=True)
        per_document[name] = table
        means[name] = table.mean()
    out = pd.DataFrame(means).T
    out.index.name = "run"
    return out, per_document


def kendall_intervals(per_document: dict[str, pd.DataFrame], n_boot: int = 1000, seed: int = 0,
                      level: float = 0.95) -> pd.DataFrame:
    """Table 2 with bootstrap intervals: Kendall's tau between the runs' binary and BDM rankings, per measure.

    The messages are resampled with replacement ``n_boot`` times; each resample gives every run's mean scores and
    the six taus (scipy's tau-b). The interval is the percentile interval at ``level``
    (:func:`labelrank.studies.li2007.families.bootstrap_taus`).

    Returns
    -------
    pandas.DataFrame
        Index (variant, measure) for BDM-High and BDM-Low and the three measures; columns ``tau`` (on all
        messages), ``low``, ``high``.
    """
    rows = {}
    for m in MEASURES:
        taus = bootstrap_taus({name: table[m] for name, table in per_document.items()}, n_boot, seed, level)
        for v in ("high", "low"):
            rows[(VARIANT_NAMES[v], m)] = taus.loc[("binary", v)].to_dict()
    return pd.DataFrame(rows).T.rename_axis(["variant", "measure"])


def rank_moves(means: pd.DataFrame, measure: str, variant: str = "high") -> pd.DataFrame:
    """Each run's rank (1 = best) under the binary and a BDM ``variant`` of ``measure``, and the move."""
    ranks = pd.DataFrame({
        "binary": means[(measure, "binary")].rank(ascending=False, method="min").astype(int),
        VARIANT_NAMES[variant]: means[(measure, variant)].rank(ascending=False, method="min").astype(int),
    })
    ranks["move"] = ranks["binary"] - ranks[VARIANT_NAMES[variant]]
    return ranks.sort_values("binary", kind="stable")


def confusion_by_distance(tree: LabelTree, run: dict) -> pd.Series:
    """Share of test messages by the tree distance (edges) between the true and the top-ranked group (0: correct).

    Examples
    --------
    >>> groups = ["comp.graphics", "comp.sys.mac.hardware", "rec.autos"]
    >>> run = {"groups": groups, "y_test": np.array([0, 0, 1, 2]),
    ...        "scores": np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])}
    >>> confusion_by_distance(newsgroups_tree(groups), run).to_dict()
    {0: 0.5, 4: 0.5}
    """
    groups = list(run["groups"])
    top = np.asarray(run["scores"]).argmax(axis=1)
    distance = {(t, p): path_distance(tree, groups[t], groups[p]) for t, p in set(zip(run["y_test"], top))}
    counts = pd.Series([distance[t, p] for t, p in zip(run["y_test"], top)]).value_counts().sort_index()
    counts.index.name = "tree distance"
    return counts / len(top)


def top_confusions(tree: LabelTree, run: dict, n: int = 8) -> pd.DataFrame:
    """The ``n`` most frequent (true, top-ranked) pairs of different groups, with their tree distance and BDM."""
    groups = list(run["groups"])
    top = np.asarray(run["scores"]).argmax(axis=1)
    wrong = pd.Series([(groups[t], groups[p]) for t, p in zip(run["y_test"], top) if t != p])
    counts = wrong.value_counts().head(n)
    return pd.DataFrame({
        "true group": [t for t, _ in counts.index], "top-ranked group": [p for _, p in counts.index],
        "messages": counts.to_numpy(), "tree distance": [path_distance(tree, t, p) for t, p in counts.index],
        "BDM": [bdm(tree, t, p) for t, p in counts.index],
    })
