"""Homework for "Counting over time": what a student gets (the grader's half is
grading/lessons/counting_over_time.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "counting_over_time"

SEED = 23


def grade_tree_variance(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1, 1024, 1.0), (1023, 1024, 1.0), (512, 1000, 0.5)]
    for _ in range(200):
        horizon = int(rng.integers(2, 5000))
        cases.append((int(rng.integers(1, horizon + 1)), horizon, float(rng.uniform(0.1, 5))))
    wrong = matches(
        fn,
        cases,
        dp.binary_tree_variance,
        name="tree_variance",
        hint=lambda c: (
            f"At t = {c[0]}, T = {c[1]}, ε = {c[2]:.2f} your variance is off: each "
            "of t's 1 bits adds a block with Lap(L/ε) noise, L the tree's number of levels."
        ),
    )
    return wrong or Result(True, "The tree's variance at any day and horizon.")


EXERCISES = (
    function_exercise(
        "counting_over_time.variance",
        LESSON,
        "1. The tree's variance",
        "The binary tree mechanism releases a running count over T days with ε per person's "
        "event. Write `tree_variance(t, horizon, epsilon)`: the variance of day t's count.",
        "tree_variance",
        "t, horizon, epsilon",
        grade_tree_variance,
    ),
    number_exercise(
        "counting_over_time.crossover",
        LESSON,
        "2. From which day the tree wins",
        "Over T = 1,000 days at ε = 1, from which day on is the tree's count more accurate "
        "(smaller variance) than summing noisy daily increments, on every later day too? Set "
        "`tree_wins_from` (a day).",
        "tree_wins_from",
        "a whole number",
    ),
)
