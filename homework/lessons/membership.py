"""Homework for "Membership inference": the least ε a test's rates allow, as a function, and
the ε an attack proves with 95% confidence (Clopper–Pearson). Every number a grade compares
with comes from dp/."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Exercise, Result

LESSON = "membership"

SEED = 17


def grade_rates(epsilon_of) -> Result:
    """`epsilon_from_rates(tpr, fpr)` equals dp.epsilon_from_rates (δ = 0) on 300 random
    rates, the complement's bound (1 − FPR)/(1 − TPR) included, and 0 for a test no better
    than a coin."""
    if not callable(epsilon_of):
        return Result(False, "epsilon_from_rates must be a function of (tpr, fpr).")
    rng = np.random.default_rng(SEED)
    cases = [(0.3, 0.3), (0.2, 0.5)] + [tuple(rng.uniform(0.01, 0.99, 2)) for _ in range(300)]
    for tpr, fpr in cases:
        ours = dp.epsilon_from_rates(float(tpr), float(fpr))
        theirs = float(epsilon_of(float(tpr), float(fpr)))
        if not math.isclose(theirs, ours, rel_tol=1e-9, abs_tol=1e-12):
            if ours == 0.0:
                return Result(
                    False,
                    f"At TPR {tpr:.2f} and FPR {fpr:.2f} the test is no better than a coin: "
                    "it proves nothing, ε = 0.",
                )
            return Result(
                False,
                f"At TPR {tpr:.2f} and FPR {fpr:.2f} your ε is off. DP bounds a test and its "
                "complement: both TPR ≤ e^ε·FPR and 1 − FPR ≤ e^ε·(1 − TPR).",
            )
    return Result(True, "Both of DP's bounds on a test, and nothing from a coin.")


ATTACK = {"true_positives": 300, "members": 1000, "false_positives": 10, "non_members": 1000}


EXERCISES = (
    Exercise(
        id="membership.rates",
        lesson=LESSON,
        title="1. The ε a test's rates allow",
        prompt="A membership test has true-positive rate `tpr` and false-positive rate `fpr`. "
        "Write `epsilon_from_rates(tpr, fpr)`: the least ε for which an ε-DP mechanism "
        "admits such a test (pure DP, δ = 0).",
        name="epsilon_from_rates",
        starter="def epsilon_from_rates(tpr, fpr):\n    # your code\n    return unanswered()\n",
        grade=grade_rates,
    ),
    Exercise(
        id="membership.proven",
        lesson=LESSON,
        title="2. What an attack proves",
        prompt=f"An attack flags {ATTACK['true_positives']} of {ATTACK['members']:,} members "
        f"and {ATTACK['false_positives']} of {ATTACK['non_members']:,} non-members. Which ε "
        "does it prove with 95% confidence (Clopper–Pearson, both rates at 97.5%)? Set "
        "`proven_epsilon` (within 1%). `dp.epsilon_lower_bound` may help.",
        name="proven_epsilon",
        starter="proven_epsilon = ...  # your answer\n",
    ),
)
