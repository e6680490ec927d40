"""eflomal beside attention in the dashboard: its links on both heatmaps, each model's
agreement with them, and the corpus page's "attention vs eflomal" column."""

from __future__ import annotations

import shutil

import pytest

from attnviz.analysis.eflomal_aligner import build_priors
from attnviz.data.corpus import DataConfig, read_corpus
from attnviz.store.priors_file import save_priors
from attnviz_ui.state.session_keys import Key

from ..helpers import (
    heatmaps_on,
    open_dashboard,
    run_corpus,
    run_corpus_with_gold,
    type_sentence,
)
from ..synthetic import corpus


@pytest.fixture(scope="module")
def with_priors(checkpoints, corpus_file, tmp_path_factory):
    """The shipped checkpoints folder with the priors of the models' corpus beside them."""
    folder = tmp_path_factory.mktemp("with-priors")
    for path in checkpoints.iterdir():
        shutil.copy(path, folder / path.name)
    save_priors(build_priors(read_corpus(corpus_file)), folder / "eflomal-priors.txt.gz")
    return folder


@pytest.fixture
def aligned(with_priors, monkeypatch):
    at = open_dashboard(with_priors, monkeypatch)
    assert not at.exception
    return at


def _drawn(fig: dict, name: str) -> set[tuple[int, int]]:
    """The (column, row) positions of a heatmap's markers called ``name``."""
    x_labels, y_labels = fig["data"][0]["x"], fig["data"][0]["y"]
    (markers,) = [d for d in fig["data"] if d.get("name") == name]
    return {
        (x_labels.index(x), y_labels.index(y))
        for x, y in zip(markers["x"], markers["y"], strict=True)
    }


def test_the_switch_draws_eflomal_links_on_both_heatmaps_apart_from_gold(aligned):
    (en, fr, links), *_ = corpus(1, seed=21)
    type_sentence(aligned, en, fr)  # both models force-decoded on the reference
    for fig in heatmaps_on(aligned):
        assert not any(d.get("name") == "eflomal link" for d in fig["data"])
    aligned.toggle(key=Key.FINISHED).set_value(True)
    aligned.toggle(key=Key.EFLOMAL_ON).set_value(True).run()
    assert not aligned.exception, aligned.exception
    heatmaps = heatmaps_on(aligned)
    assert len(heatmaps) == 2
    for fig in heatmaps:
        (markers,) = [d for d in fig["data"] if d.get("name") == "eflomal link"]
        assert markers["marker"]["symbol"] == "circle-open"  # gold's are crosses
        right = _drawn(fig, "eflomal link") & set(links)
        assert len(right) >= len(links) - 1  # the toy's alignment is known


def test_before_the_last_step_only_the_links_of_the_rows_written_are_drawn(aligned):
    (en, fr, _), *_ = corpus(1, seed=22)
    type_sentence(aligned, en, fr)
    aligned.toggle(key=Key.EFLOMAL_ON).set_value(True)
    aligned.slider(key=Key.STEP).set_value(1).run()  # a new sentence opens on its last step
    for fig in heatmaps_on(aligned):  # step 1
        assert {row for _, row in _drawn(fig, "eflomal link")} == {0}


def test_each_model_shows_its_attention_against_eflomal(aligned):
    type_sentence(aligned, "a red car sees a bird .")
    aligned.toggle(key=Key.EFLOMAL_ON).set_value(True).run()
    metrics = {m.label: m.value for m in aligned.metric}
    for name in ("bahdanau", "luong"):
        assert 0 <= float(metrics[f"{name}: attention vs eflomal (AER)"]) <= 100
    assert any("Attention vs eflomal" in c.value for c in aligned.caption)
    # The models and the priors come from one corpus: no warning but, perhaps, a doubt about
    # the tiny models' translation.
    assert not [w.value for w in aligned.warning if "Check this translation" not in w.value]


def test_with_gold_eflomal_own_aer_stands_beside_attention(aligned):
    pairs = corpus(3, seed=23)
    run_corpus_with_gold(aligned, pairs)
    aligned.button(key=Key.CORPUS_OPEN).click().run()
    aligned.toggle(key=Key.EFLOMAL_ON).set_value(True).run()
    assert not aligned.exception, aligned.exception
    gold = [c.value for c in aligned.caption if c.value.startswith("Against the gold links")]
    assert len(gold) == 2 and all("eflomal AER" in g and "attention AER" in g for g in gold)


def test_the_corpus_page_ranks_sentences_by_attention_against_eflomal(aligned):
    pairs = corpus(6, seed=24)
    run_corpus(aligned, "\n".join(en for en, _, _ in pairs))  # no references, no gold
    frame = aligned.dataframe[0].value
    for name in ("bahdanau", "luong"):
        column = frame[f"{name} attention vs eflomal"]
        assert column.between(0, 100).all()
    first = frame["bahdanau attention vs eflomal"].tolist()
    assert first == sorted(first, reverse=True)  # the worst disagreement first, one click away
    picked = aligned.selectbox(key=Key.CORPUS_PICK)
    assert picked.options[0].startswith(f"#{frame['#'][0]}:")


def test_without_priors_the_switch_says_how_to_make_them(app):
    type_sentence(app, "a red car sees a bird .")
    app.toggle(key=Key.EFLOMAL_ON).set_value(True).run()
    assert not app.exception, app.exception
    assert any("python -m attnviz priors" in w.value for w in app.warning)
    for fig in heatmaps_on(app):
        assert not any(d.get("name") == "eflomal link" for d in fig["data"])


def test_priors_of_another_split_are_flagged_for_each_model(
    checkpoints, corpus_file, tmp_path, monkeypatch
):
    for path in checkpoints.iterdir():
        shutil.copy(path, tmp_path / path.name)
    other = build_priors(read_corpus(corpus_file), data=DataConfig(test_percent=10.0))
    save_priors(other, tmp_path / "eflomal-priors.txt.gz")
    at = type_sentence(open_dashboard(tmp_path, monkeypatch), "a red car sees a bird .")
    at.toggle(key=Key.EFLOMAL_ON).set_value(True).run()
    flagged = [w.value for w in at.warning if "may not fit this model" in w.value]
    assert len(flagged) == 2 and all("holds out" in w for w in flagged)


def _in_page_order(block):
    """The elements under an AppTest ``block``, as the page shows them, top to bottom."""
    for _, node in sorted(getattr(block, "children", {}).items()):
        if getattr(node, "children", None):
            yield from _in_page_order(node)
        else:
            yield node


def test_the_words_eflomal_finds_lost_are_named_under_each_heatmap(aligned, monkeypatch):
    """The check runs after both heatmaps are sent (the pictures wait for no aligner), and
    each model's note sits under its own heatmap, where the grids leave the first screen."""
    from attnviz_ui.serving import aligner

    asked = []

    def first_word_lost(checkpoints, traces):
        asked.append([t.src_tokens[:-1] for t in traces])
        return [[i == 0 for i in range(len(t.src_tokens) - 1)] for t in traces]

    monkeypatch.setattr(aligner, "lost_of", first_word_lost)
    (en, _, _), *_ = corpus(1, seed=25)
    type_sentence(aligned, en)
    first = en.split()[0]
    assert asked and all(sources[0] == sources[1] for sources in asked)  # both models at once
    order = [node.type for node in _in_page_order(aligned.main)]
    notes = [
        k for k, node in enumerate(_in_page_order(aligned.main))
        if node.type == "warning" and f"“{first}” may be missing" in node.value
    ]  # fmt: skip
    assert len(notes) == 2  # one per model
    charts = [k for k, kind in enumerate(order) if kind == "plotly_chart"]
    assert charts[0] < notes[0] and charts[1] < notes[1]
