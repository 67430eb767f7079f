"""The hidden half of laplace.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in
from homework.lessons.laplace import MALICIOUS_EPSILON, MEDIAN_ERROR


def grade_epsilon(epsilon) -> Result:
    """ε such that half the noisy counts miss by more than MEDIAN_ERROR people: within 1% of
    dp's (the median of |Lap(1/ε)| is ln 2/ε)."""
    answer = math.log(2.0) / MEDIAN_ERROR  # dp.laplace_median_abs_error(1, ε) = MEDIAN_ERROR
    assert math.isclose(dp.laplace_median_abs_error(1.0, answer), MEDIAN_ERROR)
    verdict = number_in(
        epsilon,
        0.99 * answer,
        1.01 * answer,
        what="epsilon_for_median_error",
        too_low="Too small: at that ε the noise is wider, and half the answers miss by more "
        f"than {MEDIAN_ERROR} people.",
        too_high=f"Too large: at that ε half the answers miss by less than {MEDIAN_ERROR}.",
    )
    if not verdict.passed and isinstance(epsilon, int | float) and epsilon > 0:
        median = dp.laplace_median_abs_error(1.0, float(epsilon))
        return Result(False, f"{verdict.feedback} (Your ε gives a median error of {median:.2f}.)")
    return verdict


def grade_malicious(accuracy) -> Result:
    """How often "1 if the answer > ½" is right on the malicious query at ε = 1: within
    0.002 of dp.best_guess_accuracy."""
    answer = float(dp.best_guess_accuracy(MALICIOUS_EPSILON))
    return number_in(
        accuracy,
        answer - 0.002,
        answer + 0.002,
        what="best_guess_accuracy",
        too_low="Too low: the guess is wrong only when the noise crosses ½ toward the other "
        "answer.",
        too_high="Too high: at ε = 1 the noise still crosses ½ often. Which probability of "
        "the Laplace distribution is that?",
    )


HIDDEN_SEED = 391_663  # the cases a function's grade draws when the autograder grades


GRADES = {
    "laplace.epsilon": grade_epsilon,
    "laplace.malicious": grade_malicious,
}


SOLUTIONS = {
    "laplace.count": "def laplace_count(true_count, epsilon, rng):\n"
    "    scale = 1 / epsilon  # b = Δ/ε, Δ = 1 for a count\n"
    "    return true_count + rng.laplace(loc=0.0, scale=scale)\n",
    "laplace.epsilon": "import math\n"
    "\n"
    "epsilon_for_median_error = math.log(2) / 5  # P[|Lap(b)| > t] = e^(-t/b) "
    "= 1/2\n",
    "laplace.malicious": "import math\n"
    "\n"
    "best_guess_accuracy = 1 - 0.5 * math.exp(-1 / 2)  # wrong when Lap(1) "
    "crosses 1/2\n",
}
