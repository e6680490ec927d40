"""The dashboard's answer times in headless Chromium (1400 px wide), as a user feels them, against
a minimal Streamlit page (minimal_app.py: two plotly heatmaps and one altair bar chart, nothing
else), and beside the bare page (bare_app.py: the step view's own charts from a random trace):

- a new visitor: from opening the page to both heatmaps of the example it opens on drawn;
- Enter: from pressing Enter on a typed sentence to both heatmaps drawn, and to the page
  settled (nothing left stale);
- a step change: from one step of the Step slider to both heatmaps framing the new step and
  the page settled;
- the cold start: from starting the server to the first heatmaps.

    python benchmarks/classroom/dashboard_latency.py [--rounds 8] [--moves 3] [--cold 3] \\
        [--breakdown 2]
        [--checkpoints checkpoints] [--before CHECKOUT] [--slowdown 4]

All the servers run at once and the pages take turns, in an order reversed every other round,
so that a machine that speeds up or slows down during the run moves them all. Each round opens
a fresh page (a new session, an empty cache) on the example, then types a sentence not typed
before (nothing comes from the translation cache; the models stay loaded, as on a running
server) and moves the slider ``--moves`` times. Times are medians over the rounds; a ratio is
the median of the round-by-round ratios to the minimal page. ``--before`` serves the
dashboard.py of another checkout beside this one's (say, ``git worktree add /tmp/before
HEAD~3``), to measure a change in the same run. ``--slowdown 4`` runs each page's browser
four times slower (Chromium's CPU throttling), as on a school laptop; the servers keep this
machine's speed.

Then where the time goes, from ``--breakdown`` more rounds with instruments on: the server's
script time per run (Streamlit's page profile, sent when usage statistics are on, which the
browser here cannot post anywhere), the bytes sent over the websocket per run, by element, when
the second heatmap arrived, and the browser's main thread (Chromium's performance metrics, in
thread time, and its JavaScript profile by the file each library is loaded from). Needs
/usr/bin/chromium and Playwright (scripts/install-test-deps.sh).
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter, defaultdict
from contextlib import ExitStack, contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parent.parent.parent  # the repository's root
OPENING = "He bought a red car and a small house."  # the dashboard's first example
SENTENCES = [
    "I am cold.",
    "Where is the station?",
    "She doesn't like apples.",
    "My brother bought a red car.",
    "We are going to the beach.",
    "Can you help me?",
    "The old man was reading a book.",
    "I have never seen such a house.",
    "Tom is waiting for you.",
    "It is raining again today.",
    "They live in a big city.",
    "Do you speak French?",
    "Our teacher gave us a lot of homework.",
    "Nobody knows where she went.",
    "Please close the window.",
    "Your sister plays the piano very well.",
]
APPS = {  # the pages served, by name; --before adds the dashboard of another checkout
    "minimal": ROOT / "benchmarks" / "classroom" / "minimal_app.py",
    "bare": ROOT / "benchmarks" / "classroom" / "bare_app.py",
    "dashboard": ROOT / "dashboard.py",
}
VIEWPORT = {"width": 1400, "height": 900}
DRAWN = (  # both heatmaps show the sentence typed (its first word), not the one before
    "(first) => [...document.querySelectorAll('.js-plotly-plot')].filter(p => "
    "p.querySelector('.heatmaplayer') && [...p.querySelectorAll('.xtick text')]"
    ".some(t => t.textContent === '1:' + first)).length >= 2"
)
# The run is over (nothing stale, no script running) and every chart is drawn.
SETTLED = """() => !document.querySelector(
    '[data-stale="true"], [data-testid="stStatusWidget"], [data-testid="stSkeleton"]') &&
  [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .every(c => c.querySelector('.marks'))"""
FRAMED = (  # both heatmaps frame output row n (1-based; a shorter output its last), settled
    "(n) => [...document.querySelectorAll('.js-plotly-plot')].filter(p => { "
    "const rows = (((p.data || [])[0] || {}).y || []).length || n; "
    "return ((p._fullLayout || {}).shapes || []).some(s => s.name === 'current step' && "
    "Math.round(s.y0 + 0.5) === Math.min(n, rows) - 1); }).length >= 2 && "
    f"({SETTLED})()"
)
WAIT = 120_000  # ms: however busy the machine, a page answers within this
SLOWDOWN = 1.0  # how many times slower the browser's CPU is made (--slowdown)


@contextmanager
def streamlit(app: Path, env: dict, wait: bool = True, profile: bool = False):
    """``streamlit run app -- OPENING`` on a free port; yields its URL (once it answers, with
    ``wait``). With ``profile``, each run reports its script time over the socket (Streamlit's
    page profile, sent where usage statistics are on)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", str(profile).lower(),
         "--", OPENING],
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    streamlit.server_pid = proc.pid  # for a caller that measures the server
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(480 if wait else 0):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def new_page(browser):
    """A fresh session in a fresh context (an empty cache), cut off from anything but this
    machine (the page profile would otherwise be posted to Streamlit's metrics host), its
    main thread slowed down ``SLOWDOWN`` times."""
    context = browser.new_context(viewport=VIEWPORT)
    context.route(re.compile(r"^(?!https?://127\.0\.0\.1)"), lambda route: route.abort())
    page = context.new_page()
    if SLOWDOWN > 1:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
    return page


def opened(page, url: str) -> float:
    """Seconds from opening ``url`` to the opening example's heatmaps drawn; returns once
    the run is over."""
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_function(DRAWN, arg=OPENING.split()[0], timeout=WAIT, polling="raf")
    drawn = time.perf_counter() - t0
    page.wait_for_function(SETTLED, timeout=WAIT, polling="raf")
    return drawn


def enter(page, sentence: str) -> tuple[float, float]:
    """Seconds from Enter to both heatmaps of ``sentence`` drawn, and to the page settled."""
    box = page.get_by_label("English sentence")
    box.fill(sentence)
    t0 = time.perf_counter()
    box.press("Enter")
    page.wait_for_function(DRAWN, arg=sentence.split()[0], timeout=WAIT, polling="raf")
    drawn = time.perf_counter() - t0
    page.wait_for_function(SETTLED, timeout=WAIT, polling="raf")
    return drawn, time.perf_counter() - t0


SLIDER_AT = """e => [Number(e.getAttribute('aria-valuenow') ?? e.value),
                     Number(e.getAttribute('aria-valuemax') ?? e.max)]"""  # ARIA or a range input


def step(page) -> float:
    """Seconds from one step of the slider to the page drawn on it: a step back where it
    stands on the last step (where the dashboard opens a new sentence), else a step on."""
    slider = page.get_by_role("slider").first
    now, last = slider.evaluate(SLIDER_AT)
    key, n = ("ArrowLeft", now - 1) if now == last else ("ArrowRight", now + 1)
    slider.focus()
    t0 = time.perf_counter()
    page.keyboard.press(key)
    page.wait_for_function(FRAMED, arg=int(n), timeout=WAIT, polling="raf")
    return time.perf_counter() - t0


def round_trip(browser, url: str, sentence: str, moves: int) -> dict[str, list[float]]:
    """One session: the opening page, Enter on ``sentence``, then ``moves`` step changes."""
    page = new_page(browser)
    times = {"open": [opened(page, url)]}
    times["enter"], times["enter_settled"] = ([t] for t in enter(page, sentence))
    times["step"] = [step(page) for _ in range(moves)]
    page.context.close()
    return times


def cold_start(browser, app: Path, env: dict) -> float:
    """Seconds from starting the server to the opening example's heatmaps drawn."""
    page = new_page(browser)
    t0 = time.perf_counter()
    with streamlit(app, env, wait=False) as url:
        while True:
            try:
                page.goto(url, timeout=WAIT)
                break
            except Exception:  # not listening yet
                if time.perf_counter() - t0 > WAIT / 1000:
                    raise
                time.sleep(0.05)
        page.wait_for_function(DRAWN, arg=OPENING.split()[0], timeout=WAIT, polling="raf")
        seconds = time.perf_counter() - t0
    page.context.close()
    return seconds


class Probe:
    """What a page receives over its websocket, and what its browser spends, gesture by
    gesture: bytes by element, the server's script time, the main thread's time and the
    JavaScript profile by library."""

    METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.send("Profiler.enable")
        # Thread time, not wall time: what the main thread spent, however busy the machine.
        self.cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        self.cdp.send("Profiler.setSamplingInterval", {"interval": 200})  # µs
        self.messages: list[tuple[ForwardMsg, int, float]] = []  # message, bytes, arrival (s)
        self.asked: list[float] = []  # when the page asked the server for a run
        self.cdp.on("Network.webSocketFrameReceived", self._received)
        self.cdp.on("Network.webSocketFrameSent", lambda e: self.asked.append(e["timestamp"]))

    def _received(self, event: dict) -> None:
        frame = event["response"]
        if frame["opcode"] == 2:  # binary: one ForwardMsg
            data = base64.b64decode(frame["payloadData"])
            self.messages.append((ForwardMsg.FromString(data), len(data), event["timestamp"]))

    def _metrics(self) -> dict[str, float]:
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] for m in metrics if m["name"] in self.METRICS}

    @contextmanager
    def gesture(self, into: dict):
        """Records one gesture into ``into``; the gesture waits for its own end, then this
        waits for the run's last message."""
        self.messages.clear()
        self.asked.clear()
        before = self._metrics()
        self.cdp.send("Profiler.start")
        yield
        deadline = time.monotonic() + WAIT / 1000
        while not any(m.WhichOneof("type") == "script_finished" for m, *_ in self.messages):
            if time.monotonic() > deadline:
                raise TimeoutError("the run never finished")
            self.page.wait_for_timeout(20)
        profile = self.cdp.send("Profiler.stop")["profile"]
        after = self._metrics()
        into["browser_ms"] = {k: (after[k] - before[k]) * 1000 for k in self.METRICS}
        into["js_ms"] = _by_library(profile)
        into["sent"] = _by_element(self.messages)
        into["arrived_ms"] = _arrivals(self.messages, self.asked[0] if self.asked else 0.0)
        into["script_ms"] = [
            m.page_profile.exec_time / 1000
            for m, *_ in self.messages
            if m.WhichOneof("type") == "page_profile"
        ]
        into["commands_ms"] = Counter()
        for m, *_ in self.messages:
            if m.WhichOneof("type") == "page_profile":
                for c in m.page_profile.commands:
                    into["commands_ms"][c.name] += c.time / 1000


def _element(msg: ForwardMsg) -> str:
    kind = msg.WhichOneof("type")
    if kind != "delta":
        return kind or "?"
    delta = msg.delta.WhichOneof("type")
    return msg.delta.new_element.WhichOneof("type") if delta == "new_element" else delta


def _arrivals(messages: list[tuple[ForwardMsg, int, float]], asked: float) -> dict[str, float]:
    """Milliseconds from the page's request to the second heatmap's message and to the
    run's end, as the browser received them."""
    heatmaps = [at for m, _, at in messages if _element(m) == "plotly_chart"]
    ends = [at for m, _, at in messages if m.WhichOneof("type") == "script_finished"]
    return {
        "heatmaps": (heatmaps[1] - asked) * 1000 if len(heatmaps) > 1 else float("nan"),
        "finished": (ends[-1] - asked) * 1000 if ends else float("nan"),
    }


def _by_element(messages: list[tuple[ForwardMsg, int, float]]) -> dict[str, tuple[int, int]]:
    """Messages and bytes per element type (``ref_hash``: a message the browser already had,
    sent as its hash)."""
    sent: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for msg, size, _ in messages:
        sent[_element(msg)][0] += 1
        sent[_element(msg)][1] += size
    return {k: tuple(v) for k, v in sent.items()}


def _by_library(profile: dict) -> dict[str, float]:
    """Self time (ms) of a CPU profile by the script file it ran in (Streamlit loads each
    library in a chunk of its own: PlotlyChart, embed (vega), DataFrame, katex...)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    spent: Counter = Counter()
    for sample, dt in zip(profile.get("samples", []), profile.get("timeDeltas", []), strict=True):
        frame = nodes[sample]["callFrame"]
        url = frame["url"].rsplit("/", 1)[-1]
        spent[url.split(".")[0] if url else frame["functionName"]] += dt / 1000
    spent.pop("(idle)", None)
    return dict(spent)


def breakdown(browser, url: str, sentence: str) -> dict[str, dict]:
    """The opening page, Enter and one step change, each with the probe on."""
    page = new_page(browser)
    probe = Probe(page)
    found: dict[str, dict] = {"open": {}, "enter": {}, "step": {}}
    with probe.gesture(found["open"]):
        opened(page, url)
    with probe.gesture(found["enter"]):
        enter(page, sentence)
    with probe.gesture(found["step"]):
        step(page)
    page.context.close()
    return found


FIGURES = {  # what each time is, in the report
    "open": "a new visitor: page load → both heatmaps",
    "enter": "Enter → both heatmaps",
    "enter_settled": "Enter → page settled",
    "step": "a step change",
    "cold_start": "cold start → first heatmaps",
}


def _ms(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else float("nan")


def _ratio(pages: dict, name: str, figure: str) -> float:
    """The median over rounds of a page's time over the minimal page's in the same round."""
    pairs = zip(pages[name].get(figure, []), pages["minimal"].get(figure, []), strict=False)
    return statistics.median(a / b for a, b in pairs) if pages[name].get(figure) else float("nan")


def report_times(times: dict) -> None:
    """Medians in ms, and ratios to the minimal page (the median of the per-round ratios)."""
    others = [name for name in times if name != "minimal"]
    print("| | " + " | ".join(times) + " | " + " | ".join(f"{n} / minimal" for n in others) + " |")
    print("|---" * (len(times) + len(others) + 1) + "|")
    for figure, label in FIGURES.items():
        ms = [_ms(values.get(figure, [])) for values in times.values()]
        ratios = [_ratio(times, name, figure) for name in others]
        print(f"| {label} | " + " | ".join(f"{v:,.0f} ms" for v in ms) + " | "
              + " | ".join(f"{r:.2f}x" for r in ratios) + " |")  # fmt: skip


def _mean(runs: list[dict], key: str) -> Counter:
    total: Counter = Counter()
    for r in runs:
        total.update({k: v / len(runs) for k, v in r[key].items()})
    return total


def report_breakdown(found: dict) -> None:
    """Per page and gesture: the server's script time, what was sent and when it arrived, the
    browser's main thread; then, per gesture, bytes by element, JavaScript time by library
    and the server's slowest commands."""
    print("\n| page, gesture | server script | runs | sent | 2nd heatmap received | run ended "
          "| browser main thread | of it JS | layout | style |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in found:
        for gesture, runs in _gestures(found[name]):
            arrived = {
                k: statistics.median(r["arrived_ms"][k] for r in runs)
                for k in ("heatmaps", "finished")
            }
            browser = {
                k: statistics.median(r["browser_ms"][k] for r in runs) for k in Probe.METRICS
            }
            kb = statistics.median(sum(b for _, b in r["sent"].values()) for r in runs) / 1000
            print(
                f"| {name}, {gesture} "
                f"| {statistics.median(sum(r['script_ms']) for r in runs):.0f} ms "
                f"| {len(runs[0]['script_ms'])} "
                f"| {kb:.1f} kB "
                f"| {arrived['heatmaps']:.0f} ms | {arrived['finished']:.0f} ms "
                f"| {browser['TaskDuration']:.0f} ms | {browser['ScriptDuration']:.0f} ms "
                f"| {browser['LayoutDuration']:.0f} ms | {browser['RecalcStyleDuration']:.0f} ms |"
            )  # fmt: skip
    for name in found:
        for gesture, runs in _gestures(found[name]):
            sent = _mean([{"b": {k: b for k, (_, b) in r["sent"].items()}} for r in runs], "b")
            print(f"\n{name}, {gesture}:")
            print("- kB sent by element: " + ", ".join(
                f"{k} {b / 1000:.1f}" for k, b in sent.most_common(8)
            ))  # fmt: skip
            print("- JS ms by library: " + ", ".join(
                f"{k} {v:.0f}" for k, v in _mean(runs, "js_ms").most_common(8)
            ))  # fmt: skip
            print("- server ms by command: " + ", ".join(
                f"{k} {v:.0f}" for k, v in _mean(runs, "commands_ms").most_common(6)
            ))  # fmt: skip


def _gestures(rounds: list[dict]):
    for gesture in ("open", "enter", "step"):
        if runs := [r[gesture] for r in rounds]:
            yield gesture, runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoints", default=str(ROOT / "checkpoints"))
    ap.add_argument("--rounds", type=int, default=8, help="with --breakdown, at most 12")
    ap.add_argument("--moves", type=int, default=3, help="step changes per round")
    ap.add_argument("--cold", type=int, default=3, help="cold starts of each page")
    ap.add_argument("--breakdown", type=int, default=2, help="rounds with the instruments on")
    ap.add_argument("--before", help="a checkout whose dashboard.py is served beside this one's")
    ap.add_argument(
        "--slowdown", type=float, default=1.0,
        help="run each page's main thread this many times slower (Chromium's CPU throttling), "
        "as on a school laptop; the servers keep this machine's speed",
    )  # fmt: skip
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    global SLOWDOWN
    SLOWDOWN = a.slowdown
    env = {"ATTNVIZ_CHECKPOINTS": a.checkpoints}
    apps = {**APPS, **({"before": Path(a.before) / "dashboard.py"} if a.before else {})}
    warm = SENTENCES[:2]
    timed = SENTENCES[2 : 2 + a.rounds]
    probed = SENTENCES[2 + a.rounds : 2 + a.rounds + a.breakdown]
    times = {name: defaultdict(list) for name in apps}
    probes: dict[str, list] = {name: [] for name in apps}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=a.chromium, headless=True)
        with ExitStack() as servers:
            urls = {
                name: servers.enter_context(streamlit(app, env, profile=True))
                for name, app in apps.items()
            }
            for sentence in warm:  # load the models, warm the servers and the browser
                for url in urls.values():
                    round_trip(browser, url, sentence, 1)
            # The pages take turns, in an order reversed every other round.
            for k, sentence in enumerate(timed):
                for name in sorted(apps, reverse=k % 2 == 1):
                    for figure, values in round_trip(
                        browser, urls[name], sentence, a.moves
                    ).items():
                        times[name][figure].extend(values)
                print(f"round {k + 1} done", file=sys.stderr, flush=True)
            for k, sentence in enumerate(probed):
                for name in sorted(apps, reverse=k % 2 == 1):
                    probes[name].append(breakdown(browser, urls[name], sentence))
        for k in range(a.cold):  # no other server runs now
            for name in sorted(set(apps) - {"bare"}, reverse=k % 2 == 1):
                times[name]["cold_start"].append(cold_start(browser, apps[name], env))
        browser.close()
    print("## Times, medians over rounds\n")
    report_times(times)
    if a.breakdown:
        print("\n## Where the time goes (medians over the breakdown rounds)")
        report_breakdown(probes)


if __name__ == "__main__":
    main()
