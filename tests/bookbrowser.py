"""Serve a built book on a loopback port and open it in headless Chromium.

Shared by the browser test (``tests/book/test_book_browser.py``) and the README screenshot (``scripts/screenshot.py``).
Playwright drives the system's Chromium (``executable_path``), so no browser is downloaded.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

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
MISSING_CHROMIUM = "no Chromium found: install it (Debian: `apt-get install chromium`) to test the rendered book"
MATH = ".math, .amsmath"


def chromium() -> str | None:
    """Path of the system's Chromium (or Chrome), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port) in a thread; yields the base URL, ending in ``/``."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextlib.contextmanager
def launch(executable: str) -> Iterator[object]:
    """A headless Chromium browser driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def typeset_math(page, timeout: float = 30000) -> int:
    """Wait until MathJax has typeset every math element of ``page``; returns how many there are (0: no MathJax)."""
    n_math = page.evaluate(f"document.querySelectorAll({MATH!r}).length")
    if n_math:
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=timeout)
        page.evaluate("MathJax.startup.promise")
        page.wait_for_function(
            f"document.querySelectorAll('mjx-container').length >= document.querySelectorAll({MATH!r}).length",
            timeout=timeout,
        )
    return n_math
