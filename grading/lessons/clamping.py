"""The hidden half of clamping.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.clamping import INCOMES, UPPER


def grade_bias(value) -> Result:
    """What clamping INCOMES to [0, UPPER] does to their sum (exact)."""
    answer = dp.clamping_bias(np.array(INCOMES, dtype=float), 0.0, UPPER)
    return number_in(
        value,
        answer - 0.5,
        answer + 0.5,
        what="clamping_change",
        too_low="Too low: only the incomes above the bound move, down to it.",
        too_high="Too high: clamping at an upper bound can only lower the sum. Give the "
        "change with its sign.",
    )


HIDDEN_SEED = 771_209  # the cases a function's grade draws when the autograder grades


GRADES = {
    "clamping.bias": grade_bias,
}


SOLUTIONS = {
    "clamping.bias": "incomes = [12_000, 35_000, 48_000, 51_000, 75_000, 120_000, 480_000]\n"
    "clamping_change = sum(min(v, 100000) - v for v in incomes)\n",
    "clamping.sensitivity": "def sum_sensitivity(lower, upper, neighbours):\n"
    "    if neighbours == 'replace':\n"
    "        return upper - lower\n"
    "    return max(abs(lower), abs(upper))\n",
}
