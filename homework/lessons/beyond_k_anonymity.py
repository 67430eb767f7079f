"""Homework for "Beyond k-anonymity": what a student gets (the grader's half is
grading/lessons/beyond_k_anonymity.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "beyond_k_anonymity"

SEED = 31


def grade_l(fn) -> Result:
    """`l_of(classes, sensitive)` equals dp.l_diversity on 200 random tables."""
    if not callable(fn):
        return Result(False, "l_of must be a function of (classes, sensitive).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n = int(rng.integers(1, 80))
        classes = rng.integers(0, 6, size=n)
        sensitive = rng.integers(0, 4, size=n)
        ours = dp.l_diversity(classes, sensitive)
        theirs = fn(list(classes), list(sensitive))
        if theirs != ours:
            return Result(
                False,
                f"A table of {n} people is {ours}-diverse, and you said {theirs}: l is the "
                "fewest distinct sensitive values in any one class.",
            )
    return Result(True, "The l of every table tried.")


# The lesson's skewed class: 123 of its 200 people earn more than $50K (61.5%), against 484
# of the table's 2,000 (24.2%).
SKEW_CLASS, SKEW_TABLE = (123, 200), (484, 2000)


EXERCISES = (
    function_exercise(
        "beyond_k_anonymity.l",
        LESSON,
        "1. How diverse is a release?",
        "Each person has an equivalence class and a sensitive value (two lists, one entry a "
        "person). Write `l_of(classes, sensitive)`: the l of l-diversity (distinct values).",
        "l_of",
        "classes, sensitive",
        grade_l,
    ),
    number_exercise(
        "beyond_k_anonymity.distance",
        LESSON,
        "2. How far a skewed class is",
        "In one class 123 of 200 people earn more than \\$50K (61.5%); in the whole table "
        "484 of 2,000 (24.2%). What is the class's distance from the table, "
        "½ Σ |p_class − p_table| over the two values? Set `class_distance` (within 0.0005).",
        "class_distance",
    ),
)
