"""One handout page: a sentence as each model translated it, drawn in the reader's browser from
the Traces it holds, with no server behind it.

The page is HTML with its style, its script (``page.js``) and its data inlined; the data is
:func:`attnviz.decoding.trace_json.trace_json` of each Trace, the numbers ``attnviz translate
--json`` prints. Plotly draws the charts: a site's pages share one ``plotly.min.js`` beside
them; a page downloaded alone carries it inlined.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

from ..decoding.trace import Trace
from ..decoding.trace_json import trace_json
from ..i18n import gettext as _
from ..model.networks import NONE
from ..plots import formulas, model_notes
from ..plots.charts import HEATMAP_COLORS

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


def _script_json(value) -> str:
    """``value`` as JSON that cannot close the <script> element holding it."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def _nav(links: Links | None) -> str:
    if links is None:
        return ""
    every, previous, following = (escape(t) for t in (_("All sentences"), _("Previous"), _("Next")))
    items = [f'<a href="{escape(links.index)}">{every}</a>']
    if links.previous:
        items.append(f'<a href="{escape(links.previous)}">← {previous}</a>')
    if links.next:
        items.append(f'<a href="{escape(links.next)}">{following} →</a>')
    return f"<nav>{''.join(items)}</nav>"


def _model_section(i: int, name: str, trace: Trace) -> str:
    """One model's column: its translation word by word, then its charts and numbers, which
    page.js fills in."""
    words = "".join(f'<span class="token">{escape(t)}</span>' for t in trace.tgt_tokens)
    warning = trace.warning()
    attention = _("attention: {name}").format(name=formulas.attention_label(trace.attention))
    finished = _("This model had already finished; its last step is shown.")
    parts = [
        f'<section class="model" id="model-{i}">',
        f"<h2>{escape(name)}</h2>",
        f'<p class="muted">{escape(attention)}</p>',
        f'<p class="translation">{escape(trace.text)}</p>',
        f'<p id="words-{i}">{words}</p>',
        f'<p class="warning">{escape(warning)}</p>' if warning else "",
        f'<p id="finished-{i}" class="muted" hidden>{escape(finished)}</p>',
    ]
    if trace.attention == NONE:
        parts.append(f"<p>{escape(_(formulas.NO_ATTENTION).format(name=name))}</p>")
    else:
        titles = [
            _("Attention: one row per output word, the framed row is this step"),
            _("This step’s weights over the source"),
            _("This step in numbers"),
            _("How the score e is computed"),
        ]
        heat, bars, numbers, how = (escape(t) for t in titles)
        parts += [
            f'<h3>{heat}</h3><div id="heatmap-{i}" class="heatmap"></div>',
            f'<h3>{bars}</h3><div id="bars-{i}"></div>',
            f'<h3>{numbers}</h3><div id="formula-{i}"></div>',
            f"<details><summary>{how}</summary>"
            f"<p>{escape(formulas.parts_note(trace.attention))}</p></details>",
        ]
    weighed = escape(_("The words the model weighed for this step"))
    parts += [f'<h3>{weighed}</h3><div id="candidates-{i}"></div>', "</section>"]
    return "\n".join(p for p in parts if p)


def _footer(models: list[tuple[str, Trace]]) -> str:
    """Which precision made each model's words (the command line's, by default)."""
    by_precision: dict[str, list[str]] = {}
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
    sentence = models[0][1].source
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
    plotly = (
        f"<script>{plotly_js()}</script>" if inline_plotly else f'<script src="{PLOTLY}"></script>'
    )
    intro = _(
        "Move the slider: at each step, each model writes one word. The framed row of its "
        "heatmap is the attention it paid to the source words while writing it."
    )
    step = _("Step")
    sections = "\n".join(_model_section(i, name, trace) for i, (name, trace) in enumerate(models))
    return f"""<!doctype html>
<html lang="{escape(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(sentence)} — attnviz</title>
<style>{_asset("page.css")}</style>
</head>
<body>
{_nav(links)}
<h1>{escape(sentence)}</h1>
<p class="muted">{escape(intro)}</p>
<div class="stepper"><label for="step">{escape(step)}</label>
<input type="range" id="step" min="0" max="0" value="0" step="1">
<span id="step-label"></span></div>
<div class="models">
{sections}
</div>
<footer class="muted">{escape(_footer(models))}</footer>
<script type="application/json" id="attnviz-data">{_script_json(data)}</script>
{plotly}
<script>{_asset("page.js")}</script>
</body>
</html>
"""


def index_page(entries: list[tuple[str, str, list[tuple[str, str]]]], language: str) -> str:
    """The index of a site: for each page (file name, sentence, [(model, translation)]), a link
    and what each model wrote."""
    items = []
    for file_name, sentence, translations in entries:
        said = "".join(
            f'<br><span class="muted">{escape(name)}:</span> {escape(text)}'
            for name, text in translations
        )
        items.append(f'<li><a href="{escape(file_name)}">{escape(sentence)}</a>{said}</li>')
    title = _("Attention, sentence by sentence")
    note = _(
        "Each page shows how the models translated one sentence, step by step. The pages "
        "need no server and no network: open them from this folder, a zip or any web server."
    )
    return f"""<!doctype html>
<html lang="{escape(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} — attnviz</title>
<style>{_asset("page.css")}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<p class="muted">{escape(note)}</p>
<ul class="sentences">
{"".join(items)}
</ul>
</body>
</html>
"""
