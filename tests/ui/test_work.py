"""ui/work.py: long shared work runs once per process, whoever asks waits for that one run
and sees its steps, an error reaches the waiter and the next call starts again."""

from __future__ import annotations

import threading

import pytest
from streamlit.testing.v1 import AppTest

from ui import work


def test_many_callers_get_one_computation_and_the_same_result() -> None:
    calls = []
    gate = threading.Event()

    def compute() -> object:
        calls.append(1)
        gate.wait(10)
        return object()

    shared = work.SharedWork("t", 1, compute)
    results: list[object] = []
    callers = [threading.Thread(target=lambda: results.append(shared.result())) for _ in range(8)]
    for caller in callers:
        caller.start()
    shared.start()  # once more while it runs: still one computation
    gate.set()
    for caller in callers:
        caller.join(10)
    assert len(calls) == 1
    assert len(results) == 8 and all(r is results[0] for r in results)
    assert shared.ready() and shared.result() is results[0]
    assert len(calls) == 1


def test_a_waiter_sees_the_steps_done_and_their_messages() -> None:
    halfway, release = threading.Event(), threading.Event()

    def compute() -> str:
        work.step("first of two")
        halfway.set()
        release.wait(10)
        work.step("second of two")
        return "done"

    shared = work.SharedWork("t", 2, compute)
    seen: list[tuple[float, str]] = []

    def on_progress(share: float, message: str) -> None:
        seen.append((share, message))
        if halfway.is_set():
            release.set()

    shared.start()
    assert halfway.wait(10)
    assert shared.result(on_progress) == "done"
    assert (0.5, "first of two") in seen
    assert all(0.0 <= share <= 1.0 for share, _ in seen)
    assert not shared.running()


def test_an_error_reaches_the_waiter_and_the_next_call_starts_again() -> None:
    attempts = []

    def compute() -> int:
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("the first attempt fails")
        return 7

    shared = work.SharedWork("t", 1, compute)
    with pytest.raises(RuntimeError, match="first attempt"):
        shared.result()
    assert not shared.ready()
    assert shared.result() == 7 and len(attempts) == 2


def test_a_step_outside_any_work_does_nothing() -> None:
    work.step("nobody is listening")  # no error, no state


def test_forget_makes_the_next_call_compute_again() -> None:
    calls = []
    shared = work.SharedWork("t", 1, lambda: calls.append(1) or len(calls))
    assert shared.result() == 1
    shared.forget()
    assert not shared.ready()
    assert shared.result() == 2


@pytest.mark.parametrize(
    ("name", "steps", "compute", "error"),
    [
        ("", 1, lambda: 1, TypeError),
        (3, 1, lambda: 1, TypeError),
        ("t", 0, lambda: 1, ValueError),
        ("t", 1.0, lambda: 1, TypeError),
        ("t", True, lambda: 1, TypeError),
        ("t", 1, "not callable", TypeError),
    ],
)
def test_bad_arguments_raise(name, steps, compute, error) -> None:
    with pytest.raises(error):
        work.SharedWork(name, steps, compute)


SCRIPT = """
import threading
import streamlit as st
from ui import work

if "shared" not in st.session_state:
    st.session_state.shared = work.SharedWork("bar", 3, lambda: [work.step(f"step {i}")
                                                            for i in range(3)] and "result")
st.write(work.wait_with_bar(st.session_state.shared, "Working on it."))
"""


def test_the_page_bar_goes_with_the_result() -> None:
    at = AppTest.from_string(SCRIPT, default_timeout=30).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["result"]
    assert not at.get("progress")  # emptied once the result is there
    at.run()  # ready now: no bar at all
    assert [m.value for m in at.markdown] == ["result"] and not at.get("progress")
