r"""Synthetic data: MWEM over a workload of marginal queries (Hardt, Ligett & McSherry 2012).

A dataset is a count vector x over a finite domain: a contingency table of d columns with
shape (k₁, …, k_d), flattened in C order; its total n is public. A marginal over some
columns is the table summed over the others: one counting query per cell of the marginal,
each a 0/1 vector over the domain (`marginal_queries`). A counting query moves by at most 1
when one person is added or removed.

MWEM, with T rounds and budget ε:
    A ← uniform, total n
    each round: pick a query q by the exponential mechanism at ε/(2T), score |q·A − q·x|
                (Δ = 1); measure m = q·x + Lap(2T/ε);
                A ← A·exp(q·(m − q·A)/(2n)), renormalised to total n
    release the average of the T iterates A.
ε-DP by sequential composition over the T selections (ε/(2T) each) and T measurements
(ε/(2T) each).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np
from scipy.special import logsumexp

from ._validate import MAX_DRAWS, as_rng, check_epsilon, check_integer, check_real_array
from .choosing import exponential_mechanism

MAX_DOMAIN = 1_000_000  # cells of a contingency table this module handles


def _check_shape(shape: object) -> tuple[int, ...]:
    if isinstance(shape, str | bytes) or not hasattr(shape, "__iter__"):
        raise TypeError("shape must be a sequence of column sizes, e.g. (5, 2, 3)")
    sizes = tuple(check_integer("shape", k, low=1) for k in shape)
    if not sizes:
        raise ValueError("shape must name at least one column")
    if math.prod(sizes) > MAX_DOMAIN:
        raise ValueError(f"shape must have at most {MAX_DOMAIN:,} cells, got {math.prod(sizes):,}")
    return sizes


def marginal_queries(shape, attributes) -> np.ndarray:
    r"""The counting queries of the marginal over `attributes` (indices into `shape`): one
    boolean row per cell of the marginal (in C order over the attributes as listed),
    selecting the domain cells (C order over `shape`) that match it. Each marginal's rows
    partition the domain."""
    sizes = _check_shape(shape)
    if isinstance(attributes, str | bytes) or not hasattr(attributes, "__iter__"):
        raise TypeError("attributes must be a sequence of column indices")
    picked = tuple(check_integer("attributes", a) for a in attributes)
    if not picked or len(set(picked)) != len(picked) or max(picked) >= len(sizes):
        raise ValueError(
            f"attributes must be distinct indices into shape (0..{len(sizes) - 1}), got {picked}"
        )
    cells = np.indices(sizes).reshape(len(sizes), -1)  # every domain cell's coordinates
    marginal = np.ravel_multi_index(tuple(cells[a] for a in picked), [sizes[a] for a in picked])
    rows = math.prod(sizes[a] for a in picked)
    return marginal[None, :] == np.arange(rows)[:, None]


def _check_counts(counts: object) -> np.ndarray:
    x = check_real_array("counts", counts, allow_inf=False)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"counts must be a non-empty 1-D count vector, got shape {x.shape}")
    if np.any(x < 0) or np.any(x != np.round(x)):
        raise ValueError("counts must be whole numbers >= 0")
    if x.sum() <= 0:
        raise ValueError("counts must hold at least one person")
    return x


def mwem(counts, queries, epsilon: float, rounds: int, *, rng=None) -> np.ndarray:
    r"""MWEM (Hardt, Ligett & McSherry 2012) as in the module docstring: T = `rounds`
    exponential-mechanism selections at ε/(2T) and Laplace measurements Lap(2T/ε), with the
    multiplicative-weights update after each; returns the average of the T iterates
    (non-negative, total n)."""
    return mwem_trace(counts, queries, epsilon, rounds, rng=rng)[0]


def _check_queries(queries) -> np.ndarray:
    """0/1 counting queries as floats, given as booleans (what `marginal_queries` returns)
    or as numbers, so that `mwem(counts, marginal_queries(shape, attrs), ...)` just works."""
    if not isinstance(queries, (str, bytes)):
        with contextlib.suppress(ValueError, TypeError):
            as_array = np.asarray(queries)
            if as_array.dtype == bool and as_array.ndim == 2:
                return as_array.astype(float)
    return check_real_array("queries", queries, allow_inf=False)


# Rounds one call may run (each a pass over the workload and the cells; the lessons use at most
# 1,000): ten thousand take about a second, a million took minutes.
MAX_ROUNDS = 10_000


def mwem_trace(
    counts, queries, epsilon: float, rounds: int, *, rng=None
) -> tuple[np.ndarray, np.ndarray]:
    r"""`mwem`, and the index of the query each round chose: (the release, the T choices).
    The choices are part of what MWEM computes privately (each is an exponential-mechanism
    output), so showing them spends nothing more."""
    x = _check_counts(counts)
    q = _check_queries(queries)
    if q.ndim != 2 or q.shape[1] != x.size or q.shape[0] == 0:
        raise ValueError(
            f"queries must be 2-D with one column per domain cell ({x.size}), got {q.shape}"
        )
    if np.any((q != 0) & (q != 1)):
        raise ValueError("queries must be 0/1 counting queries")
    eps = check_epsilon(epsilon)
    t_rounds = check_integer("rounds", rounds, low=1)
    most = min(MAX_ROUNDS, MAX_DRAWS // max(q.shape[0], 1))
    if t_rounds > most:
        raise ValueError(f"rounds must be at most {most:,} for this workload")
    generator = as_rng(rng)
    n = float(x.sum())
    truth = q @ x
    synthetic = np.full(x.size, n / x.size)
    log_share = np.full(x.size, -math.log(x.size))  # each cell's share of n, as a log
    total = np.zeros(x.size)
    share = eps / (2.0 * t_rounds)
    chosen_rounds = np.empty(t_rounds, dtype=np.int64)
    for t in range(t_rounds):
        scores = np.abs(q @ synthetic - truth)
        chosen = exponential_mechanism(scores, 1.0, share, rng=generator)
        chosen_rounds[t] = chosen
        measured = truth[chosen] + generator.laplace(0.0, 1.0 / share)
        step = q[chosen] * (measured - q[chosen] @ synthetic) / (2.0 * n)
        # the multiplicative weights update, x ← x·e^step rescaled to n, in logs: a step so
        # large that every e^step under- or overflows (tiny ε, many rounds) still sums to n
        log_share = log_share + step
        log_share -= logsumexp(log_share)
        synthetic = n * np.exp(log_share)
        total += synthetic
    return total / t_rounds, chosen_rounds


def synthetic_rows(counts, rows: int, shape, *, rng=None) -> np.ndarray:
    r"""A synthetic table of `rows` people drawn from a count vector (any non-negative
    weights over the domain, e.g. MWEM's output): each row a domain cell chosen with
    probability proportional to its count, returned as one column code per attribute
    (shape (rows, len(shape)))."""
    weights = check_real_array("counts", counts, allow_inf=False)
    sizes = _check_shape(shape)
    if weights.ndim != 1 or weights.size != math.prod(sizes):
        raise ValueError(
            f"counts must be a 1-D vector over the {math.prod(sizes)} cells of shape, "
            f"got shape {weights.shape}"
        )
    if np.any(weights < 0) or weights.sum() <= 0:
        raise ValueError("counts must be >= 0 with a positive total")
    n_rows = check_integer("rows", rows, low=1)
    if n_rows * len(sizes) > MAX_DRAWS:
        raise ValueError(f"rows must be at most {MAX_DRAWS // len(sizes):,} for this shape")
    cells = as_rng(rng).choice(weights.size, size=n_rows, p=weights / weights.sum())
    return np.stack(np.unravel_index(cells, sizes), axis=1).astype(np.int64)
