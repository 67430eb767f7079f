"""DP group-by: who is protected, and which groups may be shown (the numbers behind the page).

The data: a simulated year of clinic visits, one row per visit, for each of the census's
32,561 people (rows per person as in "Sensitivity and clamping": most 1-3, a few hundred),
spread over PLACES clinics of very different popularity; and the census's own rare cells,
occupation × native country, one row per person. Every formula is dp/'s
(dp/partitions.py, dp/laplace.py); this module only arranges the data and the grids."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from data.visits import PLACE_NAMES, PLACES, clinic_visits
from ui import datasets
from ui.columns import census_cells, visits_per_person

GRID_L0 = (1, 2, 3, 4, 5, 6)  # clinics one person may count in (a person visits at most 6)
GRID_LINF = (1, 2, 3, 5, 8, 13, 20, 30, 50, 80)  # visits counted per person and clinic
# users in a partition, on the selection chart (log axis 1..10,000): every whole number up to
# 100, then about 200 more
SELECTION_USERS = np.unique(
    np.r_[np.arange(1, 101), np.round(np.geomspace(100, 10_000, 200))]
).astype(np.int64)
HALF = 0.5


@datasets.cached(census_only=True)
def visits() -> pd.DataFrame:
    """One row per visit (data/visits.py): `user` (a census person) and `place`."""
    return clinic_visits(visits_per_person())


@dataclass(frozen=True)
class Contributions:
    people: int
    rows: int
    most_rows: int  # the most rows one person has
    most_places: int  # the most clinics one person visits
    most_in_one: int  # the most rows one person has in one clinic
    median_rows: float


@datasets.cached(census_only=True)
def contributions() -> Contributions:
    table = visits()
    per_user = np.bincount(table["user"])
    pairs = table.groupby(["user", "place"]).size()
    places = pairs.groupby(level=0).size()
    return Contributions(
        people=int(per_user.size),
        rows=int(len(table)),
        most_rows=int(per_user.max()),
        most_places=int(places.max()),
        most_in_one=int(pairs.max()),
        median_rows=float(np.median(per_user)),
    )


@datasets.cached(census_only=True)
def true_counts() -> np.ndarray:
    """Rows per clinic (what an event-level release counts)."""
    return np.bincount(visits()["place"], minlength=PLACES).astype(np.float64)


@datasets.cached(census_only=True)
def _pairs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each (user, clinic) pair: its clinic, its row count r, and the user's clinics d."""
    pairs = visits().groupby(["user", "place"]).size().reset_index(name="rows")
    distinct = pairs.groupby("user")["place"].transform("size").to_numpy()
    return pairs["place"].to_numpy(), pairs["rows"].to_numpy(), distinct


@datasets.cached(max_entries=128, census_only=True)
def expected_kept(max_partitions: int, max_per_partition: int) -> np.ndarray:
    """E[rows per clinic after dp.bound_partitions(L0, L∞)], exactly: a user with d clinics
    keeps each with probability min(L0, d)/d, and min(L∞, r) of its r rows there."""
    place, rows, distinct = _pairs()
    kept = np.minimum(rows, max_per_partition) * np.minimum(max_partitions, distinct) / distinct
    return np.bincount(place, weights=kept, minlength=PLACES)


@datasets.cached(max_entries=64, census_only=True)
def error_grid(epsilon: float) -> tuple[pd.DataFrame, tuple[int, int]]:
    """Over L0 in GRID_L0 and L∞ in GRID_LINF: the bias (root mean square over the clinics
    of the rows bounding drops), the noise (SD of Lap(L0·L∞/ε)) and their total
    √(bias² + noise²), per clinic count; and the (L0, L∞) with the lowest total (chosen from
    the data: it leaks)."""
    truth = true_counts()
    rows = []
    for l0 in GRID_L0:
        for linf in GRID_LINF:
            bias = float(np.sqrt(np.mean((expected_kept(l0, linf) - truth) ** 2)))
            noise = dp.laplace_std(l0 * linf, epsilon)
            rows.append((l0, linf, bias, noise, math.hypot(bias, noise)))
    frame = pd.DataFrame(rows, columns=["l0", "linf", "bias", "noise", "total"])
    best = frame.loc[frame["total"].idxmin()]
    return frame, (int(best["l0"]), int(best["linf"]))


def row_threshold(
    epsilon: float, delta: float, max_partitions: int, max_per_partition: int
) -> float:
    """τ for a count of rows bounded to L∞ per user and partition: the user-count threshold
    dp.laplace_partition_threshold scaled by L∞ (the noise is Lap(L0·L∞/ε), a lone user's
    count is at most L∞)."""
    return max_per_partition * dp.laplace_partition_threshold(epsilon, delta, max_partitions)


LAPLACE_RULE = "Laplace threshold"
OPTIMAL_RULE = "optimal selection"


@datasets.cached(max_entries=128, census_only=True)
def selection_curves(epsilon: float, delta: float, max_partitions: int) -> pd.DataFrame:
    """The chance that a partition touched by n users (SELECTION_USERS) is released: the
    optimal (ε, δ) selection and Laplace thresholding of the user count, each at L0."""
    n = SELECTION_USERS.astype(np.float64)
    optimal = dp.partition_selection_probability(n, epsilon, delta, max_partitions)
    tau = dp.laplace_partition_threshold(epsilon, delta, max_partitions)
    scale = dp.laplace_scale(max_partitions, epsilon)
    # P[n + Lap(L0/ε) ≥ τ] = 1 − F(τ − n) for the centred Laplace CDF F
    laplace = 1.0 - dp.laplace_cdf(tau - n, loc=0.0, scale=scale)
    return pd.concat(
        [
            pd.DataFrame({"users": SELECTION_USERS, "probability": optimal, "rule": OPTIMAL_RULE}),
            pd.DataFrame({"users": SELECTION_USERS, "probability": laplace, "rule": LAPLACE_RULE}),
        ],
        ignore_index=True,
    )


HALF_SEARCH_LIMIT = 10_000_000  # users: beyond every setting on the page


@datasets.cached(max_entries=256, census_only=True)
def half_the_time(rule: str, epsilon: float, delta: float, max_partitions: int) -> int:
    """The smallest number of users whose partition `rule` releases at least half the time:
    ⌈τ⌉ for the Laplace threshold (n + Lap ≥ τ has chance ½ exactly at n = τ), and for the
    optimal selection the first n with p(n) ≥ ½ (p grows with n: a binary search over the
    whole numbers, exact, not read off the chart's grid)."""
    if rule == LAPLACE_RULE:
        return math.ceil(dp.laplace_partition_threshold(epsilon, delta, max_partitions))
    low, high = 1, HALF_SEARCH_LIMIT
    while low < high:
        middle = (low + high) // 2
        if dp.partition_selection_probability(middle, epsilon, delta, max_partitions) >= HALF:
            high = middle
        else:
            low = middle + 1
    return low


# --- The census's rare cells: occupation × native country (ui/columns.py) -----------------
@dataclass(frozen=True)
class CellsShown:
    cells: int
    expected_shown: float  # cells the optimal selection releases, on average
    singletons: int  # cells that one person alone creates
    hidden_people: int  # people in cells released less than half the time


@datasets.cached(max_entries=128, census_only=True)
def cells_shown(epsilon: float, delta: float) -> CellsShown:
    """One person is in one cell (L0 = 1): each cell is released with the optimal
    selection's probability for its head count."""
    people = census_cells()["people"].to_numpy()
    shown = dp.partition_selection_probability(people, epsilon, delta, 1)
    return CellsShown(
        cells=int(people.size),
        expected_shown=float(shown.sum()),
        singletons=int(np.count_nonzero(people == 1)),
        hidden_people=int(people[shown < HALF].sum()),
    )


# --- The whole pipeline: bound → select → noise → release ---------------------------------
@dataclass(frozen=True)
class Release:
    table: pd.DataFrame  # clinic, true rows, kept rows, users, released, noisy count
    released: int
    dropped_clinics: int
    dropped_rows: int  # by bounding


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def pipeline(
    max_partitions: int, max_per_partition: int, epsilon: float, delta: float, seed: int
) -> Release:
    """The order every engine runs: bound each person to L0 clinics and L∞ visits in each
    (dp.bound_partitions); select the clinics to show with half the budget, (ε/2, δ), by
    the optimal selection on the bounded data's user counts; count the visits of the
    selected clinics with the other half, Lap(L0·L∞/(ε/2)). (ε, δ) in all, by sequential
    composition; the neighbour relation is user-level: one person's rows, all of them."""
    table = visits()
    users, places = table["user"].to_numpy(), table["place"].to_numpy()
    rng = np.random.default_rng(seed)
    kept = dp.bound_partitions(users, places, max_partitions, max_per_partition, rng=rng)
    kept_rows = np.bincount(places[kept], minlength=PLACES)
    pairs = np.unique(users[kept] * PLACES + places[kept])
    kept_users = np.bincount(pairs % PLACES, minlength=PLACES)
    chance = dp.partition_selection_probability(kept_users, epsilon / 2, delta, max_partitions)
    released = rng.random(PLACES) < chance
    noisy = dp.laplace_mechanism(
        kept_rows.astype(np.float64), max_partitions * max_per_partition, epsilon / 2, rng=rng
    )
    frame = pd.DataFrame(
        {
            "clinic": PLACE_NAMES,
            "true rows": true_counts().astype(np.int64),
            "kept rows": kept_rows,
            "users": kept_users,
            "released": released,
            "noisy count": np.where(released, noisy, np.nan),
        }
    )
    return Release(
        table=frame,
        released=int(released.sum()),
        dropped_clinics=int(PLACES - released.sum()),
        dropped_rows=int(len(table) - kept.sum()),
    )


# --- Choosing the bounds privately ---------------------------------------------------------
QUANTILE = 0.99  # bounds that cover 99% of the people
BOUNDS_EPSILON = 0.1  # spent on choosing them, before the release
SEED_BOUNDS = 1
SEED_PIPELINE = 2


@datasets.cached(census_only=True)
def per_user() -> tuple[np.ndarray, np.ndarray]:
    """For each person: the clinics they visit, and the most visits they make to one."""
    pairs = visits().groupby(["user", "place"]).size()
    by_user = pairs.groupby(level=0)
    return by_user.size().to_numpy(), by_user.max().to_numpy()


@datasets.cached(max_entries=datasets.SEED_ENTRIES, census_only=True)
def private_bounds(seed: int) -> tuple[int, int]:
    """L0 and L∞ chosen with BOUNDS_EPSILON (half each, sequential composition): the private
    QUANTILE-quantile (dp.private_quantile, add/remove, one value per person) of the
    clinics per person over GRID_L0, and of the most visits to one clinic over GRID_LINF."""
    places, most = per_user()
    rng = np.random.default_rng(seed)
    half = BOUNDS_EPSILON / 2
    l0 = dp.private_quantile(places, np.array(GRID_L0), QUANTILE, half, rng=rng)
    linf = dp.private_quantile(most, np.array(GRID_LINF), QUANTILE, half, rng=rng)
    return int(l0), int(linf)


def group_loss(epsilon: float, rows: int) -> float:
    """Event-level ε-DP protects a person with `rows` rows only as a group of that many:
    dp.group_privacy."""
    return dp.group_privacy(epsilon, rows)


# --- What the page draws ------------------------------------------------------------------
DEFAULT_L0, DEFAULT_LINF = 2, 5
DEFAULT_DELTA = 1e-5
DELTAS: tuple[float, ...] = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)


def pipeline_bounds(seed: int) -> tuple[int, int]:
    """The pipeline's L0 and L∞, fixed before its release: section 2's private choice at the
    page's seed (3 and 13 at the default seed; 3 and 20 at a few others)."""
    return private_bounds(seed + SEED_BOUNDS)


@dataclass(frozen=True)
class Bounding:
    kept: float  # visits kept, on average
    dropped: float  # visits dropped, on average
    bias: float  # RMS over the clinics of the visits dropped
    noise: float  # SD of Lap(L0·L∞/ε) on one clinic's count
    total: float  # √(bias² + noise²)


@datasets.cached(max_entries=256, census_only=True)
def bounding(max_partitions: int, max_per_partition: int, epsilon: float) -> Bounding:
    frame, _ = error_grid(epsilon)
    row = frame[(frame["l0"] == max_partitions) & (frame["linf"] == max_per_partition)].iloc[0]
    kept = float(expected_kept(max_partitions, max_per_partition).sum())
    return Bounding(
        kept=kept,
        dropped=float(len(visits())) - kept,
        bias=float(row["bias"]),
        noise=float(row["noise"]),
        total=float(row["total"]),
    )


LOWEST, YOUR_CHOICE = "lowest total", "your choice"  # the outlines, black and orange


@datasets.cached(max_entries=512, census_only=True)
def heatmap_marks(
    best: tuple[int, int], max_partitions: int, max_per_partition: int
) -> pd.DataFrame:
    """The two cells outlined on the heatmap: the lowest total and the student's choice."""
    return pd.DataFrame(
        {
            "l0": [best[0], max_partitions],
            "linf": [best[1], max_per_partition],
            "mark": [LOWEST, YOUR_CHOICE],
        }
    )


HALF_LABEL = "shown half the time"


@datasets.cached(census_only=True)
def half_rule(right: bool, under: bool) -> pd.DataFrame:
    """The 50% line, its label written where (right, under) says (charts.half_place)."""
    return pd.DataFrame({"y": [HALF], "label": [HALF_LABEL], "right": [right], "under": [under]})


@datasets.cached(max_entries=128, census_only=True)
def half_points(epsilon: float, delta: float, max_partitions: int) -> pd.DataFrame:
    """Each rule's smallest group shown at least half the time, as a point on its curve."""
    rows = []
    for rule in (OPTIMAL_RULE, LAPLACE_RULE):
        users = half_the_time(rule, epsilon, delta, max_partitions)
        if rule == OPTIMAL_RULE:
            chance = dp.partition_selection_probability(users, epsilon, delta, max_partitions)
        else:
            tau = dp.laplace_partition_threshold(epsilon, delta, max_partitions)
            scale = dp.laplace_scale(max_partitions, epsilon)
            chance = 1.0 - dp.laplace_cdf(tau - users, loc=0.0, scale=scale)
        rows.append((users, float(chance), rule))
    return pd.DataFrame(rows, columns=["users", "probability", "rule"])


VISITS_FLOOR = 10.0  # the release chart's lowest visits (a log axis)


@datasets.derived
def released_points(table: pd.DataFrame) -> pd.DataFrame:
    """Every clinic as a point: its users after bounding against its visits, released or
    not (a dropped clinic is drawn at its true visits, marked as dropped; a noisy count
    below VISITS_FLOOR, zero or negative included, at the floor of the log axis)."""
    noisy = np.maximum(table["noisy count"].to_numpy(), VISITS_FLOOR)
    return pd.DataFrame(
        {
            "clinic": table["clinic"],
            "users": table["users"],
            "visits": np.where(table["released"], noisy, table["true rows"]),
            "true visits": table["true rows"],
            "status": np.where(table["released"], "released (noisy count)", "not released"),
        }
    )


@datasets.cached(max_entries=128, census_only=True)
def pipeline_rule(epsilon: float, delta: float, max_partitions: int) -> pd.DataFrame:
    """The users at which the pipeline's selection (ε/2, δ, L0 = `max_partitions`) shows a
    clinic half the time, as the release chart's labelled rule."""
    users = half_the_time(OPTIMAL_RULE, epsilon / 2, delta, max_partitions)
    label = f"shown half the time:\n{users:,} users"  # two lines: see charts.RULE_FLIP_AT
    return pd.DataFrame({"x": [float(users)], "label": [label]})


def noise_sd(sensitivity: float, epsilon: float) -> float:
    """The SD of Lap(sensitivity/ε): dp.laplace_std."""
    return dp.laplace_std(sensitivity, epsilon)


@datasets.derived
def release_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The release beside the truth, as the page's table, the busiest clinics (by true
    visits) first: a released count rounded to a whole number of visits (post-processing),
    an unreleased one missing."""
    ordered = table.sort_values(["true rows", "clinic"], ascending=[False, True], kind="stable")
    return pd.DataFrame(
        {
            "clinic": ordered["clinic"],
            "true visits": ordered["true rows"],
            "visits kept": ordered["kept rows"],
            "users": ordered["users"],
            "released": ordered["released"],
            "noisy count": ordered["noisy count"].round(),
        }
    ).reset_index(drop=True)


def pipeline_epsilon(epsilon: float) -> float:
    """The whole pipeline's ε: the bounds' private choice (BOUNDS_EPSILON) and the release's
    ε, by sequential composition."""
    return dp.sequential_composition([BOUNDS_EPSILON, epsilon])


# --- Predict first ---------------------------------------------------------------------------
ERROR_CHANGES = ("goes down", "goes up", "stays within 5%")
PREDICT_USERS = 10
SHOWN_HOW_OFTEN = ("almost never (under 5%)", "sometimes (5% to 95%)", "almost always (over 95%)")


def next_linf(max_per_partition: int) -> int:
    """The next L∞ on the grid (the one before it at the grid's end)."""
    at = GRID_LINF.index(max_per_partition)
    return GRID_LINF[at + 1] if at + 1 < len(GRID_LINF) else GRID_LINF[at - 1]


def error_change(
    max_partitions: int, max_per_partition: int, epsilon: float
) -> tuple[int, float, float]:
    """Which of ERROR_CHANGES moving L∞ to next_linf makes, and both totals."""
    here = bounding(max_partitions, max_per_partition, epsilon).total
    there = bounding(max_partitions, next_linf(max_per_partition), epsilon).total
    if abs(there - here) <= 0.05 * here:
        return 2, here, there
    return (0 if there < here else 1), here, there


def shown_how_often(epsilon: float, delta: float, max_partitions: int) -> tuple[int, float]:
    """Which of SHOWN_HOW_OFTEN a partition of PREDICT_USERS users is, and its chance."""
    chance = float(
        dp.partition_selection_probability(PREDICT_USERS, epsilon, delta, max_partitions)
    )
    return (0 if chance < 0.05 else 2 if chance > 0.95 else 1), chance


def growth_per_user(epsilon: float, max_partitions: int) -> float:
    """e^(ε/L0): the most one more user can multiply a partition's release chance by."""
    return math.exp(epsilon / max_partitions)
