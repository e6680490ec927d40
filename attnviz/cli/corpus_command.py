"""``attnviz index`` builds a corpus index (see :mod:`attnviz.store.corpus_index`) and names it in
checkpoints' cards; ``attnviz corpus`` asks one what a model's training split says about a word
(see :mod:`attnviz.store.corpus_lookup`)."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

from ..data.corpus import DataConfig
from ..data.text import TextConfig
from ..store.corpus_index import CARD_KEY


def build_index(args, argv: list[str]) -> int:
    """Align and index ``args.corpus`` as ``args`` or ``--checkpoint`` say; write ``--out``,
    and name it in the cards of ``--card`` checkpoints."""
    from ..data.corpus import read_corpus
    from ..store.checkpoint import read_settings
    from ..store.corpus_index import write_index
    from ..training.guide import EFLOMAL, teacher_links

    if args.checkpoint:
        card, text, data = read_settings(args.checkpoint)
    else:
        card = None
        text = TextConfig(args.src_lang, args.tgt_lang, args.lowercase)
        data = DataConfig(
            source_column=args.source_column,
            valid_percent=args.valid_percent,
            test_percent=args.test_percent,
            max_len=args.max_len,
        )
    log = lambda msg: print(msg, file=sys.stderr)  # noqa: E731
    start = time.perf_counter()
    corpus = read_corpus(args.corpus, data.source_column)
    if args.card_only:
        return _card_only(args, corpus.sha256, log)
    recorded = ((card or {}).get("corpus") or {}).get("sha256")
    if card is not None and recorded != corpus.sha256:
        raise ValueError(
            f"{args.checkpoint} was trained on another corpus (sha256 {str(recorded)[:12]}…) "
            f"than {args.corpus} (sha256 {corpus.sha256[:12]}…)"
        )
    if not corpus.pairs:
        raise ValueError(f"{args.corpus}: no sentence pairs ({corpus.skipped} malformed lines)")
    teacher = teacher_links(corpus, text, EFLOMAL, args.out, log)
    aligner = {"name": teacher.name, "links_sha256": teacher.sha256}
    command = shlex.join(["python", "-m", "attnviz", *argv])
    size = write_index(args.out, corpus, text, data, teacher.links, aligner, command)
    log(
        f"saved {args.out}: {size / 1e6:.1f} MB, {len(corpus.pairs)} pairs, "
        f"{time.perf_counter() - start:.0f} s"
    )
    _name_in_cards(args.out, args.card, log)
    return 0


def _card_only(args, corpus_sha256: str, log) -> int:
    """``--card-only``: the index at ``--out`` named in the ``--card`` checkpoints' cards, once
    it is found to be of CORPUS."""
    from ..store.corpus_index import CorpusIndex

    if not args.card:
        raise ValueError("--card-only names an index in --card checkpoints: give some")
    index = CorpusIndex(args.out)  # CorpusIndexError (a ValueError) when it is none
    found = index.corpus_sha256
    index.close()
    if found != corpus_sha256:
        raise ValueError(
            f"{args.out} indexes another corpus (sha256 {found[:12]}…) than {args.corpus} "
            f"(sha256 {corpus_sha256[:12]}…)"
        )
    _name_in_cards(args.out, args.card, log)
    return 0


def _name_in_cards(out: str, checkpoints: list[str], log) -> None:
    """Name the index at ``out`` (its file name and sha256) in each of ``checkpoints``' cards."""
    from ..store.checkpoint import file_sha256
    from ..store.corpus_index import CorpusIndex

    if not checkpoints:
        return
    index = CorpusIndex(out)
    entry = {"file": Path(out).name, "sha256": file_sha256(out)}
    for path in checkpoints:
        name_in_card(path, index, entry, log)
    index.close()


def name_in_card(path: str, index, entry: dict, log) -> None:
    """Record ``entry`` (the index's file name and sha256) in the card of checkpoint ``path``;
    ValueError when the index cannot answer for that model."""
    from ..store.checkpoint import read_settings, write_card

    card, text, data = read_settings(path)
    refusal = index.refusal(card, text, data)
    if refusal is not None:
        raise ValueError(f"{path}: {refusal}")
    write_card(path, {**card, CARD_KEY: entry})
    if Path(path).resolve().parent != index.path.resolve().parent:
        log(f"{path}: its card names {entry['file']}; put the index beside it")
    log(f"{path}: its card names {entry['file']} (sha256 {entry['sha256'][:12]}…)")


def ask_corpus(args) -> int:
    """Print what the training split of ``args.checkpoint`` says about ``args.word``."""
    from ..store.checkpoint import read_settings
    from ..store.corpus_index import CorpusIndex
    from ..store.corpus_lookup import Lookup

    if args.limit < 0:
        raise ValueError(f"--limit must be 0 or more, got {args.limit}")
    card, text, data = read_settings(args.checkpoint)
    path = index_of(args.checkpoint, card, args.index)
    index = CorpusIndex(path)
    refusal = index.refusal(card, text, data)
    if refusal is not None:
        raise ValueError(str(refusal))
    lookup = Lookup(index, text, data)
    text.tokenize(args.word, "src")  # loads the tokenizer (jieba: a second): not the query's time
    start = time.perf_counter()
    answer = lookup.word(args.word, args.target, args.limit)
    took = time.perf_counter() - start
    if args.json:
        print(json.dumps(answer.to_json(), ensure_ascii=False, indent=1))
    else:
        print(_report(answer, index.meta["corpus"]["file"], Path(args.checkpoint).stem, text))
    print(f"({took * 1000:.1f} ms)", file=sys.stderr)
    return 0


def index_of(checkpoint: str, card: dict, given: str | None) -> Path:
    """The corpus index of ``checkpoint``: ``given``, or the one its card names, beside it;
    ValueError saying how to build one when there is none. A file other than the one the card
    names is noted on stderr."""
    from ..store.checkpoint import file_sha256
    from ..store.corpus_index import HOW_TO_BUILD

    named = card.get(CARD_KEY) or {}
    if given:
        path = Path(given)
    elif named.get("file"):
        path = Path(checkpoint).parent / named["file"]
    else:
        raise ValueError(
            f"{checkpoint}: its card names no corpus index; give one with --index FILE, "
            f"or build one and name it in the card with `python -m attnviz index CORPUS "
            f"--checkpoint {checkpoint} --out FILE --card {checkpoint}`"
        )
    if not path.is_file():
        build = HOW_TO_BUILD.format(checkpoint=checkpoint, path=path)
        raise ValueError(f"{path}: no such corpus index; {build}")
    if named.get("sha256") and file_sha256(path) != named["sha256"]:
        print(
            f"note: {path} is not the index {checkpoint}'s card names (sha256 "
            f"{named['sha256'][:12]}…): its links may differ (eflomal samples them)",
            file=sys.stderr,
        )
    return path


def _report(answer, corpus: str, model: str, text: TextConfig) -> str:
    """The answer as lines for a terminal: the count, the links, the examples marked."""
    if answer.target is None:
        lines = [f"“{answer.word}”: {answer.pairs} pairs of {model}'s training split ({corpus})"]
        if answer.pairs:
            lines.append("eflomal links it to:")
            width = max((len(x.target) for x in answer.links), default=0)
            lines += [
                f"  {x.target:<{width}}  {x.count:>6}  {x.share:6.1%}" for x in answer.links[:10]
            ]
            if len(answer.links) > 10:
                lines.append(f"  … and {len(answer.links) - 10} more (--json lists them all)")
            if answer.unlinked:
                lines.append(f"  (linked to nothing in {answer.unlinked} pairs)")
    else:
        share = answer.links[0].share if answer.links else 0.0
        lines = [
            f"“{answer.word}” linked to “{answer.target}”: in {answer.pairs} pairs of "
            f"{model}'s training split ({corpus}), {share:.1%} of those holding “{answer.word}”"
        ]
    if answer.examples:
        lines.append("for example:")
        for e in answer.examples:
            src = _marked(e.src_tokens, e.src_marked, text, "src")
            tgt = _marked(e.tgt_tokens, e.tgt_marked, text, "tgt")
            lines.append(f"  {src}  →  {tgt}")
    return "\n".join(lines)


def _marked(tokens, marked, text: TextConfig, side: str) -> str:
    """Tokens as text, the marked ones in [brackets]."""
    shown = [f"[{t}]" if i in marked else t for i, t in enumerate(tokens)]
    lang = text.src_lang if side == "src" else text.tgt_lang
    return "".join(shown) if lang == "zh" else " ".join(shown)
