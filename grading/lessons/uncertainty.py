"""The grader's half of "Uncertainty in DP answers"'s homework: the grades of its fixed answers
and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_interval(value) -> Result:
    """The 95% half-width for a release with sampling SD 10 and Laplace noise of scale 20."""
    low, high = dp.noise_sampling_interval(0.0, 10.0, 20.0)
    answer = (high - low) / 2
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="half_width",
        too_low="Too narrow: both errors count, and Laplace noise has heavy tails.",
        too_high="Too wide: adding the two 95% half-widths overstates it; find t with "
        "P(|Z + L| ≤ t) = 95%, by simulation if you like.",
    )


HIDDEN_SEED = 186_777  # the cases a function's grade draws when the autograder grades


GRADES = {
    "uncertainty.interval": grade_interval,
}


SOLUTIONS = {
    "uncertainty.interval": "import dp\n"
    "\n"
    "low, high = dp.noise_sampling_interval(0.0, 10.0, 20.0)\n"
    "half_width = (high - low) / 2\n",
    "uncertainty.se": "import math\n"
    "\n"
    "def share_standard_error(share, n):\n"
    "    return math.sqrt(share * (1 - share) / n)\n",
}
