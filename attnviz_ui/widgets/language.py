"""The session's language: which one, the switch that picks it, its catalog, and the corpus
tables' headers shown in it.

The language comes from, in order: the link's ``?lang=zh`` or ``?lang=en`` (a teacher shares a
link), the sidebar's switch (kept in session state, so it survives page switches and reruns),
the browser's language (``st.context.locale``), English. Switching changes the text and nothing
else: models, sentence, step and view are widgets of their own and keep their values.

The catalogs are gettext .po files under ``attnviz/locales/``, read with Babel and compiled in
memory once per process (no .mo file to build or keep in step). :mod:`attnviz.i18n` says why
gettext, and why the catalog is bound to each run rather than installed process-wide. To add a
string: write ``_("English text")`` (``N_`` for a constant), then

    python scripts/update_catalogs.py

and translate it in ``attnviz/locales/zh/LC_MESSAGES/messages.po``; tests/ui/test_i18n.py fails
on any string left out.
"""

from __future__ import annotations

import streamlit as st

from attnviz import i18n
from attnviz.i18n import INTERFACE_LANGUAGES, N_
from attnviz.i18n import gettext as _

from ..state.session_keys import TRANSLATED, Key

KEY = Key.LANGUAGE  # the session-state key of the switch
# A language's compiled catalog, once per process; None for English; raises CatalogError,
# naming the file, for a catalog missing or unreadable.
translations = i18n.catalog


def from_locale(locale: str | None) -> str:
    """The language of a browser locale such as ``zh-CN`` or ``en-GB``: English unless it is one
    of ours."""
    code = (locale or "").replace("_", "-").split("-")[0].lower()
    return code if code in INTERFACE_LANGUAGES else "en"


def _browser() -> str:
    try:
        return from_locale(st.context.locale)
    except AttributeError:  # no browser (a bare script run)
        return "en"


def use_language() -> str:
    """Decide this run's language and bind its catalog; call once, before any text is drawn."""
    asked = st.query_params.get("lang")
    if asked in INTERFACE_LANGUAGES:
        st.session_state[KEY] = asked
    elif st.session_state.get(KEY) not in INTERFACE_LANGUAGES:
        st.session_state[KEY] = _browser()
    language = st.session_state[KEY]
    i18n.bind(translations(language))
    return language


def _follow_switch() -> None:
    """The link follows the switch, so that it can be shared as it is; every choice shown
    translated is set again as the value it holds (:data:`session_keys.TRANSLATED`), to be
    shown in the new language rather than lost with its old label."""
    state = st.session_state
    st.query_params["lang"] = state[KEY]
    for key in TRANSLATED:
        if key in state:
            state[key] = state[key]


def language_ui() -> None:
    """The sidebar's language switch (its label in both languages: it is how one finds it)."""
    st.sidebar.radio(
        "Language · 语言",
        list(INTERFACE_LANGUAGES),
        format_func=INTERFACE_LANGUAGES.__getitem__,
        horizontal=True,
        key=KEY,
        on_change=_follow_switch,
    )


# The corpus tables' headers: fixed names, and "MODEL suffix" per model; the tables keep their
# English names (code sorts and looks up by them) and are translated as they are shown.
HEADERS = (N_("source"), N_("reference"), N_("words"), N_("BLEU difference"))
SUFFIXES = (
    N_("BLEU"),
    N_("AER"),
    N_("entropy"),
    N_("tau"),
    N_("<eos> mass"),
    N_("attention vs eflomal"),
    N_("rho"),
    N_("argmax agrees"),
    N_("strays from"),
)


def header(column: str, models: list[str]) -> str:
    """A corpus table's ``column`` in the reader's language; model names stay as they are."""
    if column in HEADERS:
        return _(column)
    for name in sorted(models, key=len, reverse=True):
        if column == name or not column.startswith(name + " "):
            continue
        rest = column[len(name) + 1 :]
        for suffix in SUFFIXES:
            if rest == suffix:
                return f"{name} {_(suffix)}"
            if rest.startswith(suffix + " "):  # "NATURAL strays from TAUGHT"
                return f"{name} {_(suffix)} {rest[len(suffix) + 1 :]}"
    return column


def translated_headers(frame, models: list[str]):
    """``frame`` with its headers in the reader's language, for display only."""
    return frame.set_axis([header(str(c), models) for c in frame.columns], axis=1)


def bind_language() -> None:
    """Bind the session's language again: a fragment that reruns alone (a step change, a live
    run's redraw) may run in a fresh thread, where nothing is bound yet."""
    language = st.session_state.get(KEY)
    i18n.bind(translations(language if language in INTERFACE_LANGUAGES else "en"))


def session_language() -> str:
    """The session's language, for the cache keys of what may hold a message in it (a
    refusal): each session reads its own, while the results themselves are shared."""
    language = st.session_state.get(KEY)
    return language if language in INTERFACE_LANGUAGES else "en"
