"""Chart builders for the training history: a probe's attention at one snapshot, the curves
of validation loss, BLEU and AER over training time with the moment shown marked, and the
per-epoch validation loss a model card records.

Pure functions of :class:`attnviz.analysis.history.History` values and model cards, like
:mod:`attnviz.plots.heatmaps`.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..analysis.history import FIRST_EPOCH_POINTS, History, Probe
from ..i18n import N_
from ..i18n import gettext as _
from .heatmaps import FONT, gold_markers, labels, matrix_figure, weights_style

EOS = "<eos>"  # the last column: attention to the source's end
METRICS = {  # snapshot field: what the chart calls it
    "valid_loss": N_("validation loss"),
    "valid_bleu": N_("validation BLEU"),
    "aer": N_("AER of the probes (%)"),
}
MOMENT = "shown"  # the name of the curves' rule at the snapshot shown


def snapshot_heatmap(matrix: np.ndarray, probe: Probe, title: str = "") -> go.Figure:
    """A probe's word attention at one snapshot: its target words down, its source words
    (and the source's end) across; the gold's sure links as crosses when it has gold."""
    source, target = probe.words()
    x = labels([*source, EOS])
    y = labels(target)
    cells = dict(
        type="heatmap",
        z=matrix,
        x=x,
        y=y,
        hovertemplate=_("output %{y}<br>source %{x}<br>weight %{z:.3f}") + "<extra></extra>",
        **weights_style(),
    )
    gold = [] if probe.gold is None else [gold_markers(x, y, sorted(probe.gold.sure))]
    return matrix_figure([cells, *gold], title, len(y), len(x))


def history_frame(histories: dict[str, History]) -> pd.DataFrame:
    """One row per model, snapshot and metric that has a value: model, epoch, metric, value."""
    rows = [
        (name, s.epoch, label, getattr(s, key))
        for name, history in histories.items()
        for s in history.snapshots
        for key, label in METRICS.items()
        if getattr(s, key) is not None
    ]
    return pd.DataFrame(rows, columns=["model", "epoch", "metric", "value"])


def curves_chart(frame: pd.DataFrame, epoch: float | None = None) -> list[alt.Chart]:
    """Each metric of :func:`history_frame` over epochs, one line per model: one chart per
    metric, each as wide as where it is drawn, its epoch axis over the whole run; a rule marks
    ``epoch``, the moment shown."""
    charts = []
    epochs = [0, float(frame["epoch"].max())] if not frame.empty else [0, 1]
    for label in METRICS.values():
        part = frame[frame.metric == label]
        if part.empty:
            continue
        lines = (
            alt.Chart(part)
            .mark_line(point=True)
            .encode(
                x=alt.X("epoch:Q", title=_("epoch"), scale=alt.Scale(domain=epochs, nice=False)),
                y=alt.Y("value:Q", title=_(label), scale=alt.Scale(zero=label != METRICS["aer"])),
                color=alt.Color(
                    "model:N",
                    title=_("model"),
                    legend=alt.Legend(orient="bottom", direction="vertical"),  # names whole
                ),
                tooltip=[
                    alt.Tooltip("model:N", title=_("model")),
                    alt.Tooltip("epoch:Q", title=_("epoch")),
                    alt.Tooltip("value:Q", title=_(label), format=".2f"),
                ],
            )
            .properties(height=320)  # all of it: the page fits the chart, legend and titles in
        )
        if epoch is not None:  # the epoch in the spec itself (a dataset may travel apart)
            rule = alt.Chart(pd.DataFrame({"moment": [MOMENT]})).mark_rule(
                color="#d62728", strokeWidth=2, description=MOMENT
            )
            lines += rule.encode(x=alt.datum(epoch))
        charts.append(
            lines.configure_axis(labelFontSize=FONT["size"] - 3, titleFontSize=FONT["size"] - 2)
        )
    return charts


def moment_of(chart: alt.TopLevelMixin | dict) -> float | None:
    """The epoch one of :func:`curves_chart`'s charts marks, or None (for tests: read from its
    spec)."""
    spec = chart.to_dict() if isinstance(chart, alt.TopLevelMixin) else chart
    for part in [spec, *spec.get("hconcat", [])]:
        for layer in part.get("layer", []):
            if layer.get("mark", {}).get("description") == MOMENT:
                return layer["encoding"]["x"]["datum"]
    return None


def card_has_losses(card: dict) -> bool:
    """Whether a model card records the validation losses that :func:`card_loss_chart` draws."""
    return bool(card.get("history", {}).get("valid_loss"))


def card_loss_chart(card: dict) -> alt.Chart:
    """Validation loss per epoch from a model card, the kept (best) epoch marked (where
    :func:`curves_chart` draws the snapshots of several models' histories)."""
    history = card.get("history", {})
    losses = history.get("valid_loss", [])
    frame = pd.DataFrame(
        {
            "epoch": range(1, len(losses) + 1),
            "loss": losses,
            "kept": [i + 1 == card.get("best_epoch") for i in range(len(losses))],
        }
    )
    x = alt.X("epoch:O", title=_("epoch"), axis=alt.Axis(labelAngle=0))
    y = alt.Y("loss:Q", title=_(METRICS["valid_loss"]), scale=alt.Scale(zero=False))
    line = alt.Chart(frame).mark_line(point=True).encode(x=x, y=y)
    best = (
        alt.Chart(frame[frame["kept"]])
        .mark_point(size=160, color="#d62728", filled=True)
        .encode(
            x=x,
            y=y,
            tooltip=[
                alt.Tooltip("epoch:O", title=_("epoch")),
                alt.Tooltip("loss:Q", title=_(METRICS["valid_loss"]), format=".3f"),
            ],
        )
    )
    return (line + best).properties(height=220)


def snapshots_note(epochs: list[float]) -> str:
    """What the curves show and when their snapshots were taken, as this history has them: a
    run continued with ``--init-from`` takes its own first-epoch snapshots (2.1, 2.25, 2.5,
    from :data:`~attnviz.analysis.history.FIRST_EPOCH_POINTS`)."""
    note = _(
        "Validation loss and BLEU, and the AER over every probe sentence with gold, at each of "
        "the {n} snapshots (epochs {epochs}): at the start of a run, at 10, 25 and 50% of its "
        "first epoch, and after each epoch. The red rule is the moment shown."
    ).format(n=len(epochs), epochs=", ".join(f"{e:g}" for e in epochs))
    first = FIRST_EPOCH_POINTS[0]  # a run's first snapshot within an epoch
    continued = [round(e - first) for e in epochs if e > 1 and round(e % 1, 2) == first]
    if continued:
        note += " " + _(
            "Continued runs (`--init-from`) start at epochs: {epochs}; each is a new run, with "
            "its own first-epoch snapshots."
        ).format(epochs=", ".join(str(e) for e in continued))
    return note
