"""One decoding step in numbers: from the query to the next word's probability, with the values
the model used, in the terms of its own score formula.

The step is replayed: the decoder is fed the trace's own tokens (and its attention edits) up to
the step, then the step's score is recomputed part by part from the attention module's weights,
and checked against what the decoding recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..data.vocab import BOS_ID
from ..model.attention import AdditiveAttention, DotAttention
from .decode import next_log_probs
from .trace import Trace


@dataclass(frozen=True)
class StepMath:
    """What step ``t`` computed, over the S source tokens the model read (pieces for a
    subword model) and its H-dimensional states."""

    step: int
    attention: str  # bahdanau, dot, general or concat
    src_tokens: list[str]  # (S,)
    query: np.ndarray  # (H,) s_{t-1} (Bahdanau) or h_t (Luong)
    parts: dict[str, np.ndarray]  # the score's terms by their names in the formula, see below
    scale: float  # what dot and general scores are multiplied by: 1 or 1/sqrt(H)
    scores: np.ndarray  # (S,) e_tj
    exp: np.ndarray  # (S,) exp(e_tj - max_k e_tk): the softmax's numerators
    weights: np.ndarray  # (S,) alpha_tj = exp / sum(exp), or the edited weights
    values: np.ndarray  # (S, H) the encoder outputs h_j
    context: np.ndarray  # (H,) c_t = sum_j alpha_tj h_j
    share: np.ndarray  # (S,) each word's share of c_t: alpha_tj h_j . c_t / |c_t|^2, sums to 1
    features: np.ndarray  # (H,) what the output layer reads: t_t (Bahdanau) or h~_t (Luong)
    top: list[tuple[str, float, float]]  # the most probable next tokens: (token, logit, p)
    edited: bool  # the weights were set by an edit, not by the softmax of the scores


def step_math(translator, trace: Trace, t: int, topk: int = 5) -> StepMath:
    """Replay step ``t`` of ``trace``, a decoding over ``translator``'s own tokens (for a subword
    model, ``trace.pieces``), and take its attention apart."""
    model, tgt_vocab = translator.model, translator.tgt_vocab
    dev = translator.device
    src, src_lens = translator.source_batch([trace.src_tokens[:-1]])
    with torch.inference_mode():
        fed = torch.tensor([[BOS_ID, *translator.written_ids(trace)[:t]]], device=dev).T  # (t+1, 1)
        memory, state = model.encode(src, src_lens)
        for k, y in enumerate(fed):
            # a copy: a Trace's arrays are read-only, and torch wants to own what it wraps
            edit = torch.tensor(trace.picture()[k], device=dev)[None] if k in trace.edited else None
            step = model.step(y, state, memory, edit)
            state = step.state
        att = model.decoder.attention
        query = step.query.float()  # (1, H)
        keys = memory.keys[0].float()  # (S, A)
        parts, scale = _parts(att, query[0], keys)
        scores = step.scores[0].float()
        logits = step.logits[0].float()
        probs = next_log_probs(logits.clone()[None])[0].exp()  # as decoding: no <pad>, <bos>
        top_p, top_i = probs.topk(min(topk, probs.numel()))
    values = memory.values[0].float().numpy()
    weights = step.weights[0].float().numpy()
    context = step.context[0].float().numpy()
    e = scores.numpy()
    logits = logits.numpy()
    return StepMath(
        step=t,
        attention=translator.attention,
        src_tokens=list(trace.src_tokens),
        query=query[0].numpy(),
        parts=parts,
        scale=scale,
        scores=e,
        exp=np.exp(e - e.max()),
        weights=weights,
        values=values,
        context=context,
        share=weights * (values @ context) / max(float(context @ context), 1e-30),
        features=step.features[0].float().numpy(),
        top=[
            (tgt_vocab.itos[i], float(logits[i]), float(p))
            for i, p in zip(top_i.tolist(), top_p.tolist(), strict=True)
        ],
        edited=t in trace.edited,
    )


def _parts(att, query: torch.Tensor, keys: torch.Tensor) -> tuple[dict[str, np.ndarray], float]:
    """The terms of the score of ``query`` (H,) against ``keys`` (S, A), by the names the
    formula gives them, and the scale of dot products."""
    if isinstance(att, AdditiveAttention):  # bahdanau and concat: v^T tanh(W q + U h_j)
        projected = query @ att.W.weight.float().T  # (A,)
        hidden = torch.tanh(projected + keys)  # (S, A)
        terms = {"W q": projected, "U h_j": keys, "tanh(W q + U h_j)": hidden}
        terms["v"] = att.v.weight[0].float()
        return {k: v.numpy() for k, v in terms.items()}, 1.0
    assert isinstance(att, DotAttention)
    weighted = {"W_a h_j": keys.numpy()} if hasattr(att, "W_a") else {}
    return weighted, float(att.scale)
