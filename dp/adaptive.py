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

`Thresholdout` is the mechanism as an object an analyst talks to in turns (its threshold and
budget carry over from one batch of queries to the next, so a later query may depend on an
earlier answer); `thresholdout` answers one list of queries.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_rng, check_finite_array, check_integer, check_positive, check_real


class Thresholdout:
    r"""Thresholdout with threshold T ≥ 0, tolerance σ > 0 (the noise scales: ξ σ, γ 2σ,
    η 4σ) and `budget` holdout answers (a whole number ≥ 1), answering queries in turns:
    each call of `answer` continues where the last one stopped (the same noisy threshold T̂,
    the budget left), so an adaptive analyst may choose its next queries from the answers it
    has had. Answering a list in one call or in pieces, with the same generator, gives the
    same answers."""

    def __init__(
        self, threshold: float, tolerance: float, budget: int, *, rng: object = None
    ) -> None:
        self.threshold = check_real("threshold", threshold, low=0.0, range_text="finite and >= 0")
        self.tolerance = check_positive("tolerance", tolerance)
        self.budget = check_integer("budget", budget, low=1)
        self.left = self.budget  # holdout answers still allowed
        self._rng = as_rng(rng)
        self._noisy_threshold = self._fresh_threshold()

    def _fresh_threshold(self) -> float:
        return self.threshold + self._rng.laplace(scale=2.0 * self.tolerance)

    @property
    def spent(self) -> int:
        """Holdout answers given so far."""
        return self.budget - self.left

    def answer(self, train_values: object, holdout_values: object) -> tuple[np.ndarray, np.ndarray]:
        """The answers to the queries whose values on the training and holdout sets are
        `train_values` and `holdout_values` (1-D, equal length, in the order asked): the
        training value, or the holdout value plus Lap(σ) where the holdout was used; once the
        budget is spent, NaN (and used_holdout False). Returns (answers, used_holdout)."""
        train = check_finite_array("train_values", train_values, allow_empty=True)
        holdout = check_finite_array("holdout_values", holdout_values, allow_empty=True)
        if train.ndim != 1 or holdout.ndim != 1:
            raise ValueError("train_values and holdout_values must be 1-D (one value per query)")
        if train.shape != holdout.shape:
            raise ValueError(
                f"train_values and holdout_values must have one value per query each, got "
                f"{train.size} and {holdout.size}"
            )
        sigma, generator = self.tolerance, self._rng
        answers = np.full(train.shape, np.nan)
        used = np.zeros(train.shape, dtype=bool)
        for i in range(train.size):
            if self.left < 1:
                break  # ⊥ from here on
            gap = abs(holdout[i] - train[i])
            if gap > self._noisy_threshold + generator.laplace(scale=4.0 * sigma):
                answers[i] = holdout[i] + generator.laplace(scale=sigma)
                used[i] = True
                self.left -= 1
                self._noisy_threshold = self._fresh_threshold()
            else:
                answers[i] = train[i]
        return answers, used


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
    return Thresholdout(threshold, tolerance, budget, rng=rng).answer(train_values, holdout_values)


def thresholdout_epsilon(budget: int, tolerance: float, sensitivity: float) -> float:
    r"""Thresholdout's privacy for the holdout: (2·B·Δ/σ, 0)-DP, where Δ is the queries'
    sensitivity on the holdout (1/n for a mean of values in [0, 1] over n rows). Each holdout
    answer ends one run of the sparse vector technique (AboveThreshold, Dwork & Roth 2014,
    §3.6, Algorithm 1), whose threshold noise Lap(2σ) and comparison noise Lap(4σ) make it
    (Δ/σ)-DP, and adds Lap(σ) to a Δ-sensitive value (Δ/σ more); B runs compose to 2BΔ/σ. A
    last run that ends without a holdout answer costs at most Δ/σ, and only while fewer than B
    were given, so 2BΔ/σ bounds every run (Dwork et al. 2015, supplement)."""
    budget = check_integer("budget", budget, low=1)
    sigma = check_positive("tolerance", tolerance)
    sensitivity = check_positive("sensitivity", sensitivity)
    return 2.0 * budget * sensitivity / sigma
