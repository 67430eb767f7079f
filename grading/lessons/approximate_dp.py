"""The hidden half of approximate_dp.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in
from homework.lessons.approximate_dp import SETTING


def grade_ratio(ratio) -> Result:
    """The analytic Gaussian's σ over the classic one at SETTING (within 0.5%)."""
    s = SETTING
    answer = dp.analytic_gaussian_sigma(s["sensitivity"], s["epsilon"], s["delta"]) / (
        dp.gaussian_sigma_classic(s["sensitivity"], s["epsilon"], s["delta"])
    )
    return number_in(
        ratio,
        answer * 0.995,
        answer * 1.005,
        what="analytic_over_classic",
        too_low="Too small: the analytic σ is the least σ with δ(ε) ≤ δ; it cannot be that "
        "much below the classic one here.",
        too_high="Too large: the analytic Gaussian never needs more noise than the classic "
        "formula, and at this ε it needs noticeably less.",
    )


HIDDEN_SEED = 905_113  # the cases a function's grade draws when the autograder grades


GRADES = {
    "approximate_dp.analytic": grade_ratio,
}


SOLUTIONS = {
    "approximate_dp.analytic": "import dp\n"
    "\n"
    "analytic_over_classic = dp.analytic_gaussian_sigma(1, 0.5, 1e-5) "
    "/ dp.gaussian_sigma_classic(1, 0.5, 1e-5)\n",
    "approximate_dp.sigma": "import math\n"
    "\n"
    "def classic_sigma(sensitivity, epsilon, delta):\n"
    "    return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / "
    "epsilon\n",
}
