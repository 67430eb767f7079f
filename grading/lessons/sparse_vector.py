"""The grader's half of "The sparse vector technique"'s homework: the grades of its fixed
answers and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import hashlib

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.sparse_vector import FLAW_OPTIONS, STOP

FLAW_SHA256 = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"


def grade_flaw(letter) -> Result:
    """The variant that is ε′-DP for no finite ε′ (the SHA-256 of its letter is kept)."""
    if letter is Ellipsis or letter is None:
        return Result(
            False, "Set broken_variant to your answer (a letter), then run the check again."
        )
    if not isinstance(letter, str) or letter.strip().lower() not in FLAW_OPTIONS:
        return Result(False, f"broken_variant must be one of {sorted(FLAW_OPTIONS)}.")
    digest = hashlib.sha256(letter.strip().lower().encode()).hexdigest()
    if digest == FLAW_SHA256:
        return Result(True, "")
    return Result(
        False,
        "That variant leaks, but only a bounded amount more than promised. Which one makes "
        "an output possible on one dataset and impossible on its neighbour?",
    )


def grade_stop(value) -> Result:
    """P[AboveThreshold stops at the third query] (exact, dp.above_threshold_probabilities)."""
    s = STOP
    answer = float(
        dp.above_threshold_probabilities(np.array(s["answers"]), s["threshold"], s["epsilon"])[2]
    )
    return number_in(
        value,
        answer - 0.002,
        answer + 0.002,
        what="stop_at_third",
        too_low="Too low: the third answer is 2 above the threshold, but the noises are wide "
        "(Lap(2/ε) on the threshold, Lap(4/ε) on each query).",
        too_high="Too high: it stops at the third only if the first two stay below the noisy "
        "threshold.",
    )


HIDDEN_SEED = 191_717  # the cases a function's grade draws when the autograder grades


GRADES = {
    "sparse_vector.flaw": grade_flaw,
    "sparse_vector.stop": grade_stop,
}


SOLUTIONS = {
    "sparse_vector.flaw": 'broken_variant = "a"  # compared exactly, a query above the noisy '
    "threshold on one dataset can be impossible on its neighbour\n",
    "sparse_vector.stop": "import numpy as np\n"
    "import dp\n"
    "\n"
    "stop_at_third = dp.above_threshold_probabilities(np.array([1, 0, 6, "
    "2]), 4.0, 1.0)[2]\n",
}
