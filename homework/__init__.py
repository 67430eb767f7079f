"""Homework that grades itself: each lesson's exercises, the `check` a student runs in the
notebook, and the builders of student and solution notebooks and Gradescope autograders
(`make homework`). See homework/core.py."""

from homework.core import REGISTRY, Exercise, Result, check, unanswered


def exercises(lesson: str) -> list[Exercise]:
    """The exercises of one lesson, in order (their titles are numbered)."""
    from homework import lessons  # noqa: F401  (registers them)

    return sorted((e for e in REGISTRY.values() if e.lesson == lesson), key=lambda e: e.title)


__all__ = ["Exercise", "Result", "check", "exercises", "unanswered"]
