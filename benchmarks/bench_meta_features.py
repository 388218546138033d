"""Time the nearest-neighbour computations of the meta-level features against Table 2 and scikit-learn.

For each data set this script computes the meta-level features of Yang & Gopal (2012, eq. 1) with
``labelrank.features.MetaLevelFeatures`` (exact search) and, in the same process, with a brute-force reference
built from scikit-learn: one ``NearestNeighbors(algorithm="brute")`` per category and metric (L2, L1, cosine),
``kneighbors`` for every query, padding as in footnote 1, centroid distances from ``pairwise_distances``. It checks
that both give the same values and prints CPU seconds (``time.process_time``, the paper's measure, all threads
of the process counted) and wall seconds for

* ``test``: fit + the features of every test instance (the batch the paper's Table 2 times), and
* ``all``: fit + every training instance (each excluded from its own neighbours) + every test instance,

beside the paper's CPU seconds and the ratios paper / ours and reference / ours. Emotions is rescaled to unit
variance per feature (Yang & Gopal 2012, section 3.4). Each timing is the best of ``--repeat`` runs after one
warm-up run (numba's compiled kernels are loaded from its cache; the warm-up also lets this virtual machine map
the memory the outputs need, whose first touch costs more than the computation on the small sets).

Usage::

    LABELRANK_DATA=/path/to/datasets python benchmarks/bench_meta_features.py \
        [--datasets emotions,yeast,scene,reuters21578] [--k 100] [--repeat 3] [--n-jobs 1] \
        [--dtype float32] [--reference-rows 400]

``--reference-rows`` limits the (slow) scikit-learn reference to that many query rows per workload on data sets
larger than that, and scales its time up by the ratio of rows (marked ``~`` in the output).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import scipy.sparse as sp
from sklearn.metrics import pairwise_distances
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import StandardScaler

from labelrank import datasets

from labelrank.studies import paper
from labelrank.features import MetaLevelFeatures
from labelrank.studies.performance import write_record

METRICS = ("euclidean", "manhattan", "cosine")  # the order of eq. (1): L2, L1, cosine


def load(name: str):
    """Train and test split; emotions rescaled to unit variance per feature with the training statistics."""
    X_train, Y_train, _ = datasets.load(name, "train")
    X_test, _, _ = datasets.load(name, "test")
    if name == "emotions":
        scaler = StandardScaler(with_mean=False).fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    return X_train, Y_train, X_test


def timed(fn, repeat: int):
    """Best CPU and best wall seconds of ``repeat`` calls after a warm-up call; the last result."""
    result = fn()
    cpu, wall = np.inf, np.inf
    for _ in range(repeat):
        del result
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        cpu, wall = min(cpu, time.process_time() - c0), min(wall, time.perf_counter() - w0)
    return cpu, wall, result


def ours(X_train, Y_train, X_test, k, n_jobs, dtype, workload):
    mlf = MetaLevelFeatures(k=k, n_jobs=n_jobs, dtype=dtype).fit(X_train, Y_train)
    test = mlf.neighbor_distances(X_test).values
    if workload == "test":
        return test
    return mlf.neighbor_distances().values, test


def reference(X_train, Y_train, X_query, k, exclude_self, rows):
    """eq. (1) with scikit-learn's brute-force search, one index per category and metric.

    ``exclude_self``: the queries are the training rows ``rows``; each asks for one more neighbour and drops itself.
    """
    n, m = X_query.shape[0], Y_train.shape[1]
    out = np.empty((n, m, 3 * k + 2))
    for b, metric in enumerate(METRICS):
        farthest = None
        for c in range(m):
            members = np.flatnonzero(Y_train[:, c])
            n_neighbors = min(k + (1 if exclude_self else 0), members.size)
            nn = NearestNeighbors(n_neighbors=n_neighbors, algorithm="brute", metric=metric)
            dist, idx = nn.fit(X_train[members]).kneighbors(X_query)
            for i in range(n):
                values = dist[i][members[idx[i]] != rows[i]] if exclude_self else dist[i]
                values = values[:k]
                if values.size == 0:  # alone in its category: the farthest other training instance
                    if farthest is None:
                        D = pairwise_distances(X_query, X_train, metric=metric)
                        D[np.arange(n), rows] = -np.inf
                        farthest = D.max(axis=1)
                    values = farthest[i : i + 1]
                out[i, c, b * k : (b + 1) * k] = np.concatenate([values, np.repeat(values[-1], k - values.size)])
    sums = sp.csr_matrix(Y_train.T.astype(float)) @ X_train
    centroids = np.asarray(sums.todense() if sp.issparse(sums) else sums) / Y_train.sum(axis=0)[:, None]
    out[:, :, 3 * k] = pairwise_distances(X_query, centroids, metric="euclidean")
    out[:, :, 3 * k + 1] = pairwise_distances(X_query, centroids, metric="cosine")
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", default="emotions,yeast,scene,reuters21578")
    parser.add_argument("--k", type=int, default=100, help="neighbours per metric (the grid's largest, 100)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=1, help="threads for our kernels (1: CPU time = work)")
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    parser.add_argument("--reference-rows", type=int, default=400)
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else list(argv)
    table2 = paper.load("yang2012_table2").set_index("dataset")["cpu_seconds"]
    print(f"k = {args.k}, n_jobs = {args.n_jobs}, dtype = {args.dtype}; seconds are the best of {args.repeat} runs")
    header = (
        f"{'data set':<13}{'workload':<9}{'paper cpu':>10}{'ours cpu':>10}{'ours wall':>10}"
        f"{'paper/ours':>11}{'sklearn cpu':>13}{'sklearn/ours':>13}{'max |diff|':>11}"
    )
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(0)
    results = []
    for name in args.datasets.split(","):
        X_train, Y_train, X_test = load(name)
        for workload in ("test", "all"):
            cpu, wall, result = timed(
                lambda: ours(X_train, Y_train, X_test, args.k, args.n_jobs, args.dtype, workload), args.repeat
            )
            parts = [(X_test, False, result if workload == "test" else result[1])]
            if workload == "all":
                parts.insert(0, (X_train, True, result[0]))
            ref_cpu, worst, approx = 0.0, 0.0, ""
            for X_query, exclude_self, values in parts:
                n = X_query.shape[0]
                rows = np.arange(n)
                if n > args.reference_rows:
                    rows = np.sort(rng.choice(n, args.reference_rows, replace=False))
                    approx = "~"
                c0 = time.process_time()
                ref = reference(X_train, Y_train, X_query[rows], args.k, exclude_self, rows)
                ref_cpu += (time.process_time() - c0) * n / rows.size
                worst = max(worst, float(np.abs(values[rows].astype(np.float64) - ref).max()))
            print(
                f"{name:<13}{workload:<9}{table2[name]:>10.2f}{cpu:>10.3f}{wall:>10.3f}{table2[name] / cpu:>10.0f}x"
                f"{approx + format(ref_cpu, '.2f'):>13}{ref_cpu / cpu:>12.0f}x{worst:>11.1e}",
                flush=True,
            )
            results.append({"dataset": name, "workload": workload, "paper_cpu_seconds": float(table2[name]),
                         "cpu_seconds": cpu, "wall_seconds": wall, "sklearn_cpu_seconds": ref_cpu,
                         "sklearn_sampled": bool(approx), "max_abs_difference": worst})
    settings = {"k": args.k, "n_jobs": args.n_jobs, "dtype": args.dtype, "repeat": args.repeat,
                "reference_rows": args.reference_rows}
    print(f"record: {write_record('bench_meta_features', {'neighbour_search': results}, values=settings, argv=argv)}")


if __name__ == "__main__":
    main()
