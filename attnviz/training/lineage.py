"""Continuing from a checkpoint (``train --init-from``): what the new run takes from its parent,
what it may change, and the lineage its card records.

The new run keeps the parent's architecture (but for untying what it tied, and Bahdanau's
bridge: :func:`parent_weights`), text settings, vocabularies and sentencepiece models (or
grows them, ``--add-pieces``: :func:`with_rows`), and starts from its weights; it brings its
own corpus (or the same one), split, dropout and schedule, with a fresh optimizer. Its training
history goes on from the parent's, so the Training page shows one timeline: epochs are counted
on from the parent's best epoch, the one whose weights the new run starts from.
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import torch

from ..analysis.history import History
from ..data.corpus import DataConfig
from ..data.subwords import WORD_START, Pieces, Subwords
from ..data.vocab import SPECIALS
from ..decoding.translator import Translator
from ..model.model_config import ModelConfig
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer
from ..store.checkpoint import file_sha256

# What may differ from the parent: dropout is a training setting, not a weight's shape.
CHANGEABLE = {"dropout"}
# A tied model may be untied (--no-tie-embeddings, --no-tie-output): each matrix the parent
# shared starts as a copy of it, and an untied output layer as the tied one's product. A bridge
# from both ends may become Bahdanau's from the backward direction (--bridge backward), which
# keeps the backward half of its weights.
TIES = ("tie_embeddings", "tie_output", "untied_specials")
ATTENTION = "decoder.attention."  # the weights of the attention's score (Seq2Seq's names)
# Weights with a row per piece: the embeddings and the output layer, by Seq2Seq's names and
# the Transformer's (whose embeddings sit inside its Embedding module, beside the positions).
VOCABULARY_ROWS = (
    "encoder.embed.", "decoder.embed.", "decoder.generator.",
    "encoder.embedding.embed.", "decoder.embedding.embed.",
)  # fmt: skip
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
        if name in given and given[name] != own[name] and not _may_change(parent, name, given[name])
    ]
    if wrong:
        raise ValueError(
            f"--init-from {parent_path} continues that model's architecture, text settings and "
            f"vocabularies; these options contradict it: {'; '.join(wrong)}. Drop them (only "
            f"--{', --'.join(sorted(CHANGEABLE))} may change; a tied model may be untied, and "
            "--bridge become backward)"
        )


def _may_change(parent: Translator, name: str, value: object) -> bool:
    """Whether setting ``name`` to ``value`` unties what the parent ties, or turns its bridge
    into Bahdanau's."""
    config = parent.model.config
    if name == "bridge":
        return value == "backward" and config.bidirectional
    return name in TIES and value is False and (config.tie_embeddings or config.tie_output)


def starting_weights(
    parent: Translator,
    model: Seq2Seq | Transformer,
    fresh_attention: bool,
    subwords: Subwords | None = None,
) -> dict:
    """What a child ``model`` starts from: the parent's weights (:func:`parent_weights`), with
    a row for each piece ``subwords`` (the parent's grown, ``--add-pieces``) added
    (:func:`grown_rows`), and with ``fresh_attention`` its own new weights for the attention's
    score, so that where the attention looks is learned again while the rest is kept."""
    weights = parent_weights(parent, model.config)
    old = parent.subwords
    if subwords is not None and old is not None and subwords is not old:
        weights = with_rows(weights, old, subwords)
    if not fresh_attention:
        return weights
    own = model.state_dict()
    return {k: own[k] if k.startswith(ATTENTION) else v for k, v in weights.items()}


def parent_weights(parent: Translator, config: ModelConfig) -> dict:
    """The parent's weights as a model of ``config`` takes them. Where ``config`` unties what
    the parent tied, the model starts as the same function: each embedding a copy of the
    shared matrix E, and the output layer, E (P f) + b, as one Linear of weight E P."""
    state = parent.model.state_dict()
    old = parent.model.config
    if old.tie_embeddings and not config.tie_embeddings:
        shared = state["encoder.embed.weight"]
        state["decoder.embed.weight"] = shared.clone()
        if "encoder.specials.weight" in state:  # the source's own special rows, kept
            state["encoder.embed.weight"] = source = shared.clone()
            source[: len(SPECIALS)] = state.pop("encoder.specials.weight")
    if (old.tie_embeddings or old.tie_output) and not (config.tie_embeddings or config.tie_output):
        target = state["decoder.embed.weight"]
        proj = state.pop("decoder.generator.proj.weight", None)  # none where H = embed
        state["decoder.generator.weight"] = target.clone() if proj is None else target @ proj
    if old.bridge != config.bridge:  # the backward half of [forward end; backward end]
        state["encoder.bridge.weight"] = state["encoder.bridge.weight"][:, config.hidden // 2 :]
    return state


def with_rows(state: dict, old: Subwords, new: Subwords) -> dict:
    """``state`` with the rows of its embeddings and output layer grown from ``old``'s pieces
    to ``new``'s (see :func:`grown_rows`)."""
    grown = dict(state)
    for name, rows in state.items():
        side = "src" if name.startswith("encoder.") else "tgt"
        if not (name.startswith(VOCABULARY_ROWS) and rows.size(0) == len(old.side(side).vocab)):
            continue
        embedding = not name.startswith("decoder.generator")
        grown[name] = grown_rows(rows, old.side(side), new.side(side), twin=embedding)
    return grown


def grown_rows(rows: torch.Tensor, old: Pieces, new: Pieces, twin: bool) -> torch.Tensor:
    """``rows`` (one per piece of ``old``) with one more for each piece ``new`` adds: the mean
    of the rows of the pieces ``old`` splits it into, or with ``twin``, where ``old`` has the
    new piece in lower case as one piece, that piece's row (an embedding: "▁Really" starts
    reading as "▁really" does)."""
    extra = []
    for piece in new.vocab.itos[len(old.vocab) :]:
        lower = old.vocab.stoi.get(piece.lower()) if twin else None
        if lower is None:
            ids = old.sp.encode(piece.replace(WORD_START, " ").strip())
            extra.append(rows[ids].mean(0))
        else:
            extra.append(rows[lower])
    return torch.cat([rows, torch.stack(extra)]) if extra else rows


def child_configs(
    parent: Translator, model: ModelConfig | None, data: DataConfig
) -> tuple[ModelConfig, DataConfig]:
    """The new run's model configuration (the parent's, or ``model`` where it differs from
    the parent's in :data:`CHANGEABLE` fields, or unties what it tied, or takes Bahdanau's
    bridge; vocabulary sizes left None are the parent's) and data configuration (its own
    split, the parent's vocabulary settings)."""
    config = parent.model.config
    if model is not None:
        model = replace(
            model,
            src_vocab=config.src_vocab if model.src_vocab is None else model.src_vocab,
            tgt_vocab=config.tgt_vocab if model.tgt_vocab is None else model.tgt_vocab,
        )
        wrong = sorted(
            f.name
            for f in fields(ModelConfig)
            if f.name not in CHANGEABLE
            and getattr(model, f.name) != getattr(config, f.name)
            and not _may_change(parent, f.name, getattr(model, f.name))
        )
        if wrong:
            raise ValueError(f"--init-from keeps the parent's architecture; cannot change {wrong}")
        config = model
    own = parent.data or DataConfig(subwords=0)
    return config, replace(data, **{name: getattr(own, name) for name in VOCABULARY})


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
    kept = [k for k, s in enumerate(old.snapshots) if s.epoch < start]  # start: measured anew
    history.snapshots = [old.snapshots[k] for k in kept]
    history.attention = [old.attention[k] for k in kept]
    done = int(start)  # the curves run per epoch: a parent without them leaves gaps (None)
    history.epochs = {
        name: [*values[:done], *[None] * (done - len(values[:done]))]
        for name, values in old.epochs.items()
    }
    return history, start
