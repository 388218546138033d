"""Execute the book's chapters in parallel into the jupyter-cache that `jupyter-book build` reads.

`jupyter-book build` (through myst-nb's "cache" mode) executes every chapter whose code has no cached outputs, one
after another. This script does the same work first, several chapters at a time: it reads each chapter of
``_toc.yml`` exactly as myst-nb does (the MyST reader with the extensions of ``_config.yml``), skips the chapters
the cache already matches (jupyter-cache hashes the code cells, so a text edit does not count), executes the others
with jupyter-cache's own executor function in a pool of processes, and stores each executed notebook in the cache.
The build that follows then finds every chapter cached and only renders. A chapter that fails is reported with its
traceback and not cached, so the build executes it again and shows the error in its own log.

Chapters start longest first when the cache remembers how long each took the last time; on a cold cache they
start in the order of the table of contents. A chapter whose front matter says ``labelrank: {execute_alone: true}``
(one that times something on every core) runs first and by itself, so that no other chapter shares the machine
with its measurements.

``--prepare COMMAND`` runs a command first, when (and only when) some chapter is to be executed: ``make book``
computes the experiments there, with every core, so that the chapters read them instead of computing them side by
side.
With more than one job each kernel gets one BLAS thread (``OPENBLAS_NUM_THREADS=1`` and the like, unless set): the
chapters already share the cores, and an idle BLAS thread waits busily.

Usage: python scripts/execute_chapters.py CACHE_DIR [--jobs N] [--timeout S] [--prepare COMMAND]
e.g.   python scripts/execute_chapters.py _build/.jupyter_cache --jobs 2 --prepare "make-the-results --now"
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat
import yaml
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_cache.executors.utils import single_nb_execution
from myst_nb.core.read import is_myst_markdown_notebook, read_myst_markdown_notebook
from myst_parser.config.main import MdParserConfig

ROOT = Path(__file__).resolve().parents[1]
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def toc_files(root: Path = ROOT) -> list[Path]:
    """The chapter files of ``_toc.yml``, in its order (the root first)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for entry in entries:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("chapters", []) + entry.get("sections", []))

    walk(toc.get("parts", []) + toc.get("chapters", []))
    return [root / (f if f.endswith(".md") else f + ".md") for f in files]


def md_config(root: Path = ROOT) -> MdParserConfig:
    """The MyST parser settings of ``_config.yml`` that shape how a chapter is read into cells."""
    config = yaml.safe_load((root / "_config.yml").read_text())
    return MdParserConfig(enable_extensions=set(config.get("parse", {}).get("myst_enable_extensions", [])))


def read_chapter(path: Path, config: MdParserConfig) -> nbformat.NotebookNode | None:
    """The chapter as the notebook myst-nb builds from it, or None when it is plain Markdown."""
    text = path.read_text("utf8")
    if not is_myst_markdown_notebook(text):
        return None
    return read_myst_markdown_notebook(text, config=config, add_source_map=True, path=str(path))


def executes_alone(nb: nbformat.NotebookNode) -> bool:
    """Whether the chapter's front matter asks to run with no other chapter beside it."""
    return bool(nb.metadata.get("labelrank", {}).get("execute_alone", False))


#: A kernel that fails to start is started again this many times: the Jupyter protocol lets the client pick the
#: kernel's ports before the kernel binds them, so two kernels started at the same moment can pick the same port
#: and one of them dies ("ZMQError: Address already in use"; the client then reports "Kernel didn't respond"). It
#: happened to a cold `make book` here on 2026-11-29; see jupyter/nbconvert#1066, nteract/papermill#511.
KERNEL_START_ATTEMPTS = 3


def kernel_failed_to_start(error: BaseException) -> bool:
    """Whether ``error``, raised by the executor outside any cell, says that the kernel did not start."""
    message = str(error)
    return (type(error).__name__ == "ZMQError" or message.startswith("Kernel didn't respond")
            or message.startswith("Kernel died before replying to kernel_info"))


def execute(path: str, text: str, timeout: int) -> tuple[str, str | None, str | None, float]:
    """Run one notebook (nbformat JSON) in its chapter's folder: (executed JSON, error, traceback, seconds); a
    kernel that fails to start is started again (:data:`KERNEL_START_ATTEMPTS`), before any cell has run."""
    for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
        nb = nbformat.reads(text, as_version=4)
        try:
            result = single_nb_execution(nb, cwd=str(Path(path).parent), timeout=timeout, allow_errors=False,
                                         meta_override=True)
            break
        except Exception as error:  # cell errors are in result.err: this is the kernel's start
            if attempt == KERNEL_START_ATTEMPTS or not kernel_failed_to_start(error):
                raise
            print(f"execute_chapters: {os.path.relpath(path)}: the kernel did not start ({error}); starting "
                  f"another (attempt {attempt + 1} of {KERNEL_START_ATTEMPTS})", flush=True)
    error = None if result.err is None else f"{type(result.err).__name__}: {result.err}"
    return nbformat.writes(nb), error, result.exc_string, result.time


def last_seconds(cache) -> dict[str, float]:
    """How long each chapter's most recent cached execution took, by path."""
    seconds: dict[str, tuple] = {}
    for record in cache.list_cache_records():
        took = (record.data or {}).get("execution_seconds")
        if took is not None and (record.uri not in seconds or record.created > seconds[record.uri][0]):
            seconds[record.uri] = (record.created, float(took))
    return {uri: took for uri, (_, took) in seconds.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cache", help="the jupyter-cache folder the build reads (e.g. _build/.jupyter_cache)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="chapters executed at once (default: the number of cores)")
    parser.add_argument("--timeout", type=int, default=None,
                        help="seconds a cell may run (default: execute.timeout of _config.yml)")
    parser.add_argument("--prepare", default=None, help="a command to run first if any chapter is to be executed")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    timeout = args.timeout if args.timeout is not None else config.get("execute", {}).get("timeout", 30)

    cache, reading = get_cache(args.cache), md_config()
    previous = last_seconds(cache)
    todo = []
    for order, path in enumerate(toc_files()):
        nb = read_chapter(path, reading)
        if nb is None:
            continue
        try:
            cache.match_cache_notebook(nb)
        except KeyError:
            todo.append((-previous.get(str(path), float("inf")), order, path, nb))
    todo.sort(key=lambda item: item[:2])
    print(f"execute_chapters: {len(todo)} chapter(s) to execute, {args.jobs} at a time", flush=True)
    if not todo:
        return 0
    if args.prepare:
        print(f"execute_chapters: first {args.prepare}", flush=True)
        returncode = subprocess.run(shlex.split(args.prepare)).returncode
        if returncode:
            print(f"execute_chapters: {args.prepare} failed (exit code {returncode})", file=sys.stderr)
            return returncode

    failed, start = [], time.perf_counter()
    alone = [item for item in todo if executes_alone(item[-1])]
    rest = [item for item in todo if not executes_alone(item[-1])]
    for batch, jobs in [([item], 1) for item in alone] + ([(rest, args.jobs)] if rest else []):
        if jobs > 1:
            for name in BLAS_THREADS:
                os.environ.setdefault(name, "1")
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(execute, str(path), nbformat.writes(nb), timeout): path for *_, path, nb in batch}
            for future in as_completed(futures):
                path = futures[future]
                text, error, trace, seconds = future.result()
                name = os.path.relpath(path)
                if error is not None:
                    failed.append(name)
                    print(f"FAILED {name} after {seconds:.0f} s: {error}\n{trace}", flush=True)
                    continue
                cache.cache_notebook_bundle(
                    CacheBundleIn(nbformat.reads(text, as_version=4), str(path), data={"execution_seconds": seconds}),
                    check_validity=False, overwrite=True)
                print(f"executed {name} in {seconds:.0f} s ({time.perf_counter() - start:.0f} s since the start"
                      + (", by itself)" if batch is not rest else ")"), flush=True)
    if failed:
        print("execute_chapters: failed: " + ", ".join(map(str, failed)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
