"""Homework for "DP group-by": what a student gets (the grader's half is
grading/lessons/group_by.py)."""

from __future__ import annotations

from homework.core import number_exercise

LESSON = "group_by"

SEED = 29


EXERCISES = (
    number_exercise(
        "group_by.release",
        LESSON,
        "2. Does a group of ten appear?",
        "With the threshold of exercise 1 (ε = 1, δ = 10⁻⁶, Laplace noise of scale 1), how "
        "often is a group of 10 people released? Set `ten_person_group_released` (within "
        "0.0005).",
        "ten_person_group_released",
    ),
    number_exercise(
        "group_by.threshold",
        LESSON,
        "1. The threshold for a new group",
        "A group is released only if its noisy count of people (Laplace, one group per "
        "person, ε = 1) reaches a threshold τ, so that a group of one person appears with "
        "probability at most δ = 10⁻⁶. What is τ? Set `partition_threshold` (within 0.5%).",
        "partition_threshold",
    ),
)
