"""deploy/run_replicas.sh: replicas behind nginx, each visitor kept on one by the sticky cookie,
and a replica killed mid-class: its visitors reach a live one and get a working page.

Runs two replicas of benchmarks/classroom/minimal_app.py (the dashboard's gestures without its
models), which start in seconds; needs nginx (the script installs it with apt-get where it may).
CI runs as root, as a container or a lab machine starts the script: nginx then runs its workers
as another user, who must be able to write the responses it buffers to disk."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import streamlit

from attnviz_ui.widgets.replica_note import restarted

from ..helpers import ROOT, free_port, unavailable, wait_until

pytestmark = pytest.mark.slow
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def test_a_resumed_session_is_not_a_restart_and_a_lost_one_is():
    assert not restarted("streamlit", "abc")  # a first visit
    assert not restarted("streamlit, xsrf, abc", "abc")  # resumed where it was
    assert restarted("streamlit, xsrf, abc", "def")  # asked for abc, got a new one
    assert not restarted(None, "abc")


def _as_a_terminal() -> None:
    """In the script's process: SIGINT as a terminal's shell leaves it, not ignored (a suite
    started in the background of a shell ignores it, and a shell that starts with it ignored
    keeps no trap for it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    """deploy/run_replicas.sh --replicas 2 of the minimal page; yields (url, {port: pid},
    the process); stops it."""
    if not Path(NGINX).exists() and os.geteuid() != 0:
        unavailable("nginx is missing, and only root may apt-get it here")
    proxy, first = free_port(), free_port()
    while free_port() == first + 1:  # the second replica's port must be free too
        first = free_port()
    _time_wait(proxy)  # as a class just stopped leaves it: free to start on
    env = os.environ | {"APP": "benchmarks/classroom/minimal_app.py", "PROXY_PORT": str(proxy),
                        "FIRST_PORT": str(first)}  # fmt: skip
    log = tmp_path_factory.mktemp("replicas") / "out.log"
    with log.open("w") as out:
        process = subprocess.Popen([str(ROOT / "deploy/run_replicas.sh"), "--replicas", "2"],
                                   cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True, preexec_fn=_as_a_terminal)  # fmt: skip

    def started() -> bool:
        assert process.poll() is None, log.read_text()
        return "Ctrl-C stops it all" in log.read_text()

    try:
        wait_until(started, "the replicas starting", every=0.2)  # apt-get may install nginx
    except BaseException:  # the script stops what it started
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)
        raise
    text = log.read_text()
    found = re.search(r"on ports ([\d ]+) \(pids ([\d,]+)\)", text)
    assert found, text
    ports = [int(p) for p in found.group(1).split()]
    pids = dict(zip(ports, map(int, found.group(2).split(",")), strict=True))
    yield f"http://127.0.0.1:{proxy}", pids, process
    if process.poll() is None:  # a test failed before Ctrl-C: the script stops its servers
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)


def _time_wait(port: int) -> None:
    """Leaves a connection to ``port`` in TIME_WAIT, nothing listening: a port a server just
    closed."""
    with socket.create_server(("127.0.0.1", port)) as server:
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = server.accept()
        accepted.close()  # the side that closes first waits
        client.close()


def test_a_port_in_use_is_refused_before_anything_starts():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        run = subprocess.run([str(ROOT / "deploy/run_replicas.sh"), "--replicas", "1"], cwd=ROOT,
                             env=os.environ | {"PROXY_PORT": str(port)}, capture_output=True,
                             text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2
    assert f"port {port} is in use" in run.stderr and "nginx on" not in run.stdout


def test_a_class_on_the_local_network_is_told_the_address_to_open():
    """--address 0.0.0.0: nginx listens on every address, and students are told this
    machine's address on its network, not a loopback one no student can reach; an address
    that is not this machine's is refused before anything starts."""
    run = subprocess.run([str(ROOT / "deploy/run_replicas.sh"), "--address", "192.0.2.77"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2 and "192.0.2.77" in run.stderr


def _warm_up(*urls: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(ROOT / "deploy/warm_up.py"), *urls, "--seconds", "60"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_warm_up_runs_each_replicas_page_and_names_one_that_does_not_answer(replicas):
    _url, pids, _process = replicas
    live = [f"http://127.0.0.1:{port}" for port in pids]
    assert _warm_up(*live).returncode == 0
    dead = f"http://127.0.0.1:{free_port()}"
    run = _warm_up(live[0], dead)
    assert run.returncode == 1 and dead in run.stderr and live[0] not in run.stderr


def _closed(port: int) -> bool:
    """Whether nothing answers on ``port`` any more."""
    try:
        with OPENER.open(f"http://127.0.0.1:{port}/_stcore/health", timeout=10):
            return False
    except OSError:
        return True


def _get(url: str, cookie: str = ""):
    """GET ``url`` with ``cookie``: (status, the replicas tried, the last of them the one that
    answered, and the cookie it set)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with OPENER.open(request, timeout=30) as r:
        return r.status, r.headers.get("X-Attnviz-Replica"), r.headers.get("Set-Cookie")


async def _session(url: str, cookie: str, resume: str = "") -> tuple[str, int]:
    """Opens the page's websocket with ``cookie`` (asking to resume session ``resume``) and
    runs the script once: (the session's id, the heatmaps it drew)."""
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    host = url.split("://", 1)[1]
    protocols = ["streamlit", "xsrf", resume] if resume else ["streamlit"]
    async with websockets.connect(f"ws://{host}/_stcore/stream", subprotocols=protocols,
                                  additional_headers={"Cookie": cookie}, proxy=None,
                                  open_timeout=30) as ws:  # fmt: skip
        msg = BackMsg()
        msg.rerun_script.query_string = ""
        await ws.send(msg.SerializeToString())
        session, heatmaps = "", 0
        while True:
            forward = ForwardMsg.FromString(await asyncio.wait_for(ws.recv(), 60))
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                session = forward.new_session.initialize.session_id
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                heatmaps += forward.delta.new_element.WhichOneof("type") == "plotly_chart"
            elif kind == "script_finished":
                return session, heatmaps


def test_the_cookie_keeps_a_visitor_on_one_replica_until_it_dies(replicas):
    url, pids, process = replicas
    status, first, set_cookie = _get(url + "/")
    assert status == 200 and set_cookie.startswith("attnviz_replica=")
    cookie = set_cookie.split(";", 1)[0]
    assert {_get(url + "/", cookie)[1:] for _ in range(10)} == {(first, None)}  # no new cookie
    others = {_get(url + "/", f"attnviz_replica=visitor{i}")[1] for i in range(30)}
    assert len(others) == 2  # the cookies of a class spread over both replicas

    session, heatmaps = asyncio.run(_session(url, cookie))
    assert heatmaps == 2
    assert asyncio.run(_session(url, cookie, resume=session)) == (session, 2)  # same replica

    dead = int(first.rsplit(":", 1)[1])
    os.kill(pids[dead], signal.SIGKILL)
    wait_until(lambda: _closed(dead), f"port {dead} closing")
    live = f"127.0.0.1:{next(p for p in pids if p != dead)}"
    for _ in range(5):  # the first tries the dead replica, then the live one ("dead, live")
        status, tried, _cookie = _get(url + "/", cookie)
        assert status == 200 and tried.split(", ")[-1] == live
    again, heatmaps = asyncio.run(_session(url, cookie, resume=session))
    assert again != session and heatmaps == 2  # a fresh session on the live replica, working
    assert restarted(f"streamlit, xsrf, {session}", again)  # what the dashboard notes
    assert process.poll() is None  # one replica lost does not stop the class


SLOW_BYTES_PER_SECOND = 300_000  # a student on a crowded Wi-Fi


def test_a_slow_student_gets_every_byte_of_the_largest_static_file(replicas):
    """nginx buffers to disk what a client reads slower than the replica sends it: started by
    root, its workers (another user) must be able to write there, or the file ends short."""
    url = replicas[0]
    static = Path(streamlit.__file__).parent / "static"
    largest = max((p for p in static.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size)
    assert largest.stat().st_size > 1_000_000  # far more than nginx buffers in memory
    path = largest.relative_to(static).as_posix()
    got = bytearray()
    with OPENER.open(f"{url}/{path}", timeout=60) as r:
        start = time.monotonic()
        while chunk := r.read(30_000):
            got += chunk
            ahead = len(got) / SLOW_BYTES_PER_SECOND - (time.monotonic() - start)
            time.sleep(max(ahead, 0))  # the pace of the reader, not a wait for the server
    assert bytes(got) == largest.read_bytes(), f"{len(got):,} of {largest.stat().st_size:,} bytes"


def test_ctrl_c_stops_the_replicas_and_nginx(replicas):
    url, pids, process = replicas
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=60) == 130
    with pytest.raises(OSError):
        OPENER.open(url + "/_stcore/health", timeout=2)
    for pid in pids.values():
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
