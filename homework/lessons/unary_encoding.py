"""Homework for "Unary encoding": what a student gets (the grader's half is
grading/lessons/unary_encoding.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, matches, number_exercise

LESSON = "unary_encoding"

SEED = 23


def grade_ue_epsilon(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.5, 0.25), (0.75, 0.25)]
    for _ in range(300):
        q, p = sorted(float(x) for x in rng.uniform(0.02, 0.98, 2))
        if p > q:
            cases.append((p, q))
    wrong = matches(
        fn,
        cases,
        dp.ue_epsilon,
        name="ue_epsilon",
        hint=lambda c: (
            f"At p = {c[0]:.2f}, q = {c[1]:.2f} your ε is off: two answers differ "
            "in two bits, and each bit's ratio counts."
        ),
    )
    return wrong or Result(True, "Unary encoding's ε, two bits at once.")


EXERCISES = (
    function_exercise(
        "unary_encoding.epsilon",
        LESSON,
        "1. Unary encoding's ε",
        "Unary encoding sends one bit per category: a 1 stays 1 with probability p, a 0 "
        "becomes 1 with probability q (p > q). Write `ue_epsilon(p, q)`.",
        "ue_epsilon",
        "p, q",
        grade_ue_epsilon,
    ),
    number_exercise(
        "unary_encoding.oue",
        LESSON,
        "2. Optimized unary encoding's q",
        "Optimized unary encoding keeps a 1 with p = ½. Which q makes it 2-DP? Set `oue_q` "
        "(within 0.0005).",
        "oue_q",
        "a probability",
    ),
)
