"""The fixed-context encoder-decoder (``--attention none``): one context c for every step, and
no attention weights anywhere, from the model's step to the Trace."""

import pytest
import torch

from attnviz.errors import InputError
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq

from ..helpers import RAGGED, ragged_batch, teacher_forced_and_stepped, tiny_translator


def test_it_has_no_attention_module_and_its_memory_is_the_encoders_final_state():
    tr = tiny_translator("none")
    assert tr.model.decoder.attention is None
    assert not any("attention" in name for name, _ in tr.model.named_parameters())
    src, lens = ragged_batch(tr)
    with torch.no_grad():
        memory, state = tr.model.encode(src, lens)
    assert memory.values.shape == (len(RAGGED), 1, 16)  # one context vector per sentence
    assert torch.equal(memory.values[:, 0], state.rnn[-1])  # c is the final state


def test_teacher_forcing_over_the_whole_target_is_the_same_as_step_by_step():
    tr = tiny_translator("none", layers=2)
    src, lens = ragged_batch(tr)
    tgt_in = torch.randint(4, len(tr.tgt_vocab), (3, 7))
    whole, steps = teacher_forced_and_stepped(tr, src, lens, tgt_in)
    assert all(s.weights is None and s.scores is None and s.query is None for s in steps)
    assert whole.weights is None
    stepped = torch.stack([s.logits for s in steps], 1)
    torch.testing.assert_close(stepped, whole.logits, atol=1e-5, rtol=1e-5)


def test_every_step_reads_the_same_context_and_the_output_depends_on_the_source():
    tr = tiny_translator("none")
    src, lens = ragged_batch(tr)
    y = torch.full((3,), 4)
    with torch.no_grad():
        memory, state = tr.model.encode(src, lens)
        first = tr.model.step(y, state, memory)
        second = tr.model.step(y, first.state, memory)
        other, _ = tr.model.encode(src.flip(1), lens)
        moved = tr.model.step(y, state, other)
    assert torch.equal(first.context, second.context)
    assert not torch.allclose(first.logits, moved.logits)  # c carries the source


@pytest.mark.parametrize("beam", [1, 3])
def test_a_trace_says_plainly_that_there_is_no_attention(beam):
    tr = tiny_translator("none")
    trace = tr.translate("the cat sees a dog .", beam=beam)
    assert not trace.has_attention
    assert trace.weights is None and trace.scores is None and trace.output_weights is None
    assert trace.context.shape == (len(trace.tgt_tokens), 16)
    assert (trace.context == trace.context[0]).all()  # the one c, read at every step
    assert tiny_translator("general").translate("the cat").has_attention


def test_padding_does_not_change_a_translation():
    tr = tiny_translator("none", layers=2)
    together = tr.translate_batch(RAGGED)
    alone = [tr.translate(s) for s in RAGGED]
    assert [t.tgt_tokens for t in together] == [t.tgt_tokens for t in alone]


def test_an_attention_edit_is_refused_with_a_clear_message():
    tr = tiny_translator("none")
    with pytest.raises(InputError, match="no attention to edit"):
        tr.translate("the cat", attention={0: [1.0, 0.0, 0.0]})


def test_none_is_a_choice_of_the_configuration_and_other_names_are_not():
    assert not ModelConfig(10, 10, attention="none").has_attention
    assert not ModelConfig(10, 10, attention="none").is_luong
    with pytest.raises(ValueError, match="attention must be one of"):
        Seq2Seq(ModelConfig(10, 10, attention="fixed"))
