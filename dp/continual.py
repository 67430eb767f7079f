r"""Continual release: a running count over a stream, released at every step.

A stream x_1, …, x_T of 0/1 values (an event at step t or not); neighbouring streams differ in
one x_t (event-level privacy). Releasing every prefix count S_t = x_1 + … + x_t:
- noisy increments (each x_t + Lap(1/ε)): ε-DP, the error at t grows like √t;
- each S_t recomputed with ε/T: the error grows like T;
- the binary mechanism (Chan, Shi & Song 2011, "Private and continual release of
  statistics", ACM TISSEC 14(3); Dwork, Naor, Pitassi & Rothblum 2010): every dyadic
  interval [k·2^j + 1, (k+1)·2^j] inside [1, T] holds its sum + Lap(L/ε), L = ⌊log2 T⌋ + 1
  (the number of levels). One x_t lies in one interval per level, at most L of them, so the
  whole tree is ε-DP. The count at t adds the intervals of t's binary decomposition (one per
  1 bit of t), so its error grows like log T: variance 2(L/ε)² × (number of 1 bits of t).
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    MAX_DRAWS,
    as_rng,
    check_binary,
    check_epsilon,
    check_integer,
    check_squarable,
)


def _levels(horizon: int) -> int:
    """L = ⌊log2 T⌋ + 1, exactly (bit_length, not a float logarithm)."""
    return horizon.bit_length()


def binary_tree_counts(stream: object, epsilon: float, *, rng: object = None) -> np.ndarray:
    r"""The running counts at t = 1..T by the binary mechanism: S_t plus the noise of the
    dyadic intervals that make up [1, t], each Lap(L/ε) with L = ⌊log2 T⌋ + 1 (module
    docstring; Chan, Shi & Song 2011). `stream`: 1-D 0/1 values, T = its length ≥ 1. The
    noise of a node is drawn once and shared by every count that uses it."""
    values = check_binary("stream", stream, allow_empty=False)
    epsilon = check_epsilon(epsilon)
    generator = as_rng(rng)
    horizon = int(values.size)
    if horizon > MAX_DRAWS:
        raise ValueError(f"stream must hold at most {MAX_DRAWS:,} steps, got {horizon:,}")
    levels = _levels(horizon)
    scale = levels / epsilon
    t = np.arange(1, horizon + 1)
    counts = np.cumsum(values, dtype=float)
    for j in range(levels):
        nodes = horizon >> j  # the level-j intervals that lie inside [1, T]
        noise = generator.laplace(0.0, scale, size=nodes)
        uses = ((t >> j) & 1).astype(bool)  # t's binary decomposition holds a level-j node
        counts[uses] += noise[(t[uses] >> j) - 1]
    return counts


def binary_tree_variance(t: int, horizon: int, epsilon: float) -> float:
    r"""The variance of the binary mechanism's count at step t: 2(L/ε)² × (number of 1 bits
    of t), L = ⌊log2 horizon⌋ + 1 (one Lap(L/ε) node per 1 bit). t an integer in
    1..horizon."""
    horizon = check_integer("horizon", horizon, low=1)
    t = check_integer("t", t, low=1)
    if t > horizon:
        raise ValueError(f"t must be at most horizon = {horizon:,}, got {t:,}")
    epsilon = check_epsilon(epsilon)
    scale = _levels(horizon) / epsilon
    return 2.0 * scale * scale * bin(t).count("1")


def increments_variance(t: int, epsilon: float) -> float:
    r"""The variance of the running count at step t when each step's value gets its own
    Lap(1/ε) (noisy increments, ε-DP for event-level neighbours): t·2/ε²."""
    t = check_integer("t", t, low=1)
    epsilon = check_squarable("epsilon", check_epsilon(epsilon))
    return 2.0 * t / (epsilon * epsilon)


def recompute_variance(horizon: int, epsilon: float) -> float:
    r"""The variance of each count when every prefix count is released afresh with ε/T
    (one x_t is in up to T counts, basic composition): 2(T/ε)²."""
    horizon = check_integer("horizon", horizon, low=1)
    epsilon = check_epsilon(epsilon)
    ratio = check_squarable("horizon/epsilon", horizon / epsilon)
    return 2.0 * ratio * ratio
