"""``labelrank score`` on a large TREC-form run against trec_eval (pytrec_eval), and its start-up time.

The case: ``--documents`` documents (queries) with ``--labels-per-doc`` ranked labels each (1,000,000 lines by
default), a seeded random tree of ``--tree-labels`` labels and depth ``--depth``, one to three true labels per
document, the same files for both tools (TREC qrels and a TREC run). Each tool runs in a fresh process, one after
another, and the parent records its user CPU seconds and peak resident memory (``wait4``):

* ``labelrank``: ``labelrank score --tree TREE --truth QRELS --run RUN --order score`` (binary, BDM-High and
  BDM-Low A-Precision, R-Precision and F-measure);
* ``labelrank-binary``: the same without ``--tree`` (the binary measures trec_eval computes);
* ``pytrec_eval``: Python reads the two files into pytrec_eval's dicts, then trec_eval's C code computes ``map``
  and ``Rprec``.

Both print their mean A-Precision and R-Precision, which must agree (``--order score`` is trec_eval's order).
The three tools take turns ``--repeats`` times; each row keeps its least user CPU time (the run least disturbed by
the rest of the machine) and its largest peak memory. Then the wall time of ``labelrank score`` on a three-line
run, the start-up cost a user feels.

Usage: python benchmarks/bench_score.py [--documents 100000] [--labels-per-doc 10] [--tree-labels 5000] [--depth 6]
       [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from labelrank.studies.performance import write_record

PYTREC = r"""
import sys, pytrec_eval
qrels, run = {}, {}
for line in open(sys.argv[1]):
    q, _, d, r = line.split()
    qrels.setdefault(q, {})[d] = int(r)
for line in open(sys.argv[2]):
    q, _, d, _, s, _ = line.split()
    run.setdefault(q, {})[d] = float(s)
res = pytrec_eval.RelevanceEvaluator(qrels, {"map", "Rprec"}).evaluate(run)
n = len(qrels)  # -c: every query of the qrels, a query without a run scoring 0
print(sum(v["map"] for v in res.values()) / n, sum(v["Rprec"] for v in res.values()) / n)
"""


def write_case(folder: Path, n_docs: int, per_doc: int, n_labels: int, depth: int, seed: int = 0):
    """Tree, qrels and run files (TREC form) in ``folder``."""
    rng = np.random.default_rng([seed, n_docs, per_doc, n_labels, depth])
    per_level = max(2, round(n_labels ** (1 / depth)))
    parent, level = [None], [0]
    for i in range(1, n_labels):
        candidates = [j for j in range(max(0, i - per_level * 4), i) if level[j] < depth] or [0]
        p = int(candidates[rng.integers(len(candidates))])
        parent.append(p)
        level.append(level[p] + 1)
    tree = folder / "tree.yaml"
    tree.write_text("'t0': null\n" + "".join(f"'t{i}': 't{parent[i]}'\n" for i in range(1, n_labels)))
    labels = np.arange(1, n_labels)
    qrels, run = [], []
    for d in range(n_docs):
        true = rng.choice(labels, int(rng.integers(1, 4)), replace=False)
        found = true[rng.random(true.size) < 0.5]  # about half the true labels are listed
        others = rng.choice(labels, per_doc + true.size, replace=False)
        others = others[~np.isin(others, true)][: per_doc - found.size]
        listed = np.concatenate([found, others])
        qrels += [f"d{d} 0 t{lab} 1\n" for lab in true]
        scores = np.round(rng.random(per_doc), 4)
        run += [f"d{d} Q0 t{lab} {r} {s} sys\n" for r, (lab, s) in
                enumerate(sorted(zip(listed, scores), key=lambda x: -x[1]), start=1)]
    (folder / "qrels").write_text("".join(qrels))
    (folder / "run").write_text("".join(run))
    return tree, folder / "qrels", folder / "run"


def timed(argv: list[str]) -> dict:
    """Run ``argv`` and return its wall and user CPU seconds, peak memory and output."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(argv[:4])} failed: {err[-2000:]}")
    return {"wall_seconds": wall, "user_seconds": usage.ru_utime, "peak_mb": usage.ru_maxrss / 1024, "stdout": out}


def labelrank_means(text: str) -> tuple[float, float]:
    rows = {line.split()[0]: line.split()[1] for line in text.splitlines() if line.startswith(("A-Prec", "R-Prec"))}
    return float(rows["A-Precision"]), float(rows["R-Precision"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--labels-per-doc", type=int, default=10)
    parser.add_argument("--tree-labels", type=int, default=5_000)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    exe = Path(sys.executable).with_name("labelrank")
    with tempfile.TemporaryDirectory() as tmp:
        tree, qrels, run = write_case(Path(tmp), args.documents, args.labels_per_doc, args.tree_labels, args.depth)
        common = [str(exe), "score", "--truth", str(qrels), "--run", str(run), "--order", "score"]
        commands = {"labelrank": [*common[:2], "--tree", str(tree), *common[2:]], "labelrank-binary": common,
                    "pytrec_eval": [sys.executable, "-c", PYTREC, str(qrels), str(run)]}
        results = {name: [] for name in commands}
        for _ in range(max(1, args.repeats)):  # in turns, so that a disturbance hits every tool alike
            for name, argv in commands.items():
                results[name].append(timed(argv))
        rows = {name: dict(min(got, key=lambda row: row["user_seconds"]),
                           peak_mb=max(row["peak_mb"] for row in got)) for name, got in results.items()}
        ours = labelrank_means(rows["labelrank"]["stdout"])
        binary = labelrank_means(rows["labelrank-binary"]["stdout"])
        theirs = tuple(float(x) for x in rows["pytrec_eval"]["stdout"].split())
        if not (np.allclose(ours, theirs, atol=5e-5) and np.allclose(binary, theirs, atol=5e-5)):
            raise SystemExit(f"the tools disagree: labelrank {ours}, binary {binary}, trec_eval {theirs}")
        small = Path(tmp) / "small"
        small.mkdir()
        (small / "qrels").write_text("d1 0 a 1\n")
        (small / "run").write_text("d1 Q0 a 1 0.9 s\nd1 Q0 b 2 0.5 s\nd1 Q0 c 3 0.1 s\n")
        startup = min(timed([str(exe), "score", "--truth", str(small / "qrels"), "--run", str(small / "run")])
                      ["wall_seconds"] for _ in range(3))
    reference = rows["pytrec_eval"]["user_seconds"]
    table = []
    print(f"{'tool':18} {'user s':>8} {'x trec_eval':>12} {'peak MB':>8} {'wall s':>8}")
    for name, row in rows.items():
        print(f"{name:18} {row['user_seconds']:8.2f} {row['user_seconds'] / reference:12.2f} {row['peak_mb']:8.0f} "
              f"{row['wall_seconds']:8.2f}")
        table.append({"tool": name, "user_seconds": row["user_seconds"], "ratio_to_trec_eval":
                      row["user_seconds"] / reference, "peak_mb": row["peak_mb"], "wall_seconds": row["wall_seconds"]})
    print(f"MAP {theirs[0]:.4f}, R-Precision {theirs[1]:.4f} (both tools); a three-line run: {startup:.2f} s wall")
    lines = args.documents * args.labels_per_doc
    values = {"lines": lines, "documents": args.documents, "tree_labels": args.tree_labels, "depth": args.depth,
              "repeats": max(1, args.repeats),
              "map": theirs[0], "r_precision": theirs[1], "three_line_wall_seconds": startup}
    print(f"record: {write_record('bench_score', {'tools': table}, values=values)}")


if __name__ == "__main__":
    main()
