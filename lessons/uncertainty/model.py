"""Uncertainty in a DP answer: sampling error and privacy noise together, how often each
interval holds the truth, and the biases no interval shows (the numbers behind the page).

The population is the census's 32,561 people, the question "what share earn more than
$50K?", a survey a simple random sample of n of them (without replacement), and the
release the sample's share with Laplace noise on its count: (count + Lap(1/ε)) / n.
Every formula is dp/'s (dp/intervals.py, dp/laplace.py, dp/postprocess.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, text
from ui.columns import census_cells

SAMPLE_SIZES: tuple[int, ...] = (100, 300, 1_000, 3_000, 10_000)
DEFAULT_SAMPLE = 1_000
CONFIDENCE = 0.95
REPEATS = 1_000
SEED_SURVEY = 1
SEED_COVERAGE = 2
SEED_RATIO = 3
COMBINED = "sampling and noise"
NOISE_ONLY = "noise only"
SAMPLING_ONLY = "sampling only"
KINDS = (COMBINED, NOISE_ONLY, SAMPLING_ONLY)
SHARE_DOMAIN = (0.0, 0.5)  # the interval chart's axis: the share earning >50K


@dataclass(frozen=True)
class Population:
    people: int
    earners: int  # people earning >50K
    share: float


@datasets.cached(census_only=True)
def population() -> Population:
    census = datasets.census()
    earners = int((census["Income"] == ">50K").sum())
    return Population(len(census), earners, earners / len(census))


def sampling_sd(share: float, n: int, people: int) -> float:
    """The SD of a sample share of n drawn without replacement from `people`:
    √(p(1 − p)/n · (N − n)/(N − 1)) (the finite-population correction)."""
    p = min(max(share, 0.0), 1.0)
    return math.sqrt(p * (1.0 - p) / n * (people - n) / (people - 1))


@dataclass(frozen=True)
class Survey:
    n: int
    epsilon: float
    count: int  # earners in the sample
    release: float  # (count + Lap(1/ε)) / n
    sampling_sd: float  # estimated from the release (clipped to [0, 1])
    laplace_scale: float  # 1/(nε) on the share
    intervals: dict[str, tuple[float, float]]


def intervals(
    release: float, sd: float, scale: float, confidence: float = CONFIDENCE
) -> dict[str, tuple[float, float]]:
    """The three intervals around a release: both errors (dp.noise_sampling_interval), the
    noise alone (as if the sample were the population) and the sampling alone (as if there
    were no noise)."""
    return {
        COMBINED: dp.noise_sampling_interval(release, sd, scale, confidence),
        NOISE_ONLY: dp.noise_sampling_interval(release, 0.0, scale, confidence),
        # a share estimated at exactly 0 or 1 has an estimated sampling SD of 0: no width
        SAMPLING_ONLY: (
            dp.noise_sampling_interval(release, sd, 0.0, confidence)
            if sd > 0
            else (release, release)
        ),
    }


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def survey(n: int, epsilon: float, seed: int) -> Survey:
    """One survey of n people and its release at ε."""
    pop = population()
    rng = np.random.default_rng(seed)
    count = int(rng.hypergeometric(pop.earners, pop.people - pop.earners, n))
    release = float(dp.laplace_mechanism(float(count), 1, epsilon, rng=rng)) / n
    sd = sampling_sd(release, n, pop.people)
    scale = dp.laplace_scale(1, epsilon) / n
    return Survey(n, epsilon, count, release, sd, scale, intervals(release, sd, scale))


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def interval_frame(n: int, epsilon: float, seed: int) -> pd.DataFrame:
    """The chart's rows: each interval's ends and the release."""
    result = survey(n, epsilon, seed)
    return pd.DataFrame(
        {
            "interval": list(KINDS),
            "low": [result.intervals[kind][0] for kind in KINDS],
            "high": [result.intervals[kind][1] for kind in KINDS],
            "release": [result.release] * len(KINDS),
        }
    )


@datasets.cached(census_only=True)
def truth_rule() -> pd.DataFrame:
    share = population().share
    return pd.DataFrame({"x": [share], "label": [f"population: {text.percent(share)}"]})


def noise_sd(n: int, epsilon: float) -> float:
    """The SD of the noise on the share: √2/(nε)."""
    return dp.laplace_std(1, epsilon) / n


def dominant(n: int, epsilon: float) -> tuple[str, float]:
    """Which error is larger at the population's share, and by what factor (≥ 1)."""
    pop = population()
    sampling = sampling_sd(pop.share, n, pop.people)
    noise = noise_sd(n, epsilon)
    return ("sampling", sampling / noise) if sampling >= noise else ("noise", noise / sampling)


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def coverage(n: int, epsilon: float, seed: int) -> pd.DataFrame:
    """REPEATS seeded surveys of n at ε: how often each interval holds the population's
    share, with the binomial standard error of that share of repeats."""
    pop = population()
    rng = np.random.default_rng(seed)
    counts = rng.hypergeometric(pop.earners, pop.people - pop.earners, n, size=REPEATS)
    releases = (counts + rng.laplace(scale=dp.laplace_scale(1, epsilon), size=REPEATS)) / n
    scale = dp.laplace_scale(1, epsilon) / n
    held = dict.fromkeys(KINDS, 0)
    for release in releases:
        sd = sampling_sd(float(release), n, pop.people)
        for kind, (low, high) in intervals(float(release), sd, scale).items():
            held[kind] += int(low <= pop.share <= high)
    shares = np.array([held[kind] / REPEATS for kind in KINDS])
    return pd.DataFrame(
        {
            "interval": list(KINDS),
            "coverage": shares,
            "se": np.sqrt(shares * (1 - shares) / REPEATS),
        }
    )


@datasets.cached(census_only=True)
def nominal_rule() -> pd.DataFrame:
    return pd.DataFrame({"x": [CONFIDENCE], "label": [f"nominal {text.percent(CONFIDENCE)}"]})


# --- Bias that no interval shows -------------------------------------------------------------
SMALL_COUNTS = np.arange(0, 31)  # the clipping chart's true counts


ADDED_FLOOR = 1e-3  # the clipping chart's log axis starts here


@datasets.cached(max_entries=64, census_only=True)
def clipping_frame(epsilon: float) -> pd.DataFrame:
    """For true counts 0..30: how much clipping the noisy count at 0 adds on average
    (dp.clipped_laplace_bias); below ADDED_FLOOR, where the log axis ends, no value (every
    count stays a row, so the chart is redrawn in place)."""
    bias = dp.clipped_laplace_bias(SMALL_COUNTS.astype(np.float64), dp.laplace_scale(1, epsilon))
    return pd.DataFrame(
        {"count": SMALL_COUNTS, "added": np.where(bias >= ADDED_FLOOR, bias, np.nan)}
    )


def negligible_from(epsilon: float) -> int | None:
    """The smallest count on the chart to which clipping adds less than ADDED_FLOOR."""
    bias = dp.clipped_laplace_bias(SMALL_COUNTS.astype(np.float64), dp.laplace_scale(1, epsilon))
    below = np.flatnonzero(bias < ADDED_FLOOR)
    return int(SMALL_COUNTS[below[0]]) if below.size else None


@dataclass(frozen=True)
class SmallCells:
    cells: int
    small: int  # cells under SMALL people
    people: int  # people in them
    added: float  # people clipping adds to them on average, in all


SMALL = 10


@datasets.cached(max_entries=64, census_only=True)
def small_cells(epsilon: float) -> SmallCells:
    """The census's occupation × native-country cells under SMALL people, and what clipping
    their noisy counts at 0 adds to them on average."""
    people = census_cells()["people"].to_numpy()
    small = people[people < SMALL]
    added = dp.clipped_laplace_bias(small.astype(np.float64), dp.laplace_scale(1, epsilon))
    return SmallCells(int(people.size), int(small.size), int(small.sum()), float(added.sum()))


# --- A mean as noisy sum ÷ noisy count ---------------------------------------------------
GROUP_SIZES: tuple[int, ...] = (5, 10, 20, 50, 200, 1_000)
DEFAULT_GROUP = 20
AGE_BOUND = 100.0  # ages clamped to [0, 100]: a sum's sensitivity
RATIO_DRAWS = 20_000


@dataclass(frozen=True)
class RatioMean:
    n: int
    true_mean: float
    average: float  # of the ratio estimate over RATIO_DRAWS
    se: float
    bias: float


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def ratio_mean(n: int, epsilon: float, seed: int) -> RatioMean:
    """A group of n people (a fixed random sample of the census): their mean age released
    as (Σ clamped ages + Lap(100/(ε/2))) / (n + Lap(1/(ε/2))), half the budget each, over
    RATIO_DRAWS seeded releases (a denominator at or below 0.5 is taken as 0.5: a group
    has at least one person). The bias is the average's distance from the true mean."""
    ages = datasets.census()["Age"].to_numpy(dtype=np.float64)
    rng = np.random.default_rng(seed)
    group = rng.choice(ages, size=n, replace=False)
    clamped = np.clip(group, 0.0, AGE_BOUND)
    half = epsilon / 2
    sums = clamped.sum() + rng.laplace(scale=dp.laplace_scale(AGE_BOUND, half), size=RATIO_DRAWS)
    counts = n + rng.laplace(scale=dp.laplace_scale(1, half), size=RATIO_DRAWS)
    ratios = sums / np.maximum(counts, 0.5)
    average = float(ratios.mean())
    return RatioMean(
        n=n,
        true_mean=float(clamped.mean()),
        average=average,
        se=float(ratios.std(ddof=1) / math.sqrt(RATIO_DRAWS)),
        bias=average - float(clamped.mean()),
    )


# --- Words and predictions the page needs ---------------------------------------------------
WHICH_LARGER = ("the sampling error", "the privacy noise", "about equal (within 20%)")


def population_sampling_sd(n: int) -> float:
    pop = population()
    return sampling_sd(pop.share, n, pop.people)


def which_larger(n: int, epsilon: float) -> int:
    """The index in WHICH_LARGER that is right at the population's share."""
    which, factor = dominant(n, epsilon)
    if factor < 1.2:
        return 2
    return 0 if which == "sampling" else 1


def clip_bias(count: int, epsilon: float) -> float:
    return dp.clipped_laplace_bias(float(count), dp.laplace_scale(1, epsilon))


def coverage_words(frame: pd.DataFrame, n: int, epsilon: float) -> str:
    """Which intervals held the truth less often than 95% (beyond two standard errors)."""
    short = [
        f"{row.interval} ({text.percent(row.coverage)})"
        for row in frame.itertuples()
        if row.coverage + 2 * row.se < CONFIDENCE
    ]
    which, factor = dominant(n, epsilon)
    cause = (
        f"here the sampling error is {text.number(factor, 3)} times the noise, so an interval that "
        "ignores sampling is too narrow"
        if which == "sampling"
        else f"here the noise is {text.number(factor, 3)} times the sampling error, so an "
        "interval that "
        "ignores the noise is too narrow"
    )
    if not short:
        return (
            "Every interval held the truth about 95% of the time (within two standard errors): "
            f"{cause.replace('so an interval', 'yet no interval')} by enough to show."
        )
    both = frame.iloc[0]  # KINDS[0]: sampling and noise
    if both.coverage + 2 * both.se >= CONFIDENCE:
        return (
            f"Falling short of 95%: {', '.join(short)}. Only the interval for both errors "
            f"holds its promise whatever n and ε: {cause}."
        )
    # the interval for both errors is built for 95%: 1,000 surveys put it more than two
    # standard errors short by chance in about one setting in forty (seed 1, n = 100, ε = 0.2)
    alone = len(short) == 1
    chance = (
        f"Falling short of 95%: {', '.join(short)}. The interval for both errors is built to "
        f"hold the truth 95% of the time, and fell short here by chance: {REPEATS:,} surveys "
        "put it more than two standard errors short in about one setting in forty (with "
        "another seed it holds)."
    )
    return chance + ("" if alone else f" The others are short for a reason: {cause}.")


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def ratio_curve(epsilon: float, seed: int) -> pd.DataFrame:
    """The ratio estimate's bias for every group size, ± 2 standard errors of the draws."""
    rows = [ratio_mean(n, epsilon, seed) for n in GROUP_SIZES]
    return pd.DataFrame(
        {
            "people": [r.n for r in rows],
            "bias": [r.bias for r in rows],
            "low": [r.bias - 2 * r.se for r in rows],
            "high": [r.bias + 2 * r.se for r in rows],
        }
    )


RATIO_TOLERANCE = 1.0  # years: a mean age whose bias stays within this is "about right"


def ratio_verdict(curve: pd.DataFrame, epsilon: float) -> str:
    """From the curve drawn: the smallest group size from which the ratio's bias stays
    within RATIO_TOLERANCE for every larger size shown (the bias with its two standard
    errors), or that none does; and whether it grows somewhere before it falls."""
    within = (curve["low"] >= -RATIO_TOLERANCE) & (curve["high"] <= RATIO_TOLERANCE)
    fine = within.to_numpy()[::-1].cumprod()[::-1].astype(bool)  # within from here on
    sizes, biases = curve["people"].to_numpy(), curve["bias"].to_numpy()
    grows = next(
        (
            (int(a), int(b))
            for a, b, x, y in zip(sizes, sizes[1:], biases, biases[1:], strict=False)
            if abs(y) > abs(x) + 2 * RATIO_TOLERANCE
        ),
        None,
    )
    rise = (
        f" Its size is no safeguard by itself: from {grows[0]:,} to {grows[1]:,} people the "
        "bias grows, because the count's noise still reaches near zero."
        if grows
        else ""
    )
    if fine.any():
        first = int(sizes[int(np.argmax(fine))])
        return (
            f"At ε = {text.number(epsilon)} the bias stays within {RATIO_TOLERANCE:g} year "
            f"from groups of {first:,} people on (of the sizes shown).{rise}"
        )
    return (
        f"At ε = {text.number(epsilon)} no group size shown keeps the bias within "
        f"{RATIO_TOLERANCE:g} year: even {int(sizes[-1]):,} people are off by "
        f"{text.signed(float(biases[-1]))} years.{rise}"
    )


def group_label(n: int) -> str:
    return f"your group: {n:,}"


@datasets.cached(max_entries=16, census_only=True)
def group_rule(n: int, bottom: bool = False) -> pd.DataFrame:
    """The chosen group size as the chart's rule, its label at the plot's bottom with
    `bottom` (charts.group_label_at_bottom)."""
    return pd.DataFrame({"x": [float(n)], "label": [group_label(n)], "bottom": [bottom]})
