"""Exercises and `check`, the call a student runs: the half of the homework a student gets.

An exercise asks for a function or a fixed answer (a number, a letter). A function's `grade`
tests *behaviour*: it is run many times on cases drawn from the lesson module's SEED and its
outputs tested with the course's own tolerances (a mean within 6 standard errors, a
Kolmogorov–Smirnov test, dp/ as the reference). That code is public: the autograder runs
the same grade on cases drawn from a seed only it has, in its own process, and scores 0 a
function that merely calls dp/ for what it was asked to write (grading/).

A fixed answer is checked here for its form only (a number, whole, a probability, a
letter): what it is compared with, and every solution, live in grading/, which only the
autograder has. Feedback gives a hint, never the answer. A student's code that raises is
reported, not re-raised: `check` never crashes the notebook.

No Streamlit: the autograder runs this on Gradescope's machines.
"""

from __future__ import annotations

import math
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from homework import reading
from homework.reading import DP_NOTE as DP_NOTE

RIGHT = "✓ Right."
NOT_YET = "✗ Not yet."


READY = "✓ Ready to hand in."


@dataclass(frozen=True)
class Result:
    """A grade: passed or not, and feedback that never gives the answer away. `final` is
    False for a fixed answer checked for its form only (its value is graded on hand-in)."""

    passed: bool
    feedback: str
    final: bool = True

    def __str__(self) -> str:
        verdict = (RIGHT if self.final else READY) if self.passed else NOT_YET
        return f"{verdict} {self.feedback}".strip()


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson's homework.

    `name` is the variable the student defines; `starter` the code cell the student
    notebook gives (it defines `name` so that the notebook runs, and fails the check);
    `grade` tests a function's behaviour (None for a fixed answer, whose grade is in
    grading/)."""

    id: str
    lesson: str
    title: str
    prompt: str
    name: str
    starter: str
    grade: Callable[[Any], Result] | None = None
    points: float = 1.0

    @property
    def kind(self) -> str:
        """ "function", or the form of a fixed answer: "letter", "whole", "probability" or
        "number" (read from the starter's comment, which says so to the student)."""
        if self.grade is not None:
            return "function"
        comment = self.starter.partition("#")[2]
        for word, kind in (
            ("letter", "letter"),
            ("whole", "whole"),
            ("probability", "probability"),
        ):
            if word in comment:
                return kind
        return "number"


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
        worded = getattr(error, "feedback", None)  # the grader's: the call broke or timed out
        if isinstance(worded, str):
            return Result(False, worded)
        where = traceback.extract_tb(error.__traceback__)[-1]
        return Result(
            False,
            f"Your code raised {type(error).__name__}: {error} (line {where.lineno}). "
            "Fix it, then run the check again.",
        )


def uses_dp(fn: Any) -> bool:
    """Whether `fn` (or a function it calls by name, defined beside it) refers to dp/: a
    module or function of the course's library among the globals its code names."""
    seen: set[int] = set()
    todo = [fn]
    while todo:
        current = todo.pop()
        code = getattr(current, "__code__", None)
        if code is None or id(code) in seen:
            continue
        seen.add(id(code))
        scope = dict(getattr(current, "__globals__", {}))
        for name, cell in zip(
            code.co_freevars, getattr(current, "__closure__", None) or (), strict=False
        ):
            try:
                scope[name] = cell.cell_contents  # a name from an enclosing function
            except ValueError:
                continue
        names = set(code.co_names) | set(code.co_freevars)
        for const in code.co_consts:  # nested functions and lambdas
            if hasattr(const, "co_names"):
                names |= set(const.co_names) | set(const.co_freevars)
        for name in names:
            value = scope.get(name)
            module = getattr(value, "__name__", "") if type(value).__name__ == "module" else ""
            owner = getattr(value, "__module__", "") or ""
            if (
                module == "dp"
                or module.startswith("dp.")
                or owner == "dp"
                or owner.startswith("dp.")
            ):
                return True
            if callable(value) and getattr(value, "__code__", None) is not None:
                todo.append(value)
    return False


def form(exercise: Exercise, value: Any) -> Result:
    """A fixed answer's form: set, and a finite number (whole, or a probability, when the
    exercise says so) or one letter. Its value is graded on hand-in (grading/)."""
    what = exercise.name
    if value is Ellipsis or value is None:
        return Result(False, f"Set {what} to your answer, then run the check again.")
    kind = exercise.kind
    if kind == "letter":
        if not isinstance(value, str) or len(value.strip()) != 1 or not value.strip().isalpha():
            return Result(False, f"{what} must be one letter, the option you choose.")
        return Result(True, "Your letter is graded when you hand the notebook in.", final=False)
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return Result(False, f"{what} must be a number, got {type(value).__name__}.")
    if not math.isfinite(value):
        return Result(False, f"{what} must be a finite number, got {value!r}.")
    if kind == "whole" and value != int(value):
        return Result(False, f"{what} must be a whole number, got {value!r}.")
    if kind == "probability" and not 0 <= value <= 1:
        return Result(False, f"{what} is a probability: between 0 and 1, got {value!r}.")
    return Result(True, "Your number is graded when you hand the notebook in.", final=False)


def public_check(exercise: Exercise, value: Any) -> Result:
    """What `check` runs: a function's behaviour on the public cases, and, when that passes,
    the grader's own reading of its code (homework/reading.py) on the cells this kernel has
    run, so that a function the grader would refuse is not told "right" (and a warning
    when the function object itself refers to dp/); a fixed answer's form."""
    if exercise.grade is None:
        return form(exercise, value)
    result = guarded(exercise.grade, value)
    if not (result.passed and callable(value)):
        return result
    refusal = code_refusal(exercise.name, value)
    return result if refusal is None else Result(False, refusal)


def code_refusal(name: str, value: Any) -> str | None:
    """Why the function `value` (the notebook's `name`) would be refused for what its code
    reaches, in the grader's words, or None: the function object refers to dp/ (`uses_dp`),
    or the grader's reading (homework/reading.py) of the cells this kernel has run refuses
    it. What `check` and Otter's hidden tests (homework/otter.py) say."""
    if uses_dp(value):
        return "Your function calls dp/ for what it was asked to do. " + DP_NOTE
    cells = kernel_cells()
    reason = reading.refused(cells, name) if cells else None
    if reason is None:
        return None
    return (
        reading.refusal_feedback(name, reason)
        + " If that cell has changed since it ran, restart the kernel, run every cell, then "
        "check again."
    )


def kernel_cells() -> list[str] | None:
    """The cells this notebook's kernel has run, in order (IPython's `In`, as IPython read
    them), or None outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    cells = getattr(shell, "user_ns", {}).get("In") if shell is not None else None
    return [cell for cell in cells if isinstance(cell, str)] if isinstance(cells, list) else None


def matches(fn, cases, ours, *, name: str, hint) -> Result | None:
    """None when fn(*case) equals ours(*case) (relative 1e-9) on every case; else the hint
    for the first case that differs (hint(case) words it)."""
    if not callable(fn):
        return Result(False, f"{name} must be a function.")
    for case in cases:
        expected = ours(*case)
        got = float(fn(*case))
        if not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12):
            return Result(False, hint(case))
    return None


def function_exercise(exercise_id, lesson, title, prompt, name, args, grade) -> Exercise:
    """An exercise that asks for a function `name(args)`, graded on its behaviour."""
    return Exercise(
        id=exercise_id,
        lesson=lesson,
        title=title,
        prompt=prompt,
        name=name,
        starter=f"def {name}({args}):\n    # your code\n    return unanswered()\n",
        grade=grade,
    )


def number_exercise(exercise_id, lesson, title, prompt, name, form: str = "") -> Exercise:
    """A fixed answer; `form` ("a letter", "a probability", "a whole number") is said in the
    starter's comment, and the student's check holds the answer to it."""
    return Exercise(
        id=exercise_id,
        lesson=lesson,
        title=title,
        prompt=prompt,
        name=name,
        starter=f"{name} = ...  # your answer{', ' + form if form else ''}\n",
    )


def registry(modules) -> dict[str, Exercise]:
    """Every exercise of the lesson modules, by id: each module's EXERCISES, all of its
    lesson (the module's own name), no id twice."""
    found: dict[str, Exercise] = {}
    for module in modules:
        lesson = module.__name__.rsplit(".", 1)[-1]
        for exercise in module.EXERCISES:
            if exercise.lesson != lesson:
                raise ValueError(
                    f"{exercise.id!r} is in {lesson}'s module, not {exercise.lesson}'s"
                )
            if exercise.id in found:
                raise ValueError(f"exercise {exercise.id!r} is registered twice")
            found[exercise.id] = exercise
    return found
