"""What the tests of the page's caches share: a function counted as it is called, and the
session's language as a cache key reads it."""

from __future__ import annotations

from attnviz import i18n


class Calls:
    """``module.name`` replaced by itself (or by ``replacement``), counting the calls."""

    def __init__(self, monkeypatch, module, name: str, replacement=None):
        self.n = 0
        real = replacement or getattr(module, name)

        def counted(*args, **kwargs):
            self.n += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


class Language:
    """The session's language as ``module.session_language`` reads it for its cache keys,
    English at first, and the catalog bound with it; :meth:`set` changes both. The test
    unbinds the catalog at its end (:func:`chosen_language`)."""

    def __init__(self, monkeypatch, module):
        self.now = "en"
        monkeypatch.setattr(module, "session_language", lambda: self.now)

    def set(self, code: str) -> None:
        self.now = code
        i18n.bind(i18n.catalog(code))


def chosen_language(monkeypatch, module):
    """A fixture's body: the :class:`Language` of ``module``, the catalog unbound after."""
    yield Language(monkeypatch, module)
    i18n.bind(None)
