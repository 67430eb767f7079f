"""Homework for "Privatized data for ML": what a student gets (the grader's half is
grading/lessons/private_ml.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "private_ml"

SEED = 37


def grade_feature_variance(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0, 1.0), (10.0, 0.5)] + [
        (float(rng.uniform(0.1, 100)), float(rng.uniform(0.05, 10))) for _ in range(200)
    ]
    wrong = matches(
        fn,
        cases,
        lambda width, epsilon: dp.laplace_variance(width, epsilon),
        name="noisy_feature_variance",
        hint=lambda c: (
            f"For a feature of range {c[0]:.2f} at ε = {c[1]:.2f} your variance is "
            "off: one person's feature moves by at most its range, and Var[Lap(b)] = 2b²."
        ),
    )
    return wrong or Result(True, "A locally noised feature's added variance, everywhere tried.")


EXERCISES = (
    function_exercise(
        "private_ml.variance",
        LESSON,
        "1. A noisy feature",
        "Each person adds Laplace noise to a feature whose values span `width` before sharing "
        "it, ε-locally-DP. Write `noisy_feature_variance(width, epsilon)`: the variance the "
        "noise adds.",
        "noisy_feature_variance",
        "width, epsilon",
        grade_feature_variance,
    ),
    number_exercise(
        "private_ml.rows",
        LESSON,
        "2. Enough rows",
        "A feature of range 1 is noised at ε = 1 per person. How many rows make the noisy "
        "feature's mean have a standard deviation (from the noise) of at most 0.01? Set "
        "`rows_needed`.",
        "rows_needed",
        "a whole number",
    ),
)
