"""The page's own spacing: room for two heatmaps side by side at a projector's 1024 px.

Streamlit's wide layout keeps 5rem of padding each side and a 6rem band on top, and its sidebar
takes 300 px until the window is as narrow as a phone's: at 1024 px that left each of two grids
about 100 px of cells (issue 63). This stylesheet trims the padding and the title (the sidebar's
too: a select box in it holds a whole model name, "transformer-pieces", issue 74), and in a window
narrower than :data:`NARROW_PX` the sidebar starts closed, once per browser tab (its » button
opens it, and it then stays open).
"""

from __future__ import annotations

import streamlit as st

SIDEBAR_PX = 240  # the sidebar's starting width where it starts open; it can be dragged
NARROW_PX = 1200  # below this window width the sidebar starts closed

STYLE = """<style>
[data-testid="stMainBlockContainer"] {padding: 3.25rem 1.25rem 5rem 1.25rem; max-width: none}
[data-testid="stMainBlockContainer"] h1 {font-size: 1.9rem; padding: 0 0 0.25rem 0}
[data-testid="stSidebarUserContent"] {padding-left: 0.4rem; padding-right: 0.4rem}
</style>"""

# A tab's sessionStorage remembers that it closed the sidebar once, so that a reader who opens
# it keeps it open. Our own constant code, no user input in it.
CLOSE_WHEN_NARROW = f"""<script>
const page = window, done = "attnviz-sidebar-closed";
if (page.innerWidth < {NARROW_PX} && !page.sessionStorage.getItem(done)) {{
  page.sessionStorage.setItem(done, "1");
  const open = page.document.querySelector('[data-testid="stSidebar"][data-collapsed="false"]');
  const close = page.document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (open && close) close.click();
}}
</script>"""


def page_style_ui() -> None:
    """Apply the stylesheet (a block of style only, which takes no room on the page), and in
    a narrow window close the sidebar (from inside it, where the script's block takes no room
    of the main page)."""
    st.html(STYLE)
    st.sidebar.html(CLOSE_WHEN_NARROW, unsafe_allow_javascript=True)
