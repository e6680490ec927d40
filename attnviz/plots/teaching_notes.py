"""What the page says of a natural model beside its taught partner: what teaching is, what it
changed on a sentence and on the cards, and how to make a partner where there is none."""

from __future__ import annotations

from ..analysis.teaching import Shift
from ..i18n import N_
from ..i18n import gettext as _
from .markup import markdown_text
from .model_notes import split_name

TAUGHT = N_(
    "A natural model attends wherever translating led it; its taught partner was fine-tuned "
    "from it with guided alignment, an extra loss that pulls each attention row towards a word "
    "aligner's links (Chen et al., 2016). Both are decoded here on one output (the reference, or "
    "else the natural model's translation), so that row t of each heatmap is the same word; "
    "green circles are eflomal's links. The difference is taught minus natural: red where the "
    "taught model looks more, blue where it looks less."
)
STRAYS_SWITCH = N_("Rank by how far attention strays from the taught model")
STRAYS_HELP = N_(
    "“NATURAL strays from TAUGHT”: both models force-decoded on the sentence's first "
    "reference (without one, on the natural model's translation), the mean total-variation "
    "distance between their attention rows: 0 = the natural model already looks where the "
    "taught one does, 1 = nowhere near it. Largest first: the sentences where teaching moved "
    "attention most; open one to see both side by side."
)
MOVES_SHOWN = 6  # the words named as looking elsewhere, at most


def no_partner_note(name: str, taught: bool) -> str:
    """Why ``name`` has no partner to be shown beside, in a teacher's words: what the view
    would show and who can provide it (:func:`partner_command` says how); ``taught``: whether
    its own card says it was taught."""
    if taught:
        return _(
            "**{name}** was taught, but the natural file it was fine-tuned from (the sha256 its "
            "card's lineage names) is not among the checkpoints: put that file beside it to "
            "compare them."
        ).format(name=markdown_text(name))
    return _(
        "**{name}** has no taught partner here. A taught partner is this model trained a little "
        "further to follow a word aligner's links; beside it, this view shows where teaching "
        "moved each word's attention. Pick a model that has one (the English → French models "
        "come with bahdanau-guided and luong-guided), or ask whoever installed attnviz to make "
        "one."
    ).format(name=markdown_text(name))


def partner_command(path: str) -> str:
    """The command that makes a taught partner of the checkpoint at ``path``."""
    return (
        f"python -m attnviz train --data CORPUS --init-from {path} --guide eflomal "
        "--guide-weight 1 --out TAUGHT.safetensors"
    )


def teaching_note(natural: dict, taught: dict, shift: Shift) -> str:
    """What teaching changed, in markdown lines: the teacher and its weight (from the taught
    card), where this sentence's words now look (``shift``), and what it cost or gained in
    test BLEU and attention sinks (from both cards)."""
    guide = taught.get("guide", {})
    return "  \n".join(
        [
            _(
                "**What teaching changed.** The taught model learned from {teacher}'s links, "
                "weighted λ = {weight} against the translation loss."
            ).format(
                teacher=markdown_text(str(guide.get("teacher", "–"))),
                weight=guide.get("weight", "–"),
            ),
            _where_note(shift),
            _bleu_note(natural.get("test_bleu", {}), taught.get("test_bleu", {})),
            _sinks_note(natural.get("attention_sinks"), taught.get("attention_sinks")),
        ]
    )


def _where_note(shift: Shift) -> str:
    """How far this sentence's attention moved, and the words that now look elsewhere."""
    lead = _(
        "On this sentence a word's attention moved {moved:.0%} of its weight on average "
        "(total-variation distance: 0% the same row, 100% no source token in common)"
    ).format(moved=shift.mean_distance)
    if not shift.moves:
        return lead + _("; every word still looks most at the same source token.")
    named = _(", ").join(
        _("“{output}” at “{taught}” (was “{natural}”)").format(
            output=markdown_text(m.output),
            taught=markdown_text(m.taught),
            natural=markdown_text(m.natural),
        )
        for m in shift.moves[:MOVES_SHOWN]
    )
    more = len(shift.moves) - MOVES_SHOWN
    ending = _(", and {more} more.").format(more=more) if more > 0 else _(".")
    return lead + _(". Now looking elsewhere: {named}").format(named=named) + ending


def _bleu_note(natural: dict, taught: dict) -> str:
    """Test BLEU (greedy) of both cards, and the difference teaching made."""
    before, after = natural.get("beam1"), taught.get("beam1")
    if before is None or after is None:
        return _("Test BLEU: not on both cards (`python -m attnviz evaluate` measures it).")
    change = after - before
    if abs(change) < 0.05:
        verdict = _("the same")
    elif change > 0:
        verdict = _("teaching gained {bleu:.1f} BLEU").format(bleu=change)
    else:
        verdict = _("teaching cost {bleu:.1f} BLEU").format(bleu=-change)
    return _("Test BLEU (greedy): natural {natural}, taught {taught}: {verdict}.").format(
        natural=before, taught=after, verdict=verdict
    )


def _sinks_note(natural: dict | None, taught: dict | None) -> str:
    """How often each model's first word looks at the source ``<eos>`` (from the cards)."""
    if not natural or not taught:
        return _(
            "Attention sinks: not measured on both cards (`python -m attnviz evaluate --sinks`)."
        )
    return _(
        "First word on the source `<eos>` ({split} split): natural {natural}%, taught {taught}%."
    ).format(
        split=split_name(taught.get("split", "–")),
        natural=natural.get("first_eos", "–"),
        taught=taught.get("first_eos", "–"),
    )
