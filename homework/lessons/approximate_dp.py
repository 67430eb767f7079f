"""Homework for "Approximate DP": the classic Gaussian σ as a function (a derivation that
drops the 1.25 is caught), and how much less noise the analytic Gaussian needs. Every
number a grade compares with comes from dp/."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Exercise, Result

LESSON = "approximate_dp"

SEED = 5


def grade_sigma(sigma) -> Result:
    """`classic_sigma(sensitivity, epsilon, delta)` equals dp.gaussian_sigma_classic on 300
    random settings (ε < 1, where the classic formula holds)."""
    if not callable(sigma):
        return Result(False, "classic_sigma must be a function of (sensitivity, epsilon, delta).")
    rng = np.random.default_rng(SEED)
    for _ in range(300):
        sensitivity = float(rng.choice([1.0, 2.0, 10.0]))
        epsilon = float(rng.uniform(0.05, 0.99))
        delta = float(10 ** rng.uniform(-10, -3))
        ours = dp.gaussian_sigma_classic(sensitivity, epsilon, delta)
        theirs = float(sigma(sensitivity, epsilon, delta))
        if not math.isclose(theirs, ours, rel_tol=1e-9):
            ratio = theirs / ours
            return Result(
                False,
                f"At Δ = {sensitivity:g}, ε = {epsilon:.3f}, δ = {delta:.1e} your σ is "
                f"{ratio:.3f} times the classic one. Check each factor: Δ, ε, and the "
                "logarithm's argument (Dwork & Roth, Theorem A.1).",
            )
    return Result(True, "The classic Gaussian σ, at every setting tried.")


SETTING = {"sensitivity": 1.0, "epsilon": 0.5, "delta": 1e-5}


EXERCISES = (
    Exercise(
        id="approximate_dp.sigma",
        lesson=LESSON,
        title="1. The classic Gaussian σ",
        prompt="Write `classic_sigma(sensitivity, epsilon, delta)`: the standard deviation of "
        "the Gaussian mechanism's noise that the classic theorem proves (ε, δ)-DP for ε < 1. "
        "Some texts drop a constant in its derivation: the check tries 300 settings.",
        name="classic_sigma",
        starter="def classic_sigma(sensitivity, epsilon, delta):\n"
        "    # your code\n"
        "    return unanswered()\n",
        grade=grade_sigma,
        points=2.0,
    ),
    Exercise(
        id="approximate_dp.analytic",
        lesson=LESSON,
        title="2. How much the analytic Gaussian saves",
        prompt="For a count (Δ = 1) at ε = 0.5 and δ = 10⁻⁵, the analytic Gaussian mechanism "
        "(Balle & Wang 2018) uses the least σ whose δ(ε) is at most δ. What is its σ divided "
        "by the classic σ? Set `analytic_over_classic` (within 0.5%). `dp.analytic_gaussian_"
        "sigma` and `dp.gaussian_sigma_classic` may help.",
        name="analytic_over_classic",
        starter="analytic_over_classic = ...  # your answer\n",
    ),
)
