"""dp.epsilon_from_rates, dp.epsilon_lower_bound (dp/audit.py) and dp.tracing_score
(dp/attacks.py): hand-computed points, scipy's beta quantiles, a direct loop, and an audit
that passes an honest Laplace count and catches one with the wrong sensitivity."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dp


@pytest.mark.parametrize(
    ("tpr", "fpr", "delta", "expected"),
    [
        (0.5, 0.5, 0.0, 0.0),  # a coin flip shows nothing
        (0.6, 0.3, 0.0, math.log(2.0)),  # ln(0.6/0.3) beats ln(0.7/0.4)
        (0.2, 0.05, 0.0, math.log(4.0)),  # ln(0.2/0.05) = ln 4; ln(0.95/0.8) smaller
        (0.95, 0.8, 0.0, math.log(0.2 / 0.05)),  # the complement term: ln((1−0.8)/(1−0.95))
        (0.3, 0.1, 0.05, math.log(0.25 / 0.1)),  # δ taken off the numerator
        (0.04, 0.01, 0.05, 0.0),  # TPR ≤ δ skipped; ln((1 − 0.01 − 0.05)/0.96) < 0
        (0.9, 0.0, 0.0, math.inf),  # FPR = 0 with TPR > δ: no finite ε
        (1.0, 0.1, 0.0, math.inf),  # TPR = 1: the complement term divides by 0
        (0.1, 0.0, 0.2, 0.0),  # FPR = 0 but TPR ≤ δ: δ covers it
        (0.3, 0.6, 0.0, 0.0),  # worse than chance both ways: nothing
    ],
)
def test_epsilon_from_rates_at_hand_computed_points(tpr, fpr, delta, expected):
    assert dp.epsilon_from_rates(tpr, fpr, delta=delta) == pytest.approx(expected)


def test_the_rates_of_a_laplace_threshold_test_give_back_its_epsilon():
    """Lap(1/ε) on counts 1 and 0, guess "D" when the output exceeds 1: TPR = ½,
    FPR = ½e^(−ε), exactly the ratio e^ε."""
    for epsilon in (0.1, 1.0, 3.0):
        assert dp.epsilon_from_rates(0.5, 0.5 * math.exp(-epsilon)) == pytest.approx(epsilon)


@pytest.mark.parametrize(
    ("tp", "pos", "fp", "neg", "confidence"),
    [(500, 1000, 184, 1000, 0.95), (30, 40, 2, 40, 0.99), (7, 10, 0, 10, 0.9), (0, 5, 5, 5, 0.95)],
)
def test_epsilon_lower_bound_uses_scipys_beta_quantiles(tp, pos, fp, neg, confidence):
    alpha = (1 - confidence) / 2
    low = stats.beta.ppf(alpha, tp, pos - tp + 1) if tp > 0 else 0.0
    high = stats.beta.ppf(1 - alpha, fp + 1, neg - fp) if fp < neg else 1.0
    expected = dp.epsilon_from_rates(low, high)
    got = dp.epsilon_lower_bound(tp, pos, fp, neg, confidence=confidence)
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert got <= dp.epsilon_from_rates(tp / pos, fp / neg) + 1e-12  # never above the point


def test_more_confidence_means_a_lower_bound():
    bounds = [dp.epsilon_lower_bound(500, 1000, 184, 1000, confidence=c) for c in (0.5, 0.9, 0.99)]
    assert bounds[0] > bounds[1] > bounds[2] > 0


def laplace_audit(scale: float, trials: int, seed: int, epsilon: float) -> float:
    """Run Lap(scale) on the counts 1 (D) and 0 (D′) `trials` times each; the attack says
    "D" when the output exceeds 1 (a rule fixed before the runs)."""
    rng = np.random.default_rng(seed)
    on_d = 1.0 + rng.laplace(0.0, scale, size=trials)
    on_d_prime = rng.laplace(0.0, scale, size=trials)
    return dp.epsilon_lower_bound(
        int(np.sum(on_d > 1.0)), trials, int(np.sum(on_d_prime > 1.0)), trials
    )


def test_the_audit_passes_an_honest_laplace_count_and_catches_the_wrong_sensitivity():
    epsilon = 1.0
    for seed in range(5):
        assert laplace_audit(1.0 / epsilon, 100_000, seed, epsilon) <= epsilon
        # the bug: noise for sensitivity ½ (b = 1/(2ε)): in truth 2ε-DP
        assert laplace_audit(0.5 / epsilon, 100_000, seed, epsilon) > epsilon


@pytest.mark.parametrize("delta", [0.0, 1e-5, 0.05])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 4.0])
def test_tpr_bound_is_the_edge_that_epsilon_from_rates_inverts(epsilon, delta):
    """On the region's edge the rates give back ε exactly; the edge is e^ε·FPR + δ at small
    FPR and the complement bound near 1."""
    fpr = np.array([0.0, 1e-4, 0.01, 0.1, 0.3, 0.6, 0.9, 1.0])
    edge = dp.tpr_bound(fpr, epsilon, delta=delta)
    assert np.all(np.diff(edge) >= 0) and np.all((edge >= fpr) & (edge <= 1))
    assert edge[2] == pytest.approx(min(1, math.exp(epsilon) * 0.01 + delta))
    for f, t in zip(fpr, edge, strict=True):
        if f > 0 and t < 1 and t > delta:
            assert dp.epsilon_from_rates(t, f, delta=delta) == pytest.approx(epsilon, rel=1e-9)
    assert dp.tpr_bound(0.5, epsilon) == pytest.approx(1 - math.exp(-epsilon) * 0.5)
    assert isinstance(dp.tpr_bound(0.5, epsilon), float)


def test_tracing_score_matches_a_direct_loop():
    rng = np.random.default_rng(3)
    targets = rng.integers(0, 2, size=(7, 12)).astype(float)
    released = rng.random(12)
    reference = rng.random(12)
    scores = dp.tracing_score(targets, released, reference)
    for row, score in zip(targets, scores, strict=True):
        direct = 0.0
        for j in range(12):
            direct += (row[j] - reference[j]) * (released[j] - reference[j])
        assert score == pytest.approx(direct)
        assert dp.tracing_score(row, released, reference) == pytest.approx(direct)
    assert isinstance(dp.tracing_score(targets[0], released, reference), float)


def test_members_outscore_non_members_and_more_attributes_widen_the_gap():
    """A study of 50 random 0/1 people publishes its means; the members' mean score exceeds
    the non-members' by about d·Var/n, so the gap in standard deviations grows with d."""
    rng = np.random.default_rng(11)
    gaps = []
    for d in (20, 500):
        p = rng.uniform(0.2, 0.8, size=d)
        members = (rng.random((50, d)) < p).astype(float)
        others = (rng.random((2_000, d)) < p).astype(float)
        reference = (rng.random((2_000, d)) < p).mean(axis=0)
        released = members.mean(axis=0)
        inside = dp.tracing_score(members, released, reference)
        outside = dp.tracing_score(others, released, reference)
        gaps.append((inside.mean() - outside.mean()) / outside.std())
    assert 0 < gaps[0] < gaps[1]


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dp.epsilon_from_rates(1.2, 0.1), "tpr"),
        (lambda: dp.epsilon_from_rates(0.5, -0.1), "fpr"),
        (lambda: dp.epsilon_from_rates(0.5, 0.1, delta=1.0), "delta"),
        (lambda: dp.epsilon_lower_bound(11, 10, 0, 10), "true_positives"),
        (lambda: dp.epsilon_lower_bound(1, 10, 11, 10), "false_positives"),
        (lambda: dp.epsilon_lower_bound(-1, 10, 0, 10), "true_positives"),
        (lambda: dp.epsilon_lower_bound(1, 0, 0, 10), "positives"),
        (lambda: dp.epsilon_lower_bound(1, 10, 0, 10, confidence=1.0), "confidence"),
        (lambda: dp.epsilon_lower_bound(1, 10, 0, 10, confidence=0.0), "confidence"),
        (lambda: dp.tracing_score([1.0, 0.0], [0.5], [0.5]), "targets"),
        (lambda: dp.tracing_score([1.0], [0.5], [0.5, 0.2]), "reference_means"),
        (lambda: dp.tracing_score([1.0], [float("nan")], [0.5]), "released_means"),
    ],
)
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()
