"""The survey store under storage faults, on real SQLite files:
a database locked by another process, a file that is not a database, a database cut short,
a read-only database, a full disk. Every fault leaves the store as `survey.StorageError`
with a reason and a message in words — never the database's text, which may quote SQL —
and reading keeps working wherever the fault allows it.

Faults are made real without root privileges (CI runs as root, which ignores file modes):
read-only through SQLite's `mode=ro` URI, a full disk through `PRAGMA max_page_count`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import event

import survey
from readonly_helpers import make_read_only, restore_writable, run_without_write_rights
from survey import database as store_module
from survey import security

SQL_WORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "survey_", "sqlite", "PRAGMA")


def plain(error: BaseException) -> str:
    """The error's text as a page would show it; asserts no SQL and no chained cause."""
    text = str(error)
    assert not any(word.lower() in text.lower() for word in SQL_WORDS), text
    assert error.__cause__ is None and error.__suppress_context__, "the SQL must not be chained"
    return text


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "survey.sqlite3"


@pytest.fixture
def filled(path) -> tuple[Path, int, str]:
    """A database with one survey of 3 answers; (path, survey id, admin key)."""
    store = survey.SurveyStore(f"sqlite:///{path}")
    created = store.create_survey("Q?", survey.protocol_for(survey.TWO_COINS))
    for bit in (1, 0, 1):
        store.submit(created.survey.id, security.new_session_token(), bit)
    store.dispose()
    with sqlite3.connect(path) as conn:  # everything into the main file, no -wal left
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")
    return path, created.survey.id, created.admin_key


def test_a_locked_database_fails_fast_with_busy_and_reads_still_work(filled, monkeypatch):
    path, survey_id, _ = filled
    store = survey.SurveyStore(f"sqlite:///{path}")
    sleeps: list[float] = []
    real_sleep = store_module.time.sleep
    monkeypatch.setattr(store_module.time, "sleep", lambda s: (sleeps.append(s), real_sleep(s)))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        assert store.counts(survey_id) == survey.Counts(3, 2)  # the projector still reads
        with pytest.raises(survey.StorageError) as raised:
            store.submit(survey_id, security.new_session_token(), 1)
        assert raised.value.reason == "busy"
        assert "busy" in plain(raised.value)
        # Bounded: the retries stop at the deadline (each waits <= BUSY_TIMEOUT_MS for the
        # lock), not after 50 retries of a 30 s timeout as before.
        assert sum(sleeps) <= store_module.BUSY_DEADLINE_S
        assert store_module.BUSY_TIMEOUT_MS <= 1000
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # Once the lock is gone, the same tap goes through.
    assert store.submit(survey_id, security.new_session_token(), 1) is survey.SubmitResult.ACCEPTED
    store.dispose()


def test_a_file_that_is_not_a_database_is_reported_as_damaged(path):
    path.write_bytes(b"this is not a database, just text\n" * 200)
    with pytest.raises(survey.StorageError) as raised:
        survey.SurveyStore(f"sqlite:///{path}")
    assert raised.value.reason == "damaged"
    assert "damaged" in plain(raised.value)


def test_a_database_cut_short_is_reported_as_damaged(filled):
    path, survey_id, _ = filled
    with path.open("r+b") as file:  # keep the header and the first pages only
        file.truncate(2 * 4096)
    with pytest.raises(survey.StorageError) as raised:
        store = survey.SurveyStore(f"sqlite:///{path}")
        store.counts(survey_id)
        store.responses(survey_id)
    assert raised.value.reason == "damaged"
    plain(raised.value)


def test_a_read_only_database_still_shows_results_but_refuses_writes(filled):
    path, survey_id, admin_key = filled
    store = survey.SurveyStore(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert store.counts(survey_id) == survey.Counts(3, 2)
    assert len(store.responses(survey_id)) == 3
    assert store.get_by_id(survey_id).is_open
    for write in (
        lambda: store.submit(survey_id, security.new_session_token(), 1),
        lambda: store.close(survey_id, admin_key),
        lambda: store.create_survey("Another?", survey.protocol_for(survey.DIE)),
    ):
        with pytest.raises(survey.StorageError) as raised:
            write()
        assert raised.value.reason == "read_only"
        assert "read-only" in plain(raised.value)
    store.dispose()


def test_a_full_disk_keeps_the_answers_already_saved(filled):
    path, survey_id, _ = filled
    store = survey.SurveyStore(f"sqlite:///{path}")
    store.engine.dispose()
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]

    @event.listens_for(store.engine, "connect")
    def _no_room(dbapi_connection, _record):  # the disk fills up: no page can be added
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages + 1}")

    accepted = 0
    with pytest.raises(survey.StorageError) as raised:
        for _ in range(5_000):
            store.submit(survey_id, security.new_session_token(), 1)
            accepted += 1
    assert raised.value.reason == "full"
    assert "full" in plain(raised.value)
    assert store.counts(survey_id) == survey.Counts(3 + accepted, 2 + accepted)
    store.dispose()


def test_an_unreachable_database_is_reported_without_its_address(tmp_path):
    missing = tmp_path / "no" / "such" / "folder" / "survey.sqlite3"
    with pytest.raises(survey.StorageError) as raised:
        survey.SurveyStore(f"sqlite:///{missing}")
    assert raised.value.reason == "unreachable"
    assert str(tmp_path) not in plain(raised.value)


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("database is locked", "busy"),
        ("file is not a database", "damaged"),
        ("database disk image is malformed", "damaged"),
        ("attempt to write a readonly database", "read_only"),
        ("database or disk is full", "full"),
        ("unable to open database file", "unreachable"),
        ("could not connect to server: Connection refused", "unreachable"),
        ("disk I/O error", "failed"),
    ],
)
def test_database_messages_map_to_reasons(message, reason):
    assert store_module._fault(sqlite3.OperationalError(message)) == reason


def test_a_database_on_a_read_only_file_opens_read_only_and_shows_its_results(filled):
    """A plain URL to a file that cannot be written (a read-only mount, a file
    without write permission) used to fail as a whole; it now opens read-only: results are
    read, every write says read-only."""
    path, survey_id, admin_key = filled
    make_read_only(path)
    try:
        result = run_without_write_rights(
            f"""
import survey
from survey import security
store = survey.SurveyStore(f"sqlite:///{{_path}}")
counts = store.counts({survey_id})
out = {{"read_only": store.read_only, "counts": [counts.responses, counts.yes],
       "responses": len(store.responses({survey_id})),
       "open": store.get_by_id({survey_id}).is_open,
       "token_ok": store.tokens.is_valid(store.tokens.issue())}}
writes = {{
    "submit": lambda: store.submit({survey_id}, security.new_session_token(), 1),
    "close": lambda: store.close({survey_id}, {admin_key!r}),
    "create": lambda: store.create_survey("Another?", survey.protocol_for(survey.DIE)),
}}
for name, write in writes.items():
    try:
        write()
        out[name] = "written"
    except survey.StorageError as error:
        out[name] = error.reason
print(json.dumps(out))
""",
            path,
        )
    finally:
        restore_writable(path)
    assert result["WRITE_DENIED"]
    assert result["read_only"] is True
    assert result["counts"] == [3, 2] and result["responses"] == 3 and result["open"]
    assert result["token_ok"]
    assert [result[w] for w in ("submit", "close", "create")] == ["read_only"] * 3


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://u:s3cret-pw@host:notaport/db",
        "postgresql+nodriver://u:s3cret-pw@host/db",
        "nosuchdialect://u:s3cret-pw@host/db",
        "not a url at all",
    ],
)
def test_a_malformed_database_url_is_unreachable_and_its_password_is_not_logged(url, caplog):
    """A URL that cannot be parsed or has no driver raised ValueError (a
    traceback with server paths for students). It is now StorageError("unreachable"); the
    server log says why, with the password masked."""
    with (
        caplog.at_level("WARNING", logger="survey.database"),
        pytest.raises(survey.StorageError) as raised,
    ):
        survey.SurveyStore(url)
    assert raised.value.reason == "unreachable"
    assert "s3cret" not in plain(raised.value)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "cannot be used" in logged
    assert "s3cret" not in logged


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_database_file_that_vanishes_refuses_writes_instead_of_acknowledging(
    path, how, caplog
) -> None:
    """Finding: with the SQLite file deleted mid-class, the server kept writing to the
    deleted file: ten more "Your answer is in", and after a restart the quiz was gone. The
    store now sees that its path no longer names the file it opened, and says so."""
    store = survey.SurveyStore(f"sqlite:///{path}")
    quizzes = survey.QuizStore(store)
    new = quizzes.create_quiz("Q", [survey.QuizQuestion("Q?", ("a", "b"), 0, "")])
    quizzes.show(new.quiz.id, new.admin_key, 0)
    assert quizzes.submit(new.quiz.id, 0, security.new_session_token(), 0).value == "accepted"
    if how == "deleted":
        path.unlink()
    else:
        copy = path.with_name("copy.sqlite3")
        copy.write_bytes(path.read_bytes())
        copy.replace(path)
    with caplog.at_level("ERROR"), pytest.raises(survey.StorageError) as caught:
        quizzes.submit(new.quiz.id, 0, security.new_session_token(), 1)
    assert caught.value.reason == store_module.MISSING
    assert "removed or replaced" in plain(caught.value) and "removed or replaced" in caplog.text
    with pytest.raises(survey.StorageError, match="removed or replaced"):
        store.create_survey("Another?", survey.two_coins())
    store.dispose()


# A class whose server is killed after the write-ahead log was removed: the tapping runs in a
# child process that ends with os._exit (no connection closed, no checkpoint), as a SIGKILL.
_KILLED_CLASS = """
import os, sys
from pathlib import Path
import survey
from survey import security
path, removed = sys.argv[1], sys.argv[2].split(",")
quizzes = survey.QuizStore(survey.SurveyStore(f"sqlite:///{path}"))
new = quizzes.create_quiz("Q", [survey.QuizQuestion("Q?", ("a", "b"), 0, "")])
quizzes.show(new.quiz.id, new.admin_key, 0)
acknowledged = 0
for _ in range(3):
    assert quizzes.submit(new.quiz.id, 0, security.new_session_token(), 0).value == "accepted"
    acknowledged += 1
for suffix in removed:
    Path(path + suffix).unlink()
for _ in range(5):
    try:
        outcome = quizzes.submit(new.quiz.id, 0, security.new_session_token(), 1)
    except survey.StorageError as error:
        assert error.reason == "missing", error.reason
    else:
        assert outcome.value == "accepted"
        acknowledged += 1
print(new.quiz.id, acknowledged, flush=True)
os._exit(0)
"""


@pytest.mark.parametrize("removed", ["-wal,-shm", "-wal", "-shm"])
def test_removing_the_write_ahead_log_mid_class_refuses_writes_instead_of_losing_them(
    path, removed
) -> None:
    """Finding: deleting only survey.sqlite3-wal and -shm mid-class, 7 taps were still
    acknowledged, and after a restart the quiz and its 13 answers were gone. Every write now
    checks the files SQLite needs to keep it, and refuses ("missing") once one is gone:
    whatever the store acknowledged is still there after the server is killed and started
    again."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_CLASS, str(path), removed],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    quiz_id, acknowledged = map(int, done.stdout.split())
    again = survey.QuizStore(survey.SurveyStore(f"sqlite:///{path}"))
    assert again.get_quiz(quiz_id) is not None
    assert sum(again.counts(quiz_id)[0]) == acknowledged
    again.store.dispose()
