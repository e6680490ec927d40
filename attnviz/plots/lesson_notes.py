"""A lesson's words and evidence, for the dashboard's Lesson page and a lesson handout alike: the
lecture notes' path from the fixed context to the Transformer, one step per screen
(:data:`STEPS`), and the notes' table of Bahdanau against Luong with each row's evidence from
the class's sentence and this machine (:func:`notes_table`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..analysis import diagnostics
from ..analysis.score_speed import ScoreTime
from ..decoding.trace import Trace
from ..i18n import N_
from ..i18n import gettext as _
from ..model.model_config import ModelConfig
from . import formulas


class LessonStep(NamedTuple):
    """One screen of the lesson: its title, what it says (at most about 120 words) and one
    thing to try."""

    title: str
    text: str
    to_try: str


STEPS = (
    LessonStep(
        N_("The fixed context and its bottleneck"),
        N_(
            "Before attention, an encoder–decoder read the whole sentence into one vector c, "
            "the encoder's last state, and the decoder wrote every word from that same c (Cho "
            "et al., 2014). {fixed} is such a model: its c holds {size} numbers, however long "
            "the sentence. A short sentence fits. A longer one does not: words go missing, or "
            "others are invented. This is the information bottleneck that attention removes. "
            "The picture draws every source word going into the one c, and every output word "
            "coming out of it."
        ),
        N_("Join more sentences with the slider, and find where the translation breaks."),
    ),
    LessonStep(
        N_("Bahdanau: look back before each word"),
        N_(
            "Bahdanau et al. (2015) let each step look back at the source. The query is the "
            "decoder's state before the step, sₜ₋₁; each encoder state hⱼ is both the key and "
            "the value. The additive score rates every source word, the softmax turns the "
            "scores into weights αₜⱼ that sum to 1, and the context cₜ = Σⱼ αₜⱼ hⱼ is their "
            "weighted sum, which the GRU reads with the word just written. The table gives this "
            "step's numbers: each source word's score e, its weight α and its share of cₜ."
        ),
        N_("Move the step: which word takes the most weight, and how far ahead is its score?"),
    ),
    LessonStep(
        N_("Luong: update first, then look"),
        N_(
            "Luong et al. (2015) run the GRU first and score with the new state hₜ: dot "
            "hₜᵀhⱼ, general hₜᵀWₐhⱼ, or concat, an additive score on [hₜ; hⱼ]. The context "
            "then joins hₜ in the attentional state h̃ₜ = tanh(W_c[cₜ; hₜ]), which predicts the "
            "word. With input feeding, h̃ₜ also goes into the next step's GRU, so the model "
            "knows where it looked last. Here is the same step as on the previous screen."
        ),
        N_("Compare this row with Bahdanau's at the same step: is it sharper?"),
    ),
    LessonStep(
        N_("The notes' table, checked"),
        N_(
            "The lecture notes compare the two in a table. Each row below is checked on your "
            "sentence, with the shipped models, on this machine: the name, the computation, "
            "the speed (each score's time per step, measured here), where the score acts "
            "(sₜ₋₁ against hₜ), how sharp the weights are, and which sizes each score needs."
        ),
        N_("Type a longer sentence: does the speed row change, and the sharpness?"),
    ),
    LessonStep(
        N_("Attention as alignment"),
        N_(
            "Read the heatmap as an alignment: each output word is linked to the source word "
            "it looks at most. eflomal, a statistical word aligner that never sees the models, "
            "aligns the same two sentences from how the training corpus translates words; its "
            "links are the green circles. The alignment error rate (AER) counts how far the "
            "attention's links are from eflomal's: 0 when they are the same, 100 when they "
            "share none. Attention is not built to align, so it may disagree."
        ),
        N_("Find a word where attention and eflomal disagree: which one is right?"),
    ),
    LessonStep(
        N_("To the Transformer"),
        N_(
            "“The dot product is the one the Transformer chose.” The Transformer scales it by "
            "√d, the size of each head, and attends with several heads at once, each with its "
            "own projections of the query, keys and values; their contexts are joined. Each "
            "small grid is one head of one layer on your sentence, with its AER against "
            "eflomal's links; the head framed in orange agrees best. Self-attention, the "
            "Transformer's other half, is left for the next lesson."
        ),
        N_("Look for a head that watches the end of the sentence, and one that aligns."),
    ),
)
ROLES = ("fixed", "bahdanau", "luong", "transformer")  # the models a lesson picks
NAMES = ("bahdanau", "luong")  # the table's two columns

ROW_NAMES = {
    "name": N_("name"),
    "computation": N_("computation"),
    "speed": N_("speed, per step (this machine)"),
    "query": N_("where the score acts"),
    "sharpness": N_("sharpness (mean entropy)"),
    "sizes": N_("sizes it needs"),
}


class Row(NamedTuple):
    """A row of the notes' table: its name, Bahdanau's cell, Luong's cell, and the evidence
    from this sentence or this machine."""

    name: str
    bahdanau: str
    luong: str
    evidence: str


def lesson_role(config: ModelConfig) -> str:
    """A model's role in the lesson, one of :data:`ROLES`."""
    if config.model == "transformer":
        return "transformer"
    if not config.has_attention:
        return "fixed"
    return "luong" if config.is_luong else "bahdanau"


def looked_at(trace: Trace) -> list[int]:
    """The source token each written word's attention weighs most."""
    return [int(row.argmax()) for row in trace.output_picture()]


def lag(bahdanau: Trace, luong: Trace) -> tuple[int, int, int] | None:
    """Over the steps after the first of two decodings of one output: (steps compared, steps
    where both look at the same source word, steps where Bahdanau looks where Luong looked one
    step earlier); None when the outputs differ."""
    if not diagnostics.comparable(bahdanau, luong):
        return None
    b, lu = looked_at(bahdanau), looked_at(luong)
    steps = range(1, min(len(b), len(lu)))
    same = sum(b[t] == lu[t] for t in steps)
    behind = sum(b[t] == lu[t - 1] for t in steps)
    return len(steps), same, behind


def _microseconds(times: Sequence[ScoreTime], kind: str) -> str:
    found = next(t for t in times if t.kind == kind)
    return _("{us:.0f} µs").format(us=found.microseconds)


def notes_table(
    bahdanau: Trace,
    luong: Trace,
    configs: tuple[ModelConfig, ModelConfig],
    times: Sequence[ScoreTime],
) -> list[Row]:
    """The notes' table on two decodings of the class's sentence by a Bahdanau and a Luong
    model (``configs``: theirs), with ``times`` measured on this machine
    (:func:`attnviz.analysis.score_speed.score_times`)."""
    kind = luong.attention
    b_config, l_config = configs
    b_sharp, l_sharp = (diagnostics.summary(t).entropy for t in (bahdanau, luong))
    sharp = _(
        "On this sentence: Bahdanau {b}, Luong {l} (0 bits: all weight on one word). Dot "
        "products grow with the vectors; tanh keeps additive scores in a narrow range."
    ).format(b=_bits(b_sharp), l=_bits(l_sharp))
    sizes = _(
        "Both models here have states of {b} and {l} numbers and encoder outputs of the same "
        "size, so all three would work. A dot product hₜᵀhⱼ needs the query and the keys to "
        "be the same size; general (Wₐ) and additive (Wₐ, Uₐ) project one onto the other."
    ).format(b=b_config.hidden, l=l_config.hidden)
    return [
        Row(_(ROW_NAMES["name"]), _("additive"), _("multiplicative ({kind})").format(kind=kind),
            _("Bahdanau et al. (2015); Luong et al. (2015)")),
        Row(_(ROW_NAMES["computation"]), formulas.score_text("bahdanau"),
            formulas.score_text(kind, luong.scaled), _("as the shipped models compute them")),
        Row(_(ROW_NAMES["speed"]), _microseconds(times, "bahdanau"), _microseconds(times, kind),
            _speed(times, kind, len(bahdanau.src_tokens), b_config.hidden)),
        Row(_(ROW_NAMES["query"]), _("sₜ₋₁, before the step"), _("hₜ, after the step"),
            _where(bahdanau, luong)),
        Row(_(ROW_NAMES["sharpness"]), _bits(b_sharp), _bits(l_sharp), sharp),
        Row(_(ROW_NAMES["sizes"]), _("any: Wₐ and Uₐ project both"),
            _("dot: equal; general, concat: any"), sizes),
    ]  # fmt: skip


def _speed(times: Sequence[ScoreTime], kind: str, source: int, hidden: int) -> str:
    """The speed row's evidence: how many times as long the additive score took, and how."""
    took = {t.kind: t.microseconds for t in times}
    return _(
        "Bahdanau's additive score took {ratio:.1f} times as long as Luong's {kind} per step: "
        "one step of one sentence of {source} tokens, states of {hidden}, keys prepared once, "
        "fp32, one thread, the median of many runs (torch.utils.benchmark)."
    ).format(ratio=took["bahdanau"] / max(took[kind], 1e-9), kind=kind, source=source,
             hidden=hidden)  # fmt: skip


def _where(bahdanau: Trace, luong: Trace) -> str:
    """The query row's evidence: the one-step lag of s_{t-1} against h_t, where it shows."""
    lagged = lag(bahdanau, luong)
    if lagged is None:
        return _(
            "The two translations differ, so their rows cannot be set side by side: give a "
            "reference translation to force both onto it."
        )
    steps, same, behind = lagged
    return _(
        "Over {steps} steps, Bahdanau looks where Luong looks at the same step {same} "
        "times, and where Luong looked one step earlier {behind} times: sₜ₋₁ is the state "
        "before the word, hₜ after it."
    ).format(steps=steps, same=same, behind=behind)


def _bits(value: float) -> str:
    return "–" if math.isnan(value) else _("{bits:.2f} bits").format(bits=value)
