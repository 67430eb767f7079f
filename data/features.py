"""The census as a logistic model's features: what "Private training with DP-SGD" trains on,
and what its code behind the chart reads. No Streamlit."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from data.census import CATEGORY_COLUMNS

# The model's categorical features: every categorical column of the census but the one it
# predicts (Income) and the country (42 values, most of them a handful of people).
CATEGORICAL = tuple(c for c in CATEGORY_COLUMNS if c not in ("Income", "NativeCountry"))
# The numeric columns and their public ranges: what the census can hold, from its public
# documentation, never from the data (as the clamping lesson's windows: ages and a week's
# hours 0–100, education coded 1–16, gains recorded up to $99,999, losses up to $4,356).
# Scaling by the training rows' own mean and spread would read everyone's values outside
# DP-SGD's accounting; a public range costs no ε.
NUMERIC: dict[str, tuple[float, float]] = {
    "Age": (0.0, 100.0),
    "EducationNum": (1.0, 16.0),
    "HoursPerWeek": (0.0, 100.0),
    "CapitalGain": (0.0, 100_000.0),
    "CapitalLoss": (0.0, 5_000.0),
}
# Money spans orders of magnitude (most people 0, a few 99,999): scaled by log(1 + v), so
# that $1,000 and $10,000 differ on the model's scale, as in any pipeline for such columns.
LOG_SCALED = frozenset({"CapitalGain", "CapitalLoss"})
TEST_SHARE = 0.2
SPLIT_SEED = 32  # which rows are held out: fixed


@dataclass(frozen=True)
class Data:
    names: tuple[str, ...]
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


def income_features(frame: pd.DataFrame) -> Data:
    """Income > 50K (y) and the features (x) of the census's people: every categorical
    column one-hot, the numeric ones scaled from their public ranges onto [−1, 1]; a fixed
    TEST_SHARE held out."""
    y = (frame["Income"].astype("string") == ">50K").to_numpy().astype(float)
    rng = np.random.default_rng(SPLIT_SEED)
    test = rng.random(len(frame)) < TEST_SHARE
    blocks, names = [], []
    for column in CATEGORICAL:
        values = frame[column].astype("string").fillna("(missing)").to_numpy()
        for category in sorted(set(values)):
            blocks.append((values == category).astype(float))
            names.append(f"{column} = {category}")
    for column, (low, high) in NUMERIC.items():
        values = np.clip(frame[column].to_numpy(dtype=float), low, high)
        if column in LOG_SCALED:
            values, low, high = np.log1p(values), math.log1p(low), math.log1p(high)
        blocks.append(public_scale(values, low, high))
        names.append(f"{column} ({'log-' if column in LOG_SCALED else ''}scaled)")
    # float32: exact for the one-hot columns, 7 digits for the scaled ones; half the
    # memory (the census's 32,561 rows × 63 columns: 8 MB instead of 16)
    x = np.column_stack(blocks).astype(np.float32)
    return Data(tuple(names), x[~test], y[~test], x[test], y[test])


# The few numeric columns a convex model in the unit ball uses (private ERM): dp/erm.py's
# proofs need every row's L2 norm at most 1.
UNIT_BALL_COLUMNS = ("Age", "EducationNum", "HoursPerWeek", "CapitalGain")


def unit_ball_features(frame: pd.DataFrame) -> Data:
    """Income > 50K as y in {−1, +1} and, as x, UNIT_BALL_COLUMNS scaled from their public
    ranges onto [−1, 1] (money by log(1 + v)) and a constant 1 for the intercept, each row
    divided by √(columns + 1) so that its L2 norm is at most 1; the same TEST_SHARE held out
    as `income_features`. Nothing about the people is read to scale them."""
    blocks = []
    for column in UNIT_BALL_COLUMNS:
        low, high = NUMERIC[column]
        values = np.clip(frame[column].to_numpy(dtype=float), low, high)
        if column in LOG_SCALED:
            values, low, high = np.log1p(values), math.log1p(low), math.log1p(high)
        blocks.append(public_scale(values, low, high))
    blocks.append(np.ones(len(frame)))
    x = np.column_stack(blocks) / math.sqrt(len(blocks))
    y = np.where(frame["Income"].astype("string") == ">50K", 1.0, -1.0)
    test = np.random.default_rng(SPLIT_SEED).random(len(frame)) < TEST_SHARE
    names = (*UNIT_BALL_COLUMNS, "intercept")
    return Data(names, x[~test], y[~test], x[test], y[test])


def public_scale(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """Values clipped to their public range [low, high] and mapped onto [−1, 1]: −1 at low,
    +1 at high. Nothing about the people is read, so this costs no privacy."""
    return 2.0 * (np.clip(values, low, high) - low) / (high - low) - 1.0
