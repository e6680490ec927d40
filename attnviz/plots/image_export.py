"""Figures as static PNG or SVG images, through kaleido (which needs Chrome or Chromium)."""

from __future__ import annotations

import shutil

import plotly.graph_objects as go


def can_export_images() -> bool:
    """Whether :func:`to_image` can work here: kaleido installed and a Chrome or Chromium."""
    try:
        import kaleido  # noqa: F401
    except ImportError:
        return False
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
    return any(shutil.which(n) for n in names)


def to_image(fig: go.Figure, fmt: str = "png", scale: float = 2.0) -> bytes:
    """A static PNG or SVG of a figure, through kaleido (which needs Chrome or Chromium)."""
    if fmt not in ("png", "svg"):
        raise ValueError(f"format must be png or svg, not {fmt!r}")
    return fig.to_image(format=fmt, scale=scale if fmt == "png" else 1, width=900)
