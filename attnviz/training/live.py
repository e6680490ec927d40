"""A tiny model trained live on a toy language, off the caller's thread.

:func:`toy_run` describes the training run of a small word-level model on a
:mod:`attnviz.data.toy` corpus, with a few held-out probe sentences whose gold alignment is
known, so that every snapshot of the training history has an AER; :func:`train_toy` runs it.
:class:`Runs` starts such runs in worker threads, at most one per owner (a dashboard session)
and ``cap`` at a time, and lets the owner read their progress and stop them.

Runs set torch to one intra-op thread for the whole process. A tiny model gains nothing from
more, and threads that spin waiting for work slow everything down when the cores are shared,
with other runs or other programs.
Runs share torch's global random generator; ``train`` seeds it and draws the initial weights
under a lock, so a run begins from the same weights whether another runs beside it or not.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from ..analysis.aer import Gold
from ..analysis.history import History, Probe
from ..data import toy
from ..data.corpus import DataConfig, split_of, spread_sample
from ..i18n import gettext as _
from ..model.attention import SCORES
from ..model.model_config import ModelConfig
from ..model.precision import Precision
from .config import TrainConfig, TrainingRun
from .train import train

DATA = DataConfig(min_freq=1, valid_percent=5.0, test_percent=0.0, subwords=0)
PROBES = 6  # held-out sentences of the toy language whose attention is recorded


@dataclass(frozen=True)
class ToySettings:
    """What a live run trains: the toy language, the model and the schedule."""

    language: str = "reversed"  # a name in attnviz.data.toy.GRAMMARS
    attention: str = "bahdanau"  # a name in attnviz.model.attention.SCORES
    sentences: int = 1500  # pairs generated (5% of them held out for validation)
    epochs: int = 8  # passes over the training pairs
    hidden: int = 64  # GRU units (the embeddings are half as wide)
    lr: float = 0.005  # Adam learning rate
    batch_size: int = 32  # sentence pairs per step
    seed: int = 0  # seeds the corpus, the weights and the batch order

    def __post_init__(self):
        if self.language not in toy.GRAMMARS:
            raise ValueError(f"language must be one of {sorted(toy.GRAMMARS)}")
        if self.attention not in SCORES:
            raise ValueError(f"attention must be one of {SCORES}")
        if not 100 <= self.sentences <= 20_000:
            raise ValueError(f"sentences must be in [100, 20000], got {self.sentences}")
        if not 1 <= self.epochs <= 50 or not 8 <= self.hidden <= 256:
            raise ValueError("need 1 <= epochs <= 50 and 8 <= hidden <= 256")

    @property
    def name(self) -> str:
        """What the dashboard calls the trained model."""
        return f"toy {self.language} · {self.attention}"


def toy_probes(pairs: list[toy.Pair], n: int = PROBES) -> list[Probe]:
    """``n`` validation-split pairs spread over lengths, with their gold links."""
    held = sorted(
        (p for p in pairs if split_of(p[0], DATA.valid_percent, DATA.test_percent) == "valid"),
        key=lambda p: (len(p[0].split()), p[0]),
    )
    picked, _ = spread_sample(held, [None] * len(held), n)
    return [Probe(s, t, Gold(set(links), set(links))) for s, t, links in picked]


def toy_run(settings: ToySettings, out: str | Path) -> TrainingRun:
    """The training run of ``settings`` into the checkpoint ``out``; writes its toy corpus
    beside it."""
    s = settings
    pairs = toy.corpus(s.sentences, s.seed, s.language)
    corpus = Path(out).with_suffix(".txt")
    toy.write_plain(corpus, pairs)
    config = TrainConfig(
        epochs=s.epochs,
        batch_size=s.batch_size,
        lr=s.lr,
        seed=s.seed,
        bleu_sentences=50,
        test_beam=1,
        precision=Precision.FP32,
        join_fraction=0.0,
        probe_sentences=0,  # only the toy probes, which have gold links
    )
    return TrainingRun(
        corpus,
        out,
        ModelConfig(attention=s.attention, embed=s.hidden // 2, hidden=s.hidden, dropout=0.0),
        data=DATA,
        train=config,
        probes=tuple(toy_probes(pairs)),
        about={"corpus": {"toy language": toy.DESCRIPTIONS[s.language]}},
    )


def train_toy(
    settings: ToySettings, out: str | Path, progress: Callable[[History], bool] | None = None
) -> dict:
    """Train ``settings`` into the checkpoint ``out``; returns its card. ``progress`` is
    called with the history after each snapshot; True from it stops after that epoch."""
    return train(toy_run(settings, out), log=lambda *_: None, progress=progress)


@dataclass
class Run:
    """One live run, as its owner reads it; ``history`` is a copy taken at the last snapshot."""

    settings: ToySettings
    folder: Path
    started: float = field(default_factory=time.monotonic)
    history: History | None = None
    card: dict | None = None  # set when the run has ended well
    error: str | None = None  # set when it failed
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def checkpoint(self) -> Path:
        return self.folder / f"toy-{self.settings.language}-{self.settings.attention}.safetensors"

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    @property
    def fraction(self) -> float:
        """How far through its epochs the run is, 0 to 1."""
        if self.card is not None:
            return 1.0
        if self.history is None or not self.history.snapshots:
            return 0.0
        return min(1.0, self.history.snapshots[-1].epoch / self.settings.epochs)

    def _progress(self, history: History) -> bool:
        self.history = History(history.to_json(), history.tensors())  # a copy the owner may read
        return self.stop.is_set()

    def _work(self) -> None:
        try:
            self.card = train_toy(self.settings, self.checkpoint, self._progress)
        except Exception as e:  # a worker thread: its owner reads what went wrong
            self.error = f"{type(e).__name__}: {e}"


class RunRefused(Exception):
    """A run could not start now: the owner has one running, or too many are running."""


class Runs:
    """The live runs of a process: one per owner, at most ``cap`` running at once."""

    def __init__(self, cap: int = 2, threads: int = 1):
        self.cap, self.threads, self._lock = cap, threads, threading.Lock()
        self._runs: dict[str, Run] = {}  # owner -> their run

    def start(self, owner: str, settings: ToySettings) -> Run:
        """Start ``owner``'s run of ``settings`` (replacing their finished one), or raise
        :class:`RunRefused` saying why not."""
        with self._lock:
            mine = self._runs.get(owner)
            if mine is not None and mine.running:
                raise RunRefused(_("Your model is still training: stop it or wait for it."))
            busy = sum(run.running for run in self._runs.values())
            if busy >= self.cap:
                raise RunRefused(
                    _(
                        "{busy} models are training for other visitors (at most {cap} at once); "
                        "try again in half a minute."
                    ).format(busy=busy, cap=self.cap)
                )
            torch.set_num_threads(self.threads)
            run = Run(settings, Path(tempfile.mkdtemp(prefix="attnviz-toy-")))
            run.thread = threading.Thread(target=run._work, name=f"toy-{owner}", daemon=True)
            self._runs[owner] = run
            run.thread.start()
        if mine is not None:
            shutil.rmtree(mine.folder, ignore_errors=True)
        return run

    def get(self, owner: str) -> Run | None:
        """``owner``'s latest run, running or ended."""
        return self._runs.get(owner)

    def running(self) -> int:
        return sum(run.running for run in self._runs.values())
