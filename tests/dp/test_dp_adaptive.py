"""dp/adaptive.py: Thresholdout (Dwork et al. 2015, Science) with the paper's noise scales
(ξ: σ, γ: 2σ, η: 4σ) and its budget."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dp


def test_agreeing_sets_are_answered_from_training_and_spend_nothing() -> None:
    train = np.linspace(0.4, 0.6, 50)
    answers, used = dp.thresholdout(train, train, 1.0, 0.01, 3, rng=1)
    assert not used.any() and np.array_equal(answers, train)


def test_the_budget_runs_out_and_every_later_answer_is_none() -> None:
    """Far-apart sets use the holdout every time, three times; then ⊥ (NaN), used False."""
    train, holdout = np.zeros(10), np.ones(10)
    answers, used = dp.thresholdout(train, holdout, 0.0, 0.001, 3, rng=2)
    assert used.tolist() == [True] * 3 + [False] * 7
    assert np.all(np.isnan(answers[3:])) and np.all(np.abs(answers[:3] - 1) < 0.05)
    empty = dp.thresholdout([], [], 0.0, 0.1, 1)
    assert empty[0].size == 0 and empty[1].size == 0 and empty[1].dtype == bool


def test_the_holdout_answer_carries_laplace_noise_of_scale_sigma() -> None:
    """ξ ~ Lap(σ): 4,000 holdout answers minus the holdout value, KS against Lap(σ) and the
    variance within 6 standard errors of 2σ² (Var of the sample variance for a Laplace:
    σ⁴·(24 − 4)/n); the same check refuses noise of scale 2σ."""
    sigma, n = 0.05, 4000
    answers, used = dp.thresholdout(np.zeros(n), np.full(n, 10.0), 0.0, sigma, n, rng=3)
    assert used.all()
    xi = answers - 10.0

    def laplace_of(draws, scale):
        return stats.kstest(draws, stats.laplace(scale=scale).cdf).pvalue > 1e-6 and abs(
            np.var(draws) - 2 * scale**2
        ) < 6 * math.sqrt(20 * scale**4 / draws.size)

    assert laplace_of(xi, sigma)
    assert not laplace_of(xi, 2 * sigma)
    assert not laplace_of(np.random.default_rng(4).laplace(scale=2 * sigma, size=n), sigma)


def test_a_difference_at_the_threshold_uses_the_holdout_half_the_time() -> None:
    """|h − t| = T: used when γ + η < 0, a symmetric noise: probability ½ (binomial test at
    6 standard errors over 20,000 single queries)."""
    rng = np.random.default_rng(5)
    runs = 20_000
    hits = sum(
        bool(dp.thresholdout([0.5], [0.6], 0.1, 0.02, 1, rng=rng)[1][0]) for _ in range(runs)
    )
    assert abs(hits / runs - 0.5) < 6 * math.sqrt(0.25 / runs)


def test_the_threshold_noise_is_redrawn_after_each_holdout_answer() -> None:
    """The chance of a second holdout answer, given a first, equals the first's chance
    (T̂ fresh), both P(d > T + γ + η) for the same d: the two rates agree within 6 SE."""
    rng = np.random.default_rng(6)
    firsts = seconds = both = 0
    runs = 20_000
    for _ in range(runs):
        _, used = dp.thresholdout([0.0, 0.0], [0.13, 0.13], 0.1, 0.02, 2, rng=rng)
        firsts += used[0]
        seconds += used[1] and used[0]
        both += used[0]
    rate_first = firsts / runs
    rate_second = seconds / max(both, 1)
    se = math.sqrt(rate_first * (1 - rate_first) * (1 / runs + 1 / max(both, 1)))
    assert abs(rate_first - rate_second) < 6 * se


def test_answering_in_turns_is_answering_the_list_at_once() -> None:
    """The object keeps its noisy threshold and budget between turns: the same queries in
    pieces (with the same seed) get the same answers as in one list, and `spent` counts the
    holdout answers; an adaptive analyst loses nothing by asking in turns."""
    rng = np.random.default_rng(7)
    train = rng.uniform(0.4, 0.6, 300)
    holdout = train + rng.normal(0.0, 0.03, 300)
    whole, used = dp.thresholdout(train, holdout, 0.05, 0.002, 60, rng=8)
    assert 0 < used.sum() < 60  # some holdout answers, budget not spent
    mechanism = dp.Thresholdout(0.05, 0.002, 60, rng=8)
    pieces = [mechanism.answer(train[a:b], holdout[a:b]) for a, b in ((0, 1), (1, 120), (120, 300))]
    assert np.array_equal(np.concatenate([p[0] for p in pieces]), whole)
    assert np.array_equal(np.concatenate([p[1] for p in pieces]), used)
    assert mechanism.spent == used.sum() and mechanism.left == 60 - used.sum()
    # the budget is shared by the turns: once spent, a later turn gets only ⊥
    small = dp.Thresholdout(0.0, 0.001, 2, rng=9)
    assert small.answer([0.0], [1.0])[1].tolist() == [True]
    assert small.answer([0.0, 0.0], [1.0, 1.0])[1].tolist() == [True, False]
    late, used_late = small.answer([0.0], [1.0])
    assert np.isnan(late[0]) and not used_late[0] and small.left == 0


def test_the_holdout_is_protected_at_two_b_delta_over_sigma() -> None:
    """(2BΔ/σ, 0)-DP: B = 100 answers of means over 5,000 rows (Δ = 1/5,000) at σ = 0.01
    give ε = 4; the paper's form 2B/(σn) at n = 10,000, B = 1, σ = 0.01 is 0.02."""
    assert dp.thresholdout_epsilon(100, 0.01, 1 / 5_000) == pytest.approx(4.0, rel=1e-12)
    assert dp.thresholdout_epsilon(1, 0.01, 1 / 10_000) == pytest.approx(0.02, rel=1e-12)
    # linear in B and Δ, inverse in σ
    assert dp.thresholdout_epsilon(3, 0.02, 0.3) == pytest.approx(90.0, rel=1e-12)
