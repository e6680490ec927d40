"""A handout page's HTML: what a sentence or a model holds is written as text, never as markup."""

from __future__ import annotations

import re

from .handouts import page_data, write_lesson

SENTENCE = "The cat <script>alert(1)</script> & the dog."
ESCAPED = "The cat &lt;script&gt;alert(1)&lt;/script&gt; &amp; the dog."


def test_a_sentence_with_markup_and_an_ampersand_comes_out_escaped(untrained_model, tmp_path):
    site = write_lesson(tmp_path, SENTENCE, untrained_model)
    page = (site / "sentence-01.html").read_text("utf-8")
    index = (site / "index.html").read_text("utf-8")
    for html in (page, index):
        assert "alert(1)</script>" not in html
        assert "<script>alert" not in html
    assert f"<title>{ESCAPED} — attnviz</title>" in page
    assert f"<h1>{ESCAPED}</h1>" in page
    assert f">{ESCAPED}</a>" in index
    assert page_data(site / "sentence-01.html")["models"][0]["trace"]["source"] == SENTENCE


def test_the_page_script_and_style_are_inlined_unescaped(untrained_model, tmp_path):
    site = write_lesson(tmp_path, "the cat sees a dog .", untrained_model)
    page = (site / "sentence-01.html").read_text("utf-8")
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert '"Noto Sans CJK SC"' in style  # quotes kept: the CSS reads as written
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert any('getElementById("attnviz-data")' in s for s in scripts)
    assert page_data(site / "sentence-01.html")["models"][0]["name"] == "tiny"
