"""Homework for "The sparse vector technique": what a student gets (the grader's half is
grading/lessons/sparse_vector.py)."""

from __future__ import annotations

from homework.core import number_exercise

LESSON = "sparse_vector"

SEED = 29

FLAW_OPTIONS = {
    "a": "no noise on the queries",
    "b": "a threshold redrawn for every query",
    "c": "query noise without the factor 2c",
}

STOP = {"answers": (1, 0, 6, 2), "threshold": 4.0, "epsilon": 1.0}


EXERCISES = (
    number_exercise(
        "sparse_vector.flaw",
        LESSON,
        "1. Which variant is broken for good?",
        "Three published variants of the sparse vector technique: "
        + "; ".join(f"({k}) {v}" for k, v in FLAW_OPTIONS.items())
        + ". Which one is ε′-DP for no finite ε′? Set `broken_variant` to its letter.",
        "broken_variant",
        "a letter",
    ),
    number_exercise(
        "sparse_vector.stop",
        LESSON,
        "2. Where AboveThreshold stops",
        f"AboveThreshold at ε = {STOP['epsilon']:g} (Δ = 1) with threshold "
        f"{STOP['threshold']:g} sees the answers {STOP['answers']}. What is the probability "
        "that it stops at the third? Set `stop_at_third` (within 0.002). "
        "`dp.above_threshold_probabilities` may help, or a simulation of a million runs.",
        "stop_at_third",
        "a probability",
    ),
)
