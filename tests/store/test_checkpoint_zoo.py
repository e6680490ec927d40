"""A zoo of malformed checkpoints: each is refused with a CheckpointError naming the file, in
well under a second and without building anything big.

The files are loaded in one fresh process, so that its peak memory says what loading them cost
(this test process has trained models and holds far more)."""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from safetensors.torch import save_file

import attnviz
from attnviz.data.corpus import DataConfig
from attnviz.store import checkpoint

from ..helpers import tiny_translator

pytestmark = pytest.mark.slow  # every test reads the report of one fresh process

SECONDS = 1.0  # the most CPU time any one refusal may take
MEGABYTES = 150  # the most the whole zoo may add to a process that has loaded one good file


def _good(path: Path) -> None:
    tr = tiny_translator("bahdanau")
    attnviz.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, DataConfig(subwords=0), {})


def _edit(path: Path, change) -> None:
    """Rewrite ``path`` through ``change(tensors, meta)``, with a valid digest and format tag."""
    tensors, meta = checkpoint.read_tensors(path)
    change(tensors, meta)
    checkpoint.write_tensors(path, tensors, meta)


def _raw_header(path: Path, **replace) -> None:
    """Rewrite ``path`` with header fields replaced verbatim (no JSON encoding)."""
    tensors, meta = checkpoint.read_tensors(path)
    header = {"format": checkpoint.FORMAT, "digest": checkpoint.tensors_digest(tensors)}
    header.update({k: json.dumps(v) for k, v in meta.items()})
    header.update(replace)
    save_file(tensors, str(path), metadata=header)


def _config(**fields):
    return lambda tensors, meta: meta["model_config"].update(fields)


def _bytes(data: bytes):
    return lambda path: path.write_bytes(data)


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))


def _torch_zip(path: Path) -> None:
    torch.save({"w": torch.zeros(2)}, path)


def _header_length(n: int):
    return lambda path: path.write_bytes(struct.pack("<Q", n) + b"{}" + b"\0" * 64)


def _pop(name: str):
    return lambda tensors, meta: tensors.pop(name)


def _set(name: str, value):
    return lambda tensors, meta: tensors.__setitem__(name, value)


def _meta(key: str, value):
    return lambda tensors, meta: meta.__setitem__(key, value)


def _symlink(path: Path) -> None:
    path.unlink()
    path.symlink_to(path.parent / "nowhere")


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


FIRST_WEIGHT = "encoder.embed.weight"
ZOO = {  # name -> how to break a good file: a function of its path, or an edit of its contents
    "empty file": _bytes(b""),
    "seven bytes": _bytes(b"\x01" * 7),
    "header length of 2^60": _header_length(2**60),
    "header length past the end": _header_length(10**6),
    "header that is not JSON": lambda p: p.write_bytes(struct.pack("<Q", 8) + b"not json"),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "flipped weight byte": _flip,
    "pickle": _bytes(pickle.dumps({"w": [1, 2, 3]})),
    "torch zip": _torch_zip,
    "foreign safetensors": lambda p: save_file({"w": torch.zeros(2)}, str(p)),
    "another format version": lambda p: _raw_header(p, format="attnviz-checkpoint/99"),
    "metadata that is not JSON": lambda p: _raw_header(p, card="{not json"),
    "card nested 200,000 deep": lambda p: _raw_header(p, card="[" * 200_000 + "]" * 200_000),
    "hidden of 2^40": _config(hidden=2**40),
    "target vocabulary of 10^7": _config(tgt_vocab=10**7),
    "negative hidden": _config(hidden=-4),
    "hidden as a string": _config(hidden="16"),
    "unknown attention": _config(attention="cosine"),
    "unknown configuration field": _config(colour="blue"),
    "missing configuration field": lambda t, m: m["model_config"].pop("hidden"),
    "no model configuration": lambda t, m: m.pop("model_config"),
    "a language given as a list": _meta("text_config", {"src_lang": ["en"]}),
    "text settings as a string": _meta("text_config", "en"),
    "vocabulary of numbers": lambda t, m: m.__setitem__(
        "src_vocab", list(range(len(m["src_vocab"])))
    ),
    "vocabulary with a repeated word": lambda t, m: m["tgt_vocab"].__setitem__(
        5, m["tgt_vocab"][6]
    ),
    "vocabulary shorter than the configuration": lambda t, m: m["src_vocab"].pop(),
    "a weight missing": _pop(FIRST_WEIGHT),
    "an unknown weight": _set("decoder.extra.weight", torch.zeros(3)),
    "a weight of the wrong shape": lambda t, m: t.__setitem__(
        FIRST_WEIGHT, t[FIRST_WEIGHT].T.contiguous()
    ),
    "a weight of integers": lambda t, m: t.__setitem__(FIRST_WEIGHT, t[FIRST_WEIGHT].long()),
    "one subword model without the other": _set("subwords.src", torch.zeros(9, dtype=torch.uint8)),
    "subword models of random bytes": lambda t, m: t.update(
        {f"subwords.{s}": torch.randint(0, 255, (4096,), dtype=torch.uint8) for s in ("src", "tgt")}
    ),
    "a dangling symlink": _symlink,
    "a folder": _folder,
}
CONTENT_EDITS = {name for name, f in ZOO.items() if f.__code__.co_argcount == 2}

LOADER = textwrap.dedent(
    """
    import json, resource, sys, time
    import attnviz
    attnviz.load(sys.argv[1])  # a good file first: the baseline has torch and a model loaded
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    results = {}
    for path in sys.argv[2:]:
        start = time.process_time()  # its own work: a busy machine's waits are not counted
        try:
            attnviz.load(path)
            outcome = ["loaded", ""]
        except Exception as e:
            outcome = [type(e).__name__, str(e)]
        results[path] = outcome + [time.process_time() - start]
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    print(json.dumps({"results": results, "megabytes": grown}))
    """
)


@pytest.fixture(scope="module")
def zoo(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("zoo")
    good = folder / "good.safetensors"
    _good(good)
    paths = {}
    for k, (name, breaks) in enumerate(ZOO.items()):
        path = folder / f"case{k}.safetensors"
        _good(path)
        if name in CONTENT_EDITS:
            _edit(path, breaks)
        else:
            breaks(path)
        paths[name] = str(path)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", LOADER, str(good), *paths.values()],
        capture_output=True, text=True, timeout=300, env=env, check=True,
    )  # fmt: skip
    report = json.loads(out.stdout)
    return {"paths": paths, **report}


@pytest.mark.parametrize("name", list(ZOO))
def test_a_malformed_checkpoint_is_refused_quickly_and_named(zoo, name):
    path = zoo["paths"][name]
    kind, message, seconds = zoo["results"][path]
    assert kind == "CheckpointError", f"{name}: {kind}: {message}"
    assert path in message
    assert seconds < SECONDS, f"{name} took {seconds:.2f} s"


def test_refusing_the_whole_zoo_takes_little_memory(zoo):
    assert zoo["megabytes"] < MEGABYTES, f"the zoo added {zoo['megabytes']:.0f} MB"
