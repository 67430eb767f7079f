"""dp/continual.py (the dp/ API contract, round 4): the binary mechanism's counts are
unbiased with the variance binary_tree_variance gives (within 6 standard errors); each event
sits in one node per level (so the tree's sensitivity is L), checked by building the nodes;
a node's noise is shared by every count that uses it; the three ways' variances against t."""

import math

import numpy as np
import pytest

import dp
from dp_helpers import assert_mean_close, assert_variance_close


def test_the_variance_formula_at_hand_worked_points() -> None:
    # T = 8: L = 4 levels; t = 7 = 111b uses 3 nodes: 2·(4/ε)²·3 = 96 at ε = 1
    assert dp.binary_tree_variance(7, 8, 1.0) == 96.0
    # t = 8 = 1000b uses one node (the root [1, 8])
    assert dp.binary_tree_variance(8, 8, 1.0) == 32.0
    # T = 1,000: L = 10; t = 1,000 = 1111101000b has 6 ones; ε = 2 → 2·25·6
    assert dp.binary_tree_variance(1_000, 1_000, 2.0) == pytest.approx(300.0)
    assert dp.increments_variance(100, 0.5) == pytest.approx(800.0)
    assert dp.recompute_variance(100, 0.5) == pytest.approx(2 * 200.0**2)


def test_the_counts_are_unbiased_with_the_formulas_variance() -> None:
    rng = np.random.default_rng(12)
    horizon, epsilon, reps = 37, 1.5, 20_000
    stream = rng.integers(0, 2, size=horizon)
    truth = np.cumsum(stream)
    runs = np.array([dp.binary_tree_counts(stream, epsilon, rng=rng) for _ in range(reps)])
    errors = runs - truth
    variance = np.array([dp.binary_tree_variance(t, horizon, epsilon) for t in range(1, 38)])
    assert_mean_close(errors, 0.0, variance, label="binary tree")
    assert_variance_close(errors, variance, label="binary tree")


def test_a_node_is_shared_by_the_counts_that_use_it() -> None:
    # counts at t = 4 and t = 5 share the node [1, 4]: their errors differ by node [5, 5]
    # alone, so Var(e5 − e4) = 2(L/ε)² (one node), not the sum of their variances
    rng = np.random.default_rng(2)
    stream = np.zeros(8, dtype=int)
    runs = np.array([dp.binary_tree_counts(stream, 1.0, rng=rng) for _ in range(20_000)])
    difference = runs[:, 4] - runs[:, 3]
    assert_variance_close(difference[:, None], np.array([2 * 16.0]), label="t5 − t4")


def _nodes_holding(position: int, horizon: int) -> int:
    """How many dyadic intervals inside [1, T] hold step `position` (1-based)."""
    held = 0
    for level in range(horizon.bit_length()):
        size = 1 << level
        k = (position - 1) // size
        held += (k + 1) * size <= horizon
    return held


@pytest.mark.parametrize("horizon", [1, 2, 7, 16, 100, 1_000])
def test_each_event_sits_in_at_most_l_nodes(horizon) -> None:
    levels = horizon.bit_length()
    assert levels == math.floor(math.log2(horizon)) + 1
    assert max(_nodes_holding(t, horizon) for t in range(1, horizon + 1)) == levels


def test_the_tree_beats_increments_beyond_a_few_steps() -> None:
    horizon, epsilon = 1_000, 1.0
    t = 1_000
    assert dp.binary_tree_variance(t, horizon, epsilon) < dp.increments_variance(t, epsilon)
    assert dp.increments_variance(t, epsilon) < dp.recompute_variance(horizon, epsilon)


def test_bad_streams_are_refused() -> None:
    with pytest.raises(ValueError, match="stream"):
        dp.binary_tree_counts([], 1.0)
    with pytest.raises(ValueError, match="stream"):
        dp.binary_tree_counts([0, 2], 1.0)
    with pytest.raises(ValueError, match="t must be at most horizon"):
        dp.binary_tree_variance(9, 8, 1.0)


@pytest.mark.parametrize("horizon", [100, 37])
def test_powers_of_two_and_the_days_before_them_at_a_horizon_that_is_not_one(horizon) -> None:
    # T = 100: L = ⌊log2 100⌋ + 1 = 7 (not log2 100 = 6.64 rounded); the days 2^k and
    # 2^k − 1 have 1 and k nodes: unbiased, with the formula's variance within 6 SEs
    levels = math.floor(math.log2(horizon)) + 1
    assert dp.binary_tree_variance(1, horizon, 1.0) == 2 * levels**2
    rng = np.random.default_rng(horizon)
    stream = rng.integers(0, 2, size=horizon)
    days = [t for t in (1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, horizon) if t <= horizon]
    runs = np.array([dp.binary_tree_counts(stream, 1.0, rng=rng) for _ in range(20_000)])
    errors = runs[:, np.array(days) - 1] - np.cumsum(stream)[np.array(days) - 1]
    variance = np.array([2 * levels**2 * bin(t).count("1") for t in days], dtype=float)
    np.testing.assert_allclose(
        variance, [dp.binary_tree_variance(t, horizon, 1.0) for t in days], rtol=1e-12
    )
    assert_mean_close(errors, 0.0, variance, label=f"T = {horizon}")
    assert_variance_close(errors, variance, label=f"T = {horizon}")
