"""The rendered book in a real browser.

Builds the book under the quick profile (``make quick-book``'s commands without its ``--prepare`` step, into
``_build/quick``: the chapters executed side by side by ``scripts/execute_chapters.py``, then the build) once, serves
it on a loopback port, opens every page of ``_toc.yml`` once in headless Chromium and checks, each in its own test:

- the build: ``-W`` (warnings are errors) passes, its log has no warning, glue, exception or traceback line, and it
  executes no chapter itself (it finds every one in the cache the script filled);
- what a reader sees: math typeset by the locally served MathJax (no CDN), every image loaded, a figure on every
  chapter that plots, no traceback, error, warning or exception in a cell output, and no request leaving the machine;
- code that fits the page: no code block, cell output or printed source scrolls sideways at the default width;
- figures: every plot a notebook cell produces sits in a ``<figure>`` with a non-empty ``<figcaption>``;
- cross-references: every internal link ({doc}, {ref}, {numref}, {eq}, {term}, {cite}, the sidebar, ...) points to an
  existing page and, when it has a fragment, to an existing element id on that page; no reference is left unresolved
  (an ``xref`` outside a link) and no number is ``???``.

The build's output is kept in ``_build/quick/build.log``; with ``LABELRANK_SCREENSHOTS=1`` a full-page screenshot
of every page (JPEG) goes to ``_build/quick/screenshots`` (about 1.8 s a page, 52 of the 131 s that opening the
28 pages took with other tests running, so ``make test`` leaves them out).
Without Chromium the browser tests are skipped with a hint; with ``LABELRANK_REQUIRE_BROWSER=1`` (set by ``.ci/run``)
a missing browser fails instead.
"""

from __future__ import annotations

import functools
import html.parser
import os
import re
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
from bookbrowser import MISSING_CHROMIUM, chromium, launch, serve, typeset_math

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import execute_chapters  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "_build" / "quick"
HTML = OUT / "_build" / "html"
SHOTS = OUT / "screenshots"
TAKE_SCREENSHOTS = os.environ.get("LABELRANK_SCREENSHOTS") == "1"

BUILD_LOG = OUT / "build.log"
# A line of the build log that means something went wrong even though the build exited 0 ...
BAD_LOG_LINE = re.compile(
    r"WARNING|ERROR|CRITICAL|Traceback|Exception|\w+Warning:|mystnb\.glue|found in glue data|Glue reference"
)
# ... unless it is this notice, which ipykernel >= 7 prints on every kernel start (the kernel listens on loopback).
KERNEL_NOTICE = "[IPKernelApp] WARNING | Kernel is running over TCP without encryption."
# ... or part of a traceback that a kernel's own message loop logs (pyzmq's ZMQStream, through tornado's logger)
# and that has no frame in the project: a race in Jupyter's machinery as a kernel shuts down, after its notebook
# has run (ipykernel PR 1518 fixed one such race; CI met another). Cells that fail make the build itself fail.
KERNEL_LOOP_ERROR = "ERROR:tornado.general:Uncaught exception in ZMQStream callback"
# A Python warning or exception as it shows in a cell's output ("ValueError: ...", "x.py:3: FutureWarning: ...").
BAD_OUTPUT_LINE = re.compile(r"^(?:\S+:\d+: )?[A-Z]\w*(?:Warning|Error|Exception): ", re.M)
ERROR_TEXT = ("Traceback (most recent call last)", "Error in callback", "-" * 75)

# Facts about one page, gathered in the browser after MathJax has run. A plot is an image in a cell's output or a
# glued one (myst-nb names its output images by their sha256); its caption is the <figcaption> text without the
# "Fig. N" number and the permalink.
PAGE_FACTS = r"""() => {
  const article = document.querySelector('article') || document.body;
  const isPlot = img => !!img.closest('.cell_output') || /\/_images\/[0-9a-f]{64}\.\w+$/.test(img.src);
  const caption = fig => {
    const cap = fig && fig.querySelector('figcaption');
    if (!cap) return '';
    const copy = cap.cloneNode(true);
    copy.querySelectorAll('.caption-number, .headerlink').forEach(e => e.remove());
    return copy.textContent.trim();
  };
  const prose = article.cloneNode(true);
  prose.querySelectorAll('pre, code').forEach(e => e.remove());
  // the API reference's examples may show an exception on purpose (a doctest of an error message)
  const shown = article.cloneNode(true);
  shown.querySelectorAll('div.doctest').forEach(e => e.remove());
  return {
    text: shown.innerText,
    mathErrors: document.querySelectorAll('mjx-merror, .mjx-merror').length,
    mathjaxScripts: Array.from(document.scripts).map(s => s.src).filter(s => s.includes('mathjax')),
    brokenImages: Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
    articleImages: article.querySelectorAll('img').length,
    errorOutputs: article.querySelectorAll('.output.traceback, .output.error, div.cell_output .traceback').length,
    outputs: Array.from(article.querySelectorAll('.cell_output .output')).map(o => o.textContent),
    plots: Array.from(article.querySelectorAll('img')).filter(isPlot).map(img => {
      const fig = img.closest('figure');
      return {src: img.getAttribute('src'), figure: fig ? (fig.id || '(no id)') : null, caption: caption(fig)};
    }),
    links: Array.from(document.querySelectorAll('a[href]'))
      .filter(a => a.href.startsWith(location.origin + '/'))
      .filter(a => article.contains(a) || a.matches('.reference.internal'))
      .map(a => ({href: a.href, text: a.textContent.trim().replace(/\s+/g, ' ').slice(0, 60)})),
    unresolved: Array.from(article.querySelectorAll('.xref')).filter(e => !e.closest('a'))
      .map(e => `${e.className}: ${e.textContent.trim()}`),
    unnumbered: prose.textContent.includes('???'),
    wideCode: Array.from(article.querySelectorAll('pre'))
      .filter(p => p.scrollWidth > p.clientWidth + 1)
      .map(p => `${p.scrollWidth}px > ${p.clientWidth}px: ${p.textContent.trim().split('\n')[0].slice(0, 70)}`),
  };
}"""


@dataclass(frozen=True)
class Build:
    html: Path
    stdout: str
    stderr: str
    execution_log: str  # the output of scripts/execute_chapters.py, which executed the chapters


def _toc_pages() -> list[str]:
    """Page names (``book/intro``, ...) listed in ``_toc.yml``, in its order (read as the script that executes them
    reads it)."""
    return [str(path.relative_to(ROOT).with_suffix("")) for path in execute_chapters.toc_files()]


class _Anchors(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if value and (key == "id" or (key == "name" and tag == "a")):
                self.ids.add(value)


@functools.lru_cache(maxsize=None)
def _anchors(path: Path) -> frozenset[str]:
    """The element ids (and ``<a name>``) of a built HTML page, the targets a ``#fragment`` can reach."""
    parser = _Anchors()
    parser.feed(path.read_text(encoding="utf-8"))
    return frozenset(parser.ids)


def _broken_link(html_root: Path, href: str) -> str | None:
    """Why the internal link ``href`` does not resolve in the built site, or None if it does."""
    url = urlparse(href)
    path = unquote(url.path).lstrip("/")
    target = html_root / path
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return f"no page {path}"
    fragment = unquote(url.fragment)
    if fragment and target.suffix == ".html" and fragment not in _anchors(target):
        return f"no element id {fragment!r} on {path or 'index.html'}"
    return None


def _leaves_machine(url: str) -> bool:
    return urlparse(url).hostname != "127.0.0.1" and not url.startswith("data:")


@pytest.fixture(scope="module")
def built_book() -> Build:
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["LABELRANK_PROFILE"] = "quick"
    jb = Path(sys.executable).with_name("jupyter-book")
    execute = [sys.executable, str(ROOT / "scripts" / "execute_chapters.py"), str(OUT / "_build" / ".jupyter_cache")]
    # --all: every page is read again (from jupyter-cache), so that a second run checks the whole book as the first
    # did; an incremental build would read no unchanged page and log none of them
    build = [str(jb), "build", "-W", "-n", "--keep-going", "--all", "--path-output", str(OUT), str(ROOT)]
    executed = subprocess.run(execute, cwd=ROOT, env=env, capture_output=True, text=True)
    proc = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True)
    OUT.mkdir(parents=True, exist_ok=True)
    BUILD_LOG.write_text(f"$ {' '.join(execute)}\n--- stdout\n{executed.stdout}\n--- stderr\n{executed.stderr}\n"
                         f"$ {' '.join(build)}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    assert executed.returncode == 0, "execute_chapters failed:\n" + (executed.stdout + executed.stderr)[-8000:]
    assert proc.returncode == 0, "jupyter-book build -W failed:\n" + (proc.stdout + proc.stderr)[-8000:]
    return Build(HTML, proc.stdout, proc.stderr, executed.stdout + executed.stderr)


@pytest.fixture(scope="module")
def server(built_book):
    with serve(built_book.html) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    exe = chromium()
    if exe is None:
        if os.environ.get("LABELRANK_REQUIRE_BROWSER") == "1":
            pytest.fail(MISSING_CHROMIUM)
        pytest.skip(MISSING_CHROMIUM)
    with launch(exe) as b:
        yield b


@pytest.fixture(scope="module")
def rendered(built_book, server, browser) -> dict[str, dict]:
    """Every TOC page opened once: its facts (``PAGE_FACTS`` plus requests and MathJax), and a screenshot where
    ``LABELRANK_SCREENSHOTS=1``."""
    if TAKE_SCREENSHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
    facts: dict[str, dict] = {}
    for name in _toc_pages():
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        external: list[str] = []
        failed: list[str] = []
        page.on("request", lambda r: external.append(r.url) if _leaves_machine(r.url) else None)
        page.on("requestfailed", lambda r: failed.append(r.url))
        url = urljoin(server, f"{name}.html")
        response = page.goto(url, wait_until="load")
        assert response is not None and response.ok, f"{url}: HTTP {response.status if response else 'no response'}"
        n_math = typeset_math(page)
        facts[name] = page.evaluate(PAGE_FACTS) | {"math": n_math, "external": external, "failed": failed}
        if TAKE_SCREENSHOTS:  # JPEG: pages run to 33,000 pixels, which Chromium encodes in 3/4 of PNG's time
            page.screenshot(path=str(SHOTS / (name.replace("/", "__") + ".jpg")), full_page=True, type="jpeg",
                            quality=80)
        page.close()
    return facts


def _traceback_block(lines: list[str], start: int) -> list[str]:
    """The lines of the log entry that begins at ``lines[start]``: the entry, then its traceback up to and with
    the exception's line (chained tracebacks included)."""
    block = [lines[start]]
    i = start + 1
    if i < len(lines) and lines[i].startswith("Traceback"):
        while i < len(lines):
            line = lines[i]
            block.append(line)
            i += 1
            chained = line.startswith(("Traceback", "During handling", "The above exception")) or not line.strip()
            if not line.startswith(" ") and not chained:
                break
    return block


def log_problems(text: str) -> tuple[list[str], list[list[str]]]:
    """The lines of a build log that report a problem (each with the traceback that follows it), and the blocks
    tolerated as Jupyter's own (``KERNEL_LOOP_ERROR`` with no frame in this project's files)."""
    lines = text.splitlines()
    bad: list[str] = []
    tolerated: list[list[str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not BAD_LOG_LINE.search(line) or line.startswith(KERNEL_NOTICE):
            i += 1
            continue
        block = _traceback_block(lines, i)
        frames = re.findall(r'^\s*File "([^"]+)"', "\n".join(block), re.M)
        ours = [f for f in frames if Path(f).is_relative_to(ROOT) and ".venv" not in Path(f).parts]
        if line.startswith(KERNEL_LOOP_ERROR) and frames and not ours:  # a traceback, none ours
            tolerated.append(block)
        else:
            bad.append("\n".join(b[:300] for b in block[:40]))
        i += len(block)
    return bad, tolerated


def test_build_log_is_clean(built_book):
    """Beyond ``-W``: no warning, glue error, exception or traceback anywhere in the log, and nothing on stderr
    that looks like a warning (Python warnings and extension messages bypass ``-W``). A traceback of a kernel's
    message loop with no frame in the project is reported as a warning of this test, not a failure."""
    bad = []
    for stream, text in (("stdout", built_book.stdout), ("stderr", built_book.stderr),
                         ("execute_chapters", built_book.execution_log)):
        problems, tolerated = log_problems(text)
        bad += [f"{stream}: {p}" for p in problems]
        for block in tolerated:
            warnings.warn(f"a kernel's message loop logged (Jupyter's race, not the book's): {block[-1]}",
                          stacklevel=1)
    assert not bad, f"the build log ({BUILD_LOG}) reports problems:\n" + "\n".join(bad[:40])


def test_the_build_finds_every_chapter_the_script_executed(built_book):
    """The script reads a chapter into the same notebook as myst-nb (hashed alike), so the build executes nothing."""
    notebooks = re.findall(r"(\S+\.md): Using cached notebook", built_book.stdout)
    assert "Executing notebook" not in built_book.stdout + built_book.stderr
    assert {"book/meta_features.md", "book/learning_to_rank.md", "book/api/cli.md"} <= {
        str(Path(path).relative_to(ROOT)) for path in notebooks}


def test_log_problems_tolerates_only_jupyters_own_tracebacks():
    site = "/venv/lib/python3.11/site-packages"
    kernel = [KERNEL_LOOP_ERROR, "Traceback (most recent call last):",
              f'  File "{site}/zmq/eventloop/zmqstream.py", line 600, in _handle_events',
              "    self._handle_recv()", "zmq.error.ZMQError: not a socket"]
    ours = kernel[:3] + [f'  File "{ROOT}/lib/labelrank/protocol/fits.py", line 9, in f', "    g()"] + kernel[-1:]
    bare = ["ERROR:tornado.general:Uncaught exception in ZMQStream callback"]
    notice = KERNEL_NOTICE + " Use IPC transport."
    text = "\n".join([notice, *kernel, "build succeeded.", *ours, "x.py:3: FutureWarning: soon", *bare])
    bad, tolerated = log_problems(text)
    assert tolerated == [kernel]
    assert bad == ["\n".join(ours), "x.py:3: FutureWarning: soon", bare[0]]


def test_every_page_renders(rendered):
    problems: list[str] = []
    for name, page in rendered.items():
        if page["math"]:
            if page["mathErrors"]:
                problems.append(f"{name}: MathJax reports a TeX error")
            src = page["mathjaxScripts"]
            if not src or not all(urlparse(s).hostname == "127.0.0.1" for s in src):
                problems.append(f"{name}: MathJax not served locally: {src}")
        source = ROOT / f"{name}.md"
        plots = source.is_file() and any(t in source.read_text() for t in ("plt.", "sns.", ".plot("))
        if plots and not page["articleImages"]:
            problems.append(f"{name}: the chapter plots but the page shows no image")
        if page["brokenImages"]:
            problems.append(f"{name}: images that did not load: {page['brokenImages']}")
        problems += [f"{name}: page shows {needle!r}" for needle in ERROR_TEXT if needle in page["text"]]
        if page["errorOutputs"]:
            problems.append(f"{name}: page shows an error output")
        for i, output in enumerate(page["outputs"], 1):
            problems += [f"{name}: output {i} shows {m.group(0)!r}" for m in BAD_OUTPUT_LINE.finditer(output)]
        if page["external"]:
            problems.append(f"{name}: requests left the machine: {sorted(set(page['external']))[:5]}")
        if page["failed"]:
            problems.append(f"{name}: failed requests: {sorted(set(page['failed']))[:5]}")
    assert not problems, "\n".join(problems)
    if TAKE_SCREENSHOTS:
        assert len(list(SHOTS.glob("*.jpg"))) >= len(rendered)


def test_code_fits_the_column(rendered):
    """No code block, cell output or printed library source needs horizontal scrolling at the default width
    (``book/_static/wrap-code.css`` wraps long lines inside the column)."""
    wide = [f"{name}: {block}" for name, page in rendered.items() for block in page["wideCode"]]
    assert not wide, "code blocks wider than their column:\n" + "\n".join(wide[:40])


def test_plots_have_captions(rendered):
    """Every plot sits in a <figure> with a caption (``mystnb: figure: caption:`` or ``{glue:figure}``)."""
    problems = [
        f"{name}: plot {i} ({Path(plot['src']).name}) "
        + ("is not in a <figure>" if plot["figure"] is None else f"in figure {plot['figure']} has no caption")
        for name, page in rendered.items()
        for i, plot in enumerate(page["plots"], 1)
        if plot["figure"] is None or not plot["caption"]
    ]
    assert not problems, "uncaptioned plots:\n" + "\n".join(problems)


def test_cross_references_resolve(rendered, built_book):
    """Internal links reach an existing page and element id; no reference is left unresolved or numbered ???."""
    problems: set[str] = set()
    for name, page in rendered.items():
        for link in page["links"]:
            why = _broken_link(built_book.html, link["href"])
            if why:
                problems.add(f"{name}: link {link['text']!r} -> {why}")
        problems.update(f"{name}: unresolved reference ({ref})" for ref in page["unresolved"])
        if page["unnumbered"]:
            problems.add(f"{name}: the text shows '???' (a {{numref}} without a number)")
    assert not problems, "\n".join(sorted(problems))


def test_every_chapter_offers_its_notebook_and_no_unconfigured_repository(built_book):
    """Each chapter page links its notebook (converted at build time, without outputs) and its .md source, both
    in the built site; without LABELRANK_BOOK_REPOSITORY no page carries a repository, issues or launch button."""
    import nbformat

    if os.environ.get("LABELRANK_BOOK_REPOSITORY"):
        pytest.skip("built for a configured repository")
    chapters = [p.stem for p in (ROOT / "book").glob("*.md") if "kernelspec:" in p.read_text(encoding="utf-8")[:2000]]
    assert chapters
    for name in chapters:
        page = (built_book.html / "book" / f"{name}.html").read_text(encoding="utf-8")
        assert f'href="../_notebooks/{name}.ipynb"' in page, name
        assert f'href="../_sources/book/{name}.md"' in page, name
        notebook = nbformat.read(built_book.html / "_notebooks" / f"{name}.ipynb", 4)
        nbformat.validate(notebook)
        assert not any(c.get("outputs") for c in notebook.cells if c.cell_type == "code")
        assert (built_book.html / "_sources" / "book" / f"{name}.md").is_file(), name
    for page in built_book.html.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for marker in ("mybinder.org", "colab.research.google.com", "github.com/labelrank-book", "repository-button"):
            assert marker not in text, f"{page.relative_to(built_book.html)}: {marker}"
