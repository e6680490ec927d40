"""The Training page: how the chosen models' attention formed while they trained, and a tiny
model trained live on a toy language."""

from __future__ import annotations

import time

import streamlit as st

from attnviz.analysis.history import History, Probe, moments, most_changed, probe_aer
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import history_charts
from attnviz.store.catalog import Checkpoint

from ..serving.figures import curves_of
from ..serving.models import Choice, history_of
from ..state import playback
from ..state.playback import Playback
from ..state.session_keys import Key, element_key
from ..views.live_view import live_view_ui
from ..widgets.vega import vega_charts

PLAY_SECONDS = 0.8
OLDER = N_(
    "{name} has no training history: the file was saved before attnviz recorded one. "
    "A model trained with this version (`python -m attnviz train`) keeps its probe sentences' "
    "attention at each snapshot, and they can be replayed here."
)


READING = N_(
    "The attention each model gave this held-out sentence's reference translation at that "
    "moment of its training (force-decoded, as the model then was). Row = output word, column = "
    "source word (and its end)."
)
GOLD = N_(
    "Orange crosses: the gold alignment's sure links; AER scores each output word's "
    "most-attended source word against them."
)
NO_GOLD = N_(
    "This sentence has no gold alignment, so no crosses and no AER: the sentences marked "
    "(gold) have them."
)
NO_PROBES = N_(
    "{name} recorded no attention during training: it has none (a fixed-context model), or "
    "it was trained with `--probe-sentences 0`. Its curves are below."
)


def _label(probe: Probe) -> str:
    return f"{probe.source}  →  {probe.target}" + (_("  (gold)") if probe.gold else "")


def histories_ui(choice: Choice) -> dict[Checkpoint, History]:
    """The chosen models' histories, by checkpoint; a word for each model without one."""
    kept = {}
    for checkpoint in dict.fromkeys((choice.left, choice.right)):
        history = history_of(checkpoint)
        if history is None or not history.snapshots:
            st.info(_(OLDER).format(name=checkpoint.name))
        else:
            kept[checkpoint] = history
    return kept


def moment_ui(epochs: list[float]) -> float:
    """The training-time slider and its play button; the epoch shown."""
    if len(epochs) == 1:
        return epochs[0]
    state = st.session_state
    at = epochs.index(state[Key.MOMENT]) + 1 if state.get(Key.MOMENT) in epochs else 1
    shown = playback.before_run(
        Playback(at, state.get(Key.MOMENT_PLAYING, False), state.pop(Key.MOMENT_RESTART, False)),
        len(epochs),
    )
    state[Key.MOMENT], state[Key.MOMENT_PLAYING] = epochs[shown.step - 1], shown.playing
    cols = st.columns([5, 1])
    epoch = cols[0].select_slider(
        _("Training time"),
        epochs,
        key=Key.MOMENT,
        format_func=keeping_language(lambda e: _("epoch {epoch:g}").format(epoch=e)),
    )
    label, icon = playback.face(shown.playing)
    if cols[1].button(_(label), icon=icon, key=Key.MOMENT_PLAY):
        pressed = playback.toggled(Playback(epochs.index(epoch) + 1, shown.playing), len(epochs))
        state[Key.MOMENT_PLAYING], state[Key.MOMENT_RESTART] = pressed.playing, pressed.restart
        st.rerun()
    return epoch


def keep_playing_ui(epochs: list[float]) -> None:
    """While playing, show the next snapshot after a pause; on the last, stop, and draw the
    page once more so that its button offers Play again."""
    state = st.session_state
    if Key.MOMENT not in state:
        return
    step = epochs.index(state[Key.MOMENT]) + 1
    done, again = playback.after_run(
        Playback(step, state.get(Key.MOMENT_PLAYING, False)), len(epochs)
    )
    playing = state.get(Key.MOMENT_PLAYING, False)
    state[Key.MOMENT_PLAYING] = done.playing
    if again:
        time.sleep(PLAY_SECONDS)
        st.rerun()
    elif playing:  # stopped on the last snapshot: the button above still says Pause
        st.rerun()


def snapshot_ui(k: int, name: str, history: History, probe: Probe, epoch: float) -> None:
    """One model's attention on ``probe`` at the last snapshot taken by ``epoch``."""
    j = history.find(probe)
    if j is None and not history.probes:
        st.info(_(NO_PROBES).format(name=name))
        return
    if j is None:
        st.info(_("{name} did not record this sentence.").format(name=name))
        return
    s = history.at(epoch)
    snap, matrix = history.snapshots[s], history.matrices(s)[j]
    title = f"{name} · " + _("epoch {epoch:g}").format(epoch=snap.epoch)
    if probe.gold is not None:
        title += f" · AER {probe_aer(matrix, probe.gold):.0f}%"
    st.plotly_chart(
        history_charts.snapshot_heatmap(matrix, probe, title), key=element_key("history", k)
    )


def history_ui(histories: dict[Checkpoint, History]) -> list[float]:
    """A probe sentence picked, both models' attention on it at the moment picked, and the
    curves with that moment marked; the snapshots' epochs (none without probes)."""
    probes = next((h.probes for h in histories.values() if h.probes), [])
    if not probes:
        st.info(_("These runs recorded no probe sentences (`--probe-sentences 0`)."))
        return []
    k = st.selectbox(
        _("Probe sentence"),
        range(len(probes)),
        index=most_changed(list(histories.values())),  # where there is most to see
        format_func=keeping_language(lambda k: _label(probes[k])),
        key=Key.PROBE,
    )
    epochs = moments(list(histories.values()))
    epoch = moment_ui(epochs)
    for i, (col, (checkpoint, history)) in enumerate(
        zip(st.columns(2), histories.items(), strict=False)
    ):
        with col:
            snapshot_ui(i, checkpoint.name, history, probes[k], epoch)
    st.caption(_(READING) + " " + _(GOLD if probes[k].gold is not None else NO_GOLD))
    vega_charts(curves_of(tuple(histories), epoch), key=Key.TRAINING_CURVES, side=True)
    st.caption(history_charts.snapshots_note(epochs))
    return epochs


def training_page_ui(choice: Choice) -> None:
    """The history of the models chosen in the sidebar, then the live toy run."""
    st.subheader(_("How attention formed during training"))
    histories = histories_ui(choice)
    epochs = history_ui(histories) if histories else []
    live_view_ui()
    if epochs:
        keep_playing_ui(epochs)
