"""Command line: ``python -m attnviz {train,priors,translate,align,evaluate,index,corpus,
steps,handout,aer,info}``.

The options are declared in :mod:`attnviz.cli.arguments`; this module runs the commands,
:mod:`attnviz.cli.by_length_command` runs ``evaluate --by-length``,
:mod:`attnviz.cli.corpus_command` runs ``index`` and ``corpus``,
:mod:`attnviz.cli.steps_command` runs ``steps``,
:mod:`attnviz.cli.handout_command` runs ``handout``, and
:mod:`attnviz.cli.train_command` runs ``train``.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING

from ..analysis.aer import PAIR_FORMAT, parse_pair, read_gold_of_pairs, read_pairs
from ..data.corpus import DataConfig, read_sources
from ..data.text import TextConfig
from ..options import from_options
from ..tuning.onednn import bound_product_cache
from .arguments import parser
from .corpus_command import ask_corpus, build_index
from .handout_command import write_handout_command
from .steps_command import build_steps
from .train_command import train_command

if TYPE_CHECKING:
    pass


def main(argv: list[str] | None = None) -> int:
    bound_product_cache()  # before torch runs a product
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    from ..store.checkpoint import (
        CheckpointError,  # heavy imports after argument parsing (fast --help)
    )

    try:
        return {
            "train": lambda args: train_command(args, argv),
            "priors": lambda args: _priors(args, argv),
            "translate": _translate,
            "align": _align,
            "evaluate": _evaluate,
            "aer": _aer,
            "info": _info,
            "index": lambda args: build_index(args, argv),
            "corpus": ask_corpus,
            "steps": lambda args: build_steps(args, argv),
            "handout": write_handout_command,
        }[args.command](args)
    except (CheckpointError, OSError, ValueError) as e:  # OSError: a missing file, a folder …
        print(f"attnviz {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"attnviz {args.command}: interrupted", file=sys.stderr)
        return 130


def _priors(args, argv: list[str]) -> int:
    """eflomal's priors from the training split of --data; ``argv`` is recorded in them."""
    from ..analysis.eflomal_aligner import build_priors
    from ..analysis.eflomal_priors import PriorsConfig
    from ..data.corpus import read_corpus
    from ..store.priors_file import save_priors

    text = TextConfig(src_lang=args.src_lang, tgt_lang=args.tgt_lang, lowercase=args.lowercase)
    data = DataConfig(
        source_column=args.source_column,
        valid_percent=args.valid_percent,
        test_percent=args.test_percent,
        max_len=args.max_len,
    )
    priors = build_priors(
        read_corpus(args.data, args.source_column),
        text,
        data,
        from_options(PriorsConfig, args),
        command=shlex.join(["python", "-m", "attnviz", *argv]),
    )
    size = save_priors(priors, args.out)
    print(
        f"saved {args.out}: {size / 1e6:.2f} MB, "
        f"{priors.meta['corpus']['train_pairs']} training pairs aligned, {priors.counts()}",
        file=sys.stderr,
    )
    return 0


def _lines():
    for line in sys.stdin:
        yield line.rstrip("\n")


def _translate(args) -> int:
    """Translate stdin line by line, a chunk of lines at a time: output streams out, and
    memory stays the same whatever the length of the input."""
    from itertools import islice

    from ..store.checkpoint import load
    from .checks import translation_checker

    tr = load(args.checkpoint, precision=args.precision)
    check = translation_checker(tr, args.checkpoint, args.priors, args.index)
    lines, first = _lines(), 1
    while chunk := list(islice(lines, 16 * max(args.batch_size, 1))):
        _translate_chunk(tr, chunk, first, args, check)
        first += len(chunk)
    return 0


def _translate_chunk(tr, lines: list[str], first: int, args, check) -> None:
    """Print the translations of ``lines`` (line ``first`` onwards; a blank line gives a blank
    line); refusals, warnings and the ``check`` of each translation go to stderr with their
    line numbers."""
    from ..errors import InputError
    from ..plots.model_notes import doubts_note

    ok = [i for i, s in enumerate(lines) if s.strip()]
    texts = [""] * len(lines)
    results = tr.translate_each(
        [lines[i] for i in ok],
        beam=args.beam,
        alpha=args.alpha,
        beta=args.coverage,
        batch_size=args.batch_size,
    )
    done = [r for r in results if not isinstance(r, InputError)]
    checked = iter(check(done))
    doubts = [None if isinstance(r, InputError) else next(checked) for r in results]
    if args.json:
        _print_json(lines, ok, results, doubts)
        return
    for i, result, doubt in zip(ok, results, doubts, strict=True):
        if isinstance(result, InputError):
            print(f"line {first + i}: {result}", file=sys.stderr)
            continue
        texts[i] = result.text
        for note in (tr.text.language_note(lines[i]), result.warning(), doubts_note(doubt)):
            if note:
                print(f"line {first + i}: {note}", file=sys.stderr)
    print("\n".join(texts), flush=True)


def _print_json(lines: list[str], ok: list[int], results: list, doubts: list) -> None:
    """One JSON object per line of ``lines``: the Trace of each translated one with its
    ``check`` (what speaks against it, and the note the page shows), null for a blank one,
    {"error": ...} for a refused one."""
    from ..decoding.trace_json import trace_json
    from ..errors import InputError
    from ..plots.model_notes import doubts_note

    records: list[dict | None] = [None] * len(lines)
    for i, result, doubt in zip(ok, results, doubts, strict=True):
        if isinstance(result, InputError):
            records[i] = {"error": str(result)}
            continue
        check = doubt.to_json() | {"note": doubts_note(doubt)}
        records[i] = trace_json(result) | {"check": check}
    for record in records:
        print(json.dumps(record, ensure_ascii=False))
    sys.stdout.flush()


def _align(args) -> int:
    from ..analysis.align import pharaoh
    from ..errors import InputError
    from ..store.checkpoint import load

    if args.source == "eflomal":
        return _align_eflomal(args)
    links_of = _attention_links
    if args.source == "attribution":
        if args.method != "argmax" or args.shift:
            raise ValueError("--source attribution reads argmax links only (no --method, --shift)")
        links_of = _attribution_links
    tr = load(args.checkpoint, precision=args.precision)
    if args.source == "attention":
        _check_attention(tr, args.checkpoint, "--source attribution or --source eflomal")
    for n, line in enumerate(_lines(), 1):
        pair, links = parse_pair(line), []
        if pair is None:
            print(f"line {n}: {PAIR_FORMAT}", file=sys.stderr)
        else:
            try:
                links = links_of(tr, pair, args)
            except InputError as e:
                print(f"line {n}: {e}", file=sys.stderr)
        print(pharaoh(links), flush=True)
    return 0


def _check_attention(tr, path: str, instead: str) -> None:
    """Refuse to read links off the attention of a model that has none."""
    if not tr.model.config.has_attention:
        raise ValueError(
            f"{path} has no attention to read links from: it is a fixed-context "
            f"encoder-decoder (--attention none), whose every step reads one context vector. "
            f"Use {instead} instead."
        )


def _align_eflomal(args) -> int:
    """Pharaoh links of eflomal (with the model's priors) for every line of stdin, aligned in
    one run; a bad line is reported and gets an empty line, as with attention."""
    from ..analysis.align import pharaoh

    if args.method != "argmax" or args.shift:
        raise ValueError("--source eflomal takes --direction, not --method or --shift")
    aligner = _aligner(args)
    lines = list(_lines())
    pairs: dict[int, tuple[str, str]] = {}
    for n, line in enumerate(lines, 1):
        if (pair := parse_pair(line)) is None:
            print(f"line {n}: {PAIR_FORMAT}", file=sys.stderr)
        else:
            pairs[n] = pair
    try:  # one run of eflomal for the whole file: faster, and each line has the others' help
        found = aligner.link_words(list(pairs.values()))
    except ValueError:  # one pair eflomal cannot take fails the run: find it, align the rest
        for n in list(pairs):
            try:
                aligner.link_words([pairs[n]])
            except ValueError as e:
                print(f"line {n}: {e}", file=sys.stderr)
                del pairs[n]
        found = aligner.link_words(list(pairs.values()))
    alignments = dict(zip(pairs, found, strict=True))
    for n in range(1, len(lines) + 1):
        links = alignments[n].links(args.direction) if n in alignments else ()
        print(pharaoh(list(links)))
    return 0


def _aligner(args, tr=None):
    """eflomal with the priors of ``args.priors``, refused when ``args.checkpoint``'s model
    (``tr``, loaded here when not given) was trained on another corpus or split."""
    from ..analysis.eflomal_aligner import EflomalAligner
    from ..analysis.eflomal_priors import check_same_corpus
    from ..store.checkpoint import load
    from ..store.priors_file import load_priors

    priors = load_priors(args.priors)
    tr = tr or load(args.checkpoint, precision="fp32")
    check_same_corpus(priors, tr.card, tr.data, tr.text)
    return EflomalAligner(priors)


def _attention_links(tr, pair: tuple[str, str], args) -> list[tuple[int, int]]:
    from ..analysis.align import attention_word_links

    return attention_word_links(
        tr, *pair, args.method, args.threshold, args.shift, args.layer, args.head
    )


def _attribution_links(tr, pair: tuple[str, str], args) -> list[tuple[int, int]]:
    from ..analysis.align import forced_words
    from ..analysis.attribution import word_links

    return word_links(tr, forced_words(tr, *pair), args.attribution, args.ig_steps)


def _evaluate(args) -> int:
    from ..store.checkpoint import load
    from .by_length_command import check_options, evaluate_by_length

    if args.by_length:
        return evaluate_by_length(args)
    check_options(args)
    args.checkpoint = args.checkpoints[0]
    if bool(args.gold) != bool(args.pairs):
        raise ValueError("--gold and --pairs go together")
    if not (args.data or args.gold or args.sinks):
        raise ValueError("give --data (BLEU), --gold with --pairs (AER), --sinks, or several")
    if args.priors and not args.gold:
        raise ValueError("--priors gives eflomal's AER: it needs --gold and --pairs")
    attention = args.gold or args.sinks  # read off attention: as the model was trained
    tr = load(args.checkpoint, precision=args.precision or ("fp32" if attention else "auto"))
    if attention:
        _check_attention(tr, args.checkpoint, "--data alone for its BLEU")
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

    alignments = _aligner(args, tr).link_words(pairs)
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


def _aer(args) -> int:
    from ..analysis.aer import read_gold, read_hypotheses, score

    hyps = read_hypotheses(args.hyp)
    r = score(read_gold(args.gold, len(hyps)), hyps)
    print(f"precision {r.precision:.2f}")
    print(f"recall {r.recall:.2f}")
    print(f"AER {r.aer:.2f}")
    print(f"({r.sentences} sentences, {r.links} hypothesis links)")
    return 0


def _info(args) -> int:
    import numpy as np

    from ..store.checkpoint import load

    tr = load(args.checkpoint)
    card = {
        "model": asdict(tr.model.config),
        "text": asdict(tr.text),
        "data": asdict(tr.data) if tr.data else None,
        **tr.card,
    }
    if tr.history is not None and tr.history.snapshots:
        card["history"] = {
            **tr.history.to_json(),
            "attention": [  # per snapshot, per probe: (target words, source words + <eos>)
                [np.round(m, 4).tolist() for m in tr.history.matrices(k)]
                for k in range(len(tr.history.snapshots))
            ],
        }
    if args.json:
        print(json.dumps(card, indent=2, ensure_ascii=False))
        return 0
    if tr.history is not None and tr.history.snapshots:
        h = tr.history
        card["history"] = (
            f"{len(h.snapshots)} snapshots, epochs {h.snapshots[0]['epoch']} to "
            f"{h.snapshots[-1]['epoch']}, of {len(h.probes)} probe sentences "
            f"({sum(p.gold is not None for p in h.probes)} with gold alignments); "
            "--json shows them"
        )
    for key, value in card.items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
        print(f"{key}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
