"""Homework for "Subsampling and DP as a test": what a student gets (the grader's half is
grading/lessons/subsampling.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "subsampling"

SEED = 23


def grade_amplified(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0, 0.01), (3.0, 0.5)] + [
        (float(rng.uniform(0.05, 8)), float(rng.uniform(0.001, 1))) for _ in range(300)
    ]
    wrong = matches(
        fn,
        cases,
        lambda e, q: dp.subsampled_privacy(e, 0.0, q)[0],
        name="amplified_epsilon",
        hint=lambda c: (
            f"At ε = {c[0]:.2f} on a sample at rate {c[1]:.3f} your ε′ is off: it "
            "is not q·ε (a first-order guess), but ln(1 + q(e^ε − 1))."
        ),
    )
    return wrong or Result(True, "Amplification by Poisson sampling, at every ε and rate tried.")


EXERCISES = (
    function_exercise(
        "subsampling.amplified",
        LESSON,
        "1. Amplification by sampling",
        "An ε-DP mechanism runs on a Poisson sample of the data (each person in it with "
        "probability q). Write `amplified_epsilon(epsilon, q)`: its ε′ on the whole data.",
        "amplified_epsilon",
        "epsilon, q",
        grade_amplified,
    ),
    number_exercise(
        "subsampling.steps",
        LESSON,
        "2. 300 steps, added up",
        "DP-SGD takes 300 steps, each ε = 1 on a 1% Poisson sample. What total ε does basic "
        "composition give? Set `basic_total` (within 0.5%). (An accountant gives far less.)",
        "basic_total",
    ),
)
