"""attnviz's side of the JoeyNMT comparison, on the files prepare.py wrote.

    python benchmarks/peers/joeynmt/attnviz_side.py speed --work WORK --attention bahdanau
    python benchmarks/peers/joeynmt/attnviz_side.py budget --work WORK --attention general
    python benchmarks/peers/joeynmt/attnviz_side.py attention --work WORK --attention general \
        --sentence "The old man is reading a book in the garden." --out FOLDER

``speed``: training throughput (target tokens/s over the length-bucketed batches of the
recipe's first epoch), then greedy and beam-5 latency per test sentence, each decoded alone
for exactly the steps its reference takes. ``budget``: trains for a budget of CPU time with the
recipe and, at each mark, writes greedy hypotheses (pieces) of the BLEU validation sources for
score.py. Figures are ``key value`` lines on stdout; joeynmt_side.py prints the same keys.
``attention``: after the budget run, its model's attention on one sentence as the dashboard
draws it (attnviz's own heatmap, over pieces: ``attnviz-ATTENTION.png``) and the sentence's
pieces for joeynmt_side.py to draw JoeyNMT's plot of the same.

``--recipe lean`` trains the same size the cheaper way (issue 27's item 4): the output layer
tied to the target embedding through a projection to 192 (``--tie-output``: half the products
of the 8,000-way layer) and the learning rate falling linearly to 0 over the budget
(``--schedule linear``, the budget's CPU time standing for the epochs). Its hypotheses are
labelled ``attnviz_lean``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

from attnviz.data.corpus import Example, bucket_batches, encode_source, make_batch, pad
from attnviz.data.subwords import Subwords
from attnviz.data.text import TextConfig
from attnviz.data.vocab import EOS, EOS_ID
from attnviz.decoding import decode
from attnviz.decoding.translator import Translator
from attnviz.model.build import build_model
from attnviz.model.low_precision import for_decoding
from attnviz.model.model_config import MULTIHEAD, ModelConfig
from attnviz.plots import heatmaps, image_export
from attnviz.training.config import TrainConfig
from attnviz.training.precision_choice import choose_precision
from attnviz.training.update import optimizer, set_lr, train_step
from attnviz.tuning.decoding_precision import DECODING, resolve_decoding
from attnviz.tuning.onednn import bound_product_cache
from attnviz.tuning.training_precision import TRAINING

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as h  # the folder's shared module, beside this file

SEED = 0
RECIPES = ("shipped", "lean")


class Setup:
    """The recipe's model, optimizer and training data, read from the work folder."""

    def __init__(self, work: Path, attention: str, precision: str, recipe: str = "shipped"):
        r, lean = h.RECIPE, recipe == "lean"
        self.label = "attnviz_lean" if lean else "attnviz"
        subwords = Subwords(
            (work / f"{h.SPM}.en.model").read_bytes(), (work / f"{h.SPM}.fr.model").read_bytes()
        )
        self.subwords = subwords
        self.src_vocab, self.tgt_vocab = subwords.src.vocab, subwords.tgt.vocab
        src, tgt = (h.read_pieces(work / f"{h.TRAIN}.{lang}") for lang in h.LANGS)
        self.train = [Example("", "", s, t) for s, t in zip(src, tgt, strict=True)]
        self.config = TrainConfig(
            batch_size=r["batch_size"],
            lr=r["lr"],
            # the recipe's schedule: halved each epoch after the 5th; lean: linear to 0, with
            # the budget's share spent as the epoch (epochs=1)
            epochs=1 if lean else 10,
            decay_after=0 if lean else 5,
            lr_decay=0.5,
            schedule="linear" if lean else "step",
            clip=r["clip"],
            seed=SEED,
            label_smoothing=r["label_smoothing"],
            precision=precision,
            join_fraction=0.0,  # JoeyNMT cannot join pairs; see the README
        )
        torch.manual_seed(SEED)
        vocabs = len(self.src_vocab), len(self.tgt_vocab)
        if attention == MULTIHEAD:  # the shipped Transformers' size (harness.TRANSFORMER)
            t = h.TRANSFORMER
            size = dict(embed=t["hidden"], hidden=t["hidden"], layers=t["layers"], heads=t["heads"])
            config = ModelConfig(
                *vocabs, attention, **size, ff=t["ff"], dropout=r["dropout"],
                model="transformer", tie_output=True,
            )  # fmt: skip
            self.config = replace(self.config, lr=t["lr"])
        else:
            config = ModelConfig(
                *vocabs,
                attention=attention,
                embed=r["embed"],
                hidden=r["hidden"],
                layers=r["layers"],
                dropout=r["dropout"],
                scaled=attention != "bahdanau",  # the recipe's --scaled-scores for Luong
                tie_output=lean,
            )
        self.model = build_model(config)
        self.opt = optimizer(self.model, self.config.lr)
        first = make_batch(self.train[: r["batch_size"]], self.src_vocab, self.tgt_vocab)
        chosen, _ = choose_precision(self.config, self.model, first, torch.device("cpu"), False)
        self.config = replace(self.config, precision=chosen)

    def step(self, chunk: list[Example]) -> int:
        """One training update on ``chunk``; returns its target tokens."""
        batch = make_batch(chunk, self.src_vocab, self.tgt_vocab)
        train_step(self.model, self.opt, batch, self.config)
        return batch.n_tokens

    def source(self, pieces: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        ids = encode_source(pieces, self.src_vocab)
        return torch.tensor([ids]), torch.tensor([len(ids)])


def speed(a) -> None:
    s = Setup(a.work, a.attention, a.precision)
    picks = h.read_json(a.work / h.BATCHES_JSON)[: a.warmup + a.steps]
    batches = [[s.train[i] for i in b] for b in picks]
    s.model.train()
    for chunk in batches[: a.warmup]:
        s.step(chunk)
    t0 = time.perf_counter()
    tokens = sum(s.step(chunk) for chunk in batches[a.warmup :])
    h.emit("train_tok_per_s", tokens / (time.perf_counter() - t0))

    # Decode exactly each reference's steps: untrained weights must not stop at <eos>.
    with torch.no_grad():
        s.model.generator.bias[EOS_ID] = float("-inf")
    model = for_decoding(s.model.eval(), resolve_decoding(a.decoding))
    items = h.read_json(a.work / h.LATENCY_JSON)
    sources = [s.source(p) for p in items["src"]]
    limits = [torch.tensor([n]) for n in items["steps"]]
    (d,) = decode.greedy(model, *sources[0], limits[0])
    assert len(d.ids) == items["steps"][0], (len(d.ids), items["steps"][0])

    def greedy(i: int) -> None:
        decode.greedy(model, *sources[i], limits[i])

    def beam(i: int) -> None:
        decode.beam_search(model, *sources[i], h.BEAM, limits[i])

    n = len(sources)
    h.emit("greedy_ms_per_sentence", h.median_ms(greedy, n))
    h.emit(f"beam{h.BEAM}_ms_per_sentence", h.median_ms(beam, n))
    h.emit("peak_rss_mb", h.peak_rss_mb())


def budget(a) -> None:
    """Train for ``a.minutes`` of CPU time, writing hypotheses at each mark."""
    s = Setup(a.work, a.attention, a.precision, a.recipe)
    linear = s.config.schedule == "linear"
    bleu = h.read_pieces(a.work / f"{h.BLEU}.en")
    (a.work / h.HYPS).mkdir(exist_ok=True)
    clock = h.Budget(a.minutes * 60, a.marks)
    steps = tokens = epoch = 0
    while not clock.over():
        gen = torch.Generator().manual_seed(SEED * 100_003 + epoch)  # as attnviz's epochs
        s.model.train()
        for chunk in bucket_batches(s.train, s.config.batch_size, gen):
            if (mark := clock.due()) is not None:
                with clock.left_out():
                    _write_hyps(s, bleu, h.hyps_path(a.work, s.label, a.attention, mark / 60))
            if clock.over():
                break
            set_lr(s.opt, s.config.lr_at(clock.spent() / clock.seconds if linear else epoch))
            tokens += s.step(chunk)
            steps += 1
        epoch += 1
    while (mark := clock.due()) is not None:  # the last mark falls on the budget's end
        _write_hyps(s, bleu, h.hyps_path(a.work, s.label, a.attention, mark / 60))
    h.save_weights(s.model, a.work, s.label, a.attention)  # for the attention job
    h.emit("budget_cpu_s", clock.spent())
    h.emit("budget_steps", steps)
    h.emit("budget_tok_per_cpu_s", tokens / clock.spent())
    h.emit("peak_rss_mb", h.peak_rss_mb())


def attention(a) -> None:
    """The budget run's model on ``a.sentence``: attnviz's heatmap of it, and its pieces."""
    s = Setup(a.work, a.attention, "fp32", a.recipe)
    weights = torch.load(h.weights_path(a.work, s.label, a.attention), weights_only=True)
    s.model.load_state_dict(weights)
    text = TextConfig()
    translator = Translator(s.model.eval(), s.src_vocab, s.tgt_vocab, text, subwords=s.subwords)
    trace = translator.translate(a.sentence)
    pieces = trace.pieces or trace
    own = translator.pieces(text.tokenize(a.sentence), "src")  # as vocab.en spells them
    assert len(own) + 1 == len(pieces.src_tokens) and pieces.src_tokens[-1] == EOS
    h.write_json(h.attention_json(a.work, a.attention), {"src": own})
    title = f"attnviz · {a.attention} · after {a.minutes:g} CPU minutes"
    a.out.mkdir(parents=True, exist_ok=True)
    path = a.out / f"{s.label}-{a.attention}.png"
    path.write_bytes(image_export.to_image(heatmaps.heatmap(pieces, title=title), "png"))
    print(f"{path}: written", file=sys.stderr)


def _write_hyps(s: Setup, sources: list[list[str]], path: Path, batch_size: int = 64) -> None:
    """Greedy translations (pieces, up to <eos>) of ``sources``, in fp32, as attnviz
    validates: batches of similar length, at most twice the source length plus 10 steps."""
    s.model.eval()
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    out: list[list[str]] = [[] for _ in sources]
    for k in range(0, len(order), batch_size):
        chunk = order[k : k + batch_size]
        ids = [encode_source(sources[i], s.src_vocab) for i in chunk]
        src = pad(ids)
        lens = torch.tensor([len(x) for x in ids])
        for i, d in zip(chunk, decode.greedy(s.model, src, lens, 2 * lens + 10), strict=True):
            out[i] = s.tgt_vocab.decode([t for t in d.ids if t != EOS_ID])
    h.write_pieces(path, out)
    s.model.train()
    print(f"{path.name}: written", file=sys.stderr)


def main() -> None:
    bound_product_cache()  # as the command line trains
    ap = h.arguments(__doc__)
    ap.add_argument(
        "--precision", choices=TRAINING, default="auto", help="training (auto: bf16 if native)"
    )
    ap.add_argument(
        "--decoding", choices=DECODING, default="auto", help="decoding (auto: int8 on x86)"
    )
    ap.add_argument(
        "--recipe", choices=RECIPES, default="shipped", help="budget: see above (default shipped)"
    )
    ap.add_argument("--sentence", help="attention: the English sentence")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    {"speed": speed, "budget": budget, "attention": attention}[a.job](a)


if __name__ == "__main__":
    main()
