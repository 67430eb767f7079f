"""The grader's half of "Privatized data for ML"'s homework: the grades of its fixed answers and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in


def grade_rows(value) -> Result:
    """Rows needed so that a noisy feature's mean (range 1, ε = 1) has SD at most 0.01."""
    per_row = dp.laplace_variance(1.0, 1.0)
    answer = math.ceil(per_row / 0.01**2)
    return number_in(
        value,
        answer,
        answer,
        what="rows_needed",
        too_low="Too few: the mean's variance is one row's, divided by the rows.",
        too_high="More than needed.",
    )


HIDDEN_SEED = 312_538  # the cases a function's grade draws when the autograder grades


GRADES = {
    "private_ml.rows": grade_rows,
}


SOLUTIONS = {
    "private_ml.rows": "import math\n\nrows_needed = math.ceil(2 * (1 / 1) ** 2 / 0.01**2)\n",
    "private_ml.variance": "def noisy_feature_variance(width, epsilon):\n"
    "    return 2 * (width / epsilon) ** 2\n",
}
