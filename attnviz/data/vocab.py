"""Token <-> id maps with the four special tokens every model relies on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<bos>", "<eos>"
SPECIALS = (PAD, UNK, BOS, EOS)
PAD_ID, UNK_ID, BOS_ID, EOS_ID = range(4)


class Vocab:
    """A fixed list of tokens; ids 0-3 are ``<pad> <unk> <bos> <eos>``."""

    def __init__(self, tokens: Iterable[str]):
        self.itos = list(tokens)
        if tuple(self.itos[:4]) != SPECIALS:
            raise ValueError(f"a vocabulary must start with {SPECIALS}, got {self.itos[:4]}")
        self.stoi = {tok: i for i, tok in enumerate(self.itos)}
        if len(self.stoi) != len(self.itos):
            raise ValueError("a vocabulary must not repeat a token")

    @classmethod
    def build(
        cls, sentences: Iterable[list[str]], min_freq: int = 1, max_size: int | None = None
    ) -> Vocab:
        """Keep tokens seen at least ``min_freq`` times, the most frequent first.

        ``max_size`` counts the four specials. Ties are broken alphabetically so that the same
        corpus always gives the same ids.
        """
        if min_freq < 1:
            raise ValueError(f"min_freq must be at least 1, got {min_freq}")
        if max_size is not None and max_size < len(SPECIALS):
            raise ValueError(f"max_size must be at least {len(SPECIALS)}, got {max_size}")
        counts = Counter(tok for sent in sentences for tok in sent)
        for tok in SPECIALS:
            counts.pop(tok, None)
        kept = sorted(
            (t for t, c in counts.items() if c >= min_freq), key=lambda t: (-counts[t], t)
        )
        if max_size is not None:
            kept = kept[: max_size - len(SPECIALS)]
        return cls([*SPECIALS, *kept])

    def __len__(self) -> int:
        return len(self.itos)

    def __contains__(self, token: str) -> bool:
        return token in self.stoi

    def encode(self, tokens: Iterable[str]) -> list[int]:
        """Ids of ``tokens``; unknown tokens become ``<unk>``."""
        return [self.stoi.get(tok, UNK_ID) for tok in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        return [self.itos[i] for i in ids]
