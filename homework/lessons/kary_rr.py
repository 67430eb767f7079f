"""Homework for "k-ary randomized response": a respondent's randomizer as a function, tested
by its output distribution and an ε audit, and the unbiased count of one answer from the
report histogram. Every number a grade compares with comes from dp/."""

from __future__ import annotations

import numpy as np
from scipy import stats

import dp
from homework.core import Exercise, Result

LESSON = "kary_rr"

SEED = 13

DRAWS = 6000

ALPHA = 1e-6


def grade_randomizer(randomize) -> Result:
    """`grr(value, k, epsilon, rng)` reports the value with probability e^ε/(e^ε + k − 1) and
    each other one with 1/(e^ε + k − 1) (chi-square, p > 10⁻⁶, at two settings), uses only
    `rng`, and an audit of two neighbouring values finds no more than ε."""
    if not callable(randomize):
        return Result(False, "grr must be a function of (value, k, epsilon, rng).")
    for k, epsilon, value in ((4, 1.0, 2), (7, 2.0, 0)):
        rng = np.random.default_rng(SEED)
        reports = np.array([randomize(value, k, epsilon, rng) for _ in range(DRAWS)])
        if not np.all(np.isin(reports, np.arange(k))):
            return Result(False, f"With k = {k}, report only the values 0 to {k - 1}.")
        again = np.random.default_rng(SEED)
        if [randomize(value, k, epsilon, again) for _ in range(30)] != list(reports[:30]):
            return Result(False, "The same seed gave other reports: draw only from `rng`.")
        keep, other = dp.grr_probabilities(epsilon, k)
        expected = np.full(k, other * DRAWS)
        expected[value] = keep * DRAWS
        observed = np.bincount(reports.astype(int), minlength=k)
        if stats.chisquare(observed, expected).pvalue < ALPHA:
            kept = observed[value] / DRAWS
            return Result(
                False,
                f"With k = {k} at ε = {epsilon:g} you keep the true value {kept:.0%} of the "
                f"time; the mechanism keeps it {keep:.0%}. Check the keep-probability, and "
                "that a changed answer is any *other* value, each as likely.",
            )
    k, epsilon = 4, 1.0
    rng = np.random.default_rng(SEED + 1)
    zeros = np.array([randomize(0, k, epsilon, rng) for _ in range(DRAWS)])
    ones = np.array([randomize(1, k, epsilon, rng) for _ in range(DRAWS)])
    found = dp.audit_epsilon(zeros, ones, alpha=ALPHA)
    if found > epsilon:
        return Result(False, f"An attack tells two answers apart at ε ≥ {found:.2f} > {epsilon:g}.")
    return Result(True, "Its reports have k-ary randomized response's distribution.")


HISTOGRAM = (412, 180, 201, 207)  # reports of "A", "B", "C", "D" from 1,000 people at ε = 1

EPSILON = 1.0


EXERCISES = (
    Exercise(
        id="kary_rr.randomize",
        lesson=LESSON,
        title="1. A respondent's randomizer",
        prompt="Write `grr(value, k, epsilon, rng)`: generalized (k-ary) randomized response "
        "for an answer in 0 … k − 1, ε-local-DP. Draw every random number from `rng`. The "
        "check runs it thousands of times, tests the reports' distribution, and audits two "
        "neighbouring answers.",
        name="grr",
        starter="def grr(value, k, epsilon, rng):\n"
        "    # your code: return the reported value\n"
        "    return unanswered()\n",
        grade=grade_randomizer,
        points=2.0,
    ),
    Exercise(
        id="kary_rr.count",
        lesson=LESSON,
        title="2. Count the A's",
        prompt=f"1,000 people answered a 4-option question (A–D) with k-ary randomized "
        f"response at ε = {EPSILON:g}. The reports: A {HISTOGRAM[0]}, B {HISTOGRAM[1]}, "
        f"C {HISTOGRAM[2]}, D {HISTOGRAM[3]}. Estimate, without bias, how many truly chose "
        "A: set `people_answering_a` (within 0.5).",
        name="people_answering_a",
        starter="people_answering_a = ...  # your answer\n",
    ),
)
