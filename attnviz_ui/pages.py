"""The pages and views, by name: the widgets that switch between them compare these values,
never a position in a list, so reordering the labels rewires nothing. The values are the
English labels, marked for the catalogs; a switch shows them translated
(``format_func=keeping_language(_)``) and stores the member, whatever the language."""

from enum import StrEnum

from attnviz.i18n import N_


class Page(StrEnum):
    """The dashboard's pages, in the order the page switch shows them."""

    SENTENCE = N_("One sentence")
    CORPUS = N_("A corpus")
    TRAINING = N_("Training")


class View(StrEnum):
    """The one-sentence page's views, in the order its view switch shows them."""

    STEPS = N_("Step by step")
    COMPARE = N_("Bahdanau vs Luong")
    TAUGHT = N_("Natural vs taught")
    BEAM = N_("Beam search")
    CARDS = N_("Model cards")
    EXPORT = N_("Export")


STEPPING = (View.STEPS, View.COMPARE)  # the views that follow the step slider


class Key(StrEnum):
    """Session-state keys, each declared once (those of the parts written since; older parts
    still spell theirs): a widget's ``key=`` is the member's value."""

    DIRECTION = "direction"  # the sidebar: which languages the models translate between
    EXAMPLES_OF = "examples_of"  # the source language whose examples the sentence page shows
    TAUGHT_MODEL = "taught_model"  # the natural vs taught view: which chosen model's pair
    CORPUS_STRAYS = "corpus_strays"  # the corpus page: rank by how far natural strays from taught
    CORPUS_STRAYS_RESULTS = "corpus_strays_results"  # (what was scored, the strays by column)
    LANGUAGE = "language"  # the sidebar: the interface's language (attnviz_ui.i18n)
