"""The tests' small Chinese->English toy corpus, in cmn.txt's format (``English<TAB>Chinese<TAB>
attribution``): subject, verb and object with a word-for-word gloss, and sentences that carry a
number through. Each Chinese sentence is written as its words, the way jieba cuts them."""

from __future__ import annotations

import random
from pathlib import Path

SUBJECTS = {  # Chinese: (English, third person singular)
    "我": ("I", False),
    "你": ("You", False),
    "他": ("He", True),
    "她": ("She", True),
    "我们": ("We", False),
    "汤姆": ("Tom", True),
    "玛丽": ("Mary", True),
}
VERBS = {"喜欢": "like", "买": "buy", "需要": "need", "想要": "want"}
OBJECTS = {"苹果": "apples", "香蕉": "bananas", "橘子": "oranges", "鸡蛋": "eggs", "西瓜": "melons"}

Pair = tuple[list[str], list[str]]  # Chinese words, English words


def _verb(english: str, singular: bool) -> str:
    return english + "s" if singular else english


def sentence(rng: random.Random) -> Pair:
    """One pair: ``S V O`` (``S 爱 吃 O``: S love to eat O), or ``S 有 N 个 O`` (S has N O)."""
    subject = rng.choice(list(SUBJECTS))
    english, singular = SUBJECTS[subject]
    obj = rng.choice(list(OBJECTS))
    kind = rng.random()
    if kind < 0.25:
        return [subject, "爱", "吃", obj, "。"], [english, _verb("love", singular), "to", "eat",
                                                 OBJECTS[obj], "."]  # fmt: skip
    if kind < 0.5:
        n = str(rng.randint(2, 99))
        has = "has" if singular else "have"
        return [subject, "有", n, "个", obj, "。"], [english, has, n, OBJECTS[obj], "."]
    verb = rng.choice(list(VERBS))
    return [subject, verb, obj, "。"], [english, _verb(VERBS[verb], singular), OBJECTS[obj], "."]


def corpus(n: int, seed: int = 0, leave_out: str = "我爱吃苹果。") -> list[Pair]:
    """``n`` pairs (a sentence may come again, as in Tatoeba), never the sentence
    ``leave_out``: a model must translate it, not recall it."""
    rng, out = random.Random(seed), []
    while len(out) < n:
        zh, en = sentence(rng)
        if "".join(zh) != leave_out:
            out.append((zh, en))
    return out


def english(words: list[str]) -> str:
    """English words as the corpus writes them: the full stop attached."""
    return " ".join(words[:-1]) + words[-1]


def write_cmn(path: str | Path, pairs: list[Pair]) -> None:
    """Write pairs as cmn.txt does: English first, then Chinese, then an attribution."""
    with open(path, "w", encoding="utf-8") as f:
        for i, (zh, en) in enumerate(pairs):
            f.write(f"{english(en)}\t{''.join(zh)}\tCC-BY 2.0 (France) #{i} (toy)\n")
