"""A budget on every message a browser sends, checked before Streamlit does any work.

One process runs every session's script on one interpreter lock, so one tab that sends
messages as fast as its socket takes them stalls the room: 13,000 rerun messages in 10 s kept
a bystander waiting 44 s for the class quiz, and 2,000 `load_git_info` messages (each runs
`git` on the server's event loop) stopped the health check for 78 s (bench/bench_flood.py).
ui/pace.py budgets full page runs, but Streamlit has already paid for each message by the
time a script starts; this guard sits at the layer that owns the websocket (an ASGI
middleware of the course's `st.App`, deploy/asgi.py) and decides per connection, per message:

- **Refused**: `load_git_info`, `clear_cache`, `set_run_on_save` and Streamlit's debug
  messages, which a production room never needs (a student could empty every shared cache of
  the lecture). `make dev` (PLAYGROUND_DEV=1) lets them through.
- **Within budget** (RATE messages a second, bursts of BURST): passed on at once.
- **Over budget**: held, not lost. Reruns are coalesced per fragment (the newest rerun of a
  page or fragment carries the newest widget values, so only it is kept), other messages wait
  in a short queue; they go on as the budget refills. The page's own pace line (ui/pace.py)
  is what the student reads.
- **Too large**: a message over MAX_FRAME_BYTES (1 MB; the pages' largest is a 64 KB progress
  record) closes the connection with 1009, unparsed.
- **A flood**: every message over budget spends the connection's patience (PATIENCE
  messages, refilled at RATE); a connection with none left is closed with 1008 (policy
  violation). A browser's own tab never gets there (tests/test_guard.py holds a slider's
  arrow key down in Chromium), a script does within a fraction of a second.

What it does not cover: a client that opens many connections gets this budget on each (see
docs/deployment.md, "The limits"); HTTP requests are not websocket messages (an upload's PUT
has a budget of its own, deploy/uploads.py). Streamlit Community Cloud runs app.py without
this server, so there only ui/pace.py applies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

LOG = logging.getLogger("playground.guard")

RATE = 20.0  # messages a second a connection may send, on average
BURST = 100.0  # ... and at once, after a quiet spell (a slider held down for seconds)
PATIENCE = 200.0  # messages over budget before the connection is closed (refilled at RATE)
HELD_MAX = 32  # messages held at once (reruns coalesce, so a tab holds a handful)
CLOSE_CODE = 1008  # policy violation
CLOSE_REASON = "Too many messages from this tab: reload the page to continue."
# A message larger than any the course's pages send (a page's widget values, a quiz question
# and its options, a progress record of at most 64 KB) closes its connection: Streamlit takes
# messages up to server.maxMessageSize (200 MB), and parsing one of 20 MB held the event loop
# ~45 ms (100 of them within the rate: 4.4 s of server CPU, a bystander's page 3.6 s late).
MAX_FRAME_BYTES = 1024 * 1024
TOO_BIG_CODE = 1009  # message too big
TOO_BIG_REASON = "A message from this tab was too large: reload the page to continue."
STREAM_PATH = "/_stcore/stream"
REFUSED = frozenset(
    {
        "load_git_info",  # runs git subprocesses on the event loop
        "clear_cache",  # empties every session's shared caches
        "set_run_on_save",
        "debug_disconnect_websocket",
        "debug_shutdown_runtime",
    }
)
DEV_ENV = "PLAYGROUND_DEV"


def dev_mode() -> bool:
    """`make dev` sets PLAYGROUND_DEV=1: the refused messages go through."""
    return os.environ.get(DEV_ENV, "") == "1"


@dataclass
class Bucket:
    """A token bucket: `rate` tokens a second, at most `burst`, full at the start."""

    rate: float
    burst: float
    tokens: float = field(init=False)
    last: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def _refill(self, now: float) -> None:
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + max(now - self.last, 0.0) * self.rate)
        self.last = now

    def take(self, now: float, amount: float = 1.0) -> bool:
        """Take `amount` tokens at `now`; False (and nothing taken) when there are fewer."""
        self._refill(now)
        if self.tokens >= amount:
            self.tokens -= amount
            return True
        return False

    def wait(self, now: float, amount: float = 1.0) -> float:
        """Seconds from `now` until `amount` tokens are there."""
        self._refill(now)
        return max(0.0, (amount - self.tokens) / self.rate)


PASS, HELD, REFUSE, CLOSE = "pass", "held", "refused", "close"


class Gate:
    """One connection's budget, with no I/O: `offer` says what to do with a message,
    `release` hands back held messages as the budget allows. Times are `time.monotonic()`."""

    def __init__(
        self,
        *,
        dev: bool = False,
        rate: float = RATE,
        burst: float = BURST,
        patience: float = PATIENCE,
        held_max: int = HELD_MAX,
    ) -> None:
        self.dev = dev
        self.budget = Bucket(rate, burst)
        self.patience = Bucket(rate, patience)
        self.held_max = held_max
        self.held: OrderedDict[tuple[str, str | int], bytes] = OrderedDict()
        self.counts = {PASS: 0, HELD: 0, REFUSE: 0, "coalesced": 0, "dropped": 0}
        self._seq = 0

    def offer(self, data: bytes, now: float) -> str:
        """PASS (send `data` on now), HELD (kept for `release`), REFUSE or CLOSE."""
        kind, fragment = _kind(data)
        if kind in REFUSED and not self.dev:
            self.counts[REFUSE] += 1
            return CLOSE if not self.patience.take(now) else REFUSE
        if not self.held and self.budget.take(now):
            self.counts[PASS] += 1
            return PASS
        # Spent only when the budget is really empty (not for waiting behind held ones).
        if self.budget.wait(now) > 0 and not self.patience.take(now):
            return CLOSE
        self.counts[HELD] += 1
        if kind == "rerun_script":
            key: tuple[str, str | int] = ("rerun", fragment)
            if key in self.held:
                self.counts["coalesced"] += 1
                del self.held[key]  # the newer one goes to the back, in arrival order
        else:
            self._seq += 1
            key = ("message", self._seq)
        if len(self.held) >= self.held_max:
            self.counts["dropped"] += 1
            self.held.popitem(last=False)
        self.held[key] = data
        return HELD

    def release(self, now: float) -> list[bytes]:
        """The held messages the budget now allows, oldest first."""
        out = []
        while self.held and self.budget.take(now):
            out.append(self.held.popitem(last=False)[1])
        self.counts[PASS] += len(out)
        return out

    def wait(self, now: float) -> float | None:
        """Seconds until the next held message can go; None when nothing is held."""
        return self.budget.wait(now) if self.held else None


def _kind(data: bytes) -> tuple[str, str]:
    """The message's type and, for a rerun, its fragment ("" for the whole page). A frame
    that is not a BackMsg is passed on as "unknown": Streamlit closes the connection."""
    try:
        message = BackMsg.FromString(data)
    except Exception:  # noqa: BLE001 (any parse failure: Streamlit's own check handles it)
        return "unknown", ""
    kind = message.WhichOneof("type") or "unknown"
    fragment = message.rerun_script.fragment_id if kind == "rerun_script" else ""
    return kind, fragment


class _Connection:
    """The websocket of one browser tab, seen through its Gate."""

    def __init__(self, scope: Scope, receive: Receive, send: Send, dev: bool) -> None:
        self.scope, self._receive, self._send = scope, receive, send
        self.gate = Gate(dev=dev)
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.connected = False
        self.closed = False
        self.warned = False

    async def receive(self) -> Message:
        if not self.connected:  # websocket.connect, before the app accepts
            self.connected = True
            return await self._receive()
        if self.reader is None:
            self.reader = asyncio.create_task(self._read(), name="guard.read")
        return await self.queue.get()

    async def send(self, message: Message) -> None:
        if self.closed:  # closed by the guard: Streamlit's own goodbye goes nowhere
            return
        await self._send(message)

    async def _read(self) -> None:
        while True:
            try:
                event = await self._receive()
            except Exception:  # noqa: BLE001 (the transport went away: tell the app)
                self.queue.put_nowait({"type": "websocket.disconnect", "code": 1006})
                return
            data = event.get("bytes") if event["type"] == "websocket.receive" else None
            if data is None:
                self.queue.put_nowait(event)
                if event["type"] == "websocket.disconnect":
                    return
                continue
            if len(data) > MAX_FRAME_BYTES:  # never parsed, never passed on
                what = f"a connection that sent a message of {len(data):,} bytes"
                await self._close(TOO_BIG_CODE, TOO_BIG_REASON, what)
                return
            verdict = self.gate.offer(data, time.monotonic())
            if verdict == PASS:
                self.queue.put_nowait(event)
            elif verdict == HELD:
                self._warn("held")
                self._schedule()
            elif verdict == REFUSE:
                self._warn("refused a message a production room never needs")
            else:
                await self._close()
                return

    def _schedule(self) -> None:
        if self.timer is not None or self.closed:
            return
        delay = self.gate.wait(time.monotonic())
        if delay is not None:
            self.timer = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        self.timer = None
        if self.closed:
            return
        for data in self.gate.release(time.monotonic()):
            self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
        self._schedule()

    def _warn(self, what: str) -> None:
        if not self.warned:
            self.warned = True
            LOG.warning(
                "guard: %s for a connection from %s (%s)",
                what,
                client_address(self.scope),
                self.gate.counts,
            )

    async def _close(
        self,
        code: int = CLOSE_CODE,
        reason: str = CLOSE_REASON,
        what: str = "a flooding connection",
    ) -> None:
        LOG.warning(
            "guard: closed %s from %s (%s)",
            what,
            client_address(self.scope),
            self.gate.counts,
        )
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()
        with contextlib.suppress(Exception):  # already gone
            await self._send({"type": "websocket.close", "code": code, "reason": reason})
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code})

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.reader is not None:
            self.reader.cancel()


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "an unknown address"


class FloodGuard:
    """ASGI middleware: every browser's websocket to Streamlit goes through a Gate."""

    def __init__(
        self, app: Callable[[Scope, Receive, Send], Awaitable[None]], dev: bool | None = None
    ) -> None:
        self.app = app
        self.dev = dev_mode() if dev is None else dev

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not scope.get("path", "").endswith(STREAM_PATH):
            await self.app(scope, receive, send)
            return
        connection = _Connection(scope, receive, send, self.dev)
        try:
            await self.app(scope, connection.receive, connection.send)
        finally:
            connection.stop()
