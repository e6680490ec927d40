"""The one-sentence page's inputs: the sentence box with its examples per direction, and the
reference box."""

from __future__ import annotations

import streamlit as st

from attnviz.data.text import language_name
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.store.catalog import Direction

from ..serving.models import Choice
from ..state import playback
from ..state.session_keys import Key
from ..views.walk_through import is_taught
from ..widgets.mirror import mirror

OWN = N_("(type your own)")

# Per text box, checked on the server: a box with max_chars shows a "55/4000" counter that
# covers the end of the sentence. The models refuse over 200 words before decoding anyway.
MAX_CHARS = 4000


# By direction ("source-target"); the first is translated when the page opens, shown finished.
EXAMPLES = {
    "en-fr": [
        "He bought a red car and a small house.",
        "I am cold.",
        "Where is the station?",
        "She doesn't like apples.",
        "Good morning!",
        "We will meet at the station tomorrow morning before the train leaves for Paris.",
    ],
    "zh-en": [
        "我爱吃苹果。",
        "汤姆有三个孩子。",
        "玛丽每天早上7点起床。",
        "你叫什么名字？",
        "这本书多少钱？",
        "我们明天在车站见面。",
    ],
    "en-zh": [  # the lecture notes' examples first
        "I love you.",
        "I love deep learning.",
        "Tom has three children.",
        "Mary gets up at 7 every morning.",
        "How much is this book?",
        "We will meet at the station tomorrow.",
    ],
}


def examples_of(direction: Direction) -> list[str]:
    """The examples of ``direction``; for a direction without its own, those of another
    from the same source language; none for another language."""
    own = EXAMPLES.get(f"{direction.source}-{direction.target}")
    if own is not None:
        return own
    return next((e for key, e in EXAMPLES.items() if key.split("-")[0] == direction.source), [])


def _example() -> None:
    state = st.session_state
    example = state[Key.EXAMPLE]
    state[Key.SENTENCE] = "" if example == OWN else example
    state[Key.REFERENCE] = ""  # the models' own translations first (the notes': one click)
    _new_sentence(example != OWN)


def _new_sentence(example: bool) -> None:
    """Before a new sentence's run: it is shown finished, at its last step; a typed sentence
    drops a walk-through's reference the page filled in."""
    shown = playback.new_sentence()
    state = st.session_state
    if not example:  # the Examples box no longer names the sentence shown
        state[Key.EXAMPLE] = OWN
    if not example and is_taught(state.get(Key.REFERENCE, "")):
        state[Key.REFERENCE] = ""
    state[Key.STEP], state[Key.PLAYING] = shown.step, shown.playing
    state[Key.TO_LAST] = shown.to_last


def _open_on(examples: list[str]) -> None:
    """Show the first example, finished (no examples: an empty box)."""
    state = st.session_state
    state[Key.EXAMPLE] = examples[0] if examples else OWN
    state[Key.SENTENCE], state[Key.REFERENCE] = (examples or [""])[0], ""
    _new_sentence(example=True)


def inputs_ui(choice: Choice) -> tuple[str, str]:
    """The sentence and the reference translation typed ("" for none); the examples are those
    of the direction's source language, and switching the direction opens on its first. The
    direction is chosen here too, where the sentence is typed, with the sidebar closed."""
    state = st.session_state
    direction = choice.direction
    examples = examples_of(direction)
    if Key.NEXT_REFERENCE in state:  # asked for by a button of the compare view
        state[Key.REFERENCE] = state.pop(Key.NEXT_REFERENCE)
    shown_for = state.get(Key.EXAMPLES_OF)
    if shown_for != tuple(direction):
        state[Key.EXAMPLES_OF] = tuple(direction)
        # A new visitor sees a translation before typing anything (unless the corpus page
        # sent a sentence); a new direction, its own first example.
        if shown_for is not None or Key.SENTENCE not in state:
            _open_on(examples)
    # One row, so that the pictures below start higher up the screen.
    cols = st.columns([2, 2, 3, 3])
    cols[0].selectbox(
        _("Direction"),
        choice.directions or [direction],
        format_func=keeping_language(str),
        key=Key.PAGE_DIRECTION,
        on_change=mirror(Key.DIRECTION, Key.PAGE_DIRECTION),
        disabled=len(choice.directions) < 2,  # shown all the same: what the models translate
    )
    cols[1].selectbox(
        _("Examples"),
        [OWN, *examples],
        format_func=keeping_language(lambda e: _(e) if e == OWN else e),
        key=Key.EXAMPLE,
        on_change=_example,
    )
    sentence = cols[2].text_input(
        _("{language} sentence").format(language=language_name(direction.source)),
        placeholder=_("e.g. {example}").format(example=examples[-1]) if examples else "",
        key=Key.SENTENCE,
        on_change=_new_sentence,
        args=(False,),
    )
    reference = cols[3].text_input(
        _("Reference translation (optional)"),
        placeholder=_("{language}; both models are then force-decoded on it").format(
            language=language_name(direction.target)
        ),
        key=Key.REFERENCE,
    )
    return sentence, reference
