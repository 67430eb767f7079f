"""The hidden half of composition.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in
from homework.lessons.composition import ADVANCED, AVERAGING


def advanced_queries() -> int:
    """The most k with advanced composition's ε′ ≤ the budget (δ = 0), from dp."""
    k = 1
    while (
        dp.advanced_composition(ADVANCED["epsilon"], 0.0, k + 1, ADVANCED["delta_prime"])[0]
        <= ADVANCED["budget"]
    ):
        k += 1
    return k


def grade_advanced(k) -> Result:
    answer = advanced_queries()
    basic = dp.queries_within_budget(ADVANCED["budget"], ADVANCED["epsilon"])
    verdict = number_in(
        k,
        answer,
        answer,
        what="advanced_queries",
        too_low="Too few: more queries fit under the bound before ε′ reaches the budget.",
        too_high="Too many: at that k, advanced composition's ε′ is over the budget.",
    )
    if not verdict.passed and k == basic:
        return Result(
            False,
            "That is basic composition's count. Advanced composition's ε′ "
            "grows like √k: how large can k be before ε′ reaches 1?",
        )
    return verdict


def grade_averaging(m) -> Result:
    """The fewest repeated answers whose average has a standard deviation of at most 1."""
    answer = 1
    while dp.averaged_laplace_std(1.0, AVERAGING["epsilon"], answer) > AVERAGING["sd"]:
        answer += 1
    return number_in(
        m,
        answer,
        answer,
        what="answers_needed",
        too_low="Too few: the average of that many answers is still noisier than ±1.",
        too_high="More than needed: fewer answers already average to within ±1.",
    )


HIDDEN_SEED = 518_447  # the cases a function's grade draws when the autograder grades


GRADES = {
    "composition.advanced": grade_advanced,
    "composition.averaging": grade_averaging,
}


SOLUTIONS = {
    "composition.advanced": "import math\n"
    "\n"
    "def eps_prime(k, eps=0.01, delta_prime=1e-6):\n"
    "    spread = eps * math.sqrt(2 * k * math.log(1 / delta_prime))\n"
    "    return spread + k * eps * math.expm1(eps)\n"
    "\n"
    "advanced_queries = max(k for k in range(1, 10_000) if eps_prime(k) "
    "<= 1)\n",
    "composition.averaging": "import math\n"
    "\n"
    "epsilon = 0.5\n"
    "variance_one = 2 / epsilon**2  # Var[Lap(1/ε)] = 2/ε²; the "
    "average's is that / m\n"
    "answers_needed = math.ceil(variance_one / 1.0**2)  # the smallest m "
    "with SD <= 1\n",
    "composition.total": "def total_epsilon(epsilons, disjoint):\n"
    "    return max(epsilons) if disjoint else sum(epsilons)\n",
}
