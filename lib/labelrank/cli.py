"""Command-line interface: ``labelrank data fetch``, ``labelrank score`` and friends.

Each subcommand lives in a function ``_cmd_<name>`` registered in :func:`build_parser`; errors in the user's input
are reported as one line on stderr with exit code 2. The file formats of ``labelrank score`` are read by
:func:`read_truth` and :func:`read_run` (and written by :func:`write_truth` and :func:`write_run`).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


class UsageError(Exception):
    """Bad input from the command line or an input file: printed as one line, exit code 2."""


def _cmd_data_fetch(args: argparse.Namespace) -> int:
    from labelrank import datasets

    names = args.names or list(datasets.REGISTRY)
    for name in names:
        if name not in datasets.REGISTRY:
            raise UsageError(f"unknown data set {name!r}; known: {', '.join(sorted(datasets.REGISTRY))}")
    for name in names:
        try:
            folder = datasets.fetch(name)
        except (datasets.DataUnavailableError, datasets.ChecksumError, FileNotFoundError) as exc:
            raise UsageError(f"{name}: {exc}") from exc
        print(f"{name}: verified in {folder}")
    return 0


# ------------------------------------------------------------------------------------------------ labelrank score
SCORE_FORMATS = """\
file formats (whitespace-separated columns; blank lines and lines starting with # are ignored):
  TREE   the project's tree format: a YAML map "label: parent" with null for the root,
         e.g. data/fterm/2C088_figure1.yaml
  TRUTH  one line per true label of a document:      doc label
         e.g.  JP2001-000123  AA01
  RUN    one line per ranked label (TREC-like):      doc label rank score
         e.g.  JP2001-000123  AA02  1  0.93
         rank: 1 = best (integers, each once per document; they define the order);
         score: a number; labels with score >= --threshold (or the --top best) form the
         assigned set behind the F-measure.

measures (per document, then the mean over the documents of TRUTH; a document of TRUTH
that RUN never mentions scores 0):
  A-Precision  mean precision at the ranks of the true labels (trec_eval AP), list cut at --cutoff
  R-Precision  precision of the top R labels, R = number of true labels
  F-measure    2PR/(P+R) of the assigned set
each as binary (exact matches), BDM-High (eq. 4: a listed label earns its best BDM to a true
label) and BDM-Low (eq. 5: a wrong label earns its best BDM to a true label the list missed);
recall is symmetric. Li, Bontcheva & Cunningham (2007).

exit status: 0 on success, 2 on bad input (one message naming the file and line)."""


@dataclass
class Run:
    """A run file read by :func:`read_run`: per document, the labels in rank order and their scores."""

    ranking: dict[str, list[str]]
    scores: dict[str, list[float]]


def _data_lines(path: str | os.PathLike, what: str):
    """Yield (line number, fields) of the non-blank, non-comment lines; UsageError if unreadable or empty."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise UsageError(f"{path}: {what} file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the {what} file: {exc}") from exc
    found = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        found = True
        yield lineno, stripped.split()
    if not found:
        raise UsageError(f"{path}: the {what} file is empty (no data lines)")


def read_truth(path: str | os.PathLike, labels: Collection[str]) -> dict[str, list[str]]:
    """Read a TRUTH file (lines ``doc label``) into ``{doc: [labels in file order]}``.

    Raises
    ------
    UsageError
        For a missing or empty file, a line without exactly two fields, a label not in ``labels``, or a
        (doc, label) pair listed twice; the message names the file and the line.
    """
    truth: dict[str, list[str]] = {}
    first: dict[tuple[str, str], int] = {}
    for lineno, fields in _data_lines(path, "truth"):
        where = f"{path}:{lineno}"
        if len(fields) != 2:
            raise UsageError(f"{where}: expected 2 columns 'doc label', got {len(fields)}: {' '.join(fields)!r}")
        doc, label = fields
        if label not in labels:
            raise UsageError(f"{where}: unknown label {label!r} (not in the tree)")
        if (doc, label) in first:
            raise UsageError(f"{where}: duplicate line for document {doc!r}, label {label!r} "
                             f"(first on line {first[doc, label]})")
        first[doc, label] = lineno
        truth.setdefault(doc, []).append(label)
    return truth


def read_run(path: str | os.PathLike, labels: Collection[str], docs: Collection[str]) -> Run:
    """Read a RUN file (lines ``doc label rank score``), each document's labels sorted by rank.

    Parameters
    ----------
    path : path of the run file
    labels : the labels of the tree
    docs : the documents of the truth file

    Raises
    ------
    UsageError
        For a missing or empty file, a line without exactly four fields, a label not in ``labels``, a document not
        in ``docs``, a rank that is not a positive integer, a score that is not a finite number, or a (doc, label)
        or (doc, rank) listed twice; the message names the file and the line.
    """
    rows: dict[str, list[tuple[int, str, float]]] = {}
    first_label: dict[tuple[str, str], int] = {}
    first_rank: dict[tuple[str, int], int] = {}
    for lineno, fields in _data_lines(path, "run"):
        where = f"{path}:{lineno}"
        if len(fields) != 4:
            raise UsageError(
                f"{where}: expected 4 columns 'doc label rank score', got {len(fields)}: {' '.join(fields)!r}"
            )
        doc, label, rank_text, score_text = fields
        if label not in labels:
            raise UsageError(f"{where}: unknown label {label!r} (not in the tree)")
        if doc not in docs:
            raise UsageError(f"{where}: document {doc!r} is not in the truth file")
        try:
            rank = int(rank_text)
        except ValueError:
            rank = 0
        if rank < 1:
            raise UsageError(f"{where}: rank {rank_text!r} is not a positive integer")
        try:
            score = float(score_text)
        except ValueError:
            score = math.nan
        if not math.isfinite(score):
            raise UsageError(f"{where}: score {score_text!r} is not a finite number")
        if (doc, label) in first_label:
            raise UsageError(f"{where}: duplicate line for document {doc!r}, label {label!r} "
                             f"(first on line {first_label[doc, label]})")
        if (doc, rank) in first_rank:
            raise UsageError(f"{where}: duplicate rank {rank} for document {doc!r} (first on line "
                             f"{first_rank[doc, rank]})")
        first_label[doc, label] = first_rank[doc, rank] = lineno
        rows.setdefault(doc, []).append((rank, label, score))
    ranking, scores = {}, {}
    for doc, items in rows.items():
        items.sort()
        ranking[doc] = [label for _, label, _ in items]
        scores[doc] = [score for _, _, score in items]
    return Run(ranking=ranking, scores=scores)


def write_truth(path: str | os.PathLike, truth: Mapping[str, Sequence[str]]) -> None:
    """Write ``{doc: labels}`` as a TRUTH file (the format :func:`read_truth` reads)."""
    with open(path, "w", encoding="utf-8") as fh:
        for doc, labels in truth.items():
            for label in labels:
                fh.write(f"{doc} {label}\n")


def write_run(path: str | os.PathLike, ranking: Mapping[str, Sequence[str]],
              scores: Mapping[str, Sequence[float]]) -> None:
    """Write ranked labels and their scores as a RUN file (``doc label rank score``, rank 1 = first)."""
    with open(path, "w", encoding="utf-8") as fh:
        for doc, labels in ranking.items():
            for rank, (label, score) in enumerate(zip(labels, scores[doc], strict=True), start=1):
                fh.write(f"{doc} {label} {rank} {score:.6g}\n")


_SHORT = {"A-Precision": "AP", "R-Precision": "RP", "F-measure": "F"}
_VARIANT_NAMES = {"binary": "binary", "high": "BDM-High", "low": "BDM-Low"}


def _cmd_score(args: argparse.Namespace) -> int:
    from labelrank.hierarchy import LabelTree
    from labelrank.metrics.cost_precision import CostScorer

    if args.cutoff < 1:
        raise UsageError(f"--cutoff must be a positive integer, got {args.cutoff}")
    if args.top is not None and args.top < 1:
        raise UsageError(f"--top must be a positive integer, got {args.top}")
    if not math.isfinite(args.threshold):  # NaN would assign nothing silently (every comparison with it is False)
        raise UsageError(f"--threshold must be a finite number, got {args.threshold}")
    try:
        tree = LabelTree.from_file(args.tree)
    except FileNotFoundError:
        raise UsageError(f"{args.tree}: tree file not found") from None
    except Exception as exc:  # the YAML parser and LabelTree report malformed trees with several exception types
        raise UsageError(f"{args.tree}: not a valid tree file: {exc}") from exc
    labels = set(tree.labels)
    truth = read_truth(args.truth, labels)
    docs = list(truth)
    scorer = CostScorer.from_tree(tree)
    for i, path in enumerate(args.run):
        run = read_run(path, labels, truth)
        ranking = [run.ranking.get(d, []) for d in docs]
        if args.top is not None:
            assigned = [r[: args.top] for r in ranking]
        else:
            assigned = [[lab for lab, s in zip(run.ranking.get(d, []), run.scores.get(d, [])) if s >= args.threshold]
                        for d in docs]
        table = scorer.score([truth[d] for d in docs], ranking, assigned, cutoff=args.cutoff,
                             per_document=args.per_doc, index=docs)
        missing = sum(1 for d in docs if d not in run.ranking)
        if i:
            print()
        print(f"run: {path}  ({len(docs)} documents" + (f", {missing} not in the run: scored 0)" if missing else ")"))
        if args.per_doc:
            table.loc["mean"] = table.mean(axis=0)
            table.columns = [f"{_SHORT[m]}.{_VARIANT_NAMES[v]}" for m, v in table.columns]
        else:
            table = table.rename(columns=_VARIANT_NAMES)
            table.columns.name = None
        table.index.name = None
        print(table.to_string(float_format=lambda x: f"{x:.4f}"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="labelrank",
        description="Label-relation-aware evaluation and multi-label learning to rank (labelrank-book).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    data = sub.add_parser("data", help="obtain and verify the benchmark data sets")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    fetch = data_sub.add_parser(
        "fetch",
        help="download (or take from $LABELRANK_DATA) and sha256-verify data sets",
        description="Obtain each named data set (all when none is named): from the mirror folder named by "
        "$LABELRANK_DATA when set, else by download into the cache; every file is sha256-checked.",
    )
    fetch.add_argument("names", nargs="*", help="data set names (default: all)")
    fetch.set_defaults(func=_cmd_data_fetch)

    score = sub.add_parser(
        "score",
        help="binary, BDM-High and BDM-Low A-Precision, R-Precision and F-measure of ranked runs",
        description="Score one or more runs against the true labels of each document, with the binary measures and "
        "the cost-based BDM-High and BDM-Low measures of Li, Bontcheva & Cunningham (2007), BDM computed on TREE.",
        epilog=SCORE_FORMATS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    score.add_argument("--tree", required=True, metavar="TREE", help="label tree (YAML parent map)")
    score.add_argument("--truth", required=True, metavar="TRUTH", help="true labels: lines 'doc label'")
    score.add_argument("--run", required=True, nargs="+", metavar="RUN",
                       help="one or more runs: lines 'doc label rank score'")
    score.add_argument("--cutoff", type=int, default=200,
                       help="only the first CUTOFF ranked labels count (default: 200, as in NTCIR-6)")
    assign = score.add_mutually_exclusive_group()
    assign.add_argument("--threshold", type=float, default=0.5,
                        help="assigned set for the F-measure: labels with score >= THRESHOLD, a finite number "
                        "(default: 0.5)")
    assign.add_argument("--top", type=int, default=None,
                        help="assigned set for the F-measure: the TOP best-ranked labels instead")
    score.add_argument("--per-doc", action="store_true", help="print every document's scores, then the mean")
    score.set_defaults(func=_cmd_score)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"labelrank: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
