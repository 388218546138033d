"""Misclassification costs between two labels of a :class:`~labelrank.hierarchy.LabelTree`.

Four ways to say how far a response label is from the key (true) label, reviewed in section 2 of Li, Bontcheva &
Cunningham (2007):

* :func:`path_distance` -- edges on the shortest path between the two labels (Cai & Hofmann 2004; Cesa-Bianchi et
  al. 2006);
* :func:`common_ancestor_height` -- the height of their first common ancestor (the seed's reference [13]);
* :func:`learning_accuracy` -- Hahn & Schnattinger's (1998) Learning Accuracy, a similarity in [0, 1];
* :func:`bdm` -- the balanced distance metric of Maynard, Peters & Li (2006), a similarity in [0, 1], computed
  exactly as GATE's ``BDMTool.computeBDMStatic`` computes it; :func:`bdm_matrix` gives all pairs at once.

The similarities become costs as ``1 - LA`` and ``1 - BDM``. :func:`bdm_terms` and :func:`la_terms` return the
intermediate quantities for step-by-step derivations.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from labelrank.validation import describe_value, check_positive_int
from labelrank.hierarchy import LabelTree

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "common_prefix",
    "resolve_labels",
    "BDMTerms",
    "LATerms",
    "bdm",
    "bdm_terms",
    "bdm_matrix",
    "bdm_pairs",
    "BDMIndex",
    "learning_accuracy",
    "la_terms",
    "path_distance",
    "common_ancestor_height",
    "pairwise_matrix",
]


def _check_tree(tree: object) -> LabelTree:
    if not isinstance(tree, LabelTree):
        raise TypeError(f"tree must be a labelrank.hierarchy.LabelTree, got {describe_value(tree)}")
    return tree


def _check_pair(tree: object, a: object, b: object, names: tuple[str, str]) -> LabelTree:
    tree = _check_tree(tree)
    tree._check(a, names[0])
    tree._check(b, names[1])
    return tree


def common_prefix(c1: Sequence[str], c2: Sequence[str]) -> int:
    """The number of nodes two chains from the top share before they part (both start at the root).

    Parameters
    ----------
    c1, c2 : sequence of str
        Chains of labels from the top down (:meth:`labelrank.hierarchy.LabelTree.chains`).

    Examples
    --------
    >>> common_prefix(["r", "a", "a1"], ["r", "a", "a2"])
    2
    """
    n = 0
    for x, y in zip(c1, c2):
        if x != y:
            break
        n += 1
    return n


# ------------------------------------------------------------------------------------------------ simple costs
def path_distance(tree: LabelTree, key: str, response: str) -> int:
    r"""Number of edges on the shortest path between two labels, the hierarchy read as an undirected graph.

    .. math:: c(K, R) = \mathrm{depth}(K) + \mathrm{depth}(R) - 2\,\mathrm{depth}(\mathrm{LCA}(K, R))

    in a tree; in a DAG a breadth-first search, so the path may pass through a common descendant.

    Parameters
    ----------
    tree : LabelTree
    key, response : str
        Two labels of ``tree``.

    Returns
    -------
    int
        0 for identical labels.

    References
    ----------
    Cai & Hofmann (2004); Cesa-Bianchi, Gentile & Zaniboni (2006); section 2.1 of Li et al. (2007).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a"})
    >>> path_distance(t, "a1", "b")
    3
    """
    tree = _check_pair(tree, key, response, ("key", "response"))
    if key == response:
        return 0
    if not tree.is_dag:
        (m,) = tree.lowest_common_ancestors(key, response)
        return tree.depth(key) + tree.depth(response) - 2 * tree.depth(m)
    seen = {key: 0}
    queue = deque([key])
    while queue:
        x = queue.popleft()
        for y in tree.parents(x) + tree.children(x):
            if y not in seen:
                seen[y] = seen[x] + 1
                if y == response:
                    return seen[y]
                queue.append(y)
    raise AssertionError("a LabelTree is connected")  # pragma: no cover


def common_ancestor_height(tree: LabelTree, key: str, response: str) -> int:
    r"""Height of the first (lowest) common ancestor of two labels; 0 for identical labels.

    .. math:: c(K, R) = \mathrm{height}(\mathrm{MSCA}(K, R)), \qquad c(K, K) = 0,

    where the height of a node is the number of edges on the longest downward path from it to a leaf, so the root
    is the farthest common ancestor and mistakes deep in the tree cost little. In a DAG the lowest common ancestor
    with the smallest height is used.

    Parameters
    ----------
    tree : LabelTree
    key, response : str

    Returns
    -------
    int

    References
    ----------
    The seed's reference [13], as summarised in section 2.1 of Li et al. (2007).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> common_ancestor_height(t, "a1", "a2"), common_ancestor_height(t, "a1", "b")
    (1, 2)
    """
    tree = _check_pair(tree, key, response, ("key", "response"))
    if key == response:
        return 0
    return min(tree.height(m) for m in tree.lowest_common_ancestors(key, response))


# --------------------------------------------------------------------------------------------- Learning Accuracy
@dataclass(frozen=True)
class LATerms:
    """The quantities of Learning Accuracy, lengths in *nodes* from the top as in Hahn & Schnattinger (1998).

    Attributes
    ----------
    sp : int
        Nodes on the chain from the root to the key (SP).
    fp : int
        Nodes on the chain from the root to the response (FP); 0 when the response is the key.
    cp : int
        Nodes on the chain from the root to the MSCA (CP).
    dp : int
        Distance (edges) from the response up to the MSCA (DP).
    msca : str
        The most specific common abstraction of key and response.
    value : float
        LA = CP / SP if FP = 0, else CP / (FP + DP).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> la_terms(t, "a1", "a2")
    LATerms(sp=3, fp=3, cp=2, dp=1, msca='a', value=0.5)
    """

    sp: int
    fp: int
    cp: int
    dp: int
    msca: str
    value: float


def la_terms(tree: LabelTree, key: str, response: str) -> LATerms:
    """Learning Accuracy with its intermediate quantities; see :func:`learning_accuracy`.

    Parameters
    ----------
    tree : LabelTree
    key, response : str
        The true and the predicted label.

    Returns
    -------
    LATerms
        SP, FP, CP, DP, the MSCA and LA itself (``value``, what :func:`learning_accuracy` returns).

    Raises
    ------
    TypeError
        If ``tree`` is not a :class:`LabelTree` or a label is not a string.
    ValueError
        If ``key`` or ``response`` is not a label of ``tree``.

    References
    ----------
    Hahn & Schnattinger (1998); section 2.2 of Li et al. (2007).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> terms = la_terms(t, "a1", "a2")
    >>> terms.msca, terms.cp, terms.fp + terms.dp, terms.value
    ('a', 2, 4, 0.5)
    """
    tree = _check_pair(tree, key, response, ("key", "response"))
    best: LATerms | None = None
    for ck in tree.chains(key):
        for cr in tree.chains(response):
            cp = common_prefix(ck, cr)
            sp = len(ck)
            if key == response:
                terms = LATerms(sp=sp, fp=0, cp=cp, dp=0, msca=key, value=cp / sp)
            else:
                fp = len(cr)
                dp = fp - cp
                terms = LATerms(sp=sp, fp=fp, cp=cp, dp=dp, msca=ck[cp - 1], value=cp / (fp + dp))
            if best is None or terms.value > best.value:
                best = terms
    assert best is not None
    return best


def learning_accuracy(tree: LabelTree, key: str, response: str) -> float:
    r"""Learning Accuracy of predicting ``response`` when the truth is ``key`` (Hahn & Schnattinger 1998).

    With lengths counted in nodes from the top: SP to the key, FP to the response, CP to the MSCA (most specific
    common abstraction), and DP the distance from the response up to the MSCA,

    .. math::

        LA = \begin{cases} CP / SP = 1 & \text{if } FP = 0 \text{ (the response is the key)},\\
                           CP / (FP + DP) & \text{otherwise.} \end{cases}

    LA is asymmetric: it ignores how far the key lies below the MSCA, so any ancestor of the key, the root
    included, scores 1. In a DAG the most favourable pair of root chains is used (as :func:`bdm` does).

    Parameters
    ----------
    tree : LabelTree
    key : str
        The true label.
    response : str
        The predicted label.

    Returns
    -------
    float in (0, 1]
        The cost is ``1 - learning_accuracy(...)``.

    References
    ----------
    Hahn & Schnattinger (1998), "Towards text knowledge engineering"; section 2.2 of Li et al. (2007).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> learning_accuracy(t, "a1", "a2"), learning_accuracy(t, "a1", "r"), learning_accuracy(t, "r", "a1")
    (0.5, 1.0, 0.2)
    """
    return la_terms(tree, key, response).value


# ----------------------------------------------------------------------------------------------------------- BDM
@dataclass(frozen=True)
class BDMTerms:
    """The quantities of the BDM formula for one pair, as GATE computes them (lengths in edges).

    Attributes
    ----------
    cp : int
        Edges from the root down to the MSCA.
    dpk, dpr : int
        Edges from the key (response) up to the MSCA.
    n0 : float
        Mean length of all root-to-leaf chains.
    n2, n3 : float
        Mean full length of the root-to-leaf chains through the key (response).
    br : float
        Mean branching of the MSCA and of the nodes strictly between it and key/response, over the mean branching
        of all nodes that have children.
    msca : str
        The most specific common ancestor (for a DAG, of the chosen pair of chains).
    value : float
        BDM in [0, 1].

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> bdm_terms(t, "a1", "a2")  # doctest: +ELLIPSIS
    BDMTerms(cp=1, dpk=1, dpr=1, n0=1.66..., n2=2.0, n3=2.0, br=1.0, msca='a', value=0.37...)
    """

    cp: int
    dpk: int
    dpr: int
    n0: float
    n2: float
    n3: float
    br: float
    msca: str
    value: float


def bdm_terms(tree: LabelTree, key: str, response: str) -> BDMTerms:
    """BDM with its intermediate quantities; see :func:`bdm`.

    Parameters
    ----------
    tree : LabelTree
    key, response : str
        Two labels of ``tree``.

    Returns
    -------
    BDMTerms
        CP, DPK, DPR, :math:`n_0`, :math:`n_2`, :math:`n_3`, BR, the MSCA and BDM itself (``value``, what
        :func:`bdm` returns).

    Raises
    ------
    TypeError
        If ``tree`` is not a :class:`LabelTree` or a label is not a string.
    ValueError
        If ``key`` or ``response`` is not a label of ``tree``.

    References
    ----------
    Maynard, Peters & Li (2006); section 2.3 of Li et al. (2007).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> terms = bdm_terms(t, "a1", "a2")
    >>> terms.msca, terms.cp, terms.dpk, terms.dpr, round(terms.value, 4)
    ('a', 1, 1, 1, 0.375)
    """
    tree = _check_pair(tree, key, response, ("key", "response"))
    n0 = tree.mean_chain_length
    n2 = tree.chain_length_through(key)
    n3 = tree.chain_length_through(response)
    if key == response:
        return BDMTerms(cp=tree.depth(key), dpk=0, dpr=0, n0=n0, n2=n2, n3=n3, br=1.0, msca=key, value=1.0)
    avg_branch = tree.mean_branching
    best: BDMTerms | None = None
    for ck in tree.chains(key):
        for cr in tree.chains(response):
            common = common_prefix(ck, cr)  # nodes, >= 1 (the root)
            cp = common - 1
            dpk = len(ck) - common
            dpr = len(cr) - common
            # the MSCA and the nodes strictly between it and the key / the response
            between = (ck[cp],) + ck[common : len(ck) - 1] + cr[common : len(cr) - 1]
            br = sum(tree.n_children(x) for x in between) / len(between) / avg_branch
            v = br * cp / n0
            value = v / (v + dpk / n2 + dpr / n3)
            terms = BDMTerms(cp=cp, dpk=dpk, dpr=dpr, n0=n0, n2=n2, n3=n3, br=br, msca=ck[cp], value=value)
            if best is None or terms.value > best.value:
                best = terms
    assert best is not None
    return best


def bdm(tree: LabelTree, key: str, response: str) -> float:
    r"""The balanced distance metric between a key and a response label, as GATE computes it.

    .. math::

        BDM(K, R) = \frac{BR \cdot CP / n_0}{BR \cdot CP / n_0 + DPK / n_2 + DPR / n_3}
                  = \frac{CP / n_0}{CP / n_0 + DPK / (n_2 BR) + DPR / (n_3 BR)}

    (eq. 1 of Li et al. 2007), all lengths in edges: CP from the root down to the MSCA (most specific common
    ancestor); DPK, DPR from the key, response up to the MSCA; :math:`n_0` the mean length of all root-to-leaf
    chains; :math:`n_2` (:math:`n_3`) the mean full length of the root-to-leaf chains through the key (response);
    BR the mean number of children of the MSCA and of the nodes strictly between it and the key or the response
    (key and response excluded), divided by the mean number of children over all nodes that have children.
    Identical labels give 1; an MSCA at the root (CP = 0) gives 0.

    In a DAG every pair of root chains of key and response is scored and the best kept. (GATE's loop overwrites the
    best with 0 when a later pair of chains has no common node; with a single root that cannot happen here.)

    Parameters
    ----------
    tree : LabelTree
    key, response : str
        Two labels of ``tree``. BDM is symmetric.

    Returns
    -------
    float in [0, 1]
        The cost is ``1 - bdm(...)``.

    References
    ----------
    Maynard, Peters & Li (2006); GATE's ``gateplugin-Ontology_BDM_Computation``, ``BDMTool.computeBDMStatic``;
    section 2.3 of Li et al. (2007).

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> round(bdm(t, "a1", "a2"), 4), bdm(t, "a1", "b")
    (0.375, 0.0)
    """
    return bdm_terms(tree, key, response).value


def resolve_labels(tree: LabelTree, labels: Sequence[str] | None) -> list[str]:
    """The labels a matrix or scorer covers: all of ``tree``'s (in tree order) for None, else ``labels`` checked.

    Parameters
    ----------
    tree : LabelTree
    labels : sequence of str, optional
        Labels of ``tree``, each once.

    Raises
    ------
    TypeError
        For a single string in place of a sequence.
    ValueError
        For a label not in the tree, or one given twice.

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r"})
    >>> resolve_labels(t, None), resolve_labels(t, ["b", "a"])
    (['r', 'a', 'b'], ['b', 'a'])
    """
    if labels is None:
        return list(tree.labels)
    if isinstance(labels, str):
        raise TypeError(f"labels must be a sequence of labels, got the single string {labels!r}")
    labels = list(labels)
    for lab in labels:
        tree._check(lab, "an entry of labels")
    dup = sorted(lab for lab, n in Counter(labels).items() if n > 1)
    if dup:
        raise ValueError(f"labels must not repeat a label, got {dup} more than once")
    return labels


class BDMIndex:
    """BDM of any pairs of labels of one tree, computed on demand from per-node arrays (no matrix).

    Built once per tree in O(n log depth) time and memory (the binary-lifting table of
    :class:`~labelrank.hierarchy.TreeArrays`, each node's branching, its running branching sum from the root and
    the mean chain length through it); :meth:`pairs` then computes :func:`bdm` for p pairs in O(p log depth) with
    numpy. A pair's MSCA is the lowest common row of the two chains (:meth:`TreeArrays.lowest_common
    <labelrank.hierarchy.TreeArrays.lowest_common>`), and BR's branching sums are differences of running sums, so scoring a run costs what the run holds, never the square of
    the tree: :func:`bdm_matrix` and :class:`~labelrank.metrics.CostScorer` both use it.

    A DAG is unfolded into one row per root chain (:class:`~labelrank.hierarchy.TreeArrays`); a pair of labels then
    stands for every pair of their chains, and the best is kept, as :func:`bdm` does.

    Parameters
    ----------
    tree : LabelTree

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> BDMIndex(t).pairs(["a1", "a1", "a2"], ["a2", "b", "a2"]).round(4).tolist()
    [0.375, 0.0, 1.0]
    """

    def __init__(self, tree: LabelTree) -> None:
        self.tree = tree = _check_tree(tree)
        self._arrays = ar = tree.arrays
        self._depth = ar.depth
        branching = np.array([tree.n_children(lab) for lab in tree.labels], dtype=np.float64)
        through = np.array([tree.chain_length_through(lab) for lab in tree.labels])
        self._b = branching[ar.node]  # branching of each row's label
        self._run = ar.path_sums(self._b)  # branching summed along each row's root chain, the row itself included
        with np.errstate(divide="ignore"):  # a one-label tree has chains of length 0 (its only pair gives 1)
            self._inv_len = 1.0 / through[ar.node]
        self._n0 = tree.mean_chain_length
        self._avg_branch = tree.mean_branching
        # the rows of each label, label-major (CSR): one per label in a tree, one per root chain in a DAG
        order = np.argsort(ar.node, kind="stable")
        self._rows = order
        self._start = np.searchsorted(ar.node[order], np.arange(len(tree) + 1))
        self._n_rows = np.diff(self._start)

    @property
    def label_rows(self) -> np.ndarray | None:
        """The row of each label (by tree index) in the arrays :meth:`rows_bdm` takes, when each label has one (a
        tree); None for a DAG, whose labels stand for several rows (:meth:`pairs` then keeps the best pair).

        Examples
        --------
        >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a"})
        >>> index = BDMIndex(t)
        >>> rows = index.label_rows[[t.index("a1"), t.index("b")]]
        >>> index.rows_bdm(rows[:1], rows[1:]).tolist() == index.pairs(["a1"], ["b"]).tolist()
        True
        """
        if not (self._n_rows == 1).all():
            return None
        return self._rows[self._start[:-1]]

    def encode(self, labels: Sequence[str] | np.ndarray, name: str = "labels") -> np.ndarray:
        """Label names (or label indices of the tree, passed through) as an int array of tree indices."""
        arr = np.asarray(labels)
        if arr.dtype.kind in "iu":
            if arr.size and (arr.min() < 0 or arr.max() >= len(self.tree)):
                bad = arr[(arr < 0) | (arr >= len(self.tree))].flat[0]
                raise ValueError(f"{name} holds label index {bad}, outside 0 .. {len(self.tree) - 1}")
            return arr.astype(np.int64, copy=False)
        out = np.empty(arr.shape, dtype=np.int64)
        flat = out.reshape(-1)
        for k, lab in enumerate(arr.reshape(-1).tolist()):
            flat[k] = self.tree.index(self.tree._check(lab, f"an entry of {name}"))
        return out

    def pairs(self, keys: Sequence[str] | np.ndarray, responses: Sequence[str] | np.ndarray) -> np.ndarray:
        """``bdm(tree, keys[p], responses[p])`` for every p, as a float array of the inputs' (common) shape.

        ``keys`` and ``responses`` are label names, or integer label indices of the tree (``tree.index``).
        """
        k = self.encode(keys, "keys")
        r = self.encode(responses, "responses")
        if k.shape != r.shape:
            raise ValueError(f"keys and responses must have the same shape, got {k.shape} and {r.shape}")
        kf, rf = k.reshape(-1), r.reshape(-1)
        nk, nr = self._n_rows[kf], self._n_rows[rf]
        if np.all((nk == 1) & (nr == 1)):  # a tree: one row per label
            value = self.rows_bdm(self._rows[self._start[kf]], self._rows[self._start[rf]])
        else:  # a DAG: every pair of chains, the best kept
            count = nk * nr
            group = np.repeat(np.arange(len(kf)), count)
            t = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
            i = self._rows[self._start[kf][group] + t // nr[group]]
            j = self._rows[self._start[rf][group] + t % nr[group]]
            value = np.maximum.reduceat(self.rows_bdm(i, j), np.cumsum(count) - count) if len(kf) else np.zeros(0)
        return np.where(kf == rf, 1.0, value).reshape(k.shape)

    def rows_bdm(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The BDM formula (:func:`bdm`, eq. 1) for pairs of rows ``i``, ``j`` of the unfolding
        (:attr:`LabelTree.arrays <labelrank.hierarchy.LabelTree.arrays>`; in a tree a row is a label's index).

        Examples
        --------
        >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
        >>> BDMIndex(t).rows_bdm(np.array([3, 3]), np.array([4, 2])).round(4).tolist()  # a1-a2, a1-b
        [0.375, 0.0]
        """
        msca = self._arrays.lowest_common(i, j)
        cp = self._depth[msca]  # edges from the root down to the MSCA
        b_m, run_m = self._b[msca], self._run[msca]
        dpk = self._depth[i] - cp
        dpr = self._depth[j] - cp
        # branching summed over the nodes strictly between the MSCA and key (response)
        key_side = np.where(dpk > 0, self._run[i] - self._b[i] - run_m, 0.0)
        resp_side = np.where(dpr > 0, self._run[j] - self._b[j] - run_m, 0.0)
        count = 1.0 + np.maximum(dpk - 1, 0) + np.maximum(dpr - 1, 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            br = (b_m + key_side + resp_side) / count / self._avg_branch
            v = br * cp / self._n0
            den = v + dpk * self._inv_len[i] + dpr * self._inv_len[j]
            return np.where(den > 0, v / np.where(den > 0, den, 1.0), 1.0)


def bdm_pairs(tree: LabelTree, keys: Sequence[str], responses: Sequence[str]) -> np.ndarray:
    """BDM of each (key, response) pair, without a matrix of the whole tree; see :class:`BDMIndex`.

    Parameters
    ----------
    tree : LabelTree
    keys, responses : sequence of str
        The pairs, ``keys[i]`` with ``responses[i]``; same length.

    Returns
    -------
    numpy.ndarray of float64, shape (n_pairs,)
        ``bdm(tree, keys[i], responses[i])`` for each ``i``.

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> bdm_pairs(t, ["a1", "a1"], ["a2", "b"]).round(4).tolist()
    [0.375, 0.0]
    """
    return BDMIndex(tree).pairs(keys, responses)


def bdm_matrix(tree: LabelTree, labels: Sequence[str] | None = None, block_rows: int = 256) -> pd.DataFrame:
    """BDM between every pair of labels, vectorized with numpy (:class:`BDMIndex`, ``block_rows`` rows at a time).

    Computes exactly what :func:`bdm` computes for each pair. Memory grows with the square of the number of labels
    (8 bytes a pair): for a large tree score the needed pairs with :class:`BDMIndex` instead.

    Parameters
    ----------
    tree : LabelTree
    labels : sequence of str, optional
        Rows and columns of the result, in this order; all labels of ``tree`` by default.
    block_rows : int
        Rows computed at once.

    Returns
    -------
    pandas.DataFrame
        ``M.loc[key, response] = bdm(tree, key, response)``; symmetric, 1 on the diagonal.

    Examples
    --------
    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> bdm_matrix(t, ["a1", "a2", "b"]).round(3)
    response     a1     a2    b
    key
    a1        1.000  0.375  0.0
    a2        0.375  1.000  0.0
    b         0.000  0.000  1.0
    """
    tree = _check_tree(tree)
    labels = resolve_labels(tree, labels)
    block_rows = check_positive_int(block_rows, "block_rows")
    index = BDMIndex(tree)
    want = np.array([tree.index(lab) for lab in labels], dtype=np.int64)
    out = np.empty((len(want), len(want)))
    for start in range(0, len(want), block_rows):
        keys = want[start : start + block_rows]
        out[start : start + len(keys)] = index.pairs(np.repeat(keys, len(want)).reshape(len(keys), -1),
                                                     np.tile(want, (len(keys), 1)))
    import pandas as pd  # lazy: scoring runs (BDMIndex) needs no pandas

    return pd.DataFrame(out, index=pd.Index(labels, name="key"), columns=pd.Index(labels, name="response"))


def pairwise_matrix(
    tree: LabelTree, func: Callable[[LabelTree, str, str], float], labels: Sequence[str] | None = None
) -> pd.DataFrame:
    """``func(tree, key, response)`` for every pair of labels, by a plain double loop (for small trees).

    Parameters
    ----------
    tree : LabelTree
    func : callable
        One of this module's functions, or any function with the same signature.
    labels : sequence of str, optional
        Rows (keys) and columns (responses); all labels by default.

    Returns
    -------
    pandas.DataFrame
        ``M.loc[key, response] = func(tree, key, response)``.

    Examples
    --------
    Learning Accuracy is not symmetric:

    >>> t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "a2": "a"})
    >>> pairwise_matrix(t, learning_accuracy, ["a1", "a2", "b"]).round(3)
    response   a1   a2      b
    key
    a1        1.0  0.5  0.333
    a2        0.5  1.0  0.333
    b         0.2  0.2  1.000
    """
    tree = _check_tree(tree)
    if not callable(func):
        raise TypeError(f"func must be callable as func(tree, key, response), got {describe_value(func)}")
    labels = resolve_labels(tree, labels)
    values = [[float(func(tree, k, r)) for r in labels] for k in labels]
    import pandas as pd

    return pd.DataFrame(values, index=pd.Index(labels, name="key"), columns=pd.Index(labels, name="response"))
