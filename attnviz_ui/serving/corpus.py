"""What the page reads of the models' training corpora: the corpus index and the step index
beside each checkpoint (opened read-only, once per version of the file, shared by every
session), what they say at a step of a translation, the corpus files the server was given
and their held-out splits, and sentences typed or uploaded on the corpus page."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import NamedTuple

from attnviz.analysis import compare_models
from attnviz.analysis.compare_models import Item
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.i18n import shown
from attnviz.store.catalog import Checkpoint, corpora
from attnviz.store.checkpoint import weights_digest
from attnviz.store.corpus_index import CARD_KEY, HOW_TO_BUILD, CorpusIndex, CorpusIndexError
from attnviz.store.corpus_lookup import Lookup
from attnviz.store.step_index import Neighbour, StepIndex, StepIndexError, step_index_path
from attnviz.store.step_notes import StepNotes, step_notes

from .models import file_version, translator_of


class Nearest(NamedTuple):
    """The training steps nearest to one step, and their pairs' (source, target) tokens."""

    steps: list[Neighbour]
    pairs: list[tuple[list[str], list[str]]]


@functools.lru_cache(maxsize=8)
def _index(path: str, version: tuple[int, int]) -> CorpusIndex:
    """One version (mtime, size) of an index file, opened read-only; raises its
    CorpusIndexError (not kept: the next run tries again)."""
    return CorpusIndex(path)


def corpus_index_path(checkpoint: Checkpoint) -> Path | None:
    """Where the corpus index ``checkpoint``'s card names lies: beside it; None when the card
    names none."""
    named = (translator_of(checkpoint).card.get(CARD_KEY) or {}).get("file")
    return Path(checkpoint.path).parent / named if named else None


def lookup_of(checkpoint: Checkpoint) -> Lookup | Refused:
    """The lookup of ``checkpoint``'s model in the index its card names, beside it, or why
    there is none (in the session's language, with the command that builds one)."""
    translator = translator_of(checkpoint)
    named = corpus_index_path(checkpoint)
    path = named or Path(checkpoint.path).parent / "FILE.sqlite"
    build = _(HOW_TO_BUILD).format(checkpoint=checkpoint.path, path=path)
    if named is None:
        return Refused(
            _("{name}'s card names no corpus index: {build}, with `--card {checkpoint}`").format(
                name=checkpoint.name, build=build, checkpoint=checkpoint.path
            )
        )
    version = file_version(path)
    if version is None:
        return Refused(_("No corpus index {path}: {build}").format(path=path, build=build))
    try:
        index = _index(str(path), version)
    except CorpusIndexError as e:
        return Refused(shown(e))
    refusal = index.refusal(translator.card, translator.text, translator.data)
    if refusal is not None:
        return Refused(refusal.shown())
    return _lookup(checkpoint, str(path), version)


@functools.lru_cache(maxsize=16)
def _lookup(checkpoint: Checkpoint, path: str, version: tuple[int, int]) -> Lookup:
    """The lookup of one version of a checkpoint in one version of its index, shared by the
    sessions: it keeps the words it has counted (the check note asks them at every step)."""
    translator = translator_of(checkpoint)
    return Lookup(_index(path, version), translator.text, translator.data)


def notes_of(checkpoint: Checkpoint, trace: Trace, t: int) -> StepNotes | Refused:
    """What ``checkpoint``'s training corpus says at step ``t`` of ``trace`` (over words, with
    attention), or why there is no index to ask."""
    lookup = lookup_of(checkpoint)
    return lookup if isinstance(lookup, Refused) else step_notes(lookup, trace, t)


@functools.lru_cache(maxsize=8)
def _steps(path: str, version: tuple[int, int]) -> StepIndex:
    """One version (mtime, size) of a step index, loaded; raises its StepIndexError (not
    kept)."""
    return StepIndex(path)


@functools.lru_cache(maxsize=64)
def _weights_digest(checkpoint: Checkpoint) -> str:
    return weights_digest(checkpoint.path)


class Unbuilt(NamedTuple):
    """A model whose step index is still to be built: none lies beside it, or the one there
    is of other weights, of another corpus index, or unreadable (``why``, in the session's
    language). The page builds it (:mod:`.step_builds`)."""

    why: str


def step_index_of(checkpoint: Checkpoint) -> StepIndex | Unbuilt:
    """The step index beside ``checkpoint``, or why it is still to be built."""
    path = step_index_path(checkpoint.path)
    version = file_version(path)
    if version is None:
        return Unbuilt(_("No step index lies beside {name} yet.").format(name=checkpoint.name))
    try:
        steps = _steps(str(path), version)
    except StepIndexError as e:
        return Unbuilt(shown(e))
    named = (translator_of(checkpoint).card.get(CARD_KEY) or {}).get("sha256")
    refusal = steps.refusal(_weights_digest(checkpoint), named)
    return steps if refusal is None else Unbuilt(refusal.shown())


def nearest_of(checkpoint: Checkpoint, trace: Trace, t: int) -> Nearest | Refused | Unbuilt:
    """The training steps nearest to step ``t`` of ``trace`` by their queries, with their
    pairs; or why there is no corpus index to ask, or no step index yet."""
    lookup = lookup_of(checkpoint)
    if isinstance(lookup, Refused):
        return lookup
    steps = step_index_of(checkpoint)
    if isinstance(steps, Unbuilt):
        return steps
    nearest = steps.nearest(trace.query[t])
    return Nearest(nearest, lookup.pairs([n.pair for n in nearest]))


def corpus_files() -> list[str]:
    """The corpus files the server was configured with (ATTNVIZ_CORPUS, ATTNVIZ_CORPORA)."""
    return corpora(os.environ.get("ATTNVIZ_CORPUS"), os.environ.get("ATTNVIZ_CORPORA"))


def held_out_sentences(path: str, checkpoint: Checkpoint, count: int) -> list[Item]:
    """``count`` sentences of the held-out test split of the corpus file ``path``, as
    ``checkpoint``'s data was split; read once per version of the file. Raises OSError and
    ValueError."""
    return list(_held_out(path, file_version(Path(path)), checkpoint, count))


@functools.lru_cache(maxsize=8)
def _held_out(path: str, version, checkpoint: Checkpoint, count: int) -> tuple[Item, ...]:
    return tuple(compare_models.held_out_items(path, translator_of(checkpoint).data, count))


def parsed_items(text: str, gold: str) -> list[Item]:
    """Sentences and gold links parsed once per content, not on every rerun; raises
    ValueError (not kept)."""
    return list(_parsed(text, gold))


@functools.lru_cache(maxsize=16)
def _parsed(text: str, gold: str) -> tuple[Item, ...]:
    return tuple(compare_models.read_items(text, gold))


@functools.lru_cache(maxsize=16)
def upload_text(data: bytes, what: str) -> str:
    """An upload's text once per content; raises ValueError (not kept)."""
    return compare_models.decode_upload(data, what)
