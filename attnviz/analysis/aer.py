"""Alignment error rate (Och & Ney, 2003) against gold word alignments.

Links are (source, target) word positions, 0-based. Gold alignments have *sure* links S and
*possible* links P, with S a subset of P; a hypothesis has links A:

    precision = |A & P| / |A|      recall = |A & S| / |S|
    AER = 1 - (|A & S| + |A & P|) / (|A| + |S|)

counted over the whole corpus, not averaged per sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

Links = set[tuple[int, int]]
MAX_SENTENCES = 100_000  # the most sentences an HLT-NAACL gold file may number, unless told


@dataclass(frozen=True)
class Gold:
    sure: Links
    possible: Links  # includes the sure links


@dataclass(frozen=True)
class GoldPair:
    """A sentence pair and its gold word alignment, every link alike (a sentence opened from
    the corpus page carries it, to be drawn on its forced decoding)."""

    source: str  # whitespace-separated words
    target: str  # the reference, whitespace-separated words
    links: frozenset[tuple[int, int]]  # (source word, target word), 0-based


@dataclass(frozen=True)
class AerResult:
    precision: float  # percent; 0 for an empty hypothesis
    recall: float  # percent
    aer: float  # percent
    sentences: int
    links: int  # hypothesis links counted


def check_bounds(gold: list[Gold], lengths: list[tuple[int, int]], name: str = "gold") -> None:
    """Refuse a link outside its sentence; ``lengths`` are each sentence's (source words,
    target words), as whitespace splits them."""
    for n, (g, (src, tgt)) in enumerate(zip(gold, lengths, strict=True), 1):
        for i, j in sorted(g.sure | g.possible):
            if i >= src or j >= tgt:
                raise ValueError(
                    f"{name}: sentence {n}: link {i}-{j} is outside the sentence "
                    f"({src} source and {tgt} target words, counted from 0)"
                )


def parse_pharaoh(line: str) -> tuple[Links, Links]:
    """``0-0 1?2 ...`` -> (sure, possible-only) links; ``i?j`` marks a possible link."""
    sure: Links = set()
    possible: Links = set()
    for item in line.split():
        sep = "?" if "?" in item else "-"
        i, _, j = item.partition(sep)
        try:
            link = (int(i), int(j))
        except ValueError:
            raise ValueError(f"not a Pharaoh link: {item!r}") from None
        if min(link) < 0:
            raise ValueError(f"negative position in {item!r}")
        (possible if sep == "?" else sure).add(link)
    return sure, possible


def read_gold(path: str | Path, sentences: int | None = None) -> list[Gold]:
    """Gold alignments in Pharaoh format (one line per sentence) or in the HLT-NAACL 2003
    format (``sentid e f [S|P] [confidence]``, 1-based, sentence ids from 1, position 0 for
    NULL, which is dropped; no label means sure). The format is told by the first line; a
    UTF-8 byte-order mark is skipped. ``sentences``: how many sentences the gold is for (a
    higher HLT-NAACL sentence id is refused before anything is built)."""
    return parse_gold(Path(path).read_text(encoding="utf-8-sig"), str(path), sentences)


def parse_gold(text: str, name: str = "gold", sentences: int | None = None) -> list[Gold]:
    """:func:`read_gold` on the text of a file; ``name`` heads error messages."""
    lines, path = text.removeprefix("\ufeff").splitlines(), name
    if _is_naacl(lines):
        return _read_naacl(lines, path, MAX_SENTENCES if sentences is None else sentences)
    return [Gold(sure, sure | possible) for sure, possible in _pharaoh_lines(lines, path)]


def _pharaoh_lines(lines: list[str], path) -> list[tuple[Links, Links]]:
    """:func:`parse_pharaoh` on each line; errors name the file and the line."""
    out = []
    for n, line in enumerate(lines, 1):
        try:
            out.append(parse_pharaoh(line))
        except ValueError as e:
            raise ValueError(f"{path}:{n}: {e}") from None
    return out


def reverse(gold: list[Gold]) -> list[Gold]:
    """Each link's sides swapped, for gold files that list (target, source) links."""

    def swap(links: Links) -> Links:
        return {(j, i) for i, j in links}

    return [Gold(swap(g.sure), swap(g.possible)) for g in gold]


def _is_naacl(lines: list[str]) -> bool:
    first = next((line.split() for line in lines if line.strip()), [])
    return len(first) >= 3 and all(f.isdigit() for f in first[:3])


def _read_naacl(lines: list[str], path, sentences: int) -> list[Gold]:
    sure: dict[int, Links] = {}
    possible: dict[int, Links] = {}
    for n, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        try:
            sent, e, f = (int(x) for x in fields[:3])
        except ValueError:
            raise ValueError(f"{path}:{n}: expected `sentid e f [S|P]`, got {line!r}") from None
        label = fields[3].upper() if len(fields) > 3 else "S"
        if label not in ("S", "P") or min(sent, e, f) < 0 or sent < 1:
            raise ValueError(f"{path}:{n}: expected `sentid e f [S|P]`, got {line!r}")
        if sent > sentences:  # refused before one Gold per id up to it is built
            raise ValueError(f"{path}:{n}: sentence {sent}, but there are {sentences} sentences")
        sure.setdefault(sent, set())
        possible.setdefault(sent, set())
        if e == 0 or f == 0:
            continue  # a NULL link: AER counts links between words only
        (sure if label == "S" else possible)[sent].add((e - 1, f - 1))
    count = max(sure, default=0)
    return [
        Gold(sure.get(k, set()), sure.get(k, set()) | possible.get(k, set()))
        for k in range(1, count + 1)
    ]


def read_hypotheses(path: str | Path) -> list[Links]:
    """Pharaoh ``i-j`` lines, one per sentence, as :command:`attnviz align` writes them."""
    lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    out = []
    for n, (sure, possible) in enumerate(_pharaoh_lines(lines, path), 1):
        if possible:
            raise ValueError(f"{path}:{n}: a hypothesis has no possible (?) links")
        out.append(sure)
    return out


def score(gold: list[Gold], hyps: list[Links]) -> AerResult:
    """AER of ``hyps`` against ``gold``, sentence by sentence in order."""
    if len(gold) != len(hyps):
        raise ValueError(f"{len(gold)} gold sentences but {len(hyps)} hypotheses")
    a = s = a_s = a_p = 0
    for g, h in zip(gold, hyps, strict=True):
        a += len(h)
        s += len(g.sure)
        a_s += len(h & g.sure)
        a_p += len(h & g.possible)
    precision = a_p / a if a else 0.0
    recall = a_s / s if s else 0.0
    aer = 1 - (a_s + a_p) / (a + s) if a + s else 0.0
    return AerResult(100 * precision, 100 * recall, 100 * aer, len(gold), a)


PAIR_FORMAT = "expected `source ||| target`"  # fast_align's format of the pairs gold aligns


def parse_pair(line: str) -> tuple[str, str] | None:
    """A `source ||| target` line as (source, target), or None if it has no `|||`."""
    source, sep, target = line.partition("|||")
    return (source.strip(), target.strip()) if sep else None


def read_pairs(path: str | Path) -> list[tuple[str, str]]:
    """The `source ||| target` lines of ``path``; ValueError naming a line without `|||`."""
    pairs = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        pair = parse_pair(line)
        if pair is None:
            raise ValueError(f"{path}:{n}: {PAIR_FORMAT}")
        pairs.append(pair)
    return pairs


def read_gold_of_pairs(
    path: str | Path, reversed_links: bool, pairs: list[tuple[str, str]]
) -> list[Gold]:
    """The gold alignments of ``pairs`` in ``path`` (target-first links turned round with
    ``reversed_links``), (source, target) links each checked to lie inside its pair."""
    gold = read_gold(path, len(pairs))
    gold = reverse(gold) if reversed_links else gold
    if len(gold) == len(pairs):
        check_bounds(gold, [(len(s.split()), len(t.split())) for s, t in pairs], str(path))
    return gold
