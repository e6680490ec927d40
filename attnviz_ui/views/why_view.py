"""Why attention: the fixed-context encoder–decoder beside both attention models, on the typed
sentence grown longer one sentence at a time, and the three models' BLEU by sentence length
(Bahdanau et al., 2015, Figure 2) as measured on the held-out split and shipped beside them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import streamlit as st

from attnviz.analysis import lost_words
from attnviz.data.text import language_name
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.plots import formulas, model_notes
from attnviz.plots.lesson_notes import FURTHER, grown_input
from attnviz.store.catalog import Checkpoint, opening

from ..builders.why import why_conclusion
from ..serving.aligner import lost_of, priors_mismatch
from ..serving.by_length import length_curve
from ..serving.models import Choice, checkpoint_folder, description_of, translate
from ..state.session_keys import Key, element_key
from ..widgets.html_widgets import shaded_tokens
from ..widgets.templates import render

TABLE = "why-attention-{source}-{target}.json"  # evaluate --by-length --json, beside them
INTRO = N_(
    "Before attention, an encoder–decoder squeezed the whole source sentence into one vector "
    "c, the encoder's final state, and the decoder wrote every word from that same c "
    "(Cho et al., 2014). {fixed} is such a model: its c holds {size} numbers, whatever the "
    "length of the sentence. Attention (Bahdanau et al., 2015) lets the decoder look back at "
    "every source word at every step instead, so nothing has to fit in one vector. Grow the "
    "sentence below and watch the fixed-context model start to drop and invent words while "
    "the attention models keep them."
)
LOST = N_(
    "Struck through: source words that eflomal links to no word of that model's output that "
    "the training corpus ever translates them as: the word was lost (punctuation and the "
    "commonest function words are not counted)."
)
NO_FIXED = N_(
    "No model without attention for this direction in {folder}. Train one with "
    "`python -m attnviz train --attention none` and the settings of the models beside it."
)
NO_TABLE = N_(
    "The BLEU-by-length table of these models is not in {path}, or was measured on other "
    "files. Make it once (it takes several minutes) with: {command}"
)


def fixed_and_attention(choice: Choice) -> tuple[Checkpoint | None, list[Checkpoint]]:
    """The direction's first model without attention, and two with: the sidebar's where they
    have attention, else the ones the columns open on, else any."""
    models = list(choice.models) or [choice.left, choice.right]

    def attends(c: Checkpoint) -> bool:
        return description_of(c).config.has_attention

    fixed = next((c for c in models if not attends(c)), None)
    wanted = [name for names in opening(choice.direction) for name in names]
    ranked = sorted(models, key=lambda c: wanted.index(c.name) if c.name in wanted else 99)
    picked = [c for c in dict.fromkeys([choice.left, choice.right, *ranked]) if attends(c)]
    return fixed, picked[:2]


def struck_source(trace: Trace, lost: list[bool]) -> str:
    """HTML: the source words, those ``lost`` struck through in red. Escaped."""
    words = list(zip(trace.src_tokens[:-1], lost, strict=True))
    return render("struck_source", words=words)


def why_view_ui(choice: Choice, sentence: str) -> None:
    """The three translations of the grown sentence, the lost words, and the length curve."""
    fixed, attending = fixed_and_attention(choice)
    if fixed is None:
        st.info(_(NO_FIXED).format(folder=checkpoint_folder()))
        return
    size = description_of(fixed).config.hidden
    st.markdown(_(INTRO).format(fixed=f"**{fixed.name}**", size=size))
    source = choice.direction.source
    cols = st.columns([3, 2])
    own = cols[0].text_area(
        _("Further {language} sentences, one per line (yours, or these)").format(
            language=language_name(source)
        ),
        "\n".join(FURTHER.get(source, [])),
        key=element_key(Key.WHY_FURTHER, source),  # each source language its own
        height=140,
        max_chars=4000,
    )
    further = [line.strip() for line in own.splitlines() if line.strip()]
    count = cols[1].slider(
        _("Sentences joined"), 1, 1 + len(further), 1, key=Key.WHY_LENGTH,
        help=_("1: your sentence alone; each step adds the next sentence on the left."),
    )  # fmt: skip
    text = grown_input(sentence, further, count, source)
    models = [fixed, *attending]
    traces = {c.name: translate(c, text, choice.beam, "") for c in models}
    lost = lost_words_ui(models, traces)
    cols[1].metric(_("Source words"), len(description_of(fixed).text.words(text, "src")))
    for c, col in zip(models, st.columns(len(models)), strict=True):
        with col:
            _model_ui(c, traces[c.name], lost.get(c.name))
    _story_ui(fixed.name, size, traces, lost)
    _curve_ui([fixed, *attending], checkpoint_folder() / TABLE.format(**choice.direction._asdict()))


def lost_words_ui(
    models: list[Checkpoint], traces: dict[str, Trace | Refused]
) -> dict[str, list[bool]]:
    """Per model, which source words eflomal links to nothing of its output
    (:func:`..serving.aligner.lost_of`, as the length curve counts them); none, said once, when
    there is no aligner for these models' corpus."""
    if why := priors_mismatch(models[0]):
        st.caption(_("Source words lost are not marked: {why}.").format(why=why))
        return {}
    done = [(c, traces[c.name]) for c in models if isinstance(traces[c.name], Trace)]
    lost = lost_of([c for c, _trace in done], [t for _c, t in done])
    if isinstance(lost, Refused):
        st.caption(lost.message)
        return {}
    return {
        c.name: flags for (c, _trace), flags in zip(done, lost, strict=True) if flags is not None
    }


def _model_ui(c: Checkpoint, trace: Trace | Refused, lost: list[bool] | None) -> None:
    model = description_of(c)
    st.markdown(f"**{c.name}** · {formulas.attention_label(model.config.attention)}")
    if isinstance(trace, Refused):
        st.warning(trace.message)
        return
    st.html(shaded_tokens(trace.output_tokens, trace.probs[: len(trace.output_tokens)]))
    if warning := model_notes.trace_warning(trace):
        st.warning(warning, icon="🔁" if trace.loop else "✂️")
    if lost is not None:
        st.html(struck_source(trace, lost))
        words = sum(lost_words.content_mask(trace.src_tokens[:-1], model.text.src_lang))
        st.caption(
            _("{lost} of {words} source content words lost").format(lost=sum(lost), words=words)
        )
    mean = float(np.mean(trace.probs)) if len(trace.probs) else float("nan")
    st.caption(_("mean word probability {p:.2f}").format(p=mean))


def _story_ui(fixed: str, size: int, traces: dict, lost: dict[str, list[bool]]) -> None:
    """The explanation with this sentence's numbers."""
    if not lost:
        return
    looping = [name for name, trace in traces.items() if isinstance(trace, Trace) and trace.loop]
    counts = {name: sum(flags) for name, flags in lost.items()}
    st.caption(_(LOST))
    st.markdown(why_conclusion(fixed, size, counts, looping))


def _curve_ui(models: list[Checkpoint], path: Path) -> None:
    """The BLEU-by-length table of these models shipped at ``path``, or how to make it."""
    paths = [Path(c.path) for c in models]
    curve = length_curve(models, path)
    if curve is None:
        command = (
            "`python -m attnviz evaluate --by-length "
            + " ".join(f"checkpoints/{p.name}" for p in paths)
            + f" --data CORPUS --json {path} --chart docs/why-attention.png`"
        )
        st.info(_(NO_TABLE).format(path=path, command=command))
        return
    figure, summary = curve
    st.plotly_chart(figure, key=element_key("why", "curve"))
    st.caption(summary)
