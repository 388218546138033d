"""Cost-based A-Precision, R-Precision and F-measure of many documents at once: :class:`CostScorer`.

The numbers are those of the per-document definitions of ``labelrank.metrics.cost_precision``
(:func:`~labelrank.metrics.a_precision`, :func:`~labelrank.metrics.r_precision`,
:func:`~labelrank.metrics.set_f_measure`), computed with numpy on padded integer arrays, in blocks of
documents; :func:`lists_from_matrix` and :func:`ranking_from_scores` turn label matrices and scores into those
arrays. ``labelrank score`` and :func:`labelrank.evaluate` score runs with it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from labelrank.metrics.cost_precision import (
    LOW_RULES,
    MEASURES,
    RECALL_RULES,
    VARIANTS,
    LowRule,
    RecallRule,
    _check_labels,
    a_precision,
    check_similarity,
    r_precision,
    set_f_measure,
)
from labelrank.metrics.decision import harmonic_f
from labelrank.metrics.ranking import rank_labels
from labelrank.validation import (
    check_choice, check_label_matrix, check_positive_int, check_score_matrix, describe_value,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CostScorer", "lists_from_matrix", "ranking_from_scores", "BLOCK_CELLS"]

#: The cells of one (document, listed label, true label) array that :meth:`CostScorer.score` works on at once.
BLOCK_CELLS = 2 ** 17


def lists_from_matrix(Y: Any) -> np.ndarray:
    """The column indices of the 1 entries of each row of a 0/1 matrix, left-aligned and padded with -1.

    Examples
    --------
    >>> lists_from_matrix([[0, 1, 1], [0, 0, 0], [1, 0, 0]]).tolist()
    [[1, 2], [-1, -1], [0, -1]]
    """
    Yb = check_label_matrix(Y, "Y", dtype=bool)
    width = max(int(Yb.sum(axis=1).max()), 1)
    order = np.argsort(~Yb, axis=1, kind="stable")[:, :width]
    return np.where(np.take_along_axis(Yb, order, axis=1), order, -1)


def ranking_from_scores(scores: Any, cutoff: int | None = None) -> np.ndarray:
    """Column indices of each row's labels by decreasing score (ties: :func:`labelrank.metrics.rank_labels`).

    Parameters
    ----------
    scores : array-like of shape (n_documents, n_labels)
    cutoff : int, optional
        Keep the first ``cutoff`` labels of each ranking.

    Returns
    -------
    numpy.ndarray of int, shape (n_documents, min(n_labels, cutoff))

    Examples
    --------
    >>> ranking_from_scores([[0.1, 0.9, 0.5]]).tolist()
    [[1, 2, 0]]
    """
    S = check_score_matrix(scores)
    order = np.argsort(rank_labels(S), axis=1)
    if cutoff is not None:
        order = order[:, : check_positive_int(cutoff, "cutoff")]
    return order


class CostScorer:
    """Binary, BDM-High and BDM-Low A-Precision, R-Precision and F-measure of many documents at once.

    :meth:`score` works on padded integer arrays with numpy, in blocks of documents. The numbers are those of
    :func:`a_precision`, :func:`r_precision` and :func:`set_f_measure`. The label similarity comes either from a
    square matrix (validated once), or, with :meth:`from_tree`, from the tree's BDM computed only for the
    (listed, true) pairs that the scored documents hold (:class:`labelrank.cost.BDMIndex`): the cost of scoring
    grows with the runs, not with the square of the tree, so a tree of 100,000 labels is fine.

    Parameters
    ----------
    similarity : pandas.DataFrame
        Square label similarity with 1 on the diagonal, e.g. ``labelrank.cost.bdm_matrix(tree)``.

    Attributes
    ----------
    labels : tuple of str
        The labels; label ``i`` of an integer input is ``labels[i]``.
    matrix : numpy.ndarray
        The similarity values of every pair of labels (for a scorer built by :meth:`from_tree`, computed on first
        access: n_labels squared floats).
    matrix_built : bool
        Whether :attr:`matrix` is held.

    Examples
    --------
    >>> import pandas as pd
    >>> sim = pd.DataFrame([[1, .5, 0], [.5, 1, 0], [0, 0, 1]], index=list("abc"), columns=list("abc"))
    >>> CostScorer(sim).score([["a", "c"]], ranking=[["b", "c", "a"]], assigned=[["b", "c"]]).round(4)
    ... # doctest: +NORMALIZE_WHITESPACE
    variant      binary    high     low
    measure
    A-Precision  0.5833  0.7917  0.7083
    R-Precision  0.5000  0.7500  0.7500
    F-measure    0.5000  0.7500  0.7500
    """

    def __init__(self, similarity: pd.DataFrame) -> None:
        self.labels, matrix = check_similarity(similarity)
        self._index = {lab: i for i, lab in enumerate(self.labels)}
        self._matrix: np.ndarray | None = matrix
        self._bdm: Any = None  # a labelrank.cost.BDMIndex when built by from_tree
        self._rows: np.ndarray | None = None  # then, for a tree, each label's row of the BDMIndex

    @classmethod
    def from_tree(cls, tree: Any, labels: Sequence[str] | None = None) -> CostScorer:
        """A scorer with the BDM of ``tree`` as similarity, computed per needed pair (:class:`labelrank.cost.BDMIndex`).

        Parameters
        ----------
        tree : LabelTree
        labels : sequence of str, optional
            The labels the scorer accepts (and the order of integer inputs); all labels of ``tree`` by default.
        """
        from labelrank.cost import BDMIndex, resolve_labels

        bdm = BDMIndex(tree)
        labels = resolve_labels(bdm.tree, labels)
        to_tree = np.array([bdm.tree.index(lab) for lab in labels], dtype=np.int64)
        scorer = cls.__new__(cls)
        scorer.labels = tuple(labels)
        scorer._index = {lab: i for i, lab in enumerate(labels)}
        scorer._matrix = None
        scorer._bdm, scorer._to_tree = bdm, to_tree
        rows = bdm.label_rows
        scorer._rows = None if rows is None else rows[to_tree]  # a tree: each scorer label's row, for rows_bdm
        return scorer

    def _pairs(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Similarity of label ``a[p]`` (listed) to label ``b[p]`` (true), scorer indices."""
        if self._bdm is None:
            return self._matrix[a, b]
        return self._bdm.pairs(self._to_tree[a], self._to_tree[b])

    @property
    def matrix(self) -> np.ndarray:
        if self._matrix is None:  # from_tree: every pair, once
            n = len(self.labels)
            idx = np.arange(n)
            self._matrix = self._pairs(np.repeat(idx, n), np.tile(idx, n)).reshape(n, n)
        return self._matrix

    @property
    def matrix_built(self) -> bool:
        """Whether the similarity of every pair of labels is held (:attr:`matrix`); a scorer built by
        :meth:`from_tree` computes only the pairs it scores until :attr:`matrix` is asked for."""
        return self._matrix is not None

    def encode(self, lists: Any, name: str = "lists") -> np.ndarray:
        """Label lists as a padded integer array (-1 = padding); a 2-D integer array is checked and returned.

        Raises
        ------
        ValueError
            For an unknown label or index, a label repeated within a list, or padding before a label.
        """
        n_labels = len(self.labels)
        if isinstance(lists, np.ndarray) and lists.ndim == 2 and np.issubdtype(lists.dtype, np.integer):
            arr = lists.astype(np.int64, copy=False)
            if arr.size and (arr.max() >= n_labels or arr.min() < -1):
                bad = arr[(arr >= n_labels) | (arr < -1)][0]
                raise ValueError(f"{name} holds label index {bad}, outside -1 (padding) .. {n_labels - 1}")
        else:
            if isinstance(lists, (str, bytes)) or not isinstance(lists, Sequence):
                raise TypeError(f"{name} must be a sequence of label lists or a 2-D int array, got {describe_value(lists)}")
            arr = self._encode_lists(lists)
            if arr is None:  # some list is not one of distinct known labels: say which
                for d, row in enumerate(lists):
                    _check_labels(row, f"{name}[{d}]", known=self._index, allow_empty=True)
                raise AssertionError("unreachable: _encode_lists refused lists that _check_labels accepts")
            return arr
        valid = arr >= 0
        if arr.shape[1] > 1 and np.any(valid[:, 1:] & ~valid[:, :-1]):
            d = int(np.flatnonzero(np.any(valid[:, 1:] & ~valid[:, :-1], axis=1))[0])
            raise ValueError(f"{name}[{d}] has padding (-1) before a label: {arr[d].tolist()}")
        srt = np.sort(arr, axis=1)
        dup = (srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] >= 0)
        if dup.any():
            d = int(np.flatnonzero(dup.any(axis=1))[0])
            raise ValueError(f"{name}[{d}] lists a label more than once: {arr[d].tolist()}")
        return arr

    def _encode_lists(self, lists: Sequence[Any]) -> np.ndarray | None:
        """Label lists as a padded integer array at once, or None when a list is not a collection of distinct
        labels (str) that the scorer knows (:meth:`encode` then names the first such list)."""
        if not all(type(row) is list for row in lists) and any(  # (lists of lists: no need to look closer)
                isinstance(row, (str, bytes)) or not isinstance(row, Collection) for row in lists):
            return None
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        flat = [lab for row in lists for lab in row]
        try:
            codes = np.fromiter(map(self._index.__getitem__, flat), dtype=np.int64, count=len(flat))
        except (KeyError, TypeError):  # an unknown or unhashable label
            return None
        arr = np.full((len(lists), max(int(lengths.max(initial=0)), 1)), -1, dtype=np.int64)
        rows = np.repeat(np.arange(len(lists)), lengths)
        arr[rows, np.arange(len(flat)) - np.repeat(np.cumsum(lengths) - lengths, lengths)] = codes
        srt = np.sort(arr, axis=1)
        if ((srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] >= 0)).any():
            return None
        return arr

    # ------------------------------------------------------------------------------------------ the kernel
    def _numerators(self, T: np.ndarray, L: np.ndarray, W: np.ndarray, eq: np.ndarray) -> dict[str, np.ndarray]:
        """For each document and prefix length k: the summed credits of the first k listed labels per variant.

        ``T`` (n, t) true labels and ``L`` (n, m) listed labels, padded with -1; ``W`` and ``eq`` their
        :meth:`_similarities`. Also returns ``rel``, whether each listed label is a true label.
        """
        Lv = L >= 0
        t = T.shape[1]
        n, m = L.shape
        rel = eq.any(axis=0)  # listed label k is a true label
        wrong = Lv & ~rel
        found_count = np.cumsum(rel, axis=1)  # exact matches within the top k
        high = np.cumsum(W.max(axis=0), axis=1)  # (W is 0 where a label is padding)
        # BDM-Low: a wrong label at rank i earns, within the top k, its best similarity to the true labels not
        # found in the top k. Sort the true labels by the rank at which they are found (never found, then padding,
        # last); after f exact matches the missed ones are the sorted true labels f, f+1, ...: a suffix maximum.
        found_at = np.where(eq.any(axis=2), eq.argmax(axis=2), m)
        found_at = np.where(T.T >= 0, found_at, m + 1)
        order = np.argsort(found_at, axis=0, kind="stable")
        docs = np.arange(n)
        C = np.zeros((t + 1, n, m))  # C[f]: the suffix maximum from sorted true label f; C[t]: nothing left to miss
        for f in range(t - 1, -1, -1):
            np.maximum(W[order[f], docs], C[f + 1], out=C[f])
        C *= wrong
        np.cumsum(C, axis=2, out=C)
        low = found_count + np.take_along_axis(C, found_count[None], axis=0)[0]
        return {"binary": found_count.astype(np.float64), "high": high, "low": low, "rel": rel}

    def _similarities(self, T: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``W[j, d, i]``: the similarity of listed label ``L[d, i]`` to true label ``T[d, j]`` (0 where either is
        padding), and ``eq[j, d, i]``: whether they are the same label.

        The true labels' axis comes first, so that a maximum over them is one over whole (n, m) slices.
        """
        # one row of m listed labels per true label held (the padding of T left out), then put in place
        j, d = np.nonzero(T.T >= 0)
        listed, true = L[d], T[d, j][:, None]
        same = listed == true
        held = listed >= 0
        if self._rows is not None:  # a tree: the formula at once on the whole block, padding masked after
            values = np.where(held, self._bdm.rows_bdm(self._rows[np.maximum(listed, 0)], self._rows[true]), 0.0)
            values[same] = 1.0
        else:
            values = np.zeros(listed.shape)
            values[held] = self._pairs(listed[held], np.broadcast_to(true, listed.shape)[held])
        W = np.zeros((T.shape[1], *L.shape))
        eq = np.zeros(W.shape, dtype=bool)
        W[j, d], eq[j, d] = values, same
        return W, eq

    def _set_numerators(self, T: np.ndarray, A: np.ndarray, W: np.ndarray, eq: np.ndarray
                        ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """For each document's assigned set ``A``: the summed credits of its labels (precision's numerators) and
        of the true labels (recall's, symmetric), per variant; what :meth:`_numerators` gives at a list's end.

        A label earns, in BDM-High, its best similarity to any true label (a true label: its best similarity to
        any assigned one); in BDM-Low, an exact match earns 1 and a wrong label its best similarity to a true
        label the set misses (a missed true label: its best similarity to a wrong assigned one). ``W`` and ``eq``
        are the :meth:`_similarities` of ``T`` and ``A``.
        """
        got = eq.any(axis=2)  # true label j was assigned
        n_got = got.sum(axis=0).astype(np.float64)
        wrong = (A >= 0) & ~eq.any(axis=0)
        W_low = np.where(wrong[None] & (~got & (T.T >= 0))[:, :, None], W, 0.0)
        precision = {"binary": n_got, "high": W.max(axis=0).sum(axis=1),
                     "low": n_got + W_low.max(axis=0).sum(axis=1)}
        recall = {"binary": n_got, "high": W.max(axis=2, initial=0.0).sum(axis=0),
                  "low": n_got + W_low.max(axis=2, initial=0.0).sum(axis=0)}
        return precision, recall

    def _block(
        self, T: np.ndarray, L: np.ndarray | None, A: np.ndarray | None, recall: str
    ) -> dict[tuple[str, str], np.ndarray]:
        """All measures for one block of documents (padded arrays); NaN for documents without true labels."""
        t_n = (T >= 0).sum(axis=1).astype(np.float64)
        out: dict[tuple[str, str], np.ndarray] = {}
        with np.errstate(invalid="ignore", divide="ignore"):
            if L is not None:
                W, eq = self._similarities(T, L)
                num = self._numerators(T, L, W, eq)
                m = L.shape[1]
                n_listed = (L >= 0).sum(axis=1)
                k = np.arange(1, m + 1)
                r_k = np.minimum(t_n.astype(np.int64), n_listed)  # prefix length of R-Precision
                for v in VARIANTS:
                    ap = (num[v] / k * num["rel"]).sum(axis=1) / t_n
                    at_r = np.take_along_axis(num[v], np.maximum(r_k - 1, 0)[:, None], axis=1)[:, 0]
                    out[("A-Precision", v)] = ap
                    out[("R-Precision", v)] = np.where(r_k > 0, at_r, 0.0) / t_n
            if A is not None:
                w = A.shape[1]
                if L is not None and w <= L.shape[1] and np.array_equal(np.where(A >= 0, L[:, :w], -1), A):
                    # each assigned set is the head of its ranked list (a threshold on scores in ranked order):
                    # its similarities are the list's
                    assigned = (A >= 0)[None]
                    W, eq = np.where(assigned, W[:, :, :w], 0.0), eq[:, :, :w] & assigned
                else:
                    W, eq = self._similarities(T, A)
                precision_num, recall_num = self._set_numerators(T, A, W, eq)
                size = (A >= 0).sum(axis=1)
                for v in VARIANTS:
                    p = precision_num[v] / np.maximum(size, 1)
                    r_num = recall_num[v if recall == "symmetric" else "binary"]
                    r = np.divide(r_num, t_n, out=np.zeros_like(t_n), where=t_n > 0)  # t_n = 0: NaN below
                    out[("F-measure", v)] = np.where(size > 0, harmonic_f(p, r), 0.0)
        return {key: np.where(t_n > 0, value, np.nan) for key, value in out.items()}

    def score(
        self,
        truth: Any,
        ranking: Any = None,
        assigned: Any = None,
        *,
        cutoff: int = 200,
        recall: RecallRule = "symmetric",
        low_rule: LowRule = "best",
        per_document: bool = False,
        index: Sequence[Any] | None = None,
        block: int | None = None,
    ) -> pd.DataFrame:
        """Score documents: A-/R-Precision of ``ranking`` and F-measure of ``assigned``, in the three variants.

        Parameters
        ----------
        truth : sequence of label lists, or 2-D int array padded with -1
            The true labels of each document. A document with none is skipped (NaN, left out of the means).
        ranking : same kind, optional
            Each document's ranked labels, best first; cut at ``cutoff``. Gives A-Precision and R-Precision.
        assigned : same kind, optional
            Each document's assigned labels. Gives the F-measure.
        cutoff : int
            Ranked labels beyond this rank are ignored (200 in NTCIR-6).
        recall : {"symmetric", "binary"}
            The recall behind the F-measure (see :func:`set_f_measure`).
        low_rule : {"best", "matching"}
            ``"best"`` is computed with numpy; ``"matching"`` calls the per-document functions (slower).
        per_document : bool
            Return one row per document instead of the means over documents.
        index : sequence, optional
            Row labels of the per-document result (document ids).
        block : int, optional
            Documents processed at once (memory grows with ``block * cutoff * max |truth|``); by default as many
            as keep each of the block's arrays of (document, listed label, true label) near :data:`BLOCK_CELLS`.

        Returns
        -------
        pandas.DataFrame
            Means: index = measures, columns = variants ``binary``, ``high``, ``low``. Per document: one row per
            document, columns a (measure, variant) MultiIndex.
        """
        import pandas as pd

        result = self.score_arrays(truth, ranking, assigned, cutoff=cutoff, recall=recall, low_rule=low_rule,
                                   block=block)
        n = len(next(iter(result.values())))
        if index is not None and len(index) != n:
            raise ValueError(f"index must have one entry per document ({n}), got {len(index)}")
        per_doc = pd.DataFrame(result, index=pd.Index(range(n) if index is None else list(index), name="document"))
        per_doc.columns = pd.MultiIndex.from_tuples(list(result), names=["measure", "variant"])
        if per_document:
            return per_doc
        return per_doc.mean(axis=0).unstack("variant").reindex(
            [m for m in MEASURES if m in per_doc.columns.get_level_values(0)]
        )[list(VARIANTS)]

    def score_arrays(
        self,
        truth: Any,
        ranking: Any = None,
        assigned: Any = None,
        *,
        cutoff: int = 200,
        recall: RecallRule = "symmetric",
        low_rule: LowRule = "best",
        block: int | None = None,
    ) -> dict[tuple[str, str], np.ndarray]:
        """:meth:`score`'s per-document values as arrays, without pandas: ``{(measure, variant): values}``.

        Parameters
        ----------
        truth, ranking, assigned, cutoff, recall, low_rule, block
            As :meth:`score`.

        Returns
        -------
        dict of (str, str) to numpy.ndarray
            One array per (measure, variant), in the order of :data:`MEASURES` and :data:`VARIANTS`, one value per
            document (NaN for a document without true labels).

        Examples
        --------
        >>> from labelrank.hierarchy import LabelTree
        >>> scorer = CostScorer.from_tree(LabelTree.from_parents({"r": None, "a": "r", "b": "r"}))
        >>> scorer.score_arrays([["a"], ["b"]], ranking=[["a"], ["a", "b"]])[("A-Precision", "binary")]
        array([1. , 0.5])
        """
        check_choice(recall, "recall", RECALL_RULES)
        check_choice(low_rule, "low_rule", LOW_RULES)
        cutoff = check_positive_int(cutoff, "cutoff")
        if block is not None:
            block = check_positive_int(block, "block")
        if ranking is None and assigned is None:
            raise ValueError("score needs ranking=, assigned= or both, got neither")
        T = self.encode(truth, "truth")
        L = None if ranking is None else self.encode(ranking, "ranking")[:, :cutoff]
        A = None if assigned is None else self.encode(assigned, "assigned")
        for name, arr in (("ranking", L), ("assigned", A)):
            if arr is not None and arr.shape[0] != T.shape[0]:
                raise ValueError(f"{name} must have one row per document of truth ({T.shape[0]}), got {arr.shape[0]}")
        if block is None:
            widest = max(1, *(arr.shape[1] for arr in (L, A) if arr is not None))
            block = max(64, BLOCK_CELLS // (widest * T.shape[1]))
        if low_rule == "matching":
            result = self._score_matching(T, L, A, cutoff, recall)
        else:
            parts = [
                self._block(T[s : s + block], None if L is None else L[s : s + block],
                            None if A is None else A[s : s + block], recall)
                for s in range(0, T.shape[0], block)
            ]
            result = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
        return {(m, v): result[m, v] for m in MEASURES for v in VARIANTS if (m, v) in result}

    def _score_matching(
        self, T: np.ndarray, L: np.ndarray | None, A: np.ndarray | None, cutoff: int, recall: str
    ) -> dict[tuple[str, str], np.ndarray]:
        """``low_rule="matching"`` through the per-document definitions (binary and high are unaffected).

        Each document gets the similarity of the labels it holds only (its true, ranked and assigned labels).
        """
        names = np.array(self.labels, dtype=object)

        def row(arr, d):
            return [] if arr is None else [str(x) for x in names[arr[d][arr[d] >= 0]]]

        out: dict[tuple[str, str], list[float]] = {}
        for d in range(T.shape[0]):
            true = row(T, d)
            used = sorted({self._index[lab] for lab in true + row(L, d) + row(A, d)})
            n = len(used)
            sub = self._pairs(np.repeat(used, n).astype(np.int64), np.tile(used, n).astype(np.int64)).reshape(n, n)
            import pandas as pd

            sim = pd.DataFrame(sub, index=names[used].tolist(), columns=names[used].tolist())
            for v in VARIANTS:
                for key, value in (
                    (("A-Precision", v), None if L is None else (a_precision, row(L, d))),
                    (("R-Precision", v), None if L is None else (r_precision, row(L, d))),
                    (("F-measure", v), None if A is None else (set_f_measure, row(A, d))),
                ):
                    if value is None:
                        continue
                    func, listed = value
                    if not true:
                        result = float("nan")
                    elif func is set_f_measure:
                        result = set_f_measure(true, listed, sim, v, low_rule="matching", recall=recall)
                    else:
                        result = func(true, listed, sim, v, cutoff=cutoff, low_rule="matching")
                    out.setdefault(key, []).append(result)
        return {k: np.asarray(v) for k, v in out.items()}
