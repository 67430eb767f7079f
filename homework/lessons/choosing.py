"""Homework for "Choosing privately": what a student gets (the grader's half is
grading/lessons/choosing.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "choosing"

SEED = 23


def grade_exponential(fn) -> Result:
    """`exponential_probabilities(scores, sensitivity, epsilon)` equals dp's on 200 random
    score lists, large ones included (a naive exp overflows)."""
    if not callable(fn):
        return Result(False, "exponential_probabilities must be a function.")
    rng = np.random.default_rng(SEED)
    for i in range(200):
        scores = rng.integers(0, 2000 if i % 4 == 0 else 50, size=int(rng.integers(2, 8)))
        sensitivity, epsilon = float(rng.choice([1.0, 2.0])), float(rng.uniform(0.1, 5))
        ours = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
        theirs = np.asarray(fn(scores.copy(), sensitivity, epsilon), dtype=float)
        if theirs.shape != ours.shape or not np.all(np.isfinite(theirs)):
            return Result(
                False,
                "Return one finite probability per candidate (large scores overflow a plain "
                "exp: subtract the largest score first).",
            )
        if not np.allclose(theirs, ours, rtol=1e-9, atol=1e-12):
            return Result(
                False,
                f"At ε = {epsilon:.2f} and Δ = {sensitivity:g} your probabilities are off: "
                "check the exponent's factor of 2 and the sensitivity.",
            )
    return Result(True, "The exponential mechanism's probabilities, stable for large scores.")


MEDIAN_SCORES = (0, 1, 2, 3, 2, 1, 0)


EXERCISES = (
    function_exercise(
        "choosing.exponential",
        LESSON,
        "1. The exponential mechanism",
        "Write `exponential_probabilities(scores, sensitivity, epsilon)`: the probability "
        "that the exponential mechanism picks each candidate (a NumPy array of scores, "
        "higher is better). Scores may be large.",
        "exponential_probabilities",
        "scores, sensitivity, epsilon",
        grade_exponential,
    ),
    number_exercise(
        "choosing.top",
        LESSON,
        "2. How often the best candidate wins",
        f"Seven candidates score {MEDIAN_SCORES} (Δ = 1). At ε = 1, how often does the "
        "exponential mechanism pick the best one? Set `top_probability` (within 0.0005).",
        "top_probability",
        "a probability",
    ),
)
