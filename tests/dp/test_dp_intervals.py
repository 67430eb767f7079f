"""dp/intervals.py: the interval for sampling error and Laplace noise together (the dp/ API
contract, round 4): each scale alone gives its textbook interval; the normal-Laplace
coverage formula matches numerical integration; the interval holds its confidence exactly,
and in simulation; and it is wider than either source alone."""

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dp
from dp_helpers import Z


def integrated_coverage(t: float, sd: float, b: float) -> float:
    """P(|Z + L| ≤ t), integrating the normal's interval probability over the Laplace
    density (an oracle independent of the closed form)."""

    def inside(noise: float) -> float:
        return (
            (stats.norm.cdf((t - noise) / sd) - stats.norm.cdf((-t - noise) / sd))
            * math.exp(-abs(noise) / b)
            / (2 * b)
        )

    half, _ = integrate.quad(inside, 0.0, math.inf, epsabs=1e-13, epsrel=1e-12, limit=200)
    return 2 * half  # symmetric in the noise


@pytest.mark.parametrize(
    ("t", "sd", "b"),
    [(1.0, 1.0, 1.0), (3.0, 0.5, 2.0), (10.0, 4.0, 0.3), (0.2, 2.0, 5.0), (50.0, 20.0, 1.0)],
)
def test_the_coverage_formula_is_the_convolution(t, sd, b) -> None:
    assert dp.noise_sampling_coverage(t, sd, b) == pytest.approx(
        integrated_coverage(t, sd, b), abs=1e-10
    )


def test_either_scale_alone_gives_its_textbook_interval() -> None:
    # Laplace: t = b·ln(1/(1 − c)) = 3·ln 20; normal: t = σ·Φ⁻¹(0.975) = 1.959964·2
    low, high = dp.noise_sampling_interval(100.0, 0.0, 3.0, 0.95)
    assert (high - 100.0) == pytest.approx(3 * math.log(20), rel=1e-12)
    assert (100.0 - low) == pytest.approx(high - 100.0)
    low, high = dp.noise_sampling_interval(-5.0, 2.0, 0.0, 0.95)
    assert (high + 5.0) == pytest.approx(2 * 1.959963984540054, rel=1e-12)


@pytest.mark.parametrize(
    ("sd", "b", "confidence"),
    [(1.0, 1.0, 0.95), (5.0, 0.5, 0.9), (0.2, 4.0, 0.99), (1000.0, 0.01, 0.95), (0.01, 100.0, 0.5)],
)
def test_the_interval_holds_exactly_its_confidence(sd, b, confidence) -> None:
    low, high = dp.noise_sampling_interval(0.0, sd, b, confidence)
    t = high
    assert low == -t
    assert dp.noise_sampling_coverage(t, sd, b) == pytest.approx(confidence, abs=1e-9)
    # wider than either source alone (Anderson's inequality), never NaN at extreme ratios
    alone_normal = sd * stats.norm.ppf(0.5 + confidence / 2)
    alone_laplace = -b * math.log1p(-confidence)
    assert t >= max(alone_normal, alone_laplace) * (1 - 1e-9)


def test_the_interval_covers_the_truth_as_often_as_it_says_in_simulation() -> None:
    rng = np.random.default_rng(21)
    sd, b, confidence, draws = 3.0, 2.0, 0.9, 200_000
    truth = 50.0
    releases = truth + rng.normal(0, sd, draws) + rng.laplace(0, b, draws)
    t = dp.noise_sampling_interval(0.0, sd, b, confidence)[1]
    covered = np.mean(np.abs(releases - truth) <= t)
    se = math.sqrt(confidence * (1 - confidence) / draws)
    assert abs(covered - confidence) <= Z * se
    # the sampling interval alone (the one a survey prints) covers less
    naive = sd * stats.norm.ppf(0.5 + confidence / 2)
    assert np.mean(np.abs(releases - truth) <= naive) < confidence - Z * se


def test_nothing_uncertain_and_bad_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="both be 0"):
        dp.noise_sampling_interval(1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="confidence"):
        dp.noise_sampling_interval(1.0, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="confidence"):
        dp.noise_sampling_interval(1.0, 1.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="laplace_scale"):
        dp.noise_sampling_interval(1.0, 1.0, -1.0)


@pytest.mark.parametrize(("sd", "b"), [(1e-300, 1.0), (1.0, 1e-300), (1e6, 1e-6), (1e-6, 1e6)])
def test_one_scale_vanishing_beside_the_other_gives_that_ones_interval(sd, b) -> None:
    t = dp.noise_sampling_interval(0.0, sd, b, 0.9)[1]
    alone = sd * stats.norm.ppf(0.95) if sd > b else -b * math.log1p(-0.9)
    assert t == pytest.approx(alone, rel=1e-6)
