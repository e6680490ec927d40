"""What one visitor's gestures cost the server: CPU seconds and bytes sent, per gesture.

    python benchmarks/classroom/gesture_cost.py [--page dashboard|minimal] [--repeat 20]

One protocol visitor (protocol_session.py) at a time, on a fresh server: it opens the page,
types a sentence of its own, types it again (as issue 55's class does: its translations are
then cached), moves the step and switches the view there and back, ``--repeat`` times in a
row (a new visitor each time, so every open is a new session's first page). For each
kind of gesture it reports the median of the server process's CPU seconds (user + system, all
its threads and the children it ran, from /proc; the mean too, as /proc counts in ticks of
10 ms) and of the bytes of the messages the server sent. CPU time, unlike latency, hardly
changes when other work shares the machine, so these figures hold on a busy machine; a core's
worth of them is what bounds how many visitors one server process holds (a rerun runs under
Python's one lock): a class of N that each open, type and move within S seconds needs
N x (their sum) / S of a core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from class_load import sentence
from concurrent_sessions import family
from dashboard_latency import APPS, ROOT, streamlit
from protocol_session import ProtocolSession

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` and its live descendants (the server's
    decoding process), all their threads, and of the children they have waited for (eflomal,
    which the page runs to check a translation)."""
    total = 0
    for member in family(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        total += sum(int(f) for f in fields[11:15])
    return total / TICK


class CountedSession(ProtocolSession):
    """A protocol visitor that counts the bytes of the messages the server sends it."""

    received = 0

    def _read(self, msg, run) -> None:
        self.received += msg.ByteSize()
        super()._read(msg, run)


async def _gesture(pid: int, costs: dict, kind: str, session: CountedSession, coro) -> None:
    await asyncio.sleep(0.3)  # let the server finish what the last gesture left (a cache write)
    cpu, sent = cpu_seconds(pid), session.received
    await coro
    costs.setdefault(kind, []).append((cpu_seconds(pid) - cpu, session.received - sent))


async def _visitor(url: str, pid: int, n: int, costs: dict) -> None:
    session = CountedSession(url, timeout=60)
    try:
        await _gesture(pid, costs, "open", session, session.open())
        await _gesture(pid, costs, "enter", session, session.enter(sentence(n, 0)))
        await _gesture(pid, costs, "enter again", session, session.enter(sentence(n, 0)))
        shown, last = session.step_range()
        await _gesture(pid, costs, "step", session, session.step(shown + 1 if shown < last else 1))
        if views := session.views():
            await _gesture(pid, costs, "view there", session, session.view(views[1], heatmaps=0))
            await _gesture(pid, costs, "view back", session, session.view(views[0], heatmaps=2))
    finally:
        await session.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--page", choices=["dashboard", "minimal"], default="dashboard")
    p.add_argument("--repeat", type=int, default=20, help="visitors, one after another")
    p.add_argument("--checkpoints", default=str(ROOT / "checkpoints"))
    a = p.parse_args()
    costs: dict[str, list] = {}
    with streamlit(APPS[a.page], {"ATTNVIZ_CHECKPOINTS": a.checkpoints}) as url:
        pid = streamlit.server_pid
        asyncio.run(_visitor(url, pid, 10_000, {}))  # warm: models loaded, caches filled once
        for n in range(a.repeat):
            asyncio.run(_visitor(url, pid, n, costs))
    print(
        f"| {a.page}: gesture | server CPU, ms: median / mean of {a.repeat} | bytes sent (median) |"
    )
    print("|---|---|---|")
    for kind, rows in costs.items():
        cpu = [c * 1000 for c, _ in rows]  # in ticks of 10 ms: the mean resolves finer
        sent = statistics.median(b for _, b in rows)
        print(
            f"| {kind} | {statistics.median(cpu):.0f} / {statistics.mean(cpu):.0f} | {sent:,.0f} |"
        )


if __name__ == "__main__":
    main()
