"""The page's address: what a student chose, as a link's query parameters, and back.

A link reads ``?page=sentence&direction=zh-en&left=bahdanau-zh-en&right=luong-zh-en
&sentence=我爱吃苹果。&view=steps&step=3&lang=zh`` (:class:`Param` names each parameter).
:func:`read_link` turns the parameters into a :class:`Link`, what they ask for, and the values it
set aside, each with why (:class:`SetAside`): a value the page cannot use never stops the rest
of the link. :func:`params_of` writes a Link, and reading what it wrote gives the Link back.

What a link may name depends on the server (its models) and the page (its pages and views), so
both functions take a :class:`Vocabulary`; this module knows neither streamlit nor the pages.
``pages/address_bar.py`` applies a link when a session opens it and keeps the address in step.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, NamedTuple, TypeVar
from urllib.parse import quote, urlencode

from attnviz.i18n import N_
from attnviz.store.catalog import Direction

P = TypeVar("P")  # a page, as the page switch holds it
V = TypeVar("V")  # a view of the sentence page, as the view switch holds it
T = TypeVar("T")


class Param(StrEnum):
    """A link's query parameters, in the order a link lists them; each member's name, lowered,
    is the :class:`Link` field it fills."""

    PAGE = "page"  # sentence, lesson, corpus, training (Vocabulary.pages)
    LESSON = "lesson"  # the lesson's step, 1-based
    DIRECTION = "direction"  # source-target: en-fr, zh-en, en-zh
    LEFT = "left"  # the left model's name
    RIGHT = "right"  # the right model's name
    SENTENCE = "sentence"  # the sentence box
    REFERENCE = "reference"  # the reference box
    VIEW = "view"  # steps, why, compare, … (Vocabulary.views)
    STEP = "step"  # the decoding step, 1-based
    LANGUAGE = "lang"  # the interface's language: en, zh


class Why(StrEnum):
    """Why a value was set aside: the reason's text, to translate; ``{detail}`` is
    :attr:`SetAside.detail`."""

    UNKNOWN = N_("it is none of {detail}")
    NOT_A_NUMBER = N_("it is not a whole number")
    BELOW_ONE = N_("steps are counted from 1")
    PAST_THE_END = N_("the last step is {detail}")
    TOO_LONG = N_("a box holds at most {detail} characters")
    MARKUP = N_("it holds markup or control characters")


class SetAside(NamedTuple):
    """A value of the link the page did not use, and why."""

    param: Param
    value: str  # as the link gave it
    why: Why
    detail: str = ""  # what the reason names: the values allowed, the last step, the limit


class Reason(NamedTuple):
    """Why a check cannot use a value (:class:`SetAside` adds which value it was)."""

    why: Why
    detail: str = ""


@dataclass(frozen=True)
class Link(Generic[P, V]):
    """What a link asks for; None where it asks nothing (the page keeps its own choice)."""

    page: P | None = None
    lesson: int | None = None  # 1-based
    direction: Direction | None = None
    left: str | None = None  # a model's name
    right: str | None = None
    sentence: str | None = None
    reference: str | None = None
    view: V | None = None
    step: int | None = None  # 1-based
    language: str | None = None  # a language code


@dataclass(frozen=True)
class Vocabulary(Generic[P, V]):
    """What a link may name here."""

    pages: Mapping[str, P]  # each page, by its name in a link
    views: Mapping[str, V]  # each view of the sentence page, by its name in a link
    models: Mapping[Direction, Sequence[str]]  # each direction's models, by name; first opens
    languages: Collection[str]  # the interface's languages, by code
    max_chars: int  # the most characters a sentence or reference box holds
    lesson_steps: int | None = None  # how many steps the lesson has; None: not checked here


# Markup: an HTML tag or comment. A sentence a student types never needs one.
TAG = re.compile(r"<\s*[/!?]?\s*[A-Za-z][^>]*>|<!--")
WHOLE = re.compile(r"[+-]?[0-9]+")


def slug(direction: Direction) -> str:
    """A direction as a link names it: ``en-fr``."""
    return f"{direction.source}-{direction.target}"


def _named(value: str, table: Mapping[str, T]) -> T | Reason:
    return table[value] if value in table else Reason(Why.UNKNOWN, ", ".join(table))


def _count(value: str, last: int | None) -> int | Reason:
    """A 1-based step: a whole number from 1 to ``last`` (None: no end known yet)."""
    if not WHOLE.fullmatch(value):
        return Reason(Why.NOT_A_NUMBER)
    try:
        number = int(value)
    except ValueError:  # more digits than int() reads (4,300): no step is that far
        return Reason(Why.NOT_A_NUMBER)
    if number < 1:
        return Reason(Why.BELOW_ONE)
    return past_the_end(number, last) or number


def past_the_end(step: int, last: int | None) -> Reason | None:
    """Why a 1-based ``step`` past the ``last`` cannot be shown; None if it can."""
    return Reason(Why.PAST_THE_END, str(last)) if last is not None and step > last else None


def _text(value: str, max_chars: int) -> str | Reason:
    """A box's text: at most ``max_chars`` characters, no markup, no control characters."""
    if len(value) > max_chars:
        return Reason(Why.TOO_LONG, f"{max_chars:,}")
    if TAG.search(value) or any(unicodedata.category(c) == "Cc" for c in value):
        return Reason(Why.MARKUP)
    return value


def read_link(
    params: Mapping[str, str], vocabulary: Vocabulary[P, V], current: Direction | None = None
) -> tuple[Link[P, V], tuple[SetAside, ...]]:
    """What ``params`` (a link's query parameters, one value each) ask for, and the values set
    aside. An empty value asks nothing; parameters that are not a :class:`Param` are not the
    page's (Streamlit's ``embed``) and are left alone. Models are checked against the link's
    direction, else ``current`` (the one the page shows), else the first."""
    directions = {slug(d): d for d in vocabulary.models}
    found: dict[str, object] = {}
    aside: list[SetAside] = []

    def models(value: str) -> str | Reason:
        shown = current if current in vocabulary.models else next(iter(vocabulary.models), None)
        direction = found.get("direction") or shown
        return _named(value, {name: name for name in vocabulary.models.get(direction, ())})

    checks: dict[Param, Callable[[str], object]] = {
        Param.PAGE: lambda v: _named(v, vocabulary.pages),
        Param.LESSON: lambda v: _count(v, vocabulary.lesson_steps),
        Param.DIRECTION: lambda v: _named(v, directions),
        Param.LEFT: models,
        Param.RIGHT: models,
        Param.SENTENCE: lambda v: _text(v, vocabulary.max_chars),
        Param.REFERENCE: lambda v: _text(v, vocabulary.max_chars),
        Param.VIEW: lambda v: _named(v, vocabulary.views),
        Param.STEP: lambda v: _count(v, None),  # its end is known once the sentence is decoded
        Param.LANGUAGE: lambda v: _named(v, {code: code for code in vocabulary.languages}),
    }
    for param, check in checks.items():  # in Param's order: the direction before the models
        value = params.get(param, "")
        if not value:
            continue
        checked = check(value)
        if isinstance(checked, Reason):
            aside.append(SetAside(param, value, checked.why, checked.detail))
        else:
            found[param.name.lower()] = checked
    return Link(**found), tuple(aside)


def params_of(link: Link[P, V], vocabulary: Vocabulary[P, V]) -> dict[str, str]:
    """The query parameters of ``link``, in :class:`Param`'s order; what it leaves None or
    empty is left out."""
    names = {
        Param.PAGE: {page: name for name, page in vocabulary.pages.items()},
        Param.VIEW: {view: name for name, view in vocabulary.views.items()},
    }
    params = {}
    for param in Param:
        value = getattr(link, param.name.lower())
        if value is None or value == "":
            continue
        if param in names:
            value = names[param].get(value)
            if value is None:  # not a page or view of this vocabulary: nothing to link to
                continue
        elif param == Param.DIRECTION:
            value = slug(value)
        params[param.value] = str(value)
    return params


def url_of(base: str, params: Mapping[str, str]) -> str:
    """The link to a page at ``base`` (its address without a query; "" gives the query alone)
    with ``params``: spaces as ``%20``, which chat programs keep inside a link."""
    return f"{base}?{urlencode(params, quote_via=quote)}" if params else base


def excerpt(value: str, most: int = 40) -> str:
    """``value`` as a note may quote it: on one line, without backticks (the note puts it in
    code, where nothing is markup), at most ``most`` characters."""
    flat = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in value)
    flat = flat.replace("`", "'")
    return flat if len(flat) <= most else flat[: most - 1] + "…"
