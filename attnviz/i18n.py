"""Interface text in the reader's language, looked up per session, never process-wide.

Code writes its English text as the message id, ``_("Left model")``; module-level constants are
marked with :func:`N_` and translated where they are shown, ``_(SINK)``. The translations come
from gettext catalogs (``attnviz/locales/LANG/LC_MESSAGES/messages.po``, shipped in the package),
read through Babel: gettext is the format translators, ``pybabel extract``/``update`` and every
editor of .po files already know, with placeholders and plural forms handled, and Babel reads the
.po files in pure Python, so no compiled .mo file has to be built or kept in step. Babel is a
core dependency because ``attnviz handout --lang`` reads the catalogs too, without the dashboard.
A catalog that is missing or unreadable is a :class:`CatalogError` naming the file, never a
quiet fall back to English; English, the language the text is written in, needs none. To add a
string: write it, run ``python scripts/update_catalogs.py`` and translate the new entry.

One server serves many people, each in their own language, so the catalog in force is a context
variable, not ``gettext.install``: the dashboard binds one to each script run (a Streamlit session's
run has a thread, hence a context, of its own), as Flask-Babel binds one to each request. Unbound,
every text is the English it is written in. This module imports nothing of the dashboard.
"""

from __future__ import annotations

import functools
import gettext as _gettext
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path

# The one set of catalogs, in the package: the dashboard, handouts and the decoding process
# read them.
LOCALES = Path(__file__).resolve().parent / "locales"
# The languages the interface speaks (its catalogs, and English), each in its own words: the
# dashboard's switch and `attnviz handout --lang` offer these.
INTERFACE_LANGUAGES = {"en": "English", "zh": "中文"}
_ENGLISH = _gettext.NullTranslations()
_current: ContextVar[_gettext.NullTranslations] = ContextVar(
    "attnviz_translations", default=_ENGLISH
)


def bind(translations: _gettext.NullTranslations | None) -> None:
    """Use ``translations`` for the rest of this context (a dashboard run); None: English."""
    _current.set(translations or _ENGLISH)


def gettext(message: str) -> str:
    """``message`` in the language bound to this context."""
    return _current.get().gettext(message)


_ = gettext


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it: a constant made at import is
    translated where it is shown, by :func:`gettext`."""
    return message


def keeping_language(function: Callable[..., str]) -> Callable[..., str]:
    """``function`` called, whenever it is, in the language bound now: a widget's
    ``format_func`` may be called outside the run that drew it (Streamlit's AppTest does),
    where another language or none is bound."""
    translations = _current.get()

    def call(*args):
        token = _current.set(translations)
        try:
            return function(*args)
        finally:
            _current.reset(token)

    return call


class Text:
    """A message whose words are looked up when it is shown, not when it is made: what an
    error kept in a cache that serves every session (a checkpoint that fails to load) carries.
    ``str()`` gives the English; :meth:`shown`, the language bound where it is shown."""

    def __init__(self, template: str, **params) -> None:
        self.template, self.params = template, params  # template: an N_-marked message id

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def __repr__(self) -> str:
        return repr(str(self))

    def shown(self) -> str:
        return gettext(self.template).format(**self.params)


def shown(message: object) -> str:
    """``message`` in the bound language: a :class:`Text`, or an exception that carries one, is
    looked up; anything else is shown as it is."""
    if isinstance(message, BaseException) and len(message.args) == 1:
        message = message.args[0]
    return message.shown() if isinstance(message, Text) else str(message)


class CatalogError(ValueError):
    """A language's catalog that is missing or cannot be read; the message names the file."""


def read_catalog(path, language: str) -> _gettext.NullTranslations:
    """The gettext .po file at ``path`` (``language``'s), compiled in memory by Babel: what the
    dashboard binds to a session and ``attnviz handout --lang`` to its pages. A file that is
    missing, is no .po file or holds no translation is a :class:`CatalogError`."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import PoFileError, read_po
    from babel.support import Translations

    try:
        with open(path, "rb") as f:
            catalog = read_po(f, locale=language, domain="messages", abort_invalid=True)
    except OSError as e:
        raise CatalogError(f"the {language} catalog {path} cannot be read: {e.strerror}") from e
    except (PoFileError, UnicodeDecodeError) as e:
        raise CatalogError(f"the {language} catalog {path} is not a gettext .po file: {e}") from e
    if not any(message.id and message.string for message in catalog):
        raise CatalogError(f"the {language} catalog {path} holds no translation")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain="messages")


def catalog_path(language: str) -> Path:
    """The .po file of ``language`` among the interface's catalogs."""
    return LOCALES / language / "LC_MESSAGES" / "messages.po"


@functools.cache
def catalog(language: str) -> _gettext.NullTranslations | None:
    """The interface's catalog of ``language``, read once per process; None for English, the
    language the text is written in. Any other language's catalog must be there and readable:
    a :class:`CatalogError` names the file, so that nothing comes out in English unasked."""
    if language == "en":
        return None
    return read_catalog(catalog_path(language), language)
