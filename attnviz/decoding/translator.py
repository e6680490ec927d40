"""The Translator: a trained model with its vocabularies and tokenizer, from text to Traces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from ..data.corpus import DataConfig, encode_source, pad
from ..data.subwords import WORD_START, Subwords
from ..data.text import TextConfig
from ..data.vocab import EOS, EOS_ID, PAD, UNK_ID, Vocab
from ..errors import InputError, Refused
from ..i18n import N_
from ..i18n import gettext as _
from ..model.interface import DecodingModel
from ..model.precision import Precision
from . import decode, steer
from .trace import BeamStep, Candidate, Trace, ends_in_eos
from .words import copy_numbers, words_trace

MAX_SOURCE_TOKENS = 200  # longer input is refused with a message, not translated
MAX_SOURCE_PIECES = 400  # the same for a subword model's pieces (an emoji takes five)
BETA = 0.0  # beam search's coverage-penalty weight by default: off (see the README)


@dataclass(frozen=True)
class Search:
    """How a translation is searched for: the options of every translate method, and their
    defaults, written once."""

    beam: int = 1  # 1: greedy search
    max_len: int | None = None  # output cap in the model's tokens; None: 2 x source + 10
    topk: int = 5  # candidates kept per step
    alpha: float = 1.0  # beam search's length-normalization exponent
    beta: float = BETA  # beam search's coverage-penalty weight (0: none)
    # copy the most-attended source word in place of an output <unk> and, for a model over
    # pieces, the most-attended source number in place of an output number that differs from
    # it (attnviz.decoding.words.copy_numbers)
    replace_unk: bool = True
    batch_size: int = 64  # sentences decoded together in fp32, grouped by length (below fp32
    # one at a time: Translator.batch_rows)

    def __post_init__(self):
        if self.beam < 1:
            raise ValueError(f"beam must be at least 1, got {self.beam}")


class Translator:
    """Translate and align sentences with one model; safe to share between threads."""

    def __init__(
        self,
        model: DecodingModel,
        src_vocab: Vocab,
        tgt_vocab: Vocab,
        text: TextConfig,
        card: dict | None = None,
        data: DataConfig | None = None,
        subwords: Subwords | None = None,
        precision: Precision = Precision.FP32,
    ):
        model.eval()
        self.model = model
        self.src_vocab, self.tgt_vocab, self.text = src_vocab, tgt_vocab, text
        self.card = card or {}  # the model card: corpus, training, scores
        self.data = data  # how the training data was prepared, when known
        self.subwords = subwords  # sentencepiece models under the words, or None
        self.precision = precision  # how weights are stored for decoding (model.low_precision)
        # the training history, once loaded: an attnviz.analysis.history.History, of a layer
        # this one may not import
        self.history: Any = None
        self.engine = None  # a Transformer's greedy search in CTranslate2, made at first use

    @property
    def attention(self) -> str:
        return self.model.config.attention

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def tokenize_source(self, sentence: str) -> list[str]:
        """Source tokens of ``sentence``; raises :class:`InputError` if empty or too long."""
        if not isinstance(sentence, str):
            raise InputError(f"a sentence must be text, not {type(sentence).__name__}")
        tokens = self.text.tokenize(sentence, "src")
        if not tokens:
            raise InputError("Nothing to translate: the sentence is empty.")
        self._check_size(tokens, "src")
        return tokens

    def _check_size(self, tokens: list[str], side: str, what: str = "") -> None:
        """Refuse a sentence (``side`` "src") or reference ("tgt"; ``what`` names another
        kind of target text) over the limits, in tokens and in pieces, before any work is
        done on it."""
        default = N_("sentence") if side == "src" else N_("reference")
        what = _(what or default)
        if len(tokens) > MAX_SOURCE_TOKENS:
            raise InputError(
                _(
                    "The {what} has {n} tokens; the limit is {limit}. Split it into shorter "
                    "sentences."
                ).format(what=what, n=len(tokens), limit=MAX_SOURCE_TOKENS)
            )
        if (
            self.subwords
            and (n := len(self.subwords.side(side).encode(tokens))) > MAX_SOURCE_PIECES
        ):
            raise InputError(
                _(
                    "The {what} splits into {n} subword pieces; the limit is {limit}. Split it "
                    "into shorter sentences."
                ).format(what=what, n=n, limit=MAX_SOURCE_PIECES)
            )

    def pieces(self, tokens: list[str], side: str = "src") -> list[str]:
        """What the model reads or writes for ``tokens``: their subword pieces, or themselves
        for a whole-word model."""
        return self.subwords.side(side).encode(tokens) if self.subwords else list(tokens)

    def translate(
        self,
        sentence: str,
        prefix: str | Sequence[str] | None = None,
        attention: Mapping[int, Sequence[float]] | None = None,
        head: int | None = None,
        **search,
    ) -> Trace:
        """Translate one sentence; ``search``: the fields of :class:`Search` (beam, ...).

        ``prefix`` (target text, or target words as a Trace shows them): the output starts
        with it and the model's own search goes on from there; ``Trace.prefix`` counts them.
        ``attention`` ({step: weights}, greedy only) replaces the model's attention at those
        decoding steps: weights over the source tokens it attends to, ``<eos>`` included (a
        subword model's pieces, :meth:`pieces`), normalized here; the context is recomputed
        from them and decoding goes on. ``Trace.edited`` lists the steps edited and their
        rows of ``Trace.weights`` are the edited weights. A Transformer's edit replaces one
        head of its picture layer, ``head``, the others keeping their own weights; its rows of
        ``Trace.heads`` are the edited weights, and the picture averages them with the rest.
        """
        options = Search(**search)
        if prefix is None and not attention:
            return self._decode([sentence], [self.tokenize_source(sentence)], options)[0]
        if attention and options.beam != 1:
            raise InputError("Attention edits work with greedy search only (beam 1).")
        if attention and not self.model.config.has_attention:
            raise InputError("This model has no attention to edit: every step reads one context.")
        edits = steer.Edits(attention, self._edited_head(head)) if attention else None
        tokens = [self.tokenize_source(sentence)]
        return self._decode([sentence], tokens, options, prefix=prefix, edits=edits)[0]

    def _edited_head(self, head: int | None) -> int | None:
        """The head an attention edit replaces: a Transformer's, named and in range; none for
        a model with one attention."""
        config = self.model.config
        if config.model != "transformer":
            if head is not None:
                raise InputError("This model has one attention, not heads: edit it whole.")
            return None
        if head is None or not 0 <= head < config.heads:
            raise InputError(
                f"A Transformer's picture averages the {config.heads} heads of layer "
                f"{config.picture_layer} (0-based), which go on reading the sentence their "
                f"own way: an edit replaces one head's weights. Name it, 0 to {config.heads - 1}."
            )
        return head

    def translate_batch(self, sentences: Sequence[str], **search) -> list[Trace]:
        """Translate many sentences, batched by length; one Trace each, in the input order.
        ``search``: the fields of :class:`Search` (beam, max_len, topk, alpha, beta,
        replace_unk, batch_size)."""
        tokens = [self.tokenize_source(s) for s in sentences]
        return self._decode(sentences, tokens, Search(**search))

    def translate_each(self, sentences: Sequence[str], **search) -> list[Trace | Refused]:
        """Like :meth:`translate_batch`, but a refused sentence gives the :class:`Refused` of
        its :class:`InputError` in its place instead of stopping the others."""
        outcome: list[Trace | Refused | None] = [None] * len(sentences)
        ok, tokens = [], []
        for i, sentence in enumerate(sentences):
            try:
                tokens.append(self.tokenize_source(sentence))
                ok.append(i)
            except InputError as e:
                outcome[i] = Refused(str(e))
        traces = self._decode([sentences[i] for i in ok], tokens, Search(**search))
        for i, trace in zip(ok, traces, strict=True):
            outcome[i] = trace
        return outcome  # type: ignore[return-value]

    def _decode(
        self,
        sentences: Sequence[str],
        tokens: list[list[str]],
        search: Search,
        prefix: str | Sequence[str] | None = None,
        edits: steer.Edits | None = None,
    ) -> list[Trace]:
        """Decode ``tokens`` of ``sentences``; ``prefix`` and ``edits`` (see :meth:`translate`)
        steer every sentence alike, so they come with one sentence."""
        mode = "greedy" if search.beam == 1 else "beam"
        traces: list[Trace | None] = [None] * len(sentences)
        order = sorted(range(len(tokens)), key=lambda i: len(tokens[i]))
        size = self.batch_rows(search.batch_size)
        for k in range(0, len(order), size):
            chunk = order[k : k + size]
            pieces = [self.pieces(tokens[i]) for i in chunk]
            src, src_lens = self.source_batch(pieces)
            given = self._prefix(prefix, len(chunk))
            steered = steer.edit_weights(edits, src.size(1), self.device, self.model.config.heads)
            limits = decode.default_limits(src_lens, search.max_len).clamp(min=given.size(1) + 1)
            if search.beam == 1 and self._by_engine(given, steered):
                from . import engine_search  # CTranslate2, imported by Transformers alone

                engine = engine_search.of(self)
                results = engine.greedy(pieces, src, src_lens, limits, search.topk)
            elif search.beam == 1:
                results = decode.greedy(
                    self.model, src, src_lens, limits, search.topk, given, steered
                )
            else:
                results = decode.beam_search(
                    self.model, src, src_lens, search.beam, limits, search.topk,
                    search.alpha, search.beta, given,
                )  # fmt: skip
            for i, d in zip(chunk, results, strict=True):
                edited = tuple(t for t in sorted(steered) if t < len(d.ids))
                traces[i] = self._trace(
                    sentences[i], tokens[i], d, mode, search.replace_unk, None, given.size(1),
                    edited,
                )  # fmt: skip
        return traces  # type: ignore[return-value]

    def _by_engine(self, prefix: torch.Tensor, edits: dict) -> bool:
        """Whether a greedy search runs in the inference engine (:mod:`.engine_search`): a
        Transformer's, neither steered by a prefix nor edited (those step in torch)."""
        return self.model.config.model == "transformer" and not prefix.size(1) and not edits

    def batch_rows(self, asked: int) -> int:
        """How many sentences decode together: ``asked`` in fp32, where a sentence's numbers in
        a batch are its numbers alone within 1e-5; one at a time below fp32, where they are
        not (int8 scales its inputs over the whole batch, and bf16's products round by the
        batch's shape), so that a sentence's words never depend on the sentences beside it."""
        return max(1, asked) if self.precision == Precision.FP32 else 1

    def _prefix(self, prefix: str | Sequence[str] | None, rows: int) -> torch.Tensor:
        """The ids (rows, P) of the pieces of ``prefix`` for each of ``rows`` sentences."""
        if prefix is None:
            return torch.zeros(rows, 0, dtype=torch.long, device=self.device)
        words = steer.prefix_words(prefix, lambda text: self.text.tokenize(text, "tgt"))
        self._check_size(words, "tgt", N_("prefix"))
        if not self.subwords:
            steer.check_known(words, self.tgt_vocab)
        ids = self.tgt_vocab.encode(self.pieces(words, "tgt"))
        return torch.tensor([ids] * rows, dtype=torch.long, device=self.device).view(rows, -1)

    def align(self, source: str, target: str, topk: int = 5) -> Trace:
        """Force-decode ``target`` as the translation of ``source`` (alignment mode)."""
        return self.align_tokens(
            self.tokenize_source(source), self.text.tokenize(target, "tgt"), topk, source
        )

    def align_tokens(
        self, src_tokens: list[str], tgt_tokens: list[str], topk: int = 5, source: str | None = None
    ) -> Trace:
        """Forced decoding over already tokenized text; the target gets ``<eos>`` appended."""
        if not src_tokens:
            raise InputError("Nothing to align: the source is empty.")
        self._check_size(src_tokens, "src")
        self._check_size(tgt_tokens, "tgt")
        src, src_lens = self.source_batch([self.pieces(src_tokens)])
        tgt_ids = self.tgt_vocab.encode(self.pieces(tgt_tokens, "tgt"))
        tgt = torch.tensor([[*tgt_ids, EOS_ID]], device=self.device)
        (d,) = decode.forced(self.model, src, src_lens, tgt, topk)
        source = source if source is not None else " ".join(src_tokens)
        return self._trace(source, src_tokens, d, "forced", False, tgt_tokens)

    def align_many(
        self, pairs: Sequence[tuple[list[str], list[str]]], topk: int = 5
    ) -> list[Trace]:
        """:meth:`align_tokens` of each (source tokens, target tokens) pair, force-decoded
        together (in fp32; below it one at a time, :meth:`batch_rows`): the same Traces, many
        times faster than one by one."""
        for src_tokens, tgt_tokens in pairs:
            if not src_tokens:
                raise InputError("Nothing to align: the source is empty.")
            self._check_size(src_tokens, "src")
            self._check_size(tgt_tokens, "tgt")
        size, decoded = self.batch_rows(len(pairs)), []
        for k in range(0, len(pairs), size):
            chunk = pairs[k : k + size]
            src, src_lens = self.source_batch([self.pieces(s) for s, _ in chunk])
            tgt = [[*self.tgt_vocab.encode(self.pieces(t, "tgt")), EOS_ID] for _, t in chunk]
            decoded += decode.forced(self.model, src, src_lens, pad(tgt).to(self.device), topk)
        return [
            self._trace(" ".join(s), s, d, "forced", False, t)
            for (s, t), d in zip(pairs, decoded, strict=True)
        ]

    def source_batch(self, tokens: list[list[str]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Source ids (B, S) of sentences of the model's own tokens, padded and each ending
        in ``<eos>``, and their lengths (B,)."""
        ids = [encode_source(t, self.src_vocab) for t in tokens]
        return pad(ids).to(self.device), torch.tensor([len(i) for i in ids])

    def written_ids(self, trace: Trace) -> list[int]:
        """The ids a decoding over the model's own tokens wrote, step by step: a source word
        copied in place of an ``<unk>`` was that ``<unk>``."""
        return [
            UNK_ID if copied is not None else self.tgt_vocab.stoi.get(tok, UNK_ID)
            for tok, copied in zip(trace.tgt_tokens, trace.replaced, strict=True)
        ]

    def _trace(
        self,
        source: str,
        words: list[str],
        d: decode.Decoded,
        mode: str,
        replace_unk: bool,
        tgt_words: list[str] | None = None,
        prefix: int = 0,
        edited: tuple[int, ...] = (),
    ) -> Trace:
        """The Trace of decoding ``d`` of ``words``; for a subword model, its view over words
        with the decoding over pieces inside. ``tgt_words``: the forced target's words."""
        src = [*self.pieces(words), EOS]
        out = self.tgt_vocab.decode(d.ids)
        replaced: list[int | None] = (
            decode.copy_unks(out, d, src) if replace_unk else [None] * len(out)
        )
        out_words = self._output_words(out, tgt_words)
        trace = Trace(
            source=source,
            src_tokens=src,
            src_known=[tok in self.src_vocab for tok in src[:-1]] + [True],
            tgt_tokens=out,
            text=self.text.detokenize([w for w in out_words if w != WORD_START]),
            weights=d.weights,
            scores=d.scores,
            query=d.query,
            context=d.context,
            heads=d.heads,
            probs=d.probs,
            candidates=self._candidates(d),
            replaced=replaced,
            mode=mode,
            attention=self.attention,
            scaled=self.model.config.scaled,
            log_prob=d.log_prob,
            beam=self._beam(d),
            beam_path=d.beam_path or None,
            prefix=prefix,
            edited=edited,
            precision=self.precision,
        )
        if not self.subwords:
            return trace
        trace = words_trace(trace, self.subwords, words, tgt_words)
        return copy_numbers(trace, self.text.detokenize) if replace_unk and not tgt_words else trace

    def _output_words(self, out: list[str], tgt_words: list[str] | None) -> list[str]:
        """The words of the output tokens ``out``; a forced target's own words
        (``tgt_words``), whose surface forms a whole-word model's ``out`` takes in place of
        its ``<unk>``."""
        if tgt_words is not None:  # keep the surface forms of out-of-vocabulary words
            if not self.subwords:
                out[: len(tgt_words)] = tgt_words
            return tgt_words
        out_words = out[:-1] if ends_in_eos(out) else out
        return self.subwords.tgt.join(out_words)[0] if self.subwords else out_words

    def _candidates(self, d: decode.Decoded) -> list[list[Candidate]]:
        """The top-k tokens of each step of ``d`` with their probabilities, read out of the
        arrays in one pass each (Python ints and floats, not numpy scalars one by one)."""
        itos = self.tgt_vocab.itos
        return [
            [Candidate(itos[i], p) for i, p in zip(ids, ps, strict=True)]
            for ids, ps in zip(d.top_ids.tolist(), d.top_probs.tolist(), strict=True)
        ]

    def _beam(self, d: decode.Decoded) -> list[BeamStep] | None:
        """The hypotheses beam search kept at each step of ``d``; None for the other searches."""
        if d.beam_tokens is None or d.beam_scores is None or d.beam_parents is None:
            return None  # (all three or none)
        steps = []
        for ids, scores, parents in zip(d.beam_tokens, d.beam_scores, d.beam_parents, strict=True):
            tokens = self.tgt_vocab.decode(ids.tolist())
            finished = [tok == PAD for tok in tokens]
            steps.append(BeamStep(tokens, scores.tolist(), parents.tolist(), finished))
        return steps


__all__ = ["MAX_SOURCE_PIECES", "MAX_SOURCE_TOKENS", "InputError", "Translator"]
