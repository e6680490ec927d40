"""eflomal beside attention: a statistical word aligner's links on the heatmaps, how far each
model's attention is from them, and an "attention vs eflomal" column on the corpus page.

The aligner (one per version of the priors file, shared by every session) aligns the words a
page shows, with the priors it learned from the models' training corpus; each (sentence,
translation) is aligned once, then read from its cache.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import streamlit as st

from attnviz.analysis import lost_words
from attnviz.analysis.aer import Gold, score
from attnviz.analysis.align import trace_links
from attnviz.analysis.compare_models import SentenceScore
from attnviz.analysis.eflomal_aligner import Alignment, EflomalAligner, aer_against
from attnviz.analysis.eflomal_priors import mismatch
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.store.priors_file import PriorsError, load_priors

from .cache import Side, checkpoint_folder, file_version
from .session_keys import Key

# eflomal runs its samplers on OpenMP threads, which by default spin for a while after each
# parallel region: for a typed sentence, about 10 ms of a core, as much as the sampling
# itself (benchmarks/classroom/results.md). The server's children sleep when they wait; its
# own torch decodes on one thread and never waits on another.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

PRIORS_FILE = "eflomal-priors.txt.gz"  # beside the checkpoints, as `attnviz priors` writes it
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


def priors_path() -> Path:
    return checkpoint_folder() / PRIORS_FILE


@st.cache_resource(show_spinner=False, max_entries=4)
def _aligner(path: str, version: tuple[int, int]) -> EflomalAligner | Refused:
    """The aligner of one version (mtime, size) of a priors file, or why there is none."""
    try:
        return EflomalAligner(load_priors(path))
    except PriorsError as e:
        return Refused(str(e))


def aligner() -> EflomalAligner | Refused:
    """The shared aligner of the priors beside the checkpoints, or why there is none."""
    path = priors_path()
    version = file_version(path)
    if version is None:
        command = f"`python -m attnviz priors --data CORPUS --out {path}`"
        return Refused(_("no {path}: make it with {command}").format(path=path, command=command))
    return _aligner(str(path), version)


def lost(found: EflomalAligner, traces: Sequence[Trace], lang: str) -> list[list[bool] | None]:
    """Per trace, which of its source words its output lost, None where eflomal cannot align
    it (:func:`lost_words.lost_or_unknown`, all aligned in one run of eflomal where it can)."""
    return _lost(found, tuple((tuple(s), tuple(o)) for s, o in map(words, traces)), lang)


@functools.lru_cache(maxsize=1024)
def _lost(found: EflomalAligner, pairs: tuple, lang: str) -> list[list[bool] | None]:
    """Kept for the reruns that show the same outputs again: each tokenized every word of both
    sides twice."""
    return lost_words.lost_or_unknown(found, pairs, lang)


def words(trace: Trace) -> tuple[list[str], list[str]]:
    """The source and output tokens a heatmap shows, without ``<eos>``."""
    return list(trace.src_tokens[:-1]), list(trace.output_tokens)


def align_sides(sides: list[Side]) -> list[Alignment] | Refused:
    """eflomal's alignment of each side's sentence and output (one run of eflomal for the
    pairs not cached yet), or why there is none."""
    found = aligner()
    if isinstance(found, Refused):
        return found
    try:
        return found.link_many([words(side.trace) for side in sides])
    except (RuntimeError, ValueError) as e:  # eflomal missing or failing, a token it refuses
        return Refused(_("eflomal could not align the sentence: {error}").format(error=e))


def switch_ui() -> bool:
    """The switch that draws eflomal's links, above the heatmaps."""
    return st.toggle(_(SWITCH), key=Key.EFLOMAL_ON, help=_(SWITCH_HELP))


def agreement_ui(sides: list[Side], alignments: list[Alignment], gold: list) -> None:
    """Per model: whether its corpus is the priors', and its attention against eflomal's links;
    with gold links (``gold[k]``, or None), eflomal's AER and the attention's beside it."""
    found = aligner()
    priors = found.priors if isinstance(found, EflomalAligner) else None
    cols = st.columns(len(sides))
    for col, side, a, g in zip(cols, sides, alignments, gold, strict=True):
        tr = side.translator
        if priors is not None and (why := mismatch(priors, tr.card, tr.data, tr.text)):
            col.warning(
                _("{name}: eflomal's priors may not fit this model: {why}.").format(
                    name=side.name, why=why
                )
            )
        if not side.trace.has_attention:
            col.caption(
                _("{name}: no attention to set beside eflomal's links.").format(name=side.name)
            )
            continue
        attention = set(trace_links(side.trace))
        col.metric(
            _("{name}: attention vs eflomal (AER)").format(name=side.name),
            f"{aer_against(a, attention).aer:.0f}",
        )
        if g is not None:
            reference = Gold(set(g), set(g))
            col.caption(
                _(
                    "Against the gold links: attention AER {attention:.0f}, "
                    "eflomal AER {eflomal:.0f}"
                ).format(
                    attention=score([reference], [attention]).aer,
                    eflomal=score([reference], [set(a.symmetric)]).aer,
                )
            )
    st.caption(_(AGREEMENT) + _(" Gold AERs count every gold link drawn as sure."))


def with_eflomal_column(
    frame: pd.DataFrame, scores: dict[str, list[SentenceScore]]
) -> tuple[pd.DataFrame, str | None]:
    """The corpus table with a ``MODEL attention vs eflomal`` column per model (every
    sentence aligned in one run of eflomal), sorted worst first when no reference ranks the
    rows; or the table as it was and why there is no column."""
    found = aligner()
    if isinstance(found, Refused):
        return frame, found.message
    pairs = [r.words for rows in scores.values() for r in rows if r.error is None and r.words[1]]
    try:
        found.link_many(pairs)  # one run for the page; the rows below read the cache
    except (RuntimeError, ValueError) as e:
        return frame, _("eflomal could not align the sentences: {error}").format(error=e)
    frame = frame.copy()
    for name, rows in scores.items():
        column = [
            aer_against(found.link(*r.words), r.attention).aer
            if r.error is None and r.words[1]
            else None
            for r in rows
        ]
        values = [None if column[n - 1] is None else round(column[n - 1], 1) for n in frame["#"]]
        frame.insert(frame.columns.get_loc(f"{name} BLEU") + 1, f"{name} {COLUMN}", values)
    if "BLEU difference" not in frame:
        first = f"{next(iter(scores))} {COLUMN}"
        frame = frame.sort_values(first, ascending=False, kind="stable", na_position="last")
        frame = frame.reset_index(drop=True)
    return frame, None
