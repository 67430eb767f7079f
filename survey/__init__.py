"""survey: the classroom's storage — the live class activities (surveys, quizzes, heists
and games), in one database that every replica of the app shares. Pure Python +
SQLAlchemy (no Streamlit).

By job, each module using only the others' public names:
- database.py: the engine, the schema, writes with their busy retry, faults, read-only files;
- tokens.py: students' signed tokens and the salted digests that stand for them in rows;
- limits.py: rate limits counted in the database;
- activity.py: what every activity shares (join codes, admin keys, one answer each,
  `ActivityStore`: lookup, records, recent counts, admin checks, digests; `StaleState`);
- store.py: `ClassStore`, the database with its tokens and limits;
- surveys.py: surveys, responses and joins: `SurveyStore`, a class store with surveys;
- quiz.py: quizzes, their questions and answers (`QuizStore`);
- players.py: the nicknames a quiz and a game let students give, and their scores;
- heist.py: the class heist's made-up answers and the agency's ledger (`HeistStore`);
- game.py: the ε guessing game's rounds, guesses and nicknames (`GameStore`);
- checkin.py: the progress check-in's randomized reports (`CheckinStore`);
- security.py: codes, keys, salts and signatures; protocols.py: the survey's protocols.

The pages lessons/class_survey, class_quiz, class_heist, class_game and class_checkin use it
through `SurveyStore` (a `ClassStore`, with its `tokens` and `limits`), `QuizStore`,
`HeistStore`, `GameStore` and `CheckinStore` (each an `ActivityStore`).
"""

from .activity import ActivityStore, AdminKeyError, StaleState, SubmitResult
from .checkin import Checkin, CheckinStore, NewCheckin, Reports
from .database import SCHEMA_VERSION, STORAGE_FAULTS, StorageError
from .game import Game, GameStore, NewGame, Round, Tally
from .heist import Heist, HeistStore, NewHeist, Query
from .players import MAX_NICKNAME_CHARS, Score
from .protocols import CUSTOM, DIE, TWO_COINS, Protocol, custom, die, protocol_for, two_coins
from .quiz import (
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MIN_OPTIONS,
    NewQuiz,
    Quiz,
    QuizQuestion,
    QuizStore,
)
from .security import new_session_token, normalize_join_code
from .store import ClassStore
from .surveys import (
    MAX_QUESTION_CHARS,
    Counts,
    NewSurvey,
    Response,
    Survey,
    SurveyStore,
    clean_question,
)

__all__ = [
    "ActivityStore",
    "Checkin",
    "CheckinStore",
    "NewCheckin",
    "Reports",
    "ClassStore",
    "Game",
    "GameStore",
    "Heist",
    "HeistStore",
    "NewGame",
    "NewHeist",
    "Query",
    "Round",
    "Tally",
    "MAX_NICKNAME_CHARS",
    "MAX_OPTIONS",
    "MAX_OPTION_CHARS",
    "MAX_QUESTIONS",
    "MIN_OPTIONS",
    "NewQuiz",
    "Quiz",
    "QuizQuestion",
    "QuizStore",
    "Score",
    "CUSTOM",
    "DIE",
    "MAX_QUESTION_CHARS",
    "SCHEMA_VERSION",
    "STORAGE_FAULTS",
    "TWO_COINS",
    "AdminKeyError",
    "Counts",
    "NewSurvey",
    "Protocol",
    "Response",
    "StaleState",
    "StorageError",
    "SubmitResult",
    "Survey",
    "SurveyStore",
    "clean_question",
    "custom",
    "die",
    "new_session_token",
    "normalize_join_code",
    "protocol_for",
    "two_coins",
]
