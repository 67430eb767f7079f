"""The grader's half of "DP group-by"'s homework: the grades of its fixed answers and every
solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_threshold(value) -> Result:
    answer = dp.laplace_partition_threshold(1.0, 1e-6, 1)
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="partition_threshold",
        too_low="Too low: a partition of one person must reach it with probability at most δ.",
        too_high="Too high: the threshold need only make a one-person partition's release "
        "chance at most δ.",
    )


def grade_release(value) -> Result:
    """P[a 10-person group passes the Laplace threshold] at ε = 1, δ = 10⁻⁶."""
    tau = dp.laplace_partition_threshold(1.0, 1e-6, 1)
    answer = 1.0 - float(dp.laplace_cdf(tau, loc=10.0, scale=1.0))
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="ten_person_group_released",
        too_low="Too low: its noisy count must reach τ; how far above 10 is τ?",
        too_high="Too high: a group of 10 is still below the threshold most of the time.",
    )


HIDDEN_SEED = 175_879  # the cases a function's grade draws when the autograder grades


GRADES = {
    "group_by.release": grade_release,
    "group_by.threshold": grade_threshold,
}


SOLUTIONS = {
    "group_by.release": "import math\n"
    "\n"
    "tau = 1 + math.log(1 / (2 * 1e-6))\n"
    "ten_person_group_released = 0.5 * math.exp(-(tau - 10))  # P[Lap(1) >= τ "
    "− 10]\n",
    "group_by.threshold": "import math\n"
    "\n"
    "partition_threshold = 1 + math.log(1 / (2 * 1e-6)) / 1.0  # P[1 + "
    "Lap(1) >= τ] = δ\n",
}
