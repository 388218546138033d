"""Command-line interface: ``labelrank data fetch``, ``labelrank score`` and friends.

Each subcommand lives in a function ``_cmd_<name>`` registered in :func:`build_parser`; errors in the user's input
are reported as one line on stderr with exit code 2. The files of ``labelrank score`` are read and written by
:mod:`labelrank.runfiles`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from labelrank.validation import shorten
from labelrank.evaluation import HIERARCHICAL_MEASURES, document_scores, flat_tree, measure_name, score_run
from labelrank.metrics.hierarchical import CONVENTIONS
from labelrank.runfiles import (  # noqa: F401 - the readers and writers stay importable from here
    ORDERS, Run, RunFileError, parse_decimal, parse_int, read_run, read_runs, read_truth, write_run, write_truth)

# the readers and writers of labelrank.runfiles stay importable from here, but are documented there
__all__ = ["main", "build_parser", "UsageError", "score_run", "flat_tree", "format_scores", "format_comparison_trec",
           "text_table", "measure_name", "SCORE_FORMATS", "FORMATS"]


#: Bad input from the command line or an input file: printed as one line, exit code 2. The files' own errors
#: (:class:`labelrank.runfiles.RunFileError`) are the same class.
UsageError = RunFileError


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
file formats (UTF-8, a byte-order mark at the start is allowed; whitespace-separated columns;
blank lines and lines starting with # are ignored; a .gz suffix is read through gzip, - is
standard input; each file's form is told by its first data line, and all its lines keep it):
  TREE   the project's tree format: a YAML map "label: parent" with null for the root,
         e.g. data/fterm/2C088_figure1.yaml (YAML anchors and aliases are rejected).
         Optional: without it only the binary measures are computed.
  TRUTH  one line per true label of a document:      doc label
         e.g.  JP2001-000123  AA01
         or TREC qrels (a document is a query, a label a docno; relevant when rel >= 1):
                                                     doc 0 label rel
         e.g.  JP2001-000123  0  AA01  1
  RUN    one line per ranked label:                  doc label rank score
         e.g.  JP2001-000123  AA02  1  0.93
         or a TREC run, one run per tag:             doc Q0 label rank score tag
         e.g.  JP2001-000123  Q0  AA02  1  0.93  mysystem
         rank: an integer written in ASCII digits; score: a finite decimal number
         (123, -4.5, 1e-3; no "1_0", no non-ASCII digits). Labels with score >= --threshold
         (or the --top best) form the assigned set behind the F-measure.

order of a document's labels (--order):
  rank   by the rank column, 1 = best (default; each rank a positive integer, once per document)
  score  as trec_eval orders: score descending, ties broken by label descending (the byte
         order of the label strings), the rank column ignored
  a warning on stderr counts the documents whose ranks and scores disagree (a label ranked
  above another with a lower score).

measures (per document, then the mean over the documents of TRUTH; a document of TRUTH
that RUN never mentions scores 0, as trec_eval -c):
  A-Precision  mean precision at the ranks of the true labels (trec_eval AP), list cut at --cutoff
  R-Precision  precision of the top R labels, R = number of true labels
  F-measure    2PR/(P+R) of the assigned set
each as binary (exact matches), BDM-High (eq. 4: a listed label earns its best BDM to a true
label) and BDM-Low (eq. 5: a wrong label earns its best BDM to a true label the list missed);
recall is symmetric. Li, Bontcheva & Cunningham (2007). BDM is computed for the (listed, true)
pairs a run holds, so the cost grows with the run, not with the size of the tree.
--measures hF LCA-F adds the hierarchical F of the assigned set: hF (Kiritchenko et al.) as
HiClass reads it, the root not counted, and LCA-F (Kosmopoulos et al.) as their tool HEMKit
computes it, the root and a top node counted; --convention hiclass|hemkit reads both one way.

exit status: 0 on success, 2 on bad input (one message naming the file and line)."""




def _read_tree(path: str):
    from labelrank.hierarchy import LabelTree

    try:
        return LabelTree.from_file(path)
    except FileNotFoundError as exc:  # missing, a directory, a pipe, a device, a link loop: the message says which
        raise UsageError(f"{path}: {exc}") from None
    except Exception as exc:  # the YAML parser and LabelTree report malformed trees with several exception types
        raise UsageError(f"{path}: not a valid tree file: {shorten(str(exc), 300)}") from exc


def _read_inputs(args: argparse.Namespace):
    """The tree (or None), the truth and every run of ``--run`` as (path, name, Run), for score and compare."""
    if args.measures and args.tree is None:
        raise UsageError(f"--measures {' '.join(args.measures)} needs the label tree (--tree TREE)")
    if [args.truth, *args.run].count("-") > 1:
        raise UsageError("only one of --truth and --run can read standard input ('-')")
    tree = _read_tree(args.tree) if args.tree is not None else None
    labels = set(tree.labels) if tree is not None else None
    truth = read_truth(args.truth, labels)
    runs = [(path, name, run) for path in args.run
            for name, run in read_runs(path, labels, truth, order=args.order).items()]
    return tree, truth, runs


def _cmd_score(args: argparse.Namespace) -> int:
    from labelrank.metrics.cost_scorer import CostScorer

    args.cutoff = _number_option(args.cutoff, "--cutoff")
    args.max_distance = _number_option(args.max_distance, "--max-distance")
    args.threshold = _number_option(args.threshold, "--threshold")
    if args.top is not None:
        args.top = _number_option(args.top, "--top")
    tree, truth, runs = _read_inputs(args)
    docs = list(truth)
    seen = truth.relevant_labels() | {lab for _, _, run in runs for lab in run.labels}
    without_bdm = None  # why BDM is left out of a DAG's scores, when it is
    if tree is None:
        scorer = CostScorer.from_tree(flat_tree(seen))
    else:
        try:
            scorer = CostScorer.from_tree(tree)
        except ValueError as exc:  # a DAG whose chains would not fit in memory: BDM needs every pair of chains
            if not args.measures:
                raise UsageError(f"{args.tree}: {exc}; --measures hF or LCA-F still score it, without BDM") from exc
            without_bdm = str(exc)
            print(f"labelrank: note: BDM-High and BDM-Low left out: {without_bdm}", file=sys.stderr)
            scorer = CostScorer.from_tree(flat_tree(seen))
    results = []
    for i, (path, name, run) in enumerate(runs):
        if run.disagree:
            rule = ("ordered by the rank column (--order rank)" if args.order == "rank"
                    else "ordered by score as trec_eval does (--order score)")
            print(f"labelrank: warning: {name}: ranks and scores disagree in {run.disagree} of {len(run)} "
                  f"documents (a label ranked above another has a lower score); {rule}", file=sys.stderr)
        try:
            _, values = document_scores(scorer, truth, run, cutoff=args.cutoff, threshold=args.threshold,
                                        top=args.top, measures=args.measures, tree=tree, convention=args.convention,
                                        max_distance=args.max_distance)
        except ValueError as exc:  # HiClass's reading refuses the tree's root among the labels, and DAGs for LCA-F
            raise UsageError(f"{name}: {exc}") from exc
        if tree is None or without_bdm:
            values = {key: v for key, v in values.items() if key[1] not in ("high", "low")}
        if args.format != "table":
            results.append((path, name, docs, values))
            continue
        missing = sum(1 for d in docs if d not in run)
        if i:
            print()
        shown = name if name == str(path) else f"{name} (in {path})"
        print(f"run: {shown}  ({len(docs)} documents" + (f", {missing} not in the run: scored 0)" if missing else ")")
              + ("; no --tree: binary measures only" if tree is None else "")
              + ("; BDM left out: the DAG's chains exceed the bound" if without_bdm else ""))
        print(_format_table(docs, values, args.per_doc))
    if args.format != "table":
        sys.stdout.write(format_scores(results, args.format))
    return 0


COMPARE_FORMATS: tuple[str, ...] = ("table", "csv", "json", "trec")


def format_comparison_trec(result) -> str:
    """A comparison in trec_eval's layout (``measure<TAB>all<TAB>value``), as ``labelrank compare --format trec``.

    Each run opens with ``runid<TAB>all<TAB>name`` and gives its mean of every measure; for each measure of which
    it is not the baseline, ``<measure>.baseline`` names the baseline and ``<measure>.p_<test>`` gives the adjusted
    p-value of each paired test. A last block, ``runid<TAB>all<TAB>kendall_tau``, gives Kendall's tau between the
    runs' rankings under two families as ``<measure>_<family>~<versus>``, with ``.low`` and ``.high`` for its
    bootstrap interval. Values with four decimals, as trec_eval prints them.

    Parameters
    ----------
    result : labelrank.comparison.RunComparison

    Returns
    -------
    str

    Examples
    --------
    >>> from labelrank.comparison import compare
    >>> truth = {f"d{i}": {"a": 1} for i in range(4)}
    >>> runs = {"A": {d: {"a": 0.9} for d in truth}, "B": {d: {"b": 0.9, "a": 0.2} for d in truth}}
    >>> print(format_comparison_trec(compare(truth, runs, n_boot=20, n_permutations=99)), end="")
    ... # doctest: +ELLIPSIS
    runid	all	A
    AP_binary	all	1.0000
    RP_binary	all	1.0000
    F_binary	all	1.0000
    runid	all	B
    AP_binary	all	0.5000
    AP_binary.baseline	all	A
    AP_binary.p_wilcoxon	all	...
    """
    from labelrank.comparison import TESTS

    lines = []
    for run, row in result.means.iterrows():
        lines.append(f"runid\tall\t{run}")
        for measure, value in row.items():
            lines.append(f"{measure}\tall\t{value:.4f}")
            if (measure, run) in result.tests.index:
                test = result.tests.loc[(measure, run)]
                lines.append(f"{measure}.baseline\tall\t{test['baseline']}")
                lines += [f"{measure}.p_{name}\tall\t{test[f'p_{name}_adjusted']:.4f}" for name in TESTS]
    if len(result.taus):
        lines.append("runid\tall\tkendall_tau")
        for (measure, family, versus), row in result.taus.iterrows():
            name = f"{measure}_{family}~{versus}"
            lines += [f"{name}\tall\t{row['tau']:.4f}", f"{name}.low\tall\t{row['low']:.4f}",
                      f"{name}.high\tall\t{row['high']:.4f}"]
    return "".join(line + "\n" for line in lines)


def _cmd_compare(args: argparse.Namespace) -> int:
    from labelrank.comparison import compare
    from labelrank.metrics.significance import mark

    n_permutations = _number_option(args.permutations, "--permutations")
    n_boot = _number_option(args.bootstrap, "--bootstrap")
    args.max_distance = _number_option(args.max_distance, "--max-distance")
    seed = parse_int(args.seed)
    if seed is None or seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {shorten(args.seed)!r}")
    tree, truth, read = _read_inputs(args)
    families = ["binary", "BDM-High", "BDM-Low", *args.measures] if tree is not None else ["binary"]
    runs = {}
    for path, name, run in read:
        if name in runs:
            raise UsageError(f"{path}: a second run named {shorten(name)!r} (run names must differ)")
        runs[name] = run
    if len(runs) < 2:
        raise UsageError(f"labelrank compare needs at least two runs, got {len(runs)}")
    if args.baseline is not None and args.baseline not in runs:
        raise UsageError(f"--baseline {shorten(args.baseline)!r} is not one of the runs: {', '.join(runs)}")
    try:
        result = compare(truth, runs, tree, families, baseline=args.baseline, correction=args.correction,
                         n_permutations=n_permutations, n_boot=n_boot, seed=seed, order=args.order,
                         convention=args.convention, max_distance=args.max_distance,
                         cutoff=_number_option(args.cutoff, "--cutoff"),
                         threshold=_number_option(args.threshold, "--threshold"),
                         top=None if args.top is None else _number_option(args.top, "--top"))
    except ValueError as exc:  # the hierarchical measures refuse the tree's root among the labels
        raise UsageError(str(exc)) from exc
    if args.format == "trec":
        sys.stdout.write(format_comparison_trec(result))
        return 0
    if args.format == "json":
        import json

        tests = result.tests.reset_index().to_dict(orient="records")
        taus = result.taus.reset_index().to_dict(orient="records")
        ranks = {m: table.reset_index(names="run").to_dict(orient="records") for m, table in result.ranks.items()}
        print(json.dumps({"n_documents": len(truth), "correction": args.correction, "means": result.means.to_dict(
            orient="index"), "tests": tests, "kendall_tau": taus, "ranks": ranks}, indent=1))
        return 0
    if args.format == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["table", "measure", "run", "field", "value"])
        for run, row in result.means.iterrows():
            writer.writerows(["means", m, run, "mean", repr(float(v))] for m, v in row.items())
        for (m, run), row in result.tests.iterrows():
            writer.writerows(["tests", m, run, f, v if isinstance(v, str) else repr(float(v))] for f, v in row.items())
        for (m, a, b), row in result.taus.iterrows():
            writer.writerows(["kendall_tau", m, f"{a} vs {b}", f, repr(float(v))] for f, v in row.items())
        return 0
    import pandas as pd

    print(f"{len(runs)} runs, {len(truth)} documents" + ("" if tree is not None else
                                                         "; no --tree: binary measures only"))
    print("\nmeans (higher is better)")
    print(result.means.to_string(float_format=lambda x: f"{x:.4f}"))
    shown = result.tests.copy()
    for test in ("wilcoxon", "sign", "randomization"):
        shown[test] = [f"{p:.4f}{mark(p)}" for p in shown[f"p_{test}_adjusted"]]
    print(f"\npaired tests against the baseline, two-sided p-values ({args.correction}-adjusted over the "
          f"{len(shown)} comparisons; * p <= 0.05, ** p <= 0.01)")
    print(shown[["baseline", "difference", "wilcoxon", "sign", "randomization"]].to_string(
        float_format=lambda x: f"{x:+.4f}"))
    if len(result.taus):
        print(f"\nKendall's tau between the runs' rankings ({n_boot} bootstrap resamples of the documents, "
              "95% interval)")
        print(result.taus.to_string(float_format=lambda x: f"{x:.3f}"))
    moved = {m: t[t["moves"]] for m, t in result.ranks.items() if t["moves"].any()}
    print("\nruns that change places between families" + ("" if moved else ": none"))
    for m, table in moved.items():
        print(f"{m}:")
        print(pd.DataFrame(table.drop(columns="moves")).to_string())
    return 0


#: ``--format`` choices of ``labelrank score``
FORMATS: tuple[str, ...] = ("table", "csv", "json", "trec")


def format_scores(results, fmt: str) -> str:
    """Per-document scores of runs as ``labelrank score --format csv|json|trec`` prints them.

    Every measure of every document, and the mean over the documents: ``csv`` as rows ``run,document,measure,value``
    (the mean with an empty document, which no document name can be); ``json`` as one object per run with its
    ``means`` and its ``documents``; ``trec`` as trec_eval's ``-q`` layout, ``measure<TAB>document<TAB>value`` with
    the means under ``all`` and each run introduced by ``runid<TAB>all<TAB>name``. csv and json carry the values
    in full (Python's shortest round-trip form), trec with four decimals as trec_eval does.

    Parameters
    ----------
    results : sequence of (path, name, docs, values)
        Each run's file, its name, the documents and their values
        (:func:`labelrank.evaluation.document_scores`).
    fmt : {"csv", "json", "trec"}

    Returns
    -------
    str

    Examples
    --------
    >>> import numpy as np
    >>> values = {("A-Precision", "binary"): np.array([1.0, 0.5])}
    >>> print(format_scores([("run.txt", "run.txt", ["d1", "d2"], values)], "trec"), end="")
    runid	all	run.txt
    AP_binary	d1	1.0000
    AP_binary	d2	0.5000
    AP_binary	all	0.7500
    """
    import csv
    import io
    import json

    out = io.StringIO()
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["run", "document", "measure", "value"])
    runs = []
    for path, name, doc_names, values in results:
        labels = [measure_name(*key) for key in values]
        means = {label: _mean(v) for label, v in zip(labels, values.values())}
        columns = [v.tolist() for v in values.values()]
        docs = {str(doc): dict(zip(labels, row)) for doc, row in zip(doc_names, zip(*columns))}
        if fmt == "csv":
            for doc, row in [*docs.items(), ("", means)]:
                writer.writerows([name, doc, label, repr(value)] for label, value in row.items())
        elif fmt == "trec":
            out.write(f"runid\tall\t{name}\n")
            for label in means:
                out.writelines(f"{label}\t{doc}\t{row[label]:.4f}\n" for doc, row in docs.items())
                out.write(f"{label}\tall\t{means[label]:.4f}\n")
        elif fmt == "json":
            runs.append({"run": name, "file": str(path), "n_documents": len(docs), "means": means, "documents": docs})
        else:
            raise ValueError(f"fmt must be one of {FORMATS[1:]}, got {fmt!r}")
    if fmt == "json":
        out.write(json.dumps({"runs": runs}, indent=1) + "\n")
    return out.getvalue()


def _mean(values) -> float:
    """The mean of the values that are not NaN (NaN if none is), as pandas' ``mean`` takes it."""
    import numpy as np

    kept = values[~np.isnan(values)]
    return float(kept.mean()) if kept.size else float("nan")


def text_table(index: Sequence[str], columns: Sequence[str], rows: Sequence[Sequence[float]], na_rep: str = "NaN",
               decimals: int = 4) -> str:
    """A table as pandas' ``DataFrame.to_string`` prints it, for the command line's output without pandas.

    The index is left-aligned under an empty header; each column is right-aligned, one space from the one before,
    as wide as its widest value or one more than its label; numbers are printed with ``decimals`` decimals, NaN as
    ``na_rep`` (a column of NaN only, which pandas sets otherwise, is not needed here).

    Parameters
    ----------
    index : sequence of str
        The row labels.
    columns : sequence of str
        The column labels.
    rows : sequence of sequences of float
        One row of values per row label.
    na_rep : str, default="NaN"
    decimals : int, default=4

    Returns
    -------
    str

    Examples
    --------
    >>> print(text_table(["A-Precision", "F-measure"], ["binary", "hF"], [[0.75, float("nan")], [0.5, 0.9]], ""))
                 binary     hF
    A-Precision  0.7500       
    F-measure    0.5000 0.9000
    """
    cells = [[na_rep if v != v else f"{v:.{decimals}f}" for v in row] for row in rows]
    left = max([len(str(i)) for i in index], default=0)
    # pandas sets each column one space from the one before, as wide as its widest value or one more than its label
    widths = [max([len(c) + 1] + [len(row[j]) for row in cells]) for j, c in enumerate(columns)]
    lines = [" " * left + "".join(" " + c.rjust(w) for c, w in zip(columns, widths))]
    lines += [str(i).ljust(left) + "".join(" " + v.rjust(w) for v, w in zip(row, widths))
              for i, row in zip(index, cells)]
    return "\n".join(lines)


def _format_table(docs: list[str], values: dict, per_doc: bool) -> str:
    """The means (measures x variants), or one row per document followed, apart, by the row of means.

    The mean row is not a row of the documents' table (a document may be called "mean"); it is printed below a
    rule, its label ``(mean of N)`` holding a space, which no document name can.
    """
    if not per_doc:
        measures = list(dict.fromkeys(m for m, _ in values))
        variants = list(dict.fromkeys(v for _, v in values))
        rows = [[_mean(values[m, v]) if (m, v) in values else float("nan") for v in variants] for m in measures]
        return text_table(measures, [measure_name("F-measure", v).split("_", 1)[1] for v in variants], rows, "")
    means = [_mean(v) for v in values.values()]
    table = text_table([*docs, f"(mean of {len(docs)})"],
                       [measure_name(m, v).replace("_", ".", 1) for m, v in values],
                       [*zip(*(v.tolist() for v in values.values())), means])
    lines = table.splitlines()
    return "\n".join([*lines[:-1], "=" * len(lines[0]), lines[-1]])


def _number_option(text: str, name: str) -> int | float:
    """An option's value, parsed as strictly as the files' columns (ASCII digits; a finite number)."""
    if name == "--threshold":
        value = parse_decimal(text)
        if value is None:
            raise UsageError(f"--threshold must be a finite number, got {shorten(text)!r}")
        return value
    value = parse_int(text)
    if name == "--max-distance":
        if value is None or value < 0:
            raise UsageError(f"--max-distance must be a non-negative integer, got {shorten(text)!r}")
        return value
    if value is None or value < 1:
        raise UsageError(f"{name} must be a positive integer, got {shorten(text)!r}")
    return value


def _convention_options(parser: argparse.ArgumentParser) -> None:
    """``--convention`` and ``--max-distance``: how hF and LCA-F are read (``labelrank.metrics.hierarchical``)."""
    parser.add_argument("--convention", choices=CONVENTIONS, default=None,
                        help="the reading of hF and LCA-F: 'hiclass' (HiClass's: the root not counted; LCA-F by a "
                        "minimum-cost edge cover, trees only) or 'hemkit' (HEMKit's, the tool of LCA-F's authors "
                        "and of BioASQ: the root and a top node counted, labels that are ancestors of another of "
                        "their set dropped, nearest-label links; trees and DAGs); default: hF as HiClass, LCA-F "
                        "as HEMKit")
    parser.add_argument("--max-distance", default="100000", metavar="N",
                        help="HEMKit's maximum distance (with the 'hemkit' reading): ancestors up to N+1 edges "
                        "above a label count for hF, LCA chains stop after N edges (default: 100000, never)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``labelrank``: ``--version`` and the subcommands ``score`` and ``data``.

    Returns
    -------
    argparse.ArgumentParser
        Each subcommand's parser sets ``func``, the function that runs it.

    Examples
    --------
    >>> args = build_parser().parse_args(["score", "--tree", "t.yaml", "--truth", "truth.txt", "--run", "run.txt"])
    >>> args.command, args.run, args.order, args.cutoff
    ('score', ['run.txt'], 'rank', '200')
    """
    from labelrank import __version__

    parser = argparse.ArgumentParser(
        prog="labelrank",
        description="Label-relation-aware evaluation and multi-label learning to rank (labelrank-book).",
    )
    parser.add_argument("--version", action="version", version=f"labelrank {__version__}")
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
    score.add_argument("--tree", default=None, metavar="TREE",
                       help="label tree (YAML parent map); without it the binary measures alone")
    score.add_argument("--truth", required=True, metavar="TRUTH",
                       help="true labels: lines 'doc label' or TREC qrels 'doc 0 label rel' ('-': standard input)")
    score.add_argument("--run", required=True, nargs="+", action="extend", metavar="RUN",
                       help="one or more run files: lines 'doc label rank score' or TREC 'doc Q0 label rank score "
                       "tag' (one run per tag); repeat --run or list several ('-': standard input)")
    score.add_argument("--order", choices=ORDERS, default="rank",
                       help="order of a document's labels: 'rank' by the rank column (default) or 'score' as "
                       "trec_eval (score descending, ties by label descending, rank column ignored)")
    score.add_argument("--cutoff", default="200",
                       help="only the first CUTOFF ranked labels count (default: 200, as in NTCIR-6)")
    assign = score.add_mutually_exclusive_group()
    assign.add_argument("--threshold", default="0.5",
                        help="assigned set for the F-measure: labels with score >= THRESHOLD, a finite number "
                        "(default: 0.5)")
    assign.add_argument("--top", default=None,
                        help="assigned set for the F-measure: the TOP best-ranked labels instead")
    score.add_argument("--per-doc", action="store_true", help="print every document's scores, then the mean")
    score.add_argument("--format", choices=FORMATS, default="table",
                       help="'table' (default, for reading), or for scripts every measure of every document and "
                       "the means: 'csv' (run,document,measure,value; the mean's document empty), 'json', or "
                       "'trec' (trec_eval -q: measure, document or 'all', value; tab-separated)")
    score.add_argument("--measures", nargs="+", choices=HIERARCHICAL_MEASURES, default=[], metavar="MEASURE",
                       help="also the hierarchical F-measures of the assigned set, beside binary, BDM-High and "
                       "BDM-Low: 'hF' (set-based, Kiritchenko et al.) and/or 'LCA-F' (pair-based, Kosmopoulos et "
                       "al.); the mean over documents of each document's value (an empty assigned set scores 0)")
    _convention_options(score)
    score.set_defaults(func=_cmd_score)

    comp = sub.add_parser(
        "compare",
        help="several runs on one truth: means, paired tests against a baseline, and whether the measures agree",
        description="Compare runs document by document: each run's mean of every measure; Wilcoxon's signed-rank "
        "test, the sign test and Fisher's randomization test of each run against a baseline (default: the best run "
        "of each measure), corrected for the number of comparisons; Kendall's tau between the runs' rankings under "
        "every pair of measure families (binary, BDM-High, BDM-Low, hF, LCA-F) with bootstrap intervals over the "
        "documents; and the runs that change places between families (Li, Bontcheva & Cunningham 2007, Table 2).",
        epilog=SCORE_FORMATS, formatter_class=argparse.RawDescriptionHelpFormatter)
    comp.add_argument("--tree", default=None, metavar="TREE",
                      help="label tree (YAML parent map); without it the binary measures alone")
    comp.add_argument("--truth", required=True, metavar="TRUTH", help="true labels, either form ('-': stdin)")
    comp.add_argument("--run", required=True, nargs="+", action="extend", metavar="RUN",
                      help="two or more runs: run files, a TREC file holding one run per tag")
    comp.add_argument("--order", choices=ORDERS, default="rank", help="as for labelrank score")
    comp.add_argument("--cutoff", default="200", help="as for labelrank score")
    comp.add_argument("--threshold", default="0.5", help="as for labelrank score")
    comp.add_argument("--top", default=None, metavar="K", help="as for labelrank score")
    comp.add_argument("--measures", nargs="+", choices=HIERARCHICAL_MEASURES, default=[], metavar="MEASURE",
                      help="also the hierarchical F-measures hF and/or LCA-F (need --tree)")
    _convention_options(comp)
    comp.add_argument("--baseline", default=None, metavar="RUN", help="the run every other is tested against")
    comp.add_argument("--correction", choices=("holm", "bh", "none"), default="holm",
                      help="multiple-comparison correction of each test's p-values (default: holm)")
    comp.add_argument("--permutations", default="10000", help="sign patterns of the randomization test")
    comp.add_argument("--bootstrap", default="1000", help="bootstrap resamples of the documents for tau")
    comp.add_argument("--seed", default="0", help="seed of the randomization test and the bootstrap")
    comp.add_argument("--format", choices=COMPARE_FORMATS, default="table",
                      help="'table' (default), 'csv' (table,measure,run,field,value), 'json' or 'trec' "
                      "(trec_eval's layout: each run's means and p-values, then Kendall's tau)")
    comp.set_defaults(func=_cmd_compare)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input, 141 when stdout was closed).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after ``labelrank`` (``sys.argv[1:]`` by default).

    Examples
    --------
    Bad input prints one line on stderr (here: ``labelrank: error: no-such-tree.yaml: ...``) and returns 2:

    >>> main(["score", "--tree", "no-such-tree.yaml", "--truth", "truth.txt", "--run", "run.txt"])
    2
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if sys.stdout is None:  # `labelrank ... >&-`: Python starts without a standard output
            raise UsageError("standard output is closed: nowhere to write the results")
        status = args.func(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        _error(f"labelrank: error: {exc}")
        return 2
    except BrokenPipeError:  # `labelrank score ... | head`: the reader has gone; say nothing, as other tools do
        _silence_stdout()
        return 141  # 128 + SIGPIPE, the status of a shell tool killed by the closed pipe
    except OSError as exc:
        if exc.filename is not None:  # a file's problem, not the output's: the commands name their files
            raise
        _silence_stdout()  # `> /dev/full`: Python's final flush of stdout must not fail again
        _error(f"labelrank: error: cannot write the results to standard output: {exc.strerror or exc}")
        return 2


def _error(message: str) -> None:
    """The message on standard error, or, when that is closed too, nowhere (never on standard output)."""
    if sys.stderr is not None:
        print(message, file=sys.stderr)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that what is still buffered cannot fail again at exit."""
    if sys.stdout is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
