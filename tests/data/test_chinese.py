"""Chinese as a reader counts its words: jieba's segmentation, pieces owned by words, words
joined without spaces, and a corpus read the other way round (cmn.txt's Chinese as the source)."""

import pytest

from attnviz.data.corpus import DataConfig, read_corpus
from attnviz.data.subwords import Subwords, character_coverage
from attnviz.data.text import TextConfig

from ..chinese_toy import corpus, write_cmn

ZH_EN = TextConfig(src_lang="zh", tgt_lang="en")


def test_the_classroom_sentence_reads_as_four_words_and_a_full_stop():
    assert ZH_EN.tokenize("我爱吃苹果。", "src") == ["我", "爱", "吃", "苹果", "。"]


def test_names_and_numbers_are_words_of_their_own():
    assert ZH_EN.tokenize("汤姆有3个苹果。", "src") == ["汤姆", "有", "3", "个", "苹果", "。"]
    assert ZH_EN.tokenize("Tom 是我的朋友。", "src") == ["Tom", "是", "我", "的", "朋友", "。"]


def test_every_toy_sentence_segments_into_the_words_it_was_written_as():
    for zh, _ in corpus(300, seed=1):
        assert ZH_EN.tokenize("".join(zh), "src") == zh


def test_chinese_joins_without_spaces_and_english_detokenizes_as_before():
    en_zh = TextConfig(src_lang="en", tgt_lang="zh")
    assert en_zh.detokenize(["汤姆", "有", "3", "个", "苹果", "。"]) == "汤姆有3个苹果。"
    assert en_zh.detokenize(["Tom", "Jackson", "来", "了", "。"]) == "Tom Jackson来了。"
    assert ZH_EN.detokenize(["I", "love", "to", "eat", "apples", "."]) == "I love to eat apples."
    assert TextConfig().detokenize(["J'", "ai", "froid", "!"]) == "J'ai froid !"


def test_a_sentence_in_the_other_language_gets_a_note():
    assert "Chinese" in ZH_EN.language_note("I love apples.", "src")
    assert ZH_EN.language_note("我爱Tom。", "src") is None
    assert "English" in TextConfig().language_note("I love 苹果", "src")
    assert TextConfig().language_note("I love apples.", "src") is None


def test_chinese_pieces_cover_fewer_characters_than_english_ones():
    assert character_coverage("zh") == 0.9995 < character_coverage("en") == 0.9999
    assert character_coverage("en", "zh") == 0.9995  # a joint model covers the harder side


@pytest.fixture(scope="module")
def subwords():
    pairs = [(zh, en) for zh, en in corpus(600, seed=2)]
    return Subwords.train(pairs, vocab_size=330, langs=("zh", "en"))


def test_pieces_belong_to_the_chinese_words_they_spell(subwords):
    words = ZH_EN.tokenize("我爱吃苹果。", "src")
    pieces, owner = subwords.src.split(words)
    assert len(owner) == len(pieces) >= len(words) and sorted(set(owner)) == list(range(5))
    spelled = ["".join(p for p, o in zip(pieces, owner, strict=True) if o == i) for i in range(5)]
    assert [s.lstrip("\u2581") for s in spelled] == words
    assert subwords.src.join(pieces) == (words, owner)


def test_a_character_never_seen_is_bytes_not_unk(subwords):
    pieces = subwords.src.encode(["我", "爱", "龘"])
    assert "<unk>" not in pieces and any(subwords.src.is_byte(p) for p in pieces)
    assert subwords.src.join(pieces)[0] == ["我", "爱", "龘"]


@pytest.fixture
def cmn_file(tmp_path):
    path = tmp_path / "cmn.txt"
    write_cmn(path, corpus(50, seed=3))
    return path


def test_the_second_column_is_read_as_the_source(cmn_file):
    forward, reverse = read_corpus(cmn_file), read_corpus(cmn_file, source_column=2)
    assert reverse.pairs == [(zh, en) for en, zh in forward.pairs]
    assert reverse.pairs[0][0].endswith("。") and reverse.pairs[0][1].endswith(".")
    assert reverse.attributions == forward.attributions == 50 and reverse.sha256 == forward.sha256


def test_a_source_column_other_than_one_or_two_is_refused(cmn_file):
    with pytest.raises(ValueError, match=r"\(1, 2\)"):
        read_corpus(cmn_file, source_column=3)
    with pytest.raises(ValueError, match=r"\(1, 2\)"):
        DataConfig(source_column=0)


def test_a_model_trained_on_the_reversed_columns_translates_the_classroom_sentence(
    chinese_trained,
):
    from attnviz import load

    tr = load(chinese_trained("bahdanau"), precision="fp32")
    assert tr.card["languages"] == {"source": "zh", "target": "en"}
    assert tr.card["corpus"]["source_column"] == 2 and tr.card["corpus"]["attributed_lines"]
    trace = tr.translate("我爱吃苹果。")  # not in the toy corpus
    assert trace.text == "I love to eat apples."
    assert trace.src_tokens == ["我", "爱", "吃", "苹果", "。", "<eos>"]
    apples = trace.tgt_tokens.index("apples")
    assert trace.src_tokens[trace.weights[apples].argmax()] == "苹果"


def test_translate_writes_english_and_notes_a_line_in_the_wrong_language(
    chinese_trained, monkeypatch, capsys
):
    import io

    from attnviz.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO("我爱吃苹果。\nI love apples.\n"))
    assert main(["translate", str(chinese_trained("bahdanau"))]) == 0
    out, err = capsys.readouterr()
    assert out.split("\n")[0] == "I love to eat apples."
    assert "line 2: This model reads Chinese" in err and "line 1" not in err


def test_eflomal_priors_of_the_reversed_columns_align_a_chinese_pair(
    chinese_trained, tmp_path, monkeypatch, capsys
):
    import io

    from attnviz.cli.main import main

    model = chinese_trained("bahdanau")
    priors = tmp_path / "zh-en.txt.gz"
    sides = ["--source-column", "2", "--src-lang", "zh", "--tgt-lang", "en"]
    assert main(["priors", "--data", str(model.parent / "cmn.txt"), "--out", str(priors),
                 *sides]) == 0  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("我 爱 吃 苹果 。 ||| I love to eat apples .\n"))
    capsys.readouterr()
    assert main(["align", str(model), "--source", "eflomal", "--priors", str(priors)]) == 0
    links = capsys.readouterr().out.split()
    assert {"0-0", "3-4", "4-5"} <= set(links)


def test_init_from_a_chinese_model_reads_its_source_column_unless_told(chinese_trained, tmp_path):
    """Continuing a zh → en model on cmn.txt without --source-column still reads Chinese as the
    source (the checkpoint's column), where column 1 would feed it English as Chinese."""
    from attnviz import load
    from attnviz.cli.main import main

    parent = chinese_trained("bahdanau")
    child = tmp_path / "child.safetensors"
    argv = ["train", "--data", str(parent.parent / "cmn.txt"), "--init-from", str(parent),
            "--out", str(child), "--epochs", "1", "--lr", "1e-4"]  # fmt: skip
    assert main(argv) == 0
    tr = load(child, precision="fp32")
    assert tr.card["corpus"]["source_column"] == 2
    assert tr.translate("我爱吃苹果。").text == "I love to eat apples."


def test_alignments_count_chinese_words_whether_or_not_the_text_is_cut():
    assert ZH_EN.words("我爱吃苹果。", "src") == ["我", "爱", "吃", "苹果", "。"]
    assert ZH_EN.words("我 爱 吃 苹果 。", "src") == ["我", "爱", "吃", "苹果", "。"]
    assert ZH_EN.words("汤姆 有 三个 孩子", "src") == ["汤姆", "有", "三个", "孩子"]  # as cut
    assert ZH_EN.words("I love apples.", "tgt") == ["I", "love", "apples."]


@pytest.mark.parametrize("source", ["attention", "attribution"])
def test_align_gives_the_same_links_for_chinese_cut_or_not(
    chinese_trained, monkeypatch, capsys, source
):
    # Issue 51: unsegmented Chinese was one word, every English word linked to source word 0.
    import io

    from attnviz.cli.main import main

    lines = "我爱吃苹果。 ||| I love to eat apples .\n我 爱 吃 苹果 。 ||| I love to eat apples .\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["align", str(chinese_trained("bahdanau")), "--source", source]) == 0
    whole, cut = capsys.readouterr().out.split("\n")[:2]
    assert whole == cut
    assert {int(link.split("-")[0]) for link in whole.split()} > {0}  # not all on word 0


@pytest.mark.slow
def test_a_model_that_writes_chinese_writes_jieba_words_joined_without_spaces(tmp_path):
    # Issue 51: English -> Chinese, the toy's columns read as they are written.
    from attnviz import load
    from attnviz.cli.main import main
    from attnviz.data.chinese import segment

    from ..helpers import CHINESE_FLAGS

    data, out = tmp_path / "cmn.txt", tmp_path / "en-zh.safetensors"
    write_cmn(data, corpus(1500, seed=0))
    flags = [*CHINESE_FLAGS[6:], "--src-lang", "en", "--tgt-lang", "zh", "--precision", "fp32"]
    assert main(["train", "--data", str(data), "--out", str(out), "--attention", "general",
                 *flags]) == 0  # fmt: skip
    tr = load(out, precision="fp32")
    assert "tok:zh" in tr.card["test_bleu"]["signature"] and tr.card["test_bleu"]["beam1"] > 20
    trace = tr.translate("I love to eat apples.")
    words = trace.tgt_tokens[:-1]
    assert " " not in trace.text and words == segment(trace.text)  # rows are jieba's words
    assert trace.weights.shape == (len(trace.tgt_tokens), len(trace.src_tokens))
    history = tr.history  # its probes' matrices are read as jieba's words, as recorded
    last = history.matrices(len(history.snapshots) - 1)
    for probe, matrix in zip(history.probes, last, strict=True):
        source, target = probe.words()
        assert matrix.shape == probe.shape == (len(target), len(source) + 1)
        assert target == segment(probe.target) and abs(matrix.sum(1) - 1).max() < 0.01


@pytest.mark.slow
def test_a_transformer_writing_chinese_records_each_epochs_own_valid_bleu(tmp_path):
    """Issue 80: an English -> Chinese Transformer printed "valid BLEU 0.0" at every epoch (the
    untrained model's figure), and one fine-tuned with --init-from its parent's figure, while
    their losses fell: each epoch's BLEU is the model's as it stands then, with sacreBLEU's
    ``zh`` tokenizer, and the best epoch's is what the saved model, scored afresh, gives."""
    from attnviz import load
    from attnviz.analysis.evaluate import corpus_bleu
    from attnviz.cli.main import main
    from attnviz.data.corpus import group_references
    from attnviz.data.prepare import prepare, read

    data, parent, child = (tmp_path / name for name in ("cmn.txt", "parent", "child"))
    write_cmn(data, corpus(1500, seed=0))
    schedule = ["--epochs", "2", "--bleu-sentences", "0", "--lr", "0.003", "--warmup", "0.5",
                "--join-fraction", "0", "--test-beam", "1", "--precision", "fp32"]  # fmt: skip
    transformer = ["--src-lang", "en", "--tgt-lang", "zh", "--subwords", "330", "--model",
                   "transformer", "--attention", "multihead", "--embed", "64", "--hidden", "64",
                   "--layers", "2", "--heads", "2", "--ff", "128"]  # fmt: skip
    assert main(["train", "--data", str(data), "--out", str(parent), *transformer,
                 *schedule]) == 0  # fmt: skip
    assert main(["train", "--data", str(data), "--out", str(child), "--init-from", str(parent),
                 *schedule]) == 0  # fmt: skip
    quiet = lambda *_: None  # noqa: E731
    first = None
    for out in (parent, child):
        tr = load(out, precision="fp32")
        curve = tr.history.epochs["valid_bleu"]
        assert "tok:zh" in tr.card["test_bleu"]["signature"]
        assert curve[-1] != curve[-2] and curve[-1] > 10, curve
        valid = prepare(read(data, tr.data, quiet), tr.text, tr.data, quiet, tr).splits["valid"]
        sources, refs = group_references((e.src, e.tgt) for e in valid)
        best = tr.card["best_epoch"]
        assert corpus_bleu(tr, sources, refs).score == pytest.approx(curve[best - 1], abs=0.01)
        first = first or curve
    assert curve[: len(first)] == first  # the child's curve goes on from its parent's
