"""Homework for "When code breaks the proof": what a student gets (the grader's half is
grading/lessons/floating_point.py)."""

from __future__ import annotations

from homework.core import number_exercise

LESSON = "floating_point"

SEED = 37

SEED_OPTIONS = {
    "a": "their difference is exactly the person's value",
    "b": "their difference is the person's value plus twice the noise",
    "c": "no more than either release alone, each being ε-DP",
}


EXERCISES = (
    number_exercise(
        "floating_point.doubles",
        LESSON,
        "1. How fine is a double?",
        "How many double-precision numbers lie in [1, 2)? Set `doubles_in_one_to_two`.",
        "doubles_in_one_to_two",
        "a whole number",
    ),
    number_exercise(
        "floating_point.seed",
        LESSON,
        "2. A reused seed",
        "Two counts that differ only by you are released with Laplace noise drawn from the "
        "same seed. What goes wrong? "
        + "; ".join(f"({k}) {v}" for k, v in SEED_OPTIONS.items())
        + ". Set `reused_seed` to its letter.",
        "reused_seed",
        "a letter",
    ),
)
