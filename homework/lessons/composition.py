"""Homework for "Composition and the budget": basic sequential and parallel composition as a
function, how many queries advanced composition fits in a budget, and how many repeated
answers an averaging attack needs. Every number a grade compares with comes from dp/."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Exercise, Result

LESSON = "composition"

SEED = 11


def grade_total(total) -> Result:
    """`total_epsilon(epsilons, disjoint)` equals sequential composition (the sum) on the same
    data and parallel composition (the largest) on disjoint parts, on 200 random budgets."""
    if not callable(total):
        return Result(False, "total_epsilon must be a function of (epsilons, disjoint).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        epsilons = list(rng.uniform(0.05, 2.0, size=int(rng.integers(1, 8))))
        for disjoint, ours in (
            (False, dp.sequential_composition(epsilons)),
            (True, dp.parallel_composition(epsilons)),
        ):
            theirs = float(total(list(epsilons), disjoint))
            if abs(theirs - ours) > 1e-9 * max(1.0, ours):
                where = "disjoint parts of the data" if disjoint else "the same data"
                return Result(
                    False,
                    f"For releases on {where}, {len(epsilons)} of them, your total is off. "
                    "Which releases can one person appear in?",
                )
    return Result(True, "Sequential on the same data, parallel on disjoint parts.")


ADVANCED = {"epsilon": 0.01, "delta_prime": 1e-6, "budget": 1.0}

AVERAGING = {"epsilon": 0.5, "sd": 1.0}


EXERCISES = (
    Exercise(
        id="composition.total",
        lesson=LESSON,
        title="1. Add up a budget",
        prompt="Write `total_epsilon(epsilons, disjoint)`: the total ε of releases with these "
        "ε's, each ε-DP on its own, by basic composition, when they all read the same data "
        "(`disjoint=False`) or each reads a disjoint part of it (`disjoint=True`, one person "
        "in one part).",
        name="total_epsilon",
        starter="def total_epsilon(epsilons, disjoint):\n"
        "    # your code\n"
        "    return unanswered()\n",
        grade=grade_total,
    ),
    Exercise(
        id="composition.advanced",
        lesson=LESSON,
        title="2. Advanced composition's count",
        prompt=f"Each query is ε = {ADVANCED['epsilon']:g}-DP. By advanced composition "
        f"(δ′ = 10⁻⁶), what is the largest number of queries whose total ε′ stays at most "
        f"{ADVANCED['budget']:g}? Set `advanced_queries` to that whole number. "
        "(Basic composition allows 100.)",
        name="advanced_queries",
        starter="advanced_queries = ...  # your answer, a whole number\n",
    ),
    Exercise(
        id="composition.averaging",
        lesson=LESSON,
        title="3. The averaging attack",
        prompt=f"A count is answered again and again, each time with fresh Laplace noise at "
        f"ε = {AVERAGING['epsilon']:g}. How many answers must an attacker average before the "
        f"average's standard deviation is at most {AVERAGING['sd']:g}? Set `answers_needed` "
        "(a whole number).",
        name="answers_needed",
        starter="answers_needed = ...  # your answer, a whole number\n",
    ),
)
