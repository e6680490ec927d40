"""Bring the interface's catalogs (``attnviz/locales/LANG/LC_MESSAGES/messages.po``) in step with
the code: every ``_()`` and ``N_()`` message that ``babel.cfg`` finds, as
``pybabel extract -F babel.cfg -k N_`` finds it, is added untranslated, and every message the
code no longer shows is dropped.

    python scripts/update_catalogs.py

Then translate each new, empty ``msgstr``; ``tests/ui/test_i18n.py`` fails on any left empty.
``pybabel update`` would guess translations (fuzzy matching), write where each message is
used and cannot sort; this writes no guess and no location, sorted, lines of 100, so that a
change to the catalog shows only the messages that changed.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attnviz.i18n import LOCALES  # noqa: E402


def template() -> Catalog:
    """Every message the code marks, as ``pybabel extract -F babel.cfg -k N_`` collects them."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = Catalog()
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    for file, line, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=keywords
    ):
        found.add(message, None, [(file, line)], auto_comments=comments, context=context)
    return found


def updated(path: Path, messages: Catalog) -> bytes:
    """The catalog at ``path`` holding exactly ``messages``, its translations kept."""
    with open(path, "rb") as f:
        catalog = read_po(f, abort_invalid=True)
    catalog.update(messages, no_fuzzy_matching=True, update_creation_date=False)
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True, sort_output=True, ignore_obsolete=True)
    return out.getvalue()


def main() -> int:
    messages = template()
    for path in sorted(LOCALES.glob("*/LC_MESSAGES/messages.po")):
        text = updated(path, messages)
        if text != path.read_bytes():
            path.write_bytes(text)
            print(f"updated {path.relative_to(ROOT)}")
        else:
            print(f"{path.relative_to(ROOT)}: in step with the code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
