"""PNG and SVG export of the heatmaps (kaleido driving Chromium) draws Chinese words: with no
CJK font installed (Debian's fonts-noto-cjk, see scripts/install-test-deps.sh), every Chinese
character would be the same empty box."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.plots import heatmaps, image_export

from ..handmade import hand_trace
from ..helpers import tool_missing

pytestmark = pytest.mark.slow  # each picture starts Chromium


def _heatmap(word: str):
    return heatmaps.heatmap(hand_trace(np.full((1, 2), 0.5), [word, "<eos>"], ["apples"]))


@pytest.fixture(scope="module")
def exporting():
    if not image_export.can_export_images():  # CI installs them: there a missing one fails
        tool_missing("kaleido or Chromium")


def test_a_png_draws_each_chinese_character_not_one_box_for_all(exporting):
    def png(word: str) -> bytes:
        return image_export.to_image(_heatmap(word), "png")

    # Two private-use characters, which no font draws, are the same box: the control.
    box, other_box = png("\ue000"), png("\ue001")
    assert box == other_box
    ping, guo = png("苹"), png("果")
    assert ping != guo, "every Chinese character is the same box: install fonts-noto-cjk"
    assert box not in (ping, guo)


def test_an_svg_keeps_the_chinese_words_as_text(exporting):
    svg = image_export.to_image(_heatmap("苹果"), "svg")
    svg = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    assert ">1:苹果<" in svg
