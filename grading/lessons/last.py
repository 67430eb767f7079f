"""The hidden half of last.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import hashlib
import math

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.last import ATTACK, SEED, SEED_OPTIONS

SEED_SHA256 = hashlib.sha256(b"a").hexdigest()


def attack_accuracy() -> float:
    """The least-squares attack's share of right bits, at noise ±8 = √64 on 64 people, 256
    random subset sums, averaged over 20 seeded secrets (dp.subset_sum_attack)."""
    rng = np.random.default_rng(SEED)
    right = 0
    a = ATTACK
    for _ in range(a["runs"]):
        secret = rng.integers(0, 2, size=a["people"])
        queries = rng.integers(0, 2, size=(a["queries"], a["people"]))
        answers = dp.subset_sum_answers(secret, queries, a["noise"], rng=rng)
        right += int(np.sum(dp.subset_sum_attack(queries, answers) == secret))
    return right / (a["runs"] * a["people"])


def grade_accuracy(value) -> Result:
    answer = attack_accuracy()
    return number_in(
        value,
        answer - 0.06,  # a student's own 20 runs differ by ~0.016 (one SE) from these
        answer + 0.06,
        what="share_rebuilt",
        too_low="Too low: even at noise ±√n the attack does far better than a coin.",
        too_high="Too high: at noise ±√n many bits come out wrong.",
    )


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


def grade_doubles(value) -> Result:
    """How many doubles lie in [1, 2): the 52-bit mantissa's 2^52 (math.nextafter counts)."""
    answer = 2**52
    assert math.nextafter(1.0, 2.0) - 1.0 == 1.0 / answer
    return number_in(
        value,
        answer,
        answer,
        what="doubles_in_one_to_two",
        too_low="Too few: a double has a 52-bit fraction.",
        too_high="Too many: in [1, 2) the exponent is fixed; only the fraction varies.",
    )


def grade_seed(letter) -> Result:
    if letter is Ellipsis or letter is None:
        return Result(False, "Set reused_seed to your answer (a letter), then run the check again.")
    if not isinstance(letter, str) or letter.strip().lower() not in SEED_OPTIONS:
        return Result(False, f"reused_seed must be one of {sorted(SEED_OPTIONS)}.")
    if hashlib.sha256(letter.strip().lower().encode()).hexdigest() == SEED_SHA256:
        return Result(True, "")
    return Result(False, "Draw the same noise twice and subtract the two releases: what is left?")


def grade_rows(value) -> Result:
    """Rows needed so that a noisy feature's mean (range 1, ε = 1) has SD at most 0.01."""
    per_row = dp.laplace_variance(1.0, 1.0)
    answer = math.ceil(per_row / 0.01**2)
    return number_in(
        value,
        answer,
        answer,
        what="rows_needed",
        too_low="Too few: the mean's variance is one row's, divided by the rows.",
        too_high="More than needed.",
    )


# The fixed answers' grades, by exercise id.
GRADES = {
    "floating_point.doubles": grade_doubles,
    "floating_point.seed": grade_seed,
    "private_ml.rows": grade_rows,
    "reconstruction.accuracy": grade_accuracy,
    "synthetic.pairs": grade_cells,
}

# Every exercise's solution cell, as the lecturer's solution notebook shows it.
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
    "floating_point.doubles": "doubles_in_one_to_two = 2**52\n",
    "floating_point.seed": 'reused_seed = "a"  # the same noise twice: it cancels in the '
    "difference\n",
    "private_ml.rows": "import math\n\nrows_needed = math.ceil(2 * (1 / 1) ** 2 / 0.01**2)\n",
    "private_ml.variance": "def noisy_feature_variance(width, epsilon):\n"
    "    return 2 * (width / epsilon) ** 2\n",
    "reconstruction.accuracy": "import numpy as np\n"
    "import dp\n"
    "\n"
    "rng = np.random.default_rng(0)\n"
    "right = 0\n"
    "for _ in range(20):\n"
    "    secret = rng.integers(0, 2, size=64)\n"
    "    queries = rng.integers(0, 2, size=(256, 64))\n"
    "    answers = dp.subset_sum_answers(secret, queries, 8.0, "
    "rng=rng)\n"
    "    right += (dp.subset_sum_attack(queries, answers) == "
    "secret).sum()\n"
    "share_rebuilt = right / (20 * 64)\n",
    "reconstruction.rebuild": "def rebuild(answer, n):\n"
    "    return [answer([i]) for i in range(n)]\n",
    "synthetic.pairs": "import math\n\npairs_of_attributes = math.comb(6, 2)\n",
    "synthetic.table": "import numpy as np\n"
    "\n"
    "def two_way(records, levels_a, levels_b):\n"
    "    table = np.zeros((levels_a, levels_b), dtype=int)\n"
    "    np.add.at(table, (records[:, 0], records[:, 1]), 1)\n"
    "    return table\n",
}
