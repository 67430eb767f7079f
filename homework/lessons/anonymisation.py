"""Homework for "Why anonymisation fails": what a student gets (the grader's half is
grading/lessons/anonymisation.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "anonymisation"

SEED = 29


def grade_k(fn) -> Result:
    """`k_of(rows)`: the k of a release (the smallest group of rows equal on every column),
    on 200 random tables, against dp.k_anonymity of their class sizes."""
    if not callable(fn):
        return Result(False, "k_of must be a function of a list of rows (tuples).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n, width = int(rng.integers(1, 60)), int(rng.integers(1, 4))
        rows = [tuple(int(v) for v in rng.integers(0, 3, size=width)) for _ in range(n)]
        _, sizes = np.unique(np.array(rows), axis=0, return_counts=True)
        ours = dp.k_anonymity(sizes)
        theirs = fn(list(rows))
        if theirs != ours:
            return Result(
                False,
                f"A table of {n} rows is {ours}-anonymous, and you said {theirs}: k is the "
                "size of the smallest group of identical rows.",
            )
    return Result(True, "The k of every table tried.")


UNIQUE_TABLE = (
    (30, "0214"),
    (30, "0214"),
    (31, "0214"),
    (45, "0301"),
    (45, "0301"),
    (45, "0301"),
    (52, "0214"),
    (30, "0301"),
)


EXERCISES = (
    number_exercise(
        "anonymisation.unique",
        LESSON,
        "2. Who is unique?",
        f"A release of (age, ZIP) rows: {', '.join(str(r) for r in UNIQUE_TABLE)}. What "
        "share of its people are alone in their class? Set `share_unique`.",
        "share_unique",
        "a probability",
    ),
    function_exercise(
        "anonymisation.k",
        LESSON,
        "1. How anonymous is a release?",
        "A release is a list of rows (tuples of its quasi-identifiers). Write `k_of(rows)`: "
        "the k for which it is k-anonymous.",
        "k_of",
        "rows",
        grade_k,
    ),
)
