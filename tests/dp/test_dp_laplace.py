"""dp/laplace.py: the attacker's facts the Laplace lesson shows (events, best guess, median
errors), with dp/definition.py's posterior bound:
exact values at hand-derived points, Monte Carlo checks within 6 standard errors, bad inputs."""

import math

import numpy as np
import pytest

import dp
from dp_helpers import Z

# --- best_guess_accuracy: 1 - ½ e^(-ε / (2Δ)) ------------------------------------------------


def test_best_guess_accuracy_exact_values() -> None:
    # ε = 2 ln 2, Δ = 1: e^(-ln 2) = ½, so 1 - ½·½ = 3/4.
    assert dp.best_guess_accuracy(2 * math.log(2)) == pytest.approx(0.75, abs=1e-15)
    # ε = 1: 1 - ½ e^(-½) = 0.6967346701436833.
    assert dp.best_guess_accuracy(1.0) == pytest.approx(0.6967346701436833, rel=1e-14)
    # Δ = 2 halves the exponent: ε = 4 ln 2, Δ = 2 is the same as ε = 2 ln 2, Δ = 1.
    assert dp.best_guess_accuracy(4 * math.log(2), sensitivity=2) == pytest.approx(0.75)


def test_best_guess_accuracy_limits_and_vectorised() -> None:
    eps = np.array([1e-9, 0.1, 1.0, 10.0, 100.0])
    acc = dp.best_guess_accuracy(eps)
    assert isinstance(acc, np.ndarray) and acc.shape == (5,)
    assert acc[0] == pytest.approx(0.5, abs=1e-9)  # ε → 0: a coin flip
    assert acc[-1] == pytest.approx(1.0, abs=1e-15)  # ε → ∞: always right
    assert np.all(np.diff(acc) > 0)
    assert isinstance(dp.best_guess_accuracy(1.0), float)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_best_guess_accuracy_matches_simulation(epsilon: float) -> None:
    # Each world (true answer 0 or 1) with probability ½; guess 1 when y > ½.
    rng = np.random.default_rng(31)
    reps = 200_000
    truth = rng.integers(0, 2, size=reps)
    answers = dp.laplace_mechanism(0.0, 1.0, epsilon, size=reps, rng=rng) + truth
    right = np.mean((answers > 0.5) == (truth == 1))
    p = dp.best_guess_accuracy(epsilon)
    se = math.sqrt(p * (1 - p) / reps)  # binomial standard error
    assert abs(right - p) <= Z * se


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"epsilon": 0.0}, ValueError, "epsilon"),
        ({"epsilon": -1.0}, ValueError, "epsilon"),
        ({"epsilon": math.inf}, ValueError, "epsilon"),
        ({"epsilon": math.nan}, ValueError, "epsilon"),
        ({"epsilon": [1.0, 0.0]}, ValueError, "epsilon"),
        ({"epsilon": "1"}, TypeError, "epsilon"),
        ({"epsilon": True}, TypeError, "epsilon"),
        ({"epsilon": 1.0, "sensitivity": 0.0}, ValueError, "sensitivity"),
    ],
)
def test_best_guess_accuracy_rejects_bad_input(kwargs, error, name) -> None:
    with pytest.raises(error, match=name):
        dp.best_guess_accuracy(**kwargs)


# --- laplace_median_relative_error: b ln 2 / |truth| -------------------------------------------


def test_median_relative_error_exact_value() -> None:
    # b = 1/0.5 = 2; median |noise| = 2 ln 2; over a truth of 1,000: 2 ln 2 / 1000.
    assert dp.laplace_median_relative_error(1000, 1, 0.5) == pytest.approx(
        2 * math.log(2) / 1000, rel=1e-14
    )
    assert dp.laplace_median_abs_error(1, 0.5) == pytest.approx(2 * math.log(2))


def test_median_absolute_error_is_the_median_of_simulated_noise() -> None:
    # The sample median's SE is 1 / (2 f(m) √R); f(m) = e^(-m/b) / (2b) at m = b ln 2 for
    # the two-sided density of |noise| = e^(-x/b) / b, i.e. f = 1 / (2b).
    rng = np.random.default_rng(7)
    reps, epsilon = 100_000, 0.5
    b = 1 / epsilon
    noise = np.abs(dp.laplace_mechanism(0.0, 1, epsilon, size=reps, rng=rng))
    se = 1 / (2 * (1 / (2 * b)) * math.sqrt(reps))
    assert abs(np.median(noise) - dp.laplace_median_abs_error(1, epsilon)) <= Z * se


@pytest.mark.parametrize(
    ("args", "error", "name"),
    [
        ((0, 1, 1.0), ValueError, "true_value"),
        ((math.nan, 1, 1.0), ValueError, "true_value"),
        (("10", 1, 1.0), TypeError, "true_value"),
        ((10, 1, 0.0), ValueError, "epsilon"),
        ((10, 0, 1.0), ValueError, "sensitivity"),
    ],
)
def test_median_relative_error_rejects_bad_input(args, error, name) -> None:
    with pytest.raises(error, match=name):
        dp.laplace_median_relative_error(*args)


# --- posterior_bound (dp/accuracy.py): e^ε p / (e^ε p + 1 - p) ---------------------------------


def test_posterior_bound_exact_values() -> None:
    # p = ½, ε = ln 3: 3·½ / (3·½ + ½) = 3/4.
    assert dp.posterior_bound(0.5, math.log(3)) == pytest.approx(0.75, rel=1e-14)
    # p = 1%, ε = 10: e^10 · 0.01 / (e^10 · 0.01 + 0.99) = 0.99552…
    e10 = math.exp(10)
    assert dp.posterior_bound(0.01, 10) == pytest.approx(e10 * 0.01 / (e10 * 0.01 + 0.99))
    assert dp.posterior_bound(0.0, 5) == 0.0
    assert dp.posterior_bound(1.0, 5) == 1.0
    assert dp.posterior_bound(0.3, 1e-12) == pytest.approx(0.3)  # ε → 0: nothing learned
    assert dp.posterior_bound(0.3, 800) == pytest.approx(1.0)  # no overflow


def test_posterior_bound_is_reached_in_the_laplace_tail() -> None:
    # World D (count 1) with prior p, world D' (count 0) otherwise; ε = 1. For outputs
    # y >= 1 the likelihood ratio is exactly e^ε, so P[D | y >= 1] equals the bound.
    rng = np.random.default_rng(11)
    reps, prior, epsilon = 400_000, 0.2, 1.0
    in_d = rng.random(reps) < prior
    y = dp.laplace_mechanism(0.0, 1, epsilon, size=reps, rng=rng) + in_d
    tail = y >= 1
    share = in_d[tail].mean()
    p = dp.posterior_bound(prior, epsilon)
    se = math.sqrt(p * (1 - p) / tail.sum())
    assert abs(share - p) <= Z * se


@pytest.mark.parametrize(
    ("args", "error", "name"),
    [
        ((-0.1, 1.0), ValueError, "prior"),
        ((1.1, 1.0), ValueError, "prior"),
        ((math.nan, 1.0), ValueError, "prior"),
        ((0.5, 0.0), ValueError, "epsilon"),
        ((0.5, -2.0), ValueError, "epsilon"),
        ((0.5, "1"), TypeError, "epsilon"),
    ],
)
def test_posterior_bound_rejects_bad_input(args, error, name) -> None:
    with pytest.raises(error, match=name):
        dp.posterior_bound(*args)


# --- laplace_event_probabilities: P[F(D) ∈ Y], P[F(D') ∈ Y], ratio -------------------------------


def test_event_probabilities_exact_in_the_right_tail() -> None:
    # Y = [2, 3], loc = 1, loc' = 0, b = 1: P = ½(e^-1 - e^-2), P' = ½(e^-2 - e^-3), ratio e.
    p, q, ratio = dp.laplace_event_probabilities(2, 3, loc=1, loc_neighbour=0, scale=1)
    assert p == pytest.approx(0.5 * (math.exp(-1) - math.exp(-2)), rel=1e-13)
    assert q == pytest.approx(0.5 * (math.exp(-2) - math.exp(-3)), rel=1e-13)
    assert ratio == pytest.approx(math.e, rel=1e-13)


def test_event_probabilities_agree_with_the_interval_probability() -> None:
    for lo, hi in [(-3.0, -1.0), (-0.5, 0.7), (0.2, 4.0), (-10.0, 10.0)]:
        p, q, ratio = dp.laplace_event_probabilities(lo, hi, loc=1, loc_neighbour=0, scale=2)
        assert p == pytest.approx(dp.laplace_interval_probability(lo, hi, loc=1, scale=2))
        assert q == pytest.approx(dp.laplace_interval_probability(lo, hi, loc=0, scale=2))
        assert ratio == pytest.approx(p / q)
        assert math.exp(-0.5) - 1e-12 <= ratio <= math.exp(0.5) + 1e-12  # ε = 1/2


def test_event_ratio_stays_exact_far_in_the_tail() -> None:
    # b = 0.1, Y 4 to 8 units right of loc: P ~ 1e-18, where 1 - F(x) cancels to 0 in
    # double precision; the ratio is still e^(1/0.1) = e^10.
    p, q, ratio = dp.laplace_event_probabilities(4, 8, loc=0, loc_neighbour=-1, scale=0.1)
    assert p == pytest.approx(0.5 * (math.exp(-40) - math.exp(-80)), rel=1e-12)
    assert q > 0
    assert ratio == pytest.approx(math.exp(10), rel=1e-12)
    # and mirrored in the left tail: e^-10
    _, _, left = dp.laplace_event_probabilities(-9, -5, loc=0, loc_neighbour=-1, scale=0.1)
    assert left == pytest.approx(math.exp(-10), rel=1e-12)


def test_event_probability_matches_simulation() -> None:
    rng = np.random.default_rng(5)
    reps = 200_000
    y = dp.laplace_mechanism(1.0, 1, 0.7, size=reps, rng=rng)
    p, _, _ = dp.laplace_event_probabilities(0.5, 3.0, loc=1, loc_neighbour=0, scale=1 / 0.7)
    se = math.sqrt(p * (1 - p) / reps)
    assert abs(np.mean((y >= 0.5) & (y <= 3.0)) - p) <= Z * se


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "name"),
    [
        ((2, 2), {"loc": 0, "loc_neighbour": 1, "scale": 1}, ValueError, "lo"),
        ((3, 2), {"loc": 0, "loc_neighbour": 1, "scale": 1}, ValueError, "lo"),
        ((0, 2), {"loc": 0, "loc_neighbour": 1, "scale": 0}, ValueError, "scale"),
        ((0, 2), {"loc": math.nan, "loc_neighbour": 1, "scale": 1}, ValueError, "loc"),
        (("0", 2), {"loc": 0, "loc_neighbour": 1, "scale": 1}, TypeError, "lo"),
    ],
)
def test_event_probabilities_reject_bad_input(args, kwargs, error, name) -> None:
    with pytest.raises(error, match=name):
        dp.laplace_event_probabilities(*args, **kwargs)


# --- the sum of discrete Laplace noises (the class heist's interval) -------------------------
def _brute_half_width(epsilons, counts, confidence) -> int:
    """The half-width by direct convolution of the pmfs on a wide lattice."""
    support = np.arange(-3000, 3001)
    pmf = np.array([1.0])
    for epsilon, count in zip(epsilons, counts, strict=True):
        one = dp.discrete_laplace_pmf(support, epsilon)
        for _ in range(count):
            pmf = np.convolve(pmf, one)
    middle = len(pmf) // 2
    inside, width = pmf[middle], 0
    while inside < confidence:
        width += 1
        inside += pmf[middle + width] + pmf[middle - width]
    return width


@pytest.mark.parametrize(
    ("epsilons", "counts", "confidence"),
    [
        ([1.0], [1], 0.95),
        ([1.0], [2], 0.95),
        ([0.1], [2], 0.95),
        ([0.05], [1], 0.9),
        ([0.5, 0.2], [2, 4], 0.95),
        ([2.0], [6], 0.99),
        ([0.05], [6], 0.5),
    ],
)
def test_the_sums_half_width_equals_direct_convolution(epsilons, counts, confidence) -> None:
    got = dp.discrete_laplace_sum_half_width(epsilons, counts, confidence=confidence)
    assert got == _brute_half_width(epsilons, counts, confidence)


def test_one_noises_half_width_is_its_closed_form() -> None:
    """P[|K| ≤ w] = 1 − 2a^(w+1)/(1 + a) for one discrete Laplace noise (a = e^(−ε)): the
    smallest w reaching 95%."""
    for epsilon in (0.05, 0.3, 1.0, 3.0):
        a = math.exp(-epsilon)
        w = 0
        while 1 - 2 * a ** (w + 1) / (1 + a) < 0.95:
            w += 1
        assert dp.discrete_laplace_sum_half_width(epsilon, 1) == w


def test_the_sums_interval_covers_95_percent_of_simulated_sums() -> None:
    """200,000 sums of 20 noises at ε = 0.05: the share inside ±w is at least 95% and
    within 6 standard errors of it (the lattice makes it a little above)."""
    rng = np.random.default_rng(7)
    w = dp.discrete_laplace_sum_half_width(0.05, 20)
    sums = dp.discrete_laplace_mechanism(0, 0.05, size=(200_000, 20), rng=rng).sum(axis=1)
    inside = np.mean(np.abs(sums) <= w)
    below = np.mean(np.abs(sums) <= w - 1)
    se = math.sqrt(0.95 * 0.05 / 200_000)
    assert inside > 0.95 - 6 * se and below < 0.95 + 6 * se


def test_no_noise_has_no_width_and_a_scalar_count_broadcasts() -> None:
    assert dp.discrete_laplace_sum_half_width([0.5, 1.0], [0, 0]) == 0
    assert dp.discrete_laplace_sum_half_width([0.5, 0.5], 3) == dp.discrete_laplace_sum_half_width(
        0.5, 6
    )
