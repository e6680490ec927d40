"""English prose on a page meant to be in Chinese: what the tests of ``?lang=zh`` (in AppTest
and in a browser) count as English, and the words that read the same in both languages."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
HIDDEN = [
    re.compile(r"`[^`]*`"),  # code and commands
    re.compile(r"\$[^$]*\$"),  # formulas
    re.compile(r"“[^”]*”"),  # quoted tokens and sentences: the user's own words
    re.compile(r"https?://\S+"),
    re.compile(r"\b[\w.-]+\.(?:safetensors|txt|gz|csv|json|align|svg|png)\b"),
]
ALLOWED = {  # model names, scores, units and formula symbols: the same in both languages
    *("bahdanau", "luong", "dot", "general", "concat", "scaled", "pieces", "words", "zh", "en"),
    *("fr", "gru", "bleu", "aer", "eflomal", "pharaoh", "csv", "json", "png", "svg", "utf"),
    *("softmax", "tanh", "exp", "max", "argmax", "logit", "logits", "eos", "unk", "pad", "bos"),
    *("e", "s", "h", "t", "c", "j", "k", "v", "w", "u", "a", "x", "y", "tj", "ρ", "rho", "tau"),
    *("vs", "lambda", "sha", "nats", "captum", "tatoeba", "hansards", "kaleido", "chromium"),
    *("chrome", "streamlit", "js", "tv", "cpu", "gpu", "attnviz", "english", "french"),
}


def english_prose(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text`` when it holds no Chinese at all, else []."""
    for pattern in HIDDEN:
        text = pattern.sub(" ", text)
    if CJK.search(text):
        return []
    return [w for w in WORD.findall(text) if w.lower().strip("'’") not in allowed]
