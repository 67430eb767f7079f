"""Exercises that grade themselves: what an exercise is, and `check`, the call a student runs.

An exercise asks for a function or a number. Its `grade` tests *behaviour*: a mechanism is
run many times at fixed seeds and its output distribution tested with the course's own
tolerances (a mean within 6 standard errors, a Kolmogorov–Smirnov test); a fixed numeric
answer is compared with an interval kept here, never in the notebook. Feedback says what is
wrong and gives a hint; it never prints the answer. A student's code that raises is
reported, not re-raised: `check` never crashes the notebook.

No Streamlit: the autograder (homework/autograder.py) runs this on Gradescope's machines.
"""

from __future__ import annotations

import math
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

RIGHT = "✓ Right."
NOT_YET = "✗ Not yet."


@dataclass(frozen=True)
class Result:
    """A grade: passed or not, and feedback that never gives the answer away."""

    passed: bool
    feedback: str

    def __str__(self) -> str:
        return f"{RIGHT if self.passed else NOT_YET} {self.feedback}".strip()


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson's homework.

    `name` is the variable the student defines (a function or a number); `starter` the code
    cell the student notebook gives (it defines `name` so that the notebook runs, and fails
    the check); `solution` the code the solution notebook gives; `grade` tests a value."""

    id: str
    lesson: str
    title: str
    prompt: str
    name: str
    starter: str
    solution: str
    grade: Callable[[Any], Result]
    points: float = 1.0


class Unanswered(Exception):
    """What a starter raises or holds: the exercise is not done yet."""


def unanswered(*_args: Any, **_kwargs: Any) -> Any:
    """The body a starter function calls: raises Unanswered."""
    raise Unanswered


def number_in(
    value: Any, low: float, high: float, *, what: str, too_low: str, too_high: str
) -> Result:
    """A numeric answer graded against the interval [low, high], with a hint for each side
    (the interval itself is never printed)."""
    if value is Ellipsis or value is None:
        return Result(False, f"Set {what} to your answer, then run the check again.")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Result(False, f"{what} must be a number, got {type(value).__name__}.")
    if not math.isfinite(value):
        return Result(False, f"{what} must be a finite number, got {value!r}.")
    if value < low:
        return Result(False, too_low)
    if value > high:
        return Result(False, too_high)
    return Result(True, "")


def guarded(grade: Callable[[Any], Result], value: Any) -> Result:
    """`grade(value)`, with the student's own errors reported as feedback: an unanswered
    starter, or an exception their code raised (its type, message and line)."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # an overflow is judged by its result (inf)
            return grade(value)
    except Unanswered:
        return Result(False, "Replace the starter's `unanswered(...)` with your code.")
    except Exception as error:  # noqa: BLE001 (the student's code may raise anything)
        where = traceback.extract_tb(error.__traceback__)[-1]
        return Result(
            False,
            f"Your code raised {type(error).__name__}: {error} (line {where.lineno}). "
            "Fix it, then run the check again.",
        )


REGISTRY: dict[str, Exercise] = {}


def register(*exercises: Exercise) -> None:
    for exercise in exercises:
        if exercise.id in REGISTRY:
            raise ValueError(f"exercise {exercise.id!r} is registered twice")
        REGISTRY[exercise.id] = exercise


def check(exercise_id: str, value: Any, *, quiet: bool = False) -> Result:
    """Grade `value` for the exercise `exercise_id` and print the verdict (right, or not yet
    with a hint). Returns the Result (the autograder reads it)."""
    from homework import lessons  # noqa: F401  (registers every lesson's exercises)

    exercise = REGISTRY.get(exercise_id)
    if exercise is None:
        raise KeyError(f"no exercise {exercise_id!r}; have {sorted(REGISTRY)}")
    result = guarded(exercise.grade, value)
    if not quiet:
        print(f"{exercise.title}: {result}")
    return result
