"""The accuracy facts the lessons show: dp/accuracy.py (running averages, normalised error),
the error of dp/laplace.py's answers (SD, median, averaged), dp/composition.py's split
budget, dp/randomized_response.py's local count SD and dp/definition.py's posterior bound.
Exact values at hand-derived points, Monte Carlo checks within ~6 standard errors of the
known variance, and bad inputs."""

import math

import numpy as np
import pytest

import dp
from dp_helpers import Z

LN2, LN3 = math.log(2), math.log(3)


def close(expected):
    return pytest.approx(expected, rel=1e-9, abs=1e-12)


# --- exact values ---------------------------------------------------------------------------


def test_laplace_std_at_epsilon_one_is_root_two():
    # b = 1/1 = 1, Var = 2 b^2 = 2 -> sd = sqrt 2
    assert dp.laplace_std(1, 1) == close(math.sqrt(2))
    # b = 2 / 0.5 = 4 -> sd = 4 sqrt 2
    assert dp.laplace_std(2, 0.5) == close(4 * math.sqrt(2))


def test_laplace_median_abs_error_is_b_ln2():
    # P[|Lap(b)| > t] = e^(-t/b) = 1/2 -> t = b ln 2; b = 1/0.1 = 10
    assert dp.laplace_median_abs_error(1, 0.1) == close(10 * LN2)
    assert dp.laplace_abs_error_probability(0, 10 * LN2, sensitivity=1, epsilon=0.1) == close(0.5)


def test_laplace_abs_error_probability_exact_bins():
    # b = 1: P[0 <= |X| < 1] = 1 - e^-1; P[1 <= |X| < inf] = e^-1; bins sum to 1
    out = dp.laplace_abs_error_probability([0, 1], [1, np.inf], sensitivity=1, epsilon=1)
    assert out == pytest.approx([1 - math.exp(-1), math.exp(-1)], rel=1e-12)
    edges = np.logspace(-2, 5, 71)
    probs = dp.laplace_abs_error_probability(edges[:-1], edges[1:], sensitivity=1, epsilon=1)
    below = dp.laplace_abs_error_probability(0, edges[0], sensitivity=1, epsilon=1)
    assert probs.sum() + below == pytest.approx(1.0, abs=1e-12)


def test_split_budget_and_queries_within_budget():
    # 1 split over 4 queries: 0.25 each; 0.3 / 0.1 is 3 queries (not 2 by rounding)
    assert dp.split_budget(1, 4) == close(0.25)
    assert dp.queries_within_budget(0.3, 0.1) == 3
    assert dp.queries_within_budget(1, 0.3) == 3
    assert dp.queries_within_budget(1, 2) == 0


def test_averaged_laplace_std_shrinks_like_root_m():
    # sd of one answer sqrt 2 (eps = 1); average of 4 -> sqrt 2 / 2; of 100 -> sqrt 2 / 10
    assert dp.averaged_laplace_std(1, 1, 4) == close(math.sqrt(2) / 2)
    assert dp.averaged_laplace_std(1, 1, [1, 100]) == pytest.approx(
        [math.sqrt(2), math.sqrt(2) / 10], rel=1e-12
    )


def test_running_average():
    # (1) / 1, (1+2) / 2, (1+2+3) / 3, (1+2+3+6) / 4
    assert dp.running_average([1, 2, 3, 6]) == pytest.approx([1, 1.5, 2, 3])


def test_likelihood_ratio_and_posterior_bounds():
    assert dp.likelihood_ratio_bound(LN3) == close(3.0)
    # prior 1/2, e^eps = 3: 3 * 1/2 / (3 * 1/2 + 1/2) = 3/4
    assert dp.posterior_bound(0.5, LN3) == close(0.75)
    # prior 0.1, e^eps = 9 (eps = 2 ln 3, a group of 2 at ln 3): 0.9 / (0.9 + 0.9) = 1/2
    assert dp.posterior_bound(0.1, dp.group_privacy(LN3, 2)) == close(0.5)
    # the endpoints: nothing to learn about a certainty
    assert dp.posterior_bound(0.0, 5) == 0.0
    assert dp.posterior_bound(1.0, 5) == 1.0
    # no overflow for a very large epsilon
    assert dp.posterior_bound(0.01, 1000) == close(1.0)


def test_local_count_std_at_ln3():
    # eps = ln 3 -> p = 3/4, p(1-p) = 3/16, 2p - 1 = 1/2; n = 100:
    # sd = sqrt(100 * 3/16) / (1/2) = 5 sqrt 3;  closed form sqrt(n) e^(eps/2)/(e^eps - 1)
    # = 10 sqrt 3 / 2 = 5 sqrt 3
    assert dp.local_count_std(100, LN3) == close(5 * math.sqrt(3))
    # grows like sqrt(n): 100x the people, 10x the error
    assert dp.local_count_std([100, 10_000], LN3) == pytest.approx(
        [5 * math.sqrt(3), 50 * math.sqrt(3)], rel=1e-12
    )


@pytest.mark.parametrize("share", [0.0, 0.112, 0.5, 1.0])
def test_local_count_std_matches_rr_variance_for_any_share(share):
    # with p = q the variance does not depend on the true share
    n, eps = 32_561, 1.0
    p = dp.rr_keep_probability(eps)
    assert dp.local_count_std(n, eps) == close(n * math.sqrt(dp.rr_variance(share, n, p, p)))


def test_local_to_central_ratio_at_ln3():
    # (5 sqrt 3) / (sqrt 2 / ln 3) = 5 sqrt 3 ln 3 / sqrt 2 = 6.7276...
    expected = 5 * math.sqrt(3) * LN3 / math.sqrt(2)
    assert dp.local_to_central_error_ratio(100, LN3) == close(expected)
    assert expected == pytest.approx(6.7276, abs=1e-4)


def test_normalised_error():
    assert dp.normalised_error(36.5, 3650) == close(0.01)


# --- Monte Carlo ----------------------------------------------------------------------------


def test_local_count_std_matches_simulated_surveys():
    # Sales question: 3,650 of 32,561, eps = 1. The sample variance of R estimates has
    # standard error ~ sigma^2 sqrt(2 / (R - 1)) (near-normal estimates).
    n, truth, eps, reps = 32_561, 3_650, 1.0, 20_000
    p = dp.rr_keep_probability(eps)
    counts = dp.sample_rr_counts(truth, n, p, p, size=reps, rng=11)
    estimates = n * dp.estimate_proportion_from_counts(counts, n, p, p)
    sigma2 = dp.local_count_std(n, eps) ** 2
    se = sigma2 * math.sqrt(2 / (reps - 1))
    assert abs(estimates.var(ddof=1) - sigma2) <= Z * se
    # unbiased: the mean within 6 SE of the truth
    assert abs(estimates.mean() - truth) <= Z * math.sqrt(sigma2 / reps)


def test_averaged_laplace_std_matches_simulation():
    # the average of m = 25 answers at eps = 0.5; Var of the average = 2 b^2 / m.
    # The sample variance's SE for a non-normal average: sqrt((mu4 - sigma^4) / R), and
    # the average of 25 Laplaces has excess kurtosis 3/25, so mu4 = (3 + 3/25) sigma^4.
    eps, m, reps = 0.5, 25, 40_000
    answers = dp.laplace_mechanism(100, 1, eps, size=(reps, m), rng=12)
    averages = answers.mean(axis=1)
    sigma2 = dp.averaged_laplace_std(1, eps, m) ** 2
    se = sigma2 * math.sqrt((3 + 3 / 25 - 1) / reps)
    assert abs(averages.var(ddof=1) - sigma2) <= Z * se


def test_laplace_abs_error_probability_matches_simulation():
    # share of |noise| in [b/2, 2b) vs the exact probability; binomial SE sqrt(pi(1-pi)/R)
    eps, reps = 0.2, 200_000
    b = dp.laplace_scale(1, eps)
    noise = dp.laplace_mechanism(0, 1, eps, size=reps, rng=13)
    share = np.mean((np.abs(noise) >= b / 2) & (np.abs(noise) < 2 * b))
    pi = dp.laplace_abs_error_probability(b / 2, 2 * b, sensitivity=1, epsilon=eps)
    assert pi == close(math.exp(-0.5) - math.exp(-2))
    assert abs(share - pi) <= Z * math.sqrt(pi * (1 - pi) / reps)


# --- bad inputs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: dp.laplace_std(1, 0), ValueError, "epsilon"),
        (lambda: dp.laplace_std(1, "1"), TypeError, "epsilon"),
        (lambda: dp.laplace_median_abs_error(-1, 1), ValueError, "sensitivity"),
        (
            lambda: dp.laplace_abs_error_probability(-1, 1, sensitivity=1, epsilon=1),
            ValueError,
            "lo",
        ),
        (
            lambda: dp.laplace_abs_error_probability(2, 1, sensitivity=1, epsilon=1),
            ValueError,
            "lo",
        ),
        (
            lambda: dp.laplace_abs_error_probability(0, np.nan, sensitivity=1, epsilon=1),
            ValueError,
            "hi",
        ),
        (lambda: dp.split_budget(1, 0), ValueError, "queries"),
        (lambda: dp.split_budget(math.inf, 2), ValueError, "total_epsilon"),
        (lambda: dp.split_budget(1, 2.5), ValueError, "queries"),
        (lambda: dp.queries_within_budget(1, -0.1), ValueError, "epsilon_per_query"),
        (lambda: dp.averaged_laplace_std(1, 1, 0), ValueError, "answers"),
        (lambda: dp.averaged_laplace_std(1, 1, 1.5), ValueError, "answers"),
        (lambda: dp.running_average([]), ValueError, "answers"),
        (lambda: dp.running_average([1, np.inf]), ValueError, "answers"),
        (lambda: dp.running_average([[1, 2]]), ValueError, "answers"),
        (lambda: dp.likelihood_ratio_bound(True), TypeError, "epsilon"),
        (lambda: dp.posterior_bound(1.5, 1), ValueError, "prior"),
        (lambda: dp.posterior_bound(0.5, 0), ValueError, "epsilon"),
        (lambda: dp.local_count_std(0, 1), ValueError, "n"),
        (lambda: dp.local_count_std(["a"], 1), TypeError, "n"),
        (lambda: dp.local_count_std(100, math.nan), ValueError, "epsilon"),
        (lambda: dp.local_to_central_error_ratio(100, -1), ValueError, "epsilon"),
        (lambda: dp.normalised_error(1, 0), ValueError, "true_count"),
    ],
)
def test_bad_inputs_raise_naming_the_parameter(call, error, name):
    with pytest.raises(error, match=name):
        call()
