"""The page's models: the checkpoints that load, one Translator per checkpoint file and
precision, and one Trace per input, decoded by the server's decoding processes."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import attnviz
from attnviz.analysis import compare_models
from attnviz.analysis.aer import GoldPair
from attnviz.analysis.align import gold_to_draw
from attnviz.analysis.compare_models import Item, SentenceScore
from attnviz.analysis.history import History
from attnviz.data.corpus import DataConfig
from attnviz.data.text import TextConfig
from attnviz.errors import Refused
from attnviz.i18n import shown
from attnviz.model.model_config import ModelConfig
from attnviz.store.catalog import Checkpoint, Direction, checkpoints
from attnviz.tuning.decoding_precision import resolve_decoding

from ..widgets.language import session_language
from .decoder_process import Request, decoder
from .translators import descriptions, models


def checkpoint_folder() -> Path:
    """``checkpoints/`` beside dashboard.py, or the folder in ATTNVIZ_CHECKPOINTS (read on
    every run: a test may point one process at several folders)."""
    return Path(os.environ.get("ATTNVIZ_CHECKPOINTS", Path(__file__).parents[2] / "checkpoints"))


def file_version(path: Path) -> tuple[int, int] | None:
    """What tells one version of a file from the next, for a cache key: (mtime, size); None
    when there is no file to read."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class Choice(NamedTuple):
    """What the sidebar chose: the direction, the two models shown and the search."""

    left: Checkpoint
    right: Checkpoint
    beam: int  # 1: greedy search
    direction: Direction = Direction("en", "fr")  # what both models read and write
    models: tuple[Checkpoint, ...] = ()  # every model of the direction, left and right among them
    directions: tuple[Direction, ...] = ()  # every direction the checkpoints translate in


class Description(NamedTuple):
    """What a model is, as plain values for the views: its configuration (attention, sizes,
    heads, picture layer, scaling), its tokenization, its training data and its card. Built
    from the model's file without its weights (:func:`description_of`)."""

    config: ModelConfig
    text: TextConfig
    data: DataConfig
    card: dict
    precision: str  # what the page decodes it in


class Side(NamedTuple):
    """One column of the page: a model, what it is, and its decoding of the sentence."""

    checkpoint: Checkpoint
    description: Description
    trace: attnviz.Trace

    @property
    def name(self) -> str:
        return self.checkpoint.name


def page_precision() -> str:
    """The precision the page decodes in, resolved as every surface resolves "auto": the
    fastest that keeps the attention shown the trained model's own (the output layer alone below
    fp32: see attnviz.model.low_precision), as measured once per machine, or as ATTNVIZ_DECODING
    pins it (read on every call). Cached decodings are keyed by it."""
    return _page_precision(os.environ.get("ATTNVIZ_DECODING", ""))


@functools.cache
def _page_precision(pinned: str) -> str:
    """:func:`page_precision`, resolved once per value of ``pinned`` (ATTNVIZ_DECODING, which
    resolve_decoding reads itself): a page run asks about 35 times. A pin that is not a
    precision raises, and is not kept."""
    return resolve_decoding("auto")


def translator_of(checkpoint: Checkpoint) -> attnviz.Translator:
    """What ``checkpoint``'s model is, shared by every session: its card, configurations,
    vocabularies, tokenizers and history, without its weights (the decoding processes hold
    them); raises its CheckpointError. To run the model here, :func:`running_translator_of`."""
    return descriptions(page_precision()).get(checkpoint)


def description_of(checkpoint: Checkpoint) -> Description:
    """What ``checkpoint``'s model is, for a view to draw; raises its CheckpointError."""
    described = translator_of(checkpoint)
    return Description(
        described.model.config, described.text, described.data, described.card,
        described.precision,
    )  # fmt: skip


def history_of(checkpoint: Checkpoint) -> History | None:
    """What ``checkpoint``'s training recorded; None for a file saved before attnviz kept it."""
    return translator_of(checkpoint).history


def side_of(checkpoint: Checkpoint, trace: attnviz.Trace) -> Side:
    """A column of the page: ``checkpoint``'s model and its ``trace``."""
    return Side(checkpoint, description_of(checkpoint), trace)


def gold_of(
    side: Side, gold: GoldPair | None, sentence: str, reference: str
) -> list[tuple[int, int]] | None:
    """The links of the gold alignment ``gold`` to draw on ``side``'s decoding of ``sentence``
    on ``reference``; None where they do not apply (see attnviz.analysis.align.gold_to_draw)."""
    return gold_to_draw(translator_of(side.checkpoint), side.trace, gold, sentence, reference)


def running_translator_of(
    checkpoint: Checkpoint, precision: str | None = None
) -> attnviz.Translator:
    """The Translator of ``checkpoint`` with its weights, at ``precision`` (default
    :func:`page_precision`), loaded in the server on first use, for what the server runs
    itself: a step replayed, a forced alignment, a corpus scored. A cached computation passes
    the precision its key holds, so that the model it uses is the one the key names."""
    return models(precision or page_precision()).get(checkpoint)


def fp32_translator_of(checkpoint: Checkpoint) -> attnviz.Translator:
    """``checkpoint``'s Translator with every weight fp32, as attribution's gradients need."""
    return running_translator_of(checkpoint, "fp32")


def direction_of(checkpoint: Checkpoint) -> Direction:
    """The languages ``checkpoint``'s model reads and writes."""
    text = translator_of(checkpoint).text
    return Direction(text.src_lang, text.tgt_lang)


def translate(
    checkpoint: Checkpoint,
    sentence: str,
    beam: int,
    reference: str,
    language: str | None = None,
    precision: str | None = None,
) -> attnviz.Trace | Refused:
    """A Trace, or the refusal of an InputError in ``language`` (default: the session's);
    decoded at ``precision`` (default :func:`page_precision`) and cached per input, so
    moving the step slider never decodes again. A cache keyed by language and precision
    passes its own, so that what it computes is what its key names.

    The cache is the process's own, shared by every session: a Trace is frozen, so sessions
    share one object rather than copies, and a lookup costs a hash of its arguments, where
    Streamlit's data cache hashed them its own way and pickled each Trace in and out (about
    1.5 ms a call, two calls a run). What it does not hold is decoded by the server's decoding
    process (:mod:`.decoder_process`), away from the sessions' threads."""
    return _translate(
        checkpoint, sentence, beam, reference, language or session_language(),
        precision or page_precision(),
    )  # fmt: skip


@functools.lru_cache(maxsize=512)
def _translate(
    checkpoint: Checkpoint, sentence: str, beam: int, reference: str, language: str, precision: str
) -> attnviz.Trace | Refused:
    """``language`` keys the cache (a refusal is worded in it), and ``precision``."""
    return decoder.decode(Request(checkpoint, sentence, beam, reference, language, precision))


def available() -> tuple[list[Checkpoint], dict[str, str]]:
    """The checkpoints that load, and the failures by name -> message."""
    found, failed = checkpoints(checkpoint_folder())
    ok = []
    for checkpoint in found:
        try:
            translator_of(checkpoint)
            ok.append(checkpoint)
        except attnviz.CheckpointError as e:
            failed[checkpoint.name] = shown(e)  # in this session's language
    return ok, failed


def steered(
    checkpoint: Checkpoint,
    sentence: str,
    beam: int,
    prefix: tuple[str, ...] | None = None,
    edit: tuple[int, tuple[float, ...], int | None] | None = None,
) -> attnviz.Trace | Refused:
    """A Trace decoded from ``prefix`` or with the attention ``edit`` (step, weights, a
    Transformer's head or None), or the refusal of an InputError; cached per input like
    :func:`translate`."""
    return _steered(checkpoint, sentence, beam, prefix, edit, session_language(), page_precision())


@functools.lru_cache(maxsize=256)
def _steered(
    checkpoint, sentence, beam, prefix, edit, language: str, precision: str
) -> attnviz.Trace | Refused:
    return decoder.decode(
        Request(checkpoint, sentence, beam, "", language, precision, prefix, edit)
    )


def scores_of(
    checkpoint: Checkpoint, items: list[Item], beam: int, progress: Callable[[int, int], None]
) -> list[SentenceScore]:
    """What ``checkpoint``'s model does with each of ``items``
    (:func:`attnviz.analysis.compare_models.score_sentences`), calling ``progress(done,
    total)`` as it goes."""
    return compare_models.score_sentences(
        running_translator_of(checkpoint), items, beam=beam, progress=progress
    )
