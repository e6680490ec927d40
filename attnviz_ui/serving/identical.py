"""A cache key for objects that have no hash of their own but are shared, not copied: a Trace
(frozen, holding arrays) is cached per input and handed to every session as the same object
(:func:`.models.translate`), so what is computed from it can be kept per object."""

from __future__ import annotations


class Identical:
    """``objects`` as one key of a cache: equal to another key of the very same objects, in
    the same order. A cache that holds the key holds the objects alive, so no other object can
    take one's id while the entry is kept."""

    __slots__ = ("objects",)

    def __init__(self, *objects: object):
        self.objects = objects

    def __hash__(self) -> int:
        return hash(tuple(map(id, self.objects)))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Identical)
            and len(self.objects) == len(other.objects)
            and all(a is b for a, b in zip(self.objects, other.objects, strict=True))
        )
