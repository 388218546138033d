r"""BDM beside the hierarchical measures in use today: the F-measure of the assigned set in five variants.

Li et al. score a run's assigned labels with a binary F-measure and two cost-based ones (BDM-High, BDM-Low, eq. 3-5).
Two other families are the usual choice since: the set-based hF of Kiritchenko et al. (sets augmented with all
ancestors) and the pair-based LCA-F of Kosmopoulos et al. (augmented up to each pair's lowest common ancestor),
:mod:`labelrank.metrics.hierarchical`, each in the library's default reading (hF as HiClass computes it, LCA-F as
its authors' tool HEMKit does). This module scores the same runs under all five, document by document, and
compares the rankings of the runs they induce:

* :func:`f_variants`: each document's F under the five variants;
* :func:`bootstrap_taus`: Kendall's tau between the runs' rankings under every pair of variants, with percentile
  intervals from resampling the documents (the seed's Table 2, generalised);
* :func:`confusion_credit`: what each measure gives a single wrong label, by how it relates to the true one.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from labelrank.cost import bdm, learning_accuracy
from labelrank.hierarchy import LabelTree
from labelrank.metrics import hierarchical_prf, lca_prf
from labelrank.comparison import bootstrap_taus  # noqa: F401 - the library's, used by the study
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


def confusion_credit(tree: LabelTree, key: str, responses: dict[str, str]) -> pd.DataFrame:
    """What each measure gives one wrong label: BDM and LA of the pair, and the F of the assigned set {response}
    against the truth {key} under the binary, set-based and pair-based measures, the last two in both readings
    (``hF``: HiClass's, ``hF (HEMKit)``; ``LCA-F``: HEMKit's, ``LCA-F (HiClass)``).

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
    >>> confusion_credit(t, "A1", {"cousin": "B1"})[["hF", "hF (HEMKit)", "LCA-F (HiClass)", "LCA-F"]].round(3)
    ... # doctest: +NORMALIZE_WHITESPACE
             hF  hF (HEMKit)  LCA-F (HiClass)  LCA-F
    relation
    cousin  0.0          0.5              0.0  0.333
    """
    rows = {}
    for relation, response in responses.items():
        rows[relation] = {
            "response": response, "tree distance": tree.depth(key) + tree.depth(response) - 2 * tree.depth(
                _lca(tree, key, response)),
            "LA": learning_accuracy(tree, key, response), "BDM": bdm(tree, key, response),
            "binary F": float(key == response), "hF": hierarchical_prf(tree, [[key]], [[response]])[2],
            "hF (HEMKit)": hierarchical_prf(tree, [[key]], [[response]], convention="hemkit")[2],
            "LCA-F (HiClass)": lca_prf(tree, [[key]], [[response]], convention="hiclass")[2],
            "LCA-F": lca_prf(tree, [[key]], [[response]])[2],
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("relation")


def _lca(tree: LabelTree, a: str, b: str) -> str:
    common = [x for x, y in zip(tree.chains(a)[0], tree.chains(b)[0]) if x == y]
    return common[-1]
