"""An activity's lineage (survey/activity.py, `lineage_of`): the code of the first activity of
the chain it was created from, which keys a running lecturer's allowance to create past the
limits strangers meet (ui/activity.py, create_refused). Stored by every kind's create, read
back, checked; and added to the rows of a database an older app made (schema 10, the first
version to add a column), by eight replicas opening it at once, on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from urllib.parse import quote

import pytest
from concurrency_helpers import at_once
from sqlalchemy import create_engine, delete, insert, inspect, text

import survey
from survey.activity import lineage_of
from survey.database import SCHEMA_VERSION, schema_table
from survey.surveys import surveys_table

QUESTION = survey.QuizQuestion("Q?", ("a", "b"), 0, "")


@pytest.fixture
def store(db_url):
    s = survey.SurveyStore(db_url)
    yield s
    s.dispose()


def makers(store: survey.SurveyStore) -> dict:
    """Each kind's create, taking `lineage=`: (its store, a function making one)."""
    quizzes, heists = survey.QuizStore(store), survey.HeistStore(store)
    games, checkins = survey.GameStore(store), survey.CheckinStore(store)
    return {
        "survey": (store, lambda **k: store.create_survey("Q?", survey.two_coins(), **k).survey),
        "quiz": (quizzes, lambda **k: quizzes.create_quiz("Q", [QUESTION], **k).quiz),
        "heist": (heists, lambda **k: heists.create_heist("H", "Row", 5, "Month", 12, **k).heist),
        "game": (games, lambda **k: games.create_game("G", 1.0, 10, **k).game),
        "checkin": (checkins, lambda **k: checkins.create(["laplace"], 4.0, **k).checkin),
    }


@pytest.mark.parametrize("kind", ["survey", "quiz", "heist", "game", "checkin"])
def test_a_chain_of_activities_keeps_its_first_ones_code(store, kind) -> None:
    kind_store, make = makers(store)[kind]
    first = make()
    assert kind_store.lineage(first.id) == first.code  # its own first
    second = make(lineage=kind_store.lineage(first.id))
    third = make(lineage=kind_store.lineage(second.id))
    assert kind_store.lineage(second.id) == kind_store.lineage(third.id) == first.code
    assert len({first.code, second.code, third.code}) == 3
    other = make()  # a stranger's: a lineage of its own
    assert kind_store.lineage(other.id) == other.code
    assert kind_store.lineage(10**9) is None


@pytest.mark.parametrize("bad", ["", "not a code", "ABC", "O0O0O0", 123456, b"ABCDEF"])
def test_a_lineage_that_is_not_a_join_code_is_refused(store, bad) -> None:
    for kind, (_kind_store, make) in makers(store).items():
        with pytest.raises(ValueError, match="lineage must be None or a join code"):
            make(lineage=bad)
        assert kind  # every kind refuses it


def _pg_schema_url(name: str) -> str:
    """The test server's URL with its search path set to schema `name` (one test's own
    tables: the shared test database's are in use by the other tests)."""
    from conftest import PG_URL

    return f"{PG_URL}?options={quote(f'-csearch_path={name}')}"


@pytest.fixture(params=["sqlite", "postgresql"])
def older_url(request, tmp_path):
    """A database for the upgrade test: a fresh SQLite file, or a fresh schema of the
    PostgreSQL test server (dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    from conftest import PG_URL

    if not PG_URL:
        pytest.skip("PostgreSQL tests need SURVEY_TEST_PG_URL (ci/postgres.sh)")
    name = f"upgrade_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{name}"'))
    try:
        yield _pg_schema_url(name)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


ACTIVITY_TABLES = ("survey_surveys", "quiz_quizzes", "heist_heists", "game_games")


def test_a_version_9_database_gains_the_lineage_at_once_from_eight_replicas(older_url) -> None:
    """A file (or schema) made by version 9 has no `lineage` column: eight replicas opening it
    at once each start, the column is added once to every activity's table, and the rows
    made before read as their own first activity (a new one can be created from them)."""
    old = survey.SurveyStore(older_url)
    made = old.create_survey("Q?", survey.two_coins())
    quiz = survey.QuizStore(old).create_quiz("Q", [QUESTION])
    with old.engine.begin() as conn:
        for table in (*ACTIVITY_TABLES, "checkin_checkins"):
            conn.execute(text(f'ALTER TABLE "{table}" DROP COLUMN lineage'))
        conn.execute(delete(schema_table))
        conn.execute(insert(schema_table).values(version=9))
    old.dispose()

    def open_replica():
        replica = survey.SurveyStore(older_url)
        try:
            return replica.schema_version()
        finally:
            replica.dispose()

    assert at_once(8, open_replica) == [SCHEMA_VERSION] * 8
    store = survey.SurveyStore(older_url)
    try:
        with store.engine.connect() as conn:
            found = inspect(conn)
            for table in (*ACTIVITY_TABLES, "checkin_checkins"):
                names = [column["name"] for column in found.get_columns(table)]
                assert names.count("lineage") == 1, (table, names)
        assert store.lineage(made.survey.id) == made.survey.code
        assert lineage_of(store.db, surveys_table, made.survey.id) == made.survey.code
        quizzes = survey.QuizStore(store)
        assert quizzes.lineage(quiz.quiz.id) == quiz.quiz.code
        child = quizzes.create_quiz("Q2", [QUESTION], lineage=quizzes.lineage(quiz.quiz.id))
        assert quizzes.lineage(child.quiz.id) == quiz.quiz.code
        assert store.counts(made.survey.id) == survey.Counts(0, 0)
    finally:
        store.dispose()
