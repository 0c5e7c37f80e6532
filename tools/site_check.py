#!/usr/bin/env python3
"""Browser check of the documentation site: what a reader sees, in Chromium.

    .venv/bin/python tools/site_check.py [--site build/site] [--out build/site-check]

Run by ``.ci/run`` after ``python3 tasks.py docs``; needs Debian's ``chromium`` package and the
``playwright`` Python package from ``requirements-browser.txt`` (Playwright drives
``/usr/bin/chromium``; no browser is ever downloaded). It serves the built site on a free port of
127.0.0.1 and opens, at 1280 x 800 pixels (a laptop's first screen), the landing page, every notebook
page, the findings page, an API page and the figures page. On each page it fails if

- an image does not load (after scrolling the whole page, so lazy images load too);
- a link inside the site does not resolve: the file it names is missing, or the ``#anchor`` it
  names is not an element id of that file;
- the text shows a raw role or directive (``:func:`...```, ``{doc}`...```, ``.. autosummary::``),
  unrendered mathematics (``$...$`` outside code, or a MathJax error), or a Python traceback;
- the browser reports a script error or a request of the page fails;
- a table is wider than the text column without a box that scrolls it sideways, or a text output (a
  printed line) is cut off at the column's edge;
- on a notebook page, the answer does not start on the first screen: the **Answer.** paragraph (its
  sentences, printed from the tables; the verdict table follows it) starts too low to show its first
  lines on the first 800 pixels.

Every HTML file of the site is also read for nbval's markers (``NBVAL_...``): a test marker is never shown.

It saves a screenshot of the top of each page (and the whole page) in ``--out`` and prints one line
per page. Exit status: 0 if every page passed, 1 otherwise, 2 if the site or the browser is missing.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlparse

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 800}

#: The pages checked besides every notebook page, relative to the site's root: the landing page, the findings, one
#: API page, the figures.
PAGES = (
    "docs/index.html",
    "FINDINGS.html",
    "docs/api/generated/ndcg_research.ndcg.html",
    "docs/generated/figures.html",
)

#: How much of the answer the first screen must show, in pixels: the first three lines of its paragraph.
ANSWER_SHOWN = 80

#: nbval's markers: test machinery that no page shows.
NBVAL_MARKER = re.compile(r"NBVAL_[A-Z_]+")

#: Where the answer of a notebook page starts, in page coordinates, and how wide its tables and text outputs run: the
#: **Answer.** paragraph, tables and printed lines wider than the article without a box that scrolls them.
LAYOUT_SCRIPT = """() => {
    const article = document.querySelector('article') || document.querySelector('main');
    const column = article.getBoundingClientRect();
    const paragraphs = Array.from(article.querySelectorAll('p'));
    const answer = paragraphs.find(p => p.textContent.trim().startsWith('Answer.'));
    let start = null;
    if (answer) {
        start = {what: 'the Answer paragraph', top: answer.getBoundingClientRect().top + window.scrollY};
    }
    const scrolls = (element) => {
        for (let e = element; e && e !== article.parentElement; e = e.parentElement) {
            const style = getComputedStyle(e);
            if ((style.overflowX === 'auto' || style.overflowX === 'scroll')
                && e.getBoundingClientRect().right <= column.right + 1) return true;
        }
        return false;
    };
    const wide = [];
    article.querySelectorAll('table').forEach((table, index) => {
        if (table.getBoundingClientRect().width > column.width + 1 && !scrolls(table)) {
            wide.push(`table ${index + 1} (${Math.round(table.getBoundingClientRect().width)} px in a column of `
                      + `${Math.round(column.width)} px, no scroll box)`);
        }
    });
    article.querySelectorAll('.cell_output pre, .output pre').forEach((pre, index) => {
        if (pre.scrollWidth > pre.clientWidth + 2 && !scrolls(pre)) {
            wide.push(`printed output ${index + 1} cut off (${pre.scrollWidth} px of text in ${pre.clientWidth} px)`);
        }
    });
    return {start: start, wide: wide};
}"""

#: Text that only appears when markup was not rendered, or when a page shows an error.
RAW_MARKUP = [
    (re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|obj|exc|doc|ref|term|download|math):`"), "a raw reST role"),
    (re.compile(r"\{(?:doc|ref|func|class|mod|download|math|eval-rst)\}`"), "a raw MyST role"),
    (re.compile(r"^\s*\.\. [a-z-]+::", re.M), "a raw reST directive"),
    (re.compile(r"^```\{", re.M), "a raw MyST directive"),
    (re.compile(r"Traceback \(most recent call last\)"), "a Python traceback"),
]


@dataclass
class PageReport:
    page: str
    problems: list[str] = field(default_factory=list)
    images: int = 0
    links: int = 0
    answer_top: float | None = None


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``site`` on a free port of 127.0.0.1 in a daemon thread; return the server and its URL."""
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


def file_of(url: str, base: str, site: Path) -> Path | None:
    """The file of the site a same-origin URL names (``index.html`` for a folder), or None if outside."""
    if not url.startswith(base):
        return None
    path = site / unquote(urlparse(url).path).lstrip("/")
    return path / "index.html" if path.is_dir() else path


@functools.cache
def element_ids(path: Path) -> frozenset[str]:
    """The ids of the elements of an HTML file (anchors a link may name)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r"""\sid=["']([^"']+)["']""", text))


def check_links(hrefs: list[str], page_url: str, base: str, site: Path) -> tuple[int, list[str]]:
    """Every link inside the site names an existing file and, if it has one, an existing anchor."""
    problems, checked = [], 0
    for href in sorted(set(hrefs)):
        if not href or href.startswith(("mailto:", "javascript:")):
            continue
        url = urljoin(page_url, href)
        target, fragment = urldefrag(url)
        path = file_of(target, base, site)
        if path is None:
            continue  # outside the site: the docs are offline, and no test follows such links
        checked += 1
        if not path.is_file():
            problems.append(f"broken link {href!r}: {path.relative_to(site)} does not exist")
        elif fragment and path.suffix == ".html" and unquote(fragment) not in element_ids(path):
            problems.append(f"broken anchor {href!r}: no id {unquote(fragment)!r} in {path.relative_to(site)}")
    return checked, problems


def check_page(page, base: str, site: Path, name: str, out: Path) -> PageReport:
    report = PageReport(name)
    failed_requests: list[str] = []
    page.on("pageerror", lambda error: report.problems.append(f"script error: {error}"))
    page.on("requestfailed", lambda request: failed_requests.append(f"{request.url} ({request.failure})"))
    page.on(
        "response",
        lambda response: response.status >= 400 and failed_requests.append(f"{response.url} (HTTP {response.status})"),
    )
    url = base + name
    page.goto(url, wait_until="load")
    # Scroll through the page so that lazily loaded images load, then wait for MathJax.
    height = page.evaluate("document.body.scrollHeight")
    for y in range(0, height + VIEWPORT["height"], VIEWPORT["height"]):
        page.evaluate(f"window.scrollTo(0, {y})")
        page.wait_for_timeout(50)
    page.wait_for_load_state("networkidle")
    page.evaluate("window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("window.scrollTo(0, 0)")

    images = page.evaluate("""() => Array.from(document.images).map(img =>
        ({src: img.getAttribute('src'), ok: img.complete && img.naturalWidth > 0}))""")
    report.images = len(images)
    report.problems += [f"image does not load: {image['src']}" for image in images if not image["ok"]]

    hrefs = page.evaluate("() => Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href'))")
    report.links, problems = check_links(hrefs, url, base, site)
    report.problems += problems

    # The article's text, without code blocks (where `$` and `>>>` are literal).
    text = page.evaluate("""() => { const main = document.querySelector('main') || document.body;
        const copy = main.cloneNode(true); copy.querySelectorAll('pre, code, script, style').forEach(e => e.remove());
        return copy.innerText; }""")
    for pattern, what in RAW_MARKUP:
        match = pattern.search(text)
        if match:
            report.problems.append(f"shows {what}: {text[max(0, match.start() - 40) : match.end() + 40]!r}")
    if re.search(r"(?<![\w\\])\$[^$\s][^$]*\\[a-zA-Z]+[^$]*\$", text):
        report.problems.append("shows unrendered $...$ mathematics")
    if page.evaluate("document.querySelectorAll('mjx-merror, .MathJax_Error').length"):
        report.problems.append("a formula has a MathJax error")
    layout = page.evaluate(LAYOUT_SCRIPT)
    report.problems += [f"wider than its column: {what}" for what in layout["wide"]]
    if name.startswith("notebooks/"):
        start = layout["start"]
        if start is None:
            report.problems.append("no **Answer.** paragraph")
        elif start["top"] > VIEWPORT["height"] - ANSWER_SHOWN:
            report.problems.append(
                f"{start['what']} starts at {start['top']:.0f} px: the first screen ({VIEWPORT['height']} px) does not "
                f"show its first {ANSWER_SHOWN} px"
            )
        else:
            report.answer_top = start["top"]
    report.problems += [f"request failed: {failure}" for failure in failed_requests]

    stem = re.sub(r"[^\w.-]", "_", name.removesuffix(".html"))
    page.screenshot(path=str(out / f"{stem}.png"))
    page.screenshot(path=str(out / f"{stem}_full.png"), full_page=True)
    return report


def nbval_markers(site: Path) -> list[str]:
    """The HTML files of the site that show one of nbval's markers, with the marker."""
    found = []
    for path in sorted(site.rglob("*.html")):
        match = NBVAL_MARKER.search(path.read_text(encoding="utf-8", errors="replace"))
        if match:
            found.append(f"{path.relative_to(site)}: {match.group()}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--site", type=Path, default=ROOT / "build" / "site", help="the built site (default build/site)"
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "build" / "site-check", help="screenshots (default build/site-check)"
    )
    parser.add_argument(
        "--pages",
        nargs="+",
        default=None,
        metavar="PAGE",
        help="pages to open, relative to the site (default: every notebook page and the landing, findings, one API "
        "and the figures page)",
    )
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if args.pages is None:
        args.pages = [
            *PAGES,
            *(p.relative_to(site).as_posix() for p in sorted(site.glob("notebooks/[0-9][0-9]_*.html"))),
        ]
    missing = [name for name in args.pages if not (site / name).is_file()]
    if missing:
        print(
            f"site_check: not in {site}: {', '.join(missing)} (build it with `python3 tasks.py docs`)", file=sys.stderr
        )
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print(
            "site_check: playwright is not installed: .venv/bin/pip install -r requirements-browser.txt",
            file=sys.stderr,
        )
        return 2
    if not Path(CHROMIUM).is_file():
        print(f"site_check: {CHROMIUM} is missing: apt-get install -y chromium", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    server, base = serve(site)
    reports = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for name in args.pages:
                context = browser.new_context(viewport=VIEWPORT)
                reports.append(check_page(context.new_page(), base, site, name, args.out))
                context.close()
            browser.close()
    finally:
        server.shutdown()
    for report in reports:
        status = "ok" if not report.problems else "FAILED"
        answer = f"; answer at {report.answer_top:.0f} px" if report.answer_top is not None else ""
        print(f"site: {report.page}: {status} ({report.images} images, {report.links} internal links{answer})")
        for problem in report.problems:
            print(f"  - {problem}")
    markers = nbval_markers(site)
    for marker in markers:
        print(f"site: shows nbval's marker: {marker}")
    failed = sum(bool(report.problems) for report in reports) + bool(markers)
    print(
        f"site: {len(reports) - sum(bool(r.problems) for r in reports)} pages passed, {failed} failed "
        f"({len(markers)} files with nbval's markers); screenshots in {args.out}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
