"""A toy fixed-context model (``--attention none``) trains, translates, records a history without
attention, keeps attribution, and is refused where links are read off attention."""

import numpy as np
import pytest

from attnviz.analysis.attribution import attribute
from attnviz.cli.main import main
from attnviz.store.checkpoint import load

from ..helpers import held_out


@pytest.fixture(scope="module")
def fixed(trained):
    return trained("none")


def test_it_learns_the_toy_language_and_its_traces_have_no_attention(fixed, synthetic_pairs):
    path, card = fixed
    tr = load(path, precision="fp32")
    assert tr.model.config.attention == "none"
    assert card["test_bleu"]["beam1"] > 20  # a real translator, not a straw man
    assert "attention_sinks" not in card  # nothing to sink
    sources = [src for src, *_ in held_out(synthetic_pairs)][:20]
    for trace in tr.translate_batch(sources):
        assert not trace.has_attention and trace.weights is None
        assert trace.ended and trace.text
    history = card["history"]
    assert history["probes"] == [] and len(history["snapshots"]) > 1
    assert all(s["aer"] is None for s in history["snapshots"])


def test_attribution_still_shows_what_each_output_word_depends_on(fixed):
    tr = load(fixed[0], precision="fp32")
    trace = tr.translate("the small cat sees a red dog .")
    saliency = attribute(tr, trace, "saliency")
    assert saliency.values.shape == (len(trace.tgt_tokens), len(trace.src_tokens) - 1)
    assert np.isfinite(saliency.values).all() and (saliency.values > 0).any()


def test_align_and_the_aer_refuse_it_with_a_clear_message(fixed, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("the cat ||| le chat\n"))
    assert main(["align", str(fixed[0])]) == 2
    assert "no attention to read links from" in capsys.readouterr().err
    sentences = tmp_path / "s.txt"
    sentences.write_text("the cat\n")
    assert main(["evaluate", str(fixed[0]), "--sinks", str(sentences)]) == 2
    assert "--attention none" in capsys.readouterr().err


def test_guided_alignment_is_refused_before_anything_runs(corpus_file, tmp_path, capsys):
    argv = ["train", "--data", str(corpus_file), "--out", str(tmp_path / "m.safetensors")]
    assert main([*argv, "--attention", "none", "--guide", "eflomal"]) == 2
    assert "has no attention" in capsys.readouterr().err
