"""dp.sensitivity: clamping, the sensitivity of a sum, noisy sums and means, the bias/noise
trade-off and contribution bounding — exact values, unbiasedness, distributions, audits."""

import math

import numpy as np
import pytest
from scipy import stats

import dp

VALUES = np.array([-4.0, 1.0, 5.0, 12.0, 30.0])


# --- exact values ------------------------------------------------------------------------------


def test_clamp_moves_only_the_values_outside_the_window():
    assert dp.clamp(VALUES, 0.0, 10.0).tolist() == [0.0, 1.0, 5.0, 10.0, 10.0]
    assert dp.clamp([[1.0, 20.0]], 0.0, 10.0).tolist() == [[1.0, 10.0]]  # any shape


@pytest.mark.parametrize(
    ("lower", "upper", "add_remove", "replace"),
    [(0.0, 10.0, 10.0, 10.0), (-3.0, 10.0, 10.0, 13.0), (-20.0, 5.0, 20.0, 25.0), (2, 7, 7, 5)],
)
def test_sum_sensitivity_under_both_neighbour_relations(lower, upper, add_remove, replace):
    assert dp.sum_sensitivity(lower, upper) == add_remove
    assert dp.sum_sensitivity(lower, upper, neighbours="add_remove") == add_remove
    assert dp.sum_sensitivity(lower, upper, neighbours="replace") == replace


def test_sum_sensitivity_is_the_largest_change_one_person_makes():
    # brute force over a grid of datasets: add/remove one value, or replace one value
    rng = np.random.default_rng(7)
    lower, upper = -3.0, 10.0
    worst_add, worst_replace = 0.0, 0.0
    for _ in range(200):
        data = rng.uniform(-50, 50, size=5)
        person = rng.uniform(-50, 50)
        base = dp.clamp(data, lower, upper).sum()
        worst_add = max(worst_add, abs(dp.clamp(np.r_[data, person], lower, upper).sum() - base))
        changed = data.copy()
        changed[0] = person
        worst_replace = max(worst_replace, abs(dp.clamp(changed, lower, upper).sum() - base))
    assert worst_add <= dp.sum_sensitivity(lower, upper) + 1e-9
    assert worst_replace <= dp.sum_sensitivity(lower, upper, neighbours="replace") + 1e-9
    assert worst_add > 0.9 * dp.sum_sensitivity(lower, upper)  # and it is reached
    assert worst_replace > 0.9 * dp.sum_sensitivity(lower, upper, neighbours="replace")


def test_clamping_bias_at_known_points():
    assert dp.clamping_bias(VALUES, 0.0, 10.0) == pytest.approx(4.0 - 2.0 - 20.0)
    assert dp.clamping_bias(VALUES, -10.0, 100.0) == 0.0
    assert dp.clamping_bias([99_999.0, 0.0], 0.0, 5_000.0) == -94_999.0


def test_the_bias_curve_equals_clamping_bias_at_every_upper_bound():
    rng = np.random.default_rng(3)
    values = np.round(rng.exponential(1_000.0, size=2_000))
    uppers = np.array([6.0, 10.0, 500.0, 999.0, 1_000.0, 5_000.0, 20_000.0])
    curve = dp.clamping_bias_curve(values, 5.0, uppers)
    expected = [dp.clamping_bias(values, 5.0, upper) for upper in uppers]
    np.testing.assert_allclose(curve, expected, rtol=1e-12, atol=1e-6)
    assert dp.clamping_bias_curve(values, 5.0, 1_000.0) == pytest.approx(expected[4])


def test_expected_squared_error_is_bias_squared_plus_noise_variance():
    # bias −18 (see above), Δ = 10, b = 10 / 2 = 5: 324 + 2·25 = 374
    assert dp.clamped_sum_squared_error(VALUES, 0.0, 10.0, 2.0) == pytest.approx(374.0)
    assert dp.clamped_sum_squared_error(VALUES, 0.0, [10.0, 30.0], 2.0).tolist() == pytest.approx(
        [374.0, 16.0 + 2 * 15.0**2]
    )


def test_the_best_upper_bound_balances_bias_and_noise():
    values = np.r_[np.full(1_000, 10.0), [1_000.0]]  # one outlier
    uppers = np.array([5.0, 10.0, 1_000.0])
    # at ε = 1: clipping the outlier at 10 costs 990² + 2·10² = 980,300; keeping it costs
    # 2·1,000² = 2,000,000 in noise; U = 5 costs 5,995² in bias
    assert dp.best_clamp_upper(values, 0.0, 1.0, uppers) == 10.0
    assert dp.best_clamp_upper(values, 0.0, 1.0, [5.0, 10.0, 100.0, 1_000.0]) == 100.0
    # with a huge ε the noise is negligible, and no bias is best
    assert dp.best_clamp_upper(values, 0.0, 1_000.0, uppers) == 1_000.0


def test_contribution_bias_counts_the_rows_dropped():
    assert dp.contribution_bias([1, 3, 7], 2) == -(1 + 5)
    assert dp.contribution_bias([1, 3, 7], [1, 3, 7, 10]).tolist() == [-8.0, -4.0, 0.0, 0.0]


def test_bound_contributions_keeps_at_most_m_rows_of_each_person():
    ids = np.repeat(np.arange(50), np.arange(1, 51))  # person i has i + 1 rows
    keep = dp.bound_contributions(ids, 3, rng=1)
    kept = np.bincount(ids[keep], minlength=50)
    assert kept.tolist() == np.minimum(np.arange(1, 51), 3).tolist()
    assert keep.sum() == ids.size + dp.contribution_bias(np.arange(1, 51), 3)


def test_bound_contributions_picks_a_persons_rows_uniformly():
    ids = np.zeros(4, dtype=int)  # one person, four rows, keep one
    picks = np.array(
        [np.flatnonzero(dp.bound_contributions(ids, 1, rng=seed))[0] for seed in range(4000)]
    )
    observed = np.bincount(picks, minlength=4)
    assert stats.chisquare(observed).pvalue > 1e-4


# --- noisy sums and means: unbiased, Laplace, the ε split ----------------------------------------


def test_noisy_sum_is_unbiased_for_the_clamped_sum_not_the_true_sum():
    draws = 40_000
    epsilon, lower, upper = 0.5, 0.0, 10.0
    noisy = dp.noisy_sum(VALUES, lower, upper, epsilon, size=draws, rng=11)
    clamped = dp.clamp(VALUES, lower, upper).sum()
    se = math.sqrt(dp.laplace_variance(dp.sum_sensitivity(lower, upper), epsilon) / draws)
    assert abs(noisy.mean() - clamped) < 6 * se
    assert abs(noisy.mean() - VALUES.sum()) > 6 * se  # the clamping bias (−18) is real


def test_noisy_sum_noise_is_laplace_with_scale_sensitivity_over_epsilon():
    noisy = dp.noisy_sum(VALUES, -3.0, 10.0, 0.8, size=20_000, rng=5)
    clamped = dp.clamp(VALUES, -3.0, 10.0).sum()
    scale = dp.sum_sensitivity(-3.0, 10.0) / 0.8
    assert stats.kstest(noisy, stats.laplace(loc=clamped, scale=scale).cdf).pvalue > 1e-4
    # with lower −20 the sensitivity is max(|−20|, 10) = 20: a scale of 10/ε is told apart
    wider = dp.noisy_sum(VALUES, -20.0, 10.0, 0.8, size=20_000, rng=5)
    wrong = stats.laplace(loc=dp.clamp(VALUES, -20.0, 10.0).sum(), scale=10.0 / 0.8)
    assert stats.kstest(wider, wrong.cdf).pvalue < 1e-6


def test_one_noisy_sum_is_a_float_and_reproducible():
    first = dp.noisy_sum(VALUES, 0.0, 10.0, 1.0, rng=3)
    assert isinstance(first, float)
    assert first == dp.noisy_sum(VALUES, 0.0, 10.0, 1.0, rng=3)
    assert isinstance(dp.noisy_mean(VALUES, 0.0, 10.0, 1.0, rng=3), float)


def test_noisy_mean_spends_half_of_epsilon_on_each_part():
    # n = 400 values of 0.5 in [0, 1]: sum 200, count 400. With ε/2 each, the sum and the
    # count get Lap(2/ε); the delta method gives Var(mean) ≈ (Var S + μ² Var C) / n².
    values = np.full(400, 0.5)
    epsilon, draws = 1.0, 40_000
    parts = dp.noisy_mean_parts(values, 0.0, 1.0, epsilon, size=draws, rng=21)
    half_variance = dp.laplace_variance(1.0, epsilon / 2)  # 2·(2/ε)² = 8
    assert abs(parts.noisy_sum.mean() - 200.0) < 6 * math.sqrt(half_variance / draws)
    assert abs(parts.noisy_count.mean() - 400.0) < 6 * math.sqrt(half_variance / draws)
    # Var of a Laplace sample variance: (κ − 1)σ⁴/N with kurtosis κ = 6
    for part in (parts.noisy_sum, parts.noisy_count):
        assert part.var() == pytest.approx(half_variance, rel=6 * math.sqrt(5 / draws))
    predicted = (half_variance + 0.25 * half_variance) / 400**2
    assert parts.mean.var() == pytest.approx(predicted, rel=0.1)
    # the full ε on each part would have a quarter of that variance
    assert parts.mean.var() > 2 * predicted / 4


def test_noisy_mean_stays_within_the_bounds_even_when_the_count_is_tiny():
    means = dp.noisy_mean([5.0], 0.0, 10.0, 0.05, size=5_000, rng=2)
    assert means.min() >= 0.0 and means.max() <= 10.0
    assert np.all(np.isfinite(means))


def _sum_plus_count(values, epsilon, rng):
    """A post-processing of the released pair (noisy sum, noisy count): its audit is a lower
    bound on the ε of the pair."""
    parts = dp.noisy_mean_parts(values, 0.0, 1.0, epsilon, size=400_000, rng=rng)
    return parts.noisy_sum + parts.noisy_count


def test_audit_noisy_mean_stays_within_epsilon_and_catches_a_forgotten_split():
    # neighbours (add/remove): ten people with 0, and the same ten plus one with 1: the sum
    # and the count each move by 1, so the pair's privacy loss reaches ε only in the tails.
    d, d_prime = np.zeros(10), np.r_[np.zeros(10), 1.0]
    thresholds = np.linspace(5.0, 25.0, 41)
    epsilon = 1.0
    honest = dp.audit_epsilon(
        _sum_plus_count(d, epsilon, 1), _sum_plus_count(d_prime, epsilon, 2), thresholds=thresholds
    )
    assert honest <= epsilon
    # broken: the full ε spent on each part (as if claimed ε were 2ε), caught above ε
    broken = dp.audit_epsilon(
        _sum_plus_count(d, 2 * epsilon, 1),
        _sum_plus_count(d_prime, 2 * epsilon, 2),
        thresholds=thresholds,
    )
    assert broken > epsilon


def test_audit_noisy_sum_with_a_data_derived_bound_is_caught():
    # Setting U to the data's maximum makes the noise scale depend on one person: adding a
    # person with 100 to people with 1 multiplies the scale by 100. Claimed ε = 1; caught.
    d, d_prime = np.ones(5), np.r_[np.ones(5), 100.0]
    draws = 200_000
    honest_d = dp.noisy_sum(d, 0.0, 100.0, 1.0, size=draws, rng=3)
    honest_d_prime = dp.noisy_sum(d_prime, 0.0, 100.0, 1.0, size=draws, rng=4)
    leaky_d = dp.noisy_sum(d, 0.0, d.max(), 1.0, size=draws, rng=3)
    leaky_d_prime = dp.noisy_sum(d_prime, 0.0, d_prime.max(), 1.0, size=draws, rng=4)
    thresholds = np.linspace(-50.0, 150.0, 81)
    assert dp.audit_epsilon(honest_d, honest_d_prime, thresholds=thresholds) <= 1.0
    assert dp.audit_epsilon(leaky_d, leaky_d_prime, thresholds=thresholds) > 1.0
