"""The Lesson as a class sees it projected, in real Chromium at 1024×768 (issue 81): for each of
the six steps, in the three shipped directions and both languages, on the shipped models, the
step's picture (a heatmap, the one context, the heads; step 4's table starts) and its "Try this"
end on the first screen; a step whose direction has no model for it says so there instead. No
step shows a template hole or a traceback."""

from __future__ import annotations

import re

import pytest

from attnviz import i18n
from attnviz.plots.lesson_notes import MISSING, STEPS

from ..helpers import ROOT, unavailable
from .browser_helpers import opened, serve, settle

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SCREEN = 768
DIRECTIONS = ("en-fr", "zh-en", "en-zh")

# Where the step's parts end, in px from the top of the page, and the texts it shows.
PARTS = """(tried) => {
  const bottom = e => Math.round(e.getBoundingClientRect().bottom + window.scrollY);
  const top = e => Math.round(e.getBoundingClientRect().top + window.scrollY);
  const all = s => [...document.querySelectorAll(s)];
  const captions = all('[data-testid="stCaptionContainer"]');
  return {
    pictures: all('.js-plotly-plot').map(bottom),
    tables: all('[data-testid="stTable"]').map(top),
    tries: captions.filter(e => e.innerText.startsWith(tried)).map(bottom),
    infos: all('[data-testid="stAlert"]').map(e => [e.innerText, bottom(e)]),
    texts: all('[data-testid="stMarkdownContainer"]').map(e => e.innerText),
    errors: all('[data-testid="stException"]').length,
  };
}"""


@pytest.fixture(scope="module")
def shipped(chromium, tmp_path_factory):
    if not list((ROOT / "checkpoints").glob("*.safetensors")):
        unavailable("no shipped checkpoints here")
    yield from serve(ROOT / "checkpoints", tmp_path_factory.mktemp("logs"))


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_each_step_shows_its_picture_and_what_to_try_on_the_first_screen(
    shipped, direction, language
):
    say = i18n.catalog(language).gettext if language == "zh" else str
    tried = say("Try this: {what}").split("{")[0]
    missing = say(MISSING).split("{")[0]
    query = f"&page=lesson&lesson=1&direction={direction}"
    with opened(shipped, language, 1024, SCREEN, query) as page:
        for k in range(1, len(STEPS) + 1):
            if k > 1:
                page.goto(
                    f"{shipped}/?lang={language}&page=lesson&lesson={k}&direction={direction}"
                )
                settle(page)
            found = page.evaluate(PARTS, tried)
            where = (direction, language, k)
            assert not found["errors"], where
            holes = [t for t in found["texts"] if "{" in t or re.search(r"(^|\s)–(\s|$)", t)]
            assert not holes, (where, holes)
            said = [b for text, b in found["infos"] if text.startswith(missing)]
            if said:  # the direction has no model for this step: said on the first screen
                assert said[0] <= SCREEN and not found["tries"], where
                continue
            assert found["tries"] and max(found["tries"]) <= SCREEN, (where, found["tries"])
            if k == 4:
                assert found["tables"] and found["tables"][0] <= SCREEN, (where, found["tables"])
            else:
                assert found["pictures"] and max(found["pictures"]) <= SCREEN, (where, found)
