"""Why attention's conclusion, written from what this sentence shows: the source words each
model lost (eflomal's links), and whether an output loops."""

from __future__ import annotations

from attnviz.i18n import N_
from attnviz.i18n import gettext as _

LOST_COUNTS = N_("On this input, source words lost: {counts}.")
HELD = N_(
    "Every word of the input had to pass through the {size} numbers of {fixed}'s c; the "
    "attention models lost fewer because they read each word again when they need it."
)
NOT_HELD = N_(
    "Here attention did not keep more words: {names} lost as many as {fixed}, or more. A "
    "short sentence fits in {size} numbers; join more sentences to see where c runs out."
)
LOOPS = N_(
    "The output of {names} repeats itself in a loop: attention lets a decoder read the same "
    "words again and write them again, and a count of lost words does not see that."
)


def why_conclusion(fixed: str, size: int, lost: dict[str, int], looping: list[str]) -> str:
    """The conclusion under the three translations: ``lost`` counts the source words each
    model lost, by name (``fixed``, the fixed-context model, among them, its c ``size``
    numbers); ``looping``: the models whose output repeats itself. Attention is credited only
    where every attention model that does not loop lost fewer words than ``fixed``."""
    counts = _(", ").join(_("{name} {lost}").format(name=n, lost=k) for n, k in lost.items())
    parts = [_(LOST_COUNTS).format(counts=counts)]
    attending = [name for name in lost if name != fixed and name not in looping]
    behind = [name for name in attending if lost[name] >= lost[fixed]]
    if behind:
        parts.append(_(NOT_HELD).format(names=_(", ").join(behind), fixed=fixed, size=size))
    elif attending and fixed not in looping:
        parts.append(_(HELD).format(size=size, fixed=fixed))
    if looping:
        parts.append(_(LOOPS).format(names=_(", ").join(looping)))
    return " ".join(parts)
