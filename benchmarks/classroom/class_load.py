"""A classroom in one command: N visitors on one dashboard server (or on nginx in front of
several), each typing a sentence of its own, changing the step and switching the view, for R
rounds; most speak Streamlit's WebSocket protocol (protocol_session.py), a few are real
Chromium pages through Playwright beside them. Reports p50 / p95 / max of page open, Enter →
both heatmaps and step change, failed opens, errors, exceptions and cross-talk (each visitor
checks that its heatmaps hold its own words), the server's resident memory during the run and
after the sessions close, and draws the latency over time beside the number of open sessions.

    python benchmarks/classroom/class_load.py [--page dashboard|minimal|both] [--sessions 40]
        [--browsers 4] [--rounds 3] [--moves 2] [--no-views] [--retype]
        [--scenario spread|burst] [--over SECONDS] [--sweep 40,80,120]
        [--url http://127.0.0.1:PORT --pids PID,PID] [--out DIR]

Without ``--url`` it starts each page's server itself (dashboard_latency.streamlit) and warms
it with one visit; with ``--url`` it drives a server already running (nginx in front of
replicas: deploy/run_replicas.sh), whose processes ``--pids`` names for the memory figures.
``--scenario spread`` opens the sessions evenly over ``--over`` seconds (20 by default);
``burst``, all within 3 ("now type your sentence"). ``--sweep`` runs the scenario at each
session count in turn, on a fresh server each, and stops at the first whose p95 Enter passes
1 s: the capacity. Bounds: loopback addresses only; at most 1,000 sessions, 50 rounds and
``--max-seconds`` (900 by default) per run, after which every visitor stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import random
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).parent))
import dashboard_latency
from class_report import Gesture, Outcome, capacity, figure, summary, table, times
from concurrent_sessions import X_LABELS, memory_mb
from dashboard_latency import APPS, ROOT, enter, new_page, opened, step, streamlit
from protocol_session import Heatmap, ProtocolSession, holds

TEMPLATES = (  # each round's sentence; consecutive rounds start with different words
    "Student {n} sees a red car in the street.",
    "Yesterday student {n} bought a small house.",
    "The teacher gave student {n} a new book.",
    "Where did student {n} leave the old bicycle?",
)
MAX_SESSIONS, MAX_ROUNDS = 1000, 50


@dataclass(frozen=True)
class Plan:
    """One run: how many visitors, when they come and what they do."""

    sessions: int = 40  # protocol clients
    browsers: int = 4  # Chromium pages beside them
    rounds: int = 3  # Enter, the step changes and two view switches, per round
    moves: int = 2  # step changes per round
    views: bool = True  # a view switch there and back per round
    retype: bool = False  # each round types the visitor's first sentence again
    over: float = 20.0  # seconds over which the sessions open, evenly spaced
    think: float = 2.0  # mean seconds a visitor waits before each gesture (0.5x to 1.5x)
    timeout: float = 30.0  # seconds a gesture may take before it counts as failed
    open_timeout: float = 10.0  # seconds a page may take to open before it counts as failed
    max_seconds: float = 900.0  # the run stops here, whatever is left
    seed: int = 0  # of the think times

    def __post_init__(self):
        if not 0 <= self.sessions <= MAX_SESSIONS or not 0 <= self.browsers <= 50:
            raise ValueError(f"sessions must be 0..{MAX_SESSIONS} and browsers 0..50")
        if not 1 <= self.rounds <= MAX_ROUNDS or self.max_seconds > 3600:
            raise ValueError(f"rounds must be 1..{MAX_ROUNDS}, max_seconds at most 3600")


def sentence(visitor: int, round_: int) -> str:
    """A sentence no other visitor types, different each round."""
    return TEMPLATES[round_ % len(TEMPLATES)].format(n=visitor)


def loopback(url: str) -> bool:
    """Whether every address ``url``'s host resolves to is this machine's loopback."""
    host = urlsplit(url).hostname or ""
    try:
        found = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(a).is_loopback for a in found)


class Clock:
    """Seconds since the run started, and the run's end."""

    def __init__(self, plan: Plan):
        self.t0, self.end = time.perf_counter(), plan.max_seconds

    def __call__(self) -> float:
        return time.perf_counter() - self.t0

    def left(self) -> float:
        return self.end - self()


async def _timed(out: Outcome, kind: str, clock: Clock, coro) -> float:
    started = clock()
    try:
        seconds = await coro
    except BaseException:
        out.gestures.append(Gesture(kind, started, None))
        raise
    out.gestures.append(Gesture(kind, started, seconds))
    return seconds


def _foreign(session: ProtocolSession, typed: str) -> int:
    return sum(not holds(m, typed) for m in session.last_run.heatmaps)


async def protocol_visitor(url: str, n: int, plan: Plan, clock: Clock, at: float) -> Outcome:
    """Opens the page at ``at`` seconds; each round types its sentence, moves the step and
    switches the view there and back, after a think time before each gesture."""
    out, rng = Outcome(f"protocol {n}"), random.Random(plan.seed * 100_003 + n)
    session = ProtocolSession(url, plan.timeout)

    async def think() -> None:
        await asyncio.sleep(plan.think * rng.uniform(0.5, 1.5))
        if clock.left() <= 0:
            raise TimeoutError("the run's time is over")

    await asyncio.sleep(max(0.0, at - clock()))
    try:
        await _timed(out, "open", clock, asyncio.wait_for(session.open(), plan.open_timeout))
        out.opened = clock()
        for r in range(plan.rounds):
            typed = sentence(n, 0 if plan.retype else r)
            await think()
            await _timed(out, "enter", clock, session.enter(typed))
            out.crosstalk += _foreign(session, typed)
            for _ in range(plan.moves):
                await think()
                shown, last = session.step_range()
                await _timed(out, "step", clock, session.step(shown + 1 if shown < last else 1))
                out.crosstalk += _foreign(session, typed)
            # to the second view (the comparison) and back
            if plan.views and (views := session.views()):
                await think()
                await _timed(out, "view", clock, session.view(views[1], heatmaps=0))
                await think()
                await _timed(out, "view", clock, session.view(views[0], heatmaps=2))
                out.crosstalk += _foreign(session, typed)
    except Exception as e:
        if not (isinstance(e, TimeoutError) and clock.left() <= 0):
            out.errors.append(f"{type(e).__name__}: {e}".rstrip(": "))
    finally:
        with contextlib.suppress(Exception):
            await session.close()
        out.closed = clock() if out.opened is not None else None
        out.exceptions = len(session.exceptions)
    return out


def browser_visitor(url: str, n: int, plan: Plan, clock: Clock, at: float, chromium: str):
    """A real Chromium page (its own browser, in its own thread: Playwright's sync API is
    per thread) doing what a protocol visitor does but the view switch; it checks the
    heatmaps' x labels as drawn. Returns its Outcome."""
    from playwright.sync_api import sync_playwright

    out = Outcome(f"browser {n}")
    time.sleep(max(0.0, at - clock()))

    def timed(kind, act):
        started = clock()
        try:
            seconds = act()
        except BaseException:
            out.gestures.append(Gesture(kind, started, None))
            raise
        out.gestures.append(Gesture(kind, started, seconds))

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True)
        try:
            page = new_page(browser)
            timed("open", lambda: opened(page, url))
            out.opened = clock()
            for r in range(plan.rounds):
                if clock.left() <= 0:
                    break
                # numbers no protocol visitor types
                typed = sentence(1000 + n, 0 if plan.retype else r)
                timed("enter", lambda s=typed: enter(page, s)[0])
                shown = [
                    Heatmap([x.split(":", 1)[-1] for x in labels], None)
                    for labels in page.evaluate(X_LABELS)
                ]
                out.crosstalk += sum(not holds(m, typed) for m in shown)
                for _ in range(plan.moves):
                    timed("step", lambda: step(page))
            out.exceptions = page.locator('[data-testid="stException"]').count()
        except Exception as e:
            out.errors.append(f"{type(e).__name__}: {str(e).splitlines()[0]}")
        finally:
            out.closed = clock() if out.opened is not None else None
            browser.close()
    return out


class MemoryWatch:
    """The servers' summed resident memory, sampled every second in a thread."""

    def __init__(self, pids: list[int], clock: Clock):
        self.pids, self.clock = pids, clock
        self.samples: list[tuple[float, float]] = []  # (seconds since the start, MB)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def now(self) -> float:
        total = 0.0
        for pid in self.pids:
            with contextlib.suppress(OSError):
                total += memory_mb(pid)[0]
        return total

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
            self.samples.append((self.clock(), self.now()))

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


async def _visitors(url: str, plan: Plan, clock: Clock, chromium: str) -> list[Outcome]:
    spacing = plan.over / max(plan.sessions, 1)
    loop = asyncio.get_running_loop()
    threads = ThreadPoolExecutor(max(plan.browsers, 1))  # a thread each, the whole run
    browsers = [
        loop.run_in_executor(
            threads,
            browser_visitor,
            url,
            b,
            plan,
            clock,
            (b + 0.5) * plan.over / plan.browsers,
            chromium,
        )
        for b in range(plan.browsers)
    ]
    protocol = [protocol_visitor(url, n, plan, clock, n * spacing) for n in range(plan.sessions)]
    return list(await asyncio.gather(*protocol, *browsers))


def run_class(
    url: str, pids: list[int], plan: Plan, after: float, chromium: str, warm: list[str]
) -> dict:
    """One class on the server at ``url``: a warm-up visit to each of ``warm`` (the server
    itself, or each replica behind it), the visitors, then ``after`` seconds of watching the
    memory settle. Returns the outcomes and the memory figures."""
    for address in [url, *warm]:
        if not loopback(address):
            raise SystemExit(f"{address}: class_load talks to this machine's loopback only")
    once = Plan(sessions=1, rounds=1, think=0.1, open_timeout=120.0)  # a cold server loads first
    for address in warm or [url]:
        visit = asyncio.run(protocol_visitor(address, 10_000, once, Clock(once), 0))
        if visit.errors:
            raise SystemExit(f"{address}: the warm-up visit failed: {visit.errors[0]}")
    time.sleep(2.0)
    clock = Clock(plan)
    with MemoryWatch(pids, clock) as memory:
        idle = memory.now()
        outcomes = asyncio.run(_visitors(url, plan, clock, chromium))
        ended = clock()
        peak = max([mb for _, mb in memory.samples] + [memory.now()])
        time.sleep(after)
    return {
        "outcomes": outcomes,
        "memory": {
            "idle": idle,
            "peak": peak,
            "after": memory.now(),
            "after_seconds": after,
            "ended": ended,
            "samples": memory.samples,
        },
    }


def _served(page: str, url: str | None, pids: list[int], checkpoints: str):
    """A context yielding (url, pids): the one given, or a fresh server of ``page``."""
    if url:
        return contextlib.nullcontext((url, pids))

    @contextlib.contextmanager
    def fresh():
        with streamlit(APPS[page], {"ATTNVIZ_CHECKPOINTS": checkpoints}) as started:
            yield started, [streamlit.server_pid]

    return fresh()


def _save(out: Path, name: str, found: dict, plan: Plan, png: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    record = {
        "plan": asdict(plan),
        "memory": found["memory"],
        "outcomes": [asdict(o) for o in found["outcomes"]],
    }
    (out / f"{name}.json").write_text(json.dumps(record, indent=1))
    fig = figure(name, found["outcomes"], found["memory"])
    fig.write_html(out / f"{name}.html", include_plotlyjs=True)
    if png:
        fig.write_image(out / f"{name}.png")


def main() -> int:
    a = _arguments()
    if a.url and a.page == "both":
        raise SystemExit("--url serves one page: name it with --page dashboard or minimal")
    out = Path(a.out or ROOT / "benchmarks" / "out" / time.strftime("class_load-%Y%m%d-%H%M%S"))
    dashboard_latency.WAIT = int(a.timeout * 1000)  # the browsers' waits, as the protocol's
    bad = 0
    for page in ["dashboard", "minimal"] if a.page == "both" else [a.page]:
        bad += classes(page, a, out)
    print(f"results, pictures: {out}")
    return 1 if bad else 0


def classes(page: str, a: argparse.Namespace, out: Path) -> int:
    """The class on ``page``, or each class of the sweep until p95 Enter passes 1 s; prints
    each one's table (and the capacity) and saves its outcomes and plot under ``out``.
    Returns the number of problems seen: failed opens, errors, exceptions, cross-talk."""
    over = a.over if a.over is not None else (3.0 if a.scenario == "burst" else 20.0)
    pids = [int(p) for p in a.pids.split(",") if p] if a.pids else []
    warm = [u for u in a.warm.split(",") if u] if a.warm else []
    sweep, bad = {}, 0
    for n in [int(n) for n in a.sweep.split(",")] if a.sweep else [a.sessions]:
        plan = Plan(
            sessions=n, browsers=a.browsers, rounds=a.rounds, moves=a.moves, views=a.views,
            retype=a.retype, over=over, think=a.think, timeout=a.timeout,
            open_timeout=a.open_timeout, max_seconds=a.max_seconds, seed=a.seed,
        )  # fmt: skip
        with _served(page, a.url, pids, a.checkpoints) as (url, watched):
            found = run_class(url, watched, plan, a.after, a.chromium, warm)
        name = f"{page}-{a.scenario}-{n}"
        title = f"{name}: {n} sessions {a.scenario} over {over:g} s, {a.rounds} rounds"
        print(table(title, found["outcomes"], found["memory"]) + "\n", flush=True)
        _save(out, name, found, plan, a.png)
        bad += sum(len(o.errors) + o.exceptions + o.crosstalk for o in found["outcomes"])
        sweep[n] = found["outcomes"]
        if a.sweep and summary(times(found["outcomes"], "enter"))[1] > 1.0:
            break
    if a.sweep:
        held, passed = capacity(sweep)
        print(f"{page}: p95 Enter held within 1 s up to {held} sessions; "
              f"passed it at {passed or 'none of those tried'}\n")  # fmt: skip
    return bad


def _arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", choices=["dashboard", "minimal", "both"], default="dashboard")
    ap.add_argument("--sessions", type=int, default=40, help="protocol clients")
    ap.add_argument("--browsers", type=int, default=4, help="real Chromium pages beside them")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--moves", type=int, default=2, help="step changes per round")
    ap.add_argument(
        "--no-views", dest="views", action="store_false", help="no view switch in a round"
    )
    ap.add_argument(
        "--retype", action="store_true", help="each round types the visitor's first sentence again"
    )
    ap.add_argument("--scenario", choices=["spread", "burst"], default="spread")
    ap.add_argument("--over", type=float, help="seconds the opens spread over (20; burst: 3)")
    ap.add_argument("--think", type=float, default=2.0, help="mean seconds before a gesture")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds a gesture may take")
    ap.add_argument("--open-timeout", type=float, default=10.0, help="seconds to open the page")
    ap.add_argument("--max-seconds", type=float, default=900.0, help="the run stops here")
    ap.add_argument(
        "--after",
        type=float,
        default=180.0,
        help="seconds to watch the memory after the sessions close",
    )
    ap.add_argument("--sweep", help="session counts to try in turn, e.g. 40,80,120,160,200")
    ap.add_argument("--url", help="a server already running (on loopback), e.g. nginx's")
    ap.add_argument("--pids", help="with --url: the server processes to measure, comma-separated")
    ap.add_argument("--warm", help="with --url: URLs to visit once first (each replica's)")
    ap.add_argument("--checkpoints", default=str(ROOT / "checkpoints"))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="folder for the JSON and the pictures")
    ap.add_argument("--png", action="store_true", help="also a PNG of the plot (kaleido)")
    return ap.parse_args()


if __name__ == "__main__":
    sys.exit(main())
