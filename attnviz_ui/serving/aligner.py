"""eflomal beside attention, for the page: the aligner of the priors beside the checkpoints
(one per version of the file, shared by every session), its links of the words a page shows,
the source words each output lost, and what speaks against each translation.

Each (sentence, translation) is aligned once, then read from the aligner's cache; the lost
words of a set of outputs are kept for the reruns that show them again."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from attnviz.analysis.compare_models import SentenceScore
from attnviz.analysis.doubts import Doubts, doubts, longest_source
from attnviz.analysis.eflomal_aligner import Alignment, EflomalAligner, aer_against
from attnviz.analysis.eflomal_priors import mismatch
from attnviz.analysis.lost_words import lost_or_unknown
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.store.catalog import Checkpoint
from attnviz.store.corpus_lookup import Lookup
from attnviz.store.priors_file import PriorsError, load_priors

from .corpus import lookup_of
from .identical import Identical
from .models import checkpoint_folder, file_version, translator_of

PRIORS_FILE = "eflomal-priors.txt.gz"  # beside the checkpoints, as `attnviz priors` writes it


def priors_path() -> Path:
    return checkpoint_folder() / PRIORS_FILE


@functools.lru_cache(maxsize=4)
def _aligner(path: str, version: tuple[int, int]) -> EflomalAligner:
    """The aligner of one version (mtime, size) of a priors file; raises its PriorsError (not
    kept)."""
    return EflomalAligner(load_priors(path))


def aligner() -> EflomalAligner | Refused:
    """The shared aligner of the priors beside the checkpoints, or why there is none."""
    path = priors_path()
    version = file_version(path)
    if version is None:
        command = f"`python -m attnviz priors --data CORPUS --out {path}`"
        return Refused(_("no {path}: make it with {command}").format(path=path, command=command))
    try:
        return _aligner(str(path), version)
    except PriorsError as e:
        return Refused(str(e))


def priors_mismatch(checkpoint: Checkpoint) -> str | None:
    """Why the priors beside the checkpoints are not of ``checkpoint``'s corpus, split or
    tokenizer; None when they are, or when there are none (:func:`aligner` says why)."""
    found = aligner()
    if isinstance(found, Refused):
        return None
    tr = translator_of(checkpoint)
    return mismatch(found.priors, tr.card, tr.data, tr.text) or None


def heatmap_words(trace: Trace) -> tuple[list[str], list[str]]:
    """The source and output tokens a heatmap shows, without ``<eos>``."""
    return list(trace.src_tokens[:-1]), list(trace.output_tokens)


def alignments_of(traces: Sequence[Trace]) -> list[Alignment] | Refused:
    """eflomal's alignment of each trace's sentence and output (one run of eflomal for the
    pairs not cached yet), or why there is none."""
    found = aligner()
    if isinstance(found, Refused):
        return found
    try:
        return found.link_many([heatmap_words(trace) for trace in traces])
    except (RuntimeError, ValueError) as e:  # eflomal missing or failing, a token it refuses
        return Refused(_("eflomal could not align the sentence: {error}").format(error=e))


def lost_of(
    checkpoints: Sequence[Checkpoint], traces: Sequence[Trace]
) -> list[list[bool] | None] | Refused:
    """Per trace, of the model of the checkpoint beside it, which of its source words its output
    lost (:func:`attnviz.analysis.lost_words.lost_or_unknown`: all in one run of eflomal,
    without the words the model's corpus index says it translates with a neighbour); None for a
    trace whose model the priors are not of, or that eflomal cannot align; why not, where there
    are no priors."""
    found = aligner()
    if isinstance(found, Refused):
        return found
    pairs = tuple((tuple(s), tuple(o)) for s, o in map(heatmap_words, traces))
    return list(_lost(found, tuple(checkpoints), pairs))


@functools.lru_cache(maxsize=1024)
def _lost(found: EflomalAligner, checkpoints: tuple, pairs: tuple) -> tuple:
    """Kept for the reruns that show the same outputs again: each tokenized every word of both
    sides twice."""
    lost: list[list[bool] | None] = [None] * len(pairs)
    matched = [k for k, c in enumerate(checkpoints) if not priors_mismatch(c)]
    if not matched:
        return tuple(lost)
    corpora = [lookup_of(checkpoints[k]) for k in matched]
    flags = lost_or_unknown(
        found,
        [pairs[k] for k in matched],
        translator_of(checkpoints[0]).text.src_lang,
        [None if isinstance(c, Refused) else c for c in corpora],
    )
    for k, flag in zip(matched, flags, strict=True):
        lost[k] = flag
    return tuple(lost)


def doubts_of(checkpoints: Sequence[Checkpoint], traces: Sequence[Trace]) -> list[Doubts]:
    """What speaks against each trace, a translation by the model of the checkpoint beside it
    (:func:`attnviz.analysis.doubts.doubts`): its lost words where there are priors of its
    corpus, its unseen words where it has a corpus index. Kept per checkpoints, traces (the
    very objects: :class:`.identical.Identical`), corpus lookups (one per version of each
    index) and version of the priors, for the reruns that show the same outputs again: the
    last 256 pairs of outputs, each keeping its Traces alive."""
    corpora = tuple(lookup_of(c) for c in checkpoints)
    priors = file_version(priors_path())
    return list(_doubts(tuple(checkpoints), Identical(*traces), corpora, priors))


@functools.lru_cache(maxsize=256)
def _doubts(
    checkpoints: tuple[Checkpoint, ...],
    traces_key: Identical,
    corpora: tuple[Lookup | Refused, ...],
    priors: tuple[int, int] | None,
) -> tuple[Doubts, ...]:
    """``priors``, the file's version, keys the cache: new priors, new lost words."""
    traces = traces_key.objects
    lost = lost_of(checkpoints, traces)
    if isinstance(lost, Refused):
        lost = [None] * len(traces)
    return tuple(
        doubts(
            trace,
            flags,
            None if isinstance(corpus, Refused) else corpus,
            longest_source(translator_of(c)),
        )
        for c, trace, flags, corpus in zip(checkpoints, traces, lost, corpora, strict=True)
    )


def eflomal_aers(scores: dict[str, list[SentenceScore]]) -> dict[str, list[float | None]] | Refused:
    """Per model, each sentence's AER of its argmax attention links against eflomal's links
    of its sentence and output (None for a sentence refused or translated to nothing), every
    sentence aligned in one run of eflomal; or why there are none."""
    found = aligner()
    if isinstance(found, Refused):
        return found
    pairs = [r.words for rows in scores.values() for r in rows if r.error is None and r.words[1]]
    try:
        found.link_many(pairs)  # one run for the page; the rows below read the cache
    except (RuntimeError, ValueError) as e:
        return Refused(_("eflomal could not align the sentences: {error}").format(error=e))
    return {
        name: [
            aer_against(found.link(*r.words), r.attention).aer
            if r.error is None and r.words[1]
            else None
            for r in rows
        ]
        for name, rows in scores.items()
    }
