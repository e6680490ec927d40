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
is a fresh interpreter (``python -m attnviz_ui.serving.decoder_process``: nothing of the server
is copied into it), started by the first decoding and again after it dies or hangs; requests
and Traces go over a socket pair between the two processes of one server, as pickles of values
both made, and nothing is read from a file. Where no child answers, or a child gives no answer
within its :class:`Bound`, the page decodes in its own process. Attribution (gradients through
the fp32 model) stays in the server.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

import attnviz
from attnviz import i18n
from attnviz.errors import InputError, Refused
from attnviz.model.precision import Precision
from attnviz.store.catalog import Checkpoint

from .process import set_up_process
from .translators import models

ROOT = Path(__file__).resolve().parents[2]  # where ``-m attnviz_ui...`` is found
# A decoding process's bound (benchmarks/classroom/slowest_decoding.py, 2-core AMD EPYC beside
# a test run): the slowest load and decoding the page asks for took 3.7 s (luong-zh-en, 200
# source tokens, 552 output pieces, beam 10), a new process's first answer 2.9 s; four times each.
ANSWER_SECONDS = 15.0
START_SECONDS = 12.0


class Bound(NamedTuple):
    """How long a decoding process may take to answer before it is taken for hung, in seconds:
    a few times the slowest decoding the page asks for (the longest input it takes, in the
    beam it allows, on the slowest shipped model: benchmarks/classroom/slowest_decoding.py),
    and for a new child's first answer, the time to start an interpreter and load the models
    on top (docs/deploy.md says what a hang costs)."""

    answer: float = ANSWER_SECONDS
    start: float = START_SECONDS

    def of(self, answered: bool) -> float:
        """The bound of the next answer of a child that has (or has not yet) answered."""
        return self.answer if answered else self.answer + self.start

    @classmethod
    def from_environment(cls) -> Bound:
        """ATTNVIZ_DECODE_SECONDS and ATTNVIZ_START_SECONDS, where set (read at each new
        DecoderProcess)."""
        return cls(
            float(os.environ.get("ATTNVIZ_DECODE_SECONDS", ANSWER_SECONDS)),
            float(os.environ.get("ATTNVIZ_START_SECONDS", START_SECONDS)),
        )


class Request(NamedTuple):
    """One decoding the page asks for."""

    checkpoint: Checkpoint
    sentence: str
    beam: int  # 1: greedy search
    reference: str  # "": translate; else force-decode on it
    language: str  # the language a refusal is worded in
    precision: Precision  # of the model decoding (attnviz_ui.serving.models.page_precision)
    prefix: tuple[str, ...] | None = None  # what-if: the output starts with these words
    # what-if: (step, its attention weights, the head they replace: a Transformer's, else None)
    edit: tuple[int, tuple[float, ...], int | None] | None = None


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


def send(sock: socket.socket, value: object) -> None:
    """``value`` to the other process: its pickle, after its length in 8 bytes."""
    data = pickle.dumps(value)
    sock.settimeout(None)  # a request is small: the bound is on the answer
    sock.sendall(len(data).to_bytes(8, "big") + data)


def receive(sock: socket.socket, deadline: float | None = None) -> object:
    """The next value the other process sent; raises TimeoutError when it is not all here by
    ``deadline`` (``time.monotonic()``; None: wait for good), EOFError when the other end has
    closed."""
    size = int.from_bytes(_read(sock, 8, deadline), "big")
    return pickle.loads(_read(sock, size, deadline))


def _read(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    data = bytearray()
    while len(data) < size:
        sock.settimeout(None if deadline is None else max(deadline - time.monotonic(), 1e-3))
        chunk = sock.recv(min(size - len(data), 1 << 20))
        if not chunk:
            raise EOFError("the other process closed its end")
        data += chunk
    return bytes(data)


def serve(sock: socket.socket) -> None:
    """The child: each request in turn, until the server closes its end."""
    while True:
        try:
            request = receive(sock)
        except (EOFError, OSError):
            return
        try:
            i18n.bind(i18n.catalog(request.language))
            answer = (True, decode(request))
        except Exception as e:  # raised again in the server, as if it had decoded itself
            answer = (False, e)
        send(sock, answer)


class DecoderProcess:
    """A child that decodes, one request at a time (:class:`Decoders` hands it to one thread
    at a time)."""

    def __init__(self, command: tuple[str, ...] | None = None, bound: Bound | None = None):
        self._command = command or (sys.executable, "-m", __name__)
        self._bound = bound or Bound.from_environment()
        self._conn: socket.socket | None = None
        self._child: subprocess.Popen | None = None
        self._answered = False  # whether this child has answered (then it has started)
        self._ever_answered = False
        self._given_up = False  # no child of this command answers: decode here from now on

    def decode(self, request: Request) -> attnviz.Trace | Refused:
        """:func:`decode` in the child; a child that died is replaced once, and where none
        answers the request is decoded here (and every later one, once no child has ever
        answered: each try would start an interpreter for nothing). A child that gives no
        answer within its :class:`Bound` is taken for hung: it is killed (the next request
        starts another) and the request is decoded here."""
        for _ in range(0 if self._given_up else 2):
            try:
                conn = self._started()
                send(conn, request)
                ok, value = receive(conn, time.monotonic() + self._bound.of(self._answered))
            except TimeoutError:
                self.stop()
                return decode(request)
            except (EOFError, OSError):
                self.stop()
                continue
            self._answered = self._ever_answered = True
            if not ok:
                raise value
            return value
        self._given_up = not self._ever_answered
        return decode(request)

    def start(self) -> None:
        """Starts the child, where none runs, without a request: it loads its libraries while
        the page does its own first work. One that cannot start is tried again by
        :meth:`decode`."""
        if not self._given_up:
            with contextlib.suppress(OSError):
                self._started()

    def _started(self) -> socket.socket:
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
            self._conn = ours
        return self._conn

    def stop(self) -> None:
        """Ends the child (the next request starts another)."""
        if self._conn is not None:
            self._conn.close()
        if self._child is not None:
            self._child.kill()  # SIGKILL ends a stopped process too
            self._child.wait()
        self._conn = self._child = None
        self._answered = False


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
        self._beginning, self._begun = threading.Lock(), False
        for process in made:
            self._free.put(process)

    def start(self) -> None:
        """Starts every process's child at the server's first page run, so that they load
        beside it instead of after it asks for a sentence; later calls do nothing (taking a
        process off the queue at every run would let a page thread that waits for the GIL hold
        an idle child while sessions queue for it)."""
        with self._beginning:
            if self._begun:
                return
            self._begun = True
        for _ in self._all:
            process = self._free.get()
            try:
                process.start()
            finally:
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
    set_up_process()
    serve(socket.socket(fileno=int(sys.argv[1])))
