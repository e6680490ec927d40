"""One sentence, one translation (issue 65): the command line, the API, a handout and the page
resolve the default precision the same way, so the same sentence gets the same words on each,
and each says which precision made them."""

from __future__ import annotations

import io
import json
import re

import pytest

import attnviz
from attnviz.cli.main import main

from ..helpers import heatmaps_on, open_dashboard, type_sentence

pytestmark = pytest.mark.slow
SENTENCES = ["The red cat sees a small dog .", "A big house likes the cat .", "The dog ."]


def _cli(path, capsys, monkeypatch) -> list[dict]:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(SENTENCES) + "\n"))
    assert main(["translate", str(path), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _handout(path, tmp_path) -> tuple[list[list[str]], str]:
    lesson = tmp_path / "lesson.txt"
    lesson.write_text("\n".join(SENTENCES), encoding="utf-8")
    assert main(["handout", str(lesson), "--models", str(path), "--out", str(tmp_path / "h")]) == 0
    tokens, footer = [], ""
    for page in sorted((tmp_path / "h").glob("sentence-*.html")):
        html = page.read_text("utf-8")
        found = re.search(r'id="attnviz-data">(.*?)</script>', html, re.S)
        tokens.append(json.loads(found.group(1))["models"][0]["trace"]["output_tokens"])
        footer = re.search(r"<footer[^>]*>(.*?)</footer>", html, re.S).group(1)
    return tokens, footer


def _page(folder, monkeypatch, name: str) -> tuple[list[list[str]], list[str]]:
    at = open_dashboard(folder, monkeypatch, ATTNVIZ_DECODING="")  # "auto", as everywhere
    tokens = []
    for sentence in SENTENCES:
        type_sentence(at, sentence)
        (figure,) = [f for f in heatmaps_on(at) if f["layout"]["title"]["text"].startswith(name)]
        tokens.append([t.split(":", 1)[1] for t in figure["data"][0]["y"]])
    lines = [m.value for m in at.markdown if m.value.startswith(f"**{name}**")]
    return tokens, lines


def test_the_cli_the_api_a_handout_and_the_page_write_the_same_words(
    checkpoints, tmp_path, capsys, monkeypatch
):
    monkeypatch.delenv("ATTNVIZ_DECODING", raising=False)
    path = checkpoints / "luong.safetensors"
    api = attnviz.load(path)  # the default precision
    expected = [api.translate(s).tgt_tokens for s in SENTENCES]
    cli = _cli(path, capsys, monkeypatch)
    assert [r["output_tokens"] for r in cli] == expected
    assert {r["precision"] for r in cli} == {api.precision}
    handout, footer = _handout(path, tmp_path)
    assert handout == expected and f"({api.precision})" in footer
    page, lines = _page(checkpoints, monkeypatch, "luong")
    assert page == expected
    shown = [line.replace("\u2011", "-") for line in lines]  # a hyphen that does not wrap
    assert shown and all(f"`{api.precision}`" in line for line in shown)
