"""Homework for "Uncertainty in DP answers": what a student gets (the grader's half is
grading/lessons/uncertainty.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "uncertainty"

SEED = 31


def grade_se(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.5, 100), (0.01, 10_000)] + [
        (float(rng.uniform(0.001, 0.999)), int(rng.integers(1, 10**6))) for _ in range(200)
    ]
    wrong = matches(
        fn,
        cases,
        dp.proportion_standard_error,
        name="share_standard_error",
        hint=lambda c: (
            f"At a share of {c[0]:.3f} over {c[1]:,} people your SE is off: the "
            "variance of a mean of n yes/no answers is p(1 − p)/n."
        ),
    )
    return wrong or Result(True, "A survey share's sampling error, everywhere tried.")


EXERCISES = (
    number_exercise(
        "uncertainty.interval",
        LESSON,
        "1. Noise and sampling together",
        "A survey's estimate has sampling error N(0, 10²), and the release adds Laplace noise "
        "of scale 20. What is the half-width t of the interval release ± t that holds the "
        "population's value 95% of the time? Set `half_width` (within 0.5%). "
        "`dp.noise_sampling_interval` may help.",
        "half_width",
    ),
    function_exercise(
        "uncertainty.se",
        LESSON,
        "2. A share's sampling error",
        "Write `share_standard_error(share, n)`: the standard error of a survey's share of "
        "yes over n people chosen at random.",
        "share_standard_error",
        "share, n",
        grade_se,
    ),
)
