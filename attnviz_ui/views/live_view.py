"""Train a tiny model live: a toy language and a few settings in, a progress bar and the
probe's heatmap redrawn as the model learns; the model is then the session's to use."""

from __future__ import annotations

import streamlit as st

from attnviz.analysis.history import probe_aer
from attnviz.data import toy
from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.i18n import keeping_language
from attnviz.model.attention import SCORES
from attnviz.plots import history_charts
from attnviz.training.live import Run, ToySettings

from ..serving.live import live_run, start_live_run
from ..state.session_keys import Key
from ..widgets.language import bind_language
from ..widgets.session import session_owner
from ..widgets.vega import vega_charts

REFRESH_SECONDS = 1.0


def settings_ui() -> ToySettings | None:
    """The toy run's settings, when Train was pressed."""
    with st.form(Key.LIVE_FORM):
        cols = st.columns(3)
        language = cols[0].selectbox(
            _("Toy language"),
            list(toy.GRAMMARS),
            format_func=keeping_language(lambda k: _(toy.DESCRIPTIONS[k])),
        )
        attention = cols[1].selectbox(_("Attention"), SCORES, index=SCORES.index("general"))
        epochs = cols[2].slider(_("Epochs"), 1, 20, ToySettings.epochs)
        hidden = cols[0].select_slider(_("Hidden units"), [16, 32, 64, 128], ToySettings.hidden)
        sentences = cols[1].slider(_("Training sentences"), 500, 4000, ToySettings.sentences, 250)
        lr = cols[2].select_slider(_("Learning rate"), [0.001, 0.002, 0.005, 0.01], ToySettings.lr)
        if not st.form_submit_button(_("Train")):
            return None
    return ToySettings(language, attention, sentences, epochs, hidden, lr)


def progress_ui(run: Run) -> None:
    """The run's progress bar, the chosen probe's attention now, and the curves so far."""
    s = run.settings
    history = run.history
    if run.error:
        st.error(_("The run failed: {error}").format(error=run.error))
        return
    if history is None:
        text = _("Preparing {n} sentences of {language}…").format(
            n=s.sentences, language=_(toy.DESCRIPTIONS[s.language])
        )
        st.progress(0.0, text=text)
        return
    snap = history.snapshots[-1]
    state = _("trained") if run.card else _("stopped") if run.stop.is_set() else _("training")
    text = _("{name}: {state}, epoch {epoch:g} of {epochs} · AER {aer:.0f}%").format(
        name=s.name, state=state, epoch=snap.epoch, epochs=s.epochs, aer=snap.aer
    )
    st.progress(run.fraction, text=text)
    probes = history.probes
    k = st.selectbox(
        _("Held-out sentence"),
        range(len(probes)),
        format_func=lambda k: f"{probes[k].source}  →  {probes[k].target}",
        key=Key.LIVE_PROBE,
    )
    matrix = history.matrices(len(history.snapshots) - 1)[k]
    title = _("epoch {epoch:g}").format(epoch=snap.epoch)
    title += f" · AER {probe_aer(matrix, probes[k].gold):.0f}%"
    # A toy sentence is short: its heatmap takes half the page, the three curves a row under it.
    st.columns(2)[0].plotly_chart(
        history_charts.snapshot_heatmap(matrix, probes[k], title), key=Key.LIVE_HEATMAP
    )
    frame = history_charts.history_frame({s.name: history})
    curves = history_charts.curves_chart(frame, snap.epoch)
    vega_charts(curves, key=Key.LIVE_CURVES, side=True)


def live_view_ui() -> None:
    """Settings, Train and Stop, and the session's run as it goes."""
    st.subheader(_("Train a tiny model live"))
    st.caption(
        _(
            "A toy language whose true alignment is known; a model small enough to learn it in "
            "seconds on one CPU core. Watch its attention on a held-out sentence go from even to "
            "the alignment; AER is the share of its most-attended links that miss the true ones."
        )
    )
    settings = settings_ui()
    if settings is not None:
        started = start_live_run(session_owner(), settings)
        if isinstance(started, Refused):
            st.warning(started.message)
    run = live_run(session_owner())
    if run is None:
        return
    if run.running and st.button(_("Stop"), key=Key.LIVE_STOP):
        run.stop.set()
    _live_fragment(run)
    if run.card is not None:
        example, target = toy.corpus(1, seed=99, language=run.settings.language)[0][:2]
        st.success(
            _(
                "“{name}” is now a model of this session: pick it as the left or right model in "
                "the sidebar and try it on the One sentence page, e.g. “{example}” (→ “{target}”)."
            ).format(name=run.settings.name, example=example, target=target)
        )


def _live_fragment(run: Run) -> None:
    """Redraw the progress every second while the run trains; once it ends, the whole page
    once more (the sidebar then offers the model)."""

    @st.fragment(run_every=REFRESH_SECONDS if run.running else None)
    def redraw() -> None:
        bind_language()
        progress_ui(run)
        state = st.session_state
        if not run.running and state.get(Key.LIVE_POLLED) == run.started:
            state[Key.LIVE_POLLED] = None
            st.rerun()
        if run.running:
            state[Key.LIVE_POLLED] = run.started

    redraw()
