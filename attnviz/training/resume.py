"""The training state saved after every epoch, so that an interrupted run goes on with
``--resume`` and ends with the weights it would have had uninterrupted."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import torch

from ..analysis.history import History
from ..data.corpus import DataConfig
from ..model.model_config import ModelConfig
from ..store import checkpoint
from .config import TrainConfig


def state_path(out: Path) -> Path:
    return out.with_name(out.name + ".state")


def save_state(path: Path, model, opt, epoch: int, history: History, settings: dict, dev) -> None:
    tensors = {f"model.{k}": v for k, v in model.state_dict().items()}
    tensors.update(history.tensors())
    opt_state = opt.state_dict()
    for i, s in opt_state["state"].items():
        tensors.update(
            {f"optim.{i}.{k}": v if torch.is_tensor(v) else torch.tensor(v) for k, v in s.items()}
        )
    tensors["rng.torch"] = torch.get_rng_state()
    if dev.type == "cuda":  # dropout on a GPU draws from its own generator
        tensors["rng.cuda"] = torch.cuda.get_rng_state(dev)
    meta = {
        "epoch": epoch,
        "history": history.to_json(),
        "settings": settings,
        "param_groups": opt_state["param_groups"],
    }
    checkpoint.write_tensors(path, tensors, meta)


def with_defaults(settings: dict | None) -> dict | None:
    """Stored run settings with the model, data and training fields added since they were
    written set to their defaults, so that a run can resume under a newer attnviz. (A state written
    before the training history and subword models existed cannot resume: its settings name
    neither the probes nor the sentencepiece models, which decide the run.)"""
    if not settings:
        return settings
    try:
        model = asdict(ModelConfig(**settings["model"]))
        data = asdict(DataConfig(**settings["data"]))
        train = asdict(TrainConfig(**{**settings["train"], "epochs": 1}))
    except (KeyError, TypeError, ValueError):
        return settings  # not ours to repair: it will not match
    del train["epochs"]
    return {**settings, "model": model, "data": data, "train": train}


def load_state(path: Path, model, opt, settings: dict, dev) -> tuple[int, History]:
    """Restore ``model`` and ``opt`` from a state file; returns the epoch done and the history.
    A file that does not fit says what to do instead of raising a raw error."""
    tensors, meta = checkpoint.read_tensors(path)
    if with_defaults(meta.get("settings")) != settings:
        raise ValueError(
            f"{path}: was written by a run with other settings or data; "
            "start afresh without --resume or use the same options"
        )
    try:
        model.load_state_dict({k[6:]: v for k, v in tensors.items() if k.startswith("model.")})
        state: dict[int, dict] = {}
        for k, v in tensors.items():
            if k.startswith("optim."):
                _, i, name = k.split(".", 2)
                state.setdefault(int(i), {})[name] = v
        opt.load_state_dict({"state": state, "param_groups": meta["param_groups"]})
        torch.set_rng_state(tensors["rng.torch"])
        if "rng.cuda" in tensors and dev.type == "cuda":
            torch.cuda.set_rng_state(tensors["rng.cuda"], dev)
        return int(meta["epoch"]), History(meta["history"], tensors)
    except (KeyError, TypeError, ValueError, RuntimeError) as e:
        raise ValueError(
            f"{path}: not a training state this version of attnviz can resume "
            f"({type(e).__name__}: {str(e)[:200]}); start afresh without --resume"
        ) from e
