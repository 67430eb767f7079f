"""Homework for "Coin-flip randomized response": estimate the true share from reports when
the coins may be biased (the textbook's fair-coin formula is wrong then), the protocol's ε,
and the estimate's standard error. Every number a grade compares with comes from dp/."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Exercise, Result

LESSON = "coin_flip"

SEED = 7

# (first coin honest, second coin yes, true share, people): fair coins, then biased ones
SURVEYS = ((0.5, 0.5, 0.3, 500), (0.6, 0.5, 0.3, 500), (0.7, 0.2, 0.55, 800), (0.4, 0.9, 0.1, 300))

REPEATS = 2000  # surveys for the unbiasedness check


def _survey(honest: float, yes: float, share: float, n: int, rng) -> np.ndarray:
    truth = (rng.random(n) < share).astype(int)
    return dp.randomized_response(truth, *dp.coin_flip_probabilities(honest, yes), rng=rng)


def grade_estimate(estimate) -> Result:
    """The student's estimate equals dp.estimate_proportion (the unbiased r̂) on seeded
    surveys with fair and biased coins, and is unbiased over REPEATS surveys (within 6
    standard errors of rr_variance)."""
    if not callable(estimate):
        return Result(False, "estimate_share must be a function of (reports, honest, yes).")
    rng = np.random.default_rng(SEED)
    for honest, yes, share, n in SURVEYS:
        reports = _survey(honest, yes, share, n, rng)
        theirs = float(estimate(reports.copy(), honest, yes))
        ours = dp.estimate_proportion(reports, *dp.coin_flip_probabilities(honest, yes))
        if not math.isfinite(theirs):
            return Result(False, "Your estimate is not a finite number.")
        if abs(theirs - ours) > 1e-9:
            fair = honest == yes == 0.5
            if (
                not fair
                and abs(float(dp.fair_coin_formula_estimate(reports.sum(), n)) - theirs) < 1e-9
            ):
                return Result(
                    False,
                    "Right for fair coins only: with a first coin honest "
                    f"{honest:.0%} of the time, which share of reports is a forced 'yes', "
                    "and what fraction of people answer honestly?",
                )
            if ours < 0 <= theirs or ours > 1 >= theirs:
                return Result(
                    False,
                    "Do not clip the estimate to [0, 1]: clipping biases it (averaged over "
                    "many surveys it would miss the true share).",
                )
            return Result(
                False,
                f"With coins ({honest:g}, {yes:g}) your estimate misses the unbiased one by "
                f"{theirs - ours:+.3f}: solve E[share of 'yes' reports] for the true share.",
            )
    silent = np.zeros(40, dtype=int)  # every report "no": the unbiased estimate is below 0
    ours = dp.estimate_proportion(silent, *dp.coin_flip_probabilities(0.5, 0.5))
    if abs(float(estimate(silent.copy(), 0.5, 0.5)) - ours) > 1e-9:
        return Result(
            False,
            "When every report is 'no', the unbiased estimate is below 0. Do not clip it to "
            "[0, 1]: clipping biases it (averaged over many surveys it would miss).",
        )
    honest, yes, share, n = SURVEYS[1]
    p, q = dp.coin_flip_probabilities(honest, yes)
    estimates = np.array(
        [estimate(_survey(honest, yes, share, n, rng), honest, yes) for _ in range(REPEATS)]
    )
    se = math.sqrt(dp.rr_variance(share, n, p, q) / REPEATS)
    if abs(float(np.mean(estimates)) - share) > 6 * se:
        return Result(False, "Averaged over many surveys your estimate misses the true share.")
    return Result(True, "Unbiased, with fair coins and biased ones.")


SE_SHARE, SE_PEOPLE = 0.3, 1000


EXERCISES = (
    Exercise(
        id="coin_flip.estimate",
        lesson=LESSON,
        title="1. Estimate the share from the reports",
        prompt="In the two-coin protocol, coin 1 says 'answer honestly' with probability "
        "`honest`; otherwise coin 2 says 'yes' with probability `yes`. Write "
        "`estimate_share(reports, honest, yes)`: the unbiased estimate of the true share of "
        "'yes' from the 0/1 reports, for any coins (the textbook's 2Ŷ − ½ holds only for "
        "fair ones).",
        name="estimate_share",
        starter="def estimate_share(reports, honest, yes):\n"
        "    # your code: the unbiased estimate of the true share of 'yes'\n"
        "    return unanswered()\n",
        grade=grade_estimate,
        points=2.0,
    ),
    Exercise(
        id="coin_flip.epsilon",
        lesson=LESSON,
        title="2. The ε of biased coins",
        prompt="Coin 1 is honest 60% of the time and coin 2 is fair. What is the protocol's ε? "
        "Set `epsilon_biased_coins` (within 0.5%).",
        name="epsilon_biased_coins",
        starter="epsilon_biased_coins = ...  # your answer\n",
    ),
    Exercise(
        id="coin_flip.standard_error",
        lesson=LESSON,
        title="3. How far off is the estimate?",
        prompt=f"With fair coins, {SE_PEOPLE:,} people and a true share of {SE_SHARE}, what "
        "is the standard error of the unbiased estimate? Set `standard_error` (within 1%).",
        name="standard_error",
        starter="standard_error = ...  # your answer\n",
    ),
)
