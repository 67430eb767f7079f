"""Homework for "What ε means in practice": what a student gets (the grader's half is
grading/lessons/epsilon_meaning.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "epsilon_meaning"

SEED = 31


def grade_advantage(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0,), (0.1,), (10.0,)] + [(float(rng.uniform(0.01, 20)),) for _ in range(200)]
    wrong = matches(
        fn,
        cases,
        lambda e: dp.advantage_bound(e),
        name="advantage_bound",
        hint=lambda c: (
            f"At ε = {c[0]:.2f} your bound is off: the best test sits where "
            "TPR = e^ε·FPR meets 1 − FPR = e^ε·(1 − TPR); its TPR − FPR is the bound."
        ),
    )
    return wrong or Result(True, "The most any test can tell, at every ε tried.")


EXERCISES = (
    function_exercise(
        "epsilon_meaning.advantage",
        LESSON,
        "1. The most any test can tell",
        "Write `advantage_bound(epsilon)`: the largest TPR − FPR any test can reach when it "
        "tells two neighbouring datasets apart from an ε-DP release.",
        "advantage_bound",
        "epsilon",
        grade_advantage,
    ),
    number_exercise(
        "epsilon_meaning.exposure",
        LESSON,
        "2. What δ = 10⁻⁵ can mean",
        "A (0, δ)-DP mechanism publishes each person's record with probability δ = 10⁻⁵, "
        "independently. With 1,000,000 people, what is the chance that at least one record is "
        "published? Set `someone_published` (within 0.0005).",
        "someone_published",
    ),
)
