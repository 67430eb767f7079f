"""Homework for "The reusable holdout": Thresholdout's rule as a function of its noise draws,
and how many holdout answers a privacy budget buys (the grader's half is
grading/lessons/holdout.py). Every number a grade compares with comes from dp/ or the rule
as dp/adaptive.py writes it."""

from __future__ import annotations

import math

import numpy as np

from homework.core import Result, function_exercise, number_exercise

LESSON = "holdout"

SEED = 2015


def _rule(t: float, h: float, threshold: float, gamma: float, eta: float, xi: float) -> float:
    """Thresholdout's answer given its draws (dp/adaptive.py): the training value unless the
    gap passes the noisy threshold, then the holdout's value plus ξ."""
    return h + xi if abs(h - t) > threshold + gamma + eta else t


def grade_answer(fn) -> Result:
    """`thresholdout_answer(t, h, threshold, gamma, eta, xi)` follows the rule on 300 random
    cases, gaps on both sides of the noisy threshold among them."""
    if not callable(fn):
        return Result(False, "thresholdout_answer must be a function of six numbers.")
    rng = np.random.default_rng(SEED)
    for _ in range(300):
        t = float(rng.uniform(0.3, 0.7))
        h = t + float(rng.normal(0.0, 0.05))
        threshold = float(rng.uniform(0.0, 0.06))
        gamma, eta, xi = (float(v) for v in rng.laplace(scale=0.01, size=3))
        ours = _rule(t, h, threshold, gamma, eta, xi)
        theirs = float(fn(t, h, threshold, gamma, eta, xi))
        if not math.isclose(theirs, ours, rel_tol=1e-12, abs_tol=1e-12):
            return Result(
                False,
                f"With t = {t:.4f}, h = {h:.4f}, T = {threshold:.4f}, γ = {gamma:.4f}, "
                f"η = {eta:.4f}, ξ = {xi:.4f} your answer is {theirs:.6g}, not {ours:.6g}. "
                "Compare the gap |h − t| with T + γ + η: above it, the holdout answers (with "
                "ξ added); otherwise the training set does.",
            )
    return Result(True, "Thresholdout's rule, on every case tried.")


EXERCISES = (
    function_exercise(
        "holdout.answer",
        LESSON,
        "1. Thresholdout's rule",
        "A question has the value t on the training set and h on the holdout. Thresholdout "
        "has threshold T and has drawn its noise: γ (the threshold's), η (this comparison's) "
        "and ξ (the answer's). Write `thresholdout_answer(t, h, threshold, gamma, eta, xi)`: "
        "the answer it gives.",
        "thresholdout_answer",
        "t, h, threshold, gamma, eta, xi",
        grade_answer,
    ),
    number_exercise(
        "holdout.budget",
        LESSON,
        "2. A budget in holdout answers",
        "A holdout of n = 10,000 rows may be protected at ε = 1 in all. Thresholdout runs with "
        "tolerance σ = 0.01 on questions that are means of values in [0, 1]. How many holdout "
        "answers B can it give? Set `budget` (a whole number).",
        "budget",
    ),
)
