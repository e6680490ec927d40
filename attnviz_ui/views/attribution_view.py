"""Attribution beside attention: on the sentence page, both models' attribution heatmaps and
step bars beside their attention; on the corpus page, how far the two agree per sentence."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attnviz.analysis import attribution, compare_models
from attnviz.analysis.compare_models import Item
from attnviz.errors import Refused
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import attribution_charts
from attnviz.plots.context_charts import attention_picture
from attnviz.store.catalog import Checkpoint

from ..serving.attribution import agreement_of, attribution_of
from ..serving.models import Choice, Side
from ..state.session_keys import Key, element_key
from ..widgets.language import translated_headers
from ..widgets.vega import vega_charts

CAPTION = N_(
    "Attribution: how much each source word mattered for the word written, in nats of its "
    "log-probability (red: made it likelier; blue: less likely). Attention is where the "
    "decoder looked; the two need not agree (Jain & Wallace 2019). ρ: Spearman's rank "
    "correlation of the step's attention (without <eos>) and the size of its attribution."
)

WITHOUT_ATTENTION = N_(
    "This model has no attention to set beside attribution: every step reads one context c. "
    "Attribution still shows which source words each output word depends on through c, and "
    "on long sentences it shows the words the one vector kept and the ones it let fade."
)


def method_ui(key: Key) -> str:
    """The attribution method chosen."""
    names = list(attribution.METHODS)
    method = st.radio(
        _("Attribution method"),
        names,
        format_func=keeping_language(lambda name: _(attribution.METHODS[name].label)),
        horizontal=True,
        key=key,
        index=names.index("erasure"),
    )
    st.caption(_(attribution.METHODS[method].description).format(steps=attribution.STEPS))
    return method


def attribution_view_ui(choice: Choice, sides: list[Side], step: int) -> None:
    """Each model's attribution heatmap beside its attention heatmap, and the step's bars
    side by side with their rank correlation."""
    method = method_ui(Key.ATTRIBUTION_METHOD)
    state = st.session_state
    sentence, reference = state.get(Key.SENTENCE, ""), state.get(Key.REFERENCE, "").strip()
    for k, (checkpoint, side) in enumerate(zip((choice.left, choice.right), sides, strict=True)):
        with st.spinner(_("Computing attribution…")):
            att = attribution_of(
                checkpoint, sentence, choice.beam, reference, method, bool(state.get(Key.PIECES))
            )
        if isinstance(att, Refused):
            st.warning(f"{side.name}: {att.message}")
            continue
        _side_ui(k, side, att, min(step, len(side.trace.tgt_tokens) - 1))
    st.caption(_(CAPTION))


def _side_ui(k: int, side: Side, att: attribution.Attribution, t: int) -> None:
    trace = side.trace
    method = _(attribution.METHODS[att.method].label)
    st.subheader(_("{name}: attention and {method}").format(name=side.name, method=method))
    left, right = st.columns(2)
    title = _("attention") if trace.has_attention else _("no attention, one context c")
    left.plotly_chart(
        attention_picture(trace, step=t, title=title),
        key=element_key("attribution-attention", k),
    )
    right.plotly_chart(
        attribution_charts.attribution_heatmap(att, step=t, title=att.method),
        key=element_key("attribution-heatmap", k),
    )
    if note := attribution_charts.delta_note(att):
        st.caption(note)
    if not trace.has_attention:
        st.caption(_(WITHOUT_ATTENTION))
        vega_charts(
            attribution_charts.attribution_bars(trace, att, t),
            key=element_key("attribution-bars", k),
        )
        return
    rho, same = attribution_charts.step_agreement(trace, att, t)
    whole = attribution.agreement(trace, att)
    cols = st.columns(3)
    cols[0].metric(_("Step {step}: ρ").format(step=t + 1), "–" if np.isnan(rho) else f"{rho:+.2f}")
    cols[1].metric(_("Same argmax word"), _("yes") if same else _("no"))
    mean = "–" if np.isnan(whole.mean_spearman) else f"{whole.mean_spearman:+.2f}"
    agree = "–" if np.isnan(whole.argmax_agreement) else f"{whole.argmax_agreement:.0%}"
    cols[2].metric(_("Sentence: mean ρ · argmax agrees"), f"{mean} · {agree}")
    vega_charts(
        attribution_charts.attribution_bars(trace, att, t), key=element_key("attribution-bars", k)
    )


def corpus_agreement_ui(models: list[Checkpoint], items: list[Item], beam: int) -> None:
    """On the corpus page: per sentence and model, attention against attribution, computed
    when asked: attribution runs the models again on every sentence (integrated gradients, once
    per point of their path)."""
    with st.expander(_("Attention against attribution")):
        method = method_ui(Key.CORPUS_ATTRIBUTION_METHOD)
        key = (tuple(models), beam, tuple(items), method)
        if st.button(_("Compare attention with attribution"), key=Key.CORPUS_ATTRIBUTION_RUN):
            bar = st.progress(0.0, text=_("Attributing…"))
            results = {}
            for k, checkpoint in enumerate(models):

                def progress(done: int, total: int, k=k) -> None:
                    bar.progress(
                        (k + done / total) / len(models),
                        text=_("{done} of {total}").format(done=done, total=total),
                    )

                results[checkpoint.name] = agreement_of(checkpoint, items, method, beam, progress)
            bar.empty()
            st.session_state[Key.CORPUS_ATTRIBUTION] = (key, results)
        stored = st.session_state.get(Key.CORPUS_ATTRIBUTION)
        if stored and stored[0] == key:
            table = compare_models.agreement_table(items, stored[1])
            st.dataframe(translated_headers(table, list(stored[1])), hide_index=True)
            st.caption(
                _(
                    "Per sentence and model, over the steps that wrote a word of its own "
                    "translation: rho, the mean Spearman correlation of attention and the size "
                    "of the attribution over the source words; argmax agrees, the share of steps "
                    "whose most attended word is the most important one."
                )
            )
