"""The address bar as a link to the page: a link's choices applied when a session opens it (or
the address changes), one note for each value it set aside, the address kept in step with the
choices on every run, and the Share button that shows it. :mod:`..state.address` reads and
writes the query parameters; this module moves them to and from the session state.

A run of the dashboard calls :func:`follow_link` before any widget is drawn, :func:`set_aside_ui`
under the title, and :func:`address_ui` once the page is drawn; the stepping fragment, which
reruns alone on a step change, calls :func:`step_shown_ui`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from attnviz.i18n import INTERFACE_LANGUAGES
from attnviz.i18n import gettext as _
from attnviz.plots.lesson_notes import STEPS as LESSON_STEPS
from attnviz.store.catalog import Checkpoint, Direction, by_direction

from ..serving.models import Choice, direction_of
from ..state import address
from ..state.address import Link, Param, SetAside, Vocabulary
from ..state.playback import Playback, new_sentence
from ..state.session_keys import Key
from ..widgets.language import session_language
from ..widgets.share_button import share_ui
from .navigation import Page, View
from .sentence_inputs import MAX_CHARS, OWN, examples_of

if TYPE_CHECKING:
    from streamlit.elements.lib.mutable_popover_container import PopoverContainer

# Each page and view by its name in a link.
PAGES = {
    "sentence": Page.SENTENCE,
    "lesson": Page.LESSON,
    "corpus": Page.CORPUS,
    "training": Page.TRAINING,
}
VIEWS = {
    "steps": View.STEPS,
    "why": View.WHY,
    "compare": View.COMPARE,
    "transformer": View.TRANSFORMER,
    "taught": View.TAUGHT,
    "beam": View.BEAM,
    "cards": View.CARDS,
    "export": View.EXPORT,
}
WITH_SENTENCE = (Page.SENTENCE, Page.LESSON)  # the pages whose boxes hold a sentence


def vocabulary(models: list[Checkpoint]) -> Vocabulary[Page, View]:
    """What a link may name on this server, whose checkpoints are ``models``."""
    groups = by_direction(models, direction_of)
    return Vocabulary(
        PAGES,
        VIEWS,
        {direction: [c.name for c in found] for direction, found in groups.items()},
        INTERFACE_LANGUAGES,
        MAX_CHARS,
        len(LESSON_STEPS),
    )


def follow_link(models: list[Checkpoint]) -> tuple[SetAside, ...]:
    """Before any widget is drawn: the choices of the link the session was opened on, or of the
    query parameters that changed since the page last wrote them, put in the session state;
    returns the values set aside. The language is ``widgets.language``'s (read first)."""
    state = st.session_state
    state.pop(Key.SHOWN_STEP, None)  # a full run: the fragment says again if it shows a step
    written = state.get(Key.ADDRESS, {})
    asked = {k: v for k, v in st.query_params.to_dict().items() if written.get(k) != v}
    if not asked:
        return ()
    known = vocabulary(models)
    current = state.get(Key.DIRECTION)
    link, aside = address.read_link(asked, known, current)
    _apply(link, link.direction or current or next(iter(known.models), None))
    return aside


def _apply(link: Link[Page, View], direction: Direction | None) -> None:
    state = st.session_state
    chosen = {
        Key.PAGE: link.page,
        Key.LESSON_STEP: link.lesson,
        Key.DIRECTION: link.direction,
        Key.LEFT_MODEL: link.left,
        Key.RIGHT_MODEL: link.right,
        Key.VIEW: link.view,
    }
    state.update({key: value for key, value in chosen.items() if value is not None})
    asks = link.sentence is not None or link.reference is not None or link.step is not None
    opened = asks and _open_sentence(link, direction)
    if link.step is not None and state.get(Key.PAGE) == Page.LESSON:
        state[Key.LESSON_AT] = link.step  # the lesson's screens keep it within the sentence
    elif link.step is not None or opened:  # the sentence page's playback
        shown = new_sentence() if link.step is None else Playback(link.step)
        state[Key.STEP], state[Key.PLAYING] = shown.step, shown.playing
        state[Key.TO_LAST] = shown.to_last  # the link's step wins over "shown finished"
        state[Key.LINK_STEP] = link.step  # checked against the sentence's end once decoded


def _open_sentence(link: Link[Page, View], direction: Direction | None) -> bool:
    """The link's sentence in the boxes, in place of the direction's first example (a link
    with a step but no sentence: that first example, at the step); its reference, else none.
    Whether a sentence was put in the box."""
    state = st.session_state
    examples = examples_of(direction) if direction else []
    sentence = link.sentence
    if sentence is None and Key.SENTENCE not in state:  # what the page opens on
        sentence = (examples or [""])[0]
    if sentence is not None:
        state[Key.SENTENCE] = sentence
        state[Key.EXAMPLE] = sentence if sentence in examples else OWN
        state[Key.REFERENCE] = ""
    if direction is not None:
        state[Key.EXAMPLES_OF] = tuple(direction)  # opened: not the direction's first example
    if link.reference is not None:
        state[Key.REFERENCE] = link.reference
    return sentence is not None


def note_ui(aside: SetAside) -> None:
    """The one line that says a value of the link was set aside, and why."""
    why = _(aside.why).format(detail=aside.detail)
    st.warning(
        _("The link's {param} `{value}` was set aside: {why}.").format(
            param=aside.param.value, value=address.excerpt(aside.value), why=why
        ),
        icon="🔗",
    )


def set_aside_ui(aside: tuple[SetAside, ...]) -> None:
    """A line for each value set aside, in the run that opened the link."""
    for each in aside:
        note_ui(each)


def step_shown_ui(step: int, steps: int) -> None:
    """In the stepping fragment, once it shows ``step`` (0-based) of ``steps``: a note if the
    link asked for a step past the end, and the step in the address, which a step changed in
    the fragment alone (the slider) would otherwise leave behind. While playing the address
    waits: each of its changes is an entry of the browser's history."""
    state = st.session_state
    asked = state.pop(Key.LINK_STEP, None)
    if asked is not None and (reason := address.past_the_end(asked, steps)):
        note_ui(SetAside(Param.STEP, str(asked), reason.why, reason.detail))
    state[Key.SHOWN_STEP] = step + 1
    written = state.get(Key.ADDRESS)
    if written is None or state.get(Key.PLAYING):
        return
    shown = str(step + 1)
    if written.get(Param.STEP.value) != shown:
        st.query_params[Param.STEP.value] = shown
        state[Key.ADDRESS] = {**written, Param.STEP.value: shown}


def shown_link(choice: Choice, page: Page) -> Link[Page, View]:
    """What the page shows, as a link: the choices of ``page`` that the session state holds."""
    state = st.session_state
    with_sentence = page in WITH_SENTENCE
    on_lesson = page == Page.LESSON
    return Link(
        page=page,
        lesson=state.get(Key.LESSON_STEP) if on_lesson else None,
        direction=choice.direction,
        left=choice.left.name,
        right=choice.right.name,
        sentence=state.get(Key.SENTENCE) if with_sentence else None,
        reference=state.get(Key.REFERENCE) if with_sentence else None,
        view=state.get(Key.VIEW) if page == Page.SENTENCE else None,
        step=state.get(Key.LESSON_AT) if on_lesson else state.get(Key.SHOWN_STEP),
        language=session_language(),
    )


def address_ui(choice: Choice, page: Page, share: PopoverContainer) -> None:
    """Once the page is drawn: the address made a link to it, and, when the Share popover
    ``share`` is open, the link and its QR code in it."""
    state = st.session_state
    state.pop(Key.LINK_STEP, None)  # asked of a view that shows no step: nothing to check
    params = address.params_of(shown_link(choice, page), vocabulary([]))  # names pages, views
    state[Key.ADDRESS] = params
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    if share.open:
        with share:
            share_ui(address.url_of(_base(), params))


def _base() -> str:
    """The page's own address without its query, as the browser reached it ("" if unknown:
    a test without a browser)."""
    if url := st.context.url:
        return url
    host = st.context.headers.get("host")
    return f"http://{host}/" if host else ""
