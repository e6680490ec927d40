"""Two one-way word alignments made one: grow-diag-final-and (Koehn et al., 2005).

A one-way aligner links each word of one side to at most one word of the other, so neither
direction alone can say that one word is two (``don't`` / ``ne … pas``). Symmetrizing starts
from the links both directions agree on (precise) and grows towards their union (complete):

1. grow-diag: add each link of the union that neighbours (horizontally, vertically or
   diagonally) a link already made and joins a word still unaligned on either side, and go
   over the union again until nothing is added;
2. final-and: add the links of each direction, forward first, whose two words are both
   still unaligned.

The scan orders are those of fast_align's ``atools -c grow-diag-final-and``, so the two give
the same links. Links are (source, target) word positions, 0-based.
"""

from __future__ import annotations

from collections.abc import Iterable

Link = tuple[int, int]
NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def grow_diag_final_and(forward: Iterable[Link], reverse: Iterable[Link]) -> set[Link]:
    """The grow-diag-final-and links of ``forward`` and ``reverse`` (see the module)."""
    forward, reverse = set(forward), set(reverse)
    union = forward | reverse
    links = forward & reverse
    src_aligned = {i for i, _ in links}
    tgt_aligned = {j for _, j in links}

    def add(i: int, j: int) -> None:
        links.add((i, j))
        src_aligned.add(i)
        tgt_aligned.add(j)

    pending = sorted(union - links)
    grown = True
    while grown:  # grow-diag: pass over the union's other links until one adds nothing
        grown = False
        for i, j in pending:  # a link added counts at once for the links after it
            if (i not in src_aligned or j not in tgt_aligned) and any(
                (i + di, j + dj) in links for di, dj in NEIGHBOURS
            ):
                add(i, j)
                grown = True
        pending = [point for point in pending if point not in links]
    for direction in (forward, reverse):  # final-and
        for i, j in sorted(direction):
            if i not in src_aligned and j not in tgt_aligned:
                add(i, j)
    return links
