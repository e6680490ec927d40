"""The step indexes the server builds on first use: the first time a model's nearest training
steps are asked for and no step index of its weights lies beside it, one build of it runs in
the background, shared by every session that asks meanwhile, and written beside the
checkpoint for every later run (as ``attnviz steps CHECKPOINT`` writes it)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from attnviz.i18n import N_, Text
from attnviz.model.precision import Precision
from attnviz.store.catalog import Checkpoint
from attnviz.store.checkpoint import load, weights_digest
from attnviz.store.corpus_index import CARD_KEY
from attnviz.store.step_index import StepIndex, step_index_path
from attnviz.store.step_index_builder import PAIRS, build_step_index

from .corpus import corpus_index_path


@dataclass
class StepBuild:
    """One build of a model's step index, as the pages read it."""

    checkpoint: Checkpoint
    done: int = 0  # pairs force-decoded so far
    total: int = 0  # pairs to force-decode: PAIRS, the most, until the sample is drawn
    error: Exception | None = None  # set when it failed: shown with the command that builds it
    thread: threading.Thread | None = None
    started: float = field(default_factory=time.monotonic)

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0

    def seconds_left(self) -> float | None:
        """The time the build still needs at its pace so far; None before its first pairs."""
        if not self.done:
            return None
        return (time.monotonic() - self.started) * (self.total - self.done) / self.done

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def _work(self) -> None:
        try:
            index = corpus_index_path(self.checkpoint)
            if index is None:
                raise ValueError(Text(N_("{name}'s card names no corpus index"),
                                      name=self.checkpoint.name))  # fmt: skip
            # its own copy of the model, in the precision the page draws attention in: the
            # pages' shared translator decodes meanwhile
            translator = load(self.checkpoint.path, precision=Precision.FP32)
            out = step_index_path(self.checkpoint.path)
            build_step_index(self.checkpoint.path, translator, index, out, progress=self._progress)
            named = (translator.card.get(CARD_KEY) or {}).get("sha256")
            refusal = StepIndex(out).refusal(weights_digest(self.checkpoint.path), named)
            if refusal is not None:  # the card names another version of the corpus index
                raise ValueError(refusal)
        except Exception as e:  # a worker thread: the pages read what went wrong
            self.error = e


@dataclass
class _Builds:
    """The builds of a process: at most one running per checkpoint file."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    builds: dict[str, StepBuild] = field(default_factory=dict)  # checkpoint path -> its build

    def start(self, checkpoint: Checkpoint) -> StepBuild:
        with self.lock:
            build = self.builds.get(checkpoint.path)
            if build is not None and (build.running or build.error is not None):
                return build  # a failed build is not retried on every rerun: restart the server
            build = StepBuild(checkpoint, total=PAIRS)
            build.thread = threading.Thread(
                target=build._work, name=f"steps {checkpoint.name}", daemon=True
            )
            self.builds[checkpoint.path] = build
            build.thread.start()
            return build


_BUILDS = _Builds()


def step_build(checkpoint: Checkpoint) -> StepBuild:
    """The build of ``checkpoint``'s step index: the one running, the one that failed, or a
    new one started now (when the last ended well, its file was since found wanting)."""
    return _BUILDS.start(checkpoint)
