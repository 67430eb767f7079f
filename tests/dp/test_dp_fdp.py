"""dp/fdp.py and dp/definition.advantage_bound (the dp/ API contract, round 4): the pinned
values; amplification by subsampling as the exact worst privacy loss of a Laplace count on a
Poisson sample; the trade-off functions against their definitions (the best test between two
normals, also simulated; the (ε, δ) region's edge); GDP's δ against the normal tails it
comes from; and the advantage bound as the trade-off line's largest TPR − FPR."""

import math

import numpy as np
import pytest
from scipy import stats

import dp
from dp_helpers import Z

# --- pinned values ------------------------------------------------------------------------------


def test_the_pinned_values() -> None:
    assert dp.advantage_bound(math.log(3)) == pytest.approx(0.5, abs=1e-15)
    assert dp.subsampled_privacy(1.0, 1e-5, 0.01)[0] == pytest.approx(0.0170369, abs=5e-8)
    assert dp.subsampled_privacy(1.0, 1e-5, 0.01)[1] == pytest.approx(1e-7, rel=1e-12)
    assert dp.gdp_delta(1.0, 1.0) == pytest.approx(0.126937, abs=5e-7)


# --- subsampling ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("epsilon", "q"), [(0.5, 0.1), (1.0, 0.01), (3.0, 0.3), (8.0, 0.5)])
def test_subsampling_is_the_exact_worst_loss_of_a_sampled_laplace_count(epsilon, q) -> None:
    # One person x, counted with Lap(1/ε) noise if the Poisson sample keeps them (prob. q):
    # with x the output density is q·lap(y − 1) + (1 − q)·lap(y), without x it is lap(y).
    # For y ≥ 1, lap(y − 1)/lap(y) = e^ε, so the ratio there is exactly 1 + q(e^ε − 1):
    # Balle et al.'s ε' is reached; the other direction stays below it.
    y = np.linspace(-30, 30, 60_001)
    lap = stats.laplace(scale=1 / epsilon).pdf
    with_x, without = q * lap(y - 1) + (1 - q) * lap(y), lap(y)
    bound, _ = dp.subsampled_privacy(epsilon, 0.0, q)
    assert np.max(np.log(with_x / without)) == pytest.approx(bound, rel=1e-9)
    assert np.max(np.log(without / with_x)) <= bound + 1e-12
    assert bound < epsilon
    # the rule of thumb "ε' = q·ε" is not a bound: the true loss exceeds it here
    if epsilon >= 3:
        assert np.max(np.log(with_x / without)) > q * epsilon


def test_subsampling_at_rate_one_changes_nothing_and_large_epsilon_does_not_overflow() -> None:
    assert dp.subsampled_privacy(2.0, 1e-6, 1.0) == pytest.approx((2.0, 1e-6))
    big, _ = dp.subsampled_privacy(800.0, 0.0, 0.01)
    assert big == pytest.approx(800.0 + math.log(0.01), rel=1e-12)


# --- trade-off functions -------------------------------------------------------------------------


def test_the_gaussian_tradeoff_is_the_best_test_between_two_normals() -> None:
    # Neyman–Pearson: reject "N(0, 1)" when x > c; α = P0(x > c), β = P1(x ≤ c) for N(μ, 1)
    mu = 1.5
    for alpha in (0.01, 0.1, 0.3, 0.7):
        c = stats.norm.ppf(1 - alpha)
        assert dp.gaussian_tradeoff(mu, alpha) == pytest.approx(stats.norm.cdf(c - mu), rel=1e-12)
    # and by simulation at α = 0.1
    rng = np.random.default_rng(3)
    draws = 200_000
    c = stats.norm.ppf(0.9)
    missed = np.mean(rng.normal(mu, 1.0, draws) <= c)
    beta = dp.gaussian_tradeoff(mu, 0.1)
    assert abs(missed - beta) <= Z * math.sqrt(beta * (1 - beta) / draws)


def test_tradeoff_functions_at_the_ends_and_as_arrays() -> None:
    alphas = np.linspace(0, 1, 11)
    g = dp.gaussian_tradeoff(2.0, alphas)
    f = dp.approx_dp_tradeoff(1.0, 0.01, alphas)
    assert g.shape == f.shape == (11,)
    assert g[0] == 1.0 and g[-1] == 0.0 and np.all(np.diff(g) <= 0)
    assert f[0] == pytest.approx(0.99) and f[-1] == 0.0 and np.all(np.diff(f) <= 1e-15)
    assert dp.gaussian_tradeoff(0.0, 0.3) == pytest.approx(0.7)  # μ = 0: no test beats a coin
    assert isinstance(dp.approx_dp_tradeoff(1.0, 0.0, 0.2), float)


def test_the_epsilon_delta_region_edge_and_its_largest_advantage() -> None:
    # the two lines of f meet at α* = (1 − δ)/(e^ε + 1); there TPR − FPR = 1 − β − α is largest
    for epsilon, delta in ((0.5, 0.0), (1.0, 1e-3), (math.log(3), 0.0), (4.0, 0.05)):
        alpha_star = (1 - delta) / (math.exp(epsilon) + 1)
        alphas = np.linspace(0, 1, 20_001)
        advantage = 1 - dp.approx_dp_tradeoff(epsilon, delta, alphas) - alphas
        assert np.max(advantage) == pytest.approx(dp.advantage_bound(epsilon, delta), abs=1e-4)
        at_star = 1 - dp.approx_dp_tradeoff(epsilon, delta, alpha_star) - alpha_star
        assert at_star == pytest.approx(dp.advantage_bound(epsilon, delta), rel=1e-12)


def test_a_membership_attack_inside_the_region_and_the_bound_is_not_beaten() -> None:
    # the advantage of the best test on one Laplace count (threshold ½) never exceeds the bound
    for epsilon in (0.1, 1.0, 3.0):
        tpr = 1 - 0.5 * math.exp(-epsilon / 2)  # P(1 + L > ½)
        fpr = 0.5 * math.exp(-epsilon / 2)  # P(0 + L > ½)
        assert tpr - fpr <= dp.advantage_bound(epsilon) + 1e-15


# --- Gaussian DP ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("mu", "epsilon"), [(0.5, 0.5), (1.0, 1.0), (2.0, 3.0), (0.3, 0.01)])
def test_gdp_delta_is_the_privacy_loss_tail_of_two_normals(mu, epsilon) -> None:
    # δ(ε) = P0(L > ε) − e^ε·P1(L > ε) with the loss L = μx − μ²/2 between N(μ, 1) and N(0, 1)
    threshold = (epsilon + mu * mu / 2) / mu  # L > ε ⟺ x > this
    p_mu = stats.norm.sf(threshold - mu)
    p_zero = stats.norm.sf(threshold)
    assert dp.gdp_delta(mu, epsilon) == pytest.approx(p_mu - math.exp(epsilon) * p_zero, abs=1e-14)


def test_gdp_delta_falls_with_epsilon_and_stays_finite() -> None:
    deltas = [dp.gdp_delta(1.0, e) for e in (0.1, 1.0, 3.0, 10.0, 700.0)]
    assert all(a > b for a, b in zip(deltas, deltas[1:-1], strict=False))
    assert deltas[-1] == 0.0


def test_the_clt_mu_of_dpsgd() -> None:
    # μ = q·sqrt(T(e^(1/σ²) − 1)): q = 0.01, T = 10,000, σ = 1 → 0.01·sqrt(10,000·(e − 1))
    assert dp.gdp_clt_mu(0.01, 10_000, 1.0) == pytest.approx(0.01 * math.sqrt(1e4 * math.expm1(1)))
    assert dp.gdp_clt_mu(0.01, 40_000, 1.0) == pytest.approx(2 * dp.gdp_clt_mu(0.01, 10_000, 1.0))
    with pytest.raises(ValueError, match="sigma"):
        dp.gdp_clt_mu(0.01, 10, 0.01)


def test_gdp_epsilon_inverts_gdp_delta_and_is_the_analytic_gaussians_epsilon() -> None:
    for mu, delta in ((0.5, 1e-5), (1.0, 1e-5), (2.0, 1e-10), (4.0, 1e-3)):
        epsilon = dp.gdp_epsilon(mu, delta)
        assert dp.gdp_delta(mu, epsilon) == pytest.approx(delta, rel=1e-8)
        # the Gaussian mechanism with Δ/σ = μ: the analytic σ for (ε, δ) gives Δ/σ back
        assert 1.0 / dp.analytic_gaussian_sigma(1.0, epsilon, delta) == pytest.approx(mu, rel=1e-7)
    # δ(0) = 2Φ(μ/2) − 1: a δ above it needs no ε at all
    assert dp.gdp_epsilon(0.1, 0.5) == 0.0
    with pytest.raises(ValueError, match="delta"):
        dp.gdp_epsilon(1.0, 0.0)
    with pytest.raises(ValueError, match="mu"):
        dp.gdp_epsilon(0.0, 1e-5)


# --- the audits and shapes ---------------------------------------------------------------


def _subsampled_laplace_counts(
    epsilon: float, q: float, with_x: bool, runs: int, rng
) -> np.ndarray:
    """A count of one person x (0 or 1) on a Poisson sample at rate q, plus Lap(1/ε): the
    mechanism run on the sample, drawn for real (who is sampled, then the noise)."""
    sampled = rng.random(runs) < q if with_x else np.zeros(runs, dtype=bool)
    return sampled.astype(float) + rng.laplace(0.0, 1.0 / epsilon, runs)


def test_an_audit_of_a_subsampled_laplace_count_stays_under_the_amplified_epsilon() -> None:
    rng = np.random.default_rng(54)
    epsilon, q, runs = 2.0, 0.2, 400_000
    amplified, _ = dp.subsampled_privacy(epsilon, 0.0, q)  # ln(1 + 0.2(e² − 1)) = 0.84
    thresholds = np.linspace(-1.0, 4.0, 11)
    with_x = _subsampled_laplace_counts(epsilon, q, True, runs, rng)
    without = _subsampled_laplace_counts(epsilon, q, False, runs, rng)
    found = dp.audit_epsilon(with_x, without, alpha=1e-6, thresholds=thresholds)
    assert 0.5 * amplified < found <= amplified  # close to ε', never above it
    # the broken claim: the same ε' for the mechanism run on everyone (no sampling) is beaten
    everyone = _subsampled_laplace_counts(epsilon, 1.0, True, runs, rng)
    broken = dp.audit_epsilon(everyone, without, alpha=1e-6, thresholds=thresholds)
    assert broken > amplified


def test_the_tradeoff_functions_are_convex_and_symmetric() -> None:
    alphas = np.linspace(0, 1, 2_001)
    for curve in (dp.gaussian_tradeoff(1.3, alphas), dp.approx_dp_tradeoff(0.7, 0.02, alphas)):
        # convex: second differences non-negative
        assert np.min(np.diff(curve, 2)) >= -1e-12
        # symmetric (f = f⁻¹): the curve's points (α, f(α)) are also (f(α), α) up to the grid
        inverse = np.interp(alphas, curve[::-1], alphas[::-1])
        np.testing.assert_allclose(inverse, curve, atol=2e-3)
        # never above the coin's line β = 1 − α
        assert np.all(curve <= 1 - alphas + 1e-12)
    # G_μ is exactly symmetric: G_μ(G_μ(α)) = α
    for alpha in (0.01, 0.2, 0.6):
        assert dp.gaussian_tradeoff(1.3, dp.gaussian_tradeoff(1.3, alpha)) == pytest.approx(alpha)


@pytest.mark.slow
def test_the_clt_mu_against_dp_accounting_at_a_large_t() -> None:
    # q = 0.01, σ = 2, T = 10,000: the CLT's ε at δ = 10⁻⁵ is within 5% of the PLD
    # accountant's (the regime the theorem is for: many steps, q√T moderate)
    sigma, q, steps, delta = 2.0, 0.01, 10_000, 1e-5
    clt = dp.gdp_epsilon(dp.gdp_clt_mu(q, steps, sigma), delta)
    pld = dp.dpsgd_epsilon(sigma, q, steps, delta, accountant="pld")
    assert abs(clt / pld - 1) < 0.05, (clt, pld)
    # and at a small T it is optimistic: below PLD's ε by far
    few = dp.gdp_epsilon(dp.gdp_clt_mu(q, 10, 0.7), delta)
    assert few < 0.5 * dp.dpsgd_epsilon(0.7, q, 10, delta, accountant="pld")
