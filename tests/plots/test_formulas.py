"""The math the page typesets: each attention's score with its query, the weights and
context, or a model's one context."""

import pytest

from attnviz.model.attention import SCORES, formula
from attnviz.plots.formulas import FIXED_CONTEXT, WEIGHTS, query_name, step_formula

WRITTEN = {"s_{t-1}": "sₜ₋₁", "h_t": "hₜ"}  # the query as prose names it, in Unicode


@pytest.mark.parametrize(
    "kind, query, form",
    [
        ("bahdanau", "s_{t-1}", r"\tanh(W\,s_{t-1} + U\,h_j)"),  # additive, before the step
        ("concat", "h_t", r"\tanh(W_a[h_t;"),  # additive, after the step
        ("general", "h_t", r"h_t^\top W_a"),
        ("dot", "h_t", r"h_t^\top \bar h_j"),
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
