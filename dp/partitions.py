r"""DP group-by with user-level privacy: bounding each user's contribution, and choosing
which partitions (group keys) may be released.

Each row holds a user id and a partition key (the group it counts towards). Under
user-level DP the neighbouring datasets differ by *all* the rows of one user, so before a
count per partition is noised every user is bounded:

- to at most L0 = `max_partitions` partitions (a uniformly random subset of theirs), and
- to at most L∞ = `max_per_partition` rows in each partition they keep.

Then one user changes at most L0 counts, each by at most L∞: the L1 sensitivity of the
vector of counts is L0·L∞ (Laplace scale L0·L∞/ε). (Wilson, Zhang, Lam, Desfontaines,
Simmons-Marengo & Gipson 2020, "Differentially private SQL with bounded user contribution";
Amin, Kulesza, Muñoz Medina & Vassilvitskii 2019 on the bias this bounding brings.)

A partition that only one user created would reveal that user by appearing at all, so
partitions not fixed in advance are released only when a private selection lets them
through:

- Laplace thresholding: release when (user count + Lap(L0/ε)) ≥ τ with
  τ = 1 + (L0/ε)·ln(L0/(2δ)): a partition one user creates appears with probability at most
  δ/L0 (Korolova, Kenthapadi, Mishra & Ntoulas 2009).
- The optimal selection of Desfontaines, Voss, Gipson & Mandayam 2022 ("Differentially
  private partition selection", PoPETs): release a partition of n users with probability
  p(n), where p(0) = 0 and p(n) = min(e^ε'·p(n−1) + δ', 1 − e^(−ε')·(1 − δ' − p(n−1)), 1), at
  ε' = ε/L0 and δ' = δ/L0 (basic composition over the L0 partitions one user touches). For
  L0 = 1 no (ε, δ)-DP selection releases more often.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_EXP_EPSILON,
    as_rng,
    check_epsilon,
    check_id_columns,
    check_integer,
    check_real,
    check_real_array,
)


def _ranks_within(groups: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Each item's rank (0, 1, …) among the items of its group, ordered by `keys`."""
    order = np.lexsort((keys, groups))
    sorted_groups = groups[order]
    starts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
    first = np.repeat(starts, np.diff(np.r_[starts, sorted_groups.size]))
    ranks = np.empty(groups.size, dtype=np.int64)
    ranks[order] = np.arange(groups.size) - first
    return ranks


def bound_partitions(
    user_ids: object,
    partition_keys: object,
    max_partitions: int,
    max_per_partition: int,
    *,
    rng: object = None,
) -> np.ndarray:
    r"""Which rows survive bounding each user to L0 = `max_partitions` partitions and
    L∞ = `max_per_partition` rows per partition: a boolean mask over the rows, in input order.

    A user with d distinct partitions keeps min(L0, d) of them, a uniformly random subset
    (each partition equally likely, whatever its row count); in a kept partition where they
    have r rows they keep min(L∞, r), a uniformly random subset. Every other row of theirs
    is dropped. Each user's choice uses only their own rows and independent random keys, so
    the distribution of what a user keeps does not depend on anyone else's rows.
    After it, one user moves at most L0 partition counts by at most L∞ each (L1
    sensitivity L0·L∞). (Wilson et al. 2020, §3.)"""
    users, partitions = check_id_columns("user_ids", user_ids, "partition_keys", partition_keys)
    l0 = check_integer("max_partitions", max_partitions, low=1)
    linf = check_integer("max_per_partition", max_per_partition, low=1)
    generator = as_rng(rng)
    n_partitions = int(partitions.max()) + 1
    pairs, pair_of_row = np.unique(users * n_partitions + partitions, return_inverse=True)
    pair_of_row = pair_of_row.reshape(-1)
    # L0: each user's distinct partitions in a random order; the first L0 are kept
    pair_kept = _ranks_within(pairs // n_partitions, generator.random(pairs.size)) < l0
    # L∞: each (user, partition)'s rows in a random order; the first L∞ are kept
    row_kept = _ranks_within(pair_of_row, generator.random(users.size)) < linf
    return pair_kept[pair_of_row] & row_kept


def _check_delta(delta: object) -> float:
    return check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)


def laplace_partition_threshold(epsilon: float, delta: float, max_partitions: int = 1) -> float:
    r"""The threshold τ for releasing a partition when (its user count + Lap(L0/ε)) ≥ τ:

        τ = 1 + (L0/ε)·ln(L0/(2δ))        (Korolova et al. 2009; Wilson et al. 2020, §4)

    A partition that a single user creates (count 1) then appears with probability
    ½·e^(−(τ−1)ε/L0) = δ/L0, so over the L0 partitions one user can create, at most δ.
    delta in (0, 1); L0 = `max_partitions` ≥ 1."""
    epsilon = check_epsilon(epsilon)
    delta = _check_delta(delta)
    m = check_integer("max_partitions", max_partitions, low=1)
    return 1.0 + (m / epsilon) * math.log(m / (2.0 * delta))


def partition_selection_probability(
    count: object, epsilon: float, delta: float, max_partitions: int = 1
) -> float | np.ndarray:
    r"""The chance that the optimal (ε, δ) partition selection releases a partition that
    `count` users touch (Desfontaines, Voss, Gipson & Mandayam 2022), run at
    ε' = ε/m and δ' = δ/m for m = `max_partitions` (basic composition over the partitions
    one user can touch):

        p(0) = 0,  p(n) = min(e^ε'·p(n−1) + δ',  1 − e^(−ε')·(1 − δ' − p(n−1)),  1).

    Computed in closed form. While p(n−1) ≤ p* = (1 − δ')/(1 + e^ε') (where the first branch
    is the smaller), p(n) = δ'·(e^(nε') − 1)/(e^ε' − 1). After the last such step k, the
    chance of *not* releasing, q = 1 − p, follows q(n) = e^(−ε')·(q(n−1) − δ'), so
    q(n) = (q(k) + c)·e^(−(n−k)ε') − c with c = δ'/(e^ε' − 1), until it reaches 0. At
    p(n−1) = p* both branches are equal, so the switch point is not sensitive to round-off.
    `count`: a whole number ≥ 0 (a float back) or an array of them (an array of the same
    shape back); delta in (0, 1)."""
    epsilon = check_epsilon(epsilon, high=MAX_EXP_EPSILON)
    delta = _check_delta(delta)
    m = check_integer("max_partitions", max_partitions, low=1)
    n = check_real_array("count", count, allow_inf=False)
    if np.any(n < 0) or np.any(n != np.floor(n)):
        raise ValueError("count must hold whole numbers >= 0")
    eps, dlt = epsilon / m, delta / m
    growth = math.expm1(eps)  # e^ε' − 1, exact for a small ε'
    p_star = (1.0 - dlt) / (2.0 + growth)
    # k: the last n whose step used the first branch, i.e. p1(k − 1) ≤ p*
    k = math.floor(math.log1p(p_star * growth / dlt) / eps) + 1
    with np.errstate(over="ignore"):
        rising = dlt * np.expm1(np.minimum(n, k) * eps) / growth
    p_k = dlt * math.expm1(k * eps) / growth
    c = dlt / growth
    falling = 1.0 - ((1.0 - p_k + c) * np.exp(-(np.maximum(n, k) - k) * eps) - c)
    p = np.where(n <= k, rising, np.minimum(falling, 1.0))
    p = np.where(n == 0, 0.0, p)
    return float(p) if n.ndim == 0 else p
