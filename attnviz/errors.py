"""The error attnviz raises for input it refuses, its message saying why and what to do; and
a refusal as a value, for what cannot raise."""

from __future__ import annotations

from dataclasses import dataclass


class InputError(ValueError):
    """A sentence that cannot be translated (empty, too long); the message says why."""


@dataclass(frozen=True)
class Refused:
    """Why something was not done, as a value: what a cached function returns in place of
    its result where it would raise (a cache keeps values, not exceptions), and what a batch
    gives in place of each result it refused while doing the others. Told apart from a result
    by its type."""

    message: str

    def __str__(self) -> str:
        return self.message
