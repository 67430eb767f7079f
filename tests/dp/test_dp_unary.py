"""dp/unary.py: the GRR/OUE crossover k* = 3e^ε + 2 and OUE's variance (GRR's from
dp/kary.py), and dp/accuracy.py's histogram errors (L1, L2, after projection).
Exact values are derived by hand in the comment above each assertion."""

import math

import numpy as np
import pytest

import dp
from dp_helpers import assert_mean_close

LN2, LN3 = math.log(2), math.log(3)


def close(expected):
    return pytest.approx(expected, rel=1e-9, abs=1e-12)


# --- the crossover --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("epsilon", "k_star"),
    [
        (LN2, 8.0),  # 3·2 + 2
        (LN3, 11.0),  # 3·3 + 2
        (math.log(10), 32.0),  # 3·10 + 2
        (1.0, 3 * math.e + 2),  # 10.1548...
    ],
)
def test_crossover_is_three_e_to_the_epsilon_plus_two(epsilon, k_star):
    assert dp.grr_oue_crossover_k(epsilon) == close(k_star)


def test_crossover_at_epsilon_one_is_about_ten():
    assert dp.grr_oue_crossover_k(1.0) == pytest.approx(10.1548, abs=1e-4)


@pytest.mark.parametrize(("epsilon", "k"), [(LN2, 8), (LN3, 11), (math.log(10), 32)])
def test_grr_and_oue_variances_are_equal_at_the_crossover(epsilon, k):
    n = 32_561
    assert dp.grr_oue_crossover_k(epsilon) == close(k)
    grr = dp.grr_variance(n, epsilon, k)
    oue = dp.ue_variance(n, *dp.oue_probabilities(epsilon))
    assert grr == pytest.approx(oue, rel=1e-9)
    assert dp.oue_variance(n, epsilon) == pytest.approx(oue, rel=1e-9)


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 2.0, 5.0])
def test_grr_wins_below_the_crossover_and_oue_above(epsilon):
    n = 1_000
    k_star = dp.grr_oue_crossover_k(epsilon)
    oue = dp.oue_variance(n, epsilon)
    below, above = math.floor(k_star), math.floor(k_star) + 1
    if below >= 2:
        assert dp.grr_variance(n, epsilon, below) < oue
        assert dp.better_frequency_oracle(epsilon, below) == "GRR"
    assert dp.grr_variance(n, epsilon, above) > oue
    assert dp.better_frequency_oracle(epsilon, above) == "OUE"


def test_better_frequency_oracle_says_either_at_an_exact_tie():
    # ε = ln 2: k* = 8 exactly, both variances are n·8/1 = 8n.
    assert dp.better_frequency_oracle(LN2, 8) == "either"
    assert dp.oue_variance(1, LN2) == close(8.0)  # 4·2 / (2-1)²
    assert dp.grr_variance(1, LN2, 8) == close(8.0)  # (2 + 8 - 2) / (2-1)²


def test_oue_variance_exact_value_and_large_epsilon():
    # ε = ln 3: 4·3 / (3-1)² = 3 per person.
    assert dp.oue_variance(100, LN3) == close(300.0)
    # ε = 700: 4 e^ε / (e^ε - 1)² ≈ 4 e^(-700), tiny but finite and positive (no overflow).
    assert 0.0 < dp.oue_variance(1, 700.0) < 1e-300


def test_oue_variance_matches_a_monte_carlo_of_the_sampler():
    # A category with true count 0: its estimate has exactly the f = 0 variance.
    epsilon, reps = 1.0, 20_000
    p, q = dp.oue_probabilities(epsilon)
    true_counts = np.array([0, 600, 400])
    n = int(true_counts.sum())
    bits = dp.sample_ue_counts(true_counts, p, q, size=reps, rng=7)
    estimates = dp.ue_estimate_from_counts(bits, n, p, q)[:, 0]
    variance = dp.oue_variance(n, epsilon)
    # Mean check: unbiased around 0, SE from the known variance.
    assert_mean_close(estimates, 0.0, variance, label="OUE zero-count estimate")
    # Variance check: the sample variance of R near-normal draws has SE ≈ var·sqrt(2/R).
    assert abs(estimates.var() - variance) <= 6 * variance * math.sqrt(2 / reps)


# --- histogram errors ------------------------------------------------------------------------


def test_l1_and_l2_errors_of_one_histogram():
    # differences (3, -4, 0): L1 = 7, L2 = sqrt(9 + 16) = 5
    truth = [10, 20, 30]
    estimate = [13, 16, 30]
    assert dp.l1_error(estimate, truth) == close(7.0)
    assert dp.l2_error(estimate, truth) == close(5.0)
    assert isinstance(dp.l1_error(estimate, truth), float)


def test_errors_are_vectorised_over_repeated_surveys():
    truth = np.array([10.0, 20.0])
    estimates = np.array([[10.0, 20.0], [13.0, 24.0], [7.0, 16.0]])
    np.testing.assert_allclose(dp.l1_error(estimates, truth), [0.0, 7.0, 7.0])
    np.testing.assert_allclose(dp.l2_error(estimates, truth), [0.0, 5.0, 5.0])


def test_projection_never_increases_the_l2_error():
    # Projection onto {x >= 0, Σx = n} is onto a convex set containing the truth, so it
    # cannot move an estimate further from the truth in L2.
    truth = np.array([0, 5, 40, 955])
    counts = dp.sample_grr_counts(truth, 0.5, size=500, rng=3)
    raw = dp.grr_estimate_from_counts(counts, 0.5)
    projected = dp.project_counts(raw, int(truth.sum()))
    assert np.all(dp.l2_error(projected, truth) <= dp.l2_error(raw, truth) + 1e-9)


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_epsilon_raises_value_error_naming_epsilon(bad):
    for call in (
        lambda: dp.grr_oue_crossover_k(bad),
        lambda: dp.oue_variance(10, bad),
        lambda: dp.better_frequency_oracle(bad, 4),
    ):
        with pytest.raises(ValueError, match="epsilon"):
            call()


@pytest.mark.parametrize("bad", ["1", None, True])
def test_non_number_epsilon_raises_type_error_naming_epsilon(bad):
    with pytest.raises(TypeError, match="epsilon"):
        dp.grr_oue_crossover_k(bad)


def test_bad_k_and_n_are_named():
    with pytest.raises(ValueError, match="k"):
        dp.better_frequency_oracle(1.0, 1)
    with pytest.raises(ValueError, match="k"):
        dp.better_frequency_oracle(1.0, 2.5)
    with pytest.raises(ValueError, match="n"):
        dp.oue_variance(0, 1.0)
    with pytest.raises(TypeError, match="n"):
        dp.oue_variance(True, 1.0)


def test_errors_reject_mismatched_or_bad_arrays():
    with pytest.raises(ValueError, match="estimates"):
        dp.l1_error([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="estimates"):
        dp.l2_error([1.0, float("nan")], [1.0, 2.0])
    with pytest.raises(ValueError, match="truth"):
        dp.l1_error([1.0, 2.0], [[1.0, 2.0]])
    with pytest.raises(TypeError, match="truth"):
        dp.l2_error([1.0, 2.0], ["a", "b"])
    with pytest.raises(ValueError, match="estimates"):
        dp.l1_error([], [])


# --- SUE against OUE: the share above which SUE is more precise ------------------------------


@pytest.mark.parametrize(("epsilon", "expected"), [(1.0, 0.2350), (2.0, 0.1966), (5.0, 0.0701)])
def test_oue_sue_threshold_at_known_points(epsilon, expected):
    # f* = e^(ε/2) / (1 + e^(ε/2))², derived in the docstring; the lecturer's check values.
    assert dp.oue_sue_share_threshold(epsilon) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 3.0, 8.0])
def test_at_the_threshold_sue_and_oue_have_equal_variance(epsilon):
    f = dp.oue_sue_share_threshold(epsilon)
    sue = dp.ue_variance(10_000, *dp.sue_probabilities(epsilon), frequency=f)
    oue = dp.ue_variance(10_000, *dp.oue_probabilities(epsilon), frequency=f)
    assert sue == pytest.approx(oue, rel=1e-9)
    # below it OUE is more precise, above it SUE
    below, above = f / 2, min(1.0, f * 1.5)
    assert dp.ue_variance(10_000, *dp.oue_probabilities(epsilon), frequency=below) < dp.ue_variance(
        10_000, *dp.sue_probabilities(epsilon), frequency=below
    )
    assert dp.ue_variance(10_000, *dp.oue_probabilities(epsilon), frequency=above) > dp.ue_variance(
        10_000, *dp.sue_probabilities(epsilon), frequency=above
    )
