"""dp/renyi.py: Rényi DP curves and their conversion to (ε, δ), against the pinned facts of
the contract and against Google's dp-accounting (its RDP accountant's own functions) as an
independent reference; stable where a naive formula overflows."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from dp_accounting.rdp import rdp_privacy_accountant as accountant

import dp


def test_the_pinned_facts() -> None:
    assert dp.rdp_gaussian(2, 1) == 1.0
    assert dp.rdp_laplace(2, 1) == pytest.approx(0.619124, abs=5e-7)
    assert dp.rdp_randomized_response(2, 0.75) == pytest.approx(0.847298, abs=5e-7)
    assert dp.rdp_subsampled_gaussian(2, 1, 0.01) == pytest.approx(1.71813e-4, rel=1e-5)
    assert dp.rdp_subsampled_gaussian(8, 1.1, 0.01) == pytest.approx(5.84070e-4, rel=1e-5)
    orders = list(range(2, 257))
    curve = [100 * a / 32 for a in orders]  # the Gaussian with σ = 4, composed 100 times
    assert dp.rdp_to_dp(orders, curve, 1e-5)[0] == pytest.approx(14.1767, abs=5e-5)
    assert dp.rdp_to_dp(orders, curve, 1e-5, "classic")[0] == pytest.approx(15.1315, abs=5e-5)


@pytest.mark.parametrize("sigma", [0.5, 1.0, 1.1, 4.0])
@pytest.mark.parametrize("q", [0.001, 0.01, 0.1, 0.5, 1.0])
def test_the_subsampled_gaussian_is_dp_accountings(sigma, q) -> None:
    orders = np.arange(2, 65)
    ours = dp.rdp_subsampled_gaussian(orders, sigma, q)
    theirs = accountant._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("scale", [0.1, 0.5, 1.0, 3.0])
def test_the_laplace_is_dp_accountings(scale) -> None:
    for order in (1.5, 2.0, 7.0, 64.0):
        theirs = accountant._laplace_rdp(1.0 / scale, order)
        assert dp.rdp_laplace(order, scale) == pytest.approx(theirs, rel=1e-9)


@pytest.mark.parametrize("p", [0.55, 0.75, 0.9, 0.999])
def test_randomized_response_is_the_renyi_divergence_of_its_two_outputs(p) -> None:
    """D_α(Bern(p) ‖ Bern(1 − p)) summed directly, at orders where that is finite."""
    for order in (1.5, 2.0, 5.0, 20.0):
        direct = math.log(p**order * (1 - p) ** (1 - order) + (1 - p) ** order * p ** (1 - order))
        assert dp.rdp_randomized_response(order, p) == pytest.approx(direct / (order - 1))
    # and it is below pure ε = ln(p/(1 − p)), which it tends to as α grows
    epsilon = math.log(p / (1 - p))
    assert dp.rdp_randomized_response(255.0, p) <= epsilon
    assert dp.rdp_randomized_response(255.0, p) > 0.95 * epsilon


@pytest.mark.parametrize("seed", range(5))
def test_the_conversion_is_dp_accountings(seed) -> None:
    rng = np.random.default_rng(seed)
    orders = np.sort(rng.uniform(1.01, 300, size=40))
    curve = rng.uniform(0, 5, size=40) * orders / 10
    delta = float(10 ** rng.uniform(-10, -3))
    epsilon, order = dp.rdp_to_dp(orders, curve, delta)
    theirs, their_order = accountant.compute_epsilon(orders, curve, delta)
    assert epsilon == pytest.approx(theirs, rel=1e-9) and order == their_order
    classic = np.min(curve + math.log(1 / delta) / (orders - 1))
    assert dp.rdp_to_dp(orders, curve, delta, "classic")[0] == pytest.approx(classic)
    assert epsilon <= dp.rdp_to_dp(orders, curve, delta, "classic")[0]


def test_composition_adds_the_curves_and_a_wrong_curve_is_caught() -> None:
    """k Gaussian releases: k times the curve, whose conversion is dp-accounting's for the
    composed event; a curve not multiplied by k gives a smaller ε, which the check refuses."""
    import dp_accounting

    orders = np.arange(2, 129)
    k, sigma, delta = 50, 3.0, 1e-6
    ours = dp.rdp_to_dp(orders, k * dp.rdp_gaussian(orders, sigma), delta)[0]
    ledger = dp_accounting.rdp.RdpAccountant(list(orders))
    ledger.compose(dp_accounting.GaussianDpEvent(sigma), k)
    assert ours == pytest.approx(ledger.get_epsilon(delta), rel=1e-9)
    once = dp.rdp_to_dp(orders, dp.rdp_gaussian(orders, sigma), delta)[0]
    assert once != pytest.approx(ledger.get_epsilon(delta), rel=1e-3)


def test_large_orders_and_extreme_parameters_stay_finite_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isfinite(dp.rdp_laplace(256, 0.1))  # (α − 1)Δ/b = 2,550 > 709
        assert math.isfinite(dp.rdp_randomized_response(256, 0.999))
        big = dp.rdp_subsampled_gaussian(np.arange(38, 257), 1.0, 0.5)
        assert np.all(np.isfinite(big)) and np.all(np.diff(big) > 0)
        assert dp.rdp_subsampled_gaussian(3.0, 1.0, 0.1) == dp.rdp_subsampled_gaussian(3, 1, 0.1)
    assert isinstance(dp.rdp_gaussian(2.5, 1.0), float)
    assert dp.rdp_gaussian(np.array([2.0, 4.0]), 1.0).shape == (2,)
