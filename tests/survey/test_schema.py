"""What the class database can hold, column by column. Each table and column is listed here
with why it is there, so that a column added to any store (an IP address, a user agent, a
true answer, a name beside a nickname) fails this test until it is reviewed and listed, and
the lecturer's guide's "What is stored" paragraphs stay true. Checked against the schema the
stores declare and against a real database they create (SQLite always, PostgreSQL when
SURVEY_TEST_PG_URL is set)."""

from __future__ import annotations

from sqlalchemy import inspect

import survey
from survey.database import metadata

# Every activity's own row: its key, the code students type, its settings, the digest of the
# admin key (never the key), the salt of its browser digests, the minute it was made, and
# its lineage (the join code of the first activity a lecturer's chain of creations began
# with, which keys the lecturer's allowance to create; NULL for a first one).
ACTIVITY_ROW = ("id", "join_code", "admin_key_sha256", "session_salt", "created_at", "lineage")
STORED: dict[str, set[str]] = {
    # the class survey: the question and its protocol; one randomized bit per browser, the
    # devices that opened the page, the resets a lecturer's press names
    "survey_surveys": {*ACTIVITY_ROW, "question", "protocol", "p", "q", "is_open"},
    "survey_responses": {"id", "survey_id", "reported_yes", "session_hash", "submitted_at"},
    "survey_joins": {"survey_id", "session_hash", "joined_at"},
    "survey_resets": {"survey_id", "number", "reset_at"},
    # the store's own: its schema version, the token key, the rate limits' hashed counters
    "survey_schema": {"version"},
    "survey_secrets": {"name", "value"},
    "survey_limits": {"bucket", "window_index", "events", "expires_at"},
    # the class quiz: questions, one option per browser and question, optional nicknames
    "quiz_quizzes": {
        *ACTIVITY_ROW,
        *("title", "epsilon", "position", "revealed", "deadline", "countdown_s"),
    },
    "quiz_questions": {"quiz_id", "position", "prompt", "options", "correct", "explanation"},
    "quiz_answers": {"id", "quiz_id", "position", "option", "session_hash", "submitted_at"},
    "quiz_players": {"quiz_id", "session_hash", "nickname", "named_at"},
    # the class heist: made-up answers, the target's browser digest, the agency's ledger
    "heist_heists": {
        *ACTIVITY_ROW,
        *("title", "a_name", "a_max", "b_name", "b_max", "min_group", "epsilon", "budget"),
        *("closed", "target_hash"),
    },
    "heist_answers": {
        *("id", "heist_id", "secret", "a", "b", "volunteer", "session_hash", "submitted_at"),
    },
    "heist_queries": {
        *("id", "heist_id", "kind", "who", "a", "b", "epsilon", "repeats", "total", "cost"),
        *("refused", "asked_at"),
    },
    # the ε guessing game: each round's coin and release, one guess per browser and round
    "game_games": {
        *ACTIVITY_ROW,
        *("title", "epsilon", "rounds", "position", "revealed", "base_count"),
    },
    "game_rounds": {"game_id", "position", "with_record", "release"},
    "game_guesses": {"id", "game_id", "position", "guess", "session_hash", "submitted_at"},
    "game_players": {"game_id", "session_hash", "nickname", "named_at"},
    # the progress check-in: the lessons asked about, one randomized report per browser
    "checkin_checkins": {*ACTIVITY_ROW, "lessons", "epsilon", "is_open"},
    "checkin_reports": {"id", "checkin_id", "bits", "session_hash", "submitted_at"},
}


def test_every_column_the_stores_declare_is_listed() -> None:
    declared = {
        table.name: {column.name for column in table.columns} for table in metadata.sorted_tables
    }
    assert declared == STORED


def test_a_database_the_stores_create_holds_exactly_those_columns(db_url) -> None:
    store = survey.SurveyStore(db_url)
    try:
        found = inspect(store.engine)
        created = {
            name: {column["name"] for column in found.get_columns(name)}
            for name in found.get_table_names()
            if name in STORED
        }
        others = set(found.get_table_names()) - set(STORED)
    finally:
        store.dispose()
    assert created == STORED
    if db_url.startswith("sqlite"):  # a fresh file (PostgreSQL is shared with other tests)
        assert others == set()
