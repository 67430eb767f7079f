"""The grader's half of "What ε means in practice"'s homework: the grades of its fixed answers
and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_exposure(value) -> Result:
    answer = dp.delta_exposure(1e-5, 1_000_000)[1]
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="someone_published",
        too_low="Too low: a million people each get the δ = 10⁻⁵ chance.",
        too_high="Too high: it is a probability, and the chances do not simply add up.",
    )


HIDDEN_SEED = 178_858  # the cases a function's grade draws when the autograder grades


GRADES = {
    "epsilon_meaning.exposure": grade_exposure,
}


SOLUTIONS = {
    "epsilon_meaning.advantage": "import math\n"
    "\n"
    "def advantage_bound(epsilon):\n"
    "    return math.tanh(epsilon / 2)  # (e^ε − 1)/(e^ε + 1)\n",
    "epsilon_meaning.exposure": "import math\n\nsomeone_published = 1 - (1 - 1e-5) ** 1_000_000\n",
}
