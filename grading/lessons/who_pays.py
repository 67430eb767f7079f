"""The grader's half of "Who pays for privacy"'s homework: the grade of its fixed answer and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in

SETTING = {"count": 40, "epsilon": 0.5}


def grade_relative(value) -> Result:
    """√2/(ε·count) = 0.0707, within 0.5%."""
    typical = math.sqrt(dp.laplace_variance(1.0, SETTING["epsilon"]))
    target = typical / SETTING["count"]
    return number_in(
        value,
        0.995 * target,
        1.005 * target,
        what="relative",
        too_low="Too small: the standard deviation of Lap(b) is √2·b, not b.",
        too_high="Too large: b = 1/ε (the sensitivity of a count is 1); divide its standard "
        "deviation by the count.",
    )


HIDDEN_SEED = 2_019_040  # the cases a function's grade draws when the autograder grades


GRADES = {"who_pays.relative": grade_relative}


SOLUTIONS = {
    "who_pays.relative": "import math\n\ncount, epsilon = 40, 0.5\n"
    "relative = math.sqrt(2) / epsilon / count  # Lap(1/ε) has sd √2/ε\n",
    "who_pays.smallest": "import math\n\n\n"
    "def smallest_count(epsilon, share):\n"
    "    typical = math.sqrt(2) / epsilon  # the standard deviation of Lap(1/ε)\n"
    "    return math.ceil(typical / share - 1e-9)\n",
}
