"""The grader's half of "Beyond k-anonymity"'s homework: the grades of its fixed answers and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.beyond_k_anonymity import SKEW_CLASS, SKEW_TABLE


def grade_distance(value) -> Result:
    """The class's distance from the table, dp.class_distances on that table."""
    (yes_in, size_in), (yes_all, size_all) = SKEW_CLASS, SKEW_TABLE
    classes = np.array([0] * size_in + [1] * (size_all - size_in))
    sensitive = np.zeros(size_all, dtype=int)
    sensitive[:yes_in] = 1
    sensitive[size_in : size_in + yes_all - yes_in] = 1
    answer = float(dp.class_distances(classes, sensitive)[0])
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="class_distance",
        too_low="Too low: add the differences of both values' shares, then halve.",
        too_high="Too high: halve the sum of the absolute differences.",
    )


HIDDEN_SEED = 163_020  # the cases a function's grade draws when the autograder grades


GRADES = {
    "beyond_k_anonymity.distance": grade_distance,
}


SOLUTIONS = {
    "beyond_k_anonymity.distance": "share_class, share_table = 123 / 200, 484 / 2000\n"
    "class_distance = 0.5 * (\n"
    "    abs(share_class - share_table) + abs((1 - share_class) - "
    "(1 - share_table))\n"
    ")\n",
    "beyond_k_anonymity.l": "from collections import defaultdict\n"
    "\n"
    "def l_of(classes, sensitive):\n"
    "    values = defaultdict(set)\n"
    "    for c, s in zip(classes, sensitive):\n"
    "        values[c].add(s)\n"
    "    return min(len(v) for v in values.values())\n",
}
