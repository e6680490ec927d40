"""docs/screens/: every view of the dashboard, in English and in Chinese, as a class sees it
(issues 52 and 63): the shipped checkpoints in headless Chromium at a projector's 1024×768 and a
laptop's 1400×900, one screen each, the sidebar folded.

    python docs/make_screens.py        # writes docs/screens/{en,zh}/{1024,1400}/*.png, index.md

The sentence page opens on its example (English → French), shown finished: its first screen as
it opens, then each view from the view switch down. Then the Chinese → English pair on
我爱吃苹果。, the Corpus page on four pasted sentences and the Training page.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "classroom"))
from dashboard_latency import streamlit  # noqa: E402  (opens on the dashboard's first example)

from attnviz_ui.pages.navigation import View  # noqa: E402

OUT = ROOT / "docs" / "screens"
SIZES = [(1024, 768), (1400, 900)]  # a projector's, a laptop's
VIEWS = [  # file name, the view's position in the view switch
    (f"{k + 1}-{view.value.lower().replace(' ', '-')}", k) for k, view in enumerate(View)
]
CORPUS = (
    "He bought a red car and a small house.\tIl a acheté une voiture rouge et une petite maison.\n"
    "I am cold.\tJ'ai froid.\n"
    "Where is the station?\tOù est la gare ?\n"
    "She doesn't like apples.\tElle n'aime pas les pommes.\n"
)
DIRECTIONS = {"en": ("English → French", "Chinese → English"), "zh": ("英语 → 法语", "中文 → 英语")}
SEARCH = {"en": ("greedy", "beam"), "zh": ("贪心搜索", "束搜索")}


def idle(page) -> None:
    """Until the run is over and its charts drawn (the page the same on two looks)."""
    seen = None
    for _ in range(100):
        page.wait_for_timeout(500)
        page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=180_000)
        now = page.evaluate(
            "() => document.querySelectorAll('[data-testid=\"stElementContainer\"], svg text')"
            ".length"
        )
        if now == seen:
            return
        seen = now


def shot(page, top, path: Path) -> None:
    """The page from ``top`` (a locator) down, one screen high."""
    top.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=path)
    print(path.relative_to(ROOT))


def sidebar(page, show: bool) -> None:
    """Fold or unfold the sidebar (in a narrow window it starts folded)."""
    shown = page.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "false"
    if show == shown:
        return
    if show:
        page.get_by_test_id("stExpandSidebarButton").click()
    else:
        page.get_by_test_id("stSidebar").hover()
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
    page.wait_for_timeout(600)


def views(page, folder: Path, prefix: str) -> list[str]:
    """Every view of the sentence page, from its view switch down."""
    main = page.get_by_test_id("stMain")
    switch = main.get_by_role("radiogroup").nth(1)
    written = []
    for name, k in VIEWS:
        switch.locator("label").nth(k).click()
        idle(page)
        shot(page, switch, folder / f"{prefix}{name}.png")
        written.append(f"{prefix}{name}.png")
    return written


def language(p, url: str, lang: str, size: tuple[int, int]) -> list[str]:
    width, height = size
    folder = OUT / lang / str(width)
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
    page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US")
    page.goto(f"{url}/?lang={lang}")
    main = page.get_by_test_id("stMain")
    main.get_by_role("radiogroup").nth(1).wait_for(timeout=180_000)
    idle(page)
    page.wait_for_timeout(1000)  # in a narrow window the sidebar closes once the page is up
    shot(page, main, folder / "0-opening.png")  # the first screen, as a class first sees it
    sidebar(page, show=True)
    bar = page.get_by_test_id("stSidebar")
    bar.get_by_text(SEARCH[lang][1], exact=True).click()  # beam search: its view has a tree
    idle(page)
    sidebar(page, show=False)
    written = ["0-opening.png", *views(page, folder, "en-fr-")]
    sidebar(page, show=True)
    bar.get_by_text(DIRECTIONS[lang][1], exact=True).click()
    idle(page)
    sidebar(page, show=False)
    written += views(page, folder, "zh-en-")
    sidebar(page, show=True)
    bar.get_by_text(DIRECTIONS[lang][0], exact=True).click()
    bar.get_by_text(SEARCH[lang][0], exact=True).click()
    idle(page)
    sidebar(page, show=False)
    pages = main.get_by_role("radiogroup").first
    pages.locator("label").nth(1).click()
    idle(page)
    main.locator("textarea").first.fill(CORPUS)
    main.locator("textarea").first.press("Control+Enter")
    idle(page)
    main.locator(".st-key-corpus_run button").click()
    main.get_by_test_id("stDataFrame").wait_for(timeout=300_000)
    idle(page)
    shot(page, pages, folder / "8-corpus.png")
    pages.locator("label").nth(2).click()
    idle(page)
    shot(page, pages, folder / "9-training.png")
    browser.close()
    return [*written, "8-corpus.png", "9-training.png"]


def index(shots: list[str]) -> str:
    lines = [
        "# The dashboard, view by view",
        "",
        "Made by `python docs/make_screens.py` from the shipped checkpoints, one screen each at a",
        "projector's 1024×768 and a laptop's 1400×900, the sidebar folded. English: [en/](en/);",
        "中文界面: [zh/](zh/).",
        "",
        "| view | English 1024 | English 1400 | 中文 1024 | 中文 1400 |",
        "|---|---|---|---|---|",
    ]
    for name in shots:
        stem = name.removesuffix(".png")
        cells = [f"![{stem}]({lang}/{w}/{name})" for lang in ("en", "zh") for w, _ in SIZES]
        lines.append(f"| {stem} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    with streamlit(ROOT / "dashboard.py", {}) as url, sync_playwright() as p:
        written = [language(p, url, lang, size) for lang in ("en", "zh") for size in SIZES]
    shots = written[0]  # the same file names for every language and size
    (OUT / "index.md").write_text(index(shots))


if __name__ == "__main__":
    main()
