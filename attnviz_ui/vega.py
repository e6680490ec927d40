"""Altair charts drawn from their Vega-Lite spec, without validating it on every rerun."""

from __future__ import annotations

import altair as alt
import streamlit as st

VALIDATE = False  # tests/ui/conftest.py turns it on: every chart the tests draw is validated


def vega_chart(chart: alt.TopLevelMixin, where=st, key: str | None = None) -> None:
    """Draw ``chart`` in ``where`` (the page, or a column) as ``st.altair_chart`` would, from
    ``chart.to_dict(validate=VALIDATE)``. ``st.altair_chart`` validates the spec against
    Vega-Lite's JSON schema on every rerun, which took 12 of the 21 ms a bar chart's
    conversion took, and the compare view draws three; the builders in attnviz.plots make
    specs of the same shape each time, which the tests validate."""
    where.vega_lite_chart(chart.to_dict(validate=VALIDATE), key=key)
