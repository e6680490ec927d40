"""The lecture notes' walk-through as taught: an example that the notes translate their own way
opens on the models' own translations, with the notes' wording one click away; forced to it,
the page says so above the pictures, shows what each model writes on its own, and says why the
two differ with the corpus's own pairs as evidence."""

from __future__ import annotations

import streamlit as st

from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.plots.markup import markdown_text

from ..serving.models import Choice, Side, translate
from ..state.session_keys import Key

# The notes' translation of an example the page offers, where the models write another.
TAUGHT = {"我爱吃苹果。": "I love to eat apples."}
WATCHED = {"我爱吃苹果。": ("eat", "apples")}  # the words the notes walk through
OFFER = N_(
    "These are the models' own translations. The lecture notes translate this sentence "
    "“{taught}”: force both models to write it to see where they look while they do."
)
FORCED = N_(
    "Forced: both pictures show the lecture notes' “{taught}”, not the models' own "
    "translations. Below the pictures: what each model writes on its own, and why."
)
WHY = {
    "我爱吃苹果。": N_(
        "Tatoeba, which the models learned from, translates 爱吃 as “love(s)”: 我父亲爱吃比萨。 "
        "is “My father loves pizza.”, and 汤姆爱吃芦笋 “Tom likes asparagus”. So “to eat” is "
        "the notes' wording, not the corpus's: each model is made to write it here, and the "
        "heatmaps show where it looks while it does. Bahdanau chooses where to look with "
        "sₜ₋₁, its state before it has read the word just written: after a word it did not "
        "expect (“to”), it looks where the word it did expect would have looked."
    )
}


def taught_reference(sentence: str) -> str:
    """The notes' translation of ``sentence``, to force both models on; "" for any other."""
    return TAUGHT.get(sentence.strip(), "")


def is_taught(reference: str) -> bool:
    """Whether ``reference`` is one the page filled in for an example, not one typed."""
    return reference in TAUGHT.values()


def taught_offer_ui(sentence: str, reference: str) -> None:
    """Above the pictures, for an example the notes translate their own way: their wording,
    one click from forcing both models to it; once forced, that the pictures are forced, one
    click from the models' own translations again."""
    taught = taught_reference(sentence)
    if not taught:
        return
    forced = reference.strip() == taught
    cols = st.columns([3, 1], vertical_alignment="center")
    if forced:
        cols[0].info(_(FORCED).format(taught=taught), icon="📌")
    else:
        cols[0].caption(_(OFFER).format(taught=taught))
    cols[1].button(
        _("The models' own") if forced else _("Force the notes' wording"),
        key=Key.TAUGHT_FORCE,
        on_click=_set_reference,
        args=("" if forced else taught,),
        use_container_width=True,
    )


def _set_reference(reference: str) -> None:
    """Before the run a button starts: the reference box holds ``reference``."""
    st.session_state[Key.REFERENCE] = reference


def walk_through_ui(choice: Choice, sides: list[Side], sentence: str, reference: str) -> None:
    """Above a forced walk-through: each model's own translation, the word the notes' version
    surprised it most with, and why the two differ."""
    if not reference or reference != taught_reference(sentence):
        return
    own = {
        side.name: translate(c, sentence, choice.beam, "")
        for side, c in zip(sides, (choice.left, choice.right), strict=True)
    }
    lines = [
        _("Both heatmaps are forced to the lecture notes' “{taught}”.").format(taught=reference)
    ]
    for side in sides:
        mine = own[side.name]
        if isinstance(mine, Refused) or not side.trace.has_attention:
            continue
        word, p = _least_likely(side.trace)
        looks = _(", ").join(
            _("“{word}” looks most at {source} ({weight:.2f})").format(
                word=w, source=source, weight=weight
            )
            for w, source, weight in _looks(side.trace, WATCHED.get(sentence.strip(), ()))
        )
        lines.append(
            _(
                "**{name}** writes “{text}” on its own; forced, it gives “{word}” {p:.0%}; {looks}."
            ).format(name=side.name, text=markdown_text(mine.text), word=word, p=p, looks=looks)
        )
    st.info("  \n".join(lines) + "  \n" + _(WHY[sentence.strip()]))


def _looks(trace: Trace, words: tuple[str, ...]) -> list[tuple[str, str, float]]:
    """For each of ``words`` the trace writes: the source word it attends to most, and how
    much."""
    out = []
    for word in words:
        if word in trace.output_tokens:
            row = trace.weights[trace.output_tokens.index(word)]
            out.append((word, trace.src_tokens[int(row.argmax())], float(row.max())))
    return out


def _least_likely(trace: Trace) -> tuple[str, float]:
    """The written word a forced decoding found least likely, and its probability."""
    words = trace.output_tokens
    k = min(range(len(words)), key=lambda t: trace.probs[t])
    return words[k], float(trace.probs[k])
