"""Homework that grades itself: each lesson's exercises, the `check` a student runs in the
notebook, and the builders of student and solution notebooks and Gradescope autograders
(`make homework`). See homework/core.py."""

from typing import Any

from homework.core import Exercise, Result, public_check, unanswered
from homework.lessons import REGISTRY


def exercises(lesson: str) -> list[Exercise]:
    """The exercises of one lesson, in order (their titles are numbered)."""
    return sorted((e for e in REGISTRY.values() if e.lesson == lesson), key=lambda e: e.title)


def check(exercise_id: str, value: Any, *, quiet: bool = False) -> Result:
    """Check `value` for the exercise `exercise_id` and print the verdict (right, ready to
    hand in, or not yet with a hint). Returns the Result. The score is the autograder's
    (grading/), in its own process: nothing done to this function changes it."""
    exercise = REGISTRY.get(exercise_id)
    if exercise is None:
        raise KeyError(f"no exercise {exercise_id!r}; have {sorted(REGISTRY)}")
    result = public_check(exercise, value)
    if not quiet:
        print(f"{exercise.title}: {result}")
    return result


__all__ = ["Exercise", "Result", "check", "exercises", "unanswered"]
