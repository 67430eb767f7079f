"""Rényi DP and the accountants (the numbers behind the page): the Rényi divergence of the
Gaussian, the Laplace and randomized response at every order α; k Gaussian releases composed
by basic and advanced composition, zCDP, RDP and exactly; and a DP-SGD run's ε from four
accountants.

Every formula is dp/'s: dp.rdp_gaussian, dp.rdp_laplace, dp.rdp_randomized_response,
dp.rdp_subsampled_gaussian and dp.rdp_to_dp (dp/renyi.py); dp.gdp_epsilon (the Gaussian's
exact ε at δ, dp/fdp.py), dp.advanced_composition, dp.gaussian_zcdp_rho, dp.zcdp_compose and
dp.zcdp_to_approx_dp (dp/gaussian.py), dp.subsampled_privacy (dp/fdp.py); the PLD
accountant's ε is dp-accounting's, written down in ui/accountant_table.py. Neighbours add or
remove one person; every mechanism has sensitivity 1."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

import dp
from ui import accountants, datasets, text

DELTA = accountants.DELTA  # 10⁻⁵, DP-SGD's δ, for every conversion on the page

# --- 1. divergence, not a worst case -----------------------------------------------------------
ORDERS: tuple[float, ...] = (1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0)
DEFAULT_ORDER = 4.0
ORDER_DOMAIN = (1.01, 64.0)
CURVE_ORDERS = np.geomspace(*ORDER_DOMAIN, 61)
RDP_DOMAIN = (0.01, 200.0)
EPSILONS: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0)  # the pure ε of Laplace and RR
DEFAULT_EPSILON = 1.0
SIGMAS: tuple[float, ...] = (0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)  # the Gaussian's σ (Δ = 1)
DEFAULT_SIGMA = 2.0
GAUSSIAN, LAPLACE, RR = "Gaussian", "Laplace", "Randomized response"
MECHANISMS = (GAUSSIAN, LAPLACE, RR)
NEAR_ONE = 1.0001  # "as α → 1": the curves' value there is the KL divergence to 3 digits
FAR = 256.0  # "as α → ∞": Laplace's and RR's value there is within 1% of their pure ε


OUTPUTS = np.linspace(-5.0, 6.0, 221)  # the distributions' x axis: D's count 0, D′'s count 1
DENSITY_DOMAIN = (0.0, 2.0)  # the Laplace's peak at ε = 4 is ε/2 = 2
ON_D, ON_D_PRIME = "on D (count 0)", "on D′ (count 1)"
DISTRIBUTIONS = tuple(
    f"{name} {side}" for name in (GAUSSIAN, LAPLACE) for side in (ON_D, ON_D_PRIME)
)


@datasets.cached(max_entries=len(EPSILONS) * len(SIGMAS))
def distributions(epsilon: float, sigma: float) -> pd.DataFrame:
    """The output densities on two neighbours (a count of 0 and of 1): the Gaussian with
    noise σ, the Laplace with scale 1/ε (x: the output, y: its density, curve)."""
    scale = dp.laplace_scale(1.0, epsilon)
    densities = {
        f"{GAUSSIAN} {ON_D}": stats.norm.pdf(OUTPUTS, 0.0, sigma),
        f"{GAUSSIAN} {ON_D_PRIME}": stats.norm.pdf(OUTPUTS, 1.0, sigma),
        f"{LAPLACE} {ON_D}": dp.laplace_pdf(OUTPUTS, loc=0.0, scale=scale),
        f"{LAPLACE} {ON_D_PRIME}": dp.laplace_pdf(OUTPUTS, loc=1.0, scale=scale),
    }
    return pd.DataFrame(
        {
            "output": np.tile(OUTPUTS, len(densities)),
            "density": np.concatenate(list(densities.values())),
            "curve": np.repeat(list(densities), OUTPUTS.size),
        }
    )


def rr_words(epsilon: float) -> str:
    """Randomized response's two distributions, which the chart does not draw (two bars)."""
    p = keep_probability(epsilon)
    return (
        f"Randomized response at ε = {text.number(epsilon)} reports a true yes as yes with "
        f"probability p = {text.number(p, 3)} and a true no as yes with 1 − p = "
        f"{text.number(1 - p, 3)}: two distributions on two outputs."
    )


def keep_probability(epsilon: float) -> float:
    """Binary randomized response's p at pure ε: e^ε/(1 + e^ε)."""
    return dp.rr_keep_probability(epsilon)


def rdp(mechanism: str, alpha, epsilon: float, sigma: float):
    """The mechanism's Rényi divergence at order(s) α: the Gaussian with noise σ, the Laplace
    with scale 1/ε, randomized response at pure ε."""
    if mechanism == GAUSSIAN:
        return dp.rdp_gaussian(alpha, sigma)
    if mechanism == LAPLACE:
        return dp.rdp_laplace(alpha, dp.laplace_scale(1.0, epsilon))
    return dp.rdp_randomized_response(alpha, keep_probability(epsilon))


@datasets.cached(max_entries=len(EPSILONS) * len(SIGMAS))
def divergence_curves(epsilon: float, sigma: float) -> pd.DataFrame:
    """The three curves ε(α) over CURVE_ORDERS (x: α, y: the divergence, mechanism)."""
    frames = [
        pd.DataFrame(
            {
                "alpha": CURVE_ORDERS,
                "rdp": rdp(name, CURVE_ORDERS, epsilon, sigma),
                "mechanism": name,
            }
        )
        for name in MECHANISMS
    ]
    return pd.concat(frames, ignore_index=True)


class Orders(NamedTuple):
    at: dict[str, float]  # each mechanism's divergence at the chosen α
    near_one: dict[str, float]  # at α = NEAR_ONE: the KL divergence
    far: dict[str, float]  # at α = FAR


@datasets.cached(max_entries=len(ORDERS) * len(EPSILONS) * len(SIGMAS))
def at_orders(alpha: float, epsilon: float, sigma: float) -> Orders:
    def each(order: float) -> dict[str, float]:
        return {name: float(rdp(name, order, epsilon, sigma)) for name in MECHANISMS}

    return Orders(each(alpha), each(NEAR_ONE), each(FAR))


@datasets.cached(max_entries=len(ORDERS) * len(EPSILONS) * len(SIGMAS))
def order_marks(alpha: float, epsilon: float, sigma: float) -> pd.DataFrame:
    """The chart's marked points: each mechanism's divergence at the chosen α."""
    values = at_orders(alpha, epsilon, sigma).at
    return pd.DataFrame(
        {
            "alpha": [alpha] * len(MECHANISMS),
            "rdp": [values[name] for name in MECHANISMS],
            "label": [""] * len(MECHANISMS),
        }
    )


@datasets.cached(max_entries=len(ORDERS))
def order_rule(alpha: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [alpha], "label": [f"α = {text.number(alpha)}"]})


def limits_words(epsilon: float, sigma: float) -> str:
    """What α → 1 and α → ∞ mean, in this state's numbers."""
    found = at_orders(DEFAULT_ORDER, epsilon, sigma)
    kl, far = found.near_one, found.far
    return (
        f"**As α → 1** the divergence becomes the Kullback–Leibler divergence, the privacy "
        f"loss on average: at α = {NEAR_ONE:g}, Gaussian "
        f"{text.number(kl[GAUSSIAN], 3)}, Laplace {text.number(kl[LAPLACE], 3)}, randomized "
        f"response {text.number(kl[RR], 3)}. **As α → ∞** it becomes the worst case, pure "
        f"ε: at α = {text.number(FAR)} the Laplace is at {text.number(far[LAPLACE], 3)} and "
        f"randomized response at {text.number(far[RR], 3)}, on their way to ε = "
        f"{text.number(epsilon)}. The Gaussian's divergence α/(2σ²) = "
        f"{text.number(far[GAUSSIAN], 3)} at α = {text.number(FAR)} grows without end: it "
        "has no pure ε at all, and Rényi DP is the language in which it has a curve."
    )


# --- 2. composition is addition ------------------------------------------------------------------
RELEASES: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000)
DEFAULT_RELEASES = 100
PREDICT_RELEASES = 100
COMPOSE_SIGMAS: tuple[float, ...] = (2.0, 3.0, 5.0, 10.0, 20.0, 50.0)  # σ = 1: ε past e^709
DEFAULT_COMPOSE_SIGMA = 10.0
BASIC = "Basic composition"
ADVANCED = "Advanced composition"
ZCDP = "zCDP, ρ + 2√(ρ ln 1/δ)"
RENYI_CLASSIC = "RDP, classic conversion"
RENYI = "RDP"
EXACT = "Exact"
COMPOSITIONS = (BASIC, ADVANCED, ZCDP, RENYI_CLASSIC, RENYI)
PREDICTED = (BASIC, ADVANCED, ZCDP, RENYI)  # the four the prediction asks about
ABOUT_THE_SAME = "Two of them, within 1% of each other"
TIE = 0.01
COMPOSED_DOMAIN = (0.01, 10_000.0)
# dp-accounting's RDP orders (its RdpAccountant default): 1.1 … 10.9, 12 … 63, 128, 256, 512
RDP_ORDERS = np.concatenate([1.0 + np.arange(1, 100) / 10.0, np.arange(12, 64), [128, 256, 512]])


def gaussian_step_epsilon(sigma: float, delta: float) -> float:
    """One Gaussian release's exact ε at δ (it is (1/σ)-GDP, Δ = 1)."""
    return dp.gdp_epsilon(1.0 / sigma, delta)


class Composed(NamedTuple):
    epsilon: dict[str, float]  # each method's ε at δ = DELTA after k releases, and EXACT's
    order: float  # the order α at which RDP's ε is smallest
    tight_zcdp: float  # zCDP with the tight conversion (dp.zcdp_to_approx_dp)


@datasets.cached(max_entries=len(COMPOSE_SIGMAS) * len(RELEASES))
def composed(sigma: float, k: int) -> Composed:
    """k Gaussian releases at noise σ, to (ε, δ = DELTA):
    - basic: each release at δ/k, its exact ε times k;
    - advanced: each at δ/(2k), composed with slack δ/2 (dp.advanced_composition), or the
      basic bound at the same per-release ε where that is smaller (both hold);
    - zCDP: ρ = k/(2σ²), converted by the simple bound ρ + 2√(ρ ln(1/δ))
      (dp.zcdp_to_approx_dp_simple); the tight conversion (dp.zcdp_to_approx_dp) alongside;
    - RDP: k times the curve α/(2σ²) over dp-accounting's orders, dp.rdp_to_dp, classic
      and improved;
    - exact: the k releases are one Gaussian with noise σ/√k ((√k/σ)-GDP)."""
    basic = k * gaussian_step_epsilon(sigma, DELTA / k)
    step = gaussian_step_epsilon(sigma, DELTA / (2 * k))
    advanced, _ = dp.advanced_composition(step, DELTA / (2 * k), k, DELTA / 2)
    rho = dp.zcdp_compose([dp.gaussian_zcdp_rho(1.0, sigma)] * k)
    curve = k * dp.rdp_gaussian(RDP_ORDERS, sigma)
    renyi, order = dp.rdp_to_dp(RDP_ORDERS, curve, DELTA)
    classic, _ = dp.rdp_to_dp(RDP_ORDERS, curve, DELTA, conversion="classic")
    return Composed(
        {
            BASIC: basic,
            ADVANCED: min(advanced, k * step),
            ZCDP: dp.zcdp_to_approx_dp_simple(rho, DELTA),
            RENYI_CLASSIC: classic,
            RENYI: renyi,
            EXACT: dp.gdp_epsilon(math.sqrt(k) / sigma, DELTA),
        },
        order,
        dp.zcdp_to_approx_dp(rho, DELTA),
    )


@datasets.cached(max_entries=len(COMPOSE_SIGMAS))
def composition_curves(sigma: float) -> pd.DataFrame:
    rows = []
    for k in RELEASES:
        found = composed(sigma, k)
        rows += [(float(k), name, found.epsilon[name]) for name in (*COMPOSITIONS, EXACT)]
    return pd.DataFrame(rows, columns=["releases", "method", "epsilon"])


@datasets.cached(max_entries=len(RELEASES))
def releases_rule(k: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(k)], "label": [f"k = {k:,}"]})


PREDICT_OPTIONS = (*PREDICTED, ABOUT_THE_SAME)


def best_method(sigma: float, k: int) -> str:
    """Of the four the prediction names, the one with the smallest ε after k releases, or
    ABOUT_THE_SAME when the runner-up is within 1% of it (exact excluded: it is what they
    all bound)."""
    found = composed(sigma, k).epsilon
    first, second = sorted(PREDICTED, key=lambda name: found[name])[:2]
    return ABOUT_THE_SAME if found[second] <= (1 + TIE) * found[first] else first


LINEAR_TERM = r"$k\,\varepsilon(e^{\varepsilon} - 1)$"  # advanced composition's second term


def advanced_words(sigma: float, k: int) -> str:
    """Whether advanced composition beat basic composition here, and why, from the numbers.

    Its bound ε·√(2k ln(1/δ′)) + k·ε(e^ε − 1) (dp.advanced_composition, δ′ = δ/2 here) is
    below basic composition's k·ε only when both terms are: the first needs k > 2 ln(1/δ′)
    (about 24 releases at δ = 10⁻⁵), the second a small ε (dp.advanced_composition_linear_from
    says from which k it leads). Where it loses, the reason named is the one that holds."""
    found = composed(sigma, k).epsilon
    step = gaussian_step_epsilon(sigma, DELTA / (2 * k))
    basic, advanced = found[BASIC], found[ADVANCED]
    if advanced < basic:
        return (
            f"advanced composition proves {text.number(advanced, 3)} against basic "
            f"composition's {text.number(basic, 3)}: its √k growth pays off when each "
            f"release's ε is small (here {text.number(step, 3)}). "
        )
    slack = DELTA / 2
    root_from = 2.0 * math.log(1.0 / slack)  # √(2k ln(1/δ′)) < k  ⇔  k > 2 ln(1/δ′)
    if k >= dp.advanced_composition_linear_from(step, slack):
        why = (
            f"each release's ε, {text.number(step, 3)} at δ/(2k), is too large for its "
            f"{LINEAR_TERM} term to stay small"
        )
    elif k <= root_from:
        why = (
            f"with {k:,} release{'s' if k > 1 else ''} its factor √(2k ln(1/δ′)) = "
            f"{text.number(math.sqrt(2 * k * math.log(1 / slack)), 3)} is not below k: the √k "
            f"growth wins only past k = 2 ln(1/δ′) ≈ {root_from:.0f} releases"
        )
    else:
        why = (
            f"its √k term and its {LINEAR_TERM} term are each "
            f"below k·ε, but together they are not (each release's ε: {text.number(step, 3)})"
        )
    if advanced >= k * step * (1 - 1e-12):  # composed() kept the smaller bound: k·step
        shown = (
            "The number shown is then basic composition at its own per-release ε, a little "
            "above basic composition's: half of δ went to the slack δ′, so each release gets "
            "δ/(2k), not δ/k. "
        )
    else:
        shown = ""
    return (
        f"advanced composition proves no less than basic composition "
        f"({text.number(advanced, 3)} against {text.number(basic, 3)}): {why}. {shown}"
    )


@datasets.cached(max_entries=len(COMPOSE_SIGMAS))
def best_orders(sigma: float) -> list[tuple[int, float]]:
    """RDP's best order at each number of releases: it falls as k grows."""
    return [(k, composed(sigma, k).order) for k in RELEASES]


# --- 3. the accountants side by side ----------------------------------------------------------
STEP_SIGMAS: tuple[float, ...] = accountants.SIGMAS  # 0.7, 1.1, 2.0
DEFAULT_STEP_SIGMA = 1.1
RATES: tuple[float, ...] = accountants.RATES  # 0.01, 0.1
DEFAULT_RATE = 0.01
STEPS: tuple[int, ...] = accountants.STEPS  # 10 … 10,000
DEFAULT_STEPS = 1_000
PLD = "PLD (dp-accounting)"
ACCOUNTANTS = (BASIC, ADVANCED, RENYI, PLD)
SHORT = {BASIC: "basic", ADVANCED: "advanced", RENYI: "RDP", PLD: "PLD"}  # metric labels


def run_label(name: str) -> str:
    """A metric's label in section 3: short, so that it is never cut on a phone."""
    return f"ε, {SHORT[name]}"


ACCOUNTED_DOMAIN = (0.01, 100_000.0)
INTEGER_ORDERS = np.concatenate([np.arange(2, 65), [128, 256]])  # the subsampled Gaussian's


@datasets.cached(max_entries=len(STEP_SIGMAS) * len(RATES) * len(STEPS))
def accounted(sigma: float, q: float, steps: int) -> dict[str, float]:
    """A DP-SGD run's ε at δ = DELTA after `steps` steps (noise σ, Poisson sampling rate q):
    - basic: each step at δ/steps, its exact ε amplified by sampling (dp.subsampled_privacy,
      at δ/(q·steps) before sampling), times the steps;
    - advanced: the same at δ/(2·steps) with slack δ/2 (or basic at that ε, if smaller);
    - RDP: the subsampled Gaussian's curve at integer orders 2 … 64, 128, 256, times the
      steps, dp.rdp_to_dp (improved);
    - PLD: dp-accounting's, written down (ui/accountant_table.py)."""

    def step(delta: float) -> tuple[float, float]:
        return dp.subsampled_privacy(gaussian_step_epsilon(sigma, delta / q), delta / q, q)

    basic_step, _ = step(DELTA / steps)
    half_step, half_delta = step(DELTA / (2 * steps))
    advanced, _ = dp.advanced_composition(half_step, half_delta, steps, DELTA / 2)
    curve = dp.rdp_subsampled_gaussian(INTEGER_ORDERS, sigma, q)
    renyi, _ = dp.rdp_to_dp(INTEGER_ORDERS, steps * curve, DELTA)
    return {
        BASIC: steps * basic_step,
        ADVANCED: min(advanced, steps * half_step),
        RENYI: renyi,
        PLD: accountants.epsilon(sigma, q, steps)[0],
    }


@datasets.cached(max_entries=len(STEP_SIGMAS) * len(RATES))
def accountant_curves(sigma: float, q: float) -> pd.DataFrame:
    rows = []
    for steps in STEPS:
        found = accounted(sigma, q, steps)
        rows += [(float(steps), name, found[name]) for name in ACCOUNTANTS]
    return pd.DataFrame(rows, columns=["steps", "accountant", "epsilon"])


@datasets.cached(max_entries=len(STEPS))
def steps_rule(steps: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(steps)], "label": [f"T = {steps:,}"]})


def gap_words(sigma: float, q: float, steps: int) -> str:
    """RDP against PLD in this state: how much larger RDP's ε is, as measured here."""
    found = accounted(sigma, q, steps)
    renyi, pld = found[RENYI], found[PLD]
    ratio = renyi / pld
    library = accountants.epsilon(sigma, q, steps)[1]  # dp-accounting's RDP accountant
    orders = (
        f" dp-accounting's RDP accountant, which the DP-SGD lesson uses, also tries "
        f"fractional orders below 11 and proves {text.number(library)}: the whole orders of "
        f"the formula above cost {text.number(renyi - library)} here."
        if text.number(library) != text.number(renyi)
        else ""
    )
    return (
        f"**Here** (σ = {text.number(sigma)}, q = {text.number(q)}, T = {steps:,}) RDP proves "
        f"ε = {text.number(renyi)} and PLD ε = {text.number(pld)}: RDP's is "
        f"{text.number(ratio, 3)} times PLD's ({text.number(renyi - pld)} more).{orders} Basic "
        f"composition says {text.number(found[BASIC])} and advanced composition "
        f"{text.number(found[ADVANCED])} for the same run. Move σ, q and T: the gap is "
        "what it is at each setting, not a fixed ratio."
    )
