"""Natural vs taught: a model and its taught partner (fine-tuned from it with guided alignment)
on one sentence and one output, side by side: both heatmaps with eflomal's links, their
difference, each one's AER, and what teaching changed.

The partner is found from the cards (a taught file's lineage names its natural parent's
sha256), never from file names; the natural models stay the sidebar's default, and this view
is where the taught ones are chosen.
"""

from __future__ import annotations

import os

import streamlit as st

from attnviz.analysis.teaching import Shift
from attnviz.errors import Refused
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import heatmaps, teaching_notes
from attnviz.plots.markup import markdown_text
from attnviz.store.catalog import Checkpoint, Teaching, parent_digest

from ..serving.aligner import alignments_of
from ..serving.models import Choice, Side, description_of, gold_of, side_of, translate
from ..serving.teaching import shift_of, teaching_of
from ..state.session_keys import Key, element_key
from . import aligner_view

ROLES = (N_("natural"), N_("taught"))


def typed_path(path: str) -> str:
    """``path`` as a command run from here would type it: relative when it lies below."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def model_choice_ui(choice: Choice) -> Checkpoint:
    """Which of the two models the sidebar chose has its pair shown (the left one first)."""
    models = (choice.left, choice.right)
    side = st.radio(
        _("Model"),
        (0, 1),
        format_func=keeping_language(
            lambda k: (_("Left: {name}"), _("Right: {name}"))[k].format(name=models[k].name)
        ),
        horizontal=True,
        key=Key.TAUGHT_MODEL,
        help=_(
            "The view shows this model beside its partner: a natural model beside the model "
            "taught from it, a taught model beside its natural parent."
        ),
    )
    return models[side]


def heatmaps_ui(sides: list[Side], eflomal: list | None, gold: list) -> None:
    """Both models' heatmaps, eflomal's links (and gold's, where given) drawn over each."""
    for k, (col, side, role) in enumerate(zip(st.columns(2), sides, ROLES, strict=True)):
        fig = heatmaps.heatmap(side.trace, title=f"{side.name} ({_(role)})", gold=gold[k])
        if eflomal is not None:
            fig = heatmaps.with_eflomal(fig, list(eflomal[k].symmetric))
        col.plotly_chart(fig, key=element_key("taught-heatmap", k))


def difference_ui(pair: Teaching, shift: Shift, eflomal: list | None) -> None:
    """Taught minus natural, on a diverging scale."""
    title = _("{left} minus {right}").format(left=pair.taught.name, right=pair.natural.name)
    fig = heatmaps.shift_heatmap(shift, title)
    if eflomal is not None:
        fig = heatmaps.with_eflomal(fig, list(eflomal[0].symmetric))
    st.plotly_chart(fig, key=Key.TAUGHT_DIFFERENCE)
    st.caption(
        _(
            "Red: the taught model attends more; blue: less. Hover a cell for how much of its "
            "row's attention moved (total-variation distance)."
        )
    )


def output_note(pair: Teaching, shift: Shift, sentence: str, reference: str, beam: int) -> str:
    """Which output both models were decoded on, and the taught model's own where it differs."""
    said = markdown_text(shift.natural.text)
    if reference.strip():
        note = _("Both models are force-decoded on the reference “{said}”.").format(said=said)
    else:
        note = _("Both models are force-decoded on {name}'s translation “{said}”.").format(
            name=pair.natural.name, said=said
        )
    own = translate(pair.taught, sentence, beam, "")
    if not isinstance(own, Refused) and own.text != shift.natural.text:
        note += _(" On its own, {name} writes “{said}”.").format(
            name=pair.taught.name, said=markdown_text(own.text)
        )
    return note


def taught_view_ui(choice: Choice, sentence: str, reference: str) -> None:
    """The chosen model and its partner on ``sentence``, or why there is no partner."""
    st.caption(_(teaching_notes.TAUGHT))
    chosen = model_choice_ui(choice)
    pair = teaching_of(chosen)
    if pair is None:
        taught = parent_digest(description_of(chosen).card) is not None
        st.info(teaching_notes.no_partner_note(chosen.name, taught))
        if not taught:
            with st.expander(_("For whoever installs attnviz: making a taught partner")):
                st.code(teaching_notes.partner_command(typed_path(chosen.path)), language="bash")
                st.caption(_("Or `--guide-links FILE` for your own Pharaoh links."))
        return
    shift = shift_of(pair, sentence, reference.strip(), choice.beam)
    if isinstance(shift, Refused):
        st.warning(shift.message)
        return
    st.caption(output_note(pair, shift, sentence, reference, choice.beam))
    sides = [
        side_of(pair.natural, shift.natural),
        side_of(pair.taught, shift.taught),
    ]
    eflomal = alignments_of([side.trace for side in sides])
    if isinstance(eflomal, Refused):
        st.warning(eflomal.message)
        eflomal = None
    gold = st.session_state.get(Key.GOLD)
    golds = [gold_of(s, gold, sentence, reference) for s in sides]
    heatmaps_ui(sides, eflomal, golds)
    difference_ui(pair, shift, eflomal)
    if eflomal is not None:
        aligner_view.agreement_ui(sides, eflomal, golds)
    st.markdown(
        teaching_notes.teaching_note(sides[0].description.card, sides[1].description.card, shift)
    )
