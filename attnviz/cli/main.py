"""Command line: ``python -m attnviz {train,priors,translate,align,evaluate,index,corpus,
steps,handout,dialogue,distill,aer,info}``.

The options are declared in :mod:`attnviz.cli.arguments`; this module reads them and runs
``priors``, ``translate``, ``dialogue``, ``aer`` and ``info`` itself;
:mod:`attnviz.cli.align_command` runs ``align``,
:mod:`attnviz.cli.evaluate_command` runs ``evaluate``,
:mod:`attnviz.cli.by_length_command` runs ``evaluate --by-length``,
:mod:`attnviz.cli.corpus_command` runs ``index`` and ``corpus``,
:mod:`attnviz.cli.steps_command` runs ``steps``,
:mod:`attnviz.cli.handout_command` runs ``handout``,
:mod:`attnviz.cli.distill_command` runs ``distill``, and
:mod:`attnviz.cli.train_command` runs ``train``.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import asdict

from ..data.corpus import DataConfig
from ..data.text import TextConfig
from ..options import from_options
from ..tuning.onednn import bound_product_cache
from .align_command import align_command
from .arguments import parser
from .corpus_command import ask_corpus, build_index
from .distill_command import distill_command
from .evaluate_command import evaluate_command
from .handout_command import write_handout_command
from .steps_command import build_steps
from .train_command import train_command


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
            "align": lambda args: align_command(args, _lines()),
            "evaluate": evaluate_command,
            "aer": _aer,
            "info": _info,
            "index": lambda args: build_index(args, argv),
            "corpus": ask_corpus,
            "steps": lambda args: build_steps(args, argv),
            "handout": write_handout_command,
            "dialogue": _dialogue,
            "distill": distill_command,
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


def _dialogue(args) -> int:
    """XDailyDialog's split ``args.split`` written as a corpus (:mod:`attnviz.data.dialogue`)."""
    from ..data.dialogue import dialogue_pairs
    from ..files import atomic_write

    pairs, counts = dialogue_pairs(args.folder, args.split)
    atomic_write(args.out, "".join(p.line() + "\n" for p in pairs).encode("utf-8"))
    print(
        f"saved {args.out}: {len(pairs)} pairs of {counts.read} in {args.split}; dropped "
        f"{counts.held_out} whose English or Chinese another split has, {counts.repeated} "
        "repeats or empty lines",
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
    from ..errors import Refused
    from ..plots.model_notes import doubts_note, trace_warning

    ok = [i for i, s in enumerate(lines) if s.strip()]
    texts = [""] * len(lines)
    results = tr.translate_each(
        [lines[i] for i in ok],
        beam=args.beam,
        alpha=args.alpha,
        beta=args.coverage,
        batch_size=args.batch_size,
    )
    done = [r for r in results if not isinstance(r, Refused)]
    checked = iter(check(done))
    doubts = [None if isinstance(r, Refused) else next(checked) for r in results]
    if args.json:
        _print_json(lines, ok, results, doubts)
        return
    for i, result, doubt in zip(ok, results, doubts, strict=True):
        if isinstance(result, Refused):
            print(f"line {first + i}: {result}", file=sys.stderr)
            continue
        texts[i] = result.text
        doubted = doubts_note(doubt) if doubt is not None else None  # (None: refused)
        for note in (tr.text.language_note(lines[i]), trace_warning(result), doubted):
            if note:
                print(f"line {first + i}: {note}", file=sys.stderr)
    print("\n".join(texts), flush=True)


def _print_json(lines: list[str], ok: list[int], results: list, doubts: list) -> None:
    """One JSON object per line of ``lines``: the Trace of each translated one with its
    ``check`` (what speaks against it, and the note the page shows), null for a blank one,
    {"error": ...} for a refused one."""
    from ..decoding.trace_json import trace_json
    from ..errors import Refused
    from ..plots.model_notes import doubts_note, trace_warning

    records: list[dict | None] = [None] * len(lines)
    for i, result, doubt in zip(ok, results, doubts, strict=True):
        if isinstance(result, Refused):
            records[i] = {"error": result.message}
            continue
        check = doubt.to_json() | {"note": doubts_note(doubt)}
        records[i] = trace_json(result) | {"warning": trace_warning(result), "check": check}
    for record in records:
        print(json.dumps(record, ensure_ascii=False))
    sys.stdout.flush()


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
            f"{len(h.snapshots)} snapshots, epochs {h.snapshots[0].epoch} to "
            f"{h.snapshots[-1].epoch}, of {len(h.probes)} probe sentences "
            f"({sum(p.gold is not None for p in h.probes)} with gold alignments); "
            "--json shows them"
        )
    for key, value in card.items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
        print(f"{key}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
