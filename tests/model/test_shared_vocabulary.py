"""One vocabulary for both languages (joint subwords) and one matrix for both embeddings and
the output layer (tied embeddings): stored once, loaded at every precision, refused where they
cannot apply; and the measure of what a translation should copy."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

import attnviz
from attnviz.analysis.evaluate import copy_rate, should_copy
from attnviz.cli.main import main
from attnviz.data import toy
from attnviz.data.corpus import DataConfig
from attnviz.data.subwords import Subwords
from attnviz.data.text import TextConfig
from attnviz.data.vocab import EOS_ID
from attnviz.decoding.translator import Translator
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq
from attnviz.store import checkpoint
from attnviz.tuning.decoding_precision import decoding_choices

from ..helpers import TINY

PAIRS = [(en.split(), fr.split()) for en, fr, _ in toy.corpus(400, seed=1, language="names")]


@pytest.fixture(scope="module")
def joint() -> Subwords:
    return Subwords.train(PAIRS, vocab_size=400, joint=True)


def tied_translator(subwords: Subwords, attention: str = "general", seed: int = 0) -> Translator:
    torch.manual_seed(seed)
    vocab = subwords.src.vocab
    config = ModelConfig(
        len(vocab), len(vocab), attention, embed=8, hidden=16, dropout=0.0, tie_embeddings=True
    )
    return Translator(Seq2Seq(config), vocab, vocab, TextConfig(), subwords=subwords)


def test_a_joint_model_spells_a_name_and_a_number_alike_on_both_sides(joint):
    separate = Subwords.train(PAIRS, vocab_size=400)
    assert joint.joint and not separate.joint and joint.src is joint.tgt
    words = ["Kodari", "1907"]
    assert joint.src.encode(words) == joint.tgt.encode(words)
    assert joint.src.encode(["1907"]) == ["▁", "1", "9", "0", "7"]  # digits one by one
    assert list(joint.protos()) == ["joint"] and list(separate.protos()) == ["src", "tgt"]
    again = Subwords.from_protos(joint.protos())
    assert again.joint and again.sha256() == joint.sha256()
    with pytest.raises(ValueError, match="src and tgt, or joint"):
        Subwords.from_protos({"src": joint.src.proto})


def test_tied_embeddings_are_one_matrix_with_a_projection(joint):
    tr = tied_translator(joint, "bahdanau")
    model = tr.model
    assert model.decoder.embed is model.encoder.embed
    assert model.generator.weight is model.encoder.embed.weight
    assert isinstance(model.generator.proj, torch.nn.Linear)  # Bahdanau's t_i: H=16 -> E=8
    untied = Seq2Seq(model.config.__class__(**{**model.config.__dict__, "tie_embeddings": False}))
    shared = sum(p.numel() for p in model.parameters())
    assert shared < sum(p.numel() for p in untied.parameters()) - len(tr.src_vocab) * 8
    assert "decoder.embed.weight" not in model.state_dict()  # one matrix, listed once
    with pytest.raises(ValueError, match="one vocabulary for both languages"):
        ModelConfig(10, 12, tie_embeddings=True)


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_a_joint_tied_model_is_stored_once_and_loads_at_every_precision(joint, attention, tmp_path):
    tr = tied_translator(joint, attention)
    path = tmp_path / "m.safetensors"
    data = DataConfig(subwords=400, joint_subwords=True)
    attnviz.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, data, {}, subwords=joint)
    tensors, meta = checkpoint.read_tensors(path)
    assert "subwords.joint" in tensors and "subwords.src" not in tensors
    assert "decoder.embed.weight" not in tensors
    sentence = "the red cat sees Kodari at 1907 ."
    expected = tr.translate(sentence)
    loaded = attnviz.load(path, precision="fp32")
    assert loaded.subwords.joint and loaded.model.decoder.embed is loaded.model.encoder.embed
    got = loaded.translate(sentence)
    assert got.tgt_tokens == expected.tgt_tokens
    np.testing.assert_allclose(got.weights, expected.weights, atol=1e-6)
    for precision in decoding_choices("cpu"):
        trace = attnviz.load(path, precision=precision).translate(sentence)
        assert trace.weights.shape[1] == len(expected.src_tokens)
        np.testing.assert_allclose(trace.weights.sum(1), 1, atol=1e-4)
    meta["data_config"]["joint_subwords"] = False  # a joint model that says it is not
    checkpoint.write_tensors(path, tensors, meta)
    with pytest.raises(attnviz.CheckpointError, match="disagree"):
        attnviz.load(path)


def test_a_tied_output_layer_shares_the_target_embedding_of_separate_vocabularies(tmp_path):
    separate = Subwords.train(PAIRS, vocab_size=400)
    src, tgt = separate.src.vocab, separate.tgt.vocab
    assert src is not tgt and src.itos != tgt.itos
    torch.manual_seed(0)
    config = ModelConfig(len(src), len(tgt), "general", embed=8, hidden=16, tie_output=True)
    model = Seq2Seq(config)
    assert model.generator.weight is model.decoder.embed.weight
    assert model.decoder.embed is not model.encoder.embed
    untied = Seq2Seq(ModelConfig(len(src), len(tgt), "general", embed=8, hidden=16))
    count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
    assert count(untied) - count(model) == len(tgt) * 16 - 16 * 8  # the (V, H) layer: E P
    tr = Translator(model, src, tgt, TextConfig(), subwords=separate)
    path = tmp_path / "m.safetensors"
    data = DataConfig(subwords=400)
    attnviz.save(path, model, src, tgt, tr.text, data, {}, subwords=separate)
    assert "decoder.generator.weight" not in checkpoint.read_tensors(path)[0]
    sentence = "the red cat sees Kodari at 1907 ."
    expected = tr.translate(sentence)
    loaded = attnviz.load(path, precision="fp32")
    assert loaded.model.generator.weight is loaded.model.decoder.embed.weight
    assert loaded.translate(sentence).tgt_tokens == expected.tgt_tokens
    for precision in decoding_choices("cpu"):
        trace = attnviz.load(path, precision=precision).translate(sentence)
        np.testing.assert_allclose(trace.weights.sum(1), 1, atol=1e-4)


def test_tied_embeddings_without_a_joint_vocabulary_are_refused_before_training(tmp_path, capsys):
    data = tmp_path / "toy.txt"
    toy.write_plain(data, toy.corpus(50, language="names"))
    argv = ["train", "--data", str(data), "--out", str(tmp_path / "m.safetensors")]
    assert main([*argv, "--attention", "general", "--tie-embeddings"]) == 2
    assert "add --joint-subwords" in capsys.readouterr().err
    assert main([*argv, "--attention", "general", "--joint-subwords", "--subwords", "0"]) == 2
    assert "joint_subwords needs subwords" in capsys.readouterr().err
    assert not (tmp_path / "m.safetensors").exists()


def test_what_should_be_copied_is_numbers_and_names_found_in_a_reference():
    source = "Tom met Mary in Paris at 10:30 on 12 May 1992."
    refs = ["Tom a rencontré Marie à Paris à 10:30 le 12 mai 1992.", "Tom vit Marie."]
    assert should_copy(source, refs) == {
        "numbers": ["10", "30", "12", "1992"],
        "names": ["Paris"],  # Tom starts the sentence; Mary is Marie; May is mai
    }
    result = copy_rate([source], ["Tom a vu Mary à Paris à 10h30 le 12 mai 1992."], [refs])
    assert result.wanted == {"numbers": 4, "names": 1}
    assert result.written == {"numbers": 2, "names": 1}  # "10h30" is neither "10" nor "30"
    assert result.share("numbers") == 50 and result.share("names") == 100


@pytest.mark.slow
def test_a_joint_tied_model_carries_names_it_never_saw_through(tmp_path):
    """The toy ``names`` language: held-out sentences bring names made of random syllables.
    With one vocabulary and tied embeddings, a tiny model learns to copy them (the separate
    recipe copies almost none at this budget: benchmarks/experiments/copy_toy.py)."""
    from attnviz.data.corpus import held_out, read_corpus, split_of
    from attnviz.training.config import TrainConfig, TrainingRun
    from attnviz.training.train import train

    path = tmp_path / "names.txt"
    pairs = toy.corpus(4000, seed=0, language="names")
    toy.write_plain(path, pairs)
    trained = {source.split()[-4] for source, _, _ in pairs if split_of(source) == "train"}
    out = tmp_path / "m.safetensors"
    config = TrainConfig(
        epochs=8, lr=0.005, test_beam=0, join_fraction=0, precision="fp32", bleu_sentences=50
    )
    model = ModelConfig(attention="general", **TINY, tie_embeddings=True)
    data = DataConfig(subwords=500, joint_subwords=True)
    train(TrainingRun(path, out, model, TextConfig(), data, config), log=lambda *_: None)
    sources, refs = held_out(read_corpus(path), data.valid_percent, data.test_percent)
    outputs = [t.text for t in attnviz.load(out).translate_batch(sources)]
    result = copy_rate(sources, outputs, refs)
    assert result.wanted["names"] == result.wanted["numbers"] == len(sources) >= 50
    assert result.share("numbers") >= 90 and result.share("names") >= 80
    unseen = [s for s in sources if s.split()[-4] not in trained]
    assert len(unseen) >= 0.8 * len(sources)  # most held-out names are new


def test_swapping_replaces_names_and_numbers_the_same_on_both_sides():
    import random

    from attnviz.data.swap import swap_pair

    source, target = "Tom met Mary in 1992.", "Tom a rencontré Mary en 1992."
    new_source, new_target = swap_pair(source, target, random.Random(0))
    names = new_source.split()[0], new_source.split()[2]
    year = new_source.split()[-1].rstrip(".")
    assert "Tom" not in new_source + new_target and "Mary" not in new_source + new_target
    assert new_target == f"{names[0]} a rencontré {names[1]} en {year}."
    assert year.isdigit() and len(year) <= 4 and all(n[:1].isupper() for n in names)
    lengths = {len(swap_pair("In 1992.", "En 1992.", random.Random(s))[0]) - 4 for s in range(40)}
    assert lengths == {1, 2, 3, 4}  # a number may grow or shrink, as real numbers differ
    drawn = {
        swap_pair("Tom ran.", "Tom a couru.", random.Random(s), ["garden"])[0] for s in range(20)
    }
    assert "Garden ran." in drawn and len(drawn) > 2  # words of the corpus and syllables
    assert swap_pair("I am cold.", "J'ai froid.", random.Random(0)) is None
    assert swap_pair("Paris is big.", "Paris est grande.", random.Random(1)) != swap_pair(
        "Paris is big.", "Paris est grande.", random.Random(2)
    )


def test_a_swapped_epoch_adds_the_share_of_pairs_that_carry_names():
    import random

    from attnviz.data.corpus import Example
    from attnviz.data.swap import swap_examples
    from attnviz.training.config import TrainConfig

    examples = [Example(s, t, s.split(), t.split()) for s, t, _ in toy.corpus(40, language="names")]
    examples += [Example("a cat .", "un chat .", ["a", "cat", "."], ["un", "chat", "."])] * 10

    def tokenize(pairs):
        return [Example(s, t, s.split(), t.split()) for s, t in pairs]

    added = swap_examples(examples, 0.5, random.Random(0), tokenize)
    assert len(added) == 20  # half of the 40 that carry a name and a number
    originals = {e.src for e in examples}
    for e in added:
        assert e.src not in originals and e.src.split()[-3:] == e.src_tokens[-3:]
        assert e.src.split()[-4] == e.tgt.split()[-4]  # the same new name on both sides
    assert swap_examples(examples, 0.0, random.Random(0), tokenize) == []
    twice = swap_examples(examples, 2.5, random.Random(0), tokenize)
    assert len(twice) == 100 and len({e.src for e in twice}) > 90  # each swapped anew
    with pytest.raises(ValueError, match="swap_fraction"):
        TrainConfig(swap_fraction=4.5)


def test_untied_specials_give_the_source_eos_a_row_the_output_layer_does_not_write(joint, tmp_path):
    vocab = joint.src.vocab
    torch.manual_seed(0)
    config = ModelConfig(
        len(vocab), len(vocab), "general", embed=8, hidden=16, dropout=0.0, tie_embeddings=True
    )
    model = Seq2Seq(replace(config, untied_specials=True))
    tr = Translator(model, vocab, vocab, TextConfig(), subwords=joint)
    encoder = tr.model.encoder
    src = torch.tensor([[10, 11, EOS_ID]])
    before = encoder.embedded(src)
    with torch.no_grad():
        tr.model.generator.weight[EOS_ID] += 1.0  # the output layer's <eos>, the shared row
    assert torch.equal(encoder.embedded(src), before)
    with torch.no_grad():
        encoder.specials.weight[EOS_ID] += 1.0  # the source's own <eos>
    moved = encoder.embedded(src)
    assert torch.equal(moved[0, :2], before[0, :2]) and not torch.equal(moved[0, 2], before[0, 2])
    path = tmp_path / "m.safetensors"
    data = DataConfig(subwords=400, joint_subwords=True)
    attnviz.save(path, tr.model, vocab, vocab, tr.text, data, {}, subwords=joint)
    sentence = "the red cat sees Kodari ."
    np.testing.assert_allclose(
        attnviz.load(path, precision="fp32").translate(sentence).weights,
        tr.translate(sentence).weights,
        atol=1e-6,
    )
    with pytest.raises(ValueError, match="add tie_embeddings"):
        replace(config, tie_embeddings=False, untied_specials=True)


def test_a_tied_model_continued_untied_starts_as_the_same_function(joint):
    from attnviz.training import lineage

    parent = tied_translator(joint, "general")
    lineage.check_options(parent, {"tie_embeddings": False}, "parent.safetensors")  # allowed
    data = DataConfig(subwords=400, joint_subwords=True)
    asked = replace(parent.model.config, tie_embeddings=False)
    config, _ = lineage.child_configs(parent, asked, data)
    assert (config.tie_embeddings, config.tie_output) == (False, False)
    model = Seq2Seq(config)
    model.load_state_dict(lineage.parent_weights(parent, config))
    embeddings = model.encoder.embed.weight, model.decoder.embed.weight
    assert embeddings[0] is not embeddings[1] and torch.equal(*embeddings)
    assert isinstance(model.generator, torch.nn.Linear)  # E P, one matrix of its own
    child = Translator(
        model.eval(), parent.src_vocab, parent.tgt_vocab, parent.text, subwords=joint
    )
    sentence = "the red cat sees Kodari at 1907 ."
    a, b = child.translate(sentence), parent.translate(sentence)
    assert a.tgt_tokens == b.tgt_tokens
    np.testing.assert_allclose(a.weights, b.weights, atol=1e-6)
    np.testing.assert_allclose(a.probs, b.probs, atol=1e-5)
    with pytest.raises(ValueError, match=r"tie_embeddings True \(the checkpoint has False\)"):
        lineage.check_options(child, {"tie_embeddings": True}, "child.safetensors")  # no re-tying
