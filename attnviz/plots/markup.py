"""Text shown literally inside markdown: what a user typed or a model wrote, escaped."""

from __future__ import annotations

import re

MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&])")


def markdown_text(text: str) -> str:
    """``text`` shown literally inside markdown: every character markdown, LaTeX or
    Streamlit's colour and emoji directives could read as markup is backslash-escaped."""
    return MARKDOWN.sub(r"\\\1", text)
