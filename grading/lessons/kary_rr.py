"""The hidden half of kary_rr.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Result
from homework.lessons.kary_rr import EPSILON, HISTOGRAM


def grade_count(estimate) -> Result:
    """The unbiased count of people whose true answer is A, from HISTOGRAM (within 0.5)."""
    answer = float(dp.grr_estimate_from_counts(np.array(HISTOGRAM), EPSILON)[0])
    if estimate is Ellipsis or estimate is None:
        return Result(False, "Set people_answering_a to your answer, then run the check again.")
    if (
        isinstance(estimate, bool)
        or not isinstance(estimate, int | float)
        or not math.isfinite(estimate)
    ):
        return Result(False, "people_answering_a must be a finite number.")
    if abs(estimate - answer) <= 0.5:
        return Result(True, "")
    if abs(estimate - HISTOGRAM[0]) <= 0.5:
        return Result(False, "That is how many *reported* A. Some of them were randomized.")
    direction = "low" if estimate < answer else "high"
    return Result(
        False,
        f"Too {direction}: reports of A = n·q + count·(p − q) in expectation; solve for the count.",
    )


HIDDEN_SEED = 402_559  # the cases a function's grade draws when the autograder grades


GRADES = {
    "kary_rr.count": grade_count,
}


SOLUTIONS = {
    "kary_rr.count": "import math\n"
    "\n"
    "n, k, eps = 1000, 4, 1.0\n"
    "p = math.exp(eps) / (math.exp(eps) + k - 1)\n"
    "q = 1 / (math.exp(eps) + k - 1)\n"
    "people_answering_a = (412 - n * q) / (p - q)\n",
    "kary_rr.randomize": "import math\n"
    "\n"
    "def grr(value, k, epsilon, rng):\n"
    "    keep = math.exp(epsilon) / (math.exp(epsilon) + k - 1)\n"
    "    if rng.random() < keep:\n"
    "        return value\n"
    "    others = [v for v in range(k) if v != value]\n"
    "    return others[rng.integers(k - 1)]\n",
}
