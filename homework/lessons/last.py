"""Homework for the last five lessons: reconstruction attacks (rebuild secret bits from exact
subset sums; the least-squares attack's accuracy), the 2020 Census in miniature (zCDP's σ,
rounding that keeps a total), synthetic data (a two-way table), when code breaks the proof
(doubles between 1 and 2; why a seed cannot be reused) and privatized data for ML (a noisy
feature's variance). Every number a grade compares with comes from dp/ or is counted here."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, register
from homework.lessons.more import _function, _matches, _number

SEED = 37


# --- reconstruction ----------------------------------------------------------------------------
def grade_rebuild(fn) -> Result:
    """`rebuild(answer, n)` recovers n secret bits from `answer(subset)`, the exact sum of
    the bits at the indices in `subset`, on 100 random secrets (n = 1..8)."""
    if not callable(fn):
        return Result(False, "rebuild must be a function of (answer, n).")
    rng = np.random.default_rng(SEED)
    for _ in range(100):
        n = int(rng.integers(1, 9))
        secret = rng.integers(0, 2, size=n)
        asked = []

        def answer(subset, secret=secret, asked=asked):
            indices = [int(i) for i in subset]
            if any(not 0 <= i < len(secret) for i in indices):
                raise IndexError(f"no person {indices}")
            asked.append(tuple(indices))
            return int(secret[indices].sum())

        theirs = [int(b) for b in fn(answer, n)]
        if theirs != [int(b) for b in secret]:
            return Result(
                False,
                f"With {n} people your reconstruction is wrong: exact sums of well-chosen "
                "subsets (a single person, for example) give every bit away.",
            )
    return Result(True, "Every secret rebuilt from exact subset sums.")


ATTACK = {"people": 64, "queries": 256, "noise": 8.0, "runs": 20}


# --- the 2020 Census in miniature ----------------------------------------------------------------
def grade_rho_sigma(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0, 0.5), (2.0, 0.01)] + [
        (float(rng.choice([1.0, 2.0, 4.0])), float(10 ** rng.uniform(-3, 1))) for _ in range(200)
    ]
    wrong = _matches(
        fn,
        cases,
        dp.gaussian_sigma_for_rho,
        name="sigma_for_rho",
        hint=lambda c: (
            f"At Δ = {c[0]:g}, ρ = {c[1]:.3g} your σ is off: the Gaussian mechanism "
            "with σ is (Δ²/(2σ²))-zCDP."
        ),
    )
    return wrong or Result(True, "zCDP's σ at every Δ and ρ tried.")


def grade_rounding(fn) -> Result:
    """`round_keeping_total(values)` returns whole numbers with the same (rounded) total,
    each within 1 of its value, on 200 random vectors (as dp.round_preserving_sum)."""
    if not callable(fn):
        return Result(False, "round_keeping_total must be a function of a list of numbers.")
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        values = rng.uniform(0, 50, size=int(rng.integers(1, 12)))
        theirs = np.asarray(fn(list(values)), dtype=float)
        if theirs.shape != values.shape or np.any(theirs != np.round(theirs)):
            return Result(False, "Return one whole number per value.")
        if theirs.sum() != round(values.sum()):
            return Result(False, "Your whole numbers do not add up to the rounded total.")
        if np.any(np.abs(theirs - values) >= 1):
            return Result(False, "Each whole number must stay within 1 of its value.")
    return Result(True, "Whole counts that keep the total, each within 1.")


# --- synthetic data ------------------------------------------------------------------------------
def grade_table(fn) -> Result:
    """`two_way(records, levels_a, levels_b)` counts pairs as dp.marginal_tables does."""
    if not callable(fn):
        return Result(False, "two_way must be a function of (records, levels_a, levels_b).")
    rng = np.random.default_rng(SEED)
    for _ in range(100):
        la, lb = int(rng.integers(2, 5)), int(rng.integers(2, 5))
        records = np.column_stack([rng.integers(0, la, size=40), rng.integers(0, lb, size=40)])
        ours = dp.marginal_tables(records, (la, lb))[(0, 1)]
        theirs = np.asarray(fn(records.copy(), la, lb))
        if theirs.shape != ours.shape or not np.array_equal(theirs, ours):
            return Result(
                False,
                f"For {la} × {lb} levels your table is off: entry [i, j] counts the records "
                "with first value i and second value j.",
            )
    return Result(True, "Two-way tables of counts.")


# --- when code breaks the proof -------------------------------------------------------------------
SEED_OPTIONS = {
    "a": "their difference is exactly the person's value",
    "b": "their difference is the person's value plus twice the noise",
    "c": "no more than either release alone, each being ε-DP",
}


# --- privatized data for ML ----------------------------------------------------------------------
def grade_feature_variance(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0, 1.0), (10.0, 0.5)] + [
        (float(rng.uniform(0.1, 100)), float(rng.uniform(0.05, 10))) for _ in range(200)
    ]
    wrong = _matches(
        fn,
        cases,
        lambda width, epsilon: dp.laplace_variance(width, epsilon),
        name="noisy_feature_variance",
        hint=lambda c: (
            f"For a feature of range {c[0]:.2f} at ε = {c[1]:.2f} your variance is "
            "off: one person's feature moves by at most its range, and Var[Lap(b)] = 2b²."
        ),
    )
    return wrong or Result(True, "A locally noised feature's added variance, everywhere tried.")


register(
    _function(
        "reconstruction.rebuild",
        "reconstruction",
        "1. Rebuild the secrets",
        "n people hold secret bits. `answer(subset)` gives the exact number of 1s among the "
        "people whose indices are in `subset` (a list). Write `rebuild(answer, n)`: the list of "
        "the n bits.",
        "rebuild",
        "answer, n",
        grade_rebuild,
    ),
    _number(
        "reconstruction.accuracy",
        "reconstruction",
        "2. Noise at √n",
        f"{ATTACK['people']} people, {ATTACK['queries']} random subset sums, each answered "
        f"within ±{ATTACK['noise']:g} (uniform noise). What share of the bits does the "
        "least-squares attack get right, on average? Set `share_rebuilt` (within 0.06; "
        "`dp.subset_sum_answers` and `dp.subset_sum_attack` may help).",
        "share_rebuilt",
        "a probability",
    ),
    _function(
        "census_topdown.sigma",
        "census_topdown",
        "1. zCDP's noise",
        "Write `sigma_for_rho(sensitivity, rho)`: the σ that makes the Gaussian mechanism "
        "exactly ρ-zCDP.",
        "sigma_for_rho",
        "sensitivity, rho",
        grade_rho_sigma,
    ),
    _function(
        "census_topdown.rounding",
        "census_topdown",
        "2. Whole counts that keep the total",
        "Write `round_keeping_total(values)`: whole numbers, each within 1 of its value, whose "
        "sum is the values' total rounded (as TopDown's post-processing needs).",
        "round_keeping_total",
        "values",
        grade_rounding,
    ),
    _function(
        "synthetic.table",
        "synthetic",
        "1. A two-way table",
        "Write `two_way(records, levels_a, levels_b)`: the table of counts of a NumPy array of "
        "records with two integer columns (values 0 … levels − 1), entry [i, j] the records "
        "with first value i and second value j.",
        "two_way",
        "records, levels_a, levels_b",
        grade_table,
    ),
    _number(
        "synthetic.pairs",
        "synthetic",
        "2. How many tables?",
        "MWEM measures every two-way table of a census block with six attributes. How many "
        "tables is that? Set `pairs_of_attributes`.",
        "pairs_of_attributes",
        "a whole number",
    ),
    _number(
        "floating_point.doubles",
        "floating_point",
        "1. How fine is a double?",
        "How many double-precision numbers lie in [1, 2)? Set `doubles_in_one_to_two`.",
        "doubles_in_one_to_two",
        "a whole number",
    ),
    _number(
        "floating_point.seed",
        "floating_point",
        "2. A reused seed",
        "Two counts that differ only by you are released with Laplace noise drawn from the "
        "same seed. What goes wrong? "
        + "; ".join(f"({k}) {v}" for k, v in SEED_OPTIONS.items())
        + ". Set `reused_seed` to its letter.",
        "reused_seed",
        "a letter",
    ),
    _function(
        "private_ml.variance",
        "private_ml",
        "1. A noisy feature",
        "Each person adds Laplace noise to a feature whose values span `width` before sharing "
        "it, ε-locally-DP. Write `noisy_feature_variance(width, epsilon)`: the variance the "
        "noise adds.",
        "noisy_feature_variance",
        "width, epsilon",
        grade_feature_variance,
    ),
    _number(
        "private_ml.rows",
        "private_ml",
        "2. Enough rows",
        "A feature of range 1 is noised at ε = 1 per person. How many rows make the noisy "
        "feature's mean have a standard deviation (from the noise) of at most 0.01? Set "
        "`rows_needed`.",
        "rows_needed",
        "a whole number",
    ),
)
