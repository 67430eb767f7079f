"""data/features.py: the model features two machine-learning lessons share, checked against
the census by hand."""

from __future__ import annotations

import math

import numpy as np

from data.census import load_census
from data.features import (
    NUMERIC,
    SPLIT_SEED,
    TEST_SHARE,
    UNIT_BALL_COLUMNS,
    income_features,
    unit_ball_features,
)


def test_unit_ball_rows_are_in_the_ball_on_the_course_split() -> None:
    census = load_census()
    found, course = unit_ball_features(census), income_features(census)
    everyone = np.vstack([found.x_train, found.x_test])
    assert np.linalg.norm(everyone, axis=1).max() <= 1 + 1e-12
    # the intercept, 1/√5 on every row; labels ±1, the same people held out
    assert np.allclose(everyone[:, -1], 1 / math.sqrt(len(UNIT_BALL_COLUMNS) + 1))
    assert np.array_equal(found.y_test == 1, course.y_test == 1)
    assert np.array_equal(found.y_train == 1, course.y_train == 1)
    assert set(np.unique(found.y_train)) == {-1.0, 1.0}


def test_a_column_is_scaled_from_its_public_range_not_the_data() -> None:
    """A 100-year-old is +1 before the row's shrinking, a newborn −1, whatever the data hold:
    the first row's age recomputed by hand."""
    census = load_census()
    found = unit_ball_features(census)
    low, high = NUMERIC["Age"]
    assert found.y_train.size + found.y_test.size == len(census)
    held = np.random.default_rng(SPLIT_SEED).random(len(census)) < TEST_SHARE
    first = census["Age"].to_numpy(dtype=float)[~held][0]
    expected = (2 * (first - low) / (high - low) - 1) / math.sqrt(5)
    assert found.x_train[0, 0] == expected
