"""`attnviz handout`: the files of the site, and the Traces' numbers inside its pages."""

from __future__ import annotations

import io
import json
import re
import zipfile

import numpy as np
import pytest

from attnviz import i18n
from attnviz.cli.main import main
from attnviz.decoding.trace_json import trace_json
from attnviz.handout.page import PLOTLY
from attnviz.plots.model_notes import trace_warning
from attnviz.store.checkpoint import load

from ..helpers import fresh_python
from .handouts import SENTENCES, page_data, write_lesson


def test_the_site_has_an_index_a_page_per_sentence_and_one_plotly(handout):
    folder, _ = handout
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["index.html", PLOTLY, "sentence-01.html", "sentence-02.html"]
    index = (folder / "index.html").read_text("utf-8")
    assert all(f'href="sentence-0{i}.html"' in index for i in (1, 2))
    assert (folder / PLOTLY).stat().st_size > 1_000_000  # the whole library, not a stub


def test_pages_load_plotly_from_their_folder_and_nothing_from_the_network(handout):
    folder, _ = handout
    for page in ("sentence-01.html", "sentence-02.html", "index.html"):
        html = (folder / page).read_text("utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), page
    assert '<script src="plotly.min.js"></script>' in (folder / "sentence-01.html").read_text()


def test_a_page_stays_under_200_kb(handout):
    folder, _ = handout
    assert max((folder / f"sentence-0{i}.html").stat().st_size for i in (1, 2)) < 200_000


def test_each_page_holds_the_numbers_translate_prints(handout, capsys, monkeypatch):
    folder, checkpoints = handout
    for i, sentence in enumerate(SENTENCES, start=1):
        data = page_data(folder / f"sentence-0{i}.html")
        assert [m["name"] for m in data["models"]] == list(checkpoints)
        for model, path in zip(data["models"], checkpoints.values(), strict=True):
            trace = load(path, precision="fp32").translate(sentence)
            assert model["trace"] == trace_json(trace)
            assert model["trace"]["output_tokens"] == trace.tgt_tokens
            np.testing.assert_allclose(model["trace"]["weights"], trace.weights, atol=1e-7)
            monkeypatch.setattr("sys.stdin", io.StringIO(sentence + "\n"))
            assert main(["translate", str(path), "--json", "--precision", "fp32"]) == 0
            printed = json.loads(capsys.readouterr().out)
            assert "flagged" in printed.pop("check")  # the command line adds its check note
            assert printed.pop("warning") == trace_warning(trace)  # and its warning
            assert printed == model["trace"]


def test_the_zip_holds_the_folder(handout):
    folder, _ = handout
    with zipfile.ZipFile(folder.parent / "site.zip") as z:
        assert sorted(z.namelist()) == sorted(f"site/{p.name}" for p in folder.iterdir())
        assert z.read("site/sentence-02.html") == (folder / "sentence-02.html").read_bytes()


def test_chinese_interface_and_a_chinese_sentence(handout, tmp_path):
    _, checkpoints = handout
    (tmp_path / "zh.txt").write_text("The cat sees 我爱吃苹果.\n", encoding="utf-8")
    argv = ["handout", str(tmp_path / "zh.txt"), "--out", str(tmp_path / "zh"), "--lang", "zh",
            "--precision", "fp32", "--models", *map(str, checkpoints.values())]  # fmt: skip
    assert main(argv) == 0
    html = (tmp_path / "zh" / "sentence-01.html").read_text("utf-8")
    assert '<html lang="zh">' in html
    assert "我爱吃苹果" in html
    data = page_data(tmp_path / "zh" / "sentence-01.html")
    assert re.search(r"[\u4e00-\u9fff]", data["text"]["step_of"])  # the interface in Chinese
    assert "Move the slider" not in html


def test_a_language_without_a_catalog_is_refused(handout, tmp_path, capsys):
    _, checkpoints = handout
    (tmp_path / "s.txt").write_text("The cat.\n")
    argv = ["handout", str(tmp_path / "s.txt"), "--out", str(tmp_path / "x"), "--lang", "fr",
            "--models", *map(str, checkpoints.values())]  # fmt: skip
    with pytest.raises(SystemExit):
        main(argv)
    assert "invalid choice" in capsys.readouterr().err


def test_a_handout_in_chinese_is_written_in_chinese(untrained_model, tmp_path):
    site = write_lesson(tmp_path, "the cat sees a dog .", untrained_model, "--lang", "zh")
    zh = i18n.catalog("zh").gettext
    assert zh("Step") != "Step"
    page = (site / "sentence-01.html").read_text("utf-8")
    assert '<html lang="zh">' in page
    assert f'<label for="step">{zh("Step")}</label>' in page
    assert f"<h3>{zh('This step in numbers')}</h3>" in page
    assert "Move the slider" not in page
    assert page_data(site / "sentence-01.html")["text"]["step_of"] == zh("Step {t} of {n}")
    index = (site / "index.html").read_text("utf-8")
    assert f"<h1>{zh('Attention, sentence by sentence')}</h1>" in index


def test_a_handout_whose_catalog_is_missing_fails_naming_the_file(
    untrained_model, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(i18n, "LOCALES", tmp_path / "no-locales")
    missing = tmp_path / "no-locales" / "zh" / "LC_MESSAGES" / "messages.po"
    (tmp_path / "lesson.txt").write_text("the cat sees a dog .\n")
    argv = ["handout", str(tmp_path / "lesson.txt"), "--out", str(tmp_path / "site"),
            "--lang", "zh", "--models", str(untrained_model)]  # fmt: skip
    i18n.catalog.cache_clear()
    try:
        assert main(argv) == 2
    finally:
        i18n.catalog.cache_clear()
    assert str(missing) in capsys.readouterr().err
    assert not (tmp_path / "site" / "index.html").exists()  # no page in English instead


def test_a_chinese_handout_needs_nothing_of_the_dashboard_extra(untrained_model, tmp_path):
    """`attnviz handout --lang zh` in a fresh interpreter where the dashboard extra's packages
    (streamlit, kaleido) cannot be imported: the catalog and the templates are the core's."""
    (tmp_path / "lesson.txt").write_text("the cat sees a dog .\n")
    site = tmp_path / "site"
    code = f"""
import importlib.abc, sys

class NoDashboard(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("streamlit", "kaleido", "attnviz_ui"):
            raise ImportError(f"{{name}}: the dashboard extra is not installed")

sys.meta_path.insert(0, NoDashboard())
from attnviz.cli.main import main
code = main(["handout", {str(tmp_path / "lesson.txt")!r}, "--out", {str(site)!r},
             "--lang", "zh", "--models", {str(untrained_model)!r}])
print(code, sorted(m for m in sys.modules if m.split(".")[0] in ("streamlit", "kaleido")))
"""
    assert fresh_python(code).splitlines()[-1] == "0 []"
    zh = i18n.catalog("zh").gettext
    assert f'<label for="step">{zh("Step")}</label>' in (site / "sentence-01.html").read_text()
