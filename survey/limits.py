"""Rate limits kept in the class database, so that every replica counts the same events (in
each process's memory a limit would be multiplied by the number of replicas).

At most `max_events` events in any `window_s` seconds per (name, key), never more: a window
is cut into SLOTS slots, each a counter, and an event is allowed only while the slots that
touch the last `window_s` seconds (SLOTS + 1 of them) hold fewer than `max_events`. They
cover a little more than the window, so a client waits at most one slot (a tenth of the
window) longer than an exact sliding window would make it; they never let one more through
(the usual estimate from two fixed windows, which weighs the previous window's events by
how much of it is still covered, let a third of 2 through at a window's edge, and nearly
twice the limit to a client that used it up just before an edge and kept trying). Replicas
count and record under one lock per key, and a slot written by a replica whose clock is
ahead counts too. A key (a student token, an address) is stored only as SHA-256 of the
limit's name and the key."""

from __future__ import annotations

import hashlib
import time

from sqlalchemy import BigInteger, Column, Float, Integer, String, Table, delete, select, update

from .database import Database, metadata

# One counter per (limit bucket, slot): `window_index` is the slot's index, time // slot's length.
limits_table = Table(
    "survey_limits",
    metadata,
    Column("bucket", String(64), primary_key=True),
    Column("window_index", BigInteger, primary_key=True, autoincrement=False),
    Column("events", Integer, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)
PRUNE_EVERY_S = 60.0
# Slots a window is cut into: the finer, the closer to an exact sliding window (a client
# waits at most window / SLOTS too long) and the more rows a key keeps (SLOTS + 1).
SLOTS = 10


def limit_clock() -> float:
    """Seconds since the epoch, the clock of the rate limits (shared by all replicas, so a
    wall clock; tests freeze it)."""
    return time.time()


def _bucket(name: str, key: str) -> str:
    return hashlib.sha256(f"{name}\0{key}".encode()).hexdigest()


def _check_limit(max_events: object, window_s: object) -> None:
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
        raise ValueError(f"max_events must be an int >= 1, got {max_events!r}")
    if isinstance(window_s, bool) or not isinstance(window_s, int | float) or window_s <= 0:
        raise ValueError(f"window_s must be a number > 0, got {window_s!r}")


class RateLimits:
    """The sliding-window counters in `db`."""

    def __init__(self, db: Database):
        self.db = db
        self._last_prune = 0.0

    @staticmethod
    def _slots(conn, bucket: str, window_s: float, now: float) -> tuple[int, int]:
        """(the current slot's index, the events that count): those of the current slot
        and the SLOTS slots before it, every event of the last `window_s` seconds and of at
        most one slot more, and those of any slot after it (written by a replica whose clock
        is ahead of this one's: not seeing them let a replica just behind a slot's edge pass
        the limit again)."""
        index = int(now // (window_s / SLOTS))
        t = limits_table
        rows = conn.execute(
            select(t.c.window_index, t.c.events).where(
                t.c.bucket == bucket, t.c.window_index >= index - SLOTS
            )
        ).all()
        return index, sum(int(events) for _index, events in rows)

    def count(self, name: str, key: str, window_s: float, now: float | None = None) -> int:
        """How many events (name, key) has in the sliding window, as the limit counts them
        (the last `window_s` seconds and at most one slot more; nothing recorded)."""
        _check_limit(1, window_s)
        now = limit_clock() if now is None else now
        with self.db.reading() as conn:
            return self._slots(conn, _bucket(name, key), window_s, now)[1]

    def check(
        self, name: str, key: str, max_events: int, window_s: float, now: float | None = None
    ) -> bool:
        """Whether one more event would be within the limit (nothing recorded)."""
        _check_limit(max_events, window_s)
        return self.count(name, key, window_s, now) < max_events

    def allow(
        self, name: str, key: str, max_events: int, window_s: float, now: float | None = None
    ) -> bool:
        """Record one event for (name, key) and say whether it is within the limit. An event
        over the limit is not recorded (waiting always helps). The count and the increment are
        one transaction under the key's lock (`Database.serialized`), so replicas racing on
        one key, their clocks either side of a slot's edge, never push it past the limit."""
        return self.take(name, key, max_events, window_s, now) is not None

    def give_back(self, name: str, key: str, window_index: int) -> None:
        """Un-record one event that `take` recorded in slot `window_index` (an action that
        did not happen after all); nothing when that slot is gone or empty."""
        t = limits_table
        self.db.write(
            update(t)
            .where(
                t.c.bucket == _bucket(name, key),
                t.c.window_index == window_index,
                t.c.events > 0,
            )
            .values(events=t.c.events - 1)
        )

    def take(
        self, name: str, key: str, max_events: int, window_s: float, now: float | None = None
    ) -> int | None:
        """`allow`, returning the slot the event was recorded in (for `give_back`), or
        None when it was over the limit and not recorded."""
        _check_limit(max_events, window_s)
        now = limit_clock() if now is None else now
        bucket = _bucket(name, key)

        def counted(conn) -> int | None:
            index, events = self._slots(conn, bucket, window_s, now)
            if events >= max_events:
                return None
            t = limits_table
            conn.execute(
                self.db.upsert(t)
                .values(
                    bucket=bucket,
                    window_index=index,
                    events=1,
                    expires_at=(index + SLOTS + 1) * (window_s / SLOTS),
                )
                .on_conflict_do_update(
                    index_elements=[t.c.bucket, t.c.window_index],
                    set_={"events": t.c.events + 1},
                )
            )
            return index

        taken = self.db.serialized(f"limit {bucket}", counted)
        if now - self._last_prune >= PRUNE_EVERY_S:
            self._last_prune = now
            self.db.write(delete(limits_table).where(limits_table.c.expires_at < now))
        return taken
