"""Time labelrank.cost.bdm_matrix (vectorized) against the pair-by-pair loop over labelrank.cost.bdm.

The tree has 2,000 labels shaped like an F-term theme (viewpoints -> elements -> sub-elements by dot level, seeded).
The full loop over 4 million ordered pairs would take about half a minute, so the loop is timed on a random sample
of pairs (whose values are checked against the matrix) and extrapolated; pass --full-loop to time all pairs.

Usage: python benchmarks/bench_bdm_matrix.py [--labels 2000] [--pairs 20000] [--full-loop]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from labelrank.cost import bdm, bdm_matrix
from labelrank.hierarchy import LabelTree
from labelrank.studies.performance import write_record


def fterm_like_tree(n_labels: int, seed: int = 0) -> LabelTree:
    """A seeded random theme: 2-letter viewpoints, elements with dot levels 0-3, ``n_labels`` labels in all."""
    rng = np.random.default_rng(seed)
    codes: list[tuple[str, int]] = []
    letters = [a + b for a in "ABCDEFGHJK" for b in "ABCDEFGH"]
    v = 0
    while len(codes) + v + 2 <= n_labels:
        vp = letters[v]
        v += 1
        level = 0
        for number in range(1, int(rng.integers(20, 99)) + 1):
            if len(codes) + v + 1 >= n_labels:
                break
            level = int(np.clip(level + rng.choice([-2, -1, 0, 0, 1]), 0, 3))
            level = min(level, 0 if number == 1 else level)
            codes.append((f"{vp}{number:02d}", level))
    return LabelTree.from_fterms("T0000", codes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=20000)
    parser.add_argument("--full-loop", action="store_true")
    args = parser.parse_args()

    tree = fterm_like_tree(args.labels)
    n = len(tree)
    print(f"tree: {tree!r}, max depth {tree.max_depth}")
    start = time.perf_counter()
    M = bdm_matrix(tree)
    t_matrix = time.perf_counter() - start
    print(f"bdm_matrix, all {n * n:,} pairs: {t_matrix:.2f} s")

    rng = np.random.default_rng(1)
    labels = tree.labels
    if args.full_loop:
        pairs = np.array([(i, j) for i in range(n) for j in range(n)])
    else:
        pairs = rng.integers(0, n, size=(args.pairs, 2))
    start = time.perf_counter()
    loop = np.array([bdm(tree, labels[i], labels[j]) for i, j in pairs])
    t_loop = time.perf_counter() - start
    per_pair = t_loop / len(pairs)
    t_full = per_pair * n * n
    max_diff = float(np.abs(loop - M.to_numpy()[pairs[:, 0], pairs[:, 1]]).max())
    kind = "measured" if args.full_loop else f"extrapolated from {len(pairs):,} random pairs"
    print(f"pair-by-pair loop over bdm: {per_pair * 1e6:.1f} us per pair, {t_full:.1f} s for all pairs ({kind})")
    print(f"speed-up: {t_full / t_matrix:.0f}x; largest |matrix - loop| on the timed pairs: {max_diff:.1e}")
    if max_diff > 1e-12:
        raise SystemExit("bdm_matrix disagrees with bdm")
    row = {"labels": n, "max_depth": tree.max_depth, "pairs": n * n, "matrix_seconds": t_matrix,
           "loop_us_per_pair": per_pair * 1e6, "loop_seconds": t_full, "loop_pairs_timed": len(pairs),
           "loop_extrapolated": not args.full_loop, "speedup": t_full / t_matrix, "max_abs_difference": max_diff}
    print(f"record: {write_record('bench_bdm_matrix', {'bdm_matrix': [row]})}")


if __name__ == "__main__":
    main()
