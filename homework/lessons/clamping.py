"""Homework for "Sensitivity and clamping": a clamped sum's sensitivity under both neighbour
relations, and what clamping takes away. Every number a grade compares with comes from dp/."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Exercise, Result

LESSON = "clamping"

SEED = 19


def grade_sensitivity(sensitivity) -> Result:
    """`sum_sensitivity(lower, upper, neighbours)` equals dp.sum_sensitivity for "add_remove"
    and "replace" on 300 random bounds, negative ones included."""
    if not callable(sensitivity):
        return Result(False, "sum_sensitivity must be a function of (lower, upper, neighbours).")
    rng = np.random.default_rng(SEED)
    cases = [(0.0, 100.0), (-50.0, 20.0), (-80.0, -10.0)]
    cases += [tuple(sorted(rng.uniform(-100, 100, 2))) for _ in range(300)]
    for lower, upper in cases:
        for neighbours in ("add_remove", "replace"):
            ours = dp.sum_sensitivity(lower, upper, neighbours=neighbours)
            theirs = float(sensitivity(float(lower), float(upper), neighbours))
            if not math.isclose(theirs, ours, rel_tol=1e-9, abs_tol=1e-12):
                how = (
                    "one person added or removed"
                    if neighbours == "add_remove"
                    else "one person's value replaced"
                )
                return Result(
                    False,
                    f"With bounds [{lower:.1f}, {upper:.1f}] and {how}, your sensitivity is "
                    f"off: how much can the clamped sum move?",
                )
    return Result(True, "Both neighbour relations, with any bounds.")


INCOMES = (12_000, 35_000, 48_000, 51_000, 75_000, 120_000, 480_000)

UPPER = 100_000


EXERCISES = (
    Exercise(
        id="clamping.sensitivity",
        lesson=LESSON,
        title="1. A clamped sum's sensitivity",
        prompt="Every value is clamped to [lower, upper] before summing. Write "
        "`sum_sensitivity(lower, upper, neighbours)`: the sum's sensitivity when neighbouring "
        'datasets differ by one person added or removed (`"add_remove"`) or by one '
        'person\'s value replaced (`"replace"`). Bounds may be negative.',
        name="sum_sensitivity",
        starter="def sum_sensitivity(lower, upper, neighbours):\n"
        "    # your code\n"
        "    return unanswered()\n",
        grade=grade_sensitivity,
    ),
    Exercise(
        id="clamping.bias",
        lesson=LESSON,
        title="2. What clamping takes",
        prompt=f"Seven incomes: {', '.join(f'{v:,}' for v in INCOMES)}. They are clamped to "
        f"[0, {UPPER:,}] before a private sum. By how much does clamping change the sum? Set "
        "`clamping_change` (with its sign).",
        name="clamping_change",
        starter="clamping_change = ...  # your answer\n",
    ),
)
