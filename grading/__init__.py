"""The grader's half of the homework, which no student gets: every solution, the grades of
the fixed answers, the seeds of the hidden cases, and the autograder that scores a
submission in its own process (grading/autograder.py).

The installed course package leaves this folder out (pyproject.toml lists the packages it
installs), so does every student notebook and Otter's student folder; only the Gradescope
autograder zip and Otter's autograder carry it (homework/build.py, homework/otter.py). The
public repository does hold it: a course that must keep its answers from students forks the
course privately (docs/homework.md).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

from homework.core import DP_NOTE as DP_NOTE
from homework.core import Result, guarded
from homework.lessons import REGISTRY


def solution(exercise_id: str) -> str:
    """The exercise's solution cell."""
    from grading.lessons import SOLUTIONS

    return SOLUTIONS[exercise_id]


@contextlib.contextmanager
def hidden_cases(exercise_id: str) -> Iterator[None]:
    """While inside, the exercise's lesson module draws its cases from the hidden seed."""
    grade = REGISTRY[exercise_id].grade
    module = importlib.import_module(grade.__module__)
    public = module.SEED
    module.SEED = importlib.import_module(f"grading.lessons.{module.LESSON}").HIDDEN_SEED
    try:
        yield
    finally:
        module.SEED = public


def grade(exercise_id: str, value: Any) -> Result:
    """The autograder's verdict on `value` for the exercise: a fixed answer against what
    grading/lessons holds, a function's behaviour on the hidden cases. (That a function may
    not call dp/ is judged on the notebook's code, grading/autograder.py.)"""
    from grading.lessons import GRADES

    exercise = REGISTRY[exercise_id]
    if exercise.grade is None:
        return guarded(GRADES[exercise_id], value)
    with hidden_cases(exercise_id):
        return guarded(exercise.grade, value)
