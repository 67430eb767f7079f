"""Homework for six more lessons, two exercises each: a function checked against dp/ on many
random inputs (behaviour, not one number), and a number checked against an interval that dp/
computes. Lessons: the definition, binary randomized response, unary encoding, choosing
privately, counting over time, subsampling."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Exercise, Result, number_in, register

SEED = 23


def _matches(fn, cases, ours, *, name: str, hint) -> Result | None:
    """None when fn(*case) equals ours(*case) (relative 1e-9) on every case; else the hint
    for the first case that differs (hint(case) words it)."""
    if not callable(fn):
        return Result(False, f"{name} must be a function.")
    for case in cases:
        expected = ours(*case)
        got = float(fn(*case))
        if not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12):
            return Result(False, hint(case))
    return None


# --- the definition ------------------------------------------------------------------------
def grade_posterior(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.5, 1.0), (0.01, 3.0)] + [
        (float(rng.uniform(0.001, 0.999)), float(rng.uniform(0.05, 5))) for _ in range(300)
    ]
    wrong = _matches(
        fn,
        cases,
        dp.posterior_bound,
        name="posterior_bound",
        hint=lambda c: (
            f"With a prior of {c[0]:.3f} at ε = {c[1]:.2f} your bound is off: the "
            "odds (not the probability) grow by at most e^ε."
        ),
    )
    return wrong or Result(True, "The worst-case belief, at every prior and ε tried.")


def grade_ratio(value) -> Result:
    answer = dp.likelihood_ratio_bound(math.log(3))
    return number_in(
        value,
        answer - 1e-6,
        answer + 1e-6,
        what="likelihood_ratio",
        too_low="Too low: ε bounds the log of the ratio.",
        too_high="Too high: ε bounds the log of the ratio.",
    )


# --- binary randomized response ----------------------------------------------------------------
def grade_rr_epsilon(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.75, 0.75), (0.7, 0.6), (0.3, 0.2), (0.6, 0.4)] + [
        tuple(float(x) for x in rng.uniform(0.02, 0.98, 2)) for _ in range(300)
    ]
    wrong = _matches(
        fn,
        cases,
        lambda p, q: float(dp.rr_epsilon(p, q)),
        name="rr_epsilon",
        hint=lambda c: (
            f"At p = {c[0]:.2f}, q = {c[1]:.2f} your ε is off: take the largest "
            "|log| of the two outputs' likelihood ratios (p and q below ½ too)."
        ),
    )
    return wrong or Result(True, "ε of any keep-probabilities, below ½ too.")


def grade_keep(value) -> Result:
    answer = dp.rr_keep_probability(2.0)
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="keep_probability",
        too_low="Too low: with p = q, the ratio p/(1 − p) must be e^ε.",
        too_high="Too high: that keeps the truth so often that ε is larger than 2.",
    )


# --- unary encoding ------------------------------------------------------------------------------
def grade_ue_epsilon(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(0.5, 0.25), (0.75, 0.25)]
    for _ in range(300):
        q, p = sorted(float(x) for x in rng.uniform(0.02, 0.98, 2))
        if p > q:
            cases.append((p, q))
    wrong = _matches(
        fn,
        cases,
        dp.ue_epsilon,
        name="ue_epsilon",
        hint=lambda c: (
            f"At p = {c[0]:.2f}, q = {c[1]:.2f} your ε is off: two answers differ "
            "in two bits, and each bit's ratio counts."
        ),
    )
    return wrong or Result(True, "Unary encoding's ε, two bits at once.")


def grade_oue_q(value) -> Result:
    answer = dp.oue_probabilities(1.0)[1]
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="oue_q",
        too_low="Too low: OUE keeps a 1 with probability ½ and flips a 0 to 1 with q.",
        too_high="Too high: with p = ½, ε = ln((1 − q)/q) here.",
    )


# --- choosing privately -----------------------------------------------------------------------
def grade_exponential(fn) -> Result:
    """`exponential_probabilities(scores, sensitivity, epsilon)` equals dp's on 200 random
    score lists, large ones included (a naive exp overflows)."""
    if not callable(fn):
        return Result(False, "exponential_probabilities must be a function.")
    rng = np.random.default_rng(SEED)
    for i in range(200):
        scores = rng.integers(0, 2000 if i % 4 == 0 else 50, size=int(rng.integers(2, 8)))
        sensitivity, epsilon = float(rng.choice([1.0, 2.0])), float(rng.uniform(0.1, 5))
        ours = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
        theirs = np.asarray(fn(scores.copy(), sensitivity, epsilon), dtype=float)
        if theirs.shape != ours.shape or not np.all(np.isfinite(theirs)):
            return Result(
                False,
                "Return one finite probability per candidate (large scores overflow a plain "
                "exp: subtract the largest score first).",
            )
        if not np.allclose(theirs, ours, rtol=1e-9, atol=1e-12):
            return Result(
                False,
                f"At ε = {epsilon:.2f} and Δ = {sensitivity:g} your probabilities are off: "
                "check the exponent's factor of 2 and the sensitivity.",
            )
    return Result(True, "The exponential mechanism's probabilities, stable for large scores.")


MEDIAN_SCORES = (0, 1, 2, 3, 2, 1, 0)


def grade_top(value) -> Result:
    answer = float(dp.exponential_mechanism_probabilities(np.array(MEDIAN_SCORES), 1.0, 1.0)[3])
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="top_probability",
        too_low="Too low: the best candidate's weight is the largest; divide by the sum.",
        too_high="Too high: every candidate keeps some weight, e^(ε·u/(2Δ)).",
    )


# --- counting over time -----------------------------------------------------------------------
def grade_tree_variance(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1, 1024, 1.0), (1023, 1024, 1.0), (512, 1000, 0.5)]
    for _ in range(200):
        horizon = int(rng.integers(2, 5000))
        cases.append((int(rng.integers(1, horizon + 1)), horizon, float(rng.uniform(0.1, 5))))
    wrong = _matches(
        fn,
        cases,
        dp.binary_tree_variance,
        name="tree_variance",
        hint=lambda c: (
            f"At t = {c[0]}, T = {c[1]}, ε = {c[2]:.2f} your variance is off: each "
            "of t's 1 bits adds a block with Lap(L/ε) noise, L the tree's number of levels."
        ),
    )
    return wrong or Result(True, "The tree's variance at any day and horizon.")


def grade_crossover(value) -> Result:
    """The first day of a 1,000-day stream from which the tree's variance stays below the
    noisy increments' (ε = 1)."""
    horizon, epsilon = 1000, 1.0
    answer = next(
        t
        for t in range(1, horizon + 1)
        if all(
            dp.binary_tree_variance(s, horizon, epsilon) < dp.increments_variance(s, epsilon)
            for s in range(t, horizon + 1)
        )
    )
    return number_in(
        value,
        answer,
        answer,
        what="tree_wins_from",
        too_low="Too early: on some later day the increments are still more accurate.",
        too_high="Too late: the tree is already more accurate on every day from an earlier one.",
    )


# --- subsampling ----------------------------------------------------------------------------------
def grade_amplified(fn) -> Result:
    rng = np.random.default_rng(SEED)
    cases = [(1.0, 0.01), (3.0, 0.5)] + [
        (float(rng.uniform(0.05, 8)), float(rng.uniform(0.001, 1))) for _ in range(300)
    ]
    wrong = _matches(
        fn,
        cases,
        lambda e, q: dp.subsampled_privacy(e, 0.0, q)[0],
        name="amplified_epsilon",
        hint=lambda c: (
            f"At ε = {c[0]:.2f} on a sample at rate {c[1]:.3f} your ε′ is off: it "
            "is not q·ε (a first-order guess), but ln(1 + q(e^ε − 1))."
        ),
    )
    return wrong or Result(True, "Amplification by Poisson sampling, at every ε and rate tried.")


def grade_basic_steps(value) -> Result:
    step = dp.subsampled_privacy(1.0, 0.0, 0.01)[0]
    answer = 300 * step
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="basic_total",
        too_low="Too low: basic composition adds every step's ε′.",
        too_high="Too high: each step costs the amplified ε′, not ε.",
    )


def _function(exercise_id, lesson, title, prompt, name, args, solution, grade) -> Exercise:
    return Exercise(
        id=exercise_id,
        lesson=lesson,
        title=title,
        prompt=prompt,
        name=name,
        starter=f"def {name}({args}):\n    # your code\n    return unanswered()\n",
        solution=solution,
        grade=grade,
    )


def _number(exercise_id, lesson, title, prompt, name, solution, grade) -> Exercise:
    return Exercise(
        id=exercise_id,
        lesson=lesson,
        title=title,
        prompt=prompt,
        name=name,
        starter=f"{name} = ...  # your answer\n",
        solution=solution,
        grade=grade,
    )


register(
    _function(
        "definition.posterior",
        "definition",
        "1. The most an attacker can believe",
        "An attacker believes with probability `prior` that you are in the data. After any "
        "output of an ε-DP mechanism (neighbours: one person added or removed), how high can "
        "that belief go? Write `posterior_bound(prior, epsilon)`.",
        "posterior_bound",
        "prior, epsilon",
        "import math\n\n"
        "def posterior_bound(prior, epsilon):\n"
        "    odds = math.exp(epsilon) * prior / (1 - prior)  # the odds grow by e^ε at most\n"
        "    return odds / (1 + odds)\n",
        grade_posterior,
    ),
    _number(
        "definition.ratio",
        "definition",
        "2. The ratio ε = ln 3 allows",
        "At ε = ln 3, by what factor at most can one output be more likely with you in the "
        "data than without? Set `likelihood_ratio`.",
        "likelihood_ratio",
        "import math\n\nlikelihood_ratio = math.exp(math.log(3))\n",
        grade_ratio,
    ),
    _function(
        "binary_rr.epsilon",
        "binary_rr",
        "1. The ε of any keep-probabilities",
        "Binary randomized response keeps a true 1 with probability p and a true 0 with "
        "probability q. Write `rr_epsilon(p, q)`, right for p or q below ½ too.",
        "rr_epsilon",
        "p, q",
        "import math\n\n"
        "def rr_epsilon(p, q):\n"
        "    return max(abs(math.log(p / (1 - q))), abs(math.log((1 - p) / q)))\n",
        grade_rr_epsilon,
    ),
    _number(
        "binary_rr.keep",
        "binary_rr",
        "2. The keep-probability for ε = 2",
        "With p = q, which keep-probability makes binary randomized response exactly 2-DP? "
        "Set `keep_probability` (within 0.0005).",
        "keep_probability",
        "import math\n\nkeep_probability = math.exp(2) / (1 + math.exp(2))\n",
        grade_keep,
    ),
    _function(
        "unary_encoding.epsilon",
        "unary_encoding",
        "1. Unary encoding's ε",
        "Unary encoding sends one bit per category: a 1 stays 1 with probability p, a 0 "
        "becomes 1 with probability q (p > q). Write `ue_epsilon(p, q)`.",
        "ue_epsilon",
        "p, q",
        "import math\n\ndef ue_epsilon(p, q):\n    return math.log(p * (1 - q) / ((1 - p) * q))\n",
        grade_ue_epsilon,
    ),
    _number(
        "unary_encoding.oue",
        "unary_encoding",
        "2. Optimized unary encoding's q",
        "Optimized unary encoding keeps a 1 with p = ½. Which q makes it 1-DP? Set `oue_q` "
        "(within 0.0005).",
        "oue_q",
        "import math\n\noue_q = 1 / (math.exp(1) + 1)\n",
        grade_oue_q,
    ),
    _function(
        "choosing.exponential",
        "choosing",
        "1. The exponential mechanism",
        "Write `exponential_probabilities(scores, sensitivity, epsilon)`: the probability "
        "that the exponential mechanism picks each candidate (a NumPy array of scores, "
        "higher is better). Scores may be large.",
        "exponential_probabilities",
        "scores, sensitivity, epsilon",
        "import numpy as np\n\n"
        "def exponential_probabilities(scores, sensitivity, epsilon):\n"
        "    logits = epsilon * np.asarray(scores, dtype=float) / (2 * sensitivity)\n"
        "    weights = np.exp(logits - logits.max())  # no overflow\n"
        "    return weights / weights.sum()\n",
        grade_exponential,
    ),
    _number(
        "choosing.top",
        "choosing",
        "2. How often the best candidate wins",
        f"Seven candidates score {MEDIAN_SCORES} (Δ = 1). At ε = 1, how often does the "
        "exponential mechanism pick the best one? Set `top_probability` (within 0.0005).",
        "top_probability",
        "import math\n\n"
        f"scores = {MEDIAN_SCORES}\n"
        "weights = [math.exp(1 * u / 2) for u in scores]\n"
        "top_probability = max(weights) / sum(weights)\n",
        grade_top,
    ),
    _function(
        "counting_over_time.variance",
        "counting_over_time",
        "1. The tree's variance",
        "The binary tree mechanism releases a running count over T days with ε per person's "
        "event. Write `tree_variance(t, horizon, epsilon)`: the variance of day t's count.",
        "tree_variance",
        "t, horizon, epsilon",
        "def tree_variance(t, horizon, epsilon):\n"
        "    levels = horizon.bit_length()  # each event is in one block per level\n"
        "    blocks = bin(t).count('1')  # day t's count adds one block per 1 bit\n"
        "    return blocks * 2 * (levels / epsilon) ** 2\n",
        grade_tree_variance,
    ),
    _number(
        "counting_over_time.crossover",
        "counting_over_time",
        "2. From which day the tree wins",
        "Over T = 1,000 days at ε = 1, from which day on is the tree's count more accurate "
        "(smaller variance) than summing noisy daily increments, on every later day too? Set "
        "`tree_wins_from` (a day).",
        "tree_wins_from",
        "def tree_var(t, horizon=1000, eps=1.0):\n"
        "    return bin(t).count('1') * 2 * (horizon.bit_length() / eps) ** 2\n\n"
        "def increments_var(t, eps=1.0):\n"
        "    return t * 2 / eps**2\n\n"
        "tree_wins_from = min(\n"
        "    t for t in range(1, 1001)\n"
        "    if all(tree_var(s) < increments_var(s) for s in range(t, 1001))\n"
        ")\n",
        grade_crossover,
    ),
    _function(
        "subsampling.amplified",
        "subsampling",
        "1. Amplification by sampling",
        "An ε-DP mechanism runs on a Poisson sample of the data (each person in it with "
        "probability q). Write `amplified_epsilon(epsilon, q)`: its ε′ on the whole data.",
        "amplified_epsilon",
        "epsilon, q",
        "import math\n\n"
        "def amplified_epsilon(epsilon, q):\n"
        "    return math.log(1 + q * math.expm1(epsilon))\n",
        grade_amplified,
    ),
    _number(
        "subsampling.steps",
        "subsampling",
        "2. 300 steps, added up",
        "DP-SGD takes 300 steps, each ε = 1 on a 1% Poisson sample. What total ε does basic "
        "composition give? Set `basic_total` (within 0.5%). (An accountant gives far less.)",
        "basic_total",
        "import math\n\nbasic_total = 300 * math.log(1 + 0.01 * math.expm1(1))\n",
        grade_basic_steps,
    ),
)
