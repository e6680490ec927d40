"""Ten visitors on one dashboard server at once, for a minute: each types its own sentences
over and over and must always see its own sentence's heatmaps, never another's, and never an
exception. Prints the translations each visitor checked, the slowest answer, and the server's
memory (resident now and at its peak, from /proc).

    python benchmarks/classroom/concurrent_sessions.py [--checkpoints checkpoints] [--sessions 10]
        [--seconds 60]

Exits 1 if any visitor saw another's sentence or an exception. Needs /usr/bin/chromium and
Playwright (scripts/install-test-deps.sh); uses dashboard_latency.py's server helper.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).parent))
from dashboard_latency import ROOT, streamlit

WORDS = ["cat", "dog", "house", "car", "book", "man", "woman", "train", "city", "river"]
X_LABELS = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .filter(p => p.querySelector('.heatmaplayer'))
    .map(p => [...p.querySelectorAll('.xtick text')].map(t => t.textContent))"""


def sentences(visitor: int) -> list[str]:
    """Sentences no other visitor types: each names the visitor's own word and number."""
    word = WORDS[visitor % len(WORDS)]
    return [f"I see the {word} number {visitor} today.", f"Where is the {word} {visitor}?"]


async def visit(browser, url: str, visitor: int, seconds: float) -> dict:
    page = await browser.new_page(viewport={"width": 1400, "height": 900})
    await page.goto(url)
    box = page.get_by_label("English sentence")
    await box.wait_for(timeout=180_000)
    checked, wrong, slowest = 0, [], 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for sentence in sentences(visitor):
            await box.fill(sentence)
            t0 = time.perf_counter()
            await box.press("Enter")
            marker = f"{len(sentence.split()) - 1}:{sentence.split()[-2]}"
            await page.wait_for_function(
                f"() => document.body.innerText.includes({marker!r}) && "
                "document.querySelectorAll('[data-stale=\"true\"]').length === 0",
                timeout=180_000,
            )
            slowest = max(slowest, time.perf_counter() - t0)
            for labels in await page.evaluate(X_LABELS):
                words = [label.split(":", 1)[1] for label in labels]
                if str(visitor) not in words or WORDS[visitor % len(WORDS)] not in words:
                    wrong.append((sentence, words))
            checked += 1
    errors = await page.locator('[data-testid="stException"]').count()
    await page.close()
    return {
        "visitor": visitor,
        "checked": checked,
        "wrong": wrong,
        "errors": errors,
        "slowest": slowest,
    }


def family(pid: int) -> list[int]:
    """Process ``pid`` and its live descendants (a dashboard server and its decoding
    process, attnviz_ui/serving/decoder_process.py), from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo += children.get(found[-1], [])
    return found


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) megabytes of process ``pid`` and its live descendants (the
    sum of each one's peak)."""
    total = [0.0, 0.0]
    for member in family(pid):
        try:
            text = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines())
        if "VmRSS" not in fields:  # a zombie (an eflomal run not yet waited for) holds none
            continue
        for k, key in enumerate(("VmRSS", "VmHWM")):
            total[k] += int(fields[key].split()[0]) / 1024
    return total[0], total[1]


async def run(url: str, sessions: int, seconds: float, chromium: str) -> list[dict]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, headless=True)
        results = await asyncio.gather(*(visit(browser, url, v, seconds) for v in range(sessions)))
        await browser.close()
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoints", default=str(ROOT / "checkpoints"))
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    with streamlit(ROOT / "dashboard.py", {"ATTNVIZ_CHECKPOINTS": a.checkpoints}) as url:
        pid = streamlit.server_pid
        results = asyncio.run(run(url, a.sessions, a.seconds, a.chromium))
        resident, peak = memory_mb(pid)
    bad = 0
    for r in results:
        bad += len(r["wrong"]) + r["errors"]
        print(
            f"visitor {r['visitor']}: {r['checked']} translations checked, "
            f"{len(r['wrong'])} showing another's sentence, {r['errors']} exceptions, "
            f"slowest {r['slowest']:.1f} s"
        )
    print(f"server memory: {resident:.0f} MB resident, {peak:.0f} MB peak")
    print("OK" if not bad else f"FAILED: {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
