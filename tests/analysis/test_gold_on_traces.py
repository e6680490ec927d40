"""Gold links of a sentence opened from the corpus page, drawn only where they belong."""

import pytest

from attnviz.analysis.aer import GoldPair
from attnviz.analysis.align import gold_to_draw

from ..helpers import tiny_translator

SOURCE, TARGET = "the cat sees", "THE CAT SEES"
GOLD = GoldPair(SOURCE, TARGET, frozenset({(0, 0), (1, 2), (2, 1)}))


@pytest.fixture(scope="module")
def translator():
    return tiny_translator("general")


def test_gold_links_become_token_links_of_the_forced_decoding(translator):
    trace = translator.align(SOURCE, TARGET)
    assert sorted(gold_to_draw(translator, trace, GOLD, f"  {SOURCE} ", TARGET)) == [
        (0, 0),
        (1, 2),
        (2, 1),
    ]


def test_gold_is_not_drawn_on_another_pair_or_a_free_translation(translator):
    trace = translator.align(SOURCE, TARGET)
    assert gold_to_draw(translator, trace, None, SOURCE, TARGET) is None
    assert gold_to_draw(translator, trace, GOLD, "the dog sees", TARGET) is None
    assert gold_to_draw(translator, trace, GOLD, SOURCE, "THE DOG SEES") is None
    free = translator.translate(SOURCE, max_len=4)
    assert gold_to_draw(translator, free, GOLD, SOURCE, TARGET) is None
