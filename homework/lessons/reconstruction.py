"""Homework for "Reconstruction attacks": what a student gets (the grader's half is
grading/lessons/reconstruction.py)."""

from __future__ import annotations

import numpy as np

from homework.core import Result, function_exercise, number_exercise

LESSON = "reconstruction"

SEED = 37


def grade_rebuild(fn) -> Result:
    """`rebuild(answer, n)` recovers n secret bits from `answer(subset)`, the exact sum of
    the bits at the indices in `subset`, on 100 random secrets (n = 1..8)."""
    if not callable(fn):
        return Result(False, "rebuild must be a function of (answer, n).")
    rng = np.random.default_rng(SEED)
    for _ in range(100):
        n = int(rng.integers(1, 9))
        secret = rng.integers(0, 2, size=n)

        # keeps nothing of what it is asked: it runs in the grader, called as often as the
        # student's code likes (a list of every subset asked grew without bound)
        def answer(subset, secret=secret):
            indices = [int(i) for i in subset]
            if any(not 0 <= i < len(secret) for i in indices):
                raise IndexError(f"no person {indices[:10]}")
            return int(secret[indices].sum())

        theirs = [int(b) for b in fn(answer, n)]
        if theirs != [int(b) for b in secret]:
            return Result(
                False,
                f"With {n} people your reconstruction is wrong: exact sums of well-chosen "
                "subsets (a single person, for example) give every bit away.",
            )
    return Result(True, "Every secret rebuilt from exact subset sums.")


ATTACK = {"people": 64, "queries": 256, "noise": 8.0, "runs": 20}


EXERCISES = (
    function_exercise(
        "reconstruction.rebuild",
        LESSON,
        "1. Rebuild the secrets",
        "n people hold secret bits. `answer(subset)` gives the exact number of 1s among the "
        "people whose indices are in `subset` (a list). Write `rebuild(answer, n)`: the list of "
        "the n bits.",
        "rebuild",
        "answer, n",
        grade_rebuild,
    ),
    number_exercise(
        "reconstruction.accuracy",
        LESSON,
        "2. Noise at √n",
        f"{ATTACK['people']} people, {ATTACK['queries']} random subset sums, each answered "
        f"within ±{ATTACK['noise']:g} (uniform noise). What share of the bits does the "
        "least-squares attack get right, on average? Set `share_rebuilt` (within 0.06; "
        "`dp.subset_sum_answers` and `dp.subset_sum_attack` may help).",
        "share_rebuilt",
        "a probability",
    ),
)
