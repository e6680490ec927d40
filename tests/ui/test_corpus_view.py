"""What the corpus says, in the step view: the tiny models with their corpus's index beside them,
as `attnviz index --card` ships it; without a corpus index, the view says how to build one, and
without a step index of the model's weights, it builds one."""

from __future__ import annotations

import re
import shutil

import pytest

from attnviz.cli.main import main
from attnviz.data.corpus import split_of
from attnviz.data.text import TextConfig
from attnviz_ui.state.session_keys import Key

from ..helpers import open_dashboard, type_sentence


@pytest.fixture(scope="module")
def indexed(checkpoints, corpus_file, tmp_path_factory):
    """The shipped tiny checkpoints, their cards naming the index of their corpus beside them."""
    folder = tmp_path_factory.mktemp("indexed")
    for path in checkpoints.iterdir():
        shutil.copy(path, folder / path.name)
    models = [str(p) for p in sorted(folder.glob("*.safetensors"))]
    out = folder / "syn.corpus.sqlite"
    assert main(["index", str(corpus_file), "--checkpoint", models[0], "--out", str(out),
                 "--card", *models]) == 0  # fmt: skip
    for cache in folder.glob("*.links"):
        cache.unlink()
    for model in models:
        assert main(["steps", model, "--pairs", "300", "--held-out", "30", "--threads", "1"]) == 0
    return folder


def _notes(at) -> list[str]:
    return [e.proto.body for e in at.get("html") if "training pair" in e.proto.body]


def _neighbours(at) -> list[str]:
    return [e.proto.body for e in at.get("html") if "· distance" in e.proto.body]


def _hand_count(corpus_file, word: str) -> int:
    """Training pairs whose English tokens hold ``word``."""
    text = TextConfig()
    english = [line.split("\t")[0] for line in corpus_file.read_text().splitlines()]
    return sum(word in text.tokenize(en) and split_of(en) == "train" for en in english)


def test_the_step_view_says_what_the_corpus_says(indexed, corpus_file, monkeypatch):
    at = type_sentence(open_dashboard(indexed, monkeypatch), "The red cat sees a dog.")
    assert not _notes(at)  # off until asked
    at.toggle(key=Key.FINISHED).set_value(True)
    at.toggle(key=Key.CORPUS_ON).set_value(True).run()
    assert not at.exception, at.exception
    at.slider(key=Key.STEP).set_value(3).run()  # the toy writes "chat" at step 3 ("le chat rouge")
    notes = _notes(at)
    assert len(notes) == 2  # one column per model
    for html in notes:
        assert "The sentence “The red cat sees a dog.” is in" in html
        words = re.findall(r"<b>“([^”]+)” \(attention", html)  # the words the step attended
        assert words, html
        for word in words:  # each with its count of training pairs, as counted by hand
            n = _hand_count(corpus_file, word)
            assert re.search(rf"hold it \(\d+ of {n}\)|hold it: {n}\)", html), (word, n, html)
        assert "<mark>" in html  # example pairs, the linked words marked
    page = " ".join(e.proto.body for e in at.get("html"))
    written = re.findall(r"Step 3: writing “([^”]+)”", page)
    neighbours = _neighbours(at)
    assert len(neighbours) == 2 and len(written) == 2
    for html, word in zip(neighbours, written, strict=True):
        wrote = re.findall(r"writes “([^”]+)” · distance (\d\.\d\d)", html)
        assert len(wrote) == 5  # the five nearest training steps
        assert word in [w for w, _ in wrote]  # the toy is small: some wrote the same word
        assert [float(d) for _, d in wrote] == sorted(float(d) for _, d in wrote)


def test_without_an_index_the_view_says_how_to_build_one(checkpoints, monkeypatch):
    at = type_sentence(open_dashboard(checkpoints, monkeypatch), "The red cat sees a dog.")
    at.toggle(key=Key.CORPUS_ON).set_value(True).run()
    assert not at.exception, at.exception
    said = [str(e.value) for e in at.info]
    assert len([s for s in said if "card names no corpus index" in s]) == 2
    assert all("python -m attnviz index CORPUS --checkpoint" in s for s in said if "index" in s)


def test_a_missing_index_file_is_said_with_its_name(indexed, tmp_path, monkeypatch):
    folder = tmp_path / "no-index"
    shutil.copytree(indexed, folder)
    (folder / "syn.corpus.sqlite").unlink()
    at = type_sentence(open_dashboard(folder, monkeypatch), "The red cat sees a dog.")
    at.toggle(key=Key.CORPUS_ON).set_value(True).run()
    assert not at.exception, at.exception
    said = [str(e.value) for e in at.info]
    assert any(f"No corpus index {folder / 'syn.corpus.sqlite'}" in s for s in said), said


def test_a_missing_or_stale_step_index_is_built_on_first_use_with_a_progress_bar(
    indexed, tmp_path, monkeypatch
):
    import threading

    from attnviz.store.checkpoint import weights_digest
    from attnviz.store.step_index import StepIndex

    folder = tmp_path / "no-steps"
    shutil.copytree(indexed, folder)
    first, second = sorted(folder.glob("*.steps"))[:2]
    for path in folder.glob("*.steps"):
        if path != first:
            path.unlink()
    shutil.copy(first, second)  # the first model's steps under the second's name: other weights
    first.unlink()
    at = type_sentence(open_dashboard(folder, monkeypatch), "The red cat sees a dog.")
    at.toggle(key=Key.CORPUS_ON).set_value(True).run()
    assert not at.exception, at.exception
    assert len(_notes(at)) == 2 and not _neighbours(at)  # the notes need no step index
    bars = [bar.proto.text for bar in at.get("progress")]
    assert len(bars) == 2 and all("Indexing the steps of" in text for text in bars), bars
    assert any("No step index lies beside" in text for text in bars)
    assert any("holds the steps of other weights" in text for text in bars)
    for thread in threading.enumerate():  # the builds, shared by every session
        if thread.name.startswith("steps "):
            thread.join(timeout=300)
            assert not thread.is_alive()
    at.run()
    assert not at.exception, at.exception
    assert len(_neighbours(at)) == 2 and not at.get("progress")
    for model in folder.glob("*.safetensors"):
        index = StepIndex(model.with_suffix(".steps"))
        assert index.meta["weights_digest"] == weights_digest(model)
        assert index.meta["held_out"]["held_out_steps"] > 0


def test_the_view_speaks_chinese(indexed, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from ..helpers import ROOT

    monkeypatch.setenv("ATTNVIZ_CHECKPOINTS", str(indexed))
    monkeypatch.setenv("ATTNVIZ_DECODING", "fp32")
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120)
    at.query_params["lang"] = "zh"
    at = type_sentence(at.run(), "The red cat sees a dog.")
    toggle = at.toggle(key=Key.CORPUS_ON)
    assert toggle.label == "语料怎么说"
    toggle.set_value(True).run()
    assert not at.exception, at.exception
    notes = [e.proto.body for e in at.get("html") if "训练句对" in e.proto.body]
    assert len(notes) == 2
    assert all("The corpus" not in html and "training pair" not in html for html in notes)


def test_an_index_of_another_corpus_is_refused_in_the_view(indexed, tmp_path, monkeypatch):
    from ..hand_corpus import hand_index, write_hand_corpus

    folder = tmp_path / "other-index"
    shutil.copytree(indexed, folder)
    (folder / "syn.corpus.sqlite").unlink()  # the name the cards give, another corpus's index
    hand_index(folder / "syn.corpus.sqlite", write_hand_corpus(tmp_path / "hand.txt")).close()
    at = type_sentence(open_dashboard(folder, monkeypatch), "The red cat sees a dog.")
    at.toggle(key=Key.CORPUS_ON).set_value(True).run()
    assert not at.exception, at.exception
    said = [str(e.value) for e in at.info]
    assert len([s for s in said if "indexes another corpus (hand.txt" in s]) == 2, said
    assert not _notes(at)
