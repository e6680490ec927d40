"""JoeyNMT's side of the comparison, on the files prepare.py wrote. Run with the Python of
JoeyNMT's own environment (setup.sh), never the project's:

    VENV/bin/python benchmarks/peers/joeynmt/joeynmt_side.py speed --work WORK --attention bahdanau
    VENV/bin/python benchmarks/peers/joeynmt/joeynmt_side.py budget --work WORK --attention general
    VENV/bin/python benchmarks/peers/joeynmt/joeynmt_side.py attention --work WORK \
        --attention general --out FOLDER

The same jobs and ``key value`` lines as attnviz_side.py. The model, data, vocabularies, loss,
optimizer and gradient clipper are JoeyNMT's own, built from the configuration prepare.py wrote
(``joeynmt.prediction.prepare`` and ``TrainManager``, as ``python -m joeynmt train`` builds
them); each update is TrainManager's own step (``_train_step``, then its clipper, Adam and
``zero_grad``, as in ``train_and_validate`` with ``batch_multiplier`` 1) over JoeyNMT's own
batch iterator. The harness only decides when to stop and when to translate the BLEU sources,
so that evaluation stays out of the CPU budget, as on attnviz's side. ``attention`` draws the
budget run's attention on the sentence attnviz_side.py's ``attention`` wrote, with JoeyNMT's own
validation plot (``store_attention_plots``): ``joeynmt-ATTENTION.png``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import torch
from joeynmt.batch import Batch
from joeynmt.config import load_config, parse_global_args, set_validation_args
from joeynmt.helpers import store_attention_plots
from joeynmt.prediction import prepare
from joeynmt.search import search
from joeynmt.training import TrainManager

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as h  # the folder's shared module, beside this file

CPU = torch.device("cpu")


class Setup:
    """JoeyNMT's model, data and TrainManager for one configuration."""

    def __init__(self, work: Path, attention: str):
        cfg = load_config(h.config_path(work, attention))
        Path(cfg["model_dir"]).mkdir(parents=True, exist_ok=True)
        self.args = parse_global_args(cfg, rank=0, mode="train")
        self.model, self.train, _, _ = prepare(self.args, rank=0, mode="train")
        self.trainer = TrainManager(
            rank=0,
            model=self.model,
            model_dir=self.args.model_dir,
            device=CPU,
            n_gpu=0,
            num_workers=0,
            autocast=self.args.autocast,
            seed=self.args.seed,
            train_args=self.args.train,
            dev_args=set_validation_args(self.args.test),
        )

    def batches(self, epoch: int):
        """JoeyNMT's own batches of ``epoch`` (1-based): shuffled, 64 sentences, no
        bucketing; the iterator reads and encodes each batch's lines as it goes."""
        t = self.args.train
        it = self.train.make_iter(
            batch_size=t.batch_size,
            batch_type=t.batch_type,
            seed=self.args.seed,
            shuffle=t.shuffle,
            num_workers=0,
            device=CPU,
            eos_index=self.model.eos_index,
            pad_index=self.model.pad_index,
        )
        it.batch_sampler.set_seed(self.args.seed + epoch)  # as train_and_validate does
        return it

    def collate(self, lines: list[int]) -> Batch:
        """The batch of these training lines, made as JoeyNMT's iterator makes one."""
        return self.train.collate_fn(
            [self.train[i] for i in lines],
            pad_index=self.model.pad_index,
            eos_index=self.model.eos_index,
            device=CPU,
        )

    def step(self, batch: Batch) -> int:
        """One update, as TrainManager.train_and_validate makes it; returns target tokens."""
        tm = self.trainer
        tm._train_step(batch)
        if tm.clip_grad_fun is not None:
            tm.clip_grad_fun(parameters=self.model.parameters())
        tm.optimizer.step()
        self.model.zero_grad()
        return batch.ntokens

    def source(self, rows: list[list[str]]) -> Batch:
        """A batch of source sentences (pieces), no target, sorted as search wants it."""
        ids, lengths, _ = self.model.src_vocab.sentences_to_ids(rows, bos=False, eos=True)
        batch = Batch(
            src=torch.tensor(ids).long(),
            src_length=torch.tensor(lengths).long(),
            src_prompt_mask=None,
            trg=None,
            trg_prompt_mask=None,
            indices=torch.arange(len(rows)),
            device=CPU,
            pad_index=self.model.pad_index,
            eos_index=self.model.eos_index,
            is_train=False,
        )
        batch.sort_by_src_length()
        return batch


def _time_steps(s: Setup, batches, warmup: int, steps: int) -> float:
    """Target tokens per second over ``steps`` updates after ``warmup``, making each batch
    inside the timing (as attnviz's side makes its own)."""
    it = iter(batches)
    s.model.train()
    for _ in range(warmup):
        s.step(next(it))
    t0 = time.perf_counter()
    tokens = sum(s.step(next(it)) for _ in range(steps))
    return tokens / (time.perf_counter() - t0)


def speed(a) -> None:
    s = Setup(a.work, a.attention)
    h.emit("train_tok_per_s", _time_steps(s, s.batches(epoch=1), a.warmup, a.steps))
    # The same length-bucketed batches as attnviz's side: the step's own speed, without the
    # padding that batching without buckets adds.
    picks = h.read_json(a.work / h.BATCHES_JSON)[: a.warmup + a.steps]
    same = (s.collate(lines) for lines in picks)
    h.emit("train_tok_per_s_same_batches", _time_steps(s, same, a.warmup, a.steps))

    s.model.eval()
    items = h.read_json(a.work / h.LATENCY_JSON)
    sources = [s.source([p]) for p in items["src"]]

    def run(i: int, beam: int):
        n = items["steps"][i]  # exactly the reference's steps: no <eos> before, none after
        return search(
            s.model, sources[i], max_output_length=n, beam_size=beam, beam_alpha=-1,
            min_output_length=n, return_attention=True,
        )  # fmt: skip

    out, _, _ = run(0, 1)
    assert out.shape[1] == items["steps"][0], (out.shape, items["steps"][0])
    n = len(sources)
    h.emit("greedy_ms_per_sentence", h.median_ms(lambda i: run(i, 1), n))
    h.emit(f"beam{h.BEAM}_ms_per_sentence", h.median_ms(lambda i: run(i, h.BEAM), n))
    h.emit("peak_rss_mb", h.peak_rss_mb())


def budget(a) -> None:
    """Train for ``a.minutes`` of CPU time, writing hypotheses at each mark."""
    s = Setup(a.work, a.attention)
    bleu = h.read_pieces(a.work / f"{h.BLEU}.en")
    (a.work / h.HYPS).mkdir(exist_ok=True)
    clock = h.Budget(a.minutes * 60, a.marks)
    steps = tokens = 0
    epoch = 1
    while not clock.over():
        s.model.train()
        for batch in s.batches(epoch):
            if (mark := clock.due()) is not None:
                with clock.left_out():
                    _write_hyps(s, bleu, h.hyps_path(a.work, "joeynmt", a.attention, mark / 60))
            if clock.over():
                break
            tokens += s.step(batch)
            steps += 1
        epoch += 1
    while (mark := clock.due()) is not None:
        _write_hyps(s, bleu, h.hyps_path(a.work, "joeynmt", a.attention, mark / 60))
    h.save_weights(s.model, a.work, "joeynmt", a.attention)  # for the attention job
    h.emit("budget_cpu_s", clock.spent())
    h.emit("budget_steps", steps)
    h.emit("budget_tok_per_cpu_s", tokens / clock.spent())
    h.emit("peak_rss_mb", h.peak_rss_mb())


def attention(a) -> None:
    """The budget run's model on the sentence attnviz_side.py's attention job wrote: JoeyNMT's
    own picture of its attention."""
    s = Setup(a.work, a.attention)
    weights = torch.load(h.weights_path(a.work, "joeynmt", a.attention), weights_only=True)
    s.model.load_state_dict(weights)
    s.model.eval()
    src = h.read_json(h.attention_json(a.work, a.attention))["src"]
    batch = s.source([src])
    ids, _, scores = search(
        s.model, batch, max_output_length=2 * len(src) + 10, beam_size=1, beam_alpha=-1,
        return_attention=True,
    )  # fmt: skip
    vocab = s.model.trg_vocab
    out = vocab.arrays_to_sentences(ids, cut_at_eos=False)[0]
    if vocab.specials[vocab.eos_index] in out:
        out = out[: out.index(vocab.specials[vocab.eos_index]) + 1]
    source = [*src, vocab.specials[vocab.eos_index]]
    a.out.mkdir(parents=True, exist_ok=True)
    prefix = a.out / f"joeynmt-{a.attention}"
    store_attention_plots(scores, [out], [source], prefix.as_posix(), indices=[0])
    Path(f"{prefix}.0.png").replace(prefix.with_suffix(".png"))  # its name: PREFIX.INDEX.png
    print(f"{prefix}.png: written", file=sys.stderr)


def _write_hyps(s: Setup, sources: list[list[str]], path: Path, batch_size: int = 64) -> None:
    """Greedy translations (pieces, up to <eos>) of ``sources`` with JoeyNMT's search, cut
    as attnviz's are: at most twice the source length plus 10 steps."""
    s.model.eval()
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    out: list[list[str]] = [[] for _ in sources]
    vocab = s.model.trg_vocab
    for k in range(0, len(order), batch_size):
        chunk = order[k : k + batch_size]
        batch = s.source([sources[i] for i in chunk])
        limit = 2 * int(batch.src_length.max()) + 10
        ids, _, _ = search(s.model, batch, max_output_length=limit, beam_size=1, beam_alpha=-1)
        for row, line in enumerate(batch.indices.tolist()):
            cap = 2 * int(batch.src_length[row]) + 10
            words = vocab.arrays_to_sentences([ids[row][:cap]], cut_at_eos=True)[0]
            out[chunk[line]] = [w for w in words if w != vocab.specials[vocab.eos_index]]
    h.write_pieces(path, out)
    s.model.train()
    print(f"{path.name}: written", file=sys.stderr)


def main() -> None:
    a = h.arguments(__doc__).parse_args()
    torch.set_num_threads(a.threads)
    {"speed": speed, "budget": budget, "attention": attention}[a.job](a)


if __name__ == "__main__":
    main()
