"""Live class surveys: a yes/no question answered with randomized response, in the class
database (survey/database.py). `SurveyStore` is the class store: it opens the database and
serves the surveys; its `tokens` (survey/tokens.py) and `limits` (survey/limits.py) serve
both activities, and `QuizStore` (survey/quiz.py) keeps quizzes in the same database.

What is stored for a survey, and why nothing more:
- a survey: its join code, question, protocol (p, q), open/closed, creation time, the
  SHA-256 digest of its admin key (never the key) and a random salt;
- a response: the survey, the *reported* (already randomized) bit, the time rounded down
  to the minute, and HMAC(salt, session token). No IP, name, user agent or true answer.
  The digest is what makes a submission idempotent across app replicas: a unique
  constraint on (survey, digest) turns a double tap into a no-op. The session token
  itself never reaches the database;
- a join: a browser that opened the survey's student page, as the same digest.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from dataclasses import dataclass, field

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    String,
    Table,
    UniqueConstraint,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from . import activity, security
from .activity import StaleState, SubmitResult
from .database import metadata, now_minute
from .protocols import Protocol, protocol_for
from .store import ClassStore
from .tokens import Salts, check_session_token

MAX_QUESTION_CHARS = 200

surveys_table = Table(
    "survey_surveys",
    metadata,
    *activity.code_columns(),
    Column("question", String(MAX_QUESTION_CHARS), nullable=False),
    Column("protocol", String(16), nullable=False),
    Column("p", Float, nullable=False),
    Column("q", Float, nullable=False),
    Column("is_open", Boolean, nullable=False),
    *activity.secret_columns(),
)

responses_table = Table(
    "survey_responses",
    metadata,
    activity.answer_id(),
    activity.belongs_to("survey_surveys", "survey_id"),
    Column("reported_yes", Boolean, nullable=False),
    activity.browser_digest(),
    activity.minute("submitted_at"),
    UniqueConstraint("survey_id", "session_hash", name="one_response_per_session"),
)

# One row a reset: its number (1, 2, …) and when. A reset names the number of resets the
# lecturer's screen showed, so a second tab's late press cannot delete the answers given
# since another tab's reset (SurveyStore.reset).
resets_table = Table(
    "survey_resets",
    metadata,
    activity.belongs_to("survey_surveys", "survey_id", primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    activity.minute("reset_at"),
)

joins_table = Table(
    "survey_joins",
    metadata,
    activity.belongs_to("survey_surveys", "survey_id"),
    activity.browser_digest(),
    activity.minute("joined_at"),
    UniqueConstraint("survey_id", "session_hash", name="one_join_per_session"),
)


@dataclass(frozen=True)
class Survey:
    """A survey as anyone may see it (no admin key digest, no salt)."""

    id: int
    code: str
    question: str
    protocol: Protocol
    is_open: bool
    created_at: dt.datetime
    resets: int = 0  # how many times its answers were deleted (what a reset names)


@dataclass(frozen=True)
class NewSurvey:
    """A freshly created survey and its admin key (shown once, to the lecturer only)."""

    survey: Survey
    admin_key: str = field(repr=False)


@dataclass(frozen=True)
class Counts:
    """Number of responses and of reported "yes"."""

    responses: int
    yes: int


@dataclass(frozen=True)
class Response:
    """One randomized response, as exported: its order, the reported bit, the minute."""

    number: int
    reported_yes: bool
    submitted_at: dt.datetime


def clean_question(text: object) -> str:
    """The question as stored: whitespace collapsed, 1..200 characters (ValueError else).

    It is always rendered as plain text, so no escaping happens here."""
    if not isinstance(text, str):
        raise TypeError(f"question must be a string, got {type(text).__name__}")
    cleaned = re.sub(r"\s+", " ", text).strip()
    if not cleaned:
        raise ValueError("question must not be empty")
    if len(cleaned) > MAX_QUESTION_CHARS:
        raise ValueError(
            f"question must be at most {MAX_QUESTION_CHARS} characters, got {len(cleaned)}"
        )
    return cleaned


def _check_bit(reported_bit: object) -> bool:
    if isinstance(reported_bit, bool):
        return reported_bit
    if isinstance(reported_bit, int) and reported_bit in (0, 1):
        return bool(reported_bit)
    raise ValueError(f"reported_bit must be 0, 1, True or False, got {reported_bit!r}")


_PUBLIC_COLUMNS = (
    *(
        surveys_table.c[name]
        for name in ("id", "join_code", "question", "protocol", "p", "q", "is_open", "created_at")
    ),
    select(func.count())
    .where(resets_table.c.survey_id == surveys_table.c.id)
    .scalar_subquery()
    .label("resets"),
)


def _survey_from_row(row) -> Survey:
    return Survey(
        id=int(row.id),
        code=row.join_code,
        question=row.question,
        protocol=protocol_for(row.protocol, row.p, row.q),
        is_open=bool(row.is_open),
        created_at=row.created_at,
        resets=int(row.resets),
    )


class SurveyStore(ClassStore):
    """The class store on the database at `url` (`ClassStore`: its engine, tokens and
    limits), with the class surveys and their randomized responses. The other activities'
    stores take it as their class store: `QuizStore(store)`, `HeistStore(store)`,
    `GameStore(store)`."""

    def __init__(self, url: str, *, pool_size: int = 10):
        super().__init__(url, pool_size=pool_size)
        self._salts = Salts(self.db, surveys_table)

    # -- surveys ------------------------------------------------------------------------
    def recent_open_surveys(self, hours: float) -> int:
        """How many surveys are open and were created in the last `hours` hours: what bounds
        the storage anonymous creations may use (see the page's creation limit)."""
        since = now_minute() - dt.timedelta(hours=hours)
        t = surveys_table
        with self.db.reading() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(t.c.is_open.is_(True), t.c.created_at >= since)
                ).scalar_one()
            )

    def create_survey(
        self, question: str, protocol: Protocol, *, lineage: str | None = None
    ) -> NewSurvey:
        """A new open survey with a fresh join code and admin key; `lineage`: the chain of a
        running survey it is created from (`activity.lineage_of`), None for a first one."""
        question = clean_question(question)
        # Re-derive from the stored fields (key, p, q): validates them, and works even if
        # the caller's Protocol class comes from a reloaded module.
        protocol = protocol_for(protocol.key, protocol.p, protocol.q)
        admin_key = security.new_admin_key()
        row = {"question": question, "protocol": protocol.key, "p": protocol.p, "q": protocol.q}
        survey_id = activity.with_fresh_join_code(
            lambda code: self.db.write(
                insert(surveys_table).values(
                    join_code=code,
                    is_open=True,
                    **row,
                    **activity.new_row_secrets(admin_key, lineage),
                ),
                primary_key=True,
            )
        )
        survey = self.get_by_id(survey_id)
        assert survey is not None
        return NewSurvey(survey, admin_key)

    def _survey_where(self, condition) -> Survey | None:
        with self.db.reading() as conn:
            row = conn.execute(select(*_PUBLIC_COLUMNS).where(condition)).first()
        return None if row is None else _survey_from_row(row)

    def get_by_code(self, code: str) -> Survey | None:
        """The survey with this join code (typed in any case, spaces allowed), or None."""
        code = security.normalize_join_code(code)
        return None if code is None else self._survey_where(surveys_table.c.join_code == code)

    def find(self, code: str) -> Survey | None:
        """The survey with this join code, or None (what ui/activity.py looks up)."""
        return self.get_by_code(code)

    def get_by_id(self, survey_id: int) -> Survey | None:
        """The survey with this id, or None."""
        return self._survey_where(surveys_table.c.id == int(survey_id))

    # -- admin --------------------------------------------------------------------------
    def lineage(self, survey_id: int) -> str | None:
        """The join code of the first survey of this one's chain (`activity.lineage_of`)."""
        return activity.lineage_of(self.db, surveys_table, survey_id)

    def check_admin_key(self, survey_id: int, admin_key: object) -> bool:
        """Whether `admin_key` is this survey's key (constant-time comparison)."""
        return activity.admin_key_matches(self.db, surveys_table, survey_id, admin_key)

    def close(self, survey_id: int, admin_key: str) -> None:
        """Stop accepting responses (AdminKeyError if the key is wrong)."""
        self._set_open(survey_id, admin_key, False)

    def reopen(self, survey_id: int, admin_key: str) -> None:
        """Accept responses again (AdminKeyError if the key is wrong)."""
        self._set_open(survey_id, admin_key, True)

    def _set_open(self, survey_id: int, admin_key: str, is_open: bool) -> None:
        activity.require_admin(self.db, surveys_table, survey_id, admin_key, "survey")
        self.db.write(
            update(surveys_table).where(surveys_table.c.id == survey_id).values(is_open=is_open)
        )

    def reset(self, survey_id: int, admin_key: str, *, since: int | None = None) -> None:
        """Delete every answer of the survey, so everyone may answer again (AdminKeyError
        if the key is wrong). The survey keeps its code and its open/closed state.

        `since`: how many resets the press was made after (`Survey.resets`, as the
        lecturer's screen showed it). The reset is one transaction on the survey's locked
        row that counts the resets, refuses with StaleState (nothing deleted) when another
        tab has reset since, then records this one and deletes the answers: a late press
        in a second tab cannot delete what the room answered after the first tab's reset.
        None: from whatever is stored (scripts and tests)."""
        activity.require_admin(self.db, surveys_table, survey_id, admin_key, "survey")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int)):
            raise TypeError("since must be an int (the resets the press was made after)")
        r = resets_table

        def body(conn) -> None:
            done = conn.execute(select(func.count()).where(r.c.survey_id == survey_id)).scalar_one()
            if since is not None and done != since:
                raise StaleState("the survey was reset meanwhile: this press changed nothing")
            conn.execute(
                insert(r).values(survey_id=survey_id, number=done + 1, reset_at=now_minute())
            )
            conn.execute(responses_table.delete().where(responses_table.c.survey_id == survey_id))

        self.db.atomically(surveys_table, survey_id, body)

    # -- responses ----------------------------------------------------------------------
    def submit(self, survey_id: int, session_token: str, reported_bit: object) -> SubmitResult:
        """Record one randomized answer. Idempotent per (survey, session): only the first
        submission of a session counts; later ones return DUPLICATE and change nothing.
        Closed and unknown surveys are rejected (CLOSED, UNKNOWN)."""
        reported = _check_bit(reported_bit)
        check_session_token(session_token)
        if isinstance(survey_id, bool) or not isinstance(survey_id, int):
            return SubmitResult.UNKNOWN
        return activity.answer_while(
            self.db,
            responses_table,
            {"reported_yes": reported},
            self._salts.digest(survey_id, session_token),
            owner=surveys_table,
            owner_id=survey_id,
            taking=(surveys_table.c.is_open.is_(True),),
        )

    def has_answered(self, survey_id: int, session_token: str) -> bool:
        """Whether this session's answer is in the survey (False again after a reset)."""
        digest = self._salts.digest(survey_id, session_token)
        if digest is None:
            return False
        t = responses_table
        with self.db.reading() as conn:
            found = conn.execute(
                select(t.c.id).where(t.c.survey_id == survey_id, t.c.session_hash == digest)
            ).first()
        return found is not None

    def record_join(self, survey_id: int, session_token: str) -> None:
        """Count one browser session as joined to the survey (idempotent per session; an
        unknown survey is ignored). Only the session's HMAC digest is stored."""
        check_session_token(session_token)
        digest = self._salts.digest(survey_id, session_token)
        if digest is None:
            return
        statement = insert(joins_table).values(
            survey_id=survey_id, session_hash=digest, joined_at=now_minute()
        )
        with contextlib.suppress(IntegrityError):
            self.db.write(statement)

    def joined(self, survey_id: int) -> int:
        """How many browser sessions have opened the survey's student page."""
        with self.db.reading() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(joins_table.c.survey_id == survey_id)
                ).scalar_one()
            )

    def counts(self, survey_id: int) -> Counts:
        """How many responses, and how many reported "yes"."""
        t = responses_table
        yes = func.count(t.c.id).filter(t.c.reported_yes.is_(True))
        with self.db.reading() as conn:
            total, n_yes = conn.execute(
                select(func.count(t.c.id), yes).where(t.c.survey_id == survey_id)
            ).one()
        return Counts(int(total), int(n_yes))

    def responses(self, survey_id: int) -> list[Response]:
        """The randomized responses in arrival order (no session digest: export-safe)."""
        t = responses_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(t.c.reported_yes, t.c.submitted_at)
                .where(t.c.survey_id == survey_id)
                .order_by(t.c.id)
            ).all()
        return [Response(i, bool(r.reported_yes), r.submitted_at) for i, r in enumerate(rows, 1)]
