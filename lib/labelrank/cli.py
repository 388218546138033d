"""Command-line interface: ``labelrank data fetch`` and friends.

Each subcommand lives in a function ``_cmd_<name>`` registered in :func:`build_parser`; errors in the user's input
are reported as one line on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import sys


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
