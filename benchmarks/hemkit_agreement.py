"""labelrank's hF and LCA-F against HEMKit, the tool of the measures' authors, on random trees and DAGs.

HEMKit is C++ under the GPL and on no package index, so neither the tests nor the book can run it; this script is
what was run, and its outputs are what they read:

* a record ``hemkit_agreement`` (``benchmarks/records/``): on ``--cases`` random trees and as many random DAGs of 4 to
  30 labels, 1 to 6 documents of 1 to 6 true and 0 to 6 predicted labels (the root among them now and then), for
  HEMKit's maximum distance 100000 and 1 to 3, the largest difference of each of the six measures between HEMKit and
  ``convention="hemkit"``, and between HEMKit and HiClass's reading (``convention="hiclass"``, macro, the root
  added as a label above the tree and above that the top node, so that the set-based measures count what HEMKit
  counts); HEMKit runs twice, with glibc's default allocator and with its thread cache off
  (``GLIBC_TUNABLES=glibc.malloc.tcache_count=0``), because on a DAG HEMKit's ties follow the memory order of the
  nodes' parents;
* with ``--write-cases``, ``data/hemkit/cases.json``: the worked examples of ``tests/lib/test_hemkit.py`` and the book,
  each with HEMKit's printed output (and with ``--hemkit-precise``, the output of a build printing 17 digits).

Build HEMKit first (the ``hierarchical/software`` folder of github.com/BioASQ/Evaluation-Measures):
``g++ -O1 main.cpp bestPathfinder.cpp graph.cpp subGraphCreator.cpp -o HEMKit``; for 17 digits, the same with
``std::cout << std::setprecision(17);`` as the first line of ``main``.

Usage: python benchmarks/hemkit_agreement.py --hemkit PATH [--hemkit-precise PATH] [--cases 200] [--write-cases]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from labelrank.hierarchy import LabelTree
from labelrank.metrics import hierarchical_prf, lca_prf
from labelrank.metrics.hemkit import UNLIMITED, hemkit_files, hemkit_scores
from labelrank.studies.performance import write_record

MEASURES = ("hP", "hR", "hF", "LCA-P", "LCA-R", "LCA-F")
NO_TCACHE = {"GLIBC_TUNABLES": "glibc.malloc.tcache_count=0"}
ROOT = Path(__file__).resolve().parents[1]


def random_tree(rng: random.Random, dag: bool) -> LabelTree:
    """4 to 30 labels under n0; in a DAG about 40% of the labels have two or three parents."""
    parents: dict[str, object] = {"n0": None}
    for i in range(1, rng.randint(4, 30)):
        if dag and i > 2 and rng.random() < 0.4:
            parents[f"n{i}"] = [f"n{p}" for p in rng.sample(range(i), rng.randint(2, min(3, i)))]
        else:
            parents[f"n{i}"] = f"n{rng.randrange(i)}"
    labels = list(parents)
    if rng.random() < 0.5:  # node numbers in another order than the labels' creation
        labels = labels[:1] + rng.sample(labels[1:], len(labels) - 1)
    return LabelTree.from_parents({label: parents[label] for label in labels})


def random_docs(rng: random.Random, tree: LabelTree) -> tuple[list[list[str]], list[list[str]]]:
    labels = list(tree.labels) if rng.random() < 0.3 else [x for x in tree.labels if x != tree.root]
    truth, predicted = [], []
    for _ in range(rng.randint(1, 6)):
        truth.append(rng.sample(labels, rng.randint(1, min(6, len(labels)))))
        low = 0 if rng.random() < 0.1 else 1
        predicted.append(rng.sample(labels, rng.randint(low, min(6, len(labels)))))
    return truth, predicted


def run_hemkit(binary: str, tree: LabelTree, truth, predicted, max_distance: int, env=None) -> list[float]:
    """HEMKit's six printed averages (hP hR hF LCA-P LCA-R LCA-F) on the files :func:`hemkit_files` writes."""
    with tempfile.TemporaryDirectory() as tmp:
        files = hemkit_files(tree, truth, predicted, tmp)
        out = subprocess.run([binary, *map(str, files), str(max_distance), "5"], capture_output=True, text=True,
                             timeout=120, env={**os.environ, **(env or {})}, check=True)
    return [float(x) for x in out.stdout.split()]


def hiclass_reading(tree: LabelTree, truth, predicted) -> list[float]:
    """HiClass's reading, macro, on the tree lifted by two labels: "zero" above its root (HEMKit's node 0, which
    then counts) and "top" above that (the root HiClass's reading leaves out)."""
    parents = {"top": None, "zero": "top"}
    parents.update({x: list(tree.parents(x)) or "zero" for x in tree.labels})
    lifted = LabelTree.from_parents(parents)
    kept = [(t, p) for t, p in zip(truth, predicted) if t]
    t, p = [k[0] for k in kept], [k[1] for k in kept]
    h = hierarchical_prf(lifted, t, p, average="macro")
    try:
        lca = lca_prf(lifted, t, p, average="macro", convention="hiclass")
    except ValueError:  # a DAG: HiClass's reading has no LCA-F
        lca = (math.nan,) * 3
    return [*h, *lca]


def difference(a: float, b: float) -> float:
    """|a - b|; 0 when both are NaN, infinite when one is (HEMKit's NaN beside a number)."""
    if math.isnan(a) or math.isnan(b):
        return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
    return abs(a - b)


def agreement(binary: str, cases: int) -> list[dict]:
    """One row per (structure, maximum distance, reading): the cases, how many differ from HEMKit, how many of
    them by a NaN beside a number, and each measure's largest finite difference."""
    rows = []
    for kind in ("tree", "DAG"):
        for max_distance in (UNLIMITED, 1, 2, 3):
            worst = {(who, m): 0.0 for who in ("hemkit", "hemkit, no tcache", "hiclass") for m in MEASURES}
            differing = {"hemkit": 0, "hemkit, no tcache": 0, "hiclass": 0}
            nan_beside = dict.fromkeys(differing, 0)
            for seed in range(cases):
                rng = random.Random(f"{kind} {max_distance} {seed}")
                tree = random_tree(rng, kind == "DAG")
                truth, predicted = random_docs(rng, tree)
                rows_ = hemkit_scores(tree, truth, predicted, max_distance)
                rows_ = rows_[~np.isnan(rows_).all(axis=1)]
                ours = [float(x) for x in rows_.mean(axis=0)]
                theirs = run_hemkit(binary, tree, truth, predicted, max_distance)
                plain = run_hemkit(binary, tree, truth, predicted, max_distance, NO_TCACHE)
                for who, values, against in (("hemkit", ours, theirs), ("hemkit, no tcache", ours, plain),
                                             ("hiclass", hiclass_reading(tree, truth, predicted), theirs)):
                    if who == "hiclass" and max_distance != UNLIMITED:
                        continue  # HiClass's reading has no maximum distance
                    d = [difference(x, y) for x, y in zip(values, against)]
                    if who == "hiclass" and kind == "DAG":
                        d[3:] = [math.nan] * 3
                    for m, x in zip(MEASURES, d):
                        if math.isnan(x):
                            worst[who, m] = None  # no LCA-F under HiClass's reading on a DAG
                        elif math.isfinite(x) and worst[who, m] is not None:
                            worst[who, m] = max(worst[who, m], x)
                    differing[who] += any(x > 1e-9 for x in d if not math.isnan(x))
                    nan_beside[who] += any(math.isinf(x) for x in d)
            for who in differing:
                if who == "hiclass" and max_distance != UNLIMITED:
                    continue
                rows.append({"structure": kind, "max_distance": max_distance, "reading": who, "cases": cases,
                             "cases_differing": differing[who], "nan_beside_a_number": nan_beside[who],
                             **{f"max_diff_{m}": worst[who, m] for m in MEASURES}})
            print(kind, max_distance, differing, flush=True)
    return rows


# ------------------------------------------------------------------------------------------ the worked examples
def example_cases() -> list[dict]:
    """The worked examples: the issue's two minimal cases, the root, an empty prediction, a DAG with ties, one
    where g++'s sort decides, one where the allocator does, a maximum distance of 1, and two random ones."""
    chain = {"1": None, "2": "1", "3": "2", "4": "3"}
    small = {"1": None, "2": "1", "3": "1", "7": "1", "4": "2", "5": "2", "6": "5"}
    dag = {"r": None, "a": "r", "b": "r", "c": ["a", "b"], "d": "c", "e": ["a", "b"], "f": "b"}
    cases = [
        {"name": "ancestor in the truth", "parents": chain, "truth": [["2", "4"]], "predicted": [["3"]]},
        {"name": "nearest labels", "parents": small, "truth": [["3", "4"]], "predicted": [["6", "4"]]},
        {"name": "the root in both sets", "parents": small, "truth": [["1", "6"]], "predicted": [["1", "3"]]},
        {"name": "an empty prediction", "parents": small, "truth": [["6"], ["3"]], "predicted": [["5"], []]},
        {"name": "a DAG with ties", "parents": dag, "truth": [["d", "f"]], "predicted": [["e"]]},
        {"name": "a DAG, several documents", "parents": dag,
         "truth": [["d"], ["e", "f"], ["c"]], "predicted": [["e"], ["d"], ["a", "f"]]},
        {"name": "maximum distance 1", "parents": small, "truth": [["6", "3"]], "predicted": [["4"]],
         "max_distance": 1},
    ]
    for kind, seed in (("tree", 3), ("DAG", 5)):
        rng = random.Random(f"example {kind} {seed}")
        tree = random_tree(rng, kind == "DAG")
        truth, predicted = random_docs(rng, tree)
        cases.append({"name": f"a random {kind}", "parents": _parent_map(tree), "truth": truth,
                      "predicted": predicted})
    # more than 16 equally short path pairs of one label: a stable sort of them would change LCA-P and LCA-R
    cases.append({"name": "g++'s sort decides", "parents": {
        "n0": None, "n16": ["n12", "n10", "n0"], "n1": "n0", "n6": "n1", "n10": ["n8", "n5"], "n7": "n3",
        "n3": ["n1", "n0"], "n4": "n3", "n13": "n11", "n14": "n12", "n11": ["n10", "n9"], "n2": "n1", "n5": "n3",
        "n8": ["n4", "n1"], "n17": ["n11", "n7", "n16"], "n15": ["n4", "n13", "n2"], "n12": "n1", "n9": "n4"},
        "truth": [["n5", "n3", "n16"]], "predicted": [["n17", "n15"]]})
    # found by this script's search: LCA measures that HEMKit computes differently under glibc's default allocator
    # and with its thread cache off
    cases.append({"name": "memory order decides", "search": "allocator"})
    return cases


def _parent_map(tree: LabelTree) -> dict:
    return {x: (list(tree.parents(x)) if len(tree.parents(x)) > 1 else (tree.parents(x) or [None])[0])
            for x in tree.labels}


def search_allocator_case(binary: str, limit: int = 3000) -> dict:
    """The first random DAG document whose LCA measures HEMKit prints differently under glibc's default allocator
    and with its thread cache off, labelrank's result being the latter."""
    for seed in range(limit):
        rng = random.Random(f"search {seed}")
        tree = random_tree(rng, True)
        truth, predicted = random_docs(rng, tree)
        for d in range(len(truth)):
            if not truth[d] or not predicted[d]:
                continue
            t, p = [truth[d]], [predicted[d]]
            for max_distance in (UNLIMITED, 1):
                ours = hemkit_scores(tree, t, p, max_distance)[0].tolist()
                theirs = run_hemkit(binary, tree, t, p, max_distance)
                plain = run_hemkit(binary, tree, t, p, max_distance, NO_TCACHE)
                if theirs != plain and max(map(difference, ours, plain)) < 1e-6:
                    return {"parents": _parent_map(tree), "truth": t, "predicted": p, "max_distance": max_distance}
    raise SystemExit(f"no case found in {limit} seeds")


def write_cases(binary: str, precise: str | None, path: Path) -> None:
    cases = []
    for case in example_cases():
        if case.get("search") == "allocator":
            case = {"name": case["name"], **search_allocator_case(binary)}
        tree = LabelTree.from_parents(case["parents"])
        max_distance = case.get("max_distance", UNLIMITED)
        args = (tree, case["truth"], case["predicted"], max_distance)
        case["hemkit"] = _nan_to_none(run_hemkit(binary, *args))
        case["hemkit_no_tcache"] = _nan_to_none(run_hemkit(binary, *args, NO_TCACHE))
        if precise:
            case["hemkit_17_digits"] = _nan_to_none(run_hemkit(precise, *args))
            case["hemkit_17_digits_no_tcache"] = _nan_to_none(run_hemkit(precise, *args, NO_TCACHE))
        case["max_distance"] = max_distance
        cases.append(case)
        print(case["name"], case["hemkit"], flush=True)
    head = {"command": "HEMKit hierarchy.txt true.txt predicted.txt MAX_DISTANCE 5 (the files written by "
                       "labelrank.metrics.hemkit.hemkit_files; benchmarks/hemkit_agreement.py --write-cases)",
            "outputs": "hP hR hF LCA-P LCA-R LCA-F as HEMKit printed them (nan stored as null): 'hemkit' the stock "
                       "build, 'hemkit_17_digits' a build printing 17 digits, '_no_tcache' with "
                       "GLIBC_TUNABLES=glibc.malloc.tcache_count=0"}
    lines = [json.dumps(case, allow_nan=False) for case in cases]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(head, indent=1)[:-2] + ',\n "cases": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n")


def _nan_to_none(values: list[float]) -> list[float | None]:
    return [None if math.isnan(x) else x for x in values]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hemkit", required=True, help="a HEMKit binary built from its source")
    parser.add_argument("--hemkit-precise", default=None, help="the same, printing 17 digits")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--write-cases", action="store_true")
    args = parser.parse_args()
    if args.write_cases:
        write_cases(args.hemkit, args.hemkit_precise, ROOT / "data" / "hemkit" / "cases.json")
        return
    rows = agreement(args.hemkit_precise or args.hemkit, args.cases)
    print(f"record: {write_record('hemkit_agreement', {'agreement': rows}, values={'cases': args.cases})}")


if __name__ == "__main__":
    sys.exit(main())
