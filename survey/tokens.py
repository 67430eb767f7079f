"""Who a student is to the class database: a token their browser keeps, signed with a key
that every replica shares, and known in a survey's or quiz's rows only as HMAC(salt, token).

The signing key lives in `survey_secrets` (created on first use), so a token any replica
issued is accepted by all of them. A survey and a quiz each have a random salt; the rows keep
only the digest, so a token never reaches the database and two activities' rows cannot be
joined on it."""

from __future__ import annotations

import threading

from sqlalchemy import Column, String, Table, insert, select
from sqlalchemy.exc import IntegrityError

from . import security
from .database import READ_ONLY, Database, StorageError, metadata

secrets_table = Table(
    "survey_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)
TOKEN_KEY_NAME = "student_token_key"
MIN_TOKEN_CHARS = 16


def check_session_token(session_token: object) -> str:
    """The token, or ValueError: a random string of at least 16 characters."""
    if not isinstance(session_token, str) or len(session_token) < MIN_TOKEN_CHARS:
        raise ValueError("session_token must be a random string of at least 16 characters")
    return session_token


class StudentTokens:
    """Issues and checks students' tokens with the key kept in `db`."""

    def __init__(self, db: Database):
        self.db = db
        self._key: str | None = None

    def key(self) -> str:
        """The key that signs student tokens, shared by every process on this database:
        read from survey_secrets, created there on first use. A read-only database without
        one gets a key for this process only (no answer can be stored there anyway)."""
        if self._key is not None:
            return self._key
        select_key = select(secrets_table.c.value).where(secrets_table.c.name == TOKEN_KEY_NAME)
        try:
            with self.db.reading() as conn:
                key = conn.execute(select_key).scalar()
        except StorageError:
            if not self.db.read_only:  # a read-only schema-2 file has no secrets table yet
                raise
            key = None
        if key is None and self.db.read_only:
            key = security.new_signing_key()
        elif key is None:
            try:
                self.db.write(
                    insert(secrets_table).values(
                        name=TOKEN_KEY_NAME, value=security.new_signing_key()
                    )
                )
            except IntegrityError:  # another process stored one first
                pass
            except StorageError as error:
                if error.reason != READ_ONLY:
                    raise
                self.db.turned_read_only()  # a key for this process only
                self._key = security.new_signing_key()
                return self._key
            with self.db.reading() as conn:
                key = conn.execute(select_key).scalar_one()
        self._key = key
        return key

    def issue(self) -> str:
        """A new student token signed with this database's key."""
        return security.issue_student_token(self.key())

    def is_valid(self, token: object) -> bool:
        """Whether `token` was issued by an app on this database."""
        return security.student_token_is_valid(self.key(), token)


class Salts:
    """The random salt of each row of `table` (a survey's or a quiz's; column
    `session_salt`), read once per process: it never changes once written."""

    def __init__(self, db: Database, table: Table):
        self.db = db
        self.table = table
        self._salts: dict[int, str] = {}
        self._lock = threading.Lock()

    def get(self, row_id: int) -> str | None:
        """The salt of row `row_id`, or None when there is no such row."""
        with self._lock:
            salt = self._salts.get(row_id)
        if salt is None:
            t = self.table
            with self.db.reading() as conn:
                salt = conn.execute(select(t.c.session_salt).where(t.c.id == row_id)).scalar()
            if salt is not None:
                with self._lock:
                    self._salts[row_id] = salt
        return salt

    def remember(self, row_id: int, salt: str) -> None:
        """Keep a salt read along with other columns (one read fewer later)."""
        with self._lock:
            self._salts[row_id] = salt

    def digest(self, row_id: int, session_token: str) -> str | None:
        """HMAC(the row's salt, token): how a browser is known in the row's answers and
        joins; None when there is no such row."""
        salt = self.get(row_id)
        return None if salt is None else security.session_digest(salt, session_token)
