"""The grader's half of "The reusable holdout"'s homework: the grade of its fixed answer and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in

SETTING = {"n": 10_000, "epsilon": 1.0, "tolerance": 0.01}


def grade_budget(value) -> Result:
    """The largest B with dp.thresholdout_epsilon(B, σ, 1/n) ≤ ε: εσn/2 = 50."""
    n, epsilon, tolerance = SETTING["n"], SETTING["epsilon"], SETTING["tolerance"]
    target = 1
    while dp.thresholdout_epsilon(target + 1, tolerance, 1 / n) <= epsilon * (1 + 1e-12):
        target += 1
    return number_in(
        value,
        target,
        target,
        what="budget",
        too_low="Too few: ε = 2BΔ/σ with Δ = 1/n; solve for B.",
        too_high="Too many: each holdout answer costs 2Δ/σ = 2/(σn) of ε.",
    )


HIDDEN_SEED = 2_015_036  # the cases a function's grade draws when the autograder grades


GRADES = {"holdout.budget": grade_budget}


SOLUTIONS = {
    "holdout.answer": "def thresholdout_answer(t, h, threshold, gamma, eta, xi):\n"
    "    if abs(h - t) > threshold + gamma + eta:\n"
    "        return h + xi  # the gap passed the noisy threshold: the holdout answers\n"
    "    return t\n",
    "holdout.budget": "n, epsilon, tolerance = 10_000, 1.0, 0.01\n"
    "budget = int(epsilon * tolerance * n / 2)  # ε = 2B/(σn)\n",
}
