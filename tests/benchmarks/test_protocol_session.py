"""benchmarks/classroom/protocol_session.py reads what the server sends as a browser would: the
heatmaps' words and framed step from plotly specs, each widget's state from its element; checked on
elements built here, without a server."""

from __future__ import annotations

import json

from streamlit.proto.Element_pb2 import Element
from streamlit.proto.WidgetStates_pb2 import WidgetState

from .modules import benchmark

session = benchmark("protocol_session")


def _chart(x: list[str], step: int | None, kind: str = "heatmap") -> Element:
    shapes = (
        [{"name": "current step", "y0": step - 0.5, "y1": step + 0.5}] if step is not None else []
    )
    element = Element()
    element.plotly_chart.spec = json.dumps(
        {"data": [{"type": kind, "x": x, "z": [[0.5] * len(x)]}], "layout": {"shapes": shapes}}
    )
    return element


def test_a_heatmap_gives_its_words_and_the_framed_row():
    shown = session.heatmap(_chart(["1:Student", "2:7", "3:sees", "4:.", "5:<eos>"], step=2))
    assert shown.words == ["Student", "7", "sees", ".", "<eos>"]
    assert shown.framed == 2


def test_charts_that_are_no_heatmap_are_not_read():
    assert session.heatmap(_chart(["1:a"], step=None, kind="bar")) is None
    element = Element()
    element.markdown.body = "1:a"
    assert session.heatmap(element) is None


def test_a_heatmap_holds_its_own_sentence_and_not_another_visitors():
    shown = session.heatmap(_chart(["1:Student", "2:7", "3:sees", "4:.", "5:<eos>"], step=0))
    assert session.holds(shown, "Student 7 sees.")
    assert not session.holds(shown, "Student 8 sees.")  # another visitor's number
    assert not session.holds(shown, "Student 7 sees it.")  # a word missing


def test_a_widget_keeps_the_value_it_holds_unless_the_script_set_one():
    element = Element()
    element.text_input.id, element.text_input.default = "$$ID-sentence", "He bought a car."
    assert session.widget_state(element, None).string_value == "He bought a car."
    held = WidgetState(id="$$ID-sentence", string_value="typed")
    assert session.widget_state(element, held) is held
    element.text_input.value, element.text_input.set_value = "set by the script", True
    assert session.widget_state(element, held).string_value == "set by the script"


def test_a_slider_and_a_radio_are_sent_as_the_browser_sends_them():
    element = Element()
    element.slider.id, element.slider.max = "$$ID-step", 9
    element.slider.default.extend([1.0])
    assert list(session.widget_state(element, None).double_array_value.data) == [1.0]
    radio = Element()
    radio.radio.id, radio.radio.default = "$$ID-view", 1
    radio.radio.options.extend(["Step by step", "Bahdanau vs Luong"])
    assert session.widget_state(radio, None).string_value == "Bahdanau vs Luong"
    button = Element()
    button.button.id = "$$ID-play"
    assert session.widget_state(button, None) is None  # a trigger, sent only when pressed
