"""What the browser tests share: Playwright (the module is skipped where it is missing, except in
CI), the dashboard served by ``streamlit run``, and the scripts that read the page.

Needs Debian's ``chromium`` and Playwright for Python, which drives it through
``/usr/bin/chromium`` (no browser download); ``scripts/install-test-deps.sh`` installs both.
The ``chromium`` fixture is tests/ui/conftest.py's.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from ..helpers import CHROMIUM, ROOT, free_port, tool_missing

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright
except ModuleNotFoundError as error:
    if error.name != "playwright":  # a broken install, not a missing one
        raise
    tool_missing("Playwright for Python", module=True)

__all__ = [
    "DRAWN", "HEATMAPS_ON", "TEXTS", "PlaywrightTimeout", "opened", "serve", "settle",
    "sync_playwright",
]  # fmt: skip

# Scripts that Playwright evaluates on the page

HEATMAPS_ON = (  # how many heatmaps show the sentence typed (its first word)
    "[...document.querySelectorAll('.js-plotly-plot')].filter(p => "
    "p.querySelector('.heatmaplayer') && [...p.querySelectorAll('.xtick text')]"
    ".some(t => t.textContent === '1:' + first)).length"
)
DRAWN = f"(first) => {HEATMAPS_ON} >= 2"  # both models', not the opening example's

# Every visible text node outside what is not prose: charts (their words are tokens), tables of
# candidate words, the shaded tokens and bars, formulas, code, inputs.
TEXTS = """() => {
  const skip = 'svg, table, .attnviz-bars, span[title], .katex, code, input, textarea, '
    + '[data-testid="stDataFrame"], [data-testid="stJson"], [data-baseweb="select"], '
    + '[data-testid="stIconMaterial"], [data-testid="stSkipToContent"]';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || el.closest(skip) || el.closest('script, style')) continue;
    if (!el.checkVisibility()) continue;
    out.push(n.textContent.trim());
  }
  return out;
}"""


# Whether the page has settled: no run going, and as many elements and chart texts as at the
# last look (Vega-Lite draws a moment after the run that sent its chart ends).
STILL = """() => {
  const now = document.querySelectorAll('[data-testid="stElementContainer"]').length + ':'
    + document.querySelectorAll('svg text, .js-plotly-plot, .attnviz-bars').length;
  const still = window.attnvizSeen === now
    && !document.querySelector('[data-testid="stStatusWidget"], [data-stale="true"]');
  window.attnvizSeen = now;
  return still;
}"""


def settle(page, timeout: float = 120_000) -> None:
    """Wait until the run a click or a key started is over and its charts are drawn: the page
    the same on two looks 400 ms apart, with no run going."""
    page.evaluate("() => { window.attnvizSeen = null; }")
    page.wait_for_function(STILL, polling=400, timeout=timeout)


@contextlib.contextmanager
def opened(server: str, lang: str, width: int, height: int, query: str = ""):
    """The dashboard in a fresh Chromium page of ``width`` × ``height``, in ``lang``, opened
    on the link's further ``query`` parameters (``&left=…``)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US")
        page.goto(f"{server}/?lang={lang}{query}")
        yield page
        browser.close()


def serve(folder: Path, logs: Path):
    """``streamlit run dashboard.py`` on the checkpoints in ``folder``: yields its URL, and
    stops it when resumed (a module fixture's ``yield from``); its log goes to ``logs``."""
    port = free_port()
    log = open(logs / "streamlit.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboard.py"),
         "--server.headless", "true", "--server.port", str(port),
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT,
        env={**os.environ, "ATTNVIZ_CHECKPOINTS": str(folder)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"streamlit did not start; see {log.name}")
        time.sleep(0.5)
    yield url
    proc.terminate()
    proc.wait(timeout=30)
    log.close()
