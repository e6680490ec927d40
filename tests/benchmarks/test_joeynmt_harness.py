"""The JoeyNMT harness (benchmarks/peers/joeynmt) writes attnviz's own split and pieces and a
JoeyNMT configuration of the shipped recipe; checked without JoeyNMT, on a corpus made here.
The harness itself (a second environment, minutes of training) is a benchmark, not a test."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from attnviz.data.corpus import DataConfig, read_corpus, split_of
from attnviz.data.subwords import Subwords
from attnviz.data.text import TextConfig
from attnviz.data.toy import corpus, write_corpus

from ..helpers import ROOT

HARNESS = ROOT / "benchmarks" / "peers" / "joeynmt"
SUBWORDS = 400  # pieces per language: 256 bytes (byte fallback) and the toy words
LONG = ("one two three four five six seven eight nine ten . " * 6).strip()  # over --max-len


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"joeynmt_harness_{name}", HARNESS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def prepare():
    return _module("prepare")


@pytest.fixture(scope="module")
def h(prepare):
    return prepare.h  # the folder's shared module, as prepare.py imports it


@pytest.fixture(scope="module")
def work(tmp_path_factory, prepare):
    """A corpus with what Tatoeba has (no-break spaces, curly apostrophes, a pair too long to
    train on), prepared as run.sh prepares fra.txt."""
    root = tmp_path_factory.mktemp("joeynmt")
    data = root / "pairs.txt"
    write_corpus(data, corpus(1500, seed=0, language="names"))
    with data.open("a", encoding="utf-8") as f:
        f.write("I’m cold!\tJ’ai froid\u202f!\n")
        f.write("Where is it?\tOù est-ce\u00a0?\n")
        f.write(f"{LONG}\t{LONG}\n")
    prepare.write_work(data, root / "work", subwords=SUBWORDS, log=lambda *_: None)
    return data, root / "work"


def _pairs(h, work: Path, name: str) -> Counter:
    src, tgt = (h.read_pieces(work / f"{name}.{lang}") for lang in ("en", "fr"))
    assert len(src) == len(tgt)
    return Counter(zip(map(tuple, src), map(tuple, tgt), strict=True))


@pytest.mark.parametrize("name", ["train", "valid", "test"])
def test_each_split_holds_the_pairs_attnviz_puts_there_as_its_pieces(work, h, name):
    data, folder = work
    subwords = Subwords(*((folder / f"spm.{lang}.model").read_bytes() for lang in ("en", "fr")))
    text, config = TextConfig(), DataConfig(subwords=SUBWORDS)
    expected = Counter()
    for src, tgt in read_corpus(data).pairs:
        if split_of(src) != name:
            continue
        pair = (
            tuple(subwords.src.encode(text.tokenize(src, "src"))),
            tuple(subwords.tgt.encode(text.tokenize(tgt, "tgt"))),
        )
        if name != "train" or max(map(len, pair)) <= config.max_len:
            expected[pair] += 1
    assert expected and _pairs(h, folder, name) == expected


def test_the_pair_too_long_to_train_on_is_left_out(work, h):
    _, folder = work
    assert all(len(s) <= DataConfig().max_len for s, _ in _pairs(h, folder, "train"))


def test_the_vocabularies_are_the_sentencepiece_pieces_in_id_order(work, h):
    _, folder = work
    for lang in ("en", "fr"):
        pieces = Subwords((folder / f"spm.{lang}.model").read_bytes()).src
        lines = (folder / f"vocab.{lang}").read_text(encoding="utf-8")
        assert lines.split("\n")[:-1] == pieces.vocab.itos
        # JoeyNMT reads its files with str.splitlines: no line may split in two there.
        assert lines.splitlines() == pieces.vocab.itos


def test_every_data_file_reads_the_same_under_joeynmts_line_splitting(work, h):
    _, folder = work
    for name in (h.TRAIN, h.VALID, h.TEST, h.BLEU):
        for lang in h.LANGS:
            text = (folder / f"{name}.{lang}").read_text(encoding="utf-8")
            assert len(text.splitlines()) == text.count("\n") > 0


def test_bleu_and_latency_sentences_come_from_their_held_out_splits(work, h):
    _, folder = work
    bleu = h.read_json(folder / h.BLEU_JSON)
    assert bleu["sources"] and all(split_of(s) == "valid" for s in bleu["sources"])
    assert len(h.read_pieces(folder / f"{h.BLEU}.en")) == len(bleu["sources"])
    latency = h.read_json(folder / h.LATENCY_JSON)
    test_sources = {tuple(s) for s, _ in _pairs(h, folder, "test")}
    assert latency["src"] and all(tuple(s) in test_sources for s in latency["src"])
    assert all(n >= 2 for n in latency["steps"])  # a piece and <eos> at least


def test_speed_batches_are_length_bucketed_lines_of_the_training_file(work, h):
    _, folder = work
    batches = h.read_json(folder / h.BATCHES_JSON)
    n_train = sum(_pairs(h, folder, "train").values())
    assert all(1 <= len(b) <= h.RECIPE["batch_size"] for b in batches)
    assert all(0 <= i < n_train for b in batches for i in b)


@pytest.mark.parametrize("attention,joey", [("bahdanau", "bahdanau"), ("general", "luong")])
def test_configuration_follows_the_shipped_recipe(work, prepare, h, attention, joey):
    _, folder = work
    cfg = prepare.joeynmt_config(folder, attention)
    enc, dec, train = cfg["model"]["encoder"], cfg["model"]["decoder"], cfg["training"]
    assert (enc["type"], enc["rnn_type"], dec["type"], dec["rnn_type"]) == (
        "recurrent", "gru", "recurrent", "gru"
    )  # fmt: skip
    assert enc["bidirectional"] and enc["num_layers"] == dec["num_layers"] == 1
    assert 2 * enc["hidden_size"] == dec["hidden_size"] == 384  # H/2 per direction, as attnviz
    assert enc["embeddings"]["embedding_dim"] == dec["embeddings"]["embedding_dim"] == 192
    assert enc["dropout"] == dec["dropout"] == dec["hidden_dropout"] == 0.3
    assert dec["attention"] == joey and dec["init_hidden"] == "bridge" and dec["input_feeding"]
    assert (train["optimizer"], train["learning_rate"], train["label_smoothing"]) == (
        "adam", 1e-3, 0.1
    )  # fmt: skip
    assert (train["batch_size"], train["batch_type"], train["normalization"]) == (
        64, "sentence", "tokens"
    )  # fmt: skip
    assert train["clip_grad_norm"] == 1.0 and not cfg["use_cuda"]
    data = cfg["data"]
    for side, lang in (("src", "en"), ("trg", "fr")):
        assert data[side]["lang"] == lang and data[side]["level"] == "word"
        assert Path(data[side]["voc_file"]).is_file()
        for split in ("train", "dev", "test"):
            assert Path(f"{data[split]}.{lang}").is_file()
    specials = data["special_symbols"]
    vocab = (folder / "vocab.fr").read_text(encoding="utf-8").split("\n")
    for name in ("unk", "pad", "bos", "eos"):
        assert specials[f"{name}_token"] in vocab  # attnviz's own special pieces
    ids = [specials[f"{name}_id"] for name in ("unk", "pad", "bos", "eos")]
    assert ids == [0, 1, 2, 3]  # JoeyNMT's Vocabulary puts its specials in this order


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_written_yaml_reads_back_as_the_configuration(work, prepare, h, attention):
    import yaml

    _, folder = work
    written = yaml.safe_load(h.config_path(folder, attention).read_text(encoding="utf-8"))
    assert written == prepare.joeynmt_config(folder, attention)


def test_a_prepared_folder_is_up_to_date_only_for_its_corpus_and_settings(work, prepare, h):
    data, folder = work
    settings = h.read_json(folder / h.MANIFEST)["settings"]
    assert prepare.up_to_date(data, folder, settings)
    assert not prepare.up_to_date(data, folder, {**settings, "subwords": SUBWORDS + 1})


def test_the_lean_recipe_ties_the_output_layer_and_writes_its_own_hypotheses(
    work, h, capsys, monkeypatch, tmp_path
):
    """attnviz_side.py's budget run of the lean recipe (item 4 of issue 27), for a second."""
    from argparse import Namespace

    side = _module("attnviz_side")
    _, folder = work
    lean = side.Setup(folder, "general", "fp32", "lean")
    assert lean.model.generator.weight is lean.model.decoder.embed.weight
    assert lean.config.schedule == "linear" and lean.config.lr_at(0.5) == pytest.approx(5e-4)
    shipped = side.Setup(folder, "general", "fp32")
    assert not hasattr(shipped.model.generator, "proj") and shipped.config.decay_after == 5
    run = Namespace(work=folder, attention="general", precision="fp32", recipe="lean")
    side.budget(Namespace(**vars(run), minutes=0.02, marks=2))
    sources = h.read_pieces(folder / f"{h.BLEU}.en")
    for minutes in (0.01, 0.02):
        hyps = h.read_pieces(h.hyps_path(folder, "attnviz_lean", "general", minutes))
        assert len(hyps) == len(sources)
    figures = dict(line.split() for line in capsys.readouterr().out.splitlines())
    assert float(figures["budget_cpu_s"]) >= 1.2 and int(figures["budget_steps"]) > 0

    drawn = []  # the picture itself needs kaleido and Chromium: its figure is checked here
    monkeypatch.setattr(side.image_export, "to_image", lambda fig, fmt: drawn.append(fig) or b"png")
    sentence = "Tom met Kodari in Paris."
    side.attention(Namespace(**vars(run), minutes=0.02, sentence=sentence, out=tmp_path))
    assert (tmp_path / "attnviz_lean-general.png").read_bytes() == b"png"
    pieces = h.read_json(h.attention_json(folder, "general"))["src"]
    assert "".join(pieces).replace("▁", " ").strip() == "Tom met Kodari in Paris ."
    assert set(pieces) <= set((folder / "vocab.en").read_text(encoding="utf-8").split("\n"))
    (heatmap,) = drawn[0].data
    assert len(heatmap.x) == len(pieces) + 1  # and <eos>
