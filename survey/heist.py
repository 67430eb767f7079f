"""Storage for the class heist (schema 7): a room's made-up answers, the "agency" that
answers aggregate queries over them, and the ledger of every query asked.

What is stored, and why nothing more:
- a heist: its join code, title, the names and ranges of the two harmless attributes the
  lecturer chose (e.g. "Seat row" 1–20, "Birthday month" 1–12), the smallest group the
  agency answers about, ε of one noisy query and the total budget (NULL: none), whether
  answers are closed, the digest of the target's browser (NULL until one is picked), the
  SHA-256 of its admin key (never the key), a salt, the creation minute;
- an answer: the heist, the made-up secret (a whole number 1–10), the two attributes,
  whether the student volunteers to be the target, the minute, and HMAC(salt, session
  token). One per browser (a unique constraint). The data are invented on purpose: the
  heist shows how such a secret leaks, so nobody types a real one;
- a query (the ledger): what was asked (a count or a sum of secrets; everyone, a group, all
  but a group, or the differencing pair "everyone minus all but a group"), exact or noisy,
  its ε, how many times, the total of the answers given, the ε it cost, or why it was
  refused (a group smaller than the minimum, a budget spent).

The agency's rule is a statistics office's: a group smaller than `min_group` people is never
answered about. The differencing pair passes that rule (both of its groups are large) and
still isolates one person. Noise is the discrete Laplace mechanism (dp/laplace.py): a count
has sensitivity 1 and a sum of secrets 10, when neighbouring rooms differ by one student
added or removed (a secret is at most 10).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
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
from .database import metadata, now_minute
from .tokens import check_session_token

MAX_TITLE_CHARS = 100
MAX_ATTRIBUTE_CHARS = 30
MIN_VALUES, MAX_VALUES = 2, 31  # an attribute takes the values 1..its maximum
SECRET_MIN, SECRET_MAX = 1, 10
MIN_GROUP_RANGE = (2, 10)
MIN_EPSILON, MAX_EPSILON = 0.05, 5.0
MAX_BUDGET = 1000.0
MAX_REPEATS = 1000  # one press asks a query at most this many times
KINDS = ("count", "sum")
WHO = ("all", "only", "except", "pair")
SENSITIVITY = {"count": 1, "sum": SECRET_MAX}  # one student added or removed

heists_table = Table(
    "heist_heists",
    metadata,
    *activity.code_columns(),
    Column("title", String(MAX_TITLE_CHARS), nullable=False),
    Column("a_name", String(MAX_ATTRIBUTE_CHARS), nullable=False),
    Column("a_max", Integer, nullable=False),
    Column("b_name", String(MAX_ATTRIBUTE_CHARS), nullable=False),
    Column("b_max", Integer, nullable=False),
    Column("min_group", Integer, nullable=False),
    Column("epsilon", Float, nullable=False),
    Column("budget", Float, nullable=True),
    Column("closed", Boolean, nullable=False),
    Column("target_hash", String(64), nullable=True),
    *activity.secret_columns(),
)

heist_answers_table = Table(
    "heist_answers",
    metadata,
    activity.answer_id(),
    activity.belongs_to("heist_heists", "heist_id"),
    Column("secret", Integer, nullable=False),
    Column("a", Integer, nullable=False),
    Column("b", Integer, nullable=False),
    Column("volunteer", Boolean, nullable=False),
    activity.browser_digest(),
    activity.minute("submitted_at"),
    UniqueConstraint("heist_id", "session_hash", name="one_heist_answer_per_browser"),
)

heist_queries_table = Table(
    "heist_queries",
    metadata,
    activity.answer_id(),
    activity.belongs_to("heist_heists", "heist_id"),
    Column("kind", String(8), nullable=False),
    Column("who", String(8), nullable=False),
    Column("a", Integer, nullable=True),
    Column("b", Integer, nullable=True),
    Column("epsilon", Float, nullable=True),  # NULL: answered exactly
    Column("repeats", Integer, nullable=False),
    Column("total", Integer, nullable=True),  # the sum of the answers given (NULL: refused)
    Column("cost", Float, nullable=False),
    Column("refused", String(200), nullable=True),
    Column("asked_at", DateTime, nullable=False),
)


@dataclass(frozen=True)
class Heist:
    """A heist as its projector and phones see it (no admin key digest, no salt)."""

    id: int
    code: str
    title: str
    a_name: str
    a_max: int
    b_name: str
    b_max: int
    min_group: int
    epsilon: float
    budget: float | None
    closed: bool
    target_hash: str | None = field(repr=False)

    @property
    def has_target(self) -> bool:
        return self.target_hash is not None


@dataclass(frozen=True)
class NewHeist:
    heist: Heist
    admin_key: str = field(repr=False)


@dataclass(frozen=True)
class Answer:
    """One student's made-up answer."""

    secret: int
    a: int
    b: int
    volunteer: bool


@dataclass(frozen=True)
class Query:
    """One line of the ledger: `total` is the sum of the `repeats` answers given (a pair's
    answer is its first query's minus its second's); `cost` the ε it spent."""

    id: int
    kind: str
    who: str
    a: int | None
    b: int | None
    epsilon: float | None
    repeats: int
    total: int | None
    cost: float
    refused: str | None

    @property
    def private(self) -> bool:
        return self.epsilon is not None

    @property
    def queries(self) -> int:
        """How many queries the agency answered (a pair is two a time)."""
        return self.repeats * (2 if self.who == "pair" else 1)


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be a whole number, got {type(value).__name__}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return int(value)


def _check_float(name: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be in [{low:g}, {high:g}], got {value!r}")
    return float(value)


def check_budget(budget: object) -> float | None:
    """None (no budget) or a number in [ε's minimum, MAX_BUDGET]."""
    return None if budget is None else _check_float("budget", budget, MIN_EPSILON, MAX_BUDGET)


def in_group(answers_a: np.ndarray, answers_b: np.ndarray, a: int | None, b: int | None):
    """Whether each answer is in the group "attribute A = a and attribute B = b" (None: any)."""
    inside = np.ones(answers_a.shape, dtype=bool)
    if a is not None:
        inside &= answers_a == a
    if b is not None:
        inside &= answers_b == b
    return inside


def exact_answer(kind: str, who: str, a: int | None, b: int | None, answers: list[Answer]):
    """(the exact answer, the sizes of the groups it reads): what the agency computes before
    any noise. A pair reads everyone and everyone outside the group."""
    secret = np.array([x.secret for x in answers], dtype=np.int64)
    column_a = np.array([x.a for x in answers], dtype=np.int64)
    column_b = np.array([x.b for x in answers], dtype=np.int64)
    group = in_group(column_a, column_b, a, b)
    everyone = np.ones(len(answers), dtype=bool)
    masks = {"all": [everyone], "only": [group], "except": [~group], "pair": [everyone, ~group]}[
        who
    ]
    values = [int(mask.sum()) if kind == "count" else int(secret[mask].sum()) for mask in masks]
    sizes = [int(mask.sum()) for mask in masks]
    answer = values[0] - values[1] if who == "pair" else values[0]
    return answer, sizes


class HeistStore(activity.ActivityStore):
    """Heists in the class store's database (the same engine, limits and token key)."""

    table = heists_table
    noun = "heist"
    display = "class heist"
    moves = "picking a target or asking the agency"
    columns = (
        "id",
        "join_code",
        "title",
        "a_name",
        "a_max",
        "b_name",
        "b_max",
        "min_group",
        "epsilon",
        "budget",
        "closed",
        "target_hash",
    )

    def __init__(self, store):
        super().__init__(store)
        # A heist as last read: `submit` needs only what never changes (names and ranges),
        # so a phone's tap reads no heist row (whether it is closed, the insert checks).
        self._shapes: dict[int, Heist] = {}

    def _record(self, row, conn) -> Heist:
        found = Heist(
            int(row.id),
            row.join_code,
            row.title,
            row.a_name,
            int(row.a_max),
            row.b_name,
            int(row.b_max),
            int(row.min_group),
            float(row.epsilon),
            None if row.budget is None else float(row.budget),
            bool(row.closed),
            row.target_hash,
        )
        self._shapes[found.id] = found  # its names and ranges never change (a dict write)
        return found

    def _running(self):
        return heists_table.c.closed.is_(False)  # still taking answers

    get_heist = activity.ActivityStore.get
    recent_open_heists = activity.ActivityStore.recent_open

    # -- creating ---------------------------------------------------------------------------
    def create_heist(
        self,
        title: str,
        a_name: str,
        a_max: int,
        b_name: str,
        b_max: int,
        *,
        min_group: int = 5,
        epsilon: float = 0.5,
        budget: float | None = 2.0,
        lineage: str | None = None,
    ) -> NewHeist:
        """A new heist, open for answers, with a fresh join code and admin key (`lineage`:
        as for every activity, `activity.lineage_of`)."""
        row = {
            "title": activity.clean_text("title", title, MAX_TITLE_CHARS),
            "a_name": activity.clean_text("attribute A's name", a_name, MAX_ATTRIBUTE_CHARS),
            "a_max": _check_int("attribute A's values", a_max, MIN_VALUES, MAX_VALUES),
            "b_name": activity.clean_text("attribute B's name", b_name, MAX_ATTRIBUTE_CHARS),
            "b_max": _check_int("attribute B's values", b_max, MIN_VALUES, MAX_VALUES),
            "min_group": _check_int("min_group", min_group, *MIN_GROUP_RANGE),
            "epsilon": _check_float("epsilon", epsilon, MIN_EPSILON, MAX_EPSILON),
            "budget": check_budget(budget),
        }
        if row["a_name"].casefold() == row["b_name"].casefold():
            raise ValueError("the two attributes must have different names")
        admin_key = security.new_admin_key()
        secret_values = activity.new_row_secrets(admin_key, lineage)

        def insert_row(code: str) -> int:
            return self.db.write(
                insert(heists_table).values(
                    join_code=code, closed=False, target_hash=None, **row, **secret_values
                ),
                primary_key=True,
            )

        heist_id = activity.with_fresh_join_code(insert_row)
        heist = self.get_heist(heist_id)
        assert heist is not None
        return NewHeist(heist, admin_key)

    # -- reading ----------------------------------------------------------------------------
    def answers(self, heist_id: int, *, conn=None) -> list[Answer]:
        """Every answer (the agency's data: never shown on the projector); `conn`: read in
        that transaction."""
        t = heist_answers_table
        statement = (
            select(t.c.secret, t.c.a, t.c.b, t.c.volunteer)
            .where(t.c.heist_id == heist_id)
            .order_by(t.c.id)
        )
        if conn is None:
            with self.db.reading() as reader:
                rows = reader.execute(statement).all()
        else:
            rows = conn.execute(statement).all()
        return [Answer(int(r.secret), int(r.a), int(r.b), bool(r.volunteer)) for r in rows]

    def count_answers(self, heist_id: int) -> tuple[int, int]:
        """(answers, volunteers among them): what the projector shows while the room answers."""
        t = heist_answers_table
        volunteers = func.sum(t.c.volunteer.cast(Integer))
        with self.db.reading() as conn:
            n, v = conn.execute(
                select(func.count(), volunteers).where(t.c.heist_id == heist_id)
            ).one()
        return int(n), int(v or 0)

    def own_answer(self, heist_id: int, session_token: str) -> Answer | None:
        """What this browser sent, or None."""
        digest, t = self.digest(heist_id, session_token), heist_answers_table
        if digest is None:
            return None
        with self.db.reading() as conn:
            row = conn.execute(
                select(t.c.secret, t.c.a, t.c.b, t.c.volunteer).where(
                    t.c.heist_id == heist_id, t.c.session_hash == digest
                )
            ).first()
        return None if row is None else Answer(int(row[0]), int(row[1]), int(row[2]), bool(row[3]))

    def target_answer(self, heist: Heist) -> Answer | None:
        """The target's answer (the projector shows only its two attributes)."""
        if heist.target_hash is None:
            return None
        t = heist_answers_table
        with self.db.reading() as conn:
            row = conn.execute(
                select(t.c.secret, t.c.a, t.c.b, t.c.volunteer).where(
                    t.c.heist_id == heist.id, t.c.session_hash == heist.target_hash
                )
            ).first()
        return None if row is None else Answer(int(row[0]), int(row[1]), int(row[2]), bool(row[3]))

    def group_size(self, heist_id: int, a: int, b: int) -> int:
        """How many answers have A = a and B = b (the target's group; the agency's data)."""
        t = heist_answers_table
        with self.db.reading() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(t.c.heist_id == heist_id, t.c.a == a, t.c.b == b)
                ).scalar_one()
            )

    def ledger(self, heist_id: int) -> list[Query]:
        """Every query asked, oldest first."""
        q = heist_queries_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(
                    q.c.id,
                    q.c.kind,
                    q.c.who,
                    q.c.a,
                    q.c.b,
                    q.c.epsilon,
                    q.c.repeats,
                    q.c.total,
                    q.c.cost,
                    q.c.refused,
                )
                .where(q.c.heist_id == heist_id)
                .order_by(q.c.id)
            ).all()
        return [
            Query(
                int(r.id),
                r.kind,
                r.who,
                r.a,
                r.b,
                r.epsilon,
                int(r.repeats),
                None if r.total is None else int(r.total),
                float(r.cost),
                r.refused,
            )
            for r in rows
        ]

    def spent(self, heist_id: int) -> float:
        """The ε the noisy queries have spent (basic composition: the sum of their costs)."""
        q = heist_queries_table
        with self.db.reading() as conn:
            return float(
                conn.execute(
                    select(func.coalesce(func.sum(q.c.cost), 0.0)).where(q.c.heist_id == heist_id)
                ).scalar_one()
            )

    # -- the students --------------------------------------------------------------------
    def submit(
        self,
        heist_id: int,
        session_token: str,
        secret: object,
        a: object,
        b: object,
        *,
        volunteer: bool = False,
    ) -> SubmitResult:
        """Store this browser's made-up answer, once (later taps: DUPLICATE), while the heist
        takes answers (else CLOSED); an unknown heist is UNKNOWN."""
        check_session_token(session_token)
        heist = self._shapes.get(heist_id) if isinstance(heist_id, int) else None
        if heist is None:
            heist = self.get_heist(heist_id)  # (remembers its shape)
        if heist is None:
            return SubmitResult.UNKNOWN
        secret = _check_int("secret", secret, SECRET_MIN, SECRET_MAX)
        a = _check_int(heist.a_name, a, 1, heist.a_max)
        b = _check_int(heist.b_name, b, 1, heist.b_max)
        if not isinstance(volunteer, bool):
            raise TypeError("volunteer must be True or False")
        return activity.answer_while(
            self.db,
            heist_answers_table,
            {"secret": secret, "a": a, "b": b, "volunteer": volunteer},
            self.digest(heist_id, session_token),
            owner=heists_table,
            owner_id=heist_id,
            taking=(heists_table.c.closed.is_(False),),
        )

    # -- the lecturer ---------------------------------------------------------------------
    def set_privacy(
        self,
        heist_id: int,
        admin_key: str,
        epsilon: float,
        budget: float | None,
        *,
        since: tuple[float, float | None] | None = None,
    ) -> None:
        """ε of each noisy query from now on, and the total budget (None: no budget).

        `since`: the (ε, budget) the press was made from, as the projector showed them. The
        change is one conditional UPDATE from exactly those values, else StaleState and
        nothing changed: a second tab still showing a budget of 5 cannot put back the 5
        that another tab lowered to 2 while changing only ε. None: from whatever is stored
        (scripts and tests)."""
        self.require_admin(heist_id, admin_key)
        epsilon = _check_float("epsilon", epsilon, MIN_EPSILON, MAX_EPSILON)
        budget = check_budget(budget)
        t = heists_table
        where = [t.c.id == heist_id]
        if since is not None:
            if not isinstance(since, tuple) or len(since) != 2:
                raise TypeError("since must be the (epsilon, budget) the press was made from")
            seen_epsilon = _check_float("since's epsilon", since[0], MIN_EPSILON, MAX_EPSILON)
            seen_budget = check_budget(since[1])
            where.append(t.c.epsilon == seen_epsilon)
            where.append(t.c.budget.is_(None) if seen_budget is None else t.c.budget == seen_budget)
        changed = self.db.write(update(t).where(*where).values(epsilon=epsilon, budget=budget))
        if changed != 1 and since is not None:
            raise StaleState("ε or the budget changed meanwhile: this press changed nothing")

    def pick_target(self, heist_id: int, admin_key: str, rng=None) -> Answer:
        """Close the answers and draw the target at random among the volunteers (among
        everyone when nobody volunteered); returns the target's answer. ValueError when
        nobody has answered; StaleState when a target was already picked (once per heist)."""
        self.require_admin(heist_id, admin_key)
        t = heist_answers_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(t.c.session_hash, t.c.volunteer).where(t.c.heist_id == heist_id)
            ).all()
        if not rows:
            raise ValueError("nobody has answered yet: there is no one to target")
        pool = [r.session_hash for r in rows if r.volunteer] or [r.session_hash for r in rows]
        generator = np.random.default_rng(rng)
        chosen = pool[int(generator.integers(len(pool)))]
        # From "no target yet" only: a second tab's press cannot draw another target (the
        # room would see the target change after the projector showed it).
        t = heists_table
        picked = self.db.write(
            update(t)
            .where(t.c.id == heist_id, t.c.target_hash.is_(None))
            .values(closed=True, target_hash=chosen)
        )
        if picked != 1:
            raise StaleState("the target was picked meanwhile: this press changed nothing")
        heist = self.get_heist(heist_id)
        assert heist is not None
        found = self.target_answer(heist)
        assert found is not None
        return found

    def ask(
        self,
        heist_id: int,
        admin_key: str,
        kind: str,
        who: str,
        a: int | None = None,
        b: int | None = None,
        *,
        private: bool,
        repeats: int = 1,
        since: float | None = None,
        rng=None,
    ) -> Query:
        """Ask the agency a query (`repeats` times when noisy; an exact one once) and write it
        in the ledger.

        Exact: refused, at no cost, when a group it reads is smaller than the heist's
        minimum (the statistics office's rule that the differencing pair gets around).
        Noisy: never refused for a group's size, which would make the answer depend on exact
        counts outside the noise (two rooms that differ in one student would be told apart
        by whether a query is refused); refused only when its ε would overspend the budget.
        Reading what was spent and recording the spend are one atomic step
        (`Database.atomically`: a lock on the heist's row), so that concurrent presses in
        several projector tabs never spend more than the budget.

        `since`: for a noisy query, the ε a query the press was made at (its button said
        what it costs at that ε). StaleState, nothing asked or spent, when the heist's ε has
        changed since (another tab moved it). None: at whatever ε is stored."""
        self.require_admin(heist_id, admin_key)
        heist = self.get_heist(heist_id)
        assert heist is not None
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        if who not in WHO:
            raise ValueError(f"who must be one of {WHO}, got {who!r}")
        a = None if a is None else _check_int(heist.a_name, a, 1, heist.a_max)
        b = None if b is None else _check_int(heist.b_name, b, 1, heist.b_max)
        if who != "all" and a is None and b is None:
            raise ValueError("a group needs a value of at least one attribute")
        if who == "all":
            a = b = None
        repeats = _check_int("repeats", repeats, 1, MAX_REPEATS) if private else 1
        if since is not None:
            since = _check_float("since", since, MIN_EPSILON, MAX_EPSILON)
        per_answer = 2 if who == "pair" else 1
        generator = np.random.default_rng(rng)

        def answer(conn) -> Query:
            # Inside the lock: the heist's ε and budget as they are now, what was spent.
            current = conn.execute(
                select(heists_table.c.epsilon, heists_table.c.budget).where(
                    heists_table.c.id == heist_id
                )
            ).one()
            epsilon = float(current.epsilon) if private else None
            if private and since is not None and epsilon != since:
                raise StaleState("ε changed meanwhile: this press asked nothing")
            budget_total = None if current.budget is None else float(current.budget)
            answers = self.answers(heist_id, conn=conn)
            exact, sizes = exact_answer(kind, who, a, b, answers)
            cost = epsilon * per_answer * repeats if private else 0.0
            refused = total = None
            if private:
                q = heist_queries_table
                spent = conn.execute(
                    select(func.coalesce(func.sum(q.c.cost), 0.0)).where(q.c.heist_id == heist_id)
                ).scalar_one()
                # A budget lowered below what was spent is simply used up.
                ledger = dp.PrivacyBudget(budget_total, min(float(spent), budget_total or math.inf))
                try:
                    ledger.request(cost)
                except dp.BudgetExceeded:
                    left = ledger.remaining
                    refused = (
                        f"it costs ε = {cost:g}, and {left:g} of the budget of "
                        f"{budget_total:g} is left"
                    )
            else:
                small = [size for size in sizes if size < heist.min_group]
                if small:
                    refused = (
                        f"a group of {min(small):,} is smaller than the agency's minimum of "
                        f"{heist.min_group:,}"
                    )
            if refused is None:
                total = exact * repeats
                if private:
                    step = epsilon / SENSITIVITY[kind]  # ε/Δ: Δ = 1 (count), 10 (sum)
                    noise = dp.discrete_laplace_mechanism(
                        0, step, size=(repeats, per_answer), rng=generator
                    )
                    signs = np.array([1, -1][:per_answer])
                    total += int((noise * signs).sum())
            else:
                cost = 0.0
            query_id = conn.execute(
                insert(heist_queries_table).values(
                    heist_id=heist_id,
                    kind=kind,
                    who=who,
                    a=a,
                    b=b,
                    epsilon=epsilon,
                    repeats=repeats,
                    total=total,
                    cost=cost,
                    refused=refused,
                    asked_at=now_minute(),
                )
            ).inserted_primary_key[0]
            return Query(int(query_id), kind, who, a, b, epsilon, repeats, total, cost, refused)

        return self.db.atomically(heists_table, heist_id, answer)
