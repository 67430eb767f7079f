"""The tracing attack on the census's published averages (Homer et al.; dp.tracing_score): a
study of n census people publishes the means of d yes/no attributes, and the attack scores
everyone against a reference sample of non-members; the same with Laplace or Gaussian noise;
its ROC curve, and the most any attack can find under (ε, δ)-DP. Membership inference, What ε
means in practice and Subsampling show it. Chart axes are fixed: scores are drawn in
standard deviations of the non-members' scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from data import tracing_pool as pool
from ui import datasets, text

# --- the attributes (data/tracing_pool.py: the pool and its yes/no questions) -------------
CATEGORICAL = pool.CATEGORICAL
STUDY_SIZES: tuple[int, ...] = (20, 50, 100, 200, pool.STUDY_MAX)
DEFAULT_STUDY = 50
ATTRIBUTE_COUNTS: tuple[int, ...] = (10, 20, 50, 100, 200, 500, pool.QUESTIONS)
DEFAULT_ATTRIBUTES = 200
NON_MEMBERS = pool.NON_MEMBERS  # scored beside the members: the false positives come from them
NO_NOISE = "no noise"  # the ROC curve of the attack on exact averages
REFERENCE = pool.REFERENCE  # the attacker's reference sample (people not in the study)
FPR_TARGET = 0.01  # the false-positive rate the attack is judged at
SCORE_DOMAIN = (-4.0, 16.0)  # scores in non-member standard deviations
SCORE_BINS = 40
ROC_POINTS = 201  # the ROC is drawn at these false-positive rates (bins, not samples)

MECHANISMS = ("Laplace", "Gaussian")
# ε from "private" to "no promise at all": the attack survives only far above 1
EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0)
DELTA = 1e-5  # δ of the Gaussian release
DEFAULT_EPSILON = 1.0
SEED_RELEASE = 10  # offsets added to controls.seed(): one per distinct random draw


@datasets.cached(census_only=True, max_entries=1)
def attributes() -> pool.Attributes:
    """The pool (a fixed sample of census people) and their yes/no questions
    (data/tracing_pool.py), once per process."""
    return pool.tracing_pool(datasets.census())


# --- 1. tracing from means -------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """The tracing attack on one release: every member's and non-member's score, in
    standard deviations of the non-members' scores (centred on their mean)."""

    members: np.ndarray
    non_members: np.ndarray
    tpr_at_target: float
    threshold: float  # the score that flags FPR_TARGET of the non-members

    @property
    def advantage(self) -> float:
        return self.tpr_at_target - FPR_TARGET


def true_means(n: int, d: int) -> np.ndarray:
    return attributes().rows(attributes().questions, "members")[:n, :d].mean(axis=0)


def _attack(n: int, d: int, released: np.ndarray, matrix: np.ndarray | None = None) -> Attack:
    a = attributes()
    matrix = a.questions if matrix is None else matrix
    reference = a.rows(matrix, "reference")[:, :d].mean(axis=0)
    inside = dp.tracing_score(a.rows(matrix, "members")[:n, :d], released, reference)
    outside = dp.tracing_score(a.rows(matrix, "non-members")[:, :d], released, reference)
    centre, spread = float(outside.mean()), float(outside.std())
    spread = spread if spread > 0 else 1.0
    inside, outside = (inside - centre) / spread, (outside - centre) / spread
    threshold = float(np.quantile(outside, 1.0 - FPR_TARGET, method="higher"))
    return Attack(inside, outside, float(np.mean(inside > threshold)), threshold)


@datasets.cached(census_only=True, max_entries=len(STUDY_SIZES) * len(ATTRIBUTE_COUNTS))
def attack(n: int, d: int) -> Attack:
    """The attack on the exact means of the first n members over the first d attributes."""
    return _attack(n, d, true_means(n, d))


def one_hot_count() -> int:
    return int(attributes().one_hot.shape[1])


@datasets.cached(census_only=True, max_entries=len(STUDY_SIZES))
def one_hot_attack(n: int) -> Attack:
    """The same attack on the means of the one-hot columns themselves (all of them)."""
    a = attributes()
    d = a.one_hot.shape[1]
    released = a.rows(a.one_hot, "members")[:n].mean(axis=0)
    return _attack(n, d, released, a.one_hot)


def sensitivities(n: int, d: int) -> tuple[float, float]:
    """(Δ₁, Δ₂) of the vector of d means under replace-one (n public): each mean moves by at
    most 1/n when one person is replaced, so Δ₁ = d/n and Δ₂ = √d/n."""
    return d / n, float(np.sqrt(d)) / n


def noise_scale(mechanism: str, n: int, d: int, epsilon: float) -> float:
    """Laplace: b = Δ₁/ε; Gaussian: the analytic σ for (ε, δ = DELTA) at Δ₂."""
    l1, l2 = sensitivities(n, d)
    if mechanism == "Laplace":
        return dp.laplace_scale(l1, epsilon)
    return dp.analytic_gaussian_sigma(l2, epsilon, DELTA)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def noisy_attack(n: int, d: int, mechanism: str, epsilon: float, seed: int) -> Attack:
    """The attack on one release of the means through the mechanism at ε (and δ)."""
    means = true_means(n, d)
    l1, l2 = sensitivities(n, d)
    if mechanism == "Laplace":
        released = dp.laplace_mechanism(means, l1, epsilon, rng=seed)
    else:
        released = dp.gaussian_mechanism(means, l2, epsilon, DELTA, rng=seed)
    return _attack(n, d, np.asarray(released, dtype=float))


@datasets.derived
def histogram_frame(result: Attack) -> pd.DataFrame:
    """Share of members and of non-members per score bin (fixed domain; scores beyond it
    fall in the edge bins)."""
    edges = np.linspace(*SCORE_DOMAIN, SCORE_BINS + 1)
    rows = []
    for group, scores in (("members", result.members), ("non-members", result.non_members)):
        counts, _ = np.histogram(np.clip(scores, *SCORE_DOMAIN), bins=edges)
        share = counts / scores.size
        rows += [(group, lo, hi, s) for lo, hi, s in zip(edges[:-1], edges[1:], share, strict=True)]
    return pd.DataFrame(rows, columns=["group", "start", "end", "share"])


@datasets.derived
def roc_frame(result: Attack, curve: str) -> pd.DataFrame:
    """The ROC of "flag whoever scores above t" over every t, read at ROC_POINTS false-
    positive rates from 0 to 1: the largest true-positive rate reached at each."""
    scores = np.concatenate([result.members, result.non_members])
    truth = np.concatenate([np.ones(result.members.size), np.zeros(result.non_members.size)])
    order = np.argsort(-scores, kind="stable")
    scores, truth = scores[order], truth[order]
    last = np.r_[np.flatnonzero(np.diff(scores)), scores.size - 1]  # end of each tie
    tpr = np.r_[0.0, np.cumsum(truth)[last] / truth.sum()]
    fpr = np.r_[0.0, np.cumsum(1 - truth)[last] / (truth.size - truth.sum())]
    grid = np.linspace(0.0, 1.0, ROC_POINTS)
    at = np.searchsorted(fpr, grid, side="right") - 1
    return pd.DataFrame({"fpr": grid, "tpr": tpr[at], "curve": curve})


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def noisy_roc(
    n: int, d: int, mechanism: str, epsilon: float, seed: int, plain_name: str, noisy_name: str
) -> pd.DataFrame:
    """`roc_pair` of the attack without noise and with `noisy_attack`'s noise."""
    return roc_pair(
        attack(n, d), noisy_attack(n, d, mechanism, epsilon, seed), plain_name, noisy_name
    )


def roc_pair(plain: Attack, noisy: Attack, plain_name: str, noisy_name: str) -> pd.DataFrame:
    """Both ROCs in one frame (the chart's "roc" dataset and the CSV)."""
    return pd.concat(
        [roc_frame(plain, plain_name), roc_frame(noisy, noisy_name)], ignore_index=True
    )


def members_found(tpr: float, n: int) -> str:
    """A share of the n members found, with the count it is: "36% (18 of 50)". At n = 50 a
    share moves in steps of 2%, so 2% found at 1% false positives is one member (chance)."""
    return f"{text.percent(tpr)} ({round(tpr * n):,} of {n:,})"


def most_found(fpr: float, epsilon: float, delta: float) -> float:
    """The most any attack can find at this false-positive rate under (ε, δ)-DP."""
    return float(dp.tpr_bound(fpr, epsilon, delta=delta))


@datasets.cached(census_only=True)
def region_frame(epsilon: float, delta: float) -> pd.DataFrame:
    grid = np.linspace(0.0, 1.0, ROC_POINTS)
    return pd.DataFrame({"fpr": grid, "tpr": dp.tpr_bound(grid, epsilon, delta=delta)})


@datasets.cached(census_only=True)
def target_rule() -> pd.DataFrame:
    return pd.DataFrame({"x": [FPR_TARGET], "label": [f"FPR {text.percent(FPR_TARGET)}"]})


@datasets.derived
def threshold_rule(result: Attack) -> pd.DataFrame:
    return pd.DataFrame(
        {"x": [min(result.threshold, SCORE_DOMAIN[1])], "label": ["flags 1% of non-members"]}
    )
