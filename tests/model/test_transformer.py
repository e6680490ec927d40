"""The Transformer (``--model transformer``): the decoding interface of the GRU models, every
cross-attention head recorded, and cached decoding equal to recomputing the whole prefix."""

import numpy as np
import pytest
import torch

from attnviz import load
from attnviz.errors import InputError
from attnviz.model.model_config import ModelConfig
from attnviz.model.transformer import edited_head

from ..helpers import RAGGED, ragged_batch, teacher_forced_and_stepped, tiny_transformer

LAYERS, HEADS = 2, 4  # tiny_transformer's


def test_cached_decoding_equals_recomputing_the_whole_prefix():
    tr = tiny_transformer()
    src, lens = ragged_batch(tr)
    tgt_in = torch.randint(4, len(tr.tgt_vocab), (len(RAGGED), 7))
    whole, steps = teacher_forced_and_stepped(tr, src, lens, tgt_in)
    stepped = torch.stack([s.logits for s in steps], 1)
    torch.testing.assert_close(stepped, whole.logits, atol=1e-5, rtol=1e-5)
    assert steps[-1].state.keys.shape[3] == 7  # the cache grew by one token a step


def test_every_head_of_every_layer_is_a_distribution_with_zero_on_padding():
    tr = tiny_transformer()
    src, lens = ragged_batch(tr)
    with torch.no_grad():
        memory, state = tr.model.encode(src, lens)
        step = tr.model.step(torch.full((len(RAGGED),), 4), state, memory)
    assert step.heads.shape == (len(RAGGED), LAYERS, HEADS, src.size(1))
    torch.testing.assert_close(step.heads.sum(-1), torch.ones(len(RAGGED), LAYERS, HEADS))
    for b, n in enumerate(lens.tolist()):
        assert torch.equal(step.heads[b, :, :, n:], torch.zeros(LAYERS, HEADS, src.size(1) - n))
    # the one picture is the picture layer's heads averaged (the last, by default)
    torch.testing.assert_close(step.weights, step.heads[:, -1].mean(1))


@pytest.mark.parametrize("beam", [1, 3])
def test_a_trace_holds_every_head_and_draws_the_chosen_layers_average(beam):
    tr = tiny_transformer(align_layer=0)
    trace = tr.translate("the big red house likes the small cat .", beam=beam)
    T, S = len(trace.tgt_tokens), len(trace.src_tokens)
    assert trace.heads.shape == (T, LAYERS, HEADS, S)
    np.testing.assert_allclose(trace.weights, trace.heads[:, 0].mean(1), atol=1e-6)
    np.testing.assert_allclose(trace.heads.sum(-1), 1.0, atol=1e-5)
    assert trace.attention == "multihead"


def test_an_edit_replaces_one_head_of_the_picture_layer_and_changes_what_follows():
    tr = tiny_transformer()
    src, lens = ragged_batch(tr)
    n = int(lens[0])
    src, lens = src[:1, :n], lens[:1]
    edit = torch.zeros(1, n)
    edit[0, 2] = 1.0
    with torch.no_grad():
        memory, state = tr.model.encode(src, lens)
        free = tr.model.step(torch.tensor([4]), state, memory)
        edited = tr.model.step(torch.tensor([4]), state, memory, edited_head(edit, 1, HEADS))
    assert torch.equal(edited.heads[0, -1, 1], edit[0])
    others = [0, 2, 3]  # the heads not edited read the sentence their own way
    assert torch.equal(edited.heads[0, -1, others], free.heads[0, -1, others])
    assert torch.equal(edited.heads[0, 0], free.heads[0, 0])  # the layers below are untouched
    torch.testing.assert_close(edited.weights, edited.heads[:, -1].mean(1))  # the picture
    assert not torch.allclose(edited.logits, free.logits)


def test_a_translators_edit_names_a_transformers_head_and_no_head_of_a_gru(trained):
    tr = tiny_transformer()
    sentence = "the big red house likes the small cat ."
    n = len(tr.translate(sentence).src_tokens)
    weights = {1: [1.0] + [0.0] * (n - 1)}
    with pytest.raises(InputError, match="replaces one head"):
        tr.translate(sentence, attention=weights)
    with pytest.raises(InputError, match="replaces one head"):
        tr.translate(sentence, attention=weights, head=HEADS)
    trace = tr.translate(sentence, attention=weights, head=2)
    assert trace.edited == (1,)
    np.testing.assert_allclose(trace.heads[1, -1, 2], weights[1], atol=1e-6)
    gru = load(trained("general")[0])
    n = len(gru.translate(sentence).src_tokens)
    with pytest.raises(InputError, match="one attention"):
        gru.translate(sentence, attention={1: [1.0] + [0.0] * (n - 1)}, head=0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"attention": "general"}, "multihead"),
        ({"heads": 3}, "heads must divide"),
        ({"embed": 8}, "embed 8 must equal hidden"),
        ({"align_layer": 2}, "align_layer"),
    ],
)
def test_a_transformer_configuration_that_cannot_be_built_is_refused(options, message):
    values = dict(model="transformer", attention="multihead", embed=16, hidden=16, layers=2)
    with pytest.raises(ValueError, match=message):
        ModelConfig(10, 10, **(values | options))


def test_multihead_attention_belongs_to_a_transformer_only():
    with pytest.raises(ValueError, match="belongs to a transformer"):
        ModelConfig(10, 10, attention="multihead")


@pytest.mark.parametrize("tying", ["tie_embeddings", "tie_output"])
def test_tied_embeddings_are_one_matrix_stored_once_and_reload_to_the_same_model(tying):
    tr = tiny_transformer(**{tying: True})
    model = tr.model
    assert model.decoder.generator.weight is model.decoder.embedding.embed.weight
    assert (model.encoder.embedding.embed is model.decoder.embedding.embed) == (
        tying == "tie_embeddings"
    )
    state = model.state_dict()
    assert "decoder.generator.weight" not in state
    again = tiny_transformer(seed=1, **{tying: True}).model
    again.load_state_dict(state)
    src, lens = ragged_batch(tr)
    tgt_in = torch.randint(4, len(tr.tgt_vocab), (len(RAGGED), 5))
    with torch.no_grad():
        torch.testing.assert_close(again(src, lens, tgt_in).logits, model(src, lens, tgt_in).logits)
