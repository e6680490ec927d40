"""The nearest training steps of a model: the queries of a sample of its training steps in an
approximate-nearest-neighbour index (usearch's HNSW), beside the checkpoint as
``<model>.steps``: a safetensors file, not named ``.safetensors`` so that nothing that looks
for checkpoints takes it for one.

One safetensors file, never pickle: the usearch index as bytes (``ann``), the projection of
queries onto their first :data:`DIMS` principal components (``mean``, ``components``), and the
step table: each step's pair id in the model's corpus index (``pair``), its position in the
pair's target (``step``), its attention over the source words and ``<eos>`` (``weights``, rows
of ``offsets``). The header records the checkpoint's weight digest (a step index of other
weights is refused), the corpus index's sha256, the sample, and how often the neighbours of
held-out steps wrote the same word (:func:`attnviz.analysis.step_states.same_word_share`).

usearch rather than hnswlib or faiss-cpu: a 2 MB binary wheel for every platform (hnswlib
builds from source, faiss-cpu's wheel is ten times larger); int8 vectors, which quarter the
file; an index saved to and restored from bytes, so it travels inside this file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from safetensors import safe_open
from safetensors.numpy import save as safetensors_bytes

from ..analysis.step_states import Steps
from ..files import atomic_write
from ..i18n import N_, Text

FORMAT = "attnviz-step-index/1"
DIMS = 64  # principal components kept: as many neighbours agree as with all 384 dimensions
CONNECTIVITY = 8  # HNSW links per vector: the graph is half the file
SUFFIX = ".steps"  # beside the checkpoint: <model>.steps


class StepIndexError(ValueError):
    """A step index that cannot be used; the message (a :class:`attnviz.i18n.Text`) names the
    file and says why."""


def step_index_path(checkpoint: str | Path) -> Path:
    """Where a checkpoint's step index lies: beside it, named after it."""
    checkpoint = Path(checkpoint)
    return checkpoint.with_name(checkpoint.name.removesuffix(".safetensors") + SUFFIX)


@dataclass(frozen=True)
class Neighbour:
    """One training step near the step asked about."""

    pair: int  # the pair's id in the corpus index
    step: int  # the step's position in the pair's target (its length: the <eos> step)
    distance: float  # cosine distance of the projected queries: 0 the same direction
    weights: np.ndarray  # its attention over the pair's source words and <eos>


def write_step_index(path: str | Path, steps: Steps, meta: dict, dims: int = DIMS) -> int:
    """Write the step index of ``steps`` to ``path`` atomically; ``meta`` (JSON values) goes
    into the header. Returns the file's size in bytes."""
    from usearch.index import Index

    mean = steps.queries.mean(0)
    sample = steps.queries[:: max(1, len(steps.queries) // 20_000)] - mean
    components = np.linalg.svd(sample, full_matrices=False)[2][:dims]  # (dims, H)
    ann = Index(ndim=len(components), metric="cos", dtype="i8", connectivity=CONNECTIVITY)
    ann.add(np.arange(len(steps.queries)), (steps.queries - mean) @ components.T)
    lengths = [len(w) for w in steps.weights]
    image = ann.save()  # without a path, the index's bytes
    assert image is not None
    tensors = {
        "ann": np.frombuffer(bytes(image), dtype=np.uint8),
        "mean": mean.astype(np.float32),
        "components": components.astype(np.float32),
        "pair": steps.pair.astype(np.int32),
        "step": steps.step.astype(np.int16),
        "offsets": np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
        "weights": np.concatenate(steps.weights).astype(np.float16),
    }
    header = {"format": FORMAT, **{k: json.dumps(v, ensure_ascii=False) for k, v in meta.items()}}
    data = safetensors_bytes(tensors, metadata=header)
    atomic_write(path, data)
    return len(data)


class StepIndex:
    """A step index read back: ``nearest`` steps of a query."""

    def __init__(self, path: str | Path):
        from usearch.index import Index

        self.path = Path(path)
        if not self.path.is_file():
            raise StepIndexError(Text(N_("{path}: no such step index"), path=self.path))
        try:
            with safe_open(str(self.path), framework="np") as f:
                header = f.metadata() or {}
                if header.get("format") != FORMAT:
                    raise StepIndexError(
                        Text(
                            N_("{path}: not an attnviz step index ({found})"),
                            path=self.path,
                            found=header.get("format"),
                        )
                    )
                tensors = {name: f.get_tensor(name) for name in f.keys()}  # noqa: SIM118
            self.meta = {k: json.loads(v) for k, v in header.items() if k != "format"}
            ann = Index.restore(bytearray(tensors.pop("ann").tobytes()))
            if ann is None:
                raise ValueError("its nearest-neighbour index does not read back")
            self._ann = ann
        except StepIndexError:
            raise
        except Exception as e:  # safetensors, json and usearch raise their own types
            raise StepIndexError(
                Text(N_("{path}: not a readable step index ({error})"), path=self.path, error=e)
            ) from e
        self._mean, self._components = tensors["mean"], tensors["components"]
        self.pair, self.step = tensors["pair"], tensors["step"]
        self._offsets, self._weights = tensors["offsets"], tensors["weights"]

    def __len__(self) -> int:
        return len(self.pair)

    def refusal(self, weights_digest: str, corpus_index: str | None) -> Text | None:
        """Why this index cannot answer for a checkpoint whose weights have ``weights_digest``
        (another model's, or these weights before they were trained further) and whose card
        names the corpus index of sha256 ``corpus_index`` (its steps name that index's pairs);
        None if it can."""
        if self.meta.get("weights_digest") != weights_digest:
            return Text(
                N_("{path} holds the steps of other weights than this model's"),
                path=self.path.name,
            )
        if (self.meta.get("corpus_index") or {}).get("sha256") != corpus_index:
            return Text(
                N_("{path} was built on another corpus index than the model's"),
                path=self.path.name,
            )
        return None

    def nearest(self, query: np.ndarray, k: int = 5) -> list[Neighbour]:
        """The ``k`` indexed steps whose queries are nearest to ``query`` (H,), nearest first."""
        projected = (np.asarray(query, dtype=np.float32) - self._mean) @ self._components.T
        found = self._ann.search(projected, k)
        return [
            Neighbour(
                int(self.pair[n]),
                int(self.step[n]),
                float(d),
                self._weights[self._offsets[n] : self._offsets[n + 1]].astype(np.float32),
            )
            for n, d in zip(found.keys, found.distances, strict=True)
        ]

    def nearest_many(self, queries: np.ndarray, k: int = 5) -> np.ndarray:
        """The indices (M, k) of the indexed steps nearest to each of ``queries`` (M, H)."""
        projected = (np.asarray(queries, dtype=np.float32) - self._mean) @ self._components.T
        return np.asarray(self._ann.search(projected, k).keys, dtype=np.int64).reshape(-1, k)
