"""What every class activity shares in the database: a join code drawn until it is free, an
admin key kept only as a digest, one answer per browser taken by one atomic statement, and
`ActivityStore`, the base of every activity's store (finding a row by id or join code and
reading it into its record, the recent running count, the admin-key check, the browsers'
digests). A lecturer's press names the state it starts from (StaleState when it has left it):
see `Database.atomically` and each store's moves."""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Callable
from typing import Any, ClassVar

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    func,
    insert,
    literal,
    select,
)
from sqlalchemy.exc import IntegrityError

from . import security
from .database import Database, now_minute
from .tokens import Salts

JOIN_CODE_ATTEMPTS = 20


class SubmitResult(enum.Enum):
    """What happened to a submission."""

    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"  # this browser already answered: counted once
    CLOSED = "closed"
    UNKNOWN = "unknown"


class StaleState(RuntimeError):
    """A lecturer's press named the state it was made from, and the activity has left that
    state (another tab, or another lecturer, moved it first): nothing was changed."""


class AdminKeyError(PermissionError):
    """The admin key does not belong to this survey or quiz."""


# --- the columns every activity's answers have ---------------------------------------------------
def answer_id() -> Column:
    """An answer's id: 64-bit on PostgreSQL (a big room, many sessions), SQLite's rowid."""
    return Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True)


def belongs_to(parent: str, column: str, *, primary_key: bool = False) -> Column:
    """`column`, the id of its activity's row in table `parent`, deleted with it (indexed,
    or part of the primary key)."""
    owner = ForeignKey(f"{parent}.id", ondelete="CASCADE")
    if primary_key:
        return Column(column, Integer, owner, primary_key=True)
    return Column(column, Integer, owner, nullable=False, index=True)


def browser_digest() -> Column:
    """HMAC(salt, session token): how a browser is known in an activity's rows."""
    return Column("session_hash", String(64), nullable=False)


def minute(name: str) -> Column:
    """A time, to the minute (survey.database.now_minute)."""
    return Column(name, DateTime, nullable=False)


def code_columns() -> tuple[Column, ...]:
    """An activity's row's key and the join code its students type (unique)."""
    return (
        Column("id", Integer, primary_key=True),
        Column("join_code", String(16), nullable=False, unique=True),
    )


def secret_columns() -> tuple[Column, ...]:
    """An activity's row: the SHA-256 of its admin key (never the key), the salt of its
    browsers' digests, its creation minute, its lineage (filled by `new_row_secrets`)."""
    return (
        Column("admin_key_sha256", String(64), nullable=False),
        Column("session_salt", String(64), nullable=False),
        minute("created_at"),
        # The join code of the first activity of the chain this one was created from by a
        # lecturer running it (ui/activity.py, create_refused); NULL: it is its own first.
        # Added in schema 10 to rows made before, which are their own first.
        Column("lineage", String(16), nullable=True),
    )


def new_row_secrets(admin_key: str, lineage: str | None = None) -> dict:
    """The columns every activity's row keeps about its lecturer and its students: the
    SHA-256 of the admin key (never the key), a fresh salt, the creation minute, and the
    lineage it was created under (None: a first activity; else a join code, checked)."""
    if lineage is not None and security.normalize_join_code(lineage) != lineage:
        raise ValueError(f"lineage must be None or a join code, got {lineage!r}")
    return {
        "admin_key_sha256": security.admin_key_digest(admin_key),
        "session_salt": security.new_salt(),
        "created_at": now_minute(),
        "lineage": lineage,
    }


def lineage_of(db: Database, table: Table, row_id: int) -> str | None:
    """The lineage of row `row_id` of `table`: the join code of the first activity of the
    chain it belongs to (its own code when it was not created from another), or None when
    there is no such row. A lecturer's allowance to create past the limits that strangers
    meet is kept per lineage: an activity created from a running one does not bring an
    allowance of its own (else each new code opened the next five, without end)."""
    with db.reading() as conn:
        row = conn.execute(
            select(table.c.lineage, table.c.join_code).where(table.c.id == row_id)
        ).first()
    return None if row is None else (row.lineage or row.join_code)


def clean_text(name: str, value: object, limit: int, *, allow_empty: bool = False) -> str:
    """`value` with its whitespace collapsed: a string (TypeError), not empty unless allowed,
    at most `limit` characters (ValueError naming `name`)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    cleaned = re.sub(r"\s+", " ", value).strip()
    if not cleaned and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if len(cleaned) > limit:
        raise ValueError(f"{name} must be at most {limit} characters, got {len(cleaned):,}")
    return cleaned


def with_fresh_join_code(insert: Callable[[str], int]) -> int:
    """`insert(code)` with a new join code until one is free (a taken code raises
    IntegrityError); returns what insert returns (the new row's id)."""
    for _ in range(JOIN_CODE_ATTEMPTS):
        try:
            return insert(security.new_join_code())
        except IntegrityError:  # join code taken: draw another
            continue
    raise RuntimeError("could not find a free join code")


def admin_key_matches(db: Database, table: Table, row_id: int, admin_key: object) -> bool:
    """Whether `admin_key` is the key of row `row_id` of `table` (constant-time comparison
    with the stored digest)."""
    with db.reading() as conn:
        digest = conn.execute(select(table.c.admin_key_sha256).where(table.c.id == row_id)).scalar()
    return digest is not None and security.admin_key_matches(admin_key, digest)


def require_admin(db: Database, table: Table, row_id: int, admin_key: object, what: str) -> None:
    """AdminKeyError unless `admin_key` is the key of this `what` (survey, quiz)."""
    if not admin_key_matches(db, table, row_id, admin_key):
        raise AdminKeyError(f"wrong admin key for this {what}")


def answer_while(
    db: Database,
    answers: Table,
    values: dict[str, Any],
    digest: str | None,
    *,
    owner: Table,
    owner_id: int,
    taking: tuple,
) -> SubmitResult:
    """Insert one browser's answer (`values`, its digest, the minute) into `answers` only
    while row `owner_id` of its activity's table `owner` meets every condition in `taking`
    (open, on this question, unrevealed …): one INSERT … SELECT, so a lecturer's move and a
    phone's tap cannot interleave. Each value is typed as its column; the answer's link to
    its activity is the column named `<owner's noun>_id` (`answers`' foreign key)."""
    if digest is None:
        return SubmitResult.UNKNOWN
    (link,) = [c.name for c in answers.c if any(f.column.table is owner for f in c.foreign_keys)]
    row = {**values, "session_hash": digest, "submitted_at": now_minute()}
    statement = insert(answers).from_select(
        [link, *row],
        select(owner.c.id, *(literal(v, answers.c[k].type) for k, v in row.items())).where(
            owner.c.id == owner_id, *taking
        ),
    )
    return answer_once(db, statement)


def answer_once(db: Database, statement) -> SubmitResult:
    """Run an answer's INSERT … SELECT, which inserts only while the question takes answers:
    ACCEPTED when it inserted a row, CLOSED when it did not, DUPLICATE when this browser's
    row is there already (the unique constraint on the digest)."""
    try:
        inserted = db.write(statement)
    except IntegrityError:
        return SubmitResult.DUPLICATE
    return SubmitResult.ACCEPTED if inserted == 1 else SubmitResult.CLOSED


class ActivityStore:
    """The base of an activity's store (quizzes, heists, games), in a class store's database
    (`ClassStore`: its engine, tokens and limits). A subclass names its table, the columns
    its record is read from, how a row becomes the record (`_record`) and which rows are
    still running (`_running`, SQL); what every activity does with those is here, once."""

    table: ClassVar[Table]
    noun: ClassVar[str]  # "quiz", "heist", "game": its name in code, keys and messages
    display: ClassVar[str]  # what its page calls it: "class quiz"
    moves: ClassVar[str]  # what its lecturer does ("moving to the next question …")
    columns: ClassVar[tuple[str, ...]]  # read with the row's salt, in this order
    _kinds: ClassVar[list[type[ActivityStore]]] = []

    def __init_subclass__(cls, **kwargs):
        """Every store kind registers itself (imported by survey/__init__.py): what counts
        against the storage bound, and what the pages name, is the list of kinds."""
        super().__init_subclass__(**kwargs)
        ActivityStore._kinds.append(cls)

    @classmethod
    def kinds(cls) -> tuple[type[ActivityStore], ...]:
        """Every activity store kind (QuizStore, HeistStore, GameStore, …)."""
        return tuple(cls._kinds)

    def __init__(self, store):
        self.store = store
        self.db: Database = store.db
        self._salts = Salts(self.db, self.table)

    @property
    def read_only(self) -> bool:
        return self.db.read_only

    # -- what a subclass defines ------------------------------------------------------------
    def _record(self, row, conn) -> Any:
        """The activity's record from `row` (its `columns`), read in `conn`."""
        raise NotImplementedError

    def _running(self):
        """The SQL condition of a row that is still running (counted by recent_open)."""
        raise NotImplementedError

    # -- reading ----------------------------------------------------------------------------
    def _where(self, condition) -> Any:
        t = self.table
        with self.db.reading() as conn:
            row = conn.execute(
                select(*(t.c[name] for name in self.columns), t.c.session_salt).where(condition)
            ).first()
            if row is None:
                return None
            self._salts.remember(int(row.id), row.session_salt)
            return self._record(row, conn)

    def get(self, row_id: int) -> Any:
        """The activity with this id, or None (also for an id that is not an int)."""
        if isinstance(row_id, bool) or not isinstance(row_id, int):
            return None
        return self._where(self.table.c.id == row_id)

    def find(self, code: str) -> Any:
        """The activity with this join code (typed in any case, spaces allowed), or None."""
        code = security.normalize_join_code(code)
        return None if code is None else self._where(self.table.c.join_code == code)

    def recent_open(self, hours: float) -> int:
        """How many were created in the last `hours` hours and are still running: counted
        together against the storage anonymous creations may use (ui/activity.py)."""
        since = now_minute() - dt.timedelta(hours=hours)
        t = self.table
        with self.db.reading() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(t.c.created_at >= since, self._running())
                ).scalar_one()
            )

    # -- the lecturer and the browsers ------------------------------------------------------
    def lineage(self, row_id: int) -> str | None:
        """The join code of the first activity of this one's chain (`lineage_of`)."""
        return lineage_of(self.db, self.table, row_id)

    def check_admin_key(self, row_id: int, admin_key: object) -> bool:
        """Whether `admin_key` is this activity's key (constant-time comparison)."""
        return admin_key_matches(self.db, self.table, row_id, admin_key)

    def require_admin(self, row_id: int, admin_key: object) -> None:
        """AdminKeyError unless `admin_key` is this activity's key."""
        require_admin(self.db, self.table, row_id, admin_key, self.noun)

    def digest(self, row_id: int, session_token: str) -> str | None:
        """HMAC(the activity's salt, token): how a browser is known in its rows."""
        return self._salts.digest(row_id, session_token)

    def own_by_position(
        self, answers: Table, row_id: int, session_token: str, value: str
    ) -> dict[int, Any]:
        """Position → this browser's `value` column in `answers` (a table of one row per
        browser and position, keyed `<noun>_id`), for every position it answered."""
        digest = self.digest(row_id, session_token)
        if digest is None:
            return {}
        with self.db.reading() as conn:
            rows = conn.execute(
                select(answers.c.position, answers.c[value]).where(
                    answers.c[f"{self.noun}_id"] == row_id, answers.c.session_hash == digest
                )
            ).all()
        return {int(position): found for position, found in rows}
