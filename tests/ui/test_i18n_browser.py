"""The dashboard in Chinese in a real browser (issue 40): opened with ``?lang=zh``, a sentence
typed, the steps walked and every view opened, the page shows no English prose; and, counting
every text a student sees (labels, buttons, captions, axis and chart titles, table headers, the
words a formula writes out), at most three hold English words, and no chart's Chinese title is
written on its side (issue 74).

Runs as tests/ui/test_browser.py does (its server and Chromium, from browser_helpers.py and
conftest.py; skipped without them, except in CI)."""

from __future__ import annotations

import re

import pytest

from attnviz.plots.lesson_notes import FURTHER

from ..helpers import CHROMIUM
from .browser_helpers import DRAWN, TEXTS, opened, serve, settle, sync_playwright
from .prose import ALLOWED, WORD, english_prose, english_words

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


# Every text a student sees, one per element, as [where, text]: an element's own text, a select
# box's value (or its placeholder), and the words a formula writes out (its TeX's \text{}).
# Not the user's words nor the model's: chart ticks, the step's bars and shaded tokens, table
# cells; nor code, nor Streamlit's own menu and icons.
SHOWN = r"""() => {
  const skip = '.xtick, .ytick, g[class*="cb"][class$="tick"], .role-axis-label, .attnviz-bars, '
    + 'span[title], td, code, pre, script, style, .katex, [data-testid="stToolbar"], '
    + '[data-testid="stStatusWidget"], [data-testid="stIconMaterial"], '
    + '[data-testid="stSkipToContent"], [data-testid="stDecoration"]';
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest(skip) || !el.checkVisibility()) continue;
    const own = el.matches('input, textarea') ? el.value ? '' : el.placeholder
      : [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
        .map(n => n.textContent).join('').trim();
    if (own) out.push([el.closest('[data-testid]')?.dataset.testid || el.tagName, own]);
  }
  for (const formula of document.querySelectorAll('.katex')) {
    if (!formula.checkVisibility()) continue;
    const tex = formula.querySelector('annotation')?.textContent || '';
    const words = [...tex.matchAll(/\\(?:text|mathrm|operatorname)\{([^}]*)\}/g)];
    out.push(['formula', '$ ' + words.map(w => w[1]).join(' ')]);
  }
  return out;
}"""
MOST_ENGLISH = 3  # the language switch's "Language · 语言" is one, on purpose
# Each Chinese title of a Plotly chart written on its side (its text or a group it is in turned
# by 90°): hard to read (issue 74).
ON_ITS_SIDE = r"""() => [...document.querySelectorAll(
    '.js-plotly-plot :is(.g-xtitle, .g-ytitle, .annotation, .cbtitle) text')]
  .filter(t => /[\u3400-\u9fff]/.test(t.textContent) && t.checkVisibility())
  .filter(t => { for (let e = t; e && !e.matches('.js-plotly-plot'); e = e.parentElement)
      if (/rotate\(\s*-?(90|270)\b/.test(e.getAttribute('transform') || '')) return true;
    return false; })
  .map(t => t.textContent)"""


def _english_elements(page, allowed: set[str]) -> tuple[int, list[str]]:
    """How many texts the page shows, and those with English words in them."""
    shown = page.evaluate(SHOWN)
    allowed = allowed | {w.lower() for t in page.evaluate(TOKENS) for w in WORD.findall(t)}
    english = [(where, text, english_words(text, allowed)) for where, text in shown]
    return len(shown), [f"{w}: “{text[:80]}” {words}" for w, text, words in english if words]


def test_the_chinese_page_shows_at_most_three_english_texts(server):
    sentences = " ".join([SENTENCE, *FURTHER["en"]])  # the sentence, grown by Why attention
    allowed = ALLOWED | {w.lower() for w in WORD.findall(sentences)}
    found, counts = [], {}
    with opened(server, "zh", 1400, 900) as page:
        box = page.get_by_label("英语句子")
        box.wait_for(timeout=60_000)
        box.fill(SENTENCE)
        box.press("Enter")
        page.wait_for_function(DRAWN, arg="The", timeout=60_000)
        views = page.get_by_test_id("stMain").get_by_role("radiogroup").nth(1).locator("label")
        for k in range(views.count()):
            views.nth(k).click()
            settle(page)
            name = views.nth(k).inner_text()
            shown, english = _english_elements(page, allowed)
            counts[name] = (len(english), shown)
            found += [
                f"{name}: a chart's title “{t}” on its side" for t in page.evaluate(ON_ITS_SIDE)
            ]
            if len(english) > MOST_ENGLISH:
                found.append(f"{name}: {len(english)} of {shown} texts in English:")
                found += [f"    {e}" for e in english]
    assert not found, "\n".join(found)
    print(counts)
