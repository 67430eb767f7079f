"""Counting over time (the numbers behind the page): a running count released every day, by
noisy increments, by recomputing each day's count with ε/T, and by the binary tree.

The stream: the census's people arriving one a day in a fixed random order; the event on day
t is "person t earns more than $50K". Neighbouring streams differ in one day's value (event
level): one person's answer. Every formula is dp/continual.py's (Chan, Shi & Song 2011):
dp.binary_tree_counts, dp.binary_tree_variance, dp.increments_variance and
dp.recompute_variance."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, deployments, text

# --- 1. three ways to count a stream -----------------------------------------------------------
HORIZON = 1_000  # T: days released, one count each
EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
DEFAULT_EPSILON = 1.0
# the days a student may read: powers of two (one node of the tree) beside 2^k − 1 (k nodes),
# and a year
DAYS: tuple[int, ...] = (
    *(1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256),
    *(365, 511, 512, 999, 1_000),
)
DEFAULT_DAY = 365
STREAM_SEED = 41  # the order in which the census's people arrive: fixed
SEED_RUN = 10  # offsets added to controls.seed()
SEED_RUNS = 20
RUNS = 200  # simulated releases behind the measured errors

INCREMENTS = "noisy increments"
RECOMPUTE = "recompute each day, ε/T"
TREE = "binary tree"
METHODS = (INCREMENTS, RECOMPUTE, TREE)
TRUTH = "true count"
RELEASES = (TRUTH, *METHODS)

# the axes: days on a log scale, the error's SD on a log scale from 0.1 to 20,000 people
ERROR_DOMAIN = (0.1, 20_000.0)
CURVE_DAYS = np.unique(np.round(np.geomspace(1, HORIZON, 60)).astype(int))


@datasets.cached(census_only=True, max_entries=1)
def stream() -> np.ndarray:
    """The 0/1 stream: 1 on day t when the t-th person to arrive earns more than $50K."""
    census = datasets.census()
    order = np.random.default_rng(STREAM_SEED).permutation(len(census))[:HORIZON]
    return (census["Income"].to_numpy()[order] == ">50K").astype(np.int64)


def levels(horizon: int = HORIZON) -> int:
    """L = ⌊log2 T⌋ + 1, the tree's levels: the number of nodes that hold one day."""
    return horizon.bit_length()


def ones(t: int) -> int:
    """The 1 bits of t: the nodes that make up the count on day t."""
    return bin(t).count("1")


def variances(t: int, epsilon: float) -> dict[str, float]:
    """Each method's error variance on day t (dp/continual.py)."""
    return {
        INCREMENTS: dp.increments_variance(t, epsilon),
        RECOMPUTE: dp.recompute_variance(HORIZON, epsilon),
        TREE: dp.binary_tree_variance(t, HORIZON, epsilon),
    }


def sds(t: int, epsilon: float) -> dict[str, float]:
    return {name: math.sqrt(v) for name, v in variances(t, epsilon).items()}


def best_method(t: int, epsilon: float) -> int:
    """The index in METHODS of the release with the smallest error on day t (ties: the
    first)."""
    found = variances(t, epsilon)
    return int(np.argmin([found[name] for name in METHODS]))


@datasets.cached(max_entries=1)
def tree_always_wins_from() -> int:
    """The first day from which the tree's error is below the increments' on every later
    day up to T (its variance grows with the 1 bits, theirs with t; ε cancels: both are
    (…)/ε², so ε = 1 decides for every ε)."""
    days = range(1, HORIZON + 1)
    tree = np.array([dp.binary_tree_variance(t, HORIZON, 1.0) for t in days])
    increments = np.array([dp.increments_variance(t, 1.0) for t in days])
    loses = np.flatnonzero(tree >= increments)
    return int(loses[-1]) + 2 if loses.size else 1


@datasets.cached(max_entries=len(EPSILONS))
def error_curves(epsilon: float) -> pd.DataFrame:
    """Each method's error SD against the day: the increments' and the recompute's at
    log-spaced days (smooth), the tree's at every day (it jumps with the 1 bits of t)."""
    days = np.arange(1, HORIZON + 1)
    rows = [
        pd.DataFrame(
            {
                "day": CURVE_DAYS,
                "sd": [math.sqrt(dp.increments_variance(int(t), epsilon)) for t in CURVE_DAYS],
                "method": INCREMENTS,
            }
        ),
        pd.DataFrame(
            {
                "day": CURVE_DAYS,
                "sd": math.sqrt(dp.recompute_variance(HORIZON, epsilon)),
                "method": RECOMPUTE,
            }
        ),
        pd.DataFrame(
            {
                "day": days,
                "sd": [math.sqrt(dp.binary_tree_variance(int(t), HORIZON, epsilon)) for t in days],
                "method": TREE,
            }
        ),
    ]
    frame = pd.concat(rows, ignore_index=True)
    return frame.astype({"day": np.int16, "sd": np.float32})  # 1,120 rows sent on every move


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def releases(epsilon: float, seed: int) -> pd.DataFrame:
    """One release of the running count by each method (the same stream), with the truth:
    day, release, count."""
    values = stream()
    rng = np.random.default_rng(seed)
    truth = np.cumsum(values).astype(float)
    days = np.arange(1, HORIZON + 1)
    increments = np.cumsum(dp.laplace_mechanism(values, 1.0, epsilon, rng=rng))
    recompute = dp.laplace_mechanism(truth, 1.0, epsilon / HORIZON, rng=rng)  # ε/T per count
    tree = dp.binary_tree_counts(values, epsilon, rng=rng)
    # compact types: the chart sends 4,000 rows on every move of ε (float32 keeps a count to
    # a millionth of a person; the CSV reads the same values)
    return pd.DataFrame(
        {
            "day": np.tile(days, len(RELEASES)).astype(np.int16),
            "count": np.concatenate([truth, increments, recompute, tree]).astype(np.float32),
            "release": np.repeat(RELEASES, HORIZON),
        }
    )


DASHBOARD = (TRUTH, INCREMENTS, TREE)  # the recompute's ±1,414 would hide the others


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def dashboard_frame(epsilon: float, seed: int) -> pd.DataFrame:
    """The noisy releases the dashboard chart draws: the increments and the tree (the
    recompute's counts are given in words: on the chart's scale they are a wall)."""
    frame = releases(epsilon, seed)
    return frame[frame["release"].isin(DASHBOARD[1:])].reset_index(drop=True)


@datasets.cached(census_only=True, max_entries=1)
def truth_frame() -> pd.DataFrame:
    """The true running count the dashboard draws over the releases. A dataset of its own:
    it is the same at every ε and seed, and Streamlit hands Vega only the datasets whose
    bytes changed (a third fewer rows a press)."""
    return pd.DataFrame(
        {
            "day": np.arange(1, HORIZON + 1, dtype=np.int16),
            "count": np.cumsum(stream()).astype(np.float32),
            "release": np.repeat([TRUTH], HORIZON),
        }
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def release_wide(epsilon: float, seed: int) -> pd.DataFrame:
    """The release as one row a day (the CSV)."""
    frame = releases(epsilon, seed)
    wide = frame.pivot(index="day", columns="release", values="count")[list(RELEASES)]
    return wide.reset_index()


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def on_day(epsilon: float, seed: int, day: int) -> dict[str, float]:
    """Each release's count on one day (the alt text's numbers)."""
    row = release_wide(epsilon, seed).iloc[day - 1]
    return {name: float(row[name]) for name in RELEASES}


COUNT_DOMAIN = (-60.0, 320.0)  # people: the true count reaches ~240 on day 1,000


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def measured(epsilon: float, seed: int) -> pd.DataFrame:
    """The tree's error SD measured over RUNS simulated releases, at the chosen days (the
    formula's line must pass through these points)."""
    values = stream()
    truth = np.cumsum(values)
    rng = np.random.default_rng(seed)
    runs = np.array([dp.binary_tree_counts(values, epsilon, rng=rng) for _ in range(RUNS)])
    picked = np.array(DAYS) - 1
    errors = runs[:, picked] - truth[picked]
    return pd.DataFrame({"day": np.array(DAYS), "sd": np.sqrt(np.mean(errors**2, axis=0))})


def day_label(day: int) -> str:
    return f"day {day:,}"


@datasets.cached(max_entries=2 * len(DAYS))
def day_rule(day: int, bottom: bool = False) -> pd.DataFrame:
    """The day read as a chart's rule, its label at the plot's bottom with `bottom`
    (charts.day_label_at_bottom)."""
    return pd.DataFrame({"x": [float(day)], "label": [day_label(day)], "bottom": [bottom]})


def true_count(day: int) -> int:
    return int(np.cumsum(stream())[day - 1])


def larger_horizon(horizon: int, epsilon: float) -> tuple[float, float]:
    """At a longer horizon, the tree's worst error SD over its days (the most 1 bits a day
    up to T has) against the increments' SD on day T."""
    below = (1 << (horizon.bit_length() - 1)) - 1  # 2^k − 1 < T: k ones, the most below T
    worst = horizon if ones(horizon) >= ones(below) else below
    tree = math.sqrt(dp.binary_tree_variance(worst, horizon, epsilon))
    return tree, math.sqrt(dp.increments_variance(horizon, epsilon))


# --- 2. the tree itself ------------------------------------------------------------------------
SMALL_HORIZON = 16
SMALL_DAYS: tuple[int, ...] = tuple(range(1, SMALL_HORIZON + 1))
DEFAULT_COUNT_DAY = 11
DEFAULT_EVENT_DAY = 6
COUNTED = "in day t's count"
HOLDS = "holds day s's answer"
BOTH = "both"
NEITHER = "neither"
ROLES = (COUNTED, HOLDS, BOTH, NEITHER)


@dataclass(frozen=True)
class Node:
    level: int  # 0: single days; the interval holds 2^level days
    start: int  # first day, 1-based
    end: int  # last day

    @property
    def label(self) -> str:
        return str(self.start) if self.start == self.end else f"{self.start}–{self.end}"


def tree_nodes(horizon: int = SMALL_HORIZON) -> list[Node]:
    """Every dyadic interval [k·2^j + 1, (k+1)·2^j] inside [1, T], level by level."""
    return [
        Node(j, k * (1 << j) + 1, (k + 1) * (1 << j))
        for j in range(levels(horizon))
        for k in range(horizon >> j)
    ]


def count_nodes(t: int) -> list[Node]:
    """The nodes whose sums add up to the count on day t: one per 1 bit of t, the largest
    first ([1, 8] + [9, 10] + [11, 11] for t = 11)."""
    found, start = [], 0
    for j in reversed(range(t.bit_length())):
        if t >> j & 1:
            found.append(Node(j, start + 1, start + (1 << j)))
            start += 1 << j
    return found


def event_nodes(s: int, horizon: int = SMALL_HORIZON) -> list[Node]:
    """The nodes that hold day s: one per level, where that level's interval lies inside
    [1, T]."""
    return [node for node in tree_nodes(horizon) if node.start <= s <= node.end]


@datasets.cached(max_entries=SMALL_HORIZON * SMALL_HORIZON)
def tree_frame(t: int, s: int) -> pd.DataFrame:
    """One row per node of the T = 16 tree: its level, start − 1 and end (the bar's x),
    label and role for day t's count and day s's event."""
    counted, holds = set(count_nodes(t)), set(event_nodes(s))
    rows = []
    for node in tree_nodes():
        role = (
            BOTH
            if node in counted and node in holds
            else COUNTED
            if node in counted
            else HOLDS
            if node in holds
            else NEITHER
        )
        rows.append(
            {
                "level": f"{1 << node.level} day{'s' if node.level else ''}",
                "start": node.start - 1,
                "end": node.end,
                "node": node.label,
                "role": role,
            }
        )
    return pd.DataFrame(rows)


LEVEL_NAMES = tuple(
    f"{1 << j} day{'s' if j else ''}" for j in reversed(range(levels(SMALL_HORIZON)))
)


def nodes_text(nodes: list[Node], separator: str = " + ") -> str:
    return separator.join(f"[{node.label}]" for node in nodes)


def binary(t: int) -> str:
    return format(t, "b")


# --- 3. where it is used -----------------------------------------------------------------------
@datasets.cached(max_entries=1)
def daily_deployments() -> pd.DataFrame:
    """The deployments of data/deployments.csv whose budget is per user per day: each a
    dashboard-like release spent again every day (the ε-meaning lesson's table)."""
    frame = deployments.unit_frame("per user, per day")
    return pd.DataFrame(
        {
            "deployment": frame["deployment"],
            "ε per day": [text.number(e) for e in frame["epsilon"]],
            "ε over a year, by composition": [
                text.number(deployments.per_year(float(e))) for e in frame["epsilon"]
            ],
        }
    )


# --- the page's sentences, from the numbers -------------------------------------------------------
def three_ways_words(day: int, epsilon: float) -> str:
    """Which release wins on the day read, from when the tree always wins, and the tree at
    longer horizons: every claim from the variances."""
    found = sds(day, epsilon)
    best = METHODS[best_method(day, epsilon)]
    since = tree_always_wins_from()
    parts = [
        f"**On day {day:,}** the {best} release is the closest on average (error SD "
        f"{text.number(found[best])} people). Recomputing with ε/T is far off on every day: "
        f"its SD, {text.number(found[RECOMPUTE])}, grows with the number of days T, not "
        "with t (its line would fill the dashboard's chart, so it is left out).",
        f"The tree's error depends on the 1 bits of t, not on its size: day 512 "
        f"({binary(512)}) adds one block, day 511 ({binary(511)}) adds {ones(511)}. "
        + (
            f"Up to T = {HORIZON:,} the increments win on many days; from day {since:,} on "
            "the tree wins on every day."
            if since > 1
            else "The tree wins on every day."
        ),
    ]
    year_hours = 24 * 365
    tree_worst, increments_last = larger_horizon(year_hours, epsilon)
    parts.append(
        f"**Longer streams.** The gap widens with T: counting every hour for a year "
        f"(T = {year_hours:,}), the tree's error SD is at most {text.number(tree_worst)} on "
        f"any hour, the increments' reaches {text.number(increments_last)} on the last one."
    )
    return "\n\n".join(parts)


def tree_words(t: int, s: int) -> str:
    """How day t's count is added up and which blocks hold day s, and why that makes the
    tree ε-DP with Lap(L/ε) per block."""
    counted, holds = count_nodes(t), event_nodes(s)
    small = levels(SMALL_HORIZON)
    return (
        f"**Day {t}'s count** is {t} = {binary(t)} in binary: it adds {nodes_text(counted)}, "
        f"{len(counted)} block{'s' if len(counted) != 1 else ''}, one per 1 bit, so its "
        f"variance is {len(counted)} × 2(L/ε)². "
        f"**Day {s}'s answer** is in {nodes_text(holds, ', ')}: {len(holds)} blocks, one per "
        "level. "
        f"Changing it changes those {len(holds)} sums by at most 1 each, so Lap(L/ε) with "
        f"L = {small} on every block makes the whole tree ε-DP (each level is ε/L-DP, and the "
        f"{small} levels compose). Every count on every day is computed from the noisy "
        "blocks alone: post-processing, no further cost."
    )
