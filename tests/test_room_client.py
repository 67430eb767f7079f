"""The simulated students' WebSocket handling (bench/room_client.py), without a server: the
replica tests drive it against live servers; here, what a live server rarely does on
loopback (a message split into frames, a close mid-run, a message between runs)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from picows import WSMsgType
from picows.picows import _make_test_ws_frame
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.room_client import ProtocolError, Student, _Listener


def forward(**fields) -> bytes:
    message = ForwardMsg()
    for name, value in fields.items():
        setattr(message, name, value)
    return message.SerializeToString()


def markdown(body: str) -> bytes:
    message = ForwardMsg()
    message.delta.new_element.markdown.body = body
    return message.SerializeToString()


class FakeTransport:
    def __init__(self) -> None:
        self.closed_with = None
        self.disconnected = False

    def send_close(self, code=None) -> None:
        self.closed_with = code

    def disconnect(self) -> None:
        self.disconnected = True


def frame(payload: bytes, *, fin: bool = True, kind: WSMsgType = WSMsgType.BINARY):
    return _make_test_ws_frame(kind, payload, fin, False)


async def _run_with(student: Student, feed) -> object:
    student._finished = asyncio.get_running_loop().create_future()
    feed()
    return await asyncio.wait_for(student._finished, 1)


def run_with(student: Student, feed) -> object:
    """Start a run's wait as `rerun` does, feed frames, and return its outcome. In a thread
    of its own: after the browser tests, pytest-playwright's sync API keeps an event loop
    running in this thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _run_with(student, feed)).result()


def test_a_message_split_into_frames_is_read_once_whole():
    student = Student("http://127.0.0.1:1", "laplace")
    listener = _Listener(student)
    body = markdown("Your reported answer is in")
    finished = forward(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY)

    def feed() -> None:
        listener.on_ws_frame(FakeTransport(), frame(body[:5], fin=False))
        listener.on_ws_frame(
            FakeTransport(), frame(body[5:], fin=True, kind=WSMsgType.CONTINUATION)
        )
        listener.on_ws_frame(FakeTransport(), frame(finished))

    status = run_with(student, feed)
    assert status == "FINISHED_SUCCESSFULLY"
    assert student.texts == ["Your reported answer is in"]  # once, not twice or in halves
    assert listener.parts == []


def test_a_run_the_script_restarts_waits_for_the_rerun_it_asked_for():
    student = Student("http://127.0.0.1:1", "laplace")
    listener = _Listener(student)
    early = forward(script_finished=ForwardMsg.FINISHED_EARLY_FOR_RERUN)
    done = forward(script_finished=ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)

    def feed() -> None:
        listener.on_ws_frame(FakeTransport(), frame(early))
        assert not student._finished.done()
        listener.on_ws_frame(FakeTransport(), frame(done))

    assert run_with(student, feed) == "FINISHED_FRAGMENT_RUN_SUCCESSFULLY"


def test_a_close_mid_run_fails_the_run_and_answers_the_close():
    student = Student("http://127.0.0.1:1", "laplace")
    listener = _Listener(student)
    transport = FakeTransport()
    close = _make_test_ws_frame(WSMsgType.CLOSE, b"\x03\xe8", True, False)  # 1000, normal

    with pytest.raises(ProtocolError, match="connection lost"):
        run_with(student, lambda: listener.on_ws_frame(transport, close))
    assert transport.disconnected and transport.closed_with is not None


def test_a_message_between_runs_is_read_without_deciding_a_run():
    student = Student("http://127.0.0.1:1", "laplace")
    listener = _Listener(student)
    listener.on_ws_frame(FakeTransport(), frame(markdown("late")))
    listener.on_ws_frame(
        FakeTransport(), frame(forward(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY))
    )
    assert student._finished is None
    assert student.texts == ["late"]


def test_a_page_the_server_does_not_have_fails_the_run():
    student = Student("http://127.0.0.1:1", "no-such-lesson")
    listener = _Listener(student)
    message = ForwardMsg()
    message.page_not_found.page_name = "no-such-lesson"

    with pytest.raises(ProtocolError, match="page not found"):
        run_with(
            student,
            lambda: listener.on_ws_frame(FakeTransport(), frame(message.SerializeToString())),
        )


def test_students_only_connect_to_loopback():
    with pytest.raises(ValueError, match="loopback"):
        Student("http://example.org", "laplace")
