"""The page's translations decoded in a process of their own
(attnviz_ui/serving/decoder_process.py): the same Traces as in the server's process, refusals
and load errors carried back, and a page that answers whatever happens to the child."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from attnviz import CheckpointError
from attnviz.errors import Refused
from attnviz.store.catalog import Checkpoint
from attnviz_ui.serving.decoder_process import Bound, DecoderProcess, Decoders, Request, decode
from attnviz_ui.state.session_keys import Key

from ..synthetic import corpus


@pytest.fixture
def child():
    """A decoding process whose bound no test here reaches on a busy machine (the bound's own
    test sets one it does)."""
    process = DecoderProcess(bound=Bound(600.0, 600.0))
    yield process
    process.stop()


def request(path, sentence: str, **changes) -> Request:
    made = Request(Checkpoint.at(path), sentence, 1, "", "en", "fp32")
    return made._replace(**changes)


def same_trace(a, b) -> None:
    for name in ("src_tokens", "tgt_tokens", "text", "mode", "candidates"):
        assert getattr(a, name) == getattr(b, name), name
    for name in ("weights", "scores", "probs", "query", "context"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_the_child_decodes_exactly_what_the_server_would(child, trained, attention):
    path = trained(attention)[0]
    (en, fr, _), (other, _, _) = corpus(2, seed=31)
    for asked in (
        request(path, en),
        request(path, other, beam=3),
        request(path, en, reference=fr),  # force-decoded on a reference
    ):
        same_trace(child.decode(asked), decode(asked))
    assert child._child is not None and child._child.poll() is None  # the child answered


def test_a_refusal_and_a_load_error_come_back_as_here(child, trained, tmp_path):
    path = trained("bahdanau")[0]
    refused = child.decode(request(path, "   "))
    assert isinstance(refused, Refused) and refused == decode(request(path, "   "))
    broken = tmp_path / "broken.safetensors"
    broken.write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError) as there:
        child.decode(request(broken, "a cat ."))
    with pytest.raises(CheckpointError) as here:
        decode(request(broken, "a cat ."))
    assert str(there.value) == str(here.value)


def test_a_refusal_is_worded_in_the_language_the_page_asked_for(child, trained):
    path = trained("bahdanau")[0]
    (en, _, _), *_ = corpus(1, seed=34)
    empty_prefix = request(path, en, prefix=("",), language="zh")  # a what-if it refuses
    refused = child.decode(empty_prefix)
    assert isinstance(refused, Refused) and "前缀" in refused.message
    assert "prefix" in child.decode(empty_prefix._replace(language="en")).message


def test_a_child_that_dies_is_replaced_and_the_sentence_still_answered(child, trained):
    path = trained("general")[0]
    (en, _, _), *_ = corpus(1, seed=32)
    child.decode(request(path, en))
    first = child._child.pid
    child._child.kill()
    child._child.wait()
    same_trace(child.decode(request(path, en)), decode(request(path, en)))
    assert child._child.pid != first


def test_the_child_ends_when_its_server_goes_away_and_not_before(child, trained):
    """Ctrl-C in the server's terminal reaches the child too: it leaves stopping to the server.
    A server killed outright closes its end of the socket: its child does not outlive it."""
    import signal

    (en, _, _), *_ = corpus(1, seed=36)
    asked = request(trained("bahdanau")[0], en)
    child.decode(asked)
    first = child._child.pid
    child._child.send_signal(signal.SIGINT)
    same_trace(child.decode(asked), decode(asked))
    assert child._child.pid == first  # the same child answered
    child._conn.close()  # as the kernel does for a server that died
    assert child._child.wait(timeout=60) == 0
    child._conn = None  # for the fixture's stop()


def test_a_child_that_hangs_is_killed_and_its_sentence_decoded_here(trained):
    """A child stopped with SIGSTOP answers nothing: past its bound it is killed, the request
    is decoded in the server, and the next request starts a new child."""
    import os
    import signal

    path = trained("general")[0]
    (en, _, _), *_ = corpus(1, seed=37)
    process = DecoderProcess(bound=Bound(answer=1.0, start=120.0))
    try:
        process.decode(request(path, en))  # started, and answered
        hung = process._child
        os.kill(hung.pid, signal.SIGSTOP)
        same_trace(process.decode(request(path, en)), decode(request(path, en)))
        assert hung.poll() is not None  # killed, not left stopped
        same_trace(process.decode(request(path, en)), decode(request(path, en)))
        assert process._child.pid != hung.pid and process._answered  # a new child answered
    finally:
        process.stop()


@pytest.mark.parametrize(
    "command",
    [("/nonexistent/python",), (sys.executable, "-c", "pass")],  # never starts; ends at once
)
def test_where_no_child_answers_the_server_decodes_itself(trained, command, monkeypatch):
    from attnviz_ui.serving import decoder_process

    started = []
    popen = decoder_process.subprocess.Popen

    def counted(*args, **kwargs):
        started.append(args)
        return popen(*args, **kwargs)

    monkeypatch.setattr(decoder_process.subprocess, "Popen", counted)
    process = DecoderProcess(command)
    path = trained("bahdanau")[0]
    (en, _, _), *_ = corpus(1, seed=33)
    try:
        same_trace(process.decode(request(path, en)), decode(request(path, en)))
        tries = len(started)
        same_trace(process.decode(request(path, en)), decode(request(path, en)))
        assert len(started) == tries  # no interpreter started again for nothing
    finally:
        process.stop()


def test_sessions_share_the_decoding_processes_each_getting_its_own_sentence(trained):
    """Many sessions at once, two processes: every request is answered, with its own Trace."""
    from concurrent.futures import ThreadPoolExecutor

    path = trained("general")[0]
    asked = [request(path, en) for en, _, _ in corpus(8, seed=35)]
    processes = Decoders(2)
    try:
        with ThreadPoolExecutor(8) as sessions:
            answers = list(sessions.map(processes.decode, asked))
        started = [p for p in processes._all if p._child is not None]
        assert len(started) == 2  # both were busy at once
    finally:
        processes.stop()
    for one, answer in zip(asked, answers, strict=True):
        same_trace(answer, decode(one))
    with pytest.raises(ValueError, match="at least one"):
        Decoders(0)


def test_the_server_describes_the_models_it_shows_and_holds_their_weights_only_to_run_them(app):
    """The page's decodings run in the decoding process, so the server keeps what each model
    is (its card, configurations and tokenizers) without its weights; a step's numbers, which
    the server replays itself, load the one model they need."""
    from attnviz_ui.serving.models import page_precision
    from attnviz_ui.serving.translators import descriptions, models

    described = descriptions(page_precision()).loaded()
    assert len(described) >= 2  # both models of the page
    for translator in described:
        assert {p.device.type for p in translator.model.parameters()} == {"meta"}
    app.toggle(key=Key.NUMBERS).set_value(True).run()  # the step's numbers: replayed here
    assert not app.exception, app.exception
    assert app.get("latex"), "no step math drawn"
    running = models(page_precision()).loaded()
    assert running and all(p.device.type == "cpu" for t in running for p in t.model.parameters())
