"""Estimators are unbiased and their variance functions are right, by seeded Monte Carlo.

The truth is fixed (a fixed list of people); each repetition re-runs only the mechanism.
Tolerances: the mean of R estimates is within 6 standard errors sqrt(V / R), with V the
contract's variance function; the sample variance is within 6 standard errors of the
variance estimate, sqrt((m4 - s^4) / R) (see tests/dp_helpers.py).
"""

import numpy as np
import pytest

import dp
from dp_helpers import assert_mean_close, assert_variance_close

REPS = 2000


def fixed_truth(n, yes):
    truth = np.zeros(n, dtype=int)
    truth[:yes] = 1
    return truth


def rr_estimates(truth, p, q, seed, reps=REPS):
    """estimate_proportion on `reps` independent runs of randomized_response on `truth`."""
    rng = np.random.default_rng(seed)
    everyone = np.tile(truth, reps)  # reps copies of the same people, one vectorised call
    responses = np.asarray(dp.randomized_response(everyone, p, q, rng=rng)).reshape(reps, -1)
    return np.array([dp.estimate_proportion(row, p, q) for row in responses])


@pytest.mark.parametrize(
    ("p", "q"),
    [
        (0.75, 0.75),  # the coin-flip protocol
        (0.7, 0.6),  # asymmetric, p != q
        (0.9, 0.4),  # asymmetric, p + q = 1.3
        (0.3, 0.2),  # both below 1/2, p + q = 0.5 != 1: the estimator flips sign
        (0.1, 0.3),  # both below 1/2, p + q = 0.4
    ],
)
def test_estimate_proportion_is_unbiased(p, q):
    n, yes = 200, 70
    estimates = rr_estimates(fixed_truth(n, yes), p, q, seed=11)
    assert_mean_close(estimates, yes / n, dp.rr_variance(yes / n, n, p, q))


@pytest.mark.parametrize(("p", "q"), [(0.75, 0.75), (0.7, 0.6), (0.3, 0.2)])
def test_rr_variance_matches_monte_carlo(p, q):
    n, yes = 200, 70
    estimates = rr_estimates(fixed_truth(n, yes), p, q, seed=12)
    assert_variance_close(estimates, dp.rr_variance(yes / n, n, p, q))


def test_rr_variance_matches_monte_carlo_when_nobody_says_yes():
    n = 150
    estimates = rr_estimates(fixed_truth(n, 0), 0.8, 0.65, seed=13)
    assert_mean_close(estimates, 0.0, dp.rr_variance(0.0, n, 0.8, 0.65))
    assert_variance_close(estimates, dp.rr_variance(0.0, n, 0.8, 0.65))


def test_estimate_count_is_unbiased():
    n, yes, p, q = 120, 30, 0.85, 0.55
    rng = np.random.default_rng(14)
    truth = fixed_truth(n, yes)
    responses = np.asarray(dp.randomized_response(np.tile(truth, REPS), p, q, rng=rng))
    counts = [dp.estimate_count(row, p, q) for row in responses.reshape(REPS, n)]
    # count = n * proportion, so its variance is n^2 rr_variance
    assert_mean_close(counts, yes, n**2 * dp.rr_variance(yes / n, n, p, q))


# --- k-ary RR ---------------------------------------------------------------------------------


def grr_count_variance(true_counts, epsilon, k):
    """Variance of each grr_estimate count given the true counts c_v.

    C_v = Bin(c_v, p) + Bin(n - c_v, q), so Var = [c_v p(1-p) + (n - c_v) q(1-q)] / (p-q)^2
        = n q(1-q)/(p-q)^2 + c_v (1-p-q)/(p-q);  at c_v = 0 this is grr_variance(n, eps, k).
    """
    p, q = dp.grr_probabilities(epsilon, k)
    c = np.asarray(true_counts, dtype=float)
    n = c.sum()
    return (c * p * (1 - p) + (n - c) * q * (1 - q)) / (p - q) ** 2


def grr_estimates(true_counts, epsilon, seed, reps=REPS):
    k = len(true_counts)
    values = np.repeat(np.arange(k), true_counts)
    rng = np.random.default_rng(seed)
    reports = np.asarray(dp.grr_perturb(np.tile(values, reps), k, epsilon, rng=rng))
    reports = reports.reshape(reps, len(values))
    return np.array([dp.grr_estimate(row, k, epsilon) for row in reports])


@pytest.mark.parametrize(
    ("epsilon", "true_counts"), [(1.0, [200, 120, 80, 0]), (3.0, [50, 0, 250])]
)
def test_grr_estimate_is_unbiased(epsilon, true_counts):
    estimates = grr_estimates(true_counts, epsilon, seed=21)
    assert estimates.shape == (REPS, len(true_counts))
    k = len(true_counts)
    assert_mean_close(estimates, true_counts, grr_count_variance(true_counts, epsilon, k))


def test_grr_variance_matches_monte_carlo_at_a_true_count_of_zero():
    true_counts, epsilon = [200, 120, 80, 0], 1.0
    estimates = grr_estimates(true_counts, epsilon, seed=22)
    n, k = sum(true_counts), len(true_counts)
    assert_variance_close(estimates[:, 3], dp.grr_variance(n, epsilon, k))


def test_grr_count_variance_for_non_zero_counts_matches_monte_carlo():
    # checks the generalised formula used above (and so the sampler of grr_perturb)
    true_counts, epsilon = [200, 120, 80, 0], 1.0
    estimates = grr_estimates(true_counts, epsilon, seed=23)
    assert_variance_close(estimates, grr_count_variance(true_counts, epsilon, 4))


def test_grr_variance_is_the_generalised_variance_at_zero():
    assert dp.grr_variance(400, 1.0, 4) == pytest.approx(
        grr_count_variance([400, 0, 0, 0], 1.0, 4)[1], rel=1e-12
    )


# --- unary encoding -----------------------------------------------------------------------------


def ue_estimates(true_counts, p, q, seed, reps=1000):
    k = len(true_counts)
    values = np.repeat(np.arange(k), true_counts)
    bits = np.asarray(dp.ue_encode(np.tile(values, reps), k))
    rng = np.random.default_rng(seed)
    noisy = np.asarray(dp.ue_perturb(bits, p, q, rng=rng)).reshape(reps, len(values), k)
    return np.array([dp.ue_aggregate(block, p, q) for block in noisy])


def ue_count_variances(true_counts, p, q):
    n = sum(true_counts)
    return np.array([dp.ue_variance(n, p, q, c / n) for c in true_counts])


@pytest.mark.parametrize("scheme", ["sue", "oue"])
def test_ue_aggregate_is_unbiased(scheme):
    true_counts = [150, 90, 60, 0]
    p, q = getattr(dp, f"{scheme}_probabilities")(1.0)
    estimates = ue_estimates(true_counts, p, q, seed=31)
    assert_mean_close(estimates, true_counts, ue_count_variances(true_counts, p, q))


@pytest.mark.parametrize("scheme", ["sue", "oue"])
def test_ue_variance_matches_monte_carlo(scheme):
    true_counts = [150, 90, 60, 0]
    p, q = getattr(dp, f"{scheme}_probabilities")(1.0)
    estimates = ue_estimates(true_counts, p, q, seed=32)
    assert_variance_close(estimates, ue_count_variances(true_counts, p, q))


def test_ue_aggregate_is_unbiased_for_arbitrary_p_q():
    # p, q need not come from SUE/OUE; p < q is still a valid (inverting) encoding
    true_counts = [100, 200]
    for p, q in [(0.6, 0.1), (0.2, 0.7)]:
        estimates = ue_estimates(true_counts, p, q, seed=33)
        variances = ue_count_variances(true_counts, p, q)
        assert_mean_close(estimates, true_counts, variances, label=f"p={p}, q={q}")


def test_oue_beats_sue_at_zero_frequency_for_large_epsilon():
    # Wang et al. 2017: OUE minimises the f = 0 variance; at eps = 4 it is strictly smaller
    n = 1000
    assert dp.ue_variance(n, *dp.oue_probabilities(4.0)) < dp.ue_variance(
        n, *dp.sue_probabilities(4.0)
    )
