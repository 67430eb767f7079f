"""Homework for "Rényi DP and the accountants": randomized response's Rényi curve by hand,
and the ε that RDP proves for a DP-SGD run (the grader's half is grading/lessons/renyi.py).
Every number a grade compares with comes from dp/."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "renyi"

SEED = 83


def grade_curve(fn) -> Result:
    """`rr_divergence(alpha, p)` equals dp.rdp_randomized_response on 200 random orders and
    keep probabilities."""
    if not callable(fn):
        return Result(False, "rr_divergence must be a function of (alpha, p).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        alpha = float(rng.uniform(1.1, 20.0))
        p = float(rng.uniform(0.55, 0.95))
        ours = dp.rdp_randomized_response(alpha, p)
        theirs = float(fn(alpha, p))
        if not math.isclose(theirs, ours, rel_tol=1e-9, abs_tol=1e-12):
            return Result(
                False,
                f"At α = {alpha:.2f} and p = {p:.3f} your divergence is {theirs:.6g}, not "
                f"{ours:.6g}. Write E_Q[(P/Q)^α] over the two outputs (the report agrees or "
                "not with the truth) for the neighbours true yes and true no, then take "
                "ln(·)/(α − 1).",
            )
    return Result(True, "Randomized response's Rényi divergence, at every order tried.")


EXERCISES = (
    function_exercise(
        "renyi.curve",
        LESSON,
        "1. Randomized response's Rényi curve",
        "Binary randomized response reports the truth with probability p (0.5 < p < 1). "
        "Write `rr_divergence(alpha, p)`: the Rényi divergence of order α between its output "
        "distributions for a true yes and a true no.",
        "rr_divergence",
        "alpha, p",
        grade_curve,
    ),
    number_exercise(
        "renyi.accountant",
        LESSON,
        "2. An accountant's ε",
        "A DP-SGD run: noise multiplier σ = 1.1, sampling rate q = 0.01, T = 1,000 steps, "
        "δ = 10⁻⁵. Using the subsampled Gaussian's Rényi curve at the whole orders 2 … 64, "
        "composed over the steps and converted with the improved conversion, what ε does RDP "
        "prove? Set `rdp_epsilon` (within 1%).",
        "rdp_epsilon",
    ),
)
