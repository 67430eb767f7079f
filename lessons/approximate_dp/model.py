"""Numbers and chart data of the lesson "Approximate DP: the Gaussian mechanism".

Every number comes from dp/ (dp/gaussian.py, dp/laplace.py, dp/composition.py); nothing here
samples: the densities, the privacy-loss distributions and the curves are exact, binned or
evaluated on fixed grids, so a chart's axes never move and a rerun is a cache hit.

The query throughout is a count (sensitivity Δ = 1 under add/remove: D' is D with you added).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

import dp
from data.deployments import load_deployments
from ui import charts, datasets, text

SENSITIVITY = 1.0

# δ choices (a select slider, smaller = more private) and the default
DELTAS: tuple[float, ...] = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-10, 1e-12)
DEFAULT_DELTA = 1e-5

# --- 1. what δ means ------------------------------------------------------------------------
EXPOSURE_DELTA_DOMAIN = (1e-12, 1e-1)


class Exposure(NamedTuple):
    people: int
    delta: float
    expected: float  # n·δ people published on average
    at_least_one: float  # 1 − (1 − δ)^n
    one_over_n: float


def exposure(people: int, delta: float) -> Exposure:
    expected, at_least_one = dp.delta_exposure(delta, people)
    return Exposure(people, delta, expected, at_least_one, 1.0 / people)


@datasets.cached(max_entries=32)
def exposure_curve(people: int) -> pd.DataFrame:
    """The chance that "publish each record with probability δ" publishes at least one of
    `people` records, for δ on a log grid over the chart's fixed axis."""
    deltas = np.geomspace(*EXPOSURE_DELTA_DOMAIN, 111)
    chance = [dp.delta_exposure(float(d), people)[1] for d in deltas]
    return pd.DataFrame(
        {"delta": deltas, "chance": chance, "curve": "publish each record with probability δ"}
    )


@datasets.cached(max_entries=64)
def exposure_marks(result: Exposure) -> pd.DataFrame:
    """Your δ as a point on the curve (its words in the title: exposure_title)."""
    return pd.DataFrame({"delta": [result.delta], "chance": [result.at_least_one]})


def exposure_title(result: Exposure) -> list[str]:
    """The exposure chart's title: n, then your δ's diamond and its chance."""
    return [
        f"(0, δ)-DP that publishes records: n = {result.people:,}",
        f"◆ your δ = {text.power_of_ten(result.delta)}: {text.percent(result.at_least_one)}",
    ]


@datasets.cached(max_entries=64)
def one_over_n_rule(people: int) -> pd.DataFrame:
    return pd.DataFrame(
        {"x": [1.0 / people], "label": [f"δ = 1/n = {text.power_of_ten(1 / people)}"]}
    )


# --- 2. Laplace against Gaussian ------------------------------------------------------------
EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)
DEFAULT_EPSILON = 1.0
OUTPUT_DOMAIN = (-30.0, 31.0)  # noisy count minus the true count of D, in people
DENSITY_DOMAIN = (1e-12, 3.0)
LOSS_DOMAIN = (-2.0, 4.0)  # privacy loss in units of ε
LOSS_BIN = 0.1
LOSS_MASS_DOMAIN = (1e-9, 1.0)
WORLD_D = "D: without you"
WORLD_D_PRIME = "D′: with you"
WITHIN = "loss ≤ ε"
BEYOND = "loss > ε"


class Calibration(NamedTuple):
    """Both mechanisms calibrated to the same (ε, δ) for a count (Δ = 1)."""

    epsilon: float
    delta: float
    laplace_scale: float  # b = Δ/ε (pure ε-DP; δ = 0)
    laplace_sd: float
    sigma: float  # the analytic σ
    loss_mean: float  # η = Δ²/(2σ²) = ρ
    loss_sd: float  # √(2η) = Δ/σ
    tail: float  # P[L > ε]
    exact_delta: float  # δ(ε) at σ
    rho: float


@datasets.cached(max_entries=128)
def calibration(epsilon: float, delta: float) -> Calibration:
    sigma = dp.analytic_gaussian_sigma(SENSITIVITY, epsilon, delta)
    mean, sd = dp.gaussian_privacy_loss_distribution(SENSITIVITY, sigma)
    return Calibration(
        epsilon=epsilon,
        delta=delta,
        laplace_scale=dp.laplace_scale(SENSITIVITY, epsilon),
        laplace_sd=dp.laplace_std(SENSITIVITY, epsilon),
        sigma=sigma,
        loss_mean=mean,
        loss_sd=sd,
        tail=dp.gaussian_loss_tail(sigma, SENSITIVITY, epsilon),
        exact_delta=dp.gaussian_delta(sigma, SENSITIVITY, epsilon),
        rho=dp.gaussian_zcdp_rho(SENSITIVITY, sigma),
    )


# Step 0.5: the Laplace kinks at 0 and 1 lie on the grid (its log-densities are straight
# between them) and the narrowest Gaussian here (σ ≈ 0.69 at ε = 10) still spans 3 points a σ.
_OUTPUTS = np.round(np.arange(OUTPUT_DOMAIN[0], OUTPUT_DOMAIN[1] + 1e-9, 0.5), 2)


def _gaussian_pdf(y: np.ndarray, loc: float, sigma: float) -> np.ndarray:
    return np.exp(-0.5 * ((y - loc) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))


def _two_worlds(d: np.ndarray, d_prime: np.ndarray) -> pd.DataFrame:
    low = DENSITY_DOMAIN[0] / 10  # below the axis: clamped there (log scale)
    return pd.DataFrame(
        {
            "output": np.r_[_OUTPUTS, _OUTPUTS],
            "world": [WORLD_D] * _OUTPUTS.size + [WORLD_D_PRIME] * _OUTPUTS.size,
            "density": np.maximum(np.r_[d, d_prime], low),
        }
    )


@datasets.cached(max_entries=128)
def laplace_densities(epsilon: float) -> pd.DataFrame:
    """Densities of M(D) = c + Lap(1/ε) and M(D') = c + 1 + Lap(1/ε) over the output (minus
    c), on the fixed output grid."""
    b = dp.laplace_scale(SENSITIVITY, epsilon)
    d = dp.laplace_pdf(_OUTPUTS, loc=0.0, scale=b)
    d_prime = dp.laplace_pdf(_OUTPUTS, loc=SENSITIVITY, scale=b)
    return _two_worlds(d, d_prime)


@datasets.cached(max_entries=128)
def gaussian_densities(epsilon: float, delta: float) -> pd.DataFrame:
    """Densities of M(D) = c + N(0, σ²) and M(D') = c + 1 + N(0, σ²), σ analytic for (ε, δ)."""
    sigma = calibration(epsilon, delta).sigma
    return _two_worlds(_gaussian_pdf(_OUTPUTS, 0.0, sigma), _gaussian_pdf(_OUTPUTS, 1.0, sigma))


_LOSS_EDGES = np.round(np.arange(LOSS_DOMAIN[0], LOSS_DOMAIN[1] + 1e-9, LOSS_BIN), 10)


def _loss_bins(cdf_at_edges: np.ndarray) -> pd.DataFrame:
    """Mass per right-closed bin (a, b] of the loss / ε from its CDF at the bin edges (so
    Laplace's atom at exactly ε lands in the bin ending at 1, not beyond it). Every bin is a
    row, an empty one with no mass (NaN, which the chart leaves out): the same rows at every
    ε and δ, so that the chart is redrawn in place."""
    mass = np.diff(cdf_at_edges)
    starts, ends = _LOSS_EDGES[:-1], _LOSS_EDGES[1:]
    return pd.DataFrame(
        {
            "start": starts,
            "end": ends,
            "mass": np.where(mass > 0, np.maximum(mass, LOSS_MASS_DOMAIN[0] / 10), np.nan),
            "side": np.where(starts >= 1.0 - 1e-9, BEYOND, WITHIN),
        }
    )


@datasets.cached(max_entries=128)
def laplace_loss_bins(epsilon: float) -> pd.DataFrame:
    """The Laplace mechanism's privacy loss for outputs of M(D), binned in units of ε:
    all of it in [−ε, ε], half of it exactly at ε."""
    return _loss_bins(dp.laplace_privacy_loss_cdf(_LOSS_EDGES * epsilon, epsilon))


@datasets.cached(max_entries=128)
def gaussian_loss_bins(epsilon: float, delta: float) -> pd.DataFrame:
    """The Gaussian mechanism's privacy loss L ~ N(η, 2η), binned in units of ε."""
    from scipy.special import ndtr  # scipy: a runtime dependency (dp.gaussian needs it)

    cal = calibration(epsilon, delta)
    return _loss_bins(ndtr((_LOSS_EDGES * epsilon - cal.loss_mean) / cal.loss_sd))


@datasets.cached(max_entries=64)
def epsilon_rule_in_loss_units() -> pd.DataFrame:
    return pd.DataFrame({"x": [1.0], "label": ["ε"]})


DELTA_CURVE_EPSILONS = np.geomspace(0.01, 10.0, 121)
DELTA_CURVE_DOMAIN = (1e-14, 1.0)
EXACT = "exact δ(ε′)"
TAIL = "P[loss > ε′]"


@datasets.cached(max_entries=128)
def delta_curve(epsilon: float, delta: float) -> pd.DataFrame:
    """For the σ calibrated at (ε, δ): the exact δ(ε′) and the tail P[L > ε′] for every ε′
    on a fixed log grid. The mechanism is (ε′, δ(ε′))-DP for all of them at once."""
    sigma = calibration(epsilon, delta).sigma
    low = DELTA_CURVE_DOMAIN[0] / 10
    exact = np.maximum(dp.gaussian_delta(sigma, SENSITIVITY, DELTA_CURVE_EPSILONS), low)
    tail = np.maximum(dp.gaussian_loss_tail(sigma, SENSITIVITY, DELTA_CURVE_EPSILONS), low)
    n = DELTA_CURVE_EPSILONS.size
    return pd.DataFrame(
        {
            "epsilon": np.r_[DELTA_CURVE_EPSILONS, DELTA_CURVE_EPSILONS],
            "curve": [EXACT] * n + [TAIL] * n,
            "delta": np.r_[exact, tail],
        }
    )


# Your (ε, δ) on the falling δ(ε′) curve, as a diamond whose words are in the title: beside
# it the curves fall steeply and the dashed tail lies above, and a label there was crossed by
# one of them on every side in some state (right of it and above at ε = 0.1; it came down
# through its last character on a projector)
@datasets.cached(max_entries=64)
def calibration_mark(cal: Calibration) -> pd.DataFrame:
    return pd.DataFrame({"epsilon": [cal.epsilon], "delta": [cal.delta]})


def calibration_words(cal: Calibration) -> str:
    return f"◆ your (ε, δ) = ({text.number(cal.epsilon)}, {text.power_of_ten(cal.delta)})"


# --- 3. choosing σ --------------------------------------------------------------------------
SIGMA_EPSILONS = np.geomspace(0.05, 5.0, 61)
SIGMA_DOMAIN = (0.1, 2_000.0)
CLASSIC = "classic σ (Dwork & Roth, valid for ε < 1)"
ANALYTIC = "analytic σ (Balle & Wang, any ε)"
LAPLACE_SD = "Laplace noise SD √2/ε (δ = 0)"
SIGMA_SERIES = (CLASSIC, ANALYTIC, LAPLACE_SD)
REFERENCE_EPSILON = 0.5


@datasets.cached(max_entries=32)
def sigma_frame(delta: float) -> pd.DataFrame:
    """Noise SD for one count against ε at this δ: the classic σ (only where its theorem
    holds, ε < 1), the analytic σ, and the Laplace mechanism's SD for comparison."""
    rows = []
    for eps in SIGMA_EPSILONS:
        eps = float(eps)
        if eps < 1.0:
            rows.append((eps, CLASSIC, dp.gaussian_sigma_classic(SENSITIVITY, eps, delta)))
        rows.append((eps, ANALYTIC, dp.analytic_gaussian_sigma(SENSITIVITY, eps, delta)))
        rows.append((eps, LAPLACE_SD, dp.laplace_std(SENSITIVITY, eps)))
    return pd.DataFrame(rows, columns=["epsilon", "method", "sigma"])


# ε choices of section 3's own slider: the chart's range, both sides of ε = 1
SIGMA_CHOICES: tuple[float, ...] = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0, 1.5, 2.0, 3.0, 5.0)


class SigmaComparison(NamedTuple):
    epsilon: float
    delta: float
    classic: float | None  # None for ε >= 1, where Dwork & Roth's Thm A.1 does not hold
    analytic: float
    laplace_sd: float
    saving: float | None  # 1 − analytic / classic
    classic_delta: float | None  # the δ the classic σ really gives (far below the target)
    crossover: float  # the ε at which the analytic σ equals Laplace's SD, for this δ


@datasets.cached(max_entries=32)
def sigma_comparison(delta: float, epsilon: float = REFERENCE_EPSILON) -> SigmaComparison:
    classic = dp.gaussian_sigma_classic(SENSITIVITY, epsilon, delta) if epsilon < 1.0 else None
    analytic = dp.analytic_gaussian_sigma(SENSITIVITY, epsilon, delta)
    return SigmaComparison(
        epsilon,
        delta,
        classic,
        analytic,
        dp.laplace_std(SENSITIVITY, epsilon),
        None if classic is None else 1.0 - analytic / classic,
        None if classic is None else dp.gaussian_delta(classic, SENSITIVITY, epsilon),
        dp.laplace_gaussian_crossover(delta),
    )


def noise_verdict(result: SigmaComparison) -> str:
    """Which mechanism needs less noise for one count at this (ε, δ), by how much, and the ε
    at which they cross for this δ: computed, because the answer flips with ε and δ."""
    gauss, laplace = result.analytic, result.laplace_sd
    at = f"At ε = {text.number(result.epsilon)} and δ = {text.power_of_ten(result.delta)}"
    if text.number(gauss) == text.number(laplace):
        verdict = f"{at}, the two need the same noise: SD {text.number(laplace)}."
    elif laplace < gauss:
        verdict = (
            f"{at}, **Laplace needs less noise** than the Gaussian: SD "
            f"{text.number(laplace)} against σ = {text.number(gauss)} "
            f"({text.percent(1.0 - laplace / gauss)} less), and it gives pure DP (δ = 0)."
        )
    else:
        verdict = (
            f"{at}, **the Gaussian needs less noise** than Laplace: σ = {text.number(gauss)} "
            f"against SD {text.number(laplace)} ({text.percent(1.0 - gauss / laplace)} less), "
            "paid for with the δ."
        )
    cross = text.number(result.crossover)
    return (
        f"{verdict} For this δ the two cross at ε ≈ {cross}: below it the Gaussian adds less "
        "noise (its σ stays bounded as ε → 0, because δ alone already allows some release, "
        f"while Laplace's SD grows like 1/ε); above ε ≈ {cross} Laplace adds less."
    )


@datasets.cached(max_entries=64)
def classic_limit_rule() -> pd.DataFrame:
    return pd.DataFrame({"x": [1.0], "label": ["ε = 1: the classic proof ends"]})


# --- 4. many queries ------------------------------------------------------------------------
NOISE_SDS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
DEFAULT_NOISE_SD = 10.0
QUERY_COUNTS = np.unique(np.round(np.geomspace(1, 1_000, 61)).astype(int))
TOTAL_DOMAIN = (0.001, 10_000.0)
BASIC = "Laplace, basic composition (k·ε)"
ADVANCED = "Laplace, advanced composition"
ZCDP = "Gaussian, zCDP (ρ adds up)"
COMPOSITION_SERIES = (BASIC, ADVANCED, ZCDP)


class Budget(NamedTuple):
    noise_sd: float
    delta: float
    epsilon_each: float  # Laplace ε per answer for this SD: √2/SD
    rho_each: float  # Gaussian ρ per answer for σ = SD: 1/(2 SD²)
    crossover: int | None  # the smallest k at which Gaussian + zCDP costs less than k·ε
    at_100: dict[str, float]


def _totals(noise_sd: float, delta: float, k: int) -> dict[str, float]:
    eps_each = SENSITIVITY * math.sqrt(2.0) / noise_sd  # Laplace b = SD/√2
    rho_each = dp.gaussian_zcdp_rho(SENSITIVITY, noise_sd)
    return {
        BASIC: dp.sequential_composition([eps_each] * k),
        ADVANCED: dp.advanced_composition(eps_each, 0.0, k, delta)[0],
        ZCDP: dp.zcdp_to_approx_dp(dp.zcdp_compose([rho_each] * k), delta),
    }


@datasets.cached(max_entries=64)
def composition_frame(noise_sd: float, delta: float) -> pd.DataFrame:
    """Total ε (at δ for the last two) of k counting queries, each answered with noise of
    this SD, for k on a log grid from 1 to 1,000."""
    rows = []
    for k in QUERY_COUNTS:
        for series, total in _totals(noise_sd, delta, int(k)).items():
            rows.append((int(k), series, min(max(total, TOTAL_DOMAIN[0]), TOTAL_DOMAIN[1] * 10)))
    return pd.DataFrame(rows, columns=["queries", "method", "total epsilon"])


@datasets.cached(max_entries=64)
def budget(noise_sd: float, delta: float) -> Budget:
    crossover = None
    for k in range(1, 1_001):
        totals = _totals(noise_sd, delta, k)
        if totals[ZCDP] < totals[BASIC]:
            crossover = k
            break
    return Budget(
        noise_sd,
        delta,
        SENSITIVITY * math.sqrt(2.0) / noise_sd,
        dp.gaussian_zcdp_rho(SENSITIVITY, noise_sd),
        crossover,
        _totals(noise_sd, delta, 100),
    )


def growth_sentence(result: Budget) -> str:
    """How each total grows with k at this noise SD and δ: basic like k; the other two like √k
    only while their √k term leads, up to a k computed from the current ε (or ρ) and δ."""
    last = int(QUERY_COUNTS[-1])
    k_advanced = dp.advanced_composition_linear_from(result.epsilon_each, result.delta)
    k_zcdp = dp.zcdp_linear_from(result.rho_each, result.delta)

    def on_chart(k: float, name: str) -> str:
        if k > last:
            return f"so on this chart (k ≤ {last:,}) {name} stays in its √k regime"
        return f"so on this chart {name} grows like k from k ≈ {math.ceil(k):,} on"

    return (
        "Basic composition grows like k. Advanced composition grows like √k only while its "
        "√k term leads, for k below 2 ln(1/δ)/($e^ε$ − 1)² = "
        f"{text.number(k_advanced)} here (ε = {text.number(result.epsilon_each)} per answer); "
        f"past it the kε($e^ε$ − 1) term grows like k, {on_chart(k_advanced, 'it')}. zCDP's "
        "total, in its simple form ρk + 2√(ρk ln(1/δ)) (the tight conversion the chart uses "
        "is a little lower and has the same shape), likewise grows like √k for k below "
        "4 ln(1/δ)/ρ = "
        f"{text.number(k_zcdp)} here (ρ = {text.number(result.rho_each)} per answer), "
        f"{on_chart(k_zcdp, 'zCDP')}. In the √k regime independent noises partly cancel in "
        "the privacy loss, just as they do in a sum; zCDP gets there without advanced "
        "composition's extra terms."
    )


def crossover_label(result: Budget) -> str:
    return f"Gaussian cheaper from k = {result.crossover:,}"


@datasets.cached(max_entries=64)
def crossover_rule(result: Budget, bottom: bool = False) -> pd.DataFrame:
    """The first k at which Gaussian + zCDP costs less than Laplace's k·ε, as a rule, its
    label at the plot's bottom with `bottom` (charts.crossover_label_at_bottom)."""
    if result.crossover is None:
        return pd.DataFrame({"x": [], "label": [], "bottom": []})
    return pd.DataFrame(
        {"x": [float(result.crossover)], "label": [crossover_label(result)], "bottom": [bottom]}
    )


# --- 5. real numbers ------------------------------------------------------------------------


@datasets.cached(max_entries=64)
def deployments_frame(delta: float) -> pd.DataFrame:
    """The deployments of data/deployments.csv (the one list; "What ε means in practice"
    charts it); a budget published as ρ gets the ε it implies at your δ (tight conversion)."""
    rows = []
    for d in load_deployments().to_dict("records"):
        if not math.isnan(d["rho"]):
            at_delta = text.number(dp.zcdp_to_approx_dp(d["rho"], delta))
            published = f"ρ = {text.number(d['rho'])}"
            note = f"{at_delta} at δ = {text.power_of_ten(delta)} (converted here)"
        elif not math.isnan(d["delta"]):
            published = f"ε = {text.number(d['epsilon'])}, δ = {text.power_of_ten(d['delta'])}"
            note = f"{text.number(d['epsilon'])} at δ = {text.power_of_ten(d['delta'])}"
        else:
            published = f"ε = {text.number(d['epsilon'])}"
            note = f"{text.number(d['epsilon'])} (δ = 0)"
        rows.append(
            {
                "deployment": f"{d['organisation']}: {d['release']} ({d['year']})",
                "published": published,
                "ε": note,
                "unit of privacy": d["unit_of_privacy"],
                "period": d["period"],
                "source": d["source"],
            }
        )
    return pd.DataFrame(rows)


@datasets.cached(max_entries=64)
def deployments_shown(delta: float) -> pd.DataFrame:
    """The table as the page writes it (its cells wrap): without the sources, whose long
    addresses are in the download and in "What ε means in practice", and every cell from the
    file made plain text."""
    frame = deployments_frame(delta).drop(columns="source")
    return frame.map(text.plain)


RHO_DEFAULT = 2.56
RHO_RANGE = (0.001, 100.0)
CONVERT_DELTAS = np.geomspace(1e-14, 1e-2, 61)
CONVERT_DOMAIN = (0.01, 1_000.0)
TIGHT = "tight (Canonne, Kamath & Steinke 2020)"
SIMPLE = "simple: ρ + 2√(ρ ln(1/δ))"


class Conversion(NamedTuple):
    rho: float
    delta: float
    tight: float
    simple: float


def conversion(rho: float, delta: float) -> Conversion:
    return Conversion(
        rho, delta, dp.zcdp_to_approx_dp(rho, delta), dp.zcdp_to_approx_dp_simple(rho, delta)
    )


@datasets.cached(max_entries=64)
def conversion_frame(rho: float) -> pd.DataFrame:
    """ε against δ for ρ-zCDP: the tight and the simple conversion."""
    rows = []
    for d in CONVERT_DELTAS:
        d = float(d)
        rows.append((d, TIGHT, dp.zcdp_to_approx_dp(rho, d)))
        rows.append((d, SIMPLE, dp.zcdp_to_approx_dp_simple(rho, d)))
    return pd.DataFrame(rows, columns=["delta", "conversion", "epsilon"])


# Both conversions fall as δ grows, the simple one a little above the tight one, on whose
# curve the diamond sits: left of the diamond (its label's side from the axis's middle on)
# the curves are higher, so the label goes under it; above it, the simple curve crossed
# "ε = 8.206" on a phone at δ = 10⁻².
CONVERT_MIDDLE = math.sqrt(float(CONVERT_DELTAS[0]) * float(CONVERT_DELTAS[-1]))


@datasets.cached(max_entries=64)
def conversion_mark(result: Conversion) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "delta": [result.delta],
            "epsilon": [result.tight],
            "label": [f"ε = {text.number(result.tight)}"],
            "place": [charts.UNDER if result.delta >= CONVERT_MIDDLE else charts.ABOVE],
        }
    )
