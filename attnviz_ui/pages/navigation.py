"""The pages and views, by name: the widgets that switch between them compare these values,
never a position in a list, so reordering the labels rewires nothing. The values are the
English labels, marked for the catalogs; a switch shows them translated
(``format_func=keeping_language(_)``) and stores the member, whatever the language."""

from enum import StrEnum

from attnviz.i18n import N_


class Page(StrEnum):
    """The dashboard's pages, in the order the page switch shows them."""

    SENTENCE = N_("One sentence")
    LESSON = N_("Lesson")
    CORPUS = N_("A corpus")
    TRAINING = N_("Training")


class View(StrEnum):
    """The one-sentence page's views, in the order its view switch shows them."""

    STEPS = N_("Step by step")
    WHY = N_("Why attention")
    COMPARE = N_("Bahdanau vs Luong")
    TRANSFORMER = N_("To the Transformer")
    TAUGHT = N_("Natural vs taught")
    BEAM = N_("Beam search")
    CARDS = N_("Model cards")
    EXPORT = N_("Export")
