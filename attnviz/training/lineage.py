"""Continuing from a checkpoint (``train --init-from``): what the new run takes from its parent,
what it may change, and the lineage its card records.

The new run keeps the parent's architecture, text settings, vocabularies and sentencepiece
models, and starts from its weights; it brings its own corpus (or the same one), split,
dropout and schedule, with a fresh optimizer. Its training history goes on from the parent's,
so the Training page shows one timeline: epochs are counted on from the parent's best epoch,
the one whose weights the new run starts from.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields, replace
from pathlib import Path

from ..analysis.history import History
from ..data.corpus import DataConfig
from ..decoding.translator import Translator
from ..model.networks import ModelConfig

# What may differ from the parent: dropout is a training setting, not a weight's shape.
CHANGEABLE = {"dropout"}
# DataConfig's fields that make the vocabularies.
VOCABULARY = ("min_freq", "max_vocab", "subwords", "subword_model", "joint_subwords")


def inherited_values(parent: Translator) -> dict[str, object]:
    """The settings the new run inherits, by option name (as the command line's dests)."""
    model = {
        f.name: getattr(parent.model.config, f.name)
        for f in fields(ModelConfig)
        if f.name not in ("src_vocab", "tgt_vocab", *CHANGEABLE)
    }
    data = parent.data or DataConfig(subwords=0)
    return {
        **model,
        "lowercase": parent.text.lowercase,
        **{name: getattr(data, name) for name in VOCABULARY},
    }


def check_options(parent: Translator, given: dict[str, object], parent_path: str | Path) -> None:
    """Refuse options typed on the command line that contradict the parent (ValueError naming
    each); options that repeat the parent's values are fine."""
    own = inherited_values(parent)
    wrong = [
        f"{name} {given[name]!r} (the checkpoint has {own[name]!r})"
        for name in own
        if name in given and given[name] != own[name]
    ]
    if wrong:
        raise ValueError(
            f"--init-from {parent_path} continues that model's architecture, text settings and "
            f"vocabularies; these options contradict it: {'; '.join(wrong)}. Drop them (only "
            f"--{', --'.join(sorted(CHANGEABLE))} may change)"
        )


def child_configs(
    parent: Translator, model: ModelConfig | None, data: DataConfig
) -> tuple[ModelConfig, DataConfig]:
    """The new run's model configuration (the parent's, or ``model`` where it differs from
    the parent's in :data:`CHANGEABLE` fields alone; vocabulary sizes left None are the
    parent's) and data configuration (its own split, the parent's vocabulary settings)."""
    config = parent.model.config
    if model is not None:
        sizes = {"src_vocab": config.src_vocab, "tgt_vocab": config.tgt_vocab}
        model = replace(model, **{k: v for k, v in sizes.items() if getattr(model, k) is None})
        wrong = sorted(
            f.name
            for f in fields(ModelConfig)
            if f.name not in CHANGEABLE and getattr(model, f.name) != getattr(config, f.name)
        )
        if wrong:
            raise ValueError(f"--init-from keeps the parent's architecture; cannot change {wrong}")
        config = model
    own = parent.data or DataConfig(subwords=0)
    return config, replace(data, **{name: getattr(own, name) for name in VOCABULARY})


def file_sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def lineage(parent: Translator, parent_path: str | Path) -> list[dict]:
    """The card's lineage: the parent's own lineage, then the parent (file, sha256, command,
    epochs, test BLEU), oldest first."""
    card = parent.card
    entry = {
        "file": Path(parent_path).name,
        "sha256": file_sha256(parent_path),
        "command": card.get("command"),
        "epochs": card.get("best_epoch", card.get("epochs")),
        "corpus_sha256": card.get("corpus", {}).get("sha256"),
        "test_bleu": {k: v for k, v in card.get("test_bleu", {}).items() if k.startswith("beam")},
        "train_seconds": card.get("train_seconds"),
    }
    return [*card.get("lineage", []), entry]


def continued_history(parent: Translator) -> tuple[History, float]:
    """The parent's history before the weights the new run starts from (its best epoch), which
    the new run measures anew on its own validation data, and that epoch: the new run's epochs
    are counted on from it. No best epoch yet: the new run keeps the best of its own."""
    old = parent.history or History()
    start = float(old.best.get("best_epoch") or parent.card.get("best_epoch") or 0)
    history = History()
    history.probes = list(old.probes)
    kept = [k for k, s in enumerate(old.snapshots) if s["epoch"] < start]  # start: measured anew
    history.snapshots = [old.snapshots[k] for k in kept]
    history.attention = [old.attention[k] for k in kept]
    done = int(start)  # the curves run per epoch: a parent without them leaves gaps (None)
    history.epochs = {
        name: [*values[:done], *[None] * (done - len(values[:done]))]
        for name, values in old.epochs.items()
    }
    return history, start
