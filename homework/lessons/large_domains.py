"""Homework for "Large domains and shuffling": what a student gets (the grader's half is
grading/lessons/large_domains.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "large_domains"

SEED = 29


def grade_olh(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0,), (3.0,)] + [(float(rng.uniform(0.1, 8)),) for _ in range(200)]
    wrong = matches(
        fn,
        cases,
        lambda e: float(dp.olh_parameters(e)[0]),
        name="olh_range",
        hint=lambda c: (
            f"At ε = {c[0]:.2f} your hash range is off: OLH hashes into g = e^ε + 1 "
            "buckets, rounded, and at least 2."
        ),
    )
    return wrong or Result(True, "OLH's hash range at every ε tried.")


EXERCISES = (
    number_exercise(
        "large_domains.sd",
        LESSON,
        "2. OLH's error",
        "10,000 people report a value from a huge domain with OLH at ε = 2. What is the "
        "standard deviation of one value's estimated count (true count 0)? Set "
        "`olh_count_sd` (within 1%). `dp.olh_variance` may help.",
        "olh_count_sd",
    ),
    function_exercise(
        "large_domains.olh",
        LESSON,
        "1. OLH's hash range",
        "Optimal local hashing hashes each value into g buckets, then randomizes the bucket. "
        "Write `olh_range(epsilon)`: the g it uses.",
        "olh_range",
        "epsilon",
        grade_olh,
    ),
)
