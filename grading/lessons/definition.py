"""The grader's half of "The definition"'s homework: the grades of its fixed answers and every
solution cell. Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in


def grade_ratio(value) -> Result:
    answer = dp.likelihood_ratio_bound(math.log(3))
    return number_in(
        value,
        answer - 1e-6,
        answer + 1e-6,
        what="likelihood_ratio",
        too_low="Too low: ε bounds the log of the ratio.",
        too_high="Too high: ε bounds the log of the ratio.",
    )


HIDDEN_SEED = 198_673  # the cases a function's grade draws when the autograder grades


GRADES = {
    "definition.ratio": grade_ratio,
}


SOLUTIONS = {
    "definition.posterior": "import math\n"
    "\n"
    "def posterior_bound(prior, epsilon):\n"
    "    odds = math.exp(epsilon) * prior / (1 - prior)  # the odds grow "
    "by e^ε at most\n"
    "    return odds / (1 + odds)\n",
    "definition.ratio": "import math\n\nlikelihood_ratio = math.exp(math.log(3))\n",
}
