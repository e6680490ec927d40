"""The toy languages: reproducible from a seed, and their gold links say where each word goes."""

import pytest

from attnviz.data import toy


@pytest.mark.parametrize("language", sorted(toy.GRAMMARS))
def test_a_seed_makes_the_same_distinct_pairs_with_one_link_per_word(language):
    pairs = toy.corpus(200, seed=3, language=language)
    assert pairs == toy.corpus(200, seed=3, language=language) != toy.corpus(200, 4, language)
    assert len({source for source, _, _ in pairs}) == 200
    for source, target, links in pairs:
        src, tgt = source.split(), target.split()
        assert sorted(i for i, _ in links) == list(range(len(src)))
        assert sorted(j for _, j in links) == list(range(len(tgt)))


def test_each_language_moves_words_as_it_says():
    (src, tgt, _), *_ = toy.corpus(1, seed=0, language="reversed")
    assert tgt.split() == [toy.LEXICON[w] for w in reversed(src.split())]
    (src, tgt, links), *_ = toy.corpus(1, seed=0, language="copy")
    assert src == tgt and all(i == j for i, j in links)
    adjective = next(p for p in toy.corpus(50) if set(p[0].split()) & set(toy.ADJECTIVES))
    src, tgt, links = adjective[0].split(), adjective[1].split(), dict(adjective[2])
    i = next(k for k, w in enumerate(src) if w in toy.ADJECTIVES)
    assert tgt[links[i]] == toy.ADJECTIVES[src[i]] and links[i] == links[i + 1] + 1


def test_an_unknown_language_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="adjectives"):
        toy.corpus(1, language="klingon")
