"""Homework for "Beyond global sensitivity": what a student gets (the grader's half is
grading/lessons/beyond_global.py)."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "beyond_global"

SEED = 29


def grade_local(fn) -> Result:
    """`median_local_sensitivity(values, lower, upper)` equals dp's on 200 random sorted
    lists of odd length, values inside [lower, upper]."""
    if not callable(fn):
        return Result(False, "median_local_sensitivity must be a function.")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n = 2 * int(rng.integers(1, 15)) + 1
        values = np.sort(rng.integers(0, 100, size=n).astype(float))
        ours = dp.median_local_sensitivity(values, 0.0, 100.0)
        theirs = float(fn(values.copy(), 0.0, 100.0))
        if not math.isclose(theirs, ours, rel_tol=1e-9, abs_tol=1e-12):
            return Result(
                False,
                f"On {n} values your local sensitivity is off: replacing one person can move "
                "the median to a neighbouring value. How far?",
            )
    return Result(True, "The median's local sensitivity on every list tried.")


EXERCISES = (
    number_exercise(
        "beyond_global.global",
        LESSON,
        "2. The median's global sensitivity",
        "Values lie in [0, 100] and one person's value may be replaced. What is the largest "
        "change of the median of three values over all datasets (its global sensitivity)? "
        "Set `median_global_sensitivity`.",
        "median_global_sensitivity",
    ),
    function_exercise(
        "beyond_global.local",
        LESSON,
        "1. The median's local sensitivity",
        "For a sorted list of an odd number of values in [lower, upper], write "
        "`median_local_sensitivity(values, lower, upper)`: how far the median can move when "
        "one person's value is replaced.",
        "median_local_sensitivity",
        "values, lower, upper",
        grade_local,
    ),
)
