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
import urllib.request
from pathlib import Path

from ..helpers import CHROMIUM, PATIENCE, ROOT, free_port, tool_missing, wait_until

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright
except ModuleNotFoundError as error:
    if error.name != "playwright":  # a broken install, not a missing one
        raise
    tool_missing("Playwright for Python", module=True)

__all__ = [
    "DRAWN", "HEATMAPS_ON", "SETTLED", "TEXTS", "PlaywrightTimeout", "open_sidebar", "opened",
    "serve", "settle", "sync_playwright",
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


# Whether the page shows all that its last run sent: no run going (Streamlit's own state of the
# script, on the app), nothing left stale from the run before, and every chart drawn (a
# chart's code comes a moment after the run, a skeleton in its place meanwhile, and a
# Vega-Lite chart is drawn after its code). Streamlit's "Running…" widget is no sign: it shows
# only for runs longer than a moment.
SETTLED = """() => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState
    === 'notRunning'
  && !document.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')
  && [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .every(chart => chart.querySelector('svg, canvas'))
  && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
    .every(chart => chart.querySelector('.main-svg'))"""

# What keeps a page from settling (settle()'s message when it does not).
UNSETTLED = """() => ({
  runs: window.attnvizRuns,
  script: document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState,
  stale: document.querySelectorAll('[data-stale="true"]').length,
  skeletons: document.querySelectorAll('[data-testid="stSkeleton"]').length,
  undrawn: [...document.querySelectorAll(
      '[data-testid="stVegaLiteChart"], [data-testid="stPlotlyChart"]')]
    .filter(chart => !chart.querySelector('svg, canvas, .main-svg'))
    .map(chart => chart.dataset.testid + (chart.checkVisibility() ? '' : ' (hidden)')),
})"""

# What a page knows of the runs it asks for, kept from its first script on (opened() adds it to
# each page), from the messages on its WebSocket: ``asked`` is true from a rerun request (a
# BackMsg whose first field is rerun_script: field 11, tag byte 0x5A) until the end of a run
# that began after it (a ForwardMsg's new_session, field 4, then its script_finished, field 6,
# other than FINISHED_EARLY_FOR_RERUN, 2: a run stopped for the request); ``ended`` is the
# frame in which that end came, ``frames`` counts the frames the page has drawn.
RUNS = """(() => {
  const runs = window.attnvizRuns = {asked: false, begun: false, ended: 0, frames: 0};
  const fields = bytes => {  // a message's top-level fields: [number, value of a varint]
    const out = [];
    let i = 0;
    const varint = () => {
      let value = 0, shift = 0, byte;
      do { byte = bytes[i++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; }
      while (byte & 0x80);
      return value;
    };
    while (i < bytes.length) {
      const tag = varint(), wire = tag & 7;
      if (wire === 0) out.push([Math.floor(tag / 8), varint()]);
      else if (wire === 2) { out.push([Math.floor(tag / 8), null]); i += varint(); }
      else if (wire === 1 || wire === 5) i += wire === 1 ? 8 : 4;
      else break;
    }
    return out;
  };
  const read = data => {
    if (!(data instanceof ArrayBuffer)) return;
    for (const [number, value] of fields(new Uint8Array(data))) {
      if (number === 4 && runs.asked) runs.begun = true;
      if (number === 6 && value !== 2 && runs.begun) {
        runs.asked = runs.begun = false;
        runs.ended = runs.frames;
      }
    }
  };
  window.WebSocket = class extends window.WebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', event => read(event.data));
    }
    send(data) {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
      if (bytes && bytes[0] === 0x5a) { runs.asked = true; runs.begun = false; }
      return super.send(data);
    }
  };
  const tick = () => { runs.frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();"""
# Frames a page draws after an event before what the event causes is surely done: a widget's
# request after a click or a key (sent from the event's handlers, or from the render that
# follows it: a text box's on Enter), Streamlit's drawing of the messages of a run that has
# ended. Frames, not milliseconds: a busy machine draws them as slowly as it runs the page.
ASKING_FRAMES = 10


def settle(page, timeout: float = 120_000) -> None:
    """Wait until the run that the last click or key asked for has ended and the page shows
    all it sent (:data:`SETTLED`); where it asked for none (a radio already chosen), once the
    page has drawn :data:`ASKING_FRAMES` frames without asking. The page must be one of
    :func:`opened`'s, which follow their runs from the start (:data:`RUNS`); a widget that
    sends its value later (a slider's, debounced) is waited for by what it changes."""
    frames = page.evaluate("() => window.attnvizRuns?.frames")
    assert frames is not None, "settle() follows the runs of pages that opened() opens"
    try:
        page.wait_for_function(
            f"""(frames) => {{ const runs = window.attnvizRuns;
              return !runs.asked && runs.frames >= Math.max(frames, runs.ended) + {ASKING_FRAMES}
                && ({SETTLED})(); }}""",
            arg=frames,
            timeout=timeout,
        )
    except PlaywrightTimeout:
        raise AssertionError(f"the page did not settle: {page.evaluate(UNSETTLED)}") from None


# Whether the sidebar has slid all the way into the window.
SLID_IN = """() => {
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  return sidebar.dataset.collapsed !== 'true' && sidebar.getBoundingClientRect().left >= 0;
}"""


def open_sidebar(page) -> bool:
    """Opens the sidebar where a window under 1200 px has closed it, and waits until it has
    slid in; whether it was closed."""
    expand = page.get_by_test_id("stExpandSidebarButton")
    closed = expand.is_visible()
    if closed:
        expand.click()
    page.wait_for_function(SLID_IN)
    return closed


@contextlib.contextmanager
def opened(server: str, lang: str, width: int, height: int, query: str = ""):
    """The dashboard in a fresh Chromium page of ``width`` × ``height``, in ``lang``, opened
    on the link's further ``query`` parameters (``&left=…``), once its first run is drawn; the
    page follows its runs (:func:`settle`)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US")
        page.add_init_script(RUNS)
        page.goto(f"{server}/?lang={lang}{query}")
        settle(page, timeout=PATIENCE * 1000)  # a new server's first page loads its models
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

    def answers() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit ended before it answered; see {log.name}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
                return r.status == 200
        except OSError:
            return False

    try:
        wait_until(answers, f"streamlit answering; see {log.name}", every=0.5)
    except BaseException:
        proc.kill()
        raise
    yield url
    proc.terminate()
    proc.wait(timeout=30)
    log.close()


def typed_page(p, server: str):
    """A browser on the dashboard with a sentence typed and both heatmaps drawn: (browser, page)."""
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.goto(server)
    box = page.get_by_label("English sentence")
    box.wait_for(timeout=60_000)
    box.fill("The red cat sees a dog.")
    box.press("Enter")  # the page opened on an example: wait for this sentence's heatmaps
    page.wait_for_function(DRAWN, arg="The", timeout=60_000)
    return browser, page
