"""Homework for "The 2020 Census in miniature": what a student gets (the grader's half is
grading/lessons/census_topdown.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches

LESSON = "census_topdown"

SEED = 37


def grade_rho_sigma(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0, 0.5), (2.0, 0.01)] + [
        (float(rng.choice([1.0, 2.0, 4.0])), float(10 ** rng.uniform(-3, 1))) for _ in range(200)
    ]
    wrong = matches(
        fn,
        cases,
        dp.gaussian_sigma_for_rho,
        name="sigma_for_rho",
        hint=lambda c: (
            f"At Δ = {c[0]:g}, ρ = {c[1]:.3g} your σ is off: the Gaussian mechanism "
            "with σ is (Δ²/(2σ²))-zCDP."
        ),
    )
    return wrong or Result(True, "zCDP's σ at every Δ and ρ tried.")


def grade_rounding(fn) -> Result:
    """`round_keeping_total(values)` returns whole numbers with the same (rounded) total,
    each within 1 of its value, on 200 random vectors (as dp.round_preserving_sum)."""
    if not callable(fn):
        return Result(False, "round_keeping_total must be a function of a list of numbers.")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        values = rng.uniform(0, 50, size=int(rng.integers(1, 12)))
        theirs = np.asarray(fn(list(values)), dtype=float)
        if theirs.shape != values.shape or np.any(theirs != np.round(theirs)):
            return Result(False, "Return one whole number per value.")
        if theirs.sum() != round(values.sum()):
            return Result(False, "Your whole numbers do not add up to the rounded total.")
        if np.any(np.abs(theirs - values) >= 1):
            return Result(False, "Each whole number must stay within 1 of its value.")
    return Result(True, "Whole counts that keep the total, each within 1.")


EXERCISES = (
    function_exercise(
        "census_topdown.sigma",
        LESSON,
        "1. zCDP's noise",
        "Write `sigma_for_rho(sensitivity, rho)`: the σ that makes the Gaussian mechanism "
        "exactly ρ-zCDP.",
        "sigma_for_rho",
        "sensitivity, rho",
        grade_rho_sigma,
    ),
    function_exercise(
        "census_topdown.rounding",
        LESSON,
        "2. Whole counts that keep the total",
        "Write `round_keeping_total(values)`: whole numbers, each within 1 of its value, whose "
        "sum is the values' total rounded (as TopDown's post-processing needs).",
        "round_keeping_total",
        "values",
        grade_rounding,
    ),
)
