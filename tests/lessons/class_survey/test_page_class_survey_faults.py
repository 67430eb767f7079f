"""The class-survey page under storage faults: a message in
words instead of a traceback with SQL, for the lecturer (what to do) and the student (tap
again, or tell the lecturer); reading keeps working where the fault allows it.

Real faults where they can be made without root (a file that is not a database, a lock held
by another connection, SQLite's read-only mode); every reason also by injection, so each
message is pinned.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import survey
from apptest_helpers import classroom_page
from readonly_helpers import make_read_only, restore_writable, run_without_write_rights
from survey import security
from ui import activity

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_survey" / "page.py")
SQL_WORDS = ("select ", "insert ", "update ", "survey_surveys", "survey_responses", "pragma")
REASONS = list(survey.STORAGE_FAULTS)

ANSWERS = "Answers / devices joined"


def page(**params: str) -> AppTest:
    return classroom_page(PAGE, **params)


def everything(at: AppTest) -> str:
    return "\n".join(str(node.proto) for node in at.main).lower()


def assert_explained(at: AppTest, message: str) -> None:
    assert not at.exception, [e.value for e in at.exception]
    shown = [e.value for e in at.error] + [w.value for w in at.warning]
    assert message in shown, shown
    assert not any(word in everything(at) for word in SQL_WORDS)


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "survey.sqlite3"
    monkeypatch.setenv("SURVEY_DB_URL", f"sqlite:///{path}")
    return path


@pytest.fixture
def running(db) -> survey.NewSurvey:
    store = survey.SurveyStore(f"sqlite:///{db}")
    created = store.create_survey("Did you copy homework?", survey.two_coins())
    for bit in (1, 0, 1):
        store.submit(created.survey.id, security.new_session_token(), bit)
    store.dispose()
    return created


@pytest.mark.parametrize("mode", ["create", "manage", "join"])
def test_a_damaged_database_file_gives_a_message_on_every_view(db, mode):
    db.write_bytes(b"not a database at all\n" * 500)
    at = page(**({} if mode == "create" else {mode: "K7QX2M"}))
    at.run()
    assert_explained(at, activity.fault_message("damaged", student=mode == "join"))
    if mode != "join":
        assert "var/survey.sqlite3 aside" in at.error[0].value  # what the lecturer can do


def test_a_missing_database_folder_is_explained(tmp_path, monkeypatch):
    monkeypatch.delenv("SURVEY_DB_URL", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("SURVEY_DB_DIR", str(blocker / "var"))
    at = page()
    at.run()
    assert_explained(at, activity.fault_message("unreachable", student=False))


def test_a_locked_database_tells_the_student_to_tap_again(db, running):
    student = page(join=running.survey.code)
    student.run()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        student.button(key="survey_report_yes").click().run()
        assert_explained(student, activity.fault_message("busy", student=True))
        assert "Tap again" in student.warning[0].value
        assert [b.label for b in student.button] == ["Yes", "No"]  # still there
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    student.button(key="survey_report_yes").click().run()
    assert any("answer is in" in s.value for s in student.success)


def test_a_read_only_database_still_shows_the_results(db, running, monkeypatch):
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    monkeypatch.setenv("SURVEY_DB_URL", f"sqlite:///file:{db}?mode=ro&uri=true")
    lecturer = page(manage=running.survey.code, key=running.admin_key)
    lecturer.run()
    assert not lecturer.exception
    assert {m.label: m.value for m in lecturer.metric}[ANSWERS].split(" / ")[0] == "3"
    lecturer.button(key="survey_close").click().run()
    assert_explained(lecturer, activity.fault_message("read_only", student=False))
    student = page(join=running.survey.code)
    student.run()  # the question, and at once why no answer can be taken: no buttons
    assert_explained(student, activity.fault_message("read_only", student=True))
    assert not [b for b in student.button if b.label in ("Yes", "No")]
    assert any("Did you copy homework?" in m.value for m in student.markdown)


@pytest.mark.parametrize("reason", REASONS)
def test_every_fault_while_answering_is_explained_to_the_student(db, running, monkeypatch, reason):
    def fail(*_args, **_kwargs):
        raise survey.StorageError(reason)

    student = page(join=running.survey.code)
    student.run()
    monkeypatch.setattr(survey.SurveyStore, "submit", fail)
    student.button(key="survey_report_yes").click().run()
    message = activity.fault_message(reason, student=True)
    assert_explained(student, message)
    assert "Tap again" in message if reason == "busy" else "Tell your lecturer" in message


@pytest.mark.parametrize("reason", REASONS)
def test_every_fault_on_the_projector_is_explained_to_the_lecturer(
    db, running, monkeypatch, reason
):
    def fail(*_args, **_kwargs):
        raise survey.StorageError(reason)

    monkeypatch.setattr(survey.SurveyStore, "responses", fail)
    lecturer = page(manage=running.survey.code, key=running.admin_key)
    lecturer.run()
    assert_explained(lecturer, activity.fault_message(reason, student=False))
    assert len(activity.fault_message(reason, student=False)) > len(survey.STORAGE_FAULTS[reason])


APPTEST_ON_READ_ONLY_FILE = """
import os
from streamlit.testing.v1 import AppTest
os.environ["SURVEY_DB_URL"] = f"sqlite:///{_path}"
PAGE = os.environ["PP_PAGE"]
out = {}
for view, params in (
    ("manage", {"manage": os.environ["PP_CODE"], "key": os.environ["PP_KEY"]}),
    ("join", {"join": os.environ["PP_CODE"]}),
    ("create", {}),
):
    at = AppTest.from_file(PAGE, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    out[view] = {
        "exceptions": [e.value for e in at.exception],
        "metrics": {m.label: m.value for m in at.metric},
        "messages": [e.value for e in at.error] + [w.value for w in at.warning],
        "buttons": {b.label: b.disabled for b in at.button},
        "markdown": " ".join(m.value for m in at.markdown),
    }
print(json.dumps(out))
"""


def test_a_read_only_database_file_shows_its_results_on_every_view(db, running):
    """An existing database on a read-only mount, with answers, made
    the student, projector and create views all say "cannot be opened", although the
    message promises that results can still be shown. Real: the file and its folder have no
    write bits, and the app runs without root's right to ignore them."""
    make_read_only(db)
    try:
        result = run_without_write_rights(
            APPTEST_ON_READ_ONLY_FILE,
            db,
            env={
                "PP_PAGE": PAGE,
                "PP_CODE": running.survey.code,
                "PP_KEY": running.admin_key,
            },
        )
    finally:
        restore_writable(db)
    assert result["WRITE_DENIED"]
    read_only = activity.fault_message("read_only", student=False)
    projector = result["manage"]
    assert not projector["exceptions"]
    assert projector["metrics"][ANSWERS].split(" / ")[0] == "3"
    assert read_only in projector["messages"]
    student = result["join"]
    assert not student["exceptions"]
    assert "Did you copy homework?" in student["markdown"]
    assert activity.fault_message("read_only", student=True) in student["messages"]
    assert "Yes" not in student["buttons"]
    create = result["create"]
    assert not create["exceptions"]
    assert read_only in create["messages"]
    assert create["buttons"]["Create survey"] is True  # disabled: the refusal is clear
    for view in result.values():
        if isinstance(view, dict):
            unreachable = activity.fault_message("unreachable", student=False)
            assert unreachable not in view["messages"]


@pytest.mark.parametrize("mode", ["join", "manage", "create"])
def test_a_malformed_database_url_shows_no_traceback(monkeypatch, mode, caplog):
    """Finding 7: `postgresql+psycopg://u:pw@host:notaport/db` gave students a ValueError
    with a traceback and server paths. Now: the "cannot be opened" message, the detail in
    the server log, and the password nowhere."""
    monkeypatch.setenv("SURVEY_DB_URL", "postgresql+psycopg://u:s3cret-pw@host:notaport/db")
    activity.class_store.clear()
    at = page(**({} if mode == "create" else {mode: "K7QX2M"}))
    with caplog.at_level("WARNING"):
        at.run()
    assert_explained(at, activity.fault_message("unreachable", student=mode == "join"))
    assert "s3cret" not in everything(at)
    assert "notaport" not in everything(at) and "Traceback" not in everything(at)
    assert "s3cret" not in caplog.text and "notaport" in caplog.text
