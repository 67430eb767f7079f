"""Homework for six more lessons: why anonymisation fails (k-anonymity as a function), the
sparse vector technique (a broken variant named, and an exact stop probability), central
against local (the local model's error), large domains (OLH's hash range), DP group-by (the
Laplace partition threshold) and beyond global sensitivity (the median's local
sensitivity). Every number a grade compares with comes from dp/; a multiple-choice answer is
compared with the SHA-256 of the right letter, never the letter."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Result, register
from homework.lessons.more import _function, _matches, _number

SEED = 29


# --- why anonymisation fails -----------------------------------------------------------------
def grade_k(fn) -> Result:
    """`k_of(rows)`: the k of a release (the smallest group of rows equal on every column),
    on 200 random tables, against dp.k_anonymity of their class sizes."""
    if not callable(fn):
        return Result(False, "k_of must be a function of a list of rows (tuples).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n, width = int(rng.integers(1, 60)), int(rng.integers(1, 4))
        rows = [tuple(int(v) for v in rng.integers(0, 3, size=width)) for _ in range(n)]
        _, sizes = np.unique(np.array(rows), axis=0, return_counts=True)
        ours = dp.k_anonymity(sizes)
        theirs = fn(list(rows))
        if theirs != ours:
            return Result(
                False,
                f"A table of {n} rows is {ours}-anonymous, and you said {theirs}: k is the "
                "size of the smallest group of identical rows.",
            )
    return Result(True, "The k of every table tried.")


# --- the sparse vector technique -----------------------------------------------------------------
FLAW_OPTIONS = {
    "a": "no noise on the queries",
    "b": "a threshold redrawn for every query",
    "c": "query noise without the factor 2c",
}


STOP = {"answers": (1, 0, 6, 2), "threshold": 4.0, "epsilon": 1.0}


# --- central against local --------------------------------------------------------------------
def grade_local_std(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1000, 1.0), (10**6, 0.5)] + [
        (int(rng.integers(10, 10**6)), float(rng.uniform(0.1, 5))) for _ in range(200)
    ]
    wrong = _matches(
        fn,
        cases,
        lambda n, e: float(dp.local_count_std(n, e)),
        name="local_count_std",
        hint=lambda c: (
            f"With n = {c[0]:,} at ε = {c[1]:.2f} your SD is off: each report is "
            "randomized with keep-probability e^ε/(1 + e^ε), and the error grows like √n."
        ),
    )
    return wrong or Result(True, "The local model's error at every n and ε tried.")


# --- large domains -----------------------------------------------------------------------------
def grade_olh(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0,), (3.0,)] + [(float(rng.uniform(0.1, 8)),) for _ in range(200)]
    wrong = _matches(
        fn,
        cases,
        lambda e: float(dp.olh_parameters(e)[0]),
        name="olh_range",
        hint=lambda c: (
            f"At ε = {c[0]:.2f} your hash range is off: OLH hashes into g = e^ε + 1 "
            "buckets, rounded, and at least 2."
        ),
    )
    return wrong or Result(True, "OLH's hash range at every ε tried.")


# --- DP group-by -------------------------------------------------------------------------------
# --- beyond global sensitivity -------------------------------------------------------------------
def grade_local(fn) -> Result:
    """`median_local_sensitivity(values, lower, upper)` equals dp's on 200 random sorted
    lists of odd length, values inside [lower, upper]."""
    if not callable(fn):
        return Result(False, "median_local_sensitivity must be a function.")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n = 2 * int(rng.integers(1, 15)) + 1
        values = np.sort(rng.integers(0, 100, size=n).astype(float))
        ours = dp.median_local_sensitivity(values, 0.0, 100.0)
        theirs = float(fn(values.copy(), 0.0, 100.0))
        if not math.isclose(theirs, ours, rel_tol=1e-9, abs_tol=1e-12):
            return Result(
                False,
                f"On {n} values your local sensitivity is off: replacing one person can move "
                "the median to a neighbouring value. How far?",
            )
    return Result(True, "The median's local sensitivity on every list tried.")


UNIQUE_TABLE = (
    (30, "0214"),
    (30, "0214"),
    (31, "0214"),
    (45, "0301"),
    (45, "0301"),
    (45, "0301"),
    (52, "0214"),
    (30, "0301"),
)


register(
    _number(
        "anonymisation.unique",
        "anonymisation",
        "2. Who is unique?",
        f"A release of (age, ZIP) rows: {', '.join(str(r) for r in UNIQUE_TABLE)}. What "
        "share of its people are alone in their class? Set `share_unique`.",
        "share_unique",
        "a probability",
    ),
    _number(
        "large_domains.sd",
        "large_domains",
        "2. OLH's error",
        "10,000 people report a value from a huge domain with OLH at ε = 2. What is the "
        "standard deviation of one value's estimated count (true count 0)? Set "
        "`olh_count_sd` (within 1%). `dp.olh_variance` may help.",
        "olh_count_sd",
    ),
    _number(
        "group_by.release",
        "group_by",
        "2. Does a group of ten appear?",
        "With the threshold of exercise 1 (ε = 1, δ = 10⁻⁶, Laplace noise of scale 1), how "
        "often is a group of 10 people released? Set `ten_person_group_released` (within "
        "0.0005).",
        "ten_person_group_released",
    ),
    _number(
        "beyond_global.global",
        "beyond_global",
        "2. The median's global sensitivity",
        "Values lie in [0, 100] and one person's value may be replaced. What is the largest "
        "change of the median of three values over all datasets (its global sensitivity)? "
        "Set `median_global_sensitivity`.",
        "median_global_sensitivity",
    ),
)


register(
    _function(
        "anonymisation.k",
        "anonymisation",
        "1. How anonymous is a release?",
        "A release is a list of rows (tuples of its quasi-identifiers). Write `k_of(rows)`: "
        "the k for which it is k-anonymous.",
        "k_of",
        "rows",
        grade_k,
    ),
    _number(
        "sparse_vector.flaw",
        "sparse_vector",
        "1. Which variant is broken for good?",
        "Three published variants of the sparse vector technique: "
        + "; ".join(f"({k}) {v}" for k, v in FLAW_OPTIONS.items())
        + ". Which one is ε′-DP for no finite ε′? Set `broken_variant` to its letter.",
        "broken_variant",
        "a letter",
    ),
    _number(
        "sparse_vector.stop",
        "sparse_vector",
        "2. Where AboveThreshold stops",
        f"AboveThreshold at ε = {STOP['epsilon']:g} (Δ = 1) with threshold "
        f"{STOP['threshold']:g} sees the answers {STOP['answers']}. What is the probability "
        "that it stops at the third? Set `stop_at_third` (within 0.002). "
        "`dp.above_threshold_probabilities` may help, or a simulation of a million runs.",
        "stop_at_third",
        "a probability",
    ),
    _function(
        "central_vs_local.std",
        "central_vs_local",
        "1. The local model's error",
        "n people each answer yes/no with binary randomized response at ε (p = q). Write "
        "`local_count_std(n, epsilon)`: the standard deviation of the estimated count of "
        "yes when the true share is 0.",
        "local_count_std",
        "n, epsilon",
        grade_local_std,
    ),
    _number(
        "central_vs_local.ratio",
        "central_vs_local",
        "2. How much the local model costs",
        "With 10,000 people at ε = 1, how many times larger is the local model's typical "
        "count error than the central Laplace count's? Set `local_over_central` (within 1%). "
        "`dp.local_to_central_error_ratio` may help.",
        "local_over_central",
    ),
    _function(
        "large_domains.olh",
        "large_domains",
        "1. OLH's hash range",
        "Optimal local hashing hashes each value into g buckets, then randomizes the bucket. "
        "Write `olh_range(epsilon)`: the g it uses.",
        "olh_range",
        "epsilon",
        grade_olh,
    ),
    _number(
        "group_by.threshold",
        "group_by",
        "1. The threshold for a new group",
        "A group is released only if its noisy count of people (Laplace, one group per "
        "person, ε = 1) reaches a threshold τ, so that a group of one person appears with "
        "probability at most δ = 10⁻⁶. What is τ? Set `partition_threshold` (within 0.5%).",
        "partition_threshold",
    ),
    _function(
        "beyond_global.local",
        "beyond_global",
        "1. The median's local sensitivity",
        "For a sorted list of an odd number of values in [lower, upper], write "
        "`median_local_sensitivity(values, lower, upper)`: how far the median can move when "
        "one person's value is replaced.",
        "median_local_sensitivity",
        "values, lower, upper",
        grade_local,
    ),
)
