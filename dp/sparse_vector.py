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
    # The chances are the same with every answer and the threshold moved alike: measured from
    # the threshold, the quadrature works near 0, where floats are dense (at a threshold of
    # 2⁵³ its 120-wide interval held 60 floats and the quadrature never ended).
    with np.errstate(over="ignore"):
        answers = answers - threshold
    if not np.all(np.isfinite(answers)):
        raise ValueError("answers and threshold must differ by less than the largest float")
    threshold = 0.0
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


# --- The famous wrong versions, for the audit lesson ------------------------------------------
# Each name is one way a published algorithm departs from Dwork & Roth's Algorithm 2 (above):
# "correct" is Algorithm 2 itself. The others are BROKEN ON PURPOSE, so that a student (and a
# test) can watch an empirical audit catch them. Lyu, Su & Li 2017, Figure 1 and §4:
SPARSE_VECTOR_VARIANTS: dict[str, str] = {
    "correct": "Dwork & Roth Algorithm 2: ε-DP",
    # Stoddard, Chen & Machanavajjhala 2014 (Lyu et al.'s Alg. 5): not ε'-DP for any ε'.
    "no_query_noise": "no noise on the queries",
    # Roth 2011 lecture notes (Lyu et al.'s Alg. 3): not ε'-DP for any finite ε'.
    "releases_value": "the noisy query value released with each positive",
    # Chen, Xu & Zhou 2015 (Lyu et al.'s Alg. 6): not ε'-DP for any finite ε'.
    "no_cutoff": "no cutoff after c positives",
    # Each comparison then pays on its own: the loss grows with the number of queries.
    "fresh_threshold": "a threshold redrawn for every query",
    # Lee & Clifton 2014 (Lyu et al.'s Alg. 4) scale the query noise without the factor 2c;
    # Lyu et al. prove theirs ((1 + 6c)/4)ε-DP. Here: query noise Lap(2Δ/ε) (for c = 1:
    # half of 4Δ/ε), at most 1.5ε-DP for c = 1 by the standard proof (ε/2 for the threshold,
    # ε for the stop query's shift of 2Δ).
    "small_query_noise": "query noise without the factor 2c",
}


def sparse_vector_variant(
    answers,
    threshold: float,
    epsilon: float,
    max_positives: int,
    variant: str,
    *,
    sensitivity: float = 1.0,
    runs: int = 1,
    rng=None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""`runs` independent runs of the sparse vector technique or one of its famous wrong
    versions (SPARSE_VECTOR_VARIANTS), vectorised over the runs.

    Returns (outcomes, released), both of shape (runs, m): outcomes[r, i] is 1 (⊤, above),
    0 (⊥, below) or −1 (not answered: the run had stopped); released[r, i] is the noisy
    value a_i + ν_i where the variant "releases_value" answered ⊤, and 0 everywhere else.
    "correct" has the distribution of `sparse_vector` (threshold noise Lap(2cΔ/ε), fresh
    after every positive; query noise Lap(4cΔ/ε); stop after c positives)."""
    values = _check_answers(answers)
    t = check_real("threshold", threshold)
    c = check_integer("max_positives", max_positives, low=1)
    eps = check_epsilon(epsilon)
    if variant not in SPARSE_VECTOR_VARIANTS:
        raise ValueError(
            f"variant must be one of {sorted(SPARSE_VECTOR_VARIANTS)}, got {variant!r}"
        )
    n_runs = check_integer("runs", runs, low=1)
    if n_runs * values.size > MAX_DRAWS:
        raise ValueError(
            f"runs × answers must be at most {MAX_DRAWS:,}, got {n_runs * values.size:,}"
        )
    threshold_scale, query_scale = _scales(eps / c, sensitivity)
    if variant == "small_query_noise":
        query_scale /= 2.0 * c
    generator = as_rng(rng)
    m = values.size
    noise = (
        np.zeros((n_runs, m))
        if variant == "no_query_noise"
        else generator.laplace(0.0, query_scale, size=(n_runs, m))
    )
    noisy = values + noise
    outcomes = np.full((n_runs, m), -1, dtype=np.int8)
    released = np.zeros((n_runs, m))
    noisy_threshold = t + generator.laplace(0.0, threshold_scale, size=n_runs)
    found = np.zeros(n_runs, dtype=np.int64)
    for i in range(m):
        if variant == "fresh_threshold" and i > 0:
            noisy_threshold = t + generator.laplace(0.0, threshold_scale, size=n_runs)
        active = found < c if variant != "no_cutoff" else np.ones(n_runs, dtype=bool)
        above = noisy[:, i] >= noisy_threshold
        outcomes[active, i] = above[active]
        hit = active & above
        if variant == "releases_value":
            released[hit, i] = noisy[hit, i]
        found += hit
        if variant != "fresh_threshold" and hit.any():  # fresh threshold noise after a positive
            noisy_threshold[hit] = t + generator.laplace(0.0, threshold_scale, size=int(hit.sum()))
    return outcomes, released
