"""The rendered book in a real browser.

Builds the book under the quick profile (``make quick-book``'s command, into ``_build/quick``), serves it on a
loopback port, opens every page in headless Chromium and checks what a reader would see: math typeset by the locally
served MathJax (no CDN), every image loaded, no traceback or error output, internal links that resolve, and no
request leaving the machine. A screenshot of every page is kept in ``_build/quick/screenshots``.

Without Chromium the test is skipped with a hint; with ``LABELRANK_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing
browser fails instead.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "quick"
HTML = OUT / "_build" / "html"
SHOTS = OUT / "screenshots"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _toc_pages() -> list[str]:
    """Page names (``book/intro``, ...) listed in ``_toc.yml``."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                pages.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return pages


@pytest.fixture(scope="module")
def built_book():
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["LABELRANK_PROFILE"] = "quick"
    jb = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jb), "build", "-W", "-n", "--keep-going", "--path-output", str(OUT), str(ROOT)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, "jupyter-book build -W failed:\n" + log[-8000:]
    return HTML


@pytest.fixture(scope="module")
def server(built_book):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(built_book))

    class Quiet(handler.func):  # type: ignore[misc, valid-type]
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built_book)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    exe = _chromium()
    if exe is None:
        msg = "no Chromium found: install it (Debian: `apt-get install chromium`) to test the rendered book"
        if os.environ.get("LABELRANK_REQUIRE_BROWSER") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


def test_every_page_renders(built_book, server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = _toc_pages()
    problems: list[str] = []
    for name in pages:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        external: list[str] = []
        failed: list[str] = []
        page.on("request", lambda r: external.append(r.url) if urlparse(r.url).hostname not in ("127.0.0.1",) and not r.url.startswith("data:") else None)
        page.on("requestfailed", lambda r: failed.append(r.url))
        url = urljoin(server, f"{name}.html")
        response = page.goto(url, wait_until="load")
        assert response is not None and response.ok, f"{url}: HTTP {response.status if response else 'no response'}"
        n_math = page.evaluate("document.querySelectorAll('.math, .amsmath').length")
        if n_math:
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30000)
            page.evaluate("MathJax.startup.promise")
            page.wait_for_function(
                "document.querySelectorAll('mjx-container').length >= document.querySelectorAll('.math, .amsmath').length",
                timeout=30000,
            )
            if page.evaluate("document.querySelectorAll('mjx-merror, .mjx-merror').length"):
                problems.append(f"{name}: MathJax reports a TeX error")
            src = page.evaluate("Array.from(document.scripts).map(s => s.src).filter(s => s.includes('mathjax'))")
            if not src or not all(s.startswith(server) for s in src):
                problems.append(f"{name}: MathJax not served locally: {src}")
        broken_images = page.evaluate(
            "Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
        )
        source = ROOT / f"{name}.md"
        plots = source.is_file() and any(t in source.read_text() for t in ("plt.", "sns.", ".plot("))
        if plots and not page.evaluate("document.querySelectorAll('article img').length"):
            problems.append(f"{name}: the chapter plots but the page shows no image")
        if broken_images:
            problems.append(f"{name}: images that did not load: {broken_images}")
        text = page.inner_text("article") if page.query_selector("article") else page.inner_text("body")
        for needle in ("Traceback (most recent call last)", "Error in callback", "---------------------------------------------------------------------------"):
            if needle in text:
                problems.append(f"{name}: page shows {needle!r}")
        if page.query_selector(".output.traceback, .output.error, div.cell_output .traceback"):
            problems.append(f"{name}: page shows an error output")
        links = page.evaluate(
            "Array.from(document.querySelectorAll('article a[href]')).map(a => a.href)"
            ".filter(h => h.startsWith(location.origin))"
        )
        for link in links:
            target = urlparse(link).path.lstrip("/")
            if target and not (built_book / target).exists():
                problems.append(f"{name}: internal link to missing {target}")
        if external:
            problems.append(f"{name}: requests left the machine: {sorted(set(external))[:5]}")
        if failed:
            problems.append(f"{name}: failed requests: {sorted(set(failed))[:5]}")
        shot = SHOTS / (name.replace("/", "__") + ".png")
        page.screenshot(path=str(shot), full_page=True)
        page.close()
    assert not problems, "\n".join(problems)
    assert len(list(SHOTS.glob("*.png"))) >= len(pages)
