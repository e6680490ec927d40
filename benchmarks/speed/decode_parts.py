"""Where one greedy sentence's time goes, part by part, at the textbook peer's model size.

    python benchmarks/speed/decode_parts.py --attention bahdanau [--decoding int8] [--threads 2]

An untrained model (the sizes of speed.py: embed 256, hidden 256, 2 layers, 17,741 target
words, unidirectional encoder) and an 11-token source. Each part is timed on its own, warm, and
the median of many calls is printed in microseconds: encoding, one decoder step with its parts
(GRU, attention, output layer), the log-softmax and top-k over the vocabulary that follow each
step, and a whole 15-step greedy decoding (the sum of the parts plus the bookkeeping between
them). No corpus is needed: the token ids are random.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import torch

from attnviz.data.vocab import EOS_ID
from attnviz.decoding.decode import greedy
from attnviz.model.attention import SCORES
from attnviz.model.low_precision import for_decoding
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq
from attnviz.tuning.decoding_precision import DECODING, resolve_decoding


def median_us(f: Callable[[], object], repeats: int) -> float:
    for _ in range(max(1, repeats // 10)):
        f()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--attention", choices=SCORES, default="bahdanau")
    ap.add_argument("--no-input-feeding", dest="input_feeding", action="store_false")
    ap.add_argument("--decoding", choices=DECODING, default="auto")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads (default: torch's)")
    ap.add_argument("--repeats", type=int, default=500)
    a = ap.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    decoding = resolve_decoding(a.decoding)

    torch.manual_seed(0)
    config = ModelConfig(
        9955, 17741, a.attention, embed=256, hidden=256, layers=2, dropout=0.2,
        bidirectional=False, input_feeding=a.input_feeding,
    )  # fmt: skip
    model = Seq2Seq(config)
    with torch.no_grad():
        model.generator.bias[EOS_ID] = float("-inf")  # decode all 15 steps, as the peer does
    model = for_decoding(model.eval(), decoding)
    src, src_lens = torch.randint(4, 9000, (1, 11)), torch.tensor([11])
    dec = model.decoder

    with torch.inference_mode():
        memory, state = model.encode(src, src_lens)
        y = torch.tensor([5])
        features, *_ = dec._step(y, state, memory)
        logits = model.step(y, state, memory).logits
        logp = logits.log_softmax(-1)
        rnn_in = torch.randn(1, 1, dec.rnn.input_size)
        query = state.rnn[-1].unsqueeze(1)
        parts = {
            "encode (11 tokens)": lambda: model.encode(src, src_lens),
            "decoder step": lambda: model.step(y, state, memory),
            "  GRU": lambda: dec.rnn(rnn_in, state.rnn),
            "  attention": lambda: dec.attention(query, memory),
            "  output layer": lambda: dec.generator(features),
            "log-softmax": lambda: logits.log_softmax(-1),
            "top-k": lambda: logp.topk(5, dim=-1),
            "greedy, 15 steps": lambda: greedy(model, src, src_lens, torch.tensor([15])),
        }
        print(
            f"{a.attention} input_feeding={a.input_feeding} decoding={decoding} "
            f"threads={torch.get_num_threads()}"
        )
        for name, f in parts.items():
            repeats = a.repeats // 10 if name.startswith("greedy") else a.repeats
            print(f"{name:<20} {median_us(f, repeats):8.1f} us")


if __name__ == "__main__":
    main()
