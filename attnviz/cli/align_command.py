"""``attnviz align CHECKPOINT``: word links of ``source ||| target`` lines, as Pharaoh ``i-j``
lines, read off the model's attention (--method, --shift; a Transformer's --layer and --head),
off attribution (--source attribution), or found by eflomal with the priors of the model's
corpus (--source eflomal)."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ..analysis.aer import PAIR_FORMAT, parse_pair
from ..model.precision import Precision


def align_command(args, lines: Iterable[str]) -> int:
    """Print the links of each ``source ||| target`` line of ``lines`` (Pharaoh ``i-j``, one
    line out per line in; a bad line is reported on stderr and gets an empty line)."""
    from ..analysis.align import pharaoh
    from ..errors import InputError
    from ..store.checkpoint import load

    if args.source == "eflomal":
        return _align_eflomal(args, lines)
    links_of = _attention_links
    if args.source == "attribution":
        if args.method != "argmax" or args.shift:
            raise ValueError("--source attribution reads argmax links only (no --method, --shift)")
        links_of = _attribution_links
    tr = load(args.checkpoint, precision=args.precision)
    if args.source == "attention":
        check_attention(tr, args.checkpoint, "--source attribution or --source eflomal")
    for n, line in enumerate(lines, 1):
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


def check_attention(tr, path: str, instead: str) -> None:
    """Refuse to read links off the attention of a model that has none."""
    if not tr.model.config.has_attention:
        raise ValueError(
            f"{path} has no attention to read links from: it is a fixed-context "
            f"encoder-decoder (--attention none), whose every step reads one context vector. "
            f"Use {instead} instead."
        )


def _align_eflomal(args, lines: Iterable[str]) -> int:
    """Pharaoh links of eflomal (with the model's priors) for every line of ``lines``, aligned in
    one run; a bad line is reported and gets an empty line, as with attention."""
    from ..analysis.align import pharaoh

    if args.method != "argmax" or args.shift:
        raise ValueError("--source eflomal takes --direction, not --method or --shift")
    aligner = eflomal_aligner(args)
    lines = list(lines)
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


def eflomal_aligner(args, tr=None):
    """eflomal with the priors of ``args.priors``, refused when ``args.checkpoint``'s model
    (``tr``, loaded here when not given) was trained on another corpus or split."""
    from ..analysis.eflomal_aligner import EflomalAligner
    from ..analysis.eflomal_priors import check_same_corpus
    from ..store.checkpoint import load
    from ..store.priors_file import load_priors

    priors = load_priors(args.priors)
    tr = tr or load(args.checkpoint, precision=Precision.FP32)
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
