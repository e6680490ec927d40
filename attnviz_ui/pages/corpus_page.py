"""The corpus page: both models over many sentences, then any one opened step by step."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attnviz.analysis import compare_models, teaching
from attnviz.analysis.aer import GoldPair
from attnviz.analysis.compare_models import Item, SentenceScore
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import length_charts, teaching_notes
from attnviz.store.catalog import Checkpoint, Direction

from ..serving.corpus import corpus_files, held_out_sentences, parsed_items, upload_text
from ..serving.models import Choice, scores_of
from ..serving.teaching import strays, teaching_of
from ..state.session_keys import Key
from ..views import aligner_view
from ..views.attribution_view import corpus_agreement_ui
from ..widgets.language import translated_headers
from ..widgets.vega import vega_chart
from .navigation import Page, View

SOURCES = [N_("Paste"), N_("Upload"), N_("Held-out split")]
SENTENCES_HELP = N_(
    "One sentence per line: `sentence<TAB>reference translation<TAB>…` (references optional)."
)
GOLD_HELP = N_(
    "Optional: one alignment per sentence, between its words and its first reference's "
    "(Pharaoh `i-j` sure / `i?j` possible, 0-based; or HLT-NAACL 2003 `sentid e f [S|P]`)."
)


# What the Paste box opens on, by direction: the format shown by example, each sentence with its
# reference (tab-separated), ready to run.
PASTE_EXAMPLES = {
    "en-fr": [
        ("I am cold.", "J'ai froid."),
        ("Where is the station?", "Où est la gare ?"),
        ("He bought a red car.", "Il a acheté une voiture rouge."),
    ],
    "zh-en": [
        ("我爱你。", "I love you."),
        ("汤姆有三个孩子。", "Tom has three children."),
        ("你叫什么名字？", "What's your name?"),
    ],
    "en-zh": [
        ("I love you.", "我爱你。"),
        ("Tom has three children.", "汤姆有三个孩子。"),
        ("How much is this book?", "这本书多少钱？"),
    ],
}


def paste_example(direction: Direction) -> str:
    """The Paste box's first text for ``direction``: sentence<TAB>reference lines; empty for a
    direction without examples."""
    pairs = PASTE_EXAMPLES.get(f"{direction.source}-{direction.target}", [])
    return "\n".join(f"{source}\t{reference}" for source, reference in pairs)


def held_out_ui(left: Checkpoint, files: list[str]) -> list[Item]:
    """Sentences from the held-out test split of one of ``files``, as the left model's data
    was split."""
    path = st.selectbox(
        _("Corpus file"),
        files,
        help=_(
            "The file the models were trained on; its held-out test split (which no model "
            "saw) is read as the checkpoint recorded it."
        ),
    )
    count = st.slider(_("Sentences"), 10, 500, 100, step=10)
    with st.spinner(_("Reading the corpus…")):
        return held_out_sentences(path, left, count)


def _upload_text(upload, what: str) -> str:
    if upload is None:
        return ""
    return upload_text(upload.getvalue(), what)


def typed_ui(upload: bool, direction: Direction) -> list[Item]:
    """Sentences and gold alignments pasted (the box opens on examples of ``direction``), or
    uploaded as files; their format said under them."""
    if upload:
        text_file = st.file_uploader(_("Sentences"), type=["txt", "tsv"], help=_(SENTENCES_HELP))
        gold_file = st.file_uploader(
            _("Gold alignments"), type=["txt", "align", "wa"], help=_(GOLD_HELP)
        )
        text = _upload_text(text_file, "the sentences file")
        gold = _upload_text(gold_file, "the gold file")
    else:
        text = st.text_area(_("Sentences"), paste_example(direction), height=150)
        st.caption(_(SENTENCES_HELP))
        gold = st.text_area(_("Gold alignments"), help=_(GOLD_HELP), height=100)
    return parsed_items(text, gold)


def score_ui(models: list[Checkpoint], items: list[Item], beam: int) -> dict:
    """Each model's scores by name, under a progress bar."""
    bar = st.progress(0.0, text=_("Translating…"))
    scores = {}
    for k, checkpoint in enumerate(models):

        def progress(done: int, total: int, k=k, name=checkpoint.name) -> None:
            text = _("{name}: {done} of {total}").format(name=name, done=done, total=total)
            bar.progress((k + done / total) / len(models), text=text)

        scores[checkpoint.name] = scores_of(checkpoint, items, beam, progress)
    bar.empty()
    return scores


def corpus_page_ui(choice: Choice) -> None:
    """Sentences in; once both models have run over them, their scores."""
    st.caption(
        _(
            "Run both models over many sentences: BLEU per sentence and by length, AER where "
            "gold alignments are given, and the attention diagnostics. Open any sentence to step "
            "through it."
        )
    )
    files = corpus_files()  # no corpus configured: no held-out split to offer
    source = st.radio(
        _("Sentences from"),
        SOURCES if files else SOURCES[:2],
        format_func=keeping_language(_),
        horizontal=True,
        key=Key.CORPUS_SOURCE,
    )
    try:
        if source == SOURCES[2]:
            items = held_out_ui(choice.left, files)
        else:
            items = typed_ui(source == SOURCES[1], choice.direction)
    except (ValueError, OSError) as e:
        st.error(_("Could not read the sentences: {error}").format(error=e))
        return
    if not items:
        st.info(_("Give some sentences to score."))
        return
    models = [choice.left, choice.right]
    key = (tuple(models), choice.beam, tuple(items))
    if st.button(
        _("Translate {n} sentences with both models").format(n=len(items)),
        type="primary",
        key=Key.CORPUS_RUN,
    ):
        st.session_state[Key.CORPUS_RESULTS] = (key, score_ui(models, items, choice.beam))
    stored = st.session_state.get(Key.CORPUS_RESULTS)
    if stored and stored[0] == key:
        results_ui(items, stored[1], choice.direction.target, strays_ui(models, items, key))
        corpus_agreement_ui(models, items, choice.beam)


def strays_ui(models: list[Checkpoint], items: list[Item], key: tuple) -> dict:
    """When a model shown has a taught partner and the switch is on: per natural model, how
    far its attention strays from its taught partner's on each sentence (by column name)."""
    pairs = list(dict.fromkeys(p for c in models if (p := teaching_of(c))))
    if not pairs or not st.toggle(
        _(teaching_notes.STRAYS_SWITCH), key=Key.CORPUS_STRAYS, help=_(teaching_notes.STRAYS_HELP)
    ):
        return {}
    wanted = (key, tuple(pairs))
    stored = st.session_state.get(Key.CORPUS_STRAYS_RESULTS)
    if not stored or stored[0] != wanted:
        stored = (wanted, _scored_strays(pairs, items))
        st.session_state[Key.CORPUS_STRAYS_RESULTS] = stored
    return stored[1]


def _scored_strays(pairs: list, items: list[Item]) -> dict[str, list[float | None]]:
    """:func:`attnviz.analysis.teaching.corpus_strays` of each pair, under a progress bar."""
    bar = st.progress(0.0, text=_("Decoding natural and taught models on each sentence…"))
    out = {}
    for k, pair in enumerate(pairs):
        name = teaching.strays_column(pair.natural.name, pair.taught.name)

        def progress(done: int, total: int, k=k, name=name) -> None:
            text = _("{name}: {done} of {total}").format(name=name, done=done, total=total)
            bar.progress((k + done / total) / len(pairs), text=text)

        out[name] = strays(pair, items, progress)
    bar.empty()
    return out


def results_ui(
    items: list[Item],
    scores: dict[str, list[SentenceScore]],
    target: str,
    strays: dict | None = None,
) -> None:
    """Totals, the per-sentence table (ranked by ``strays`` where given: see
    :func:`strays_ui`), BLEU by length (of output in the ``target`` language), and a sentence
    to open."""
    # Each model's figures under one column, one above the other: labels read whole at 1024 px.
    for col, (name, rows) in zip(st.columns(len(scores)), scores.items(), strict=True):
        totals = compare_models.totals(items, rows, target)
        if totals.bleu is not None:
            col.metric(_("{name}: corpus BLEU").format(name=name), f"{totals.bleu:.1f}")
        if totals.aer is not None:
            col.metric(_("{name}: AER").format(name=name), f"{totals.aer.aer:.1f}")
    frame = sentences_ui(items, scores, strays)
    lengths = compare_models.bleu_by_length(items, scores, target)
    if not lengths.empty:
        vega_chart(length_charts.bleu_by_length_bars(lengths))
        st.caption(
            _(
                "Corpus BLEU by source length: attention models usually lose quality on long "
                "sentences; compare how fast each one falls."
            )
        )
    view = View.TAUGHT if strays else View.STEPS
    picked = st.selectbox(
        _("Open a sentence in the “{view}” view").format(view=_(view)),
        list(frame["#"]),  # in the table's order
        format_func=lambda n: f"#{n}: {items[n - 1].source}",
        key=Key.CORPUS_PICK,
    )
    st.button(_("Open"), key=Key.CORPUS_OPEN, on_click=_open, args=(items[picked - 1], view))


def sentences_ui(
    items: list[Item], scores: dict[str, list[SentenceScore]], strays: dict | None
) -> pd.DataFrame:
    """The per-sentence table, with eflomal's column and the strays where there are, and how
    to read it; returns the table in the order shown."""
    frame = compare_models.table(items, scores)
    frame, no_eflomal = aligner_view.with_eflomal_column(frame, scores)
    frame = teaching.with_strays(frame, strays or {})
    _table_ui(translated_headers(_translations_first(frame, list(scores)), list(scores)))
    st.caption(
        _(
            "One row per sentence, where the two models differ most first (BLEU difference = "
            "left minus right; click a column to sort). Sentence BLEU is 0–100; AER is the "
            "alignment error rate of the argmax links against the gold ones (0 = perfect); "
            "entropy in bits (0 = all attention on one word) and τ (1 when attention moves "
            "strictly left to right) over the steps that wrote a word."
        )
    )
    st.caption(
        _(aligner_view.COLUMN_HELP)
        if no_eflomal is None
        else _("No “{column}” column: {why}").format(column=_(aligner_view.COLUMN), why=no_eflomal)
    )
    if strays:
        st.caption(_(teaching_notes.STRAYS_HELP))
    return frame


def _translations_first(frame, names: list[str]):
    """The table with both models' translations beside the source, before every score, so
    that a page as wide as a projector's shows them without scrolling."""
    first = ["#", "source", *names, "reference"]
    return frame[[c for c in first if c in frame] + [c for c in frame if c not in first]]


def _table_ui(frame) -> None:
    """The per-sentence table: text columns of a readable width, figures narrow, as many rows
    high as it has (no empty rows under a short corpus), at most about twelve."""
    config = {
        column: st.column_config.NumberColumn(width="small")
        if frame[column].dtype.kind in "fiub"
        else st.column_config.TextColumn(width="medium")
        for column in frame
    }
    height = 35 * (min(len(frame), 12) + 1) + 3  # Streamlit's rows are 35 px, its header too
    st.dataframe(frame, hide_index=True, height=height, column_config=config)


def _open(item: Item, view: View = View.STEPS) -> None:
    """Switch to the one-sentence page on ``item`` in ``view``; with gold links (or in the
    natural vs taught view, which ranked it on the reference), force-decode its first
    reference, so that the links can be drawn on the heatmaps."""
    gold = None
    if item.gold is not None:
        gold = GoldPair(item.source, item.references[0], frozenset(item.gold.possible))
    forced = item.references and (gold is not None or view == View.TAUGHT)
    st.session_state.update(
        {
            Key.PAGE: Page.SENTENCE,
            Key.VIEW: view,
            Key.EXAMPLE: "(type your own)",
            Key.SENTENCE: item.source,
            Key.REFERENCE: item.references[0] if forced else "",
            Key.GOLD: gold,
            Key.STEP: 1,
            Key.PLAYING: False,
            # An example picked before, in a view without steps, is not shown now.
            Key.TO_LAST: False,
        }
    )
