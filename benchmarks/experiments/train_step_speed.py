"""Milliseconds per training update of the shipped size on a device, on random tokens.

    python benchmarks/experiments/train_step_speed.py general|bahdanau cuda|cpu [UPDATES]

A batch of 128 pairs, 13 source and 16 target pieces, a 16,000-piece vocabulary each side and
the output layer through the embedding size (--output-projection): what one update of
benchmarks/experiments/retrain_16k.sh costs. That script runs two at once, as it trains, and
sizes its epochs from the figures.
"""

import sys
import time

import torch
import torch.nn.functional as F

from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq

BATCH, SOURCE, TARGET, VOCAB = 128, 13, 16, 16_000


def update_ms(attention: str, device: str, updates: int = 40) -> float:
    extra = {"scaled": True} if attention == "general" else {"bridge": "backward"}
    config = ModelConfig(
        src_vocab=VOCAB, tgt_vocab=VOCAB, attention=attention, embed=192, hidden=384,
        dropout=0.3, output_projection=True, **extra,
    )  # fmt: skip
    model = Seq2Seq(config).to(device)
    opt = torch.optim.Adam(model.parameters(), fused=True)
    src = torch.randint(4, VOCAB, (BATCH, SOURCE), device=device)
    lens = torch.full((BATCH,), SOURCE)
    tgt = torch.randint(4, VOCAB, (BATCH, TARGET), device=device)

    def update() -> None:
        features, _ = model.features(src, lens, tgt)
        logits = model.generator(features.reshape(-1, features.size(-1)))
        loss = F.cross_entropy(logits, tgt.reshape(-1), label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        loss.item()  # waits for the device

    for _ in range(5):
        update()
    start = time.perf_counter()
    for _ in range(updates):
        update()
    return (time.perf_counter() - start) / updates * 1000


if __name__ == "__main__":
    updates = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    print(f"{update_ms(sys.argv[1], sys.argv[2], updates):.1f}")
