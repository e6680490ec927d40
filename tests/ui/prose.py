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
    re.compile(r"\b[A-Z][a-z]+ (?:等|et al\.)[，,（(]? ?\d{4}"),  # a citation: Cho 等，2014
    re.compile(r"https?://\S+"),
    re.compile(r"\b[\w.-]+\.(?:safetensors|txt|gz|csv|json|align|svg|png)\b"),
    re.compile(r"\b(?:www\.)?[\w-]+\.(?:org|com|net)\b(?:/\S*)?"),  # a web address: tatoeba.org
    re.compile(r"\b[A-Za-z]*\d[\w-]*"),  # names with digits: fp32, int8-output, a sha256's hex
    re.compile(r"\bCC-BY(?:-[A-Z]{2})*"),  # a licence
    re.compile(r"(?<=[\u3400-\u9fff])（[A-Za-z][A-Za-z' -]*）"),  # a term's English gloss
    re.compile(r"(?<![\w.])/[\w.@-]+(?:/[\w.@-]+)+"),  # a folder: /srv/checkpoints
    # a processor's name as its maker writes it (a model card's): Intel(R) Xeon(R) Processor
    re.compile(r"\b(?:Intel|AMD|NVIDIA|Apple)\b(?:\((?:R|TM)\)|[A-Za-z0-9 @.-])*"),
]
ALLOWED = {  # model names, scores, units and formula symbols: the same in both languages
    *("bahdanau", "luong", "dot", "general", "concat", "pieces", "words", "zh", "en"),
    *("fr", "gru", "bleu", "aer", "eflomal", "pharaoh", "csv", "json", "png", "svg", "utf"),
    *("softmax", "tanh", "exp", "max", "argmax", "logit", "logits", "eos", "unk", "pad", "bos"),
    *("e", "s", "h", "t", "c", "j", "k", "v", "w", "u", "a", "x", "y", "tj", "ρ", "rho", "tau"),
    *("vs", "lambda", "sha", "nats", "captum", "tatoeba", "hansards", "kaleido", "chromium"),
    *("chrome", "streamlit", "js", "tv", "cpu", "gpu", "attnviz", "english", "french"),
    *("transformer", "encdec", "guided", "html", "d", "jieba", "jensen", "shannon"),
}


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text``, Chinese or not: its Latin words outside ``allowed``,
    once code, formulas, quotes, addresses, names with digits, citations and glosses are set
    aside."""
    return [w for w in WORD.findall(_hidden(text)) if w.lower().strip("'’") not in allowed]


def english_prose(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text`` when it holds no Chinese at all, else []."""
    return [] if CJK.search(_hidden(text)) else english_words(text, allowed)


def _hidden(text: str) -> str:
    """``text`` with what is not prose (:data:`HIDDEN`) blanked out."""
    for pattern in HIDDEN:
        text = pattern.sub(" ", text)
    return text
