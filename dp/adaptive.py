r"""The reusable holdout: Thresholdout (Dwork, Feldman, Hardt, Pitassi, Reingold & Roth 2015,
"The reusable holdout: preserving validity in adaptive data analysis", *Science* 349(6248),
636–638; the algorithm in its Fig. 1 and supplementary material).

An analyst asks a sequence of (possibly adaptively chosen) statistical queries, each with a
value on the training set and on the holdout set. Thresholdout answers from the training
set while the two agree, and consults the holdout, through Laplace noise, only when they
disagree by more than a noisy threshold; each such answer spends one unit of its budget:

    σ = tolerance;  T̂ = T + γ,  γ ~ Lap(2σ)
    for each query:  η ~ Lap(4σ)
        if |holdout − train| > T̂ + η:  answer holdout + ξ,  ξ ~ Lap(σ);  budget −1;
                                        T̂ = T + a fresh γ ~ Lap(2σ)
        else:                           answer train
    once the budget is spent, every later answer is ⊥ (NaN here).

The threshold test is the sparse vector technique (dp/sparse_vector.py) on the queries'
differences: what makes the holdout reusable is that the analyst learns about it only
through a differentially private mechanism.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_rng, check_finite_array, check_integer, check_positive, check_real


def thresholdout(
    train_values: object,
    holdout_values: object,
    threshold: float,
    tolerance: float,
    budget: int,
    *,
    rng: object = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Thresholdout's answers to the queries whose values on the training and holdout sets
    are `train_values` and `holdout_values` (1-D, equal length, in the order asked), with
    threshold T ≥ 0, tolerance σ > 0 (the noise scales: ξ σ, γ 2σ, η 4σ) and `budget` holdout
    answers (a whole number ≥ 1). Returns (answers, used_holdout): an answer is the training
    value, or the holdout value plus Lap(σ) where the holdout was used; after the budget is
    spent, NaN (and used_holdout False). An empty query list gives two empty arrays."""
    train = check_finite_array("train_values", train_values, allow_empty=True)
    holdout = check_finite_array("holdout_values", holdout_values, allow_empty=True)
    if train.ndim != 1 or holdout.ndim != 1:
        raise ValueError("train_values and holdout_values must be 1-D (one value per query)")
    if train.shape != holdout.shape:
        raise ValueError(
            f"train_values and holdout_values must have one value per query each, got "
            f"{train.size} and {holdout.size}"
        )
    threshold = check_real("threshold", threshold, low=0.0, range_text="finite and >= 0")
    sigma = check_positive("tolerance", tolerance)
    budget = check_integer("budget", budget, low=1)
    generator = as_rng(rng)
    answers = np.full(train.shape, np.nan)
    used = np.zeros(train.shape, dtype=bool)
    left = budget
    noisy_threshold = threshold + generator.laplace(scale=2.0 * sigma)
    for i in range(train.size):
        if left < 1:
            break  # ⊥ from here on
        if abs(holdout[i] - train[i]) > noisy_threshold + generator.laplace(scale=4.0 * sigma):
            answers[i] = holdout[i] + generator.laplace(scale=sigma)
            used[i] = True
            left -= 1
            noisy_threshold = threshold + generator.laplace(scale=2.0 * sigma)
        else:
            answers[i] = train[i]
    return answers, used
