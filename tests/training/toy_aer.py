"""How well a model trained on the toy corpus aligns its held-out pairs."""

from attnviz.analysis.aer import Gold, score
from attnviz.analysis.align import forced_words
from attnviz.data import toy


def toy_aer(tr, held, layer: int | None = None) -> float:
    """Argmax AER of forced decodings of ``held`` against their gold links; ``layer``: a
    Transformer's decoder layer, its heads averaged."""
    gold, hyps = [], []
    for pair in held:
        links = toy.written_links(pair)  # between the words forced_words links
        gold.append(Gold(links, links))
        forced = forced_words(tr, toy.written(pair[0]), toy.written(pair[1]))
        hyps.append(set(forced.links(layer=layer)))
    return score(gold, hyps).aer  # percent
