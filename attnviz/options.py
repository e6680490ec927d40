"""Command-line options derived from the configuration dataclasses.

Each configurable field is declared once, with its default and its help text, by :func:`option`;
the command line reads them from the dataclass, so a default is never written twice:

    embed: int = option(256, "embedding size E, both sides")
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import types
import typing
from collections.abc import Callable


def option(default, help: str, **argparse_options):
    """A dataclass field with its command-line ``help`` (and ``flag``, ``choices``,
    ``required`` ... as :meth:`argparse.ArgumentParser.add_argument` takes them;
    ``no_default=True``: the option's default is None, and the command decides)."""
    return dataclasses.field(default=default, metadata={"help": help, **argparse_options})


def add_options(parser: argparse.ArgumentParser, config: type, defaults: bool = True) -> None:
    """One ``--field-name`` option per field of the dataclass ``config`` declared with
    :func:`option`; booleans get ``--name`` / ``--no-name``. Without ``defaults`` the options
    take the parser's ``argument_default`` and none is required (see :func:`typed`)."""
    hints = typing.get_type_hints(config)
    for f in dataclasses.fields(config):
        if "help" not in f.metadata:
            continue
        kwargs = dict(f.metadata)
        flag = kwargs.pop("flag", "--" + f.name.replace("_", "-"))
        kind = hints[f.name]
        if kind is bool:
            kwargs["action"] = argparse.BooleanOptionalAction
        elif isinstance(kind, type) and issubclass(kind, enum.Enum):
            kwargs["type"] = by_name(kind)
        else:  # "int | None" parses as an int
            args = [t for t in typing.get_args(kind) if t is not type(None)]
            kwargs["type"] = args[0] if isinstance(kind, types.UnionType) else kind
        no_default = kwargs.pop("no_default", False)
        if defaults:
            kwargs["default"] = None if no_default else f.default
        else:
            kwargs.pop("required", None)
        parser.add_argument(flag, dest=f.name, **kwargs)


def by_name(kind: type[enum.Enum]) -> Callable[[str], object]:
    """argparse's ``type`` for an enumeration whose values are names: the member ``name``
    names; any other name as it is, for the option's ``choices`` to refuse in argparse's own
    words."""
    members = {m.value: m for m in kind}
    return lambda name: members.get(name, name)


def typed(parser: argparse.ArgumentParser, argv: list[str]) -> dict[str, object]:
    """The options ``argv`` gives, by field name, without the defaults: ``parser`` must be built
    with ``argument_default=argparse.SUPPRESS`` and :func:`add_options` without defaults."""
    args, _ = parser.parse_known_args(argv)
    return vars(args)


def from_options(config: type, args: argparse.Namespace, **values):
    """The dataclass ``config`` built by field name from parsed ``args`` (fields that have an
    option), with ``values`` for the rest."""
    given = {
        f.name: getattr(args, f.name)
        for f in dataclasses.fields(config)
        if "help" in f.metadata and hasattr(args, f.name)
    }
    return config(**given, **values)
