"""Open each server's page once, as a first visitor would, before any student does.

    python deploy/warm_up.py http://127.0.0.1:8501 [http://127.0.0.1:8502 ...]

A new dashboard server does its slowest work on its first page: it imports the libraries,
describes the checkpoints, starts its decoding process (which loads the models it is asked
for) and reads eflomal's priors. deploy/run_replicas.sh runs this before it prints the address
students open, so that the first student's page costs what every later one does. It speaks the
page's own WebSocket protocol (the protobufs that ship with streamlit, over the websockets
package streamlit itself depends on) and runs the page once, all servers at once; it exits 1,
naming the server, where one does not finish its page within --seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg


async def first_page(url: str) -> None:
    """One run of the page at ``url`` (``http://host:port``), to its end."""
    host = url.split("://", 1)[-1].rstrip("/")
    async with websockets.connect(f"ws://{host}/_stcore/stream", subprotocols=["streamlit"],
                                  proxy=None, max_size=None) as ws:  # fmt: skip
        asked = BackMsg()
        asked.rerun_script.query_string = ""
        await ws.send(asked.SerializeToString())
        while ForwardMsg.FromString(await ws.recv()).WhichOneof("type") != "script_finished":
            pass


async def warm(urls: list[str], seconds: float) -> list[str]:
    """The URLs whose first page did not finish within ``seconds``, with why."""
    outcomes = await asyncio.gather(
        *(asyncio.wait_for(first_page(url), seconds) for url in urls), return_exceptions=True
    )
    return [
        f"{url}: {type(outcome).__name__} {outcome}".rstrip()
        for url, outcome in zip(urls, outcomes, strict=True)
        if isinstance(outcome, BaseException)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urls", nargs="+", help="each server, e.g. http://127.0.0.1:8501")
    parser.add_argument("--seconds", type=float, default=120.0, help="the most one page takes")
    args = parser.parse_args(argv)
    failed = asyncio.run(warm(args.urls, args.seconds))
    for line in failed:
        print(f"warm-up: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
