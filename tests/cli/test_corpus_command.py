"""``attnviz index`` and ``attnviz corpus``, as a user types them, on a small toy corpus aligned
by eflomal and a tiny model whose card says it was trained on it."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from attnviz.cli.main import main
from attnviz.data.corpus import DataConfig, read_corpus, split_of
from attnviz.data.text import TextConfig
from attnviz.store.checkpoint import file_sha256, read_settings, save

from ..helpers import tiny_translator
from ..synthetic import corpus, write_corpus


def _model(path, corpus_file) -> str:
    """A tiny model whose card says it was trained on ``corpus_file``."""
    tr = tiny_translator("bahdanau")
    card = {"corpus": {"file": corpus_file.name, "sha256": read_corpus(corpus_file).sha256}}
    save(path, tr.model, tr.src_vocab, tr.tgt_vocab, TextConfig(), DataConfig(subwords=0), card)
    return str(path)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(corpus file, model, index): the index built from the model's settings, named in its
    card."""
    folder = tmp_path_factory.mktemp("corpus-index")
    data = folder / "toy.txt"
    write_corpus(data, corpus(400, seed=1))
    model = _model(folder / "tiny.safetensors", data)
    out = folder / "toy.sqlite"
    argv = ["index", str(data), "--checkpoint", model, "--out", str(out), "--card", model]
    assert main(argv) == 0
    return data, model, out


def test_card_only_names_the_index_there_in_a_new_model_s_card_and_leaves_the_index(
    built, tmp_path, capsys
):
    data, _model_path, out = built
    before = file_sha256(out)
    second = _model(tmp_path / "second.safetensors", data)  # trained on the same corpus later
    argv = ["index", str(data), "--out", str(out), "--card-only", "--card", second]
    assert main(argv) == 0
    assert file_sha256(out) == before  # not built anew
    assert read_settings(second)[0]["corpus_index"] == {"file": out.name, "sha256": before}
    other = tmp_path / "other.txt"
    write_corpus(other, corpus(50, seed=9))
    assert main(["index", str(other), "--out", str(out), "--card-only", "--card", second]) == 2
    assert "indexes another corpus" in capsys.readouterr().err
    assert main(["index", str(data), "--out", str(out), "--card-only"]) == 2
    assert "give some" in capsys.readouterr().err


def _hand_count(corpus_file, word: str) -> int:
    """Training pairs whose English words hold ``word`` (the full stop taken off)."""
    lines = corpus_file.read_text(encoding="utf-8").splitlines()
    english = [line.split("\t")[0] for line in lines]
    return sum(word in en.rstrip(".").split() and split_of(en) == "train" for en in english)


def _ask(capsys, *argv) -> dict:
    assert main(["corpus", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_card_names_the_index_by_sha256(built):
    _, model, out = built
    card = read_settings(model)[0]
    assert card["corpus_index"] == {"file": out.name, "sha256": file_sha256(out)}


def test_corpus_counts_a_word_as_a_hand_count_does(built, capsys):
    data, model, _ = built
    answer = _ask(capsys, model, "cat")
    assert answer["pairs"] == _hand_count(data, "cat") > 0
    assert answer["links"][0]["target"] == "chat"  # eflomal finds the toy's one translation
    assert answer["links"][0]["share"] > 0.8
    assert len(answer["examples"]) == 3 and all("cat" in e["source"] for e in answer["examples"])


def test_corpus_with_a_target_counts_the_linked_pairs(built, capsys):
    _, model, _ = built
    cat = _ask(capsys, model, "cat")
    linked = _ask(capsys, model, "cat", "--target", "chat", "--limit", "1")
    # every pair whose links hold "chat": "chat" alone, and with words linked beside it
    assert linked["pairs"] == sum(x["count"] for x in cat["links"] if "chat" in x["target"].split())
    assert linked["pairs"] >= cat["links"][0]["count"]
    assert len(linked["examples"]) == 1 and "chat" in linked["examples"][0]["target"]
    assert _ask(capsys, model, "cat", "--target", "chien")["pairs"] < linked["pairs"] / 10


def test_corpus_prints_the_links_and_marks_the_examples(built, capsys):
    _, model, _ = built
    assert main(["corpus", model, "red cat"]) == 0
    out = capsys.readouterr().out
    assert "pairs of tiny's training split (toy.txt)" in out
    assert "[red] [cat]" in out
    # each example's target marks the words eflomal linked in it, one of the links listed
    # ("chat", or "chat rouge": eflomal samples, unseeded, and red's link is in doubt)
    listed = {" ".join(line.split()[:-2]) for line in out.split("for example:")[0].splitlines()[2:]}
    examples = [line for line in out.split("for example:")[1].splitlines() if "→" in line]
    assert examples and any("chat" in link.split() for link in listed)
    for example in examples:
        marked = " ".join(re.findall(r"\[(\w+)\]", example.split("→")[1]))
        assert marked in listed, (marked, listed)


def test_an_index_of_another_corpus_is_refused(built, tmp_path, capsys):
    data, _, out = built
    other = tmp_path / "other.txt"
    write_corpus(other, corpus(100, seed=2))
    stranger = _model(tmp_path / "stranger.safetensors", other)
    assert main(["corpus", stranger, "cat", "--index", str(out)]) == 2
    assert "indexes another corpus (toy.txt" in capsys.readouterr().err
    assert main(["index", str(data), "--out", str(tmp_path / "x.sqlite"), "--card", stranger]) == 2
    assert "another corpus" in capsys.readouterr().err


def test_a_missing_index_says_how_to_build_it(built, tmp_path, capsys):
    model = built[1]
    moved = tmp_path / "moved.safetensors"
    shutil.copy(model, moved)  # its card names toy.sqlite, which is not beside it
    assert main(["corpus", str(moved), "cat"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'toy.sqlite'}: no such corpus index" in err
    assert f"python -m attnviz index CORPUS --checkpoint {moved}" in err


def test_index_refuses_a_checkpoint_of_another_corpus(built, tmp_path, capsys):
    model = built[1]
    other = tmp_path / "other.txt"
    write_corpus(other, corpus(50, seed=3))
    argv = ["index", str(other), "--checkpoint", model, "--out", str(tmp_path / "o.sqlite")]
    assert main(argv) == 2
    assert "was trained on another corpus" in capsys.readouterr().err


def test_steps_indexes_a_trained_model_s_steps_and_checks_them(trained, corpus_file, tmp_path):
    """On the toy, a tiny trained model's nearest training steps mostly wrote the same word."""
    from attnviz.store.checkpoint import weights_digest
    from attnviz.store.step_index import StepIndex

    model = tmp_path / "luong.safetensors"
    shutil.copy(trained("general")[0], model)
    out = tmp_path / "syn.sqlite"
    assert main(["index", str(corpus_file), "--checkpoint", str(model), "--out", str(out),
                 "--card", str(model)]) == 0  # fmt: skip
    argv = ["steps", str(model), "--pairs", "400", "--held-out", "60", "--threads", "1"]
    assert main(argv) == 0
    index = StepIndex(tmp_path / "luong.steps")
    assert index.meta["sample"]["pairs"] == 400 and len(index) == index.meta["sample"]["steps"]
    held = index.meta["held_out"]
    assert held["held_out_steps"] > 100
    assert held["same_word"] > 0.5  # more than half the neighbours wrote the same word
    sha256 = read_settings(model)[0]["corpus_index"]["sha256"]
    assert index.refusal(weights_digest(model), sha256) is None
