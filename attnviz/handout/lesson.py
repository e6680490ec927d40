"""The lesson as a handout: the six steps of the dashboard's Lesson page
(:data:`attnviz.plots.lesson_notes.STEPS`) on the class's sentence, each as what its static page
shows: the step's words, one picture (a plotly figure as JSON, drawn in the reader's browser, or
the notes' table), its formula and numbers, and one thing to try.

The models are picked from those given by their configuration: the first without attention, the
first Bahdanau, the first Luong (any score) and the first Transformer; a step whose model is
missing says so in one line. Everything is built in the language bound now (:mod:`attnviz.i18n`);
:func:`attnviz.handout.page.lesson_page` writes each step as HTML."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from ..analysis.align import trace_links
from ..analysis.eflomal_aligner import Alignment, EflomalAligner, aer_against
from ..analysis.eflomal_priors import mismatch
from ..analysis.heads import heads_on_sentence
from ..analysis.score_speed import score_times
from ..decoding.steer import piece_step
from ..decoding.step_math import step_math
from ..decoding.trace import Trace
from ..decoding.translator import Translator
from ..errors import Refused
from ..i18n import N_
from ..i18n import gettext as _
from ..plots import formulas
from ..plots.context_charts import attention_picture
from ..plots.heads_charts import heads_figure
from ..plots.heatmaps import with_eflomal
from ..plots.lesson_notes import (
    FURTHER,
    MISSING_GIVEN,
    NAMES,
    NUMBERS_NOTE,
    STEPS,
    grown_input,
    lesson_role,
    notes_table,
    opinions,
    opinions_text,
)
from ..plots.step_charts import terms_frame
from ..store.priors_file import PriorsError, load_priors

ALIGNED = ("luong", "bahdanau", "transformer")  # step 5's model: the first of these given
NO_EFLOMAL = N_("eflomal’s links are not shown: {why}")


@dataclass(frozen=True)
class PageTable:
    """A table as the page writes it: its header and its rows of text."""

    header: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class LessonPage:
    """One step of the lesson as its page shows it, every text in the bound language."""

    step: int  # 1-based
    title: str
    text: str  # the step's words, with its placeholders filled
    to_try: str
    figure: dict | None = None  # the picture: a plotly figure's JSON, drawn by plotly.js
    table: PageTable | None = None  # the picture of step 4: the notes' table
    numbers: PageTable | None = None  # the step's numbers, beside its picture
    formula: str | None = None  # the score, as Unicode text (formulas.score_text)
    latex: tuple[str, ...] = ()  # what the step computes, as LaTeX source
    notes: tuple[str, ...] = ()  # lines beside the picture: a translation, an AER, why none


@dataclass(frozen=True)
class Lesson:
    """The lesson on one sentence: its pages in order, and each model's decoding of it."""

    sentence: str
    pages: tuple[LessonPage, ...]
    decoded: tuple[tuple[str, Trace], ...]  # (model name, Trace), for the pages' footer


@dataclass(frozen=True)
class _Class:
    """What every step draws from: the picked models, their decodings, and eflomal (or why
    there is none)."""

    models: dict[str, tuple[str, Translator]]  # by role (lesson_notes.ROLES): (name, translator)
    traces: dict[str, Trace | Refused]  # by role: the greedy decoding of the sentence
    aligner: EflomalAligner | str


def pick_models(models: Sequence[tuple[str, Translator]]) -> dict[str, tuple[str, Translator]]:
    """The first of ``models`` (name, translator) in each role, by role."""
    picked: dict[str, tuple[str, Translator]] = {}
    for name, tr in models:
        picked.setdefault(lesson_role(tr.model.config), (name, tr))
    return picked


def build_lesson(
    sentence: str, models: Sequence[tuple[str, Translator]], priors: str | Path | None
) -> Lesson:
    """The lesson's six pages on ``sentence``, from ``models`` (name, translator) picked by
    their configuration, each decoding it greedily as the dashboard's Lesson page does; with
    eflomal's ``priors`` (a file of ``attnviz priors``) for the alignment steps."""
    picked = pick_models(models)
    traces = {kind: tr.translate_each([sentence])[0] for kind, (_name, tr) in picked.items()}
    lesson = _Class(picked, traces, _aligner(priors))
    pages = tuple(_page(k, draw(lesson)) for k, draw in enumerate(DRAWN))
    decoded = tuple(
        (picked[kind][0], trace) for kind, trace in traces.items() if isinstance(trace, Trace)
    )
    return Lesson(sentence, pages, decoded)


def _page(k: int, parts: dict) -> LessonPage:
    """Step ``k``'s page (0-based); a step whose model was not given says so in place of its
    words, and offers nothing to try."""
    step, parts = STEPS[k], dict(parts)  # MISSED is shared: popped from a copy
    if parts.pop("missing", False):
        missing = _(MISSING_GIVEN).format(needs=_(step.needs))
        return LessonPage(k + 1, _(step.title), missing, "", **parts)
    said = parts.pop("said", {})
    text = _(step.text).format(**said) if said else _(step.text)
    return LessonPage(k + 1, _(step.title), text, _(step.to_try), **parts)


def _aligner(priors: str | Path | None) -> EflomalAligner | str:
    """eflomal with ``priors``, or why there is none, in the bound language."""
    if priors is None or not Path(priors).is_file():
        return _(
            "there are no eflomal priors at {path}; `attnviz priors` makes them from the models’ "
            "corpus"
        ).format(path=priors or "–")
    try:
        return EflomalAligner(load_priors(priors))
    except PriorsError as e:
        return str(e)


MISSED = {"missing": True}  # what a step draws without its model: _page says so


def _decoded(lesson: _Class, kind: str) -> tuple[str, Translator, Trace] | str | None:
    """The model of ``kind`` and its decoding, the line that says why it refused the
    sentence, or None when no model of ``kind`` was given."""
    if kind not in lesson.models:
        return None
    name, tr = lesson.models[kind]
    trace = lesson.traces[kind]
    if isinstance(trace, Refused):
        return f"{name}: {trace.message}"
    return name, tr, trace


def _eflomal(lesson: _Class, kind: str, trace: Trace) -> Alignment | str:
    """eflomal's links of the words ``trace``'s heatmap shows, or the line that says why there
    are none."""
    aligner = lesson.aligner
    if isinstance(aligner, str):
        return _(NO_EFLOMAL).format(why=aligner)
    tr = lesson.models[kind][1]
    why = mismatch(aligner.priors, tr.card, tr.data, tr.text)
    if why:
        return _(NO_EFLOMAL).format(why=why)
    try:
        return aligner.link(trace.src_tokens[:-1], trace.output_tokens)
    except (RuntimeError, ValueError) as e:  # eflomal missing or failing, a token it refuses
        return _(NO_EFLOMAL).format(why=e)


def figure_json(fig: go.Figure) -> dict:
    """A figure as the JSON plotly.js draws: what the page holds of its picture."""
    return json.loads(pio.to_json(fig, validate=False))


def _frame_table(frame: pd.DataFrame) -> PageTable:
    """A step's numbers as text, three decimals."""

    def cell(value) -> str:
        return f"{value:.3f}" if isinstance(value, float | np.floating) else str(value)

    return PageTable([str(c) for c in frame.columns], [list(map(cell, r)) for r in frame.values])


GROWN = (1, 3, 5, 8)  # step 1's stages: how many sentences, the short one and those after it


def _fixed(lesson: _Class) -> dict:
    """Step 1: the fixed-context model on a short sentence of the source language and on it
    grown (:data:`GROWN`), each stage's translation a line, the first stage's one context c as
    the picture."""
    if "fixed" not in lesson.models:
        return MISSED
    name, tr = lesson.models["fixed"]
    further = FURTHER.get(tr.text.src_lang, [])
    if not further:
        return MISSED
    said = {"fixed": name, "size": tr.model.config.hidden, "first": further[0]}
    counts = sorted({min(n, len(further)) for n in GROWN})
    inputs = [grown_input(further[0], further[1:], n, tr.text.src_lang) for n in counts]
    traces = tr.translate_each(inputs)
    stage = _("{count} sentences ({words} source words): {translation}")
    notes = tuple(
        stage.format(count=n, words=len(t.src_tokens) - 1, translation=t.text)
        if isinstance(t, Trace)
        else f"{name}: {t.message}"
        for n, t in zip(counts, traces, strict=True)
    )
    first = traces[0]
    figure = figure_json(attention_picture(first, title=name)) if isinstance(first, Trace) else None
    return {"figure": figure, "notes": notes, "said": said}


def _shared_step(lesson: _Class) -> int:
    """The step Bahdanau's and Luong's pages both show (0-based): the middle of the shorter
    of their translations, past the sentence's first word."""
    lengths = [len(t.tgt_tokens) for k in NAMES if isinstance(t := lesson.traces.get(k), Trace)]
    return (min(lengths) - 1) // 2 if lengths else 0


def _scored(kind: str) -> Callable[[_Class], dict]:
    """Steps 2 and 3: the heatmap of ``kind``'s model framed at the shared step, its formula and
    the step's numbers, replayed (:func:`attnviz.decoding.step_math.step_math`)."""

    def draw(lesson: _Class) -> dict:
        found = _decoded(lesson, kind)
        if found is None:
            return MISSED
        if isinstance(found, str):
            return {"notes": (found,)}
        name, tr, trace = found
        t = min(_shared_step(lesson), len(trace.tgt_tokens) - 1)
        numbers = step_math(tr, trace.pieces or trace, piece_step(trace, t))
        framed = _("The framed row is step {t}, where {name} wrote “{word}”.")
        notes = (framed.format(t=t + 1, name=name, word=trace.tgt_tokens[t]), _(NUMBERS_NOTE))
        scaled = formulas.scaled_note(trace.attention, trace.scaled, tr.model.config.hidden)
        return {
            "figure": figure_json(attention_picture(trace, step=t, title=name)),
            "formula": formulas.score_text(trace.attention, trace.scaled),
            "latex": (formulas.step_formula(trace.attention, trace.scaled),),
            "numbers": _frame_table(terms_frame(numbers)),
            "notes": notes if scaled is None else (*notes, scaled),
        }

    return draw


def _notes_table(lesson: _Class) -> dict:
    """Step 4: the notes' table, each row with its evidence from this sentence and machine."""
    b, lu = (_decoded(lesson, kind) for kind in NAMES)
    if b is None or lu is None:
        return MISSED
    if isinstance(b, str) or isinstance(lu, str):
        return {"notes": tuple(f for f in (b, lu) if isinstance(f, str))}
    (b_name, b_tr, bahdanau), (l_name, l_tr, luong) = b, lu
    configs = (b_tr.model.config, l_tr.model.config)
    times = score_times(configs[0].hidden, len(bahdanau.src_tokens))
    measured = _("on the machine that wrote this handout, {date}").format(
        date=datetime.date.today().isoformat()
    )
    rows = notes_table(bahdanau, luong, configs, times, measured)
    return {"table": PageTable(["", b_name, l_name, _("evidence")], [list(r) for r in rows])}


def _alignment(lesson: _Class) -> dict:
    """Step 5: a heatmap with eflomal's links on it, and its AER against them."""
    kind = next((k for k in ALIGNED if k in lesson.models), None)
    found = None if kind is None else _decoded(lesson, kind)
    if found is None or kind is None:
        return MISSED
    if isinstance(found, str):
        return {"notes": (found,)}
    name, _tr, trace = found
    figure = attention_picture(trace, title=name)
    aligned = _eflomal(lesson, kind, trace)
    if isinstance(aligned, str):
        return {"figure": figure_json(figure), "notes": (aligned,)}
    aer = aer_against(aligned, trace_links(trace)).aer
    said = _("{name}’s attention against eflomal’s links (green circles): AER {aer:.0f}")
    return {
        "figure": figure_json(with_eflomal(figure, list(aligned.symmetric))),
        "notes": (
            said.format(name=name, aer=aer),
            opinions_text(opinions(trace, aligned.symmetric)),
        ),
    }


def _transformer(lesson: _Class) -> dict:
    """Step 6: every head of the Transformer, the one that aligns best with eflomal framed."""
    found = _decoded(lesson, "transformer")
    if found is None:
        return MISSED
    if isinstance(found, str):
        return {"notes": (found,)}
    _name, _tr, trace = found
    aligned = _eflomal(lesson, "transformer", trace)
    heads = None if isinstance(aligned, str) else heads_on_sentence(trace, aligned.symmetric)
    best = heads.best if heads else None
    figure = heads_figure(trace, len(trace.tgt_tokens) - 1, heads.aer if heads else None, best)
    if heads is None or best is None:
        notes = (str(aligned),)
    else:
        notes = (
            _("Head {head} of layer {layer} aligns best with eflomal here (AER {aer:.0f}).").format(
                head=best[1] + 1, layer=best[0] + 1, aer=heads.aer[best]
            ),
        )
    return {
        "figure": figure_json(figure),
        "formula": formulas.score_text(trace.attention),
        "latex": (formulas.HEAD_SCORE, formulas.HEADS_TOGETHER),
        "notes": notes,
    }


# What each step draws, in the order of STEPS: the parts of its LessonPage.
DRAWN = (_fixed, _scored("bahdanau"), _scored("luong"), _notes_table, _alignment, _transformer)
