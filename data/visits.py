"""A simulated year of clinic visits for the census's people: how many visits each person
makes (skewed: most 1-3, a few hundred), and which clinics they go to (a few busy ones, a
long tail). "Sensitivity and clamping" and "DP group-by" count them; their code behind the
charts reads them from here. Fixed seeds: every session sees the same table. No Streamlit."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

VISITS_SEED = 20_261  # fixed: the table is part of the lessons, not a random draw
VISITS_CAP = 400
PLACES = 200
PLACE_NAMES = tuple(f"Clinic {i + 1:03d}" for i in range(PLACES))
PLACES_SEED = 5_207  # fixed: the table is part of the lesson, not a random draw
POPULARITY = np.arange(1, PLACES + 1) ** -1.3  # Zipf-like: a few busy clinics, a long tail
FAVOURITE = 0.5  # a person's j-th clinic gets a share ∝ FAVOURITE^j of their visits


def rows_per_person(people: int) -> np.ndarray:
    """Visits in a year for each of `people` people: lognormal, at least 1, capped at
    VISITS_CAP."""
    n = people
    rng = np.random.default_rng(VISITS_SEED)
    rows = np.ceil(rng.lognormal(mean=0.3, sigma=1.1, size=n))
    return np.clip(rows, 1, VISITS_CAP).astype(np.int64)


def clinic_visits(rows: np.ndarray) -> pd.DataFrame:
    """One row per visit: `user` (0..len(rows) − 1, who has rows[user] visits) and `place`
    (0..PLACES-1).

    Person u with r_u visits uses d_u distinct clinics (1 + a geometric number, at most
    r_u and PLACES), drawn without replacement by popularity (Gumbel top-k); each visit goes
    to their j-th clinic with probability ∝ FAVOURITE^j (a truncated geometric)."""
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
