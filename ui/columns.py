"""The active dataset's numeric columns, as lessons offer them to clamp or to choose from:
each with its domain (the range a slider offers: for the census, public and known without
looking at anyone's value; for an uploaded file, read off its values), fixed samples of its
values, and a simulated visits table for the census's people. Sensitivity and clamping,
Choosing privately and DP group-by draw from here, and DP group-by and Uncertainty from its
rare cells (occupation × native country)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from data.visits import rows_per_person
from ui import datasets, text


@dataclass(frozen=True)
class NumericColumn:
    """A numeric column and its domain, the range a slider offers: for the census, what the
    column can hold, known without looking at anyone's value (`public`); for an uploaded
    file, its smallest and largest values rounded out, read off the data (not `public`)."""

    name: str  # the column in the frame
    label: str  # what the page calls it
    low: float
    high: float
    step: float
    default: tuple[float, float]  # the starting clamp window
    public: bool = True  # the range is known without the data (False: read off a file)

    @property
    def domain(self) -> tuple[float, float]:
        return (self.low, self.high)


# Domain knowledge, not the data: ages 0-100, a week's hours 0-100, the census's capital
# gains are recorded up to $99,999 and losses up to $4,356 (public documentation of the file).
CENSUS_COLUMNS: tuple[NumericColumn, ...] = (
    NumericColumn("CapitalGain", "Capital gain ($)", 0.0, 100_000.0, 500.0, (0.0, 5_000.0)),
    NumericColumn("Age", "Age (years)", 0.0, 100.0, 1.0, (0.0, 60.0)),
    NumericColumn("HoursPerWeek", "Hours worked per week", 0.0, 100.0, 1.0, (0.0, 50.0)),
    NumericColumn("CapitalLoss", "Capital loss ($)", 0.0, 5_000.0, 25.0, (0.0, 2_000.0)),
)


def _nice_step(span: float) -> float:
    """A round step (1, 2 or 5 × 10^k) giving about 200 positions over `span`."""
    raw = max(span / 200.0, 1e-9)
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)


# A file's numbers beyond this are not offered: past 2⁵³ a float no longer holds every whole
# number, so sums and clamps would be rounded (and around ±10¹⁵⁴ a sum's squared error is past
# the largest float: Sensitivity and clamping's curve had no best bound and raised).
MAX_ABS_VALUE = 2.0**53


def _upload_column(name: str, values: pd.Series) -> NumericColumn | str:
    """A numeric column of an uploaded file, its slider range rounded out to the step; or why
    it is not offered (no values, an infinite one, one beyond ±MAX_ABS_VALUE)."""
    present = values.dropna()
    if present.empty:
        return "no values"
    low, high = float(present.min()), float(present.max())
    if not (math.isfinite(low) and math.isfinite(high)):
        return "an infinite value"
    if max(abs(low), abs(high)) > MAX_ABS_VALUE:
        return (
            f"a value beyond ±{MAX_ABS_VALUE:,.0f}, past which a float no longer holds every "
            "whole number"
        )
    span = high - low if high > low else max(abs(high), 1.0)
    step = _nice_step(span)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    return NumericColumn(name, name, low, high, step, (low, high), public=False)


def slider_format(column: NumericColumn) -> str:
    """printf format for the column's sliders: whole numbers when the step is whole (the
    values are floats, so "%.0f", not "%d")."""
    return "%.0f" if float(column.step).is_integer() else "%g"


def numeric_columns() -> tuple[NumericColumn, ...]:
    """The columns the lesson can clamp: the census's four, or a file's numeric columns."""
    if datasets.on_census():
        return CENSUS_COLUMNS
    return _upload_columns()[0]


def left_out_words() -> str:
    """Which numeric columns of the file are not offered, and why ("" when none is left out,
    and on the census): said under a lesson's column picker, and when none is offered."""
    if datasets.on_census() or not (left_out := _upload_columns()[1]):
        return ""
    return (
        "Numbers left out: "
        + "; ".join(f"{text.plain(name)} ({reason})" for name, reason in left_out.items())
        + "."
    )


@datasets.cached()
def _upload_columns() -> tuple[tuple[NumericColumn, ...], dict[str, str]]:
    """A file's numeric columns that can be offered, and the others with the reason."""
    frame = datasets.active().frame
    found, left_out = [], {}
    for name in frame.columns:
        series = frame[name]
        if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
            continue
        column = _upload_column(str(name), series.astype(float))
        if isinstance(column, str):
            left_out[str(name)] = column
        else:
            found.append(column)
    return tuple(found), left_out


SAMPLE_SIZES = (100, 1_000, 10_000, 0)  # 0: everyone
DEFAULT_SAMPLE = 100
SAMPLE_SEED = 7  # fixed: the same people every time, so numbers are reproducible


def sample_label(size: int) -> str:
    return "everyone" if size == 0 else f"{size:,} people"


def sample_options(available: int) -> tuple[int, ...]:
    """The sample sizes a dataset of `available` non-missing values offers (everyone last)."""
    return tuple(size for size in SAMPLE_SIZES if size < available)


@datasets.cached()
def column_values(name: str, size: int = 0) -> np.ndarray:
    """The column's values, missing ones left out (a person without a value adds nothing);
    with `size` > 0, a fixed random sample of that many people."""
    values = datasets.active().frame[name].dropna().to_numpy(dtype=float)
    if 0 < size < values.size:
        values = np.random.default_rng(SAMPLE_SEED).choice(values, size=size, replace=False)
    return values


@datasets.cached()
def present_count(name: str) -> int:
    return int(datasets.active().frame[name].notna().sum())


@datasets.cached()
def missing_count(name: str) -> int:
    return int(datasets.active().frame[name].isna().sum())


@datasets.cached(census_only=True)  # simulated for the census's people, whatever is uploaded
def visits_per_person() -> np.ndarray:
    """A simulated table: visits to a clinic in a year, one row per visit, for each of the
    32,561 census people (data/visits.py)."""
    return rows_per_person(len(datasets.census()))


# The census's rare cells: people per (occupation, native country), one cell per person.
CELL_COLUMNS = ("Occupation", "NativeCountry")


@datasets.cached(census_only=True)
def census_cells() -> pd.DataFrame:
    """People per (occupation, native country) cell of the census, largest first."""
    census = datasets.census()
    cells = census.groupby(list(CELL_COLUMNS), observed=True).size().reset_index(name="people")
    return cells.sort_values("people", ascending=False, ignore_index=True)
