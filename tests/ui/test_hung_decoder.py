"""A decoding process that hangs in the middle of a class: a real server, sessions speaking
Streamlit's protocol (benchmarks/classroom/protocol_session.py), its decoding process stopped
with SIGSTOP once the class has opened. The request it holds waits out the bound, then is
decoded in the server; the child is replaced; every session gets its own translation."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from ..benchmarks.modules import benchmark
from ..helpers import ROOT

pytestmark = pytest.mark.slow

SESSIONS = 6
BOUND = "3"  # seconds a decoding process may take to answer (ATTNVIZ_DECODE_SECONDS)


def decoding_processes(server: int) -> list[int]:
    """The server's decoding processes, from /proc: its children started with
    ``-m attnviz_ui.serving.decoder_process``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
        if ppid == server and b"attnviz_ui.serving.decoder_process" in command:
            found.append(int(stat.parent.name))
    return found


def state(pid: int) -> str:
    """A process's state letter (T: stopped), or "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def test_every_session_gets_its_translation_while_the_decoding_process_hangs():
    latency = benchmark("dashboard_latency")
    protocol = benchmark("protocol_session")
    sentence = benchmark("class_load").sentence
    env = {"ATTNVIZ_DECODE_SECONDS": BOUND, "ATTNVIZ_CHECKPOINTS": str(ROOT / "checkpoints")}

    async def class_of(url: str, server: int) -> tuple[list, int]:
        sessions = [protocol.ProtocolSession(url, timeout=240) for _ in range(SESSIONS)]
        await asyncio.gather(*(s.open() for s in sessions))  # the child has decoded
        (hung,) = decoding_processes(server)
        os.kill(hung, signal.SIGSTOP)
        try:
            typed = [sentence(n, 1) for n in range(SESSIONS)]
            await asyncio.gather(*(s.enter(t) for s, t in zip(sessions, typed, strict=True)))
            foreign = [
                sum(not protocol.holds(m, t) for m in s.last_run.heatmaps)
                for s, t in zip(sessions, typed, strict=True)
            ]
            exceptions = [e for s in sessions for e in s.exceptions]
        finally:
            for s in sessions:
                await s.close()
        return [foreign, exceptions], hung

    with latency.streamlit(ROOT / "dashboard.py", env) as url:
        server = latency.streamlit.server_pid
        (foreign, exceptions), hung = asyncio.run(class_of(url, server))
        assert foreign == [0] * SESSIONS  # each session's heatmaps hold its own sentence
        assert exceptions == []
        assert state(hung) in ("", "Z")  # the stopped child was killed
        replaced = decoding_processes(server)
        assert replaced and hung not in replaced  # a new child decodes the next requests
