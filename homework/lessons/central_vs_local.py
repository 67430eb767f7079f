"""Homework for "Central versus local": what a student gets (the grader's half is
grading/lessons/central_vs_local.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "central_vs_local"

SEED = 29


def grade_local_std(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1000, 1.0), (10**6, 0.5)] + [
        (int(rng.integers(10, 10**6)), float(rng.uniform(0.1, 5))) for _ in range(200)
    ]
    wrong = matches(
        fn,
        cases,
        lambda n, e: float(dp.local_count_std(n, e)),
        name="local_count_std",
        hint=lambda c: (
            f"With n = {c[0]:,} at ε = {c[1]:.2f} your SD is off: each report is "
            "randomized with keep-probability e^ε/(1 + e^ε), and the error grows like √n."
        ),
    )
    return wrong or Result(True, "The local model's error at every n and ε tried.")


EXERCISES = (
    function_exercise(
        "central_vs_local.std",
        LESSON,
        "1. The local model's error",
        "n people each answer yes/no with binary randomized response at ε (p = q). Write "
        "`local_count_std(n, epsilon)`: the standard deviation of the estimated count of "
        "yes when the true share is 0.",
        "local_count_std",
        "n, epsilon",
        grade_local_std,
    ),
    number_exercise(
        "central_vs_local.ratio",
        LESSON,
        "2. How much the local model costs",
        "With 10,000 people at ε = 1, how many times larger is the local model's typical "
        "count error than the central Laplace count's? Set `local_over_central` (within 1%). "
        "`dp.local_to_central_error_ratio` may help.",
        "local_over_central",
    ),
)
