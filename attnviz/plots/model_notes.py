"""What the page says of a model: its card in a few lines, its attention sinks, the precision
it decodes in, and the words of a sentence it never saw."""

from __future__ import annotations

import re

from ..analysis.doubts import Doubts
from ..data.text import language_name
from ..decoding.trace import Trace
from ..i18n import N_
from ..i18n import gettext as _
from ..model.model_config import NONE
from ..model.precision import Precision
from .markup import markdown_text


def unknown_note(trace: Trace) -> str | None:
    """A caption naming the source tokens the model had never seen, each once, or None when it
    knew them all: a subword model reads such characters as their UTF-8 bytes, a word model as
    ``<unk>``."""
    unknown = [t for t, known in zip(trace.src_tokens, trace.src_known, strict=True) if not known]
    if not unknown:
        return None
    lead = (
        _("Characters never seen in training, read as their UTF-8 bytes: ")
        if trace.pieces
        else _("Not in the vocabulary (each is read as <unk>): ")
    )
    # Each once: "<b>x</b>" named "<", ">", "<", "/", ">"
    return lead + _(", ").join(f"“{markdown_text(w)}”" for w in dict.fromkeys(unknown))


def trace_warning(trace: Trace) -> str | None:
    """What a reader should know before trusting ``trace``'s output, or None: a loop, an
    output the length limit cut, a number copied from the source."""
    notes = []
    if trace.loop:
        start, n, times = trace.loop
        gram = " ".join(trace.tgt_tokens[start : start + n])
        notes.append(
            _("the output repeats “{gram}” {times} times in a row").format(gram=gram, times=times)
        )
    if not trace.ended and trace.mode != "forced":
        notes.append(_("the model never ended the sentence, the length limit cut it"))
    if trace.pieces is not None:  # a number copied over one a model over pieces garbled
        notes += [
            _("“{copied}” is copied from the source in place of “{written}”").format(
                copied=trace.tgt_tokens[t], written=trace.written(t)
            )
            for t, j in enumerate(trace.replaced)
            if j is not None
        ]
    text = _("; ").join(notes)
    return text[:1].upper() + text[1:] + _(".") if notes else None


def doubts_note(doubts: Doubts) -> str | None:
    """One plain line on why to check a translation (:mod:`attnviz.analysis.doubts`), or None
    when nothing speaks against it."""
    if not doubts.flagged:
        return None

    def quoted(words) -> str:
        return _(", ").join(f"“{markdown_text(w)}”" for w in words)

    notes = []
    if doubts.unsure:
        notes.append(
            _("the model was unsure of its words ({p:.0%} likely each, on average)").format(
                p=doubts.confidence
            )
        )
    if doubts.unseen:
        notes.append(
            _("{words} never occurs in its training pairs").format(words=quoted(doubts.unseen))
        )
    if doubts.too_long:
        notes.append(
            _("at {n} tokens the sentence is longer than any it was trained on").format(
                n=doubts.too_long
            )
        )
    if doubts.doubled:
        notes.append(_("it writes {words} twice in a row").format(words=quoted(doubts.doubled)))
    if doubts.made_up:
        notes.append(
            _("{words} is in none of the translations it learned from").format(
                words=quoted(doubts.made_up)
            )
        )
    if doubts.lost:
        notes.append(_("{words} may be missing from it").format(words=quoted(doubts.lost)))
    return _("Check this translation: {notes}.").format(notes=_("; ").join(notes))


def card_summary(card: dict, config, data=None) -> str:
    """A model card in markdown lines: sizes and vocabularies, test BLEU, corpus, training, and
    the checkpoint it was continued from, if any; ``config`` is the model's
    :class:`attnviz.ModelConfig`, ``data`` its :class:`attnviz.DataConfig` (None: not known);
    ``–`` stands for what the card lacks."""
    bleu = card.get("test_bleu", {})
    corpus = card.get("corpus", {})
    kind = (
        _("**{attention}** attention").format(attention=config.attention)
        if config.attention != NONE
        else _("**No attention**: one context vector c for every step")
    )
    sinks = sinks_line(card.get("attention_sinks")) if config.attention != NONE else None
    lines = [
        _("{kind} · embed {embed} · hidden {hidden} · {layers} layer(s) · {vocabularies}").format(
            kind=kind,
            embed=config.embed,
            hidden=config.hidden,
            layers=config.layers,
            vocabularies=_vocabularies(config, data),
        ),
        _bleu_line(bleu),
        *([sinks] if sinks else []),
        _corpus_line(corpus),
        _("Trained {epochs} epochs in {seconds} s on {hardware}").format(
            epochs=card.get("epochs", "–"),
            seconds=card.get("train_seconds", "–"),
            hardware=_hardware(card.get("hardware", "–")),
        ),
    ]
    if languages := card.get("languages"):
        lines.insert(1, _languages_line(languages, corpus))
    for parent in card.get("lineage", [])[-1:]:
        lines.append(
            _(
                "Continued from {file} (sha256 {sha}…, {epochs} epochs): see the full card for "
                "its command"
            ).format(
                file=parent.get("file", "–"),
                sha=str(parent.get("sha256"))[:12],
                epochs=parent.get("epochs", "–"),
            )
        )
    return "  \n".join(lines)


def _bleu_line(bleu: dict) -> str:
    """The card's test BLEU, naming only the searches it was measured with."""
    if "beam1" not in bleu and "beam5" not in bleu:
        return _("Test BLEU: not measured for this file")
    if "beam5" not in bleu:
        line = _("Test BLEU (greedy): {greedy}").format(greedy=bleu["beam1"])
    elif "beam1" not in bleu:
        line = _("Test BLEU (beam 5): {beam}").format(beam=bleu["beam5"])
    else:
        line = _("Test BLEU: greedy {greedy}, beam 5 {beam}").format(
            greedy=bleu["beam1"], beam=bleu["beam5"]
        )
    if "sentences" in bleu:
        line += _(" ({sentences:,} test sentences)").format(sentences=bleu["sentences"])
    return line


_THREADS = re.compile(r"^(?P<cpu>.*), (?P<threads>\d+) threads?$")


def _hardware(hardware: str) -> str:
    """A card's hardware as training wrote it (``AMD EPYC, 1 threads``), in the reader's
    language."""
    if match := _THREADS.match(hardware):
        return _("{cpu} (threads: {threads})").format(cpu=match["cpu"], threads=match["threads"])
    return hardware


def _attribution(attribution: str) -> str:
    """A corpus's credit as its card spells it (``www.manythings.org/anki and tatoeba.org``),
    its one English word in the reader's language."""
    sources = attribution.split(" and ")
    if len(sources) != 2:
        return attribution
    return _("{first} and {second}").format(first=sources[0], second=sources[1])


def _corpus_line(corpus: dict) -> str:
    """The corpus, its license and its credit: those the card names (a blank is left out)."""
    line = _("Corpus: {file}").format(file=corpus.get("file") or _("not recorded"))
    if corpus.get("license"):
        line += " · " + _("license {license}").format(license=corpus["license"])
    if corpus.get("attribution"):
        line += " · " + _attribution(corpus["attribution"])
    if attributed := corpus.get("attributed_lines"):
        line += _(" (each of {pairs:,} pairs with its authors in the file's third column)").format(
            pairs=attributed
        )
    return line


def _languages_line(languages: dict, corpus: dict) -> str:
    source, target = languages.get("source", "–"), languages.get("target", "–")
    line = _("Translates {source} → {target}").format(
        source=language_name(source), target=language_name(target)
    )
    if corpus.get("source_column") == 2:
        line += _(" (the corpus's second column read as the source)")
    return line


DECODED_FP32 = N_("This server decodes with every weight in fp32, as trained.")
DECODED_OUTPUT_BELOW_FP32 = N_(
    "This server decodes with the output layer in {precision} and every other weight in fp32, "
    "the fastest such choice on this machine: the attention weights are the trained model's "
    "own, and the next word's probabilities move by about a hundredth."
)


SPLITS = {"test": N_("test"), "valid": N_("validation")}  # a card's names of the corpus's splits


def split_name(split: str) -> str:
    """A split a card names (``test``), in the reader's language; any other name as it is."""
    return _(SPLITS[split]) if split in SPLITS else split


PRECISION_WORDS = {  # what each decoding precision stores below fp32 (model.low_precision)
    Precision.FP32: N_("every weight in fp32, as trained"),
    Precision.BF16: N_("the output layer in bf16, every other weight in fp32"),
    Precision.INT8_OUTPUT: N_("the output layer in int8, every other weight in fp32"),
    Precision.INT8: N_(
        "the recurrent layers and the output layer in int8: the attention moves too"
    ),
}
MADE_BY = N_("Words made by {names} with {what} ({precision}).")


def made_by(names: list[str], precision: Precision) -> str:
    """Which precision made the words shown, said where they are shown (a handout's footer)."""
    return _(MADE_BY).format(
        names=", ".join(names), what=_(PRECISION_WORDS[precision]), precision=precision
    )


def decoded(precision: Precision) -> str:
    """What the precision a page decodes in changes, in the bound language."""
    if precision == Precision.FP32:
        return _(DECODED_FP32)
    return _(DECODED_OUTPUT_BELOW_FP32).format(precision=precision)


SINK = N_(
    "An attention sink is a source token that takes a step's attention without being what the "
    "step translates: the source `<eos>` or the final full stop. The weights of every step must "
    "sum to 1, so when a model writes what it can tell without reading a word (the first word, "
    "a function word), it parks them somewhere; a model whose first words mostly look at `<eos>` "
    "shows where it parks, not what it reads."
)


def sinks_line(sinks: dict | None) -> str:
    """A card's attention sinks (:class:`attnviz.analysis.diagnostics.Sinks` as the card keeps
    them) in one line."""
    if not sinks:
        return _(
            "Attention sinks: not measured for this file (`python -m attnviz evaluate --sinks`)"
        )
    return _(
        "Attention sinks ({split} split, {sentences} sentences, greedy): first word's attention "
        "on the source `<eos>` {first_eos}%, every step's {steps_eos}%; on the final punctuation "
        "{first_punct}% and {steps_punct}%"
    ).format(
        split=split_name(sinks.get("split", "–")),
        sentences=sinks.get("sentences", "–"),
        first_eos=sinks.get("first_eos", "–"),
        steps_eos=sinks.get("steps_eos", "–"),
        first_punct=sinks.get("first_punct", "–"),
        steps_punct=sinks.get("steps_punct", "–"),
    )


def _vocabularies(config, data) -> str:
    sizes = f"{config.src_vocab:,} / {config.tgt_vocab:,}"
    tied = ""
    if config.tie_embeddings:
        tied = _(" · embeddings and output layer tied")
        if config.untied_specials:
            tied += _(" (the source's special symbols apart)")
    elif config.tie_output:
        tied = _(" · target embedding and output layer tied")
    if data is None:
        return _("vocabularies {sizes}").format(sizes=sizes) + tied
    if not data.subwords:
        return _("whole-word vocabularies {sizes}").format(sizes=sizes)
    if data.joint_subwords:
        return (
            _("one vocabulary of {n:,} subword pieces for both languages").format(
                n=config.src_vocab
            )
            + tied
        )
    return _("subword vocabularies {sizes}").format(sizes=sizes) + tied
