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
from lessons.clamping.model import visits_per_person
from ui import datasets

PLACES = 200
PLACE_NAMES = tuple(f"Clinic {i + 1:03d}" for i in range(PLACES))
PLACES_SEED = 5_207  # fixed: the table is part of the lesson, not a random draw
POPULARITY = np.arange(1, PLACES + 1) ** -1.3  # Zipf-like: a few busy clinics, a long tail
FAVOURITE = 0.5  # a person's j-th clinic gets a share ∝ FAVOURITE^j of their visits
GRID_L0 = (1, 2, 3, 4, 5, 6)  # clinics one person may count in (a person visits at most 6)
GRID_LINF = (1, 2, 3, 5, 8, 13, 20, 30, 50, 80)  # visits counted per person and clinic
SELECTION_USERS = np.arange(0, 101)  # users in a partition, on the selection chart
HALF = 0.5


@datasets.cached()
def visits() -> pd.DataFrame:
    """One row per visit: `user` (0..32,560, a census person) and `place` (0..PLACES-1).

    Person u with r_u visits uses d_u distinct clinics (1 + a geometric number, at most
    r_u and PLACES), drawn without replacement by popularity (Gumbel top-k); each visit goes
    to their j-th clinic with probability ∝ FAVOURITE^j (a truncated geometric)."""
    rows = visits_per_person()
    n = rows.size
    rng = np.random.default_rng(PLACES_SEED)
    distinct = np.minimum(np.minimum(rng.geometric(0.45, size=n), rows), PLACES)
    keys = np.log(POPULARITY)[None, :] + rng.gumbel(size=(n, PLACES))
    order = np.argsort(-keys, axis=1)  # each person's clinics, likeliest first
    user = np.repeat(np.arange(n), rows)
    d = distinct[user]
    u = rng.random(user.size)
    j = np.floor(np.log1p(-u * (1.0 - FAVOURITE**d)) / math.log(FAVOURITE)).astype(np.int64)
    j = np.minimum(j, d - 1)
    return pd.DataFrame({"user": user, "place": order[user, j]})


@dataclass(frozen=True)
class Contributions:
    people: int
    rows: int
    most_rows: int  # the most rows one person has
    most_places: int  # the most clinics one person visits
    most_in_one: int  # the most rows one person has in one clinic
    median_rows: float


@datasets.cached()
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


@datasets.cached()
def true_counts() -> np.ndarray:
    """Rows per clinic (what an event-level release counts)."""
    return np.bincount(visits()["place"], minlength=PLACES).astype(np.float64)


@datasets.cached()
def _pairs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each (user, clinic) pair: its clinic, its row count r, and the user's clinics d."""
    pairs = visits().groupby(["user", "place"]).size().reset_index(name="rows")
    distinct = pairs.groupby("user")["place"].transform("size").to_numpy()
    return pairs["place"].to_numpy(), pairs["rows"].to_numpy(), distinct


@datasets.cached(max_entries=128)
def expected_kept(max_partitions: int, max_per_partition: int) -> np.ndarray:
    """E[rows per clinic after dp.bound_partitions(L0, L∞)], exactly: a user with d clinics
    keeps each with probability min(L0, d)/d, and min(L∞, r) of its r rows there."""
    place, rows, distinct = _pairs()
    kept = np.minimum(rows, max_per_partition) * np.minimum(max_partitions, distinct) / distinct
    return np.bincount(place, weights=kept, minlength=PLACES)


@datasets.cached(max_entries=64)
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


@datasets.cached(max_entries=128)
def selection_curves(epsilon: float, delta: float, max_partitions: int) -> pd.DataFrame:
    """The chance that a partition touched by n users (SELECTION_USERS) is released: the
    optimal (ε, δ) selection and Laplace thresholding of the user count, each at L0."""
    n = SELECTION_USERS.astype(np.float64)
    optimal = dp.partition_selection_probability(n, epsilon, delta, max_partitions)
    tau = dp.laplace_partition_threshold(epsilon, delta, max_partitions)
    scale = dp.laplace_scale(max_partitions, epsilon)
    # P[n + Lap(L0/ε) ≥ τ] = 1 − F(τ − n) for the centred Laplace CDF F
    laplace = 1.0 - dp.laplace_cdf(tau - n, loc=0.0, scale=scale)
    laplace[n == 0] = 0.0  # an empty partition has no key to release
    return pd.concat(
        [
            pd.DataFrame({"users": SELECTION_USERS, "probability": optimal, "rule": OPTIMAL_RULE}),
            pd.DataFrame({"users": SELECTION_USERS, "probability": laplace, "rule": LAPLACE_RULE}),
        ],
        ignore_index=True,
    )


def shown_half_the_time(curves: pd.DataFrame, rule: str) -> int | None:
    """The smallest number of users whose partition is released at least half the time."""
    rows = curves[(curves["rule"] == rule) & (curves["probability"] >= HALF)]
    return int(rows["users"].min()) if len(rows) else None


# --- The census's rare cells: occupation × native country, one row per person ------------
CELL_COLUMNS = ("Occupation", "NativeCountry")


@datasets.cached()
def census_cells() -> pd.DataFrame:
    """People per (occupation, native country) cell of the census, largest first."""
    census = datasets.census()
    cells = census.groupby(list(CELL_COLUMNS), observed=True).size().reset_index(name="people")
    return cells.sort_values("people", ascending=False, ignore_index=True)


@dataclass(frozen=True)
class CellsShown:
    cells: int
    expected_shown: float  # cells the optimal selection releases, on average
    singletons: int  # cells that one person alone creates
    hidden_people: int  # people in cells released less than half the time


@datasets.cached(max_entries=128)
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


@datasets.cached(max_entries=64)
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
