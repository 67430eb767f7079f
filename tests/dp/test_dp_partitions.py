"""dp/partitions.py: user-level contribution bounding and partition selection (the dp/ API
contract, round 4): the pinned values, the closed form against the paper's recursion, the
selection's (ε, δ) guarantee checked in both directions (and failing for a broken
selection), its optimality, the Laplace threshold's δ, and the bounding's counts, uniformity
and sensitivity."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest

import dp
from dp_helpers import P_REJECT, Z, goodness_of_fit_pvalue


def recursion(count: int, epsilon: float, delta: float, m: int = 1) -> float:
    """Desfontaines et al. 2022's p(n), step by step, at ε/m and δ/m (the oracle)."""
    eps, dlt, p = epsilon / m, delta / m, 0.0
    for _ in range(count):
        p = min(math.exp(eps) * p + dlt, 1.0 - math.exp(-eps) * (1.0 - dlt - p), 1.0)
    return p


# --- partition_selection_probability ---------------------------------------------------------


@pytest.mark.parametrize(
    ("epsilon", "delta", "m"), [(1.0, 1e-5, 1), (0.1, 1e-8, 1), (0.5, 1e-6, 3), (2.0, 1e-3, 5)]
)
def test_both_rules_agree_with_googles_library(epsilon, delta, m) -> None:
    """Google's DP library (python-dp 1.1.5, an independent implementation in C++): its
    truncated-geometric strategy is the optimal selection, its Laplace strategy the
    threshold. For one partition per user they are ours exactly. For m > 1 it splits δ as
    1 − (1 − δ)^(1/m) where the contract splits it as δ/m (both valid; they differ by
    O(δ²)); given the same per-partition δ, they agree."""
    from pydp.algorithms import partition_selection as google

    per_partition = -math.expm1(math.log1p(-delta) / m)  # 1 − (1 − δ)^(1/m), no round-off
    optimal = google.create_truncated_geometric_partition_strategy(epsilon, delta, m)
    threshold = google.create_laplace_partition_strategy(epsilon, delta, m)
    users = np.arange(1, 400)
    ours = dp.partition_selection_probability(users, epsilon, per_partition * m, m)
    theirs = np.array([optimal.probability_of_keep(int(n)) for n in users])
    np.testing.assert_allclose(ours, theirs, rtol=1e-8, atol=1e-12)
    tau = dp.laplace_partition_threshold(epsilon, per_partition * m, m)
    laplace = 1.0 - dp.laplace_cdf(tau - users, loc=0.0, scale=m / epsilon)
    theirs = np.array([threshold.probability_of_keep(int(n)) for n in users])
    np.testing.assert_allclose(laplace, theirs, rtol=1e-8, atol=1e-12)
    if m == 1:  # the contract's δ itself
        np.testing.assert_allclose(
            dp.partition_selection_probability(users, epsilon, delta, 1), ours, rtol=1e-12
        )


def test_the_pinned_values() -> None:
    # p(1) = δ, p(2) = e·δ + δ = 3.71828e-5 at ε = 1, δ = 1e-5
    assert dp.partition_selection_probability(1, 1.0, 1e-5) == pytest.approx(1e-5, rel=1e-12)
    assert dp.partition_selection_probability(2, 1.0, 1e-5) == pytest.approx(3.71828e-5, rel=1e-6)
    assert dp.partition_selection_probability(0, 1.0, 1e-5) == 0.0
    # τ = 1 + ln(1/(2·1e-5)) = 1 + ln 50,000
    assert dp.laplace_partition_threshold(1.0, 1e-5) == pytest.approx(11.8198, abs=1e-4)
    assert dp.laplace_partition_threshold(1.0, 1e-5) == pytest.approx(1 + math.log(50_000))


@pytest.mark.parametrize(
    ("epsilon", "delta", "m"),
    list(itertools.product((0.05, 0.5, 1.0, 4.0), (1e-12, 1e-5, 0.2), (1, 3))),
)
def test_the_closed_form_is_the_papers_recursion(epsilon, delta, m) -> None:
    counts = np.arange(0, 1_500)
    got = dp.partition_selection_probability(counts, epsilon, delta, m)
    want = np.array([recursion(int(n), epsilon, delta, m) for n in counts])
    assert got.shape == counts.shape
    np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-300)


def test_a_scalar_gives_a_float_and_an_array_its_shape() -> None:
    assert isinstance(dp.partition_selection_probability(3, 1.0, 1e-6), float)
    grid = np.array([[0, 1], [5, 10_000]])
    shaped = dp.partition_selection_probability(grid, 1.0, 1e-6)
    assert shaped.shape == (2, 2) and shaped[1, 1] == 1.0
    listed = dp.partition_selection_probability([0, 1, 2], 1.0, 1e-6)
    assert isinstance(listed, np.ndarray) and listed.shape == (3,)


def _selection_is_private(p: np.ndarray, epsilon: float, delta: float) -> bool:
    """(ε, δ)-DP of releasing a partition with probability p(n), for the neighbours n and
    n − 1 (one user added or removed), on both outputs (released, not released)."""
    e = math.exp(epsilon)
    now, before = p[1:], p[:-1]
    slack = 1e-12
    return bool(
        np.all(now <= e * before + delta + slack)
        and np.all(before <= e * now + delta + slack)
        and np.all(1 - now <= e * (1 - before) + delta + slack)
        and np.all(1 - before <= e * (1 - now) + delta + slack)
    )


@pytest.mark.parametrize(("epsilon", "delta"), [(0.1, 1e-6), (1.0, 1e-5), (3.0, 0.01)])
def test_the_selection_is_epsilon_delta_private_and_a_broken_one_is_not(epsilon, delta) -> None:
    counts = np.arange(0, 3_000)
    p = dp.partition_selection_probability(counts, epsilon, delta)
    assert _selection_is_private(p, epsilon, delta)
    # the same selection run at twice the ε (a forgotten factor) breaks the guarantee
    broken = dp.partition_selection_probability(counts, 2 * epsilon, delta)
    assert not _selection_is_private(broken, epsilon, delta)
    # with m partitions per user, each one is private at ε/m, δ/m
    p3 = dp.partition_selection_probability(counts, epsilon, delta, 3)
    assert _selection_is_private(p3, epsilon / 3, delta / 3)


def test_no_private_selection_releases_more_often() -> None:
    # Optimality for m = 1: raising any p(n) by a little breaks a constraint against p(n−1)
    epsilon, delta = 1.0, 1e-5
    counts = np.arange(0, 200)
    p = dp.partition_selection_probability(counts, epsilon, delta)
    for n in (1, 2, 10, 25, 60):
        raised = p.copy()
        raised[n] = min(1.0, raised[n] + 1e-9)
        if raised[n] > p[n]:
            assert not _selection_is_private(raised, epsilon, delta), n


def test_the_release_probability_grows_to_one() -> None:
    p = dp.partition_selection_probability(np.arange(0, 100), 1.0, 1e-5)
    assert np.all(np.diff(p) >= 0) and p[-1] == 1.0
    # the smallest group released half the time is found where the lesson says it is
    half = int(np.argmax(p >= 0.5))
    assert p[half - 1] < 0.5 <= p[half]


# --- laplace_partition_threshold ---------------------------------------------------------------


@pytest.mark.parametrize(("epsilon", "delta", "m"), [(1.0, 0.05, 1), (0.5, 0.1, 2), (2.0, 0.02, 4)])
def test_a_partition_of_one_user_passes_the_threshold_with_probability_delta_over_m(
    epsilon, delta, m
) -> None:
    tau = dp.laplace_partition_threshold(epsilon, delta, m)
    # exactly: P(1 + Lap(m/ε) ≥ τ) = ½·e^(−(τ − 1)ε/m) = δ/m
    assert 0.5 * math.exp(-(tau - 1) * epsilon / m) == pytest.approx(delta / m, rel=1e-12)
    # and by simulation, within 6 standard errors
    draws = 400_000
    noisy = 1 + np.random.default_rng(7).laplace(0.0, m / epsilon, size=draws)
    shown = np.mean(noisy >= tau)
    se = math.sqrt((delta / m) * (1 - delta / m) / draws)
    assert abs(shown - delta / m) <= Z * se


def test_the_threshold_rises_as_delta_falls_and_with_more_partitions() -> None:
    assert dp.laplace_partition_threshold(1.0, 1e-9) > dp.laplace_partition_threshold(1.0, 1e-5)
    assert dp.laplace_partition_threshold(1.0, 1e-5, 4) > dp.laplace_partition_threshold(1.0, 1e-5)


# --- bound_partitions --------------------------------------------------------------------------


def _rows(seed: int = 3, users: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """A heavy-tailed table: user u has 1 + Pareto rows spread over up to 12 places."""
    rng = np.random.default_rng(seed)
    per_user = 1 + np.minimum(rng.pareto(1.2, size=users) * 4, 200).astype(int)
    user_ids = np.repeat(np.arange(users), per_user)
    places = rng.integers(0, 12, size=user_ids.size)
    return user_ids, places


@pytest.mark.parametrize(("l0", "linf"), [(1, 1), (2, 3), (5, 1), (12, 50)])
def test_each_user_keeps_min_l0_d_partitions_and_min_linf_r_rows_in_each(l0, linf) -> None:
    users, places = _rows()
    kept = dp.bound_partitions(users, places, l0, linf, rng=1)
    assert kept.dtype == bool and kept.shape == users.shape
    for user in np.unique(users):
        mine = users == user
        rows = Counter(places[mine].tolist())
        kept_rows = Counter(places[mine & kept].tolist())
        assert len(kept_rows) == min(l0, len(rows)), user
        for place, count in kept_rows.items():
            assert count == min(linf, rows[place]), (user, place)


def test_one_user_moves_the_counts_by_at_most_l0_times_linf() -> None:
    users, places = _rows(seed=11)
    l0, linf = 3, 2
    kept = dp.bound_partitions(users, places, l0, linf, rng=4)
    counts = np.bincount(places[kept], minlength=12)
    for user in np.unique(users):
        without = np.bincount(places[kept & (users != user)], minlength=12)
        assert np.abs(counts - without).sum() <= l0 * linf


def test_a_user_keeps_each_partition_equally_often_whatever_its_row_count() -> None:
    # user 0: 50 rows in "a", 1 in "b", 1 in "c"; another user's rows around them. L0 = 1.
    users = ["me"] * 52 + ["other"] * 30
    places = ["a"] * 50 + ["b", "c"] + ["a", "b"] * 15
    rng = np.random.default_rng(5)
    me = np.array(users) == "me"
    chosen = Counter()
    for _ in range(3_000):
        kept = dp.bound_partitions(users, places, 1, 100, rng=rng)
        (place,) = set(np.array(places)[me & kept].tolist())
        chosen[place] += 1
    sample = np.array([{"a": 0, "b": 1, "c": 2}[k] for k in chosen.elements()])
    assert goodness_of_fit_pvalue(sample, np.full(3, 1 / 3)) > P_REJECT, chosen


def test_the_rows_kept_in_a_partition_are_a_uniform_subset() -> None:
    users, places = [7] * 5, ["x"] * 5
    rng = np.random.default_rng(9)
    subsets = Counter()
    for _ in range(4_000):
        kept = dp.bound_partitions(users, places, 1, 2, rng=rng)
        subsets[tuple(np.flatnonzero(kept).tolist())] += 1
    pairs = list(itertools.combinations(range(5), 2))
    assert set(subsets) == set(pairs)
    sample = np.array([pairs.index(s) for s in subsets.elements()])
    assert goodness_of_fit_pvalue(sample, np.full(10, 0.1)) > P_REJECT, subsets


def test_ids_are_kept_as_given_and_the_mask_is_in_input_order() -> None:
    # 1 and "1" are two users; strings and ints both work; a seed repeats the mask
    users = [1, "1", 1, "1"]
    places = ["p", "p", "q", "q"]
    kept = dp.bound_partitions(users, places, 1, 1, rng=0)
    assert kept.sum() == 2  # each of the two users keeps one partition, one row
    assert kept[[0, 2]].sum() == 1 and kept[[1, 3]].sum() == 1
    again = dp.bound_partitions(np.array([1, 2, 1, 2]), np.array([5, 5, 6, 6]), 1, 1, rng=0)
    assert again.tolist() == dp.bound_partitions([1, 2, 1, 2], [5, 5, 6, 6], 1, 1, rng=0).tolist()


def test_bad_tables_are_refused_with_the_parameter_named() -> None:
    with pytest.raises(ValueError, match="same length"):
        dp.bound_partitions([1, 2], [1], 1, 1)
    with pytest.raises(ValueError, match="user_ids must not be empty"):
        dp.bound_partitions([], [], 1, 1)
    with pytest.raises(ValueError, match="partition_keys must be 1-D"):
        dp.bound_partitions([1, 2, 3, 4], np.zeros((2, 2)), 1, 1)
    with pytest.raises(ValueError, match="user_ids must hold ids"):
        dp.bound_partitions([1, None], [1, 2], 1, 1)
    with pytest.raises(TypeError, match="partition_keys must hold ints or strings"):
        dp.bound_partitions([1, 2], [[1], [2]], 1, 1)
    with pytest.raises(ValueError, match="max_partitions"):
        dp.bound_partitions([1], [1], 0, 1)
