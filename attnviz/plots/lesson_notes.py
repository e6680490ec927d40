"""A lesson's words and evidence, for the dashboard's Lesson page and a lesson handout alike: the
lecture notes' path from the fixed context to the Transformer, one step per screen
(:data:`STEPS`), and the notes' table of Bahdanau against Luong with each row's evidence from
the class's sentence and this machine (:func:`notes_table`)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import NamedTuple

from ..analysis import diagnostics
from ..analysis.score_speed import ScoreTime, ratios
from ..decoding.trace import Trace
from ..i18n import N_
from ..i18n import gettext as _
from ..model.model_config import ModelConfig
from . import formulas


class LessonStep(NamedTuple):
    """One screen of the lesson: its title, what it says (at most about 130 words), one thing
    to try, and the model it shows, named for when the direction has none."""

    title: str
    text: str
    to_try: str
    needs: str


STEPS = (
    LessonStep(
        N_("The fixed context and its bottleneck"),
        N_(
            "Before attention, an encoder–decoder read the whole sentence into one context "
            "vector c, the encoder's last hidden state, and the decoder wrote every word from "
            "that same c (Cho et al., 2014). {fixed} is such a model: its c has {size} "
            "dimensions, however long the sentence. This step starts from a short sentence of "
            "its own, “{first}”, and joins more to it: the longer the input, the more words go "
            "missing (struck through) or are invented, because one vector of fixed length "
            "cannot hold them all. This is the information bottleneck that attention removes. "
            "The picture draws every source word going into the one c, and every output word "
            "coming out of it."
        ),
        N_("Join more sentences with the slider, and find where the translation breaks."),
        N_("a model without attention (the fixed-context encoder–decoder)"),
    ),
    LessonStep(
        N_("Bahdanau: look back before each word"),
        N_(
            "Bahdanau et al. (2015) let the decoder look back at the source at every step. "
            "The letters, as in the notes: hⱼ is the encoder's hidden state at source word j, "
            "read in both directions (the encoder is a bidirectional RNN, so hⱼ knows the "
            "words on either side), and sₜ₋₁ is the decoder's hidden state before step t. The "
            "alignment model scores each hⱼ against sₜ₋₁, the softmax turns the scores into "
            "attention weights αₜⱼ that sum to 1, and the context vector cₜ = Σⱼ αₜⱼ hⱼ is "
            "their weighted sum, which the GRU reads with the word just written. The table "
            "gives this step's numbers: each source word's score e, its weight α and its share "
            "of cₜ."
        ),
        N_("Move the step: which word takes the most weight, and how far ahead is its score?"),
        N_("a Bahdanau model"),
    ),
    LessonStep(
        N_("Luong: update first, then look"),
        N_(
            "Luong et al. (2015) run the GRU first and score with the new decoder state: their "
            "letter for it is hₜ, the state after step t (the encoder's states are still hⱼ; "
            "the paper writes h̄ₛ). There are three scores: dot hₜᵀhⱼ, general hₜᵀWₐhⱼ (a "
            "bilinear function) and concat vₐᵀtanh(Wₐ[hₜ; hⱼ]) (a small multilayer "
            "perceptron). The context vector then joins hₜ in the attentional state h̃ₜ = "
            "tanh(W_c[cₜ; hₜ]), which predicts the word. With input feeding, h̃ₜ also goes into "
            "the next step's GRU, so the model knows where it looked last. Here is the same "
            "step as on the previous screen."
        ),
        N_("Compare this row with Bahdanau's at the same step: is it sharper?"),
        N_("a Luong model"),
    ),
    LessonStep(
        N_("The notes' table, checked"),
        N_(
            "The lecture notes compare the two in a table of five rows: alias, computation, "
            "speed, where it is applied, and when to use it. Below, each of the notes' rows "
            "is set beside what your sentence and the shipped models show; the sixth row, "
            "sharpness, is attnviz's addition. Where attnviz finds otherwise than the notes, "
            "the row says so."
        ),
        N_("Type a longer sentence: does the speed row change, and the sharpness?"),
        N_("a Bahdanau model and a Luong model"),
    ),
    LessonStep(
        N_("Attention as alignment"),
        N_(
            "The notes call Bahdanau's scorer the alignment model: its weights αₜⱼ are a soft "
            "alignment of each output word with the source words, learned while translating, "
            "never trained on alignments. Read the heatmap as an alignment: each output word "
            "is linked to the source word it weighs most. eflomal, a statistical word aligner "
            "that learns from the training corpus how its words translate, gives a second "
            "opinion: its links are the green circles. The alignment error rate (AER) counts "
            "how far attention's links are from eflomal's: 0 when they are the same, 100 when "
            "they share none. Neither is the truth: where they differ, read the words and "
            "judge."
        ),
        N_("Find a word where attention and eflomal disagree: which one is right?"),
        N_("a model with attention"),
    ),
    LessonStep(
        N_("To the Transformer"),
        N_(
            "The notes end with the score the Transformer chose: the dot product, fast "
            "because matrix multiplication is so well optimized. The Transformer divides it by "
            "√d, d the size of each head: a dot product of d terms grows with d, and large "
            "scores push the softmax onto one word, where its gradients vanish. Scaling was "
            "the Transformer's step; Luong's scores were not scaled. It attends with h heads "
            "at once, each with its own projections of the query, keys and values, and joins "
            "their contexts. Each small grid is one head of one layer's encoder–decoder "
            "attention (cross-attention) on your sentence, with its AER against eflomal's "
            "links; the head framed in orange agrees best. Self-attention is left for the "
            "next lesson."
        ),
        N_("Look for a head that watches the end of the sentence, and one that aligns."),
        N_("a Transformer"),
    ),
)
NUMBERS_NOTE = N_(  # under steps 2 and 3's numbers
    "exp(e − max) is the softmax's numerator, the largest score taken off first so that no "
    "exponential overflows; the weight α = exp / Σ exp; the share is αⱼhⱼ's part of cₜ."
)
MISSING = N_(  # on the page, where the direction has no such model
    "This step shows {needs}, and none of the checkpoints here translates {direction}. The "
    "other steps still work; pick another direction in the sidebar to see this one."
)
MISSING_GIVEN = N_(  # in a handout, where no such model was given
    "This step shows {needs}, and none was given, so the handout has no picture for it."
)
# Sentences that go on from any example, one more per step of a length control: Why attention
# grows the typed sentence with them, the lesson's first step grows the first of them.
FURTHER = {
    "en": [
        "We went to the station together.",
        "The train was late because of the snow.",
        "My sister bought a newspaper and two coffees.",
        "An old man told us about his village in the mountains.",
        "When we arrived in Paris, it was already dark.",
        "We found a small hotel near the river.",
        "The next morning, we visited the museum with our friends.",
        "In the evening, we ate fish in a restaurant by the sea.",
    ],
    "zh": [
        "我们一起去了车站。",
        "因为下雪，火车晚点了。",
        "我姐姐买了一份报纸和两杯咖啡。",
        "一位老人给我们讲了他山里的村子。",
        "我们到巴黎的时候，天已经黑了。",
        "我们在河边找到了一家小旅馆。",
        "第二天早上，我们和朋友去了博物馆。",
        "晚上，我们在海边的一家饭店吃了鱼。",
    ],
}


def grown_input(sentence: str, further: list[str], count: int, source: str) -> str:
    """The typed sentence followed by the first ``count - 1`` further sentences, joined as
    the source language writes them (no space between Chinese sentences)."""
    joiner = "" if source == "zh" else " "
    return joiner.join([sentence.strip(), *further[: max(0, count - 1)]])


ROLES = ("fixed", "bahdanau", "luong", "transformer")  # the models a lesson picks
NAMES = ("bahdanau", "luong")  # the table's two columns
LUONG_SCORES = {"dot": N_("dot"), "general": N_("general"), "concat": N_("concat")}

ROW_NAMES = {  # the notes' five rows, as the notes name them, and the one attnviz adds
    "alias": N_("alias"),
    "computation": N_("computation"),
    "speed": N_("speed"),
    "place": N_("where it is applied"),
    "use": N_("when to use it"),
    "sharpness": N_("sharpness (added by attnviz)"),
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


# The notes' own picture of attention weights: the word written, and its weights on the source.
NOTES_WEIGHTS = {"I love you.": ("爱", (("I", 0.1), ("love", 0.8), ("you", 0.1)))}


def notes_weights_text(sentence: str, trace: Trace, name: str) -> str | None:
    """For the notes' example (:data:`NOTES_WEIGHTS`), their weights of the word beside the
    model's own; None for another sentence, or an output without that word."""
    found = NOTES_WEIGHTS.get(sentence.strip())
    if found is None or found[0] not in trace.output_tokens:
        return None
    word, weights = found
    row = trace.output_picture()[trace.output_tokens.index(word)]
    src = trace.src_tokens
    theirs = ", ".join(f"{w} {a:.1f}" for w, a in weights)
    ours = ", ".join(f"{w} {row[src.index(w)]:.2f}" for w, _a in weights if w in src)
    return _("The notes draw “{word}” with the weights {theirs}; {name} gives {ours}.").format(
        word=word, theirs=theirs, name=name, ours=ours
    )


class Opinions(NamedTuple):
    """Where attention and eflomal agree on one decoding, word by word: the output words whose
    most-weighed source word eflomal links them to, those it links elsewhere (output word,
    attention's source word, eflomal's), and those eflomal links to nothing."""

    agree: list[str]
    differ: list[tuple[str, str, str]]
    unlinked: list[str]


def opinions(trace: Trace, links: Sequence[tuple[int, int]]) -> Opinions:
    """Attention's argmax against eflomal's ``links`` (source token, output token) of the
    same pair, output word by output word."""
    src, out = trace.src_tokens, trace.output_tokens
    linked: dict[int, list[int]] = {}
    for i, j in sorted(links):
        linked.setdefault(j, []).append(i)
    agree, differ, unlinked = [], [], []
    for j, i in enumerate(looked_at(trace)[: len(out)]):
        if j not in linked:
            unlinked.append(out[j])
        elif i in linked[j]:
            agree.append(out[j])
        else:
            differ.append((out[j], src[i], " ".join(src[k] for k in linked[j])))
    return Opinions(agree, differ, unlinked)


def opinions_text(found: Opinions) -> str:
    """What the two opinions are, in one paragraph: counts, then where they differ."""
    said = _(
        "Attention and eflomal agree on {agree} of {words} output words; they differ on "
        "{differ}, and eflomal links {unlinked} to nothing."
    ).format(
        agree=len(found.agree),
        words=len(found.agree) + len(found.differ) + len(found.unlinked),
        differ=len(found.differ),
        unlinked=len(found.unlinked),
    )
    if not found.differ:
        return said
    each = _("“{word}”: attention {attention}, eflomal {eflomal}")
    listed = "; ".join(each.format(word=w, attention=a, eflomal=e) for w, a, e in found.differ[:6])
    return f"{said} {listed}."


def _microseconds(times: Sequence[ScoreTime], kind: str) -> str:
    found = next(t for t in times if t.kind == kind)
    return _("{us:.0f} µs").format(us=found.microseconds)


def notes_table(
    bahdanau: Trace,
    luong: Trace,
    configs: tuple[ModelConfig, ModelConfig],
    times: Sequence[ScoreTime],
    measured: str,
) -> list[Row]:
    """The notes' table on two decodings of the class's sentence by a Bahdanau and a Luong
    model (``configs``: theirs), with ``times`` (:func:`attnviz.analysis.score_speed.
    score_times`) measured where and when ``measured`` says ("on this machine"): the notes'
    cells, and beside them what the models and the sentence show."""
    kind = luong.attention
    named = _(LUONG_SCORES[kind])
    b_config, l_config = configs
    b_sharp, l_sharp = (diagnostics.summary(t).entropy for t in (bahdanau, luong))
    computed = _("as the shipped models compute them")
    if luong.scaled and kind in ("dot", "general"):
        computed = _(
            "as the shipped models compute them; the {kind} score divides by √H, H = {hidden} "
            "the size of hₜ: attnviz's change, not Luong's (step 3)"
        ).format(kind=named, hidden=l_config.hidden)
    sharp = _(
        "On this sentence: Bahdanau {b}, Luong {l} (0 bits: all weight on one word). Dot "
        "products grow with the vectors; tanh keeps additive scores in a narrow range."
    ).format(b=_bits(b_sharp), l=_bits(l_sharp))
    sizes = _(
        "attnviz finds otherwise in part: only dot needs the query and the keys to have the "
        "same dimensions. General (Wₐ) and concat (Wₐ), like additive (Wₐ, Uₐ), project one "
        "onto the other, so they take any sizes. The two models here have decoder states of "
        "{b} and {l} dimensions."
    ).format(b=b_config.hidden, l=l_config.hidden)
    return [
        Row(_(ROW_NAMES["alias"]), _("additive attention"),
            _("multiplicative attention ({kind})").format(kind=named),
            _("Bahdanau et al. (2015); Luong et al. (2015)")),
        Row(_(ROW_NAMES["computation"]), formulas.score_text("bahdanau"),
            formulas.score_text(kind, luong.scaled), computed),
        Row(_(ROW_NAMES["speed"]),
            _("slower: large matrix products and tanh; {time} a step").format(
                time=_microseconds(times, "bahdanau")),
            _("faster: matrix multiplication is highly optimized; {time} a step").format(
                time=_microseconds(times, kind)),
            _speed(times, kind, len(bahdanau.src_tokens), b_config.hidden, measured)),
        Row(_(ROW_NAMES["place"]), _("before the decoder's update: sₜ₋₁"),
            _("after the decoder's update: hₜ"), _where(bahdanau, luong)),
        Row(_(ROW_NAMES["use"]), _("preferred when the dimensions differ"),
            _("preferred when the dimensions are the same (the Transformer chose it)"), sizes),
        Row(_(ROW_NAMES["sharpness"]), _bits(b_sharp), _bits(l_sharp), sharp),
    ]  # fmt: skip


def _speed(times: Sequence[ScoreTime], kind: str, source: int, hidden: int, measured: str) -> str:
    """The speed row's evidence: how many times as long the additive score took, round by
    round, what was timed, and whether every round agrees with the notes."""
    found = ratios(times, "bahdanau", kind)
    said = _(
        "At the shipped size (states of {hidden}, your sentence's {source} tokens), one step of "
        "Bahdanau's additive score took {ratio:.1f} times as long as Luong's {kind} {measured}: "
        "from {low:.1f} to {high:.1f} times over {rounds} rounds, each score timed in turn on "
        "one thread in fp32, keys prepared once (torch.utils.benchmark)."
    ).format(ratio=statistics.median(found), low=found[0], high=found[-1], rounds=len(found),
             kind=_(LUONG_SCORES[kind]), source=source, hidden=hidden,
             measured=measured)  # fmt: skip
    if found[0] > 1:
        return said + " " + _("Every round agrees with the notes: the additive score is slower.")
    return said + " " + _("Not every round agrees with the notes: here the two are close.")


def _where(bahdanau: Trace, luong: Trace) -> str:
    """The place row's evidence: how often s_{t-1} looks where h_t looks at the same step,
    and where h_t looked one step earlier, and what that shows."""
    lagged = lag(bahdanau, luong)
    if lagged is None:
        return _(
            "The two translations differ, so their steps cannot be set side by side: give a "
            "reference translation to force both onto it."
        )
    steps, same, behind = lagged
    counted = _(
        "Over {steps} steps, Bahdanau looks at the word Luong looks at in the same step {same} "
        "times, and at the word Luong looked at one step earlier {behind} times."
    ).format(steps=steps, same=same, behind=behind)
    if behind > same:
        shown = _(
            "Here Bahdanau mostly trails Luong by a step: sₜ₋₁ has not yet read the word just "
            "written, hₜ has."
        )
    else:
        shown = _(
            "Here the two mostly look at the same word in the same step: knowing the word "
            "just written (hₜ) or not (sₜ₋₁) did not move where they look."
        )
    return f"{counted} {shown}"


def _bits(value: float) -> str:
    return "–" if math.isnan(value) else _("{bits:.2f} bits").format(bits=value)
