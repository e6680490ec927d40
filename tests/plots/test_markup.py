"""Text shown literally inside markdown."""

import re

from attnviz.plots.markup import markdown_text


def test_typed_markup_reaches_markdown_as_plain_text():
    for text in ["a`b`c", "**x**", ":red[hi]", "$x^2$", "<b>bold</b>", "# title", "1. item", "\\"]:
        escaped = markdown_text(text)
        # Every markup character is escaped, and removing the escapes gives the text back.
        assert not re.search(r"(?<!\\)[`*\[\]$<>#:]", escaped.replace("\\\\", ""))
        assert re.sub(r"\\(.)", r"\1", escaped) == text
