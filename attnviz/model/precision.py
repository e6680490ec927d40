"""How a model's numbers are held: :class:`Precision`, one name for each way attnviz stores
weights for decoding (:mod:`.low_precision`) or runs products for training (:mod:`.autocast`),
and "auto", which leaves the choice to a measurement (:mod:`attnviz.tuning`)."""

from __future__ import annotations

from enum import Enum


class Precision(str, Enum):
    """A precision, equal to the name it is written as (``Precision.BF16 == "bf16"``), so that
    a checkpoint's card, a JSON file or a dictionary keyed by names reads and writes as before.
    A ``str`` mixin rather than ``StrEnum``, which needs Python 3.11."""

    AUTO = "auto"  # the fastest on this machine, as measured (attnviz.tuning)
    FP32 = "fp32"  # every weight and product as trained
    BF16 = "bf16"  # decoding: the output layer in bf16; training: bf16 autocast
    INT8 = "int8"  # decoding, CPU only: the GRUs and the output layer in int8
    INT8_OUTPUT = "int8-output"  # decoding, CPU only: the output layer alone in int8

    def __str__(self) -> str:  # "bf16", not "Precision.BF16", in text and in argparse's usage
        return self.value

    @classmethod
    def among(cls, value: str, allowed: tuple[Precision, ...], what: str) -> Precision:
        """``value`` (a name or a Precision) as a Precision, where it is one of ``allowed``;
        else a ValueError that names ``what`` and the allowed names."""
        if value not in allowed:
            shown = value.value if isinstance(value, Precision) else value
            raise ValueError(f"{what} must be one of {precision_names(allowed)}, not {shown!r}")
        return cls(value)


def precision_names(precisions: tuple[Precision, ...]) -> tuple[str, ...]:
    """The names of ``precisions``, as a file or the command line writes them (argparse's
    choices: its messages show each choice's ``repr``)."""
    return tuple(p.value for p in precisions)
