"""attnviz dashboard: watch Bahdanau and Luong attention translate, step by step, side by side.

    streamlit run dashboard.py

Checkpoints are read from ``checkpoints/`` (or the folder in ATTNVIZ_CHECKPOINTS). Layout and
widgets only: the charts come from ``attnviz.plots``, the words from ``attnviz.explain``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import streamlit as st

import attnviz
from attnviz import corpus, diagnostics, explain, plots
from attnviz.aer import parse_gold
from attnviz.align import gold_on_trace, pharaoh, trace_links
from attnviz.data import held_out, read_corpus, spread_sample
from attnviz.translator import InputError

CHECKPOINTS = Path(os.environ.get("ATTNVIZ_CHECKPOINTS", Path(__file__).parent / "checkpoints"))
EXAMPLES = [
    "I am cold.",
    "Where is the station?",
    "She doesn't like apples.",
    "He bought a red car and a small house.",
    "Good morning!",
    "We will meet at the station tomorrow morning before the train leaves for Paris.",
]
PLAY_SECONDS = 0.8
VIEWS = ["Step by step", "Bahdanau vs Luong", "Beam search", "Model cards", "Export"]
PAGES = ["One sentence", "A corpus"]
CORPUS_SOURCES = ["Paste", "Upload", "Held-out split"]


@st.cache_resource(show_spinner="Loading model…")
def load_model(path: str, mtime: float) -> attnviz.Translator:
    """One Translator per checkpoint file and version, shared by every session.

    fp32, so that the attention shown is the trained model's own: int8 decoding moves weights
    by up to 0.07 and is 4x faster, which saves some 10 ms of a page that takes a second."""
    return attnviz.load(path, precision="fp32")


@st.cache_data(max_entries=512, show_spinner=False)
def translate(path: str, mtime: float, sentence: str, beam: int, reference: str):
    """A Trace, or the message of an InputError; cached per input, so moving the step slider
    never decodes again."""
    tr = load_model(path, mtime)
    try:
        if reference:
            return tr.align(sentence, reference)
        return tr.translate(sentence, beam=beam)
    except InputError as e:
        return str(e)


def models() -> tuple[dict[str, tuple[str, float]], dict[str, str]]:
    """Loadable checkpoints by name -> (path, mtime), and the failures by name -> message."""
    ok, failed = {}, {}
    for path in sorted(CHECKPOINTS.glob("*.safetensors")):
        mtime = path.stat().st_mtime
        try:
            load_model(str(path), mtime)
            ok[path.stem] = (str(path), mtime)
        except attnviz.CheckpointError as e:
            failed[path.stem] = str(e)
    return ok, failed


def default_index(names: list[str], wanted: str, fallback: int) -> int:
    return names.index(wanted) if wanted in names else min(fallback, len(names) - 1)


def sidebar(found, failed):
    st.sidebar.title("attnviz")
    for name, message in failed.items():
        st.sidebar.error(f"{name} could not be loaded: {message}")
    names = list(found)
    if not names:
        st.sidebar.warning(f"No checkpoints in {CHECKPOINTS}.")
        return None
    left = st.sidebar.selectbox("Left model", names, default_index(names, "bahdanau", 0))
    right = st.sidebar.selectbox("Right model", names, default_index(names, "luong", 1))
    search = st.sidebar.radio("Search", ["greedy", "beam"], horizontal=True)
    beam = st.sidebar.slider("Beam width", 2, 10, 5) if search == "beam" else 1
    st.sidebar.caption(
        "Greedy takes the most probable word at each step; beam search keeps the best few "
        "partial translations and picks the best complete one."
    )
    return left, right, beam


def step_view(side: int, name: str, trace, step: int, scaled: bool, gold=None) -> None:
    """One model's column (``side`` 0 left, 1 right) in the step-by-step view; ``gold``:
    token links to draw over the heatmap."""
    t = min(step, len(trace.tgt_tokens) - 1)
    st.subheader(name if name == trace.attention else f"{name} · {trace.attention}")
    st.markdown(explain.shaded_tokens(trace.tgt_tokens, trace.probs), unsafe_allow_html=True)
    st.caption("The output; each word shaded by the probability the model gave it.")
    st.plotly_chart(
        plots.heatmap(trace, step=t, title=f"{name}: alignment", gold=gold),
        key=f"heatmap-{side}",
        config={"toImageButtonOptions": {"format": "svg", "filename": f"{name}-attention"}},
    )
    st.caption(
        "Row = output word, column = source word, darker = more attention. The framed row is "
        "the current step. Hover for the raw score before the softmax."
        + (" Orange crosses: the human (gold) alignment." if gold else "")
    )
    st.markdown(f"**Step {t + 1}: writing “{trace.tgt_tokens[t]}”**")
    st.markdown(explain.shaded_tokens(trace.src_tokens, trace.weights[t]), unsafe_allow_html=True)
    st.altair_chart(plots.step_bars(trace, t))
    st.caption("How this step's attention is spread over the source: the bars sum to 1.")
    st.dataframe(plots.candidates_frame(trace, t), hide_index=True)
    st.caption(
        "The words the model weighed for this step, most probable first."
        + (
            " For a word of several pieces: the pieces it weighed to start it."
            if trace.pieces
            else ""
        )
    )
    st.latex(explain.formula(trace.attention, scaled))
    st.latex(explain.WEIGHTS)
    summary = explain.step_summary(trace, t)
    st.markdown(
        f"Query = {explain.query_name(trace.attention)}: `{summary['query']}`  \n"
        f"Context c_t: `{summary['context']}`  \n"
        f"Most attended: `{summary['most attended']}` · output `{summary['output']}`"
    )


def compare_view(names, traces, step: int) -> None:
    a, b = traces
    st.markdown(explain.DIFFERENCE)
    same_shape = a.weights.shape == b.weights.shape and a.tgt_tokens == b.tgt_tokens
    for side, (col, name, trace) in enumerate(zip(st.columns(2), names, traces, strict=True)):
        with col:
            t = min(step, len(trace.tgt_tokens) - 1)
            fig = plots.heatmap(trace, step=t, title=f"{name}: alignment")
            st.plotly_chart(fig, key=f"compare-heatmap-{side}")
            st.altair_chart(plots.scores_and_weights(trace, t, name))
    st.caption(
        "Raw scores (left) and the softmax weights they become (right) at the current step. "
        "The softmax turns score differences into weight ratios: a gap of 1 is a factor e."
    )
    st.altair_chart(plots.coverage_chart(dict(zip(names, traces, strict=True))))
    st.caption(
        "Coverage: total attention each source word received. Near 0: the word may be left "
        "out (under-translation); well above 1: it may be translated twice."
    )
    metrics = st.columns(4)
    for i, (name, trace) in enumerate(zip(names, traces, strict=True)):
        metrics[2 * i].metric(
            f"{name}: mean entropy", f"{diagnostics.entropy(trace.weights).mean():.2f} bits"
        )
        tau = diagnostics.monotonicity(trace.weights)
        metrics[2 * i + 1].metric(
            f"{name}: monotonicity (τ)", "–" if np.isnan(tau) else f"{tau:.2f}"
        )
    if not same_shape:
        st.info(
            "The two translations differ, so their matrices cannot be compared cell by cell. "
            "Give a reference translation: both models are then decoded on it."
        )
        return
    st.plotly_chart(plots.difference_heatmap(a, b, title=f"{names[0]} minus {names[1]}"))
    st.caption("Red: the left model attends more; blue: the right model attends more.")
    st.dataframe(plots.comparison_frame(a, b), hide_index=True)
    st.caption(
        "Per step: each model's attention entropy (0 = all on one word), the Jensen–Shannon "
        "divergence between them (0 = identical, 1 = disjoint) and whether they agree on the "
        "most attended word."
    )


def export_view(names, traces) -> None:
    st.caption("Files are made when you click, from what is shown above.")
    images = plots.can_export_images()
    for side, (name, trace) in enumerate(zip(names, traces, strict=True)):
        st.markdown(f"**{name}**")
        files = [
            ("Weights CSV", f"{name}-weights.csv", lambda t=trace: plots.weights_frame(t).to_csv()),
            (
                "Weights JSON",
                f"{name}-weights.json",
                lambda t=trace: json.dumps(plots.weights_json(t), ensure_ascii=False),
            ),
            (
                "Alignment (Pharaoh)",
                f"{name}.align",
                lambda t=trace: pharaoh(trace_links(t)) + "\n",
            ),
        ]
        if images:
            for fmt in ("png", "svg"):
                files.append(
                    (
                        f"Heatmap {fmt.upper()}",
                        f"{name}.{fmt}",
                        lambda t=trace, f=fmt, n=name: plots.to_image(plots.heatmap(t, title=n), f),
                    )
                )
        for col, (label, file_name, make) in zip(st.columns(5), files, strict=False):
            col.download_button(label, make, file_name=file_name, key=f"{file_name}-{side}")
    if not images:
        st.caption(
            "PNG and SVG need Chrome or Chromium on the server (kaleido drives it); the camera "
            "icon on each chart saves an image from your browser."
        )


def cards_view(names, found) -> None:
    for name in names:
        tr = load_model(*found[name])
        card, config = tr.card, tr.model.config
        st.subheader(name)
        bleu = card.get("test_bleu", {})
        st.markdown(
            f"**{config.attention}** attention · embed {config.embed} · hidden {config.hidden} · "
            f"{config.layers} layer(s) · "
            f"vocabularies {config.src_vocab:,} / {config.tgt_vocab:,}  \n"
            f"Test BLEU: greedy {bleu.get('beam1', '–')}, beam 5 {bleu.get('beam5', '–')} "
            f"({bleu.get('sentences', '–')} sentences)  \n"
            f"Corpus: {card.get('corpus', {}).get('file', '–')} · "
            f"license {card.get('corpus', {}).get('license', '–')} · "
            f"{card.get('corpus', {}).get('attribution', '')}  \n"
            f"Trained {card.get('epochs', '–')} epochs in {card.get('train_seconds', '–')} s "
            f"on {card.get('hardware', '–')}"
        )
        if card.get("history", {}).get("valid_loss"):
            st.altair_chart(plots.curve_chart(card))
            st.caption("Validation loss per epoch; the red point is the epoch kept.")
        with st.expander("Full card"):
            st.json(card)


def _example() -> None:
    example = st.session_state.example
    st.session_state.sentence = "" if example.startswith("(") else example
    st.session_state.reference = ""


def _gold_links(model, trace):
    """Gold links of the sentence opened from the corpus view, as token links of ``trace``
    (None when none apply: another sentence, or no reference given)."""
    gold = st.session_state.get("gold")
    if not gold or trace.mode != "forced":
        return None
    source, target, links = gold
    if (source, target) != (st.session_state.sentence.strip(), st.session_state.reference.strip()):
        return None
    return gold_on_trace(load_model(*model), trace, source, target, links)


def _corpus_items(source_kind: str, model) -> list[corpus.Item]:
    """The sentences chosen in the corpus view, with gold links where given; ``model`` (the
    left one) tells how its corpus was split."""
    if source_kind == "Held-out split":
        path = st.text_input(
            "Corpus file",
            value=os.environ.get("ATTNVIZ_CORPUS", ""),
            help="The `source<TAB>target` file the models were trained on; its held-out test "
            "split (which no model saw) is read as the checkpoint recorded it.",
        )
        count = st.slider("Sentences", 10, 500, 100, step=10)
        if not path.strip():
            return []
        data = load_model(*model).data
        if data is None:
            raise ValueError("the left checkpoint does not record how its data was split")
        sources, refs = held_out(read_corpus(path.strip()), data.valid_percent, data.test_percent)
        sources, refs = spread_sample(sources, refs, count)
        return [corpus.Item(s, tuple(r)) for s, r in zip(sources, refs, strict=True)]
    help_text = "One sentence per line: `English<TAB>French reference<TAB>…` (references optional)."
    gold_help = (
        "Optional: one alignment per sentence, between its words and its first reference's "
        "(Pharaoh `i-j` sure / `i?j` possible, 0-based; or HLT-NAACL 2003 `sentid e f [S|P]`)."
    )
    if source_kind == "Upload":
        text_file = st.file_uploader("Sentences", type=["txt", "tsv"], help=help_text)
        gold_file = st.file_uploader("Gold alignments", type=["txt", "align", "wa"], help=gold_help)
        text = text_file.getvalue().decode("utf-8", "replace") if text_file else ""
        gold_text = gold_file.getvalue().decode("utf-8", "replace") if gold_file else ""
    else:
        text = st.text_area("Sentences", help=help_text, height=150)
        gold_text = st.text_area("Gold alignments", help=gold_help, height=100)
    items = corpus.parse_items(text)
    if gold_text.strip():
        items = corpus.attach_gold(items, parse_gold(gold_text, "gold alignments"))
    return items


def corpus_page(names: list[str], found, beam: int) -> None:
    st.caption(
        "Run both models over many sentences: BLEU per sentence and by length, AER where gold "
        "alignments are given, and the attention diagnostics. Open any sentence to step "
        "through it."
    )
    source_kind = st.radio("Sentences from", CORPUS_SOURCES, horizontal=True, key="corpus_source")
    try:
        items = _corpus_items(source_kind, found[names[0]])
    except (ValueError, OSError) as e:
        st.error(f"Could not read the sentences: {e}")
        return
    if not items:
        st.info("Give some sentences to score.")
        return
    key = (tuple(names), tuple(found[n] for n in names), beam, tuple(items))
    if st.button(
        f"Translate {len(items)} sentences with both models", type="primary", key="corpus_run"
    ):
        bar = st.progress(0.0, text="Translating…")
        results = {}
        for k, name in enumerate(names):
            results[name] = corpus.run(
                load_model(*found[name]),
                items,
                beam=beam,
                progress=lambda done, total, k=k, name=name: bar.progress(
                    (k + done / total) / len(names), text=f"{name}: {done} of {total}"
                ),
            )
        bar.empty()
        st.session_state.corpus_results = (key, results)
    stored = st.session_state.get("corpus_results")
    if not stored or stored[0] != key:
        return
    results = stored[1]
    _corpus_results(names, items, results)


def _corpus_results(names, items, results) -> None:
    with_refs = [k for k, item in enumerate(items) if item.references]
    metrics = st.columns(2 * len(names))
    for k, name in enumerate(names):
        if with_refs:
            bleu = corpus.bleu_of(
                [items[i] for i in with_refs], [results[name][i] for i in with_refs]
            )
            metrics[2 * k].metric(f"{name}: corpus BLEU", f"{bleu:.1f}")
        aer = corpus.aer_of(items, results[name])
        if aer is not None:
            metrics[2 * k + 1].metric(f"{name}: AER", f"{aer.aer:.1f}")
    frame = corpus.table(items, results)
    st.dataframe(frame, hide_index=True, height=320)
    st.caption(
        "One row per sentence, where the two models differ most first (BLEU difference = "
        "left minus right; click a column to sort). Sentence BLEU is 0–100; AER is the "
        "alignment error rate of the argmax links against the gold ones (0 = perfect); "
        "entropy in bits (0 = all attention on one word); τ = 1 when attention moves "
        "strictly left to right."
    )
    lengths = corpus.bleu_by_length(items, results)
    if not lengths.empty:
        st.altair_chart(plots.length_chart(lengths))
        st.caption(
            "Corpus BLEU by source length: attention models usually lose quality on long "
            "sentences; compare how fast each one falls."
        )
    picked = st.selectbox(
        "Open a sentence in the step-by-step view",
        list(frame["#"]),  # in the table's order
        format_func=lambda n: f"#{n}: {items[n - 1].source}",
        key="corpus_pick",
    )
    st.button("Open", key="corpus_open", on_click=_open_sentence, args=(items[picked - 1],))


def _open_sentence(item: corpus.Item) -> None:
    """Switch to the one-sentence page on ``item``; with gold links, force-decode its first
    reference so the links can be drawn on the heatmaps."""
    gold = item.gold is not None
    st.session_state.update(
        page=PAGES[0],
        view=VIEWS[0],
        example="(type your own)",
        sentence=item.source,
        reference=item.references[0] if gold else "",
        gold=(item.source, item.references[0], item.gold.possible) if gold else None,
        step=1,
        playing=False,
    )


def main() -> None:
    st.set_page_config(page_title="attnviz", layout="wide")
    found, failed = models()
    chosen = sidebar(found, failed)
    st.title("Watch attention translate")
    st.caption(
        "Type an English sentence. Each model translates it word by word; at every step its "
        "attention decides which source words to look at."
    )
    if chosen is None:
        return
    left, right, beam = chosen
    if st.radio("Page", PAGES, horizontal=True, key="page") == "A corpus":
        corpus_page([left, right], found, beam)
        return
    st.selectbox("Examples", ["(type your own)", *EXAMPLES], key="example", on_change=_example)
    sentence = st.text_input(
        "English sentence", placeholder="e.g. Where is the station?", key="sentence"
    )
    reference = st.text_input(
        "Reference translation (optional)",
        placeholder="French; both models are then force-decoded on it",
        key="reference",
    )
    if not sentence.strip():
        st.info("Type a sentence or pick an example to start.")
        return
    names = [left, right]
    traces = []
    for name in names:
        result = translate(*found[name], sentence, beam, reference.strip())
        if isinstance(result, str):
            st.warning(f"{name}: {result}")
            return
        traces.append(result)
    for name, trace in zip(names, traces, strict=True):
        if note := trace.warning():
            st.warning(f"{name}: {note}")
    first = traces[0]
    unknown = [t for t, known in zip(first.src_tokens, first.src_known, strict=True) if not known]
    if unknown:
        st.caption(
            (
                "Characters never seen in training, read as their UTF-8 bytes: "
                if first.pieces
                else "Not in the vocabulary (each is read as <unk>): "
            )
            + ", ".join(f"`{w}`" for w in unknown)
        )
    if any(t.pieces for t in traces):
        if st.toggle("Show subword pieces", key="pieces"):
            traces = [t.pieces or t for t in traces]
            st.caption(
                "The models read and write subword pieces; ▁ starts a word, and a word never "
                "seen whole is spelled in several pieces (characters never seen, in bytes)."
            )
        else:
            st.caption(
                "Words, as you typed them. The models work on subword pieces: a target word's "
                "attention to a source word is the attention between their pieces, summed over "
                "the source word's pieces and averaged over the target word's steps, so each "
                "row still sums to 1. Its probability is the product of its pieces'."
            )
    steps = max(len(t.tgt_tokens) for t in traces)
    if st.session_state.pop("restart", False):
        st.session_state.step = 1
    elif st.session_state.get("playing"):
        st.session_state.step = st.session_state.get("step", 1) + 1
    st.session_state.step = min(st.session_state.get("step", 1), steps)
    cols = st.columns([5, 1])
    step = cols[0].slider("Step", 1, steps, key="step") - 1 if steps > 1 else 0
    if cols[1].button("▶ Play" if not st.session_state.get("playing") else "⏸ Pause"):
        st.session_state.playing = not st.session_state.get("playing")
        st.session_state.restart = st.session_state.playing and step + 1 >= steps
        st.rerun()
    # One view at a time: a page draws only what is looked at, so it answers sooner.
    view = st.radio("View", VIEWS, horizontal=True, label_visibility="collapsed", key="view")
    if view == "Step by step":
        for side, (col, name, trace) in enumerate(zip(st.columns(2), names, traces, strict=True)):
            with col:
                scaled = load_model(*found[name]).model.config.scaled
                step_view(side, name, trace, step, scaled, _gold_links(found[name], trace))
    elif view == "Bahdanau vs Luong":
        compare_view(names, traces, step)
    elif view == "Beam search":
        if beam == 1:
            st.info("Choose beam search in the sidebar to see the hypotheses it keeps.")
        for side, (name, trace) in enumerate(zip(names, traces, strict=True)):
            trace = trace.pieces or trace  # beam search keeps hypotheses of pieces
            if trace.beam:
                st.subheader(name)
                st.plotly_chart(plots.beam_figure(trace), key=f"beam-{side}")
                st.caption(
                    "Each column is a step, each dot a hypothesis kept, with its cumulative "
                    "log-probability on hover; lines go to the hypothesis it extends. Red: the "
                    "winner. A dot shown as · has already ended."
                )
    elif view == "Model cards":
        cards_view(names, found)
    else:
        export_view(names, traces)
    if st.session_state.get("playing"):
        if st.session_state.step >= steps:
            st.session_state.playing = False
        else:
            time.sleep(PLAY_SECONDS)
            st.rerun()


main()
