"""The dashboard in Chinese in a real browser (issue 40): opened with ``?lang=zh``, a sentence
typed, the steps walked and every view opened, the page shows no English prose.

Runs as tests/ui/test_browser.py does (its server and Chromium, from browser_helpers.py and
conftest.py; skipped without them, except in CI)."""

from __future__ import annotations

import re

import pytest

from ..helpers import CHROMIUM
from .browser_helpers import DRAWN, TEXTS, serve, sync_playwright
from .prose import ALLOWED, WORD, english_prose

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SENTENCE = "The red cat sees a dog."
VIEWS = {  # each view's switch, and a text that shows it is drawn
    "Bahdanau 对比 Luong": "覆盖度：每个源词收到的注意力总和",
    "束搜索": "选择束搜索，就能看到它保留的各个假设",
    "模型卡片": "完整卡片",
    "导出": "权重 CSV",
    "自然模型对比引导对齐模型": "没有配对的引导对齐模型",
    "逐步查看": "开关",  # the Switches button, over the heatmaps
}
TOKENS = """() => [...document.querySelectorAll('.js-plotly-plot :is(.xtick, .ytick) text')]
    .map(t => t.textContent.replace(/^\\d+:/, ''))"""


@pytest.fixture(scope="module")
def server(chromium, checkpoints, tmp_path_factory):
    yield from serve(checkpoints, tmp_path_factory.mktemp("logs"))


def _idle(page) -> None:
    """Wait until the run is over: Streamlit's own "Running… Stop" widget is not ours to
    translate."""
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=90_000)


def _english(page) -> list[tuple[str, list[str]]]:
    allowed = ALLOWED | {w.lower() for w in WORD.findall(SENTENCE)}
    allowed |= {w.lower() for t in page.evaluate(TOKENS) for w in WORD.findall(t)}
    allowed |= {"bahdanau", "luong", "streamlit", "deploy"}  # the model names; Streamlit's menu
    return [(t, words) for t in page.evaluate(TEXTS) if (words := english_prose(t, allowed))]


def test_the_page_in_chinese_shows_no_english_prose(server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000}, locale="en-US")
        page.goto(f"{server}/?lang=zh")
        box = page.get_by_label("英语句子")
        box.wait_for(timeout=60_000)
        box.fill(SENTENCE)
        box.press("Enter")
        page.wait_for_function(DRAWN, arg="The", timeout=60_000)
        _idle(page)
        assert not _english(page), _english(page)
        page.get_by_role("button", name="播放").click()  # walk the steps to the end
        page.get_by_role("button", name="播放").wait_for(timeout=90_000)
        _idle(page)
        assert not _english(page), _english(page)
        for view, drawn in VIEWS.items():
            page.get_by_test_id("stMain").get_by_text(view, exact=True).click()
            page.get_by_text(drawn).first.wait_for(timeout=90_000)
            _idle(page)
            assert page.locator('[data-testid="stException"]').count() == 0, view
            english = _english(page)
            assert not english, f"{view}: {english}"
        assert re.search(r"lang=zh", page.url)
        browser.close()


def test_a_chinese_browser_opens_the_page_in_chinese(server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000}, locale="zh-CN")
        page.goto(server)  # no ?lang: the browser's language decides
        page.get_by_label("英语句子").wait_for(timeout=60_000)
        page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
        page.get_by_label("English sentence").wait_for(timeout=60_000)  # the switch wins
        assert "lang=en" in page.url
        browser.close()
