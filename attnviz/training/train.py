"""Training: teacher forcing with Adam, validation loss and BLEU each epoch, best epoch kept.

:func:`train` is the loop, read top to bottom: the run started (:mod:`.start`), then each
epoch trained over its batches (:meth:`Trainer.train_epoch`), validated and recorded
(:meth:`Trainer.validate`), its checkpoint and training state written, and at the end the test
split scored (:meth:`Trainer.finish`). The hooks are named calls: the history's snapshots,
the guide loss inside :func:`.update.batch_loss`, DDP inside :meth:`Trainer.step`.

After every epoch the full training state (weights, optimizer, random state, history) is saved
to ``OUT.state``, so an interrupted run goes on with ``resume=True`` and ends with the same
weights it would have had uninterrupted.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from ..analysis.evaluate import corpus_bleu, corpus_sinks, heads_aer
from ..analysis.history import FIRST_EPOCH_POINTS, History
from ..data.corpus import (
    Example,
    bucket_batches,
    group_references,
    join_examples,
    make_batch,
    resampled,
    spread_sample,
    training_examples,
)
from ..data.prepare import Prepared
from ..data.swap import swap_examples
from ..data.typed import short_copies, typed_examples
from ..decoding.translator import BETA, Translator
from ..model.interface import DecodingModel
from ..model.precision import Precision
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer
from ..store import checkpoint
from . import distributed
from .config import TrainingRun
from .resume import save_state, state_path
from .start import Start, start
from .update import batch_loss, set_lr, train_step, update


@distributed.launched
def train(
    run: TrainingRun,
    log=print,
    progress: Callable[[History], bool] | None = None,
    parent: Translator | None = None,
) -> dict:
    """Train the model ``run`` describes and save its best epoch to ``run.out``; returns its card.

    ``log`` takes one message a time. ``progress`` is called with the history after each
    snapshot; once it returns True the run ends after the epoch under way, keeping the best
    epoch so far (one process only). After every epoch the training state goes to
    ``OUT.state``, from which ``run.resume`` goes on. With ``run.init_from`` the history goes
    on from the parent's, and the card records the lineage (see :mod:`.lineage`); ``parent``
    is that checkpoint where the caller loaded it already (in fp32).
    Under torchrun, every process trains its share of each batch (see :mod:`.distributed`)
    and rank 0 alone logs and writes ``run.out``; the other ranks return the card as it stood
    before the test BLEU.
    """
    group = distributed.current()
    if progress is not None and group.joined:
        raise ValueError("a progress callback stops one process, not a torchrun group")
    log = log if group.main else _quiet
    trainer = Trainer(start(run, group, log, parent), group, log, progress)
    trainer.first_snapshot()
    done = trainer.first
    for epoch in range(trainer.first, trainer.config.epochs):
        began = time.perf_counter()
        speed = trainer.train_epoch(epoch)  # every process, its share of each batch
        if group.main:
            if trainer.validate(epoch, speed, began):  # the best epoch so far
                trainer.save(trainer.model)
            trainer.save_state(epoch + 1)  # for --resume
        done = epoch + 1
        if trainer.stopped:
            break
    if not group.main:
        return trainer.card
    if "best_epoch" not in trainer.history.best:
        raise ValueError(f"no epoch reached a finite validation loss; {run.out} was not written")
    trainer.finish(done)
    return trainer.card


def _quiet(*_) -> None:
    """The log of ranks other than 0."""


class Trainer:
    """One run's moving parts (a :class:`.start.Start`) and what each epoch does with them."""

    def __init__(
        self,
        s: Start,
        group: distributed.Group,
        log=print,
        progress: Callable[[History], bool] | None = None,
    ):
        self.run, self.p, self.teacher, self.model, self.opt = s.run, s.p, s.teacher, s.model, s.opt
        self.history, self.card, self.settings = s.history, s.card, s.settings
        self.first, self.offset = s.first, s.offset
        self.group, self.log, self.progress = group, log, progress
        self.stopped = False  # the progress callback asked to stop
        self.config, self.dev = s.run.train, group.device(s.run.device)
        if self.config.subword_dropout and s.p.subwords is None:
            raise ValueError("subword_dropout draws pieces anew: it needs --subwords above 0")
        self.ddp = None
        if group.joined:
            loss = partial(
                batch_loss,
                label_smoothing=self.config.label_smoothing,
                precision=self.config.precision,
                guide_weight=self.config.guide_weight,
            )
            self.ddp = distributed.data_parallel(loss, self.model)
        self.valid_src, self.valid_refs = spread_sample(
            *group_references((e.src, e.tgt) for e in s.p.splits["valid"]),
            self.config.bleu_sentences,
        )
        self.valid = s.p.splits["valid"] or s.p.splits["train"][:1000]
        self.translator = Translator(
            self.model, s.p.src_vocab, s.p.tgt_vocab, s.run.text, subwords=s.p.subwords
        )

    def first_snapshot(self) -> None:
        """The history's point before any training of this run (none when it has one)."""
        snapshots = self.history.snapshots
        if self.group.main and (not snapshots or snapshots[-1].epoch < self.offset):
            loss, bleu = self.snapshot(self.offset)
            if self.run.init_from:
                self.log(
                    f"starting from {self.run.init_from}: valid loss {loss:.4f}, valid BLEU {bleu}"
                )

    def train_epoch(self, epoch: int) -> float:
        """One pass over epoch ``epoch``'s batches (0-based), one update each at the scheduled
        learning rate; the first epoch takes the history's early snapshots on the way.
        Returns the target tokens trained per second, snapshots' time left out."""
        config, main = self.config, self.group.main
        distributed.seed_dropout(config.seed, epoch, self.group)
        batches = self.batches(epoch)
        early = {max(1, round(f * len(batches))): f for f in FIRST_EPOCH_POINTS}
        snapshots = early if main and not epoch else {}
        desc = f"epoch {epoch + 1}/{config.epochs}"
        self.model.train()
        tokens, t0 = 0, time.perf_counter()
        bar = tqdm(batches, desc=desc, unit="batch", leave=False, mininterval=1.0, disable=not main)
        for i, chunk in enumerate(bar):
            if i in snapshots:
                paused = time.perf_counter()
                self.snapshot(self.offset + snapshots[i])
                t0 += time.perf_counter() - paused
            set_lr(self.opt, config.lr_at(epoch + i / len(batches)))
            loss, n = self.step(chunk)
            tokens += n
            rate = tokens / (time.perf_counter() - t0)
            bar.set_postfix(loss=f"{loss:.3f}", tok_s=f"{rate:.0f}", refresh=False)
        return tokens / (time.perf_counter() - t0)

    def step(self, chunk: list[Example]) -> tuple[float, int]:
        """One update on the global batch ``chunk``: its loss here (mean per token) and its
        target tokens. Under torchrun this process takes its share of ``chunk`` and divides the
        share's summed loss by the global batch's tokens over the number of processes: DDP
        averages the processes' gradients, so the update is that of the global batch's mean
        loss, as in one process (an empty share adds zero)."""
        p = self.p
        if self.ddp is None:
            batch = make_batch(chunk, p.src_vocab, p.tgt_vocab).to(self.dev)
            return train_step(self.model, self.opt, batch, self.config), batch.n_tokens
        share, tokens = self.group.share(chunk), target_tokens(chunk)
        batch = make_batch(share or chunk[:1], p.src_vocab, p.tgt_vocab).to(self.dev)
        loss = self.ddp(batch) / (tokens / self.group.world_size)
        update(self.model, self.opt, loss if share else loss * 0, self.config)
        return loss.item() * batch.n_tokens / tokens, tokens

    def batches(self, epoch: int) -> list[list[Example]]:
        """Epoch ``epoch``'s batches, drawn from a function of the seed and the epoch alone:
        the training pairs, their swapped copies, the short ones again, a share as typed,
        their pieces drawn anew (with ``subword_dropout``) and joined pairs, bucketed by
        length."""
        config, run = self.config, self.run
        seed = config.seed * 100_003 + epoch
        gen = torch.Generator().manual_seed(seed)
        train = self.p.splits["train"]
        rng = random.Random(seed)
        make = partial(training_examples, text=run.text, data=run.data, subwords=self.p.subwords)
        train = [
            *train,
            *swap_examples(train, config.swap_fraction, rng, make),
            *short_copies(train, config.short_copies, rng),
        ]
        train = typed_examples(train, config.typed_fraction, rng, make)
        if config.subword_dropout and self.p.subwords:
            drawn = resampled(train, self.p.subwords, config.subword_dropout, seed)
            train = [e for e in drawn if run.data.keeps(e.src_tokens, e.tgt_tokens)]
        examples = join_examples(train, config.join_fraction, gen)
        return bucket_batches(examples, config.batch_size, gen)

    def snapshot(self, epoch: float) -> tuple[float, float | None]:
        """Validation loss and BLEU now, recorded with the probes' attention."""
        # The engine's copy of the weights is of the last snapshot's: made anew at its next use
        # (the fused Adam updates in place and moves no version counter to tell it).
        self.translator.engine = None
        loss = evaluate_loss(self.model, self.valid, self.p, self.dev)
        bleu = None
        if self.valid_src:
            bleu = corpus_bleu(self.translator, self.valid_src, self.valid_refs).score
        self.history.add(self.translator, epoch, loss, bleu)
        if self.progress is not None and self.progress(self.history):
            self.stopped = True
        self.model.train()
        return loss, bleu

    def validate(self, epoch: int, speed: float, began: float) -> bool:
        """Record epoch ``epoch`` (0-based; trained at ``speed`` tokens/s, begun at
        ``began``): its snapshot and curves. True if it is the best so far."""
        done = self.offset + epoch + 1  # epochs counted over the lineage
        loss, bleu = self.snapshot(done)
        curves = self.history.epochs
        curves["valid_loss"].append(round(loss, 4))
        curves["valid_bleu"].append(bleu)
        curves["epoch_seconds"].append(round(time.perf_counter() - began, 1))
        self.log(f"epoch {done}: valid loss {loss:.4f}, valid BLEU {bleu}, {speed:.0f} tokens/s")
        best = self.history.best.get("best_loss")
        if not math.isfinite(loss) or (best is not None and loss >= best):
            return False
        self.history.best.update(best_loss=loss, best_epoch=done)
        self.card.update(epochs=done, best_epoch=done, train_seconds=self.seconds())
        return True

    def seconds(self) -> float:
        """This run's training time (a parent's is in the card's lineage)."""
        return round(sum(self.history.epochs["epoch_seconds"][self.offset :]), 1)

    def save(self, weights: DecodingModel) -> None:
        """Write ``weights`` to the run's checkpoint, with the card and the history so far."""
        self.card["history"] = self.history.to_json()
        p, run = self.p, self.run
        checkpoint.save(
            run.out,
            weights,
            p.src_vocab,
            p.tgt_vocab,
            run.text,
            run.data,
            self.card,
            half=run.storage == "fp16",
            subwords=p.subwords,
            extra=self.history.tensors(),
        )

    def save_state(self, epochs: int) -> None:
        """Write the training state after ``epochs`` epochs, for --resume."""
        state = state_path(Path(self.run.out))
        save_state(state, self.model, self.opt, epochs, self.history, self.settings, self.dev)

    def finish(self, done: int) -> None:
        """Give the best file's card, after ``done`` of this run's epochs (fewer than asked
        where the run was stopped), its settings, the whole curve, the test BLEU, scored
        at the precision that loading picks here by default (what `evaluate` does), and the
        test split's attention sinks, in fp32 (what `evaluate --sinks` does)."""
        out = self.run.out
        best = checkpoint.load(out, device=self.dev, precision=Precision.FP32)
        scorer = checkpoint.load(out, device=self.dev)
        self.card.update(
            epochs=self.offset + done,
            best_epoch=self.history.best["best_epoch"],
            train_seconds=self.seconds(),
        )
        test_src, test_refs = group_references((e.src, e.tgt) for e in self.p.splits["test"])
        if test_src:
            self.test_bleu(scorer, test_src, test_refs)
        if best.model.config.model == "transformer":
            self.pick_picture_layer(best)
        if test_src and best.model.config.has_attention:
            sinks = corpus_sinks(best, test_src)  # the attention the dashboard shows: fp32
            self.card["attention_sinks"] = sinks.card("test")
            self.log(f"first token on <eos>: {sinks.first_eos}%, all steps {sinks.steps_eos}%")
        self.save(best.model)

    def pick_picture_layer(self, best: Translator) -> None:
        """A Transformer's picture: the layer whose heads, averaged, align its gold probes best
        (Garg et al., 2019, found the penultimate), with every layer's and head's AER on the
        card; without gold probes, the layer it was given."""
        with_gold = [(p, p.gold) for p in self.run.probes if p.gold is not None]
        if not with_gold:
            return
        pairs = [(p.source, p.target) for p, _ in with_gold]
        found = heads_aer(best, pairs, [gold for _, gold in with_gold])
        config = best.model.config
        layers = range(config.layers)
        mean = [found[layer, None, False].aer for layer in layers]
        picture = int(np.argmin(mean))
        best.model.config = replace(config, align_layer=picture)
        self.card["heads_aer"] = {
            "pairs": len(pairs),
            "picture_layer": picture,
            "mean": [round(a, 2) for a in mean],
            "shifted": [round(found[layer, None, True].aer, 2) for layer in layers],
            "heads": [[round(found[layer, h, False].aer, 2) for h in range(config.heads)]
                      for layer in layers],
        }  # fmt: skip
        self.log(f"picture layer {picture}: AER by layer {self.card['heads_aer']['mean']}")

    def test_bleu(self, scorer: Translator, test_src: list[str], test_refs) -> None:
        """The test split's BLEU, greedy and with the run's test beam, into the card."""
        beam = self.config.test_beam
        beams = [1] + ([beam] if beam > 1 else [])
        results = {f"beam{b}": corpus_bleu(scorer, test_src, test_refs, beam=b) for b in beams}
        self.card["test_bleu"] = {k: r.score for k, r in results.items()}
        self.card["test_bleu"].update(
            signature=results["beam1"].signature,
            sentences=len(test_src),
            refused=results["beam1"].refused,
            precision=scorer.precision,
            alpha=1.0,
            coverage=BETA,
        )
        self.log("test BLEU: " + ", ".join(f"{k} {r.score}" for k, r in results.items()))


@torch.no_grad()
def evaluate_loss(
    model: Seq2Seq | Transformer,
    examples: list[Example],
    p: Prepared,
    device,
    batch_size: int = 128,
) -> float:
    """Mean per-token cross-entropy over ``examples``."""
    model.eval()
    total, tokens = 0.0, 0
    for chunk in bucket_batches(examples, batch_size):
        batch = make_batch(chunk, p.src_vocab, p.tgt_vocab).to(device)
        total += float(batch_loss(model, batch))
        tokens += batch.n_tokens
    return total / max(tokens, 1)


def target_tokens(examples: list[Example]) -> int:
    """The target tokens a batch of ``examples`` scores (``Batch.n_tokens``: <eos> included)."""
    return sum(len(e.tgt_tokens) + 1 for e in examples)
