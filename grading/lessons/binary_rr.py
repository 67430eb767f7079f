"""The grader's half of "Binary RR with any p and q"'s homework: the grades of its fixed answers
and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_keep(value) -> Result:
    answer = dp.rr_keep_probability(2.0)
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="keep_probability",
        too_low="Too low: with p = q, the ratio p/(1 − p) must be e^ε.",
        too_high="Too high: that keeps the truth so often that ε is larger than 2.",
    )


HIDDEN_SEED = 174_916  # the cases a function's grade draws when the autograder grades


GRADES = {
    "binary_rr.keep": grade_keep,
}


SOLUTIONS = {
    "binary_rr.epsilon": "import math\n"
    "\n"
    "def rr_epsilon(p, q):\n"
    "    return max(abs(math.log(p / (1 - q))), abs(math.log((1 - p) / "
    "q)))\n",
    "binary_rr.keep": "import math\n\nkeep_probability = math.exp(2) / (1 + math.exp(2))\n",
}
