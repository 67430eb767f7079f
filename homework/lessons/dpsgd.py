"""Homework for "Private training with DP-SGD": what a student gets (the grader's half is
grading/lessons/dpsgd.py)."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, function_exercise, number_exercise

LESSON = "dpsgd"

SEED = 31


def grade_clip(fn) -> Result:
    """`clip(gradients, clip_norm)` equals dp.clip_rows on 200 random batches."""
    if not callable(fn):
        return Result(False, "clip must be a function of (gradients, clip_norm).")
    rng = np.random.default_rng(SEED)
    for i in range(200):
        rows, width = int(rng.integers(1, 20)), int(rng.integers(1, 6))
        gradients = rng.normal(0, 3, size=(rows, width))
        if i % 5 == 0:
            gradients[0] = 0.0  # a zero gradient must stay 0
        clip_norm = float(rng.uniform(0.1, 5))
        ours = dp.clip_rows(gradients, clip_norm)
        theirs = np.asarray(fn(gradients.copy(), clip_norm), dtype=float)
        if theirs.shape != ours.shape or not np.all(np.isfinite(theirs)):
            return Result(False, "Return one finite row per example (a zero row stays 0).")
        if not np.allclose(theirs, ours, rtol=1e-9, atol=1e-12):
            return Result(
                False,
                "Some rows are off: clip each example's gradient to length at most C (its "
                "own L2 norm), and leave shorter ones as they are.",
            )
    return Result(True, "Per-example clipping, zero gradients included.")


EXERCISES = (
    function_exercise(
        "dpsgd.clip",
        LESSON,
        "1. Per-example clipping",
        "Write `clip(gradients, clip_norm)`: each row of the NumPy array `gradients` (one "
        "example's gradient) scaled down to L2 norm `clip_norm` when it is longer, kept when "
        "it is shorter.",
        "clip",
        "gradients, clip_norm",
        grade_clip,
    ),
    number_exercise(
        "dpsgd.noise",
        LESSON,
        "2. The noise in one step",
        "DP-SGD clips to C = 1, adds N(0, σ²C²) to the sum of the batch's clipped gradients "
        "with σ = 1.1, and divides by the expected batch size B = 256. What is the standard "
        "deviation of one coordinate's noise in the update? Set `noise_sd_per_coordinate` "
        "(within 0.5%).",
        "noise_sd_per_coordinate",
    ),
)
