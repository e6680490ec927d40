"""Links to a state in real Chromium (issue 75, item 2): a state reached by clicking in one
browser, its address read off the address bar and opened in a fresh browser context (no cookies,
no session), shows the same direction, sentence, view and step; the Share button shows that link
and its QR code.

Runs as tests/ui/test_browser.py does (its server and Chromium, from browser_helpers.py and
conftest.py; skipped without them, except in CI)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from ..helpers import CHROMIUM
from .browser_helpers import PlaywrightTimeout, serve, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SENTENCE = "我爱你。"


@pytest.fixture(scope="module")
def server(chromium, two_directions, tmp_path_factory):
    yield from serve(two_directions, tmp_path_factory.mktemp("logs"))


def _idle(page) -> None:
    """Wait until the run in progress has drawn the page."""
    page.wait_for_function(
        '() => !document.querySelector(\'[data-stale="true"], [data-testid="stStatusWidget"]\')',
        timeout=90_000,
    )


def _until(page, param: str, value: str, act) -> None:
    """Do ``act`` until the address holds ``param=value``: the page writes its address once
    the run that the act started is drawn, and an act made while an earlier run still redraws
    the page (a key pressed on a slider about to be replaced) is lost, so it is made again."""
    wanted = f"() => new URLSearchParams(location.search).get({param!r}) === {value!r}"
    for _ in range(5):
        act()
        try:
            page.wait_for_function(wanted, timeout=20_000)
            return
        except PlaywrightTimeout:
            _idle(page)
    page.wait_for_function(wanted, timeout=20_000)


def _shown(page) -> dict:
    """What a student sees chosen: direction, sentence, view and step."""
    main = page.get_by_test_id("stMain")
    checked = 'input[type="radio"]:checked'
    return {
        # the direction beside the sentence (the sidebar starts closed at 1024)
        "direction": main.get_by_role("combobox", name="Direction").input_value(),
        "sentence": page.get_by_label("Chinese sentence").input_value(),
        "view": main.get_by_role("radiogroup").nth(1).locator(f"label:has({checked})").inner_text(),
        "step": main.get_by_role("slider").input_value(),
    }


def _query(url: str) -> dict:
    return parse_qs(urlsplit(url).query)


def test_a_state_reached_by_clicking_opens_the_same_from_its_link_in_a_fresh_browser(server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        first = browser.new_context(viewport={"width": 1600, "height": 1000}, locale="en-US")
        page = first.new_page()
        page.goto(server)
        page.get_by_label("English sentence").wait_for(timeout=90_000)
        chinese = page.get_by_test_id("stSidebar").get_by_text("Chinese → English", exact=True)
        _until(page, "direction", "zh-en", chinese.click)
        box = page.get_by_label("Chinese sentence")
        _until(page, "sentence", SENTENCE, lambda: (box.fill(SENTENCE), box.press("Enter")))
        view = page.get_by_test_id("stMain").get_by_text("Bahdanau vs Luong", exact=True)
        _until(page, "view", "compare", view.click)
        _idle(page)  # the step view's slider, replaced by the compare view's, gone
        slider = page.get_by_test_id("stMain").get_by_role("slider")
        # The slider alone reruns (a fragment), not the page: the address follows it all the same
        _until(page, "step", "1", lambda: (slider.focus(), slider.press("Home")))
        _until(page, "step", "2", lambda: (slider.press("Home"), slider.press("ArrowRight")))
        _idle(page)
        clicked, link = _shown(page), page.url
        assert clicked == {
            "direction": "Chinese → English", "sentence": SENTENCE, "view": "Bahdanau vs Luong",
            "step": "2",
        }  # fmt: skip
        assert _query(link)["direction"] == ["zh-en"] and _query(link)["view"] == ["compare"]

        page.get_by_role("button", name="Share").click()
        code = page.get_by_test_id("stCode")
        code.wait_for(timeout=90_000)
        assert _query(code.inner_text().replace("\n", "")) == _query(link)
        assert page.get_by_test_id("stImage").count() == 1  # the QR code
        first.close()

        fresh = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
        other = fresh.new_page()
        other.goto(link)
        other.get_by_label("Chinese sentence").wait_for(timeout=90_000)
        other.get_by_test_id("stMain").get_by_role("slider").wait_for(timeout=90_000)
        _idle(other)
        assert _shown(other) == clicked
        assert _query(other.url) == _query(link)  # and its address is the same link
        assert other.locator('[data-testid="stException"]').count() == 0
        browser.close()
