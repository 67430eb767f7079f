"""survey: live class surveys with randomized response — storage, protocols, secrets.

Pure Python + SQLAlchemy (no Streamlit): the pages lessons/class_survey and
lessons/class_quiz and the tests use it through `SurveyStore` and `QuizStore`.
"""

from .protocols import CUSTOM, DIE, TWO_COINS, Protocol, custom, die, protocol_for, two_coins
from .quiz import (
    MAX_NICKNAME_CHARS,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MIN_OPTIONS,
    NewQuiz,
    Quiz,
    QuizQuestion,
    QuizStore,
    Score,
)
from .security import new_session_token, normalize_join_code
from .store import (
    MAX_QUESTION_CHARS,
    SCHEMA_VERSION,
    STORAGE_FAULTS,
    AdminKeyError,
    Counts,
    NewSurvey,
    Response,
    StorageError,
    SubmitResult,
    Survey,
    SurveyStore,
    clean_question,
)

__all__ = [
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
