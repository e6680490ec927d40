"""The real dashboard in a real browser: `streamlit run`, headless Chromium, a typed sentence.

Needs Debian's ``chromium`` and Playwright for Python, which drives it through
``/usr/bin/chromium`` (no browser download); ``scripts/install-test-deps.sh`` installs both.
Where either is missing these tests are skipped, saying so, except in CI (``CI`` set), where
that is a failure. Every wait is on a condition of the page, never a fixed time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attnviz.plots.heatmaps import EFLOMAL_COLOR, FORCED
from attnviz_ui.pages.sentence_inputs import EXAMPLES

from ..helpers import CHROMIUM, TAUGHT
from .browser_helpers import DRAWN, HEATMAPS_ON, SETTLED, serve, sync_playwright, typed_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BARS_DRAWN = (  # both models' step bars (HTML), a bar per source token of the sentence
    "(n) => [...document.querySelectorAll('.attnviz-bars')]"
    ".filter(b => b.querySelectorAll('[title*=\"raw score\"]').length === n).length >= 2"
)


@pytest.fixture(scope="module")
def server(chromium, checkpoints, tmp_path_factory):
    yield from serve(checkpoints, tmp_path_factory.mktemp("logs"))


@pytest.fixture(scope="module")
def taught_server(chromium, taught_folder, tmp_path_factory):
    yield from serve(taught_folder, tmp_path_factory.mktemp("logs"))


@pytest.fixture(scope="module")
def two_direction_server(chromium, two_directions, tmp_path_factory):
    yield from serve(two_directions, tmp_path_factory.mktemp("logs"))


def test_the_first_page_draws_both_heatmaps_before_anything_is_typed(server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(server)
        page.wait_for_function(DRAWN, arg=EXAMPLES["en-fr"][0].split()[0], timeout=60_000)
        assert page.get_by_label("English sentence").input_value() == EXAMPLES["en-fr"][0]
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()


def test_typing_a_sentence_draws_both_heatmaps_and_the_step_bars(server, tmp_path):
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/install-test-deps.sh"
    with sync_playwright() as p:
        browser, page = typed_page(p, server)
        heatmaps = page.locator(".js-plotly-plot .heatmaplayer")
        tokens = 8  # The red cat sees a dog . <eos>
        page.wait_for_function(BARS_DRAWN, arg=tokens, timeout=60_000)  # before the picture
        page.screenshot(path=tmp_path / "dashboard.png", full_page=True)
        assert heatmaps.count() >= 2
        assert page.locator('[data-testid="stException"]').count() == 0
        assert (tmp_path / "dashboard.png").stat().st_size > 10_000
        browser.close()


# Per alignment heatmap: (output rows that show their word, all output rows); the hidden ones
# read "n:…".
WRITTEN = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .filter(p => p.querySelector('.heatmaplayer') && p.querySelector('.ytick'))
    .map(p => [...p.querySelectorAll('.ytick text')].map(t => t.textContent))
    .map(ys => [ys.filter(y => !y.endsWith(':…')).length, ys.length])"""
ROWS_DRAWN = f"() => ({WRITTEN})().length >= 2"  # both heatmaps have their output rows
ALL_WRITTEN = (  # ... and every row of both shows its word
    f"() => {{ const w = ({WRITTEN})().slice(0, 2); "
    "return w.length === 2 && w.every(([shown, rows]) => shown === rows); }"
)

PART_WRITTEN = (  # ... or, while playing, a row of one of them still blank
    f"() => ({WRITTEN})().slice(0, 2).some(([shown, rows]) => shown < rows)"
)


def _written(page) -> list[tuple[int, int]]:
    return page.evaluate(WRITTEN)


def test_a_sentence_typed_is_shown_whole_and_play_reveals_it_word_by_word(server):
    with sync_playwright() as p:
        browser, page = typed_page(p, server)
        page.wait_for_function(ALL_WRITTEN, timeout=60_000)  # the whole translation first
        assert all(rows > 2 for _, rows in _written(page)[:2])
        page.get_by_role("button", name="Play").click()
        page.get_by_role("button", name="Pause").wait_for(timeout=30_000)
        # From step 1: the rows not written yet are blank while it plays...
        page.wait_for_function(PART_WRITTEN, timeout=60_000)
        # ... then it walks on by itself, stops on the last step and offers Play again. The
        # last step's heatmaps may be drawn after the button: wait for them, however busy the
        # machine, rather than read once.
        page.get_by_role("button", name="Play").wait_for(timeout=60_000)
        page.wait_for_function(ALL_WRITTEN, timeout=60_000)
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()


TICKS = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .filter(p => p.querySelector('.heatmaplayer'))
    .map(p => [...p.querySelectorAll('.xtick text')].map(t => t.textContent))"""


def test_typing_the_classroom_sentence_into_the_chinese_pair(two_direction_server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(two_direction_server)
        page.get_by_label("English sentence").wait_for(timeout=60_000)
        page.get_by_text("Chinese → English").click()
        box = page.get_by_label("Chinese sentence")
        box.wait_for(timeout=60_000)
        box.fill("")  # the direction opened on this very sentence: clear it, then type it
        box.press("Enter")
        page.get_by_text("Type a sentence or pick an example").wait_for(timeout=60_000)
        box.fill("我爱吃苹果。")
        box.press("Enter")
        page.wait_for_function(DRAWN, arg="我", timeout=60_000)
        assert all(ticks[:5] == ["1:我", "2:爱", "3:吃", "4:苹果", "5:。"]
                   for ticks in page.evaluate(TICKS)[:2])  # fmt: skip
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()


# Every heatmap on the page, as drawn: its title, its source (x) and output (y) labels, and the
# links it marks (a scatter trace's name, its marks drawn and their colours, and the cells they
# sit on).
HEATMAPS = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .filter(p => p.querySelector('.heatmaplayer'))
    .map(p => ({
      title: [...p.querySelectorAll('.gtitle')].map(t => t.textContent).join(''),
      x: [...p.querySelectorAll('.xtick text')].map(t => t.textContent),
      y: [...p.querySelectorAll('.ytick text')].map(t => t.textContent),
      marks: p._fullData.filter(d => d.type === 'scatter').map((d, k) => ({
        name: d.name,
        drawn: p.querySelectorAll('.scatterlayer .trace')[k].querySelectorAll('.point').length,
        strokes: [...new Set([...p.querySelectorAll('.scatterlayer .trace')[k]
          .querySelectorAll('.point')].map(q => getComputedStyle(q).stroke))],
        cells: d.x.map((x, i) => x + ' ' + d.y[i]),
      })),
    }))"""
# The run is over: three heatmaps on the sentence typed (its first word), nothing left stale
# from the sentence before, the script no longer running.
TAUGHT_DRAWN = f"""(first) => {HEATMAPS_ON} >= 3
  && !document.querySelector('[data-stale="true"], [data-testid="stStatusWidget"]')"""
METRICS = """() => [...document.querySelectorAll('[data-testid="stMetric"]')].map(m => [
    m.querySelector('[data-testid="stMetricLabel"]').textContent.trim(),
    m.querySelector('[data-testid="stMetricValue"]').textContent.trim()])"""
EFLOMAL_RGB = "rgb({}, {}, {})".format(*bytes.fromhex(EFLOMAL_COLOR[1:]))
TOY_SENTENCE = "The horse sees a car."  # of the toy corpus the tiny models learned


def test_natural_vs_taught_draws_both_models_their_difference_and_eflomal(taught_server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(taught_server)
        box = page.get_by_label("English sentence")
        box.wait_for(timeout=60_000)
        page.get_by_test_id("stMain").get_by_text("Natural vs taught", exact=True).click()
        page.get_by_text(f"{TAUGHT} minus bahdanau").wait_for(timeout=90_000)  # the opening
        box.fill(TOY_SENTENCE)
        box.press("Enter")
        page.wait_for_function(TAUGHT_DRAWN, arg="The", timeout=90_000)
        natural, taught, difference = page.evaluate(HEATMAPS)
        forced = f" · {FORCED}"  # both are force-decoded on one output, and say so
        assert [natural["title"], taught["title"], difference["title"]] == [
            f"bahdanau (natural){forced}", f"{TAUGHT} (taught){forced}", f"{TAUGHT} minus bahdanau"
        ]  # fmt: skip
        words = [*TOY_SENTENCE[:-1].split(), ".", "<eos>"]
        typed = [f"{i}:{w}" for i, w in enumerate(words, 1)]
        assert natural["x"] == taught["x"] == difference["x"] == typed
        # Both are force-decoded on one output, so their rows, and the difference's, line up.
        assert len(natural["y"]) > 2 and natural["y"] == taught["y"] == difference["y"]
        # eflomal's links of that one sentence pair, drawn as circles on all three.
        (links,) = natural["marks"]
        assert links["name"] == "eflomal link" and links["cells"]
        assert links["drawn"] == len(links["cells"])
        assert links["strokes"] == [EFLOMAL_RGB]  # green circles, as the caption says
        assert taught["marks"] == difference["marks"] == [links]
        metrics = dict(page.evaluate(METRICS))
        for name in ("bahdanau", TAUGHT):
            assert 0 <= int(metrics[f"{name}: attention vs eflomal (AER)"]) <= 100
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()


@pytest.fixture(scope="module")
def fixed_server(chromium, fixed_folder, tmp_path_factory):
    yield from serve(fixed_folder, tmp_path_factory.mktemp("logs"))


SOURCE_WORDS = """() => { const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
    .find(e => e.textContent.startsWith('Source words'));
    return m ? parseInt(m.querySelector('[data-testid="stMetricValue"]').textContent) : 0; }"""


def test_the_length_control_grows_the_sentence_beside_the_fixed_context_model(fixed_server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(fixed_server)
        box = page.get_by_label("English sentence")
        box.wait_for(timeout=60_000)
        box.fill("The red cat sees a dog.")
        box.press("Enter")
        page.get_by_text("Why attention", exact=True).click()
        page.get_by_text("encdec · no attention").wait_for(timeout=60_000)
        page.wait_for_function(f"() => ({SOURCE_WORDS})() === 6", timeout=60_000)
        slider = page.get_by_role("slider", name="Sentences joined")
        slider.focus()
        for _ in range(3):
            slider.press("ArrowRight")
        page.wait_for_function(f"() => ({SOURCE_WORDS})() > 20", timeout=60_000)
        assert page.get_by_text("source content words lost").count() == 3
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()


def _no_exception(page) -> bool:
    """After the run in progress: whether the page shows no traceback."""
    page.wait_for_function(
        '() => !document.querySelector(\'[data-stale="true"], [data-testid="stStatusWidget"]\')',
        timeout=60_000,
    )
    return page.locator('[data-testid="stException"]').count() == 0


def test_switching_the_language_keeps_the_direction_and_the_page(two_direction_server):
    # Issue 51: ?lang=zh, 中文 → 英语, English, then 中文 again raised KeyError: '中文 → 英语'.
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(f"{two_direction_server}/?lang=zh")
        page.get_by_text("中文 → 英语").click()
        page.get_by_label("中文句子").wait_for(timeout=60_000)
        for language, box in (("English", "Chinese sentence"), ("中文", "中文句子")):
            page.wait_for_function(SETTLED, timeout=120_000)  # a click mid-run can be lost
            page.get_by_text(language, exact=True).click()
            page.get_by_label(box).wait_for(timeout=60_000)  # still Chinese -> English
            assert _no_exception(page)
        page.get_by_text("训练", exact=True).click()
        page.get_by_text("English", exact=True).click()
        page.get_by_text("How attention formed during training").wait_for(timeout=60_000)
        assert _no_exception(page)
        browser.close()


@pytest.fixture(scope="module")
def transformer_server(chromium, transformer_folder, tmp_path_factory):
    yield from serve(transformer_folder, tmp_path_factory.mktemp("logs"))


HEAD_TITLES = """() => [...document.querySelectorAll('.js-plotly-plot .gtitle')]
    .map(t => t.textContent)"""


def _pick(page, label: str, option: str) -> None:
    """Picks ``option`` in the select box ``label`` once the page's run is over. The box is
    brought to the middle of the window first: opened near its bottom edge, its list scrolls
    the page to fit, and the scroll closes the list before the option can be clicked."""
    page.wait_for_function(SETTLED, timeout=60_000)
    box = page.get_by_label(label)
    box.evaluate("box => box.scrollIntoView({block: 'center', behavior: 'instant'})")
    box.click()
    page.get_by_role("option", name=option).click()


def test_to_the_transformer_draws_every_head_and_the_one_picked_large(transformer_server):
    with sync_playwright() as p:
        browser, page = typed_page(p, transformer_server)
        page.get_by_text("To the Transformer", exact=True).click()
        # the small multiples: one heatmap per layer and head (2 x 2), the first one large
        page.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')]"
            ".some(p => p.querySelectorAll('.heatmaplayer .hm').length === 4)",
            timeout=60_000,
        )
        page.wait_for_function(
            f"() => ({HEAD_TITLES})().some(t => t.endsWith('layer 1, head 1'))", timeout=60_000
        )
        _pick(page, "Draw one head large", "layer 2, head 1")
        # until the run ends, the head drawn before stays on the page beside the new one
        page.wait_for_function(
            f"() => ({HEAD_TITLES})().some(t => t.endsWith('layer 2, head 1'))"
            f" && !({HEAD_TITLES})().some(t => t.endsWith('layer 1, head 1'))",
            timeout=60_000,
        )
        assert not any(t.endswith("layer 1, head 1") for t in page.evaluate(HEAD_TITLES))
        assert _no_exception(page)
        browser.close()
