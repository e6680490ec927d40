from dataclasses import replace

import numpy as np
import pytest
import torch

from attnviz.data.corpus import DataConfig
from attnviz.decoding.translator import Translator
from attnviz.model.attention import formula, make_attention, mask_scores
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq
from attnviz.tuning.decoding_precision import decoding_choices

from ..helpers import RAGGED, ragged_batch, teacher_forced_and_stepped, tiny_translator


def test_masked_scores_give_padding_exactly_zero_weight_and_leave_the_input_alone():
    scores = torch.randn(2, 3, 4)
    before = scores.clone()
    mask = torch.tensor([[True, True, False, False], [True, True, True, True]])
    w = mask_scores(scores, mask).softmax(-1)
    assert torch.equal(w[0, :, 2:], torch.zeros(3, 2))
    assert torch.allclose(w.sum(-1), torch.ones(2, 3))
    assert torch.equal(scores, before)


@pytest.mark.parametrize("layers,bidirectional", [(1, False), (2, True)])
def test_rows_sum_to_one_and_padding_gets_zero_weight_in_ragged_batches(
    attention, layers, bidirectional
):
    tr = tiny_translator(attention, layers=layers, bidirectional=bidirectional)
    src, lens = ragged_batch(tr)
    tgt_in = torch.randint(4, len(tr.tgt_vocab), (3, 7))
    with torch.no_grad():
        weights = tr.model(src, lens, tgt_in).weights  # (B, T, S)
    for b, n in enumerate(lens.tolist()):
        assert torch.allclose(weights[b].sum(-1), torch.ones(7), atol=1e-6)
        assert torch.count_nonzero(weights[b, :, n:]) == 0
        assert torch.all(weights[b, :, :n] > 0)


def test_padding_does_not_change_a_translation(attention):
    tr = tiny_translator(attention, layers=2)
    together = tr.translate_batch(RAGGED)
    for sentence, trace in zip(RAGGED, together, strict=True):
        alone = tr.translate(sentence)
        assert alone.tgt_tokens == trace.tgt_tokens
        np.testing.assert_allclose(alone.weights, trace.weights, atol=1e-5)


def test_luong_without_input_feeding_trains_in_one_pass_with_the_same_result():
    tr = tiny_translator("general", input_feeding=False)
    src, lens = ragged_batch(tr)
    tgt_in = torch.randint(4, len(tr.tgt_vocab), (3, 6))
    fast, steps = teacher_forced_and_stepped(tr, src, lens, tgt_in)
    torch.testing.assert_close(
        fast.logits, torch.stack([s.logits for s in steps], 1), atol=1e-5, rtol=1e-4
    )
    torch.testing.assert_close(
        fast.weights, torch.stack([s.weights for s in steps], 1), atol=1e-6, rtol=1e-5
    )


@pytest.mark.parametrize(
    "bad",
    [
        dict(attention="cosine"),
        dict(hidden=15),
        dict(dropout=1.0),
        dict(layers=0),
        dict(bridge="forward"),
        dict(untied_specials=True),
    ],
)
def test_bad_config_values_fail_at_construction_naming_the_problem(bad):
    options = dict(src_vocab=10, tgt_vocab=10, **bad)
    with pytest.raises(ValueError, match="|".join(bad)):
        ModelConfig(**options)


@pytest.mark.parametrize("kind", ["dot", "general"])
def test_scaled_scores_are_the_luong_scores_over_the_root_of_the_size(kind):
    torch.manual_seed(0)
    plain = make_attention(kind, 16, 16, 16)
    scaled = make_attention(kind, 16, 16, 16, scaled=True)
    scaled.load_state_dict(plain.state_dict())
    query, values = torch.randn(2, 3, 16), torch.randn(2, 5, 16)
    torch.testing.assert_close(
        scaled.score(query, scaled.prepare(values)), plain.score(query, plain.prepare(values)) / 4
    )
    assert formula(kind, scaled=True).endswith(r"\sqrt{H}")
    assert not formula(kind).endswith(r"\sqrt{H}")  # Luong's form, unscaled


@pytest.mark.parametrize("bridge", ["ends", "backward"])
def test_the_bridge_starts_the_decoder_from_the_encoder_states_it_names(bridge):
    torch.manual_seed(0)
    model = Seq2Seq(ModelConfig(30, 30, "bahdanau", embed=8, hidden=16, bridge=bridge)).eval()
    src = torch.tensor([[5, 6, 7, 8, 3], [9, 10, 3, 0, 0]])  # ragged: the second is padded
    lens = torch.tensor([5, 3])
    with torch.no_grad():
        memory, state = model.encode(src, lens)
        out = memory.values  # (B, S, H): forward half, then backward half
        first_backward = out[:, 0, 8:]  # the backward direction ends at the first word
        last_forward = torch.stack([out[0, 4, :8], out[1, 2, :8]])  # and forward at <eos>
        ends = (
            first_backward
            if bridge == "backward"
            else torch.cat([last_forward, first_backward], -1)
        )
        expected = torch.tanh(model.encoder.bridge(ends))
    torch.testing.assert_close(state.rnn[0], expected)


def test_a_model_continued_with_bahdanaus_bridge_keeps_the_backward_half_of_its_weights():
    from attnviz.training import lineage

    parent = tiny_translator("bahdanau")
    config = replace(parent.model.config, bridge="backward")
    lineage.check_options(parent, {"bridge": "backward"}, "parent.safetensors")  # allowed
    assert lineage.child_configs(parent, config, parent.data or DataConfig())[0] == config
    weights = lineage.parent_weights(parent, config)
    hidden = config.hidden
    old = parent.model.encoder.bridge.weight
    torch.testing.assert_close(weights["encoder.bridge.weight"], old[:, hidden // 2 :])
    Seq2Seq(config).load_state_dict(weights)  # the shapes fit
    child = Translator(Seq2Seq(config), parent.src_vocab, parent.tgt_vocab, parent.text)
    with pytest.raises(ValueError, match="bridge 'ends'"):  # no way back
        lineage.check_options(child, {"bridge": "ends"}, "child.safetensors")


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_fresh_attention_keeps_every_weight_but_the_attentions_score(attention):
    from attnviz.training import lineage
    from attnviz.training.config import TrainingRun

    parent = tiny_translator(attention)
    torch.manual_seed(1)
    child = Seq2Seq(parent.model.config)
    weights = lineage.starting_weights(parent, child, fresh_attention=True)
    own, old = child.state_dict(), parent.model.state_dict()
    renewed = [k for k in weights if k.startswith("decoder.attention.")]
    assert renewed and all(not torch.equal(own[k], old[k]) for k in renewed)
    for name, value in weights.items():
        assert torch.equal(value, own[name] if name in renewed else old[name])
    kept = lineage.starting_weights(parent, child, fresh_attention=False)
    assert all(torch.equal(kept[k], old[k]) for k in old)
    with pytest.raises(ValueError, match="needs init_from"):
        TrainingRun("c.txt", "m.safetensors", parent.model.config, fresh_attention=True)


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_an_output_projection_is_stored_and_decodes_at_every_precision(attention, tmp_path):
    import attnviz

    tr = tiny_translator(attention, output_projection=True)
    first, second = tr.model.generator
    assert (first.in_features, first.out_features, second.out_features) == (
        16,
        8,
        len(tr.tgt_vocab),
    )
    path = tmp_path / "m.safetensors"
    attnviz.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, DataConfig(subwords=0), {})
    sentence = "the red cat sees a big house ."
    expected = tr.translate(sentence)
    np.testing.assert_allclose(
        attnviz.load(path, precision="fp32").translate(sentence).weights,
        expected.weights,
        atol=1e-6,
    )
    for precision in decoding_choices("cpu"):  # int8 where this CPU has its kernels
        trace = attnviz.load(path, precision=precision).translate(sentence)
        np.testing.assert_allclose(trace.weights.sum(1), 1, atol=1e-4)
    with pytest.raises(ValueError, match="drop it"):
        replace(tr.model.config, tie_output=True)
