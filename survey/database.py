"""The class database: one SQLAlchemy engine (SQLite by default, PostgreSQL or any SQLAlchemy
URL for several app replicas), its schema, its faults and how it is written.

Everything the classroom keeps (surveys, quizzes, answers, joins, the key that signs
students' tokens, the rate limits) lives in this one database, so that every replica of the
app that shares it sees the same state. The other modules of survey/ define their tables on
`metadata` and read and write through a `Database`'s public methods only.

Tables are created on first use, and `survey_schema` records the schema version.
A database that exists but cannot be written (a read-only mount, a file without write
permission) is opened read-only: results can be read and shown, every write raises
StorageError("read_only"). A database URL that cannot be parsed or has no driver raises
StorageError("unreachable"); the detail, with any password masked, goes to the server log.

Faults: any database error leaves this module as `StorageError`, whose `reason` (busy,
damaged, read-only, full, unreachable, failed, missing) a page can explain in words; the
error's own text, which may quote SQL, goes to the server log only. A write that finds SQLite
locked by another process retries for at most `BUSY_DEADLINE_S` seconds, then raises
StorageError("busy"), so a student hears "tap again" instead of waiting for minutes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    create_engine,
    event,
    false,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import StaticPool

# 2: survey_joins (devices that opened the student page); 3: survey_secrets; 4: survey_limits;
# 5: the class quiz's quiz_quizzes, quiz_questions, quiz_answers (survey/quiz.py);
# 6: quiz_players (a browser's optional nickname in a quiz); 7: the class heist's heist_*
# tables (survey/heist.py) and the guessing game's game_* tables (survey/game.py)
# 8: the progress check-in's checkin_checkins and checkin_reports (survey/checkin.py)
# 9: survey_resets (a survey's resets, which a reset press names; survey/surveys.py)
# 10: every activity's row gains `lineage` (survey/activity.py, secret_columns): the first
# version to add a column, nullable, so that older rows read as their own first activity
SCHEMA_VERSION = 10
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

# Why the database failed, in words (the database's own message may quote SQL: never shown).
BUSY = "busy"
DAMAGED = "damaged"
READ_ONLY = "read_only"
FULL = "full"
UNREACHABLE = "unreachable"
FAILED = "failed"
MISSING = "missing"
STORAGE_FAULTS = {
    BUSY: "the class database is busy with other answers",
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


def now_minute() -> dt.datetime:
    """UTC now, rounded down to the minute: every time the class database keeps (seconds
    would only help to link people)."""
    now = dt.datetime.now(dt.UTC)
    return now.replace(second=0, microsecond=0, tzinfo=None)


def _identity(path: Path | None) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`, or None when there is none."""
    try:
        found = os.stat(path)
    except (OSError, TypeError):
        return None
    return found.st_dev, found.st_ino


class Database:
    """The class database at `url`: its schema created (or found), read-only when it cannot
    be written, every fault a StorageError."""

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

    def __repr__(self) -> str:
        return f"Database({self.url.render_as_string(hide_password=True)!r})"

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
            _check_version(version)
            self.read_only = True
            _LOG.warning("survey database %s opened read-only (%s)", path, flags)
            return
        assert last is not None
        raise last

    def turned_read_only(self) -> None:
        """Note that a write found the database read-only (it was writable when opened)."""
        self.read_only = True

    def require_writable(self) -> None:
        """StorageError("read_only") on a read-only database; StorageError("missing") when
        the SQLite file this store opened was removed or replaced since."""
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
                        # Versions add tables, which create_all has just made, and nullable
                        # columns, added here to the tables an older version made.
                        _add_missing_columns(conn)
                        conn.execute(insert(schema_table).values(version=SCHEMA_VERSION))
                break
            except _DATABASE_ERRORS as error:
                if attempt == 4 or _fault(error) not in (BUSY, FAILED):
                    raise _storage_error(error) from None
                time.sleep(0.2 * (attempt + 1))
        _check_version(self.schema_version())

    def schema_version(self) -> int:
        """The schema version recorded in the database."""
        with self.reading() as conn:
            return int(conn.execute(select(func.max(schema_table.c.version))).scalar_one())

    # -- reading and writing ------------------------------------------------------------
    @contextlib.contextmanager
    def reading(self):
        """A connection for reads; a database error leaves as StorageError (no SQL)."""
        try:
            with self.engine.connect() as conn:
                yield conn
        except _DATABASE_ERRORS as error:
            raise _storage_error(error) from None

    @contextlib.contextmanager
    def transaction(self):
        """One transaction for several writes (all or nothing). IntegrityError is left to
        the caller; any other database error leaves as StorageError (no busy retry: for
        rare writes, such as creating a quiz, the person simply tries again)."""
        self.require_writable()
        try:
            with self.engine.begin() as conn:
                yield conn
                _check_journal(conn)
        except IntegrityError:
            raise
        except _DATABASE_ERRORS as error:
            raise _storage_error(error) from None

    def _retried(self, run: Callable):
        """`run(conn)` in one transaction, its journal checked before the commit. While
        SQLite is locked by another writer the whole transaction is retried until
        BUSY_DEADLINE_S have passed, then StorageError("busy"). IntegrityError (a
        constraint) is left to the caller; any other database error becomes StorageError."""
        self.require_writable()
        deadline = time.monotonic() + BUSY_DEADLINE_S
        attempt = 0
        while True:
            try:
                with self.engine.begin() as conn:
                    result = run(conn)
                    _check_journal(conn)
                    return result
            except IntegrityError:
                raise
            except _DATABASE_ERRORS as error:
                busy = self.is_sqlite and _fault(error) == BUSY
                if not busy or time.monotonic() >= deadline:
                    raise _storage_error(error) from None
            attempt += 1
            time.sleep(min(0.01 * attempt, 0.2))

    def write(self, statement, *, primary_key: bool = False) -> int:
        """Execute one write in its own transaction (`_retried`: busy retry, faults).
        Returns the rows touched, or the new primary key if asked."""

        def run(conn) -> int:
            result = conn.execute(statement, execution_options={"preserve_rowcount": True})
            return int(result.inserted_primary_key[0]) if primary_key else result.rowcount

        return self._retried(run)

    def atomically(self, table: Table, row_id: int, body: Callable):
        """`body(conn)` in one transaction that first locks row `row_id` of `table`, so that
        what it reads and what it then writes are one step: a concurrent `atomically` on the
        same row waits until this one has committed, then reads what it wrote. How a state
        change is applied (a spend against a budget, a lecturer's press from a named state).

        The lock: PostgreSQL's SELECT … FOR NO KEY UPDATE (students' answers, which only
        reference the row, still go through); on SQLite a no-op UPDATE of the row as the
        transaction's first statement, which takes the database's write lock before anything
        is read. The whole transaction, body included, is retried while SQLite is busy
        (`_retried`). Returns body's result; LookupError when the row does not exist."""

        def run(conn):
            if self.is_sqlite:
                found = conn.execute(
                    update(table).where(table.c.id == row_id).values(id=table.c.id),
                    execution_options={"preserve_rowcount": True},
                ).rowcount
            else:
                found = conn.execute(
                    select(table.c.id).where(table.c.id == row_id).with_for_update(key_share=True)
                ).first()
            if not found:
                raise LookupError(f"no row {row_id} in {table.name}")
            return body(conn)

        return self._retried(run)

    def serialized(self, name: str, body: Callable):
        """`body(conn)` in one transaction that first takes a lock named `name`: two of them
        with one name never interleave (what one reads and writes, the next reads after).
        For a state that has no row to lock (`atomically`), such as a rate limit's slots.
        PostgreSQL: a transaction's advisory lock on 64 bits of the name's SHA-256; SQLite:
        the database's write lock, taken by a write that touches nothing as the
        transaction's first statement. Retried while SQLite is busy (`_retried`)."""
        key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)

        def run(conn):
            if self.is_sqlite:
                conn.execute(
                    update(schema_table).where(false()).values(version=schema_table.c.version)
                )
            else:
                conn.execute(select(func.pg_advisory_xact_lock(key)))
            return body(conn)

        return self._retried(run)

    def upsert(self, table: Table):
        """An INSERT of this database's dialect, which has `.on_conflict_do_update(...)`."""
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table)

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()


def _add_missing_columns(conn) -> None:
    """Add each column the tables declare and a table of an older version lacks. Only a
    nullable column may be added (its old rows read NULL). Several replicas starting at once
    may race: PostgreSQL skips a column another has added (IF NOT EXISTS); on SQLite the
    first takes the write lock and the others, retried, find the column there."""
    found = inspect(conn)
    for table in metadata.sorted_tables:
        have = {column["name"] for column in found.get_columns(table.name)}
        for column in table.columns:
            if column.name in have:
                continue
            if not column.nullable:
                raise RuntimeError(f"{table.name}.{column.name} cannot be added to old rows")
            kind = column.type.compile(dialect=conn.dialect)
            guard = "IF NOT EXISTS " if conn.dialect.name == "postgresql" else ""
            conn.exec_driver_sql(
                f'ALTER TABLE "{table.name}" ADD COLUMN {guard}"{column.name}" {kind}'
            )


def _check_version(version: int) -> None:
    if version > SCHEMA_VERSION:
        raise RuntimeError(
            f"the survey database has schema version {version}, newer than this app's "
            f"{SCHEMA_VERSION}: update the app"
        )


def _mask_password(text: str) -> str:
    """A URL's password replaced by *** (scheme://user:PASSWORD@host -> scheme://user:***@)."""
    return re.sub(r"(://[^:/@\s]*:)[^@\s]*@", r"\1***@", text)


def _sqlite_pragmas(dbapi_connection, record) -> None:
    """WAL lets readers (the projector) run while students write; wait, do not fail,
    when another process holds the write lock. Notes the write-ahead log and shared-memory
    files this connection opened (see _check_journal)."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    # In-memory databases ignore it; a read-only or locked one keeps its mode (reads work).
    mode = None
    with contextlib.suppress(sqlite3.OperationalError):
        mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    cursor.execute("PRAGMA synchronous = NORMAL")
    files = [row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"]
    cursor.close()
    if mode == "wal" and files and files[0]:
        journal = [Path(files[0] + suffix) for suffix in ("-wal", "-shm")]
        record.info["journal"] = [(path, None) for path in journal]


def _check_journal(conn) -> None:
    """StorageError("missing") when the write-ahead log or its shared-memory index that this
    connection opened was removed or replaced. SQLite keeps writing into an open file that
    was deleted, so a write committed there would be acknowledged and then lost at the next
    start (and a new log made by another connection would split the database in two): the
    transaction is rolled back instead. While any connection is open, SQLite itself never
    removes these files."""
    journal = conn.connection.info.get("journal")
    if not journal:
        return
    for index, (path, identity) in enumerate(journal):
        if identity is None:  # SQLite makes both files at the connection's first read
            journal[index] = (path, _identity(path))
        elif _identity(path) != identity:
            _LOG.error(
                "survey database file %s was removed or replaced while open: refusing writes "
                "(restart the app to open the database again)",
                path,
            )
            # What was acknowledged before lives in the removed log, which this connection
            # still holds open: roll this transaction back and copy the log into the
            # database file, so that a restart finds every acknowledged write.
            raw = conn.connection.dbapi_connection
            raw.rollback()
            with contextlib.suppress(sqlite3.Error):
                raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            raise StorageError(MISSING)
