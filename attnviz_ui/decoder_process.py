"""The page's decodings, in a process of their own.

A Streamlit server runs every session's script in a thread of one process, under one GIL.
torch lets go of the GIL for each of its operations, and a greedy decoding of a sentence is
about a thousand small operations: each time it lets go, another session's thread takes the
GIL and keeps it for Python's switch interval (5 ms) before the decoding gets it back. Beside
one other thread busy in Python, a sentence that decodes in 14 ms alone took 1.8 s, and 67 ms
of CPU instead of 14 for the handovers (benchmarks/classroom/results.md). That is why a class
falls off a cliff rather than down a slope: the busier a server, the dearer each decoding.

So the page's decodings (its translations, forced alignments and what-ifs) run in a child
process that does nothing else: one at a time, each in one go, with its own copy of the models.
The sessions' threads wait for it without the GIL and meanwhile go on drawing pages. The child
is a fresh interpreter (``python -m attnviz_ui.decoder_process``: nothing of the server is
copied into it), started by the first decoding and again after it dies; requests and Traces go
over a socket pair between the two processes of one server, as pickles of values both made,
and nothing is read from a file. Where no child answers, the page decodes in its own process,
as it did before. Attribution (gradients through the fp32 model) stays in the server.
"""

from __future__ import annotations

import functools
import os
import queue
import signal
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from typing import NamedTuple

import torch

import attnviz
from attnviz import i18n
from attnviz.errors import InputError, Refused
from attnviz.store.catalog import Checkpoint, Models

ROOT = Path(__file__).resolve().parent.parent  # where ``-m attnviz_ui...`` is found


class Request(NamedTuple):
    """One decoding the page asks for."""

    checkpoint: Checkpoint
    sentence: str
    beam: int  # 1: greedy search
    reference: str  # "": translate; else force-decode on it
    language: str  # the language a refusal is worded in
    precision: str  # of the model decoding (attnviz_ui.cache.page_precision)
    prefix: tuple[str, ...] | None = None  # what-if: the output starts with these words
    # what-if: (step, its attention weights, the head they replace: a Transformer's, else None)
    edit: tuple[int, tuple[float, ...], int | None] | None = None


@functools.cache
def models(precision: str) -> Models:
    """One model per checkpoint file at ``precision``, failures included, loaded once per
    process and shared by its callers (a plain function cache: a page run asks for models
    about 35 times): the server's, for what the page draws of a model, and the child's, for
    what it decodes. Both decode on one intra-op thread, as live training runs do
    (attnviz.training.live): a sentence is many tiny operations that gain nothing from more,
    and threads that spin waiting for each other stall every operation whenever the browser
    drawing the page, or another session, holds a core."""
    torch.set_num_threads(1)
    return Models(functools.partial(attnviz.load, precision=precision))


def decode(request: Request) -> attnviz.Trace | Refused:
    """The Trace of ``request``, or the refusal of its InputError, worded in the language bound
    (the child binds the request's); raises the checkpoint's CheckpointError when it does not
    load."""
    tr = models(request.precision).get(request.checkpoint)
    try:
        if request.reference:
            return tr.align(request.sentence, request.reference)
        return tr.translate(
            request.sentence,
            beam=request.beam,
            prefix=list(request.prefix) if request.prefix is not None else None,
            attention={request.edit[0]: request.edit[1]} if request.edit else None,
            head=request.edit[2] if request.edit else None,
        )
    except InputError as e:
        return Refused(str(e))


def serve(conn: Connection) -> None:
    """The child: each request in turn, until the server closes its end."""
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        i18n.bind(i18n.catalog(request.language))
        try:
            answer = (True, decode(request))
        except Exception as e:  # raised again in the server, as if it had decoded itself
            answer = (False, e)
        conn.send(answer)


class DecoderProcess:
    """A child that decodes, one request at a time (:class:`Decoders` hands it to one thread
    at a time)."""

    def __init__(self, command: tuple[str, ...] | None = None):
        self._command = command or (sys.executable, "-m", __name__)
        self._conn: Connection | None = None
        self._child: subprocess.Popen | None = None
        self._ever_answered = False
        self._given_up = False  # no child of this command answers: decode here from now on

    def decode(self, request: Request) -> attnviz.Trace | Refused:
        """:func:`decode` in the child; a child that died is replaced once, and where none
        answers the request is decoded here (and every later one, once no child has ever
        answered: each try would start an interpreter for nothing)."""
        for _ in range(0 if self._given_up else 2):
            try:
                conn = self._started()
                conn.send(request)
                ok, value = conn.recv()
            except (EOFError, OSError):
                self.stop()
                continue
            self._ever_answered = True
            if not ok:
                raise value
            return value
        self._given_up = not self._ever_answered
        return decode(request)

    def _started(self) -> Connection:
        if self._conn is None:
            ours, theirs = socket.socketpair()
            with theirs:
                fd = theirs.fileno()
                try:
                    self._child = subprocess.Popen(
                        [*self._command, str(fd)],
                        pass_fds=(fd,),
                        cwd=ROOT,
                        stdin=subprocess.DEVNULL,
                    )
                except OSError:
                    ours.close()
                    raise
            self._conn = Connection(ours.detach())
        return self._conn

    def stop(self) -> None:
        """Ends the child (the next request starts another)."""
        if self._conn is not None:
            self._conn.close()
        if self._child is not None:
            self._child.kill()
            self._child.wait()
        self._conn = self._child = None


class Decoders:
    """The server's decoding processes, shared by every session: each request goes to the
    first one free, in the order asked (a queue: a Lock would let a thread that asks again pass
    the ones waiting). Each starts with its first request."""

    def __init__(self, count: int, command: tuple[str, ...] | None = None):
        if count < 1:
            raise ValueError(f"a server needs at least one decoding process, not {count}")
        made = [DecoderProcess(command) for _ in range(count)]
        self._all = tuple(made)
        self._free: queue.Queue[DecoderProcess] = queue.Queue()
        for process in made:
            self._free.put(process)

    def decode(self, request: Request) -> attnviz.Trace | Refused:
        process = self._free.get()
        try:
            return process.decode(request)
        finally:
            self._free.put(process)

    def stop(self) -> None:
        for process in self._all:
            process.stop()


# ATTNVIZ_DECODERS: how many decoding processes a server runs. One by default, so that with one
# replica per core a server and its child share about two cores; more let sentences decode side
# by side where a server has cores to spare (docs/deploy.md).
decoder = Decoders(int(os.environ.get("ATTNVIZ_DECODERS", "1")))

if __name__ == "__main__":
    # Ctrl-C in the terminal of `streamlit run` reaches the whole process group: the child
    # leaves it to the server and ends when the server's end of the socket closes.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve(Connection(int(sys.argv[1])))
