"""Benchmark records: what ``make bench`` measures, written as data and read back by the book's performance page.

Every script in ``benchmarks/`` ends with :func:`write_record`, which stores its figures as one JSON file in
``benchmarks/records/`` together with what a reader needs to judge them: the date, the code version (the library's
version and the git commit, with a flag when the working tree differed from it), the machine (cores, memory,
processor, Python) and the load average while it ran. A record is never edited by hand; a newer run of the same
benchmark with the same arguments supersedes it on the page (:func:`latest`) and both stay in git, so figures can be
compared across commits.

A record holds tables (lists of rows with named columns) and single values; nothing in it is executable (plain
JSON, read with :func:`json.loads`).

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = write_record("bench_example", {"timings": [{"size": 10, "seconds": 0.5}]}, argv=["--size", "10"],
...                     folder=folder)
>>> record = latest("bench_example", folder=folder)
>>> record["tables"]["timings"][0]["seconds"], record["variant"]
(0.5, '--size 10')
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from labelrank import __version__
from labelrank.paths import project_root, write_text_atomic

__all__ = ["records_dir", "machine", "code_version", "write_record", "load_records", "latest", "table",
           "latest_rows", "record_numbers", "describe", "FULL_PROFILE_TARGET_MINUTES",
           "FULL_PROFILE_TARGET_CORES"]

SCHEMA = 1

#: The project's target for a cold run of the full profile on a machine of two cores (a goal the full profile is
#: designed to meet, not a measurement): with both cores busy it allows this many minutes times two of CPU time.
FULL_PROFILE_TARGET_MINUTES = 45
#: The cores of the machine that target is set for.
FULL_PROFILE_TARGET_CORES = 2


def records_dir() -> Path:
    """The checkout's ``benchmarks/records`` folder, where ``make bench`` writes and the book reads.

    ``$LABELRANK_BENCH_RECORDS`` names another folder (the tests write their records there).
    """
    env = os.environ.get("LABELRANK_BENCH_RECORDS")
    if env:
        return Path(env).expanduser()
    root = project_root()
    if root is None:
        raise FileNotFoundError("benchmark records live in the labelrank-book checkout (benchmarks/records)")
    return root / "benchmarks" / "records"


def _memory_bytes() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _processor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """The machine a measurement ran on: logical cores, memory (GiB), processor, system and Python."""
    memory = _memory_bytes()
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(memory / 2**30, 1) if memory else None,
        "processor": _processor(),
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
    }


def code_version(root: Path | None = None) -> dict:
    """The code a measurement ran: ``labelrank.__version__``, the git commit and whether the tree differed from it.

    ``dirty`` is true when a tracked file under ``lib/``, ``benchmarks/``, ``scripts/`` or ``book/`` differed from
    the commit (the record then measured code that no commit holds exactly).
    """
    root = root or project_root()
    out = {"labelrank": __version__, "commit": None, "dirty": None}
    if root is None or not (root / ".git").exists():
        return out
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=30)
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--",
                                 "lib", "benchmarks/*.py", "scripts", "book", "Makefile", "pyproject.toml"],
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return out
    if commit.returncode == 0:
        out["commit"] = commit.stdout.strip()
        out["dirty"] = bool(status.stdout.strip()) if status.returncode == 0 else None
    return out


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


_START_LOAD = _load()


def _plain(value):
    """``value`` as JSON data: numpy scalars and arrays to Python numbers and lists, non-finite floats refused."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):  # numpy scalar or array
        return _plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"a benchmark record holds only finite numbers, got {value!r}")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a benchmark record cannot hold {type(value).__name__}: {value!r}")


def write_record(benchmark: str, tables: Mapping[str, Iterable[Mapping]], *, values: Mapping | None = None,
                 argv: list[str] | None = None, folder: Path | None = None, code: Mapping | None = None) -> Path:
    """Write one benchmark run's figures as ``<folder>/<benchmark>-<UTC time>.json`` and return its path.

    Parameters
    ----------
    benchmark : str
        The script's name without ``.py`` (``bench_protocol``).
    tables : mapping of str to iterable of mappings
        Each table a list of rows, each row a mapping of column name to a number, string, bool or None.
    values : mapping, optional
        Single figures and settings of the run (``{"unit_seconds": 0.12}``).
    argv : list of str, optional
        The script's arguments (default ``sys.argv[1:]``); joined, they are the record's ``variant``: runs of
        the same benchmark with the same arguments supersede each other.
    folder : Path, optional
        Default :func:`records_dir`.
    code : mapping, optional
        The code measured, where it is not this checkout's (:func:`code_version`): a clone's commit, say.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", benchmark):
        raise ValueError(f"benchmark must be a lowercase identifier, got {benchmark!r}")
    argv = list(sys.argv[1:] if argv is None else argv)
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
    record = {
        "schema": SCHEMA,
        "benchmark": benchmark,
        "variant": " ".join(argv),
        "argv": argv,
        "date": now.isoformat(),
        "code": {**code_version(), **dict(code or {})} if code else code_version(),
        "machine": machine(),
        "load_average": {"start": _START_LOAD, "end": _load()},
        "values": _plain(dict(values or {})),
        "tables": {name: [_plain(dict(row)) for row in rows] for name, rows in tables.items()},
    }
    folder = Path(folder) if folder is not None else records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{benchmark}-{now.strftime('%Y%m%dT%H%M%SZ')}.json"
    write_text_atomic(path, json.dumps(record, indent=1, sort_keys=False) + "\n")
    return path


def load_records(folder: Path | None = None) -> list[dict]:
    """Every record in ``folder`` (default :func:`records_dir`), oldest first; each with its file name as ``file``."""
    folder = Path(folder) if folder is not None else records_dir()
    records = []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or record.get("schema") != SCHEMA:
            raise ValueError(f"{path}: not a benchmark record of schema {SCHEMA}")
        record["file"] = path.name
        records.append(record)
    return sorted(records, key=lambda r: r["date"])


def latest(benchmark: str, variant: str | None = None, folder: Path | None = None) -> dict:
    """The newest record of ``benchmark`` (with exactly these arguments, when ``variant`` is given)."""
    found = [r for r in load_records(folder)
             if r["benchmark"] == benchmark and (variant is None or r["variant"] == variant)]
    if not found:
        raise LookupError(f"no record of {benchmark}" + (f" with arguments {variant!r}" if variant is not None else "")
                          + " (run `make bench`)")
    return found[-1]


def table(record: dict, name: str):
    """One table of a record as a pandas DataFrame."""
    import pandas as pd

    return pd.DataFrame(record["tables"][name])


def latest_rows(benchmark: str, table_name: str, key: Sequence[str], folder: Path | None = None):
    """The newest row of every ``key`` among all records of ``benchmark``, with the record it comes from.

    Runs of one benchmark with different arguments measure different rows (``bench_protocol.py --datasets
    reuters21578`` and ``--datasets emotions scene yeast``); this gathers them into one table, each row taken from
    the newest record that holds it, its ``record`` column naming the file and ``date`` the day it was taken.
    """
    import pandas as pd

    rows, seen = [], set()
    for record in reversed(load_records(folder)):
        if record["benchmark"] != benchmark:
            continue
        for row in record["tables"].get(table_name, []):
            ident = tuple(row.get(k) for k in key)
            if ident not in seen:
                seen.add(ident)
                rows.append({**row, "record": record["file"], "date": record["date"][:10]})
    if not rows:
        raise LookupError(f"no record of {benchmark} holds a table {table_name!r} (run `make bench`)")
    return pd.DataFrame(rows)


def record_numbers(record: dict) -> set[float]:
    """Every number a record holds (tables, values, machine, load), for checking that a page states only these."""
    numbers: set[float] = set()

    def walk(value):
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float)):
            numbers.add(float(value))
        elif isinstance(value, Mapping):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk({k: v for k, v in record.items() if k not in ("schema", "argv", "variant", "date", "file")})
    return numbers


def describe(record: dict) -> str:
    """One line: when, on what machine and at which code a record was taken (for a page's caption)."""
    m, code = record["machine"], record["code"]
    commit = (code.get("commit") or "unknown commit")[:10] + (" with local changes" if code.get("dirty") else "")
    load = record.get("load_average", {})
    command = f"python benchmarks/{record['benchmark']}.py {record['variant']}".strip()
    return (f"`{command}`, {record['date'][:10]}, "
            f"{m['cores']} cores, {m['memory_gib']} GiB, {m['processor']}; labelrank {code['labelrank']} at "
            f"{commit}; load average {load.get('start')} at the start, {load.get('end')} at the end")
