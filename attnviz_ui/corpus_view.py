"""Below the step view, on request: what each model's training corpus says about the current
step (:mod:`.corpus_notes`), read from the corpus index its card names, beside the
checkpoints. The index is opened read-only, once per version of the file and shared by every
session; a missing or mismatched one is said, with the command that builds it."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.i18n import shown
from attnviz.store.catalog import Checkpoint
from attnviz.store.checkpoint import weights_digest
from attnviz.store.corpus_index import CARD_KEY, HOW_TO_BUILD, CorpusIndex, CorpusIndexError
from attnviz.store.corpus_lookup import Lookup
from attnviz.store.step_index import StepIndex, StepIndexError, step_index_path

from .cache import Choice, Side, file_version, load
from .corpus_notes import HOW, NEAREST, neighbours_html, notes_html, step_notes
from .session_keys import Key


@st.cache_resource(show_spinner=False, max_entries=8)
def _index(path: str, version: tuple[int, int]) -> CorpusIndex | CorpusIndexError:
    """One version (mtime, size) of an index file, opened read-only, or why it cannot be."""
    try:
        return CorpusIndex(path)
    except CorpusIndexError as e:
        return e


def lookup_of(checkpoint: Checkpoint) -> Lookup | Refused:
    """The lookup of ``checkpoint``'s model in the index its card names, beside it, or why
    there is none (in the session's language, with the command that builds one)."""
    translator = load(checkpoint)
    named = (translator.card.get(CARD_KEY) or {}).get("file")
    path = Path(checkpoint.path).parent / (named or "FILE.sqlite")
    build = _(HOW_TO_BUILD).format(checkpoint=checkpoint.path, path=path)
    if not named:
        return Refused(
            _("{name}'s card names no corpus index: {build}, with `--card {checkpoint}`").format(
                name=checkpoint.name, build=build, checkpoint=checkpoint.path
            )
        )
    version = file_version(path)
    if version is None:
        return Refused(_("No corpus index {path}: {build}").format(path=path, build=build))
    index = _index(str(path), version)
    if isinstance(index, CorpusIndexError):
        return Refused(shown(index))
    refusal = index.refusal(translator.card, translator.text, translator.data)
    if refusal is not None:
        return Refused(refusal.shown())
    return _lookup(checkpoint, str(path), version)


@st.cache_resource(show_spinner=False, max_entries=16)
def _lookup(checkpoint: Checkpoint, path: str, version: tuple[int, int]) -> Lookup:
    """The lookup of one version of a checkpoint in one version of its index, shared by the
    sessions: it keeps the words it has counted (the check note asks them at every step)."""
    translator = load(checkpoint)
    return Lookup(_index(path, version), translator.text, translator.data)


@st.cache_resource(show_spinner=False, max_entries=8)
def _steps(path: str, version: tuple[int, int]) -> StepIndex | StepIndexError:
    """One version (mtime, size) of a step index, loaded, or why it cannot be."""
    try:
        return StepIndex(path)
    except StepIndexError as e:
        return e


@st.cache_data(show_spinner=False, max_entries=64)
def _weights_digest(checkpoint: Checkpoint) -> str:
    return weights_digest(checkpoint.path)


def step_index_of(checkpoint: Checkpoint) -> StepIndex | Refused:
    """The step index beside ``checkpoint``, or why there is none (with the command that
    builds one)."""
    path = step_index_path(checkpoint.path)
    version = file_version(path)
    if version is None:
        return Refused(
            _("No step index {path}: build it with `python -m attnviz steps {checkpoint}`").format(
                path=path, checkpoint=checkpoint.path
            )
        )
    steps = _steps(str(path), version)
    if isinstance(steps, StepIndexError):
        return Refused(shown(steps))
    named = (load(checkpoint).card.get(CARD_KEY) or {}).get("sha256")
    refusal = steps.refusal(_weights_digest(checkpoint), named)
    return steps if refusal is None else Refused(refusal.shown())


def corpus_view_ui(choice: Choice, sides: list[Side], step: int) -> None:
    """The switch, and with it on, each model's notes at ``step`` (0-based), in columns."""
    if not st.toggle(_("What the corpus says"), key=Key.CORPUS_ON, help=_(HOW)):
        return
    if st.session_state.get(Key.PIECES):
        st.caption(
            _("The corpus counts words: switch off “{switch}” to see what it says.").format(
                switch=_("Show subword pieces")
            )
        )
        return
    checkpoints = (choice.left, choice.right)
    for col, side, checkpoint in zip(st.columns(len(sides)), sides, checkpoints, strict=True):
        with col:
            _side_ui(side, step, checkpoint)


def _side_ui(side: Side, step: int, checkpoint: Checkpoint) -> None:
    lookup = lookup_of(checkpoint)
    if isinstance(lookup, Refused):
        st.info(lookup.message)
        return
    trace = side.trace
    if not trace.has_attention:
        st.caption(
            _("{name} attends to no word: the corpus is asked about none.").format(name=side.name)
        )
        return
    t = min(step, len(trace.tgt_tokens) - 1)
    st.html(notes_html(step_notes(lookup, trace, t), side.translator.text))
    st.markdown("**" + _("The nearest training steps") + "**", help=_(NEAREST))
    steps = step_index_of(checkpoint)
    if isinstance(steps, Refused):
        st.caption(steps.message)
        return
    nearest = steps.nearest(trace.query[t])
    pairs = lookup.pairs([n.pair for n in nearest])
    st.html(neighbours_html(nearest, pairs, side.translator.text))
