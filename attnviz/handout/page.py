"""One handout page: a sentence as each model translated it, drawn in the reader's browser from
the Traces it holds, with no server behind it.

The page is HTML with its style, its script (``page.js``) and its data inlined; the data is
:func:`attnviz.decoding.trace_json.trace_json` of each Trace, the numbers ``attnviz translate
--json`` prints. Plotly draws the charts: a site's pages share one ``plotly.min.js`` beside
them; a page downloaded alone carries it inlined.

The HTML comes from Jinja2 templates (``templates/``: ``base.html`` holds the one <head>,
``sentence.html``, ``lesson.html`` and ``index.html`` extend it) with autoescape on, so every
word from a sentence, a model's name or a catalog is escaped where it is written; this module
gives them plain values, in the bound language. A lesson's page (:func:`lesson_page`) draws its
one figure with ``lesson.js``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..decoding.trace import Trace
from ..decoding.trace_json import trace_json
from ..i18n import gettext as _
from ..model.model_config import MULTIHEAD, NONE
from ..model.precision import Precision
from ..plots import formulas, model_notes
from ..plots.heatmaps import HEATMAP_COLORS
from .lesson import Lesson

HERE = Path(__file__).parent
PLOTLY = "plotly.min.js"  # the file name of the shared script, beside the pages


@dataclass(frozen=True)
class Links:
    """Where a page of a site leads: its index, and the pages before and after it (None at
    either end)."""

    index: str
    previous: str | None
    next: str | None


@cache
def _asset(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def plotly_js() -> str:
    """plotly.js as the installed plotly package ships it: no CDN, no network."""
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


@cache
def _colorscale() -> list:
    """The dashboard's heatmap colours as explicit stops: plotly.js reads a named scale
    ("Blues") the other way round from plotly.py."""
    import plotly.graph_objects as go

    return [list(stop) for stop in go.Heatmap(colorscale=HEATMAP_COLORS).colorscale]


@cache
def _templates() -> Environment:
    """The page templates (``templates/``), every value escaped unless :func:`_verbatim` made it.
    Undefined names raise, so a misspelt one cannot leave a hole in a page."""
    env = Environment(
        loader=PackageLoader("attnviz.handout"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # |tojson writes the data <script> that page.js reads: made safe by Jinja (<, >, & and '
    # as \u escapes), and the words kept as they are, not as \u escapes.
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False}
    env.filters["mathml"] = mathml
    return env


def mathml(latex: str) -> Markup:
    """A formula's LaTeX typeset as MathML (latex2mathml), which a browser draws with no
    script and no network: the formulas are attnviz's own (attnviz.plots.formulas), and the
    converter escapes every character it writes."""
    from latex2mathml.converter import convert

    return Markup(convert(latex, display="block"))


def _verbatim(text: str) -> Markup:
    """``text`` put in the page as it is: the one place anything skips autoescape. Only for
    what goes inside <style> and <script> (page.css, page.js, plotly.js), which the browser
    reads raw, decoding no entity, so escaping would break them; never for a user's words."""
    return Markup(text)


def _model(name: str, trace: Trace) -> dict:
    """What one model's column shows, in the bound language; page.js draws its charts."""
    attends = trace.attention != NONE
    return {
        "name": name,
        "attention": _("attention: {name}").format(name=formulas.attention_label(trace.attention)),
        "translation": trace.text,
        "tokens": trace.tgt_tokens,
        "warning": model_notes.trace_warning(trace),
        "no_attention": None if attends else _(formulas.NO_ATTENTION).format(name=name),
        "parts_note": _parts_note(trace) if attends else None,
    }


def _parts_note(trace: Trace) -> str:
    """How the model's score is computed: a Transformer's, one head's scaled dot product (its
    heatmap averages the heads of a layer); a recurrent model's, its terms."""
    if trace.attention == MULTIHEAD:
        return formulas.score_text(MULTIHEAD)
    return formulas.parts_note(trace.attention, trace.scaled)


def _page_text() -> dict[str, str]:
    """The words of a sentence page around the models' own, in the bound language."""
    return {
        "all_sentences": _("All sentences"),
        "previous": _("Previous"),
        "next": _("Next"),
        "intro": _(
            "Move the slider: at each step, each model writes one word. The framed row of its "
            "heatmap is the attention it paid to the source words while writing it."
        ),
        "step": _("Step"),
        "finished": _("This model had already finished; its last step is shown."),
        "heatmap": _("Attention: one row per output word, the framed row is this step"),
        "bars": _("This step’s weights over the source"),
        "numbers": _("This step in numbers"),
        "how": _("How the score e is computed"),
        "weighed": _("The words the model weighed for this step"),
    }


def _footer(models: list[tuple[str, Trace]]) -> str:
    """Which precision made each model's words (the command line's, by default)."""
    by_precision: dict[Precision, list[str]] = {}
    for name, trace in models:
        by_precision.setdefault(trace.precision, []).append(name)
    return " ".join(model_notes.made_by(names, p) for p, names in by_precision.items())


def sentence_page(
    models: list[tuple[str, Trace]],
    language: str = "en",
    links: Links | None = None,
    inline_plotly: bool = False,
) -> str:
    """The page of one sentence as ``models`` (name, Trace) translated it; with
    ``inline_plotly`` a single file that opens anywhere, otherwise one that loads
    ``plotly.min.js`` from its own folder."""
    data = {
        "models": [{"name": name, "trace": trace_json(trace)} for name, trace in models],
        "colorscale": _colorscale(),
        "text": {
            "step_of": _("Step {t} of {n}"),
            "word": _("word"),
            "probability": _("probability"),
            "source_word": _("source word"),
        },
    }
    return (
        _templates()
        .get_template("sentence.html")
        .render(
            language=language,
            title=models[0][1].source,
            style=_verbatim(_asset("page.css")),
            links=links,
            text=_page_text(),
            models=[_model(name, trace) for name, trace in models],
            footer=_footer(models),
            data=data,
            plotly_inlined=_verbatim(plotly_js()) if inline_plotly else None,
            plotly_file=PLOTLY,
            script=_verbatim(_asset("page.js")),
        )
    )


def index_page(
    entries: list[tuple[str, str, list[tuple[str, str]]]],
    language: str,
    lesson: list[tuple[str, str]] | None = None,
) -> str:
    """The index of a site: for each page (file name, sentence, [(model, translation)]), a link
    and what each model wrote; with ``lesson`` (file name, title), a link to each of its steps."""
    pages = [
        {"file": file_name, "sentence": sentence, "translations": translations}
        for file_name, sentence, translations in entries
    ]
    note = _(
        "Each page shows how the models translated one sentence, step by step. The pages "
        "need no server and no network: open them from this folder, a zip or any web server."
    )
    return (
        _templates()
        .get_template("index.html")
        .render(
            language=language,
            title=_("Attention, sentence by sentence"),
            style=_verbatim(_asset("page.css")),
            note=note,
            pages=pages,
            lesson=lesson,
            lesson_title=_("The lesson, step by step"),
        )
    )


def lesson_page(lesson: Lesson, k: int, language: str, links: Links) -> str:
    """The page of the lesson's step ``k`` (0-based): its words, its picture (drawn by
    ``lesson.js`` with the ``plotly.min.js`` beside it, or the notes' table), its formula and
    numbers, the thing to try, and the links to the steps before and after it."""
    page = lesson.pages[k]
    text = {
        "all_sentences": _("All sentences"),
        "back": _("Back"),
        "next": _("Next step"),  # not "Next", which the sentence pages read as the next sentence
        "where": _("Step {k} of {n}").format(k=page.step, n=len(lesson.pages)),
        "sentence": _("The class’s sentence: {sentence}").format(sentence=lesson.sentence),
        "to_try": (  # the handout has no controls: what to try is the dashboard's
            _("Try this on the dashboard's Lesson page: {what}").format(what=page.to_try)
            if page.to_try
            else ""
        ),
    }
    return (
        _templates()
        .get_template("lesson.html")
        .render(
            language=language,
            title=f"{page.step}. {page.title}",
            style=_verbatim(_asset("page.css")),
            links=links,
            text=text,
            page=page,
            footer=_footer(list(lesson.decoded)),
            data={"figure": page.figure},
            plotly_file=PLOTLY,
            script=_verbatim(_asset("lesson.js")),
        )
    )
