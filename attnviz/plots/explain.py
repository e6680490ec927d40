"""The words beside the pictures: score formulas, how a score's terms add up, safe token markup."""

from __future__ import annotations

import html
import re

import numpy as np

from ..analysis.teaching import Shift
from ..data.text import language_name
from ..decoding.trace import Trace
from ..i18n import N_
from ..i18n import gettext as _
from ..model import attention
from ..model.attention import formula as attention_formula
from ..model.networks import NONE

FORMULAS = {kind: attention.formula(kind) for kind in attention.SCORES}  # as attention.py says
WEIGHTS = (
    r"\alpha_{tj} = \frac{\exp e_{tj}}{\sum_k \exp e_{tk}}, \quad c_t = \sum_j \alpha_{tj} h_j"
)

# What a model without attention (attention "none", the fixed-context encoder-decoder of Cho
# et al., 2014) computes at every step instead of attending: c is the encoder's final state.
FIXED_CONTEXT = (
    r"c = \tanh(W_b[\overrightarrow{h}_S;\, \overleftarrow{h}_1]), \quad "
    r"s_t = \mathrm{GRU}([y_{t-1};\, c],\, s_{t-1}), \quad "
    r"t_t = \tanh(W_o[s_t;\, c;\, y_{t-1}])"
)
NO_ATTENTION = N_(
    "{name} has no attention. It is the fixed-context encoder–decoder that attention was "
    "invented to fix: the encoder squeezes the whole sentence into one vector c, and every "
    "step reads that same c. There are no weights to show; its picture shows every source "
    "word going into c, and every output word written from it."
)

QUERY = {
    "bahdanau": N_("s_{t-1}, the decoder state before this step"),
    "luong": N_("h_t, the decoder state after this step's GRU update"),
}

DIFFERENCE = N_(
    "**Bahdanau** scores each source word with the decoder state *before* the step "
    "(s_{t-1}) through a small feed-forward layer (additive), then feeds the context into the "
    "GRU. **Luong** first updates the GRU, then scores with the *new* state h_t by a dot "
    "product (dot, general) or a feed-forward layer (concat), and mixes the context into the "
    "output through h~_t = tanh(W_c[c_t; h_t]). Additive scores pass through tanh and stay in "
    "a narrow range; dot products grow with the vectors, so Luong's weights are often sharper "
    "(lower entropy)."
)


def formula(attention: str, scaled: bool = False) -> str:
    """The score formula (LaTeX) of a model's attention (see :func:`attention.formula`); for a
    model without attention, what its steps compute instead (:data:`FIXED_CONTEXT`)."""
    return FIXED_CONTEXT if attention == NONE else attention_formula(attention, scaled)


def attention_label(attention: str) -> str:
    """A model's attention as the page names it: its score's name, or "no attention"."""
    return _("no attention") if attention == NONE else attention


def query_name(attention: str) -> str:
    query = QUERY["bahdanau" if attention == "bahdanau" else "luong"]
    return _(query)


MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&])")
PARTS = {
    "bahdanau": N_(
        "e_tj = v · tanh(W s_{t-1} + U h_j): W s_{t-1} is computed once per step, "
        "U h_j once per sentence (one row per source token); they add up inside tanh, and v "
        "weighs each row of the result into one number, the score of that source token."
    ),
    "concat": N_(
        "e_tj = v_a · tanh(W_a[h_t; h_j]): W_a is split into the half that multiplies h_t "
        "(once per step) and the half that multiplies h_j (once per sentence, one row per source "
        "token); they add up inside tanh, and v_a weighs each row into the score."
    ),
    "general": N_(
        "e_tj = h_t · W_a h_j: W_a h_j is computed once per sentence (one row per source "
        "token); each score is the dot product of its row with h_t."
    ),
    "dot": N_(
        "e_tj = h_t · h_j: each score is the dot product of h_t with that source token's "
        "encoder output (one row per source token)."
    ),
}


def markdown_text(text: str) -> str:
    """``text`` shown literally inside markdown: every character markdown, LaTeX or
    Streamlit's colour and emoji directives could read as markup is backslash-escaped."""
    return MARKDOWN.sub(r"\\\1", text)


def parts_note(attention: str) -> str:
    """How the strips of a step's score add up, in the terms of the model's formula."""
    return _(PARTS[attention])


def html_table(frame) -> str:
    """A small table (a pandas DataFrame) as plain HTML: each cell escaped, numbers to three
    decimals, True as ✓, the headers in the reader's language. Far lighter for the browser than
    an interactive dataframe, or than markdown it must parse, for a handful of rows redrawn at
    every step."""

    def cell(value) -> str:
        if isinstance(value, bool | np.bool_):
            return "✓" if value else ""
        if isinstance(value, float | np.floating):
            return f"{value:.3f}"
        return html.escape(str(value))

    style = ' style="border: 1px solid rgba(49, 51, 63, 0.2); padding: 4px 10px"'
    head = "".join(f"<th{style}>{html.escape(_(str(c)))}</th>" for c in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td{style}>{cell(v)}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f'<table style="border-collapse: collapse"><tr>{head}</tr>{rows}</table>'


BLUE = "31, 119, 180"  # the heatmaps' blue, as an rgba() colour's first three numbers


def shaded_tokens(tokens: list[str], values: np.ndarray, rgb: str = BLUE) -> str:
    """HTML spans, each token's background as dark as its value in [0, 1]. Tokens are
    escaped: what a user typed is never rendered as markup."""
    spans = []
    for token, value in zip(tokens, np.clip(np.asarray(values, dtype=float), 0, 1), strict=True):
        ink = "white" if value > 0.55 else "black"
        spans.append(
            f'<span title="{value:.2f}" style="background: rgba({rgb}, {value:.2f}); '
            f"color: {ink}; padding: 2px 5px; margin: 1px; border-radius: 4px; "
            f'display: inline-block">{html.escape(token)}</span>'
        )
    return '<div style="font-size: 1.2rem; line-height: 2.1rem">' + "".join(spans) + "</div>"


BARS_CSS = (  # the look of weight_bars, once per drawing rather than once per bar
    "<style>.attnviz-bars .row{display:flex;gap:1px;border-top:1px dashed rgba(49,51,63,.2)}"
    ".attnviz-bars .bar{flex:1 1 0;min-width:0;display:flex;flex-direction:column;"
    "align-items:center}.attnviz-bars .well{height:150px;width:72%;display:flex;"
    "align-items:flex-end;border-bottom:1px solid rgba(49,51,63,.4)}"
    ".attnviz-bars .word{writing-mode:vertical-rl;transform:rotate(180deg);max-height:7em;"
    "overflow:hidden;white-space:nowrap;font-size:.8rem}"
    ".attnviz-bars .note{font-size:.75rem;opacity:.7}</style>"
)


def weight_bars(tokens: list[str], weights: np.ndarray, scores: np.ndarray, rgb: str = BLUE) -> str:
    """A step's attention weights as bars over the source ``tokens``, in sentence order, on a
    0–1 scale; hover a bar for its weight and raw score. Plain HTML: a step change redraws
    it with the page's text, where a chart would be built anew by its library. Tokens are
    escaped."""
    bars = []
    note = _("attention weight (bar height: 0 to 1)")
    hover = _("{word}: weight {w:.3f}, raw score {e:.3f}")
    for token, w, e in zip(tokens, np.clip(weights, 0, 1), scores, strict=True):
        word = html.escape(token)
        bars.append(
            f'<div class="bar" title="{hover.format(word=word, w=w, e=e)}">'
            f'<div class="well"><div style="width:100%;height:{100 * w:.1f}%;'
            f'background:rgba({rgb},{0.3 + 0.7 * w:.2f})"></div></div>'
            f'<div class="word">{word}</div></div>'
        )
    return (
        f'{BARS_CSS}<div class="attnviz-bars"><div class="note">{html.escape(note)}</div>'
        f'<div class="row">{"".join(bars)}</div></div>'
    )


def unknown_note(trace: Trace) -> str | None:
    """A caption naming the source tokens the model had never seen, or None when it knew
    them all: a subword model reads such characters as their UTF-8 bytes, a word model as
    ``<unk>``."""
    unknown = [t for t, known in zip(trace.src_tokens, trace.src_known, strict=True) if not known]
    if not unknown:
        return None
    lead = (
        _("Characters never seen in training, read as their UTF-8 bytes: ")
        if trace.pieces
        else _("Not in the vocabulary (each is read as <unk>): ")
    )
    return lead + _(", ").join(f"“{markdown_text(w)}”" for w in unknown)


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
        _("Test BLEU: greedy {greedy}, beam 5 {beam} ({sentences} sentences)").format(
            greedy=bleu.get("beam1", "–"),
            beam=bleu.get("beam5", "–"),
            sentences=bleu.get("sentences", "–"),
        ),
        *([sinks] if sinks else []),
        _corpus_line(corpus),
        _("Trained {epochs} epochs in {seconds} s on {hardware}").format(
            epochs=card.get("epochs", "–"),
            seconds=card.get("train_seconds", "–"),
            hardware=card.get("hardware", "–"),
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


def _corpus_line(corpus: dict) -> str:
    line = _("Corpus: {file} · license {license} · {attribution}").format(
        file=corpus.get("file", "–"),
        license=corpus.get("license", "–"),
        attribution=corpus.get("attribution", ""),
    )
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


def decoded(precision: str) -> str:
    """What the precision a page decodes in changes, in the bound language."""
    if precision == "fp32":
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
        split=sinks.get("split", "–"),
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


def no_partner_note(name: str, path: str, taught: bool) -> str:
    """Why ``name`` (the file at ``path``) has no partner to be shown beside, and how to make
    one; ``taught``: whether its own card says it was taught."""
    if taught:
        return _(
            "**{name}** was taught, but the natural file it was fine-tuned from (the sha256 its "
            "card's lineage names) is not among the checkpoints: put that file beside it to "
            "compare them."
        ).format(name=markdown_text(name))
    return _(
        "**{name}** has no taught partner: no checkpoint's card says it was fine-tuned from this "
        "file with guided alignment. Make one with {command} (or `--guide-links FILE` for your "
        "own Pharaoh links) and put it beside the others."
    ).format(
        name=markdown_text(name),
        command=f"`python -m attnviz train --data CORPUS --init-from {path} --guide eflomal "
        "--guide-weight 1 --out TAUGHT.safetensors`",
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
        split=taught.get("split", "–"),
        natural=natural.get("first_eos", "–"),
        taught=taught.get("first_eos", "–"),
    )
