"""Homework for "The definition": what a student gets (the grader's half is
grading/lessons/definition.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "definition"

SEED = 23


def grade_posterior(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.5, 1.0), (0.01, 3.0)] + [
        (float(rng.uniform(0.001, 0.999)), float(rng.uniform(0.05, 5))) for _ in range(300)
    ]
    wrong = matches(
        fn,
        cases,
        dp.posterior_bound,
        name="posterior_bound",
        hint=lambda c: (
            f"With a prior of {c[0]:.3f} at ε = {c[1]:.2f} your bound is off: the "
            "odds (not the probability) grow by at most e^ε."
        ),
    )
    return wrong or Result(True, "The worst-case belief, at every prior and ε tried.")


EXERCISES = (
    function_exercise(
        "definition.posterior",
        LESSON,
        "1. The most an attacker can believe",
        "An attacker believes with probability `prior` that you are in the data. After any "
        "output of an ε-DP mechanism (neighbours: one person added or removed), how high can "
        "that belief go? Write `posterior_bound(prior, epsilon)`.",
        "posterior_bound",
        "prior, epsilon",
        grade_posterior,
    ),
    number_exercise(
        "definition.ratio",
        LESSON,
        "2. The ratio ε = ln 3 allows",
        "At ε = ln 3, by what factor at most can one output be more likely with you in the "
        "data than without? Set `likelihood_ratio`.",
        "likelihood_ratio",
    ),
)
