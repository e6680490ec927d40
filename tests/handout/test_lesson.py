"""`attnviz handout --lesson`: the dashboard's Lesson as six static pages beside the sentence
pages, in order, each with its step's title and its picture, in English or Chinese, offline."""

from __future__ import annotations

import base64
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from markupsafe import escape

from attnviz import i18n
from attnviz.cli.main import main
from attnviz.data.corpus import DataConfig
from attnviz.data.text import TextConfig
from attnviz.plots.heatmaps import labels
from attnviz.plots.lesson_notes import MISSING_GIVEN, ROW_NAMES, STEPS
from attnviz.store.checkpoint import load, save

from ..helpers import ROOT, tiny_transformer, tiny_translator
from ..ui.prose import ALLOWED, WORD, english_prose
from .handouts import page_data

SENTENCE = "the cat sees a dog ."
KINDS = {  # the file name of each untrained model, and how it is made
    "fixed": lambda: tiny_translator("none"),
    "bahdanau": lambda: tiny_translator("bahdanau"),
    "dot": lambda: tiny_translator("dot"),
    "transformer": tiny_transformer,
}
LESSON = [f"lesson-{k}.html" for k in range(1, 7)]


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    """An untrained tiny model of each kind the lesson picks, by file name."""
    folder = tmp_path_factory.mktemp("lesson-models")
    paths = {}
    for name, make in KINDS.items():
        tr = make()
        paths[name] = folder / f"{name}.safetensors"
        save(paths[name], tr.model, tr.src_vocab, tr.tgt_vocab, TextConfig(),
             DataConfig(subwords=0), {})  # fmt: skip
    return paths


def write_lesson(folder: Path, models: list[Path], *flags: str, sentence: str = SENTENCE) -> Path:
    """`attnviz handout --lesson` of ``sentence`` and one more line, without eflomal's priors;
    returns the site's folder."""
    (folder / "lesson.txt").write_text(f"{sentence}\na dog .\n", encoding="utf-8")
    argv = ["handout", str(folder / "lesson.txt"), "--out", str(folder / "site"), "--lesson",
            "--precision", "fp32", "--priors", str(folder / "no-priors.txt.gz"),
            "--zip", str(folder / "site.zip"), "--models", *map(str, models), *flags]  # fmt: skip
    assert main(argv) == 0
    return folder / "site"


@pytest.fixture(scope="module")
def english(models, tmp_path_factory) -> Path:
    return write_lesson(tmp_path_factory.mktemp("en"), list(models.values()))


@pytest.fixture(scope="module")
def chinese(models, tmp_path_factory) -> Path:
    return write_lesson(tmp_path_factory.mktemp("zh"), list(models.values()), "--lang", "zh")


def plotly_array(value) -> np.ndarray:
    """An array of a figure's JSON, as plotly.py writes it: a list, or base64 typed data."""
    if isinstance(value, dict):
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = [int(n) for n in str(value.get("shape", len(flat))).split(",")]  # "24, 7"
        return flat.reshape(shape)
    return np.asarray(value)


class _Texts(HTMLParser):
    """The text a reader sees: every text node outside <script>, <style> and code."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style", "code")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "code")

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data.strip())


def shown_texts(html: str) -> list[str]:
    """The page's text but its code and its formulas, which read the same in any language."""
    parser = _Texts()
    parser.feed(re.sub(r'<p class="formula">.*?</p>|<math .*?</math>', "", html, flags=re.S))
    return parser.texts


def test_the_lesson_is_six_pages_linked_in_order_from_the_index(english):
    names = sorted(p.name for p in english.iterdir())
    assert [n for n in names if n.startswith("lesson-")] == LESSON
    for k, name in enumerate(LESSON):
        html = (english / name).read_text("utf-8")
        back = re.search(r'<a href="([^"]+)" rel="prev">', html)
        ahead = re.search(r'<a href="([^"]+)" rel="next">', html)
        assert (back and back.group(1)) == (LESSON[k - 1] if k > 0 else None)
        assert (ahead and ahead.group(1)) == (LESSON[k + 1] if k < 5 else None)
        assert '<a href="index.html">' in html
    index = (english / "index.html").read_text("utf-8")
    assert re.findall(r'href="(lesson-\d\.html)"', index) == LESSON
    assert 'href="sentence-01.html"' in index  # beside the sentence pages, not instead


def test_each_step_holds_its_title_and_its_words(english, models):
    for k, (name, step) in enumerate(zip(LESSON, STEPS, strict=True), start=1):
        html = (english / name).read_text("utf-8")
        assert f"<h1>{escape(f'{k}. {step.title}')}</h1>" in html
        assert escape(step.to_try) in html
    hidden = load(models["fixed"]).model.config.hidden
    first = (english / LESSON[0]).read_text("utf-8")
    assert f"fixed is such a model: its c has {hidden} dimensions" in first


def test_the_pictures_hold_the_models_decodings(english, models):
    from attnviz.plots.lesson_notes import FURTHER

    traces = {n: load(p, precision="fp32").translate(SENTENCE) for n, p in models.items()}
    figures = [page_data(english / name)["figure"] for name in LESSON]
    fixed = load(models["fixed"], precision="fp32").translate(FURTHER["en"][0])  # step 1's own
    assert [t["text"] for t in figures[0]["data"][-3:-1]] == [
        labels(fixed.src_tokens),
        labels(fixed.tgt_tokens),
    ]  # the one-context picture: source words into c, output words out of it
    for figure, name in ((figures[1], "bahdanau"), (figures[2], "dot"), (figures[4], "dot")):
        cells = figure["data"][0]
        assert cells["x"] == labels(traces[name].src_tokens)
        assert cells["y"] == labels(traces[name].tgt_tokens)
        np.testing.assert_allclose(plotly_array(cells["z"]), traces[name].weights, atol=1e-6)
    heads = traces["transformer"].heads.shape[1:3]  # (layers, heads): one grid each
    assert [t["type"] for t in figures[5]["data"]] == ["heatmap"] * int(np.prod(heads))
    assert figures[3] is None  # the notes' table is HTML
    table = (english / LESSON[3]).read_text("utf-8")
    assert "<th>bahdanau</th><th>dot</th><th>evidence</th>" in table
    assert all(f"<td>{escape(row)}</td>" in table for row in ROW_NAMES.values())


def test_bahdanau_and_luong_show_the_same_step_with_its_numbers(english):
    pages = [(english / name).read_text("utf-8") for name in LESSON[1:3]]
    framed = [re.search(r"The framed row is step (\d+)", html).group(1) for html in pages]
    assert framed[0] == framed[1]
    for html in pages:
        assert '<table class="numbers">' in html
        assert "<th>weight α</th>" in html
        assert "<math " in html  # the step's formula typeset offline, not by a CDN


def test_pages_refer_to_nothing_outside_the_folder(english):
    for name in [*LESSON, "index.html"]:
        html = (english / name).read_text("utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), name
        for target in re.findall(r"""(?:src|href)="([^"]+)\"""", html):
            assert (english / target).is_file(), (name, target)
    with zipfile.ZipFile(english.parent / "site.zip") as z:
        assert {f"site/{name}" for name in LESSON} <= set(z.namelist())


def test_lesson_pages_stay_under_200_kb(english):
    assert max((english / name).stat().st_size for name in LESSON) < 200_000


def test_without_priors_the_alignment_steps_say_so(english):
    for name in LESSON[4:]:
        html = (english / name).read_text("utf-8")
        assert "eflomal’s links are not shown: there are no eflomal priors at" in html
        assert 'id="picture"' in html  # the heatmap and the heads, without eflomal's links


def test_a_lesson_in_chinese_holds_no_english_prose(chinese, models):
    traces = [load(p, precision="fp32").translate(SENTENCE) for p in models.values()]
    words = [SENTENCE, *models, *(t for trace in traces for t in trace.tgt_tokens)]
    allowed = ALLOWED | {w.lower() for text in words for w in WORD.findall(text)}
    zh = i18n.catalog("zh").gettext
    for name, step in zip(LESSON, STEPS, strict=True):
        html = (chinese / name).read_text("utf-8")
        assert '<html lang="zh">' in html
        assert escape(zh(step.title)) in html and zh(step.title) != step.title
        english = [(t, w) for t in shown_texts(html) if (w := english_prose(t, allowed))]
        assert not english, f"{name}: {english}"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_step_whose_model_is_missing_says_so_in_place_of_its_words(models, tmp_path, language):
    site = write_lesson(tmp_path, [models["bahdanau"]], "--lang", language)
    say = i18n.catalog(language).gettext if language == "zh" else str
    for k in (1, 3, 4, 6):  # the fixed context, Luong, the table, the Transformer
        html = (site / LESSON[k - 1]).read_text("utf-8")
        missing = say(MISSING_GIVEN).format(needs=say(STEPS[k - 1].needs))
        assert f"<p>{escape(missing)}</p>" in html, k
        assert 'id="picture"' not in html and 'class="try"' not in html
    for k in (2, 5):  # Bahdanau's step draws, and aligns
        html = (site / LESSON[k - 1]).read_text("utf-8")
        assert 'id="picture"' in html and 'class="try"' in html
    for name in LESSON:  # no template hole on any page
        texts = shown_texts((site / name).read_text("utf-8"))
        assert not [t for t in texts if "{" in t or re.search(r"(^|\s)–(\s|$)", t)], name


def test_the_sentence_comes_out_escaped_on_every_lesson_page(models, tmp_path):
    sentence = "The cat <script>alert(1)</script> & the dog."
    site = write_lesson(tmp_path, [models["bahdanau"]], sentence=sentence)
    for name in LESSON:
        html = (site / name).read_text("utf-8")
        assert "<script>alert" not in html
        assert escape(sentence) in html


def test_the_help_and_the_readmes_name_the_lesson(capsys):
    with pytest.raises(SystemExit):
        main(["handout", "--help"])
    assert "FIRST sentence of SENTENCES" in capsys.readouterr().out
    for readme in ("README.md", "README.zh.md"):
        assert "--lesson" in (ROOT / readme).read_text("utf-8"), readme


def test_with_priors_the_alignment_step_shows_eflomal_and_its_aer(handout, cli_priors, tmp_path):
    """On the trained models, with priors of their own corpus."""
    _, checkpoints = handout
    site = write_lesson(tmp_path, list(checkpoints.values()), "--priors", str(cli_priors),
                        sentence="The red cat sees a dog.")  # fmt: skip
    html = (site / LESSON[4]).read_text("utf-8")
    assert re.search(r"dot’s attention against eflomal’s links \(green circles\): AER \d+", html)
    figure = page_data(site / LESSON[4])["figure"]
    assert figure["data"][1]["name"] == "eflomal link" and figure["data"][1]["x"]


def test_step_one_grows_its_short_sentence_and_lists_each_stage(english, models):
    from attnviz.plots.lesson_notes import FURTHER, grown_input

    html = (english / LESSON[0]).read_text("utf-8")
    fixed = load(models["fixed"], precision="fp32")
    for count in (1, 3, 5, 8):
        text = fixed.translate(grown_input(FURTHER["en"][0], FURTHER["en"][1:], count, "en")).text
        assert f"{count} sentences (" in html and escape(text) in html, count
    assert escape(f"“{FURTHER['en'][0]}”") in html  # the text names the sentence it starts from


def test_formulas_are_typeset_as_mathml_and_no_latex_is_left_raw(english):
    for name in LESSON[1:3]:
        html = (english / name).read_text("utf-8")
        assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
        assert "\\begin{gathered}" not in html and "\\tanh" not in html and "<pre>" not in html
