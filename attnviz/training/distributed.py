"""Training on several processes or machines: torchrun and DistributedDataParallel.

``torchrun --nproc_per_node N -m attnviz train ...`` starts N processes and tells each its place
in the environment (``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``MASTER_ADDR``/``MASTER_PORT``).
:func:`launched` joins them into one process group for the length of a training run: gloo on
CPUs, NCCL on GPUs, each process on ``cuda:LOCAL_RANK``. Every process draws the same seeded
batches and takes its :meth:`Group.share` of each; DDP averages the gradients, which the loss
scales so that a step equals the one-process step on the whole batch (see
``attnviz.training.train``).
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

# The longest a process waits at a collective: the others wait there while rank 0 validates
# and writes files, and a process that hangs stops the run after this long, not never.
TIMEOUT = timedelta(minutes=30)


@dataclass(frozen=True)
class Group:
    """This process's place in a run: ``rank`` of ``world_size``, ``local_rank`` on its machine."""

    rank: int = 0
    world_size: int = 1
    local_rank: int = 0
    joined: bool = False  # inside a torch.distributed process group (torchrun), even of one

    @property
    def main(self) -> bool:
        """Rank 0, the process that validates, logs and writes the files."""
        return self.rank == 0

    def share(self, batch: list) -> list:
        """This process's contiguous share of a global batch. Shares differ in size by one at
        most and are empty when the batch has fewer examples than there are processes;
        contiguous, because a batch is sorted by length (little padding in each share)."""
        n, k = len(batch), self.world_size
        return batch[self.rank * n // k : (self.rank + 1) * n // k]

    def device(self, name: str) -> torch.device:
        """The torch device named ``name`` for this process: under torchrun ``cuda`` is
        ``cuda:LOCAL_RANK``, one GPU per process."""
        device = torch.device(name)
        if not self.joined or device.type != "cuda":
            return device
        if device.index is not None:
            raise ValueError(
                f"under torchrun give --device cuda, not {name}: each process takes cuda:LOCAL_RANK"
            )
        return torch.device("cuda", self.local_rank)


def from_env(environ: Mapping[str, str] = os.environ) -> Group | None:
    """The place torchrun gave this process in ``environ``, None when torchrun did not start it."""
    if "RANK" not in environ or "WORLD_SIZE" not in environ:
        return None
    return Group(
        int(environ["RANK"]),
        int(environ["WORLD_SIZE"]),
        int(environ.get("LOCAL_RANK", 0)),
        joined=True,
    )


def current() -> Group:
    """This process's place in the process group it has joined (rank 0 of 1 when none)."""
    if not dist.is_available() or not dist.is_initialized():
        return Group()
    local = int(os.environ.get("LOCAL_RANK", 0))
    return Group(dist.get_rank(), dist.get_world_size(), local, joined=True)


def is_main() -> bool:
    """Whether this process is rank 0 of its torchrun job, or not under torchrun at all."""
    group = from_env()
    return group is None or group.main


def backend_for(device: torch.device) -> str:
    """The collective backend for processes on ``device``: NCCL for CUDA, gloo for CPUs."""
    if device.type == "cuda":
        return "nccl"
    if device.type == "cpu":
        return "gloo"
    raise ValueError(f"distributed training runs on cpu (gloo) or cuda (nccl), not {device.type}")


def launched(train: Callable) -> Callable:
    """Run ``train(run, ...)``, whose ``run.device`` names the torch device, inside the process
    group of the torchrun job that started this process, left again at the end, error or not;
    outside torchrun, or inside a group the caller already joined, just run it."""

    @functools.wraps(train)
    def wrapper(run, *args, **kwargs):
        group = from_env()
        if group is None or dist.is_initialized():
            return train(run, *args, **kwargs)
        device = group.device(run.device)
        if device.type == "cuda":
            torch.cuda.set_device(device)
        dist.init_process_group(backend_for(device), timeout=TIMEOUT)
        try:
            result = train(run, *args, **kwargs)
            # Leave together: a rank that tore gloo down while rank 0 still wrote the
            # checkpoint and scored the test split once aborted ("terminate called without
            # an active exception", exit -6 under load).
            dist.barrier()
            return result
        finally:
            # The run's DistributedDataParallel wrapper sits in a reference cycle: it outlives
            # train() until the collector finds it. Free it while its process group lives;
            # freed after the group is destroyed, or at interpreter exit, the gloo work it
            # holds aborts the process the same way (see pytorch/pytorch#179291).
            gc.collect()
            dist.destroy_process_group()

    return wrapper


def check_same(value: str, what: str) -> None:
    """Refuse to train unless every process computed the same ``value`` (a fingerprint of
    ``what``): a corpus that differs between machines would silently train nonsense."""
    group = current()
    if not group.joined:
        return
    values: list = [None] * group.world_size
    dist.all_gather_object(values, value)
    if len(set(values)) > 1:
        ranks = [r for r, v in enumerate(values) if v != values[0]]
        raise ValueError(f"{what} differs between rank 0 and rank(s) {ranks}")


def seed_dropout(seed: int, epoch: int, group: Group) -> None:
    """Seed this process's dropout for ``epoch``: each rank draws its own masks, from a function
    of the seed, the epoch and the rank alone, so a resumed run draws the masks it would have."""
    if group.world_size > 1:
        torch.manual_seed((seed * 1_000_003 + epoch) * 1_009 + group.rank)


class _Forward(nn.Module):
    """``fn(model, *args)`` as a module's forward: DDP averages the gradients of what runs
    through its module's forward, and a loss is not the model's forward."""

    def __init__(self, fn: Callable, model: nn.Module):
        super().__init__()
        self.fn, self.model = fn, model

    def forward(self, *args):
        return self.fn(self.model, *args)


def data_parallel(fn: Callable, model: nn.Module) -> DistributedDataParallel:
    """``fn(model, *args)`` whose backward averages the gradients of ``model``'s parameters
    over the processes (their starting values broadcast from rank 0 here)."""
    return DistributedDataParallel(_Forward(fn, model))
