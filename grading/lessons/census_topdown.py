"""The grader's half of "The 2020 Census in miniature"'s homework: the grades of its fixed
answers and every solution cell. Only the autograder has this file."""

from __future__ import annotations

HIDDEN_SEED = 296_700  # the cases a function's grade draws when the autograder grades


GRADES: dict = {}


SOLUTIONS = {
    "census_topdown.rounding": "import math\n"
    "\n"
    "def round_keeping_total(values):\n"
    "    floors = [math.floor(v) for v in values]\n"
    "    missing = round(sum(values)) - sum(floors)\n"
    "    order = sorted(range(len(values)), key=lambda i: values[i] - "
    "floors[i], reverse=True)\n"
    "    for i in order[:missing]:\n"
    "        floors[i] += 1\n"
    "    return floors\n",
    "census_topdown.sigma": "import math\n"
    "\n"
    "def sigma_for_rho(sensitivity, rho):\n"
    "    return sensitivity / math.sqrt(2 * rho)\n",
}
