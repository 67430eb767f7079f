"""dp/ at its edges (D1–D8 and the inverted interval): each call either raises a
ValueError/TypeError naming its parameter or returns the correct finite value — never
another exception, a wrong number or a numpy warning. Every case here failed before."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import dp
from dp._validate import MAX_CATEGORIES, MAX_DRAWS


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# --- D1: 0/0 ----------------------------------------------------------------------------------


def test_posterior_of_a_certain_prior_stays_certain_at_any_epsilon():
    assert dp.posterior_bound(0.0, 1000.0) == 0.0
    assert dp.posterior_bound(1.0, 1000.0) == 1.0
    assert dp.posterior_bound(0.5, 1000.0) == 1.0


# --- D2: e^ε beyond the largest float -------------------------------------------------------


@pytest.mark.parametrize(
    "call", [lambda: dp.likelihood_ratio_bound(710), lambda: dp.grr_oue_crossover_k(710)]
)
def test_exp_of_a_huge_epsilon_is_a_clear_error(call):
    with pytest.raises(ValueError, match="epsilon must be <= 70"):
        call()


def test_the_largest_epsilons_that_fit_still_work():
    assert dp.likelihood_ratio_bound(709) == pytest.approx(math.exp(709))
    assert dp.grr_oue_crossover_k(700) == pytest.approx(3 * math.exp(700) + 2)


def test_better_frequency_oracle_at_a_huge_epsilon_is_grr():
    assert dp.better_frequency_oracle(710, 5) == "GRR"
    assert dp.better_frequency_oracle(1e300, 50_000) == "GRR"
    # unchanged where the crossover is computable: k* = 3e + 2 ≈ 10.15
    assert dp.better_frequency_oracle(1.0, 10) == "GRR"
    assert dp.better_frequency_oracle(1.0, 11) == "OUE"


def test_queries_within_budget_that_cannot_be_counted():
    with pytest.raises(ValueError, match="total_epsilon / epsilon_per_query"):
        dp.queries_within_budget(1e308, 1e-10)
    assert dp.queries_within_budget(1e10, 1e-10) == 10**20


# --- D3: tiny ε -------------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [1e-14, 1e-16, 1e-100, 1e-170])
def test_local_count_std_is_exact_at_tiny_epsilon(epsilon):
    # sd = √n e^(ε/2)/(e^ε − 1) → √n/ε as ε → 0
    assert dp.local_count_std(100, epsilon) == pytest.approx(10 / epsilon, rel=1e-12)


def test_local_to_central_ratio_tends_to_root_half_n():
    assert dp.local_to_central_error_ratio(100, 1e-170) == pytest.approx(math.sqrt(50))
    expected = dp.local_count_std(100, 1.0) / dp.laplace_std(1, 1.0)
    assert dp.local_to_central_error_ratio(100, 1.0) == pytest.approx(expected, rel=1e-13)
    expected = dp.local_count_std(100, 50.0) / dp.laplace_std(1, 50.0)
    assert dp.local_to_central_error_ratio(100, 50.0) == pytest.approx(expected, rel=1e-12)
    assert 0 < dp.local_to_central_error_ratio(100, 1400.0) < 1e-290


def test_grr_estimate_at_tiny_epsilon_is_the_exact_finite_value():
    # ĉ_v = ((1 + (k−1)t) C_v − n t)/(1 − t), t = e^−ε: ≈ (k C_v − n)/ε
    estimate = dp.grr_estimate_from_counts([60, 40], 1e-17)
    np.testing.assert_allclose(estimate, [2e18, -2e18], rtol=1e-9)
    np.testing.assert_allclose(
        dp.grr_estimate_from_counts([60, 40], 1.0),
        dp.pure_estimate([60, 40], 100, *dp.grr_probabilities(1.0, 2)),
        rtol=1e-12,
    )


def test_variances_at_tiny_epsilon_are_finite_or_a_clear_error():
    assert dp.grr_variance(100, 1e-17, 2) == pytest.approx(100 * 4 * 0.25 / 1e-34, rel=1e-6)
    with pytest.raises(ValueError, match="epsilon is too small"):
        dp.oue_variance(1, 1e-170)
    assert dp.oue_variance(1, 1e-100) == pytest.approx(4 / 1e-200, rel=1e-9)
    with pytest.raises(ValueError, match="epsilon is too small"):
        dp.laplace_std(1, 1e-320)
    with pytest.raises(ValueError, match="epsilon is too small"):
        dp.laplace_variance(1, 1e-170)


# --- D4: the DP bound may not look broken --------------------------------------------------------


@pytest.mark.parametrize("lo", [-1e-282, 0.0, -1e-9, 0.4, 5.0, -30.0])
def test_laplace_event_ratio_never_exceeds_e_to_the_epsilon(lo):
    p, q, ratio = dp.laplace_event_probabilities(lo, lo + 1e-9, loc=0, loc_neighbour=1, scale=1)
    assert math.exp(-1) <= ratio <= math.exp(1)
    assert p > 0 and q > 0 and math.isfinite(p) and math.isfinite(q)


def test_narrow_interval_probabilities_are_precise():
    # P[Lap(1) ∈ [0, 1e-9]] = ½ (1 − e^(−1e-9)) ≈ 5e-10 (1 − 5e-10)
    p, _, _ = dp.laplace_event_probabilities(0.0, 1e-9, loc=0, loc_neighbour=1, scale=1)
    assert p == pytest.approx(-0.5 * math.expm1(-1e-9), rel=1e-12)
    p, _, _ = dp.laplace_event_probabilities(-1e-282, 1e-9, loc=0, loc_neighbour=1, scale=1)
    assert p == pytest.approx(-0.5 * math.expm1(-1e-9), rel=1e-12)


# --- D5, D6 -----------------------------------------------------------------------------------


def test_projection_onto_a_total_of_zero_is_all_zeros():
    np.testing.assert_array_equal(dp.project_counts([0, 1], 0), [0.0, 0.0])
    np.testing.assert_array_equal(dp.project_counts([[3, -1], [0, 1]], 0), [[0, 0], [0, 0]])
    assert dp.project_counts([0, 1], 1).sum() == 1.0


def test_huge_float_codes_do_not_collide():
    codes = np.array([[2.0**63], [2.0**63 + 4096], [2.0**63]])
    people, sizes = dp.equivalence_classes(codes)
    assert people.tolist() == [0, 1, 0] and sizes.tolist() == [2, 1]
    extreme = np.array([[np.iinfo(np.int64).min], [np.iinfo(np.int64).max]])
    assert dp.equivalence_classes(extreme)[1].tolist() == [1, 1]


def test_impossible_class_sizes_are_refused():
    with pytest.raises(ValueError, match="class_sizes"):
        dp.k_anonymity([1e308])


# --- D7: numbers beyond a float, 0-d arrays --------------------------------------------------


@pytest.mark.parametrize("huge", [10**400, Fraction(10**400), -(10**400)])
def test_a_number_too_large_for_a_float_is_a_value_error(huge):
    with pytest.raises(ValueError, match="sensitivity"):
        dp.laplace_scale(huge, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        dp.rr_keep_probability(huge)


@pytest.mark.parametrize(
    "call",
    [
        lambda: dp.l1_error(np.array(1.0), np.array(2.0)),
        lambda: dp.l2_error(np.array(1.0), np.array(2.0)),
        lambda: dp.audit_epsilon(np.array(1.0), np.array(2.0)),
    ],
)
def test_zero_dimensional_arrays_are_a_value_error(call):
    with pytest.raises(ValueError):
        call()


# --- D8: bounded allocations ------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: dp.laplace_mechanism(0.0, 1, 1, size=int(3e8)),
        lambda: dp.laplace_mechanism(0.0, 1, 1, size=2**53 + 1),
        lambda: dp.laplace_mechanism(0.0, 1, 1, size=(10_000, 10_000)),
        lambda: dp.gaussian_mechanism(0.0, 1, 1, 1e-5, size=MAX_DRAWS + 1),
        lambda: dp.sample_rr_counts(3, 10, 0.75, 0.75, size=MAX_DRAWS + 1),
        lambda: dp.differencing_attack_successes(5, 4, 1.0, tries=MAX_DRAWS + 1),
    ],
)
def test_draws_are_capped_with_a_message_naming_the_limit(call):
    with pytest.raises(ValueError, match="at most 10,000,000"):
        call()


def test_categories_are_capped():
    with pytest.raises(ValueError, match="at most 100,000 categories"):
        dp.grr_probabilities(1.0, MAX_CATEGORIES + 1)
    assert dp.grr_probabilities(1.0, MAX_CATEGORIES)[0] > 0


# --- the projector's interval --------------------------------------------


@pytest.mark.parametrize(("p", "q"), [(0.75, 0.75), (0.5, 0.75), (0.9, 0.6)])
def test_rr_interval_is_ordered_and_inside_zero_one_for_every_small_survey(p, q):
    inverted = []
    for n in range(1, 200):
        for yes in range(n + 1):
            estimate, low, high = dp.rr_confidence_interval(yes, n, p, q)
            if not 0.0 <= low <= high <= 1.0:
                inverted.append((n, yes, low, high))
            clipped = min(max(estimate, 0.0), 1.0)
            assert low - 1e-12 <= clipped <= high + 1e-12
    assert not inverted, inverted[:5]


def test_twelve_yes_on_coins_gives_an_estimate_of_150_percent_and_the_point_100():
    estimate, low, high = dp.rr_confidence_interval(12, 12, 0.75, 0.75)
    assert estimate == pytest.approx(1.5)
    assert (low, high) == (1.0, 1.0)


# --- item 3: sample_grr_counts without a k × k matrix for many categories -------------------


def test_many_category_grr_sampling_stays_small_in_memory():
    import tracemalloc

    counts = np.full(8_000, 3, dtype=np.int64)
    tracemalloc.start()
    try:
        reports = dp.sample_grr_counts(counts, 1.0, rng=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6, f"peak {peak / 1e6:.0f} MB (the k × k way needs 1 GB)"
    assert reports.sum() == counts.sum() and reports.min() >= 0


def test_many_category_grr_sampling_has_the_exact_moments():
    # k = 100 > SMALL_K: report_w = Bin(c_w, p) + Σ_{v≠w} Bin(c_v, q) in distribution, and
    # two reports covary as a sum of multinomials: −Σ_v c_v P(a|v) P(b|v)
    rng = np.random.default_rng(5)
    counts = rng.integers(0, 40, 100)
    counts[:3] = (300, 150, 0)
    epsilon, runs = 1.5, 40_000
    draws = dp.sample_grr_counts(counts, epsilon, size=runs, rng=6)
    p, q = dp.grr_probabilities(epsilon, counts.size)
    n = counts.sum()
    assert (draws.sum(axis=1) == n).all()
    mean = counts * p + (n - counts) * q
    variance = counts * p * (1 - p) + (n - counts) * q * (1 - q)
    se = np.sqrt(variance / runs)
    assert np.all(np.abs(draws.mean(axis=0) - mean) <= 6 * se)
    fourth = np.mean((draws - draws.mean(axis=0)) ** 4, axis=0)
    var_se = np.sqrt(np.maximum(fourth - variance**2, 1e-12) / runs)
    assert np.all(np.abs(draws.var(axis=0) - variance) <= 6 * var_se)
    a, b = draws[:, 0], draws[:, 1]
    cov = -(counts[0] * p * q + counts[1] * q * p + (n - counts[0] - counts[1]) * q * q)
    sample_cov = np.cov(a, b)[0, 1]
    cov_se = np.sqrt(np.var((a - a.mean()) * (b - b.mean())) / runs)
    assert abs(sample_cov - cov) <= 6 * cov_se
