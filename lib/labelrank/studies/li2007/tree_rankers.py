r"""Two simple label rankers for a label tree: a flat one and a hierarchy-aware (top-down) one.

They serve the chapter "Real systems on real trees" (the Enron e-mails, whose 53 labels hang below four
categories), where the question is the seed's: does a system that uses the label hierarchy gain more from a
cost-based measure than a flat one?

:class:`FlatRanker`
    One L2-regularised logistic regression per label, trained on all documents:
    :math:`\text{score}(l) = \hat P(l \mid x)`. The labels are independent; the tree plays no part.
:class:`TopDownRanker`
    One logistic regression per tree node :math:`v` below the root, trained only on the documents of its parent
    (a document belongs to a node when one of its labels is the node or lies below it), and the score of a label is
    the product along its chain from the root,

    .. math:: \text{score}(l) = \prod_{v \in \text{chain}(l),\, v \ne \text{root}} \hat P(v \mid \text{parent}(v), x),

    the classic top-down decomposition :math:`P(l) = P(\text{category}) \, P(l \mid \text{category})` on a two-level
    tree. Evidence is shared along the tree: every label of a category inherits the category's probability, which
    is learnt from all the category's documents, so when the ranker is wrong about the label it tends to be right
    about the category, and its misses are siblings of the true labels.

A node whose training documents are all positive or all negative gets the constant Laplace estimate
:math:`(n_+ + 1) / (n + 2)` instead of a classifier (Enron has a label with no training positive). Everything is
deterministic (``liblinear``, ``random_state``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.linear_model import LogisticRegression

from labelrank.parameters import POSITIVE, SEED, DeclaredParameters
from labelrank.validation import describe_value, as_2d_array
from labelrank.validation import check_fit_input as _check_fit_input
from labelrank.hierarchy import LabelTree

__all__ = ["FlatRanker", "TopDownRanker"]


def _check_predict_input(model: BaseEstimator, X: Any) -> np.ndarray | sp.csr_matrix:
    """``X`` of ``decision_function``: fitted model, dense float64 or CSR, finite, the training number of features."""
    if not hasattr(model, "models_"):
        raise ValueError(f"this {type(model).__name__} is not fitted yet; call fit(X, Y) first")
    X = _as_float_matrix(X)
    if X.shape[1] != model.n_features_in_:
        raise ValueError(f"X must have {model.n_features_in_} features, got {X.shape[1]}")
    return X


def _as_float_matrix(X: Any) -> np.ndarray | sp.csr_matrix:
    """A float64 ndarray, or a CSR matrix for sparse input, with finite entries."""
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        if X.ndim != 2 or 0 in X.shape:
            raise ValueError(f"X must be 2-D with at least one row and one column, got shape {X.shape}")
        values = X.data
    else:
        X = as_2d_array(X, "X").astype(np.float64, copy=False)
        values = X
    if not np.isfinite(values).all():
        raise ValueError("X must be finite, got NaN or infinite entries")
    return X


class _Binary:
    """A logistic regression for one node, or the Laplace constant when the node has one class only."""

    def __init__(self, X: np.ndarray, y: np.ndarray, C: float, random_state: int) -> None:
        n_pos = int(y.sum())
        if 0 < n_pos < len(y):
            self.model: LogisticRegression | None = LogisticRegression(
                C=C, solver="liblinear", random_state=random_state).fit(X, y)
            self.constant = 0.0
        else:
            self.model = None
            self.constant = (n_pos + 1.0) / (len(y) + 2.0)

    def proba(self, X: np.ndarray) -> np.ndarray:
        if self.model is None:
            return np.full(X.shape[0], self.constant)
        return self.model.predict_proba(X)[:, 1]


class FlatRanker(DeclaredParameters, BaseEstimator):
    """One-vs-rest logistic regression: a label's score is its own estimated probability.

    Parameters
    ----------
    C : float
        Inverse L2 regularisation strength of every logistic regression.
    random_state : int

    Examples
    --------
    >>> X = np.array([[0., 1], [1, 0], [1, 1], [0, 0]]); Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
    >>> FlatRanker().fit(X, Y).decision_function(X).shape
    (4, 2)
    """

    parameter_constraints = {"C": POSITIVE, "random_state": SEED}

    def __init__(self, C: float = 1.0, random_state: int = 0) -> None:
        self.C = C
        self.random_state = random_state

    def fit(self, X: Any, Y: Any) -> FlatRanker:
        """Train one logistic regression per column of ``Y``."""
        C = float(self.check_params().C)
        X, Y = _check_fit_input(self, X, Y)
        self.models_ = [_Binary(X, Y[:, j], C, self.random_state) for j in range(Y.shape[1])]
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Label scores :math:`\\hat P(l \\mid x)`, shape (n, n_labels)."""
        X = _check_predict_input(self, X)
        return np.column_stack([m.proba(X) for m in self.models_])


class TopDownRanker(DeclaredParameters, BaseEstimator):
    """Top-down ranker: the product of node probabilities along each label's chain from the root.

    Parameters
    ----------
    tree : LabelTree
        The label tree (a tree, not a DAG).
    labels : sequence of str
        The label of each column of ``Y``, all labels of ``tree``.
    C, random_state
        As in :class:`FlatRanker`.

    Attributes
    ----------
    nodes_ : list of str
        The tree nodes below the root that are a column label or an ancestor of one, with a model each.

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "A": "r", "A.1": "A", "A.2": "A", "B": "r", "B.1": "B"})
    >>> X = np.eye(4); Y = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]])
    >>> TopDownRanker(t, ["A.1", "A.2", "B.1"]).fit(X, Y).decision_function(X).shape
    (4, 3)
    """

    parameter_constraints = {"C": POSITIVE, "random_state": SEED}  # tree and labels: checked together at fit

    def __init__(self, tree: LabelTree, labels: Sequence[str], C: float = 1.0, random_state: int = 0) -> None:
        self.tree = tree
        self.labels = labels
        self.C = C
        self.random_state = random_state

    def _check_tree(self) -> tuple[LabelTree, list[str]]:
        if not isinstance(self.tree, LabelTree):
            raise TypeError(f"tree must be a LabelTree, got {describe_value(self.tree)}")
        if self.tree.is_dag:
            raise ValueError("tree must be a tree, got a DAG (a label with several parents)")
        if isinstance(self.labels, str) or not isinstance(self.labels, Sequence):
            raise TypeError(f"labels must be a sequence of labels, got {describe_value(self.labels)}")
        labels = list(self.labels)
        for lab in labels:
            self.tree._check(lab, "an entry of labels")
            if lab == self.tree.root:
                raise ValueError(f"labels must not contain the root {lab!r}")
        return self.tree, labels

    def fit(self, X: Any, Y: Any) -> TopDownRanker:
        """Train, for every node below the root, a classifier on the documents of its parent."""
        C = float(self.check_params().C)
        tree, labels = self._check_tree()
        X, Y = _check_fit_input(self, X, Y)
        if Y.shape[1] != len(labels):
            raise ValueError(f"Y must have one column per label ({len(labels)}), got {Y.shape[1]}")
        chains = [tree.chains(lab)[0][1:] for lab in labels]  # root excluded
        nodes = list(dict.fromkeys(v for chain in chains for v in chain))
        col = {lab: j for j, lab in enumerate(labels)}
        # member[d, v]: document d has a label at or below node v
        below = {v: [col[x] for x in (tree.descendants(v) | {v}) if x in col] for v in nodes}
        member = {v: Y[:, below[v]].any(axis=1) for v in nodes}
        self.models_ = {}
        for v in nodes:
            parent = tree.parents(v)[0]
            docs = np.ones(len(Y), dtype=bool) if parent == tree.root else member[parent]
            self.models_[v] = _Binary(X[docs], member[v][docs].astype(int), C, self.random_state)
        self.nodes_ = nodes
        self.chains_ = chains
        return self

    def node_probabilities(self, X: Any) -> dict[str, np.ndarray]:
        """:math:`\\hat P(v \\mid \\text{parent}(v), x)` for every node ``v`` of :attr:`nodes_`."""
        X = _check_predict_input(self, X)
        return {v: m.proba(X) for v, m in self.models_.items()}

    def decision_function(self, X: Any) -> np.ndarray:
        """Label scores: products of node probabilities along each chain, shape (n, n_labels)."""
        p = self.node_probabilities(X)
        return np.column_stack([np.prod([p[v] for v in chain], axis=0) for chain in self.chains_])
