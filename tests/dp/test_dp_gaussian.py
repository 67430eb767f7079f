"""dp.gaussian: approximate DP — the facts the dp/ contract pins, the exact δ against numerical
integration of the privacy loss, the analytic σ as the smallest that meets δ, zCDP and its
conversions against OpenDP, advanced composition by hand, the sampler by mean/variance/KS,
and privacy by an (ε, δ) audit that catches a σ 20% too small."""

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dp
from dp_helpers import P_REJECT, assert_mean_close, assert_variance_close

# --- the facts of the design --------------------------------------------------------------------


def test_classic_sigma_fact_of_the_design():
    # Δ = 1, ε = 0.5, δ = 1e-5: √(2 ln 125000) / 0.5
    assert dp.gaussian_sigma_classic(1, 0.5, 1e-5) == pytest.approx(9.6896, abs=5e-5)
    assert dp.gaussian_sigma_classic(1, 0.5, 1e-5) == pytest.approx(
        math.sqrt(2 * math.log(1.25e5)) / 0.5, rel=1e-15
    )


def test_classic_sigma_scales_with_sensitivity_and_inverse_epsilon():
    base = dp.gaussian_sigma_classic(1, 0.5, 1e-5)
    assert dp.gaussian_sigma_classic(3, 0.5, 1e-5) == pytest.approx(3 * base, rel=1e-14)
    assert dp.gaussian_sigma_classic(1, 0.25, 1e-5) == pytest.approx(2 * base, rel=1e-14)


@pytest.mark.parametrize(
    ("rho", "delta", "epsilon"),
    [(0.5, 1e-10, 6.8393), (2.56, 1e-10, 17.158)],
    ids=["rho-0.5", "census-persons-2.56"],
)
def test_zcdp_conversion_facts_of_the_design(rho, delta, epsilon):
    decimals = len(str(epsilon).split(".")[1])
    assert dp.zcdp_to_approx_dp(rho, delta) == pytest.approx(epsilon, abs=0.5 * 10**-decimals)


def test_zcdp_of_the_gaussian_and_of_pure_dp():
    assert dp.gaussian_zcdp_rho(1, 1) == 0.5
    assert dp.gaussian_zcdp_rho(2, 4) == pytest.approx(4 / 32, rel=1e-15)
    assert dp.pure_to_zcdp(1.0) == 0.5
    assert dp.pure_to_zcdp(0.2) == pytest.approx(0.02, rel=1e-15)
    sigma = dp.gaussian_sigma_for_rho(3.0, 0.125)
    assert dp.gaussian_zcdp_rho(3.0, sigma) == pytest.approx(0.125, rel=1e-14)
    assert dp.zcdp_compose([0.5, 0.25, 0.125]) == 0.875


# --- the exact δ ------------------------------------------------------------------------------

CASES = [(1.0, 1.0, 0.5), (3.73, 1.0, 1.0), (0.5, 1.0, 2.0), (10.0, 2.0, 0.1), (2.0, 3.0, 4.0)]


def _delta_by_integration(sigma: float, sensitivity: float, epsilon: float) -> float:
    """sup_S P[M(D) ∈ S] − e^ε P[M(D') ∈ S] = ∫ (p_D(y) − e^ε p_D'(y))₊ dy, with D at 0
    and D' at Δ; the integrand is positive exactly where the privacy loss exceeds ε."""
    p = stats.norm(0.0, sigma).pdf
    q = stats.norm(sensitivity, sigma).pdf
    # L(y) = (Δ² − 2yΔ)/(2σ²) > ε  <=>  y < Δ/2 − εσ²/Δ
    edge = sensitivity / 2 - epsilon * sigma**2 / sensitivity
    value, error = integrate.quad(
        lambda y: p(y) - math.exp(epsilon) * q(y), -np.inf, edge, epsabs=1e-14, epsrel=1e-12
    )
    assert error < 1e-9
    return value


def _delta_by_privacy_loss(sigma: float, sensitivity: float, epsilon: float) -> float:
    """δ = E[(1 − e^(ε − L))₊] with the privacy loss L ~ N(η, 2η), η = Δ²/(2σ²)."""
    mean, sd = dp.gaussian_privacy_loss_distribution(sensitivity, sigma)
    density = stats.norm(mean, sd).pdf
    value, _ = integrate.quad(
        lambda loss: (1 - math.exp(epsilon - loss)) * density(loss),
        epsilon,
        np.inf,
        epsabs=1e-14,
        epsrel=1e-12,
    )
    return value


@pytest.mark.parametrize(("sigma", "sensitivity", "epsilon"), CASES)
def test_gaussian_delta_matches_numerical_integration(sigma, sensitivity, epsilon):
    exact = dp.gaussian_delta(sigma, sensitivity, epsilon)
    assert exact == pytest.approx(_delta_by_integration(sigma, sensitivity, epsilon), rel=1e-7)
    assert exact == pytest.approx(_delta_by_privacy_loss(sigma, sensitivity, epsilon), rel=1e-7)


@pytest.mark.parametrize(("sigma", "sensitivity", "epsilon"), CASES)
def test_gaussian_delta_is_below_the_tail_of_the_privacy_loss(sigma, sensitivity, epsilon):
    # δ(ε) = P[L > ε] − e^ε P'[L > ε] <= P[L > ε]: δ is not simply the tail mass
    tail = dp.gaussian_loss_tail(sigma, sensitivity, epsilon)
    mean, sd = dp.gaussian_privacy_loss_distribution(sensitivity, sigma)
    assert tail == pytest.approx(stats.norm(mean, sd).sf(epsilon), rel=1e-9)
    assert dp.gaussian_delta(sigma, sensitivity, epsilon) < tail


@pytest.mark.parametrize(("sigma", "epsilon"), [(1.0, 10.0), (0.5, 40.0), (1.0, 30.0)])
def test_gaussian_delta_keeps_precision_far_in_the_tail(sigma, epsilon):
    # δ down to 1e-193: both terms are tiny and close; the difference keeps its digits
    mean, sd = dp.gaussian_privacy_loss_distribution(1.0, sigma)
    density = stats.norm(mean, sd).pdf
    reference, _ = integrate.quad(
        lambda loss: -math.expm1(epsilon - loss) * density(loss),
        epsilon,
        epsilon + 12 * sd,
        epsabs=0,
        epsrel=1e-12,
        limit=200,
    )
    assert 0 < reference < 1e-20
    assert dp.gaussian_delta(sigma, 1.0, epsilon) == pytest.approx(reference, rel=1e-9)


def test_gaussian_delta_curve_is_vectorised_and_falls_with_epsilon():
    epsilons = np.linspace(0.05, 8, 60)
    curve = dp.gaussian_delta(2.0, 1.0, epsilons)
    assert isinstance(curve, np.ndarray) and curve.shape == epsilons.shape
    assert np.all(np.diff(curve) < 0)
    for eps, value in zip(epsilons[::7], curve[::7], strict=True):
        assert value == pytest.approx(dp.gaussian_delta(2.0, 1.0, float(eps)), rel=1e-15)
    # depends on Δ and σ only through Δ/σ
    assert dp.gaussian_delta(6.0, 3.0, 1.0) == pytest.approx(dp.gaussian_delta(2.0, 1.0, 1.0))


# --- the analytic σ -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("epsilon", "delta"),
    [(0.01, 1e-10), (0.1, 1e-5), (0.5, 1e-5), (1.0, 1e-5), (2.0, 1e-6), (10.0, 1e-5), (1, 0.3)],
)
def test_analytic_sigma_is_the_smallest_that_meets_delta(epsilon, delta):
    sigma = dp.analytic_gaussian_sigma(1.0, epsilon, delta)
    assert dp.gaussian_delta(sigma, 1.0, epsilon) <= delta
    assert dp.gaussian_delta(sigma * (1 - 1e-9), 1.0, epsilon) > delta
    # and δ is met with almost no slack
    assert dp.gaussian_delta(sigma, 1.0, epsilon) == pytest.approx(delta, rel=1e-6)


def test_analytic_sigma_by_bisection_from_scratch():
    # An independent solver: bisection on σ with the integral above as δ(σ)
    lo, hi = 1.0, 20.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _delta_by_integration(mid, 1.0, 1.0) > 1e-5 else (lo, mid)
    assert dp.analytic_gaussian_sigma(1.0, 1.0, 1e-5) == pytest.approx(hi, rel=1e-6)
    assert hi == pytest.approx(3.7306, abs=1e-4)  # Balle & Wang 2018's example, Δ = 1


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 0.9, 0.999])
@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-10])
def test_analytic_sigma_never_exceeds_the_classic(epsilon, delta):
    analytic = dp.analytic_gaussian_sigma(1.0, epsilon, delta)
    classic = dp.gaussian_sigma_classic(1.0, epsilon, delta)
    assert analytic < classic
    # the classic σ does meet δ where its theorem holds
    assert dp.gaussian_delta(classic, 1.0, epsilon) <= delta


def test_analytic_sigma_scales_with_sensitivity():
    assert dp.analytic_gaussian_sigma(5.0, 1.0, 1e-5) == pytest.approx(
        5 * dp.analytic_gaussian_sigma(1.0, 1.0, 1e-5), rel=1e-12
    )


def test_classic_formula_beyond_epsilon_one_would_break_delta():
    # Why the classic theorem needs ε < 1: at larger ε its formula's σ (extrapolated)
    # fails to give the claimed δ.
    epsilon, delta = 15.0, 1e-5
    extrapolated = math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    assert dp.gaussian_delta(extrapolated, 1.0, epsilon) > delta
    with pytest.raises(ValueError, match="epsilon"):
        dp.gaussian_sigma_classic(1.0, epsilon, delta)


# --- the mechanism --------------------------------------------------------------------------


def test_gaussian_mechanism_is_unbiased_with_the_analytic_variance():
    sigma = dp.analytic_gaussian_sigma(2.0, 0.7, 1e-6)
    draws = dp.gaussian_mechanism(10.0, 2.0, 0.7, 1e-6, size=200_000, rng=4)
    assert_mean_close(draws, 10.0, sigma**2, label="gaussian mean")
    assert_variance_close(draws, sigma**2, label="gaussian variance")
    assert stats.kstest(draws, stats.norm(10.0, sigma).cdf).pvalue > P_REJECT


def test_gaussian_mechanism_shapes_and_types():
    assert isinstance(dp.gaussian_mechanism(1.0, 1.0, 1.0, 1e-5, rng=0), float)
    assert dp.gaussian_mechanism(1.0, 1.0, 1.0, 1e-5, size=7, rng=0).shape == (7,)
    vector = dp.gaussian_mechanism([1.0, 2.0, 3.0], 1.0, 1.0, 1e-5, rng=0)
    assert vector.shape == (3,)
    assert dp.gaussian_mechanism([1.0, 2.0], 1.0, 1.0, 1e-5, size=(4, 5), rng=0).shape == (4, 5, 2)
    a = dp.gaussian_mechanism(1.0, 1.0, 1.0, 1e-5, size=5, rng=7)
    np.testing.assert_array_equal(a, dp.gaussian_mechanism(1.0, 1.0, 1.0, 1e-5, size=5, rng=7))


# --- privacy by audit ---------------------------------------------------------------------------

AUDIT_EPSILON, AUDIT_DELTA, AUDIT_RUNS = 1.0, 0.01, 1_000_000


def _audit_samples(sigma: float, seed: int):
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, sigma, AUDIT_RUNS), rng.normal(1.0, sigma, AUDIT_RUNS)


def _thresholds(sigma: float) -> np.ndarray:
    return np.linspace(-4 * sigma, 4 * sigma + 1, 81)  # fixed before sampling


def test_audit_of_the_gaussian_mechanism_stays_within_its_delta():
    sigma = dp.analytic_gaussian_sigma(1.0, AUDIT_EPSILON, AUDIT_DELTA)
    d, d_prime = _audit_samples(sigma, 11)
    found = dp.audit_delta(d, d_prime, AUDIT_EPSILON, thresholds=_thresholds(sigma))
    assert found <= AUDIT_DELTA
    assert found > AUDIT_DELTA / 2  # the audit is sharp enough to see most of δ
    # pure DP fails: the same samples show a privacy loss far beyond ε at δ = 0
    assert dp.audit_epsilon(d, d_prime, thresholds=_thresholds(sigma)) > AUDIT_EPSILON


def test_audit_catches_a_sigma_twenty_percent_too_small():
    sigma = 0.8 * dp.analytic_gaussian_sigma(1.0, AUDIT_EPSILON, AUDIT_DELTA)
    d, d_prime = _audit_samples(sigma, 12)
    assert dp.audit_delta(d, d_prime, AUDIT_EPSILON, thresholds=_thresholds(sigma)) > AUDIT_DELTA


def test_audit_of_publishing_a_record_with_probability_delta():
    # (0, δ)-DP: the record (1) is published with probability δ under D, never under D'.
    rng = np.random.default_rng(3)
    delta = 0.05
    d = (rng.random(200_000) < delta).astype(int)
    d_prime = np.zeros(200_000, dtype=int)
    found = dp.audit_delta(d, d_prime, 1e-9)
    assert delta * 0.9 < found <= delta
    assert dp.audit_epsilon(d, d_prime) > 5  # no finite ε at δ = 0 would do


# --- the privacy loss ---------------------------------------------------------------------------


def test_gaussian_privacy_loss_formula_and_distribution():
    sigma, sensitivity = 2.0, 1.0
    y = np.array([-3.0, 0.0, 0.5, 4.0])
    expected = (sensitivity**2 - 2 * y * sensitivity) / (2 * sigma**2)
    np.testing.assert_allclose(
        dp.gaussian_privacy_loss(y, loc=0.0, loc_neighbour=1.0, sigma=sigma), expected, rtol=1e-14
    )
    samples = np.random.default_rng(5).normal(0.0, sigma, 400_000)
    loss = dp.gaussian_privacy_loss(samples, loc=0.0, loc_neighbour=1.0, sigma=sigma)
    mean, sd = dp.gaussian_privacy_loss_distribution(sensitivity, sigma)
    assert mean == pytest.approx(1 / 8) and sd == pytest.approx(0.5)
    assert_mean_close(loss, mean, sd**2, label="privacy loss mean")
    assert_variance_close(loss, sd**2, label="privacy loss variance")
    # the mean is the KL divergence between N(0, σ²) and N(Δ, σ²), = zCDP's ρ
    assert mean == dp.gaussian_zcdp_rho(sensitivity, sigma)


@pytest.mark.parametrize("epsilon", [0.2, 1.0, 3.0])
def test_laplace_privacy_loss_is_bounded_by_epsilon_with_the_stated_distribution(epsilon):
    scale = 1.0 / epsilon
    y = np.random.default_rng(8).laplace(0.0, scale, 400_000)
    loss = dp.laplace_privacy_loss(y, loc=0.0, loc_neighbour=1.0, scale=scale)
    assert np.all(np.abs(loss) <= epsilon + 1e-12)
    grid = np.linspace(-1.2 * epsilon, 1.2 * epsilon, 25)
    cdf = dp.laplace_privacy_loss_cdf(grid, epsilon)
    empirical = (loss[:, None] <= grid).mean(axis=0)
    se = np.sqrt(np.maximum(cdf * (1 - cdf), 1e-12) / loss.size)
    assert np.all(np.abs(empirical - cdf) <= 6 * se + 1e-9)
    # the atoms: ½ at +ε, e^(−ε)/2 at −ε
    assert dp.laplace_privacy_loss_cdf(epsilon, epsilon) - dp.laplace_privacy_loss_cdf(
        np.nextafter(epsilon, 0), epsilon
    ) == pytest.approx(0.5)
    assert dp.laplace_privacy_loss_cdf(-epsilon, epsilon) == pytest.approx(math.exp(-epsilon) / 2)


def test_delta_exposure_by_hand_and_by_simulation():
    expected, at_least_one = dp.delta_exposure(1e-5, 32_561)
    assert expected == pytest.approx(0.32561)
    assert at_least_one == pytest.approx(1 - (1 - 1e-5) ** 32_561, rel=1e-9)
    published = np.random.default_rng(2).binomial(1000, 0.01, size=100_000)
    mean, chance = dp.delta_exposure(0.01, 1000)
    assert_mean_close(published, mean, 1000 * 0.01 * 0.99, label="published")
    assert np.mean(published > 0) == pytest.approx(chance, abs=6 * math.sqrt(chance / 100_000))


# --- zCDP conversions ---------------------------------------------------------------------------


@pytest.mark.parametrize("rho", [1e-6, 1e-3, 0.015, 0.07, 0.5, 2.56, 2.63, 10.0, 1e3])
@pytest.mark.parametrize("delta", [1e-12, 1e-10, 1e-5, 0.1])
def test_tight_conversion_never_exceeds_the_simple_bound(rho, delta):
    tight = dp.zcdp_to_approx_dp(rho, delta)
    simple = dp.zcdp_to_approx_dp_simple(rho, delta)
    assert 0 <= tight <= simple
    assert simple == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1 / delta)), rel=1e-15)


@pytest.mark.parametrize("sigma", [0.5, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-5, 1e-2])
def test_zcdp_epsilon_is_a_valid_bound_for_the_gaussian(sigma, delta):
    # The Gaussian's exact δ at the converted ε must be within δ: the conversion is a
    # (looser) guarantee for the same mechanism.
    epsilon = dp.zcdp_to_approx_dp(dp.gaussian_zcdp_rho(1.0, sigma), delta)
    assert dp.gaussian_delta(sigma, 1.0, epsilon) <= delta


def test_tight_conversion_grows_with_rho_and_falls_with_delta():
    rhos = np.geomspace(1e-4, 100, 25)
    values = [dp.zcdp_to_approx_dp(float(r), 1e-6) for r in rhos]
    assert np.all(np.diff(values) > 0)
    deltas = np.geomspace(1e-14, 0.5, 20)
    values = [dp.zcdp_to_approx_dp(0.3, float(d)) for d in deltas]
    assert np.all(np.diff(values) < 0)


def test_tight_conversion_minimises_over_alpha():
    # a grid over α (in log(α − 1)) never finds a smaller ε than the optimiser
    rho, delta = 0.5, 1e-10
    t = np.exp(np.linspace(-8, 8, 20_001))
    alpha = 1 + t
    grid = rho * alpha + (math.log(1 / delta) + t * np.log(t / alpha) - np.log(alpha)) / t
    assert dp.zcdp_to_approx_dp(rho, delta) <= grid.min() + 1e-12
    assert dp.zcdp_to_approx_dp(rho, delta) == pytest.approx(grid.min(), abs=1e-6)


# --- advanced composition -------------------------------------------------------------------


def test_advanced_composition_by_hand():
    eps, total_delta = dp.advanced_composition(0.1, 1e-7, 100, 1e-5)
    expected = 0.1 * math.sqrt(200 * math.log(1e5)) + 100 * 0.1 * math.expm1(0.1)
    assert eps == pytest.approx(expected, rel=1e-14)
    assert total_delta == pytest.approx(100 * 1e-7 + 1e-5, rel=1e-14)
    assert dp.advanced_composition(0.1, 0.0, 100, 1e-5)[1] == 1e-5


def test_advanced_composition_beats_basic_only_for_many_small_queries():
    few = dp.advanced_composition(0.5, 0.0, 3, 1e-6)[0]
    many = dp.advanced_composition(0.01, 0.0, 10_000, 1e-6)[0]
    assert few > 3 * 0.5  # worse than k·ε: use the smaller of the two
    assert many < 10_000 * 0.01 / 5


# --- OpenDP as an independent reference ---------------------------------------------------------

odp = pytest.importorskip("opendp.prelude")
odp.enable_features("contrib")


def _opendp_gaussian(sigma: float):
    space = odp.atom_domain(T=float, nan=False), odp.absolute_distance(T=float)
    return odp.m.make_gaussian(*space, scale=sigma)


@pytest.mark.parametrize("sigma", [0.25, 0.5, 1.0, 2.0, 7.5, 40.0])
def test_gaussian_rho_matches_opendp(sigma):
    for sensitivity in (1.0, 3.0):
        reference = _opendp_gaussian(sigma).map(sensitivity)
        assert dp.gaussian_zcdp_rho(sensitivity, sigma) == pytest.approx(reference, rel=1e-9)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.0, 5.0, 20.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-10, 1e-6, 1e-3])
def test_zcdp_to_approx_dp_matches_opendp(sigma, delta):
    profile = odp.c.make_zCDP_to_approxDP(_opendp_gaussian(sigma)).map(1.0)
    ours = dp.zcdp_to_approx_dp(dp.gaussian_zcdp_rho(1.0, sigma), delta)
    assert ours == pytest.approx(profile.epsilon(delta), rel=1e-6)


# --- where the regimes change --------------------------------------------------------


@pytest.mark.parametrize("delta", [1e-2, 1e-3, 1e-5, 1e-8, 1e-10, 1e-12])
def test_laplace_gaussian_crossover_is_where_the_two_sds_meet(delta):
    eps_star = dp.laplace_gaussian_crossover(delta)
    sigma = dp.analytic_gaussian_sigma(1.0, eps_star, delta)
    # δ(ε) at tiny ε is a difference of two numbers near ½: a few parts in 10⁶ at δ = 10⁻¹²
    assert sigma == pytest.approx(math.sqrt(2) / eps_star, rel=1e-6 if delta >= 1e-8 else 1e-4)
    # below it the Gaussian is the smaller, above it Laplace, and nowhere else do they meet
    for eps in np.geomspace(eps_star / 1e3, eps_star * 1e3, 25):
        if abs(math.log(eps / eps_star)) < 1e-3:
            continue
        gaussian = dp.analytic_gaussian_sigma(1.0, float(eps), delta)
        laplace = dp.laplace_std(1.0, float(eps))
        assert (gaussian < laplace) == (eps < eps_star), (eps, gaussian, laplace)


def test_laplace_gaussian_crossover_of_the_issue_and_for_small_delta():
    # δ = 10⁻²: ε = 0.05 has σ = 14.29 < Laplace's 28.28; they cross at about 0.338
    assert dp.laplace_gaussian_crossover(1e-2) == pytest.approx(0.33783, abs=1e-4)
    # small δ: crossing ε ∝ δ (the Gaussian's σ tends to a constant times 1/δ as ε → 0)
    ratios = [dp.laplace_gaussian_crossover(d) / d for d in (1e-8, 1e-10, 1e-12)]
    assert max(ratios) / min(ratios) == pytest.approx(1.0, abs=1e-3)
    # it does not depend on Δ: both SDs scale with Δ
    eps_star = dp.laplace_gaussian_crossover(1e-3)
    assert dp.analytic_gaussian_sigma(7.0, eps_star, 1e-3) == pytest.approx(
        dp.laplace_std(7.0, eps_star), rel=1e-6
    )


@pytest.mark.parametrize("epsilon, delta", [(0.01, 1e-5), (0.1414, 1e-5), (1.0, 1e-2), (3.0, 1e-9)])
def test_advanced_composition_linear_from_splits_its_two_terms(epsilon, delta):
    k_star = dp.advanced_composition_linear_from(epsilon, delta)
    assert k_star == pytest.approx(2 * math.log(1 / delta) / math.expm1(epsilon) ** 2)
    for k in (k_star / 2, k_star * 2):
        sqrt_term = epsilon * math.sqrt(2 * k * math.log(1 / delta))
        linear_term = k * epsilon * math.expm1(epsilon)
        assert (linear_term > sqrt_term) == (k > k_star)
    # the sum of the two terms is advanced_composition's ε' at integer k
    k = max(1, round(k_star))
    total = dp.advanced_composition(epsilon, 0.0, k, delta)[0]
    assert total == pytest.approx(
        epsilon * math.sqrt(2 * k * math.log(1 / delta)) + k * epsilon * math.expm1(epsilon)
    )


@pytest.mark.parametrize("rho, delta", [(0.005, 1e-5), (0.5, 1e-10), (2.56, 1e-2)])
def test_zcdp_linear_from_splits_the_simple_bound(rho, delta):
    k_star = dp.zcdp_linear_from(rho, delta)
    assert k_star == pytest.approx(4 * math.log(1 / delta) / rho)
    for k in (k_star / 2, k_star * 2):
        linear, sqrt_term = k * rho, 2 * math.sqrt(k * rho * math.log(1 / delta))
        assert (linear > sqrt_term) == (k > k_star)
        # those are the two terms of the simple conversion of the composed ρ
        assert dp.zcdp_to_approx_dp_simple(k * rho, delta) == pytest.approx(linear + sqrt_term)
