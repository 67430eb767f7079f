"""Homework for four more lessons: what ε means (the most any test can tell, and δ's
exposure), uncertainty in DP answers (an interval for noise and sampling together), private
training with DP-SGD (clipping, and the noise a step adds) and beyond k-anonymity
(l-diversity as a function, and a skewed class). Every number a grade compares with comes
from dp/."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, register
from homework.lessons.more import _function, _matches, _number

SEED = 31


# --- what ε means -------------------------------------------------------------------------------
def grade_advantage(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0,), (0.1,), (10.0,)] + [(float(rng.uniform(0.01, 20)),) for _ in range(200)]
    wrong = _matches(
        fn,
        cases,
        lambda e: dp.advantage_bound(e),
        name="advantage_bound",
        hint=lambda c: (
            f"At ε = {c[0]:.2f} your bound is off: the best test sits where "
            "TPR = e^ε·FPR meets 1 − FPR = e^ε·(1 − TPR); its TPR − FPR is the bound."
        ),
    )
    return wrong or Result(True, "The most any test can tell, at every ε tried.")


# --- uncertainty --------------------------------------------------------------------------------
def grade_se(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.5, 100), (0.01, 10_000)] + [
        (float(rng.uniform(0.001, 0.999)), int(rng.integers(1, 10**6))) for _ in range(200)
    ]
    wrong = _matches(
        fn,
        cases,
        dp.proportion_standard_error,
        name="share_standard_error",
        hint=lambda c: (
            f"At a share of {c[0]:.3f} over {c[1]:,} people your SE is off: the "
            "variance of a mean of n yes/no answers is p(1 − p)/n."
        ),
    )
    return wrong or Result(True, "A survey share's sampling error, everywhere tried.")


# --- DP-SGD -------------------------------------------------------------------------------------
def grade_clip(fn) -> Result:
    """`clip(gradients, clip_norm)` equals dp.clip_rows on 200 random batches."""
    if not callable(fn):
        return Result(False, "clip must be a function of (gradients, clip_norm).")
    rng = np.random.default_rng(SEED)
    for i in range(200):
        rows, width = int(rng.integers(1, 20)), int(rng.integers(1, 6))
        gradients = rng.normal(0, 3, size=(rows, width))
        if i % 5 == 0:
            gradients[0] = 0.0  # a zero gradient must stay 0
        clip_norm = float(rng.uniform(0.1, 5))
        ours = dp.clip_rows(gradients, clip_norm)
        theirs = np.asarray(fn(gradients.copy(), clip_norm), dtype=float)
        if theirs.shape != ours.shape or not np.all(np.isfinite(theirs)):
            return Result(False, "Return one finite row per example (a zero row stays 0).")
        if not np.allclose(theirs, ours, rtol=1e-9, atol=1e-12):
            return Result(
                False,
                "Some rows are off: clip each example's gradient to length at most C (its "
                "own L2 norm), and leave shorter ones as they are.",
            )
    return Result(True, "Per-example clipping, zero gradients included.")


# --- beyond k-anonymity ------------------------------------------------------------------------
def grade_l(fn) -> Result:
    """`l_of(classes, sensitive)` equals dp.l_diversity on 200 random tables."""
    if not callable(fn):
        return Result(False, "l_of must be a function of (classes, sensitive).")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        n = int(rng.integers(1, 80))
        classes = rng.integers(0, 6, size=n)
        sensitive = rng.integers(0, 4, size=n)
        ours = dp.l_diversity(classes, sensitive)
        theirs = fn(list(classes), list(sensitive))
        if theirs != ours:
            return Result(
                False,
                f"A table of {n} people is {ours}-diverse, and you said {theirs}: l is the "
                "fewest distinct sensitive values in any one class.",
            )
    return Result(True, "The l of every table tried.")


# The lesson's skewed class: 123 of its 200 people earn more than $50K (61.5%), against 484
# of the table's 2,000 (24.2%).
SKEW_CLASS, SKEW_TABLE = (123, 200), (484, 2000)


register(
    _function(
        "epsilon_meaning.advantage",
        "epsilon_meaning",
        "1. The most any test can tell",
        "Write `advantage_bound(epsilon)`: the largest TPR − FPR any test can reach when it "
        "tells two neighbouring datasets apart from an ε-DP release.",
        "advantage_bound",
        "epsilon",
        grade_advantage,
    ),
    _number(
        "epsilon_meaning.exposure",
        "epsilon_meaning",
        "2. What δ = 10⁻⁵ can mean",
        "A (0, δ)-DP mechanism publishes each person's record with probability δ = 10⁻⁵, "
        "independently. With 1,000,000 people, what is the chance that at least one record is "
        "published? Set `someone_published` (within 0.0005).",
        "someone_published",
    ),
    _number(
        "uncertainty.interval",
        "uncertainty",
        "1. Noise and sampling together",
        "A survey's estimate has sampling error N(0, 10²), and the release adds Laplace noise "
        "of scale 20. What is the half-width t of the interval release ± t that holds the "
        "population's value 95% of the time? Set `half_width` (within 0.5%). "
        "`dp.noise_sampling_interval` may help.",
        "half_width",
    ),
    _function(
        "uncertainty.se",
        "uncertainty",
        "2. A share's sampling error",
        "Write `share_standard_error(share, n)`: the standard error of a survey's share of "
        "yes over n people chosen at random.",
        "share_standard_error",
        "share, n",
        grade_se,
    ),
    _function(
        "dpsgd.clip",
        "dpsgd",
        "1. Per-example clipping",
        "Write `clip(gradients, clip_norm)`: each row of the NumPy array `gradients` (one "
        "example's gradient) scaled down to L2 norm `clip_norm` when it is longer, kept when "
        "it is shorter.",
        "clip",
        "gradients, clip_norm",
        grade_clip,
    ),
    _number(
        "dpsgd.noise",
        "dpsgd",
        "2. The noise in one step",
        "DP-SGD clips to C = 1, adds N(0, σ²C²) to the sum of the batch's clipped gradients "
        "with σ = 1.1, and divides by the expected batch size B = 256. What is the standard "
        "deviation of one coordinate's noise in the update? Set `noise_sd_per_coordinate` "
        "(within 0.5%).",
        "noise_sd_per_coordinate",
    ),
    _function(
        "beyond_k_anonymity.l",
        "beyond_k_anonymity",
        "1. How diverse is a release?",
        "Each person has an equivalence class and a sensitive value (two lists, one entry a "
        "person). Write `l_of(classes, sensitive)`: the l of l-diversity (distinct values).",
        "l_of",
        "classes, sensitive",
        grade_l,
    ),
    _number(
        "beyond_k_anonymity.distance",
        "beyond_k_anonymity",
        "2. How far a skewed class is",
        "In one class 123 of 200 people earn more than \\$50K (61.5%); in the whole table "
        "484 of 2,000 (24.2%). What is the class's distance from the table, "
        "½ Σ |p_class − p_table| over the two values? Set `class_distance` (within 0.0005).",
        "class_distance",
    ),
)
