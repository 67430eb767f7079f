"""Simulated students: a minimal Streamlit client that speaks the browser's own protocol.

A browser tab loads the app's HTML (which sets the balancer's affinity cookie, when there is
a balancer), then opens one WebSocket to `/_stcore/stream` and talks protobufs over it: it
sends a `BackMsg` whose `rerun_script` carries the page, the query string and the widgets'
values, and the server answers with `ForwardMsg`s (the new session, one delta per element,
then `script_finished`). A slider move or a button tap is one more `rerun_script` with that
widget's new value. This module does exactly that, over a WebSocket from `picows` and with the
protobuf classes Streamlit ships, so the server cannot tell it from a tab: it runs the same
script, in the same thread pool, under the same GIL.

What it does not do: render, run JavaScript, fetch images or static files. The one piece of
JavaScript the app relies on for identity, `document.cookie = "..."` in an `st.html` script
(ui/browser.py), is applied to the client's cookie jar, as a browser would.

Loopback only (`connect` refuses any other host) and bounded in time: every wait has a
timeout. Used by bench/bench_room.py and the replica-kill test.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

from picows import WSError, WSListener, WSMsgType, ws_connect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

COOKIE_SCRIPT = re.compile(r'document\.cookie = ("(?:[^"\\]|\\.)*");')
WIDGET_KINDS = (
    "slider",
    "button",
    "radio",
    "selectbox",
    "number_input",
    "checkbox",
    "multiselect",
    "text_input",
    "text_area",
    "button_group",
)


class ProtocolError(RuntimeError):
    """The server closed, timed out, or answered something a tab would not accept."""


@dataclass
class Widget:
    kind: str
    id: str
    label: str
    proto: object
    fragment_id: str = ""


@dataclass
class RunResult:
    seconds: float
    status: str
    exceptions: list[str] = field(default_factory=list)


def _require_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"simulated students only connect to loopback, not {host!r}")


class _Listener(WSListener):
    """Hands each whole binary message to its Student as it arrives: no queue and no task per
    message, since the students share the servers' cores (picows parses frames in C; the
    `websockets` library's Python frame parser was half of the students' CPU)."""

    def __init__(self, student: Student):
        self.student = student
        self.parts: list[bytes] = []

    def on_ws_frame(self, transport, frame) -> None:
        kind = frame.msg_type
        if kind in (WSMsgType.BINARY, WSMsgType.CONTINUATION):
            if frame.fin and not self.parts:
                self.student._on_message(frame.get_payload_as_bytes())
                return
            self.parts.append(frame.get_payload_as_bytes())
            if frame.fin:  # the last frame of a fragmented message
                raw, self.parts = b"".join(self.parts), []
                self.student._on_message(raw)
        elif kind == WSMsgType.CLOSE:
            self.student._on_lost(f"closed by the server ({frame.get_close_code()!r})")
            transport.send_close(frame.get_close_code())
            transport.disconnect()

    def on_ws_disconnected(self, transport) -> None:
        self.student._on_lost("disconnected")


class Student:
    """One tab. `page` is the lesson's url_path ("laplace"); `query` its query string."""

    def __init__(self, base_url: str, page: str, query: str = "", *, timeout_s: float = 120.0):
        _require_loopback(base_url)
        self.base_url = base_url.rstrip("/")
        self.page = page
        self.query = query
        self.timeout_s = timeout_s
        self.cookies: dict[str, str] = {}
        self.widgets: dict[str, Widget] = {}
        self.texts: list[str] = []
        self.metrics: dict[str, str] = {}
        self.images: list[str] = []
        self.session_id = ""
        self.page_script_hash = ""
        self._ws = None
        self._finished: asyncio.Future | None = None
        self._exceptions: list[str] = []
        self._lost = ""
        self.runs_finished = 0  # script_finished messages seen, every run counted

    # --- connection -------------------------------------------------------------------
    def _load_html(self) -> None:
        """GET the page's HTML, as a tab does first: keeps the Set-Cookie headers (HAProxy's
        affinity cookie)."""
        request = urllib.request.Request(f"{self.base_url}/{self.page}")
        if self.cookies:
            request.add_header("Cookie", self._cookie_header())
        with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
            for header in response.headers.get_all("Set-Cookie") or []:
                parsed = SimpleCookie()
                parsed.load(header)
                for name, morsel in parsed.items():
                    self.cookies[name] = morsel.value
            response.read()

    def _cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def connect(self) -> None:
        await asyncio.wait_for(asyncio.to_thread(self._load_html), self.timeout_s)
        url = "ws" + self.base_url[len("http") :] + "/_stcore/stream"
        headers = {"Sec-WebSocket-Protocol": "streamlit"}
        if self.cookies:
            headers["Cookie"] = self._cookie_header()
        try:
            self._ws, _ = await ws_connect(
                lambda: _Listener(self),
                url,
                extra_headers=headers,
                websocket_handshake_timeout=self.timeout_s,
                max_frame_size=1 << 30,
            )
        except (OSError, TimeoutError, WSError) as error:
            raise ProtocolError(f"could not connect: {error!r}") from error

    async def close(self) -> None:
        if self._ws is not None:
            ws, self._ws = self._ws, None
            if not ws.is_disconnected:
                ws.send_close()
                ws.disconnect()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.timeout_s):
                    await ws.wait_disconnected()

    # --- runs ---------------------------------------------------------------------------
    async def open(self) -> RunResult:
        """Connect and run the page: a first visit. Seconds from the request for the HTML to
        the end of the first script run."""
        start = time.perf_counter()
        await self.connect()
        result = await self.rerun()
        result.seconds = time.perf_counter() - start
        return result

    async def rerun(self, *states, fragment_id: str = "") -> RunResult:
        """One rerun with these widget states (WidgetState protos), of the whole page or of
        one fragment (as a tab does when the widget lives in one); time to script_finished."""
        if self._ws is None:
            raise ProtocolError("not connected")
        message = self._rerun_message(states, fragment_id)
        self.texts = []
        self.metrics = {}
        self.images = []
        self._exceptions = []
        self._finished = asyncio.get_running_loop().create_future()
        start = time.perf_counter()
        if self._ws.is_disconnected:
            raise ProtocolError(f"connection lost: {self._lost!r}")
        self._ws.send(WSMsgType.BINARY, message.SerializeToString())
        try:
            async with asyncio.timeout(self.timeout_s):
                status = await self._finished
        except TimeoutError as error:
            raise ProtocolError(f"no script_finished within {self.timeout_s:.0f} s") from error
        finally:
            self._finished = None
        return RunResult(time.perf_counter() - start, status, self._exceptions)

    def send_rerun(self, *states, fragment_id: str = "") -> None:
        """Ask for a rerun without waiting for it, as a tab does when a widget changes while a
        run is under way: that run ends early, and the one waiting for it (`open`, `rerun`)
        waits on for this one's end."""
        if self._ws is None or self._ws.is_disconnected:
            raise ProtocolError("not connected")
        message = self._rerun_message(states, fragment_id)
        self._ws.send(WSMsgType.BINARY, message.SerializeToString())

    def _rerun_message(self, states: tuple, fragment_id: str) -> BackMsg:
        message = BackMsg()
        client = message.rerun_script
        client.query_string = self.query
        client.page_name = self.page
        client.page_script_hash = self.page_script_hash
        client.fragment_id = fragment_id
        for state in states:
            client.widget_states.widgets.append(state)
        return message

    # --- what the server sends (called by the WebSocket's listener, one call per message) --
    def _on_message(self, raw: bytes) -> None:
        forward = ForwardMsg()
        forward.ParseFromString(raw)
        kind = forward.WhichOneof("type")
        if kind == "delta":
            self._read_delta(forward, self._exceptions)
        elif kind == "new_session":
            self.session_id = forward.new_session.initialize.session_id or self.session_id
        elif kind == "page_info_changed":  # the address the app wrote: the browser's now
            self.query = forward.page_info_changed.query_string
        elif kind == "navigation":  # the page that ran: a tab sends its hash from now on
            self.page_script_hash = forward.navigation.page_script_hash
        elif kind == "page_not_found":
            self._finish(error=ProtocolError(f"page not found: {self.page!r}"))
        elif kind == "script_finished":
            self.runs_finished += 1
            status = ForwardMsg.ScriptFinishedStatus.Name(forward.script_finished)
            if status != "FINISHED_EARLY_FOR_RERUN":  # else a rerun the script asked for follows
                self._finish(status=status)

    def _on_lost(self, reason: str) -> None:
        self._lost = self._lost or reason  # the first word: a close frame, then the drop
        self._finish(error=ProtocolError(f"connection lost: {reason}"))

    def _finish(self, status: str = "", error: Exception | None = None) -> None:
        if self._finished is None or self._finished.done():
            return  # between runs (a late message), or already decided
        if error is not None:
            self._finished.set_exception(error)
        else:
            self._finished.set_result(status)

    def _read_delta(self, forward: ForwardMsg, exceptions: list[str]) -> None:
        delta = forward.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            exceptions.append(f"{element.exception.type}: {element.exception.message}")
        elif kind == "bidi_component":  # a components-v2 component: named by its key
            proto = element.bidi_component
            self.widgets[proto.id] = Widget(kind, proto.id, proto.id, proto, delta.fragment_id)
        elif kind in WIDGET_KINDS:
            proto = getattr(element, kind)
            self.widgets[proto.id] = Widget(kind, proto.id, proto.label, proto, delta.fragment_id)
        elif kind == "markdown":
            self.texts.append(element.markdown.body)
        elif kind == "alert":
            self.texts.append(element.alert.body)
        elif kind == "toast":
            self.texts.append(element.toast.body)
        elif kind == "imgs":
            self.images.extend(image.url for image in element.imgs.imgs)
        elif kind == "metric":
            self.metrics[element.metric.label] = element.metric.body
        elif kind == "html":
            for literal in COOKIE_SCRIPT.findall(element.html.body):
                name, _, rest = json.loads(literal).partition("=")
                self.cookies[name] = rest.split(";", 1)[0]

    # --- widgets ------------------------------------------------------------------------
    def widget(self, kind: str, label_part: str) -> Widget:
        for widget in self.widgets.values():
            if widget.kind == kind and label_part in widget.label:
                return widget
        labels = sorted(w.label for w in self.widgets.values() if w.kind == kind)
        raise ProtocolError(f"no {kind} whose label contains {label_part!r}; have {labels}")

    @staticmethod
    def slider_state(widget: Widget, step: int) -> object:
        """The slider moved `step` notches from its default (clipped to its range)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        proto = widget.proto
        state = WidgetState(id=widget.id)
        default = list(proto.default)
        if proto.options:  # a select slider: the default holds indices, the value labels
            last = len(proto.options) - 1
            indices = [min(max(int(v) + step, 0), last) for v in default]
            state.string_array_value.data.extend(proto.options[i] for i in indices)
        else:
            values = [min(max(v + step * proto.step, proto.min), proto.max) for v in default]
            state.double_array_value.data.extend(values)
        return state

    @staticmethod
    def button_state(widget: Widget) -> object:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        return WidgetState(id=widget.id, trigger_value=True)

    @staticmethod
    def trigger_state(widget: Widget, event: str, value: object) -> object:
        """A components-v2 component's trigger, as its `setTriggerValue(event, value)` sends
        it: one JSON trigger on the component's "events" widget (Streamlit's own id)."""
        from streamlit.components.v2.bidi_component.main import _make_trigger_id
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        return WidgetState(
            id=_make_trigger_id(widget.id, "events"),
            json_trigger_value=json.dumps([{"event": event, "value": value}]),
        )

    async def move(self, widget: Widget, step: int) -> RunResult:
        """Move a slider `step` notches from its default, as a drag that ends there."""
        state = self.slider_state(widget, step)
        self._write_bound(widget, state)
        return await self.rerun(state, fragment_id=widget.fragment_id)

    def _write_bound(self, widget: Widget, state) -> None:
        """As the browser does for a slider bound to the URL (`bind="query-params"`): its new
        value into the address before the rerun is asked for, and out of it at the default.
        (Without it every move reached the server with the old address, and the app wrote
        the address back from the server: work a browser's move does not cause.)"""
        proto = widget.proto
        if not proto.HasField("query_param_key"):
            return
        if proto.options:
            values = list(state.string_array_value.data)
            default = [proto.options[int(i)] for i in proto.default]
        else:
            values = [f"{v:g}" for v in state.double_array_value.data]
            default = [f"{v:g}" for v in proto.default]
        params = [(k, v) for k, v in parse_qsl(self.query) if k != proto.query_param_key]
        if values != default:
            params += [(proto.query_param_key, value) for value in values]
        self.query = urlencode(params)

    async def tap(self, widget: Widget) -> RunResult:
        return await self.rerun(self.button_state(widget), fragment_id=widget.fragment_id)

    def fetch(self, path: str) -> tuple[int, str, bytes]:
        """GET a URL the page named (an image, a download), with this tab's cookies, as the
        browser does: (status, content type, body)."""
        url = path if path.startswith("http") else f"{self.base_url}/{path.lstrip('/')}"
        _require_loopback(url)
        request = urllib.request.Request(url, headers={"Cookie": self._cookie_header()})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), b""

    def text(self) -> str:
        return "\n".join(self.texts)
