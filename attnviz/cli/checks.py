"""What ``translate`` checks each translation against (:mod:`attnviz.analysis.doubts`): the
model's corpus index, for the source words it never saw, and eflomal's priors of its corpus,
for the words an output lost. Either may be missing, or be of another corpus: the check then
goes on without it, and says so once on stderr."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..analysis.doubts import Doubts, check_translations
from ..decoding.trace import Trace
from ..decoding.translator import Translator


def translation_checker(
    tr: Translator, checkpoint: str, priors: str | None, index: str | None
) -> Callable[[Sequence[Trace]], list[Doubts]]:
    """The check of ``tr``'s translations, with the evidence found for it: the corpus index
    ``index`` (None: the one its card names, beside ``checkpoint``) and eflomal's ``priors``
    (None: none)."""
    aligner = _aligner(tr, priors)
    corpus = _corpus(tr, checkpoint, index)

    def check(traces: Sequence[Trace]) -> list[Doubts]:
        return check_translations(tr, traces, aligner, corpus)

    return check


def _aligner(tr: Translator, path: str | None):
    from ..analysis.eflomal_aligner import EflomalAligner
    from ..analysis.eflomal_priors import mismatch
    from ..store.priors_file import load_priors

    if path is None or not Path(path).is_file():
        _note(f"no eflomal priors at {path}: lost words not looked for")
        return None
    priors = load_priors(path)
    if why := mismatch(priors, tr.card, tr.data, tr.text):
        _note(f"{path} is not of this model's corpus ({why}): lost words not looked for")
        return None
    return EflomalAligner(priors)


def _corpus(tr: Translator, checkpoint: str, given: str | None):
    from ..store.corpus_index import CorpusIndex
    from ..store.corpus_lookup import Lookup
    from .corpus_command import index_of

    try:
        return Lookup.of(CorpusIndex(index_of(checkpoint, tr.card, given)), tr)
    except ValueError as e:
        _note(f"{e}: unseen source words not looked for")
        return None


def _note(text: str) -> None:
    print(f"check: {text}", file=sys.stderr)
