"""What the training corpus says at one step, as HTML: for the word written and the source words
the step attended to most, how often the corpus links them, the other translations it gives,
example pairs with the linked words marked. Pure functions of the notes
(:class:`attnviz.store.step_notes.StepNotes`) and the nearest steps; no streamlit
(``corpus_view`` draws them). The HTML comes from templates (``templates/notes.html``,
``example.html``, ``neighbours.html``) with autoescape on: every word is escaped there."""

from __future__ import annotations

import numpy as np

from attnviz.data.text import TextConfig
from attnviz.data.vocab import EOS
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.store.corpus_lookup import MarkedPair
from attnviz.store.step_index import Neighbour
from attnviz.store.step_notes import StepNotes, WordNote

from .html_widgets import shaded_tokens
from .templates import render, rendered

FEW = 3  # training pairs below which the corpus has next to nothing on a word
SHOWN = 5  # other translations listed per word
NEAREST = N_(
    "The training steps nearest to this one: of a sample of the training split, the steps "
    "whose query (what the model attends with) points the most the same way as this step's. "
    "Each shows its pair's source, shaded by where that step looked, and the word it wrote."
)
HOW = N_(
    "What the model's own training split says, as eflomal aligns it: for the word this step "
    "wrote and the source words it attended to most, how often the corpus links them, the "
    "other translations it gives each source word (share of the training pairs that hold "
    "it), and example pairs with the words marked. Words count as the model reads them, "
    "case included."
)


def notes_html(notes: StepNotes, text: TextConfig) -> str:
    """The notes as one HTML block, every text from the corpus or the user escaped."""
    words = [_word(note, notes.written, text) for note in notes.words]
    return render("notes", sentence=_sentence_line(notes), words=words)


def _q(word: str) -> str:
    return f"“{word}”"


def _sentence_line(notes: StepNotes) -> str:
    if notes.sentence_pairs == 0:
        line = _(
            "The sentence {sentence} is in no training pair: the model has to build its "
            "translation from what it learned of the words."
        )
    else:
        line = _(
            "The sentence {sentence} is itself a training pair ({n}×): the model may recall it."
        )
    return line.format(sentence=_q(notes.sentence), n=notes.sentence_pairs)


def _word(note: WordNote, written: str, text: TextConfig) -> dict:
    """What ``notes.html`` shows of one word: its heading, its lines and its example pairs
    (None, not even an empty list, when no training pair holds it)."""
    head = _("{word} (attention {weight:.2f})").format(word=_q(note.word), weight=note.weight)
    answer, linked = note.answer, note.linked
    if answer.pairs == 0:
        unseen = _("No training pair holds it: the model never saw this word in training.")
        return {"head": head, "lines": [unseen], "examples": None}
    examples = linked.examples if linked is not None and linked.pairs else answer.examples
    return {
        "head": head,
        "lines": _word_lines(note, written),
        "examples": [_pair(e, text) for e in examples],
    }


def _word_lines(note: WordNote, written: str) -> list[str]:
    """What the corpus says of a word it holds: how little, how often it links the word to
    ``written``, its other translations and the pairs that link it to nothing."""
    answer, linked = note.answer, note.linked
    lines = []
    if answer.pairs < FEW:
        lines.append(
            _("Training pairs that hold it: {n}, next to nothing to learn from.").format(
                n=answer.pairs
            )
        )
    if linked is not None:
        if linked.pairs:
            said = _(
                "The corpus links it to {written} in {share:.0%} of the training pairs that "
                "hold it ({n} of {total})."
            )
        else:
            said = _(
                "The corpus never links it to {written} (training pairs that hold it: {total})."
            )
        share = linked.links[0].share if linked.links else 0.0
        lines.append(
            said.format(written=_q(written), n=linked.pairs, total=answer.pairs, share=share)
        )
    others = [x for x in answer.links if x.target != written][:SHOWN]
    if others:
        listed = " · ".join(f"{x.target} {x.count} ({x.share:.0%})" for x in others)
        lines.append(_("Other translations in the corpus:") + " " + listed)
    if answer.unlinked:
        lines.append(_("Pairs where it is linked to nothing: {n}.").format(n=answer.unlinked))
    return lines


def example_html(example: MarkedPair, text: TextConfig) -> str:
    """One example pair, source → target, the word asked about and its links marked."""
    return render("example", example=_pair(example, text))


def _pair(example: MarkedPair, text: TextConfig) -> dict:
    """An example pair as ``marked.html``'s ``pair`` draws it."""
    return {
        "src": _side(example.src_tokens, example.src_marked, text.src_lang),
        "tgt": _side(example.tgt_tokens, example.tgt_marked, text.tgt_lang),
    }


def _side(tokens, marked, lang: str) -> dict:
    """One side of a pair as ``marked.html``'s ``marked`` draws it: each token and whether it
    is marked; Chinese tokens joined by nothing, others by spaces."""
    return {
        "tokens": [(t, i in marked) for i, t in enumerate(tokens)],
        "joiner": "" if lang == "zh" else " ",
    }


def neighbours_html(
    neighbours: list[Neighbour], pairs: list[tuple[list[str], list[str]]], text: TextConfig
) -> str:
    """The nearest training steps, one per item: the pair's source shaded by the step's
    attention, its target with the word the step wrote marked, and the distance."""
    items = []
    for n, (src, tgt) in zip(neighbours, pairs, strict=True):
        written = tgt[n.step] if n.step < len(tgt) else EOS
        weights = n.weights[: len(src) + 1]
        shaded = shaded_tokens([*src, EOS], np.pad(weights, (0, len(src) + 1 - len(weights))))
        said = _("writes {word} · distance {distance:.2f}").format(
            word=_q(written), distance=n.distance
        )
        items.append(
            {
                "shaded": rendered(shaded),  # shaded_tokens.html escaped its tokens already
                "target": _side([*tgt, EOS], (n.step,), text.tgt_lang),
                "said": said,
            }
        )
    return render("neighbours", items=items)
