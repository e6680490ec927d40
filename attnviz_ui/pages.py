"""The pages and views, by name: the widgets that switch between them compare these values,
never a position in a list, so reordering the labels rewires nothing."""

from enum import StrEnum


class Page(StrEnum):
    """The dashboard's pages, in the order the page switch shows them."""

    SENTENCE = "One sentence"
    CORPUS = "A corpus"
    TRAINING = "Training"


class View(StrEnum):
    """The one-sentence page's views, in the order its view switch shows them."""

    STEPS = "Step by step"
    COMPARE = "Bahdanau vs Luong"
    BEAM = "Beam search"
    CARDS = "Model cards"
    EXPORT = "Export"


STEPPING = (View.STEPS, View.COMPARE)  # the views that follow the step slider
