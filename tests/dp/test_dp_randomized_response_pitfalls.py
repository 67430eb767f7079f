"""dp/randomized_response.py: the fair-coin de-biasing 2Ŷ − ½ is biased for biased coins, the
correct (Ŷ + q − 1)/(p + q − 1) is not.

Monte Carlo tolerances: 6 standard errors sqrt(V / R) with V the known variance of one
estimate (tests/dp_helpers.py). For the wrong formula V = 4 Var(Ŷ), because it is 2Ŷ − ½,
and Var(C) = t p (1 − p) + (n − t) q (1 − q) for C = Binomial(t, p) + Binomial(n − t, 1 − q).
"""

import math

import numpy as np
import pytest

import dp
from dp_helpers import assert_mean_close

N, TRUE_YES = 32_561, 3_650  # the Sales question of the census
R = TRUE_YES / N
REPS = 2_000


def wrong_formula_variance(n, true_yes, p, q):
    """Var(2Ŷ − ½) = 4 Var(C) / n²."""
    var_count = true_yes * p * (1 - p) + (n - true_yes) * q * (1 - q)
    return 4.0 * var_count / n**2


def test_fair_coin_formula_at_a_hand_point():
    # 35 "yes" out of 100: 2 · 0.35 − 0.5 = 0.2 (and with fair coins E[Ŷ] = ¼ + 0.2/2 = 0.35).
    assert dp.fair_coin_formula_estimate(35, 100) == pytest.approx(0.2)


def test_fair_coin_formula_is_vectorised():
    out = dp.fair_coin_formula_estimate([0, 25, 100], 100)
    np.testing.assert_allclose(out, [-0.5, 0.0, 1.5])


def test_fair_coin_formula_equals_the_correct_estimator_for_fair_coins():
    p, q = dp.coin_flip_probabilities(0.5, 0.5)  # (¾, ¾)
    counts = np.arange(0, 1001, 37)
    np.testing.assert_allclose(
        dp.fair_coin_formula_estimate(counts, 1000),
        dp.estimate_proportion_from_counts(counts, 1000, p, q),
    )


def test_bias_at_a_hand_point():
    # h = 0.8, y = 0.5, r = 0.1: E[Ŷ] = 0.8·0.1 + 0.2·0.5 = 0.18, 2·0.18 − 0.5 = −0.14,
    # bias = −0.14 − 0.1 = −0.24 = (2·0.8 − 1)·0.1 + 2·0.2·0.5 − 0.5.
    assert dp.fair_coin_formula_bias(0.1, 0.8, 0.5) == pytest.approx(-0.24)


@pytest.mark.parametrize("r", [0.0, 0.1121, 0.5, 1.0])
def test_bias_is_zero_for_fair_coins_at_every_proportion(r):
    assert dp.fair_coin_formula_bias(r, 0.5, 0.5) == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize(("honest", "yes"), [(0.8, 0.3), (0.5, 0.2), (0.3, 0.5), (0.9, 0.9)])
def test_wrong_formula_is_biased_and_the_bias_is_as_derived(honest, yes):
    p, q = dp.coin_flip_probabilities(honest, yes)
    counts = dp.sample_rr_counts(TRUE_YES, N, p, q, size=REPS, rng=41)
    wrong = dp.fair_coin_formula_estimate(counts, N)
    variance = wrong_formula_variance(N, TRUE_YES, p, q)
    bias = dp.fair_coin_formula_bias(R, honest, yes)
    # The mean lands on r + bias (within 6 SE) ...
    assert_mean_close(wrong, R + bias, variance)
    # ... and the bias is far beyond what noise explains: the formula really is wrong here.
    assert abs(wrong.mean() - R) > 6 * math.sqrt(variance / REPS)


@pytest.mark.parametrize(("honest", "yes"), [(0.8, 0.3), (0.5, 0.2), (0.3, 0.5), (0.9, 0.9)])
def test_correct_debiasing_is_unbiased_for_the_same_coins(honest, yes):
    p, q = dp.coin_flip_probabilities(honest, yes)
    counts = dp.sample_rr_counts(TRUE_YES, N, p, q, size=REPS, rng=42)
    right = dp.estimate_proportion_from_counts(counts, N, p, q)
    assert_mean_close(right, R, dp.rr_variance(R, N, p, q))


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="n"):
        dp.fair_coin_formula_estimate(3, 0)
    with pytest.raises(ValueError, match="yes_counts"):
        dp.fair_coin_formula_estimate(11, 10)
    with pytest.raises(ValueError, match="yes_counts"):
        dp.fair_coin_formula_estimate(float("nan"), 10)
    with pytest.raises(TypeError, match="n"):
        dp.fair_coin_formula_estimate(3, "10")
    with pytest.raises(ValueError, match="honest"):
        dp.fair_coin_formula_bias(0.1, 1.5, 0.5)
    with pytest.raises(ValueError, match="yes"):
        dp.fair_coin_formula_bias(0.1, 0.5, -0.1)
    with pytest.raises(TypeError, match="proportion"):
        dp.fair_coin_formula_bias(True, 0.5, 0.5)
