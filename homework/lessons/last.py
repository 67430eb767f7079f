"""Homework for the last five lessons: reconstruction attacks (rebuild secret bits from exact
subset sums; the least-squares attack's accuracy), the 2020 Census in miniature (zCDP's σ,
rounding that keeps a total), synthetic data (a two-way table), when code breaks the proof
(doubles between 1 and 2; why a seed cannot be reused) and privatized data for ML (a noisy
feature's variance). Every number a grade compares with comes from dp/ or is counted here."""

from __future__ import annotations

import hashlib
import math

import numpy as np

import dp
from homework.core import Result, number_in, register
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


def attack_accuracy() -> float:
    """The least-squares attack's share of right bits, at noise ±8 = √64 on 64 people, 256
    random subset sums, averaged over 20 seeded secrets (dp.subset_sum_attack)."""
    rng = np.random.default_rng(SEED)
    right = 0
    a = ATTACK
    for _ in range(a["runs"]):
        secret = rng.integers(0, 2, size=a["people"])
        queries = rng.integers(0, 2, size=(a["queries"], a["people"]))
        answers = dp.subset_sum_answers(secret, queries, a["noise"], rng=rng)
        right += int(np.sum(dp.subset_sum_attack(queries, answers) == secret))
    return right / (a["runs"] * a["people"])


def grade_accuracy(value) -> Result:
    answer = attack_accuracy()
    return number_in(
        value,
        answer - 0.06,  # a student's own 20 runs differ by ~0.016 (one SE) from these
        answer + 0.06,
        what="share_rebuilt",
        too_low="Too low: even at noise ±√n the attack does far better than a coin.",
        too_high="Too high: at noise ±√n many bits come out wrong.",
    )


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


def grade_cells(value) -> Result:
    """How many two-way tables MWEM's census has to measure: every pair of 6 attributes."""
    answer = math.comb(6, 2)
    return number_in(
        value,
        answer,
        answer,
        what="pairs_of_attributes",
        too_low="Too few: every pair of the six attributes has its table.",
        too_high="Too many: a pair is unordered, and an attribute is not paired with itself.",
    )


# --- when code breaks the proof -------------------------------------------------------------------
def grade_doubles(value) -> Result:
    """How many doubles lie in [1, 2): the 52-bit mantissa's 2^52 (math.nextafter counts)."""
    answer = 2**52
    assert math.nextafter(1.0, 2.0) - 1.0 == 1.0 / answer
    return number_in(
        value,
        answer,
        answer,
        what="doubles_in_one_to_two",
        too_low="Too few: a double has a 52-bit fraction.",
        too_high="Too many: in [1, 2) the exponent is fixed; only the fraction varies.",
    )


SEED_OPTIONS = {
    "a": "their difference is exactly the person's value",
    "b": "their difference is the person's value plus twice the noise",
    "c": "no more than either release alone, each being ε-DP",
}
SEED_SHA256 = hashlib.sha256(b"a").hexdigest()


def grade_seed(letter) -> Result:
    if letter is Ellipsis or letter is None:
        return Result(False, "Set reused_seed to your answer (a letter), then run the check again.")
    if not isinstance(letter, str) or letter.strip().lower() not in SEED_OPTIONS:
        return Result(False, f"reused_seed must be one of {sorted(SEED_OPTIONS)}.")
    if hashlib.sha256(letter.strip().lower().encode()).hexdigest() == SEED_SHA256:
        return Result(True, "")
    return Result(False, "Draw the same noise twice and subtract the two releases: what is left?")


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


def grade_rows(value) -> Result:
    """Rows needed so that a noisy feature's mean (range 1, ε = 1) has SD at most 0.01."""
    per_row = dp.laplace_variance(1.0, 1.0)
    answer = math.ceil(per_row / 0.01**2)
    return number_in(
        value,
        answer,
        answer,
        what="rows_needed",
        too_low="Too few: the mean's variance is one row's, divided by the rows.",
        too_high="More than needed.",
    )


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
        "def rebuild(answer, n):\n    return [answer([i]) for i in range(n)]\n",
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
        "import numpy as np\nimport dp\n\n"
        "rng = np.random.default_rng(0)\n"
        "right = 0\n"
        "for _ in range(20):\n"
        "    secret = rng.integers(0, 2, size=64)\n"
        "    queries = rng.integers(0, 2, size=(256, 64))\n"
        "    answers = dp.subset_sum_answers(secret, queries, 8.0, rng=rng)\n"
        "    right += (dp.subset_sum_attack(queries, answers) == secret).sum()\n"
        "share_rebuilt = right / (20 * 64)\n",
        grade_accuracy,
    ),
    _function(
        "census_topdown.sigma",
        "census_topdown",
        "1. zCDP's noise",
        "Write `sigma_for_rho(sensitivity, rho)`: the σ that makes the Gaussian mechanism "
        "exactly ρ-zCDP.",
        "sigma_for_rho",
        "sensitivity, rho",
        "import math\n\n"
        "def sigma_for_rho(sensitivity, rho):\n"
        "    return sensitivity / math.sqrt(2 * rho)\n",
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
        "import math\n\n"
        "def round_keeping_total(values):\n"
        "    floors = [math.floor(v) for v in values]\n"
        "    missing = round(sum(values)) - sum(floors)\n"
        "    order = sorted(range(len(values)), key=lambda i: values[i] - floors[i], "
        "reverse=True)\n"
        "    for i in order[:missing]:\n"
        "        floors[i] += 1\n"
        "    return floors\n",
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
        "import numpy as np\n\n"
        "def two_way(records, levels_a, levels_b):\n"
        "    table = np.zeros((levels_a, levels_b), dtype=int)\n"
        "    np.add.at(table, (records[:, 0], records[:, 1]), 1)\n"
        "    return table\n",
        grade_table,
    ),
    _number(
        "synthetic.pairs",
        "synthetic",
        "2. How many tables?",
        "MWEM measures every two-way table of a census block with six attributes. How many "
        "tables is that? Set `pairs_of_attributes`.",
        "pairs_of_attributes",
        "import math\n\npairs_of_attributes = math.comb(6, 2)\n",
        grade_cells,
    ),
    _number(
        "floating_point.doubles",
        "floating_point",
        "1. How fine is a double?",
        "How many double-precision numbers lie in [1, 2)? Set `doubles_in_one_to_two`.",
        "doubles_in_one_to_two",
        "doubles_in_one_to_two = 2**52\n",
        grade_doubles,
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
        'reused_seed = "a"  # the same noise twice: it cancels in the difference\n',
        grade_seed,
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
        "def noisy_feature_variance(width, epsilon):\n    return 2 * (width / epsilon) ** 2\n",
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
        "import math\n\nrows_needed = math.ceil(2 * (1 / 1) ** 2 / 0.01**2)\n",
        grade_rows,
    ),
)
