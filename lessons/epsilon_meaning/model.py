"""What ε means in practice (the numbers behind the page): ε as the odds an attacker may
reach and as the advantage any test may have, an attack's rates inside the (ε, δ) privacy
region, the budgets real deployments published (data/deployments.csv), and a budget split
over five statistics.

Every formula is dp/'s: dp.posterior_bound and dp.advantage_bound (dp/definition.py),
dp.tpr_bound (dp/audit.py), dp.zcdp_to_approx_dp and dp.zcdp_compose (dp/gaussian.py),
dp.sequential_composition (dp/composition.py)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize

import dp
from ui import datasets, text, tracing
from ui.deployments import (
    ASSUMED_DELTA,
    DAYS_PER_YEAR,
    deployments,
    per_year,
)

# --- 1. ε as odds -----------------------------------------------------------------------------
DEFAULT_EPSILON = 1.0
TABLE_EPSILONS: tuple[float, ...] = (0.1, 1.0, math.log(3), 5.0, 10.0, 20.0)
PRIORS: tuple[float, ...] = (0.01, 0.05, 0.1, 0.25, 0.5)
DEFAULT_PRIOR = 0.1
EPSILON_DOMAIN = (0.05, 20.0)
CURVE_EPSILONS = np.geomspace(*EPSILON_DOMAIN, 121)
POSTERIOR = "the attacker's belief, at most"
ADVANTAGE = "the best test's advantage, at most"
CURVES = (POSTERIOR, ADVANTAGE)


def epsilon_label(epsilon: float) -> str:
    """ε as the page writes it: ln 3 by its name."""
    return "ln 3" if math.isclose(epsilon, math.log(3)) else text.number(epsilon)


@datasets.cached(max_entries=16)
def odds_curves(prior: float) -> pd.DataFrame:
    """Both bounds against ε (log axis): the posterior an attacker who started at `prior`
    may reach (dp.posterior_bound) and the largest TPR − FPR of any test telling the two
    neighbours apart (dp.advantage_bound, δ = 0)."""
    posterior = [dp.posterior_bound(prior, float(e)) for e in CURVE_EPSILONS]
    advantage = [dp.advantage_bound(float(e)) for e in CURVE_EPSILONS]
    return pd.DataFrame(
        {
            "epsilon": np.concatenate([CURVE_EPSILONS, CURVE_EPSILONS]),
            "bound": np.concatenate([posterior, advantage]),
            "curve": [POSTERIOR] * CURVE_EPSILONS.size + [ADVANTAGE] * CURVE_EPSILONS.size,
        }
    )


@datasets.cached(max_entries=16)
def odds_table(prior: float) -> pd.DataFrame:
    """The two bounds at ε = 0.1, 1, ln 3, 5, 10, 20 (and e^ε, the likelihood ratio)."""
    return pd.DataFrame(
        {
            "ε": [epsilon_label(e) for e in TABLE_EPSILONS],
            "exp(ε): odds grow at most ×": [text.number(math.exp(e)) for e in TABLE_EPSILONS],
            f"belief from {text.percent(prior)}, at most": [
                text.percent(dp.posterior_bound(prior, e)) for e in TABLE_EPSILONS
            ],
            "advantage of any test, at most": [
                text.percent(dp.advantage_bound(e)) for e in TABLE_EPSILONS
            ],
        }
    )


def rule_label(epsilon: float) -> str:
    return f"ε = {epsilon_label(epsilon)}"


@datasets.cached(max_entries=32)
def epsilon_rule(epsilon: float, bottom: bool = False) -> pd.DataFrame:
    """Your ε as the chart's rule, its label at the plot's bottom with `bottom`
    (charts.rule_label_at_bottom)."""
    return pd.DataFrame({"x": [epsilon], "label": [rule_label(epsilon)], "bottom": [bottom]})


def belief(prior: float, epsilon: float) -> float:
    return dp.posterior_bound(prior, epsilon)


def advantage(epsilon: float) -> float:
    return dp.advantage_bound(epsilon)


def odds_factor(epsilon: float) -> float:
    return dp.likelihood_ratio_bound(epsilon)


BELIEF_BANDS = ("under 20%", "20% to 50%", "50% to 90%", "90% or more")
BAND_EDGES = (0.2, 0.5, 0.9)


def belief_band(prior: float, epsilon: float) -> int:
    """The index in BELIEF_BANDS of the most an attacker can believe after one output."""
    return int(np.searchsorted(BAND_EDGES, dp.posterior_bound(prior, epsilon), side="right"))


# --- 2. ε as an attack's ceiling ---------------------------------------------------------------
ATTACK_EPSILONS = tracing.EPSILONS
ATTACK_STUDY = tracing.DEFAULT_STUDY
ATTACK_ATTRIBUTES = tracing.DEFAULT_ATTRIBUTES
SEED_ATTACK = tracing.SEED_RELEASE  # the membership lesson's release, the same draw


ATTACK_NAME = "with Laplace noise"  # the attack's curve with noise (the other: no noise)


@dataclass(frozen=True)
class Ceiling:
    epsilon: float
    advantage: float  # the attack's largest TPR − FPR over its thresholds
    bound: float  # dp.advantage_bound(ε)
    found: float  # members found at 1% false positives
    allowed: float  # the most any attack finds at 1% (dp.tpr_bound)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def attack_roc(epsilon: float, seed: int) -> pd.DataFrame:
    """The membership lesson's tracing attack (n = 50, d = 200) on exact averages and on
    averages with Laplace noise at ε: both ROC curves."""
    return tracing.noisy_roc(
        ATTACK_STUDY,
        ATTACK_ATTRIBUTES,
        "Laplace",
        epsilon,
        seed,
        tracing.NO_NOISE,
        ATTACK_NAME,
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def ceiling(epsilon: float, seed: int) -> Ceiling:
    frame = attack_roc(epsilon, seed)
    noisy = frame[frame["curve"] == ATTACK_NAME]
    result = tracing.noisy_attack(ATTACK_STUDY, ATTACK_ATTRIBUTES, "Laplace", epsilon, seed)
    return Ceiling(
        epsilon=epsilon,
        advantage=float((noisy["tpr"] - noisy["fpr"]).max()),
        bound=dp.advantage_bound(epsilon),
        found=result.tpr_at_target,
        allowed=tracing.most_found(tracing.FPR_TARGET, epsilon, 0.0),
    )


def ceiling_words(result: Ceiling) -> str:
    """Section 2's paragraph: the attack's advantage under the ceiling tanh(ε/2), and what a
    ceiling that rounds to 100% (ε of 20 and more) promises: nothing."""
    ceiling = text.chance(result.bound)
    below = result.advantage <= result.bound
    words = (
        f"At ε = {text.number(result.epsilon)} the attack with noise reaches an advantage of "
        f"{text.percent(result.advantage)}; the most any test can reach is {ceiling}"
        + (
            ". It stays under the line: the ceiling holds for this attack as it must for any."
            if below
            else ", and this finite sample of people pokes above it by chance (the region "
            f"bounds rates, this curve estimates them from {ATTACK_STUDY} members)."
        )
        + " The curve without noise is under no such promise."
    )
    if ceiling == "100%" or ceiling.startswith("over"):  # the promise rules nothing out
        return words + (
            f" A ceiling of {ceiling} allows practically any attack: what limits this one is the "
            "noise actually added, not the promise."
        )
    if result.epsilon >= 10:
        return words + f" A ceiling of {ceiling} allows almost any attack."
    return words + (
        f" At ε = 10 the ceiling is {text.percent(advantage(10.0))}: a promise that allows "
        "almost any attack."
    )


# --- 3. What deployments chose --------------------------------------------------------------
_ADDRESS = re.compile(r"https?://[^\s;,)]+")


@datasets.cached(max_entries=1)
def deployments_table() -> pd.DataFrame:
    """Every row as the page's written table shows it (plain text, wrapping): the number of
    its source in the list under it, and the ε as charted with how it was reached."""
    table = deployments().table
    return pd.DataFrame(
        {
            "source": [str(i) for i in range(1, len(table) + 1)],
            "organisation": table["organisation"].map(text.plain),
            "release": table["release"].map(text.plain),
            "year": table["year"].astype(str),
            "unit of privacy": table["unit_of_privacy"].map(text.plain),
            "period": table["period"].map(text.plain),
            "ε": [text.number(e) for e in table["epsilon_used"]],
            "ε is": table["how"].map(text.plain),
        }
    )


@datasets.cached(max_entries=1)
def sources_markdown() -> str:
    """The sources as a numbered Markdown list: each reference as plain text, then each of
    its addresses as a link (an address is only ever a link target, never Markdown)."""
    lines = []
    for number, source in enumerate(deployments().table["source"], start=1):
        addresses = _ADDRESS.findall(source)
        parts = (_ADDRESS.sub("", part).strip(" ,:") for part in source.split(";"))
        words = "; ".join(part for part in parts if part)
        links = " ".join(f"[{text.plain(_host(a))}]({a})" for a in addresses)
        lines.append(f"{number}. {text.plain(words)} {links}".rstrip())
    return "\n".join(lines)


def _host(address: str) -> str:
    return address.split("/")[2]


CENSUS_RHO_UNROUNDED = (542 / 339) ** 2  # the Bureau's persons-file ρ: 2.556226…


@datasets.cached(max_entries=8)
def year_words(unit: str) -> str:
    """What a per-day unit's largest budget says about a whole year, composed in the
    currency it was published in: ε adds up by basic composition; a ρ adds up as ρ (zCDP
    composes by addition) and is converted to ε once, after composing. Converting each
    day's ρ first and adding the ε's would give a far looser bound."""
    table = deployments().table
    top = table[table["unit"] == unit].sort_values("epsilon_used", ascending=False).iloc[0]
    head = "**Per day, every day.** A budget per day is spent again the next day. "
    if math.isnan(top["epsilon"]):
        delta = ASSUMED_DELTA if math.isnan(top["delta"]) else float(top["delta"])
        rho_year = dp.zcdp_compose([float(top["rho"])] * DAYS_PER_YEAR)
        epsilon = dp.zcdp_to_approx_dp(rho_year, delta)
        return head + (
            f"{top['label']} is ρ = {text.number(float(top['rho']))}-zCDP per day, and ρ adds "
            f"up: {DAYS_PER_YEAR} days are {text.number(rho_year)}-zCDP, that is ε = "
            f"{text.number(epsilon)} at δ = {text.power_of_ten(delta)} over a year (converted "
            "after composing; adding up each day's ε would give "
            f"{text.number(per_year(float(top['epsilon_used'])))}, a bound far looser than "
            "what the published ρ promises)."
        )
    return head + (
        f"By basic composition, {top['label']} at ε = {text.number(float(top['epsilon']))} per "
        f"day is bounded by ε = {text.number(per_year(float(top['epsilon'])))} over a year: "
        "the published numbers promise no more than that about a whole year of your data."
    )


# --- 4. Splitting a budget --------------------------------------------------------------------
TOTAL_EPSILON = 1.0
SPLIT_DELTA = 1e-5  # the Gaussian split's δ: (1, 10⁻⁵)-DP in total
STATISTICS = ("aged 60+", "women", "earning >50K", "self-employed", "born abroad")
SHARE_OPTIONS: tuple[float, ...] = tuple(round(0.05 * k, 2) for k in range(1, 21))
DEFAULT_SHARE = 0.2
WEIGHT_OPTIONS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0)
YOURS = "yours"
BEST = "best Laplace"
GAUSSIAN = "best Gaussian"
SPLITS = (YOURS, BEST, GAUSSIAN)


@datasets.cached(max_entries=1, census_only=True)
def statistic_counts() -> tuple[int, ...]:
    """The five true counts (each of sensitivity 1 under add/remove-one-person)."""
    census = datasets.census()
    return (
        int((census["Age"] >= 60).sum()),
        int((census["Sex"] == "Female").sum()),
        int((census["Income"] == ">50K").sum()),
        int(census["Workclass"].astype(str).str.startswith("Self-emp").sum()),
        int(
            (
                census["NativeCountry"].notna()
                & (census["NativeCountry"].astype(str) != "United-States")
            ).sum()
        ),
    )


def laplace_best(weights: tuple[float, ...], total: float = TOTAL_EPSILON) -> np.ndarray:
    """The ε_i that minimise Σ w_i·Var_i = Σ w_i·2/ε_i² with Σ ε_i = total (basic
    composition): setting the derivative −4w_i/ε_i³ equal for all i gives ε_i ∝ w_i^(1/3)."""
    w = np.asarray(weights, dtype=float) ** (1 / 3)
    return total * w / w.sum()


@datasets.cached(max_entries=16)
def gaussian_rho(epsilon: float = TOTAL_EPSILON, delta: float = SPLIT_DELTA) -> float:
    """The largest total ρ whose (ε, δ) conversion (dp.zcdp_to_approx_dp, increasing in ρ)
    is at most ε at δ."""
    return float(
        optimize.brentq(lambda rho: dp.zcdp_to_approx_dp(rho, delta) - epsilon, 1e-9, epsilon)
    )


def gaussian_best(weights: tuple[float, ...], rho: float) -> np.ndarray:
    """The ρ_i that minimise Σ w_i·Var_i = Σ w_i/(2ρ_i) with Σ ρ_i = ρ (zCDP composes by
    adding ρ): ρ_i ∝ √w_i."""
    w = np.sqrt(np.asarray(weights, dtype=float))
    return rho * w / w.sum()


@dataclass(frozen=True)
class Split:
    shares: tuple[float, ...]  # your ε_i
    spent: float  # Σ ε_i, by dp.sequential_composition
    over: bool  # spent beyond the budget: nothing is released
    frame: pd.DataFrame  # statistic, split, sd (the error's standard deviation)
    yours: float | None  # Σ w_i·Var_i of your split (None when over budget)
    best: float
    gaussian: float
    best_shares: tuple[float, ...]
    gaussian_rhos: tuple[float, ...]
    gaussian_spent: float  # the ρᵢ composed (dp.zcdp_compose): the ρ of (1, 10⁻⁵)


@datasets.cached(max_entries=64)
def split(shares: tuple[float, ...], weights: tuple[float, ...]) -> Split:
    """Each statistic's error SD under your ε_i (Laplace, √2/ε_i), under the best Laplace
    split and under the best Gaussian split at (1, 10⁻⁵) in total, and each split's weighted
    total Σ w_i·Var_i."""
    released = [s for s in shares if s > 0]
    spent = dp.sequential_composition(released) if released else 0.0
    # a count with nothing left of the budget cannot be released at all
    over = spent > TOTAL_EPSILON + 1e-9 or len(released) < len(shares)
    w = np.asarray(weights, dtype=float)
    yours_sd = np.array([dp.laplace_std(1, s) if s > 0 else np.nan for s in shares])
    best_eps = laplace_best(weights)
    best_sd = np.array([dp.laplace_std(1, float(e)) for e in best_eps])
    rho = gaussian_rho()
    rhos = gaussian_best(weights, rho)
    gauss_sd = np.array([dp.gaussian_sigma_for_rho(1, float(r)) for r in rhos])
    frame = pd.DataFrame(
        {
            "statistic": list(STATISTICS) * 3,
            "split": [YOURS] * 5 + [BEST] * 5 + [GAUSSIAN] * 5,
            "sd": np.concatenate([np.full(5, np.nan) if over else yours_sd, best_sd, gauss_sd]),
        }
    )
    return Split(
        shares=tuple(shares),
        spent=spent,
        over=over,
        frame=frame,
        yours=None if over else float(np.sum(w * yours_sd**2)),
        best=float(np.sum(w * best_sd**2)),
        gaussian=float(np.sum(w * gauss_sd**2)),
        best_shares=tuple(float(e) for e in best_eps),
        gaussian_rhos=tuple(float(r) for r in rhos),
        gaussian_spent=dp.zcdp_compose(list(rhos)),
    )


def remaining(shares: tuple[float, ...]) -> float:
    """What the first four counts leave of the budget for the fifth (0 when nothing)."""
    return max(round(TOTAL_EPSILON - sum(shares), 10), 0.0)


def split_words(result: Split) -> str:
    """What the split buys, from the numbers: over budget, the best, or how far from it;
    and which mechanism needs less noise here."""
    best = ", ".join(text.number(e, 3) for e in result.best_shares)
    if result.over:
        head = (
            f"**Over budget:** the first four counts spend ε = "
            f"{text.number(sum(result.shares[:-1]))} of {text.number(TOTAL_EPSILON)}, which "
            f"leaves nothing for \u201c{STATISTICS[-1]}\u201d: not every count can be released. "
        )
    else:
        ratio = result.yours / result.best
        head = (
            f"Your split spends ε = {text.number(result.spent)} of {text.number(TOTAL_EPSILON)}"
            + (
                " and is the best there is for these weights. "
                if ratio < 1 + 1e-6
                else f"; its weighted error is {text.number(ratio, 3)} times the best split's. "
            )
        )
    if result.gaussian < result.best:
        which = (
            f"Here Gaussian noise under zCDP does better ({text.number(result.gaussian)} "
            f"against {text.number(result.best)}): it pays for five answers at (1, 10⁻⁵) "
            "less than Laplace does at ε = 1."
        )
    else:
        which = (
            f"Here Laplace noise does better than Gaussian noise under zCDP "
            f"({text.number(result.best)} against {text.number(result.gaussian)}): with only "
            "five answers, the δ and the conversion cost more than zCDP's composition saves."
        )
    spent = (
        f"The Gaussian split's ρᵢ compose to ρ = {text.number(result.gaussian_spent)}, "
        f"ε = {text.number(dp.zcdp_to_approx_dp(result.gaussian_spent, SPLIT_DELTA))} at "
        f"δ = {text.power_of_ten(SPLIT_DELTA)}. "
    )
    return head + f"The best Laplace split for these weights is ε = {best}. " + spent + which


def sd_rows(result: Split) -> list[tuple[str, tuple[float, float, float]]]:
    """Per statistic: the SD under your split, the best Laplace and the best Gaussian."""
    frame = result.frame
    # one pass over the rows (20 filtered lookups of the frame were a fifth of the page's
    # first render); the first row of each (statistic, split), as the lookups read it
    sd: dict[tuple[str, str], float] = {}
    for name, kind, value in zip(frame["statistic"], frame["split"], frame["sd"], strict=True):
        sd.setdefault((name, kind), float(value))
    return [(name, tuple(sd[name, kind] for kind in SPLITS)) for name in STATISTICS]


LAPLACE_SHARE = "Laplace εᵢ/ε"
GAUSSIAN_SHARE = "Gaussian ρᵢ/ρ"
SHARE_KINDS = (LAPLACE_SHARE, GAUSSIAN_SHARE)


@datasets.cached(max_entries=64)
def best_shares(weights: tuple[float, ...]) -> pd.DataFrame:
    """Each count's share of the budget in the best split for these weights: εᵢ/ε under
    Laplace noise (∝ w^(1/3)) and ρᵢ/ρ under Gaussian noise (∝ √w)."""
    laplace = laplace_best(weights) / TOTAL_EPSILON
    gaussian = gaussian_best(weights, 1.0)
    return pd.DataFrame(
        {
            "statistic": list(STATISTICS) * 2,
            "kind": [LAPLACE_SHARE] * len(STATISTICS) + [GAUSSIAN_SHARE] * len(STATISTICS),
            "share": np.concatenate([laplace, gaussian]),
        }
    )


@datasets.cached(max_entries=64)
def best_shares_alt(weights: tuple[float, ...]) -> str:
    """The best-split chart's numbers in words, read from the bars it describes (once per
    weights: the pandas pivot it replaced cost 3 ms a render)."""
    bars = best_shares(weights)
    laplace, gaussian = (bars.loc[bars["kind"] == kind, "share"] for kind in SHARE_KINDS)
    return (
        "Bars of each count's best share of the budget: "
        + "; ".join(
            f"{name}: Laplace {text.percent(float(lap))}, Gaussian {text.percent(float(gau))}"
            for name, lap, gau in zip(STATISTICS, laplace, gaussian, strict=True)
        )
        + ". An equal split is a dashed line at 20%."
    )


@datasets.cached(max_entries=1)
def equal_rule() -> pd.DataFrame:
    return pd.DataFrame({"x": [1 / len(STATISTICS)], "label": ["equal split"]})
