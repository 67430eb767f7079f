"""Storage for the progress check-in (schema 8): how far the class has got, told with local
differential privacy.

What is stored, and why nothing more:
- a check-in: its join code, the lessons it asks about (their folder names, in teaching
  order), the ε each student's report spends, whether it still takes reports, the SHA-256 of
  its admin key (never the key), a salt, the creation minute;
- a report: the check-in, the randomized bits a phone sent (one "0"/"1" per lesson, drawn in
  the browser: lessons/class_checkin/model.py), the minute and HMAC(salt, session token). One
  per browser (a unique constraint), taken only while the check-in is open.

A student's true progress is never sent, so it cannot be stored: the row holds what the
phone drew, which is what the projector's estimates are computed from.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    String,
    Table,
    UniqueConstraint,
    case,
    func,
    insert,
    select,
    update,
)

from . import activity, security
from .activity import StaleState, SubmitResult
from .database import metadata
from .tokens import check_session_token

MAX_LESSONS = 40
MIN_EPSILON, MAX_EPSILON = 0.1, 20.0
FOLDER = re.compile(r"[a-z0-9_]{1,60}")

checkins_table = Table(
    "checkin_checkins",
    metadata,
    *activity.code_columns(),
    Column("lessons", String(MAX_LESSONS * 61), nullable=False),  # folders, comma-separated
    Column("epsilon", Float, nullable=False),
    Column("is_open", Boolean, nullable=False),
    *activity.secret_columns(),
)
checkin_reports_table = Table(
    "checkin_reports",
    metadata,
    activity.answer_id(),
    activity.belongs_to("checkin_checkins", "checkin_id"),
    Column("bits", String(MAX_LESSONS), nullable=False),  # the randomized report, "0"/"1"
    activity.browser_digest(),
    activity.minute("submitted_at"),
    UniqueConstraint("checkin_id", "session_hash", name="one_report_per_browser"),
)


@dataclass(frozen=True)
class Checkin:
    id: int
    code: str
    lessons: tuple[str, ...]
    epsilon: float
    is_open: bool
    title: str = "Progress check-in"  # a check-in has no free text: nothing to clean


@dataclass(frozen=True)
class NewCheckin:
    checkin: Checkin
    admin_key: str = field(repr=False)


@dataclass(frozen=True)
class Reports:
    """What the reports add up to: how many there are, and per lesson how many sent a 1."""

    n: int
    ones: tuple[int, ...]


def check_lessons(lessons: object) -> tuple[str, ...]:
    """1..MAX_LESSONS distinct folder names (lower-case letters, digits and "_")."""
    if isinstance(lessons, str) or not isinstance(lessons, (list, tuple)):
        raise TypeError("lessons must be a list of lesson folder names")
    if not 1 <= len(lessons) <= MAX_LESSONS:
        raise ValueError(f"lessons must hold 1 to {MAX_LESSONS} lessons, got {len(lessons)}")
    for folder in lessons:
        if not isinstance(folder, str) or not FOLDER.fullmatch(folder):
            raise ValueError(f"lessons must be folder names, not {folder!r}")
    if len(set(lessons)) != len(lessons):
        raise ValueError("lessons must not repeat a lesson")
    return tuple(lessons)


def check_epsilon(epsilon: object) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
        raise TypeError(f"epsilon must be a number, got {type(epsilon).__name__}")
    epsilon = float(epsilon)
    if not (math.isfinite(epsilon) and MIN_EPSILON <= epsilon <= MAX_EPSILON):
        raise ValueError(f"epsilon must be in [{MIN_EPSILON}, {MAX_EPSILON}], got {epsilon}")
    return epsilon


def check_bits(bits: object) -> str:
    """A report: 1 to MAX_LESSONS characters, each "0" or "1" (TypeError, ValueError
    otherwise). Its length against its check-in's lessons is the store's to check."""
    if not isinstance(bits, str):
        raise TypeError(f"bits must be a string of 0s and 1s, got {type(bits).__name__}")
    if set(bits) - {"0", "1"}:
        raise ValueError("bits must be 0s and 1s")
    if not 1 <= len(bits) <= MAX_LESSONS:
        raise ValueError(f"bits must be 1 to {MAX_LESSONS} characters")
    return bits


class CheckinStore(activity.ActivityStore):
    table = checkins_table
    noun = "checkin"
    display = "progress check-in"
    moves = "closing the check-in"
    columns = ("id", "join_code", "lessons", "epsilon", "is_open")

    def _record(self, row, conn) -> Checkin:
        lessons = tuple(row.lessons.split(","))
        return Checkin(int(row.id), row.join_code, lessons, float(row.epsilon), bool(row.is_open))

    def _running(self):
        return checkins_table.c.is_open.is_(True)

    def create(self, lessons: object, epsilon: object, *, lineage: str | None = None) -> NewCheckin:
        """A new open check-in about `lessons` at ε per report, with a fresh join code and
        admin key (`lineage`: as for every activity, `activity.lineage_of`)."""
        lessons = check_lessons(lessons)
        epsilon = check_epsilon(epsilon)
        admin_key = security.new_admin_key()
        values = {
            "lessons": ",".join(lessons),
            "epsilon": epsilon,
            "is_open": True,
            **activity.new_row_secrets(admin_key, lineage),
        }
        checkin_id = activity.with_fresh_join_code(
            lambda code: self.db.write(
                insert(checkins_table).values(join_code=code, **values), primary_key=True
            )
        )
        return NewCheckin(self.get(checkin_id), admin_key)

    def submit(self, checkin_id: int, session_token: str, bits: object) -> SubmitResult:
        """This browser's randomized report: once per browser (later: DUPLICATE), only while
        the check-in is open (else CLOSED), one atomic INSERT … SELECT. The report's length
        is checked against the check-in's lessons in the same statement."""
        check_session_token(session_token)
        check_bits(bits)
        t = checkins_table
        # k lessons are k names and k - 1 commas: the report fits only its own check-in
        lessons_for_k = func.length(t.c.lessons) - func.length(func.replace(t.c.lessons, ",", ""))
        return activity.answer_while(
            self.db,
            checkin_reports_table,
            {"bits": bits},
            self.digest(checkin_id, session_token),
            owner=t,
            owner_id=checkin_id,
            taking=(t.c.is_open.is_(True), lessons_for_k == len(bits) - 1),
        )

    def sent(self, checkin_id: int, session_token: str) -> str | None:
        """The report this browser sent to this check-in, if any."""
        digest = self.digest(checkin_id, session_token)
        if digest is None:
            return None
        r = checkin_reports_table
        with self.db.reading() as conn:
            return conn.execute(
                select(r.c.bits).where(r.c.checkin_id == checkin_id, r.c.session_hash == digest)
            ).scalar()

    def close(self, checkin_id: int, admin_key: str) -> None:
        """From the open state only: a second tab's Close changes nothing (StaleState)."""
        self.require_admin(checkin_id, admin_key)
        t = checkins_table
        closed = self.db.write(
            update(t).where(t.c.id == checkin_id, t.c.is_open.is_(True)).values(is_open=False)
        )
        if closed != 1:
            raise StaleState("the check-in was closed meanwhile: this press changed nothing")

    def reports(self, checkin_id: int, k: int) -> Reports:
        """How many reports, and per lesson how many of them sent a 1 (one SQL query, its
        cost the same for 30 reports or 3,000)."""
        r = checkin_reports_table
        ones = [
            func.coalesce(func.sum(case((func.substr(r.c.bits, i + 1, 1) == "1", 1), else_=0)), 0)
            for i in range(k)
        ]
        with self.db.reading() as conn:
            row = conn.execute(
                select(func.count(), *ones).where(r.c.checkin_id == checkin_id)
            ).one()
        return Reports(int(row[0]), tuple(int(v) for v in row[1:]))
