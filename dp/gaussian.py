r"""Approximate DP and the Gaussian mechanism: δ, σ, the privacy loss, zCDP.

(ε, δ)-DP (Dwork, Kenthapadi, McSherry, Mironov & Naor 2006; Dwork & Roth 2014, Def. 2.4):
for all neighbours D, D' and every set S of outputs,

    P[M(D) ∈ S] <= e^ε · P[M(D') ∈ S] + δ.

Pure ε-DP is δ = 0. The additive δ is an escape hatch: the mechanism "publish each person's
record in full, independently, with probability δ" is (0, δ)-DP, and exposes n·δ people on
average — which is why δ must be far below 1/n.

The Gaussian mechanism releases f(D) + N(0, σ²). Its sensitivity Δ is the L2 distance
max ||f(D) − f(D')||₂ (for one count, 1 under add/remove). With D at 0 and D' at Δ, the
privacy loss at output y is

    L(y) = ln( p_D(y) / p_D'(y) ) = ((y − Δ)² − y²) / (2σ²) = (Δ² − 2yΔ) / (2σ²).

It is unbounded in y (no ε works for pure DP), and for y ~ M(D) it is N(η, 2η) with
η = Δ²/(2σ²): on average *positive* — the Δ² term is the KL divergence between the two
outputs, exactly zCDP's ρ. A derivation that drops it gets a loss centred on 0 and misses
both facts that make the Gaussian work: the loss exceeds ε only with a small probability,
and its mean, ρ, is what adds up under composition.

The exact δ at ε (Balle & Wang 2018, Thm 8) is the sup over S of P[M(D) ∈ S] − e^ε P[M(D') ∈ S],
attained at S = {L > ε}:

    δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ)
         = E_{y~M(D)}[(1 − e^(ε − L(y)))₊]   (<= P[L > ε]).

σ for given (ε, δ):
- classic (Dwork & Roth 2014, Thm A.1): σ = Δ·√(2 ln(1.25/δ)) / ε, proved only for ε < 1;
- analytic (Balle & Wang 2018, Alg. 1): the smallest σ with δ(ε) <= δ, for every ε > 0.

zCDP (Bun & Steinke 2016): M is ρ-zCDP if its Rényi divergences satisfy D_α(M(D)||M(D')) <= ρα
for all α > 1. The Gaussian mechanism is ρ = Δ²/(2σ²) (Prop. 1.6); an ε-DP mechanism is
ε²/2-zCDP (Prop. 1.4); ρ's add up under composition (Lemma 2.3). ρ-zCDP implies (ε, δ)-DP with

    simple (Bun & Steinke 2016, Prop. 1.3):   ε = ρ + 2√(ρ ln(1/δ));
    tight (Canonne, Kamath & Steinke 2020, Prop. 12 / Cor. 13; what OpenDP uses):
        ε = min over α > 1 of  ρα + (ln(1/δ) + (α − 1) ln(1 − 1/α) − ln α) / (α − 1).

Advanced composition (Dwork, Rothblum & Vadhan 2010; Dwork & Roth 2014, Thm 3.20): k
mechanisms, each (ε, δ)-DP, are together (ε', kδ + δ')-DP for every δ' > 0, with

    ε' = ε·√(2k ln(1/δ')) + k·ε·(e^ε − 1).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import log_ndtr

from ._validate import (
    MAX_EXP_EPSILON,
    add_noise,
    as_rng,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_real,
    check_real_array,
    check_squarable,
    exact_sum,
)


def check_delta(delta: object, name: str = "delta") -> float:
    """δ must lie strictly between 0 and 1."""
    return check_real(name, delta, low=0.0, high=1.0, low_open=True, high_open=True)


def check_rho(rho: object, name: str = "rho") -> float:
    """ρ must be finite and > 0."""
    return check_real(name, rho, low=0.0, low_open=True, range_text="finite and > 0")


def _epsilons(epsilon: object) -> np.ndarray:
    """ε as a scalar or an array, every entry finite and > 0."""
    if np.ndim(epsilon) == 0:
        return np.asarray(check_epsilon(epsilon))
    arr = check_finite_array("epsilon", epsilon)
    if np.any(arr <= 0):
        raise ValueError("epsilon must be finite and > 0 (every entry)")
    return arr


def _out(arr: np.ndarray) -> float | np.ndarray:
    return float(arr) if arr.ndim == 0 else arr


# --- σ and δ --------------------------------------------------------------------------------


def gaussian_sigma_classic(sensitivity: float, epsilon: float, delta: float) -> float:
    r"""σ = Δ·√(2 ln(1.25/δ)) / ε (Dwork & Roth 2014, Thm A.1), which gives (ε, δ)-DP only
    for ε < 1: a ValueError for ε >= 1 (use `analytic_gaussian_sigma` there)."""
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    if epsilon >= 1.0:
        raise ValueError(
            f"epsilon must be < 1 for the classic Gaussian σ (Dwork & Roth, Thm A.1 assumes "
            f"ε < 1), got {epsilon:g}; use analytic_gaussian_sigma for any ε"
        )
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def _delta_of_ratio(mu: float, eps: np.ndarray) -> np.ndarray:
    """δ(ε) for μ = Δ/σ: Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), computed as
    Φ(a)·(1 − exp(ε + ln Φ(b) − ln Φ(a))) so that two nearly equal tiny terms keep their
    relative precision (log Φ via scipy's log_ndtr never underflows)."""
    log_first = log_ndtr(mu / 2.0 - eps / mu)
    log_second = eps + log_ndtr(-mu / 2.0 - eps / mu)
    # Where the first term is 0 (its log −inf: μ tiny or ε huge), δ is 0: the second term is
    # smaller still, and −inf − (−inf) would be NaN.
    zero = np.isneginf(log_first)
    log_first = np.where(zero, 0.0, log_first)
    log_second = np.where(zero, -np.inf, log_second)
    # log_second <= log_first in exact arithmetic (δ >= 0); rounding may cross by 1 ulp.
    gap = np.minimum(log_second - log_first, 0.0)
    return np.where(zero, 0.0, np.exp(log_first) * -np.expm1(gap))


def gaussian_delta(sigma: float, sensitivity: float, epsilon) -> float | np.ndarray:
    r"""The exact δ of the Gaussian mechanism N(0, σ²) with L2 sensitivity Δ at ε (Balle &
    Wang 2018, Thm 8):

        δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ).

    `epsilon` may be an array (the whole δ(ε) curve at once)."""
    sigma = check_positive("sigma", sigma)
    sensitivity = check_positive("sensitivity", sensitivity)
    eps = _epsilons(epsilon)
    return _out(np.clip(_delta_of_ratio(sensitivity / sigma, eps), 0.0, 1.0))


def analytic_gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    r"""The smallest σ with gaussian_delta(σ, Δ, ε) <= δ (Balle & Wang 2018): (ε, δ)-DP for
    every ε > 0, and never more noise than the classic formula.

    δ(ε) depends on Δ and σ only through μ = Δ/σ and grows with μ, so the root μ* of
    δ(ε; μ) = δ is bracketed by doubling and found by Brent's method; σ = Δ/μ* is then
    nudged up until δ(ε) <= δ holds in floating point."""
    sensitivity = check_positive("sensitivity", sensitivity)
    eps = check_epsilon(epsilon)
    delta = check_delta(delta)
    eps_arr = np.asarray(eps)

    def excess(mu: float) -> float:
        return float(_delta_of_ratio(mu, eps_arr)) - delta

    low, high = 1.0, 1.0
    for _ in range(2_100):  # μ from 2^-2100 … 2^2100 covers every double ε and δ
        if excess(low) <= 0.0:
            break
        low /= 2.0
    for _ in range(2_100):
        if excess(high) > 0.0:
            break
        high *= 2.0
    if excess(low) > 0.0 or excess(high) <= 0.0:  # pragma: no cover - numerically impossible
        raise ValueError(f"no σ found for epsilon={eps:g}, delta={delta:g}")
    if low == high:  # 1.0 met the target and 2.0 did not
        high = 2.0
    mu = brentq(excess, low, high, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    while excess(mu) > 0.0:  # the root may sit a hair on the wrong side
        mu = np.nextafter(mu, 0.0)
    sigma = sensitivity / mu
    while gaussian_delta(sigma, sensitivity, eps) > delta:  # Δ/μ rounds
        sigma = np.nextafter(sigma, np.inf)
    return float(sigma)


def laplace_gaussian_crossover(delta: float) -> float:
    r"""The ε at which, for one query at this δ, the analytic Gaussian σ equals the Laplace
    mechanism's noise SD √2·Δ/ε:

        analytic_gaussian_sigma(Δ, ε*, δ) = √2·Δ / ε*.

    Both are proportional to Δ, so ε* depends on δ only. Below ε* the Gaussian adds less
    noise (its σ stays bounded as ε → 0, since δ alone already allows some release, while
    Laplace's SD grows like 1/ε); above ε* Laplace does. The ratio σ·ε/√2 is increasing in ε,
    so the root is unique: bracketed on [min(1e-9, 10⁻⁶δ), 10⁶] and found by Brent's method on ln ε.

    For small δ, ε* ≈ 39.8·δ. There δ(ε) is a difference of two numbers near ½, so the
    result carries a relative error of about 10⁻⁵ at δ = 10⁻¹², growing as δ shrinks: δ below
    10⁻¹² raises a ValueError rather than return a number it cannot vouch for."""
    delta = check_real(
        "delta", delta, low=1e-12, high=1.0, high_open=True, range_text="in [1e-12, 1)"
    )

    def log_ratio(log_eps: float) -> float:
        eps = math.exp(log_eps)
        return math.log(analytic_gaussian_sigma(1.0, eps, delta) * eps / math.sqrt(2.0))

    low, high = math.log(min(1e-9, delta * 1e-6)), math.log(1e6)
    if log_ratio(low) >= 0.0 or log_ratio(high) <= 0.0:  # pragma: no cover - no double δ
        raise ValueError(f"no crossover of Laplace and Gaussian noise found for delta={delta:g}")
    return math.exp(brentq(log_ratio, low, high, xtol=1e-12))


def gaussian_mechanism(
    value, sensitivity: float, epsilon: float, delta: float, *, size=None, rng=None
) -> float | np.ndarray:
    r"""value + N(0, σ²) with the analytic σ for (ε, δ) (`analytic_gaussian_sigma`).

    `value` may be a number or an array (one noisy answer per entry; then `sensitivity` is
    the L2 sensitivity of the whole vector). `size` draws many independent answers (shape
    `size`, or `size + value.shape`). A float for a scalar value without `size`."""
    sigma = analytic_gaussian_sigma(sensitivity, epsilon, delta)
    generator = as_rng(rng)
    return add_noise(value, size, lambda shape: generator.normal(0.0, sigma, size=shape))


# --- the privacy loss -----------------------------------------------------------------------


def gaussian_privacy_loss(y, *, loc: float, loc_neighbour: float, sigma: float):
    r"""Privacy loss at output y: ln(p_D(y) / p_D'(y)) for N(loc, σ²) against
    N(loc', σ²),

        L(y) = ((y − loc')² − (y − loc)²) / (2σ²),

    a straight line in y: unbounded, unlike Laplace's. y may be an array."""
    loc = check_real("loc", loc)
    loc_neighbour = check_real("loc_neighbour", loc_neighbour)
    sigma = check_squarable("sigma", check_positive("sigma", sigma))
    arr = check_real_array("y", y, allow_inf=False)
    # The same line, as 2·(loc/2 − loc'/2)·(y − loc/2 − loc'/2) / σ²: no square of y, and
    # halves that never overflow, so a loss beyond the largest float is ±inf, never NaN.
    half_gap, middle = loc / 2.0 - loc_neighbour / 2.0, loc / 2.0 + loc_neighbour / 2.0
    with np.errstate(over="ignore"):
        out = 2.0 * half_gap * (arr - middle) / sigma**2
    return _out(np.asarray(out))


def gaussian_privacy_loss_distribution(sensitivity: float, sigma: float) -> tuple[float, float]:
    r"""Mean and standard deviation of the privacy loss L(y) for y ~ M(D): L ~ N(η, 2η) with
    η = Δ²/(2σ²) (= zCDP's ρ, the KL divergence), so (η, √(2η)) = (Δ²/(2σ²), Δ/σ)."""
    sensitivity = check_positive("sensitivity", sensitivity)
    sigma = check_positive("sigma", sigma)
    mu = check_squarable("sensitivity/sigma", sensitivity / sigma)
    return mu * mu / 2.0, mu


def gaussian_loss_tail(sigma: float, sensitivity: float, epsilon) -> float | np.ndarray:
    r"""P[L > ε] for y ~ M(D): the chance the Gaussian mechanism's privacy loss exceeds ε,
    Φ(Δ/(2σ) − εσ/Δ). An upper bound on δ(ε): δ(ε) = P[L > ε] − e^ε·P'[L > ε]."""
    sigma = check_positive("sigma", sigma)
    sensitivity = check_positive("sensitivity", sensitivity)
    eps = _epsilons(epsilon)
    mu = sensitivity / sigma
    return _out(np.exp(log_ndtr(mu / 2.0 - eps / mu)))


def delta_exposure(delta: float, people: int) -> tuple[float, float]:
    r"""The (0, δ)-DP mechanism "publish each person's record in full, independently, with
    probability δ", run on `people` records: the expected number published, n·δ, and the
    chance that at least one is, 1 − (1 − δ)ⁿ (computed as −expm1(n·log1p(−δ)))."""
    delta = check_delta(delta)
    people = check_integer("people", people, low=1)
    return people * delta, -math.expm1(people * math.log1p(-delta))


# --- zCDP -----------------------------------------------------------------------------------


def gaussian_zcdp_rho(sensitivity: float, sigma: float) -> float:
    r"""The Gaussian mechanism is ρ-zCDP with ρ = Δ²/(2σ²) (Bun & Steinke 2016, Prop. 1.6)."""
    sensitivity = check_positive("sensitivity", sensitivity)
    sigma = check_positive("sigma", sigma)
    mu = check_squarable("sensitivity/sigma", sensitivity / sigma)
    return mu * mu / 2.0


def gaussian_sigma_for_rho(sensitivity: float, rho: float) -> float:
    r"""The σ that makes the Gaussian mechanism exactly ρ-zCDP: σ = Δ / √(2ρ)."""
    sensitivity = check_positive("sensitivity", sensitivity)
    rho = check_rho(rho)
    return sensitivity / math.sqrt(2.0 * rho)


def pure_to_zcdp(epsilon: float) -> float:
    r"""An ε-DP mechanism is ε²/2-zCDP (Bun & Steinke 2016, Prop. 1.4)."""
    epsilon = check_squarable("epsilon", check_epsilon(epsilon))
    return epsilon * epsilon / 2.0


def zcdp_to_approx_dp_simple(rho: float, delta: float) -> float:
    r"""ρ-zCDP implies (ε, δ)-DP with ε = ρ + 2√(ρ ln(1/δ)) (Bun & Steinke 2016, Prop. 1.3)."""
    rho = check_rho(rho)
    delta = check_delta(delta)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def zcdp_linear_from(rho: float, delta: float) -> float:
    r"""The number of ρ-zCDP mechanisms k from which the simple bound of k-fold composition,

        ε(k) = kρ + 2√(kρ·ln(1/δ)),

    is led by its linear term: kρ ≥ 2√(kρ ln(1/δ))  ⇔  k ≥ 4·ln(1/δ)/ρ. Below it the total
    grows like √k; beyond it, like k (the tight conversion follows the same two regimes)."""
    rho = check_rho(rho)
    delta = check_delta(delta)
    return 4.0 * math.log(1.0 / delta) / rho


def _cks_epsilon(rho: float, log_inv_delta: float, t: float) -> float:
    """CKS 2020's ε at order α = 1 + t, written with t = α − 1 > 0 so that α near 1 keeps
    its precision: ρ(1 + t) + (ln(1/δ) + t·ln(t/(1 + t)) − ln(1 + t)) / t."""
    log1p_t = math.log1p(t)
    return rho * (1.0 + t) + (log_inv_delta + t * (math.log(t) - log1p_t) - log1p_t) / t


def zcdp_to_approx_dp(rho: float, delta: float) -> float:
    r"""The ε of (ε, δ)-DP implied by ρ-zCDP, by the tight conversion of Canonne, Kamath &
    Steinke 2020 (Prop. 12 / Cor. 13; the one OpenDP's `make_zCDP_to_approxDP` uses):

        ε = min over α > 1 of  ρα + (ln(1/δ) + (α − 1) ln(1 − 1/α) − ln α) / (α − 1).

    Minimised over ln(α − 1) by bounded Brent search around the simple bound's order
    α₀ = 1 + √(ln(1/δ)/ρ); never above the simple bound ρ + 2√(ρ ln(1/δ)) (at α₀ the CKS
    expression is already below it), never below 0."""
    rho = check_rho(rho)
    delta = check_delta(delta)
    log_inv_delta = math.log(1.0 / delta)
    simple = rho + 2.0 * math.sqrt(rho * log_inv_delta)
    t0 = math.sqrt(log_inv_delta / rho)
    centre = math.log(t0)
    result = minimize_scalar(
        lambda s: _cks_epsilon(rho, log_inv_delta, math.exp(s)),
        bounds=(centre - 30.0, centre + 30.0),
        method="bounded",
        options={"xatol": 1e-12, "maxiter": 500},
    )
    best = min(float(result.fun), _cks_epsilon(rho, log_inv_delta, t0), simple)
    return max(best, 0.0)


def zcdp_compose(rhos) -> float:
    r"""ρ-zCDP composes by adding: k mechanisms with ρ₁ … ρ_k are Σρᵢ-zCDP (Bun & Steinke
    2016, Lemma 2.3)."""
    if isinstance(rhos, str):
        raise TypeError("rhos must be a list of numbers, got a string")
    arr = np.atleast_1d(check_finite_array("rhos", rhos))
    if arr.ndim != 1:
        raise ValueError(f"rhos must be a flat list, got shape {arr.shape}")
    if np.any(arr <= 0):
        raise ValueError("every entry of rhos must be finite and > 0")
    return exact_sum("rhos", arr)


# --- advanced composition -------------------------------------------------------------------


def advanced_composition_linear_from(epsilon: float, delta_prime: float) -> float:
    r"""The number of steps k from which advanced composition's linear term leads its √k term:

        k·ε·(e^ε − 1) ≥ ε·√(2k ln(1/δ'))  ⇔  k ≥ 2·ln(1/δ') / (e^ε − 1)².

    Below it ε' grows like √k; beyond it, like k (with slope ε(e^ε − 1) per step, which is
    more than basic composition's ε once e^ε − 1 > 1, i.e. ε > ln 2)."""
    epsilon = check_epsilon(epsilon)
    delta_prime = check_delta(delta_prime, "delta_prime")
    growth = math.expm1(min(epsilon, MAX_EXP_EPSILON))  # beyond, k is 0 all the same
    return 2.0 * math.log(1.0 / delta_prime) / growth / growth


def advanced_composition(
    epsilon: float, delta: float, k: int, delta_prime: float
) -> tuple[float, float]:
    r"""k-fold composition of (ε, δ)-DP mechanisms is (ε', kδ + δ')-DP for any δ' in (0, 1)
    (Dwork, Rothblum & Vadhan 2010; Dwork & Roth 2014, Thm 3.20):

        ε' = ε·√(2k ln(1/δ')) + k·ε·(e^ε − 1).

    δ may be 0 (pure mechanisms). ε' can exceed basic composition's k·ε (for small k or
    large ε): both bounds hold, so use the smaller. A ValueError if kδ + δ' >= 1, where the
    guarantee says nothing."""
    epsilon = check_epsilon(epsilon, high=MAX_EXP_EPSILON)
    delta = check_real("delta", delta, low=0.0, high=1.0, high_open=True)
    k = check_integer("k", k, low=1)
    delta_prime = check_delta(delta_prime, "delta_prime")
    total_delta = k * delta + delta_prime
    if total_delta >= 1.0:
        raise ValueError(
            f"k·delta + delta_prime must be < 1, got {total_delta:g} "
            f"(k = {k}, delta = {delta:g}, delta_prime = {delta_prime:g})"
        )
    eps_prime = epsilon * math.sqrt(
        2.0 * k * math.log(1.0 / delta_prime)
    ) + k * epsilon * math.expm1(epsilon)
    return eps_prime, total_delta
