"""What several test modules share: tiny models, the settings they train with and a ragged batch
to feed them, file and port helpers, and the AppTest helpers of the dashboard's tests. Fixtures
live in the conftest.py files; this module imports neither streamlit nor playwright, so that tests
without the dashboard run where it is not installed."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np
import pytest
import torch
from safetensors import safe_open

from attnviz import ModelConfig, Seq2Seq, TextConfig, Translator, Vocab
from attnviz.data.corpus import pad, split_of
from attnviz.data.subwords import Subwords
from attnviz.model.build import build_model
from attnviz.model.precision import Precision
from attnviz.training.config import TrainConfig
from attnviz.tuning.decoding_precision import decoding_choices
from attnviz_ui.state.session_keys import Key

from .synthetic import corpus

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent


def fresh_python(code: str, drop: str = "", **environ: str) -> str:
    """What ``python -c code`` prints, stripped, in a new process started in the project's
    root, with the environment variable ``drop`` removed and ``environ`` set; its stderr
    when it fails."""
    env = {k: v for k, v in os.environ.items() if k != drop} | environ
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


DASHBOARD = str(ROOT / "dashboard.py")

# Models

WORDS = ["the", "a", "cat", "dog", "sees", "likes", "red", "big", "small", "house", ".", ","]

# The tiny model that learns the toy language (tests/conftest.py's ``trained`` fixture)...
TINY = dict(embed=32, hidden=64, layers=1, dropout=0.1)
# fp32 on every CPU: "auto" trains in bf16 where the CPU has it natively, and the tiny models'
# attention, which tests read, then hangs on the CPU's kernels.
TINY_TRAIN = TrainConfig(
    epochs=6, batch_size=64, lr=0.005, bleu_sentences=50, test_beam=0, join_fraction=0.0,
    precision="fp32",
)  # fmt: skip
# ... and the smallest one that runs every part of a command-line training, for the mechanics
# (resume, seeds, processes), not for what it learns; fp32 too: where bf16 is native, "auto"
# times both on the machine, and two runs a test compares might choose differently.
TINY_FLAGS = [
    "--embed", "8", "--hidden", "16", "--lr", "0.01", "--bleu-sentences", "5",
    "--probe-sentences", "2", "--precision", "fp32",
]  # fmt: skip
# The tiny zh->en model of the Chinese toy (tests/conftest.py's ``chinese_trained``), trained as
# a user would: cmn.txt's columns read the other way round, Chinese words by jieba; enough epochs
# that it translates 我爱吃苹果。 (never in its corpus) word for word; in fp32 on every CPU.
CHINESE_FLAGS = [
    "--source-column", "2", "--src-lang", "zh", "--tgt-lang", "en", "--license", "CC-BY 2.0 FR",
    "--subwords", "330", "--embed", "32", "--hidden", "64", "--dropout", "0.1", "--lr", "0.01",
    "--epochs", "10", "--join-fraction", "0", "--bleu-sentences", "50", "--test-beam", "1",
    "--probe-sentences", "2", "--precision", "fp32",
]  # fmt: skip


def _toy_translator(seed: int, **config) -> Translator:
    """An untrained model of ``config`` over the toy vocabulary."""
    torch.manual_seed(seed)
    src = Vocab.build([WORDS])
    tgt = Vocab.build([[w.upper() for w in WORDS]])
    model = build_model(ModelConfig(len(src), len(tgt), dropout=0.0, **config))
    return Translator(model, src, tgt, TextConfig())


def tiny_translator(attention: str, seed: int = 0, **options) -> Translator:
    """An untrained model over a toy vocabulary: enough for shapes, masks and decoding rules."""
    return _toy_translator(seed, attention=attention, embed=8, hidden=16, **options)


def tiny_transformer(seed: int = 0, **options) -> Translator:
    """An untrained two-layer, four-head Transformer over the toy vocabulary."""
    return _toy_translator(
        seed, model="transformer", attention="multihead", embed=16, hidden=16, layers=2,
        heads=4, ff=32, **options,
    )  # fmt: skip


# int8 decoding runs on fbgemm's kernels: a CPU decodes in int8 and int8-output only where its
# torch has them (decoding_choices), and a test of either is skipped elsewhere (an ARM CPU).
needs_int8 = pytest.mark.skipif(
    Precision.INT8 not in decoding_choices("cpu"),
    reason="this CPU's torch has no fbgemm kernels: no int8 decoding to check",
)

# Sentences of different lengths, so that a batch of them is padded: masking bugs hide in
# batches without padding.
RAGGED = ["the cat sees a dog .", "a dog", "the big red house likes the small cat , a dog ."]


def ragged_batch(tr: Translator) -> tuple[torch.Tensor, torch.Tensor]:
    """:data:`RAGGED` as ``tr``'s padded source ids (B, S) with <eos>, and their lengths (B,)."""
    ids = [[*tr.src_vocab.encode(s.split()), 3] for s in RAGGED]
    return pad(ids), torch.tensor([len(i) for i in ids])


def teacher_forced_and_stepped(tr, src, lens, tgt_in):
    """The model's teacher-forced Output over ``tgt_in`` (B, T), and its decoding Steps fed
    the same tokens one at a time: a model that runs a target in one pass must agree."""
    with torch.no_grad():
        whole = tr.model(src, lens, tgt_in)
        memory, state = tr.model.encode(src, lens)
        steps = []
        for t in range(tgt_in.size(1)):
            steps.append(tr.model.step(tgt_in[:, t], state, memory))
            state = steps[-1].state
    return whole, steps


@cache
def subword_translator() -> Translator:
    """An untrained subword model: fast, and it decodes every path a trained one does."""
    pairs = [(en.split(), fr.split()) for en, fr, _ in corpus(200, seed=5)]
    subwords = Subwords.train(pairs, vocab_size=300)
    torch.manual_seed(0)
    config = ModelConfig(
        len(subwords.src.vocab), len(subwords.tgt.vocab), attention="general", embed=8, hidden=16
    )
    return Translator(
        Seq2Seq(config), subwords.src.vocab, subwords.tgt.vocab, TextConfig(), subwords=subwords
    )


def held_out(pairs):
    """Test-split pairs as the corpus file writes them (cased, punctuation attached)."""
    for en, fr, links in pairs:
        source = f"{en[0].upper()}{en[1:-2]}."
        if split_of(source) == "test":
            yield source, f"{fr[0].upper()}{fr[1:-2]}.", en, fr, links


# Files and processes


def tensors(path) -> dict[str, torch.Tensor]:
    """Every tensor of a safetensors file (a checkpoint or a training state), read directly."""
    with safe_open(str(path), "pt") as f:
        return {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The longest a test waits for what takes seconds here (a server's start, a toy run): a bound
# for a machine many times slower and busy, not a guess at how long it takes, since a wait
# ends as soon as what it waits for holds.
PATIENCE = 600.0
T = TypeVar("T")


def wait_until(
    condition: Callable[[], T], what: str, timeout: float = PATIENCE, every: float = 0.05
) -> T:
    """``condition()``'s first true value, asked again every ``every`` seconds until it comes;
    fails saying ``what`` did not happen once ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)
    return value


# The dashboard in Streamlit's AppTest

SENTENCE = "The red cat sees a dog."
TAUGHT = "zz-student"  # the taught model of tests/ui's taught_folder: a name that says nothing


def open_dashboard(folder, monkeypatch, query: dict | None = None, **environ: str) -> AppTest:
    """The dashboard on the checkpoints in ``folder`` (and ``ATTNVIZ_*`` ``environ``), opened
    on a link with the query parameters ``query``, run once; it decodes in fp32 unless
    ``environ`` pins another precision (ATTNVIZ_DECODING), so that what it shows compares with
    fp32 decodings on every machine."""
    from streamlit.testing.v1 import AppTest

    environ.setdefault("ATTNVIZ_DECODING", "fp32")
    monkeypatch.setenv("ATTNVIZ_CHECKPOINTS", str(folder))
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    at = AppTest.from_file(DASHBOARD, default_timeout=120)
    at.query_params.update(query or {})
    return at.run()


def type_sentence(at: AppTest, sentence: str, reference: str = "") -> AppTest:
    at.text_input[0].input(sentence)
    at.text_input[1].input(reference)
    at.run()
    assert not at.exception, at.exception
    return at


def plotly_array(value) -> np.ndarray:
    """A plotly array from a chart's JSON: a list, or a typed array (dtype, base64, shape)."""
    if isinstance(value, dict):
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        return flat.reshape([int(n) for n in value.get("shape", str(flat.size)).split(",")])
    return np.asarray(value)


def plotly_figures(at: AppTest, kind: str) -> list[dict]:
    """The plotly figures on the page whose first trace is of ``kind`` (heatmap, scatter)."""
    figures = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    return [f for f in figures if f["data"][0]["type"] == kind]


def heatmaps_on(at: AppTest) -> list[dict]:
    """The alignment heatmaps (not the difference of two)."""
    return [
        f for f in plotly_figures(at, "heatmap") if " minus " not in f["layout"]["title"]["text"]
    ]


def paste_corpus(at: AppTest, sentences: str, gold: str = "") -> AppTest:
    at.radio(key=Key.PAGE).set_value("A corpus").run()
    at.text_area[0].input(sentences)
    at.text_area[1].input(gold)
    at.run()
    assert not at.exception, at.exception
    return at


def run_corpus(at: AppTest, sentences: str, gold: str = "") -> AppTest:
    paste_corpus(at, sentences, gold).button(key=Key.CORPUS_RUN).click().run()
    assert not at.exception, at.exception
    return at


def run_corpus_with_gold(at: AppTest, pairs) -> AppTest:
    """Run the corpus page on ``(source, reference, links)`` triples, the links as gold."""
    return run_corpus(
        at,
        "\n".join(f"{en}\t{fr}" for en, fr, _ in pairs),
        "\n".join(" ".join(f"{i}-{j}" for i, j in links) for *_, links in pairs),
    )


def open_training_page(folder, monkeypatch) -> AppTest:
    at = open_dashboard(folder, monkeypatch)
    at.radio(key=Key.PAGE).set_value("Training").run()
    assert not at.exception, at.exception
    return at


CHROMIUM = os.environ.get("ATTNVIZ_CHROMIUM", "/usr/bin/chromium")  # Debian's, as CI installs


def tool_missing(what: str, module: bool = False) -> None:
    """:func:`unavailable` for a tool that scripts/install-test-deps.sh installs."""
    unavailable(f"{what} is missing: run scripts/install-test-deps.sh", module)


def unavailable(message: str, module: bool = False) -> None:
    """Skip a test (with ``module``, a test module) whose tool is missing here, naming it; fail
    in CI, which installs every tool the tests need (a skip there would check nothing)."""
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=module)


def resumes_exactly(data, folder, flags: list[str]) -> Path:
    """Train ``data`` with ``flags`` for two epochs straight, and for one then one more with
    ``--resume``; assert both runs end in the same state. Returns the straight run's file."""
    from attnviz.cli.main import main

    straight, resumed = folder / "straight.safetensors", folder / "resumed.safetensors"
    for out, extra in ((straight, ["--epochs", "2"]), (resumed, ["--epochs", "1"]),
                       (resumed, ["--epochs", "2", "--resume"])):  # fmt: skip
        assert main(["train", "--data", str(data), "--out", str(out), *extra, *flags]) == 0
    a, b = tensors(f"{straight}.state"), tensors(f"{resumed}.state")
    assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    return straight
