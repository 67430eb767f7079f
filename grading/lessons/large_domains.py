"""The grader's half of "Large domains and shuffling"'s homework: the grades of its fixed
answers and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in


def grade_olh_sd(value) -> Result:
    answer = math.sqrt(dp.olh_variance(10_000, 2.0))
    return number_in(
        value,
        answer * 0.99,
        answer * 1.01,
        what="olh_count_sd",
        too_low="Too low: hashing and randomizing add noise to every report.",
        too_high="Too high: OLH's variance is the pure protocol's, with q = 1/g.",
    )


HIDDEN_SEED = 183_798  # the cases a function's grade draws when the autograder grades


GRADES = {
    "large_domains.sd": grade_olh_sd,
}


SOLUTIONS = {
    "large_domains.olh": "import math\n"
    "\n"
    "def olh_range(epsilon):\n"
    "    return max(2, round(math.exp(epsilon) + 1))\n",
    "large_domains.sd": "import math\n"
    "import dp\n"
    "\n"
    "olh_count_sd = math.sqrt(dp.olh_variance(10_000, 2.0))\n",
}
