"""``attnviz evaluate CHECKPOINT``: sacreBLEU on the held-out split of the model's corpus
(--data), the alignment error rate against gold alignments of the links read off attention, off
attribution and found by eflomal (--gold, --pairs), and attention sinks (--sinks); one run may
do several. ``evaluate --by-length`` is :mod:`attnviz.cli.by_length_command`'s."""

from __future__ import annotations

import sys

from ..analysis.aer import read_gold_of_pairs, read_pairs
from ..data.corpus import read_sources
from ..model.precision import Precision
from .align_command import check_attention, eflomal_aligner


def evaluate_command(args) -> int:
    """Score ``args.checkpoints[0]`` in each mode asked for (--data, --gold, --sinks), or hand
    --by-length to :func:`attnviz.cli.by_length_command.run_by_length`."""
    from ..store.checkpoint import load
    from .by_length_command import refuse_by_length_options, run_by_length

    if args.by_length:
        return run_by_length(args)
    refuse_by_length_options(args)
    args.checkpoint = args.checkpoints[0]
    if bool(args.gold) != bool(args.pairs):
        raise ValueError("--gold and --pairs go together")
    if not (args.data or args.gold or args.sinks):
        raise ValueError("give --data (BLEU), --gold with --pairs (AER), --sinks, or several")
    if args.priors and not args.gold:
        raise ValueError("--priors gives eflomal's AER: it needs --gold and --pairs")
    attention = args.gold or args.sinks  # read off attention: as the model was trained
    precision = args.precision or (Precision.FP32 if attention else Precision.AUTO)
    tr = load(args.checkpoint, precision=precision)
    if attention:
        check_attention(tr, args.checkpoint, "--data alone for its BLEU")
    if args.data:
        _evaluate_bleu(tr, args)
    if args.gold:
        _evaluate_aer(tr, args)
    for path in args.sinks or []:
        _evaluate_sinks(tr, path)
    print(f"precision {tr.precision}")
    return 0


def _evaluate_bleu(tr, args) -> None:
    from ..analysis.evaluate import corpus_bleu
    from ..data.corpus import held_out, read_corpus

    data = tr.data
    if data is None:
        raise ValueError(
            f"{args.checkpoint}: the checkpoint does not record how its data was split"
        )
    corpus = read_corpus(args.data, data.source_column)
    recorded = tr.card.get("corpus", {}).get("sha256")
    if recorded and recorded != corpus.sha256:
        print(
            f"warning: {args.data} is not the file the model was trained on (sha256 differs)",
            file=sys.stderr,
        )
    sources, refs = held_out(corpus, data.valid_percent, data.test_percent, args.split)
    if not sources:
        raise ValueError(f"{args.data}: the {args.split} split is empty")
    for beam in args.beam:
        r = corpus_bleu(tr, sources, refs, beam=beam, alpha=args.alpha, beta=args.coverage)
        print(f"BLEU beam{beam} {r.score}  ({r.sentences} sentences, {args.split} split)")
    print(f"signature {r.signature}")


def _evaluate_sinks(tr, path: str) -> None:
    from ..analysis.evaluate import corpus_sinks

    sources = read_sources(path)
    if not sources:
        raise ValueError(f"{path}: no sentences")
    r = corpus_sinks(tr, sources)
    print(
        f"sinks  <eos>: first token {r.first_eos}%, steps {r.steps_eos}%  ·  final punctuation: "
        f"first token {r.first_punct}%, steps {r.steps_punct}%  ({path}: {r.sentences} "
        f"sentences, {r.steps} steps, greedy)"
    )


def _evaluate_aer(tr, args) -> None:
    from ..analysis.evaluate import corpus_aer

    pairs = read_pairs(args.pairs)
    gold = read_gold_of_pairs(args.gold, args.reverse_gold, pairs)
    results = corpus_aer(tr, pairs, gold, args.threshold, args.layer, args.head)
    for (method, shift), r in results.items():
        name = method + (" --shift" if shift else "")
        print(
            f"AER {r.aer:.2f}  {name:<19} precision {r.precision:.2f}, recall {r.recall:.2f}, "
            f"{r.links} links"
        )
    print(f"({len(pairs)} sentence pairs, threshold {args.threshold})")
    if tr.model.config.model == "transformer":
        _evaluate_heads(tr, pairs, gold)
    if args.attribution:
        _evaluate_attribution(tr, pairs, gold, args)
    if args.priors:
        _evaluate_eflomal(tr, pairs, gold, args)


def _evaluate_heads(tr, pairs, gold) -> None:
    from ..analysis.evaluate import heads_aer

    results = heads_aer(tr, pairs, gold)
    print("argmax AER by layer and head (--layer L --head H), without / with --shift:")
    for layer in range(tr.model.config.layers):
        cells = [
            f"{'mean' if head is None else f'head {head}'} "
            f"{results[layer, head, False].aer:.1f} / {results[layer, head, True].aer:.1f}"
            for head in (None, *range(tr.model.config.heads))
        ]
        print(f"  layer {layer}: " + " · ".join(cells))


def _evaluate_eflomal(tr, pairs, gold, args) -> None:
    from ..analysis.aer import score
    from ..analysis.eflomal_aligner import DIRECTIONS

    alignments = eflomal_aligner(args, tr).link_words(pairs)
    for d in DIRECTIONS:
        r = score(gold, [set(a.links(d)) for a in alignments])
        print(
            f"AER {r.aer:.2f}  {'eflomal ' + d:<20} precision {r.precision:.2f}, recall "
            f"{r.recall:.2f}, {r.links} links  (statistical aligner, {args.priors})"
        )


def _evaluate_attribution(tr, pairs, gold, args) -> None:
    from ..analysis.evaluate import attribution_aer

    methods = tuple(dict.fromkeys(args.attribution))
    for method, r in attribution_aer(tr, pairs, gold, methods, args.ig_steps).items():
        print(
            f"AER {r.aer:.2f}  {method:<20} precision {r.precision:.2f}, recall "
            f"{r.recall:.2f}, {r.links} links  (attribution, argmax)"
        )
    if "integrated_gradients" in methods:
        print(f"(integrated gradients: {args.ig_steps} steps)")
