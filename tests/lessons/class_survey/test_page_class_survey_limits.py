"""Rate limits on creating and joining class surveys (issue 17, item 13): per browser session
and per client address, with a clear message; a refused create stores nothing, and a
join counts once per code and session (reruns and taps are free)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import survey
from lessons.class_survey import model
from survey import security

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_survey" / "page.py")


@pytest.fixture
def store(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    monkeypatch.setenv("SURVEY_DB_URL", url)
    s = survey.SurveyStore(url)
    yield s
    s.dispose()


def limit(monkeypatch, action: str, who: str, events: int, window: float = 600.0) -> None:
    monkeypatch.setitem(model.LIMITS, (action, who), (events, window))
    model.limiters.clear()


def n_surveys(store) -> int:
    with store.engine.connect() as conn:
        return conn.exec_driver_sql("SELECT count(*) FROM survey_surveys").scalar_one()


def press_create(at: AppTest) -> None:
    at.button(key="survey_create").click().run()
    assert not at.exception


def test_one_browser_session_creates_at_most_five_surveys_in_ten_minutes(store):
    lecturer = AppTest.from_file(PAGE, default_timeout=30)
    lecturer.run()
    for _ in range(5):
        press_create(lecturer)
        assert "manage" in lecturer.query_params
        lecturer.button(key="survey_new").click().run()  # back to the create form
        assert "manage" not in lecturer.query_params
    press_create(lecturer)
    assert "manage" not in lecturer.query_params
    assert [w.value for w in lecturer.warning] == [model.limit_message("create", "session")]
    assert "At most 5 surveys" in lecturer.warning[0].value
    assert n_surveys(store) == 5


def test_one_address_creates_at_most_its_limit_across_sessions(store, monkeypatch):
    limit(monkeypatch, "create", "address", 2, 3600.0)
    for expected in (True, True, False):
        lecturer = AppTest.from_file(PAGE, default_timeout=30)
        lecturer.run()
        press_create(lecturer)
        assert ("manage" in lecturer.query_params) is expected
    assert "your network" in lecturer.warning[0].value
    assert n_surveys(store) == 2


def codes(store, n: int) -> list[str]:
    return [store.create_survey(f"Q{i}?", survey.two_coins()).survey.code for i in range(n)]


def test_joins_are_limited_per_session_but_reruns_and_taps_are_free(store, monkeypatch):
    limit(monkeypatch, "join", "session", 3, 60.0)
    first, *others = codes(store, 4)
    student = AppTest.from_file(PAGE, default_timeout=30)
    student.query_params["join"] = first
    for _ in range(5):  # reloads of the same page: one join
        student.run()
    student.button(key="survey_report_yes").click().run()
    assert any("answer is in" in s.value for s in student.success)
    for code, allowed in zip(others, (True, True, False), strict=True):
        student.query_params.clear()
        student.query_params["join"] = code
        student.run()
        assert not student.exception
        assert bool(student.button) is allowed
    assert student.warning[0].value == model.limit_message("join", "session")
    assert "Too many join attempts from this browser" in student.warning[0].value


def test_joins_are_limited_per_address(store, monkeypatch):
    limit(monkeypatch, "join", "address", 2, 60.0)
    (code,) = codes(store, 1)
    shown = []
    for _ in range(3):
        student = AppTest.from_file(PAGE, default_timeout=30)
        student.query_params["join"] = code
        student.run()
        shown.append(bool(student.button))
    assert shown == [True, True, False]
    assert "your network" in student.warning[0].value


def test_a_typed_wrong_code_counts_as_a_join_attempt(store, monkeypatch):
    limit(monkeypatch, "join", "session", 2, 60.0)
    student = AppTest.from_file(PAGE, default_timeout=30)
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):  # guessing codes
        student.query_params.clear()
        student.query_params["join"] = code
        student.run()
    assert not student.error  # the third guess is not even looked up
    assert "Too many join attempts" in student.warning[0].value


def test_the_default_limits_leave_room_for_a_class_and_refuse_a_flood():
    assert model.LIMITS[("join", "address")][0] >= 300  # a class on one school network
    assert model.LIMITS[("create", "session")][0] <= 10


def test_rate_limiter_memory_stays_bounded_under_a_flood_of_keys():
    limiter = security.RateLimiter(max_events=1, window_s=60.0, max_keys=100)
    for i in range(5_000):
        assert limiter.allow(f"key-{i}", now=float(i) / 1000)
    assert len(limiter._events) <= 101
    assert not limiter.allow("key-4999", now=5.0)  # the recent keys are still limited
