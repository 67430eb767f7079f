"""Cached computations of the lesson "Choosing privately": numbers and DataFrames.

Every number comes from dp/ (dp/choosing.py); frames are small (at most a few hundred rows)
and every chart's axes are fixed, so moving ε shows change, not rescaling."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import controls, datasets, text, userdata
from ui.columns import (
    NumericColumn,
    column_values,
    numeric_columns,
    present_count,
    sample_label,
)
from ui.datasets import census

# Report noisy max on category counts of thousands is interesting from ε = 0.001 (nearly a
# lottery) to about 0.1 (the top category almost surely): ui/controls.py's low grid.
EPSILONS = controls.LOW_EPSILON_GRID
DEFAULT_EPSILON = 0.01
CURVE_EPSILONS = controls.LOW_EPSILON_CURVE
TOP_CURVES = 4  # categories drawn one by one on the curve chart; the rest are summed
OTHERS = "all the others"
RUNS = 1_000  # simulated releases beside the exact probabilities
GUMBEL_RUNS = 2_000

# Offsets added to controls.seed(): one per distinct random draw on the page.
SEED_RUNS = 10
SEED_GUMBEL = 20
SEED_QUANTILE = 30
SEED_BOUND = 40
SEED_SUM = 50


# --- 1. which category is most common? ---------------------------------------------------------


@dataclass(frozen=True)
class Categories:
    """A categorical column's true counts, largest first (missing values left out)."""

    column: str
    labels: tuple[str, ...]
    counts: np.ndarray
    missing: int

    @property
    def k(self) -> int:
        return len(self.labels)


@datasets.cached()
def categories(column: str) -> Categories:
    frame = datasets.active().frame
    counts = userdata.category_counts(frame, column)
    return Categories(
        column,
        tuple(str(label) for label in counts.index),
        counts.to_numpy(dtype=np.int64),
        int(frame[column].isna().sum()),
    )


@datasets.cached()
def win_probabilities(cats: Categories, epsilon: float) -> np.ndarray:
    """P[category i wins report noisy max] at ε, exact (numerical integration)."""
    return dp.report_noisy_max_probabilities(cats.counts, epsilon)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def win_frame(cats: Categories, epsilon: float, seed: int) -> pd.DataFrame:
    """One row per category: true count, exact chance of winning, and the share of RUNS
    simulated releases it won (what the CSV download holds)."""
    wins = dp.report_noisy_max(cats.counts, epsilon, size=RUNS, rng=seed)
    return pd.DataFrame(
        {
            "category": list(cats.labels),
            "true count": cats.counts,
            "exact probability": win_probabilities(cats, epsilon),
            "share of runs": np.bincount(wins, minlength=cats.k) / RUNS,
        }
    )


@datasets.cached()
def win_curves(cats: Categories) -> pd.DataFrame:
    """P[win] against ε for the TOP_CURVES largest categories and, summed, all the others."""
    rows = []
    for epsilon in CURVE_EPSILONS:
        p = win_probabilities(cats, float(epsilon))
        for i in range(min(TOP_CURVES, cats.k)):
            rows.append((float(epsilon), cats.labels[i], float(p[i])))
        if cats.k > TOP_CURVES:
            rows.append((float(epsilon), OTHERS, float(p[TOP_CURVES:].sum())))
    return pd.DataFrame(rows, columns=["epsilon", "category", "probability"])


def curve_series(cats: Categories) -> list[str]:
    """The legend order of `win_curves`."""
    top = list(cats.labels[:TOP_CURVES])
    return top + ([OTHERS] if cats.k > TOP_CURVES else [])


@datasets.cached()
def epsilon_rule(epsilon: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(epsilon)], "label": [f"ε = {text.number(epsilon)}"]})


def gap_to_second(cats: Categories) -> int:
    return int(cats.counts[0] - cats.counts[1]) if cats.k > 1 else 0


CLOSE_GAP = 0.05  # a lead under 5% of the top count is "just" ahead
SURE = 0.95  # the true winner "takes over" once it is reported with this chance


def truth_words(cats: Categories) -> str:
    """The true winner and its lead over the second, in words: a tie, "just" a small lead or
    a plain one (the column and the dataset decide: 41 people for the census's occupations,
    11,019 for its sexes)."""
    top, second = text.plain(cats.labels[0]), text.plain(cats.labels[1])
    gap = gap_to_second(cats)
    if gap == 0:
        return f"Here **{top}** and {second} tie at the top, with {cats.counts[0]:,} people each."
    lead = "just " if gap <= CLOSE_GAP * cats.counts[0] else ""
    return (
        f"Here the truth is **{top}** with {cats.counts[0]:,} people, {lead}{gap:,} ahead of "
        f"{second}."
    )


def takeover_words(cats: Categories) -> str:
    """How the report goes from a near-lottery to the true winner over the slider's range of
    ε, read off the chance curve the chart draws (`win_curves`, computed once): the winner
    may be sure at ε = 0.001 already (a large lead), the favourite, a near-lottery that
    it takes over from (a small lead), or never sure (a tie)."""
    top = text.plain(cats.labels[0])
    gap = gap_to_second(cats)
    curves = win_curves(cats)
    chance = curves[curves["category"] == cats.labels[0]].set_index("epsilon")["probability"]
    lowest, at_lowest = float(chance.index[0]), float(chance.iloc[0])
    noise = text.number(typical_count_error(lowest))
    if gap == 0:
        return (
            "The first two counts tie, so no ε makes either of them the sure winner: as ε "
            f"grows they share the chance ({text.chance(at_lowest)} for {top} at ε = "
            f"{text.number(lowest)}, {text.chance(float(chance.iloc[-1]))} at ε = "
            f"{text.number(float(chance.index[-1]))}), and the noise alone breaks the tie."
        )
    if at_lowest >= SURE:
        return (
            f"Even at ε = {text.number(lowest)}, where the noise SD is {noise} people, the gap "
            f"of {gap:,} people between the first two decides it: {top} is reported with "
            f"chance {text.chance(at_lowest)}. A clear winner needs little ε; report noisy max "
            "is close to a lottery only when the counts at the top are close."
        )
    sure = chance[chance >= SURE]
    then = (
        f"from about ε = {text.number(float(sure.index[0]), 2)} on, {top} is reported with "
        f"chance {text.percent(SURE)} or more."
        if not sure.empty
        else f"{top} gains, to {text.chance(float(chance.iloc[-1]))} at ε = "
        f"{text.number(float(chance.index[-1]))}."
    )
    if at_lowest >= 0.5:
        return (
            f"At ε = {text.number(lowest)} (noise SD {noise} people) the gap of {gap:,} people "
            f"between the first two already makes {top} the likely winner "
            f"({text.chance(at_lowest)}); as ε grows the noise shrinks further below the gap: "
            + then
        )
    return (
        f"At ε = {text.number(lowest)} the noise (SD {noise} people) swamps the gap of {gap:,} "
        f"people between the first two: {top} is reported with chance "
        f"{text.chance(at_lowest)}, a lottery weighted a little toward the large counts. As ε "
        "grows, the noise shrinks below the gap and the true winner takes over: " + then
    )


@dataclass(frozen=True)
class ReleaseCosts:
    """What ε each way of answering costs (add/remove): the winner only (report noisy max),
    all k disjoint counts (parallel composition), all m overlapping counts (sequential)."""

    winner: float
    all_disjoint: float
    all_overlapping: float


def release_costs(epsilon: float, disjoint: int, overlapping: int) -> ReleaseCosts:
    return ReleaseCosts(
        epsilon,
        dp.parallel_composition([epsilon] * disjoint),
        dp.sequential_composition([epsilon] * overlapping),
    )


def typical_count_error(epsilon: float, queries: int = 1) -> float:
    """SD of one noisy count when `queries` overlapping counts share ε (each Lap(m/ε))."""
    return dp.laplace_std(queries, epsilon)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def gumbel_frame(cats: Categories, epsilon: float, seed: int) -> pd.DataFrame:
    """The exponential mechanism on the counts (Δ = 1): exact probabilities, and the share
    of GUMBEL_RUNS releases of report noisy max with Gumbel(2/ε) noise."""
    wins = dp.gumbel_noisy_max(cats.counts, 1.0, epsilon, size=GUMBEL_RUNS, rng=seed)
    return pd.DataFrame(
        {
            "category": list(cats.labels),
            "exact probability": dp.exponential_mechanism_probabilities(cats.counts, 1.0, epsilon),
            "share of runs": np.bincount(wins, minlength=cats.k) / GUMBEL_RUNS,
        }
    )


def monotone_probabilities(cats: Categories, epsilon: float) -> np.ndarray:
    """The exponential mechanism without the 2, P ∝ exp(ε·count/Δ): ε-DP here because counts
    are monotone under add/remove (adding a person raises some counts by 1 and lowers none)."""
    return dp.exponential_mechanism_probabilities(cats.counts, 1.0, epsilon, monotone=True)


# --- 2. overlapping questions -------------------------------------------------------------------

# Five yes/no questions about the census: one person can be in all five counts.
DEGREES = ("Bachelors", "Masters", "Doctorate", "Prof-school")


@datasets.cached()
def _traits() -> pd.DataFrame:
    """One boolean column per trait, one row per census person."""
    people = census()
    return pd.DataFrame(
        {
            "works over 45 hours a week": people["HoursPerWeek"] > 45,
            "earns over $50K": people["Income"].astype(str) == ">50K",
            "has a university degree": people["Education"].astype(str).isin(DEGREES),
            "is 50 or older": people["Age"] >= 50,
            "had a capital gain": people["CapitalGain"] > 0,
        }
    )


@datasets.cached()
def trait_counts() -> pd.DataFrame:
    """How many census people have each trait (the counts overlap)."""
    counts = _traits().sum().astype(np.int64).sort_values(ascending=False)
    return pd.DataFrame({"trait": counts.index, "true count": counts.to_numpy()})


@datasets.cached()
def traits_in_common() -> dict[str, int]:
    """The most traits one person has, and how many people have that many."""
    per_person = _traits().sum(axis=1).to_numpy()
    most = int(per_person.max())
    return {"most": most, "people": int((per_person == most).sum()), "m": _traits().shape[1]}


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def trait_frame(epsilon: float, seed: int) -> pd.DataFrame:
    traits = trait_counts()
    counts = traits["true count"].to_numpy()
    wins = dp.report_noisy_max(counts, epsilon, size=RUNS, rng=seed)
    return pd.DataFrame(
        {
            "category": traits["trait"].tolist(),
            "true count": counts,
            "exact probability": dp.report_noisy_max_probabilities(counts, epsilon),
            "share of runs": np.bincount(wins, minlength=counts.size) / RUNS,
        }
    )


# --- 3. the exponential mechanism: a private quantile ------------------------------------------

QUANTILES: dict[float, str] = {0.5: "median", 0.9: "90th percentile", 0.99: "99th percentile"}
DEFAULT_NUMERIC = "Age"
SAMPLE_SIZES = (100, 1_000, 0)  # 0: everyone
DEFAULT_SAMPLE = 100
CLOSE = 2  # steps of the grid counted as "close to the true quantile"


def columns() -> tuple[NumericColumn, ...]:
    """The numeric columns (the census's four with their public ranges, or a file's)."""
    return numeric_columns()


def candidates(column: NumericColumn) -> np.ndarray:
    """The grid of candidates: the column's range in its slider steps (for the census, public
    and fixed before looking at anyone's value; for a file, read off its values, which the
    page says)."""
    count = int(round((column.high - column.low) / column.step)) + 1
    return column.low + column.step * np.arange(count)


def true_quantile(column: NumericColumn, size: int, alpha: float) -> float:
    """The α-quantile of the values (numpy's default linear interpolation)."""
    return float(np.quantile(column_values(column.name, size), alpha))


@dataclass(frozen=True)
class QuantileRelease:
    grid: np.ndarray
    scores: np.ndarray
    probabilities: np.ndarray
    truth: float
    best: float  # the candidate with the highest score
    released: float  # one private release
    close: float  # P[release within CLOSE grid steps of the true quantile]
    sensitivity: float


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def quantile_release(
    column: NumericColumn, size: int, alpha: float, epsilon: float, seed: int
) -> QuantileRelease:
    values = column_values(column.name, size)
    grid = candidates(column)
    scores = dp.quantile_scores(values, grid, alpha)
    sensitivity = dp.quantile_sensitivity(alpha)
    probabilities = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
    best_index = int(np.argmax(scores))
    truth = true_quantile(column, size, alpha)
    # Close: within CLOSE steps of the true quantile (what a student reads the metric as),
    # not of the best-scoring candidate (with ties in the data the two can be far apart).
    near = np.abs(grid - truth) <= CLOSE * column.step * (1 + 1e-9)
    released = dp.private_quantile(values, grid, alpha, epsilon, rng=seed)
    return QuantileRelease(
        grid,
        scores,
        probabilities,
        truth,
        float(grid[best_index]),
        released,
        float(probabilities[near].sum()),
        sensitivity,
    )


@datasets.derived
def quantile_frame(release: QuantileRelease, column: NumericColumn) -> pd.DataFrame:
    """One bar per candidate (what the chart draws and the CSV holds)."""
    half = column.step / 2
    return pd.DataFrame(
        {
            "candidate": release.grid,
            "start": release.grid - half,
            "end": release.grid + half,
            "score": release.scores,
            "probability": release.probabilities,
        }
    )


@datasets.cached()
def truth_rule(value: float, alpha: float) -> pd.DataFrame:
    return pd.DataFrame(
        {"x": [float(value)], "label": [f"true {QUANTILES[alpha]} {text.number(value)}"]}
    )


# --- 4. a private clamp bound -------------------------------------------------------------------

BOUND_ALPHA = 0.99
BOUND_SHARES = (0.1, 0.25, 0.5)


@dataclass(frozen=True)
class PrivateBound:
    release: QuantileRelease  # the private 99th percentile: its chances and its one draw
    upper: float  # U: that draw (one grid step above L if it fell on L)
    epsilon_bound: float
    epsilon_sum: float
    true_sum: float
    noisy_sum: float
    clamped_sum: float
    data_max: float
    above_max: float  # the chance that U lands above data_max (nothing is cut)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def private_bound(
    column: NumericColumn, size: int, epsilon: float, share: float, seed: int
) -> PrivateBound:
    """Spend share·ε on U = a private 99th percentile (drawn with seed + SEED_BOUND), the
    rest on the clamped noisy sum (seed + SEED_SUM): sequential composition, ε in total."""
    values = column_values(column.name, size)
    epsilon_bound = share * epsilon
    release = quantile_release(column, size, BOUND_ALPHA, epsilon_bound, seed + SEED_BOUND)
    lower = column.low
    upper = max(release.released, lower + column.step)  # a window needs L < U
    epsilon_sum = epsilon - epsilon_bound
    return PrivateBound(
        release,
        upper,
        epsilon_bound,
        epsilon_sum,
        float(values.sum()),
        dp.noisy_sum(values, lower, upper, epsilon_sum, rng=seed + SEED_SUM),
        float(dp.clamp(values, lower, upper).sum()),
        float(values.max()),
        float(release.probabilities[release.grid > values.max()].sum()),
    )


@datasets.derived
def bound_rules(bound: PrivateBound) -> pd.DataFrame:
    """The true 99th percentile as the chart's labelled rule."""
    return truth_rule(bound.release.truth, BOUND_ALPHA)


def present(column: NumericColumn) -> int:
    """How many people have a value in the column."""
    return present_count(column.name)


def people(size: int) -> str:
    return sample_label(size)


SHOWN_ROWS = 12  # rows on a bar chart; the rest are summed into one


@datasets.derived
def bars_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows a bar chart draws: each category labelled with its true count when it has
    one; beyond SHOWN_ROWS, one summed row for all the others."""
    if "true count" in frame:
        labels = [
            f"{category} ({count:,})"
            for category, count in zip(frame["category"], frame["true count"], strict=True)
        ]
    else:
        labels = list(frame["category"])
    shown = pd.DataFrame(
        {
            "label": labels,
            "exact probability": frame["exact probability"].to_numpy(),
            "share of runs": frame["share of runs"].to_numpy(),
        }
    )
    if len(shown) <= SHOWN_ROWS:
        return shown
    rest = shown.iloc[SHOWN_ROWS - 1 :]
    summed = pd.DataFrame(
        {
            "label": [f"{OTHERS} ({len(rest):,})"],
            "exact probability": [rest["exact probability"].sum()],
            "share of runs": [rest["share of runs"].sum()],
        }
    )
    return pd.concat([shown.iloc[: SHOWN_ROWS - 1], summed], ignore_index=True)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def gumbel_bars(cats: Categories, epsilon: float, seed: int) -> pd.DataFrame:
    """`bars_frame` of `gumbel_frame`, each value labelled with its true count."""
    return bars_frame(gumbel_frame(cats, epsilon, seed).assign(**{"true count": cats.counts}))
