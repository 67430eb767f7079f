r"""Plausible but WRONG formulas, kept here so lessons can show what they do.

Nothing in this module is an estimator to use. Each function says in its name and its
docstring what is wrong with it, and the tests prove the bias.

The fair-coin de-biasing (Dwork & Roth 2014, §3.2, "The Algorithmic Foundations of
Differential Privacy"): with two fair coins a true "yes" is reported "yes" with probability
¾ and a true "no" with probability ¼, so the share of "yes" answers has expectation
    E[Ŷ] = ¼ (1 - r) + ¾ r = ¼ + r / 2,
and the book estimates r as "twice the fraction answering yes, minus ½":
    r̂ = 2 Ŷ - ½.
That formula hard-codes both coins. Copied into a survey that later biased its coins
(honest probability h, random-"yes" probability y), it silently keeps answering for fair
coins. The right estimator for any coins is
    r̂ = (Ŷ - (1 - h) y) / h = (Ŷ + q - 1) / (p + q - 1)   (see `dp.estimate_proportion`).
"""

from __future__ import annotations

import numpy as np

from ._validate import check_integer, check_probability, check_real_array


def fair_coin_formula_estimate(yes_counts, n: int):
    r"""WRONG unless both coins are fair: the textbook fair-coin de-biasing 2Ŷ − ½.

        r̂_wrong = 2 · (C / n) − ½      for C reported "yes" out of n.

    It is Dwork & Roth's formula for h = y = ½ (first coin: answer honestly with
    probability h; second coin: "yes" with probability y). It subtracts the fair-coin
    random-"yes" share ¼ instead of (1 − h) y, and multiplies by 2 = 1/½ instead of
    dividing by h = p + q − 1. Its expectation is r + `fair_coin_formula_bias(r, h, y)`,
    which is r for every r only when h = y = ½. Vectorised over many surveys' counts."""
    n = check_integer("n", n, low=1)
    counts = check_real_array("yes_counts", yes_counts, allow_inf=False)
    if np.any((counts < 0) | (counts > n)):
        raise ValueError(f"yes_counts must lie in 0..n (n = {n})")
    out = 2.0 * (counts / n) - 0.5
    return float(out) if out.ndim == 0 else out


def fair_coin_formula_bias(proportion: float, honest: float, yes: float) -> float:
    r"""The bias E[r̂_wrong] − r of `fair_coin_formula_estimate` under biased coins.

    With E[Ŷ] = h r + (1 − h) y (coin 1 honest with probability h, coin 2 "yes" with
    probability y):
        E[2Ŷ − ½] − r = (2h − 1) r + 2 (1 − h) y − ½,
    which is 0 for every r exactly when h = ½ and y = ½."""
    r = check_probability("proportion", proportion)
    h = check_probability("honest", honest)
    y = check_probability("yes", yes)
    return (2.0 * h - 1.0) * r + 2.0 * (1.0 - h) * y - 0.5
