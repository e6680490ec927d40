"""The corpus page opens on sentences ready to run, their format shown, not on an empty box."""

from __future__ import annotations

from attnviz_ui.pages.corpus_page import PASTE_EXAMPLES
from attnviz_ui.state.session_keys import Key


def test_the_corpus_page_opens_on_examples_of_the_direction_with_their_format(app):
    app.radio(key=Key.PAGE).set_value("A corpus").run()
    assert not app.exception, app.exception
    lines = app.text_area[0].value.splitlines()
    assert [tuple(line.split("\t")) for line in lines] == PASTE_EXAMPLES["en-fr"]
    assert any("sentence<TAB>reference translation" in c.value for c in app.caption)
    assert app.button(key=Key.CORPUS_RUN).label == "Translate 3 sentences with both models"
