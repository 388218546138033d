"""The library checked against the tools a researcher would otherwise use (the appendix "Checked against other
libraries").

Each function runs one comparison and returns a table; :func:`summary` condenses them into one row each: what was
compared, on which data, the largest difference, the verdict, and the speed ratio where both compute the same thing.
A peer that cannot be imported gives a row that says so instead of failing (:func:`peer`). The peers are the
``crosscheck`` extra: pytrec-eval-terrier (trec_eval), HiClass and scikit-multilearn-ng; scikit-learn is a core
dependency.
"""

from __future__ import annotations

import importlib
import math
import tempfile
import time
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd

from labelrank import datasets, metrics
from labelrank.baselines import MLkNN
from labelrank.cli import score_run
from labelrank.runfiles import read_run, read_truth
from labelrank.hierarchy import LabelTree
from labelrank.paths import data_dir
from labelrank.metrics import CostScorer, hierarchical_prf

__all__ = ["peer", "random_run", "trec_eval_scores", "trec_eval_comparison", "sklearn_ranking_comparison",
           "mlknn_comparison", "iblr_comparison", "hiclass_comparison", "summary"]


def peer(module: str) -> ModuleType | None:
    """The peer library's module, or None when it is not installed (the comparison is then skipped)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


# ------------------------------------------------------------------------------------------------- trec_eval
LABELS = [f"L{i:03d}" for i in range(60)]
FLAT_TREE = LabelTree.from_parents({"root": None, **{lab: "root" for lab in LABELS}})


def random_run(rng: np.random.Generator, *, ties: bool, disagree: bool, n_docs: int = 30) -> tuple[str, str]:
    """Truth and run files' contents: 1-6 true labels and 0-40 listed labels per document, some documents absent;
    ``ties``: scores in quarters; ``disagree``: the rank column shuffled against the scores."""
    truth, run = [], []
    for d in range(n_docs):
        doc = f"doc{d}"
        true = rng.choice(LABELS, size=rng.integers(1, 7), replace=False)
        truth += [f"{doc} {lab}" for lab in true]
        if rng.random() < 0.15:
            continue  # a document the run never mentions
        listed = rng.choice(LABELS, size=rng.integers(1, 41), replace=False)
        scores = rng.integers(0, 4, size=len(listed)) / 4 if ties else rng.permutation(len(listed)) / len(listed)
        order = np.argsort(-scores, kind="stable")
        ranks = np.empty(len(listed), dtype=int)
        ranks[order] = np.arange(1, len(listed) + 1)
        if disagree:
            ranks = rng.permutation(ranks)
        run += [f"{doc} {lab} {r} {float(s)!r}" for lab, r, s in zip(listed, ranks, scores)]
    rng.shuffle(run)
    return "\n".join(truth) + "\n", "\n".join(run) + "\n"


def trec_eval_scores(pytrec_eval: ModuleType, truth: dict, run_text: str, cutoff: int) -> dict[str, dict]:
    """trec_eval's ``map`` and ``Rprec`` per document, with ``-c`` (a missing query scores 0) and the run cut at
    ``cutoff`` after trec_eval's own order (score descending, label descending), as ``-M`` would."""
    qrel = {doc: {lab: 1 for lab in labels} for doc, labels in truth.items()}
    run: dict[str, dict[str, float]] = {}
    for line in run_text.splitlines():
        doc, lab, _rank, score = line.split()
        run.setdefault(doc, {})[lab] = float(score)
    cut = {doc: dict(sorted(items.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)[:cutoff])
           for doc, items in run.items()}
    result = pytrec_eval.RelevanceEvaluator(qrel, {"map", "Rprec"}).evaluate(cut)
    return {doc: result.get(doc, {"map": 0.0, "Rprec": 0.0}) for doc in truth}


def trec_eval_comparison(n_runs: int = 8, seed: int = 0) -> pd.DataFrame:
    """Binary A-Precision and R-Precision of ``labelrank score`` against trec_eval's ``map`` and ``Rprec``, document
    by document, on random runs with and without ties, under both ``--order`` rules.

    Returns
    -------
    pandas.DataFrame
        One row per (runs, order rule): documents compared, the largest absolute difference of each measure, and
        the CPU time of trec_eval over ours on the same runs.
    """
    pytrec_eval = peer("pytrec_eval")
    if pytrec_eval is None:
        return pd.DataFrame()
    scorer = CostScorer.from_tree(FLAT_TREE)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for ties in (False, True):
            for order in ("score", "rank"):
                n_docs, worst_ap, worst_rp, t_ours, t_theirs = 0, 0.0, 0.0, 0.0, 0.0
                for i in range(n_runs):
                    rng = np.random.default_rng([seed, i, ties])
                    truth_text, run_text = random_run(rng, ties=ties, disagree=False)
                    (Path(folder) / "truth.txt").write_text(truth_text)
                    (Path(folder) / "run.txt").write_text(run_text)
                    truth = read_truth(Path(folder) / "truth.txt", set(FLAT_TREE.labels))
                    start = time.process_time()
                    run = read_run(Path(folder) / "run.txt", set(FLAT_TREE.labels), truth, order=order)
                    ours = score_run(scorer, truth, run, per_document=True)
                    t_ours += time.process_time() - start
                    start = time.process_time()
                    theirs = trec_eval_scores(pytrec_eval, truth, run_text, 200)
                    t_theirs += time.process_time() - start
                    for doc in truth:
                        worst_ap = max(worst_ap, abs(ours.loc[doc, ("A-Precision", "binary")] - theirs[doc]["map"]))
                        worst_rp = max(worst_rp, abs(ours.loc[doc, ("R-Precision", "binary")] - theirs[doc]["Rprec"]))
                    n_docs += len(truth)
                rows.append({"runs": "tied scores" if ties else "untied scores", "--order": order,
                             "documents": n_docs, "max |A-Precision - map|": worst_ap,
                             "max |R-Precision - Rprec|": worst_rp, "time trec_eval / ours": t_theirs / t_ours})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------- scikit-learn
def _timed(func, *args, repeat: int = 3):
    """(func(*args), the smallest CPU time of ``repeat`` calls)."""
    best, value = np.inf, None
    for _ in range(repeat):
        start = time.process_time()
        value = func(*args)
        best = min(best, time.process_time() - start)
    return value, max(best, 1e-9)


def sklearn_ranking_comparison(n: int = 500, m: int = 10, seed: int = 0) -> pd.DataFrame:
    """labelrank.metrics' ranking metrics against scikit-learn's label-ranking metrics, without and with ties.

    Without ties, on rows with some relevant and some irrelevant labels, the definitions coincide up to one
    convention: scikit-learn's ``coverage_error`` counts from 1 (ours, MULAN's, from 0). With tied scores they
    differ: scikit-learn counts a tie against the ranking (pessimistic), ours breaks it by MULAN's rule.

    Returns
    -------
    pandas.DataFrame
        One row per (metric, scores): the largest absolute difference after the stated convention, and the CPU
        time of scikit-learn's over ours.
    """
    from sklearn import metrics as skm

    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, size=(n, m))
    Y[:, 0], Y[:, 1] = 1, 0  # every row mixed: the metrics' edge-case conventions differ, the formulas do not
    pairs = {
        "average precision": (metrics.average_precision, skm.label_ranking_average_precision_score, 0),
        "coverage": (metrics.coverage, skm.coverage_error, 1),
        "ranking loss": (metrics.ranking_loss, skm.label_ranking_loss, 0),
    }
    rows = []
    for scores_name, S in (("untied", rng.random((n, m))), ("tied (quarters)", rng.integers(0, 4, (n, m)) / 4)):
        for name, (ours, theirs, offset) in pairs.items():
            (a, t_ours), (b, t_theirs) = _timed(ours, Y, S), _timed(theirs, Y, S)
            rows.append({"metric": name, "scores": scores_name, "ours": a, "scikit-learn": b,
                         "convention": "scikit-learn counts from 1" if offset else "same",
                         "|difference|": abs(a + offset - b), "time scikit-learn / ours": t_theirs / t_ours})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------ scikit-multilearn-ng
def _min_max(X_train: np.ndarray, X_test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weka's normalisation: the training range of each feature (a constant feature becomes 0), test not clipped."""
    low, span = X_train.min(axis=0), np.ptp(X_train, axis=0)
    span = np.where(span > 0, span, np.inf)
    return (X_train - low) / span, (X_test - low) / span


def _train_test(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A data set's training features and labels and its test features, as dense arrays."""
    X_train, Y_train, _ = datasets.load(name, "train")
    X_test, _, _ = datasets.load(name, "test")
    return np.asarray(X_train, dtype=float), np.asarray(Y_train), np.asarray(X_test, dtype=float)


def mlknn_comparison(names: tuple[str, ...] = ("emotions", "scene", "yeast"), k: int = 10) -> pd.DataFrame:
    """scikit-multilearn-ng's ``MLkNN`` (smoothing 1) against :class:`labelrank.baselines.MLkNN`, on the features
    as given and min-max scaled, in three variants of the peer:

    * ``default``: ``ignore_first_neighbours=0``, so every training instance counts itself among its own k
      nearest neighbours when the conditional counts are learnt (the defect of scikit-multilearn 0.2.0, kept);
    * ``ignore_first_neighbours=1``: its fix for that, which is applied at prediction too and drops the nearest
      real neighbour of every *test* instance;
    * ``corrected``: the fix at fitting only (the attribute set back to 0 before predicting), the smallest change
      that computes ML-kNN as Zhang & Zhou define it.

    On min-max scaled features (Weka's normalisation) ML-kNN is MULAN's: for the data sets whose MULAN outputs
    the book holds (``data/mulan``), the peer's confidences are also compared with MULAN's.

    Returns
    -------
    pandas.DataFrame
        One row per (data set, features, variant): the largest absolute difference of the confidences to ours (and
        to MULAN's, where available), the number of 0/1 decisions (at 0.5) that differ from ours, and the CPU time of
        the peer over ours (fit and predict).
    """
    from labelrank.studies.yang2012.mulan import CASES, mulan_outputs

    skml = peer("skmultilearn.adapt")
    if skml is None:
        return pd.DataFrame()
    rows = []
    for name in names:
        X_train, Y_train, X_test = _train_test(name)
        for features, (A, B) in (("as given", (X_train, X_test)), ("min-max scaled", _min_max(X_train, X_test))):
            start = time.process_time()
            ours = MLkNN(k=k, s=1.0).fit(A, Y_train).decision_function(B)
            t_ours = time.process_time() - start
            for variant, (fit_ignore, predict_ignore) in (("default", (0, 0)), ("ignore_first_neighbours=1", (1, 1)),
                                                          ("corrected", (1, 0))):
                start = time.process_time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    model = skml.MLkNN(k=k, s=1.0, ignore_first_neighbours=fit_ignore).fit(A, Y_train)
                    model.ignore_first_neighbours = predict_ignore
                    theirs = np.asarray(model.predict_proba(B).todense())
                t_theirs = time.process_time() - start
                to_mulan = np.nan
                if features == "min-max scaled" and (name, "MLkNN", k) in CASES:
                    to_mulan = float(np.abs(theirs - mulan_outputs(name, "MLkNN", k)[0]).max())
                rows.append({"data set": name, "features": features, "variant": variant,
                             "max |confidence difference|": float(np.abs(theirs - ours).max()),
                             "max |difference to MULAN|": to_mulan,
                             "decisions differing": int(((theirs >= 0.5) != (ours >= 0.5)).sum()),
                             "time peer / ours": t_theirs / t_ours})
    return pd.DataFrame(rows)


def _neighbour_label_frequencies(X_train, Y_train, X_test, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fraction of each instance's k nearest training instances that carry each label: for the training
    instances counting each among its own neighbours (as the peer does) and leaving it out, and for the test ones."""
    from sklearn.neighbors import NearestNeighbors

    idx = NearestNeighbors(n_neighbors=k + 1).fit(X_train).kneighbors(X_train, return_distance=False)
    near = NearestNeighbors(n_neighbors=k).fit(X_train)
    return (Y_train[near.kneighbors(X_train, return_distance=False)].mean(axis=1), Y_train[idx[:, 1:]].mean(axis=1),
            Y_train[near.kneighbors(X_test, return_distance=False)].mean(axis=1))


def _logistic_per_label(F_train, Y_train, F_test) -> np.ndarray:
    """scikit-learn's default ``LogisticRegression`` (L2, C = 1) per label: the test probabilities."""
    from sklearn.linear_model import LogisticRegression

    out = np.empty((F_test.shape[0], Y_train.shape[1]))
    for j in range(Y_train.shape[1]):
        out[:, j] = LogisticRegression().fit(F_train, Y_train[:, j]).predict_proba(F_test)[:, 1]
    return out


def iblr_comparison(names: tuple[str, ...] = ("emotions", "scene", "yeast"), k: int = 10) -> pd.DataFrame:
    """scikit-multilearn-ng's ``InstanceBasedLogisticRegression`` (its defaults) against
    :class:`labelrank.baselines.IBLRML`, and against the method it implements, rebuilt from scikit-learn parts.

    The rebuilt method is IBLR-ML+ (Cheng & Hüllermeier 2009: the neighbours' label frequencies *and* the original
    features enter each label's logistic regression) with each training instance counted among its own k = 10
    neighbours and scikit-learn's default ``LogisticRegression`` (L2, C = 1, at most 100 L-BFGS iterations); two
    more rebuilds change one choice each (the instance itself excluded; the original features left out).

    Returns
    -------
    pandas.DataFrame
        One row per data set: the largest absolute difference of the peer's confidences to ours, to the rebuilt
        IBLR-ML+ and to the two one-choice changes; the 0/1 decisions (at 0.5) that differ from ours.
    """
    skml = peer("skmultilearn.problem_transform")
    if skml is None:
        return pd.DataFrame()
    from labelrank.baselines import IBLRML

    rows = []
    for name in names:
        X_train, Y_train, X_test = _train_test(name)
        ours = IBLRML(k=k).fit(X_train, Y_train).decision_function(X_test)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its logistic regressions stop at 100 iterations on raw features
            theirs = np.asarray(skml.InstanceBasedLogisticRegression().fit(X_train, Y_train)
                                .predict_proba(X_test).todense())
            self_counted, left_out, M_test = _neighbour_label_frequencies(X_train, Y_train, X_test, k)
            rebuilt = {  # IBLR-ML+ as the peer builds it, then with one choice changed
                "as the peer": _logistic_per_label(np.hstack([X_train, self_counted]), Y_train,
                                                   np.hstack([X_test, M_test])),
                "self excluded": _logistic_per_label(np.hstack([X_train, left_out]), Y_train,
                                                     np.hstack([X_test, M_test])),
                "without the features": _logistic_per_label(self_counted, Y_train, M_test),
            }
        rows.append({"data set": name,
                     "max |difference to ours|": float(np.abs(theirs - ours).max()),
                     "decisions differing from ours": int(((theirs >= 0.5) != (ours >= 0.5)).sum()),
                     "to rebuilt IBLR-ML+": float(np.abs(theirs - rebuilt["as the peer"]).max()),
                     "to it, self excluded": float(np.abs(theirs - rebuilt["self excluded"]).max()),
                     "to it, without the features": float(np.abs(theirs - rebuilt["without the features"]).max())})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------- HiClass
def hiclass_comparison(n_trees: int = 200, seed: int = 0) -> pd.DataFrame:
    """:func:`labelrank.metrics.hierarchical_prf` against HiClass's ``precision``, ``recall`` and ``f1`` on random
    trees (up to 30 nodes) with single-path labels (HiClass's input: each document's path from the top, padded),
    micro and macro.

    Returns
    -------
    pandas.DataFrame
        One row per average: cases, the largest absolute difference over P, R and F, and the CPU time of HiClass
        over ours.
    """
    hm = peer("hiclass.metrics")
    if hm is None:
        return pd.DataFrame()
    rng = np.random.default_rng(seed)
    stats = {avg: {"cases": 0, "max |difference|": 0.0, "ours": 0.0, "theirs": 0.0} for avg in ("micro", "macro")}
    for _ in range(n_trees):
        parents = {"r": None}
        for i in range(int(rng.integers(2, 31))):
            parents[f"n{i}"] = str(rng.choice(list(parents)))
        tree = LabelTree.from_parents(parents)
        labels = [x for x in parents if x != "r"]
        n_docs = int(rng.integers(1, 41))
        truth = [[str(rng.choice(labels))] for _ in range(n_docs)]
        predicted = [[str(rng.choice(labels))] for _ in range(n_docs)]
        depth = max(len(tree.chains(x)[0]) for x in labels) - 1

        def paths(docs):
            rows = [list(tree.chains(doc[0])[0][1:]) for doc in docs]
            return np.array([row + [""] * (depth - len(row)) for row in rows], dtype=object)

        for avg, s in stats.items():
            start = time.process_time()
            ours = hierarchical_prf(tree, truth, predicted, average=avg)
            s["ours"] += time.process_time() - start
            start = time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t, p = paths(truth), paths(predicted)
                theirs = (hm.precision(t, p, average=avg), hm.recall(t, p, average=avg), hm.f1(t, p, average=avg))
            s["theirs"] += time.process_time() - start
            s["cases"] += 1
            s["max |difference|"] = max(s["max |difference|"], max(abs(a - b) for a, b in zip(ours, theirs)))
    return pd.DataFrame([{"average": avg, "cases": s["cases"], "max |difference|": s["max |difference|"],
                          "time HiClass / ours": s["theirs"] / s["ours"]} for avg, s in stats.items()])


# -------------------------------------------------------------------------------------------------- HEMKit
def hemkit_cases() -> list[dict]:
    """The worked examples of ``data/hemkit/cases.json``: each case's parent map, documents, maximum distance and
    what HEMKit printed for it (``benchmarks/hemkit_agreement.py --write-cases``; NaN where it printed nan)."""
    import json

    cases = json.loads((data_dir() / "hemkit" / "cases.json").read_text())["cases"]
    for case in cases:
        for key in [k for k in case if k.startswith("hemkit")]:
            case[key] = [math.nan if x is None else x for x in case[key]]
    return cases


def hemkit_agreement() -> pd.DataFrame:
    """The newest record of ``benchmarks/hemkit_agreement.py``: per structure (tree, DAG), maximum distance and
    reading (``convention="hemkit"`` against HEMKit as built and with glibc's thread cache off; HiClass's reading
    against HEMKit as built), the cases, how many differ, and each measure's largest difference."""
    from labelrank.studies import performance

    table = performance.table(performance.latest("hemkit_agreement"), "agreement")
    return table.rename(columns=lambda c: c.replace("max_diff_", "max |difference| "))


# ------------------------------------------------------------------------------------------------- summary
def summary(trec: pd.DataFrame, sklearn: pd.DataFrame, mulan: pd.DataFrame, mlknn: pd.DataFrame,
            hiclass: pd.DataFrame, iblr: pd.DataFrame | None = None, hemkit: pd.DataFrame | None = None
            ) -> pd.DataFrame:
    """One row per comparison: what, on which data, the largest difference, the verdict, the speed ratio.

    ``mulan`` is :func:`labelrank.studies.yang2012.mulan.comparison` with ``distance="weka"``; ``iblr`` is
    :func:`iblr_comparison` and ``hemkit`` :func:`hemkit_agreement` (no row when None).
    """
    rows = []
    if trec.empty:
        rows.append({"comparison": "labelrank score vs trec_eval (map, Rprec)", "verdict": "skipped: pytrec-eval-terrier "
                     "is not installed"})
    else:
        untied = trec[trec["runs"] == "untied scores"]
        tied_score = trec[(trec["runs"] == "tied scores") & (trec["--order"] == "score")]
        tied_rank = trec[(trec["runs"] == "tied scores") & (trec["--order"] == "rank")]
        worst = pd.concat([untied, tied_score])[["max |A-Precision - map|", "max |R-Precision - Rprec|"]].max().max()
        rows.append({
            "comparison": "labelrank score vs trec_eval (map, Rprec)",
            "data": f"{int(trec['documents'].sum())} random documents",
            "largest difference": float(worst),
            "verdict": "agrees (untied runs, both --order rules; tied runs under --order score); under --order rank "
                       f"tied runs differ by up to {float(tied_rank.iloc[:, 3:5].max().max()):.3f}: a convention "
                       "(the rank column, which trec_eval ignores, breaks the ties)",
            "speed ratio (peer / ours)": float(untied["time trec_eval / ours"].mean()),
        })
    untied = sklearn[sklearn["scores"] == "untied"]
    tied = sklearn[sklearn["scores"] != "untied"]
    rows.append({
        "comparison": "labelrank.metrics vs scikit-learn label-ranking metrics",
        "data": f"{len(untied)} metrics on random scores",
        "largest difference": float(untied["|difference|"].max()),
        "verdict": "agrees without ties (coverage: scikit-learn counts from 1, a convention); with ties differs by "
                   f"up to {float(tied['|difference|'].max()):.3f}, a convention (scikit-learn counts ties against "
                   "the ranking, ours follows MULAN)",
        "speed ratio (peer / ours)": float(untied["time scikit-learn / ours"].mean()),
    })
    rows.append({
        "comparison": "MLkNN, IBLRML (distance='weka') vs MULAN's own outputs",
        "data": "emotions, scene; k = 10, 20",
        "largest difference": float(mulan["max |confidence diff|"].max()),
        "verdict": "agrees (ML-kNN exactly; IBLR-ML within Weka's optimiser tolerance)",
        "speed ratio (peer / ours)": np.nan,
    })
    if mlknn.empty:
        rows.append({"comparison": "MLkNN vs scikit-multilearn-ng's MLkNN", "verdict": "skipped: scikit-multilearn-ng "
                     "is not installed"})
    else:
        default = mlknn[mlknn["variant"] == "default"]
        corrected = mlknn[mlknn["variant"] == "corrected"]
        rows.append({
            "comparison": "MLkNN vs scikit-multilearn-ng's MLkNN",
            "data": ", ".join(dict.fromkeys(mlknn["data set"])) + "; as given and min-max scaled; k = 10",
            "largest difference": float(default["max |confidence difference|"].max()),
            "verdict": "defect in the peer: a training instance counts itself as a neighbour (its fix also drops a "
                       "test instance's nearest neighbour); corrected variant differs by "
                       f"{float(corrected['max |confidence difference|'].max()):.3g}",
            "speed ratio (peer / ours)": float(corrected["time peer / ours"].mean()),
        })
    if iblr is not None and iblr.empty:
        rows.append({"comparison": "IBLRML vs scikit-multilearn-ng's InstanceBasedLogisticRegression",
                     "verdict": "skipped: scikit-multilearn-ng is not installed"})
    elif iblr is not None:
        rebuilt = float(iblr["to rebuilt IBLR-ML+"].max())
        verdict = (f"another method: the peer is IBLR-ML+ (original features added) with a training instance among "
                   f"its own neighbours and scikit-learn's default logistic regression, which a rebuild from those "
                   f"parts matches (largest difference {rebuilt:.3g})" if rebuilt < 1e-9 else
                   f"differs, and no rebuild matches it (closest {rebuilt:.3g})")
        rows.append({
            "comparison": "IBLRML vs scikit-multilearn-ng's InstanceBasedLogisticRegression",
            "data": ", ".join(iblr["data set"]) + "; k = 10",
            "largest difference": float(iblr["max |difference to ours|"].max()),
            "verdict": verdict,
            "speed ratio (peer / ours)": np.nan,
        })
    if hiclass.empty:
        rows.append({"comparison": "hierarchical_prf vs HiClass", "verdict": "skipped: HiClass is not installed"})
    else:
        rows.append({
            "comparison": "hierarchical_prf vs HiClass (hP, hR, hF)",
            "data": f"{int(hiclass['cases'].sum())} random trees and documents (micro, macro)",
            "largest difference": float(hiclass["max |difference|"].max()),
            "verdict": "agrees",
            "speed ratio (peer / ours)": float(hiclass["time HiClass / ours"].mean()),
        })
    if hemkit is not None:
        ours = hemkit[hemkit["reading"] == "hemkit"]
        plain = hemkit[hemkit["reading"] == "hemkit, no tcache"]
        diffs = [c for c in hemkit.columns if c.startswith("max |difference|")]
        trees, dags = ours[ours["structure"] == "tree"], ours[ours["structure"] == "DAG"]
        rows.append({
            "comparison": "hierarchical_prf, lca_prf (convention='hemkit') vs HEMKit",
            "data": f"{int(trees['cases'].sum())} random trees and {int(dags['cases'].sum())} random DAGs with "
                    "documents, maximum distances 1, 2, 3 and unlimited (HEMKit built from its source)",
            "largest difference": float(ours[diffs].max().max()),
            "verdict": (f"agrees on every tree; on {int(dags['cases_differing'].sum())} of the DAGs (and "
                        f"{int(plain[plain['structure'] == 'DAG']['cases_differing'].sum())} with glibc's thread "
                        "cache off) HEMKit breaks a tie by the memory addresses of a node's parents, where ours "
                        "takes the hierarchy file's order"),
            "speed ratio (peer / ours)": np.nan,
        })
    return pd.DataFrame(rows).set_index("comparison")
