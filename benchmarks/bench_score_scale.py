"""How ``labelrank score`` scales with the tree and the run: BDM per needed pair against the whole BDM matrix.

For each tree size (labels; a seeded random tree of branching about n^(1/9), depth at least 8) and run size (lines;
100 ranked labels per document, 3 true labels, about a third of them in the run), the script writes the three
files and scores them in a fresh process, twice:

* ``pairs``: what ``labelrank score`` does, ``CostScorer.from_tree`` (BDM for the pairs the run holds);
* ``matrix``: the reference, ``CostScorer(bdm_matrix(tree))`` (BDM of every pair of labels), run only where the
  matrix fits (``--matrix-max`` labels; it needs 8 bytes for every pair of labels).

Each child process reads the files, scores them and prints the means; the parent records wall time and the child's
peak resident memory (``wait4``), checks that both paths print the same numbers (bit for bit) and prints ratios.

Usage: python benchmarks/bench_score_scale.py [--labels 1000 10000 100000] [--lines 10000 1000000]
                                             [--matrix-max 6000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from labelrank.studies.performance import write_record

DOC_LABELS = 100  # ranked labels per document
TRUE_LABELS = 3


def write_case(folder: Path, n_labels: int, n_lines: int, seed: int = 0) -> tuple[Path, Path, Path, int]:
    """Tree, truth and run files; returns their paths and the tree's depth."""
    rng = np.random.default_rng([seed, n_labels, n_lines])
    branching = max(2, int(n_labels ** (1 / 9)))  # deep enough for a depth of 8 or more
    parent = np.zeros(n_labels, dtype=np.int64)
    depth = np.zeros(n_labels, dtype=np.int64)
    for i in range(1, n_labels):
        parent[i] = rng.integers(max(0, (i - 1) // branching - 2), (i - 1) // branching + 1)
        depth[i] = depth[parent[i]] + 1
    tree = folder / "tree.yaml"
    tree.write_text("'t0': null\n" + "".join(f"'t{i}': 't{parent[i]}'\n" for i in range(1, n_labels)))
    truth_lines, run_lines = [], []
    for d in range(max(n_lines // DOC_LABELS, 1)):
        true = rng.choice(n_labels, TRUE_LABELS, replace=False)
        truth_lines += [f"d{d} t{lab}\n" for lab in true]
        listed = rng.choice(n_labels, DOC_LABELS, replace=False)
        hit = rng.random(TRUE_LABELS) < 0.33
        listed[rng.choice(DOC_LABELS, TRUE_LABELS, replace=False)[hit]] = true[hit]
        listed = list(dict.fromkeys(listed.tolist()))
        scores = np.sort(rng.random(len(listed)))[::-1]
        run_lines += [f"d{d} t{lab} {r} {s:.6f}\n" for r, (lab, s) in enumerate(zip(listed, scores), start=1)]
    (folder / "truth.txt").write_text("".join(truth_lines))
    (folder / "run.txt").write_text("".join(run_lines))
    return tree, folder / "truth.txt", folder / "run.txt", int(depth.max())


def child(mode: str, tree_path: str, truth_path: str, run_path: str) -> None:
    """Score the files with one path; print the means as JSON."""
    from labelrank.cli import score_run
    from labelrank.runfiles import read_run, read_truth
    from labelrank.cost import bdm_matrix
    from labelrank.hierarchy import LabelTree
    from labelrank.metrics.cost_scorer import CostScorer

    tree = LabelTree.from_file(tree_path)
    labels = set(tree.labels)
    truth = read_truth(truth_path, labels)
    scorer = CostScorer.from_tree(tree) if mode == "pairs" else CostScorer(bdm_matrix(tree))
    table = score_run(scorer, truth, read_run(run_path, labels, truth))
    print(json.dumps(table.to_numpy().tolist()))


def measure(mode: str, files: tuple[Path, Path, Path]) -> tuple[float, float, list]:
    """Wall seconds, peak memory (MB) and the printed means of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", mode, *map(str, files)], stdout=subprocess.PIPE)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{mode} child failed with status {proc.returncode}")
    return seconds, usage.ru_maxrss / 1024, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, nargs="+", default=[1_000, 5_000, 100_000])
    parser.add_argument("--lines", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--matrix-max", type=int, default=6_000)
    parser.add_argument("--child", nargs=4, metavar=("MODE", "TREE", "TRUTH", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    print(f"{'labels':>8} {'depth':>5} {'lines':>9} | {'pairs s':>8} {'MB':>6} | {'matrix s':>8} {'MB':>6} | "
          f"{'time ratio':>10} {'memory ratio':>12}")
    rows = []
    for n_labels in args.labels:
        for n_lines in args.lines:
            with tempfile.TemporaryDirectory() as tmp:
                *files, depth = write_case(Path(tmp), n_labels, n_lines)
                t_new, m_new, v_new = measure("pairs", files)
                row = f"{n_labels:>8,} {depth:>5} {n_lines:>9,} | {t_new:>8.2f} {m_new:>6.0f} | "
                record = {"labels": n_labels, "depth": depth, "lines": n_lines, "pairs_seconds": t_new,
                          "pairs_mb": m_new, "matrix_seconds": None, "matrix_mb": None}
                if n_labels <= args.matrix_max:
                    t_old, m_old, v_old = measure("matrix", files)
                    if v_new != v_old:
                        raise SystemExit(f"the two paths disagree: {v_new} vs {v_old}")
                    row += f"{t_old:>8.2f} {m_old:>6.0f} | {t_old / t_new:>9.1f}x {m_old / m_new:>11.1f}x"
                    record.update(matrix_seconds=t_old, matrix_mb=m_old)
                else:
                    row += f"{'(does not fit)':>15} | {'':>10} {'':>12}"
                rows.append(record)
                print(row, flush=True)
    print(f"record: {write_record('bench_score_scale', {'scaling': rows}, values={'matrix_max': args.matrix_max})}")


if __name__ == "__main__":
    main()
