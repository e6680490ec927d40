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
from attnviz import diagnostics, explain, plots
from attnviz.align import pharaoh, trace_links
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


@st.cache_resource(show_spinner="Loading model…")
def load_model(path: str, mtime: float) -> attnviz.Translator:
    """One Translator per checkpoint file and version, shared by every session."""
    return attnviz.load(path)


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


def step_view(side: int, name: str, trace, step: int) -> None:
    """One model's column (``side`` 0 left, 1 right) in the step-by-step view."""
    t = min(step, len(trace.tgt_tokens) - 1)
    st.subheader(name if name == trace.attention else f"{name} · {trace.attention}")
    st.markdown(explain.shaded_tokens(trace.tgt_tokens, trace.probs), unsafe_allow_html=True)
    st.caption("The output; each word shaded by the probability the model gave it.")
    st.plotly_chart(
        plots.heatmap(trace, step=t, title=f"{name}: alignment"),
        key=f"heatmap-{side}",
        config={"toImageButtonOptions": {"format": "svg", "filename": f"{name}-attention"}},
    )
    st.caption(
        "Row = output word, column = source word, darker = more attention. The framed row is "
        "the current step. Hover for the raw score before the softmax."
    )
    st.markdown(f"**Step {t + 1}: writing “{trace.tgt_tokens[t]}”**")
    st.markdown(explain.shaded_tokens(trace.src_tokens, trace.weights[t]), unsafe_allow_html=True)
    st.altair_chart(plots.step_bars(trace, t))
    st.caption("How this step's attention is spread over the source: the bars sum to 1.")
    st.dataframe(plots.candidates_frame(trace, t), hide_index=True)
    st.caption("The words the model weighed for this step, most probable first.")
    st.latex(explain.FORMULAS[trace.attention])
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
    example = st.selectbox("Examples", ["(type your own)", *EXAMPLES])
    sentence = st.text_input(
        "English sentence",
        value="" if example.startswith("(") else example,
        placeholder="e.g. Where is the station?",
    )
    reference = st.text_input(
        "Reference translation (optional)",
        placeholder="French; both models are then force-decoded on it",
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
    first = traces[0]
    unknown = [t for t, known in zip(first.src_tokens, first.src_known, strict=True) if not known]
    if unknown:
        st.caption(
            "Not in the vocabulary (each is read as <unk>): " + ", ".join(f"`{w}`" for w in unknown)
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
                step_view(side, name, trace, step)
    elif view == "Bahdanau vs Luong":
        compare_view(names, traces, step)
    elif view == "Beam search":
        if beam == 1:
            st.info("Choose beam search in the sidebar to see the hypotheses it keeps.")
        for side, (name, trace) in enumerate(zip(names, traces, strict=True)):
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
