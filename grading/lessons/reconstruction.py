"""The grader's half of "Reconstruction attacks"'s homework: the grades of its fixed answers and
every solution cell. Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.reconstruction import ATTACK, SEED


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


HIDDEN_SEED = 320_457  # the cases a function's grade draws when the autograder grades


GRADES = {
    "reconstruction.accuracy": grade_accuracy,
}


SOLUTIONS = {
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
}
