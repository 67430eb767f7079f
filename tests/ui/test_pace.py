"""The per-session budget (ui/pace.py): a session that floods reruns gets runs that stop at
once, while a student's real pace never runs out. The flood's cost before and after is
measured by bench/bench_flood.py (printed, not asserted)."""

from __future__ import annotations

import pytest

from conftest import app_apptest
from ui import pace


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    now = [1_000.0]
    monkeypatch.setattr(pace.time, "monotonic", lambda: now[0])
    return now


@pytest.fixture
def state(monkeypatch) -> dict:
    session: dict = {}
    monkeypatch.setattr(pace.st, "session_state", session)
    return session


def test_a_burst_is_allowed_then_runs_come_back_at_the_rate(clock, state) -> None:
    allowed = [pace.allow_run() for _ in range(int(pace.BURST) + 5)]
    assert allowed == [True] * int(pace.BURST) + [False] * 5
    clock[0] += 1 / pace.RUNS_PER_SECOND  # one token back
    assert pace.allow_run() and not pace.allow_run()


def test_a_students_pace_never_runs_out_and_a_flood_is_cut_to_the_rate(clock, state) -> None:
    # an arrow key held for a minute: 8 reruns a second
    for _ in range(8 * 60):
        clock[0] += 1 / 8
        assert pace.allow_run()
    # a flood: 1,800 messages a second for 10 s, from a full bucket
    state.clear()
    allowed = 0
    for _ in range(18_000):
        clock[0] += 1 / 1_800
        allowed += pace.allow_run()
    assert allowed == pytest.approx(pace.BURST + 10 * pace.RUNS_PER_SECOND, abs=2)


def test_an_over_budget_run_of_the_app_stops_at_once_with_a_word(monkeypatch, clock) -> None:
    monkeypatch.setattr(pace, "BURST", 2.0)
    at = app_apptest().run()
    at.run()  # two runs: the burst
    assert not at.exception and at.markdown  # Home, drawn
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "This tab asked for more updates than the server gives one student. Wait a "
        "second, then move the control again."
    ]
    assert not at.markdown and not at.sidebar.children  # nothing else of the page ran
    at.run()  # still over: nothing at all is sent
    assert not at.warning and not at.markdown
    clock[0] += 1.0
    at.run()
    assert not at.warning and at.markdown  # back, drawn again
