r"""Large domains in the local model: optimal local hashing (OLH), and shuffling.

OLH (Wang, Blocki, Li & Jha, USENIX Security 2017, §4.4): each user j draws a hash function
H_j from a universal family mapping the domain [0, k) onto [0, g), hashes their value, and
reports the hash through g-ary randomized response. The server counts, for each candidate
v, the users whose report equals H_j(v) (the users whose report "supports" v). With

    g = max(2, round(e^ε + 1)),   p = e^ε / (e^ε + g − 1),   q = 1/g,

a user holding v supports it with probability p and any other value with probability q, so
OLH is a pure protocol (dp/pure.py) and ĉ_v = (C_v − n/g) / (p − 1/g) is unbiased, with the
pure variance n q (1 − q)/(p − q)² + n f (1 − p − q)/(p − q). Each user sends a seed and a
number below g: O(log k) bits, against k bits for unary encoding.

The hash family (Carter & Wegman 1979): h_{a,b}(v) = ((a·v + b) mod P) mod g with the
Mersenne prime P = 2³¹ − 1 > k, a in [1, P), b in [0, P). A user's seed s encodes
(a, b) = (1 + s // P, s mod P), drawn uniformly from `rng`, so the same rng gives the
same seeds.

Shuffling (Feldman, McMillan & Talwar 2021, Theorem 3.1): n users each apply an
ε₀-LDP randomizer and a shuffler hides who sent what; the shuffled reports are
(ε, δ)-DP in the central sense with

    ε = ln(1 + (e^ε₀ − 1)/(e^ε₀ + 1) · (8·√(e^ε₀·ln(4/δ))/√n + 8·e^ε₀/n)),

for ε₀ ≤ ln(n / (16 ln(2/δ))).
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_DRAWS,
    as_rng,
    check_epsilon,
    check_integer,
    check_real_array,
)
from .gaussian import check_delta
from .pure import pure_variance

PRIME = 2_147_483_647  # 2³¹ − 1: larger than every domain size k this module accepts
MAX_DOMAIN = PRIME - 1
MAX_EXP_EPSILON = 30.0  # e^ε as a float, and g = round(e^ε + 1) as an integer


def olh_parameters(epsilon: float) -> tuple[int, float, float]:
    r"""(g, p, q) of OLH at ε: g = max(2, round(e^ε + 1)), p = e^ε/(e^ε + g − 1), q = 1/g.
    At ε = ln 3: (4, 0.5, 0.25)."""
    eps = check_epsilon(epsilon, high=MAX_EXP_EPSILON)
    e = math.exp(eps)
    g = max(2, round(e + 1.0))
    # exp(ln 3) is 3.0000000000000004 in floating point: p to 15 significant digits, so that
    # the textbook point gives exactly 1/2 (a change of at most 1e-15, relative)
    return g, float(f"{e / (e + g - 1.0):.15g}"), 1.0 / g


def _check_domain(k: object) -> int:
    size = check_integer("k", k, low=2)
    if size > MAX_DOMAIN:
        raise ValueError(f"k must be at most {MAX_DOMAIN:,} (the hash family's prime − 1)")
    return size


def _hash(seeds: np.ndarray, values: np.ndarray, g: int) -> np.ndarray:
    """h_{a,b}(v) = ((a·v + b) mod P) mod g, with (a, b) decoded from each seed; seeds and
    values broadcast against each other (a·v < 2⁶² fits an int64)."""
    a = 1 + seeds // PRIME
    b = seeds % PRIME
    return ((a * values + b) % PRIME) % g


def _check_values(values: object, k: int) -> np.ndarray:
    arr = check_real_array("values", values, allow_inf=False)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array, got shape {arr.shape}")
    if arr.size > MAX_DRAWS:
        raise ValueError(f"values must hold at most {MAX_DRAWS:,} users, got {arr.size:,}")
    if np.any(arr != np.round(arr)) or np.any((arr < 0) | (arr >= k)):
        raise ValueError(f"values must be whole numbers in [0, k) = [0, {k})")
    return arr.astype(np.int64)


def olh_perturb(values, k: int, epsilon: float, *, rng=None) -> tuple[np.ndarray, np.ndarray]:
    r"""Every user's OLH report: (seeds, reports). Each user's seed picks a hash function of
    the universal family (drawn from `rng`); the report is the hash of their value with
    probability p, else one of the other g − 1 hash values, uniformly."""
    size = _check_domain(k)
    v = _check_values(values, size)
    g, p, _ = olh_parameters(epsilon)
    generator = as_rng(rng)
    seeds = generator.integers(0, (PRIME - 1) * PRIME, size=v.size, dtype=np.int64)
    hashed = _hash(seeds, v, g)
    keep = generator.random(v.size) < p
    other = generator.integers(0, g - 1, size=v.size)  # one of the g − 1 other values
    other = other + (other >= hashed)
    return seeds, np.where(keep, hashed, other)


def olh_estimate(seeds, reports, k: int, epsilon: float, *, candidates=None) -> np.ndarray:
    r"""Unbiased counts ĉ_v = (C_v − n/g)/(p − 1/g) for every v in [0, k), or only for the
    values in `candidates`; C_v counts the users whose report equals their hash of v.
    Computed in chunks of candidates (n × chunk ≤ 10⁷ hashes at a time)."""
    size = _check_domain(k)
    s = check_real_array("seeds", seeds, allow_inf=False)
    r = check_real_array("reports", reports, allow_inf=False)
    if s.ndim != 1 or s.size == 0 or r.shape != s.shape:
        raise ValueError(
            f"seeds and reports must be non-empty 1-D arrays of one length, got shapes "
            f"{s.shape} and {r.shape}"
        )
    g, p, q = olh_parameters(epsilon)
    if np.any(s != np.round(s)) or np.any((s < 0) | (s >= (PRIME - 1.0) * PRIME)):
        raise ValueError("seeds must be whole numbers drawn by olh_perturb")
    if np.any(r != np.round(r)) or np.any((r < 0) | (r >= g)):
        raise ValueError(f"reports must be whole numbers in [0, g) = [0, {g})")
    seeds_int = np.asarray(seeds, dtype=np.int64)
    reports_int = r.astype(np.int64)
    if candidates is None:
        wanted = np.arange(size, dtype=np.int64)
    else:
        wanted = _check_values(candidates, size)
    n = s.size
    support = np.empty(wanted.size)
    chunk = max(1, 10_000_000 // n)
    for start in range(0, wanted.size, chunk):
        block = wanted[start : start + chunk]
        hashed = _hash(seeds_int[:, None], block[None, :], g)
        support[start : start + chunk] = np.sum(hashed == reports_int[:, None], axis=0)
    return (support - n * q) / (p - q)


def olh_variance(n: int, epsilon: float, frequency: float = 0.0) -> float:
    r"""Var[ĉ_v] of OLH: the pure-protocol variance (`pure_variance`) with its p and q = 1/g,
    n q (1 − q)/(p − q)² + n f (1 − p − q)/(p − q), count scale."""
    _, p, q = olh_parameters(epsilon)
    if abs(p - q) < 1e-12:  # pure_variance would name p and q, which are not this call's
        raise ValueError(
            f"epsilon is too small here: OLH's p and q round to the same {p:g}, and its reports "
            "then carry no information"
        )
    return pure_variance(n, p, q, frequency)


def shuffle_epsilon(epsilon0: float, n: int, delta: float) -> float:
    r"""The central ε of n shuffled ε₀-LDP reports at δ (Feldman, McMillan & Talwar 2021,
    Theorem 3.1): ln(1 + (e^ε₀ − 1)/(e^ε₀ + 1)·(8·√(e^ε₀ ln(4/δ))/√n + 8·e^ε₀/n)). Valid
    only for ε₀ ≤ ln(n / (16 ln(2/δ))): beyond that bound, a ValueError that names it."""
    eps0 = check_epsilon(epsilon0, name="epsilon0", high=MAX_EXP_EPSILON)
    users = check_integer("n", n, low=1)
    d = check_delta(delta)
    limit_arg = users / (16.0 * math.log(2.0 / d))
    if limit_arg <= 1.0 or eps0 > math.log(limit_arg):
        bound = math.log(limit_arg) if limit_arg > 0 else -math.inf
        raise ValueError(
            f"epsilon0 = {eps0:g} is beyond the theorem's bound ln(n / (16 ln(2/δ))) = "
            f"{bound:.4g} for n = {users:,} and delta = {d:g}: more users, or a smaller "
            "epsilon0, are needed"
        )
    e = math.exp(eps0)
    inner = (
        (e - 1.0)
        / (e + 1.0)
        * (8.0 * math.sqrt(e * math.log(4.0 / d)) / math.sqrt(users) + 8.0 * e / users)
    )
    return math.log1p(inner)
