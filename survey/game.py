"""Storage for the ε guessing game (schema 7): rounds of one noisy release each, computed with
or without a volunteer's record (a hidden coin), and the room's guesses.

What is stored, and why nothing more:
- a game: its join code, title, ε of each release, the number of rounds, the round on show
  (−1 before the first; the number of rounds once finished), whether it is revealed, the
  count of the made-up dataset without the volunteer's record, the SHA-256 of its admin key
  (never the key), a salt, the creation minute;
- a round: its position, the coin (with the record or without) and the release, drawn on
  the server when the lecturer starts the round (the coin from the operating system's
  randomness, never a seed a student could know);
- a guess: the game, the round, "with" or "without", the minute and HMAC(salt, session
  token). One per browser and round (a unique constraint); taken only while that round is on
  show and unrevealed;
- a nickname, only if the student gives one (as the quiz's: the game, the digest, 1–20
  printable characters, the minute), for the scores the lecturer may project at the end.

The release is the made-up count plus the volunteer (0 or 1) plus discrete Laplace noise
with P[K = k] ∝ e^(−ε|k|): ε-DP for a count, neighbours differing in the volunteer's record.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
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

import dp

from . import activity, security
from .activity import StaleState, SubmitResult
from .database import metadata
from .players import Players, Score, players_table, ranked
from .tokens import check_session_token

MAX_TITLE_CHARS = 100
MIN_EPSILON, MAX_EPSILON = 0.05, 10.0
MIN_ROUNDS, MAX_ROUNDS = 2, 40
BASE_COUNT_RANGE = (20, 80)  # how many of the made-up dataset's 100 people have the trait

games_table = Table(
    "game_games",
    metadata,
    *activity.code_columns(),
    Column("title", String(MAX_TITLE_CHARS), nullable=False),
    Column("epsilon", Float, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("revealed", Boolean, nullable=False),
    Column("base_count", Integer, nullable=False),
    *activity.secret_columns(),
)

game_rounds_table = Table(
    "game_rounds",
    metadata,
    activity.belongs_to("game_games", "game_id", primary_key=True),
    Column("position", Integer, primary_key=True, autoincrement=False),
    Column("with_record", Boolean, nullable=False),
    Column("release", Integer, nullable=False),
)

game_guesses_table = Table(
    "game_guesses",
    metadata,
    activity.answer_id(),
    activity.belongs_to("game_games", "game_id"),
    Column("position", Integer, nullable=False),
    Column("guess", Boolean, nullable=False),  # True: "with the record"
    activity.browser_digest(),
    activity.minute("submitted_at"),
    UniqueConstraint("game_id", "position", "session_hash", name="one_guess_per_round"),
)

game_players_table = players_table("game_players", "game_games", "game_id")


@dataclass(frozen=True)
class Game:
    """A game as anyone may see it (no admin key digest, no salt, no coin)."""

    id: int
    code: str
    title: str
    epsilon: float
    rounds: int
    position: int
    revealed: bool
    base_count: int

    @property
    def started(self) -> bool:
        return self.position >= 0

    @property
    def finished(self) -> bool:
        return self.position >= self.rounds


@dataclass(frozen=True)
class NewGame:
    game: Game
    admin_key: str = field(repr=False)


@dataclass(frozen=True)
class Round:
    """One round: the coin (with the volunteer's record or without) and the release."""

    position: int
    with_record: bool
    release: int


@dataclass(frozen=True)
class Tally:
    """How many phones guessed "with" and "without" in one round."""

    with_record: int
    without: int

    @property
    def n(self) -> int:
        return self.with_record + self.without


def _check_epsilon(epsilon: object) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float):
        raise TypeError(f"epsilon must be a number, got {type(epsilon).__name__}")
    if not (math.isfinite(epsilon) and MIN_EPSILON <= epsilon <= MAX_EPSILON):
        raise ValueError(f"epsilon must be in [{MIN_EPSILON}, {MAX_EPSILON}], got {epsilon!r}")
    return float(epsilon)


def _check_rounds(rounds: object) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise TypeError(f"rounds must be a whole number, got {type(rounds).__name__}")
    if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds must be in [{MIN_ROUNDS}, {MAX_ROUNDS}], got {rounds}")
    return rounds


class GameStore(activity.ActivityStore):
    """Guessing games in the class store's database (the same engine, limits and token key)."""

    table = games_table
    noun = "game"
    display = "guessing game"
    moves = "moving to the next round or revealing"
    columns = (
        "id",
        "join_code",
        "title",
        "epsilon",
        "rounds",
        "position",
        "revealed",
        "base_count",
    )

    def __init__(self, store):
        super().__init__(store)
        self._players = Players(self.db, game_players_table, "game_id")
        self._rounds: dict[tuple[int, int], Round] = {}  # a round never changes once drawn

    def _record(self, row, conn) -> Game:
        return Game(
            int(row.id),
            row.join_code,
            row.title,
            float(row.epsilon),
            int(row.rounds),
            int(row.position),
            bool(row.revealed),
            int(row.base_count),
        )

    def _running(self):
        return games_table.c.position < games_table.c.rounds  # not finished

    get_game = activity.ActivityStore.get
    recent_open_games = activity.ActivityStore.recent_open

    # -- creating ---------------------------------------------------------------------------
    def create_game(
        self, title: str, epsilon: float, rounds: int, *, rng=None, lineage: str | None = None
    ) -> NewGame:
        """A new game before its first round, with a fresh join code and admin key
        (`lineage`: as for every activity, `activity.lineage_of`)."""
        title = activity.clean_text("title", title, MAX_TITLE_CHARS)
        epsilon = _check_epsilon(epsilon)
        rounds = _check_rounds(rounds)
        low, high = BASE_COUNT_RANGE
        base = int(np.random.default_rng(rng).integers(low, high + 1))
        admin_key = security.new_admin_key()
        secret_values = activity.new_row_secrets(admin_key, lineage)

        def insert_row(code: str) -> int:
            return self.db.write(
                insert(games_table).values(
                    join_code=code,
                    title=title,
                    epsilon=epsilon,
                    rounds=rounds,
                    position=-1,
                    revealed=False,
                    base_count=base,
                    **secret_values,
                ),
                primary_key=True,
            )

        game_id = activity.with_fresh_join_code(insert_row)
        game = self.get_game(game_id)
        assert game is not None
        return NewGame(game, admin_key)

    def state(self, game_id: int) -> tuple[int, bool] | None:
        """(position, revealed) only: what a phone polls, one small read."""
        t = games_table
        with self.db.reading() as conn:
            row = conn.execute(select(t.c.position, t.c.revealed).where(t.c.id == game_id)).first()
        return None if row is None else (int(row.position), bool(row.revealed))

    def round(self, game_id: int, position: int) -> Round | None:
        """Round `position` as drawn (read once per process), or None before it is drawn."""
        kept = self._rounds.get((game_id, position))
        if kept is not None:
            return kept
        t = game_rounds_table
        with self.db.reading() as conn:
            row = conn.execute(
                select(t.c.with_record, t.c.release).where(
                    t.c.game_id == game_id, t.c.position == position
                )
            ).first()
        if row is None:
            return None
        found = Round(position, bool(row.with_record), int(row.release))
        self._rounds[(game_id, position)] = found  # a dict write: atomic
        return found

    def rounds(self, game_id: int) -> list[Round]:
        """Every round drawn so far, in order."""
        t = game_rounds_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(t.c.position, t.c.with_record, t.c.release)
                .where(t.c.game_id == game_id)
                .order_by(t.c.position)
            ).all()
        return [Round(int(r.position), bool(r.with_record), int(r.release)) for r in rows]

    def tallies(self, game_id: int) -> dict[int, Tally]:
        """Per round: how many guessed "with" and "without"."""
        g = game_guesses_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(g.c.position, g.c.guess, func.count())
                .where(g.c.game_id == game_id)
                .group_by(g.c.position, g.c.guess)
            ).all()
        out: dict[int, list[int]] = {}
        for position, guess, n in rows:
            out.setdefault(int(position), [0, 0])[0 if guess else 1] += int(n)
        return {position: Tally(*pair) for position, pair in out.items()}

    def guesses(self, game_id: int) -> list[tuple[int, bool, str]]:
        """Every guess as stored: (round, "with"?, the browser's digest)."""
        g = game_guesses_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(g.c.position, g.c.guess, g.c.session_hash)
                .where(g.c.game_id == game_id)
                .order_by(g.c.id)
            ).all()
        return [(int(p), bool(x), h) for p, x, h in rows]

    def own_guesses(self, game_id: int, session_token: str) -> dict[int, bool]:
        """Round → this browser's guess, for every round it guessed."""
        found = self.own_by_position(game_guesses_table, game_id, session_token, "guess")
        return {position: bool(guess) for position, guess in found.items()}

    def own_guess(self, game_id: int, position: int, session_token: str) -> bool | None:
        """This browser's guess in round `position`, or None (what a phone polls until it
        knows; a stored guess never changes)."""
        digest, g = self.digest(game_id, session_token), game_guesses_table
        if digest is None:
            return None
        with self.db.reading() as conn:
            guess = conn.execute(
                select(g.c.guess).where(
                    g.c.game_id == game_id, g.c.position == position, g.c.session_hash == digest
                )
            ).scalar()
        return None if guess is None else bool(guess)

    # -- the lecturer -------------------------------------------------------------------------
    def next_round(
        self, game_id: int, admin_key: str, *, since: int | None = None, rng=None
    ) -> Round | None:
        """Move to the next round and draw it: a fair coin (with the volunteer's record or
        without) and the release, base + coin + discrete Laplace noise at the game's ε. After
        the last round: the summary (None). A round is drawn once; moving on is one way.

        `since`: the position the press was made from, as the projector showed it. The move
        is one transaction that first moves the position on from exactly that state (which
        locks the game's row), then draws the round: two tabs pressing Next together move
        one round, and the other press changes nothing and raises StaleState. None: from
        whatever is stored (scripts and tests)."""
        self.require_admin(game_id, admin_key)
        game = self.get_game(game_id)
        assert game is not None
        if since is not None and (isinstance(since, bool) or not isinstance(since, int)):
            raise TypeError("since must be an int (the position the press was made from)")
        start = game.position if since is None else since
        if start >= game.rounds:  # on the summary: nothing further
            if since is not None and game.position != since:
                raise StaleState("the game moved on meanwhile: this press changed nothing")
            return None
        position = start + 1
        drawn = None
        with self.db.transaction() as conn:
            moved = conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id, games_table.c.position == start)
                .values(position=position, revealed=False),
                execution_options={"preserve_rowcount": True},
            ).rowcount
            if moved != 1:  # another projector moved first: nothing is drawn here
                raise StaleState("the game moved on meanwhile: this press changed nothing")
            if position < game.rounds:
                generator = np.random.default_rng(rng)
                with_record = bool(generator.integers(2))
                release = dp.discrete_laplace_mechanism(
                    game.base_count + int(with_record), game.epsilon, rng=generator
                )
                drawn = Round(position, with_record, int(release))
                conn.execute(
                    insert(game_rounds_table).values(
                        game_id=game_id,
                        position=position,
                        with_record=with_record,
                        release=int(release),
                    )
                )
        return drawn

    def reveal(self, game_id: int, admin_key: str, *, since: int | None = None) -> None:
        """Show the round's coin: guessing stops. `since`: the round the press was made from
        (StaleState, nothing changed, when the game has left it)."""
        self.require_admin(game_id, admin_key)
        t = games_table
        where = [t.c.id == game_id] + ([] if since is None else [t.c.position == since])
        if self.db.write(update(t).where(*where).values(revealed=True)) != 1 and since is not None:
            raise StaleState("the game moved on meanwhile: this press changed nothing")

    # -- the students -----------------------------------------------------------------------
    def submit(
        self, game_id: int, position: int, session_token: str, guess: object
    ) -> SubmitResult:
        """Record this browser's guess for round `position` ("with": True). Once per browser
        and round (later taps: DUPLICATE); only while that round is on show and unrevealed
        (else CLOSED); an unknown game: UNKNOWN."""
        check_session_token(session_token)
        if not isinstance(guess, bool):
            raise TypeError(f"guess must be True (with) or False (without), got {guess!r}")
        if isinstance(position, bool) or not isinstance(position, int):
            return SubmitResult.UNKNOWN
        t = games_table
        return activity.answer_while(
            self.db,
            game_guesses_table,
            {"position": position, "guess": guess},
            self.digest(game_id, session_token),
            owner=t,
            owner_id=game_id,
            taking=(t.c.position == position, t.c.position < t.c.rounds, t.c.revealed.is_(False)),
        )

    # -- nicknames (optional; the lecturer may project the scores at the end) -----------------
    def set_nickname(self, game_id: int, session_token: str, nickname: object) -> str | None:
        """Give this browser a nickname in the game (empty: none); returns it as stored."""
        check_session_token(session_token)
        if self.get_game(game_id) is None:
            raise LookupError("no such game")
        return self._players.set(game_id, self.digest(game_id, session_token), nickname)

    def nickname(self, game_id: int, session_token: str) -> str | None:
        return self._players.get(game_id, self.digest(game_id, session_token))

    def scores(self, game_id: int) -> list[Score]:
        """Every nicknamed player's right guesses over the revealed rounds, best first."""
        game = self.get_game(game_id)
        if game is None:
            return []
        done = game.position + (1 if game.revealed else 0)
        coins = {r.position: r.with_record for r in self.rounds(game_id) if r.position < done}
        named = self._players.named(game_id)
        return ranked(
            named,
            (
                (digest, guess == coins[position])
                for position, guess, digest in self.guesses(game_id)
                if position in coins
            ),
        )
