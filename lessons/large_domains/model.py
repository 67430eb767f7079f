"""Cached computations of the lesson "Large domains and shuffling": numbers and DataFrames.

Every number comes from dp/ (dp/kary.py, dp/unary.py, dp/hashing.py, dp/laplace.py). The
live part always uses the census's ZIP column (synthetic five-digit codes: the domain is all
100,000 of them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, deployments, text

EPSILONS: tuple[float, ...] = (0.25, 0.5, 1.0, math.log(3), 2.0, 3.0, 4.0, 6.0)
DEFAULT_EPSILON = 2.0
N_CENSUS = 32_561
K_GRID = np.unique(np.round(np.geomspace(2, 100_000, 51)).astype(np.int64))  # dp: k ≤ 100,000
SEED_BITS = 64  # an OLH user sends a 64-bit hash seed and a number below g

# --- 1. when k grows -----------------------------------------------------------------------------
ORACLES = ("k-ary RR (GRR)", "unary encoding (OUE)", "local hashing (OLH)")


@datasets.cached(census_only=True, max_entries=len(EPSILONS))
def variance_curves(epsilon: float) -> pd.DataFrame:
    """The standard deviation of one estimated count (f = 0, n = 32,561 users) against k for
    each oracle, and the bits each user sends."""
    p_oue, q_oue = dp.oue_probabilities(epsilon)
    g, _, _ = dp.olh_parameters(epsilon)
    oue = math.sqrt(dp.ue_variance(N_CENSUS, p_oue, q_oue))
    olh = math.sqrt(dp.olh_variance(N_CENSUS, epsilon))
    rows = []
    for k in K_GRID:
        k = int(k)
        rows += [
            (
                k,
                ORACLES[0],
                math.sqrt(dp.grr_variance(N_CENSUS, epsilon, k)),
                math.ceil(math.log2(k)),
            ),
            (k, ORACLES[1], oue, k),
            (k, ORACLES[2], olh, SEED_BITS + math.ceil(math.log2(g))),
        ]
    return pd.DataFrame(rows, columns=["k", "oracle", "sd", "bits"])


def olh_oue_gap(epsilon: float) -> float:
    """How far OLH's typical error is from OUE's, relatively: |sd_OLH / sd_OUE − 1|. With
    g = e^ε + 1 exactly, OLH's variance 4n e^ε/(e^ε − 1)² is OUE's (Wang et al. 2017);
    rounding g moves it a little."""
    p_oue, q_oue = dp.oue_probabilities(epsilon)
    oue = math.sqrt(dp.ue_variance(N_CENSUS, p_oue, q_oue))
    return abs(math.sqrt(dp.olh_variance(N_CENSUS, epsilon)) / oue - 1)


def dp_olh(epsilon: float) -> tuple[int, float, float]:
    """OLH's (g, p, q) at ε (dp.olh_parameters)."""
    return dp.olh_parameters(epsilon)


def crossover(epsilon: float) -> float:
    """k* = 3e^ε + 2: GRR's variance is the smallest below it."""
    return dp.grr_oue_crossover_k(epsilon)


@datasets.cached()
def crossover_rule(epsilon: float) -> pd.DataFrame:
    k = crossover(epsilon)
    return pd.DataFrame({"x": [k], "label": [f"k* = 3·exp(ε) + 2 = {text.number(k)}"]})


GUESS_OPTIONS: tuple[int, ...] = (5, 10, 20, 50, 100, 1_000)


def nearest_option(epsilon: float) -> int:
    """The guess option closest to the crossover (on a log scale): the right answer."""
    k = crossover(epsilon)
    return min(range(len(GUESS_OPTIONS)), key=lambda i: abs(math.log(GUESS_OPTIONS[i] / k)))


# --- 2. OLH live ---------------------------------------------------------------------------------
DOMAIN = 100_000  # every five-digit ZIP code
CANDIDATES = 100
TOP = 10  # heavy hitters: the 10 most common
SEED_OLH = 10  # offsets added to controls.seed()


@datasets.cached(census_only=True, max_entries=1)
def zips() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(every person's ZIP as a number, the 100 candidate ZIPs, their true counts). The
    candidates are the 100 most common ZIPs: a public list of the area's codes."""
    values = datasets.census()["Zip"].astype(int).to_numpy()
    codes, counts = np.unique(values, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:CANDIDATES]
    return values, codes[order], counts[order]


@dataclass(frozen=True)
class Live:
    frame: pd.DataFrame  # zip, true count, estimate, low, high, heavy hitter
    top: pd.DataFrame  # its first 20 rows: what the chart draws (made once, sent as is)
    found: int  # of the TOP true heavy hitters, how many are in the estimated TOP
    sd_top: float  # the interval half-width's sd for the most common ZIP
    g: int


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def live(epsilon: float, seed: int) -> Live:
    values, candidates, truth = zips()
    seeds, reports = dp.olh_perturb(values, DOMAIN, epsilon, rng=seed)
    estimates = dp.olh_estimate(seeds, reports, DOMAIN, epsilon, candidates=candidates)
    n = values.size
    sd = np.array([math.sqrt(dp.olh_variance(n, epsilon, c / n)) for c in truth])
    top_true = set(candidates[:TOP])
    top_est = set(candidates[np.argsort(-estimates, kind="stable")[:TOP]])
    frame = pd.DataFrame(
        {
            "zip": [f"{int(z):05d}" for z in candidates],
            "true count": truth,
            "estimate": estimates,
            "low": estimates - 1.96 * sd,
            "high": estimates + 1.96 * sd,
            "heavy hitter": [
                "found"
                if z in top_true and z in top_est
                else "missed"
                if z in top_true
                else "false alarm"
                if z in top_est
                else "—"
                for z in candidates
            ],
        }
    )
    g, _, _ = dp.olh_parameters(epsilon)
    return Live(frame, frame.head(20).copy(), len(top_true & top_est), float(sd[0]), g)


def shown_rows(result: Live) -> pd.DataFrame:
    """The 20 most common candidates (the chart's rows)."""
    return result.top


# --- 3. the shuffle model ------------------------------------------------------------------------
EPSILON0S: tuple[float, ...] = (0.5, 1.0, 2.0, 3.0, 4.0, 6.0)
DEFAULT_EPSILON0 = 2.0
SHUFFLE_DELTA = 1e-6
N_GRID = np.unique(np.round(np.geomspace(1_000, 10_000_000, 41)).astype(np.int64))
USERS: tuple[int, ...] = (10_000, 100_000, 1_000_000, 10_000_000)
DEFAULT_USERS = 1_000_000
HIST_K = 10  # categories of the shuffled histogram


def bound_ln(n: int, delta: float = SHUFFLE_DELTA) -> float:
    """The largest ε₀ the theorem covers for n users: ln(n / (16 ln(2/δ)))."""
    return math.log(n / (16.0 * math.log(2.0 / delta)))


def bound_n(epsilon0: float, delta: float = SHUFFLE_DELTA) -> float:
    """The fewest users for which the theorem applies at ε₀: n ≥ 16 ln(2/δ)·e^ε₀."""
    return 16.0 * math.log(2.0 / delta) * math.exp(epsilon0)


@datasets.cached(census_only=True, max_entries=4)
def shuffle_curves() -> pd.DataFrame:
    """Central ε against n for every ε₀ of EPSILON0S, where the theorem applies."""
    rows = []
    for eps0 in EPSILON0S:
        for n in N_GRID:
            if n >= bound_n(eps0):
                rows.append(
                    (
                        int(n),
                        f"ε₀ = {text.number(eps0)}",
                        dp.shuffle_epsilon(eps0, int(n), SHUFFLE_DELTA),
                    )
                )
    return pd.DataFrame(rows, columns=["n", "series", "epsilon"])


@dataclass(frozen=True)
class Shuffled:
    applies: bool
    central: float | None
    shuffled_sd: float  # one count of a k-ary RR histogram, each user at ε₀
    laplace_sd: float | None  # one count of a central Laplace histogram at the central ε


def shuffled(epsilon0: float, n: int) -> Shuffled:
    if n < bound_n(epsilon0):
        return Shuffled(False, None, math.sqrt(dp.grr_variance(n, epsilon0, HIST_K)), None)
    central = dp.shuffle_epsilon(epsilon0, n, SHUFFLE_DELTA)
    return Shuffled(
        True,
        central,
        math.sqrt(dp.grr_variance(n, epsilon0, HIST_K)),
        dp.laplace_std(1.0, central),
    )


@datasets.cached()
def users_rule(n: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(n)], "label": [f"n = {text.number(n)}"]})


# --- 3. in the world -----------------------------------------------------------------------------
def apple_daily_range() -> str:
    """Apple's published local budgets, per user per day (data/deployments.csv), as words:
    the smallest and the largest ε with their use cases."""
    table = deployments.deployments().table
    rows = table[(table["organisation"] == "Apple") & (table["unit"] == "per user, per day")]
    rows = rows.sort_values("epsilon_used")
    if rows.empty:
        raise ValueError("data/deployments.csv has no per-day budget of Apple's")

    def named(row) -> str:
        return f"{text.number(row['epsilon_used'])} ({row['release'].split(' (')[0]})"

    return f"ε = {named(rows.iloc[0])} to {named(rows.iloc[-1])}"
