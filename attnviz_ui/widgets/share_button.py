"""What the Share button shows: the page's link, to copy, and its QR code, for a class to scan
off the projector (segno makes it, with no image library)."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import segno
import streamlit as st

from attnviz.i18n import gettext as _

QR_PX = 300  # the code's width on the page: a projected code is read from the back of a room
LOCAL = ("localhost", "127.0.0.1", "::1", "0.0.0.0")  # names no other computer reaches us by


def qr_png(url: str) -> bytes | None:
    """``url``'s QR code as a PNG (dark on white, with its quiet zone); None for a link longer
    than a QR code holds (about 2,300 characters)."""
    try:
        code = segno.make_qr(url, error="m")
    except segno.DataOverflowError:
        return None
    out = io.BytesIO()
    code.save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def is_local(url: str) -> bool:
    """Whether ``url`` names this computer itself, so that it opens nowhere else."""
    return urlsplit(url).hostname in LOCAL


def share_ui(url: str) -> None:
    """The link and its QR code, inside the Share popover."""
    st.caption(_("This page as a link: whoever opens it sees the same choices."))
    st.code(url, language=None, wrap_lines=True)
    if is_local(url):
        st.caption(
            _(
                "This address names this computer: to share the page, open it by the "
                "server's name or address on the network."
            )
        )
    png = qr_png(url)
    if png is None:
        st.caption(_("The link is too long for a QR code: shorten the sentence."))
    else:
        st.image(png, width=QR_PX)
