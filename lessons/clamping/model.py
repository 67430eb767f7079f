"""Cached computations of the lesson "Sensitivity and clamping": numbers and DataFrames.

Every number comes from dp/ (dp/sensitivity.py); frames are small (at most a few hundred
rows) and every chart's axes are fixed per column, so moving a bound shows change, not
rescaling."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

import dp
from data.visits import VISITS_CAP
from data.visits import VISITS_SEED as VISITS_SEED  # the page shows it in the snippet
from ui import charts, datasets, text
from ui.columns import (
    NumericColumn,
    column_values,
    visits_per_person,
)

# --- the columns (ui/columns.py: DP group-by and Choosing privately use them too) ----------

HISTOGRAM_BINS = 50
CURVE_POINTS = 100  # upper bounds on the bias/noise chart (smooth curves on a log axis)
ERROR_FLOOR = 0.1  # the error chart's y axis starts here (log scale)

# Section "one person, many rows": a simulated visits table (ui/columns.py), one row per visit.
MAX_ROWS_OPTIONS = tuple(range(1, 101))
CONTRIBUTION_CURVE = np.arange(1, 101)

# Offsets added to controls.seed(): one per distinct random draw on the page.
SEED_SUM = 10
SEED_MEAN = 20
SEED_VISITS_SUM = 30


# --- 1. why a sum's sensitivity is not 1 -------------------------------------------------------


@dataclass(frozen=True)
class Extremes:
    largest: float
    holders: int  # how many people have the largest value
    second: float | None  # the next distinct value below it


@datasets.cached()
def extremes(name: str, size: int) -> Extremes:
    values = column_values(name, size)
    largest = float(values.max())
    below = values[values < largest]
    second = float(below.max()) if below.size else None
    return Extremes(largest, int(np.count_nonzero(values == largest)), second)


# --- 2. the clamping trade-off ---------------------------------------------------------------


@datasets.cached()
def histogram(name: str, size: int, low: float, high: float) -> pd.DataFrame:
    """The column's values in 50 bins over its domain (the axis never moves)."""
    values = column_values(name, size)
    return charts.histogram_frame(values, domain=(low, high), bins=HISTOGRAM_BINS)


@dataclass(frozen=True)
class ClampedSum:
    true_sum: float
    clamped_sum: float
    bias: float
    sensitivity: float
    scale: float
    typical_error: float  # SD of the noise, √2·b
    rmse: float  # √(bias² + 2b²)
    noisy_sum: float
    clipped_above: int
    clipped_below: int


@datasets.cached(max_entries=1024)
def clamped_sum(
    name: str, size: int, lower: float, upper: float, epsilon: float, seed: int
) -> ClampedSum:
    values = column_values(name, size)
    sensitivity = dp.sum_sensitivity(lower, upper)
    bias = dp.clamping_bias(values, lower, upper)
    return ClampedSum(
        true_sum=float(values.sum()),
        clamped_sum=float(dp.clamp(values, lower, upper).sum()),
        bias=bias,
        sensitivity=sensitivity,
        scale=dp.laplace_scale(sensitivity, epsilon),
        typical_error=dp.laplace_std(sensitivity, epsilon),
        rmse=math.sqrt(dp.clamped_sum_squared_error(values, lower, upper, epsilon)),
        noisy_sum=dp.noisy_sum(values, lower, upper, epsilon, rng=seed),
        clipped_above=int(np.count_nonzero(values > upper)),
        clipped_below=int(np.count_nonzero(values < lower)),
    )


class PointWindow(NamedTuple):
    """L = U = value: every value is clamped to one point."""

    value: float
    people: int
    clamped_sum: float  # n·value
    bias: float  # n·value − Σ v: the whole spread
    add_remove_sensitivity: float  # |value|: one person adds or removes the value itself


def point_window(name: str, size: int, value: float) -> PointWindow:
    values = column_values(name, size)
    clamped = float(values.size * value)
    return PointWindow(
        value, int(values.size), clamped, clamped - float(values.sum()), abs(float(value))
    )


def widened_window(column: NumericColumn, value: float) -> tuple[float, float]:
    """The window the charts use for L = U = value: U one step above, or, at the top of the
    column's range, L one step below (dp.clamp needs L < U)."""
    if value + column.step <= column.high:
        return value, value + column.step
    return value - column.step, value


def describe_point_window(point: PointWindow, lower: float, upper: float) -> str:
    value = text.number(point.value)
    return (
        f"**L = U = {value}: every value is clamped to {value}.** The clamped sum is "
        f"{point.people:,} × {value} = {text.number(point.clamped_sum)}, so the bias is the "
        f"whole spread of the data, {text.number(point.bias)}. Under add/remove one person "
        f"still adds or removes {value}, so the noise needs Δ = |L| = "
        f"{text.number(point.add_remove_sensitivity)}; under replace-one Δ = U − L = 0 and no "
        "noise is needed, but then the sum says nothing beyond the count. The numbers and "
        f"charts below use the window [{text.number(lower)}, {text.number(upper)}], one step "
        "wide."
    )


def curve_uppers(column: NumericColumn, lower: float) -> np.ndarray:
    """The upper bounds the error chart evaluates: about 200 steps from lower to the top."""
    first = lower + column.step
    count = int(round((column.high - first) / column.step)) + 1
    stride = max(1, math.ceil(count / CURVE_POINTS))
    uppers = first + column.step * np.arange(0, count, stride)
    return np.unique(np.r_[uppers, column.high])


PART_BIAS = "|bias| (clamping)"
PART_NOISE = "noise SD √2·Δ/ε"
PART_TOTAL = "total: √(bias² + 2b²)"
PARTS = (PART_BIAS, PART_NOISE, PART_TOTAL)
PART_DROPPED = "|bias| (rows dropped)"
NOISE_PART_ROWS = "noise SD √2·m/ε"


@dataclass(frozen=True)
class ErrorCurve:
    curves: pd.DataFrame  # upper, error, part (long format, zeros left out for the log axis)
    best_upper: float
    best_rmse: float


@datasets.cached(max_entries=512)
def error_curve(column: NumericColumn, size: int, lower: float, epsilon: float) -> ErrorCurve:
    """|bias|, the noise's SD and the root of their squared sum, for every upper bound."""
    values = column_values(column.name, size)
    uppers = curve_uppers(column, lower)
    bias = np.abs(dp.clamping_bias_curve(values, lower, uppers))
    noise = np.sqrt(2.0) * np.maximum(abs(lower), np.abs(uppers)) / epsilon
    total = np.sqrt(dp.clamped_sum_squared_error(values, lower, uppers, epsilon))
    frame = pd.concat(
        [
            pd.DataFrame({"upper": uppers, "error": err, "part": part})
            for err, part in ((bias, PART_BIAS), (noise, PART_NOISE), (total, PART_TOTAL))
        ],
        ignore_index=True,
    )
    frame = frame[frame["error"] >= error_domain(column)[0]].reset_index(drop=True)
    best = dp.best_clamp_upper(values, lower, epsilon, uppers)
    best_rmse = math.sqrt(dp.clamped_sum_squared_error(values, lower, best, epsilon))
    return ErrorCurve(frame, best, best_rmse)


@datasets.cached()
def error_domain(column: NumericColumn) -> tuple[float, float]:
    """A fixed log axis for the error chart of this column, the same for every ε, window and
    sample: from a power of 10 below the smallest noise (ε = 10, the narrowest window) to one
    above the largest bias (everyone, the window's first step) or noise (ε = 0.01, the widest
    window). A lower bound pushed far up can lift a curve above the top: it is clipped there,
    never rescaled."""
    values = column_values(column.name)
    low, high, step = column.low, column.high, column.step
    largest_bias = abs(dp.clamping_bias(values, low, low + step))
    largest_noise = dp.laplace_std(max(abs(low), abs(high)), 0.01)
    smallest_noise = dp.laplace_std(max(abs(low), abs(low + step)), 10.0)
    top = max(largest_bias, largest_noise)
    return (10.0 ** math.floor(math.log10(smallest_noise)), 10.0 ** math.ceil(math.log10(top)))


# The lowest total sits at the bottom of a U, as a diamond whose words are in the title:
# beside it the total climbs back through a label ("lowest total: m = 80" was crossed by the
# total's line; a line higher, "m = 22" met "your m = 10" on a projector), and at the range's
# either end it climbs steeply ("lowest total: U = 500" at ε = 0.01, "U = 100,000" with
# everyone).
@datasets.derived
def best_point(curve: ErrorCurve) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "upper": [curve.best_upper],
            "error": [curve.best_rmse],
        }
    )


@datasets.cached()
def current_rule(value: float, *, prefix: str = "your U") -> pd.DataFrame:
    """The current bound as the labelled rule of a chart (dataset "truth")."""
    return pd.DataFrame({"x": [float(value)], "label": [f"{prefix} = {text.number(value)}"]})


@datasets.cached()
def window_frame(lower: float, upper: float) -> pd.DataFrame:
    return pd.DataFrame({"lower": [lower], "upper": [upper]})


# --- 3. means ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeanRelease:
    true_mean: float
    clamped_mean: float
    noisy_sum: float
    noisy_count: float
    noisy_mean: float
    sum_scale: float  # b of the sum at ε/2
    count_scale: float  # b of the count at ε/2
    n: int


@datasets.cached(max_entries=1024)
def mean_release(
    name: str, size: int, lower: float, upper: float, epsilon: float, seed: int
) -> MeanRelease:
    values = column_values(name, size)
    parts = dp.noisy_mean_parts(values, lower, upper, epsilon, rng=seed)
    half = epsilon / 2
    return MeanRelease(
        true_mean=float(values.mean()),
        clamped_mean=float(dp.clamp(values, lower, upper).mean()),
        noisy_sum=float(parts.noisy_sum),
        noisy_count=float(parts.noisy_count),
        noisy_mean=float(parts.mean),
        sum_scale=dp.laplace_scale(dp.sum_sensitivity(lower, upper), half),
        count_scale=dp.laplace_scale(1, half),
        n=int(values.size),
    )


# --- 4. bounds taken from the data ------------------------------------------------------------


@dataclass(frozen=True)
class DataBound:
    bound_before: float  # U = max of the data
    bound_after: float  # U = max after the new person joins
    scale_before: float
    scale_after: float


def data_bound(name: str, size: int, newcomer: float, epsilon: float) -> DataBound:
    """A data-derived U (the maximum) before and after one person joins with `newcomer`."""
    largest = extremes(name, size).largest
    after = max(largest, newcomer)
    return DataBound(
        largest,
        after,
        dp.laplace_scale(max(abs(largest), 1e-9), epsilon),
        dp.laplace_scale(max(abs(after), 1e-9), epsilon),
    )


# --- 5. one person, many rows ----------------------------------------------------------------


@dataclass(frozen=True)
class BoundedCount:
    true_rows: int
    kept_rows: int
    bias: float
    typical_error: float
    rmse: float
    noisy_count: float
    people_over: int  # people with more than m rows


def bounded_count(max_rows: int, epsilon: float, seed: int) -> BoundedCount:
    rows = visits_per_person()
    bias = dp.contribution_bias(rows, max_rows)
    kept = int(rows.sum() + bias)
    sd = dp.laplace_std(max_rows, epsilon)
    return BoundedCount(
        true_rows=int(rows.sum()),
        kept_rows=kept,
        bias=bias,
        typical_error=sd,
        rmse=math.sqrt(bias**2 + sd**2),
        noisy_count=dp.laplace_mechanism(kept, max_rows, epsilon, rng=seed),
        people_over=int(np.count_nonzero(rows > max_rows)),
    )


@datasets.cached(max_entries=64)
def contribution_curve(epsilon: float) -> tuple[pd.DataFrame, int]:
    """|bias|, noise SD and total error of the bounded row count for m = 1..100, and the best m."""
    rows = visits_per_person()
    bias = np.abs(dp.contribution_bias(rows, CONTRIBUTION_CURVE))
    noise = dp.laplace_std(1, epsilon) * CONTRIBUTION_CURVE
    total = np.sqrt(bias**2 + noise**2)
    frame = pd.concat(
        [
            pd.DataFrame({"m": CONTRIBUTION_CURVE, "error": err, "part": part})
            for err, part in ((bias, PART_DROPPED), (noise, NOISE_PART_ROWS), (total, PART_TOTAL))
        ],
        ignore_index=True,
    )
    frame = frame[frame["error"] >= ERROR_FLOOR].reset_index(drop=True)
    return frame, int(CONTRIBUTION_CURVE[int(np.argmin(total))])


@datasets.derived
def best_m_point(curve: pd.DataFrame, best_m: int) -> pd.DataFrame:
    total = curve[(curve["part"] == PART_TOTAL) & (curve["m"] == best_m)]["error"]
    return pd.DataFrame(
        {
            "m": [best_m],
            "error": [float(total.iloc[0])],
        }
    )


@datasets.cached()
def contribution_domain() -> tuple[float, float]:
    """A fixed log axis for the contribution chart (every ε): up to a power of 10 above the
    largest bias (all rows but one per person) and the largest noise (m = 100, ε = 0.01)."""
    rows = visits_per_person()
    top = max(float(rows.sum()), math.sqrt(2.0) * CONTRIBUTION_CURVE[-1] / 0.01)
    return (ERROR_FLOOR, 10.0 ** math.ceil(math.log10(top)))


@datasets.cached()
def visits_summary() -> dict[str, float]:
    rows = visits_per_person()
    return {
        "people": int(rows.size),
        "rows": int(rows.sum()),
        "median": float(np.median(rows)),
        "largest": int(rows.max()),
        "over_10": float(np.mean(rows > 10)),
    }


LEVEL_EVENT = "event-level: r·ε"
LEVEL_USER = "user-level: ε"


@datasets.cached(max_entries=64)
def protection_frame(epsilon: float) -> pd.DataFrame:
    """The ε a person with r rows really gets: r·ε under event-level DP (group privacy),
    ε under user-level DP, whatever the bound m (the noise is scaled to m)."""
    r = np.arange(1, VISITS_CAP + 1)
    event = np.array([dp.group_privacy(epsilon, int(k)) for k in r])  # r rows: a group of r
    return pd.concat(
        [
            pd.DataFrame({"rows": r, "epsilon": event, "level": LEVEL_EVENT}),
            pd.DataFrame({"rows": r, "epsilon": np.full(r.size, epsilon), "level": LEVEL_USER}),
        ],
        ignore_index=True,
    )


def dropped_words(people_over: int, max_rows: int) -> str:
    """The caption under section 3's metrics: who loses rows at m, in words that agree with
    the numbers ("1 person has more than 1 row", not "1 people … 1 rows")."""
    rows = "row" if max_rows == 1 else "rows"
    if people_over == 0:
        who = f"No one has more than {max_rows} {rows}, so no row is dropped"
    else:
        who = (
            f"{people_over:,} {'person has' if people_over == 1 else 'people have'} more than "
            f"{max_rows} {rows}; the extra ones are dropped (a random choice of the person's "
            "rows is kept)"
        )
    return f"{who}, and the count's sensitivity is m = {max_rows} under add/remove-one-*person*."
