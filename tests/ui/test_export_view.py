"""The Export view's files (attnviz_ui/views/export_view.py), made when a button is clicked."""

from __future__ import annotations

import threading

from attnviz import i18n
from attnviz_ui.views import export_view

from ..handmade import hand_trace


def test_an_exported_picture_speaks_the_language_of_the_page_that_offered_it(monkeypatch):
    drawn = []
    monkeypatch.setattr(export_view, "image_of", lambda fig, fmt: drawn.append(fig) or b"")
    trace = hand_trace([[0.9, 0.1], [0.2, 0.8]], ["a", "<eos>"], ["A", "<eos>"])
    i18n.bind(i18n.catalog("zh"))  # the run that draws the buttons
    try:
        files = export_view._files("m", trace, images=True)
    finally:
        i18n.bind(None)
    for _, name, make in files:
        if name.endswith((".png", ".svg")):  # made as Streamlit makes it: on a thread of its own
            thread = threading.Thread(target=make)
            thread.start()
            thread.join()
    titles = [(fig.layout.xaxis.title.text, fig.data[0].colorbar.title.text) for fig in drawn]
    assert titles == [("源端", "权重")] * 2  # source, weight
