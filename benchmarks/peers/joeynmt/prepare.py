"""Write what both toolkits train and decode on, and JoeyNMT's configurations of the recipe.

    python benchmarks/peers/joeynmt/prepare.py --data fra.txt --work WORK

Run with the project's Python. The split, the sentencepiece models and the pieces come from
``attnviz.data.prepare.prepare``, the function ``python -m attnviz train`` calls: the
hash-keyed train / valid / test split of ``--tatoeba`` runs and 8,000 BPE pieces per language
learned on the training split. Every pair is written as its pieces, one pair per line
(``train.en`` / ``train.fr`` ...), so that JoeyNMT reads exactly the pieces attnviz trains on
(as ``level: word`` tokens over the sentencepiece vocabulary, ``vocab.en`` / ``vocab.fr``).
A work folder already prepared from the same corpus and settings is left as it is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import asdict
from pathlib import Path

import torch

from attnviz.data.corpus import DataConfig, bucket_batches, group_references, spread_sample
from attnviz.data.prepare import prepare, read
from attnviz.data.text import TextConfig

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as h  # the folder's shared module, beside this file

SEED = 0  # of the batch order, the weights and dropout, as the recipe's --seed 0


def joeynmt_config(work: Path, attention: str, seed: int = SEED) -> dict:
    """JoeyNMT 2.3.0's configuration of the shipped recipe for attnviz's ``attention``.

    Options not set take JoeyNMT's defaults (initialization: Xavier uniform, zero biases).
    What cannot match attnviz is in the README beside this file.
    """
    work = Path(work).resolve()
    r = h.RECIPE

    def side(lang: str) -> dict:
        return {
            "lang": lang,
            "level": "word",  # the lines hold sentencepiece pieces already, space-separated
            "lowercase": False,
            "normalize": False,
            "max_length": -1,  # the training split is already cut at attnviz's --max-len
            "min_length": -1,
            "voc_file": str(work / f"{h.VOCAB}.{lang}"),
        }

    embeddings = {"embedding_dim": r["embed"], "scale": False}
    return {
        "name": f"attnviz-peer-{h.ATTENTIONS[attention]}",
        "joeynmt_version": "2.3.0",
        "model_dir": str(work / "runs" / f"joeynmt-{attention}"),
        "use_cuda": False,
        "fp16": False,
        "random_seed": seed,
        "data": {
            "train": str(work / h.TRAIN),
            "dev": str(work / h.BLEU),
            "test": str(work / h.TEST),
            "dataset_type": "plain",
            "src": side(h.LANGS[0]),
            "trg": side(h.LANGS[1]),
            # attnviz's special pieces, so that the vocabularies are sentencepiece's own; the
            # ids are JoeyNMT's (its Vocabulary puts <unk> first).
            "special_symbols": {
                "unk_token": "<unk>",
                "unk_id": 0,
                "pad_token": "<pad>",
                "pad_id": 1,
                "bos_token": "<bos>",
                "bos_id": 2,
                "eos_token": "<eos>",
                "eos_id": 3,
            },
        },
        "training": {
            "optimizer": "adam",
            "adam_betas": [0.9, 0.999],
            "learning_rate": h.TRANSFORMER["lr"] if attention == "multihead" else r["lr"],
            # JoeyNMT 2.3.0 insists on a schedule, has no "halve each epoch after the 5th",
            # and its plateau schedule fails on torch 2.13 (ReduceLROnPlateau lost `verbose`):
            # a constant rate, the recipe's for its first five epochs.
            "scheduling": "exponential",
            "decrease_factor": 1.0,
            "clip_grad_norm": r["clip"],
            "loss": "crossentropy",
            "label_smoothing": r["label_smoothing"],
            "normalization": "tokens",  # mean over target tokens, as attnviz's loss
            "batch_size": r["batch_size"],
            "batch_type": "sentence",
            "batch_multiplier": 1,
            "shuffle": True,
            "epochs": 7,
            "validation_freq": 1000,
            "logging_freq": 100,
            "early_stopping_metric": "ppl",
            "keep_best_ckpts": 1,
            "overwrite": True,
        },
        "testing": {
            "beam_size": 1,
            "beam_alpha": 1.0,
            "batch_size": r["batch_size"],
            "batch_type": "sentence",
            "max_output_length": -1,
            "eval_metrics": ["bleu"],
        },
        "model": transformer_model(r["dropout"])
        if attention == "multihead"
        else {
            "encoder": {
                "type": "recurrent",
                "rnn_type": "gru",
                "embeddings": embeddings,
                "hidden_size": r["hidden"] // 2,  # per direction: outputs of size H
                "bidirectional": True,
                "num_layers": r["layers"],
                "dropout": r["dropout"],  # on the embeddings (one layer: none between)
            },
            "decoder": {
                "type": "recurrent",
                "rnn_type": "gru",
                "embeddings": embeddings,
                "hidden_size": r["hidden"],
                "num_layers": r["layers"],
                "attention": h.ATTENTIONS[attention],
                "input_feeding": True,
                "init_hidden": "bridge",
                "dropout": r["dropout"],  # on the GRU's input [y_{t-1}; h~_{t-1}]
                "hidden_dropout": r["dropout"],  # on [h_t; c_t] before the attention layer
            },
        },
    }


def transformer_model(dropout: float) -> dict:
    """JoeyNMT's Transformer at the shipped Transformers' size (harness.TRANSFORMER): pre-norm
    layers, embeddings scaled by sqrt(d), the output layer tied to the target embedding."""
    t = h.TRANSFORMER
    side = {
        "type": "transformer",
        "num_layers": t["layers"],
        "num_heads": t["heads"],
        "embeddings": {"embedding_dim": t["hidden"], "scale": True},
        "hidden_size": t["hidden"],
        "ff_size": t["ff"],
        "dropout": dropout,
        "layer_norm": "pre",
    }
    return {"tied_softmax": True, "encoder": side, "decoder": side}


def to_yaml(value, indent: int = 0) -> str:
    """YAML for nested dicts of strings, numbers, booleans, None and flat lists: enough for a
    JoeyNMT configuration, without PyYAML (which the project does not depend on)."""
    pad = "  " * indent
    lines = []
    for key, item in value.items():
        if isinstance(item, dict):
            lines.append(f"{pad}{key}:\n{to_yaml(item, indent + 1)}")
        elif isinstance(item, list):
            lines.append(f"{pad}{key}: [{', '.join(_scalar(x) for x in item)}]")
        else:
            lines.append(f"{pad}{key}: {_scalar(item)}")
    return "\n".join(lines)


def _scalar(x) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int | float):
        return repr(x)
    return json.dumps(str(x))  # a JSON string is a YAML double-quoted string


def write_work(
    data: str | Path,
    work: str | Path,
    subwords: int = h.RECIPE["subwords"],
    bleu_sentences: int = 1000,
    latency_sentences: int = 100,
    speed_batches: int = 50,
    log=print,
) -> dict:
    """Write the work folder for ``data``; returns the manifest. ``subwords`` is the
    sentencepiece vocabulary per language (8,000 in the recipe; tests use fewer)."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    data_config = DataConfig(subwords=subwords)
    p = prepare(read(data, data_config, log), TextConfig(), data_config, log=log)
    for name in (h.TRAIN, h.VALID, h.TEST):
        examples = p.splits[name]
        h.write_pieces(work / f"{name}.en", [e.src_tokens for e in examples])
        h.write_pieces(work / f"{name}.fr", [e.tgt_tokens for e in examples])
    for lang, pieces in zip(h.LANGS, (p.subwords.src, p.subwords.tgt), strict=True):
        (work / f"{h.SPM}.{lang}.model").write_bytes(pieces.proto)
        (work / f"{h.VOCAB}.{lang}").write_text(
            "".join(piece + "\n" for piece in pieces.vocab.itos), encoding="utf-8"
        )
    _write_bleu_set(work, p.splits[h.VALID], bleu_sentences)
    _write_latency_set(work, p.splits[h.TEST], latency_sentences)
    train = p.splits[h.TRAIN]
    line = {id(e): i for i, e in enumerate(train)}
    batches = bucket_batches(train, h.RECIPE["batch_size"], torch.Generator().manual_seed(SEED))
    (work / h.BATCHES_JSON).write_text(
        json.dumps([[line[id(e)] for e in b] for b in batches[:speed_batches]])
    )
    for attention in h.ATTENTIONS:
        header = (
            f"# JoeyNMT 2.3.0: the attnviz recipe with {h.ATTENTIONS[attention]} attention "
            "(benchmarks/peers/joeynmt/README.md).\n"
            f"# Threads: {h.RECIPE['threads']} (joeynmt_side.py --threads; JoeyNMT has no "
            "setting for it).\n"
        )
        h.config_path(work, attention).write_text(
            header + to_yaml(joeynmt_config(work, attention)) + "\n", encoding="utf-8"
        )
    manifest = {
        "corpus": str(Path(data).resolve()),
        "corpus_sha256": p.corpus.sha256,
        "settings": _settings(subwords, bleu_sentences, latency_sentences, speed_batches),
        "subwords_sha256": p.subwords.sha256(),
        "pairs": {name: len(p.splits[name]) for name in (h.TRAIN, h.VALID, h.TEST)},
        "vocab": {"en": len(p.src_vocab), "fr": len(p.tgt_vocab)},
    }
    (work / h.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _settings(subwords, bleu_sentences, latency_sentences, speed_batches) -> dict:
    return {
        "subwords": subwords,
        "bleu_sentences": bleu_sentences,
        "latency_sentences": latency_sentences,
        "speed_batches": speed_batches,
        "data": asdict(DataConfig(subwords=subwords)),
    }


def _write_bleu_set(work: Path, valid, n: int) -> None:
    """The validation sources attnviz's training scores for BLEU (``--bleu-sentences``: spread
    over the split), their pieces and their first reference's (JoeyNMT wants a target), and as
    text with every reference for sacreBLEU."""
    sources, refs = spread_sample(*group_references((e.src, e.tgt) for e in valid), n)
    first = {}
    for e in valid:
        first.setdefault(e.src, e)
    h.write_pieces(work / f"{h.BLEU}.en", [first[s].src_tokens for s in sources])
    h.write_pieces(work / f"{h.BLEU}.fr", [first[s].tgt_tokens for s in sources])
    (work / h.BLEU_JSON).write_text(
        json.dumps({"sources": sources, "references": refs}, ensure_ascii=False)
    )


def _write_latency_set(work: Path, test, n: int) -> None:
    """Test sources spread over the split, each with the steps to decode: its first
    reference's pieces and ``<eos>``, so that both toolkits decode the same number of steps
    with untrained weights."""
    sources, _ = spread_sample(*group_references((e.src, e.tgt) for e in test), n)
    first = {}
    for e in test:
        first.setdefault(e.src, e)
    items = {
        "src": [first[s].src_tokens for s in sources],
        "steps": [len(first[s].tgt_tokens) + 1 for s in sources],
    }
    (work / h.LATENCY_JSON).write_text(json.dumps(items, ensure_ascii=False))


def up_to_date(data: str | Path, work: str | Path, settings: dict) -> bool:
    """True if ``work`` was prepared from this corpus file with these settings."""
    path = Path(work) / h.MANIFEST
    if not path.is_file():
        return False
    manifest = h.read_json(path)
    digest = hashlib.sha256(Path(data).read_bytes()).hexdigest()
    return manifest["corpus_sha256"] == digest and manifest["settings"] == settings


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", required=True, help="the corpus, source<TAB>target per line")
    ap.add_argument("--work", required=True, help="folder to write (created)")
    ap.add_argument("--subwords", type=int, default=h.RECIPE["subwords"])
    ap.add_argument("--bleu-sentences", type=int, default=1000)
    ap.add_argument("--latency-sentences", type=int, default=100)
    ap.add_argument("--speed-batches", type=int, default=50)
    ap.add_argument("--force", action="store_true", help="prepare again even if up to date")
    a = ap.parse_args()
    settings = _settings(a.subwords, a.bleu_sentences, a.latency_sentences, a.speed_batches)
    if not a.force and up_to_date(a.data, a.work, settings):
        print(f"{a.work}: up to date", file=sys.stderr)
        return
    manifest = write_work(
        a.data, a.work, a.subwords, a.bleu_sentences, a.latency_sentences, a.speed_batches,
        log=lambda msg: print(msg, file=sys.stderr),
    )  # fmt: skip
    print(json.dumps(manifest, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
