"""The page as a teacher projects it (issues 52 and 63), in real Chromium: at 1024, 1400 and
1920 px, in English and in Chinese, every view of the sentence page for an English and a Chinese
sentence, then the Corpus and Training pages. On each: no chart or table past the viewport's right
edge (or its column's), every bar chart and heatmap naming every source word, no two labels of a
chart overlapping, no widget label cut short, no English prose under ``?lang=zh``, no model card
with a blank figure, no traceback. And what a class reads off the default view after Enter, at a
projector's 1024×768 and a laptop's 1400×900: both grids, cells wide enough to read, starting on
the first screen.

One server for all twelve walks (the language is the link's), on the tiny models of
tests/ui/conftest.py; skipped without Chromium and Playwright, as tests/ui/test_browser.py is.
"""

from __future__ import annotations

import re

import pytest

from attnviz_ui.state.session_keys import Key

from .browser_helpers import SETTLED, TEXTS, PlaywrightTimeout, open_sidebar, opened, serve, settle
from .prose import ALLOWED, WORD, english_prose

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ENGLISH = "The big red cat sees a small dog and a little bird."  # 12 source tokens and <eos>
CHINESE = "我爱吃苹果。"
BOX = {"en": ("English sentence", "Chinese sentence"), "zh": ("英语句子", "中文句子")}
DIRECTION = {"en": "Chinese → English", "zh": "中文 → 英语"}
PAGES = {"en": ("A corpus", "Training"), "zh": ("语料", "训练")}
WHAT_IF = {"en": "What if…", "zh": "假如…"}

# Each visible chart, table and picture whose right edge passes the viewport's or its
# element's: [what, left, right, the element's right].
PAST_THE_EDGE = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  const shown = '.js-plotly-plot .main-svg, [data-testid="stVegaLiteChart"] svg, '
    + '[data-testid="stVegaLiteChart"] canvas, [data-testid="stDataFrame"] > div, '
    + '[data-testid="stTable"] table, [data-testid="stHtml"] table, .attnviz-bars, '
    + '[data-testid="stImage"] img';
  for (const el of document.querySelectorAll(shown)) {
    if (!el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    const box = (el.closest('[data-testid="stElementContainer"]') || el.parentElement)
      .getBoundingClientRect();
    if (r.width > 1 && (r.right > vw + 1 || r.right > box.right + 1))
      out.push([el.closest('[data-testid]')?.dataset.testid, r.left, r.right, box.right]);
  }
  return out;
}"""
# Each label, button or widget text shown cut short (an ellipsis, or clipped), and each chart
# text Vega-Lite shortened to fit ("validation los…").
CUT = """() => [...[...document.querySelectorAll(
    '[data-testid="stWidgetLabel"] *, label *, button *, .stMarkdownEllipsis')]
  .filter(el => el.checkVisibility() && el.textContent.trim()
    && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible'),
  ...[...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
  .filter(t => t.textContent.endsWith('…'))]
  .map(el => el.textContent.trim())"""
# The numbered source labels ("3:cat") of each heatmap's columns and each bar chart's axis.
NUMBERED = """() => {
  const numbers = texts => texts.map(t => /^(\\d+):/.exec(t.textContent.trim()))
    .filter(Boolean).map(m => +m[1]);
  const heatmaps = [...document.querySelectorAll('.js-plotly-plot')]
    .filter(p => p.querySelector('.heatmaplayer') && p.checkVisibility())
    .map(p => numbers([...p.querySelectorAll('.xtick text')]));
  const bars = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')]
    .filter(s => s.checkVisibility())
    .map(s => numbers([...s.querySelectorAll('.role-axis-label text')]))
    .filter(n => n.length);
  return {heatmaps, bars};
}"""
# Pairs of labels that overlap, in each visible chart: a heatmap's source and output words, a
# Vega-Lite chart's axis labels, the words under the step's HTML bars. [chart, label, label].
OVERLAPS = """() => {
  const boxes = els => els.filter(e => e.checkVisibility() && e.textContent.trim())
    .map(e => [e.textContent.trim(), e.getBoundingClientRect()]);
  const groups = [];
  for (const p of document.querySelectorAll('.js-plotly-plot'))
    for (const axis of ['.xtick text', '.ytick text'])
      groups.push(boxes([...p.querySelectorAll(axis)]));
  for (const s of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg'))
    for (const axis of s.querySelectorAll('.role-axis-label'))
      groups.push(boxes([...axis.querySelectorAll('text')]));
  for (const row of document.querySelectorAll('.attnviz-bars .row'))
    groups.push(boxes([...row.querySelectorAll('.word')]));
  const out = [];
  for (const g of groups)
    for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) {
      const [a, ra] = g[i], [b, rb] = g[j];
      if (ra.left < rb.right - 0.5 && rb.left < ra.right - 0.5
          && ra.top < rb.bottom - 0.5 && rb.top < ra.bottom - 0.5) out.push([a, b]);
    }
  return out;
}"""
# Each visible heatmap's grid: its width per source column, and where it starts, the page
# scrolled to the top.
GRIDS = """() => [...document.querySelectorAll('.js-plotly-plot')]
  .filter(p => p.querySelector('.heatmaplayer') && p.checkVisibility())
  .map(p => {
    const grid = p.querySelector('.heatmaplayer').getBoundingClientRect();
    return {cell: grid.width / p.querySelectorAll('.xtick text').length, top: grid.top};
  })"""
CARDS = """() => [...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
  .filter(m => m.checkVisibility()).map(m => m.innerText)"""
BLANK = re.compile(r"(?:^|[\s(:,])[–-](?=[\s),]|$)")  # a figure the card left blank: "beam 5 –"


def _type(page, label: str, sentence: str) -> None:
    box = page.get_by_label(label)
    box.wait_for(timeout=90_000)
    box.fill(sentence)
    box.press("Enter")
    settle(page)


def _problems(page, where: str, lang: str, sentence_words: set[str]) -> list[str]:
    """What a teacher would see wrong on the page as it is now."""
    found = []
    if page.get_by_test_id("stException").count():
        found.append(f"{where}: a traceback")
    found += [f"{where}: past the edge {w}" for w in page.evaluate(PAST_THE_EDGE)]
    found += [f"{where}: cut label “{t}”" for t in page.evaluate(CUT)]
    found += [f"{where}: labels “{a}” and “{b}” overlap" for a, b in page.evaluate(OVERLAPS)]
    numbered = page.evaluate(NUMBERED)
    columns = max((max(n, default=0) for n in numbered["heatmaps"]), default=0)
    for kind, labelled in numbered.items():
        for numbers in labelled:
            if sorted(set(numbers)) != list(range(1, max(numbers, default=0) + 1)):
                found.append(f"{where}: a {kind[:-1]} leaves words out: {sorted(set(numbers))}")
    if columns:
        found += [
            f"{where}: a bar chart names {max(n)} of {columns} source words"
            for n in numbered["bars"]
            if max(n) < columns - 1  # the bars leave out <eos> (attribution's)
        ]
    if lang == "zh":
        allowed = ALLOWED | sentence_words | {"bahdanau", "luong", "general", "toy"}
        found += [
            f"{where}: English “{t}”" for t in page.evaluate(TEXTS) if english_prose(t, allowed)
        ]
    return found


def _switch(page, key: Key) -> None:
    """Flip the step view's switch ``key``, in its popover."""
    page.locator(f".st-key-{Key.SWITCHES} button").first.click()
    page.locator(f".st-key-{key} label").click()
    settle(page)
    page.keyboard.press("Escape")


SIDEBAR_CLOSED = """() => {
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  return sidebar.dataset.collapsed === 'true' && sidebar.getBoundingClientRect().right <= 0;
}"""


def _choose_direction(page, direction: str) -> None:
    """Pick ``direction`` in the sidebar, opening it where a narrow window started it closed,
    and close it again."""
    closed = open_sidebar(page)
    page.get_by_test_id("stSidebar").get_by_text(direction, exact=True).click()
    settle(page)
    if closed:
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
        page.wait_for_function(SIDEBAR_CLOSED, timeout=60_000)  # slid out of the window


def _views(page) -> int:
    return page.get_by_test_id("stMain").get_by_role("radiogroup").nth(1).locator("label").count()


def _walk_views(page, where: str, lang: str, words: set[str]) -> list[str]:
    """Every view of the sentence page (the step view with its switches on, too)."""
    found = []
    views = page.get_by_test_id("stMain").get_by_role("radiogroup").nth(1).locator("label")
    for k in range(_views(page)):
        views.nth(k).click()
        settle(page)
        name = views.nth(k).inner_text()
        found += _problems(page, f"{where}/{name}", lang, words)
        if k == 0:  # the step view: its numbers and the finished translation as well
            for key in (Key.FINISHED, Key.NUMBERS):
                _switch(page, key)
            found += _problems(page, f"{where}/{name}, switches on", lang, words)
            for key in (Key.FINISHED, Key.NUMBERS):
                _switch(page, key)
        if "card" in name.lower() or "卡片" in name:
            cards = [t for t in page.evaluate(CARDS) if "BLEU" in t]
            found += [f"{where}: a blank card figure in “{t}”" for t in cards if BLANK.search(t)]
    return found


@pytest.fixture(scope="module")
def server(chromium, two_directions, tmp_path_factory):
    yield from serve(two_directions, tmp_path_factory.mktemp("logs"))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [1024, 1400, 1920])
def test_every_view_fits_the_page_names_every_word_and_speaks_one_language(server, width, lang):
    words = {w.lower() for w in WORD.findall(ENGLISH + " I love to eat apples")}
    with opened(server, lang, width, 1000) as page:
        english_box, chinese_box = BOX[lang]
        _type(page, english_box, ENGLISH)
        found = _walk_views(page, f"{width}/{lang}/English", lang, words)
        _choose_direction(page, DIRECTION[lang])
        _type(page, chinese_box, CHINESE)
        found += _walk_views(page, f"{width}/{lang}/Chinese", lang, words)
        corpus, training = PAGES[lang]
        main = page.get_by_test_id("stMain")
        main.get_by_role("radiogroup").first.get_by_text(corpus, exact=True).click()
        settle(page)
        main.locator("textarea").first.fill(
            "我爱吃苹果。\tI love to eat apples.\n我爱你。\tI love you."
        )
        main.locator("textarea").first.press("Control+Enter")
        settle(page)
        main.locator(f".st-key-{Key.CORPUS_RUN} button").click()
        settle(page)
        main.get_by_test_id("stDataFrame").wait_for(timeout=120_000)
        found += _problems(page, f"{width}/{lang}/corpus", lang, words)
        main.get_by_role("radiogroup").first.get_by_text(training, exact=True).click()
        settle(page)
        found += _problems(page, f"{width}/{lang}/training", lang, words)
    assert not found, "\n".join(found)


# Issue 63's sentences on the toy models: 12 and 20 words, and a Chinese one of 20 words.
TWELVE = ENGLISH
TWENTY = "The big red cat sees a small dog and a little bird , the dog likes the cat and the bird ."
CHINESE_LONG = "我 喜欢 苹果 ， 你 喜欢 香蕉 ， 他 喜欢 橘子 ， 我们 需要 鸡蛋 ， 玛丽 想要 西瓜 。"
READABLE = {12: 20, 20: 14}  # words -> the narrowest cell a class can read, px


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1024, 768), (1400, 900)])
def test_both_grids_are_large_and_start_on_the_first_screen(server, size, lang):
    width, height = size
    found = []
    with opened(server, lang, width, height) as page:
        english_box, chinese_box = BOX[lang]
        sentences = [(english_box, TWELVE, 12), (english_box, TWENTY, 20)]
        for box, sentence, words in [*sentences, (chinese_box, CHINESE_LONG, 20)]:
            if box == chinese_box:
                _choose_direction(page, DIRECTION[lang])
            _type(page, box, sentence)
            where = f"{width}x{height}/{lang}/{words} words/{box}"
            grids = page.evaluate(GRIDS)
            if len(grids) != 2:
                found.append(f"{where}: {len(grids)} grids, not two")
            found += [
                f"{where}: cells {g['cell']:.1f} px wide, under {READABLE[words]}"
                for g in grids
                if g["cell"] < READABLE[words]
            ]
            found += [
                f"{where}: a grid starts at {g['top']:.0f} px" for g in grids if g["top"] > height
            ]
            found += [f"{where}: “{a}” and “{b}” overlap" for a, b in page.evaluate(OVERLAPS)]
    assert not found, "\n".join(found)


# During Play, the step as a class sees it at 1024×768: the left grid's framed row, and under it
# the step's detail (its "Step N: writing …" line and the weights as bars), each between the
# header Streamlit draws over the page and the bottom of the window.
IN_VIEW = """() => {
  const frame = document.querySelector('.st-key-heatmap-0 .shapelayer path');
  const detail = document.querySelector('.attnviz-step');
  if (!frame || !detail) return null;
  const bars = detail.querySelector('.attnviz-bars') || detail;
  const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect();
  const main = document.querySelector('[data-testid="stMain"]');
  return {step: Number(detail.dataset.step), header: header.bottom, view: window.innerHeight,
          row: [frame.getBoundingClientRect().top, frame.getBoundingClientRect().bottom],
          heading: detail.querySelector('b').getBoundingClientRect().top,
          bars: bars.getBoundingClientRect().bottom, scrolled: main.scrollTop};
}"""


# IN_VIEW once the page is still: past step ``after``, the run that drew the step over, and
# nothing moved for ``frames`` frames (the page follows the step in the frame after each change
# of its height, and a run's last message is drawn by then).
STILL_STEP = f"""([after, frames]) => {{
  const look = ({IN_VIEW})(), key = JSON.stringify(look), seen = window.attnvizLook;
  if (!seen || seen.key !== key) {{ window.attnvizLook = {{key, frames: 0}}; return false; }}
  seen.frames += 1;
  return look && look.step > after && seen.frames >= frames && ({SETTLED})() && look;
}}"""


def _next_step(page, after: int) -> dict:
    """The step in view once the page has moved past step ``after`` and stopped moving."""
    page.evaluate("() => { window.attnvizLook = null; }")
    try:
        return page.wait_for_function(STILL_STEP, arg=[after, 10], timeout=120_000).json_value()
    except PlaywrightTimeout:
        shown = page.evaluate(IN_VIEW)
        raise AssertionError(f"the step view did not move past step {after + 1}: {shown}") from None


# 26 source tokens: the first steps of Play once put its bars 240 px below a 768 px screen
LONG = (
    "The big red cat sees a small dog and a little bird , the small dog likes the big cat and "
    "the little red bird ."
)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("sentence", [TWELVE, LONG], ids=["12 words", "26 words"])
def test_during_play_the_step_and_its_detail_stay_on_the_first_screen(server, lang, sentence):
    found = []
    with opened(server, lang, 1024, 768) as page:
        _type(page, BOX[lang][0], sentence)
        page.locator(f".st-key-{Key.PLAY} button").click()
        step = -1
        while step < 8:  # the first steps, and those of a grid's lower half
            shown = _next_step(page, step)
            step = shown["step"]
            where = f"{lang}, step {step + 1}"
            top, bottom = shown["row"]
            if top < shown["header"] - 1 or bottom > shown["view"]:
                found.append(f"{where}: the framed row at {top:.0f}–{bottom:.0f} px: {shown}")
            if shown["heading"] < shown["header"] or shown["bars"] > shown["view"]:
                found.append(f"{where}: the step's detail out of view: {shown}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_if_shows_its_result_under_the_button_that_asked(server, lang):
    with opened(server, lang, 1024, 768) as page:
        _type(page, BOX[lang][0], TWELVE)
        page.get_by_test_id("stMain").get_by_role("button", name=WHAT_IF[lang]).click()
        page.locator(f".st-key-{Key.WHAT_IF}").click()
        page.get_by_role("option").nth(1).click()  # another word here
        settle(page)
        page.keyboard.press("Escape")
        control = page.locator(f".st-key-{Key.WHAT_IF_WORD}")
        box = control.bounding_box()
        assert box and box["y"] + box["height"] <= 768, f"What if…'s choice at {box}"


# Each Lesson screen as a class sees it at 1024×768: the step's title and words whole, and its
# picture (a chart or the notes' table) starting on the first screen with at least 200 px of it
# there; where the direction has no model for the step, the line saying so in place of its
# words, whole on the first screen.
LESSON_SCREEN = """() => {
  const row = [...document.querySelectorAll('[data-testid="stHorizontalBlock"]')]
    .find(block => block.querySelector('h4'));  // the step's title heads its words' column
  if (!row) return null;
  const [words, picture] = row.querySelectorAll(':scope > [data-testid="stColumn"]');
  const missing = words && words.querySelector('[data-testid="stAlert"]');
  if (missing) {
    const box = missing.getBoundingClientRect();
    return {view: window.innerHeight, text: box.bottom, picture: box.top,
            words: missing.innerText.length};
  }
  const shown = picture && picture.querySelector(
    '.js-plotly-plot, [data-testid="stTable"]');
  const text = words && [...words.querySelectorAll('[data-testid="stMarkdownContainer"]')]
    .filter(e => !e.closest('[data-testid="stCaptionContainer"]') && !e.querySelector('h4, .katex'))
    .pop();  // the step's words: not its title, its formula or a caption under its numbers
  if (!shown || !text) return null;
  return {view: window.innerHeight, text: text.getBoundingClientRect().bottom,
          picture: shown.getBoundingClientRect().top, words: text.innerText.length};
}"""
NEXT = {"en": "Next step", "zh": "下一步"}
LESSON = {"en": "Lesson", "zh": "课程"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_lesson_screen_shows_its_words_and_its_picture_at_1024(server, lang):
    found = []
    with opened(server, lang, 1024, 768) as page:
        page.get_by_label(BOX[lang][0]).wait_for(timeout=90_000)
        page.get_by_test_id("stMain").get_by_text(LESSON[lang], exact=True).click()
        settle(page)
        for step in range(1, 7):
            try:  # the step's words and its picture, drawn
                screen = page.wait_for_function(LESSON_SCREEN, timeout=60_000).json_value()
            except PlaywrightTimeout:
                screen = None
            if screen is None:
                found.append(f"{lang}, step {step}: no words or no picture")
            elif screen["text"] > screen["view"] or screen["picture"] > screen["view"] - 200:
                found.append(f"{lang}, step {step}: not on the first screen: {screen}")
            if page.get_by_test_id("stException").count():
                found.append(f"{lang}, step {step}: a traceback")
            if step < 6:
                page.get_by_role("button", name=NEXT[lang]).click()
                settle(page)
    assert not found, "\n".join(found)
