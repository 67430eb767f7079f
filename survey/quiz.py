"""Storage for live class quizzes, beside the surveys and with their guarantees (schema 5;
nicknames: schema 6).

A quiz is a list of multiple-choice questions that the lecturer shows one at a time; phones
answer the current one. What is stored, and why nothing more:
- a quiz: its join code, title, ε when private mode is on (else NULL), the question on show
  (its position; −1 before the first, the number of questions once finished), whether its
  answer is revealed, the deadline of a countdown (seconds since the epoch, or NULL), the
  SHA-256 digest of its admin key (never the key), a salt, the creation minute;
- its questions: prompt, 2–6 options, the index of the correct one and its explanation;
- an answer: the quiz, the question's position, the option *sent* (in private mode already
  randomized by the phone: the true choice never leaves it), the minute, and HMAC(salt,
  session token). A unique constraint on (quiz, position, digest) makes a double tap, a
  reload or a second replica count once;
- a nickname, only if the student gives one (optional; never asked in private mode): the
  quiz, the same HMAC digest, the nickname (1–20 printable characters), the minute. It is
  what links a browser's answers to a name on the scores the lecturer may project at the
  end; nothing else about the student is kept.

An answer is taken in one statement that inserts only while that question is on show,
unrevealed and within its deadline: a phone that lags behind the projector cannot answer a
question the lecturer has moved past. Writes, faults, read-only files and the busy retry are
the class database's (survey/database.py), which holds the surveys too; join codes, admin
keys and the one-answer rule are written once for both (survey/activity.py).
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass, field

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    case,
    cast,
    func,
    insert,
    literal,
    null,
    or_,
    select,
    update,
)

from . import activity, security
from .activity import StaleState, SubmitResult, clean_text
from .database import metadata
from .players import Players, Score, clean_nickname, players_table, ranked
from .surveys import MAX_QUESTION_CHARS
from .tokens import check_session_token

MAX_TITLE_CHARS = 100
MAX_OPTION_CHARS = 150
MAX_EXPLANATION_CHARS = 500
MIN_OPTIONS, MAX_OPTIONS = 2, 6
MAX_QUESTIONS = 30
MAX_COUNTDOWN_S = 600
MIN_EPSILON, MAX_EPSILON = 0.1, 10.0
quizzes_table = Table(
    "quiz_quizzes",
    metadata,
    *activity.code_columns(),
    Column("title", String(MAX_TITLE_CHARS), nullable=False),
    Column("epsilon", Float, nullable=True),
    Column("position", Integer, nullable=False),
    Column("revealed", Boolean, nullable=False),
    Column("deadline", Float, nullable=True),
    Column("countdown_s", Integer, nullable=False),  # per question; 0: none
    *activity.secret_columns(),
)

quiz_questions_table = Table(
    "quiz_questions",
    metadata,
    activity.belongs_to("quiz_quizzes", "quiz_id", primary_key=True),
    Column("position", Integer, primary_key=True, autoincrement=False),
    Column("prompt", String(MAX_QUESTION_CHARS), nullable=False),
    Column("options", Text, nullable=False),  # a JSON list of strings
    Column("correct", Integer, nullable=False),
    Column("explanation", String(MAX_EXPLANATION_CHARS), nullable=False),
)

quiz_answers_table = Table(
    "quiz_answers",
    metadata,
    activity.answer_id(),
    activity.belongs_to("quiz_quizzes", "quiz_id"),
    Column("position", Integer, nullable=False),
    Column("option", Integer, nullable=False),
    activity.browser_digest(),
    activity.minute("submitted_at"),
    UniqueConstraint("quiz_id", "position", "session_hash", name="one_answer_per_question"),
)


quiz_players_table = players_table("quiz_players", "quiz_quizzes", "quiz_id")


def _from_state(since: tuple[int, bool] | None) -> list:
    """The WHERE terms of a move made from `since` = (position, revealed) (none for None)."""
    if since is None:
        return []
    position, revealed = since
    if isinstance(position, bool) or not isinstance(position, int):
        raise TypeError("since's position must be an int")
    if not isinstance(revealed, bool):
        raise TypeError("since's revealed must be True or False")
    t = quizzes_table
    return [t.c.position == position, t.c.revealed.is_(revealed)]


def quiz_clock() -> float:
    """Seconds since the epoch: the countdown's clock, shared by every replica (tests
    freeze it)."""
    return time.time()


@dataclass(frozen=True)
class QuizQuestion:
    """One multiple-choice question, validated: a prompt (1–200 characters), 2–6 distinct
    options (1–150 characters each), the index of the correct one, an explanation (at most
    500 characters). Whitespace is collapsed. Everything is shown as plain text."""

    prompt: str
    options: tuple[str, ...]
    correct: int
    explanation: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "prompt", clean_text("prompt", self.prompt, MAX_QUESTION_CHARS))
        if isinstance(self.options, str) or not isinstance(self.options, tuple | list):
            raise TypeError("options must be a list of strings")
        if not MIN_OPTIONS <= len(self.options) <= MAX_OPTIONS:
            raise ValueError(
                f"options: a question needs {MIN_OPTIONS} to {MAX_OPTIONS}, got {len(self.options)}"
            )
        options = tuple(
            clean_text(f"option {i + 1}", o, MAX_OPTION_CHARS) for i, o in enumerate(self.options)
        )
        if len(set(options)) != len(options):
            raise ValueError("options must be different from each other")
        object.__setattr__(self, "options", options)
        if isinstance(self.correct, bool) or not isinstance(self.correct, int):
            raise TypeError("correct must be the index of an option")
        if not 0 <= self.correct < len(options):
            raise ValueError(f"correct must index the options (0 to {len(options) - 1})")
        object.__setattr__(
            self,
            "explanation",
            clean_text("explanation", self.explanation, MAX_EXPLANATION_CHARS, allow_empty=True),
        )


@dataclass(frozen=True)
class Quiz:
    """A quiz as anyone may see it (no admin key digest, no salt)."""

    id: int
    code: str
    title: str
    epsilon: float | None  # private mode's ε, or None
    position: int  # −1 before the first question; len(questions) once finished
    revealed: bool
    deadline: float | None
    countdown_s: int  # given to each question when it is shown; 0: none
    questions: tuple[QuizQuestion, ...] = field(repr=False)

    @property
    def private(self) -> bool:
        return self.epsilon is not None

    @property
    def started(self) -> bool:
        return self.position >= 0

    @property
    def finished(self) -> bool:
        return self.position >= len(self.questions)

    @property
    def current(self) -> QuizQuestion | None:
        """The question on show, or None before the first and after the last."""
        return self.questions[self.position] if 0 <= self.position < len(self.questions) else None

    def seconds_left(self, now: float | None = None) -> float | None:
        """Of the countdown (never below 0), or None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - (quiz_clock() if now is None else now))


@dataclass(frozen=True)
class NewQuiz:
    """A freshly created quiz and its admin key (shown once, to the lecturer only)."""

    quiz: Quiz
    admin_key: str = field(repr=False)


def _check_epsilon(epsilon: object) -> float | None:
    if epsilon is None:
        return None
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float):
        raise TypeError(f"epsilon must be a number or None, got {type(epsilon).__name__}")
    if not (math.isfinite(epsilon) and MIN_EPSILON <= epsilon <= MAX_EPSILON):
        raise ValueError(f"epsilon must be in [{MIN_EPSILON}, {MAX_EPSILON}], got {epsilon!r}")
    return float(epsilon)


class QuizStore(activity.ActivityStore):
    """Quizzes in the class store's database (the same engine, limits and token key)."""

    table = quizzes_table
    noun = "quiz"
    display = "class quiz"
    moves = "moving to the next question or revealing"
    columns = (
        "id",
        "join_code",
        "title",
        "epsilon",
        "position",
        "revealed",
        "deadline",
        "countdown_s",
    )

    def __init__(self, store):
        super().__init__(store)
        # A quiz's questions and salt never change once written: read once per process (a
        # phone polls the quiz every 2 s; then only its state row is read).
        self._questions_of: dict[int, tuple[QuizQuestion, ...]] = {}
        self._players = Players(self.db, quiz_players_table, "quiz_id")

    def _record(self, row, conn) -> Quiz:
        questions = self._questions_of.get(int(row.id))
        if questions is None:
            questions = self._questions(conn, int(row.id))
            self._questions_of[int(row.id)] = questions  # a dict write: atomic
        return Quiz(
            int(row.id),
            row.join_code,
            row.title,
            row.epsilon,
            int(row.position),
            bool(row.revealed),
            row.deadline,
            int(row.countdown_s),
            questions,
        )

    def _running(self):
        """Not finished: the position is before the end of its questions."""
        t, questions = quizzes_table, quiz_questions_table
        count = (
            select(func.count()).where(questions.c.quiz_id == t.c.id).correlate(t).scalar_subquery()
        )
        return t.c.position < count

    get_quiz = activity.ActivityStore.get
    get_quiz_by_code = activity.ActivityStore.find
    recent_open_quizzes = activity.ActivityStore.recent_open

    # -- creating ---------------------------------------------------------------------
    def create_quiz(
        self,
        title: str,
        questions: list[QuizQuestion],
        *,
        epsilon: float | None = None,
        countdown_s: int = 0,
        lineage: str | None = None,
    ) -> NewQuiz:
        """A new quiz, before its first question, with a fresh join code and admin key;
        each question, once shown, takes answers for `countdown_s` seconds (0: until the
        lecturer reveals it). `lineage`: as for every activity (`activity.lineage_of`)."""
        if isinstance(countdown_s, bool) or not isinstance(countdown_s, int):
            raise TypeError("countdown_s must be a whole number of seconds")
        if not 0 <= countdown_s <= MAX_COUNTDOWN_S:
            raise ValueError(f"countdown_s must be in [0, {MAX_COUNTDOWN_S}], got {countdown_s}")
        title = clean_text("title", title, MAX_TITLE_CHARS)
        questions = list(questions)
        if not 1 <= len(questions) <= MAX_QUESTIONS:
            raise ValueError(f"a quiz needs 1 to {MAX_QUESTIONS} questions, got {len(questions)}")
        questions = [dataclasses.replace(q) for q in questions]  # validated again
        epsilon = _check_epsilon(epsilon)
        admin_key = security.new_admin_key()
        row = {"title": title, "epsilon": epsilon, "countdown_s": countdown_s}
        secret_values = activity.new_row_secrets(admin_key, lineage)
        quiz_id = activity.with_fresh_join_code(
            lambda code: self._insert(code, row, questions, secret_values)
        )
        quiz = self.get_quiz(quiz_id)
        assert quiz is not None
        return NewQuiz(quiz, admin_key)

    def _insert(
        self, code: str, row: dict, questions: list[QuizQuestion], secret_values: dict
    ) -> int:
        """The quiz and its questions in one transaction (all or nothing)."""
        with self.db.transaction() as conn:
            quiz_id = conn.execute(
                insert(quizzes_table).values(
                    join_code=code,
                    position=-1,
                    revealed=False,
                    deadline=None,
                    **row,
                    **secret_values,
                )
            ).inserted_primary_key[0]
            conn.execute(
                insert(quiz_questions_table),
                [
                    {
                        "quiz_id": quiz_id,
                        "position": i,
                        "prompt": q.prompt,
                        "options": json.dumps(list(q.options)),
                        "correct": q.correct,
                        "explanation": q.explanation,
                    }
                    for i, q in enumerate(questions)
                ],
            )
        return int(quiz_id)

    # -- reading ----------------------------------------------------------------------
    def _questions(self, conn, quiz_id: int) -> tuple[QuizQuestion, ...]:
        t = quiz_questions_table
        rows = conn.execute(
            select(t.c.prompt, t.c.options, t.c.correct, t.c.explanation)
            .where(t.c.quiz_id == quiz_id)
            .order_by(t.c.position)
        ).all()
        return tuple(
            QuizQuestion(r.prompt, tuple(json.loads(r.options)), int(r.correct), r.explanation)
            for r in rows
        )

    def state(self, quiz_id: int) -> tuple[int, bool, float | None] | None:
        """(position, revealed, deadline) only: what a phone polls, one small read."""
        t = quizzes_table
        with self.db.reading() as conn:
            row = conn.execute(
                select(t.c.position, t.c.revealed, t.c.deadline).where(t.c.id == quiz_id)
            ).first()
        return None if row is None else (int(row.position), bool(row.revealed), row.deadline)

    # -- the lecturer -------------------------------------------------------------------
    def show(
        self,
        quiz_id: int,
        admin_key: str,
        position: int,
        *,
        seconds: float | None = None,
        since: tuple[int, bool] | None = None,
    ) -> None:
        """Put question `position` on show, unrevealed (a position past the last: the
        summary), with a countdown of `seconds` (None: the quiz's own; 0: none). A position
        before the one on show comes back revealed, with no countdown: it stays closed.

        `since`: the (position, revealed) the press was made from, as the projector showed
        it. The move is applied only from that state, in one statement; from any other (a
        stale tab pressing Next or Start after another tab moved on and revealed) it changes
        nothing and raises StaleState. A projector always passes it; None moves from
        whatever is stored (scripts and tests)."""
        self.require_admin(quiz_id, admin_key)
        quiz = self.get_quiz(quiz_id)
        assert quiz is not None
        if isinstance(position, bool) or not isinstance(position, int):
            raise TypeError("position must be an int")
        if not -1 <= position <= len(quiz.questions):
            raise ValueError(f"position must be in [-1, {len(quiz.questions)}], got {position}")
        if seconds is not None and not (0 <= seconds <= MAX_COUNTDOWN_S):
            raise ValueError(f"seconds must be in [0, {MAX_COUNTDOWN_S}], got {seconds!r}")
        seconds = quiz.countdown_s if seconds is None else seconds
        on_show = 0 <= position < len(quiz.questions)
        deadline = quiz_clock() + seconds if seconds and on_show else None
        # Going back (to a question the class has moved past, e.g. "Back" from the summary)
        # shows it closed and revealed: a question never reopens once answered and shown.
        # One statement, comparing with the position stored (SET reads the old row).
        back = quizzes_table.c.position > position
        moved = self.db.write(
            update(quizzes_table)
            .where(quizzes_table.c.id == quiz_id, *_from_state(since))
            .values(
                position=position,
                revealed=back,
                # Typed, so PostgreSQL does not read the NULL as text (a bare None did).
                deadline=case((back, null()), else_=cast(literal(deadline, Float), Float)),
            )
        )
        if since is not None and moved != 1:
            raise StaleState("the quiz moved on meanwhile: this press changed nothing")

    def reveal(self, quiz_id: int, admin_key: str, *, since: int | None = None) -> None:
        """Show the answers' distribution and the correct option: answering stops. `since`:
        the position the press was made from (StaleState, nothing changed, when the quiz has
        left it)."""
        self.require_admin(quiz_id, admin_key)
        t = quizzes_table
        where = [t.c.id == quiz_id] + ([] if since is None else [t.c.position == since])
        if self.db.write(update(t).where(*where).values(revealed=True)) != 1 and since is not None:
            raise StaleState("the quiz moved on meanwhile: this press changed nothing")

    # -- the students ---------------------------------------------------------------------
    def _fixed_questions(self, quiz_id: int) -> tuple[QuizQuestion, ...] | None:
        """The quiz's questions (read once per process), or None for an unknown quiz."""
        if isinstance(quiz_id, bool) or not isinstance(quiz_id, int):
            return None
        questions = self._questions_of.get(quiz_id)
        if questions is not None:
            return questions
        quiz = self.get_quiz(quiz_id)
        return None if quiz is None else quiz.questions

    def submit(
        self, quiz_id: int, position: int, session_token: str, option: object
    ) -> SubmitResult:
        """Record the option this phone sent for question `position`. Counted once per
        (quiz, question, browser): later taps return DUPLICATE and change nothing. Taken
        only while that question is on show, unrevealed and within its countdown (else
        CLOSED); an unknown quiz or question is UNKNOWN."""
        check_session_token(session_token)
        if isinstance(option, bool) or not isinstance(option, int):
            raise ValueError(f"option must be an option's index, got {option!r}")
        questions = self._fixed_questions(quiz_id)
        if (
            questions is None
            or isinstance(position, bool)
            or not isinstance(position, int)
            or not 0 <= position < len(questions)
        ):
            return SubmitResult.UNKNOWN
        if not 0 <= option < len(questions[position].options):
            raise ValueError(
                f"option must be in [0, {len(questions[position].options) - 1}], got {option}"
            )
        # The state (on show, unrevealed, in time) is checked by the insert itself.
        t, now = quizzes_table, quiz_clock()
        return activity.answer_while(
            self.db,
            quiz_answers_table,
            {"position": position, "option": option},
            self.digest(quiz_id, session_token),
            owner=t,
            owner_id=quiz_id,
            taking=(
                t.c.position == position,
                t.c.revealed.is_(False),
                or_(t.c.deadline.is_(None), t.c.deadline >= now),
            ),
        )

    def sent_option(self, quiz_id: int, position: int, session_token: str) -> int | None:
        """The option this browser sent for question `position`, or None."""
        digest, a = self.digest(quiz_id, session_token), quiz_answers_table
        if digest is None:
            return None
        with self.db.reading() as conn:
            return conn.execute(
                select(a.c.option).where(
                    a.c.quiz_id == quiz_id, a.c.position == position, a.c.session_hash == digest
                )
            ).scalar()

    def sent_options(self, quiz_id: int, session_token: str) -> dict[int, int]:
        """Question position → the option this browser sent, for every question it answered
        (what a phone shows its student at the end)."""
        found = self.own_by_position(quiz_answers_table, quiz_id, session_token, "option")
        return {position: int(option) for position, option in found.items()}

    # -- nicknames (optional; the lecturer may project the scores at the end) ---------------
    def set_nickname(self, quiz_id: int, session_token: str, nickname: object) -> str | None:
        """Give this browser a nickname in the quiz (replacing its last one), or with an
        empty text take it away; returns the nickname as stored (None: none). A quiz in
        private mode takes none (ValueError): a name on a score would tie the randomized
        answers to a person for nothing, since each one is noise on its own. An unknown
        quiz: LookupError."""
        check_session_token(session_token)
        nickname = clean_nickname(nickname)
        quiz = self.get_quiz(quiz_id)
        if quiz is None:
            raise LookupError("no such quiz")
        if quiz.private:
            raise ValueError("nickname: a quiz in private mode takes no nicknames")
        return self._players.set(quiz_id, self.digest(quiz_id, session_token), nickname)

    def nickname(self, quiz_id: int, session_token: str) -> str | None:
        """This browser's nickname in the quiz, or None."""
        return self._players.get(quiz_id, self.digest(quiz_id, session_token))

    def scores(self, quiz_id: int) -> list[Score]:
        """Every nicknamed player's score, best first (most correct; then fewer answered,
        then the nickname). Players without a nickname are not listed."""
        questions = self._fixed_questions(quiz_id)
        if questions is None:
            return []
        named = self._players.named(quiz_id)
        p, a = quiz_players_table, quiz_answers_table
        with self.db.reading() as conn:
            answers = conn.execute(
                select(a.c.session_hash, a.c.position, a.c.option)
                .join(p, (p.c.quiz_id == a.c.quiz_id) & (p.c.session_hash == a.c.session_hash))
                .where(a.c.quiz_id == quiz_id)
            ).all()
        return ranked(
            named,
            (
                (digest, option == questions[position].correct)
                for digest, position, option in answers
                if 0 <= position < len(questions)
            ),
        )

    def counts(self, quiz_id: int) -> dict[int, list[int]]:
        """Per question position: how many phones sent each option (what was sent)."""
        quiz = self.get_quiz(quiz_id)
        if quiz is None:
            return {}
        a = quiz_answers_table
        with self.db.reading() as conn:
            rows = conn.execute(
                select(a.c.position, a.c.option, func.count())
                .where(a.c.quiz_id == quiz_id)
                .group_by(a.c.position, a.c.option)
            ).all()
        out = {i: [0] * len(q.options) for i, q in enumerate(quiz.questions)}
        for position, option, n in rows:
            if position in out and 0 <= option < len(out[position]):
                out[position][option] = int(n)
        return out
