"""The sidebar: the direction, the two models of that direction and the search."""

from __future__ import annotations

import streamlit as st

from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.store.catalog import (
    ENGLISH_FRENCH,
    Checkpoint,
    Direction,
    by_direction,
    default_index,
    opening,
)

from ..serving.models import Choice, checkpoint_folder, direction_of
from ..state.session_keys import Key
from ..views.beam_view import SEARCHES

# Each claim of what the models do well is measured: the counts are of hand-judged outputs in
# benchmarks/quality/check_note/labelled.tsv, or (Chinese -> English) of
# benchmarks/quality/typed_sets.py on benchmarks/quality/typed/.
CHINESE_PAIR = N_(
    "The *-zh-en* models read Chinese as jieba's words (我 · 爱 · 吃 · 苹果), each split into "
    "subword pieces, and write English pieces: about 5,000 pieces for each language. They "
    "learned from Tatoeba's 29,000 short Chinese–English pairs and 47,673 pairs of everyday "
    "dialogue (licence CC BY-NC-SA 4.0): of 50 short everyday sentences typed for checking, "
    "*bahdanau-zh-en* says 34 right and *luong-zh-en* 38; on 50 longer ones they score BLEU "
    "17 and 21."
)
PAIRS = N_(
    "*-pieces* models read and write subword pieces, one vocabulary for both languages, and "
    "carry numbers and most names through; *-words* models read whole words, and copy a word "
    "they do not know through `<unk>`. They learned from Tatoeba's short everyday sentences: "
    "each *-pieces* model translated 38 of 40 such sentences typed here right, but only 11 "
    "(Bahdanau) and 19 (Luong) of 40 longer or technical ones. Any two can be compared side "
    "by side."
)
FIXED = N_(
    "*encdec-* models have no attention: the encoder–decoder before attention, which writes "
    "every word from one vector c. The view “Why attention” sets one beside the attention "
    "models."
)
ENGLISH_CHINESE = N_(
    "The *-en-zh* models read English and write Chinese as jieba's words (我 · 爱 · 你), each "
    "spelled in subword pieces, trained on the same 29,000 pairs as the *-zh-en* models, the "
    "other way round: of 40 short everyday sentences typed here, 29 (Bahdanau) and 33 (Luong) "
    "came out right; of 40 longer or technical ones, 7 and 11."
)
CAPTIONS = {  # the shipped pairs
    ENGLISH_FRENCH: PAIRS,
    Direction("zh", "en"): CHINESE_PAIR,
    Direction("en", "zh"): ENGLISH_CHINESE,
}


def sidebar_ui(found: list[Checkpoint], failed: dict[str, str]) -> Choice | None:
    """The models and search chosen; None when no checkpoint loads."""
    st.sidebar.title("attnviz")
    for name, message in failed.items():
        st.sidebar.error(
            _("{name} could not be loaded: {message}").format(name=name, message=message)
        )
    if not found:
        st.sidebar.warning(_("No checkpoints in {folder}.").format(folder=checkpoint_folder()))
        return None
    groups = by_direction(found, direction_of)
    direction = direction_ui(list(groups))
    found = groups[direction]
    names = [c.name for c in found]
    wanted = opening(direction)
    left = _model_ui(_("Left model"), names, Key.LEFT_MODEL, default_index(names, wanted[0], 0))
    right = _model_ui(_("Right model"), names, Key.RIGHT_MODEL, default_index(names, wanted[1], 1))
    if caption := CAPTIONS.get(direction):
        st.sidebar.caption(_(caption))
    if any(name.startswith("encdec") for name in names):
        st.sidebar.caption(_(FIXED))
    search = st.sidebar.radio(
        _("Search"),
        SEARCHES,
        format_func=keeping_language(_),
        horizontal=True,
        key=Key.SEARCH,
    )
    beam = st.sidebar.slider(_("Beam width"), 2, 10, 5) if search == "beam" else 1
    st.sidebar.caption(
        _(
            "Greedy takes the most probable word at each step; beam search keeps the best few "
            "partial translations and picks the best complete one."
        )
    )
    return Choice(
        found[names.index(left)], found[names.index(right)], beam, direction, tuple(found),
        tuple(groups),
    )  # fmt: skip


def _model_ui(label: str, names: list[str], key: Key, opening: int) -> str:
    """A column's model among ``names``: the one chosen (or a link's), else ``opening``'s
    (a new direction's own models)."""
    state = st.session_state
    if state.get(key) not in names:
        state[key] = names[opening]
    return st.sidebar.selectbox(label, names, key=key)


def direction_ui(directions: list[Direction]) -> Direction:
    """The direction chosen among those the checkpoints translate in (a choice only when there
    are several)."""
    if len(directions) == 1:
        st.sidebar.caption(_("Translates {direction}").format(direction=directions[0]))
        return directions[0]
    return st.sidebar.radio(
        _("Direction"),
        directions,
        format_func=keeping_language(str),
        horizontal=True,
        key=Key.DIRECTION,
    )
