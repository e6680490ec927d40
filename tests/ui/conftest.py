"""The dashboard's fixtures: a checkpoints folder as shipped, one with a taught model, the
dashboard open on it, and the Chromium that the browser tests drive.

Only the tests in this folder load them; they need the dashboard's dependencies (streamlit, and
for the ``*_browser.py`` tests Playwright and Chromium, see ``scripts/install-test-deps.sh``;
what those tests share besides fixtures is in ``browser_helpers.py``).
"""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

from attnviz.analysis.eflomal_aligner import build_priors
from attnviz.data.corpus import DataConfig, read_corpus
from attnviz.data.text import TextConfig
from attnviz.data.toy import written_links
from attnviz.model.model_config import ModelConfig
from attnviz.store.priors_file import save_priors
from attnviz.training.config import TrainConfig, TrainingRun
from attnviz.training.train import train

from ..helpers import CHROMIUM, TAUGHT, open_dashboard, tool_missing


@pytest.fixture(autouse=True)
def validated_charts(monkeypatch):
    """The page draws its Altair charts unvalidated (attnviz_ui/widgets/vega.py); in these tests
    each one is validated against Vega-Lite's JSON schema, and a spec that breaks it fails."""
    from attnviz_ui.widgets import vega

    monkeypatch.setattr(vega, "VALIDATE", True)


@pytest.fixture(autouse=True)
def heap_unfrozen():
    """The dashboard freezes the heap of the process it runs in (serving.process.freeze_heap):
    in AppTest that is the test's, and what the tests after it make would never be collected."""
    yield
    gc.unfreeze()


@pytest.fixture(scope="module")
def chromium() -> str:
    """The path of Debian's Chromium, which the browser tests drive; skipped where it is
    missing (failed in CI)."""
    if not Path(CHROMIUM).exists():
        tool_missing(CHROMIUM)
    return CHROMIUM


@pytest.fixture(scope="module")
def checkpoints(trained, tmp_path_factory):
    """A checkpoints folder as shipped: bahdanau and luong (general), tiny and trained."""
    folder = tmp_path_factory.mktemp("checkpoints")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    return folder


@pytest.fixture
def app(checkpoints, monkeypatch):
    """The dashboard in AppTest, on the tiny checkpoints, as a visitor first sees it."""
    at = open_dashboard(checkpoints, monkeypatch)
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def two_directions(trained, chinese_trained, tmp_path_factory):
    """A checkpoints folder with a tiny en→fr pair and a tiny zh→en pair."""
    folder = tmp_path_factory.mktemp("two-directions")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    shutil.copy(chinese_trained("bahdanau"), folder / "bahdanau-zh-en.safetensors")
    shutil.copy(chinese_trained("general"), folder / "luong-zh-en.safetensors")
    return folder


@pytest.fixture(scope="session")
def transformer_folder(trained, corpus_file, tmp_path_factory):
    """A tiny Transformer on the left, a tiny Luong on the right."""
    folder = tmp_path_factory.mktemp("transformer")
    config = ModelConfig(
        model="transformer", attention="multihead", embed=32, hidden=32, layers=2, heads=2,
        ff=64, dropout=0.1,
    )  # fmt: skip
    schedule = TrainConfig(
        epochs=2, batch_size=64, lr=0.003, warmup=0.3, bleu_sentences=20, test_beam=0,
        precision="fp32", probe_sentences=0,
    )  # fmt: skip
    run = TrainingRun(
        corpus_file, folder / "transformer.safetensors", config, TextConfig(), DataConfig(),
        schedule,
    )  # fmt: skip
    train(run, log=lambda *_: None)
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    return folder


@pytest.fixture(scope="session")
def fixed_folder(trained, cli_priors, tmp_path_factory):
    """Tiny bahdanau, luong (general) and fixed-context models of the toy corpus, with its
    eflomal priors beside them, as checkpoints/ ships them."""
    folder = tmp_path_factory.mktemp("fixed")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    shutil.copy(trained("none")[0], folder / "encdec.safetensors")
    shutil.copy(cli_priors, folder / "eflomal-priors.txt.gz")
    return folder


ONE_EPOCH = TrainConfig(
    epochs=1, batch_size=64, lr=0.005, bleu_sentences=20, test_beam=0, join_fraction=0.0,
    probe_sentences=0, precision="fp32", guide_weight=0.5,
)  # fmt: skip


def _word_links(pairs) -> str:
    """The toy pairs' links over the whitespace words the corpus file has, as Pharaoh lines."""
    lines = (" ".join(f"{i}-{j}" for i, j in sorted(written_links(p))) for p in pairs)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="session")  # trained once for the AppTest and the browser tests
def taught_folder(trained, synthetic_pairs, corpus_file, tmp_path_factory):
    """Tiny bahdanau (natural) and luong checkpoints, a child of bahdanau taught for one epoch
    from the toy's links (named ``TAUGHT``, which says nothing: its card tells the pair), and
    eflomal's priors of their corpus."""
    work, folder = tmp_path_factory.mktemp("teaching"), tmp_path_factory.mktemp("taught")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    links = work / "links.txt"
    links.write_text(_word_links(synthetic_pairs))
    run = TrainingRun(
        corpus_file, work / "taught.safetensors", init_from=folder / "bahdanau.safetensors",
        guide=links, train=ONE_EPOCH,
    )  # fmt: skip
    train(run, log=lambda *_: None)
    shutil.copy(work / "taught.safetensors", folder / f"{TAUGHT}.safetensors")
    save_priors(build_priors(read_corpus(corpus_file)), folder / "eflomal-priors.txt.gz")
    return folder
