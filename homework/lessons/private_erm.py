"""Homework for "Private ERM": output perturbation's expected noise as a function, and the
minimiser's sensitivity for given n and λ (the grader's half is
grading/lessons/private_erm.py). Every number a grade compares with comes from dp/erm.py's
formulas (CMS 2011)."""

from __future__ import annotations

import math

import numpy as np

from homework.core import Result, function_exercise, number_exercise

LESSON = "private_erm"

SEED = 2011


def _expected_noise(n: int, lam: float, epsilon: float, d: int) -> float:
    """E‖b‖ for output perturbation: ‖b‖ ~ Gamma(d, 1/β), β = nλε/2 (dp.output_perturbation)."""
    return d / (n * lam * epsilon / 2.0)


def grade_noise(fn) -> Result:
    """`expected_noise(n, lam, epsilon, d)` equals 2d/(nλε) on 200 random settings."""
    if not callable(fn):
        return Result(False, "expected_noise must be a function of (n, lam, epsilon, d).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n = int(rng.integers(100, 100_000))
        lam = float(10 ** rng.uniform(-5, -1))
        epsilon = float(10 ** rng.uniform(-2, 1))
        d = int(rng.integers(1, 50))
        ours, theirs = _expected_noise(n, lam, epsilon, d), float(fn(n, lam, epsilon, d))
        if not math.isclose(theirs, ours, rel_tol=1e-9):
            return Result(
                False,
                f"With n = {n}, λ = {lam:.3g}, ε = {epsilon:.3g} and d = {d} your length is "
                f"{theirs:.6g}, not {ours:.6g}. The noise's density is ∝ e^(−β‖b‖) with "
                "β = nλε/2; its length then follows a Gamma distribution with shape d and "
                "scale 1/β.",
            )
    return Result(True, "Output perturbation's expected noise length, at every setting tried.")


EXERCISES = (
    number_exercise(
        "private_erm.sensitivity",
        LESSON,
        "1. The minimiser's sensitivity",
        "An L2-regularised logistic regression on n = 50,000 rows in the unit ball, with "
        "λ = 0.0004. At most how far (in L2) can its minimiser move when one row is replaced? "
        "Set `sensitivity`.",
        "sensitivity",
    ),
    function_exercise(
        "private_erm.noise",
        LESSON,
        "2. Output perturbation's noise",
        "Output perturbation adds a vector b in d dimensions with density ∝ e^(−β‖b‖), "
        "β = nλε/2. Write `expected_noise(n, lam, epsilon, d)`: the expected length of b.",
        "expected_noise",
        "n, lam, epsilon, d",
        grade_noise,
    ),
)
