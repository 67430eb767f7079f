r"""The sparse vector technique: answer "which queries pass a threshold?" and pay only for
the ones that do.

Every query value a_i has sensitivity Δ (it moves by at most Δ between neighbouring
datasets, under the neighbour relation the caller's queries are defined on).

AboveThreshold (Dwork & Roth 2014, Algorithm 1; Lyu, Su & Li 2017, Alg. 1):
    T̂ = T + Lap(2Δ/ε)                       the threshold's noise, drawn once
    return the first i with a_i + Lap(4Δ/ε) ≥ T̂, else None (⊥ for every query)
It is ε-DP however many queries come out below the threshold: the whole run spends ε.

Sparse vector, c positives (Dwork & Roth 2014, Algorithm 2 "Sparse" with δ = 0):
AboveThreshold at ε/c each, over the queries after the last positive, with fresh threshold
noise after every positive; stop after c positives. ε-DP by sequential composition over the
c runs.

The famous wrong versions (no noise on the queries, the noisy value released with each
positive, no cutoff, a threshold redrawn for every query, noise too small) are analysed in
Lyu, Su & Li, "Understanding the Sparse Vector Technique for Differential Privacy",
PVLDB 10(6), 2017.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate

from ._validate import (
    MAX_DRAWS,
    as_rng,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_real,
)

# The threshold noise is integrated over T ± TAIL_SCALES scales: the Laplace mass beyond is
# e^(−TAIL_SCALES) ≈ 9e-22, far below the 1e-6 the probabilities promise.
TAIL_SCALES = 48.0


def _check_answers(answers: object) -> np.ndarray:
    values = check_finite_array("answers", answers)
    if values.ndim != 1:
        raise ValueError(f"answers must be one-dimensional, got shape {values.shape}")
    if values.size > MAX_DRAWS:
        raise ValueError(f"answers must hold at most {MAX_DRAWS:,} queries, got {values.size:,}")
    return values


def _scales(epsilon: object, sensitivity: object) -> tuple[float, float]:
    """(threshold noise scale 2Δ/ε, query noise scale 4Δ/ε)."""
    eps = check_epsilon(epsilon)
    delta = check_positive("sensitivity", sensitivity)
    return 2.0 * delta / eps, 4.0 * delta / eps


def _first_above(noisy: np.ndarray, noisy_threshold: float) -> int | None:
    above = np.flatnonzero(noisy >= noisy_threshold)
    return int(above[0]) if above.size else None


def above_threshold(
    answers, threshold: float, epsilon: float, *, sensitivity: float = 1.0, rng=None
) -> int | None:
    r"""AboveThreshold: the index of the first query whose noisy value reaches the noisy
    threshold, or None when none does.

        T̂ = T + Lap(2Δ/ε);  first i with a_i + Lap(4Δ/ε) ≥ T̂       (Dwork & Roth Alg. 1)

    Drawing every query's noise at once gives the same distribution as drawing them one by
    one (they are independent of each other and of T̂)."""
    values = _check_answers(answers)
    t = check_real("threshold", threshold)
    threshold_scale, query_scale = _scales(epsilon, sensitivity)
    generator = as_rng(rng)
    noisy_threshold = t + generator.laplace(0.0, threshold_scale)
    noisy = values + generator.laplace(0.0, query_scale, size=values.size)
    return _first_above(noisy, noisy_threshold)


def _laplace_cdf(x: np.ndarray, scale: float) -> np.ndarray:
    """P[Lap(scale) ≤ x], elementwise."""
    z = np.asarray(x, dtype=float) / scale
    half = 0.5 * np.exp(-np.abs(z))
    return np.where(z < 0, half, 1.0 - half)


def stopping_probabilities(
    answers, threshold: float, threshold_scale: float, query_scale: float
) -> np.ndarray:
    r"""P[AboveThreshold returns i] for each i, then P[None], for any two noise scales (the
    public function fixes them at 2Δ/ε and 4Δ/ε; a broken variant, e.g. too little query
    noise, is this with other scales). Given the noisy threshold t,

        P[i | t] = Π_{j<i} F(t − a_j) · (1 − F(t − a_i)),   P[None | t] = Π_j F(t − a_j),

    F the CDF of Lap(query_scale); each is integrated against t's Laplace density with
    scipy's adaptive vector quadrature, split where the integrand has a kink (at T and at
    every a_j)."""
    answers = _check_answers(answers)
    threshold = check_real("threshold", threshold)
    threshold_scale = check_positive("threshold_scale", threshold_scale)
    query_scale = check_positive("query_scale", query_scale)
    m = answers.size
    low = threshold - TAIL_SCALES * threshold_scale
    high = threshold + TAIL_SCALES * threshold_scale

    def integrand(t: float) -> np.ndarray:
        below = _laplace_cdf(t - answers, query_scale)  # each query's P[noisy < t]
        prefix = np.concatenate(([1.0], np.cumprod(below)))  # P[all before i below]
        out = np.empty(m + 1)
        out[:m] = prefix[:m] * (1.0 - below)
        out[m] = prefix[m]
        density = math.exp(-abs(t - threshold) / threshold_scale) / (2.0 * threshold_scale)
        return out * density

    kinks = np.unique(np.concatenate(([threshold], answers)))
    kinks = kinks[(kinks > low) & (kinks < high)]
    edges = np.concatenate(([low], kinks, [high]))
    total = np.zeros(m + 1)
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        if b > a:
            part, _err = integrate.quad_vec(integrand, a, b, epsabs=1e-12, epsrel=1e-10)
            total += part
    # Quadrature error (~1e-12) may leave an entry a hair outside [0, 1]: a probability.
    return np.clip(total, 0.0, 1.0)


def above_threshold_probabilities(
    answers, threshold: float, epsilon: float, *, sensitivity: float = 1.0
) -> np.ndarray:
    r"""Exact P[above_threshold returns i] for i = 0..m−1, then P[None] last (length m + 1,
    sums to 1 within 1e-6): the formulas of `stopping_probabilities` at the scales 2Δ/ε
    (threshold) and 4Δ/ε (queries), integrated numerically over the threshold noise."""
    values = _check_answers(answers)
    t = check_real("threshold", threshold)
    threshold_scale, query_scale = _scales(epsilon, sensitivity)
    return stopping_probabilities(values, t, threshold_scale, query_scale)


def sparse_vector(
    answers,
    threshold: float,
    epsilon: float,
    max_positives: int,
    *,
    sensitivity: float = 1.0,
    rng=None,
) -> list[int]:
    r"""The indices of up to c = max_positives queries found above the threshold.

    AboveThreshold at ε/c each (threshold noise Lap(2cΔ/ε), query noise Lap(4cΔ/ε)), run on
    the queries after the last positive, with the threshold noise drawn afresh after every
    positive; it stops after c positives or at the last query.       (Dwork & Roth Alg. 2)"""
    values = _check_answers(answers)
    t = check_real("threshold", threshold)
    c = check_integer("max_positives", max_positives, low=1)
    eps = check_epsilon(epsilon)
    threshold_scale, query_scale = _scales(eps / c, sensitivity)
    generator = as_rng(rng)
    noisy = values + generator.laplace(0.0, query_scale, size=values.size)
    positives: list[int] = []
    start = 0
    while len(positives) < c and start < values.size:
        noisy_threshold = t + generator.laplace(0.0, threshold_scale)  # fresh each time
        found = _first_above(noisy[start:], noisy_threshold)
        if found is None:
            break
        positives.append(start + found)
        start += found + 1
    return positives
