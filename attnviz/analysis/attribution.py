"""Attribution beside attention: how much each source word mattered for each word written.

Attention says where the decoder looked; attribution says which source words the written
word's log-probability depends on (Jain & Wallace 2019; Ding, Xu & Koehn 2019). Three methods,
each for every step of a Trace at once (greedy, beam winner or forced reference), scoring the
log-probability log p(y_t | y_<t, x) of the token the step wrote:

- ``saliency``: gradient x input on the source embeddings (captum's LayerGradientXActivation),
  summed over the embedding dimensions;
- ``integrated_gradients``: captum's LayerIntegratedGradients on the source embedding layer,
  from a baseline where every source word's embedding is the ``<pad>`` embedding (all zeros:
  it is the embedding's padding row) and the source ``<eos>`` is kept, so that the words'
  attributions sum to log p(y_t | x) - log p(y_t | baseline) up to the reported delta;
- ``erasure``: replace every piece of one source word by ``<unk>`` and take the drop in
  log-probability, log p(y_t | x) - log p(y_t | x with the word erased), by forced decoding.
  ``<unk>`` rather than leaving the word out: the sentence keeps its length and positions, so
  the only change is the word's identity, and ``<unk>`` is a token the model met in training
  (every rare word), where a zero embedding or a shorter sentence is input it never saw.

Every method is linear in the log-probability it explains, so a source word's attribution is
the sum over its pieces and a target word's the sum over its pieces' steps (a word's
log-probability is the sum of its pieces'). Positive values mean the word made the output
more probable. The source ``<eos>`` is not a word the user wrote and gets no column. Links,
rank correlations and argmax agreement with attention read the size of a value
(:func:`importance`): a word that pushes the written word down matters too.

All target steps are done in one batch: the sentence is copied once per step and copy k's
output is step k's log-probability, so one backward pass gives every step's gradient.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..data.corpus import encode_source
from ..data.vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID
from ..decoding import decode
from ..decoding.trace import Trace, ends_in_eos
from ..decoding.translator import Translator
from ..decoding.words import group_rows
from ..i18n import N_
from ..model.interface import DecodingModel
from .align import ForcedWords

STEPS = 50  # integrated gradients: points on the path from the baseline to the input
BATCH_ROWS = 512  # integrated gradients: rows (copies x path points) run through the model at once


@dataclass(frozen=True)
class Method:
    """How an attribution method is named and explained, wherever it is offered."""

    label: str  # its name on charts, in the dashboard's menus and in --help
    baseline: str  # what the input is compared with, recorded on each Attribution
    description: str  # what it computes, under the dashboard's choice ({steps}: STEPS)


METHODS = {  # every attribution method, by the name :func:`attribute` and the command line take
    "saliency": Method(
        label=N_("saliency (gradient × input)"),
        baseline="none (gradient x input: a first-order view from all-zero embeddings)",
        description=N_(
            "Gradient × input on the source embeddings: the gradient of the written "
            "word's log-probability times each embedding, summed over its dimensions and over a "
            "word's pieces. One backward pass for all steps."
        ),
    ),
    "integrated_gradients": Method(
        label=N_("integrated gradients"),
        baseline="<pad> (all-zero) embedding for every source word, <eos> kept",
        description=N_(
            "Integrated gradients (captum), {steps} steps on the straight path from "
            "all-zero source embeddings (<eos> kept) to the sentence; each row sums to the change "
            "in the written word's log-probability, up to the stated gap."
        ),
    ),
    "erasure": Method(
        label=N_("erasure (word → <unk>)"),
        baseline="each source word replaced by <unk>",
        description=N_(
            "The drop in the written word's log-probability when the source word is "
            "replaced by <unk> (forced decoding of the same output); a negative value: the output "
            "got likelier without it."
        ),
    ),
}


@dataclass(frozen=True)
class Attribution:
    """One Trace's attribution: T target rows (the Trace's steps, <eos> step included) over the
    source words (no <eos>)."""

    values: np.ndarray  # (T, S_words) importance of each source word for each word written
    src_words: list[str]  # (S_words,) the source words, as the Trace shows them
    tgt_words: list[str]  # (T,) the words written, as the Trace shows them
    method: str  # a key of METHODS
    baseline: str  # what the input is compared with (its Method's baseline)
    steps: int | None = None  # integrated gradients: path points
    delta: np.ndarray | None = None  # (T,) integrated gradients: sum of the row minus
    # (log p(input) - log p(baseline)), captum's convergence delta; 0 for an exact integral

    @property
    def output_values(self) -> np.ndarray:
        """The rows of steps that wrote a word: all but a final ``<eos>`` step's."""
        return self.values[:-1] if ends_in_eos(self.tgt_words) else self.values


def _check(translator: Translator, method: str) -> None:
    if method not in METHODS:
        raise ValueError(f"attribution must be one of {tuple(METHODS)}, not {method!r}")
    if translator.precision != "fp32":
        raise ValueError(
            f"attribution needs the model's fp32 weights (loaded as {translator.precision}): "
            "load the checkpoint with precision='fp32'"
        )


# --- the model's log-probability of what each step wrote --------------------------------------


def chosen_log_probs(
    model: DecodingModel,
    src: torch.Tensor,
    tgt_out: torch.Tensor,
    step: torch.Tensor | None = None,
) -> torch.Tensor:
    """log p(tgt_out[n, t] | tgt_out[n, <t], src[n]) by teacher forcing, as forced decoding
    computes it. ``src`` (N, S) unpadded sources of one length, ``tgt_out`` (N, T) ending in
    <eos>. With ``step`` (N,), only that step's: (N,); else every step's: (N, T)."""
    N, T = tgt_out.shape
    lens = torch.full((N,), src.size(1), dtype=torch.long)
    tgt_in = torch.cat([tgt_out.new_full((N, 1), BOS_ID), tgt_out[:, :-1]], 1)  # (N, T)
    last = T if step is None else int(step.max()) + 1  # later steps change nothing asked for
    features, _ = model.features(src, lens, tgt_in[:, :last])  # (N, last, H)
    if step is not None:
        rows = torch.arange(N, device=src.device)
        features, tgt_out = features[rows, step], tgt_out[rows, step]  # (N, H), (N,)
    logits = model.generator(features)  # (N, [T,] V): the output layer only where asked
    logits = logits.index_fill(-1, decode.NEVER.to(src.device), float("-inf"))
    return logits.log_softmax(-1).gather(-1, tgt_out.unsqueeze(-1)).squeeze(-1)


def _ids(translator: Translator, trace: Trace) -> tuple[torch.Tensor, torch.Tensor]:
    """The source ids (S,) ending in <eos>, and the target ids (T,) that ``trace`` (over the
    model's own tokens) wrote; a token copied in place of an <unk> was that <unk>."""
    src = encode_source(trace.src_tokens[:-1], translator.src_vocab)
    tgt = translator.written_ids(trace)
    if trace.ended:
        tgt[-1] = EOS_ID
    else:  # cut by the length limit: no <eos> step to explain, but the teacher needs a last
        tgt = [*tgt, EOS_ID]  # token (it is never read)
    device = translator.device
    return torch.tensor(src, device=device), torch.tensor(tgt, device=device)


# --- the three methods, over the model's tokens ---------------------------------------------------


def _forward(model: DecodingModel):
    """captum's forward function: source ids first, then the other arguments."""

    def forward(src, tgt_out, step):
        return chosen_log_probs(model, src, tgt_out, step)

    return forward


def _copies(src: torch.Tensor, tgt: torch.Tensor, T: int):
    """One copy of the pair per step to explain, and which step each copy answers for."""
    step = torch.arange(T, device=src.device)
    return src.expand(T, -1), tgt.expand(T, -1), step


def _saliency(model: DecodingModel, src, tgt, T: int):
    from captum.attr import LayerGradientXActivation  # slow to import: only when used

    src_n, tgt_n, step = _copies(src, tgt, T)
    gxa = LayerGradientXActivation(_forward(model), model.encoder.source)
    with torch.enable_grad():
        attr = gxa.attribute(src_n, additional_forward_args=(tgt_n, step))  # (T, S, E)
    return attr.sum(-1).detach(), None


def _integrated_gradients(model: DecodingModel, src, tgt, T: int, steps: int, rows: int):
    """Captum's integrated gradients for all T steps, ``rows`` (copies x path points) per
    call: the copies of early steps run short decoders, so the work is nearer T^2 / 2 than
    T^2 decoder steps per path point."""
    from captum.attr import LayerIntegratedGradients  # slow to import: only when used

    ig = LayerIntegratedGradients(_forward(model), model.encoder.source)
    per, parts, deltas = max(1, rows // steps), [], []
    for first in range(0, T, per):
        src_n, tgt_n, step = _copies(src, tgt, T)
        src_n, tgt_n, step = (
            src_n[first : first + per],
            tgt_n[first : first + per],
            step[first : first + per],
        )
        baseline = torch.where(src_n == EOS_ID, EOS_ID, PAD_ID)  # embedding row 0 is all zeros
        with torch.enable_grad():
            attr, delta = ig.attribute(
                src_n,
                baselines=baseline,
                additional_forward_args=(tgt_n, step),
                n_steps=steps,
                return_convergence_delta=True,
            )
        parts.append(attr.sum(-1).detach())
        deltas.append(delta.detach())
    return torch.cat(parts), torch.cat(deltas)


@torch.inference_mode()
def _erasure(model: DecodingModel, src, tgt, T: int, src_owner: list[int], n_src: int):
    erased = src.repeat(n_src + 1, 1)  # (1 + words, S): row 0 the input, row 1 + w erases w
    for j, w in enumerate(src_owner):
        erased[1 + w, j] = UNK_ID
    logp = chosen_log_probs(model, erased, tgt.expand(n_src + 1, -1))[:, :T]  # (1 + W, T)
    return (logp[:1] - logp[1:]).T, None  # (T, words): already one column per word


def token_attribution(
    translator: Translator,
    trace: Trace,
    method: str,
    src_owner: list[int],
    n_src: int,
    steps: int = STEPS,
    rows: int = BATCH_ROWS,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Attribution of each step of ``trace``, a decoding over the model's own tokens
    (``trace.pieces`` is None), to the source words: (T, n_src), with ``src_owner`` the word of
    each source token (its <eos> excluded); and integrated gradients' delta per step (T,)."""
    _check(translator, method)
    if steps < 1:
        raise ValueError(f"integrated gradients need at least 1 step, got {steps}")
    model, T = translator.model, len(trace.tgt_tokens)
    src, tgt = _ids(translator, trace)
    if method == "erasure":
        values, delta = _erasure(model, src, tgt, T, src_owner, n_src)
        return values.double().cpu().numpy(), None
    if method == "saliency":
        per_token, delta = _saliency(model, src, tgt, T)
    else:
        per_token, delta = _integrated_gradients(model, src, tgt, T, steps, rows)
    words = group_rows(per_token[:, :-1].double().cpu().numpy().T, src_owner, n_src, "sum").T
    return words, None if delta is None else delta.double().cpu().numpy()


# --- over the words the user sees ----------------------------------------------------------------


def attribute(translator: Translator, trace: Trace, method: str, steps: int = STEPS) -> Attribution:
    """The attribution of every word ``trace`` wrote (its rows) to each source word, by
    ``method`` (a key of :data:`METHODS`); ``steps`` for integrated gradients."""
    n_src = len(trace.src_tokens) - 1
    if trace.pieces is None or trace.owners is None:  # (both or neither)
        values, delta = token_attribution(
            translator, trace, method, list(range(n_src)), n_src, steps
        )
    else:  # a subword model: pieces summed into words on both sides, as the Trace owns them
        src_owner, tgt_owner = list(trace.owners.src[:-1]), list(trace.owners.tgt)
        # (the source <eos>, last, gets no column; a final target <eos> step is its own row)
        values, delta = token_attribution(translator, trace.pieces, method, src_owner, n_src, steps)
        T = len(trace.tgt_tokens)
        values = group_rows(values, tgt_owner, T, "sum")
        delta = None if delta is None else group_rows(delta[:, None], tgt_owner, T, "sum")[:, 0]
    return Attribution(
        values=values,
        src_words=trace.src_tokens[:-1],
        tgt_words=list(trace.tgt_tokens),
        method=method,
        baseline=METHODS[method].baseline,
        steps=steps if method == "integrated_gradients" else None,
        delta=delta,
    )


# --- attention against attribution ---------------------------------------------------------------


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks of ``x`` (1 = smallest), ties sharing their average rank (as Spearman's rho wants)."""
    x = np.asarray(x, dtype=np.float64)
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    values, inverse = np.unique(x, return_inverse=True)
    sums = np.bincount(inverse, weights=r, minlength=len(values))
    return (sums / np.bincount(inverse, minlength=len(values)))[inverse]


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation of two rows; NaN where either is constant (or has < 2
    values), as there is no order to compare."""
    ra, rb = ranks(a), ranks(b)
    if len(ra) < 2 or np.ptp(ra) == 0 or np.ptp(rb) == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def importance(values: np.ndarray) -> np.ndarray:
    """How much each word mattered, either way: the size of its attribution. A word that
    makes the written word much less likely matters as much as one that makes it likelier
    (the unsigned importance Jain & Wallace compare attention with); docs/alignment.md
    compares the argmax links of the two readings."""
    return np.abs(values)


def step_correlations(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Spearman's rho of each step's attention over the source words (``weights`` (T, S + 1),
    its <eos> column left out) against its :func:`importance` (``values`` (T, S)): (T,)."""
    rows = zip(weights, importance(values), strict=True)
    return np.array([spearman(w[:-1], v) for w, v in rows])


def attention_argmax_is_important(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(T,) True where a step's most attended source word (<eos> left out) is its most
    important one (:func:`importance`)."""
    if values.shape[1] == 0:
        return np.zeros(len(values), dtype=bool)
    return weights[:, :-1].argmax(1) == importance(values).argmax(1)


@dataclass(frozen=True)
class Agreement:
    """How far one Trace's attention and attribution agree, over the words it wrote."""

    mean_spearman: float  # mean of the steps' rank correlations (NaN steps left out)
    argmax_agreement: float  # share of steps whose argmax source word is the same


def agreement(trace: Trace, attribution: Attribution) -> Agreement:
    """Attention against attribution over the steps of ``trace`` that wrote a word."""
    weights, values = trace.output_picture(), attribution.output_values
    rho = step_correlations(weights, values)
    same = attention_argmax_is_important(weights, values)
    return Agreement(
        float(np.nanmean(rho)) if np.isfinite(rho).any() else float("nan"),
        float(same.mean()) if len(same) else float("nan"),
    )


def importance_links(values: np.ndarray) -> list[tuple[int, int]]:
    """(source word, target word) links: each target row to its most important source word
    (:func:`importance`)."""
    if values.shape[1] == 0:
        return []
    return [(int(i), j) for j, i in enumerate(importance(values).argmax(1))]


def word_attribution(
    translator: Translator, words: ForcedWords, method: str, steps: int = STEPS
) -> np.ndarray:
    """Attribution between whitespace words (n_tgt, n_src) of a forced decoding read word by
    word (see :func:`attnviz.analysis.align.forced_words`): pieces summed on both sides."""
    values, _ = token_attribution(
        translator, words.trace, method, words.src_owner, words.n_src, steps
    )
    return group_rows(values[: len(words.tgt_owner)], words.tgt_owner, words.n_tgt, "sum")


def word_links(
    translator: Translator, words: ForcedWords, method: str, steps: int = STEPS
) -> list[tuple[int, int]]:
    """(source word, target word) links of a word-by-word forced decoding, read off
    attribution: each target word to its most important source word (see
    :func:`importance_links`)."""
    return importance_links(word_attribution(translator, words, method, steps))
