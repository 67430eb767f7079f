"""Storage for live class surveys, through SQLAlchemy: SQLite by default, PostgreSQL (or
any SQLAlchemy URL) for a self-hosted deployment with several app replicas.

What is stored, and why nothing more:
- a survey: its join code, question, protocol (p, q), open/closed, creation time, the
  SHA-256 digest of its admin key (never the key) and a random salt;
- a response: the survey, the *reported* (already randomized) bit, the time rounded down
  to the minute, and HMAC(salt, session token). No IP, name, user agent or true answer.
  The digest is what makes a submission idempotent across app replicas: a unique
  constraint on (survey, digest) turns a double tap into a no-op. The session token
  itself never reaches the database.

Tables are created on first use, and `survey_schema` records the schema version.
`survey_secrets` holds the key that signs students' tokens (schema 3), so every replica of
the app that shares the database accepts the tokens any of them issued. `survey_limits`
(schema 4) holds the rate limits' counters, so a limit is the same whatever replica a
request reaches (in process memory it multiplied by the number of replicas).

A database that exists but cannot be written (a read-only mount, a file without write
permission) is opened read-only: results can be read and shown, every write raises
StorageError("read_only"). A database URL that cannot be parsed or has no driver raises
StorageError("unreachable"); the detail, with any password masked, goes to the server log.

Faults: any database error leaves this module as `StorageError`, whose `reason` (busy,
damaged, read-only, full, unreachable, failed) a page can explain in words; the error's own
text, which may quote SQL, goes to the server log only. A write that finds SQLite locked by
another process retries for at most `BUSY_DEADLINE_S` seconds, then raises
StorageError("busy"), so a student hears "tap again" instead of waiting for minutes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import hashlib
import logging
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import StaticPool

from . import security
from .protocols import Protocol, protocol_for

# 2: survey_joins (devices that opened the student page); 3: survey_secrets; 4: survey_limits;
# 5: the class quiz's quiz_quizzes, quiz_questions, quiz_answers (survey/quiz.py);
# 6: quiz_players (a browser's optional nickname in a quiz)
SCHEMA_VERSION = 6
MAX_QUESTION_CHARS = 200
JOIN_CODE_ATTEMPTS = 20
# SQLite "database is locked": each statement waits up to BUSY_TIMEOUT_MS for the lock, a
# write is retried until BUSY_DEADLINE_S have passed, then the caller hears "busy".
BUSY_TIMEOUT_MS = 1000
BUSY_DEADLINE_S = 3.0

_LOG = logging.getLogger(__name__)

metadata = MetaData()

schema_table = Table(
    "survey_schema",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
)

surveys_table = Table(
    "survey_surveys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("join_code", String(16), nullable=False, unique=True),
    Column("question", String(MAX_QUESTION_CHARS), nullable=False),
    Column("protocol", String(16), nullable=False),
    Column("p", Float, nullable=False),
    Column("q", Float, nullable=False),
    Column("is_open", Boolean, nullable=False),
    Column("admin_key_sha256", String(64), nullable=False),
    Column("session_salt", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False),
)

responses_table = Table(
    "survey_responses",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column(
        "survey_id",
        Integer,
        ForeignKey("survey_surveys.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("reported_yes", Boolean, nullable=False),
    Column("session_hash", String(64), nullable=False),
    Column("submitted_at", DateTime, nullable=False),
    UniqueConstraint("survey_id", "session_hash", name="one_response_per_session"),
)


joins_table = Table(
    "survey_joins",
    metadata,
    Column(
        "survey_id",
        Integer,
        ForeignKey("survey_surveys.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("session_hash", String(64), nullable=False),
    Column("joined_at", DateTime, nullable=False),
    UniqueConstraint("survey_id", "session_hash", name="one_join_per_session"),
)


secrets_table = Table(
    "survey_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)
TOKEN_KEY_NAME = "student_token_key"

# One counter per (limit bucket, time window). The bucket is SHA-256 of the limit's name and
# key (a key can be a student token or an address: neither is stored as such).
limits_table = Table(
    "survey_limits",
    metadata,
    Column("bucket", String(64), primary_key=True),
    Column("window_index", BigInteger, primary_key=True, autoincrement=False),
    Column("events", Integer, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)
PRUNE_EVERY_S = 60.0


def limit_clock() -> float:
    """Seconds since the epoch, the clock of the rate limits (shared by all replicas, so a
    wall clock; tests freeze it)."""
    return time.time()


def _bucket(name: str, key: str) -> str:
    return hashlib.sha256(f"{name}\0{key}".encode()).hexdigest()


class SubmitResult(enum.Enum):
    """What happened to a submission."""

    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"  # this browser session already answered: counted once
    CLOSED = "closed"
    UNKNOWN = "unknown"


class AdminKeyError(PermissionError):
    """The admin key does not belong to this survey."""


# Why the database failed, in words (the database's own message may quote SQL: never shown).
BUSY = "busy"
DAMAGED = "damaged"
READ_ONLY = "read_only"
FULL = "full"
UNREACHABLE = "unreachable"
FAILED = "failed"
MISSING = "missing"
STORAGE_FAULTS = {
    BUSY: "the class database (surveys and quizzes) is busy with other answers",
    DAMAGED: "the class database file is damaged (it is not a database, or it was cut short)",
    READ_ONLY: "the class database is read-only, so nothing can be saved",
    FULL: "the disk that holds the class database is full",
    UNREACHABLE: "the class database cannot be opened",
    FAILED: "the class database reported an error",
    MISSING: "the class database file was removed or replaced while the app was running",
}


class StorageError(RuntimeError):
    """The database could not do what was asked. `reason` is one of STORAGE_FAULTS; the
    message is plain words, never the database's text (which is logged on the server)."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(STORAGE_FAULTS[reason])


def _fault(error: BaseException) -> str:
    """The STORAGE_FAULTS reason for a database error (by SQLite's and PostgreSQL's texts)."""
    text = str(getattr(error, "orig", None) or error).lower()
    if "locked" in text or "busy" in text:
        return BUSY
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return DAMAGED
    if "readonly" in text or "read-only" in text or "read only" in text:
        return READ_ONLY
    if "is full" in text or "no space" in text or "disk full" in text:
        return FULL
    if "unable to open" in text or "could not connect" in text or "connection refused" in text:
        return UNREACHABLE
    return FAILED


def _storage_error(error: BaseException) -> StorageError:
    reason = _fault(error)
    _LOG.warning("survey database fault (%s): %s", reason, error)
    return StorageError(reason)


_DATABASE_ERRORS = (DBAPIError, sqlite3.Error)


@dataclass(frozen=True)
class Survey:
    """A survey as anyone may see it (no admin key digest, no salt)."""

    id: int
    code: str
    question: str
    protocol: Protocol
    is_open: bool
    created_at: dt.datetime


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


def _identity(path: Path | None) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`, or None when there is none."""
    try:
        found = os.stat(path)
    except (OSError, TypeError):
        return None
    return found.st_dev, found.st_ino


def _now_minute() -> dt.datetime:
    """UTC now, rounded down to the minute (seconds would only help to link people)."""
    now = dt.datetime.now(dt.UTC)
    return now.replace(second=0, microsecond=0, tzinfo=None)


class SurveyStore:
    """Surveys and their randomized responses in the database at `url`."""

    def __init__(self, url: str, *, pool_size: int = 10):
        self._pool_size = pool_size
        self.read_only = False
        self._file_identity: tuple[int, int] | None = None
        try:
            self.url = make_url(url)
            self.is_sqlite = self.url.get_backend_name() == "sqlite"
            self.engine = self._engine(self.url)
        except Exception as error:  # noqa: BLE001  (a bad port, no driver, an unknown dialect)
            _LOG.warning(
                "survey database URL cannot be used (%s): %s",
                type(error).__name__,
                _mask_password(str(error)),
            )
            raise StorageError(UNREACHABLE) from None
        self._salts: dict[int, str] = {}
        self._salts_lock = threading.Lock()
        self._token_key: str | None = None
        self._last_prune = 0.0
        try:
            self._create_schema()
        except StorageError as error:
            if not self._can_open_read_only(error):
                raise
            self._open_read_only()
            return
        path = self._sqlite_file()
        if path is not None and not (
            os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
        ):  # a current schema needs no write to open: notice read-only files here
            self._open_read_only()
        # The file this store opened (device, inode). SQLite keeps writing to an open file
        # that was deleted or replaced, and every write would be acknowledged into nothing:
        # each write first checks that the path still names this file.
        self._file_identity = _identity(path) if path is not None else None

    def _engine(self, url):
        if self.is_sqlite:
            kwargs: dict = {
                "connect_args": {"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False}
            }
            if url.database in (None, "", ":memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                kwargs.update(pool_size=self._pool_size, max_overflow=2 * self._pool_size)
        else:
            kwargs = {
                "pool_size": self._pool_size,
                "max_overflow": 2 * self._pool_size,
                "pool_pre_ping": True,
            }
        engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine

    # -- read-only databases ------------------------------------------------------------
    def _sqlite_file(self) -> Path | None:
        """The file of a file-backed SQLite database given by path (not a URI), or None."""
        database = self.url.database
        if not self.is_sqlite or database in (None, "", ":memory:"):
            return None
        if database.startswith("file:") or self.url.query.get("uri"):
            return None
        return Path(database)

    def _can_open_read_only(self, error: StorageError) -> bool:
        """A file that exists but cannot be written (or whose journal cannot be created)."""
        path = self._sqlite_file()
        return error.reason in (READ_ONLY, UNREACHABLE) and path is not None and path.is_file()

    def _open_read_only(self) -> None:
        """Reopen the file read-only (SQLite's mode=ro; immutable=1 where not even the
        write-ahead log's index can be created), so existing results can still be shown."""
        path = self._sqlite_file()
        assert path is not None
        self.engine.dispose()
        last: StorageError | None = None
        for flags in ("mode=ro", "mode=ro&immutable=1"):
            uri = f"sqlite:///file:{quote(str(path.resolve()))}?{flags}&uri=true"
            self.engine = self._engine(make_url(uri))
            try:
                version = self.schema_version()
            except StorageError as error:
                self.engine.dispose()
                last = error
                continue
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"the survey database has schema version {version}, newer than this app's "
                    f"{SCHEMA_VERSION}: update the app"
                )
            self.read_only = True
            _LOG.warning("survey database %s opened read-only (%s)", path, flags)
            return
        assert last is not None
        raise last

    def _require_writable(self) -> None:
        if self.read_only:
            raise StorageError(READ_ONLY)
        if self._file_identity is not None:
            now = _identity(self._sqlite_file())
            if now != self._file_identity:
                _LOG.error(
                    "survey database file %s was removed or replaced while open: refusing "
                    "writes (restart the app to open a new one)",
                    self._sqlite_file(),
                )
                raise StorageError(MISSING) from None

    def __repr__(self) -> str:
        return f"SurveyStore({self.url.render_as_string(hide_password=True)!r})"

    # -- schema -------------------------------------------------------------------------
    def _create_schema(self) -> None:
        """Create the tables if missing and record the schema version (safe when several
        processes start at once: a lost race is retried)."""
        for attempt in range(5):
            try:
                metadata.create_all(self.engine, checkfirst=True)
                with self.engine.begin() as conn:
                    stored = conn.execute(select(func.max(schema_table.c.version))).scalar()
                    if stored is None or stored < SCHEMA_VERSION:
                        # Versions only add tables, which create_all has just made.
                        conn.execute(insert(schema_table).values(version=SCHEMA_VERSION))
                break
            except _DATABASE_ERRORS as error:
                if attempt == 4 or _fault(error) not in (BUSY, FAILED):
                    raise _storage_error(error) from None
                time.sleep(0.2 * (attempt + 1))
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"the survey database has schema version {version}, newer than this app's "
                f"{SCHEMA_VERSION}: update the app"
            )

    def schema_version(self) -> int:
        """The schema version recorded in the database."""
        with self._reading() as conn:
            return int(conn.execute(select(func.max(schema_table.c.version))).scalar_one())

    @contextlib.contextmanager
    def _reading(self):
        """A connection for reads; a database error leaves as StorageError (no SQL)."""
        try:
            with self.engine.connect() as conn:
                yield conn
        except _DATABASE_ERRORS as error:
            raise _storage_error(error) from None

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()

    @contextlib.contextmanager
    def _writing(self):
        """One transaction for several writes (all or nothing). IntegrityError is left to
        the caller; any other database error leaves as StorageError (no busy retry: for
        rare writes, such as creating a quiz, the person simply tries again)."""
        self._require_writable()
        try:
            with self.engine.begin() as conn:
                yield conn
        except IntegrityError:
            raise
        except _DATABASE_ERRORS as error:
            raise _storage_error(error) from None

    def _write(self, statement, *, primary_key: bool = False) -> int:
        """Execute one write in its own transaction. While SQLite is locked by another
        writer, retry until BUSY_DEADLINE_S have passed, then raise StorageError("busy").
        IntegrityError (a constraint) is left to the caller; any other database error
        becomes StorageError. Returns the rows touched, or the new primary key if asked."""
        self._require_writable()
        deadline = time.monotonic() + BUSY_DEADLINE_S
        attempt = 0
        while True:
            try:
                with self.engine.begin() as conn:
                    result = conn.execute(statement, execution_options={"preserve_rowcount": True})
                    return int(result.inserted_primary_key[0]) if primary_key else result.rowcount
            except IntegrityError:
                raise
            except _DATABASE_ERRORS as error:
                busy = self.is_sqlite and _fault(error) == BUSY
                if not busy or time.monotonic() >= deadline:
                    raise _storage_error(error) from None
            attempt += 1
            time.sleep(min(0.01 * attempt, 0.2))

    # -- the key that signs students' tokens ---------------------------------------------
    def student_token_key(self) -> str:
        """The key that signs student tokens, shared by every process on this database:
        read from survey_secrets, created there on first use. A read-only database without
        one gets a key for this process only (no answer can be stored there anyway)."""
        if self._token_key is not None:
            return self._token_key
        select_key = select(secrets_table.c.value).where(secrets_table.c.name == TOKEN_KEY_NAME)
        try:
            with self._reading() as conn:
                key = conn.execute(select_key).scalar()
        except StorageError:
            if not self.read_only:  # a read-only schema-2 file has no secrets table yet
                raise
            key = None
        if key is None and self.read_only:
            key = security.new_signing_key()
        elif key is None:
            try:
                self._write(
                    insert(secrets_table).values(
                        name=TOKEN_KEY_NAME, value=security.new_signing_key()
                    )
                )
            except IntegrityError:  # another process stored one first
                pass
            except StorageError as error:
                if error.reason != READ_ONLY:
                    raise
                self.read_only = True  # it turned read-only: a key for this process only
                self._token_key = security.new_signing_key()
                return self._token_key
            with self._reading() as conn:
                key = conn.execute(select_key).scalar_one()
        self._token_key = key
        return key

    def issue_student_token(self) -> str:
        """A new student token signed with this database's key."""
        return security.issue_student_token(self.student_token_key())

    def student_token_is_valid(self, token: object) -> bool:
        """Whether `token` was issued by an app on this database."""
        return security.student_token_is_valid(self.student_token_key(), token)

    # -- rate limits ------------------------------------------------------------------
    # At most `max_events` events per `window_s` seconds per (name, key), kept in the
    # database so that every replica counts the same events. A sliding window, estimated
    # from two fixed ones (the usual approximation): the current window's events plus the
    # previous window's, weighted by how much of it the sliding window still covers. Over
    # a steady stream it is exact; within one fixed window it counts exactly.
    def _limit_windows(self, bucket: str, window_s: float, now: float) -> tuple[int, int, float]:
        """(the current window's index, its events, the previous window's weighted events);
        the sliding window's estimate is the sum of the last two."""
        index = int(now // window_s)
        covered = 1.0 - (now - index * window_s) / window_s
        t = limits_table
        with self._reading() as conn:
            rows = conn.execute(
                select(t.c.window_index, t.c.events).where(
                    t.c.bucket == bucket, t.c.window_index.in_((index - 1, index))
                )
            ).all()
        found = {int(i): int(e) for i, e in rows}
        return index, found.get(index, 0), covered * found.get(index - 1, 0)

    @staticmethod
    def _check_limit(max_events: object, window_s: object) -> None:
        if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
            raise ValueError(f"max_events must be an int >= 1, got {max_events!r}")
        if isinstance(window_s, bool) or not isinstance(window_s, int | float) or window_s <= 0:
            raise ValueError(f"window_s must be a number > 0, got {window_s!r}")

    def limit_count(self, name: str, key: str, window_s: float, now: float | None = None) -> float:
        """How many events (name, key) has in the sliding window (nothing recorded)."""
        self._check_limit(1, window_s)
        now = limit_clock() if now is None else now
        _index, current, previous = self._limit_windows(_bucket(name, key), window_s, now)
        return current + previous

    def limit_check(
        self, name: str, key: str, max_events: int, window_s: float, now: float | None = None
    ) -> bool:
        """Whether one more event would be within the limit (nothing recorded)."""
        self._check_limit(max_events, window_s)
        return self.limit_count(name, key, window_s, now) < max_events

    def limit_allow(
        self, name: str, key: str, max_events: int, window_s: float, now: float | None = None
    ) -> bool:
        """Record one event for (name, key) and say whether it is within the limit. An event
        over the limit is not recorded (waiting always helps). The increment is one atomic
        statement that only counts while the window is under its cap, so replicas racing
        on one key never push it past the limit."""
        self._check_limit(max_events, window_s)
        now = limit_clock() if now is None else now
        bucket = _bucket(name, key)
        index, current, previous = self._limit_windows(bucket, window_s, now)
        if current + previous >= max_events:
            return False
        cap = max_events - previous  # the current window may hold events below this
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        t = limits_table
        statement = dialect.insert(t).values(
            bucket=bucket,
            window_index=index,
            events=1,
            expires_at=(index + 2) * window_s,
        )
        statement = statement.on_conflict_do_update(
            index_elements=[t.c.bucket, t.c.window_index],
            set_={"events": t.c.events + 1},
            where=t.c.events + 1 <= cap,
        )
        counted = self._write(statement) == 1
        if now - self._last_prune >= PRUNE_EVERY_S:
            self._last_prune = now
            self._write(delete(t).where(t.c.expires_at < now))
        return counted

    # -- surveys ------------------------------------------------------------------------
    def recent_open_surveys(self, hours: float) -> int:
        """How many surveys are open and were created in the last `hours` hours: what bounds
        the storage anonymous creations may use (see the page's creation limit)."""
        since = _now_minute() - dt.timedelta(hours=hours)
        t = surveys_table
        with self._reading() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(t.c.is_open.is_(True), t.c.created_at >= since)
                ).scalar_one()
            )

    def create_survey(self, question: str, protocol: Protocol) -> NewSurvey:
        """A new open survey with a fresh join code and admin key."""
        question = clean_question(question)
        # Re-derive from the stored fields (key, p, q): validates them, and works even if
        # the caller's Protocol class comes from a reloaded module.
        protocol = protocol_for(protocol.key, protocol.p, protocol.q)
        admin_key = security.new_admin_key()
        for _ in range(JOIN_CODE_ATTEMPTS):
            code = security.new_join_code()
            try:
                survey_id = self._write(
                    insert(surveys_table).values(
                        join_code=code,
                        question=question,
                        protocol=protocol.key,
                        p=protocol.p,
                        q=protocol.q,
                        is_open=True,
                        admin_key_sha256=security.admin_key_digest(admin_key),
                        session_salt=security.new_salt(),
                        created_at=_now_minute(),
                    ),
                    primary_key=True,
                )
            except IntegrityError:  # join code taken: draw another
                continue
            survey = self.get_by_id(survey_id)
            assert survey is not None
            return NewSurvey(survey, admin_key)
        raise RuntimeError("could not find a free join code")

    def _public_columns(self):
        t = surveys_table
        return (t.c.id, t.c.join_code, t.c.question, t.c.protocol, t.c.p, t.c.q, t.c.is_open,
                t.c.created_at)  # fmt: skip

    @staticmethod
    def _survey_from_row(row) -> Survey:
        return Survey(
            id=int(row.id),
            code=row.join_code,
            question=row.question,
            protocol=protocol_for(row.protocol, row.p, row.q),
            is_open=bool(row.is_open),
            created_at=row.created_at,
        )

    def get_by_code(self, code: str) -> Survey | None:
        """The survey with this join code (typed in any case, spaces allowed), or None."""
        code = security.normalize_join_code(code)
        if code is None:
            return None
        with self._reading() as conn:
            row = conn.execute(
                select(*self._public_columns()).where(surveys_table.c.join_code == code)
            ).first()
        return None if row is None else self._survey_from_row(row)

    def get_by_id(self, survey_id: int) -> Survey | None:
        """The survey with this id, or None."""
        with self._reading() as conn:
            row = conn.execute(
                select(*self._public_columns()).where(surveys_table.c.id == int(survey_id))
            ).first()
        return None if row is None else self._survey_from_row(row)

    # -- admin --------------------------------------------------------------------------
    def check_admin_key(self, survey_id: int, admin_key: object) -> bool:
        """Whether `admin_key` is this survey's key (constant-time comparison)."""
        with self._reading() as conn:
            digest = conn.execute(
                select(surveys_table.c.admin_key_sha256).where(surveys_table.c.id == survey_id)
            ).scalar()
        return digest is not None and security.admin_key_matches(admin_key, digest)

    def _require_admin(self, survey_id: int, admin_key: object) -> None:
        if not self.check_admin_key(survey_id, admin_key):
            raise AdminKeyError("wrong admin key for this survey")

    def close(self, survey_id: int, admin_key: str) -> None:
        """Stop accepting responses (AdminKeyError if the key is wrong)."""
        self._set_open(survey_id, admin_key, False)

    def reopen(self, survey_id: int, admin_key: str) -> None:
        """Accept responses again (AdminKeyError if the key is wrong)."""
        self._set_open(survey_id, admin_key, True)

    def _set_open(self, survey_id: int, admin_key: str, is_open: bool) -> None:
        self._require_admin(survey_id, admin_key)
        self._write(
            update(surveys_table).where(surveys_table.c.id == survey_id).values(is_open=is_open)
        )

    def reset(self, survey_id: int, admin_key: str) -> None:
        """Delete every response of the survey, so everyone may answer again (AdminKeyError
        if the key is wrong). The survey keeps its code and its open/closed state."""
        self._require_admin(survey_id, admin_key)
        self._write(responses_table.delete().where(responses_table.c.survey_id == survey_id))

    # -- responses ----------------------------------------------------------------------
    def _salt(self, survey_id: int) -> str | None:
        with self._salts_lock:
            salt = self._salts.get(survey_id)
        if salt is None:
            with self._reading() as conn:
                salt = conn.execute(
                    select(surveys_table.c.session_salt).where(surveys_table.c.id == survey_id)
                ).scalar()
            if salt is not None:
                with self._salts_lock:
                    self._salts[survey_id] = salt
        return salt

    def submit(self, survey_id: int, session_token: str, reported_bit: object) -> SubmitResult:
        """Record one randomized answer. Idempotent per (survey, session): only the first
        submission of a session counts; later ones return DUPLICATE and change nothing.
        Closed and unknown surveys are rejected (CLOSED, UNKNOWN)."""
        reported = _check_bit(reported_bit)
        if not isinstance(session_token, str) or len(session_token) < 16:
            raise ValueError("session_token must be a random string of at least 16 characters")
        if isinstance(survey_id, bool) or not isinstance(survey_id, int):
            return SubmitResult.UNKNOWN
        salt = self._salt(survey_id)
        if salt is None:
            return SubmitResult.UNKNOWN
        digest = security.session_digest(salt, session_token)
        # One atomic statement: insert only while the survey is open.
        statement = insert(responses_table).from_select(
            ["survey_id", "reported_yes", "session_hash", "submitted_at"],
            select(
                surveys_table.c.id,
                literal(reported, Boolean),
                literal(digest, String),
                literal(_now_minute(), DateTime),
            ).where(surveys_table.c.id == survey_id, surveys_table.c.is_open.is_(True)),
        )
        try:
            inserted = self._write(statement)
        except IntegrityError:
            return SubmitResult.DUPLICATE
        return SubmitResult.ACCEPTED if inserted == 1 else SubmitResult.CLOSED

    def has_answered(self, survey_id: int, session_token: str) -> bool:
        """Whether this session's answer is in the survey (False again after a reset)."""
        salt = self._salt(survey_id)
        if salt is None:
            return False
        digest = security.session_digest(salt, session_token)
        with self._reading() as conn:
            found = conn.execute(
                select(responses_table.c.id).where(
                    responses_table.c.survey_id == survey_id,
                    responses_table.c.session_hash == digest,
                )
            ).first()
        return found is not None

    def record_join(self, survey_id: int, session_token: str) -> None:
        """Count one browser session as joined to the survey (idempotent per session; an
        unknown survey is ignored). Only the session's HMAC digest is stored."""
        if not isinstance(session_token, str) or len(session_token) < 16:
            raise ValueError("session_token must be a random string of at least 16 characters")
        salt = self._salt(survey_id)
        if salt is None:
            return
        digest = security.session_digest(salt, session_token)
        statement = insert(joins_table).values(
            survey_id=survey_id, session_hash=digest, joined_at=_now_minute()
        )
        with contextlib.suppress(IntegrityError):
            self._write(statement)

    def joined(self, survey_id: int) -> int:
        """How many browser sessions have opened the survey's student page."""
        with self._reading() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(joins_table.c.survey_id == survey_id)
                ).scalar_one()
            )

    def counts(self, survey_id: int) -> Counts:
        """How many responses, and how many reported "yes"."""
        t = responses_table
        with self._reading() as conn:
            total, yes = conn.execute(
                select(func.count(t.c.id), func.count(t.c.id).filter(t.c.reported_yes.is_(True)))
                .where(t.c.survey_id == survey_id)
            ).one()  # fmt: skip
        return Counts(int(total), int(yes))

    def responses(self, survey_id: int) -> list[Response]:
        """The randomized responses in arrival order (no session digest: export-safe)."""
        t = responses_table
        with self._reading() as conn:
            rows = conn.execute(
                select(t.c.reported_yes, t.c.submitted_at)
                .where(t.c.survey_id == survey_id)
                .order_by(t.c.id)
            ).all()
        return [Response(i, bool(r.reported_yes), r.submitted_at) for i, r in enumerate(rows, 1)]


def _mask_password(text: str) -> str:
    """A URL's password replaced by *** (scheme://user:PASSWORD@host -> scheme://user:***@)."""
    return re.sub(r"(://[^:/@\s]*:)[^@\s]*@", r"\1***@", text)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL lets readers (the projector) run while students write; wait, do not fail,
    when another process holds the write lock."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    # In-memory databases ignore it; a read-only or locked one keeps its mode (reads work).
    with contextlib.suppress(sqlite3.OperationalError):
        cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()
