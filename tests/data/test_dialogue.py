"""The everyday-dialogue corpus as a command (issue 80, item 2): XDailyDialog's tokenized
English made readable, the held-out splits' sentences and repeats dropped, and a corpus file
that training reads in cmn.txt's three columns."""

from __future__ import annotations

import pytest

from attnviz.cli.main import main
from attnviz.data.corpus import read_corpus
from attnviz.data.dialogue import detokenize_english, dialogue_pairs

# (dialogue, English as DailyDialog tokenizes it, Chinese)
TRAIN = [
    (1, "The kitchen stinks .", "厨房很臭。"),
    (1, "I ’ ll throw out the garbage .", "我把垃圾扔出去吧。"),
    (2, "Thank you .", "谢谢你。"),
    (2, "It costs 3 . 5 dollars , or 15 , 000 yuan for the lot .", "三块五，或者一万五千元全要。"),
    (3, "Thank you .", "谢谢你。"),  # a stock line, again
    (3, "I ’ Ve been there since April 12 , 1987 .", "我从1987年4月12日起就在那儿。"),
    (4, "Are you sure ?", "你确定吗？"),  # dialogue 4 reappears in test
    (4, "Yes , I don ’ t doubt it .", "是的，我不怀疑。"),
    (5, "Hello !", "你好！"),  # its Chinese is in dev, written another way in English
]
DEV = [(1, "Hi !", "你好！"), (1, "How are you ?", "你好吗？")]
TEST = [(7, "Are you sure ?", "你确定吗？"), (7, "Yes , I don ’ t doubt it .", "是的，我不怀疑。")]


def _write(folder, name, rows):
    for suffix, column in (("en", 1), ("zh", 2)):
        (folder / f"{name}.{suffix}").write_text("".join(r[column] + "\n" for r in rows))
    (folder / f"{name}.ids").write_text("".join(f"{r[0]}\t{k}\n" for k, r in enumerate(rows)))


@pytest.fixture
def folder(tmp_path):
    for name, rows in (("train", TRAIN), ("dev", DEV), ("test", TEST)):
        _write(tmp_path, name, rows)
    return tmp_path


@pytest.mark.parametrize(
    "tokenized, written",
    [
        ("I ’ ll throw out the garbage .", "I'll throw out the garbage."),
        ("I ’ Ve tried . Don ’ t you see ?", "I've tried. Don't you see?"),
        ("It costs 3 . 5 dollars , or 15 , 000 yuan .", "It costs 3.5 dollars, or 15,000 yuan."),
        ("Since April 12 , 1987 , at 7 : 30 .", "Since April 12, 1987, at 7:30."),
        ("He said , “ Hello ! ” and left .", 'He said, "Hello!" and left.'),
    ],
)
def test_the_english_reads_as_a_person_writes_it(tokenized, written):
    assert detokenize_english(tokenized) == written


def test_the_training_split_drops_held_out_sentences_and_repeats(folder):
    pairs, counts = dialogue_pairs(folder)
    assert [p.english for p in pairs] == [
        "The kitchen stinks.",
        "I'll throw out the garbage.",
        "Thank you.",
        "It costs 3.5 dollars, or 15,000 yuan for the lot.",
        "I've been there since April 12, 1987.",
    ]
    assert [p.dialogue for p in pairs] == [1, 1, 2, 2, 3]
    # dialogue 4 is test's dialogue 7, and "你好！" is dev's: three held out; one repeat
    assert (counts.read, counts.held_out, counts.repeated) == (9, 3, 1)
    held, _ = dialogue_pairs(folder, "test")
    assert held == []  # every test sentence was in train: the test split keeps none of them


def test_the_command_writes_a_corpus_that_training_reads_with_its_licence(folder, capsys):
    out = folder / "out" / "dialogue.tsv"
    assert main(["dialogue", str(folder), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "5 pairs of 9 in train; dropped 3 whose English or Chinese another split has" in err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "The kitchen stinks.\t厨房很臭。\tCC BY-NC-SA 4.0: XDailyDialog dialogue 1"
    corpus = read_corpus(out, source_column=2)  # Chinese -> English, as cmn.txt is read
    assert corpus.skipped == 0 and corpus.attributions == len(corpus.pairs) == 5
    assert corpus.pairs[1] == ("我把垃圾扔出去吧。", "I'll throw out the garbage.")


def test_files_that_do_not_line_up_are_refused_with_the_counts(folder, capsys):
    (folder / "dev.zh").write_text("你好！\n")
    assert main(["dialogue", str(folder), "--out", str(folder / "x.tsv")]) == 2
    err = capsys.readouterr().err
    assert "dev.en, dev.zh and dev.ids have 2, 1 and 2 lines" in err
    assert not (folder / "x.tsv").exists()
    (folder / "dev.zh").unlink()
    assert main(["dialogue", str(folder), "--out", str(folder / "x.tsv")]) == 2
    assert "dev.zh: no such file" in capsys.readouterr().err
