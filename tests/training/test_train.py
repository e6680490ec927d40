"""The training loss: padding skipped exactly, bf16 autocast close to fp32."""

import pytest
import torch
import torch.nn.functional as F

from attnviz.data.corpus import Example, make_batch, spread_sample
from attnviz.data.vocab import PAD_ID
from attnviz.training.config import TrainConfig
from attnviz.training.update import batch_loss

from ..helpers import WORDS, tiny_translator


def _batch(tr):
    # Lengths differ on both sides, so the batch has padding in source and target.
    pairs = [(WORDS[:3], WORDS[:5]), (WORDS[:7], WORDS[:2]), (WORDS[2:4], WORDS[1:8])]
    examples = [Example(" ".join(s), " ".join(t), s, [w.upper() for w in t]) for s, t in pairs]
    return make_batch(examples, tr.src_vocab, tr.tgt_vocab)


def test_loss_over_real_tokens_equals_the_padded_cross_entropy(attention):
    tr = tiny_translator(attention)
    batch = _batch(tr)
    assert (batch.tgt_out == PAD_ID).any()
    out = tr.model(batch.src, batch.src_lens, batch.tgt_in)
    padded = F.cross_entropy(
        out.logits.flatten(0, 1), batch.tgt_out.flatten(), ignore_index=PAD_ID, reduction="sum"
    )
    torch.testing.assert_close(batch_loss(tr.model, batch), padded)


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_bf16_loss_and_gradients_are_close_to_fp32(attention):
    tr = tiny_translator(attention, layers=2)
    batch = _batch(tr)
    grads = {}
    for precision in ("fp32", "bf16"):
        tr.model.zero_grad()
        loss = batch_loss(tr.model, batch, precision=precision)
        loss.backward()
        grads[precision] = (
            loss.item(),
            torch.cat([p.grad.flatten() for p in tr.model.parameters() if p.grad is not None]),
        )
    (loss32, g32), (loss16, g16) = grads["fp32"], grads["bf16"]
    assert abs(loss16 - loss32) / loss32 < 0.01
    assert F.cosine_similarity(g32, g16.float(), dim=0) > 0.99


def test_the_bleu_sample_spreads_over_a_length_sorted_list():
    sources = [f"s{i}" for i in range(10)]
    refs = [[f"r{i}"] for i in range(10)]
    picked, picked_refs = spread_sample(sources, refs, 4)
    assert picked == ["s0", "s3", "s6", "s9"] and picked_refs == [["r0"], ["r3"], ["r6"], ["r9"]]
    assert spread_sample(sources, refs, 0) == (sources, refs)
    assert spread_sample(sources, refs, 50) == (sources, refs)
    assert spread_sample(sources, refs, 1) == (["s0"], [["r0"]])


def test_the_learning_rate_decays_per_epoch_after_decay_after():
    steady = TrainConfig(lr=0.01)
    assert [steady.lr_at(e) for e in range(3)] == [0.01, 0.01, 0.01]
    decayed = TrainConfig(lr=0.01, decay_after=2, lr_decay=0.5)
    assert [decayed.lr_at(e) for e in range(5)] == pytest.approx(
        [0.01, 0.01, 0.005, 0.0025, 0.00125]
    )
    with pytest.raises(ValueError, match="lr_decay"):
        TrainConfig(decay_after=1, lr_decay=0)


def test_the_linear_schedule_falls_to_zero_over_the_run_a_little_every_update():
    linear = TrainConfig(lr=0.01, epochs=4, schedule="linear")
    assert [linear.lr_at(e) for e in (0, 1, 2.5, 4)] == pytest.approx([0.01, 0.0075, 0.00375, 0])
    stepped = TrainConfig(lr=0.01, decay_after=2, lr_decay=0.5)
    assert stepped.lr_at(1.9) == stepped.lr_at(1) == 0.01  # the step schedule: per epoch
    with pytest.raises(ValueError, match="step schedule"):
        TrainConfig(schedule="linear", decay_after=3)
    with pytest.raises(ValueError, match="schedule must be"):
        TrainConfig(schedule="cosine")


def test_settings_written_before_a_field_existed_resume_with_its_default():
    from dataclasses import asdict

    from attnviz.data.corpus import DataConfig
    from attnviz.model.model_config import ModelConfig
    from attnviz.training.resume import with_defaults

    train = {k: v for k, v in asdict(TrainConfig()).items() if k != "epochs"}
    now = {"model": asdict(ModelConfig(10, 10)), "data": asdict(DataConfig()), "train": train}
    old = {**now, "model": dict(now["model"]), "data": dict(now["data"]), "train": dict(train)}
    del old["model"]["scaled"], old["model"]["tie_embeddings"], old["train"]["decay_after"]
    del old["data"]["joint_subwords"]  # a run started before joint vocabularies existed
    assert with_defaults(old) == now
    assert with_defaults({**old, "model": {**old["model"], "hidden": 32}}) != now
    assert with_defaults({**old, "model": {**old["model"], "unknown": 1}}) != now


def test_a_training_run_refuses_at_once_what_cannot_run():
    from dataclasses import replace

    from attnviz.model.model_config import ModelConfig
    from attnviz.model.seq2seq import Seq2Seq
    from attnviz.training.config import TrainingRun

    model = ModelConfig(attention="general")  # vocabulary sizes: the data's
    with pytest.raises(ValueError, match="vocabulary sizes"):
        Seq2Seq(model)
    with pytest.raises(ValueError, match="fp32"):
        TrainingRun("c.txt", "m.safetensors", model, storage="fp8")
    with pytest.raises(ValueError, match="init_from"):
        TrainingRun("c.txt", "m.safetensors")
    with pytest.raises(ValueError, match="--joint-subwords"):
        TrainingRun("c.txt", "m.safetensors", replace(model, tie_embeddings=True))
    assert TrainingRun("c.txt", "m.safetensors", init_from="parent.safetensors").model is None


def test_a_grown_vocabulary_starts_each_new_row_from_its_twin_or_from_its_old_pieces():
    from attnviz import ModelConfig, Seq2Seq
    from attnviz.data.subwords import Subwords
    from attnviz.training.lineage import with_rows

    from ..synthetic import corpus

    pairs = [(en.split(), fr.split()) for en, fr, _ in corpus(200, seed=5)]
    old = Subwords.train([*pairs, *[(["Tom", "runs"], ["Tom", "court"])] * 5], vocab_size=300)
    parent = Seq2Seq(ModelConfig(len(old.src.vocab), len(old.tgt.vocab), "general", 8, 16))
    # "The" was never a training word, so it is split, while "the" is one piece: its twin.
    assert len(old.src.encode(["The"])) > 1 and old.src.encode(["the"]) == ["\u2581the"]
    new = old.grown([(["The", "horses", "sleep"], ["Les", "chevaux", "dorment"])] * 3, 6)
    state = with_rows(parent.state_dict(), old, new)
    for side, names in [("src", ["encoder.embed.weight"]), ("tgt", ["decoder.generator.bias"])]:
        assert all(state[n].size(0) == len(new.side(side).vocab) > len(old.side(side).vocab)
                   for n in names)  # fmt: skip
    rows, before = state["encoder.embed.weight"], parent.state_dict()["encoder.embed.weight"]
    torch.testing.assert_close(rows[: len(old.src.vocab)], before)  # old rows untouched
    the = new.src.vocab.stoi["\u2581The"]
    torch.testing.assert_close(rows[the], before[old.src.vocab.stoi["\u2581the"]])  # its twin
    out, out_before = (
        state["decoder.generator.weight"],
        parent.state_dict()["decoder.generator.weight"],
    )
    for i in range(len(old.tgt.vocab), len(new.tgt.vocab)):  # the output layer: the mean
        word = new.tgt.vocab.itos[i].lstrip("\u2581")
        parts = [old.tgt.vocab.stoi[p] for p in old.tgt.encode([word])]
        torch.testing.assert_close(out[i], out_before[parts].mean(0))
