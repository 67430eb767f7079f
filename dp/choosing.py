r"""Choosing privately: release *which* candidate is best, not how good each one is.

Report noisy max (Dwork & Roth 2014, Claim 3.9). Given m counting queries c_1 … c_m
(each changes by at most 1, all in the same direction, when one person is added or removed),
add Lap(1/ε) to each and release only the index of the largest:

    i* = argmax_i (c_i + Lap(1/ε)).

It is ε-DP under add/remove however many counts one person is in: the m noisy counts
themselves would cost m·ε when the queries overlap (sequential composition), and ε only when
they are disjoint (parallel composition: a histogram). Ties, which have probability 0 in
theory, are broken uniformly at random. The probability that i wins is an integral,

    P[i wins] = ∫ f_i(x) Π_{j ≠ i} F_j(x) dx,

with f_i, F_i the density and CDF of c_i + Lap(1/ε); `report_noisy_max_probabilities`
evaluates it numerically (exact up to quadrature error, about 1e-12).

The exponential mechanism (McSherry & Talwar 2007; Dwork & Roth 2014, Def. 3.4, Thm 3.10).
For candidates with utility scores u_i whose sensitivity is Δ (no score moves by more than Δ
between neighbours), release i with probability

    P[i] = exp(ε·u_i / (2Δ)) / Σ_j exp(ε·u_j / (2Δ)).

The 2 is there because a neighbour can move u_i up by Δ *and* the normaliser down by a factor
e^(−εΔ/(2Δ)) at once: each side contributes e^(ε/2), together e^ε. Computed as a softmax of
ε·(u − max u)/(2Δ), so ε = 100 with scores of 10⁶ neither overflows nor divides 0 by 0.

Monotone utilities (McSherry & Talwar 2007; Dwork & Roth 2014, §3.4):
when, between any two neighbours, every score moves in the same direction (adding a person
can only raise every count, never lower one), the numerator and the normaliser cannot move
against each other, and P[i] ∝ exp(ε·u_i / Δ) is already ε-DP. Counts under add/remove are
monotone; quantile scores are not (a new value raises the scores on one side of it and
lowers them on the other). `monotone=True` drops the 2; the caller vouches for monotonicity.

The Gumbel-max trick (Gumbel 1954; Durfee & Rogers 2019): argmax_i (u_i + G_i) with
G_i ~ Gumbel(0, 2Δ/ε) independent has exactly the exponential mechanism's distribution, so
report noisy max with Gumbel noise *is* the exponential mechanism.

A private quantile (Smith 2011; the score of OpenDP's `make_quantile_score_candidates`):
for a candidate c, the utility −|(1 − α)·#{v < c} − α·#{v > c}| is largest where a share α
of the values lies below c. Adding or removing one value changes it by at most
max(α, 1 − α), so the exponential mechanism over a fixed grid of candidates, chosen before
looking at the data, releases the α-quantile with ε-DP under add/remove.
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    as_rng,
    check_epsilon,
    check_finite_array,
    check_positive,
    check_probability,
    check_size,
)

# Report noisy max quadrature: the integrand is smooth between the counts (its kinks), so
# each stretch between kinks is cut into pieces of at most half a noise scale and each piece
# gets Gauss-Legendre nodes; beyond TAIL_SCALES noise scales from a count the density is
# below e^-40 (a share of 4e-18), so the integral stops there.
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(16)
_PIECE_SCALES = 0.5
_TAIL_SCALES = 40.0


def _check_scores(name: str, scores: object) -> np.ndarray:
    arr = check_finite_array(name, scores)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array (one score per candidate), got {arr.ndim}-D")
    return arr


def _exponent_divisor(monotone: object) -> float:
    """2 for the general exponential mechanism, 1 for monotone utilities."""
    if not isinstance(monotone, (bool, np.bool_)):
        raise TypeError(f"monotone must be True or False, got {type(monotone).__name__}")
    return 1.0 if monotone else 2.0


def exponential_mechanism_probabilities(
    scores, sensitivity: float, epsilon: float, *, monotone: bool = False
) -> np.ndarray:
    r"""P[i] = exp(ε·u_i / (2Δ)) / Σ_j exp(ε·u_j / (2Δ)) (McSherry & Talwar 2007; Dwork &
    Roth 2014, Def. 3.4): ε-DP when no score moves by more than Δ between neighbours.
    With `monotone=True`, P[i] ∝ exp(ε·u_i / Δ): ε-DP only when every score moves the same
    way between neighbours (counts under add/remove; module docstring).

    Shifting every score by the largest one first keeps every exponent <= 0: stable at any
    ε and scale (the best candidate's term is exactly 1)."""
    u = _check_scores("scores", scores)
    delta = check_positive("sensitivity", sensitivity)
    eps = check_epsilon(epsilon)
    divisor = _exponent_divisor(monotone)
    weights = np.exp(eps * (u - u.max()) / (divisor * delta))
    return weights / weights.sum()


def exponential_mechanism(
    scores, sensitivity: float, epsilon: float, *, size=None, rng=None, monotone: bool = False
) -> int | np.ndarray:
    """The index of one candidate drawn with the exponential mechanism's probabilities (an
    int); with `size`, an int array of that many independent draws."""
    p = exponential_mechanism_probabilities(scores, sensitivity, epsilon, monotone=monotone)
    size = check_size(size)
    draws = as_rng(rng).choice(p.size, size=size, p=p)
    return int(draws) if size is None else draws.astype(np.int64)


def _argmax_uniform_ties(noisy: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """argmax over the last axis; among equal maxima, each is chosen with equal chance."""
    is_max = noisy == noisy.max(axis=-1, keepdims=True)
    keys = np.where(is_max, generator.random(noisy.shape), -1.0)
    return np.argmax(keys, axis=-1)


def _noisy_argmax(scores: np.ndarray, noise, size, generator) -> int | np.ndarray:
    shape = (scores.size,) if size is None else (*np.atleast_1d(size), scores.size)
    winners = _argmax_uniform_ties(scores + noise(shape), generator)
    return int(winners) if size is None else winners.astype(np.int64)


def report_noisy_max(counts, epsilon: float, *, size=None, rng=None) -> int | np.ndarray:
    r"""argmax_i (c_i + Lap(1/ε)), ties broken uniformly (Dwork & Roth 2014, Claim 3.9): ε-DP
    under add/remove for counting queries, even overlapping ones. An int; with `size`, an
    int array of that many independent releases."""
    c = _check_scores("counts", counts)
    scale = 1.0 / check_epsilon(epsilon)
    size = check_size(size)
    generator = as_rng(rng)
    return _noisy_argmax(c, lambda shape: generator.laplace(0.0, scale, shape), size, generator)


def gumbel_noisy_max(
    scores, sensitivity: float, epsilon: float, *, size=None, rng=None, monotone: bool = False
) -> int | np.ndarray:
    r"""argmax_i (u_i + Gumbel(0, 2Δ/ε)): the exponential mechanism, drawn by the Gumbel-max
    trick (Durfee & Rogers 2019), so P[i] = exponential_mechanism_probabilities(u, Δ, ε).
    With `monotone=True` the scale is Δ/ε (the monotone exponential mechanism)."""
    u = _check_scores("scores", scores)
    scale = (
        _exponent_divisor(monotone)
        * check_positive("sensitivity", sensitivity)
        / check_epsilon(epsilon)
    )
    size = check_size(size)
    generator = as_rng(rng)
    return _noisy_argmax(u, lambda shape: generator.gumbel(0.0, scale, shape), size, generator)


def _laplace_log_cdf(x: np.ndarray, centre: np.ndarray, scale: float) -> np.ndarray:
    z = (x - centre) / scale
    below = np.log(0.5) + np.minimum(z, 0.0)
    above = np.log1p(-0.5 * np.exp(-np.maximum(z, 0.0)))
    return np.where(z < 0, below, above)


def report_noisy_max_probabilities(counts, epsilon: float) -> np.ndarray:
    r"""P[report noisy max releases i] for every i: ∫ f_i(x) Π_{j≠i} F_j(x) dx with
    c_j + Lap(1/ε) noisy counts, by Gauss-Legendre quadrature between the kinks at the
    counts (accurate to about 1e-12; the result sums to 1 within that).

    Two counts: P[c_1 wins] = P[L_2 − L_1 < c_1 − c_2], the CDF of a difference of two
    Laplace variables (`laplace_difference_cdf`)."""
    c = _check_scores("counts", counts)
    scale = 1.0 / check_epsilon(epsilon)
    if c.size == 1:
        return np.ones(1)
    with np.errstate(over="ignore"):
        c = c - c.max()  # the same chances for every common shift; the largest count at 0
    if not np.all(np.isfinite(c)):
        raise ValueError("counts must differ by less than the largest float")
    reach = _TAIL_SCALES * scale
    ties = int(np.count_nonzero(c == 0.0))
    out = np.empty(c.size)
    for i, centre in enumerate(c):
        if centre - reach == centre:  # the noise is below the floats' spacing at this count:
            out[i] = 1.0 / ties if centre == 0.0 else 0.0  # the largest wins, ties share
            continue
        kinks = c[(c > centre - reach) & (c < centre + reach)]
        edges = np.unique(np.r_[centre - reach, kinks, centre + reach])
        # Cut every stretch between kinks into pieces at most _PIECE_SCALES noise scales long.
        pieces = np.maximum(np.ceil(np.diff(edges) / (_PIECE_SCALES * scale)), 1).astype(int)
        starts = np.concatenate(
            [
                a + (b - a) * np.arange(n) / n
                for a, b, n in zip(edges[:-1], edges[1:], pieces, strict=True)
            ]
        )
        widths = np.repeat(np.diff(edges) / pieces, pieces)
        x = (starts[:, None] + widths[:, None] * (_GL_NODES + 1.0) / 2.0).ravel()
        w = (widths[:, None] * _GL_WEIGHTS / 2.0).ravel()
        others = np.delete(c, i)
        log_density = -np.log(2.0 * scale) - np.abs(x - centre) / scale
        log_cdfs = _laplace_log_cdf(x[:, None], others[None, :], scale).sum(axis=1)
        out[i] = float(np.sum(w * np.exp(log_density + log_cdfs)))
    return out


def quantile_scores(values, candidates, alpha: float) -> np.ndarray:
    r"""u(c) = −|(1 − α)·#{v < c} − α·#{v > c}| for every candidate c: 0 where a share α of
    the values lies below c, more negative further away (Smith 2011; OpenDP's
    `make_quantile_score_candidates` scores the same, scaled to integers). Its sensitivity
    is `quantile_sensitivity(α)`."""
    v = np.sort(check_finite_array("values", values))
    grid = _check_candidates(candidates)
    a = check_probability("alpha", alpha)
    below = np.searchsorted(v, grid, side="left")
    above = v.size - np.searchsorted(v, grid, side="right")
    return -np.abs((1.0 - a) * below - a * above)


def quantile_sensitivity(alpha: float, *, neighbours: str = "add_remove") -> float:
    r"""How far one person moves a quantile score: max(α, 1 − α) when a value is added or
    removed (it joins one side), 1 when a value is replaced (it can leave one side, costing
    α or 1 − α, and join the other)."""
    a = check_probability("alpha", alpha)
    if neighbours == "add_remove":
        return max(a, 1.0 - a)
    if neighbours == "replace":
        return 1.0
    raise ValueError(f"neighbours must be 'add_remove' or 'replace', got {neighbours!r}")


def _check_candidates(candidates: object) -> np.ndarray:
    grid = _check_scores("candidates", candidates)
    if np.any(np.diff(grid) <= 0):
        raise ValueError("candidates must be strictly increasing")
    return grid


def private_quantile(
    values, candidates, alpha: float, epsilon: float, *, size=None, rng=None
) -> float | np.ndarray:
    r"""The α-quantile of `values` released with ε-DP under add/remove: one of the
    `candidates` (a grid fixed before looking at the data), drawn by the exponential mechanism
    on `quantile_scores` with Δ = max(α, 1 − α). A float; with `size`, an array."""
    grid = _check_candidates(candidates)
    scores = quantile_scores(values, grid, alpha)
    index = exponential_mechanism(scores, quantile_sensitivity(alpha), epsilon, size=size, rng=rng)
    return float(grid[index]) if size is None else grid[index]
