"""The math beside the pictures: what one decoding step computes, as LaTeX (each score's
formula as :func:`attnviz.model.attention.formula` reads it from its class, the weights and
context every score feeds, or what a model without attention computes instead), and the words
that name a score's query and say how its terms add up.

Each score is written once, as LaTeX beside its class; where a page has no typesetting (a
caption, a table, a handout's note) :func:`score_text` renders that same LaTeX as Unicode
(unicodeit), so every surface shows one formula with the same symbols."""

from __future__ import annotations

import unicodeit

from ..i18n import N_
from ..i18n import gettext as _
from ..model.attention import formula
from ..model.model_config import MULTIHEAD, NONE

WEIGHTS = (
    r"\alpha_{tj} = \frac{\exp e_{tj}}{\sum_k \exp e_{tk}}, \quad c_t = \sum_j \alpha_{tj} h_j"
)

# What a model without attention (attention "none", the fixed-context encoder-decoder of Cho
# et al., 2014) computes at every step instead of attending: c is the encoder's final state.
FIXED_CONTEXT = (
    r"c = \tanh(W_b[\overrightarrow{h}_S;\, \overleftarrow{h}_1]), \quad "
    r"s_t = \mathrm{GRU}([y_{t-1};\, c],\, s_{t-1}), \quad "
    r"t_t = \tanh(W_o[s_t;\, c;\, y_{t-1}])"
)
NO_ATTENTION = N_(
    "{name} has no attention. It is the fixed-context encoder–decoder that attention was "
    "invented to fix: the encoder squeezes the whole sentence into one vector c, and every "
    "step reads that same c. There are no weights to show; its picture shows every source "
    "word going into c, and every output word written from it."
)

# A Transformer's cross-attention (Vaswani et al., 2017), as attnviz.model.transformer computes
# it in each decoder layer: head i of h scores with its own projections q_t = W_q x_t of the
# layer's input and k_j = W_k h_j of the encoder's outputs, divided by the square root of the
# head's size d; the heads' contexts are concatenated.
HEAD_SCORE = r"e^{(i)}_{tj} = q^{(i)\top}_t k^{(i)}_j \,/\, \sqrt{d}"
HEADS_TOGETHER = r"c_t = W_o[c^{(1)}_t; \ldots; c^{(h)}_t]"
MULTIHEAD_STEP = (
    r"\begin{gathered}" + HEAD_SCORE + r", \quad q^{(i)}_t = W^{(i)}_q x_t, \quad "
    r"k^{(i)}_j = W^{(i)}_k h_j \\[6pt] "
    r"\alpha^{(i)}_{tj} = \frac{\exp e^{(i)}_{tj}}{\sum_k \exp e^{(i)}_{tk}}, \quad "
    r"c^{(i)}_t = \sum_j \alpha^{(i)}_{tj}\, W^{(i)}_v h_j, \quad "
    + HEADS_TOGETHER
    + r"\end{gathered}"
)
SCALED = N_(
    "÷ √H (H = {hidden}, the size of hₜ and hⱼ): this model's departure from Luong et al. "
    "(2015), whose scores are not scaled. It keeps a sum of H products from growing with H. "
    "Scaling came later, with the Transformer's √d (2017); attnviz's Luong models borrow it."
)
MULTIHEAD_NUMBERS = N_(
    "{name} is a Transformer: each of its decoder layers attends with several heads, and its "
    "heatmap is one layer's heads averaged. The step's numbers follow one attention, so they "
    "are drawn for Bahdanau and Luong models only."
)

QUERY = {
    "bahdanau": N_("sₜ₋₁, the decoder state before this step"),
    "luong": N_("hₜ, the decoder state after this step's GRU update"),
}

DIFFERENCE = N_(
    "**Bahdanau** scores each source word with the decoder state *before* the step "
    "(sₜ₋₁) through a small feed-forward layer (additive), then feeds the context into the "
    "GRU. **Luong** first updates the GRU, then scores with the *new* state hₜ by a dot "
    "product (dot, general) or a feed-forward layer (concat), and mixes the context into the "
    "output through $\\tilde h_t = \\tanh(W_c[c_t; h_t])$. Additive scores pass through tanh "
    "and stay in a narrow range; dot products grow with the vectors, so Luong's weights are "
    "often sharper (lower entropy)."
)


def step_formula(attention: str, scaled: bool = False) -> str:
    """What one decoding step of a model computes (LaTeX): its attention's score formula
    (:func:`attnviz.model.attention.formula`), then the softmax and context
    (:data:`WEIGHTS`); for a model without attention, :data:`FIXED_CONTEXT`."""
    if attention == NONE:
        return FIXED_CONTEXT
    if attention == MULTIHEAD:
        return MULTIHEAD_STEP
    return rf"\begin{{gathered}}{formula(attention, scaled)} \\[6pt] {WEIGHTS}\end{{gathered}}"


def score_text(kind: str, scaled: bool = False) -> str:
    """The score formula of attention ``kind`` (:func:`attnviz.model.attention.formula`, or a
    Transformer head's, :data:`HEAD_SCORE`) in Unicode, for text that is not typeset:
    eₜⱼ = hₜᵀ Wₐ hⱼ / √H."""
    latex = HEAD_SCORE if kind == MULTIHEAD else formula(kind, scaled)
    text = unicodeit.replace(latex.replace(r"\top", "T").replace(r"\,", " "))
    for command, plain in ((r"\tanh", "tanh"), ("√{H}", "√H"), ("√{d}", "√d")):
        text = text.replace(command, plain)
    return " ".join(text.split())


def scaled_note(attention: str, scaled: bool, hidden: int) -> str | None:
    """Beside a scaled Luong score's formula, what it departs from; None for any other."""
    if not scaled or attention not in ("dot", "general"):
        return None
    return _(SCALED).format(hidden=hidden)


CHAIN_NAMES = {
    "bahdanau": N_("Bahdanau, additive"),
    "concat": N_("Luong, concat"),
    "general": N_("Luong, general"),
    "dot": N_("Luong, dot"),
    "read_dot": N_("the dot product, read off Luong's hₜ and hⱼ"),
    "head": N_("one head of the Transformer"),
    "heads": N_("its heads together"),
}


def chain_formulas(recurrent: list[tuple[str, bool]]) -> list[tuple[str, str]]:
    """The chain of scores from Bahdanau to the Transformer as (name, LaTeX) lines: each of
    the ``recurrent`` models' own score, given as (attention, scaled), then the plain dot
    product where a general score's vectors give it, then a Transformer head's scaled dot
    product and its heads joined: the links :mod:`attnviz.analysis.score_chain` computes."""
    lines = [(_(CHAIN_NAMES[kind]), formula(kind, scaled)) for kind, scaled in recurrent]
    if any(kind == "general" for kind, _scaled in recurrent):
        lines.append((_(CHAIN_NAMES["read_dot"]), formula("dot")))
    return [*lines, (_(CHAIN_NAMES["head"]), HEAD_SCORE), (_(CHAIN_NAMES["heads"]), HEADS_TOGETHER)]


def attention_label(attention: str) -> str:
    """A model's attention as the page names it: its score's name, or "no attention"."""
    if attention == MULTIHEAD:
        return _("multi-head, scaled dot product")
    return _("no attention") if attention == NONE else attention


def query_name(attention: str) -> str:
    """The query of a model's score, named as the page names it."""
    query = QUERY["bahdanau" if attention == "bahdanau" else "luong"]
    return _(query)


PARTS = {  # how the terms of each score add up, after its formula (score_text)
    "bahdanau": N_(
        "Wₐ sₜ₋₁ is computed once per step, Uₐ hⱼ once per sentence (one row per source token); "
        "they add up inside tanh, and vₐ weighs each row of the result into one number, the "
        "score of that source token."
    ),
    "concat": N_(
        "Wₐ is split into the half that multiplies hₜ (once per step) and the half that "
        "multiplies hⱼ (once per sentence, one row per source token); they add up inside tanh, "
        "and vₐ weighs each row into the score."
    ),
    "general": N_(
        "Wₐ hⱼ is computed once per sentence (one row per source token); each score is the "
        "dot product of its row with hₜ."
    ),
    "dot": N_(
        "Each score is the dot product of hₜ with that source token's encoder output (one row "
        "per source token)."
    ),
}


def parts_note(attention: str, scaled: bool = False) -> str:
    """The model's score formula (:func:`score_text`), then how the strips of a step's score
    add up in its terms."""
    return f"{score_text(attention, scaled)}: {_(PARTS[attention])}"
