"""A class on a static handout: N simulated students, arriving evenly over D seconds, each
fetching every file of the site (the index, the shared plotly.min.js, every sentence page)
over one keep-alive HTTP/1.1 connection where the server keeps it, from any static server on
loopback.

Bounded in count and time: at most --open connections at once (students beyond wait their
turn, and the wait counts in their time), each request at most --timeout seconds, and the
whole run stops by itself at --limit seconds, counting the students left unfinished as
failures. Prints the students finished, the failures, p50/p95/max of a student's whole fetch
and of one request, and the bytes moved.

    python -m http.server 8700 --bind 127.0.0.1 --directory DIR &
    python benchmarks/classroom/static_load.py --url http://127.0.0.1:8700 --folder DIR \\
        --students 1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

import numpy as np


class Connection:
    """One student's connection, kept alive where the server keeps it (nginx), opened again
    for each request where the server closes it (python -m http.server speaks HTTP/1.0)."""

    def __init__(self, host: str, timeout: float):
        self.host, self.timeout = host, timeout
        self.reader = self.writer = None

    async def get(self, path: str) -> int:
        """GET ``path``; the body's bytes (raises on anything but 200)."""
        if self.writer is None:
            name, port = self.host.rsplit(":", 1)
            connecting = asyncio.open_connection(name, int(port))
            self.reader, self.writer = await asyncio.wait_for(connecting, self.timeout)
        self.writer.write(f"GET /{path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), self.timeout)
        lines = head.decode("latin-1").split("\r\n")
        if lines[0].split()[1] != "200":
            raise ConnectionError(lines[0])
        pairs = (line.partition(":") for line in lines[1:])
        fields = {k.strip().lower(): v.strip() for k, _, v in pairs}
        length = int(fields["content-length"])
        await asyncio.wait_for(self.reader.readexactly(length), self.timeout)
        if lines[0].startswith("HTTP/1.0") or fields.get("connection", "").lower() == "close":
            self.close()
        return length

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


async def _student(url: str, files: list[str], timeout: float, gate, record) -> None:
    connection = Connection(url.split("://", 1)[1].rstrip("/"), timeout)
    t0 = time.perf_counter()
    async with gate:
        try:
            for path in files:
                t = time.perf_counter()
                size = await connection.get(path)  # (not `+= await`: it would lose updates)
                record["bytes"] += size
                record["requests"].append(time.perf_counter() - t)
            record["students"].append(time.perf_counter() - t0)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError) as e:
            record["failures"].append(type(e).__name__)
        finally:
            connection.close()


async def run(args) -> dict:
    folder = Path(args.folder)
    pages = sorted(p.name for p in folder.glob("sentence-*.html"))
    files = ["index.html", "plotly.min.js", *pages]
    record = {"students": [], "requests": [], "failures": [], "bytes": 0}
    gate = asyncio.Semaphore(args.open)
    tasks = []
    t0 = time.perf_counter()
    for i in range(args.students):
        await asyncio.sleep(max(0.0, t0 + i * args.over / args.students - time.perf_counter()))
        tasks.append(asyncio.create_task(_student(args.url, files, args.timeout, gate, record)))
    left = t0 + args.limit - time.perf_counter()
    _, pending = await asyncio.wait(tasks, timeout=max(left, 0))
    for task in pending:
        task.cancel()
    wall = time.perf_counter() - t0
    pct = lambda xs, q: round(float(np.percentile(xs, q)), 3) if xs else None  # noqa: E731
    return {
        "url": args.url, "students": args.students, "over_s": args.over, "files": len(files),
        "finished": len(record["students"]), "failed": len(record["failures"]) + len(pending),
        "failures": sorted(set(record["failures"])) + (["unfinished"] if pending else []),
        "student_p50_s": pct(record["students"], 50), "student_p95_s": pct(record["students"], 95),
        "student_max_s": pct(record["students"], 100),
        "request_p50_s": pct(record["requests"], 50), "request_p95_s": pct(record["requests"], 95),
        "request_max_s": pct(record["requests"], 100),
        "requests": len(record["requests"]), "gigabytes": round(record["bytes"] / 1e9, 2),
        "wall_s": round(wall, 1),
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="the static server, http://HOST:PORT")
    ap.add_argument("--folder", required=True, help="the handout it serves (to list its files)")
    ap.add_argument("--students", type=int, default=1000)
    ap.add_argument("--over", type=float, default=20.0, help="seconds over which they arrive")
    ap.add_argument("--open", type=int, default=256, help="connections open at once, at most")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per request, at most")
    ap.add_argument("--limit", type=float, default=180.0, help="seconds the whole run may take")
    print(json.dumps(asyncio.run(run(ap.parse_args()))))


if __name__ == "__main__":
    main()
