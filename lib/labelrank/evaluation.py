"""Scoring ranked label lists against true labels: the Python side of ``labelrank score``.

:func:`evaluate` takes a truth and a run as files, as dicts (``{doc: {label: relevance}}``, ``{doc: {label:
score}}``, the shapes pytrec_eval and ranx take) or as pandas DataFrames, and returns the binary, BDM-High and
BDM-Low A-Precision, R-Precision and F-measure of Li, Bontcheva & Cunningham (2007), and the hierarchical hF and
LCA-F, under stable names (``AP_binary``, ``RP_BDM-High``, ``F_LCA-F``, ...); :func:`score_run` is the table the
command line prints.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labelrank.runfiles import Run

__all__ = ["evaluate", "document_scores", "as_truth", "as_run", "as_lists", "score_run", "flat_tree", "measure_name", "MEASURES",
           "HIERARCHICAL_MEASURES"]

#: The hierarchical F-measures ``labelrank score --measures`` adds (``labelrank.metrics.hierarchical``).
HIERARCHICAL_MEASURES: tuple[str, ...] = ("hF", "LCA-F")
#: Every family :func:`evaluate` can compute: the binary measures need no tree, the others do.
MEASURES: tuple[str, ...] = ("binary", "BDM-High", "BDM-Low", *HIERARCHICAL_MEASURES)
_SHORT = {"A-Precision": "AP", "R-Precision": "RP", "F-measure": "F"}
_VARIANT_NAMES = {"binary": "binary", "high": "BDM-High", "low": "BDM-Low"}


def measure_name(measure: str, variant: str) -> str:
    """The stable name of a (measure, variant) column in the csv, json and trec outputs.

    Parameters
    ----------
    measure : str
        ``"A-Precision"``, ``"R-Precision"`` or ``"F-measure"``.
    variant : str
        ``"binary"``, ``"high"``, ``"low"`` or a hierarchical measure (``"hF"``, ``"LCA-F"``).

    Examples
    --------
    >>> measure_name("A-Precision", "high"), measure_name("F-measure", "LCA-F")
    ('AP_BDM-High', 'F_LCA-F')
    """
    return f"{_SHORT[measure]}_{_VARIANT_NAMES.get(variant, variant)}"


def flat_tree(labels: Collection[str]):
    """A tree of ``labels`` all below one extra root: its BDM is 1 for a label and itself, 0 for two others, so the
    BDM variants of cost-based precision equal the binary one (what ``labelrank score`` scores without a tree).

    Parameters
    ----------
    labels : collection of str
        The labels; the root is named ``(root)``, in as many parentheses as make it differ from every label.

    Examples
    --------
    >>> from labelrank.cost import bdm
    >>> tree = flat_tree(["a", "b"])
    >>> tree.root, bdm(tree, "a", "a"), bdm(tree, "a", "b")
    ('(root)', 1.0, 0.0)
    """
    from labelrank.hierarchy import LabelTree

    root = "(root)"
    while root in labels:
        root = f"({root})"
    return LabelTree.from_parents({root: None, **{label: root for label in sorted(labels)}})


def score_run(scorer, truth: Mapping[str, Sequence[str]], run: Run, *, cutoff: int = 200, threshold: float = 0.5,
              top: int | None = None, per_document: bool = False, measures: Sequence[str] = (), tree=None,
              convention: str | None = None, max_distance: int = 100_000):
    """The table ``labelrank score`` prints for one run: the means, or one row per document of ``truth``.

    Parameters
    ----------
    scorer : labelrank.metrics.CostScorer
    truth : ``{doc: true labels}`` (:func:`read_truth`)
    run : Run (:func:`read_run`)
    cutoff, threshold, top, per_document, measures
        As the options ``--cutoff``, ``--threshold``, ``--top``, ``--per-doc`` and ``--measures``.
    tree : LabelTree, optional
        The tree, needed by ``measures`` (``labelrank.metrics.hierarchical.per_document_f``).
    convention : {"hiclass", "hemkit"}, optional
        The reading of hF and LCA-F (``--convention``); by default each measure's own (hF: HiClass's, LCA-F:
        HEMKit's, the authors'). A document with an empty assigned set scores 0 under either, as in the binary
        F-measure (HEMKit itself prints NaN).
    max_distance : int, default=100000
        HEMKit's maximum distance (``--max-distance``), under ``convention="hemkit"``.

    Returns
    -------
    pandas.DataFrame
        As :meth:`labelrank.metrics.CostScorer.score`; a document of ``truth`` that the run does not mention scores 0.

    Examples
    --------
    A document that ranks a sibling of its label first (BDM gives partial credit), and one ranked exactly; with
    ``measures``, the hierarchical F-measures of the assigned set appear beside the F-measure's variants:

    >>> import os, tempfile
    >>> from labelrank.hierarchy import LabelTree
    >>> from labelrank.metrics import CostScorer
    >>> from labelrank.runfiles import read_run, read_truth, write_run, write_truth
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> folder = tempfile.mkdtemp()
    >>> write_truth(os.path.join(folder, "truth.txt"), {"d1": ["a1"], "d2": ["b"]})
    >>> write_run(os.path.join(folder, "run.txt"), {"d1": ["a2", "a1"], "d2": ["b"]}, {"d1": [0.9, 0.6], "d2": [0.8]})
    >>> truth = read_truth(os.path.join(folder, "truth.txt"), tree.labels)
    >>> run = read_run(os.path.join(folder, "run.txt"), tree.labels, truth)
    >>> score_run(CostScorer.from_tree(tree), truth, run).round(4)
    variant      binary    high     low
    measure
    A-Precision  0.7500  0.8438  0.7500
    R-Precision  0.5000  0.6875  0.6875
    F-measure    0.8333  0.9074  0.8333
    >>> score_run(CostScorer.from_tree(tree), truth, run, measures=["hF", "LCA-F"], tree=tree).round(4)
    variant      binary    high     low   hF  LCA-F
    measure
    A-Precision  0.7500  0.8438  0.7500  NaN    NaN
    R-Precision  0.5000  0.6875  0.6875  NaN    NaN
    F-measure    0.8333  0.9074  0.8333  0.9    0.9
    """
    import pandas as pd

    docs, values = document_scores(scorer, truth, run, cutoff=cutoff, threshold=threshold, top=top,
                                   measures=measures, tree=tree, convention=convention, max_distance=max_distance)
    per_doc = pd.DataFrame(values, index=pd.Index(docs, name="document"))
    per_doc.columns = pd.MultiIndex.from_tuples(list(values), names=["measure", "variant"])
    if per_document:
        return per_doc
    means = per_doc.mean(axis=0).unstack("variant")
    return means.reindex([m for m in _SHORT if m in means.index])[[v for v in _TABLE_VARIANTS if v in means.columns]]


#: The variant columns of :func:`score_run`'s table of means, in order.
_TABLE_VARIANTS = ("binary", "high", "low", *HIERARCHICAL_MEASURES)


def document_scores(scorer, truth: Mapping[str, Sequence[str]], run: Run, *, cutoff: int = 200,
                    threshold: float = 0.5, top: int | None = None, measures: Sequence[str] = (), tree=None,
                    convention: str | None = None, max_distance: int = 100_000
                    ) -> tuple[list[str], dict[tuple[str, str], Any]]:
    """Each document's scores for one run, as arrays and without pandas (what :func:`score_run` tabulates).

    Parameters
    ----------
    scorer, truth, run, cutoff, threshold, top, measures, tree, convention, max_distance
        As :func:`score_run`.

    Returns
    -------
    docs : list of str
        The documents of ``truth``, in its order.
    values : dict of (str, str) to numpy.ndarray
        ``{(measure, variant): one value per document}``: A-Precision, R-Precision and F-measure in the binary,
        BDM-High and BDM-Low variants, then ``("F-measure", m)`` for each hierarchical measure ``m``.

    Examples
    --------
    >>> from labelrank.hierarchy import LabelTree
    >>> from labelrank.metrics import CostScorer
    >>> from labelrank.runfiles import Run
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r"})
    >>> docs, values = document_scores(CostScorer.from_tree(tree), {"d1": ["a"], "d2": ["b"]},
    ...                                Run({"d1": ["a", "b"]}, {"d1": [0.9, 0.2]}))
    >>> docs, values[("A-Precision", "binary")]
    (['d1', 'd2'], array([1., 0.]))
    """
    from labelrank.runfiles import Truth

    docs = list(truth)
    index = {lab: i for i, lab in enumerate(scorer.labels)}
    rows_in = run.rows_in(docs)
    ranking = run.label_matrix(docs, index, width=cutoff, rows_in=rows_in)
    assigned = run.label_matrix(docs, index, top=top, rows_in=rows_in) if top is not None else \
        run.label_matrix(docs, index, threshold=threshold, rows_in=rows_in)
    true = [truth[d] for d in docs] if measures or not isinstance(truth, Truth) else None
    values = scorer.score_arrays(truth.label_matrix(index) if true is None else true, ranking, assigned,
                                 cutoff=cutoff)
    if measures:
        from labelrank.metrics.hierarchical import per_document_f

        if tree is None:
            raise ValueError("score_run needs tree= to compute the hierarchical measures")
        for measure in measures:
            values[("F-measure", measure)] = per_document_f(tree, true, as_lists(assigned, scorer.labels), measure,
                                                            convention, max_distance)
    return docs, values


def as_lists(matrix, labels: Sequence[str]) -> list[list[str]]:
    """The label lists of a padded integer matrix (-1 = padding; :meth:`labelrank.runfiles.Run.label_matrix`).

    Parameters
    ----------
    matrix : numpy.ndarray of int, shape (n_documents, width)
        Label indices, -1 for padding.
    labels : sequence of str
        The label of each index.

    Examples
    --------
    >>> import numpy as np
    >>> as_lists(np.array([[1, 0], [2, -1]]), ["a", "b", "c"])
    [['b', 'a'], ['c']]
    """
    return [[labels[i] for i in row if i >= 0] for row in matrix.tolist()]


def as_truth(truth: Any, labels: Collection[str] | None = None) -> dict[str, list[str]]:
    """``{doc: relevant labels}`` from a path, a ``{doc: {label: relevance}}`` dict or a DataFrame.

    Parameters
    ----------
    truth : path, dict or pandas.DataFrame
        As :func:`evaluate`'s.
    labels : collection of str, optional
        The tree's labels; another label is an error. None accepts every label.

    Examples
    --------
    >>> as_truth({"d1": {"a": 1, "b": 0}, "d2": ["c"]})
    {'d1': ['a'], 'd2': ['c']}
    """
    import pandas as pd

    from labelrank.runfiles import read_truth

    if isinstance(truth, (str, os.PathLike)):
        return read_truth(truth, labels)
    if isinstance(truth, pd.DataFrame):
        missing = {"doc", "label"} - set(truth.columns)
        if missing:
            raise ValueError(f"truth DataFrame needs the columns doc and label, missing {sorted(missing)}")
        rel = truth["relevance"] if "relevance" in truth.columns else pd.Series(1, index=truth.index)
        pairs = zip(truth["doc"].astype(str), truth["label"].astype(str), rel)
        truth = {}
        for doc, label, r in pairs:
            truth.setdefault(doc, {})[label] = r
    if not isinstance(truth, Mapping):
        raise TypeError(f"truth must be a path, a dict {{doc: {{label: relevance}}}} or a DataFrame, "
                        f"got {type(truth).__name__}")
    out = {}
    for doc, judged in truth.items():
        if isinstance(judged, Mapping):
            relevant = [str(lab) for lab, rel in judged.items() if rel >= 1]
        else:  # {doc: [labels]}
            relevant = [str(lab) for lab in judged]
        if labels is not None:
            unknown = [lab for lab in relevant if lab not in labels]
            if unknown:
                raise ValueError(f"truth: document {doc!r} has label {unknown[0]!r}, which is not in the tree")
        if relevant:
            out[str(doc)] = relevant
    if not out:
        raise ValueError("truth judges no label relevant")
    return out


def as_run(run: Any, labels: Collection[str] | None, truth: Collection[str], order: str | None = None) -> Run:
    """A :class:`~labelrank.runfiles.Run` from a path (one run), a ``{doc: {label: score}}`` dict or a DataFrame.

    Parameters
    ----------
    run : path, dict, pandas.DataFrame or Run
        As :func:`evaluate`'s.
    labels : collection of str or None
        The tree's labels; None accepts every label.
    truth : collection of str
        The documents of the truth; another document is an error.
    order : {"rank", "score"}, optional
        As :func:`evaluate`'s.

    Examples
    --------
    >>> as_run({"d1": {"a": 0.2, "b": 0.7}}, None, ["d1"]).ranking
    {'d1': ['b', 'a']}
    """
    import pandas as pd

    from labelrank.runfiles import Run, ordered_run, read_run

    if isinstance(run, Run):  # already read (labelrank.runfiles.read_runs)
        return run
    if isinstance(run, (str, os.PathLike)):
        return read_run(run, labels, truth, order or "rank")
    if isinstance(run, pd.DataFrame):
        missing = {"doc", "label", "score"} - set(run.columns)
        if missing:
            raise ValueError(f"run DataFrame needs the columns doc, label and score, missing {sorted(missing)}")
        has_rank = "rank" in run.columns
        order = order or ("rank" if has_rank else "score")
        if order == "rank" and not has_rank:
            raise ValueError("order='rank' needs a rank column in the run DataFrame")
        rows = {}
        ranks = run["rank"] if has_rank else pd.Series(0, index=run.index)
        for doc, label, score, rank in zip(run["doc"].astype(str), run["label"].astype(str), run["score"], ranks):
            rows.setdefault(doc, []).append((int(rank), label, float(score)))
    elif isinstance(run, Mapping):
        order = order or "score"
        if order != "score":
            raise ValueError("a run given as {doc: {label: score}} has no ranks: use order='score'")
        rows = {str(doc): [(0, str(lab), float(s)) for lab, s in scored.items()] for doc, scored in run.items()}
    else:
        raise TypeError(f"run must be a path, a dict {{doc: {{label: score}}}} or a DataFrame, "
                        f"got {type(run).__name__}")
    for doc, items in rows.items():
        if doc not in truth:
            raise ValueError(f"run: document {doc!r} is not in the truth")
        if labels is not None:
            unknown = [lab for _, lab, _ in items if lab not in labels]
            if unknown:
                raise ValueError(f"run: document {doc!r} has label {unknown[0]!r}, which is not in the tree")
    return ordered_run(rows, order)


def evaluate(truth: Any, run: Any, tree: Any = None, measures: Sequence[str] | None = None,
             per_document: bool = False, *, order: str | None = None, cutoff: int = 200, threshold: float = 0.5,
             top: int | None = None, convention: str | None = None, max_distance: int = 100_000):
    """Score one run against the truth: ``labelrank score`` as a function.

    Parameters
    ----------
    truth : path, dict or pandas.DataFrame
        A truth file (either form of :mod:`labelrank.runfiles`), ``{doc: {label: relevance}}`` (relevant when
        relevance >= 1; ``{doc: [labels]}`` too) or a DataFrame with columns ``doc``, ``label`` [, ``relevance``].
    run : path, dict, pandas.DataFrame or Run
        A run file holding one run, ``{doc: {label: score}}``, a DataFrame with columns ``doc``, ``label``,
        ``score`` [, ``rank``], or a :class:`~labelrank.runfiles.Run` already read.
    tree : LabelTree or path, optional
        The label tree; without it only the binary measures can be computed.
    measures : sequence of str, optional
        Families among :data:`MEASURES`; default binary, and BDM-High and BDM-Low when there is a tree.
    per_document : bool, default=False
        One row per document of the truth (a document the run does not mention scores 0) instead of one row of
        means.
    order : {"rank", "score"}, optional
        How a document's labels are ordered: by the rank column, or as trec_eval orders (score descending, ties
        by label descending). Default: "rank" where the run has ranks (a file, a DataFrame with ``rank``),
        "score" for a dict.
    cutoff, threshold, top
        As ``labelrank score``'s options: the lists' cutoff, and the assigned set behind the F-measure (scores at
        least ``threshold``, or the ``top`` best-ranked labels).
    convention, max_distance
        The reading of hF and LCA-F, as :func:`score_run`'s.

    Returns
    -------
    pandas.DataFrame
        Columns named by :func:`measure_name` (``AP_binary``, ``RP_BDM-High``, ``F_hF``, ...); one row ``mean``,
        or one row per document.

    Examples
    --------
    >>> truth = {"d1": {"a1": 1}, "d2": {"b": 1}}
    >>> run = {"d1": {"a2": 0.9, "a1": 0.6}, "d2": {"b": 0.8}}
    >>> evaluate(truth, run).round(4)
          AP_binary  RP_binary  F_binary
    mean       0.75        0.5    0.8333
    >>> from labelrank.hierarchy import LabelTree
    >>> tree = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> evaluate(truth, run, tree, measures=["BDM-High", "hF"]).round(4)
          AP_BDM-High  RP_BDM-High  F_BDM-High  F_hF
    mean       0.8438       0.6875      0.9074   0.9
    """
    from labelrank.hierarchy import LabelTree
    from labelrank.metrics.cost_scorer import CostScorer

    if isinstance(tree, (str, os.PathLike)):
        tree = LabelTree.from_file(tree)
    if measures is None:
        measures = ("binary", "BDM-High", "BDM-Low") if tree is not None else ("binary",)
    measures = list(measures)
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise ValueError(f"measures must be among {MEASURES}, got {unknown[0]!r}")
    needs_tree = [m for m in measures if m != "binary"]
    if needs_tree and tree is None:
        raise ValueError(f"measures {needs_tree} need a label tree (tree=...)")
    labels = set(tree.labels) if tree is not None else None
    truth = as_truth(truth, labels)
    run = as_run(run, labels, truth, order)
    if tree is None:
        seen = {lab for labs in truth.values() for lab in labs} | set(run.labels)
        scorer = CostScorer.from_tree(flat_tree(seen))
    else:
        scorer = CostScorer.from_tree(tree)
    hierarchical = [m for m in measures if m in HIERARCHICAL_MEASURES]
    table = score_run(scorer, truth, run, cutoff=cutoff, threshold=threshold, top=top, per_document=True,
                      measures=hierarchical, tree=tree, convention=convention, max_distance=max_distance)
    wanted = {"binary": "binary", "BDM-High": "high", "BDM-Low": "low"}
    keep = [c for c in table.columns if c[1] in hierarchical or c[1] in {wanted[m] for m in measures if m in wanted}]
    out = table[keep]
    out.columns = [measure_name(*c) for c in keep]
    out.index.name = "document"
    if per_document:
        return out
    means = out.mean(axis=0).to_frame("mean").T
    return means
