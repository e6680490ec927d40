"""Altair charts drawn from their Vega-Lite spec, without validating it on every rerun."""

from __future__ import annotations

import altair as alt
import streamlit as st

VALIDATE = False  # tests/ui/conftest.py turns it on: every chart the tests draw is validated


def vega_spec(chart: alt.TopLevelMixin) -> dict:
    """``chart``'s Vega-Lite spec, as :func:`vega_chart` draws it: for a spec made once and
    drawn run after run (:mod:`attnviz_ui.serving.figures`)."""
    return chart.to_dict(validate=VALIDATE)


def vega_chart(chart: alt.TopLevelMixin | dict, where=st, key: str | None = None) -> None:
    """Draw ``chart`` (or its spec, from :func:`vega_spec`) in ``where`` (the page, or a
    column) as ``st.altair_chart`` would, from ``chart.to_dict(validate=VALIDATE)``.
    ``st.altair_chart`` validates the spec against Vega-Lite's JSON schema on every rerun,
    which took 12 of the 21 ms a bar chart's conversion took, and the compare view draws
    three; the builders in attnviz.plots make specs of the same shape each time, which the
    tests validate.

    A single or layered chart takes the width of where it is drawn, so that it never runs
    past the page's edge; a builder that has several to show returns them apart.
    """
    spec = chart if isinstance(chart, dict) else vega_spec(chart)
    where.vega_lite_chart(spec, key=key, width="stretch")


def vega_charts(
    charts: list[alt.TopLevelMixin] | list[dict], where=st, key: str = "", side=False
) -> None:
    """Several charts of one builder, each as wide as ``where``, one under the other (or, with
    ``side``, side by side in columns of ``where``)."""
    places = where.columns(len(charts)) if side and len(charts) > 1 else [where] * len(charts)
    for k, (place, chart) in enumerate(zip(places, charts, strict=True)):
        vega_chart(chart, place, key=f"{key}-{k}" if key else None)
