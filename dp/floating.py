r"""When code breaks the proof: the Laplace mechanism in floating point.

The textbook sampler (Dwork & Roth's inverse CDF, as written in many libraries before 2012):

    u uniform on (−½, ½),  value + b·(−sign(u)·ln(1 − 2|u|)),

computed in doubles with u drawn on the double grid: u = k/2⁵³ − ½ for an integer k drawn
uniformly from 1..2⁵³ − 1 (k = 0 would give ln 0). Every step rounds, so the outputs are
not a continuous Laplace: some doubles are reached from one input and never from its
neighbour, and an output that only one input can produce names that input with certainty
(Mironov 2012, "On significance of the least significant bits for differential privacy",
CCS; Jin, McMurtry, Rubinstein & Ohrimenko 2022, "Are we there yet? Timing and
floating-point attacks on differential privacy systems", IEEE S&P).

`possible_outputs` decides exactly whether an output can come from an input: the sampler's
output is a non-decreasing function of its integer draw (u, ln, ×, + and rounding to a
grid are all monotone), so the draws that give one output form an interval of integers,
found by binary search over the draw with the sampler's own arithmetic.

The fix of Mironov's paper, snapping: clamp the value to [−B, B], add noise
S·b·ln(U) with U = k/2⁵³ on (0, 1] and a random sign S, round to the nearest multiple of
Λ, the smallest power of two ≥ b, and clamp again. For a sensitivity-1 query it is
(1/b + 2⁻⁴⁹·B/b)-DP when b < B < 2⁴⁶·b (his Theorem 1). His proof draws U over every
double in (0, 1]; here U is on the 2⁻⁵³ grid, as the textbook's u, so the noise stops at
±53·ln 2·b ≈ ±36.7·b, a tail the Laplace distribution reaches with probability 2⁻⁵³.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_DRAWS,
    MAX_EXP_EPSILON,
    as_rng,
    check_epsilon,
    check_positive,
    check_real,
    check_real_array,
    check_size,
)

GRID = 2**53  # u and U are multiples of 2⁻⁵³
TEXTBOOK = "textbook"
SNAPPING = "snapping"
MECHANISMS = (TEXTBOOK, SNAPPING)


def _textbook(value: float, scale: float, draws: np.ndarray) -> np.ndarray:
    """The textbook sampler's output for integer draws k in 1..2⁵³ − 1, in the sampler's
    own double arithmetic (u = k/2⁵³ − ½ is exact; 1 − 2|u| is exact; ln, × and + round)."""
    u = draws.astype(np.float64) / GRID - 0.5
    noise = -scale * np.sign(u) * np.log(1.0 - 2.0 * np.abs(u))
    return value + noise


def snapping_grid(scale: float) -> float:
    """Λ: the smallest power of two ≥ b (Mironov 2012)."""
    return 2.0 ** math.ceil(math.log2(scale))


def _snapping(value: float, scale: float, bound: float, draws: np.ndarray) -> np.ndarray:
    """The snapping mechanism's output for draws j in 0..2⁵⁴ − 1, ordered so that the output
    never decreases with j: j < 2⁵³ is S = −1 with U = (j + 1)/2⁵³ (noise b·ln U ≤ 0,
    rising to 0), j ≥ 2⁵³ is S = +1 with U = (2⁵⁴ − j)/2⁵³ (noise −b·ln U ≥ 0, rising)."""
    negative = draws < GRID
    k = np.where(negative, draws + 1, 2 * GRID - draws).astype(np.float64)
    noise = np.where(negative, 1.0, -1.0) * scale * np.log(k / GRID)
    lam = snapping_grid(scale)
    clamped = min(max(value, -bound), bound)
    snapped = lam * np.round((clamped + noise) / lam)  # ÷ and × by a power of two are exact
    return np.clip(snapped, -bound, bound)


def _check_mechanism(mechanism: object, bound: object) -> float | None:
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    if mechanism == SNAPPING:
        if bound is None:
            raise ValueError("bound: the snapping mechanism needs its clamp bound B")
        return check_positive("bound", bound)
    if bound is not None:
        raise ValueError("bound: only the snapping mechanism clamps")
    return None


def _draw_range(mechanism: str) -> tuple[int, int]:
    """The draws, as a half-open range of integers."""
    return (1, GRID) if mechanism == TEXTBOOK else (0, 2 * GRID)


def _outputs(mechanism: str, value: float, scale: float, bound, draws: np.ndarray) -> np.ndarray:
    if mechanism == TEXTBOOK:
        return _textbook(value, scale, draws)
    return _snapping(value, scale, bound, draws)


def float_laplace(
    value: float,
    scale: float,
    *,
    mechanism: str = TEXTBOOK,
    bound: float | None = None,
    size=None,
    rng=None,
) -> np.ndarray:
    r"""Outputs of the textbook floating-point Laplace sampler (`mechanism` "textbook": not
    differentially private, see the module docstring) or of Mironov's snapping mechanism
    ("snapping", with clamp `bound` B), for a real `value` and scale b. Each output comes
    from one integer draw, uniform over the mechanism's range."""
    value = check_real("value", value)
    scale = check_positive("scale", scale)
    bound = _check_mechanism(mechanism, bound)
    size = check_size(size)
    count = 1 if size is None else int(np.prod(size))
    if count > MAX_DRAWS:
        raise ValueError(f"size must be at most {MAX_DRAWS:,} draws, got {count:,}")
    low, high = _draw_range(mechanism)
    draws = as_rng(rng).integers(low, high, size=count, dtype=np.int64)
    out = _outputs(mechanism, value, scale, bound, draws)
    return out.reshape(() if size is None else size)


def possible_outputs(
    outputs: object,
    value: float,
    scale: float,
    *,
    mechanism: str = TEXTBOOK,
    bound: float | None = None,
) -> np.ndarray:
    r"""For each output, whether `float_laplace(value, scale, mechanism=…)` can produce it
    (True) or never does (False), decided exactly: the output is non-decreasing in the
    integer draw, so a binary search over the draws (54 or 55 steps, vectorised over the
    outputs) finds the first draw whose output is not below it, and the output is possible
    if and only if that draw gives it exactly."""
    values = check_real_array("outputs", outputs, allow_inf=False)
    value = check_real("value", value)
    scale = check_positive("scale", scale)
    bound = _check_mechanism(mechanism, bound)
    flat = values.reshape(-1)
    _, high_draw = _draw_range(mechanism)
    low = _first_draws(mechanism, value, scale, bound, flat)
    found = low < high_draw
    first = np.minimum(low, high_draw - 1)
    hit = found & (_outputs(mechanism, value, scale, bound, first) == flat)
    return hit.reshape(values.shape)


def _first_draws(mechanism: str, value: float, scale: float, bound, targets: np.ndarray):
    """For each target output, the first draw whose output is not below it (the end of the
    draw range when none is): the output never decreases with the draw."""
    low_draw, high_draw = _draw_range(mechanism)
    low = np.full(targets.size, low_draw, dtype=np.int64)
    high = np.full(targets.size, high_draw, dtype=np.int64)  # the answer lies in [low, high]
    active = low < high
    while np.any(active):
        middle = np.minimum(low + (high - low) // 2, high_draw - 1)  # a draw that exists
        below = _outputs(mechanism, value, scale, bound, middle) < targets
        low = np.where(active & below, middle + 1, low)
        high = np.where(active & ~below, middle, high)
        active = low < high
    return low


# Outputs of the snapping mechanism one call may list (B/Λ each side): every output is a binary
# search over 2⁵⁴ draws, ~0.3 s at this many (and ~3.6 s at ten times as many).
MAX_SNAPPING_STEPS = 100_000


def snapping_probabilities(value: float, scale: float, bound: float) -> tuple[np.ndarray, ...]:
    r"""Every output of the snapping mechanism (`float_laplace(…, mechanism="snapping")`) for
    `value`, with its exact probability: the outputs are the multiples of Λ inside (−B, B)
    and the clamps ±B; an output's draws are an interval of integers (the output never
    decreases with the draw), found by binary search, and its probability is their number
    over 2⁵⁴. Returns (outputs ascending, probabilities summing to 1)."""
    value = check_real("value", value)
    scale = check_positive("scale", scale)
    bound = check_positive("bound", bound)
    lam = snapping_grid(scale)
    steps = math.floor(bound / lam)
    if steps > MAX_SNAPPING_STEPS:
        raise ValueError(f"bound: B/Λ must be at most {MAX_SNAPPING_STEPS:,} here, got {steps:,}")
    grid = lam * np.arange(-steps, steps + 1, dtype=np.float64)
    outputs = np.unique(np.concatenate([[-bound], grid[np.abs(grid) < bound], [bound]]))
    first = _first_draws(SNAPPING, value, scale, bound, outputs)
    ends = np.append(first[1:], 2 * GRID)
    counts = ends - first
    return outputs, counts.astype(np.float64) / (2 * GRID)


def snapping_delta(value: float, neighbour: float, scale: float, bound: float, epsilon: float):
    r"""The exact δ of the snapping mechanism at ε between two inputs: the largest of
    Σ_y max(0, P[y | x] − e^ε·P[y | x']) over (x, x') = (value, neighbour) and
    (neighbour, value), from `snapping_probabilities` (the hockey-stick divergence; Balle &
    Wang 2018). With U on the 2⁻⁵³ grid the noise stops at ±36.7·b, so when B is beyond
    that reach some outputs come from one input only and δ > 0 at every ε; Mironov's pure
    (1/b + 2⁻⁴⁹·B/b) assumes U over every double in (0, 1]."""
    epsilon = check_epsilon(epsilon, high=MAX_EXP_EPSILON)
    outputs_a, p = snapping_probabilities(value, scale, bound)
    outputs_b, q = snapping_probabilities(neighbour, scale, bound)
    if not np.array_equal(outputs_a, outputs_b):  # the same grid and clamps: never differs
        raise AssertionError("the two inputs' outputs are not on one grid")
    factor = math.exp(epsilon)
    one = float(np.sum(np.maximum(p - factor * q, 0.0)))
    other = float(np.sum(np.maximum(q - factor * p, 0.0)))
    return max(one, other)
