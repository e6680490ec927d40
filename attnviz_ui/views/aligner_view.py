"""eflomal beside attention: a statistical word aligner's links on the heatmaps, how far each
model's attention is from them, and an "attention vs eflomal" column on the corpus page (the
aligner and its links: :mod:`..serving.aligner`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attnviz.analysis.compare_models import SentenceScore
from attnviz.analysis.eflomal_aligner import Alignment
from attnviz.errors import Refused
from attnviz.i18n import N_
from attnviz.i18n import gettext as _

from ..builders.eflomal_agreement import eflomal_agreement
from ..serving.aligner import eflomal_aers, priors_mismatch
from ..serving.models import Side
from ..state.session_keys import Key

SWITCH = N_("eflomal's links")
SWITCH_HELP = N_(
    "Draw the links of eflomal, a statistical word aligner (Östling & Tiedemann, 2016), on "
    "both heatmaps as green circles. eflomal never looks at the models: it aligns the words "
    "of the sentence and of each model's output from how often words co-occur, and in what "
    "order, in the models' training corpus (its priors). Links are symmetrized "
    "(grow-diag-final-and): a word may link to several words or to none. It is a second "
    "opinion where there is no gold alignment, not the truth: against human alignments its "
    "error rate (AER) is about 11% on Tatoeba sentences and 14–18% on Hansards sentences."
)
AGREEMENT = N_(
    "Green circles on the heatmaps: eflomal's links. Attention vs eflomal: the alignment "
    "error rate of each model's argmax links (each output "
    "word to its most attended source word) against eflomal's links taken as the answer: 0 = "
    "the same links, 100 = none in common. High means the model attends elsewhere than where "
    "a statistical aligner puts the translation of the word."
)
COLUMN = "attention vs eflomal"
COLUMN_HELP = N_(
    "“attention vs eflomal”: per model, the AER of its argmax attention links on its own "
    "output against the links of eflomal, a statistical word aligner trained on the models' "
    "corpus (0 = the same links, 100 = none in common). It needs no gold alignment: sort by "
    "it to find the sentences where attention and the aligner disagree most."
)


def switch_ui() -> bool:
    """The switch that draws eflomal's links, above the heatmaps."""
    return st.toggle(_(SWITCH), key=Key.EFLOMAL_ON, help=_(SWITCH_HELP))


def agreement_ui(sides: list[Side], alignments: list[Alignment], gold: list) -> None:
    """Per model: whether its corpus is the priors', and its attention against eflomal's
    links; with gold links (``gold[k]``, or None), eflomal's AER and the attention's beside
    it."""
    cols = st.columns(len(sides))
    for col, side, a, g in zip(cols, sides, alignments, gold, strict=True):
        if why := priors_mismatch(side.checkpoint):
            col.warning(
                _("{name}: eflomal's priors may not fit this model: {why}.").format(
                    name=side.name, why=why
                )
            )
        aers = eflomal_agreement(side.trace, a, g)
        if aers is None:
            col.caption(
                _("{name}: no attention to set beside eflomal's links.").format(name=side.name)
            )
            continue
        col.metric(
            _("{name}: attention vs eflomal (AER)").format(name=side.name), f"{aers.attention:.0f}"
        )
        if aers.gold is not None:
            col.caption(
                _(
                    "Against the gold links: attention AER {attention:.0f}, "
                    "eflomal AER {eflomal:.0f}"
                ).format(attention=aers.gold[0], eflomal=aers.gold[1])
            )
    st.caption(_(AGREEMENT) + _(" Gold AERs count every gold link drawn as sure."))


def with_eflomal_column(
    frame: pd.DataFrame, scores: dict[str, list[SentenceScore]]
) -> tuple[pd.DataFrame, str | None]:
    """The corpus table with a ``MODEL attention vs eflomal`` column per model, sorted worst
    first when no reference ranks the rows; or the table as it was and why there is no
    column."""
    aers = eflomal_aers(scores)
    if isinstance(aers, Refused):
        return frame, aers.message
    frame = frame.copy()
    for name, column in aers.items():
        values = [None if column[n - 1] is None else round(column[n - 1], 1) for n in frame["#"]]
        frame.insert(frame.columns.get_loc(f"{name} BLEU") + 1, f"{name} {COLUMN}", values)
    if "BLEU difference" not in frame:
        first = f"{next(iter(scores))} {COLUMN}"
        frame = frame.sort_values(first, ascending=False, kind="stable", na_position="last")
        frame = frame.reset_index(drop=True)
    return frame, None
