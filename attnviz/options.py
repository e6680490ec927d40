"""Command-line options derived from the configuration dataclasses.

Each configurable field is declared once, with its default and its help text, by :func:`option`;
the command line reads them from the dataclass, so a default is never written twice:

    embed: int = option(256, "embedding size E, both sides")
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing


def option(default, help: str, **argparse_options):
    """A dataclass field with its command-line ``help`` (and ``flag``, ``choices``,
    ``required`` ... as :meth:`argparse.ArgumentParser.add_argument` takes them)."""
    return dataclasses.field(default=default, metadata={"help": help, **argparse_options})


def add_options(parser: argparse.ArgumentParser, config: type) -> None:
    """One ``--field-name`` option per field of the dataclass ``config`` declared with
    :func:`option`; booleans get ``--name`` / ``--no-name``."""
    hints = typing.get_type_hints(config)
    for f in dataclasses.fields(config):
        if "help" not in f.metadata:
            continue
        kwargs = dict(f.metadata)
        flag = kwargs.pop("flag", "--" + f.name.replace("_", "-"))
        kind = hints[f.name]
        if kind is bool:
            kwargs["action"] = argparse.BooleanOptionalAction
        else:  # "int | None" parses as an int
            args = [t for t in typing.get_args(kind) if t is not type(None)]
            kwargs["type"] = args[0] if isinstance(kind, types.UnionType) else kind
        parser.add_argument(flag, dest=f.name, default=f.default, **kwargs)


def from_options(config: type, args: argparse.Namespace, **values):
    """The dataclass ``config`` built by field name from parsed ``args`` (fields that have an
    option), with ``values`` for the rest."""
    given = {
        f.name: getattr(args, f.name)
        for f in dataclasses.fields(config)
        if "help" in f.metadata and hasattr(args, f.name)
    }
    return config(**given, **values)
