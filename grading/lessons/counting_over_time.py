"""The grader's half of "Counting over time"'s homework: the grades of its fixed answers and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_crossover(value) -> Result:
    """The first day of a 1,000-day stream from which the tree's variance stays below the
    noisy increments' (ε = 1)."""
    horizon, epsilon = 1000, 1.0
    answer = next(
        t
        for t in range(1, horizon + 1)
        if all(
            dp.binary_tree_variance(s, horizon, epsilon) < dp.increments_variance(s, epsilon)
            for s in range(t, horizon + 1)
        )
    )
    return number_in(
        value,
        answer,
        answer,
        what="tree_wins_from",
        too_low="Too early: on some later day the increments are still more accurate.",
        too_high="Too late: the tree is already more accurate on every day from an earlier one.",
    )


HIDDEN_SEED = 190_754  # the cases a function's grade draws when the autograder grades


GRADES = {
    "counting_over_time.crossover": grade_crossover,
}


SOLUTIONS = {
    "counting_over_time.crossover": "def tree_var(t, horizon=1000, eps=1.0):\n"
    "    return bin(t).count('1') * 2 * (horizon.bit_length() / "
    "eps) ** 2\n"
    "\n"
    "def increments_var(t, eps=1.0):\n"
    "    return t * 2 / eps**2\n"
    "\n"
    "tree_wins_from = min(\n"
    "    t for t in range(1, 1001)\n"
    "    if all(tree_var(s) < increments_var(s) for s in range(t, "
    "1001))\n"
    ")\n",
    "counting_over_time.variance": "def tree_variance(t, horizon, epsilon):\n"
    "    levels = horizon.bit_length()  # each event is in one "
    "block per level\n"
    "    blocks = bin(t).count('1')  # day t's count adds one "
    "block per 1 bit\n"
    "    return blocks * 2 * (levels / epsilon) ** 2\n",
}
