"""Every view of the one-sentence page has one drawer: a view added to the switch without one
fails here, instead of falling through to another view."""

from __future__ import annotations

from attnviz_ui.pages.navigation import View
from attnviz_ui.pages.sentence_page import STILL_VIEWS
from attnviz_ui.pages.stepping import STEPPING_VIEWS


def test_every_view_has_exactly_one_drawer():
    assert not set(STEPPING_VIEWS) & set(STILL_VIEWS)
    assert set(STEPPING_VIEWS) | set(STILL_VIEWS) == set(View)
