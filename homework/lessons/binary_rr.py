"""Homework for "Binary RR with any p and q": what a student gets (the grader's half is
grading/lessons/binary_rr.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "binary_rr"

SEED = 23


def grade_rr_epsilon(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.75, 0.75), (0.7, 0.6), (0.3, 0.2), (0.6, 0.4)] + [
        tuple(float(x) for x in rng.uniform(0.02, 0.98, 2)) for _ in range(300)
    ]
    wrong = matches(
        fn,
        cases,
        lambda p, q: float(dp.rr_epsilon(p, q)),
        name="rr_epsilon",
        hint=lambda c: (
            f"At p = {c[0]:.2f}, q = {c[1]:.2f} your ε is off: take the largest "
            "|log| of the two outputs' likelihood ratios (p and q below ½ too)."
        ),
    )
    return wrong or Result(True, "ε of any keep-probabilities, below ½ too.")


EXERCISES = (
    function_exercise(
        "binary_rr.epsilon",
        LESSON,
        "1. The ε of any keep-probabilities",
        "Binary randomized response keeps a true 1 with probability p and a true 0 with "
        "probability q. Write `rr_epsilon(p, q)`, right for p or q below ½ too.",
        "rr_epsilon",
        "p, q",
        grade_rr_epsilon,
    ),
    number_exercise(
        "binary_rr.keep",
        LESSON,
        "2. The keep-probability for ε = 2",
        "With p = q, which keep-probability makes binary randomized response exactly 2-DP? "
        "Set `keep_probability` (within 0.0005).",
        "keep_probability",
        "a probability",
    ),
)
