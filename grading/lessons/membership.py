"""The hidden half of membership.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in
from homework.lessons.membership import ATTACK


def grade_proven(epsilon) -> Result:
    a = ATTACK
    answer = dp.epsilon_lower_bound(
        a["true_positives"], a["members"], a["false_positives"], a["non_members"]
    )
    point = dp.epsilon_from_rates(
        a["true_positives"] / a["members"], a["false_positives"] / a["non_members"]
    )
    verdict = number_in(
        epsilon,
        answer * 0.99,
        answer * 1.01,
        what="proven_epsilon",
        too_low="Too low: the attack proves more than that with 95% confidence.",
        too_high="Too high: with 95% confidence, take the lower Clopper–Pearson bound of the "
        "true-positive rate and the upper one of the false-positive rate.",
    )
    if (
        not verdict.passed
        and isinstance(epsilon, float)
        and math.isclose(epsilon, point, rel_tol=0.01)
    ):
        return Result(
            False,
            "That is the rates' own ε, not what 1,000 + 1,000 trials prove: "
            "allow for chance with Clopper–Pearson bounds.",
        )
    return verdict


HIDDEN_SEED = 177_893  # the cases a function's grade draws when the autograder grades


GRADES = {
    "membership.proven": grade_proven,
}


SOLUTIONS = {
    "membership.proven": "import dp\n"
    "\n"
    "proven_epsilon = dp.epsilon_lower_bound(300, 1000, 10, 1000)\n",
    "membership.rates": "import math\n"
    "\n"
    "def epsilon_from_rates(tpr, fpr):\n"
    "    bounds = [0.0]\n"
    "    if tpr > 0:\n"
    "        bounds.append(math.log(tpr / fpr))\n"
    "    if fpr < 1:\n"
    "        bounds.append(math.log((1 - fpr) / (1 - tpr)))\n"
    "    return max(bounds)\n",
}
