"""dp/local_sensitivity.py against brute force over a small grid domain (n ≤ 6, values in
0..5, k ≤ 2), the definitions, exact refusal probabilities against simulation, and audits:
the smooth median and propose-test-release stay within their (ε, δ), a release scaled to the
local sensitivity is caught. Edge cases (even n, ties, every value at a bound) and bad inputs."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

import dp

GRID = tuple(range(6))  # the domain: values 0..5, lower = 0, upper = 5
LOW, HIGH = 0.0, 5.0


def median(values) -> float:
    x = sorted(values)
    return float(x[(len(x) + 1) // 2 - 1])


def local_sensitivity_brute(values) -> float:
    """max over one replacement (by any value of [lower, upper]: the extremes suffice, the
    median being monotone in each value) of |median(y) − median(x)|."""
    base = median(values)
    worst = 0.0
    for i in range(len(values)):
        for v in (LOW, HIGH):
            y = list(values)
            y[i] = v
            worst = max(worst, abs(median(y) - base))
    return worst


def multisets(n: int):
    return itertools.combinations_with_replacement(GRID, n)


def distance(x, y) -> int:
    """Replacements needed to turn multiset x into y."""
    cx, cy = Counter(x), Counter(y)
    return len(x) - sum(min(cx[v], cy[v]) for v in cx)


def a_k_brute(x, k: int) -> float:
    return max(local_sensitivity_brute(y) for y in multisets(len(x)) if distance(x, y) <= k)


SMALL = [
    (0, 0, 5),
    (1, 2, 3, 4),
    (0, 1, 1, 4, 5),
    (2, 2, 2, 2, 2, 2),
    (0, 0, 0, 5, 5, 5),
    (3,),
    (1, 4),
    (0, 5, 5, 5, 5),
    (0, 1, 2, 3, 4, 5),
    (5, 5, 5, 5),
]


@pytest.mark.parametrize("x", SMALL)
@pytest.mark.parametrize("k", [0, 1, 2])
def test_sensitivity_at_distance_matches_brute_force(x, k):
    assert dp.median_sensitivity_at_distance(list(x), LOW, HIGH, k) == a_k_brute(x, k)


@pytest.mark.parametrize("x", SMALL)
def test_local_sensitivity_is_a0_and_matches_one_replacement(x):
    assert dp.median_local_sensitivity(list(x), LOW, HIGH) == local_sensitivity_brute(x)


@pytest.mark.parametrize("x", SMALL[:7])
@pytest.mark.parametrize("beta", [0.1, 0.7, 2.0])
def test_smooth_sensitivity_matches_its_definition_over_the_whole_domain(x, beta):
    """S_β(x) = max over every dataset y of the domain of LS(y)·e^(−β·d(x, y))."""
    brute = max(
        local_sensitivity_brute(y) * math.exp(-beta * distance(x, y)) for y in multisets(len(x))
    )
    assert dp.median_smooth_sensitivity(list(x), LOW, HIGH, beta) == pytest.approx(brute)


@pytest.mark.parametrize("x", SMALL)
@pytest.mark.parametrize("bound", [0.0, 0.5, 1.0, 2.0, 3.0, 4.9, 5.0])
def test_distance_to_instability_matches_brute_force(x, bound):
    got = dp.median_distance_to_instability(list(x), LOW, HIGH, bound)
    if bound >= HIGH - LOW:
        assert got == math.inf
        return
    k = 0
    while a_k_brute(x, k) <= bound:
        k += 1
    assert got == k


def test_the_sensitivity_curve_rises_to_the_whole_range():
    values = [30.0, 31.0, 33.0, 35.0, 36.0, 40.0, 52.0]
    curve = dp.median_sensitivity_curve(values, 0.0, 100.0)
    assert curve[0] == dp.median_local_sensitivity(values, 0.0, 100.0) == 2.0
    assert np.all(np.diff(curve) >= 0) and curve[-1] == 100.0
    for k in range(len(values) + 1):
        assert curve[k] == dp.median_sensitivity_at_distance(values, 0.0, 100.0, k)
    assert dp.median_sensitivity_at_distance(values, 0.0, 100.0, 50) == 100.0  # k > n
    np.testing.assert_array_equal(dp.median_sensitivity_curve(values, 0.0, 100.0, 3), curve[:4])


def test_everyone_is_fast_enough_and_agrees_with_the_full_search():
    """32,561 ages: the early-stopping smooth sensitivity equals the plain maximum over the
    k it could reach, and the bisected distance equals a linear scan."""
    ages = np.random.default_rng(1).integers(17, 91, size=32_561).astype(float)
    beta = 0.05
    curve = dp.median_sensitivity_curve(ages, 0.0, 100.0, 400)
    plain = float(np.max(np.exp(-beta * np.arange(curve.size)) * curve))
    assert dp.median_smooth_sensitivity(ages, 0.0, 100.0, beta) == pytest.approx(plain)
    for bound in (0.0, 0.5):  # ages are whole years: A^(k) steps 0 → 1 → 2
        linear = int(np.flatnonzero(curve > bound)[0])
        assert dp.median_distance_to_instability(ages, 0.0, 100.0, bound) == linear


def test_smooth_median_noise_scale_is_2s_over_epsilon():
    values = np.array([18.0, 25, 31, 33, 40, 41, 47, 60, 72])
    epsilon, delta = 1.0, 1e-6
    beta = epsilon / (2 * math.log(2 / delta))
    s = dp.median_smooth_sensitivity(values, 0.0, 100.0, beta)
    assert dp.smooth_median_scale(values, 0.0, 100.0, epsilon, delta) == pytest.approx(2 * s)
    draws = dp.smooth_median(values, 0.0, 100.0, epsilon, delta, size=200_000, rng=3)
    noise = draws - 40.0  # the lower median of the nine values
    assert np.median(noise) == pytest.approx(0.0, abs=0.05 * 2 * s)
    # Laplace: mean |noise| = scale; its standard error is scale/√N
    assert np.mean(np.abs(noise)) == pytest.approx(2 * s, abs=6 * 2 * s / math.sqrt(200_000))


def test_even_n_ties_and_values_at_the_bounds():
    assert dp.clamped_median([1, 2, 3, 4], 0, 5) == 2.0  # the lower median
    assert dp.median_local_sensitivity([2, 2, 2, 2, 2], 0, 5) == 0.0  # ties: nothing moves
    assert dp.median_local_sensitivity([0, 0, 0, 0], 0, 5) == 0.0
    assert dp.median_local_sensitivity([5, 5, 5], 0, 5) == 0.0
    assert dp.median_local_sensitivity([-10, 50], 0, 5) == 5.0  # clamped to [0, 5]
    assert dp.smooth_median([5, 5, 5], 0, 5, 1.0, 1e-6, rng=0) != 5.0  # S > 0 even so


@pytest.mark.parametrize("distance_", [0.0, 3.0, 10.0, 14.0, 30.0])
def test_ptr_refusal_probability_exact_against_simulation(distance_):
    epsilon, delta = 1.0, 1e-6
    exact = dp.ptr_refusal_probability(distance_, epsilon, delta)
    rng = np.random.default_rng(int(distance_))
    refused = sum(
        dp.propose_test_release(10.0, distance_, 1.0, epsilon, delta, rng=rng) is None
        for _ in range(20_000)
    )
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / 20_000)
    assert refused / 20_000 == pytest.approx(exact, abs=6 * se)
    assert dp.ptr_refusal_probability(math.inf, epsilon, delta) == 0.0


def test_ptr_releases_the_value_with_laplace_noise_of_bound_over_epsilon():
    rng = np.random.default_rng(5)
    outputs = [
        dp.propose_test_release(40.0, math.inf, 2.0, 0.5, 1e-6, rng=rng) for _ in range(50_000)
    ]
    noise = np.array(outputs) - 40.0
    assert np.mean(np.abs(noise)) == pytest.approx(4.0, abs=6 * 4.0 / math.sqrt(50_000))


# --- audits on a neighbouring pair: x has LS = 50, its neighbour y has LS = 0 -----------------

X = np.array([0.0, 0.0, 0.0, 0.0, 50.0, 50.0, 50.0])
Y = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 50.0, 50.0])  # one 50 replaced by 0


def test_the_pair_is_neighbouring_and_their_local_sensitivities_differ():
    assert distance(tuple(X), tuple(Y)) == 1 or (X != Y).sum() == 1
    assert dp.median_local_sensitivity(X, 0, 100) == 50.0
    assert dp.median_local_sensitivity(Y, 0, 100) == 0.0


def test_a_release_scaled_to_the_local_sensitivity_is_caught():
    """median + Lap(LS/ε): y's release is exactly 0 every time, x's almost never is."""
    rng = np.random.default_rng(1)
    epsilon = 1.0

    def naive(values, runs):
        ls = dp.median_local_sensitivity(values, 0, 100)
        m = dp.clamped_median(values, 0, 100)
        return m + (rng.laplace(0.0, ls / epsilon, size=runs) if ls > 0 else np.zeros(runs))

    exact_zero_x = (naive(X, 50_000) == 0.0).astype(int)
    exact_zero_y = (naive(Y, 50_000) == 0.0).astype(int)
    assert dp.audit_epsilon(exact_zero_x, exact_zero_y) > 8  # as large as 50,000 runs show


def test_the_smooth_median_stays_within_its_epsilon_delta():
    epsilon, delta = 1.0, 1e-3
    a = dp.smooth_median(X, 0, 100, epsilon, delta, size=200_000, rng=11)
    b = dp.smooth_median(Y, 0, 100, epsilon, delta, size=200_000, rng=12)
    thresholds = np.linspace(-40, 40, 81)
    assert dp.audit_delta(a, b, epsilon, thresholds=thresholds) <= delta
    # on 7 people smoothing reaches out to every dataset within a few replacements: the
    # scale is above even the global Laplace scale (100 − 0)/ε; on 1,001 people far below
    assert dp.smooth_median_scale(X, 0, 100, epsilon, delta) > 100
    crowd = np.random.default_rng(0).integers(17, 91, size=1_001)
    assert dp.smooth_median_scale(crowd, 0, 100, epsilon, delta) < 5


def test_propose_test_release_stays_within_its_guarantee():
    """The test's refusals on x and y: distance differs by ≤ 1, so the refusal is ε-DP."""
    epsilon, delta, bound = 1.0, 1e-3, 10.0
    dx = dp.median_distance_to_instability(X, 0, 100, bound)
    dy = dp.median_distance_to_instability(Y, 0, 100, bound)
    assert abs(dx - dy) <= 1
    rng = np.random.default_rng(2)
    refused_x = [
        dp.propose_test_release(0.0, dx, bound, epsilon, delta, rng=rng) is None
        for _ in range(40_000)
    ]
    refused_y = [
        dp.propose_test_release(0.0, dy, bound, epsilon, delta, rng=rng) is None
        for _ in range(40_000)
    ]
    assert dp.audit_epsilon(np.array(refused_x), np.array(refused_y)) <= epsilon


def test_sample_and_aggregate_releases_a_noisy_mean_of_clamped_block_estimates():
    rng = np.random.default_rng(0)
    data = rng.normal(40.0, 10.0, size=1_000)
    release, blocks = dp.sample_and_aggregate(data, np.mean, 10, 0.0, 100.0, 1.0, rng=4)
    assert blocks.size == 10 and np.all((blocks >= 0) & (blocks <= 100))
    assert blocks.mean() == pytest.approx(data.mean(), abs=0.01)  # the blocks partition
    draws = [
        dp.sample_and_aggregate(data, np.mean, 10, 0.0, 100.0, 1.0, rng=s)[0] for s in range(2_000)
    ]
    # noise Lap((100 − 0)/(10·1)) = Lap(10): mean |noise| = 10
    assert np.mean(np.abs(np.array(draws) - data.mean())) == pytest.approx(10.0, rel=0.1)
    two_d = np.column_stack([data, 2 * data])
    _, slopes = dp.sample_and_aggregate(
        two_d, lambda b: np.polyfit(b[:, 0], b[:, 1], 1)[0], 5, 0.0, 5.0, 1.0, rng=1
    )
    assert slopes == pytest.approx(np.full(5, 2.0))


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dp.median_local_sensitivity([1.0], 5, 5), "lower"),
        (lambda: dp.median_local_sensitivity([1.0, float("nan")], 0, 5), "values"),
        (lambda: dp.median_local_sensitivity([], 0, 5), "values"),
        (lambda: dp.median_sensitivity_at_distance([1.0], 0, 5, -1), "k"),
        (lambda: dp.median_smooth_sensitivity([1.0], 0, 5, 0.0), "beta"),
        (lambda: dp.smooth_median([1.0], 0, 5, 1.0, 1.0), "delta"),
        (lambda: dp.smooth_median([1.0], 0, 5, 1.0, 0.0), "delta"),
        (lambda: dp.smooth_median([1.0], 0, 5, 0.0, 1e-6), "epsilon"),
        (lambda: dp.median_distance_to_instability([1.0], 0, 5, -1.0), "bound"),
        (lambda: dp.propose_test_release(1.0, 2.0, 0.0, 1.0, 1e-6), "bound"),
        (lambda: dp.propose_test_release(1.0, -1.0, 1.0, 1.0, 1e-6), "distance"),
        (lambda: dp.sample_and_aggregate([1.0, 2.0], np.mean, 3, 0, 5, 1.0), "blocks"),
        (lambda: dp.sample_and_aggregate([1.0, 2.0], np.mean, 0, 0, 5, 1.0), "blocks"),
        (lambda: dp.sample_and_aggregate([1.0, 2.0], "mean", 1, 0, 5, 1.0), "statistic"),
    ],
)
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()
