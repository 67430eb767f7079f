"""A budget on the files a tab sends to the server, before Streamlit stores them.

A file a student chooses in an uploader travels over HTTP: the browser PUTs it to
`/_stcore/upload_file/<session id>/<file id>`, and Streamlit keeps it in the server's memory
until that tab's session ends. Streamlit checks only that the session exists and that one
file is within `server.maxUploadSize`; the guard on the websocket (deploy/guard.py) never sees
these requests. So one tab could PUT file after file that no widget asked for: 20 files of
24 MB in 1.3 s added 480 MB to the server (measured, 2026-11-30), enough to end a room's
server in seconds, and each PUT parses its body on the event loop every session shares.

This middleware keeps, per session, what its PUTs have stored, and decides each new PUT
before a byte of its body is read:

- **Held**: at most HELD_FILES of the largest files (`server.maxUploadSize`) at once. A file
  counts until the browser deletes it (choosing another file, or its ✕), or until its
  session ends; a file whose uploader the page emptied ("Back to the census") stays stored
  by Streamlit, so it counts too. Over: 429, "reload the page".
- **Paced**: a bucket of bytes, BURST_FILES of the largest at once, one more every
  REFILL_S; a file costs at least a 1/MIN_SHARE of the largest (a request's own work). Over:
  429 with Retry-After. The numbers are above ui/userdata.py's read budget (2 at once, one
  per 30 s), so a student choosing files quickly meets that budget's words first.

What it does not cover (as for the guard): a client that opens many sessions gets this budget
on each. Streamlit Community Cloud runs app.py without this server.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import streamlit as st

from deploy.guard import Bucket, Message, Receive, Scope, Send, client_address

LOG = logging.getLogger("playground.uploads")

HELD_FILES = 4  # largest files a session may hold at once
BURST_FILES = 4  # largest files a session may send at once ...
REFILL_S = 30.0  # ... and one more every REFILL_S seconds
MIN_SHARE = 10  # a file costs at least 1/MIN_SHARE of the largest
OVERHEAD = 1024 * 1024  # a PUT's multipart framing: Streamlit allows this much over the file
MAX_TABS = 4096  # sessions remembered (the oldest forgotten first)
UPLOAD_PATH = re.compile(r"/_stcore/upload_file/([^/]+)/([^/]+)$")


def largest_put() -> int:
    """The largest PUT body Streamlit accepts: `server.maxUploadSize` MB and the framing."""
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024 + OVERHEAD


@dataclass
class _Tab:
    bucket: Bucket
    stored: dict[str, int] = field(default_factory=dict)  # file id -> bytes Streamlit keeps
    pending: dict[int, int] = field(default_factory=dict)  # a PUT in flight -> bytes reserved
    refused: int = 0  # PUTs refused (the log says so once a tab)

    def held(self) -> int:
        return sum(self.stored.values()) + sum(self.pending.values())


class UploadBudget:
    """Every session's stored files and pace, with no I/O. Times are `time.monotonic()`."""

    def __init__(self, largest: int) -> None:
        if largest <= 0:
            raise ValueError(f"largest must be positive, got {largest!r}")
        self.largest = largest
        self.tabs: OrderedDict[str, _Tab] = OrderedDict()
        self._tickets = 0

    def _tab(self, session_id: str) -> _Tab:
        tab = self.tabs.get(session_id)
        if tab is None:
            bucket = Bucket(self.largest / REFILL_S, BURST_FILES * self.largest)
            tab = self.tabs[session_id] = _Tab(bucket)
            while len(self.tabs) > MAX_TABS:
                self.tabs.popitem(last=False)
        self.tabs.move_to_end(session_id)
        return tab

    def admit(self, session_id: str, declared: int | None, now: float) -> tuple[float, int]:
        """Decide a PUT of `declared` bytes (None: not said, taken as the largest): (0.0, its
        ticket for `finish`) when it may go on, its size reserved and paid; else (math.inf, 0)
        when the session holds too much (until files are deleted), or (the seconds until it
        could go on, 0). A file sent again under a stored file's id counts twice until it is
        stored (Streamlit keeps the old one if the new one fails)."""
        size = self.largest if declared is None else min(max(declared, 0), self.largest)
        tab = self._tab(session_id)
        if tab.held() + size > HELD_FILES * self.largest:
            return math.inf, 0
        cost = max(size, self.largest / MIN_SHARE)
        if not tab.bucket.take(now, cost):
            return tab.bucket.wait(now, cost), 0
        self._tickets += 1
        tab.pending[self._tickets] = size
        return 0.0, self._tickets

    def finish(self, session_id: str, ticket: int, file_id: str, stored: int | None) -> None:
        """The PUT admitted with `ticket` is over: `stored` bytes kept under `file_id` (in
        place of a file of that id), or None (refused, failed: what was stored stays)."""
        tab = self.tabs.get(session_id)
        if tab is None:
            return
        tab.pending.pop(ticket, None)
        if stored is not None:
            tab.stored[file_id] = stored

    def deleted(self, session_id: str, file_id: str) -> None:
        """The browser deleted a file (another chosen, or its ✕): it no longer counts."""
        tab = self.tabs.get(session_id)
        if tab is not None:
            tab.stored.pop(file_id, None)

    def held(self, session_id: str) -> int:
        tab = self.tabs.get(session_id)
        return 0 if tab is None else tab.held()


def refusal(wait_s: float, largest: int) -> str:
    """What a refused PUT says, for a client that reads it (Streamlit 1.67's uploader shows
    only the status, "Request failed with status code 429", beside the file)."""
    if math.isinf(wait_s):
        held_mb = HELD_FILES * (largest - OVERHEAD) // (1024 * 1024)
        return (
            f"This tab already holds {held_mb} MB of files on the server, the most it keeps for "
            "one tab. Reload the page to upload another file."
        )
    return f"Too many files from this tab in a short time: try again in {math.ceil(wait_s)} s."


class UploadGuard:
    """ASGI middleware: every upload PUT goes through an UploadBudget; DELETEs free it."""

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        *,
        largest: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.budget = UploadBudget(largest or largest_put())
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope.get("method", "")
        found = UPLOAD_PATH.search(scope.get("path", "")) if scope["type"] == "http" else None
        if found is None or method not in ("PUT", "DELETE"):
            await self.app(scope, receive, send)
            return
        session_id, file_id = found.groups()
        status: list[int] = []

        async def watched_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            await send(message)

        if method == "DELETE":
            await self.app(scope, receive, watched_send)
            if status and 200 <= status[0] < 300:
                self.budget.deleted(session_id, file_id)
            return
        wait_s, ticket = self.budget.admit(session_id, _declared(scope), self.clock())
        if wait_s > 0:
            tab = self.budget.tabs[session_id]
            tab.refused += 1
            if tab.refused == 1:
                LOG.warning(
                    "uploads: refused a file from %s (%s held)",
                    client_address(scope),
                    f"{self.budget.held(session_id):,} bytes",
                )
            await _refuse(send, wait_s, self.budget.largest)
            return
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            return message

        stored = None
        try:
            await self.app(scope, counted_receive, watched_send)
            if status and 200 <= status[0] < 300:
                stored = received
        finally:
            self.budget.finish(session_id, ticket, file_id, stored)


def _declared(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Send, wait_s: float, largest: int) -> None:
    body = refusal(wait_s, largest).encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    headers.append((b"content-length", str(len(body)).encode()))
    if not math.isinf(wait_s):
        headers.append((b"retry-after", str(math.ceil(wait_s)).encode()))
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
