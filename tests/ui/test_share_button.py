"""The Share button's QR code (attnviz_ui/widgets/share_button.py): a PNG for any link a page
writes, none for a link longer than a QR code holds, and a warning for an address that names
the teacher's own computer."""

from __future__ import annotations

import segno

from attnviz_ui.widgets.share_button import is_local, qr_png

LINK = "http://class.example:8501/?page=sentence&direction=zh-en&sentence=%E6%88%91&step=2"


def test_a_link_gets_a_png_qr_code_large_enough_to_read_off_a_projector():
    png = qr_png(LINK)
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(png[16:20], "big")  # the IHDR chunk's width, in pixels
    modules = segno.make_qr(LINK, error="m").symbol_size(scale=1, border=4)[0]
    assert width == modules * 8 >= 200


def test_a_link_longer_than_a_qr_code_holds_gets_none():
    assert qr_png("http://class.example/?sentence=" + "x" * 3000) is None


def test_an_address_of_this_computer_is_told_apart():
    assert is_local("http://localhost:8501/?page=sentence")
    assert is_local("http://127.0.0.1:8501")
    assert not is_local(LINK) and not is_local("http://192.168.1.20:8501/?step=2")
