"""Homework for "Synthetic data": what a student gets (the grader's half is
grading/lessons/synthetic.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "synthetic"

SEED = 37


def grade_table(fn) -> Result:
    """`two_way(records, levels_a, levels_b)` counts pairs as dp.marginal_tables does."""
    if not callable(fn):
        return Result(False, "two_way must be a function of (records, levels_a, levels_b).")
    rng = np.random.default_rng(SEED)
    for _ in range(100):
        la, lb = int(rng.integers(2, 5)), int(rng.integers(2, 5))
        records = np.column_stack([rng.integers(0, la, size=40), rng.integers(0, lb, size=40)])
        ours = dp.marginal_tables(records, (la, lb))[(0, 1)]
        theirs = np.asarray(fn(records.copy(), la, lb))
        if theirs.shape != ours.shape or not np.array_equal(theirs, ours):
            return Result(
                False,
                f"For {la} × {lb} levels your table is off: entry [i, j] counts the records "
                "with first value i and second value j.",
            )
    return Result(True, "Two-way tables of counts.")


EXERCISES = (
    function_exercise(
        "synthetic.table",
        LESSON,
        "1. A two-way table",
        "Write `two_way(records, levels_a, levels_b)`: the table of counts of a NumPy array of "
        "records with two integer columns (values 0 … levels − 1), entry [i, j] the records "
        "with first value i and second value j.",
        "two_way",
        "records, levels_a, levels_b",
        grade_table,
    ),
    number_exercise(
        "synthetic.pairs",
        LESSON,
        "2. How many tables?",
        "MWEM measures every two-way table of a census block with six attributes. How many "
        "tables is that? Set `pairs_of_attributes`.",
        "pairs_of_attributes",
        "a whole number",
    ),
)
