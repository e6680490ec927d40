"""Outside the serving layer (attnviz_ui/serving/), the dashboard opens no file and calls no
model: the page is driven through every view and page on the shipped checkpoints (which bring
their corpus indexes, step indexes, eflomal priors and length tables), while an audit hook
watches every file opened and a forward hook every module called. Each is charged to the
innermost frame of the dashboard's own code (dashboard.py or attnviz_ui) on the stack; none
may be outside serving. Files of the libraries, of the ``attnviz`` package itself (its
templates, catalogs and styles) and the widgets' templates are code, not the disk a page
reads."""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

import pytest
import torch

from attnviz_ui.pages.navigation import Page, View
from attnviz_ui.state.session_keys import Key

from ..helpers import ROOT, open_dashboard, type_sentence

pytestmark = pytest.mark.slow

UI = ROOT / "attnviz_ui"
SERVING = UI / "serving"
OWN = (str(ROOT / "dashboard.py"), str(UI) + os.sep)
CODE = tuple(  # folders of code: the interpreter's and the libraries', the attnviz package and
    # the widgets' templates (sys.base_prefix holds the standard library's zip, python311.zip,
    # which importlib.metadata opens when a library looks for its entry points along sys.path)
    str(Path(p)) + os.sep
    for p in {*sysconfig.get_paths().values(), sys.prefix, sys.base_prefix, ROOT / "attnviz"}
    | {UI / "widgets" / "templates"}
)


def is_code(path: str) -> bool:
    """Whether ``path`` is code rather than data a page reads: a file in :data:`CODE`, Python
    source (Streamlit reads a caller's), or the editable install's metadata and import hooks
    (read where a library asks for its entry points)."""
    name = Path(path).name
    return (
        path.startswith(CODE)
        or path.endswith((".py", ".pyc"))
        or name.startswith("__editable__")
        or ".egg-info" + os.sep in path
    )


class Watch:
    """The files opened and the modules called, charged to the dashboard's own frame."""

    def __init__(self):
        self.on = False
        self.seen: list[str] = []  # "what <- where", outside serving

    def charge(self, what: str, frame) -> None:
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(OWN):
                if not name.startswith(str(SERVING) + os.sep):
                    self.seen.append(f"{what} <- {name}:{frame.f_lineno}")
                return
            frame = frame.f_back

    def audit(self, event: str, args: tuple) -> None:
        if not self.on or event not in ("open", "sqlite3.connect"):
            return  # sys._getframe raises an event of its own: asked below, never here
        if importing(sys._getframe(1)):
            return
        if event == "open" and isinstance(args[0], str | Path):
            path = str(Path(args[0]).resolve()) if args[0] else ""
            if path and not is_code(path):
                self.charge(f"open {path}", sys._getframe(1))
        elif event == "sqlite3.connect":
            self.charge(f"sqlite3 {args[0]}", sys._getframe(1))

    def forward(self, module, inputs) -> None:
        if self.on:
            self.charge(f"model {type(module).__name__}", sys._getframe(1))


def importing(frame) -> bool:
    """Whether ``frame`` runs within an import (a library reading its data as it loads)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


WATCH = Watch()
sys.addaudithook(WATCH.audit)  # an audit hook stays for good: it does nothing while off


@pytest.fixture
def watched():
    handle = torch.nn.modules.module.register_module_forward_pre_hook(WATCH.forward)
    WATCH.seen.clear()
    WATCH.on = True
    try:
        yield WATCH
    finally:
        WATCH.on = False
        handle.remove()


def test_the_page_reaches_the_disk_and_the_models_only_through_serving(watched, monkeypatch):
    at = open_dashboard(ROOT / "checkpoints", monkeypatch)
    type_sentence(at, "I love to eat apples.", "J'aime manger des pommes.")
    for key in (Key.EFLOMAL_ON, Key.CORPUS_ON, Key.ATTRIBUTION_ON, Key.NUMBERS):
        at.toggle(key=key).set_value(True).run()
        assert not at.exception, at.exception
    for view in View:
        at.radio(key=Key.VIEW).set_value(view).run()
        assert not at.exception, (view, at.exception)
    for page in (Page.CORPUS, Page.TRAINING):
        at.radio(key=Key.PAGE).set_value(page).run()
        assert not at.exception, (page, at.exception)
    at.radio(key=Key.PAGE).set_value(Page.CORPUS).run()
    at.text_area[0].input("I am cold.\tJ'ai froid.\nWe are late.\tNous sommes en retard.").run()
    at.button(key=Key.CORPUS_RUN).click().run()
    assert not at.exception, at.exception
    assert watched.seen == [], sorted(
        {s.split(" <- ")[0][:60] + " <- " + s.split(" <- ")[1] for s in watched.seen}
    )
