"""The class store: the one database every class activity lives in, with what they all
share in it: the key that signs students' tokens (`tokens`) and the rate limits
(`limits`). Each activity's store is built on it: `SurveyStore` is a class store with the
surveys; `QuizStore(store)`, `HeistStore(store)` and `GameStore(store)` take one."""

from __future__ import annotations

from .database import Database
from .limits import RateLimits
from .tokens import StudentTokens


class ClassStore:
    """The class database at `url` (SQLite or PostgreSQL), its student tokens and limits."""

    def __init__(self, url: str, *, pool_size: int = 10):
        self.db = Database(url, pool_size=pool_size)
        self.tokens = StudentTokens(self.db)
        self.limits = RateLimits(self.db)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.db.url.render_as_string(hide_password=True)!r})"

    @property
    def read_only(self) -> bool:
        """Whether nothing can be written (every write raises StorageError("read_only"))."""
        return self.db.read_only

    @property
    def engine(self):
        return self.db.engine

    @property
    def url(self):
        """The database's URL (a SQLAlchemy URL; its password hidden when rendered)."""
        return self.db.url

    def schema_version(self) -> int:
        return self.db.schema_version()

    def dispose(self) -> None:
        """Close the connection pool."""
        self.db.dispose()
