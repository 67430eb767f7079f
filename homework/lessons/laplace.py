"""Homework for "The Laplace mechanism": implement the Laplace count, find the ε that gives
a median error, and the malicious query's best guess. Every number a grade compares with is
computed by dp/ (the formula written once), never typed here."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

import dp
from homework.core import Exercise, Result

LESSON = "laplace"

DRAWS = 4000  # calls of the student's mechanism per setting

SETTINGS = ((0.5, 120), (2.0, 40))  # (ε, true count)

SEED = 2024

AUDIT_DRAWS = 20_000

ALPHA = 1e-6  # the audit's and the tests' chance of failing a right answer


def _draws(mechanism, truth: int, epsilon: float, seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.array([mechanism(truth, epsilon, rng) for _ in range(n)], dtype=float)
    if out.shape != (n,):
        raise ValueError("laplace_count must return one number per call")
    return out


def grade_count(mechanism) -> Result:
    """Behaviour, at two settings: numbers, finite; the same seed gives the same answers and
    another seed others (all randomness from `rng`); centred on the true count (within 6
    standard errors); Laplace-shaped with scale 1/ε (Kolmogorov–Smirnov, p > 10⁻⁶); and an
    ε audit on neighbouring counts that finds no more than ε."""
    if not callable(mechanism):
        return Result(False, "laplace_count must be a function of (true_count, epsilon, rng).")
    for epsilon, truth in SETTINGS:
        answers = _draws(mechanism, truth, epsilon, SEED, DRAWS)
        if not np.all(np.isfinite(answers)):
            return Result(False, "Some answers are not finite numbers.")
        again = _draws(mechanism, truth, epsilon, SEED, 50)
        other = _draws(mechanism, truth, epsilon, SEED + 1, 50)
        if not np.array_equal(again, answers[:50]):
            return Result(
                False,
                "The same seed gave different answers: draw every random number from `rng` "
                "(not from numpy.random or random).",
            )
        if np.array_equal(again, other):
            return Result(False, "Another seed gave the same answers: the noise must be random.")
        noise = answers - truth
        sd = dp.laplace_std(1.0, epsilon)
        spread = float(np.std(noise)) / sd
        if abs(float(np.mean(noise))) > 6 * sd / math.sqrt(DRAWS):
            return Result(
                False,
                f"At ε = {epsilon:g} your answers are centred {float(np.mean(noise)):+.2f} from "
                "the true count: the noise must have mean 0.",
            )
        scale = dp.laplace_scale(1.0, epsilon)
        if stats.kstest(noise, "laplace", args=(0.0, scale)).pvalue < ALPHA:
            if abs(spread - 1) > 0.1:
                return Result(
                    False,
                    f"At ε = {epsilon:g} your noise's spread is {spread:.2f} times the "
                    "Laplace mechanism's: check its scale against the sensitivity and ε.",
                )
            return Result(
                False,
                f"At ε = {epsilon:g} your noise has the right spread but not the Laplace "
                "shape: which distribution does the mechanism draw from?",
            )
    epsilon, truth = SETTINGS[0]
    grid = truth + np.linspace(-4.0, 5.0, 19)
    found = dp.audit_epsilon(
        _draws(mechanism, truth, epsilon, SEED + 2, AUDIT_DRAWS),
        _draws(mechanism, truth + 1, epsilon, SEED + 3, AUDIT_DRAWS),
        alpha=ALPHA,
        thresholds=grid,
    )
    if found > epsilon:
        return Result(
            False,
            f"An attack tells neighbouring counts apart at ε ≥ {found:.2f}, more than the "
            f"promised {epsilon:g}.",
        )
    return Result(True, "Your mechanism behaves as the Laplace count at both ε.")


MEDIAN_ERROR = 5  # people

MALICIOUS_EPSILON = 1.0


EXERCISES = (
    Exercise(
        id="laplace.count",
        lesson=LESSON,
        title="1. Implement the Laplace count",
        prompt="Write `laplace_count(true_count, epsilon, rng)`: the count released with the "
        "Laplace mechanism, ε-DP when neighbouring datasets differ by one person (a count's "
        "sensitivity is 1). Draw every random number from `rng`, a NumPy `Generator`. The "
        "check runs your function thousands of times at fixed seeds and tests the answers' "
        "centre, spread and shape, and an attack on neighbouring counts.",
        name="laplace_count",
        starter="def laplace_count(true_count, epsilon, rng):\n"
        "    # your code: return the noisy count\n"
        "    return unanswered()\n",
        grade=grade_count,
        points=2.0,
    ),
    Exercise(
        id="laplace.epsilon",
        lesson=LESSON,
        title="2. Find the ε for an error",
        prompt=f"At which ε do half of a Laplace count's answers miss the truth by more than "
        f"{MEDIAN_ERROR} people? Set `epsilon_for_median_error` to it (a number; 1% is "
        "close enough).",
        name="epsilon_for_median_error",
        starter="epsilon_for_median_error = ...  # your answer\n",
    ),
    Exercise(
        id="laplace.malicious",
        lesson=LESSON,
        title="3. The malicious query",
        prompt="A query's true answer is 0 or 1 (equally likely), and it is answered with "
        f"the Laplace mechanism at ε = {MALICIOUS_EPSILON:g}. The attacker guesses 1 when "
        "the answer is above ½. How often is the guess right? Set `best_guess_accuracy` to "
        "that probability (within 0.002).",
        name="best_guess_accuracy",
        starter="best_guess_accuracy = ...  # your answer, a probability\n",
    ),
)
