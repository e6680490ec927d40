"""Batched greedy, beam and forced decoding that record every step for display.

All three call the model's one decoding step. They return :class:`Decoded` records of plain
numpy arrays, one per sentence; :mod:`attnviz.decoding.translator` turns them into Traces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from ..data.vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID
from ..model.interface import DecodingModel, Step
from ..model.transformer import Transformer


@dataclass
class Decoded:
    """One sentence's decoding: T output steps over S source positions."""

    ids: list[int]  # output ids, <eos> included when it was produced
    probs: np.ndarray  # (T,) probability of each output token
    top_ids: np.ndarray  # (T, k) the k most probable next tokens at each step
    top_probs: np.ndarray  # (T, k) their probabilities
    weights: np.ndarray | None  # (T, S) attention weights; None: a model without attention
    scores: np.ndarray | None  # (T, S) raw attention scores; None without attention
    query: np.ndarray | None  # (T, H) the query scored at each step; None without attention
    context: np.ndarray  # (T, H) the context vector of each step (without attention: the one c)
    log_prob: float  # sum of the output tokens' log-probabilities
    heads: np.ndarray | None = None  # (T, L, N, S) a Transformer's every cross-attention head
    beam_tokens: np.ndarray | None = None  # (T, K) ids of the hypotheses kept at each step
    beam_scores: np.ndarray | None = None  # (T, K) their cumulative log-probabilities
    beam_parents: np.ndarray | None = None  # (T, K) the hypothesis each extends (step t-1)
    beam_path: list[int] = field(default_factory=list)  # the winner's hypothesis at each step


NEVER = torch.tensor([PAD_ID, BOS_ID])  # tokens a model may never produce


def next_log_probs(logits: torch.Tensor) -> torch.Tensor:
    """Log-probabilities (B, V) of the next token; <pad> and <bos> are never produced.

    ``logits``, a step's own output, is overwritten: copying it would cost a pass over V."""
    never = NEVER.to(logits.device)
    return logits.float().index_fill_(-1, never, float("-inf")).log_softmax(-1)


def _cut(ids: list[int]) -> int:
    """Length up to and including the first <eos>, or up to the first <pad> (length limit)."""
    if EOS_ID in ids:
        return ids.index(EOS_ID) + 1
    return ids.index(PAD_ID) if PAD_ID in ids else len(ids)


def default_limits(src_lens: torch.Tensor, max_len: int | None = None) -> torch.Tensor:
    """Per-sentence output limits (B,): ``max_len``, or twice the source length plus 10."""
    return torch.full_like(src_lens, max_len) if max_len else 2 * src_lens + 10


STEP_KEYS = ("ids", "logp", "top_ids", "top_logp", "weights", "scores", "query", "context", "heads")


def _records(*extra: str) -> dict[str, list[torch.Tensor]]:
    """Empty per-step records: the keys every decoding keeps, then ``extra`` ones."""
    return {key: [] for key in (*STEP_KEYS, *extra)}


def _record(rec, ids, logp, top_logp, top_ids, step: Step, rows=None, shape=()) -> None:
    """Append one step: the chosen ``ids`` and their ``logp``, the top-k, and what the model
    computed; for beam search, the ``rows`` of the step that the kept hypotheses extend, as
    ``shape`` + the step's own trailing shape. What the step did not compute (a model without
    attention has no weights, scores or query; a GRU has no heads) is not recorded."""

    def pick(x: torch.Tensor) -> torch.Tensor:
        return x if rows is None else x[rows].view(*shape, *x.shape[1:])

    values = (
        *(ids, logp, top_ids, top_logp),
        *(step.weights, step.scores, step.query, step.context, step.heads),
    )
    for key, value in zip(STEP_KEYS, values, strict=True):
        if value is not None:
            rec[key].append(value if key in ("ids", "logp") else pick(value))


def _decoded(
    arr: dict[str, np.ndarray], pick: tuple, ids: list[int], n_src: int, **beam
) -> Decoded:
    """The Decoded record of the steps ``pick`` indexes in ``arr`` (see :func:`_arrays`)."""
    logp = arr["logp"][pick]
    attended = "weights" in arr  # a model without attention recorded no weights
    return Decoded(
        ids=ids,
        probs=np.exp(logp),
        top_ids=arr["top_ids"][pick],
        top_probs=np.exp(arr["top_logp"][pick]),
        weights=arr["weights"][pick][:, :n_src] if attended else None,
        scores=arr["scores"][pick][:, :n_src] if attended else None,
        query=arr["query"][pick] if attended else None,
        context=arr["context"][pick],
        log_prob=float(logp.sum()),
        heads=arr["heads"][pick][..., :n_src] if "heads" in arr else None,
        **beam,
    )


def _unpack(records: dict[str, list[torch.Tensor]], src_lens: torch.Tensor) -> list[Decoded]:
    """Per-step batch tensors (B, ...) -> one Decoded per sentence, cut at <eos>."""
    arr = _arrays(records)  # (B, T, ...)
    out = []
    for b, n_src in enumerate(src_lens.tolist()):
        ids = arr["ids"][b].tolist()
        T = _cut(ids)
        out.append(_decoded(arr, (b, slice(0, T)), ids[:T], n_src))
    return out


def _arrays(records: dict[str, list[torch.Tensor]]) -> dict[str, np.ndarray]:
    """Per-step tensors (B, ...) -> arrays (B, T, ...): fp32, or int64 for token ids; keys
    with no steps recorded are left out."""
    return {
        k: torch.stack(v, 1)
        .to(torch.int64 if v[0].dtype == torch.int64 else torch.float32)
        .cpu()
        .numpy()
        for k, v in records.items()
        if v
    }


def _run(
    model: DecodingModel,
    src: torch.Tensor,
    src_lens: torch.Tensor,
    limits: torch.Tensor,
    choose: Callable[[int, torch.Tensor], torch.Tensor | None],
    topk: int,
    edits: dict[int, torch.Tensor] | None = None,
) -> list[Decoded]:
    """Step until every sentence has produced <eos> or reached its limit (B,) of steps;
    ``choose(t, top_ids)`` picks the next ids (B,), given the ``topk`` best (B, k), or returns
    None for the best of each; ``edits`` maps a step to the attention weights (B, S) that
    replace the model's there.

    For one sentence, passes over the V logits are a step's main cost after the output layer
    itself, so a step makes two (log-softmax, top-k; the mask writes two logits in place) and
    greedy search takes the top-1 and its log-probability from the top-k rather than making a
    third. Which sentences are done is kept in Python, from one read of the ids a step: a
    handful of tensor operations a step cost more than the ids' copy."""
    topk = max(1, min(topk, model.config.require_vocab_sizes()[1]))
    memory, state = model.encode(src, src_lens)
    B = src.size(0)
    y = torch.full((B,), BOS_ID, dtype=torch.long, device=src.device)
    rec = _records()
    caps = limits.tolist()
    done = [False] * B
    done_mask: torch.Tensor | None = None  # (B,) True at finished rows, once there is one
    for t in range(max(caps)):
        step = model.step(y, state, memory, edits.get(t) if edits else None)
        logp = next_log_probs(step.logits)  # (B, V)
        top_logp, top_i = logp.topk(topk, dim=-1)  # (B, k)
        chosen = choose(t, top_i)
        if chosen is None:  # the best token, whose log-probability the top-k holds
            y, y_logp = top_i[:, 0], top_logp[:, 0]
        else:
            y, y_logp = chosen, logp.gather(1, chosen[:, None]).squeeze(1)
        if done_mask is not None:  # finished sentences go on with <pad>
            y = y.masked_fill(done_mask, PAD_ID)
        _record(rec, y, y_logp, top_logp, top_i, step)
        ended = [
            not was and (i == EOS_ID or t + 1 >= cap)
            for was, i, cap in zip(done, y.tolist(), caps, strict=True)
        ]
        if any(ended):
            done = [was or end for was, end in zip(done, ended, strict=True)]
            if all(done):
                break
            done_mask = torch.tensor(done, device=src.device)
        state = step.next_state()
    return _unpack(rec, src_lens)


@torch.inference_mode()
def greedy(
    model: DecodingModel,
    src: torch.Tensor,
    src_lens: torch.Tensor,
    limits: torch.Tensor,
    topk: int = 5,
    prefix: torch.Tensor | None = None,
    edits: dict[int, torch.Tensor] | None = None,
) -> list[Decoded]:
    """Take the most probable token at each step, for a batch of sentences at once.

    ``limits`` (B,) caps each sentence's output length (see :func:`default_limits`).
    ``prefix`` (B, P): the first P tokens are these, whatever the model prefers; it goes on
    from there. ``edits``: attention weights (B, S) that replace the model's at a step.
    """
    P = 0 if prefix is None else prefix.size(1)

    def choose(t: int, top_ids: torch.Tensor) -> torch.Tensor | None:
        return prefix[:, t] if prefix is not None and t < P else None

    return _run(model, src, src_lens, limits, choose, topk, edits)


@torch.inference_mode()
def forced(
    model: DecodingModel,
    src: torch.Tensor,
    src_lens: torch.Tensor,
    tgt: torch.Tensor,
    topk: int = 5,
) -> list[Decoded]:
    """Feed the given target ``tgt`` (B, T), ending in <eos> then <pad>, and record each step."""
    limits = torch.full_like(src_lens, tgt.size(1))
    return _run(model, src, src_lens, limits, lambda t, top_ids: tgt[:, t], topk)


@torch.inference_mode()
def forced_at_once(
    model: Transformer, src: torch.Tensor, src_lens: torch.Tensor, tgt: torch.Tensor, topk: int = 5
) -> list[Decoded]:
    """:func:`forced` in one pass over the whole target (B, T), for a model that computes every
    step of a known target at once (a Transformer's ``forced_steps``): the same records, each
    sentence cut at its first <eos>."""
    topk = max(1, min(topk, model.config.require_vocab_sizes()[1]))
    memory, _state = model.encode(src, src_lens)
    start = torch.full_like(tgt[:, :1], BOS_ID)
    steps = model.forced_steps(memory, torch.cat([start, tgt[:, :-1]], 1))
    logp = next_log_probs(steps.logits)  # (B, T, V)
    top_logp, top_ids = logp.topk(topk, dim=-1)
    chosen = logp.gather(2, tgt[:, :, None]).squeeze(2)
    values = (tgt, chosen, top_ids, top_logp, *steps[2:6], steps.heads)  # as STEP_KEYS
    rec = {
        k: [] if v is None else list(v.unbind(1)) for k, v in zip(STEP_KEYS, values, strict=True)
    }
    return _unpack(rec, src_lens)


@torch.inference_mode()
def beam_search(
    model: DecodingModel,
    src: torch.Tensor,
    src_lens: torch.Tensor,
    beam: int,
    limits: torch.Tensor,
    topk: int = 5,
    alpha: float = 1.0,
    beta: float = 0.0,
    prefix: torch.Tensor | None = None,
) -> list[Decoded]:
    """Beam search over a batch: B sentences x K hypotheses run as one batch of B*K rows.

    Hypotheses are ranked by their summed log-probability while searching and, at the end, as
    :func:`_rank` says (length normalization and coverage penalty). A finished hypothesis keeps
    its place and score, extended only by <pad>. ``prefix`` (B, P): every hypothesis starts
    with these P tokens (one live hypothesis until they are written), then the search is free.
    """
    B, K = src.size(0), beam
    _, V = model.config.require_vocab_sizes()
    topk = min(topk, V)
    dev = src.device
    memory, state = model.encode(src, src_lens)
    rows = torch.arange(B, device=dev).repeat_interleave(K)  # (B*K,) sentence of each row
    memory, state = memory.select(rows), state.select(rows)
    score = torch.full((B, K), float("-inf"), device=dev)
    score[:, 0] = 0.0  # one live hypothesis to start, so the first step does not pick K copies
    length = torch.zeros(B, K, device=dev)
    cover = torch.zeros(B, K, src.size(1), device=dev)  # attention each source token received
    done = torch.zeros(B, K, dtype=torch.bool, device=dev)
    y = torch.full((B * K,), BOS_ID, dtype=torch.long, device=dev)
    only_pad = torch.full((V,), float("-inf"), device=dev)
    only_pad[PAD_ID] = 0.0
    base = (torch.arange(B, device=dev) * K).unsqueeze(1)  # (B, 1) first row of each sentence
    limits = limits.to(dev).unsqueeze(1)  # (B, 1)
    rec = _records("parents", "scores_cum")
    for t in range(int(limits.max())):
        step = model.step(y, state, memory)
        logp = next_log_probs(step.logits).view(B, K, V)
        logp = torch.where(done.unsqueeze(-1), only_pad, logp)  # finished: only <pad>, free
        forced = prefix[:, t] if prefix is not None and t < prefix.size(1) else None
        score, parent, token = _extend(score, logp, forced)  # (B, K) each
        prow = (base + parent).view(-1)  # (B*K,) row of each new hypothesis's parent
        rows_logp = logp.view(B * K, V)
        top_logp, top_i = rows_logp.topk(topk, dim=-1)  # (B*K, k), for every row, then picked
        chosen = rows_logp[prow, token.view(-1)].view(B, K)
        _record(rec, token, chosen, top_logp, top_i, step, rows=prow, shape=(B, K))
        rec["parents"].append(parent)
        rec["scores_cum"].append(score)
        weights = None if step.weights is None else step.weights.float()[prow].view(B, K, -1)
        length, cover, was_done = _follow(length, cover, done, parent, weights)
        done = was_done | (token == EOS_ID) | (limits <= t + 1)
        state = step.next_state().select(prow)
        y = token.view(-1)
        if bool(done.all()):
            break
    best = _rank(score, length, cover, src_lens, alpha, beta).argmax(-1).tolist()  # (B,)
    arr = _arrays(rec)  # (B, T, K, ...)
    return [_backtrack(arr, b, best[b], n) for b, n in enumerate(src_lens.tolist())]


def _extend(
    score: torch.Tensor, logp: torch.Tensor, forced: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The K best extensions of each sentence's K hypotheses, whose summed log-probabilities
    are ``score`` (B, K), by the next token's ``logp`` (B, K, V): their summed
    log-probabilities, the hypothesis each extends and its token, each (B, K). ``forced``
    (B,), a prefix's tokens at this step, are the only tokens allowed."""
    B, K, V = logp.shape
    cand = score.unsqueeze(-1) + logp  # (B, K, V)
    if forced is not None:
        only = torch.full_like(cand, float("-inf"))
        cand = only.scatter_(-1, forced.view(B, 1, 1).expand(B, K, 1), 0.0) + cand
    score, flat = cand.view(B, K * V).topk(K, dim=-1)  # (B, K)
    return score, flat // V, flat % V


def _follow(length, cover, done, parent, weights) -> tuple[torch.Tensor, ...]:
    """The output lengths (B, K) and attention received per source token (B, K, S) of the
    hypotheses that extend ``parent`` (B, K), whose step attended with ``weights`` (B, K, S)
    (None: no attention, and no coverage to follow), and whether each extends a finished one
    (B, K), whose <pad> adds neither."""
    was_done = done.gather(1, parent)
    length = length.gather(1, parent) + (~was_done).float()
    if weights is None:
        return length, cover, was_done
    fresh = weights * (~was_done).unsqueeze(-1)
    cover = cover.gather(1, parent.unsqueeze(-1).expand_as(cover)) + fresh
    return length, cover, was_done


def _rank(score, length, cover, src_lens, alpha: float, beta: float) -> torch.Tensor:
    """The final ranking (B, K) of beam-search hypotheses: summed log-probability over
    ``length ** alpha`` (0 turns it off), plus ``beta`` times the coverage penalty of Wu et al.
    (2016), sum_j log(min(sum_t a_tj, 1)) over the source words (not the <eos> every source
    ends with, nor padding): a hypothesis that left source words unattended ranks lower."""
    final = score / length.clamp(min=1) ** alpha if alpha else score
    if not beta:
        return final
    real = (
        torch.arange(cover.size(-1), device=cover.device) < src_lens.to(cover.device)[:, None] - 1
    )
    penalty = cover.clamp(1e-6, 1.0).log() * real.unsqueeze(1)  # (B, K, S)
    return final + beta * penalty.sum(-1)


def _backtrack(arr: dict[str, np.ndarray], b: int, k: int, n_src: int) -> Decoded:
    """Follow parents back from hypothesis ``k`` of sentence ``b`` to read off the winner."""
    T = arr["ids"].shape[1]
    path = [0] * T
    for t in range(T - 1, -1, -1):
        path[t] = k
        k = int(arr["parents"][b, t, k])
    steps = np.arange(T)
    ids = arr["ids"][b, steps, path].tolist()
    n = _cut(ids)
    return _decoded(
        arr,
        (b, steps[:n], path[:n]),
        ids[:n],
        n_src,
        beam_tokens=arr["ids"][b, :n],
        beam_scores=arr["scores_cum"][b, :n],
        beam_parents=arr["parents"][b, :n],
        beam_path=path[:n],
    )


def copy_unks(out: list[str], d: Decoded, src: list[str]) -> list[int | None]:
    """Each <unk> of ``out`` (the tokens of decoding ``d``) replaced, in place, by the source
    token of ``src`` it attends to most, never the source <eos> (Luong et al., 2015b); returns
    the source position each output token was copied from, or None. Without attention, none."""
    replaced: list[int | None] = [None] * len(out)
    if d.weights is None:
        return replaced
    for t, i in enumerate(d.ids):
        if i == UNK_ID:
            j = int(np.argmax(d.weights[t, :-1]))  # never the source <eos>
            out[t], replaced[t] = src[j], j
    return replaced
