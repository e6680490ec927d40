"""Export: each model's weights, alignment and heatmap as files."""

from __future__ import annotations

import json

import streamlit as st

from attnviz.analysis.align import pharaoh, trace_links
from attnviz.decoding.trace import Trace
from attnviz.handout.page import sentence_page
from attnviz.i18n import gettext as _
from attnviz.i18n import keeping_language
from attnviz.plots import formulas, image_export, tables
from attnviz.plots.context_charts import attention_picture

from ..serving.figures import image_of
from ..state.session_keys import element_key
from ..widgets.language import session_language


def _files(name: str, trace: Trace, images: bool) -> list[tuple[str, str, object]]:
    """(label, file name, maker) for each file; makers run only when their button is clicked,
    and an image is made once per picture (:func:`attnviz_ui.serving.figures.image_of`).
    A model without attention has no weights or links to export, only its picture."""
    files = (
        []
        if not trace.has_attention
        else [
            (_("Weights CSV"), f"{name}-weights.csv", lambda: tables.weights_frame(trace).to_csv()),
            (
                _("Weights JSON"),
                f"{name}-weights.json",
                lambda: json.dumps(tables.weights_json(trace), ensure_ascii=False),
            ),
            (_("Alignment (Pharaoh)"), f"{name}.align", lambda: pharaoh(trace_links(trace)) + "\n"),
        ]
    )
    if images:
        label = _("Heatmap {format}") if trace.has_attention else _("Context picture {format}")
        for fmt in ("png", "svg"):
            # Made on another thread, where no catalog is bound: in the language bound now.
            make = keeping_language(lambda f=fmt: image_of(attention_picture(trace, title=name), f))
            files.append((label.format(format=fmt.upper()), f"{name}.{fmt}", make))
    return files


def _handout_ui(shown: list[tuple[str, Trace]]) -> None:
    """The sentence as a handout page (:mod:`attnviz.handout`): one HTML file, plotly.js
    inlined, that opens in any browser with no server and no network."""
    language = session_language()
    make = keeping_language(
        lambda: sentence_page(shown, language=language, inline_plotly=True).encode()
    )
    st.download_button(
        _("Download this as a handout page"),
        make,
        file_name="attnviz-handout.html",
        mime="text/html",
        key=element_key("handout", 0),
    )
    st.caption(
        _(
            "One HTML file with both models, the step slider and the numbers of each step: it "
            "opens in any browser, offline. For a whole lesson, `attnviz handout` writes a "
            "folder of such pages."
        )
    )


def export_view_ui(shown: list[tuple[str, Trace]]) -> None:
    """Download buttons for each (name, trace), and the sentence as a handout page."""
    st.caption(_("Files are made when you click, from what is shown above."))
    _handout_ui(shown)
    images = image_export.can_export_images()
    for side, (name, trace) in enumerate(shown):
        st.markdown(f"**{name}**")
        if not trace.has_attention:
            st.caption(_(formulas.NO_ATTENTION).format(name=name))
        files = _files(name, trace, images)
        for row in range(0, len(files), 3):  # three a row: each label whole at 1024 px
            for col, (label, file_name, make) in zip(
                st.columns(3), files[row : row + 3], strict=False
            ):
                col.download_button(
                    label, make, file_name=file_name, key=element_key(file_name, side)
                )
    if not images:
        st.caption(
            _(
                "PNG and SVG need Chrome or Chromium on the server (kaleido drives it); the "
                "camera icon on each chart saves an image from your browser."
            )
        )
