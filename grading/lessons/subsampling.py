"""The grader's half of "Subsampling and DP as a test"'s homework: the grades of its fixed
answers and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_basic_steps(value) -> Result:
    step = dp.subsampled_privacy(1.0, 0.0, 0.01)[0]
    answer = 300 * step
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="basic_total",
        too_low="Too low: basic composition adds every step's ε′.",
        too_high="Too high: each step costs the amplified ε′, not ε.",
    )


HIDDEN_SEED = 206_592  # the cases a function's grade draws when the autograder grades


GRADES = {
    "subsampling.steps": grade_basic_steps,
}


SOLUTIONS = {
    "subsampling.amplified": "import math\n"
    "\n"
    "def amplified_epsilon(epsilon, q):\n"
    "    return math.log(1 + q * math.expm1(epsilon))\n",
    "subsampling.steps": "import math\n\nbasic_total = 300 * math.log(1 + 0.01 * math.expm1(1))\n",
}
