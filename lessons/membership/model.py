"""Cached computations of the lesson "Membership inference and auditing": numbers and
DataFrames.

A study of n census people publishes the means of d yes/no attributes; the tracing attack
(dp.tracing_score) scores everyone against a reference sample of non-members. Every number
comes from dp/; the lesson always uses the bundled census (its attributes are census columns).
Chart axes are fixed: scores are drawn in standard deviations of the non-members' scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, text
from ui.tracing import (
    ATTRIBUTE_COUNTS,
    attack,
)

SEED_AUDIT = 20
BUGGY_STREAM = 1  # the buggy count's runs: the honest one's seed + this, a stream of its own


MORE, FEWER, ABOUT_AS_MANY = 0, 1, 2  # the prediction's options, in the page's order
NOISE_Z = 2.0  # a change within 2 standard errors is "about as many"


def found_noise(n: int, d: int, other_d: int) -> float:
    """NOISE_Z standard errors of the change in the share of members found, from d to
    other_d averages. Both runs score the same n members, so the change is paired: with b
    members found only at other_d and c only at d, the change b/n − c/n has standard error
    sqrt(b + c − (b − c)²/n)/n (the paired-proportions error behind McNemar's test). The same
    members found in both runs make it 0."""
    a, b = attack(n, d), attack(n, other_d)
    found, found_other = a.members > a.threshold, b.members > b.threshold
    only_other = int(np.sum(found_other & ~found))
    only_here = int(np.sum(found & ~found_other))
    variance = only_other + only_here - (only_other - only_here) ** 2 / n
    return float(NOISE_Z * np.sqrt(max(variance, 0.0)) / n)


def compare_found(n: int, d: int, other_d: int) -> int:
    """The prediction's right answer, from the two runs: MORE or FEWER members found at
    other_d than at d, or ABOUT_AS_MANY when the change is within `found_noise`."""
    p, q = attack(n, d).tpr_at_target, attack(n, other_d).tpr_at_target
    if q == p or abs(q - p) <= found_noise(n, d, other_d):
        return ABOUT_AS_MANY
    return MORE if q > p else FEWER


def neighbour_for_prediction(d: int) -> int:
    """The d the prediction compares with: twice d, or half of it at the largest d."""
    i = ATTRIBUTE_COUNTS.index(d)
    return ATTRIBUTE_COUNTS[i + 1] if i + 1 < len(ATTRIBUTE_COUNTS) else ATTRIBUTE_COUNTS[i - 1]


# --- 3. auditing -----------------------------------------------------------------------------
TRIALS: tuple[int, ...] = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
DEFAULT_TRIALS = 10_000
CONFIDENCE = 0.95
AUDIT_EPSILONS: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0, 2.0)
WRONG_SENSITIVITY = 0.5  # the bug: noise for Δ = ½ on a count whose Δ is 1


@dataclass(frozen=True)
class AuditCurve:
    """The audit of an honest and a buggy Laplace count at one claimed ε, at every number of
    trials: "ε ≥ bound" with Clopper–Pearson confidence CONFIDENCE."""

    frame: pd.DataFrame  # trials, mechanism, bound
    honest: dict[int, float]
    buggy: dict[int, float]

    def first_catch(self, epsilon: float) -> int | None:
        """The fewest trials (of TRIALS) at which the buggy count's bound exceeds ε."""
        return next((t for t in TRIALS if self.buggy[t] > epsilon), None)


def honest_words(curve: AuditCurve, epsilon: float) -> str:
    """What the honest count's audit shows in this state: its bound stays below the claim,
    or passes it at some number of trials by chance (each bound holds with CONFIDENCE, and
    the chart looks at len(TRIALS) of them: at seed 5 and ε = 1 it proves 1.024 at 1,000)."""
    passed = [t for t in TRIALS if curve.honest[t] > epsilon]
    if not passed:
        return (
            f"The honest count's audit climbs toward {text.number(epsilon)} and never passes "
            f"it (with {text.percent(CONFIDENCE)} confidence, each time): it **cannot** prove "
            "the count private."
        )
    first = passed[0]
    return (
        f"The honest count's audit climbs toward {text.number(epsilon)}, and at "
        f"{text.number(first)} trials its bound, {text.number(curve.honest[first])}, even "
        f"passes it: each bound holds with {text.percent(CONFIDENCE)} confidence, so one "
        f"look in twenty can pass by chance, and this chart takes {len(TRIALS)} looks. An "
        "audit that reports a leak fixes its trials in advance, or shares its 5% among every "
        "look it takes; and it **cannot** prove the count private."
    )


HONEST = "honest: Lap(1/ε)"
BUGGY = "buggy: Lap(½/ε)"


def _bounds(scale: float, seed: int) -> dict[int, float]:
    """The attack "the count was 1 if the output exceeds 1" on the neighbouring counts 1 (D)
    and 0 (D′), its ε bound after the first t trials of each side, for every t in TRIALS."""
    rng = np.random.default_rng(seed)
    on_d = rng.laplace(0.0, scale, size=TRIALS[-1]) + 1.0 > 1.0
    on_d_prime = rng.laplace(0.0, scale, size=TRIALS[-1]) > 1.0
    hits, false_alarms = np.cumsum(on_d), np.cumsum(on_d_prime)
    return {
        t: dp.epsilon_lower_bound(
            int(hits[t - 1]), t, int(false_alarms[t - 1]), t, confidence=CONFIDENCE
        )
        for t in TRIALS
    }


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def audit_curve(epsilon: float, seed: int) -> AuditCurve:
    honest = _bounds(dp.laplace_scale(1.0, epsilon), seed)
    buggy = _bounds(dp.laplace_scale(WRONG_SENSITIVITY, epsilon), seed + BUGGY_STREAM)
    rows = [(t, HONEST, honest[t]) for t in TRIALS] + [(t, BUGGY, buggy[t]) for t in TRIALS]
    return AuditCurve(pd.DataFrame(rows, columns=["trials", "mechanism", "bound"]), honest, buggy)


@datasets.cached(census_only=True)
def claim_rule(epsilon: float) -> pd.DataFrame:
    return pd.DataFrame({"y": [float(epsilon)], "label": [f"claimed ε = {text.number(epsilon)}"]})


@datasets.cached(census_only=True)
def trials_rule(trials: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(trials)], "label": [f"{text.number(trials)} trials"]})
