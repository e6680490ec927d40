"""Checkpoints: one safetensors file per model, configuration and model card in its metadata.

Loading never unpickles: safetensors holds raw tensors and a JSON header, nothing executable.
Writes go to a temporary file that is renamed into place, so a crash leaves the old file whole.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any, NamedTuple

import torch
from safetensors import safe_open
from safetensors.torch import save as safetensors_bytes
from torch.overrides import TorchFunctionMode

from ..analysis.history import TENSOR_PREFIX, History
from ..data.corpus import DataConfig
from ..data.subwords import Subwords
from ..data.text import TextConfig
from ..data.vocab import Vocab
from ..decoding.translator import Translator
from ..files import atomic_write
from ..i18n import N_, Text
from ..model.build import build_model
from ..model.interface import DecodingModel
from ..model.low_precision import for_decoding
from ..model.model_config import ModelConfig
from ..model.precision import Precision
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer
from ..tuning.decoding_precision import resolve_decoding

FORMAT = "attnviz-checkpoint/1"
SUBWORDS = "subwords."  # name prefix of the sentencepiece models' byte tensors
EXTRA = (SUBWORDS, TENSOR_PREFIX)  # tensors of a checkpoint that are not weights
LIMITS = {  # the largest model a checkpoint may describe: refused before anything is built
    "src_vocab": 1_000_000,
    "tgt_vocab": 1_000_000,
    "embed": 8192,
    "hidden": 8192,
    "attn_dim": 8192,
    "layers": 16,
}


class CheckpointError(Exception):
    """A checkpoint that cannot be used; the message (an :class:`attnviz.i18n.Text`, English
    as ``str()``) names the file and the problem."""


INVALID = N_("{path}: missing or invalid configuration ({error})")


def file_sha256(path: str | Path) -> str:
    """sha256 of a file's bytes: what a continued run's lineage names its parent by."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tensors_digest(tensors: dict[str, torch.Tensor]) -> str:
    """sha256 over the names and bytes of ``tensors``: catches corruption safetensors cannot."""
    h = hashlib.sha256()
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous().cpu()
        h.update(name.encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    return h.hexdigest()


def write_tensors(
    path: str | Path, tensors: dict[str, torch.Tensor], meta: Mapping[str, object]
) -> None:
    """Save ``tensors`` with ``meta`` (JSON-encoded values) and a digest, atomically."""
    tensors = {k: v.detach().contiguous().cpu() for k, v in tensors.items()}
    header = {"format": FORMAT, "digest": tensors_digest(tensors)}
    header.update({k: json.dumps(v, ensure_ascii=False) for k, v in meta.items()})
    atomic_write(path, safetensors_bytes(tensors, metadata=header))


def _unreadable(path, error: Exception) -> CheckpointError:
    """The error of a file that safetensors cannot read (it raises several types for truncated
    or garbled files)."""
    return CheckpointError(
        Text(
            N_("{path}: not a readable safetensors file (truncated or corrupt?): {error}"),
            path=path,
            error=error,
        )
    )


def read_tensors(
    path: str | Path, check: Callable[[dict, dict], None] | None = None
) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """Tensors and decoded metadata of an attnviz file; :class:`CheckpointError` if unusable.

    The format tag and the metadata are checked before any tensor is read, and so is
    ``check(meta, shapes)`` (``shapes``: each tensor's shape from the header), which raises
    ValueError, KeyError or TypeError for a file the caller cannot use."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(Text(N_("{path}: no such checkpoint file"), path=path))
    with open(path, "rb") as f:
        head = f.read(9)
    # A zip (torch.save) or a pickle; a safetensors file starts with its header's length, which
    # can read so too (19,280 bytes is "PK"), but then its JSON header follows.
    pickled = head[:2] in (b"PK", b"\x80\x02", b"\x80\x03", b"\x80\x04", b"\x80\x05")
    if pickled and head[8:9] != b"{":
        raise CheckpointError(
            Text(
                N_(
                    "{path}: this is a pickle/PyTorch file, not safetensors; attnviz never "
                    "unpickles (it could run code), so it only loads .safetensors checkpoints"
                ),
                path=path,
            )
        )
    try:
        with safe_open(str(path), framework="pt") as f:
            header = f.metadata() or {}
            meta = _metadata(path, header)
            names = list(f.keys())
            if check is not None:
                shapes = {name: tuple(f.get_slice(name).get_shape()) for name in names}
                try:
                    check(meta, shapes)
                except (KeyError, TypeError, ValueError) as e:
                    raise CheckpointError(Text(INVALID, path=path, error=e)) from e
            tensors = {name: f.get_tensor(name) for name in names}
    except CheckpointError:
        raise
    except Exception as e:  # safetensors raises several types for truncated or garbled files
        raise _unreadable(path, e) from e
    if tensors_digest(tensors) != header.get("digest"):
        raise CheckpointError(
            Text(
                N_("{path}: the weights do not match their checksum; the file is corrupt"),
                path=path,
            )
        )
    return tensors, meta


def _metadata(path: Path, header: dict[str, str]) -> dict[str, Any]:
    """The decoded metadata of an attnviz file, once its format tag is checked."""
    if header.get("format") != FORMAT:
        found = header.get("format", "no attnviz format tag")
        raise CheckpointError(
            Text(
                N_("{path}: not an attnviz checkpoint (expected {expected}, found {found})"),
                path=path,
                expected=FORMAT,
                found=found,
            )
        )
    try:
        return {k: json.loads(v) for k, v in header.items() if k not in ("format", "digest")}
    except (json.JSONDecodeError, RecursionError) as e:  # RecursionError: absurdly deep JSON
        raise CheckpointError(
            Text(N_("{path}: corrupt metadata ({error})"), path=path, error=type(e).__name__)
        ) from e


def read_settings(path: str | Path) -> tuple[dict, TextConfig, DataConfig]:
    """A checkpoint's card and text and data configuration, read from its header alone (no
    weight is read or checked): what a command that only needs to know how a model reads
    and splits its corpus takes. :class:`CheckpointError` if the file is not one."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(Text(N_("{path}: no such checkpoint file"), path=path))
    try:
        with safe_open(str(path), framework="pt") as f:
            header = f.metadata() or {}
    except Exception as e:  # safetensors raises several types for garbled files
        raise _unreadable(path, e) from e
    meta = _metadata(path, header)
    try:
        text = TextConfig(**meta["text_config"])
        data = DataConfig(**{"subwords": 0, **meta["data_config"]})
        return dict(meta.get("card", {})), text, data
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(Text(INVALID, path=path, error=e)) from e


def weights_digest(path: str | Path) -> str:
    """The digest of a checkpoint's weights, from its header alone: what stays the same when
    only its card changes (:func:`write_card`)."""
    try:
        with safe_open(str(path), framework="pt") as f:
            return (f.metadata() or {}).get("digest", "")
    except Exception as e:  # safetensors raises several types for garbled files
        raise CheckpointError(
            Text(N_("{path}: not a readable safetensors file (truncated or corrupt?): {error}"),
                 path=path, error=e)
        ) from e  # fmt: skip


def write_card(path: str | Path, card: dict) -> None:
    """Replace a checkpoint's card, the weights copied as they are (their digest checked on
    the way): the file's sha256 changes, its translations do not."""
    tensors, meta = read_tensors(path)
    write_tensors(path, tensors, {**meta, "card": card})


class _NoRandomFill(TorchFunctionMode):
    """Skips filling meta tensors with random values: they hold none, and the first ``normal_``
    on one imports torch's compiler (0.8–1.1 s of every process that loads a checkpoint)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in (torch.nn.init.normal_, torch.Tensor.normal_):
            tensor = args[0] if args else kwargs["tensor"]
            if tensor.is_meta:
                return tensor
        return func(*args, **kwargs)


def check_model(meta: dict, shapes: dict[str, tuple]) -> None:
    """Refuse a model whose configuration is over :data:`LIMITS`, or whose weights in the file
    do not have the shapes it needs, before any of it is built (a meta-device model costs no
    memory)."""
    config = ModelConfig(**meta["model_config"])
    for name, limit in LIMITS.items():
        if getattr(config, name) > limit:
            raise ValueError(f"{name} {getattr(config, name)} is over the limit of {limit}")
    with torch.device("meta"), _NoRandomFill():
        needed = {k: tuple(v.shape) for k, v in build_model(config).state_dict().items()}
    found = {k: v for k, v in shapes.items() if k in needed or not k.startswith(EXTRA)}
    if found != needed:
        wrong = sorted(set(needed.items()) ^ set(found.items()))[:3]
        raise ValueError(f"the weights do not fit the configuration: {wrong}")


def save(
    path: str | Path,
    model: DecodingModel,
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    text: TextConfig,
    data: DataConfig,
    card: dict,
    half: bool = False,
    subwords: Subwords | None = None,
    extra: dict[str, torch.Tensor] | None = None,
) -> None:
    """Write a model checkpoint; ``half`` stores weights as float16 (loaded back as float32).

    The sentencepiece models travel inside as byte tensors (``subwords.src``, ``subwords.tgt``,
    or one ``subwords.joint``);
    ``extra`` tensors (the training history's ``history.*``) are stored as they are."""
    tensors = model.state_dict()
    if half:
        tensors = {k: v.half() if v.is_floating_point() else v for k, v in tensors.items()}
    for name, proto in (subwords.protos() if subwords else {}).items():
        tensors[f"{SUBWORDS}{name}"] = torch.frombuffer(bytearray(proto), dtype=torch.uint8)
    tensors.update(extra or {})
    meta = {
        "model_config": asdict(model.config),
        "text_config": asdict(text),
        "data_config": asdict(data),
        "src_vocab": src_vocab.itos,
        "tgt_vocab": tgt_vocab.itos,
        "card": card,
    }
    write_tensors(path, tensors, meta)


def load(
    path: str | Path, device: str | torch.device = "cpu", precision: Precision = Precision.AUTO
) -> Translator:
    """Load a checkpoint as a :class:`Translator`; :class:`CheckpointError` names any problem.

    ``precision`` is how weights are stored for decoding (see :mod:`attnviz.model.low_precision`):
    "auto" picks whichever of fp32, bf16, int8 and int8-output decodes fastest on this machine,
    timed once (:func:`attnviz.tuning.decoding_precision.probe_decoding`; int8 on the x86 CPUs
    measured so far); "fp32" keeps every weight as trained. A :class:`Precision` or its name.
    """
    return _translator(path, torch.device(device), resolve_decoding(precision, device))


def load_without_weights(path: str | Path, precision: Precision = Precision.AUTO) -> Translator:
    """A checkpoint as a :class:`Translator` that holds no weights: its card, vocabularies,
    configurations, subword models and training history, with the model's parameters on torch's
    meta device (shapes without memory). Every check of :func:`load` is made, the weights'
    checksum and fit included, so a file that describes loads; ``precision`` is the one the
    model would decode in where it is loaded. For a process that shows what a model is and has
    it run elsewhere (the dashboard's server: its decoding processes load the weights); its
    model cannot run."""
    return _translator(path, torch.device("meta"), resolve_decoding(precision))


def _translator(path: str | Path, device: torch.device, precision: Precision) -> Translator:
    """:func:`load` with ``precision`` resolved; on the meta device,
    :func:`load_without_weights`."""
    tensors, meta = read_tensors(path, check_model)
    # copied: a tensor read may map the whole file, which a view kept alive would keep resident
    history = {k: v.clone() for k, v in _take(tensors, TENSOR_PREFIX).items()}
    protos = {k[len(SUBWORDS) :]: v.numpy().tobytes() for k, v in _take(tensors, SUBWORDS).items()}
    with device, _NoRandomFill():  # on the meta device, parameters without memory
        model, stored = _described(path, meta, protos)
    if device.type == "meta":
        tensors = {k: v.to(device) for k, v in tensors.items()}  # shapes and types to check
    _load_weights(path, model, tensors)
    model = model.to(device).eval()  # .to: a Transformer's sinusoids are made on the CPU
    if device.type != "meta":
        model = for_decoding(model, precision)
    translator = Translator(
        model,
        stored.src_vocab,
        stored.tgt_vocab,
        stored.text,
        stored.card,
        stored.data,
        stored.subwords,
        precision,
    )
    try:
        translator.history = History(stored.card.get("history"), history)
    except (KeyError, TypeError, ValueError, RuntimeError) as e:
        raise CheckpointError(
            Text(N_("{path}: corrupt training history ({error})"), path=path, error=e)
        ) from e
    return translator


class _Described(NamedTuple):
    """What a checkpoint's metadata and sentencepiece models say besides the model."""

    text: TextConfig
    data: DataConfig
    src_vocab: Vocab
    tgt_vocab: Vocab
    card: dict
    subwords: Subwords | None


def _take(tensors: dict[str, torch.Tensor], prefix: str) -> dict[str, torch.Tensor]:
    """The tensors named ``prefix...``, taken out of ``tensors`` (they are not weights)."""
    return {k: tensors.pop(k) for k in [k for k in tensors if k.startswith(prefix)]}


def _described(
    path: str | Path, meta: dict, protos: dict[str, bytes]
) -> tuple[Seq2Seq | Transformer, _Described]:
    """The model ``meta`` describes, its weights not yet loaded, and the rest of what it says,
    each checked against the others."""
    try:
        subwords = Subwords.from_protos(protos)
        pieces = (subwords.src.vocab.itos, subwords.tgt.vocab.itos) if subwords else None
        if pieces and pieces != (meta["src_vocab"], meta["tgt_vocab"]):
            raise ValueError("the subword models do not match the vocabularies")
        config = ModelConfig(**meta["model_config"])
        text = TextConfig(**meta["text_config"])
        # A file without sentencepiece models is a whole-word model, whatever the defaults say.
        data = DataConfig(**{"subwords": 0, **meta["data_config"]})
        src_vocab, tgt_vocab = Vocab(meta["src_vocab"]), Vocab(meta["tgt_vocab"])
        card = dict(meta.get("card", {}))
        model = build_model(config)
        if bool(data.subwords) != (subwords is not None) or (
            subwords and subwords.joint != data.joint_subwords
        ):
            raise ValueError("the data configuration and the stored subword models disagree")
    except (KeyError, TypeError, ValueError) as e:
        raise CheckpointError(Text(INVALID, path=path, error=e)) from e
    if (config.src_vocab, config.tgt_vocab) != (len(src_vocab), len(tgt_vocab)):
        raise CheckpointError(
            Text(N_("{path}: vocabulary sizes do not match the model configuration"), path=path)
        )
    return model, _Described(text, data, src_vocab, tgt_vocab, card, subwords)


def _load_weights(
    path: str | Path, model: Seq2Seq | Transformer, tensors: dict[str, torch.Tensor]
) -> None:
    """Load ``tensors`` into ``model`` as float32; refused unless they are floating point and
    fit it."""
    if not_float := sorted(k for k, v in tensors.items() if not v.is_floating_point()):
        raise CheckpointError(
            Text(
                N_("{path}: weights that are not floating point: {names}"),
                path=path,
                names=not_float[:3],
            )
        )
    try:
        model.load_state_dict({k: v.float() for k, v in tensors.items()})
    except RuntimeError as e:
        raise CheckpointError(
            Text(N_("{path}: weights do not fit the configuration: {error}"), path=path, error=e)
        ) from e
