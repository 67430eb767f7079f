"""Nicknames: what a quiz and a guessing game let a student call themselves, for the scores
the lecturer may project at the end (hidden by default). Only if the student gives one: the
activity, the browser's salted digest, 1–20 printable characters, the minute. Nothing else
about the student is kept.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import Column, String, Table, delete, select

from . import activity
from .database import Database, metadata, now_minute

MAX_NICKNAME_CHARS = 20
# Not printable in a nickname: control and format characters (a right-to-left override, a
# zero-width joiner), unassigned and private-use code points, surrogates, line separators.
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp"})
# Letters and symbols that draw nothing: Hangul fillers, the Braille blank, Khmer's inherent
# vowels, the Mongolian vowel separator, the object replacement character (U+FFFC). A
# nickname needs one visible character.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\ufffc")
ZWJ = "\u200d"  # the zero-width joiner: allowed only between two emoji (👨‍👩‍👧)
_EMOJI_MODIFIERS = frozenset("\ufe0f") | {chr(c) for c in range(0x1F3FB, 0x1F400)}


@dataclass(frozen=True)
class Score:
    """A nicknamed player's score: the answers that were right, of those given."""

    nickname: str
    correct: int
    answered: int


def _emoji(c: str) -> bool:
    return unicodedata.category(c) == "So" and ord(c) >= 0x2000


def _joins_emoji(text: str, at: int) -> bool:
    """Whether the zero-width joiner at `at` sits inside an emoji sequence: an emoji (with
    its variation selector or skin tone) before it and an emoji after it."""
    before = at - 1
    while before >= 0 and text[before] in _EMOJI_MODIFIERS:
        before -= 1
    return before >= 0 and _emoji(text[before]) and at + 1 < len(text) and _emoji(text[at + 1])


def _visible(c: str) -> bool:
    """A character that draws something: a letter, digit, punctuation mark or symbol, not
    one of the blank-looking ones."""
    return unicodedata.category(c)[0] in "LNPS" and c not in _BLANK_LOOKING


def clean_nickname(nickname: object) -> str:
    """A nickname as stored and shown: NFC-normalized, whitespace collapsed, at most 20
    characters, no control or format characters (ValueError naming them; a zero-width
    joiner only inside an emoji sequence), at least one visible character; "" means none."""
    if not isinstance(nickname, str):
        raise TypeError(f"nickname must be a string, got {type(nickname).__name__}")
    nickname = unicodedata.normalize("NFC", nickname)
    nickname = re.sub(r"\s+", " ", nickname).strip()
    joins = {i for i, c in enumerate(nickname) if c == ZWJ and _joins_emoji(nickname, i)}
    bad = sorted(
        {
            f"U+{ord(c):04X}"
            for i, c in enumerate(nickname)
            if unicodedata.category(c) in _UNPRINTABLE and i not in joins
        }
    )
    if bad:
        raise ValueError(f"nickname must be printable text; it holds {', '.join(bad[:3])}")
    if nickname and not any(_visible(c) for c in nickname):
        raise ValueError("nickname must have a visible character; it shows as blank")
    if len(nickname) > MAX_NICKNAME_CHARS:
        raise ValueError(
            f"nickname must be at most {MAX_NICKNAME_CHARS} characters, got {len(nickname):,}"
        )
    return nickname


def players_table(name: str, parent: str, owner: str) -> Table:
    """The nicknames of an activity's players: table `name`, one row per (activity, browser
    digest), `owner` the activity's id in table `parent`."""
    return Table(
        name,
        metadata,
        activity.belongs_to(parent, owner, primary_key=True),
        Column("session_hash", String(64), primary_key=True),
        Column("nickname", String(MAX_NICKNAME_CHARS), nullable=False),
        activity.minute("named_at"),
    )


class Players:
    """The nicknames in one players table (`players_table`)."""

    def __init__(self, db: Database, table: Table, owner: str):
        self.db = db
        self.table = table
        self.owner = table.c[owner]

    def set(self, owner_id: int, digest: str, nickname: object) -> str | None:
        """Give this browser (its digest) a nickname, replacing its last one; an empty text
        takes it away. Returns the nickname as stored (None: none). Cleaned by
        `clean_nickname` (ValueError, TypeError)."""
        nickname = clean_nickname(nickname)
        t = self.table
        if not nickname:
            self.db.write(delete(t).where(self.owner == owner_id, t.c.session_hash == digest))
            return None
        statement = self.db.upsert(t).values(
            {
                self.owner.name: owner_id,
                "session_hash": digest,
                "nickname": nickname,
                "named_at": now_minute(),
            }
        )
        self.db.write(
            statement.on_conflict_do_update(
                index_elements=[self.owner, t.c.session_hash],
                set_={"nickname": nickname, "named_at": now_minute()},
            )
        )
        return nickname

    def get(self, owner_id: int, digest: str | None) -> str | None:
        """This browser's nickname, or None."""
        if digest is None:
            return None
        t = self.table
        with self.db.reading() as conn:
            return conn.execute(
                select(t.c.nickname).where(self.owner == owner_id, t.c.session_hash == digest)
            ).scalar()

    def named(self, owner_id: int) -> dict[str, str]:
        """Digest → nickname of every player who gave one."""
        t = self.table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(t.c.session_hash, t.c.nickname).where(self.owner == owner_id)
            ).all()
        return dict(rows)


def ranked(named: dict[str, str], answers) -> list[Score]:
    """Every nicknamed player's score, best first (most right; then fewer answered, then the
    nickname), from `answers`: (digest, right) pairs; a player without one scores 0 of 0."""
    tally = {digest: [0, 0] for digest in named}
    for digest, right in answers:
        if digest in tally:
            tally[digest][0] += int(right)
            tally[digest][1] += 1
    scores = [Score(name, *tally[digest]) for digest, name in named.items()]
    return sorted(scores, key=lambda s: (-s.correct, s.answered, s.nickname))
