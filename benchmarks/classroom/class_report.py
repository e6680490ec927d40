"""What benchmarks/classroom/class_load.py found, as numbers and a picture: p50 / p95 / max of each
gesture, the failures, the server's memory, the latency over time beside the number of open
sessions, and the capacity a sweep finds."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

GESTURES = {  # what each timed gesture is, in the report
    "open": "page open → both heatmaps",
    "enter": "Enter → both heatmaps",
    "step": "step change → both heatmaps framed",
    "view": "view switch → run finished",
}
LIMIT = 1.0  # seconds: the p95 Enter past which a sweep stops (the class has outgrown the server)


@dataclass
class Gesture:
    kind: str  # a key of GESTURES
    started: float  # seconds since the run started
    seconds: float | None  # from sending it to what it asked for; None: it failed


@dataclass
class Outcome:
    """One visitor's run: its gestures, and what went wrong."""

    who: str  # "protocol 12", "browser 3"
    gestures: list[Gesture] = field(default_factory=list)
    opened: float | None = None  # seconds since the run started; None: never opened
    closed: float | None = None
    errors: list[str] = field(default_factory=list)  # a failed open's reason is one too
    exceptions: int = 0  # exception elements the page showed
    crosstalk: int = 0  # heatmaps that held a sentence other than this visitor's

    @property
    def client(self) -> str:
        return self.who.split()[0]


def summary(values: list[float | None]) -> tuple[float, float, float]:
    """(p50, p95, max) in seconds, by nearest rank (each a time some gesture took); a failed
    gesture (None) counts as infinitely slow. NaN for no values."""
    if not values:
        return (math.nan,) * 3
    a = np.array([math.inf if v is None else v for v in values], dtype=float)
    p50, p95 = np.percentile(a, [50, 95], method="inverted_cdf")
    return float(p50), float(p95), float(a.max())


def times(outcomes: list[Outcome], kind: str, client: str | None = None) -> list[float | None]:
    """Every time of gesture ``kind``; a visitor that never opened counts as one failed
    gesture of each kind, since it could make none."""
    found: list[float | None] = []
    for o in outcomes:
        if client and o.client != client:
            continue
        mine = [g.seconds for g in o.gestures if g.kind == kind]
        found += mine if (mine or o.opened is not None) else [None]
    return found


def capacity(sweep: dict[int, list[Outcome]]) -> tuple[int | None, int | None]:
    """(the most sessions whose p95 Enter held within LIMIT, the fewest whose did not),
    over the points of a sweep; None where no point did."""
    held = [n for n, o in sweep.items() if summary(times(o, "enter"))[1] <= LIMIT]
    passed = [n for n, o in sweep.items() if summary(times(o, "enter"))[1] > LIMIT]
    return (max(held) if held else None, min(passed) if passed else None)


def _fmt(values: list[float | None]) -> str:
    if not values:
        return "–"
    failed = sum(v is None for v in values)
    text = " / ".join("∞" if math.isinf(v) else f"{v:.2f}" for v in summary(values))
    return text + (f" ({failed} failed)" if failed else "")


def table(name: str, outcomes: list[Outcome], memory: dict) -> str:
    """A Markdown table per client kind: p50 / p95 / max of each gesture, in seconds, then the
    failures and the server's resident memory."""
    lines = [
        f"### {name}\n",
        "| clients | " + " | ".join(GESTURES.values()) + " | failed opens "
        "| errors | exceptions | cross-talk |",
        "|---" * (len(GESTURES) + 5) + "|",
    ]
    for client in sorted({o.client for o in outcomes}):
        mine = [o for o in outcomes if o.client == client]
        cells = [_fmt(times(mine, kind)) for kind in GESTURES]
        failed = sum(o.opened is None for o in mine)
        errors = sum(len(o.errors) for o in mine if o.opened is not None)
        exceptions, crosstalk = sum(o.exceptions for o in mine), sum(o.crosstalk for o in mine)
        lines.append(
            f"| {len(mine)} {client} | "
            + " | ".join(cells)
            + f" | {failed} | {errors} | {exceptions} | {crosstalk} |"
        )
    lines.append(
        f"\nServer resident memory: {memory['idle']:.0f} MB idle (after one warm-up visit), "
        f"{memory['peak']:.0f} MB peak during the run, {memory['after']:.0f} MB "
        f"{memory['after_seconds']:.0f} s after the last session closed."
    )
    errors = [f"{o.who}: {e}" for o in outcomes for e in o.errors]
    lines += [f"- {e}" for e in errors[:10]]
    if len(errors) > 10:
        lines.append(f"- ... and {len(errors) - 10} more")
    return "\n".join(lines)


def active(outcomes: list[Outcome]) -> tuple[list[float], list[int]]:
    """The number of open sessions over time, as a step function: (times, counts)."""
    events = sorted(
        [(o.opened, 1) for o in outcomes if o.opened is not None]
        + [(o.closed, -1) for o in outcomes if o.opened is not None and o.closed is not None]
    )
    ts, counts, n = [0.0], [0], 0
    for t, d in events:
        n += d
        ts.append(t)
        counts.append(n)
    return ts, counts


def figure(name: str, outcomes: list[Outcome], memory: dict):
    """Latency of each gesture at the time it was made, the open sessions beside it, and the
    server's resident memory below."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.7, 0.3],
                        vertical_spacing=0.06, specs=[[{"secondary_y": True}], [{}]])  # fmt: skip
    top = dict(row=1, col=1)
    for kind in GESTURES:
        for client, symbol in (("protocol", "circle"), ("browser", "diamond")):
            done = [g for o in outcomes if o.client == client for g in o.gestures
                    if g.kind == kind and g.seconds is not None]  # fmt: skip
            if done:
                marker = dict(symbol=symbol, size=5, opacity=0.6)
                fig.add_scatter(x=[g.started for g in done], y=[g.seconds for g in done],
                                mode="markers", marker=marker, name=f"{kind} ({client})",
                                **top)  # fmt: skip
    ts, counts = active(outcomes)
    fig.add_scatter(x=ts, y=counts, line_shape="hv", name="open sessions", secondary_y=True,
                    line=dict(color="grey"), **top)  # fmt: skip
    samples = memory["samples"]
    fig.add_scatter(x=[t for t, _ in samples], y=[mb for _, mb in samples], name="server RSS",
                    line=dict(color="black"), row=2, col=1)  # fmt: skip
    fig.update_yaxes(title_text="seconds", type="log", secondary_y=False, **top)
    fig.update_yaxes(title_text="open sessions", rangemode="tozero", showgrid=False,
                     dtick=max(1, -(-max(counts) // 8)), secondary_y=True, **top)  # fmt: skip
    fig.update_yaxes(title_text="RSS (MB)", row=2, col=1)
    fig.update_xaxes(title_text="seconds since the run started", row=2, col=1)
    fig.update_layout(title=name, height=700, width=1100)
    return fig
