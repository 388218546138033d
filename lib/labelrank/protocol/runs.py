"""The record of the runs that computed something: wall time, peak memory, machine, versions; written
atomically under a lock, a damaged record set aside."""

from __future__ import annotations

import json
import os
import resource
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from labelrank.optional import require
from labelrank.paths import cache_dir, write_text_atomic
from labelrank.protocol.keys import code_version
from labelrank.protocol.profile import get_profile
from labelrank.protocol.settings import Protocol, n_jobs


class _PeakMemory:
    """Peak resident memory of this process plus its children, sampled every 0.2 s (psutil), or rusage."""

    def __init__(self):
        self.peak = 0
        self._stop = threading.Event()
        try:
            import psutil

            self._proc = psutil.Process()
        except ImportError:  # pragma: no cover - psutil is optional
            self._proc = None
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _total(self) -> int:
        total = self._proc.memory_info().rss
        for child in self._proc.children(recursive=True):
            try:
                total += child.memory_info().rss
            except Exception:  # noqa: BLE001 - a child may exit between listing and reading
                pass
        return total

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._total())
            self._stop.wait(0.2)

    def __enter__(self):
        if self._proc is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._proc is not None:
            self._thread.join()
        usage = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                 + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) * 1024
        self.peak_rusage = usage
        return False


def _run_info_path(profile: str) -> Path:
    return cache_dir() / "experiments" / f"run_info_{profile}.json"


def run_info(profile: str | None = None) -> dict[str, Any]:
    """Wall time and peak memory of the recorded runs that computed something, newest last.

    :func:`results` records itself; ``python -m labelrank.studies.yang2012.experiments`` records one run covering
    everything the
    chapters compute. Each record: ``profile``, ``what`` (what was run), ``datasets``, ``started`` (local ISO
    time), ``wall_seconds``, ``peak_rss_mb`` (resident memory of the process and its worker processes, summed,
    sampled every 0.2 s; memory-mapped pages shared by several processes count once per process),
    ``peak_rusage_mb`` (``ru_maxrss`` of the process plus that of its largest finished child), ``n_jobs``,
    ``cpu_count``, ``code_version``, ``results_computed`` (cache entries written: a cold run writes all of them)
    and ``load`` (the 1-minute load average when the run started: how busy the machine already was).

    A record that cannot be read (damaged by hand, or written by another program) is renamed to
    ``run_info_<profile>.json.damaged-<time>`` with a warning, and an empty record is returned: the run record is
    bookkeeping, and never stops an experiment or a chapter.

    Parameters
    ----------
    profile : str, optional
        Only the runs of this profile; every run when None.
    """
    profile = get_profile() if profile is None else profile
    path = _run_info_path(profile)
    empty: dict[str, Any] = {"profile": profile, "runs": []}
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(info, dict) and isinstance(info.get("runs"), list):
            return info
        problem = f"it holds {type(info).__name__}, not a record with a list of runs"
    except FileNotFoundError:
        return empty
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        problem = f"{type(exc).__name__}: {exc}"
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
    try:
        os.replace(path, aside)
    except FileNotFoundError:  # another process set it aside first
        pass
    warnings.warn(f"the run record {path} could not be read ({problem}); it was set aside as {aside.name} and "
                  "a new record is started", RuntimeWarning, stacklevel=2)
    return empty


class RecordedRun:
    """Time a block and record it in :func:`run_info` if it computed (did not only read) something.

    Parameters
    ----------
    proto : Protocol
        The protocol the block runs.
    names : sequence of str
        Its data sets.
    what : str
        What the block runs (``"results"``, a study's task name).
    """

    def __init__(self, proto: Protocol, names: Sequence[str], what: str):
        self.proto, self.names, self.what = proto, tuple(names), what

    def __enter__(self):
        self.started, self.load, self.before = time.time(), os.getloadavg()[0], _cache_size()
        self.mem = _PeakMemory().__enter__()
        return self

    def __exit__(self, *exc):
        self.mem.__exit__(*exc)
        computed = _cache_size() - self.before
        if exc[0] is None and computed > 0:
            _record_run(self.proto, self.names, self.what, self.started, time.time() - self.started, self.mem,
                        self.load, computed)
        return False


def _cache_size() -> int:
    """Number of cached results (a proxy for "was anything computed"): output files under the cache folder."""
    root = cache_dir() / "experiments"
    return sum(1 for _ in root.rglob("output.hmac")) if root.is_dir() else 0


def _record_run(proto: Protocol, names: tuple[str, ...], what: str, started: float, wall: float, mem: _PeakMemory,
                load: float, computed: int) -> None:
    """Append one run to the run record: read, change and replace the file under a lock (several runs may end at
    once), the new file written whole before it replaces the old (:func:`labelrank.paths.write_text_atomic`)."""
    FileLock = require("filelock", "the run record").FileLock

    path = _run_info_path(proto.profile)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "profile": proto.profile,
        "what": what,
        "search": proto.search,
        "search_by_dataset": dict(proto.search_by_dataset),
        "staged_methods": {dataset: list(methods) for dataset, methods in proto.staged_methods.items()},
        "cv_subsample": dict(proto.tune_subsample),
        "datasets": list(names),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "wall_seconds": round(wall, 1),
        "peak_rss_mb": round(mem.peak / 2**20, 1),
        "peak_rusage_mb": round(mem.peak_rusage / 2**20, 1),
        "n_jobs": n_jobs(),
        "code_version": code_version(),
        "results_computed": computed,
        "load": round(load, 2),
        "cpu_count": os.cpu_count(),
    }
    with FileLock(path.with_name(path.name + ".lock")):
        info = run_info(proto.profile)
        info["runs"].append(record)
        write_text_atomic(path, json.dumps(info, indent=1))
