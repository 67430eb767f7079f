"""The grader's half of "Unary encoding"'s homework: the grades of its fixed answers and every
solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in


def grade_oue_q(value) -> Result:
    answer = dp.oue_probabilities(2.0)[1]
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="oue_q",
        too_low="Too low: OUE keeps a 1 with probability ½ and flips a 0 to 1 with q.",
        too_high="Too high: with p = ½, ε = ln((1 − q)/q) here.",
    )


HIDDEN_SEED = 214_511  # the cases a function's grade draws when the autograder grades


GRADES = {
    "unary_encoding.oue": grade_oue_q,
}


SOLUTIONS = {
    "unary_encoding.epsilon": "import math\n"
    "\n"
    "def ue_epsilon(p, q):\n"
    "    return math.log(p * (1 - q) / ((1 - p) * q))\n",
    "unary_encoding.oue": "import math\n"
    "\n"
    "oue_q = 1 / (math.exp(2) + 1)  # p/(1-p) * (1-q)/q = e^2\n",
}
