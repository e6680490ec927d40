"""One visitor of a Streamlit page that speaks the page's own WebSocket protocol instead of
running a browser, for benchmarks/classroom/class_load.py.

The browser and the server talk over ``/_stcore/stream`` in protobufs that ship with the
``streamlit`` package. The browser sends ``BackMsg``: a ``rerun_script`` (a ``ClientState``:
the query string, the page, the ``WidgetStates`` of every widget on the page and, for a widget
inside a fragment, the fragment's id); the server answers with ``ForwardMsg``: ``new_session``,
then one ``delta`` per element (``delta.new_element``, tagged with its ``fragment_id``), then
``script_finished``. A session here does the same: it learns each widget's id and value from
the elements it receives (by label: "English sentence", "Step", "View", so that the minimal
page and the dashboard are driven alike), keeps their states as the browser's widget manager
does (a value the script set, else the one it holds, else the default) and sends them all with
each rerun, the changed one changed. Each plotly heatmap's spec is read for its x labels
(``"3:car"``) and its frame of the current step, so that a gesture ends when both heatmaps hold
what it asked for, and a heatmap holding another visitor's words is counted as cross-talk.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState


class Heatmap(NamedTuple):
    """What a visitor checks in one plotly heatmap: its source words and the framed row."""

    words: list[str]  # x labels without their position: "3:car" -> "car"
    framed: int | None  # 0-based output row inside the "current step" frame, if any


def heatmap(element: Element) -> Heatmap | None:
    """The heatmap a ``plotly_chart`` element draws, or None for any other element or chart."""
    if element.WhichOneof("type") != "plotly_chart":
        return None
    spec = json.loads(element.plotly_chart.spec)
    traces = [t for t in spec.get("data", []) if t.get("type") == "heatmap"]
    if not traces:
        return None
    words = [str(label).split(":", 1)[-1] for label in traces[0].get("x", [])]
    frames = [
        round(s["y0"] + 0.5)
        for s in spec.get("layout", {}).get("shapes", [])
        if s.get("name") == "current step"
    ]
    return Heatmap(words, frames[0] if frames else None)


def holds(shown: Heatmap, sentence: str) -> bool:
    """Whether a heatmap's source words are exactly ``sentence``'s (punctuation and the end
    token aside): a heatmap of any other visitor's sentence fails."""
    wanted = set(re.findall(r"\w+", sentence))
    found = {w for word in shown.words for w in re.findall(r"\w+", word)} - {"eos"}
    return found == wanted


def widget_state(element: Element, held: WidgetState | None) -> WidgetState | None:
    """The state the browser keeps for a widget element: the value the script set, else the
    one held, else the default. None for elements that are no value-holding widget."""
    kind = element.WhichOneof("type")
    w = getattr(element, kind) if kind else None
    if kind not in ("text_input", "slider", "radio", "selectbox", "checkbox") or not w.id:
        return None
    if held is not None and not w.set_value:
        return held
    state = WidgetState(id=w.id)
    if kind == "text_input":
        state.string_value = w.value if w.HasField("value") else w.default
    elif kind == "slider":
        state.double_array_value.data.extend(w.value if w.set_value else w.default)
    elif kind == "checkbox":
        state.bool_value = w.value if w.set_value else w.default
    elif w.HasField("raw_value"):  # radio, selectbox: the formatted option
        state.string_value = w.raw_value
    elif w.HasField("default") and w.options:
        state.string_value = w.options[w.default]
    else:
        return None
    return state


class Widget(NamedTuple):
    id: str
    fragment: str  # the fragment the widget was drawn in ("" for the whole script)
    element: Element


@dataclass
class Run:
    """What one script run sent: its heatmaps, the exceptions shown, and whether it ended."""

    heatmaps: list[Heatmap] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    finished: bool = False


async def cookies_of(host: str) -> str:
    """``GET /`` from ``host`` ("127.0.0.1:8501"), as a browser's first request; the cookies
    it sets, as a ``Cookie`` header's value ("" for none)."""
    name, port = host.rsplit(":", 1) if ":" in host else (host, "80")
    reader, writer = await asyncio.open_connection(name, int(port))
    try:
        writer.write(f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        head = (await reader.read()).split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    finally:
        writer.close()
    if not head[0].split()[1:2] == ["200"]:
        raise ConnectionError(f"GET / answered {head[0]!r}")
    found = [
        line.split(":", 1)[1].strip() for line in head if line.lower().startswith("set-cookie:")
    ]
    return "; ".join(c.split(";", 1)[0] for c in found)


class ProtocolSession:
    """A visitor on one websocket. Each gesture returns the seconds from sending it to what
    it asked for (both heatmaps of the sentence typed, framing the step chosen, ...), then
    reads the rest of its run; raises TimeoutError past ``timeout`` seconds."""

    def __init__(self, url: str, timeout: float):
        self.url, self.timeout = url.rstrip("/"), timeout
        self.widgets: dict[str, Widget] = {}  # by label
        self.states: dict[str, WidgetState] = {}  # by widget id
        self.ws = None
        self.exceptions: list[str] = []  # every exception element shown, over all runs
        self.last_run = Run()  # what the last gesture's run sent

    async def open(self) -> float:
        """The page: ``GET /`` (which gives a cookie-sticky proxy the chance to set its
        cookie), the websocket with that cookie, and the first run; seconds to both heatmaps."""
        t0 = time.perf_counter()
        host = self.url.split("://", 1)[1]
        cookies = await cookies_of(host)
        self.ws = await websockets.connect(
            f"ws://{host}/_stcore/stream",
            subprotocols=["streamlit"],
            additional_headers={"Cookie": cookies} if cookies else None,
            max_size=None,
            proxy=None,
            open_timeout=self.timeout,
        )
        await self._send(fragment="")
        return await self._until(lambda run: len(run.heatmaps) >= 2, t0)

    async def enter(self, sentence: str) -> float:
        """Types ``sentence`` into the sentence box and presses Enter."""
        box = self._widget("sentence")
        t0 = time.perf_counter()
        await self._send(box.fragment, {box.id: sentence})
        return await self._until(lambda run: sum(holds(m, sentence) for m in run.heatmaps) >= 2, t0)

    def step_range(self) -> tuple[int, int]:
        """(the step shown, the last step), 1-based, as the Step slider holds them."""
        slider = self._widget("Step")
        shown = self.states[slider.id].double_array_value.data[0]
        return int(shown), int(slider.element.slider.max)

    async def step(self, to: int) -> float:
        """Moves the Step slider to step ``to`` (1-based); ends when both heatmaps frame it."""
        slider = self._widget("Step")
        t0 = time.perf_counter()
        await self._send(slider.fragment, {slider.id: [float(to)]})
        return await self._until(lambda run: sum(m.framed == to - 1 for m in run.heatmaps) >= 2, t0)

    def views(self) -> list[str]:
        """The view switch's options, as shown; empty where the page has none."""
        view = self.widgets.get("View")
        return list(view.element.radio.options) if view else []

    async def view(self, option: str, heatmaps: int) -> float:
        """Switches the view to ``option``; ends when the run finished, having sent at least
        ``heatmaps`` heatmaps."""
        switch = self._widget("View")
        t0 = time.perf_counter()
        await self._send(switch.fragment, {switch.id: option})
        return await self._until(lambda run: run.finished and len(run.heatmaps) >= heatmaps, t0)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def _widget(self, label: str) -> Widget:
        for name, widget in self.widgets.items():
            if name == label or name.endswith(" " + label):  # "English sentence"
                return widget
        raise LookupError(f"no widget labelled {label!r} on the page")

    async def _send(self, fragment: str, changed: dict | None = None) -> None:
        """A rerun as the browser sends it: every widget's state, ``changed`` changed."""
        for widget_id, value in (changed or {}).items():
            state = WidgetState(id=widget_id)
            if isinstance(value, list):
                state.double_array_value.data.extend(value)
            else:
                state.string_value = value
            self.states[widget_id] = state
        msg = BackMsg()
        msg.rerun_script.query_string = ""
        msg.rerun_script.context_info.locale = "en-US"
        msg.rerun_script.fragment_id = fragment
        msg.rerun_script.widget_states.widgets.extend(self.states.values())
        await self.ws.send(msg.SerializeToString())

    async def _until(self, done, t0: float) -> float:
        """Reads the run: seconds from ``t0`` to ``done(run)`` first true, the run as read so
        far; returns once the run finished."""
        run, reached = Run(), None
        deadline = t0 + self.timeout
        while not run.finished:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no answer within the timeout")
            self._read(ForwardMsg.FromString(await asyncio.wait_for(self.ws.recv(), left)), run)
            if reached is None and done(run):
                reached = time.perf_counter() - t0
        self.exceptions += run.exceptions
        self.last_run = run
        if reached is None:
            raise LookupError("the run finished without the heatmaps asked for")
        return reached

    def _read(self, msg: ForwardMsg, run: Run) -> None:
        kind = msg.WhichOneof("type")
        if kind == "script_finished":  # a run stopped early for the next one: read on
            run.finished = msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
            if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                run.exceptions.append("the script did not compile")
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "exception":
                run.exceptions.append(element.exception.message)
            if (shown := heatmap(element)) is not None:
                run.heatmaps.append(shown)
            if (state := self._held(element)) is not None:
                label = getattr(element, element.WhichOneof("type")).label
                self.widgets[label] = Widget(state.id, msg.delta.fragment_id, element)
                self.states[state.id] = state

    def _held(self, element: Element) -> WidgetState | None:
        kind = element.WhichOneof("type")
        widget_id = getattr(getattr(element, kind), "id", "") if kind else ""
        return widget_state(element, self.states.get(widget_id))
