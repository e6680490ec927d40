"""Training: teacher forcing with Adam, validation loss and BLEU each epoch, best epoch kept.

After every epoch the full training state (weights, optimizer, random state, history) is saved
to ``OUT.state``, so an interrupted run goes on with ``resume=True`` and ends with the same
weights it would have had uninterrupted.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import platform
import random
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path

import torch
from tqdm import tqdm

from ..analysis.evaluate import corpus_bleu, corpus_sinks
from ..analysis.history import FIRST_EPOCH_POINTS, History, Probe, choose_probes
from ..data.corpus import (
    Corpus,
    DataConfig,
    Example,
    bucket_batches,
    group_references,
    join_examples,
    make_batch,
    read_corpus,
    split_examples,
    split_of,
    spread_sample,
    to_pieces,
    tokenize_pairs,
    training_examples,
)
from ..data.subwords import Subwords
from ..data.swap import swap_examples
from ..data.text import TextConfig
from ..data.vocab import Vocab
from ..decoding.translator import BETA, Translator
from ..model.networks import ModelConfig, Seq2Seq
from ..store import checkpoint
from . import distributed, lineage
from .config import TrainingRun
from .guide import Teacher, teacher_links, with_links
from .output_bias import start_at_unigram
from .precision_choice import choose_precision
from .resume import load_state, save_state, state_path
from .update import batch_loss, optimizer, set_lr, train_step, update

_SEEDING = threading.Lock()  # one run at a time seeds torch and draws its initial weights


@dataclass
class Prepared:
    corpus: Corpus
    splits: dict[str, list[Example]]
    src_vocab: Vocab
    tgt_vocab: Vocab
    subwords: Subwords | None = None  # the sentencepiece models, None for whole words
    teacher: Teacher | None = None  # the links a guided run learns from, None for a natural one


def prepare(
    path: str | Path,
    text: TextConfig,
    data: DataConfig,
    log=print,
    parent: Translator | None = None,
    guide: str | Path | None = None,
    out: str | Path = ".",
    add_pieces: int = 0,
) -> Prepared:
    """Read, tokenize and split a corpus; build both vocabularies on the training split (and,
    with ``data.subwords``, the sentencepiece models that split its words into pieces), or take
    those of ``parent``, the model a run continues from, grown by up to ``add_pieces`` pieces
    from the words of the training split (:meth:`Subwords.grown`). With ``guide`` ("eflomal"
    or a links file, see :mod:`.guide`), every pair carries its teacher's links (eflomal's
    cached beside ``out``)."""
    corpus = read_corpus(path, data.source_column)
    if not corpus.pairs:
        raise ValueError(f"{path}: no sentence pairs found ({corpus.skipped} malformed lines)")
    log(f"{path}: {len(corpus.pairs)} pairs, {corpus.skipped} malformed lines skipped")
    teacher = teacher_links(corpus, text, guide, out, log) if guide else None
    examples = with_links(tokenize_pairs(corpus.pairs, text), teacher)
    subwords = parent.subwords if parent else None
    if add_pieces:
        if not subwords:
            raise ValueError("--add-pieces grows a parent's sentencepiece pieces; it has none")
        subwords = subwords.grown(_training_words(examples, data, path), add_pieces)
    if subwords:
        examples = to_pieces(examples, subwords)
    elif data.subwords and not parent:
        subwords = Subwords.train(
            _training_words(examples, data, path),
            data.subwords,
            data.subword_model,
            data.joint_subwords,
            (text.src_lang, text.tgt_lang),
        )
        examples = to_pieces(examples, subwords)
    splits = split_examples(examples, data)
    if not splits["train"]:
        raise ValueError(f"{path}: the training split is empty")
    train = splits["train"]
    if subwords:
        src_vocab, tgt_vocab = subwords.src.vocab, subwords.tgt.vocab
    elif parent:
        src_vocab, tgt_vocab = parent.src_vocab, parent.tgt_vocab
    else:
        src_vocab = Vocab.build((e.src_tokens for e in train), data.min_freq, data.max_vocab)
        tgt_vocab = Vocab.build((e.tgt_tokens for e in train), data.min_freq, data.max_vocab)
    log(
        "split: "
        + ", ".join(f"{k} {len(v)}" for k, v in splits.items())
        + f"; vocabularies: source {len(src_vocab)}, target {len(tgt_vocab)}"
    )
    return Prepared(corpus, splits, src_vocab, tgt_vocab, subwords, teacher)


def _training_words(
    examples: list[Example], data: DataConfig, path: str | Path
) -> list[tuple[list[str], list[str]]]:
    """The (source, target) words of the training split's pairs, which the sentencepiece
    models are trained or grown on."""
    words = [
        (e.src_tokens, e.tgt_tokens)
        for e in examples
        if split_of(e.src, data.valid_percent, data.test_percent) == "train"
    ]
    if not words:
        raise ValueError(f"{path}: the training split is empty")
    return words


def hardware(device: torch.device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {torch.get_num_threads()} threads"


@torch.no_grad()
def evaluate_loss(
    model: Seq2Seq, examples: list[Example], p: Prepared, device, batch_size: int = 128
) -> float:
    """Mean per-token cross-entropy over ``examples``."""
    model.eval()
    total, tokens = 0.0, 0
    for chunk in bucket_batches(examples, batch_size):
        batch = make_batch(chunk, p.src_vocab, p.tgt_vocab).to(device)
        total += float(batch_loss(model, batch))
        tokens += batch.n_tokens
    return total / max(tokens, 1)


@distributed.launched
def train(run: TrainingRun, log=print, progress: Callable[[History], bool] | None = None) -> dict:
    """Train the model ``run`` describes and save its best epoch to ``run.out``; returns its card.

    ``log`` takes one message a time. ``progress`` is called with the history after each
    snapshot; once it returns True the run ends after the epoch under way, keeping the best
    epoch so far (one process only). After every epoch the training state goes to
    ``OUT.state``, from which ``run.resume`` goes on. With ``run.init_from`` the history goes
    on from the parent's, and the card records the lineage (see :mod:`.lineage`).
    Under torchrun, every process trains its share of each batch (see :mod:`.distributed`)
    and rank 0 alone logs and writes ``run.out``; the other ranks return the card as it stood
    before the test BLEU.
    """
    group = distributed.current()
    if progress is not None and group.joined:
        raise ValueError("a progress callback stops one process, not a torchrun group")
    log = log if group.main else _quiet
    loop = _start(run, group, log, progress)
    for epoch in range(loop.first, loop.config.epochs):
        if loop.epoch(epoch, log):
            loop.save(loop.model)
        if group.main:
            loop.save_state(epoch + 1)
        if loop.stopped:
            break
    if not group.main:
        return loop.card
    if "best_epoch" not in loop.history.best:
        raise ValueError(f"no epoch reached a finite validation loss; {run.out} was not written")
    loop.finish(log)
    return loop.card


def _start(run: TrainingRun, group: distributed.Group, log, progress) -> _Loop:
    """Everything before the first epoch: the corpus read and split, the model built (with the
    parent's weights, or the training state's with ``run.resume``), the card begun and the
    starting snapshot taken."""
    dev = group.device(run.device)
    parent = checkpoint.load(run.init_from, precision="fp32") if run.init_from else None
    run = _resolved(run, parent)
    p = prepare(run.corpus, run.text, run.data, log, parent, run.guide, run.out, run.add_pieces)
    distributed.check_same(_fingerprint(p), "the prepared corpus (file, split or vocabularies)")
    run = replace(run, model=_sized(run.model, p))
    history, offset = _history(run, p, parent)
    with _SEEDING:  # runs in threads (the dashboard's live runs) share torch's generator
        torch.manual_seed(run.train.seed)
        model = Seq2Seq(run.model).to(dev)
    if run.train.output_bias == "unigram" and parent is None:  # a parent's bias is learned
        start_at_unigram(model, p.splits["train"], p.tgt_vocab)
    first_batch = make_batch(p.splits["train"][: run.train.batch_size], p.src_vocab, p.tgt_vocab)
    precision, chosen = choose_precision(run.train, model, first_batch.to(dev), dev, group.joined)
    run = replace(run, train=replace(run.train, precision=precision))
    settings = _settings(p, run, history.probes)
    card = {**_card(p, run, dev), "training_precision": chosen, "world_size": group.world_size}
    if parent:
        weights = lineage.starting_weights(parent, model, run.fresh_attention, p.subwords)
        model.load_state_dict(weights)
        card["lineage"] = lineage.lineage(parent, run.init_from)
        if run.add_pieces:  # how many pieces each side's model grew by
            card["vocab"]["added_pieces"] = {
                "source": len(p.src_vocab) - len(parent.src_vocab),
                "target": len(p.tgt_vocab) - len(parent.tgt_vocab),
            }
        settings["init_from"] = card["lineage"][-1]["sha256"]
    opt, first = optimizer(model, run.train.lr), 0
    if run.resume:
        state = state_path(Path(run.out))
        if not state.is_file():
            raise FileNotFoundError(f"{state}: no training state to resume from")
        first, history = load_state(state, model, opt, settings, dev)
        log(f"resuming after epoch {first} of {run.train.epochs}")
    loop = _Loop(run, p, model, opt, history, card, settings, group, progress, first, int(offset))
    if group.main and (not history.snapshots or history.snapshots[-1]["epoch"] < offset):
        loss, bleu = loop.snapshot(offset)
        if parent:
            log(f"starting from {run.init_from}: valid loss {loss:.4f}, valid BLEU {bleu}")
    return loop


def _quiet(*_) -> None:
    """The log of ranks other than 0."""


def _resolved(run: TrainingRun, parent: Translator | None) -> TrainingRun:
    """``run`` with a parent as it runs: the parent's architecture, text settings and
    vocabulary settings."""
    if parent is None:
        return run
    model, data = lineage.child_configs(parent, run.model, run.data)
    if run.add_pieces:  # the grown vocabularies decide the sizes
        model = replace(model, src_vocab=None, tgt_vocab=None)
    return replace(run, model=model, text=parent.text, data=data)


def _sized(model: ModelConfig, p: Prepared) -> ModelConfig:
    """``model`` with the vocabulary sizes of the prepared data (refused when it had others)."""
    sizes = {"src_vocab": len(p.src_vocab), "tgt_vocab": len(p.tgt_vocab)}
    for name, size in sizes.items():
        if getattr(model, name) not in (None, size):
            raise ValueError(f"{name} is {getattr(model, name)}, but the data gives {size}")
    return replace(model, **sizes)


def _history(run: TrainingRun, p: Prepared, parent: Translator | None) -> tuple[History, float]:
    """The history the run records, and the epoch it starts at: the parent's before its best
    epoch, or a new one. Its probes: the parent's, or held-out pairs chosen here, then
    ``run.probes``."""
    history, offset = lineage.continued_history(parent) if parent else (History(), 0.0)
    if not run.model.has_attention:
        return history, offset  # curves only: no attention to record on probes
    if not history.probes:
        history.probes = choose_probes(
            [(e.src, e.tgt) for e in p.splits["valid"]], run.train.probe_sentences
        )
    new = [q for q in run.probes if history.find(q) is None]
    if new and history.snapshots:  # each snapshot keeps the matrices of the same probes
        raise ValueError(
            f"--init-from {run.init_from}: the history goes on with the parent's probe "
            f"sentences, and {len(new)} of the probes given are not among them"
        )
    history.probes += new
    if not history.snapshots:  # a new history counts its probes' words as the run reads them
        history.probes = [p.counted(run.text) for p in history.probes]
    return history, offset


def _fingerprint(p: Prepared) -> str:
    """What every process must agree on: the corpus, its split and both vocabularies."""
    parts = [p.corpus.sha256, p.subwords.sha256() if p.subwords else "words"]
    parts += [f"{k}:{len(v)}" for k, v in p.splits.items()]
    parts += [*p.src_vocab.itos, "\t", *p.tgt_vocab.itos]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def _settings(p: Prepared, run: TrainingRun, probes: list[Probe]) -> dict:
    """What decides a run: everything but the number of epochs must match for --resume
    (which may extend a run)."""
    return {
        "model": asdict(run.model),
        "text": asdict(run.text),
        "data": asdict(run.data),
        "train": {k: v for k, v in asdict(run.train).items() if k != "epochs"},
        **({"guide": p.teacher.sha256} if p.teacher else {}),
        "data_sha256": p.corpus.sha256,
        "subwords_sha256": p.subwords.sha256() if p.subwords else None,
        "probes": [probe.to_json() for probe in probes],
        "half": run.storage == "fp16",
    }


def _card(p: Prepared, run: TrainingRun, dev: torch.device) -> dict:
    """The model card's start: what was trained on, how, on what."""
    return {
        **run.about,
        "corpus": {
            "file": Path(p.corpus.path).name,
            "sha256": p.corpus.sha256,
            "pairs": len(p.corpus.pairs),
            "skipped_lines": p.corpus.skipped,
            "source_column": run.data.source_column,
            # each pair's authors (tatoeba.org sentence numbers), kept in the corpus's column 3
            "attributed_lines": p.corpus.attributions,
            **run.about.get("corpus", {}),
        },
        "languages": {"source": run.text.src_lang, "target": run.text.tgt_lang},
        "split_pairs": {k: len(v) for k, v in p.splits.items()},
        "vocab": {
            "source": len(p.src_vocab),
            "target": len(p.tgt_vocab),
            "joint": bool(p.subwords and p.subwords.joint),
        },
        "train_config": asdict(run.train),
        **({"guide": p.teacher.card(run.train.guide_weight)} if p.teacher else {}),
        "hardware": hardware(dev),
    }


@dataclass(eq=False)
class _Loop:
    """One run's moving parts: what each epoch, snapshot and save needs."""

    run: TrainingRun  # as it runs: precision chosen, vocabulary sizes set
    p: Prepared
    model: Seq2Seq
    opt: torch.optim.Adam
    history: History
    card: dict  # the model card as it stands
    settings: dict  # what a resumed run must match (see _settings)
    group: distributed.Group
    progress: Callable[[History], bool] | None = None  # train()'s callback
    first: int = 0  # the first epoch this process trains: after the training state's, resumed
    offset: int = 0  # epochs before this run's first: the parent's, with --init-from
    stopped: bool = False  # the progress callback asked to stop

    def __post_init__(self):
        run, p = self.run, self.p
        self.config, self.dev = run.train, self.group.device(run.device)
        self.ddp = None
        if self.group.joined:
            loss = partial(
                batch_loss,
                label_smoothing=self.config.label_smoothing,
                precision=self.config.precision,
                guide_weight=self.config.guide_weight,
            )
            self.ddp = distributed.data_parallel(loss, self.model)
        self.valid_src, self.valid_refs = spread_sample(
            *group_references((e.src, e.tgt) for e in p.splits["valid"]),
            self.config.bleu_sentences,
        )
        self.valid = p.splits["valid"] or p.splits["train"][:1000]
        self.translator = Translator(
            self.model, p.src_vocab, p.tgt_vocab, run.text, subwords=p.subwords
        )

    def snapshot(self, epoch: float) -> tuple[float, float | None]:
        """Validation loss and BLEU now, recorded with the probes' attention."""
        loss = evaluate_loss(self.model, self.valid, self.p, self.dev)
        bleu = None
        if self.valid_src:
            bleu = corpus_bleu(self.translator, self.valid_src, self.valid_refs).score
        self.history.add(self.translator, epoch, loss, bleu)
        if self.progress is not None and self.progress(self.history):
            self.stopped = True
        self.model.train()
        return loss, bleu

    def epoch(self, epoch: int, log) -> bool:
        """Train epoch ``epoch`` (0-based) and record it; True if it is the best so far."""
        config, t0, main = self.config, time.perf_counter(), self.group.main
        distributed.seed_dropout(config.seed, epoch, self.group)
        batches = self.batches(epoch)
        points = {max(1, round(f * len(batches))): f for f in FIRST_EPOCH_POINTS}
        hooks = {i: (lambda f=f: self.snapshot(self.offset + f)) for i, f in points.items()}
        desc = f"epoch {epoch + 1}/{config.epochs}"
        updates = itertools.count()

        def step(chunk: list[Example]) -> tuple[float, int]:
            set_lr(self.opt, config.lr_at(epoch + next(updates) / len(batches)))
            return self.step(chunk)

        speed = _train_epoch(
            self.model, step, batches, desc, hooks if main and not epoch else {}, main
        )
        if not main:
            return False
        done = self.offset + epoch + 1  # epochs counted over the lineage
        loss, bleu = self.snapshot(done)
        curves = self.history.epochs
        curves["valid_loss"].append(round(loss, 4))
        curves["valid_bleu"].append(bleu)
        curves["epoch_seconds"].append(round(time.perf_counter() - t0, 1))
        log(f"epoch {done}: valid loss {loss:.4f}, valid BLEU {bleu}, {speed:.0f} tokens/s")
        best = self.history.best.get("best_loss")
        if not math.isfinite(loss) or (best is not None and loss >= best):
            return False
        self.history.best.update(best_loss=loss, best_epoch=done)
        self.card.update(epochs=done, best_epoch=done, train_seconds=self.seconds())
        return True

    def batches(self, epoch: int) -> list[list[Example]]:
        """Epoch ``epoch``'s batches, drawn from a function of the seed and the epoch alone:
        the training pairs, their swapped copies and joined pairs, bucketed by length."""
        config, run = self.config, self.run
        gen = torch.Generator().manual_seed(config.seed * 100_003 + epoch)
        train = self.p.splits["train"]
        rng = random.Random(config.seed * 100_003 + epoch)
        make = partial(training_examples, text=run.text, data=run.data, subwords=self.p.subwords)
        train = [*train, *swap_examples(train, config.swap_fraction, rng, make)]
        examples = join_examples(train, config.join_fraction, gen)
        return bucket_batches(examples, config.batch_size, gen)

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

    def seconds(self) -> float:
        """This run's training time (a parent's is in the card's lineage)."""
        return round(sum(self.history.epochs["epoch_seconds"][self.offset :]), 1)

    def save(self, weights: Seq2Seq) -> None:
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

    def finish(self, log) -> None:
        """Give the best file's card this run's settings, the whole curve, the test BLEU, scored
        at the precision that loading picks here by default (what `evaluate` does), and the
        test split's attention sinks, in fp32 (what `evaluate --sinks` does)."""
        out = self.run.out
        best = checkpoint.load(out, device=self.dev, precision="fp32")
        scorer = checkpoint.load(out, device=self.dev)
        self.card.update(
            epochs=self.offset + self.config.epochs,
            best_epoch=self.history.best["best_epoch"],
            train_seconds=self.seconds(),
        )
        test_src, test_refs = group_references((e.src, e.tgt) for e in self.p.splits["test"])
        if test_src:
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
            log("test BLEU: " + ", ".join(f"{k} {r.score}" for k, r in results.items()))
        if test_src and best.model.config.has_attention:
            sinks = corpus_sinks(best, test_src)  # the attention the dashboard shows: fp32
            self.card["attention_sinks"] = sinks.card("test")
            log(f"first token on <eos>: {sinks.first_eos}%, all steps {sinks.steps_eos}%")
        self.save(best.model)


def target_tokens(examples: list[Example]) -> int:
    """The target tokens a batch of ``examples`` scores (``Batch.n_tokens``: <eos> included)."""
    return sum(len(e.tgt_tokens) + 1 for e in examples)


def _train_epoch(model, step, batches, desc: str, hooks: dict, show: bool = True) -> float:
    """One pass over ``batches``, ``step(batch) -> (loss, tokens)`` on each; ``hooks[i]()`` runs
    before batch ``i`` (snapshots). ``show``: the progress bar. Returns the target tokens
    trained per second, hooks' time left out."""
    model.train()
    tokens, t0 = 0, time.perf_counter()
    bar = tqdm(batches, desc=desc, unit="batch", leave=False, mininterval=1.0, disable=not show)
    for i, chunk in enumerate(bar):
        if i in hooks:
            hooked = time.perf_counter()
            hooks[i]()
            t0 += time.perf_counter() - hooked
        loss, n = step(chunk)
        tokens += n
        bar.set_postfix(
            loss=f"{loss:.3f}",
            tok_s=f"{tokens / (time.perf_counter() - t0):.0f}",
            refresh=False,
        )
    return tokens / (time.perf_counter() - t0)
