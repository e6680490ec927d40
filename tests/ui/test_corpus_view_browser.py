"""What the corpus says, in a real browser.

- On the shipped Chinese -> English pair, the shipped index of its corpus
  (checkpoints/cmn-dialogue.corpus.sqlite) and step indexes built here by `attnviz steps` on a
  small sample (none ships for this pair: the page builds them on first use): the classroom
  sentence's 爱 is "love" in most of the training pairs that hold it, and the step that
  writes "love" has training steps that wrote "love" among its nearest.
- On the tiny models without step indexes: the page builds them on first use and shows the
  nearest training steps once they are written, without a reload.
"""

from __future__ import annotations

import re
import shutil

import pytest

from ..helpers import CHROMIUM, ROOT, unavailable
from .browser_helpers import serve, sync_playwright, typed_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHIPPED = ROOT / "checkpoints"
MODELS = ("bahdanau-zh-en.safetensors", "luong-zh-en.safetensors")
FILES = (*MODELS, "cmn-dialogue.corpus.sqlite")


@pytest.fixture(scope="module")
def shipped_server(chromium, tmp_path_factory):
    from attnviz.cli.main import main

    missing = [name for name in FILES if not (SHIPPED / name).is_file()]
    if missing:
        unavailable(f"not shipped here: {missing}")
    folder = tmp_path_factory.mktemp("shipped-zh-en")
    for name in FILES:
        shutil.copy(SHIPPED / name, folder / name)
    for name in MODELS:  # 1,500 training pairs: enough steps to find "love" among
        assert main(["steps", str(folder / name), "--pairs", "1500", "--held-out", "50"]) == 0
    yield from serve(folder, tmp_path_factory.mktemp("logs"))


def test_the_corpus_says_what_the_classroom_sentence_s_words_are(shipped_server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1200})
        page.goto(shipped_server)
        box = page.get_by_label(re.compile(r"(中文|Chinese) sentence"))  # the one direction here
        box.wait_for(timeout=120_000)
        assert box.input_value() == "我爱吃苹果。"
        page.get_by_text("What the corpus says").click()
        page.get_by_text("is in no training pair").first.wait_for(timeout=60_000)
        slider = page.get_by_role("slider").first
        slider.focus()
        slider.press("Home")
        slider.press("ArrowRight")  # step 2: both models write "love"
        notes = page.locator("text=The corpus links it to “love”")
        notes.first.wait_for(timeout=60_000)
        body = page.inner_text("body")
        assert "“爱” (attention" in body
        assert "Other translations in the corpus: loves" in body
        assert page.locator("mark").count() >= 2  # example pairs, the words marked
        assert page.get_by_text("The nearest training steps").count() == 2
        assert body.count("· distance") == 10  # five per model
        assert body.count("writes “love”") >= 2
        assert page.locator('[data-testid="stException"]').count() == 0
        assert "could not be loaded" not in body  # the step indexes are not checkpoints
        browser.close()


@pytest.fixture(scope="module")
def unbuilt_server(chromium, checkpoints, corpus_file, tmp_path_factory):
    """The tiny models with the index of their corpus beside them, and no step index."""
    from attnviz.cli.main import main

    folder = tmp_path_factory.mktemp("unbuilt")
    for path in checkpoints.iterdir():
        shutil.copy(path, folder / path.name)
    models = [str(p) for p in sorted(folder.glob("*.safetensors"))]
    assert main(["index", str(corpus_file), "--checkpoint", models[0],
                 "--out", str(folder / "syn.corpus.sqlite"), "--card", *models]) == 0  # fmt: skip
    assert not list(folder.glob("*.steps"))
    yield from serve(folder, tmp_path_factory.mktemp("logs"))


def test_the_nearest_steps_appear_once_the_page_has_built_their_index(unbuilt_server):
    with sync_playwright() as p:
        browser, page = typed_page(p, unbuilt_server)
        page.get_by_text("What the corpus says").click()
        page.get_by_text("The nearest training steps").first.wait_for(timeout=60_000)
        page.wait_for_function(  # the builds' redraws bring them in: no reload, no click
            "() => (document.body.innerText.match(/· distance/g) || []).length == 10",
            timeout=300_000,
        )
        body = page.inner_text("body")
        assert "Indexing the steps" not in body and "Building it failed" not in body
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()
