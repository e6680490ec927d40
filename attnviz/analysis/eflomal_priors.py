"""What a statistical aligner learned from a corpus, kept to align new sentences: eflomal's
priors (Östling & Tiedemann, 2016).

eflomal aligns by Gibbs sampling over a whole text, so one sentence alone has too little to
go on. Its priors carry a corpus over: Dirichlet pseudo-counts, read off the corpus's
forward and reverse alignments, that are added to the counts of whatever text is aligned
next. There are five kinds (eflomal's own names):

    LEX   source word, target word, count    links between the two words
    FERF  source word, fertility, count      forward: how many target words a source word has
    FERR  target word, fertility, count      reverse: how many source words a target word has
    HMMF  jump, count                        forward: distance between consecutive links
    HMMR  jump, count                        reverse

Words are lowercased, as eflomal compares them. A :class:`Priors` records what made it (the
corpus's sha256 and split, the tokenizer, eflomal's settings, the command), so that a model
and the priors beside it can be checked to come from the same corpus.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from ..data.corpus import DataConfig, Link
from ..data.text import TextConfig
from ..i18n import gettext
from ..options import option

KINDS = ("LEX", "FERF", "FERR", "HMMF", "HMMR")
MODELS = (1, 2, 3)


@dataclass(frozen=True)
class PriorsConfig:
    """How eflomal aligns, for the priors and for every sentence aligned with them."""

    model: int = option(
        3, "eflomal's model: 1 IBM1 (words), 2 adds an HMM (word order), 3 adds fertility"
    )
    null_prior: float = option(0.2, "prior probability that a word links to no word")
    samplers: int = option(3, "independent Gibbs samplers; their last samples are combined")
    length: float = option(
        1.0, "sampling iterations, relative to eflomal's default for the number of sentences"
    )

    def __post_init__(self):
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, not {self.model!r}")
        if not 0 < self.null_prior < 1:
            raise ValueError(f"null_prior must be in (0, 1), not {self.null_prior!r}")
        if not 1 <= self.samplers <= 64:
            raise ValueError(f"samplers must be in 1..64, not {self.samplers!r}")
        if not 0 < self.length <= 100:
            raise ValueError(f"length must be in (0, 100], not {self.length!r}")


@dataclass(frozen=True)
class Priors:
    """eflomal's priors from one corpus, and what made them (``meta``, see :func:`describe`)."""

    meta: dict  # corpus, split, text, eflomal settings, command: JSON values
    lex: dict[str, dict[str, float]]  # source word -> target word -> links counted
    fert_src: dict[str, dict[int, float]]  # source word -> target words it links -> count
    fert_tgt: dict[str, dict[int, float]]  # target word -> source words it links -> count
    jump_fwd: dict[int, float]  # forward: position jump between links -> count
    jump_rev: dict[int, float]  # reverse

    @property
    def text(self) -> TextConfig:
        """How the priors' words were tokenized: new sentences must be tokenized the same."""
        return TextConfig(**self.meta["text"])

    @property
    def config(self) -> PriorsConfig:
        return PriorsConfig(**self.meta["eflomal"]["config"])

    @property
    def corpus_sha256(self) -> str:
        return self.meta["corpus"]["sha256"]

    def counts(self) -> dict[str, int]:
        """Entries of each kind."""
        tables = (self.lex, self.fert_src, self.fert_tgt)
        lex, ferf, ferr = (sum(map(len, t.values())) for t in tables)
        return dict(LEX=lex, FERF=ferf, FERR=ferr, HMMF=len(self.jump_fwd), HMMR=len(self.jump_rev))

    def lines(self, source: Iterable[str] | None = None, target: Iterable[str] | None = None):
        """The priors as eflomal's priors file has them, one ``\\t``-separated line each; with
        ``source`` and ``target`` words, only the lines eflomal would use to align text of
        these words (the others name a word it does not contain)."""
        src = self.lex.keys() if source is None else {w.lower() for w in source}
        tgt = None if target is None else {w.lower() for w in target}
        for s in sorted(src):
            for t, count in sorted(self.lex.get(s, {}).items()):
                if tgt is None or t in tgt:
                    yield f"LEX\t{s}\t{t}\t{count:g}"
        for kind, table, words in (("FERF", self.fert_src, src), ("FERR", self.fert_tgt, tgt)):
            for w in sorted(table.keys() if words is None else words):
                for fert, count in sorted(table.get(w, {}).items()):
                    yield f"{kind}\t{w}\t{fert}\t{count:g}"
        for kind, jumps in (("HMMF", self.jump_fwd), ("HMMR", self.jump_rev)):
            for jump, count in sorted(jumps.items()):
                yield f"{kind}\t{jump}\t{count:g}"


def count_priors(
    sources: Sequence[Sequence[str]],
    targets: Sequence[Sequence[str]],
    forward: Sequence[Iterable[Link]],
    reverse: Sequence[Iterable[Link]],
    meta: dict,
) -> Priors:
    """Priors counted from sentences (their tokens) and their forward and reverse links,
    as ``eflomal.calculate_priors`` counts them, with the words lowercased."""
    lex: dict[str, Counter] = {}
    fert_src: dict[str, Counter] = {}
    fert_tgt: dict[str, Counter] = {}
    jump_fwd: Counter = Counter()
    jump_rev: Counter = Counter()
    for n, (src, tgt, fwd, rev) in enumerate(zip(sources, targets, forward, reverse, strict=True)):
        src, tgt = [w.lower() for w in src], [w.lower() for w in tgt]
        fwd, rev = sorted(set(fwd), key=lambda link: link[::-1]), sorted(set(rev))
        for i, j in (*fwd, *rev):
            if not (0 <= i < len(src) and 0 <= j < len(tgt)):
                raise ValueError(f"sentence {n + 1}: link {i}-{j} is outside the sentence")
        for i, j in fwd:
            lex.setdefault(src[i], Counter())[tgt[j]] += 1
        _count_jumps(jump_fwd, [(j, i) for i, j in fwd], len(src))
        _count_jumps(jump_rev, rev, len(tgt))
        for i, fert in Counter(i for i, _ in fwd).items():
            fert_src.setdefault(src[i], Counter())[fert] += 1
        for j, fert in Counter(j for _, j in rev).items():
            fert_tgt.setdefault(tgt[j], Counter())[fert] += 1
    return Priors(
        meta, _plain(lex), _plain(fert_src), _plain(fert_tgt), _floats(jump_fwd), _floats(jump_rev)
    )


def _count_jumps(jumps: Counter, links: list[Link], length: int) -> None:
    """eflomal's HMM jumps: (step, position) links sorted by step; the jump from the last
    position linked to the next step's first link, and from the last link to the end."""
    last_step = last_pos = -1
    for step, pos in links:
        if step != last_step:
            jumps[pos - last_pos] += 1
        last_step, last_pos = step, pos
    jumps[length - last_pos] += 1


def _plain(table: dict[str, Counter]) -> dict:
    return {k: _floats(c) for k, c in table.items()}


def _floats(counts: Counter) -> dict:
    return {k: float(v) for k, v in counts.items()}


def describe(
    corpus_file: str,
    corpus_sha256: str,
    pairs: int,
    train_pairs: int,
    text: TextConfig,
    data: DataConfig,
    config: PriorsConfig,
    eflomal_version: str,
    command: str,
) -> dict:
    """The ``meta`` of priors built from the training split of a corpus."""
    return {
        "corpus": {
            "file": corpus_file,
            "sha256": corpus_sha256,
            "pairs": pairs,
            "train_pairs": train_pairs,  # the pairs aligned
        },
        "split": {  # as DataConfig splits the corpus; long pairs are dropped as in training
            "valid_percent": data.valid_percent,
            "test_percent": data.test_percent,
            "max_len": data.max_len,
        },
        "text": asdict(text),
        "eflomal": {"version": eflomal_version, "config": asdict(config)},
        "command": command,
    }


def check_meta(meta: object) -> dict:
    """``meta`` if it describes priors as :func:`describe` does; ValueError saying what is
    missing or wrong otherwise."""
    if not isinstance(meta, dict):
        raise ValueError("the description is not a JSON object")
    for key, kind in (("corpus", dict), ("split", dict), ("text", dict), ("eflomal", dict)):
        if not isinstance(meta.get(key), kind):
            raise ValueError(f"no {key!r} in the description")
    sha = meta["corpus"].get("sha256")
    if not (isinstance(sha, str) and len(sha) == 64 and all(c in "0123456789abcdef" for c in sha)):
        raise ValueError("the corpus's sha256 is missing or not a sha256")
    try:
        TextConfig(**meta["text"])
        PriorsConfig(**meta["eflomal"]["config"])
        DataConfig(
            valid_percent=meta["split"]["valid_percent"],
            test_percent=meta["split"]["test_percent"],
            max_len=meta["split"]["max_len"],
        )
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"invalid settings in the description ({e})") from None
    return meta


FIELDS = {"LEX": 3, "FERF": 3, "FERR": 3, "HMMF": 2, "HMMR": 2}  # after the kind


def parse_line(line: str) -> tuple[str, tuple]:
    """One line of eflomal's priors as (kind, fields), the count last, each field checked;
    ValueError saying what is wrong."""
    kind, *rest = line.split("\t")
    if FIELDS.get(kind) != len(rest):
        raise ValueError(f"expected one of {KINDS} and its fields, got {line[:80]!r}")
    *keys, written = rest
    try:
        count = float(written)
        number = 0 if kind == "LEX" else int(keys[-1])  # (a LEX line has none)
    except ValueError:
        raise ValueError(f"not a number in {line[:80]!r}") from None
    if not (math.isfinite(count) and count > 0):
        raise ValueError(f"a count must be positive, got {rest[-1]!r}")
    if kind.startswith("HMM"):
        return kind, (number, count)
    words = keys if kind == "LEX" else keys[:1]
    if not all(words) or any(w != w.lower() for w in words):
        raise ValueError(f"words must be lowercase and not empty, got {line[:80]!r}")
    if kind == "LEX":
        return kind, (*words, count)
    if number < 1:
        raise ValueError(f"a fertility must be positive, got {number}")
    return kind, (words[0], number, count)


def from_lines(meta: dict, lines: Iterable[str], first_line: int = 1) -> Priors:
    """Priors from ``meta`` and eflomal's priors lines (see :meth:`Priors.lines`);
    ValueError naming the first bad line (the first counted as ``first_line``)."""
    lex: dict[str, dict[str, float]] = {}
    fert: dict[str, dict[str, dict[int, float]]] = {"FERF": {}, "FERR": {}}
    jumps: dict[str, dict[int, float]] = {"HMMF": {}, "HMMR": {}}
    for n, line in enumerate(lines, first_line):
        try:
            kind, fields = parse_line(line)
        except ValueError as e:
            raise ValueError(f"line {n}: {e}") from None
        if kind == "LEX":
            lex.setdefault(fields[0], {})[fields[1]] = fields[2]
        elif kind in fert:
            fert[kind].setdefault(fields[0], {})[fields[1]] = fields[2]
        else:
            jumps[kind][fields[0]] = fields[1]
    return Priors(meta, lex, fert["FERF"], fert["FERR"], jumps["HMMF"], jumps["HMMR"])


def mismatch(
    priors: Priors,
    card: dict,
    data: DataConfig | None = None,
    text: TextConfig | None = None,
) -> str | None:
    """Why a model (its checkpoint's ``card``, ``data`` and ``text`` configuration) and
    ``priors`` do not come from the same corpus, split and tokens; None when they agree, or
    when the model does not record its corpus's sha256."""
    recorded = (card.get("corpus") or {}).get("sha256")
    if recorded and recorded != priors.corpus_sha256:
        file = priors.meta["corpus"].get("file", "?")
        return gettext(
            "the model was trained on another corpus (sha256 {model}…) than the priors were "
            "made from ({file}, sha256 {priors}…)"
        ).format(model=recorded[:12], file=file, priors=priors.corpus_sha256[:12])
    split = priors.meta["split"]
    if data is not None and (data.valid_percent, data.test_percent) != (
        split["valid_percent"],
        split["test_percent"],
    ):
        return gettext(
            "the model holds out {valid}% + {test}% of the corpus, the priors {priors_valid}% + "
            "{priors_test}%: the priors have aligned sentences the model never saw"
        ).format(
            valid=data.valid_percent,
            test=data.test_percent,
            priors_valid=split["valid_percent"],
            priors_test=split["test_percent"],
        )
    if text is not None and asdict(text) != priors.meta["text"]:
        return gettext("the model tokenizes as {model}, the priors as {priors}").format(
            model=asdict(text), priors=priors.meta["text"]
        )
    return None


def check_same_corpus(
    priors: Priors,
    card: dict,
    data: DataConfig | None = None,
    text: TextConfig | None = None,
) -> None:
    """Refuse (ValueError) a model and priors that :func:`mismatch` finds apart."""
    why = mismatch(priors, card, data, text)
    if why:
        raise ValueError(f"{why}; build priors from the model's corpus with `attnviz priors`")
