"""The grader's half of "Synthetic data"'s homework: the grades of its fixed answers and every
solution cell. Only the autograder has this file."""

from __future__ import annotations

import math

from homework.core import Result, number_in


def grade_cells(value) -> Result:
    """How many two-way tables MWEM's census has to measure: every pair of 6 attributes."""
    answer = math.comb(6, 2)
    return number_in(
        value,
        answer,
        answer,
        what="pairs_of_attributes",
        too_low="Too few: every pair of the six attributes has its table.",
        too_high="Too many: a pair is unordered, and an attribute is not paired with itself.",
    )


HIDDEN_SEED = 328_376  # the cases a function's grade draws when the autograder grades


GRADES = {
    "synthetic.pairs": grade_cells,
}


SOLUTIONS = {
    "synthetic.pairs": "import math\n\npairs_of_attributes = math.comb(6, 2)\n",
    "synthetic.table": "import numpy as np\n"
    "\n"
    "def two_way(records, levels_a, levels_b):\n"
    "    table = np.zeros((levels_a, levels_b), dtype=int)\n"
    "    np.add.at(table, (records[:, 0], records[:, 1]), 1)\n"
    "    return table\n",
}
