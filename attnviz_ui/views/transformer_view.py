"""To the Transformer (issue 64): the sentence through Bahdanau, Luong and a Transformer side by
side on one step slider, the Transformer's cross-attention as small multiples (one per head and
layer), a head picked and drawn large, and what this sentence shows of the heads."""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

from attnviz.analysis.heads import HeadsOnSentence, heads_on_sentence
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.model.attention import SCORES
from attnviz.plots import formulas
from attnviz.plots.context_charts import attention_picture
from attnviz.plots.heads_charts import chain_frame, heads_figure

from ..serving.aligner import alignments_of
from ..serving.models import Choice, Side, description_of, side_of, translate
from ..serving.replays import chain_of_scores
from ..state.session_keys import Key, element_key

NO_TRANSFORMER = N_(
    "No Transformer translates {direction} among the checkpoints here. Train one with "
    "`python -m attnviz train --model transformer --layers 3 --heads 4 --hidden 256 --embed 256 "
    "...` and put it beside the others."
)
CHAIN = N_(
    "From Bahdanau to the Transformer, the score of source word j at step t: additive "
    "(Bahdanau), then Luong's general and dot products, then the dot product scaled by √d, "
    "then several heads, each with its own projections, their contexts concatenated."
)
CHAIN_STEP = N_(
    "At step {step} (“{output}”), each model's score e of “{source}”, the source word the "
    "Transformer's picture weighs most, and the weight α its softmax gave it. The dot product "
    "is read off Luong's own vectors hₜ and hⱼ without its W: no shipped model scores so. Each "
    "head keeps its own weights; the picture is their average."
)


def transformer_view_ui(choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    """The view at ``step`` (0-based): ``sides`` are the Bahdanau and Luong columns."""
    found = [c for c in choice.models if description_of(c).config.model == "transformer"]
    if not found:
        st.info(_(NO_TRANSFORMER).format(direction=choice.direction))
        return
    checkpoint = found[0]
    trace = translate(checkpoint, sentence, choice.beam, st.session_state.get(Key.REFERENCE, ""))
    if isinstance(trace, Refused):
        st.warning(f"{checkpoint.name}: {trace.message}")
        return
    shown = [(s.name, s.trace) for s in sides] + [(checkpoint.name, trace)]
    for k, (col, (name, t)) in enumerate(zip(st.columns(3), shown, strict=True)):
        # the name alone: a third of the page at 1024 px holds no more on one line
        picture = attention_picture(t, step=min(step, len(t.tgt_tokens) - 1), title=name)
        col.plotly_chart(picture, key=element_key("transformer-side", k))
    transformer = side_of(checkpoint, trace)
    _chain_ui(sides, transformer, step)
    figures = _heads(transformer)
    _heads_ui(checkpoint.name, trace, min(step, len(trace.tgt_tokens) - 1), figures)


def _chain_ui(sides: list[Side], transformer: Side, step: int) -> None:
    """The chain of scores, then this step's numbers on the word the Transformer looks at."""
    st.markdown(_(CHAIN))
    scores = [(s.trace.attention, s.trace.scaled) for s in sides if s.trace.attention in SCORES]
    lines = formulas.chain_formulas(scores)
    st.markdown("\n".join(f"- {name}: ${latex}$" for name, latex in lines))
    word, links = chain_of_scores(
        [(s.checkpoint, s.trace) for s in sides],
        (transformer.checkpoint, transformer.trace),
        step,
    )
    trace = transformer.trace
    t = min(step, len(trace.tgt_tokens) - 1)
    st.caption(
        _(CHAIN_STEP).format(step=t + 1, output=trace.tgt_tokens[t], source=trace.src_tokens[word])
    )
    st.dataframe(chain_frame(links).style.format(precision=3, na_rep="–"), hide_index=True)


def _heads(side: Side) -> HeadsOnSentence | None:
    """Each head against eflomal's links for this sentence, where eflomal's priors fit the
    model's corpus; else None."""
    aligned = alignments_of([side.trace])
    if isinstance(aligned, Refused):
        return None
    return heads_on_sentence(side.trace, aligned[0].symmetric)


def _heads_ui(name: str, trace: Trace, t: int, figures: HeadsOnSentence | None) -> None:
    layers, heads = trace.heads.shape[1:3]
    choices = [(layer, head) for layer in range(layers) for head in range(heads)]
    picked = st.selectbox(
        _("Draw one head large"),
        choices,
        index=choices.index(figures.best) if figures else 0,
        format_func=keeping_language(
            lambda c: _("layer {layer}, head {head}").format(layer=c[0] + 1, head=c[1] + 1)
        ),
        key=Key.TRANSFORMER_HEAD,
    )
    aer = None if figures is None else figures.aer
    st.plotly_chart(heads_figure(trace, t, aer, picked), key=element_key("transformer", "heads"))
    if figures is None:
        st.caption(_("eflomal's priors do not fit this model's corpus: no AER per head."))
    else:
        st.markdown(_shows(figures))
    layer, head = picked
    one = dataclasses.replace(
        trace,
        weights=trace.heads[:, layer, head],
        scores=np.log(np.maximum(trace.heads[:, layer, head], 1e-9)),
        pieces=None,
        owners=None,
    )
    title = _("{name}: layer {layer}, head {head}").format(  # a plotly title: no Markdown
        name=name, layer=layer + 1, head=head + 1
    )
    st.plotly_chart(attention_picture(one, step=t, title=title), key=element_key("head", "large"))


def _shows(f: HeadsOnSentence) -> str:
    """What this sentence shows of the heads, in two or three sentences."""
    layer, head = f.best
    lines = [
        _("Head {head} of layer {layer} aligns best with eflomal here (AER {aer:.0f}).").format(
            head=head + 1, layer=layer + 1, aer=f.aer[layer, head]
        )
    ]
    ends = [(lay, h) for lay, h in zip(*np.nonzero(f.on_end >= 0.5), strict=True)]
    if ends:
        named = _(", ").join(
            _("L{layer} H{head}").format(layer=lay + 1, head=h + 1) for lay, h in ends
        )
        lines.append(
            _("{heads} look mostly at `<eos>` or the final full stop.").format(heads=named)
        )
    best = int(np.argmin(f.mean_aer))
    shifted = f.shifted_aer[best] < f.mean_aer[best]
    lines.append(
        (
            _("Read one step later (Shift-Att), layer {layer}'s average aligns better: AER "
              "{shifted:.0f} against {plain:.0f}.")
            if shifted
            else _("Read one step later (Shift-Att), layer {layer}'s average aligns no better: "
                   "AER {shifted:.0f} against {plain:.0f}.")
        ).format(layer=best + 1, shifted=f.shifted_aer[best], plain=f.mean_aer[best])
    )  # fmt: skip
    return " ".join(lines)
