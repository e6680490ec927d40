"""attnviz dashboard: watch Bahdanau and Luong attention translate, step by step, side by side.

    streamlit run dashboard.py

Checkpoints are read from ``checkpoints/`` (or the folder in ATTNVIZ_CHECKPOINTS). The pages
and views live in ``attnviz_ui``, one module each; what they show is computed by ``attnviz``.
"""

from __future__ import annotations

import streamlit as st

from attnviz.i18n import gettext as _
from attnviz.i18n import keeping_language
from attnviz_ui.pages.address_bar import address_ui, follow_link, set_aside_ui
from attnviz_ui.pages.corpus_page import corpus_page_ui
from attnviz_ui.pages.lesson_page import lesson_page_ui
from attnviz_ui.pages.navigation import Page
from attnviz_ui.pages.sentence_page import sentence_page_ui
from attnviz_ui.pages.sidebar import sidebar_ui
from attnviz_ui.pages.training_page import training_page_ui
from attnviz_ui.serving.decoder_process import decoder
from attnviz_ui.serving.live import session_models
from attnviz_ui.serving.models import available
from attnviz_ui.serving.process import freeze_heap, set_up_process
from attnviz_ui.state.session_keys import Key, keep_across_pages
from attnviz_ui.widgets.language import language_ui, use_language
from attnviz_ui.widgets.page_style import SIDEBAR_PX, page_style_ui
from attnviz_ui.widgets.replica_note import replica_note_ui


def main() -> None:
    set_up_process()  # once, before torch runs a product
    decoder.start()  # a new server's decoding process loads beside its first page
    st.set_page_config(page_title="attnviz", layout="wide", initial_sidebar_state=SIDEBAR_PX)
    page_style_ui()
    keep_across_pages(st.session_state)  # the sentence page's inputs, while another is shown
    use_language()
    found, failed = available()
    models = found + session_models()
    aside = follow_link(models)  # a link's choices, before the widgets that show them
    choice = sidebar_ui(models, failed)
    language_ui()  # last in the sidebar: the widgets above keep their places
    title, pages = st.columns([3, 2], vertical_alignment="bottom")
    head = title.container(horizontal=True, vertical_alignment="center")  # the title, Share
    head.title(_("Watch attention translate"), width="content")
    replica_note_ui()
    set_aside_ui(aside)  # what the link asked for that the page cannot show
    if choice is None:
        return
    page = pages.radio(
        _("Page"),
        list(Page),
        format_func=keeping_language(_),
        horizontal=True,
        label_visibility="collapsed",
        key=Key.PAGE,
    )
    share = head.popover(_("Share"), icon=":material/share:", key=Key.SHARE, on_change="rerun")
    if page == Page.LESSON:
        lesson_page_ui(choice)
    elif page == Page.CORPUS:
        corpus_page_ui(choice)
    elif page == Page.TRAINING:
        training_page_ui(choice)
    else:
        sentence_page_ui(choice)
    address_ui(choice, page, share)  # the address: a link to what the page now shows
    freeze_heap()


main()
