"""While the step view plays, the page scrolls with the step: the framed row of the first
heatmap and the step's detail under it (the word it writes and its weights as bars) are kept on the
screen, as they would not be at a projector's 768 pixels, where the title, the inputs and the
buttons take the first 420 (issue 74)."""

from __future__ import annotations

import streamlit as st

# Our own constant code, with the step number as its one value. The page's main block scrolls
# (Streamlit's stMain); each step's run replaces this element, which runs it again once the
# step's detail is drawn (its data-step), with the heatmap's frame at the new row. It scrolls
# as little as keeps both in view, never so far that the framed row goes under the header;
# and again for a moment after, each time the page's height changes (the notes under each
# grid come once both grids are sent).
FOLLOW = """<script data-step="{step}">
(() => {{
  const doc = window.document, main = doc.querySelector('[data-testid="stMain"]');
  let tries = 0;
  const follow = () => {{
    const frame = doc.querySelector('.st-key-heatmap-0 .shapelayer path');  // the left grid's
    const detail = doc.querySelector('.attnviz-step[data-step="{step}"]');  // this step's, drawn
    if (!main || !frame || !detail) {{ if (tries++ < 40) setTimeout(follow, 50); return; }}
    const end = detail.querySelector('.attnviz-bars') || detail;  // the weights, as bars
    const header = doc.querySelector('[data-testid="stHeader"]');  // drawn over the page's top
    const above = (header ? header.getBoundingClientRect().bottom : 0) + 8;
    const top = frame.getBoundingClientRect().top, bottom = end.getBoundingClientRect().bottom;
    const room = window.innerHeight;
    let by = bottom > room ? bottom - room + 8 : 0;
    if (top - by < above) by = top - above;
    if (Math.abs(by) > 2) main.scrollBy({{top: by, behavior: "instant"}});
    if (!watched) {{  // what the run writes later (a note above the detail) moves it again
      watched = new ResizeObserver(() => requestAnimationFrame(follow));
      watched.observe(main.firstElementChild);
      setTimeout(() => watched.disconnect(), 1500);
    }}
  }};
  let watched = null;
  requestAnimationFrame(follow);
}})();
</script>"""


def follow_step_ui(step: int) -> None:
    """Scroll the page to keep step ``step`` (0-based) in view: its framed row and detail."""
    st.html(FOLLOW.format(step=step), unsafe_allow_javascript=True)
