"""F-measures and accuracy of a document clustering scored against known classes.

Everything starts from a *contingency table* ``C`` of shape (n_clusters, n_classes): ``C[i, j]`` is the number of
documents of class ``j`` that the clustering put in cluster ``i`` (rows = clusters, columns = classes, the
orientation of the worked example in the Semantic Search Art page, seed 001). With row totals
:math:`n_{i\\cdot}` (cluster sizes) and column totals :math:`n_{\\cdot j}` (class sizes),

.. math::

    R_{ij} = \\frac{n_{ij}}{n_{\\cdot j}}, \\qquad P_{ij} = \\frac{n_{ij}}{n_{i\\cdot}}, \\qquad
    F_{ij} = \\frac{2 P_{ij} R_{ij}}{P_{ij} + R_{ij}} = \\frac{2\\, n_{ij}}{n_{i\\cdot} + n_{\\cdot j}} .

Three ways to turn the table of :math:`F_{ij}` into one number:

* :func:`greedy_f_measure` -- the seed's procedure: repeatedly take the largest remaining :math:`F_{ij}`, give
  cluster ``i`` the class ``j``, remove row and column; average :math:`F` over the assigned pairs;
* :func:`matched_f_measure` -- the same average over the one-to-one assignment that maximises it (Hungarian
  algorithm, :func:`scipy.optimize.linear_sum_assignment`);
* :func:`class_weighted_f_measure` -- Larsen & Aone (1999): every class takes its best cluster (clusters may be
  reused), weighted by class size.

:func:`clustering_accuracy` counts the documents on the diagonal after a one-to-one assignment, and
:func:`retrieval_scores` is the seed's precision, recall and F of a single query's answer set.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from labelrank.validation import describe_value, as_2d_array
from labelrank.metrics.decision import f_measure, harmonic_f  # noqa: F401  (harmonic_f is re-exported here)

__all__ = [
    "check_contingency",
    "contingency_table",
    "recall_table",
    "precision_table",
    "f_table",
    "greedy_matching",
    "greedy_f_measure",
    "matched_f_measure",
    "class_weighted_f_measure",
    "clustering_accuracy",
    "aligned_table",
    "harmonic_f",
    "retrieval_scores",
]


def check_contingency(contingency: Any, name: str = "contingency") -> np.ndarray:
    """Validate a contingency table and return it as a float64 array.

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Document counts, rows = clusters, columns = classes. Non-negative reals are accepted (weighted documents);
        a :class:`pandas.DataFrame` is read through its values.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    numpy.ndarray of float64, shape (n_clusters, n_classes)

    Raises
    ------
    TypeError
        If the table is not numeric.
    ValueError
        If it is not 2-D, is empty, holds a negative, NaN or infinite entry, or counts no document at all.

    Examples
    --------
    >>> check_contingency([[3, 1], [0, 2]]).dtype
    dtype('float64')
    >>> check_contingency([[1, -1]])
    Traceback (most recent call last):
        ...
    ValueError: contingency must hold non-negative counts, got -1.0 at position (0, 1)
    """
    arr = as_2d_array(contingency, name).astype(np.float64)
    finite = np.isfinite(arr)
    if not finite.all():
        i, j = np.argwhere(~finite)[0]
        raise ValueError(f"{name} must be finite, got {arr[i, j].item()!r} at position ({i}, {j})")
    if (arr < 0).any():
        i, j = np.argwhere(arr < 0)[0]
        raise ValueError(f"{name} must hold non-negative counts, got {arr[i, j].item()!r} at position ({i}, {j})")
    if arr.sum() == 0:
        raise ValueError(f"{name} must count at least one document, got an all-zero table of shape {arr.shape}")
    return arr


def contingency_table(clusters: Any, classes: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cross-tabulate cluster ids against class labels.

    Parameters
    ----------
    clusters : array-like of shape (n_documents,)
        The cluster of each document (any sortable labels).
    classes : array-like of shape (n_documents,)
        The true class of each document.

    Returns
    -------
    table : numpy.ndarray of int64, shape (n_clusters, n_classes)
        ``table[i, j]`` = number of documents in cluster ``cluster_ids[i]`` whose class is ``class_ids[j]``
        (the transpose of :func:`sklearn.metrics.cluster.contingency_matrix`).
    cluster_ids, class_ids : numpy.ndarray
        The sorted distinct cluster ids and class labels (row and column labels).

    Examples
    --------
    >>> table, rows, cols = contingency_table([0, 0, 1], ["a", "b", "b"])
    >>> table.tolist(), rows.tolist(), cols.tolist()
    ([[1, 1], [0, 1]], [0, 1], ['a', 'b'])
    """
    clusters = np.asarray(clusters)
    classes = np.asarray(classes)
    if clusters.ndim != 1 or classes.ndim != 1:
        raise ValueError(
            f"clusters and classes must be 1-D, got shapes {clusters.shape} and {classes.shape}"
        )
    if clusters.shape != classes.shape:
        raise ValueError(
            f"clusters and classes must have the same length, got {clusters.shape[0]} and {classes.shape[0]}"
        )
    if clusters.size == 0:
        raise ValueError("clusters must hold at least one document, got an empty array")
    found = []
    for name, values in (("clusters", clusters), ("classes", classes)):
        try:
            found.append(np.unique(values, return_inverse=True))
        except TypeError as exc:  # labels that do not sort together: None, or numbers mixed with strings
            kinds = sorted({type(v).__name__ for v in values.tolist()})
            first = next(i for i, v in enumerate(values.tolist()) if v is None or type(v) is not type(values[0]))
            raise TypeError(f"{name} must hold labels of one sortable kind, got {', '.join(kinds)} (entry {first}: "
                            f"{values.tolist()[first]!r})") from exc
    (cluster_ids, rows), (class_ids, cols) = found
    table = np.zeros((cluster_ids.size, class_ids.size), dtype=np.int64)
    np.add.at(table, (rows.ravel(), cols.ravel()), 1)
    return table, cluster_ids, class_ids


def _safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` with 0 where the denominator is 0."""
    out = np.zeros(np.broadcast_shapes(numerator.shape, denominator.shape))
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def recall_table(contingency: Any) -> np.ndarray:
    """Recall of every (cluster, class) cell: :math:`R_{ij} = n_{ij} / n_{\\cdot j}`.

    The share of class ``j`` that landed in cluster ``i``: each cell divided by its *column* (class) total. A class
    with no document gets recall 0.

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).

    Returns
    -------
    numpy.ndarray of float64, shape (n_clusters, n_classes)

    References
    ----------
    Semantic Search Art, *Example of F-measure computation* (seed 001 of this book).

    Examples
    --------
    >>> recall_table([[3, 1], [0, 2]]).round(3).tolist()
    [[1.0, 0.333], [0.0, 0.667]]
    """
    C = check_contingency(contingency)
    return _safe_divide(C, C.sum(axis=0, keepdims=True))


def precision_table(contingency: Any) -> np.ndarray:
    """Precision of every (cluster, class) cell: :math:`P_{ij} = n_{ij} / n_{i\\cdot}`.

    The share of cluster ``i`` that belongs to class ``j``: each cell divided by its *row* (cluster) total. An empty
    cluster gets precision 0.

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).

    Returns
    -------
    numpy.ndarray of float64, shape (n_clusters, n_classes)

    Examples
    --------
    >>> precision_table([[3, 1], [0, 2]]).tolist()
    [[0.75, 0.25], [0.0, 1.0]]
    """
    C = check_contingency(contingency)
    return _safe_divide(C, C.sum(axis=1, keepdims=True))


def f_table(contingency: Any) -> np.ndarray:
    """F-measure of every (cluster, class) cell, the harmonic mean of its precision and recall.

    .. math::

        F_{ij} = \\frac{2 P_{ij} R_{ij}}{P_{ij} + R_{ij}} = \\frac{2\\, n_{ij}}{n_{i\\cdot} + n_{\\cdot j}},

    computed in the second form by :func:`labelrank.metrics.f_measure` (F1 from the counts TP, FP, FN of
    the decision "document in cluster i" against "document of class j"). That form needs one division: for integer
    counts, cells whose exact F values are equal get bit-identical floats, so ties in :func:`greedy_matching` are
    real ties. A cell with :math:`n_{ij} = 0` has F = 0.

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).

    Returns
    -------
    numpy.ndarray of float64, shape (n_clusters, n_classes), entries in [0, 1]

    Examples
    --------
    >>> f_table([[3, 1], [0, 4]]).round(3).tolist()
    [[0.857, 0.222], [0.0, 0.889]]
    """
    C = check_contingency(contingency)
    rows, cols = C.sum(axis=1, keepdims=True), C.sum(axis=0, keepdims=True)
    # cell (i, j) as a binary decision: TP = n_ij, FP = n_i. - n_ij, FN = n_.j - n_ij, so 2TP + FP + FN = n_i. + n_.j
    F = f_measure(C, rows - C, cols - C)
    return np.where(rows + cols > 0, F, 0.0)  # an empty cluster against an empty class scores 0, not MULAN's 1


def greedy_matching(scores: Any) -> list[tuple[int, int]]:
    """Pair rows with columns greedily: repeatedly take the largest remaining entry, then drop its row and column.

    Parameters
    ----------
    scores : array-like of shape (n_rows, n_columns)
        Finite scores (for clustering, the F table of :func:`f_table`).

    Returns
    -------
    list of (row, column) tuples
        ``min(n_rows, n_columns)`` pairs, in the order they were chosen.

    Notes
    -----
    Tie-break: among equal largest entries the one with the smallest row index wins, and among those the smallest
    column index (the first maximum in row-major order, as :func:`numpy.argmax` returns it). Rows or columns left
    over when the table is not square stay unpaired. The greedy pairing need not maximise the total score; see
    :func:`matched_f_measure`.

    Examples
    --------
    >>> greedy_matching([[0.9, 0.8], [0.7, 0.1]])
    [(0, 0), (1, 1)]
    """
    work = as_2d_array(scores, "scores").astype(np.float64)
    if not np.isfinite(work).all():
        raise ValueError(f"scores must be finite, got {describe_value(scores)}")
    n_rows, n_cols = work.shape
    pairs: list[tuple[int, int]] = []
    for _ in range(min(n_rows, n_cols)):
        i, j = np.unravel_index(int(np.argmax(work)), work.shape)
        pairs.append((int(i), int(j)))
        work[i, :] = -np.inf
        work[:, j] = -np.inf
    return pairs


def _assignment_from_pairs(pairs: list[tuple[int, int]], n_clusters: int) -> np.ndarray:
    assignment = np.full(n_clusters, -1, dtype=np.int64)
    for i, j in pairs:
        assignment[i] = j
    return assignment


def greedy_f_measure(contingency: Any) -> tuple[float, np.ndarray]:
    """Mean F-measure of a clustering under the seed's greedy cluster-to-class assignment.

    The procedure of Semantic Search Art (seed 001): compute the F table (:func:`f_table`), take its largest
    entry :math:`F_{ij}`, assign class ``j`` to cluster ``i``, remove row ``i`` and column ``j``, repeat until no
    row or no column is left, and average F over the assigned pairs:

    .. math::

        \\bar F_{\\text{greedy}} = \\frac{1}{\\min(k, m)} \\sum_{(i, j) \\in \\text{greedy pairs}} F_{ij} ,

    with ``k`` clusters and ``m`` classes.

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).

    Returns
    -------
    mean_f : float
        The mean F over the ``min(n_clusters, n_classes)`` assigned pairs.
    assignment : numpy.ndarray of int64, shape (n_clusters,)
        ``assignment[i]`` is the class (column index) given to cluster ``i``, or -1 when there are more clusters
        than classes and cluster ``i`` got none. The order of the picks is ``greedy_matching(f_table(C))``.

    Notes
    -----
    Ties are broken as in :func:`greedy_matching` (smallest cluster index, then smallest class index). With more
    clusters than classes the unassigned clusters do not enter the mean, and with more classes than clusters the
    unassigned classes do not either: the mean then rewards over- or under-splitting, which
    :func:`class_weighted_f_measure` does not.

    Examples
    --------
    The worked example of the seed (rows = clusters, columns = classes):

    >>> mean_f, assignment = greedy_f_measure([[21, 7, 11], [31, 10, 2], [9, 16, 0]])
    >>> round(mean_f, 4), assignment.tolist()
    (0.5237, [2, 0, 1])
    """
    F = f_table(contingency)
    pairs = greedy_matching(F)
    mean_f = float(np.mean([F[i, j] for i, j in pairs]))
    return mean_f, _assignment_from_pairs(pairs, F.shape[0])


def matched_f_measure(contingency: Any) -> tuple[float, np.ndarray]:
    """Mean F-measure under the one-to-one cluster-to-class assignment that maximises it.

    .. math::

        \\bar F_{\\text{matched}} = \\max_{\\sigma} \\frac{1}{\\min(k, m)} \\sum_{i} F_{i\\,\\sigma(i)} ,

    over injective maps :math:`\\sigma` between clusters and classes, solved exactly by the Hungarian algorithm
    (:func:`scipy.optimize.linear_sum_assignment` with ``maximize=True``). Always
    :math:`\\bar F_{\\text{matched}} \\ge \\bar F_{\\text{greedy}}` (:func:`greedy_f_measure`).

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).

    Returns
    -------
    mean_f : float
    assignment : numpy.ndarray of int64, shape (n_clusters,)
        Class index of each cluster, -1 for clusters left without a class.

    References
    ----------
    Kuhn, H. W. (1955). The Hungarian method for the assignment problem. *Naval Research Logistics Quarterly* 2.

    Examples
    --------
    On the seed's worked example the Hungarian assignment finds the greedy one:

    >>> mean_f, assignment = matched_f_measure([[21, 7, 11], [31, 10, 2], [9, 16, 0]])
    >>> round(mean_f, 4), assignment.tolist()
    (0.5237, [2, 0, 1])
    """
    F = f_table(contingency)
    rows, cols = linear_sum_assignment(F, maximize=True)
    pairs = list(zip(rows.tolist(), cols.tolist()))
    mean_f = float(F[rows, cols].mean())
    return mean_f, _assignment_from_pairs(pairs, F.shape[0])


def class_weighted_f_measure(contingency: Any) -> float:
    """Larsen & Aone's overall F-measure: each class takes its best cluster, weighted by class size.

    .. math::

        F_{\\text{LA}} = \\sum_{j} \\frac{n_{\\cdot j}}{n} \\max_{i} F_{ij} ,

    with :math:`n` the number of documents (Larsen & Aone 1999). A cluster may serve several classes, so this is
    not a one-to-one assignment; it is at least the mean F of any one-to-one assignment weighted by class size.

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> round(class_weighted_f_measure([[21, 7, 11], [31, 10, 2], [9, 16, 0]]), 4)
    0.5614
    """
    C = check_contingency(contingency)
    F = f_table(C)
    weights = C.sum(axis=0) / C.sum()
    return float(weights @ F.max(axis=0))


def _check_assignment(assignment: Any, shape: tuple[int, int]) -> np.ndarray:
    arr = np.asarray(assignment)
    n_clusters, n_classes = shape
    if arr.ndim != 1 or arr.shape[0] != n_clusters:
        raise ValueError(
            f"assignment must have one entry per cluster ({n_clusters}), got shape {arr.shape}: {describe_value(assignment)}"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"assignment must hold integer class indices, got dtype {arr.dtype}: {describe_value(assignment)}")
    bad = (arr < -1) | (arr >= n_classes)
    if bad.any():
        raise ValueError(
            f"assignment entries must be class indices in [0, {n_classes}) or -1, got {arr[bad][0]} "
            f"for cluster {int(np.flatnonzero(bad)[0])}"
        )
    used = arr[arr >= 0]
    if np.unique(used).size != used.size:
        values, counts = np.unique(used, return_counts=True)
        raise ValueError(f"assignment must be one-to-one, class {values[counts > 1][0]} is given to several clusters")
    return arr.astype(np.int64)


def clustering_accuracy(contingency: Any, assignment: Any = None) -> float:
    """Fraction of documents on the diagonal after a one-to-one cluster-to-class assignment.

    .. math::

        \\text{acc}(\\sigma) = \\frac{1}{n} \\sum_{i : \\sigma(i) \\ne -1} n_{i\\,\\sigma(i)} .

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
        Rows = clusters, columns = classes (see :func:`check_contingency`).
    assignment : array-like of int, shape (n_clusters,), optional
        Class index of each cluster (-1 = none), e.g. the second output of :func:`greedy_f_measure`. By default the
        assignment that maximises the accuracy itself (Hungarian algorithm on the counts), the usual "clustering
        accuracy" of the literature.

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> C = [[21, 7, 11], [31, 10, 2], [9, 16, 0]]
    >>> round(clustering_accuracy(C, greedy_f_measure(C)[1]), 4)
    0.5421
    """
    C = check_contingency(contingency)
    if assignment is None:
        rows, cols = linear_sum_assignment(C, maximize=True)
        return float(C[rows, cols].sum() / C.sum())
    a = _check_assignment(assignment, C.shape)
    rows = np.flatnonzero(a >= 0)
    return float(C[rows, a[rows]].sum() / C.sum())


def aligned_table(contingency: Any, assignment: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reorder a contingency table so that each cluster's assigned class sits on the diagonal.

    Rows: the assigned clusters in their original order, then the unassigned ones. Columns: the class of each
    assigned row in the same order, then the classes no cluster got, in increasing order. This is the seed's
    "rearranged table".

    Parameters
    ----------
    contingency : array-like of shape (n_clusters, n_classes)
    assignment : array-like of int, shape (n_clusters,)
        Class index of each cluster, -1 for none (one-to-one).

    Returns
    -------
    table : numpy.ndarray, shape (n_clusters, n_classes)
        The reordered table (same dtype as the validated input, float64).
    row_order, column_order : numpy.ndarray of int64
        ``table = C[row_order][:, column_order]``.

    Examples
    --------
    The seed's worked example, rearranged by the greedy assignment:

    >>> C = [[21, 7, 11], [31, 10, 2], [9, 16, 0]]
    >>> table, rows, columns = aligned_table(C, greedy_f_measure(C)[1])
    >>> table.tolist(), columns.tolist()
    ([[11.0, 21.0, 7.0], [2.0, 31.0, 10.0], [0.0, 9.0, 16.0]], [2, 0, 1])
    """
    C = check_contingency(contingency)
    a = _check_assignment(assignment, C.shape)
    assigned = np.flatnonzero(a >= 0)
    row_order = np.concatenate([assigned, np.flatnonzero(a < 0)]).astype(np.int64)
    leftover = np.setdiff1d(np.arange(C.shape[1]), a[assigned])
    column_order = np.concatenate([a[assigned], leftover]).astype(np.int64)
    return C[np.ix_(row_order, column_order)], row_order, column_order


def retrieval_scores(n_retrieved: int, n_relevant_retrieved: int, n_relevant: int) -> tuple[float, float, float]:
    """Precision, recall and F-measure of one query's answer set.

    .. math::

        P = \\frac{\\text{relevant retrieved}}{\\text{retrieved}}, \\qquad
        R = \\frac{\\text{relevant retrieved}}{\\text{relevant in the corpus}}, \\qquad
        F = \\frac{2PR}{P + R} .

    Parameters
    ----------
    n_retrieved : int
        Number of documents the query returned (P = 0 when it returned none).
    n_relevant_retrieved : int
        How many of them are relevant.
    n_relevant : int
        Number of relevant documents in the corpus (R = 0 when there are none).

    Returns
    -------
    (precision, recall, f) : tuple of float

    Examples
    --------
    The seed's example: 125 documents returned, 75 of them relevant, 100 relevant in the corpus.

    >>> tuple(round(v, 4) for v in retrieval_scores(125, 75, 100))
    (0.6, 0.75, 0.6667)
    """
    values = {"n_retrieved": n_retrieved, "n_relevant_retrieved": n_relevant_retrieved, "n_relevant": n_relevant}
    for name, value in values.items():
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
            raise TypeError(f"{name} must be an integer count, got {describe_value(value)}")
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")
    if n_relevant_retrieved > min(n_retrieved, n_relevant):
        raise ValueError(
            f"n_relevant_retrieved must not exceed n_retrieved ({n_retrieved}) or n_relevant ({n_relevant}), "
            f"got {n_relevant_retrieved}"
        )
    precision = n_relevant_retrieved / n_retrieved if n_retrieved else 0.0
    recall = n_relevant_retrieved / n_relevant if n_relevant else 0.0
    return float(precision), float(recall), harmonic_f(precision, recall)
