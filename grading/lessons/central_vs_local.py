"""The grader's half of "Central versus local"'s homework: the grades of its fixed answers and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_ratio(value) -> Result:
    answer = float(dp.local_to_central_error_ratio(10_000, 1.0))
    return number_in(
        value,
        answer * 0.99,
        answer * 1.01,
        what="local_over_central",
        too_low="Too low: in the local model everyone's report is noisy, not one total.",
        too_high="Too high: compare the two models' typical count errors at the same ε.",
    )


HIDDEN_SEED = 167_960  # the cases a function's grade draws when the autograder grades


GRADES = {
    "central_vs_local.ratio": grade_ratio,
}


SOLUTIONS = {
    "central_vs_local.ratio": "import dp\n"
    "\n"
    "local_over_central = dp.local_to_central_error_ratio(10_000, "
    "1.0)\n",
    "central_vs_local.std": "import math\n"
    "\n"
    "def local_count_std(n, epsilon):\n"
    "    p = math.exp(epsilon) / (1 + math.exp(epsilon))\n"
    "    return math.sqrt(n * p * (1 - p)) / (2 * p - 1)\n",
}
