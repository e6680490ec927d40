"""The math beside the pictures: what one decoding step computes, as LaTeX (each score's
formula as :func:`attnviz.model.attention.formula` reads it from its class, the weights and
context every score feeds, or what a model without attention computes instead), and the words
that name a score's query and say how its terms add up."""

from __future__ import annotations

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
# it in each decoder layer: head h scores with its own projections of the layer's input x_t and
# of the encoder's outputs h_j, scaled by the square root of the head's size d.
MULTIHEAD_STEP = (
    r"\begin{gathered}e^{(h)}_{tj} = \frac{(W^{(h)}_q x_t) \cdot (W^{(h)}_k h_j)}{\sqrt{d}}, \quad "
    r"\alpha^{(h)}_{tj} = \frac{\exp e^{(h)}_{tj}}{\sum_k \exp e^{(h)}_{tk}} \\[6pt] "
    r"c^{(h)}_t = \sum_j \alpha^{(h)}_{tj}\, W^{(h)}_v h_j, \quad "
    r"c_t = W_o[c^{(1)}_t; \ldots; c^{(N)}_t]\end{gathered}"
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


def attention_label(attention: str) -> str:
    """A model's attention as the page names it: its score's name, or "no attention"."""
    if attention == MULTIHEAD:
        return _("multi-head, scaled dot product")
    return _("no attention") if attention == NONE else attention


def query_name(attention: str) -> str:
    """The query of a model's score, named as the page names it."""
    query = QUERY["bahdanau" if attention == "bahdanau" else "luong"]
    return _(query)


PARTS = {
    "bahdanau": N_(
        "eₜⱼ = v · tanh(W sₜ₋₁ + U hⱼ): W sₜ₋₁ is computed once per step, "
        "U hⱼ once per sentence (one row per source token); they add up inside tanh, and v "
        "weighs each row of the result into one number, the score of that source token."
    ),
    "concat": N_(
        "eₜⱼ = vₐ · tanh(Wₐ[hₜ; hⱼ]): Wₐ is split into the half that multiplies hₜ "
        "(once per step) and the half that multiplies hⱼ (once per sentence, one row per source "
        "token); they add up inside tanh, and vₐ weighs each row into the score."
    ),
    "general": N_(
        "eₜⱼ = hₜ · Wₐ hⱼ: Wₐ hⱼ is computed once per sentence (one row per source "
        "token); each score is the dot product of its row with hₜ."
    ),
    "dot": N_(
        "eₜⱼ = hₜ · hⱼ: each score is the dot product of hₜ with that source token's "
        "encoder output (one row per source token)."
    ),
}


def parts_note(attention: str) -> str:
    """How the strips of a step's score add up, in the terms of the model's formula."""
    return _(PARTS[attention])
