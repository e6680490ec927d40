"""Everything a run does before its first epoch: the parent loaded, the corpus prepared (with
a guided run's links), the model built and seeded, the training precision chosen, the card and
the settings begun, and, with --resume, the training state read back."""

from __future__ import annotations

import hashlib
import platform
import threading
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import torch

from ..analysis.history import History, Probe, choose_probes
from ..data.corpus import make_batch
from ..data.prepare import Prepared, prepare, read
from ..decoding.translator import Translator
from ..model.build import build_model
from ..model.model_config import ModelConfig
from ..model.precision import Precision
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer
from ..store import checkpoint
from . import distributed, lineage
from .config import TrainingRun
from .guide import Teacher, teacher_links
from .output_bias import start_at_unigram
from .precision_choice import choose_precision
from .resume import load_state, state_path
from .update import optimizer

_SEEDING = threading.Lock()  # one run at a time seeds torch and draws its initial weights


@dataclass(eq=False)
class Start:
    """A run as its first epoch finds it."""

    run: TrainingRun  # as it runs: the parent's settings taken, sizes and precision set
    p: Prepared
    teacher: Teacher | None  # the links a guided run learns from, None for a natural one
    model: Seq2Seq | Transformer
    opt: torch.optim.Adam
    history: History
    card: dict  # the model card as it stands
    settings: dict  # what a resumed run must match (see _settings)
    first: int  # the first epoch this process trains: after the training state's, resumed
    offset: int  # epochs before this run's first: the parent's, with --init-from


def start(
    run: TrainingRun, group: distributed.Group, log, parent: Translator | None = None
) -> Start:
    """The run ``run`` describes, ready for its first epoch: the corpus read and split, the
    model built (with the parent's weights, or the training state's with ``run.resume``), the
    card begun. ``parent``: the ``run.init_from`` checkpoint, in fp32, where the caller has
    loaded it already (loaded here otherwise)."""
    dev = group.device(run.device)
    if run.init_from and parent is None:
        parent = checkpoint.load(run.init_from, precision=Precision.FP32)
    run = _resolved(run, parent)
    p, teacher = prepared(run, parent, log)
    distributed.check_same(_fingerprint(p), "the prepared corpus (file, split or vocabularies)")
    run = replace(run, model=_sized(_model(run), p))
    history, offset = _history(run, p, parent)
    model = _new_model(run, p, parent, dev)
    first_batch = make_batch(p.splits["train"][: run.train.batch_size], p.src_vocab, p.tgt_vocab)
    precision, chosen = choose_precision(run.train, model, first_batch.to(dev), dev, group.joined)
    run = replace(run, train=replace(run.train, precision=precision))
    settings = _settings(p, teacher, run, history.probes)
    card = {**_card(p, teacher, run, dev), "training_precision": chosen}
    card["world_size"] = group.world_size
    if parent:
        _inherit(run, p, parent, model, card, settings)
    opt, first = optimizer(model, run.train.lr), 0
    if run.resume:
        state = state_path(Path(run.out))
        if not state.is_file():
            raise FileNotFoundError(f"{state}: no training state to resume from")
        first, history = load_state(state, model, opt, settings, dev)
        log(f"resuming after epoch {first} of {run.train.epochs}")
    return Start(run, p, teacher, model, opt, history, card, settings, first, int(offset))


def prepared(
    run: TrainingRun, parent: Translator | None, log=print
) -> tuple[Prepared, Teacher | None]:
    """The run's corpus prepared (see :func:`attnviz.data.prepare.prepare`), with its
    teacher's links where the run is guided ("eflomal" or a links file, see :mod:`.guide`;
    eflomal's cached beside ``run.out``)."""
    corpus = read(run.corpus, run.data, log)
    teacher = teacher_links(corpus, run.text, run.guide, run.out, log) if run.guide else None
    links = teacher.links if teacher else None
    p = prepare(corpus, run.text, run.data, log, parent, run.add_pieces, links)
    return p, teacher


def _new_model(
    run: TrainingRun, p: Prepared, parent: Translator | None, dev: torch.device
) -> Seq2Seq | Transformer:
    """The model drawn from the run's seed, its output bias at the targets' unigram
    distribution where the run asks (a parent's bias is learned)."""
    with _SEEDING:  # runs in threads (the dashboard's live runs) share torch's generator
        torch.manual_seed(run.train.seed)
        model = build_model(_model(run)).to(dev)
    if run.train.output_bias == "unigram" and parent is None:
        start_at_unigram(model, p.splits["train"], p.tgt_vocab)
    return model


def _inherit(
    run: TrainingRun,
    p: Prepared,
    parent: Translator,
    model: Seq2Seq | Transformer,
    card: dict,
    settings: dict,
) -> None:
    """The parent's weights into ``model``, its lineage into the card and the settings."""
    model.load_state_dict(lineage.starting_weights(parent, model, run.fresh_attention, p.subwords))
    if run.init_from is None:
        raise ValueError("a parent is the checkpoint that init_from names")
    card["lineage"] = lineage.lineage(parent, run.init_from)
    if run.add_pieces:  # how many pieces each side's model grew by
        card["vocab"]["added_pieces"] = {
            "source": len(p.src_vocab) - len(parent.src_vocab),
            "target": len(p.tgt_vocab) - len(parent.tgt_vocab),
        }
    settings["init_from"] = card["lineage"][-1]["sha256"]


def _resolved(run: TrainingRun, parent: Translator | None) -> TrainingRun:
    """``run`` with a parent as it runs: the parent's architecture, text settings and
    vocabulary settings."""
    if parent is None:
        return run
    model, data = lineage.child_configs(parent, run.model, run.data)
    if run.add_pieces:  # the grown vocabularies decide the sizes
        model = replace(model, src_vocab=None, tgt_vocab=None)
    return replace(run, model=model, text=parent.text, data=data)


def _model(run: TrainingRun) -> ModelConfig:
    """The run's model configuration: its own, or the parent's (:func:`_resolved`)."""
    if run.model is None:
        raise ValueError("a run needs a model configuration, unless init_from gives it")
    return run.model


def _sized(model: ModelConfig, p: Prepared) -> ModelConfig:
    """``model`` with the vocabulary sizes of the prepared data (refused when it had others)."""
    sizes = {"src_vocab": len(p.src_vocab), "tgt_vocab": len(p.tgt_vocab)}
    for name, size in sizes.items():
        if getattr(model, name) not in (None, size):
            raise ValueError(f"{name} is {getattr(model, name)}, but the data gives {size}")
    return replace(model, src_vocab=sizes["src_vocab"], tgt_vocab=sizes["tgt_vocab"])


def _history(run: TrainingRun, p: Prepared, parent: Translator | None) -> tuple[History, float]:
    """The history the run records, and the epoch it starts at: the parent's before its best
    epoch, or a new one. Its probes: the parent's, or held-out pairs chosen here, then
    ``run.probes``."""
    history, offset = lineage.continued_history(parent) if parent else (History(), 0.0)
    if not _model(run).has_attention:
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


def _settings(p: Prepared, teacher: Teacher | None, run: TrainingRun, probes: list[Probe]) -> dict:
    """What decides a run: everything but the number of epochs must match for --resume
    (which may extend a run)."""
    return {
        "model": asdict(_model(run)),
        "text": asdict(run.text),
        "data": asdict(run.data),
        "train": {k: v for k, v in asdict(run.train).items() if k != "epochs"},
        **({"guide": teacher.sha256} if teacher else {}),
        "data_sha256": p.corpus.sha256,
        "subwords_sha256": p.subwords.sha256() if p.subwords else None,
        "probes": [probe.to_json() for probe in probes],
        "half": run.storage == "fp16",
    }


def _card(p: Prepared, teacher: Teacher | None, run: TrainingRun, dev: torch.device) -> dict:
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
        **({"guide": teacher.card(run.train.guide_weight)} if teacher else {}),
        "hardware": hardware(dev),
    }


def hardware(device: torch.device) -> str:
    """The processor or card a run trains on, as the card names it."""
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {torch.get_num_threads()} threads"
