"""The math the page typesets: each attention's score with its query, the weights and
context, or a model's one context."""

import pytest

from attnviz.analysis.score_chain import ChainLink
from attnviz.model.attention import SCORES, formula
from attnviz.model.model_config import MULTIHEAD
from attnviz.plots.formulas import (
    CHAIN_NAMES,
    FIXED_CONTEXT,
    WEIGHTS,
    chain_formulas,
    parts_note,
    query_name,
    scaled_note,
    score_text,
    step_formula,
)
from attnviz.plots.heads_charts import chain_form

CHAIN_NAMES_SHOWN = {kind: CHAIN_NAMES[kind] for kind in SCORES}  # English: no language bound

WRITTEN = {"s_{t-1}": "sₜ₋₁", "h_t": "hₜ"}  # the query as prose names it, in Unicode


@pytest.mark.parametrize(
    "kind, query, form",
    [
        ("bahdanau", "s_{t-1}", r"v_a^\top \tanh(W_a\,s_{t-1} + U_a\,h_j)"),  # before the step
        ("concat", "h_t", r"\tanh(W_a[h_t;"),  # additive, after the step
        ("general", "h_t", r"h_t^\top W_a"),
        ("dot", "h_t", r"h_t^\top h_j"),
    ],
)
def test_each_attention_type_shows_its_own_score_with_the_query_the_page_names(kind, query, form):
    score = formula(kind)
    assert score.startswith("e_{tj} = ") and form in score
    assert query in score and query_name(kind).startswith(f"{WRITTEN[query]},")
    shown, scaled = step_formula(kind), step_formula(kind, scaled=True)
    assert score in shown and WEIGHTS in shown and formula(kind, scaled=True) in scaled
    assert shown not in {step_formula(other) for other in SCORES if other != kind}


def test_a_model_without_attention_shows_its_one_context_instead():
    assert step_formula("none") == FIXED_CONTEXT and "e_{tj}" not in FIXED_CONTEXT


@pytest.mark.parametrize("kind", SCORES)
@pytest.mark.parametrize("scaled", [False, True])
def test_every_surface_writes_a_score_from_its_one_formula(kind, scaled):
    """The popover and the step's numbers (step_formula), the step's note and a handout's
    (parts_note), the chain of scores and its table (chain_formulas, chain_form) and the
    Unicode text (score_text): one formula, one set of symbols."""
    latex, text = formula(kind, scaled), score_text(kind, scaled)
    assert latex in step_formula(kind, scaled)
    assert parts_note(kind, scaled).startswith(f"{text}: ")
    assert (CHAIN_NAMES_SHOWN[kind], latex) in chain_formulas([(kind, scaled)])
    form = "additive" if kind == "bahdanau" else kind
    assert chain_form(ChainLink(form, "model", 1.0, 0.5, scaled=scaled)) == text
    assert "hⱼ" in text and not set(text) & set("\\{}_^")  # rendered whole, h_j as hⱼ
    assert r"\bar" not in latex and ("√H" in text) == (scaled and kind in ("dot", "general"))


def test_the_chain_reads_the_plain_dot_product_only_beside_a_general_score():
    assert ("the dot product, read off Luong's hₜ and hⱼ", formula("dot")) in chain_formulas(
        [("bahdanau", False), ("general", True)]
    )
    names = [name for name, _latex in chain_formulas([("bahdanau", False), ("dot", False)])]
    assert "the dot product, read off Luong's hₜ and hⱼ" not in names
    assert names[-2:] == ["one head of the Transformer", "its heads together"]
    assert (
        chain_form(ChainLink("scaled", "t", 1.0, 0.5))
        == score_text(MULTIHEAD)
        == "e⁽ⁱ⁾ₜⱼ = q⁽ⁱ⁾ᵀₜ k⁽ⁱ⁾ⱼ / √d"
    )


def test_a_scaled_luong_score_says_it_departs_from_the_paper_and_no_other_does():
    assert "Luong et al. (2015)" in scaled_note("general", True, 256) and "256" in scaled_note(
        "general", True, 256
    )
    assert scaled_note("general", False, 256) is None and scaled_note("bahdanau", True, 256) is None
