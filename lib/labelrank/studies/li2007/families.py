r"""BDM beside the hierarchical measures in use today: the F-measure of the assigned set in five variants.

Li et al. score a run's assigned labels with a binary F-measure and two cost-based ones (BDM-High, BDM-Low, eq. 3-5).
Two other families are the usual choice since: the set-based hF of Kiritchenko et al. (sets augmented with all
ancestors) and the pair-based LCA-F of Kosmopoulos et al. (augmented up to each pair's lowest common ancestor),
:mod:`labelrank.metrics.hierarchical`. This module scores the same runs under all five, document by document, and
compares the rankings of the runs they induce:

* :func:`f_variants`: each document's F under the five variants;
* :func:`bootstrap_taus`: Kendall's tau between the runs' rankings under every pair of variants, with percentile
  intervals from resampling the documents (the seed's Table 2, generalised);
* :func:`confusion_credit`: what each measure gives a single wrong label, by how it relates to the true one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from labelrank.cost import bdm, learning_accuracy
from labelrank.hierarchy import LabelTree
from labelrank.metrics import hierarchical_prf, lca_prf
from labelrank.metrics.hierarchical import per_document_f

__all__ = ["VARIANTS", "f_variants", "bootstrap_taus", "confusion_credit"]

#: The five F-measures of an assigned set compared here.
VARIANTS: tuple[str, ...] = ("binary F", "BDM-High F", "BDM-Low F", "hF", "LCA-F")


def f_variants(tree: LabelTree, truth: Sequence[Sequence[str]], assigned: Sequence[Sequence[str]],
               cost_scores: pd.DataFrame) -> pd.DataFrame:
    """Each document's F-measure of its assigned set under the five :data:`VARIANTS`.

    Parameters
    ----------
    tree : LabelTree
    truth, assigned : sequence of sequences of str
        Each document's true and assigned labels.
    cost_scores : pandas.DataFrame
        :meth:`labelrank.metrics.CostScorer.score` of the same documents with ``per_document=True`` (its
        F-measure columns give the binary, BDM-High and BDM-Low variants).

    Returns
    -------
    pandas.DataFrame
        One row per document, one column per variant.
    """
    out = pd.DataFrame({
        "binary F": cost_scores[("F-measure", "binary")].to_numpy(),
        "BDM-High F": cost_scores[("F-measure", "high")].to_numpy(),
        "BDM-Low F": cost_scores[("F-measure", "low")].to_numpy(),
        "hF": per_document_f(tree, truth, assigned, "hF"),
        "LCA-F": per_document_f(tree, truth, assigned, "LCA-F"),
    }, index=cost_scores.index)
    return out[list(VARIANTS)]


def bootstrap_taus(per_document: dict[str, pd.DataFrame], n_boot: int = 1000, seed: int = 0,
                   level: float = 0.95) -> pd.DataFrame:
    """Kendall's tau (tau-b) between the runs' rankings under every pair of measures, with bootstrap intervals.

    The runs' scores are the means of their per-document values; the documents are resampled with replacement
    ``n_boot`` times (the same resamples for every run and measure) and the interval is the percentile interval
    at ``level``.

    Parameters
    ----------
    per_document : dict of str to pandas.DataFrame
        Each run's per-document values, the same documents (rows) and measures (columns) for every run.
    n_boot, seed, level
        Resamples, their seed, and the interval's coverage.

    Returns
    -------
    pandas.DataFrame
        Index (first measure, second measure) for every pair in column order; columns ``tau``, ``low``,
        ``high``.

    Examples
    --------
    >>> runs = {r: pd.DataFrame({"x": [v, v + 0.1, v], "y": [v, v, v + 0.2]}) for r, v in (("a", 0.1), ("b", 0.5),
    ...                                                                                       ("c", 0.9))}
    >>> bootstrap_taus(runs, n_boot=20).round(3).loc[("x", "y")].tolist()
    [1.0, 1.0, 1.0]
    """
    names = list(per_document)
    measures = list(per_document[names[0]].columns)
    values = np.stack([per_document[n][measures].to_numpy(dtype=float) for n in names])  # (runs, docs, measures)
    n_docs = values.shape[1]
    counts = np.random.default_rng(seed).multinomial(n_docs, np.full(n_docs, 1.0 / n_docs), size=n_boot)
    boot = np.einsum("bd,rdm->brm", counts, values) / n_docs  # each resample's run means
    full = values.mean(axis=1)
    rows = {}
    for i, a in enumerate(measures):
        for j in range(i + 1, len(measures)):
            taus = [stats.kendalltau(b[:, i], b[:, j]).statistic for b in boot]
            lo, hi = np.nanpercentile(taus, [50 * (1 - level), 50 * (1 + level)])
            rows[(a, measures[j])] = {"tau": float(stats.kendalltau(full[:, i], full[:, j]).statistic),
                                      "low": float(lo), "high": float(hi)}
    return pd.DataFrame(rows).T.rename_axis(["measure", "versus"])


def confusion_credit(tree: LabelTree, key: str, responses: dict[str, str]) -> pd.DataFrame:
    """What each measure gives one wrong label: BDM and LA of the pair, and the F of the assigned set {response}
    against the truth {key} under the binary, set-based and pair-based measures.

    Parameters
    ----------
    tree : LabelTree
    key : str
        The true label.
    responses : dict of str to str
        ``{relation: response}``, e.g. ``{"sibling": "A12", "another branch": "B1"}``.

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "A": "r", "B": "r", "A1": "A", "A2": "A", "B1": "B"})
    >>> confusion_credit(t, "A1", {"sibling": "A2"})[["BDM", "hF", "LCA-F"]].round(3).to_numpy().tolist()
    [[0.375, 0.5, 0.5]]
    """
    rows = {}
    for relation, response in responses.items():
        rows[relation] = {
            "response": response, "tree distance": tree.depth(key) + tree.depth(response) - 2 * tree.depth(
                _lca(tree, key, response)),
            "LA": learning_accuracy(tree, key, response), "BDM": bdm(tree, key, response),
            "binary F": float(key == response), "hF": hierarchical_prf(tree, [[key]], [[response]])[2],
            "LCA-F": lca_prf(tree, [[key]], [[response]])[2],
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("relation")


def _lca(tree: LabelTree, a: str, b: str) -> str:
    common = [x for x, y in zip(tree.chains(a)[0], tree.chains(b)[0]) if x == y]
    return common[-1]
