"""attnviz.i18n's catalogs: English needs none; any other language's must be there and readable,
or the error names the file (``tests/ui/test_i18n.py`` checks the Chinese catalog's content)."""

from __future__ import annotations

import pytest

from attnviz import i18n
from attnviz.i18n import CatalogError, catalog, catalog_path

PO = """msgid ""
msgstr ""
"Language: zh\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "Attention"
msgstr "注意力"
"""


@pytest.fixture
def locales(tmp_path, monkeypatch):
    """An empty folder of catalogs in place of the package's; nothing read from it is kept."""
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    catalog.cache_clear()
    yield tmp_path
    catalog.cache_clear()


def _write(text: bytes, language: str = "zh"):
    path = catalog_path(language)
    path.parent.mkdir(parents=True)
    path.write_bytes(text)
    return path


def test_the_shipped_chinese_catalog_translates():
    assert catalog("zh").gettext("Attention") == "注意力"


def test_english_needs_no_catalog(locales):
    assert catalog("en") is None


def test_a_catalog_in_the_folder_is_read(locales):
    _write(PO.encode())
    assert catalog("zh").gettext("Attention") == "注意力"


def test_a_missing_catalog_is_an_error_naming_the_file(locales):
    with pytest.raises(CatalogError, match="cannot be read") as caught:
        catalog("zh")
    assert str(locales / "zh" / "LC_MESSAGES" / "messages.po") in str(caught.value)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (b"this is not a catalog\n", "not a gettext .po file"),
        (PO.split('msgstr "注意力"')[0].encode(), "not a gettext .po file"),  # a msgid alone
        (b"\xff\xfe\x00\x81", "not a gettext .po file"),  # not UTF-8
        (b"", "holds no translation"),
        (PO.encode().replace("注意力".encode(), b""), "holds no translation"),
    ],
    ids=["prose", "cut-off", "binary", "empty", "untranslated"],
)
def test_an_unreadable_catalog_is_an_error_naming_the_file(locales, text, why):
    path = _write(text)
    with pytest.raises(CatalogError, match=why) as caught:
        catalog("zh")
    assert str(path) in str(caught.value)
