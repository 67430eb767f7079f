"""The grader's half of "Choosing privately"'s homework: the grades of its fixed answers and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.choosing import MEDIAN_SCORES


def grade_top(value) -> Result:
    answer = float(dp.exponential_mechanism_probabilities(np.array(MEDIAN_SCORES), 1.0, 1.0)[3])
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="top_probability",
        too_low="Too low: the best candidate's weight is the largest; divide by the sum.",
        too_high="Too high: every candidate keeps some weight, e^(ε·u/(2Δ)).",
    )


HIDDEN_SEED = 182_835  # the cases a function's grade draws when the autograder grades


GRADES = {
    "choosing.top": grade_top,
}


SOLUTIONS = {
    "choosing.exponential": "import numpy as np\n"
    "\n"
    "def exponential_probabilities(scores, sensitivity, epsilon):\n"
    "    logits = epsilon * np.asarray(scores, dtype=float) / (2 * "
    "sensitivity)\n"
    "    weights = np.exp(logits - logits.max())  # no overflow\n"
    "    return weights / weights.sum()\n",
    "choosing.top": "import math\n"
    "\n"
    "scores = (0, 1, 2, 3, 2, 1, 0)\n"
    "weights = [math.exp(1 * u / 2) for u in scores]\n"
    "top_probability = max(weights) / sum(weights)\n",
}
