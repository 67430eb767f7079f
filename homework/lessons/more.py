"""Homework for six more lessons, two exercises each: a function checked against dp/ on many
random inputs (behaviour, not one number), and a number checked against an interval that dp/
computes. Lessons: the definition, binary randomized response, unary encoding, choosing
privately, counting over time, subsampling."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Exercise, Result, register

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


def _function(exercise_id, lesson, title, prompt, name, args, grade) -> Exercise:
    return Exercise(
        id=exercise_id,
        lesson=lesson,
        title=title,
        prompt=prompt,
        name=name,
        starter=f"def {name}({args}):\n    # your code\n    return unanswered()\n",
        grade=grade,
    )


def _number(exercise_id, lesson, title, prompt, name, form: str = "") -> Exercise:
    """A fixed answer; `form` ("a letter", "a probability", "a whole number") is said in the
    starter's comment, and the student's check holds the answer to it."""
    return Exercise(
        id=exercise_id,
        lesson=lesson,
        title=title,
        prompt=prompt,
        name=name,
        starter=f"{name} = ...  # your answer{', ' + form if form else ''}\n",
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
        grade_posterior,
    ),
    _number(
        "definition.ratio",
        "definition",
        "2. The ratio ε = ln 3 allows",
        "At ε = ln 3, by what factor at most can one output be more likely with you in the "
        "data than without? Set `likelihood_ratio`.",
        "likelihood_ratio",
    ),
    _function(
        "binary_rr.epsilon",
        "binary_rr",
        "1. The ε of any keep-probabilities",
        "Binary randomized response keeps a true 1 with probability p and a true 0 with "
        "probability q. Write `rr_epsilon(p, q)`, right for p or q below ½ too.",
        "rr_epsilon",
        "p, q",
        grade_rr_epsilon,
    ),
    _number(
        "binary_rr.keep",
        "binary_rr",
        "2. The keep-probability for ε = 2",
        "With p = q, which keep-probability makes binary randomized response exactly 2-DP? "
        "Set `keep_probability` (within 0.0005).",
        "keep_probability",
        "a probability",
    ),
    _function(
        "unary_encoding.epsilon",
        "unary_encoding",
        "1. Unary encoding's ε",
        "Unary encoding sends one bit per category: a 1 stays 1 with probability p, a 0 "
        "becomes 1 with probability q (p > q). Write `ue_epsilon(p, q)`.",
        "ue_epsilon",
        "p, q",
        grade_ue_epsilon,
    ),
    _number(
        "unary_encoding.oue",
        "unary_encoding",
        "2. Optimized unary encoding's q",
        "Optimized unary encoding keeps a 1 with p = ½. Which q makes it 2-DP? Set `oue_q` "
        "(within 0.0005).",
        "oue_q",
        "a probability",
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
        grade_exponential,
    ),
    _number(
        "choosing.top",
        "choosing",
        "2. How often the best candidate wins",
        f"Seven candidates score {MEDIAN_SCORES} (Δ = 1). At ε = 1, how often does the "
        "exponential mechanism pick the best one? Set `top_probability` (within 0.0005).",
        "top_probability",
        "a probability",
    ),
    _function(
        "counting_over_time.variance",
        "counting_over_time",
        "1. The tree's variance",
        "The binary tree mechanism releases a running count over T days with ε per person's "
        "event. Write `tree_variance(t, horizon, epsilon)`: the variance of day t's count.",
        "tree_variance",
        "t, horizon, epsilon",
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
        "a whole number",
    ),
    _function(
        "subsampling.amplified",
        "subsampling",
        "1. Amplification by sampling",
        "An ε-DP mechanism runs on a Poisson sample of the data (each person in it with "
        "probability q). Write `amplified_epsilon(epsilon, q)`: its ε′ on the whole data.",
        "amplified_epsilon",
        "epsilon, q",
        grade_amplified,
    ),
    _number(
        "subsampling.steps",
        "subsampling",
        "2. 300 steps, added up",
        "DP-SGD takes 300 steps, each ε = 1 on a 1% Poisson sample. What total ε does basic "
        "composition give? Set `basic_total` (within 0.5%). (An accountant gives far less.)",
        "basic_total",
    ),
)
