"""deploy/uploads.py: a budget on the files a tab PUTs to the server, before Streamlit stores
them.

The budget's rules at exact points; the ASGI middleware with a stand-in app (what reaches
Streamlit, what a refused PUT is told); then the real server (deploy/serve.py as `make run`
starts it), sent file after file that no widget asked for by one session, as a modified tab
can: the server keeps four, refuses the rest, and its memory says so."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import http.cookiejar
import math
import re
import select
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

from bench.room_client import Student
from deploy import uploads
from deploy.uploads import BURST_FILES, HELD_FILES, REFILL_S, UploadBudget, UploadGuard

L = 10_000  # the largest PUT in the rule tests (bytes)


def in_thread(coroutine):
    """asyncio.run in a thread of its own (a browser test may have left a loop in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# --- the rules ---------------------------------------------------------------------------


def stored(budget: UploadBudget, session_id: str, file_id: str, size: int, now: float) -> float:
    """A PUT of `size` bytes: admitted and stored (0.0), or the wait it was told."""
    wait, ticket = budget.admit(session_id, size, now)
    if wait == 0.0:
        budget.finish(session_id, ticket, file_id, size)
    return wait


def test_a_tab_holds_at_most_four_of_the_largest_files():
    budget = UploadBudget(L)
    assert [stored(budget, "s", f"f{i}", L, 0.0) for i in range(HELD_FILES)] == [0.0] * 4
    assert budget.admit("s", L, 0.0) == (math.inf, 0)  # held: until files are deleted
    assert budget.admit("s", 1, 1_000.0) == (math.inf, 0)  # time does not free them
    assert budget.held("s") == 4 * L and budget.held("other") == 0
    assert stored(budget, "other", "f0", L, 0.0) == 0.0  # every session has its own


def test_a_deleted_file_frees_its_place_and_the_pace_still_holds():
    budget = UploadBudget(L)
    for i in range(4):
        stored(budget, "s", f"f{i}", L, 0.0)
    budget.deleted("s", "f0")
    budget.deleted("s", "never-sent")
    assert budget.held("s") == 3 * L
    # the bucket is empty after four: the next largest file in REFILL_S seconds, none before
    assert budget.admit("s", L, 0.0) == (pytest.approx(REFILL_S), 0)
    assert budget.admit("s", L, 15.0) == (pytest.approx(15.0), 0)
    assert stored(budget, "s", "f4", L, 30.0) == 0.0
    assert budget.held("s") == 4 * L


def test_small_files_cost_a_tenth_of_the_largest():
    """40 files of 500 bytes at once (each paid as 1,000), then one every 3 s."""
    budget = UploadBudget(L)
    assert all(stored(budget, "s", f"f{i}", 500, 0.0) == 0.0 for i in range(BURST_FILES * 10))
    assert budget.held("s") == 40 * 500  # what is held is the files' own bytes
    assert stored(budget, "s", "late", 500, 0.0) == pytest.approx(3.0)
    assert stored(budget, "s", "late", 500, 2.9) == pytest.approx(0.1)
    assert stored(budget, "s", "late", 500, 3.0) == 0.0


def test_a_put_in_flight_is_reserved_and_one_that_does_not_say_its_size_as_the_largest():
    budget = UploadBudget(L)
    _, ticket = budget.admit("s", None, 0.0)
    assert budget.held("s") == L  # reserved while its body arrives
    budget.finish("s", ticket, "a", 120)  # what was stored replaces the reservation
    assert budget.held("s") == 120
    _, ticket = budget.admit("s", 10 * L, 0.0)
    assert budget.held("s") == 120 + L  # a size over the largest is reserved as the largest


def test_puts_sent_at_once_cannot_pass_the_hold_together():
    """Five PUTs in flight at once (none finished): the fifth is refused, as if stored."""
    budget = UploadBudget(L)
    waits = [budget.admit("s", L, 0.0)[0] for _ in range(5)]
    assert waits == [0.0] * 4 + [math.inf]


def test_a_failed_put_frees_its_reservation_and_never_what_was_stored():
    """Finding: the budget's first version (066d565) dropped a stored file from the count when
    a PUT under its id failed, while Streamlit kept the file: store x, send x again badly,
    repeat with new ids, and the server's memory grew with nothing counted."""
    budget = UploadBudget(L)
    stored(budget, "s", "x", L, 0.0)
    _, ticket = budget.admit("s", L, 0.0)
    assert budget.held("s") == 2 * L  # the old file and the new one, until it is stored
    budget.finish("s", ticket, "x", None)
    assert budget.held("s") == L  # Streamlit still keeps x
    _, ticket = budget.admit("s", L, 0.0)
    budget.finish("s", ticket, "x", 700)
    assert budget.held("s") == 700  # stored under x: in place of the old one


def test_the_oldest_sessions_are_forgotten_beyond_max_tabs(monkeypatch):
    monkeypatch.setattr(uploads, "MAX_TABS", 3)
    budget = UploadBudget(L)
    for name in "abcd":
        budget.admit(name, L, 0.0)
    assert list(budget.tabs) == ["b", "c", "d"]


def test_a_budget_needs_a_positive_size():
    with pytest.raises(ValueError, match="largest"):
        UploadBudget(0)


def test_the_refusals_say_what_to_do():
    assert uploads.refusal(2.2, L) == (
        "Too many files from this tab in a short time: try again in 3 s."
    )
    largest = 25 * 1024 * 1024 + uploads.OVERHEAD
    assert uploads.refusal(math.inf, largest) == (
        "This tab already holds 100 MB of files on the server, the most it keeps for one tab. "
        "Reload the page to upload another file."
    )


# --- the middleware, with a stand-in app ----------------------------------------------------


class StandIn:
    """What Streamlit's upload route would do: read the body, answer `status`."""

    def __init__(self, status: int = 204):
        self.status = status
        self.bodies: list[bytes] = []

    async def __call__(self, scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": self.status, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def request(guard, method: str, path: str, body: bytes = b"", length: bool = True):
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": [(b"content-length", str(len(body)).encode())] if length else [],
    }
    chunks = [body[i : i + 4_000] for i in range(0, len(body), 4_000)] or [b""]
    sent: list[dict] = []

    async def receive():
        chunk = chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message):
        sent.append(message)

    in_thread(guard(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    headers = dict(next(m["headers"] for m in sent if m["type"] == "http.response.start"))
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, headers, text.decode()


UPLOAD = "/_stcore/upload_file/session-1/{}"


def test_puts_within_budget_reach_streamlit_and_the_rest_are_refused_unread():
    now = [0.0]
    app = StandIn()
    guard = UploadGuard(app, largest=L, clock=lambda: now[0])
    answers = [request(guard, "PUT", UPLOAD.format(i), b"x" * L) for i in range(5)]
    assert [status for status, _, _ in answers] == [204] * 4 + [429]
    assert len(app.bodies) == 4 and all(len(body) == L for body in app.bodies)
    _, headers, text = answers[4]
    assert text.startswith("This tab already holds") and b"retry-after" not in headers
    assert guard.budget.held("session-1") == 4 * L

    # the browser deletes a file: its place is free, the pace says when
    assert request(guard, "DELETE", UPLOAD.format(0))[0] == 204
    status, headers, text = request(guard, "PUT", UPLOAD.format(5), b"x" * L)
    assert (status, headers[b"retry-after"]) == (429, b"30")
    assert text == "Too many files from this tab in a short time: try again in 30 s."
    now[0] = 30.0
    assert request(guard, "PUT", UPLOAD.format(5), b"x" * L)[0] == 204
    assert len(app.bodies) == 6  # 4 PUTs, the DELETE, the late PUT


def test_a_refused_or_failed_delete_or_put_frees_nothing_it_should_not():
    guard = UploadGuard(StandIn(status=400), largest=L, clock=lambda: 0.0)
    assert request(guard, "PUT", UPLOAD.format("a"), b"x" * 100)[0] == 400
    assert guard.budget.held("session-1") == 0  # Streamlit refused it: nothing held
    guard.app = StandIn()
    request(guard, "PUT", UPLOAD.format("a"), b"x" * 100)
    guard.app = StandIn(status=403)
    request(guard, "DELETE", UPLOAD.format("a"))
    assert guard.budget.held("session-1") == 100  # a DELETE Streamlit refused frees nothing


def test_what_is_held_is_the_bytes_that_arrived_when_no_length_was_said():
    guard = UploadGuard(StandIn(), largest=L, clock=lambda: 0.0)
    assert request(guard, "PUT", UPLOAD.format("a"), b"x" * 9_000, length=False)[0] == 204
    assert guard.budget.held("session-1") == 9_000


def test_an_upload_that_breaks_off_holds_nothing():
    async def broken(scope, receive, send):
        await receive()
        raise ConnectionResetError("the tab went away")

    guard = UploadGuard(broken, largest=L, clock=lambda: 0.0)
    with pytest.raises(ConnectionResetError):
        request(guard, "PUT", UPLOAD.format("a"), b"x" * 100)
    assert guard.budget.held("session-1") == 0


def test_other_requests_are_not_touched():
    calls = []

    async def app(scope, receive, send):
        calls.append((scope["type"], scope.get("method"), receive, send))

    async def receive():
        return {}

    async def send(_message):
        return None

    guard = UploadGuard(app, largest=L)
    for scope in (
        {"type": "http", "method": "GET", "path": "/_stcore/health"},
        {"type": "http", "method": "OPTIONS", "path": UPLOAD.format("a")},
        {"type": "http", "method": "PUT", "path": "/_stcore/other/a/b"},
        {"type": "websocket", "path": "/_stcore/stream"},
        {"type": "lifespan"},
    ):
        in_thread(guard(scope, receive, send))
    assert [call[2:] for call in calls] == [(receive, send)] * 5
    assert guard.budget.tabs == {}


# --- the real server ----------------------------------------------------------------------


def _put(base: str, cookie: str, xsrf: str, session_id: str, file_id: str, size: int):
    """PUT a file of `size` bytes as a browser does, watching for an answer before the body
    goes (a refused PUT is answered at once and its connection closed): (status, headers)."""
    boundary = uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()
    body += b"a,b\n" + b"1,2\n" * ((size - 4) // 4) + f"\r\n--{boundary}--\r\n".encode()
    address = urlparse(base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.putrequest("PUT", f"/_stcore/upload_file/{session_id}/{file_id}")
        for name, value in {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Content-Length": str(len(body)),
            "Cookie": cookie,
            "X-Xsrftoken": xsrf,
        }.items():
            connection.putheader(name, value)
        connection.endheaders()
        answered, _, _ = select.select([connection.sock], [], [], 0.5)
        if not answered:
            connection.send(body)
        response = connection.getresponse()
        response.read()
        return response.status, response.msg  # its headers, by any case
    finally:
        connection.close()


def _rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024


@pytest.mark.slow
def test_one_tab_sending_file_after_file_is_held_to_four(tmp_path):
    """Through the real server: one session PUTs ten files of 24 MB that no widget asked for
    (a modified tab can: its session id and XSRF cookie are its own). Four are stored, six
    refused before their bodies are read; the server grows by about four files, not ten (it
    grew 482 MB for twenty before this budget). After the browser deletes one, the pace says
    when the next may come."""
    from conftest import serve_app_process

    size = 24 * 1024 * 1024

    def send_files(url: str, session_id: str, pid: int):
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(f"{url}/_stcore/health", timeout=60).read()  # sets the XSRF cookie
        xsrf = next(cookie.value for cookie in jar if cookie.name == "_streamlit_xsrf")
        cookie = f"_streamlit_xsrf={xsrf}"
        before, start = _rss_mb(pid), time.monotonic()
        answers = [_put(url, cookie, xsrf, session_id, f"forged-{i}", size)[0] for i in range(10)]
        grown = _rss_mb(pid) - before
        delete = urllib.request.Request(
            f"{url}/_stcore/upload_file/{session_id}/forged-0",
            method="DELETE",
            headers={"X-Xsrftoken": xsrf, "Cookie": cookie},
        )
        with urllib.request.urlopen(delete, timeout=60) as response:
            deleted = response.status
        late, headers = _put(url, cookie, xsrf, session_id, "late", size)
        return answers, grown, deleted, late, headers, time.monotonic() - start

    async def one_tab(url: str, pid: int):
        student = Student(url, "laplace", timeout_s=60)
        await student.open()  # the session stays open while its files are sent
        try:
            return await asyncio.to_thread(send_files, url, student.session_id, pid)
        finally:
            await student.close()

    with serve_app_process(tmp_path) as (url, server):
        answers, grown, deleted, late, headers, took = in_thread(one_tab(url, server.pid))
    log = (tmp_path / "server.log").read_text()
    print(f"the server grew {grown:.0f} MB for {answers.count(204)} files stored")
    assert answers == [204] * 4 + [429] * 6
    assert grown < 6 * 24  # four files and the parser's copies; ten would be 240 MB and more
    # the bucket held four of the largest PUTs (26 MiB each) and paid four of 24 MiB: the fifth
    # is due when a fifth 24 MiB has come back, 30 s × (5·24 − 4·26)/26 ≈ 18.5 s after the
    # first, less the seconds the sending took (Retry-After is rounded up)
    largest = 26 * 1024 * 1024  # server.maxUploadSize (25 MB) and the framing's 1 MiB
    due = REFILL_S * (5 * size - 4 * largest) / largest
    assert deleted == 204 and late == 429
    assert due - took <= int(headers["Retry-After"]) <= due + 1
    assert log.count("uploads: refused a file from") == 1  # once a tab
