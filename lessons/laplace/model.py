"""Cached computations of the lesson "The Laplace mechanism": numbers and DataFrames."""

from __future__ import annotations

import numpy as np
import pandas as pd

import dp
from ui import charts, datasets, text
from ui.datasets import census

QUERY_AGE = "People of a minimum age"
QUERY_CONDITION = "Rows matching a condition"
QUERIES = (QUERY_AGE, QUERY_CONDITION)  # on your own file: only the condition (no Age)
DEFAULT_CONDITION = "Occupation = Sales"

ANSWER_COUNTS = (100, 200, 500, 1_000, 2_000, 5_000, 10_000)
ZOOMS = {"true count ± 500": 500.0, "true count ± 50": 50.0, "true count ± 5": 5.0}
BINS = 100
SMALL_MULTIPLE_EPSILONS = (0.1, 1.0, 5.0)
SMALL_MULTIPLE_HALF_WIDTH = 40.0
SMALL_MULTIPLE_ANSWERS = 2_000  # fixed: the three panels sit outside section 2's fragment

MALICIOUS_X = (-4.0, 5.0)
MALICIOUS_STEP = 0.1  # log-densities are straight between the kinks at 0 and 1 (on the grid)
DENSITY_DOMAIN = (1e-3, 10.0)
ACCURACY_EPSILONS = np.geomspace(0.01, 10.0, 121)
NAMES_PER_GROUP = 5

# Offsets added to controls.seed(): one per distinct random draw on the page.
SEED_HISTOGRAM = 100
SEED_SMALL_MULTIPLES = 200
SEED_MALICIOUS = 300


@datasets.cached()
def people_aged_at_least(age: int) -> int:
    """How many people in the census are `age` or older."""
    return int((census()["Age"] >= age).sum())


@datasets.cached()
def named_people() -> dict[str, str]:
    """A few names from the data -> their income band (alternating), for the malicious query."""
    people = census()[["Name", "Income"]]
    groups = [people[people["Income"] == band].iloc[100:] for band in ("<=50K", ">50K")]
    return {
        str(group["Name"].iloc[i]): str(group["Income"].iloc[i])
        for i in range(NAMES_PER_GROUP)
        for group in groups
    }


@datasets.cached(max_entries=512)
def histogram(
    truth: int, epsilon: float, answers: int, half_width: float, seed: int, discrete: bool = False
) -> tuple[pd.DataFrame, int, float, float]:
    """Draw `answers` noisy answers truth + Lap(1/ε) — or, with `discrete`, truth + integer
    noise from the discrete Laplace — and bin them over truth ± half_width.

    Returns (the bins — for the chart and the download —, number of
    answers outside the window — counted in the edge bins —, 2.5th and 97.5th percentile
    of the answers, for the alt text)."""
    if discrete:
        values = dp.discrete_laplace_mechanism(truth, epsilon, size=answers, rng=seed)
    else:
        values = dp.laplace_mechanism(truth, 1, epsilon, size=answers, rng=seed)
    domain = (truth - half_width, truth + half_width)
    frame = charts.histogram_frame(values, domain=domain, bins=BINS)
    outside = int(np.count_nonzero((values < domain[0]) | (values > domain[1])))
    lo, hi = np.percentile(values, [2.5, 97.5])
    return frame, outside, float(lo), float(hi)


# --- the malicious query --------------------------------------------------------------------

LABEL_ZERO = "true answer 0 (earns >50K)"
LABEL_ONE = "true answer 1 (earns ≤50K)"


def outside_words(outside: int, answers: int, half_width: float) -> str:
    """The caption under the histogram: how many answers the window leaves out (counted in
    its edge bins), and, unless it is already the widest of ZOOMS, that a wider one shows
    more of them (at ε = 0.01 even ±500 leaves about e⁻⁵ of them out)."""
    if not outside:
        return (
            "Every answer falls inside the window. The y axis is a square-root scale, so that "
            "a flat spread (small ε) and a single tall bar (large ε) are both readable."
        )
    if half_width < max(ZOOMS.values()):
        return (
            f"{outside:,} of {answers:,} answers fall outside the window and are counted in "
            "the edge bins. A wider window shows more of them."
        )
    return (
        f"{outside:,} of {answers:,} answers fall outside even the widest window, "
        f"±{half_width:,.0f}, and are counted in its edge bins."
    )


@datasets.cached()
def worlds_frame(epsilon: float) -> pd.DataFrame:
    """pdf of 0 + Lap(1/ε) and 1 + Lap(1/ε) on a fixed grid (long format)."""
    steps = int(round((MALICIOUS_X[1] - MALICIOUS_X[0]) / MALICIOUS_STEP))
    y = MALICIOUS_X[0] + MALICIOUS_STEP * np.arange(steps + 1)
    scale = dp.laplace_scale(1, epsilon)
    frame = pd.concat(
        [
            pd.DataFrame(
                {"y": y, "density": dp.laplace_pdf(y, loc=loc, scale=scale), "world": label}
            )
            for loc, label in ((0.0, LABEL_ZERO), (1.0, LABEL_ONE))
        ],
        ignore_index=True,
    )
    return frame


@datasets.cached()
def accuracy_frame() -> pd.DataFrame:
    """P[best guess right] = 1 - ½ e^(-ε/2) over a log grid of ε."""
    return pd.DataFrame(
        {"epsilon": ACCURACY_EPSILONS, "accuracy": dp.best_guess_accuracy(ACCURACY_EPSILONS)}
    )


@datasets.cached()
def point_frame(epsilon: float) -> pd.DataFrame:
    """The current ε on the accuracy curve (its words: accuracy_title)."""
    return pd.DataFrame({"epsilon": [epsilon], "accuracy": [dp.best_guess_accuracy(epsilon)]})


def accuracy_title(epsilon: float) -> list[str]:
    accuracy = dp.best_guess_accuracy(epsilon)
    return [
        "How often the best guess is right",
        f"◆ at ε = {text.number(epsilon)}: {text.percent(accuracy)}",
    ]


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def malicious_answers(secret: int, epsilon: float, seed: int, draws: int) -> np.ndarray:
    """The noisy answers 1..`draws` to the malicious query (draw i at seed + SEED_MALICIOUS + i,
    so an earlier draw never changes when another is made)."""
    return np.array(
        [
            dp.laplace_mechanism(secret, 1, epsilon, rng=seed + SEED_MALICIOUS + i)
            for i in range(1, draws + 1)
        ]
    )
