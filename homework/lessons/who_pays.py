"""Homework for "Who pays for privacy": a count's relative typical error, and the smallest
group a release can afford (the grader's half is grading/lessons/who_pays.py). Every number
a grade compares with comes from dp/ (dp.laplace_variance)."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "who_pays"

SEED = 2019


def _smallest(epsilon: float, share: float) -> int:
    """The smallest whole count whose typical error (Lap(1/ε)'s sd) is at most `share` of it."""
    return math.ceil(math.sqrt(dp.laplace_variance(1.0, epsilon)) / share - 1e-9)


def grade_smallest(fn) -> Result:
    """`smallest_count(epsilon, share)` on 200 random settings."""
    if not callable(fn):
        return Result(False, "smallest_count must be a function of (epsilon, share).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        epsilon = float(10 ** rng.uniform(-2, 1))
        share = float(rng.uniform(0.01, 0.5))
        ours, theirs = _smallest(epsilon, share), fn(epsilon, share)
        if theirs != ours:
            return Result(
                False,
                f"At ε = {epsilon:.3g} and share = {share:.3g} your count is {theirs!r}, not "
                f"{ours}. Laplace noise of scale 1/ε has standard deviation √2/ε; the count "
                "must be at least that divided by the share, rounded up to a whole person.",
            )
    return Result(True, "The smallest count a release can afford, at every setting tried.")


EXERCISES = (
    number_exercise(
        "who_pays.relative",
        LESSON,
        "1. A small group's count",
        "A group has 40 people earning more than \\$50K; the count is released with Laplace "
        "noise of scale 1/ε at ε = 0.5. What is its typical error (the noise's standard "
        "deviation) as a share of the count? Set `relative` (e.g. 0.1 for 10%).",
        "relative",
    ),
    function_exercise(
        "who_pays.smallest",
        LESSON,
        "2. The smallest group a release can afford",
        "Write `smallest_count(epsilon, share)`: the smallest whole count whose typical error "
        "under Laplace noise of scale 1/ε is at most `share` of the count.",
        "smallest_count",
        "epsilon, share",
        grade_smallest,
    ),
)
