"""dp/postprocess.py: the bias that clipping a Laplace release at 0 adds, exact at known
points, against numerical integration and against simulation (within 6 standard errors, a
test that a wrong factor of 2 fails)."""

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dp


def test_the_pinned_values() -> None:
    assert dp.clipped_laplace_bias(0, 2.0) == 1.0  # b/2 at a true zero
    assert dp.clipped_laplace_bias(1.0, 1.0) == pytest.approx(0.5 * math.exp(-1.0))
    assert dp.clipped_laplace_bias(-1.0, 1.0) == pytest.approx(1.0 + 0.5 * math.exp(-1.0))
    out = dp.clipped_laplace_bias(np.array([[0.0, 3.0]]), 1.0)
    assert isinstance(out, np.ndarray) and out.shape == (1, 2)
    assert isinstance(dp.clipped_laplace_bias(2, 1.0), float)


@pytest.mark.parametrize(("count", "scale"), [(0.0, 1.0), (2.0, 1.0), (5.0, 10.0), (-3.0, 2.0)])
def test_it_is_the_integral_of_the_clipped_release(count, scale) -> None:
    density = stats.laplace(loc=count, scale=scale).pdf
    # E[max(X, 0)] = ∫_0^∞ x f(x) dx, split at the density's peak when it is above 0
    pieces = [(0.0, count), (count, np.inf)] if count > 0 else [(0.0, np.inf)]
    mean = sum(integrate.quad(lambda x: x * density(x), a, b)[0] for a, b in pieces)
    assert dp.clipped_laplace_bias(count, scale) == pytest.approx(mean - count, abs=1e-9)


def test_it_is_what_clipping_a_simulated_release_adds_and_a_wrong_factor_is_not() -> None:
    rng = np.random.default_rng(7)
    count, scale, draws = 1.0, 2.0, 400_000
    clipped = np.maximum(count + rng.laplace(scale=scale, size=draws), 0.0)
    se = clipped.std(ddof=1) / math.sqrt(draws)
    observed = clipped.mean() - count
    assert abs(observed - dp.clipped_laplace_bias(count, scale)) < 6 * se
    wrong = scale * math.exp(-count / scale)  # without the ½: the test must tell them apart
    assert abs(observed - wrong) > 6 * se


def test_it_falls_from_b_over_2_as_the_count_grows() -> None:
    counts = np.arange(0, 50)
    bias = dp.clipped_laplace_bias(counts, 3.0)
    assert bias[0] == pytest.approx(1.5) and np.all(np.diff(bias) < 0) and bias[-1] < 1e-6
