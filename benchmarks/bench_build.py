"""How long the project's two commands take, cold and warm, in a fresh clone of the checkout.

The script clones the checkout's committed state (``git clone``, so nothing uncommitted and no cache comes along)
into a temporary folder and times there, one after another:

* ``install``: ``make .venv/.installed-stamp``, the virtual environment the two commands bootstrap;
* ``make test`` cold (no parsed data, experiment result or executed notebook cached) and warm (again at once);
* ``make book`` cold (``data/raw`` and ``_build`` removed first: the full profile's experiments, every chapter
  executed, the book rendered) and warm (again at once, nothing changed).

For each it records the wall time, the CPU time of the whole process tree (user + system, from ``wait4``), the
largest process's peak memory and the exit status, and for ``make test`` the number of tests passed, skipped and
failed. The data come from ``LABELRANK_DATA`` when it is set (as in CI), else the clone downloads them. The
commands run without ``PYTHONPATH`` and the project's cache and profile variables (:data:`FOREIGN`), so that the
clone uses its own code and caches only.

Usage: python benchmarks/bench_build.py [--targets test book] [--keep]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from labelrank.studies.performance import write_record

ROOT = Path(__file__).resolve().parents[1]


#: Variables that would make the clone's commands use another checkout's code or caches, or another profile: the
#: clone runs without them (``LABELRANK_DATA``, the data mirror, stays).
FOREIGN = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "LABELRANK_CACHE", "LABELRANK_PROFILE", "LABELRANK_BENCH_RECORDS")


def clean_environment() -> dict[str, str]:
    """The environment the clone's commands run in: this one without :data:`FOREIGN`."""
    return {key: value for key, value in os.environ.items() if key not in FOREIGN}


def timed(argv: list[str], cwd: Path, log: Path) -> dict:
    """Run ``argv`` in ``cwd`` with its output appended to ``log``: wall and CPU seconds, peak MB, exit status."""
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(argv)}\n")
        out.flush()
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=clean_environment())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    return {"wall_seconds": wall, "cpu_seconds": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "status": os.waitstatus_to_exitcode(status)}


def pytest_counts(text: str) -> dict:
    """passed / skipped / failed / errors from the last pytest summary line in ``text``."""
    summary = [line for line in text.splitlines() if re.match(r"^=+ .*\b(passed|failed|error)", line)]
    counts = {"passed": 0, "skipped": 0, "failed": 0, "errors": 0}
    if summary:
        for number, word in re.findall(r"(\d+) (passed|skipped|failed|errors?)", summary[-1]):
            counts["errors" if word.startswith("error") else word] = int(number)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", nargs="+", default=["test", "book"], choices=["test", "book"])
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="labelrank-build-"))
    clone, log = folder / "labelrank-book", folder / "build.log"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    print(f"clone of {commit[:10]} in {clone}; output in {log}", flush=True)
    rows = []

    def step(target: str, state: str, argv: list[str]) -> dict:
        before = log.stat().st_size if log.exists() else 0
        row = {"command": target, "state": state, **timed(argv, clone, log)}
        if target == "make test":
            row.update(pytest_counts(log.read_text(encoding="utf-8", errors="replace")[before:]))
        rows.append(row)
        print(f"{target:10} {state:5} {row['wall_seconds']:9.1f} s wall {row['cpu_seconds']:9.1f} s CPU "
              f"{row['peak_mb']:8.0f} MB  status {row['status']}", flush=True)
        return row

    try:
        step("install", "cold", ["make", ".venv/.installed-stamp"])
        if "test" in args.targets:
            step("make test", "cold", ["make", "test"])
            step("make test", "warm", ["make", "test"])
        if "book" in args.targets:
            for cache in (clone / "data" / "raw", clone / "_build"):
                shutil.rmtree(cache, ignore_errors=True)
            step("make book", "cold", ["make", "book"])
            step("make book", "warm", ["make", "book"])
    finally:
        values = {"commit_measured": commit, "labelrank_data": bool(os.environ.get("LABELRANK_DATA"))}
        code = {"commit": commit, "dirty": False}  # the clone's, whatever the checkout holds now
        print(f"record: {write_record('bench_build', {'commands': rows}, values=values, code=code)}")
        if args.keep:
            print(f"kept {clone}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    if any(row["status"] for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
