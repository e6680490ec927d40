"""Training throughput and decoding latency of attnviz at the textbook peer's model size.

    python benchmarks/speed/speed.py --data fra.txt --attention bahdanau [--no-input-feeding] \\
        [--steps 30]

Prints ``train_tok_per_s``, ``greedy_ms_per_sentence`` and ``beam5_ms_per_sentence``, the same
figures (and names) as ``../shared/peers/d2l_peer.py``: run both in one session and compare the
ratio. The model has the peer's size: embed 256, hidden 256, 2 GRU layers, dropout 0.2, batch 128,
vocabularies capped to the peer's 9,955 source and 17,741 target words, unidirectional encoder.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import torch

from attnviz.data.corpus import (
    DataConfig,
    bucket_batches,
    make_batch,
    read_corpus,
    split_examples,
    tokenize_pairs,
)
from attnviz.data.prepare import Prepared
from attnviz.data.text import TextConfig
from attnviz.data.vocab import EOS_ID, Vocab
from attnviz.decoding.translator import Translator
from attnviz.model.attention import SCORES
from attnviz.model.low_precision import for_decoding
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq
from attnviz.training.config import TrainConfig
from attnviz.training.precision_choice import choose_precision
from attnviz.training.train import evaluate_loss
from attnviz.training.update import optimizer, train_step
from attnviz.tuning.decoding_precision import DECODING, resolve_decoding
from attnviz.tuning.onednn import bound_product_cache
from attnviz.tuning.training_precision import TRAINING

SENTENCE = "I am not sure that he will come tomorrow."  # the peer's sentence: 10 tokens


def main() -> None:
    bound_product_cache()  # as the command line trains
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", required=True, help="the fra-eng corpus (fra.txt)")
    ap.add_argument("--attention", choices=SCORES, default="bahdanau")
    ap.add_argument("--no-input-feeding", dest="input_feeding", action="store_false")
    ap.add_argument("--bidirectional", action="store_true", help="bidirectional encoder (peer: no)")
    ap.add_argument(
        "--precision",
        choices=TRAINING,
        default="auto",
        help="training: bf16 autocast or fp32 (auto: the faster of the two where bf16 is native, "
        "timed once per machine and model shape)",
    )
    ap.add_argument(
        "--decoding",
        choices=DECODING,
        default="auto",
        help="how weights are stored for decoding (auto: the fastest here, timed once)",
    )
    ap.add_argument("--steps", type=int, default=30, help="timed training steps")
    ap.add_argument(
        "--valid-loss",
        action="store_true",
        help="after training, print the fp32 validation loss (compare precisions at equal steps)",
    )
    ap.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seeds the weights and the batch order: compare precisions at one seed, seeds at "
        "one precision to see how far validation loss moves by chance",
    )
    ap.add_argument("--warmup", type=int, default=3, help="untimed training steps first")
    ap.add_argument(
        "--repeats", type=int, default=50, help="timed translations; the median is printed"
    )
    ap.add_argument(
        "--decode-threads",
        type=int,
        default=None,
        help="CPU threads while decoding (default: torch's, one per core)",
    )
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--embed", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--src-vocab", type=int, default=9955)
    ap.add_argument("--tgt-vocab", type=int, default=17741)
    a = ap.parse_args()
    decoding = resolve_decoding(a.decoding)

    torch.manual_seed(a.seed)
    text = TextConfig(lowercase=True)  # as the peer's preprocessing
    splits = split_examples(tokenize_pairs(read_corpus(a.data).pairs, text), DataConfig())
    train = splits["train"]
    src_vocab = Vocab.build((e.src_tokens for e in train), 1, a.src_vocab)
    tgt_vocab = Vocab.build((e.tgt_tokens for e in train), 1, a.tgt_vocab)
    config = ModelConfig(
        len(src_vocab),
        len(tgt_vocab),
        a.attention,
        embed=a.embed,
        hidden=a.hidden,
        layers=a.layers,
        dropout=0.2,
        bidirectional=a.bidirectional,
        input_feeding=a.input_feeding,
    )
    model = Seq2Seq(config)
    opt = optimizer(model, lr=0.005)
    batches = bucket_batches(train, a.batch, torch.Generator().manual_seed(a.seed))
    settings = TrainConfig(lr=0.005, clip=1.0, precision=a.precision)  # as the peer trains
    first = make_batch(batches[0], src_vocab, tgt_vocab)
    precision, _ = choose_precision(settings, model, first, torch.device("cpu"), joined=False)
    settings = replace(settings, precision=precision)
    print(
        f"attnviz: {a.attention} input_feeding={a.input_feeding} vocab src={len(src_vocab)} "
        f"tgt={len(tgt_vocab)} hidden={a.hidden} layers={a.layers} batch={a.batch} "
        f"precision={precision} decoding={decoding} threads={torch.get_num_threads()}"
    )

    def step(i: int) -> int:
        batch = make_batch(batches[i], src_vocab, tgt_vocab)
        train_step(model, opt, batch, settings)
        return batch.n_tokens

    model.train()
    for i in range(a.warmup):
        step(i)
    t0 = time.perf_counter()
    tokens = sum(step(i) for i in range(a.warmup, a.warmup + a.steps))
    print(f"train_tok_per_s {tokens / (time.perf_counter() - t0):.0f}")
    if a.valid_loss:
        prepared = Prepared(None, splits, src_vocab, tgt_vocab)
        loss = evaluate_loss(model, splits["valid"], prepared, torch.device("cpu"))
        print(f"valid_loss {loss:.4f}")

    # Decode exactly the peer's 15 steps: an untrained model must not stop early at <eos>.
    with torch.no_grad():
        model.generator.bias[EOS_ID] = float("-inf")
    model = for_decoding(model.eval(), decoding)
    if a.decode_threads:
        torch.set_num_threads(a.decode_threads)
    tr = Translator(model, src_vocab, tgt_vocab, text)
    for beam, name in ((1, "greedy"), (5, "beam5")):
        trace = tr.translate(SENTENCE, beam=beam, max_len=15)
        assert len(trace.tgt_tokens) == 15, trace.tgt_tokens
        times = []
        for _ in range(a.repeats):
            t0 = time.perf_counter()
            tr.translate(SENTENCE, beam=beam, max_len=15)
            times.append(time.perf_counter() - t0)
        print(f"{name}_ms_per_sentence {statistics.median(times) * 1000:.2f}")


if __name__ == "__main__":
    main()
