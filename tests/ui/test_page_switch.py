"""Going to another page and back keeps what the one-sentence page held: Streamlit forgets a
widget's value on a run that does not draw it, and a class that looks at the Training page
should not have to type its sentence again."""

from __future__ import annotations

from attnviz_ui.pages.navigation import Page, View
from attnviz_ui.state.session_keys import Key

from ..helpers import type_sentence

SENTENCE = "the cat sees a dog ."


def test_the_sentence_and_the_view_are_kept_across_another_page(app):
    type_sentence(app, SENTENCE, "le chat voit un chien .")
    app.radio(key=Key.VIEW).set_value(View.CARDS).run()
    for page in (Page.TRAINING, Page.CORPUS, Page.LESSON):
        app.radio(key=Key.PAGE).set_value(page).run()
        assert not app.exception, app.exception
        app.radio(key=Key.PAGE).set_value(Page.SENTENCE).run()
        assert not app.exception, app.exception
        assert app.text_input(key=Key.SENTENCE).value == SENTENCE, page
        assert app.text_input(key=Key.REFERENCE).value == "le chat voit un chien .", page
        assert app.radio(key=Key.VIEW).value == View.CARDS, page
