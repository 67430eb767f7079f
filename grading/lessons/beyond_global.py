"""The grader's half of "Beyond global sensitivity"'s homework: the grades of its fixed answers
and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in


def grade_global(value) -> Result:
    """The median's global sensitivity on [0, 100] when one value is replaced."""
    answer = 100.0  # dp.median_local_sensitivity reaches U − L: (0, 0, 100) → (0, 100, 100)
    assert dp.median_local_sensitivity(np.array([0.0, 0.0, 100.0]), 0.0, 100.0) == answer
    return number_in(
        value,
        answer,
        answer,
        what="median_global_sensitivity",
        too_low="Too low: find three values where replacing one moves the median from one "
        "end of [0, 100] to the other.",
        too_high="Too high: the median stays inside [0, 100].",
    )


HIDDEN_SEED = 160_041  # the cases a function's grade draws when the autograder grades


GRADES = {
    "beyond_global.global": grade_global,
}


SOLUTIONS = {
    "beyond_global.global": "median_global_sensitivity = 100  # (0, 0, 100) → (0, 100, 100)\n",
    "beyond_global.local": "def median_local_sensitivity(values, lower, upper):\n"
    "    m = len(values) // 2\n"
    "    below = values[m - 1] if m > 0 else lower\n"
    "    above = values[m + 1] if m + 1 < len(values) else upper\n"
    "    return max(values[m] - below, above - values[m])\n",
}
