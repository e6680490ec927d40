import torch

from attnviz.data.corpus import (
    DataConfig,
    bucket_batches,
    make_batch,
    read_corpus,
    split_examples,
    split_of,
    tokenize_pairs,
)
from attnviz.data.text import TextConfig
from attnviz.data.vocab import BOS_ID, EOS_ID, PAD_ID, SPECIALS, Vocab


def test_two_and_three_columns_are_read_and_malformed_lines_counted(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(
        b"Go.\tVa !\n"
        b"Hi.\tSalut !\tCC-BY 2.0 (France) Attribution: tatoeba.org\n"
        b"no tab here\n"
        b"\tempty source\n"
        b"\n" + b"bad \xff utf8\tmauvais\n"
    )
    corpus = read_corpus(path)
    assert corpus.pairs == [("Go.", "Va !"), ("Hi.", "Salut !")]
    assert corpus.skipped == 3
    assert len(corpus.sha256) == 64


def test_split_keeps_every_translation_of_a_source_on_one_side():
    pairs = [(f"Sentence number {i}.", f"Phrase {i} {k}.") for i in range(400) for k in range(3)]
    examples = tokenize_pairs(pairs, TextConfig())
    splits = split_examples(examples, DataConfig(valid_percent=10, test_percent=10))
    sides = {}
    for name, exs in splits.items():
        for ex in exs:
            sides.setdefault(ex.src, set()).add(name)
    assert all(len(s) == 1 for s in sides.values())
    assert all(len(splits[name]) > 0 for name in ("train", "valid", "test"))


def test_split_is_deterministic_and_ignores_spacing_variants():
    assert split_of("I am cold.", 10, 10) == split_of("I am cold.", 10, 10)
    assert split_of("I\u00a0am  cold.", 10, 10) == split_of("I am cold.", 10, 10)


def test_vocab_starts_with_specials_and_respects_min_freq_and_max_size():
    sents = [["a", "b", "a"], ["a", "c", "b"]]
    assert Vocab.build(sents).itos == [*SPECIALS, "a", "b", "c"]
    assert Vocab.build(sents, min_freq=2).itos == [*SPECIALS, "a", "b"]
    assert Vocab.build(sents, max_size=5).itos == [*SPECIALS, "a"]
    assert Vocab.build(sents).encode(["a", "zzz"]) == [4, 1]


def test_batches_are_padded_with_bos_and_eos_in_place():
    examples = tokenize_pairs([("a b c", "x y"), ("a", "x y z")], TextConfig())
    src_vocab = Vocab.build(e.src_tokens for e in examples)
    tgt_vocab = Vocab.build(e.tgt_tokens for e in examples)
    b = make_batch(examples, src_vocab, tgt_vocab)
    assert b.src.tolist()[1][1:] == [EOS_ID, PAD_ID, PAD_ID]
    assert b.src_lens.tolist() == [4, 2]
    assert b.tgt_in[:, 0].tolist() == [BOS_ID, BOS_ID]
    assert b.tgt_out.tolist()[0][2:] == [EOS_ID, PAD_ID]
    assert b.n_tokens == 3 + 4


def test_bucketing_covers_every_example_once_with_little_padding():
    pairs = [(" ".join(["w"] * (1 + i % 30)), "v") for i in range(3000)]
    examples = tokenize_pairs(pairs, TextConfig())
    batches = bucket_batches(examples, 32, torch.Generator().manual_seed(0))
    assert sorted(id(e) for b in batches for e in b) == sorted(id(e) for e in examples)
    real = sum(len(e.src_tokens) for e in examples)
    padded = sum(len(b) * max(len(e.src_tokens) for e in b) for b in batches)
    assert padded / real < 1.1
    again = bucket_batches(examples, 32, torch.Generator().manual_seed(0))
    assert [[id(e) for e in b] for b in again] == [[id(e) for e in b] for b in batches]


def test_joined_examples_keep_every_token_once_in_longer_sentences():
    import torch

    from attnviz.data.corpus import Example, join_examples

    examples = [Example(f"s{i}", f"t{i}", [f"s{i}"], [f"t{i}", "."]) for i in range(100)]
    joined = join_examples(examples, 0.5, torch.Generator().manual_seed(0))
    assert sorted(tok for e in joined for tok in e.src_tokens) == sorted(
        f"s{i}" for i in range(100)
    )
    long = [e for e in joined if len(e.src_tokens) > 1]
    assert 50 // 3 <= len(long) <= 50 // 2 and all(2 <= len(e.src_tokens) <= 3 for e in long)
    assert all(e.src == " ".join(e.src_tokens) for e in long)
    again = join_examples(examples, 0.5, torch.Generator().manual_seed(0))
    assert [e.src for e in again] == [e.src for e in joined]  # the seed decides: resumable
    assert join_examples(examples, 0.0, torch.Generator()) is examples
