"""Take the README's screenshot of a chapter from an already built book (builds nothing).

Serves the built HTML folder on a loopback port, opens the chapter in headless Chromium (the browser test's helpers,
``tests/bookbrowser.py``), waits for the local MathJax, scrolls to the first place where a figure, a table and
typeset math are in view together (or as many of the three as the chapter has in one screen) and saves that viewport
as a PNG.

Usage: python scripts/screenshot.py HTML_DIR [--page book/la_bdm] [--out docs/screenshot.png] [--size 1280x800]
e.g.   python scripts/screenshot.py _build/quick/_build/html
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bookbrowser import MISSING_CHROMIUM, chromium, launch, serve, typeset_math  # noqa: E402

# The scroll offset that shows most of {figure, table, math} in one viewport (then the most elements). A figure (image
# and caption) or a formula is in view when all of it lies below the sticky header and above the bottom edge; a table
# when 200 pixels of it do (all of it, if it is shorter).
BEST_VIEW = r"""([height, header]) => {
  const article = document.querySelector('article') || document.body;
  const kinds = {figure: 'figure', table: 'table', math: 'mjx-container'};
  const boxes = {};
  for (const [kind, sel] of Object.entries(kinds)) {
    boxes[kind] = Array.from(article.querySelectorAll(sel)).map(e => {
      const r = e.getBoundingClientRect();
      return [r.top + window.scrollY, r.bottom + window.scrollY];
    });
  }
  const inView = (kind, y, [top, bottom]) => {
    const need = kind === 'table' ? Math.min(bottom - top, 200) : bottom - top;
    return Math.min(bottom, y + height) - Math.max(top, y + header) >= need;
  };
  let best = {y: 0, shows: [], n: 0};
  for (let y = 0; y < document.documentElement.scrollHeight; y += 20) {
    const seen = Object.keys(boxes).map(kind => boxes[kind].filter(box => inView(kind, y, box)).length);
    const shows = Object.keys(boxes).filter((kind, i) => seen[i] > 0);
    const n = seen.reduce((a, b) => a + b, 0);
    if (shows.length > best.shows.length || (shows.length === best.shows.length && n > best.n)) best = {y, shows, n};
  }
  return best;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="a built book's HTML folder, e.g. _build/html")
    parser.add_argument("--page", default="book/la_bdm", help="the chapter, as in _toc.yml (default: book/la_bdm)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--size", default="1280x800", help="viewport WIDTHxHEIGHT in CSS pixels")
    parser.add_argument("--header", type=int, default=70, help="height of the theme's sticky header in pixels")
    args = parser.parse_args()

    width, height = (int(n) for n in args.size.split("x"))
    if not (args.html / f"{args.page}.html").is_file():
        parser.error(f"{args.html / args.page}.html does not exist: build the book first (make book, make quick-book)")
    exe = chromium()
    if exe is None:
        parser.error(MISSING_CHROMIUM)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with serve(args.html) as url, launch(exe) as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{url}{args.page}.html", wait_until="load")
        typeset_math(page)
        best = page.evaluate(BEST_VIEW, [height, args.header])
        page.evaluate("y => window.scrollTo(0, y)", best["y"])
        page.wait_for_timeout(300)  # let the theme's scroll-spy settle
        page.screenshot(path=str(args.out))
    shows = ", ".join(best["shows"]) or "none of figure, table, math"
    print(f"{args.out}: {args.page} at y = {best['y']:.0f} px, shows {shows}; {args.out.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
