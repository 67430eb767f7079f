"""Subsampling and DP as a test (the numbers behind the page): amplification by Poisson
subsampling, the trade-off curves of (ε, δ)-DP and of Gaussian DP with the membership
lesson's attack against them, and DP-SGD's composition by the Gaussian DP central limit
theorem against Google's dp-accounting.

Neighbours add or remove one person (subsampling's amplification is stated for that
relation; DP-SGD's ε is too). Every formula is dp/'s: dp.subsampled_privacy,
dp.gaussian_tradeoff, dp.approx_dp_tradeoff, dp.gdp_delta, dp.gdp_epsilon and
dp.gdp_clt_mu (dp/fdp.py); dp.dpsgd_epsilon (dp/dpsgd.py) for the accountants."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

import dp
from lessons.subsampling import tables
from ui import accountants, datasets, dpsgd_setup, text, tracing

DELTA = 1e-5  # DP-SGD's δ, as in the DP-SGD lesson

# --- 1. amplification by subsampling -----------------------------------------------------------
EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
DEFAULT_EPSILON = 1.0
SAMPLE_RATES: tuple[float, ...] = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
DEFAULT_RATE = 0.01
RATE_DOMAIN = (0.001, 1.0)
AMPLIFIED_DOMAIN = (1e-4, 10.0)
CURVE_RATES = np.geomspace(*RATE_DOMAIN, 61)
AMPLIFIED = "ε' = ln(1 + q(exp(ε) − 1))"
RULE_OF_THUMB = "q·ε (not a bound)"
UNSAMPLED = "ε, on everyone"
AMPLIFICATION_CURVES = (AMPLIFIED, RULE_OF_THUMB, UNSAMPLED)


def growth(epsilon: float) -> float:
    """exp(ε) − 1: what q multiplies in ε' (close to ε only for a small ε)."""
    return math.expm1(epsilon)


NEAR = 1.1  # exp(ε) − 1 "≈ ε" while within 10% of it (ε below about 0.19)


def growth_words(epsilon: float) -> str:
    """Whether exp(ε) − 1 is close to ε, chosen by ε itself (not by how ε' compares with
    q·ε, which is also close at a large q whatever ε)."""
    grown = growth(epsilon)
    if grown <= NEAR * epsilon:
        return (
            f"For an ε this small, exp(ε) − 1 = {text.number(grown)} ≈ ε, and q·ε is a fair guide. "
        )
    return (
        f"With ε = {text.number(epsilon)}, exp(ε) − 1 = {text.number(grown)} is "
        f"{text.number(grown / epsilon, 3)} times ε: sampling helps a mechanism with a small "
        "ε much more than one with a large ε. "
    )


def here_words(epsilon: float, q: float) -> str:
    """Section 1's paragraph at (ε, q): what the sample did to ε, and at q = 1, that there
    was no sample to do anything ("turns ε = 1 into ε' = 1, 1 times q·ε" said nothing)."""
    sampled = amplified(epsilon, q)
    if q >= 1:
        here = (
            f"**Here** q = 1: everyone is in the sample, so ε' = ε = {text.number(epsilon)} "
            "and nothing is amplified; move q below 1. "
        )
    else:
        here = (
            f"**Here** the sample turns ε = {text.number(epsilon)} into ε' = "
            f"{text.number(sampled)}, {text.number(sampled / (q * epsilon))} times q·ε. "
        )
    return (
        here
        + growth_words(epsilon)
        + "q·ε is never a bound: ε' lies above it at every q below 1 (ln(1 + qx) is "
        "concave in q)."
    )


def amplified(epsilon: float, q: float) -> float:
    return dp.subsampled_privacy(epsilon, 0.0, q)[0]


@datasets.cached(max_entries=len(EPSILONS))
def amplification_curves(epsilon: float) -> pd.DataFrame:
    """ε' against q (log axis), beside q·ε and ε itself."""
    rates = CURVE_RATES
    values = {
        AMPLIFIED: [amplified(epsilon, float(q)) for q in rates],
        RULE_OF_THUMB: rates * epsilon,
        UNSAMPLED: np.full(rates.size, epsilon),
    }
    return pd.DataFrame(
        {
            "q": np.tile(rates, len(values)),
            "epsilon": np.concatenate([np.asarray(v, dtype=float) for v in values.values()]),
            "curve": np.repeat(list(values), rates.size),
        }
    )


@datasets.cached(max_entries=len(EPSILONS) * len(SAMPLE_RATES))
def amplification_mark(epsilon: float, q: float) -> pd.DataFrame:
    """Your q's ε' as a diamond (its words in the chart's title: beside it, "ε' = 5.399" was
    crossed by ε's own line at ε = 10, "ε' = 0.001717" by q·ε's at q = 0.001)."""
    return pd.DataFrame({"q": [q], "epsilon": [amplified(epsilon, q)]})


RATIO_BANDS = (
    "below q·ε",
    "close to q·ε (less than twice it)",
    "between 2 and 10 times q·ε",
    "more than 10 times q·ε",
)


def ratio_band(epsilon: float, q: float) -> int:
    """The index in RATIO_BANDS of ε'/(q·ε)."""
    ratio = amplified(epsilon, q) / (q * epsilon)
    if ratio < 1.0:
        return 0
    return 1 if ratio < 2.0 else 2 if ratio < 10.0 else 3


@dataclass(frozen=True)
class Chain:
    """The DP-SGD lesson's run (q, T, δ) at its ε = 1 noise, step by step."""

    sigma: float  # its noise multiplier (the DP-SGD lesson's table)
    q: float
    steps: int
    step_delta: float  # δ per step, so that T steps add up to DELTA by basic composition
    step_epsilon: float  # one step on everyone: (1/σ)-GDP at step_delta / q
    sampled_epsilon: float  # that step on a q-sample
    sampled_delta: float
    basic: float  # T sampled steps by basic composition
    accountant: float  # the RDP accountant's ε for the whole run: σ was calibrated to it


CHAIN_EPSILON = 1.0  # the DP-SGD lesson's run at ε = 1


@datasets.cached(max_entries=1)
def dpsgd_chain() -> Chain:
    """Why DP-SGD's per-step ε is small, and why adding the steps up is not how it is
    counted: one Gaussian step with noise multiplier σ on everyone is (1/σ)-GDP; run on a
    q-sample it has ε' = ln(1 + q(e^ε − 1)) and δ' = qδ; T steps by basic composition add the
    ε' and the δ' (the step's δ chosen so that they add up to DELTA)."""
    q, steps = dpsgd_setup.SAMPLE_RATE, dpsgd_setup.steps()
    sigma = tables.CHAIN_NOISE[CHAIN_EPSILON]
    sampled_delta = DELTA / steps
    step_delta = sampled_delta / q
    step_epsilon = dp.gdp_epsilon(1.0 / sigma, step_delta)
    sampled_epsilon, sampled = dp.subsampled_privacy(step_epsilon, step_delta, q)
    return Chain(
        sigma=sigma,
        q=q,
        steps=steps,
        step_delta=step_delta,
        step_epsilon=step_epsilon,
        sampled_epsilon=sampled_epsilon,
        sampled_delta=sampled,
        basic=dp.sequential_composition([sampled_epsilon] * steps),
        # σ is the smallest noise whose RDP ε is at most 1 (the DP-SGD lesson's table, from
        # dp.dpsgd_noise_multiplier to within 10⁻³; the tests recompute it)
        accountant=CHAIN_EPSILON,
    )


@datasets.cached(max_entries=1)
def chain_table() -> pd.DataFrame:
    chain = dpsgd_chain()
    return pd.DataFrame(
        {
            "": [
                f"one step on everyone (noise multiplier σ = {text.number(chain.sigma)})",
                f"that step on a {text.percent(chain.q)} sample",
                f"{chain.steps} sampled steps, added up (basic composition)",
                f"{chain.steps} sampled steps, by the RDP accountant",
            ],
            "ε": [
                text.number(chain.step_epsilon),
                text.number(chain.sampled_epsilon),
                text.number(chain.basic),
                text.number(chain.accountant),
            ],
            "δ": [
                text.power_of_ten(chain.step_delta),
                text.power_of_ten(chain.sampled_delta),
                text.power_of_ten(chain.sampled_delta * chain.steps),
                text.power_of_ten(DELTA),
            ],
        }
    )


# --- 2. DP as a test ---------------------------------------------------------------------------
MUS: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
DEFAULT_MU = 1.0
LINE_EPSILONS: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
DEFAULT_LINE_EPSILON = 1.0
PAIR_EPSILONS: tuple[float, ...] = (0.5, 1.0, 2.0, 3.0, 5.0)
# α from 0 to 1, dense near 0 where G_μ falls fastest
ALPHAS = np.unique(np.concatenate([[0.0], np.geomspace(1e-4, 1.0, 120), np.linspace(0, 1, 81)]))
GDP = "μ-GDP: the fewest misses"
EDGE = "(ε, δ(ε))-DP: its edge"
COIN = "a coin: β = 1 − α"
ATTACK = "the tracing attack on a μ-GDP release"
TRADEOFF_CURVES = (GDP, EDGE, COIN, ATTACK)
FPR_TARGET = tracing.FPR_TARGET
SEED_ATTACK = tracing.SEED_RELEASE  # the membership lesson's release draw


def line_delta(mu: float, epsilon: float) -> float:
    """δ(ε) of μ-GDP: the (ε, δ) line through that ε touches G_μ."""
    return dp.gdp_delta(mu, epsilon)


def touch_alpha(mu: float, epsilon: float) -> float:
    """Where the line 1 − δ(ε) − e^ε·α touches G_μ: the slope of G_μ at α is
    −exp(μz − μ²/2) with z = Φ⁻¹(1 − α), which is −e^ε at α = Φ(−ε/μ − μ/2)."""
    return float(special.ndtr(-epsilon / mu - mu / 2.0))


# census_only: it is also called from tradeoff_frame, which always runs on the census
@datasets.cached(census_only=True, max_entries=len(MUS) * len(LINE_EPSILONS))
def tradeoff_curves(mu: float, epsilon: float) -> pd.DataFrame:
    delta = line_delta(mu, epsilon)
    values = {
        GDP: dp.gaussian_tradeoff(mu, ALPHAS),
        EDGE: dp.approx_dp_tradeoff(epsilon, delta, ALPHAS),
        COIN: 1.0 - ALPHAS,
    }
    return pd.DataFrame(
        {
            "alpha": np.tile(ALPHAS, len(values)),
            "beta": np.concatenate(list(values.values())),
            "curve": np.repeat(list(values), ALPHAS.size),
        }
    )


def release_epsilon(mu: float) -> float:
    """The study's Gaussian release made exactly μ-GDP: noise σ = Δ₂/μ, which is the
    analytic Gaussian's σ for (ε, δ = the membership lesson's δ) at this ε."""
    return dp.gdp_epsilon(mu, tracing.DELTA)


@dataclass(frozen=True)
class Attack:
    mu: float
    sigma_ratio: float  # σ/Δ₂ of the release the attack reads: 1/μ (the analytic σ is it
    # to the solver's precision, ~1e-15: shown from μ, not as "1 − 2.1·10⁻¹⁵")
    frame: pd.DataFrame  # alpha (false positives), beta (misses)
    missed: float  # the attack's misses at FPR_TARGET
    fewest: float  # G_μ(FPR_TARGET): the fewest misses any test may have there
    below: int  # points of the attack's curve below G_μ (beyond a finite sample's 1e-9)


@datasets.cached(census_only=True, max_entries=len(MUS) * 4)
def attack(mu: float, seed: int) -> Attack:
    """The membership lesson's tracing attack (n = 50, d = 200) on its study's averages
    released with Gaussian noise σ = Δ₂/μ (exactly μ-GDP under replace-one, the membership
    lesson's relation), as a trade-off: α = its false-positive rate, β = 1 − its true-positive
    rate, over every threshold."""
    n, d = tracing.DEFAULT_STUDY, tracing.DEFAULT_ATTRIBUTES
    epsilon = release_epsilon(mu)
    _, l2 = tracing.sensitivities(n, d)
    sigma = tracing.noise_scale("Gaussian", n, d, epsilon)
    roc = tracing.roc_frame(tracing.noisy_attack(n, d, "Gaussian", epsilon, seed), ATTACK)
    frame = pd.DataFrame({"alpha": roc["fpr"], "beta": 1.0 - roc["tpr"]})
    at = int(np.argmin(np.abs(frame["alpha"].to_numpy() - FPR_TARGET)))
    floor = dp.gaussian_tradeoff(mu, frame["alpha"].to_numpy())
    return Attack(
        mu=mu,
        sigma_ratio=1.0 / mu if math.isclose(sigma / l2, 1.0 / mu, rel_tol=1e-9) else sigma / l2,
        frame=frame,
        missed=float(frame["beta"].iloc[at]),
        fewest=float(dp.gaussian_tradeoff(mu, FPR_TARGET)),
        below=int(np.sum(frame["beta"].to_numpy() < floor - 1e-9)),
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def tradeoff_frame(mu: float, epsilon: float, seed: int) -> pd.DataFrame:
    """The chart's curves: G_μ, the touching (ε, δ) edge and the coin, then the attack's
    (α, β) over its thresholds."""
    found = attack(mu, seed).frame
    return pd.concat([tradeoff_curves(mu, epsilon), found.assign(curve=ATTACK)], ignore_index=True)


@datasets.cached(census_only=True, max_entries=len(MUS) * 4)
def attack_mark(mu: float, seed: int) -> pd.DataFrame:
    found = attack(mu, seed)
    return pd.DataFrame({"alpha": [FPR_TARGET], "beta": [found.missed]})


def test_words(mu: float, epsilon: float, found: Attack) -> str:
    """The line touching the curve, and the attack against its floor, from the numbers."""
    delta = line_delta(mu, epsilon)
    touch = touch_alpha(mu, epsilon)
    attack_words = (
        "Every point of the attack's curve stays on or above the floor, as it must for any "
        "test on a μ-GDP release."
        if found.below == 0
        else f"{found.below} of the attack's points dip below the floor: its rates are "
        f"estimated from {tracing.DEFAULT_STUDY} members and "
        f"{tracing.NON_MEMBERS:,} non-members, so a finite sample can pass the floor by "
        "chance (the floor bounds the true rates)."
    )
    return (
        f"**The line and the curve.** At μ = {text.number(mu)}, the (ε = "
        f"{text.number(epsilon)}, δ = {text.power_of_ten(delta)}) edge touches $G_\\mu$ at α = "
        f"{text.percent(touch)} and lies under it everywhere else: μ-GDP is that (ε, δ) "
        "guarantee and every other one at once. Move ε: the line rolls along the curve.\n\n"
        f"**The attack.** The membership lesson's tracing attack, on the study's averages "
        f"released with Gaussian noise σ = Δ₂/μ = {text.number(found.sigma_ratio)}·Δ₂ "
        f"(exactly μ-GDP; replace-one neighbours, as in that lesson): at "
        f"{text.percent(FPR_TARGET)} false positives it misses {text.percent(found.missed)} "
        f"of the members, where the floor allows {text.percent(found.fewest)}. " + attack_words
    )


@datasets.cached(max_entries=len(MUS))
def pairs_table(mu: float) -> pd.DataFrame:
    """The (ε, δ) pairs μ-GDP implies: δ at several ε, and ε at two δ."""
    rows = [(text.number(e), text.power_of_ten(dp.gdp_delta(mu, e))) for e in PAIR_EPSILONS]
    rows += [(text.number(dp.gdp_epsilon(mu, d)), text.power_of_ten(d)) for d in (1e-5, 1e-10)]
    return pd.DataFrame(rows, columns=["ε", "δ"])


# --- 3. composition in this view ---------------------------------------------------------------
SIGMAS: tuple[float, ...] = accountants.SIGMAS  # 0.7, 1.1, 2.0: the DP-SGD lesson's
DEFAULT_SIGMA = dpsgd_setup.DEFAULT_ACCOUNTANT_SIGMA
RATES: tuple[float, ...] = accountants.RATES  # the DP-SGD lesson's q, and a large one
STEPS: tuple[int, ...] = accountants.STEPS  # 10 … 10,000
DEFAULT_STEPS = dpsgd_setup.steps()  # 300
CLT = "GDP central limit theorem"
PLD = "PLD accountant"
RDP = "RDP accountant"
ACCOUNTANTS = (CLT, PLD, RDP)
COMPOSED_DOMAIN = (0.01, 1_000.0)
CLOSE = 0.1  # within 10% of PLD's ε: "about the same"


def clt_epsilon(sigma: float, q: float, steps: int) -> float:
    return dp.gdp_epsilon(dp.gdp_clt_mu(q, steps, sigma), DELTA)


def accountant(sigma: float, q: float, steps: int) -> tuple[float, float]:
    """(PLD's ε, RDP's ε) from the written table (ui/accountant_table.py, which
    ui/accountants.py writes)."""
    return accountants.epsilon(sigma, q, steps)


@datasets.cached(max_entries=len(SIGMAS) * len(RATES))
def composition_frame(sigma: float, q: float) -> pd.DataFrame:
    rows = []
    for steps in STEPS:
        pld, rdp = accountant(sigma, q, steps)
        rows += [
            (steps, CLT, clt_epsilon(sigma, q, steps)),
            (steps, PLD, pld),
            (steps, RDP, rdp),
        ]
    return pd.DataFrame(rows, columns=["steps", "accountant", "epsilon"])


@datasets.cached(max_entries=len(STEPS))
def steps_rule(steps: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(steps)], "label": [f"T = {steps:,}"]})


def clt_verdicts(sigma: float, q: float) -> dict[str, list[int]]:
    """The steps at which the CLT's ε is below PLD's by more than CLOSE (optimistic: it
    promises more privacy than the run has), within CLOSE, or above (pessimistic)."""
    found: dict[str, list[int]] = {"optimistic": [], "close": [], "pessimistic": []}
    for steps in STEPS:
        pld, _ = accountant(sigma, q, steps)
        ratio = clt_epsilon(sigma, q, steps) / pld
        key = "optimistic" if ratio < 1 - CLOSE else "pessimistic" if ratio > 1 + CLOSE else "close"
        found[key].append(steps)
    return found


def _steps_list(steps: list[int]) -> str:
    return ", ".join(f"{s:,}" for s in steps)


def composition_words(sigma: float, q: float, steps: int) -> str:
    """Where the CLT is optimistic, close or pessimistic for this σ and q, from the table."""
    verdicts = clt_verdicts(sigma, q)
    clt, (pld, rdp) = clt_epsilon(sigma, q, steps), accountant(sigma, q, steps)
    parts = [
        f"**At T = {steps:,}** the CLT gives ε = {text.number(clt)}, the PLD accountant "
        f"{text.number(pld)} and RDP {text.number(rdp)}: the CLT's ε is "
        f"{text.percent(abs(clt / pld - 1))} {'below' if clt < pld else 'above'} PLD's."
    ]
    said = []
    if verdicts["optimistic"]:
        said.append(
            f"optimistic (more than {text.percent(CLOSE)} below PLD: it promises privacy the run "
            f"does not have) at T = {_steps_list(verdicts['optimistic'])}"
        )
    if verdicts["close"]:
        said.append(f"within {text.percent(CLOSE)} of PLD at T = {_steps_list(verdicts['close'])}")
    if verdicts["pessimistic"]:
        said.append(
            f"more than {text.percent(CLOSE)} above PLD at T = "
            f"{_steps_list(verdicts['pessimistic'])}"
        )
    parts.append(
        f"At σ = {text.number(sigma)} and q = {text.number(q)}, the CLT is " + "; ".join(said) + "."
    )
    return " ".join(parts)


def clt_mu_at(sigma: float, q: float, steps: int) -> float:
    return dp.gdp_clt_mu(q, steps, sigma)
