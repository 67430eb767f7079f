"""Aggregate samplers draw the same distribution as simulating every person and summing.

For each sampler: mean and variance against the exact formulas (6 standard errors, see
tests/dp_helpers.py), a chi-square goodness-of-fit test against the exact pmf, and a
chi-square homogeneity test against the per-person simulation. Chi-square tests reject
only below p = 1e-4; all draws are seeded.
"""

import numpy as np
import pytest

import dp
from dp_helpers import (
    P_REJECT,
    assert_mean_close,
    assert_variance_close,
    goodness_of_fit_pvalue,
    sum_of_binomials_pmf,
    two_sample_chi2_pvalue,
)

REPS = 5000


# --- binary RR -------------------------------------------------------------------------------


def rr_people_counts(true_yes, n, p, q, seed, reps=REPS):
    truth = np.zeros(n, dtype=int)
    truth[:true_yes] = 1
    responses = dp.randomized_response(np.tile(truth, reps), p, q, rng=np.random.default_rng(seed))
    return np.asarray(responses).reshape(reps, n).sum(axis=1)


RR_CASES = [(60, 200, 0.75, 0.75), (30, 150, 0.7, 0.6), (100, 100, 0.3, 0.2), (0, 80, 0.9, 0.4)]


@pytest.mark.parametrize(("true_yes", "n", "p", "q"), RR_CASES)
def test_sample_rr_counts_has_the_binomial_mean_and_variance(true_yes, n, p, q):
    draws = np.asarray(dp.sample_rr_counts(true_yes, n, p, q, size=REPS, rng=101))
    # Binomial(t, p) + Binomial(n - t, 1 - q)
    mean = true_yes * p + (n - true_yes) * (1 - q)
    variance = true_yes * p * (1 - p) + (n - true_yes) * q * (1 - q)
    assert_mean_close(draws, mean, variance)
    assert_variance_close(draws, variance)


@pytest.mark.parametrize(("true_yes", "n", "p", "q"), RR_CASES)
def test_sample_rr_counts_fits_the_exact_distribution(true_yes, n, p, q):
    draws = np.asarray(dp.sample_rr_counts(true_yes, n, p, q, size=REPS, rng=102))
    pmf = sum_of_binomials_pmf(true_yes, p, n - true_yes, 1 - q)
    assert goodness_of_fit_pvalue(draws, pmf) > P_REJECT


@pytest.mark.parametrize(("true_yes", "n", "p", "q"), RR_CASES)
def test_sample_rr_counts_matches_per_person_randomized_response(true_yes, n, p, q):
    draws = np.asarray(dp.sample_rr_counts(true_yes, n, p, q, size=REPS, rng=103))
    people = rr_people_counts(true_yes, n, p, q, seed=104)
    variance = true_yes * p * (1 - p) + (n - true_yes) * q * (1 - q)
    assert_mean_close(people, true_yes * p + (n - true_yes) * (1 - q), variance)
    assert_variance_close(people, variance)
    assert two_sample_chi2_pvalue(draws, people) > P_REJECT


# --- k-ary RR --------------------------------------------------------------------------------


def grr_people_counts(true_counts, epsilon, seed, reps=REPS):
    k = len(true_counts)
    values = np.repeat(np.arange(k), true_counts)
    reports = dp.grr_perturb(np.tile(values, reps), k, epsilon, rng=np.random.default_rng(seed))
    reports = np.asarray(reports).reshape(reps, len(values))
    return np.stack([(reports == v).sum(axis=1) for v in range(k)], axis=1)


def grr_marginal_moments(true_counts, epsilon):
    """Per value v: C_v = Bin(c_v, p) + Bin(n - c_v, q)."""
    k = len(true_counts)
    p, q = dp.grr_probabilities(epsilon, k)
    c = np.asarray(true_counts, dtype=float)
    n = c.sum()
    return c * p + (n - c) * q, c * p * (1 - p) + (n - c) * q * (1 - q)


GRR_CASES = [([100, 60, 40, 0], 1.0), ([20, 150, 30], 2.5)]


@pytest.mark.parametrize(("true_counts", "epsilon"), GRR_CASES)
def test_sample_grr_counts_rows_sum_to_n(true_counts, epsilon):
    draws = np.asarray(dp.sample_grr_counts(true_counts, epsilon, size=200, rng=201))
    assert np.all(draws.sum(axis=1) == sum(true_counts))
    assert np.all(draws >= 0)


@pytest.mark.parametrize(("true_counts", "epsilon"), GRR_CASES)
def test_sample_grr_counts_has_the_right_mean_and_variance(true_counts, epsilon):
    draws = np.asarray(dp.sample_grr_counts(true_counts, epsilon, size=REPS, rng=202))
    mean, variance = grr_marginal_moments(true_counts, epsilon)
    assert_mean_close(draws, mean, variance)
    assert_variance_close(draws, variance)


@pytest.mark.parametrize(("true_counts", "epsilon"), GRR_CASES)
def test_sample_grr_counts_marginals_fit_the_exact_distribution(true_counts, epsilon):
    draws = np.asarray(dp.sample_grr_counts(true_counts, epsilon, size=REPS, rng=203))
    p, q = dp.grr_probabilities(epsilon, len(true_counts))
    n = sum(true_counts)
    for v, c in enumerate(true_counts):
        pmf = sum_of_binomials_pmf(c, p, n - c, q)
        assert goodness_of_fit_pvalue(draws[:, v], pmf) > P_REJECT, f"value {v}"


@pytest.mark.parametrize(("true_counts", "epsilon"), GRR_CASES)
def test_sample_grr_counts_matches_per_person_grr_perturb(true_counts, epsilon):
    draws = np.asarray(dp.sample_grr_counts(true_counts, epsilon, size=REPS, rng=204))
    people = grr_people_counts(true_counts, epsilon, seed=205)
    mean, variance = grr_marginal_moments(true_counts, epsilon)
    assert_mean_close(people, mean, variance)
    assert_variance_close(people, variance)
    for v in range(len(true_counts)):
        assert two_sample_chi2_pvalue(draws[:, v], people[:, v]) > P_REJECT, f"value {v}"
    # the joint law too: differences of two counts depend on their covariance
    assert two_sample_chi2_pvalue(draws[:, 0] - draws[:, 1], people[:, 0] - people[:, 1]) > P_REJECT


def test_grr_perturb_lies_uniformly_over_the_other_values():
    # one true value 2 reported N times: report counts ~ Multinomial(N; q, q, p, q)
    k, epsilon, size = 4, 1.0, 200_000
    reports = np.asarray(dp.grr_perturb(np.full(size, 2), k, epsilon, rng=206))
    p, q = dp.grr_probabilities(epsilon, k)
    pmf = np.array([q, q, p, q])
    assert goodness_of_fit_pvalue(reports, pmf) > P_REJECT


# --- unary encoding ----------------------------------------------------------------------------


def ue_people_counts(true_counts, p, q, seed, reps=REPS):
    k = len(true_counts)
    values = np.repeat(np.arange(k), true_counts)
    bits = dp.ue_encode(np.tile(values, reps), k)
    noisy = dp.ue_perturb(bits, p, q, rng=np.random.default_rng(seed))
    return np.asarray(noisy).reshape(reps, len(values), k).sum(axis=1)


def ue_moments(true_counts, p, q):
    """Per bit i: Binomial(c_i, p) + Binomial(n - c_i, q)."""
    c = np.asarray(true_counts, dtype=float)
    n = c.sum()
    return c * p + (n - c) * q, c * p * (1 - p) + (n - c) * q * (1 - q)


UE_CASES = [([100, 60, 40], "sue", 1.0), ([30, 0, 120, 50], "oue", 2.0)]


def probabilities(scheme, epsilon):
    return getattr(dp, f"{scheme}_probabilities")(epsilon)


@pytest.mark.parametrize(("true_counts", "scheme", "epsilon"), UE_CASES)
def test_sample_ue_counts_has_the_right_mean_and_variance(true_counts, scheme, epsilon):
    p, q = probabilities(scheme, epsilon)
    draws = np.asarray(dp.sample_ue_counts(true_counts, p, q, size=REPS, rng=301))
    mean, variance = ue_moments(true_counts, p, q)
    assert_mean_close(draws, mean, variance)
    assert_variance_close(draws, variance)


@pytest.mark.parametrize(("true_counts", "scheme", "epsilon"), UE_CASES)
def test_sample_ue_counts_bits_fit_the_exact_distribution(true_counts, scheme, epsilon):
    p, q = probabilities(scheme, epsilon)
    draws = np.asarray(dp.sample_ue_counts(true_counts, p, q, size=REPS, rng=302))
    n = sum(true_counts)
    for i, c in enumerate(true_counts):
        pmf = sum_of_binomials_pmf(c, p, n - c, q)
        assert goodness_of_fit_pvalue(draws[:, i], pmf) > P_REJECT, f"bit {i}"


@pytest.mark.parametrize(("true_counts", "scheme", "epsilon"), UE_CASES)
def test_sample_ue_counts_matches_per_person_ue_perturb(true_counts, scheme, epsilon):
    p, q = probabilities(scheme, epsilon)
    draws = np.asarray(dp.sample_ue_counts(true_counts, p, q, size=REPS, rng=303))
    people = ue_people_counts(true_counts, p, q, seed=304)
    mean, variance = ue_moments(true_counts, p, q)
    assert_mean_close(people, mean, variance)
    assert_variance_close(people, variance)
    for i in range(len(true_counts)):
        assert two_sample_chi2_pvalue(draws[:, i], people[:, i]) > P_REJECT, f"bit {i}"


def test_ue_perturb_flips_each_bit_with_its_own_probability():
    # 100,000 people all with value 0 (k = 3): bit 0 is 1 w.p. p, bits 1 and 2 w.p. q.
    # 6-SE tolerance on each frequency: SE = sqrt(x(1-x)/N).
    p, q, size = 0.6, 0.15, 100_000
    noisy = np.asarray(dp.ue_perturb(dp.ue_encode(np.zeros(size, dtype=int), 3), p, q, rng=305))
    expected = np.array([p, q, q])
    assert_mean_close(noisy, expected, expected * (1 - expected))
