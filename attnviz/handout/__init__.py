"""Handouts: a lesson's sentences as static pages, one per sentence, drawn in the browser from
the Traces they hold (both models' heatmaps, a step slider, the candidates, the step's numbers),
needing no server and no network. :mod:`.page` makes one page from the Jinja2 templates in
``templates/``, :mod:`.site` writes a folder of them with one shared plotly.js, and
:mod:`.lesson` builds the dashboard's Lesson, six steps on one sentence, for pages beside them.
Imports ``plots`` and the layers below; never streamlit."""
