"""dp/hashing.py: OLH's parameters (the pinned fact at ln 3), the universal hash family, the
perturbation's probabilities by chi-square, unbiased estimates within 6 standard errors of
olh_variance, reproducible seeds, and shuffling's ε (Feldman, McMillan & Talwar 2021) with
its validity bound; bad inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dp
from dp.hashing import _hash


def test_olh_parameters_at_ln3_and_the_rule_for_g():
    assert dp.olh_parameters(math.log(3)) == (4, 0.5, 0.25)
    for epsilon in (0.1, 0.5, 1.0, 2.0, 4.0):
        g, p, q = dp.olh_parameters(epsilon)
        e = math.exp(epsilon)
        assert g == max(2, round(e + 1)) and q == 1 / g
        assert p == pytest.approx(e / (e + g - 1))
        # g-ary RR over the hashes: one kept answer against each other is e^ε
        assert p / ((1 - p) / (g - 1)) == pytest.approx(e)


def test_the_hash_family_is_close_to_universal():
    """Two distinct values collide under a random member with probability ≈ 1/g."""
    rng = np.random.default_rng(0)
    seeds = rng.integers(0, (dp.hashing.PRIME - 1) * dp.hashing.PRIME, size=200_000)
    for g in (2, 4, 21):
        same = _hash(seeds, np.int64(17), g) == _hash(seeds, np.int64(40_000), g)
        assert same.mean() == pytest.approx(1 / g, abs=6 * math.sqrt((1 / g) / 200_000) + 1e-4)
        # and each value's hash is uniform on [0, g)
        counts = np.bincount(_hash(seeds, np.int64(5), g), minlength=g)
        assert stats.chisquare(counts).pvalue > 1e-4


def test_perturb_keeps_the_hash_with_probability_p_and_spreads_the_rest_evenly():
    epsilon = 1.0
    g, p, _ = dp.olh_parameters(epsilon)
    values = np.full(100_000, 7)
    seeds, reports = dp.olh_perturb(values, 1_000, epsilon, rng=3)
    hashed = _hash(seeds, values, g)
    kept = reports == hashed
    assert kept.mean() == pytest.approx(p, abs=6 * math.sqrt(p * (1 - p) / values.size))
    offsets = (reports[~kept] - hashed[~kept]) % g  # 1..g−1, uniform
    counts = np.bincount(offsets, minlength=g)[1:]
    assert counts.sum() == (~kept).sum() and stats.chisquare(counts).pvalue > 1e-4


def test_the_same_rng_gives_the_same_seeds_and_reports():
    values = np.arange(50) % 9
    a = dp.olh_perturb(values, 10, 1.0, rng=42)
    b = dp.olh_perturb(values, 10, 1.0, rng=np.random.default_rng(42))
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


def test_estimates_are_unbiased_within_six_standard_errors_of_olh_variance():
    k, epsilon = 64, 1.5
    rng = np.random.default_rng(8)
    truth = rng.multinomial(5_000, rng.dirichlet(np.ones(k)))
    values = np.repeat(np.arange(k), truth)
    runs = 40
    estimates = np.array(
        [
            dp.olh_estimate(*dp.olh_perturb(values, k, epsilon, rng=s), k, epsilon)
            for s in range(runs)
        ]
    )
    sd = np.sqrt([dp.olh_variance(values.size, epsilon, c / values.size) for c in truth])
    z = (estimates.mean(axis=0) - truth) / (sd / math.sqrt(runs))
    assert np.max(np.abs(z)) < 6
    # the variance itself: the sample variance over runs, for the largest count
    top = int(np.argmax(truth))
    ratio = estimates[:, top].var(ddof=1) / sd[top] ** 2
    assert (
        stats.chi2(runs - 1).ppf(1e-4) / (runs - 1)
        < ratio
        < stats.chi2(runs - 1).ppf(1 - 1e-4) / (runs - 1)
    )


def test_candidates_give_the_same_estimates_as_the_whole_domain():
    values = np.array([3, 3, 3, 9, 9, 1] * 200)
    seeds, reports = dp.olh_perturb(values, 12, 2.0, rng=1)
    everything = dp.olh_estimate(seeds, reports, 12, 2.0)
    some = dp.olh_estimate(seeds, reports, 12, 2.0, candidates=[9, 3])
    np.testing.assert_allclose(some, everything[[9, 3]])


def test_olh_variance_is_the_pure_variance_with_its_p_and_q():
    for epsilon in (0.5, math.log(3), 3.0):
        g, p, q = dp.olh_parameters(epsilon)
        for f in (0.0, 0.1):
            assert dp.olh_variance(10_000, epsilon, f) == pytest.approx(
                dp.pure_variance(10_000, p, q, f)
            )
    # at ln 3: p = 1/2, q = 1/4: n·(3/16)/(1/16) = 3n
    assert dp.olh_variance(1_000, math.log(3)) == pytest.approx(3_000)


def test_shuffle_epsilon_at_a_hand_computed_point_and_its_bound():
    n, delta, eps0 = 100_000, 1e-6, 1.0
    e = math.e
    expected = math.log(
        1 + (e - 1) / (e + 1) * (8 * math.sqrt(e * math.log(4 / delta)) / math.sqrt(n) + 8 * e / n)
    )
    assert dp.shuffle_epsilon(eps0, n, delta) == pytest.approx(expected)
    assert dp.shuffle_epsilon(eps0, n, delta) < eps0  # amplification
    assert dp.shuffle_epsilon(eps0, 10 * n, delta) < dp.shuffle_epsilon(eps0, n, delta)
    bound = math.log(n / (16 * math.log(2 / delta)))
    dp.shuffle_epsilon(bound - 1e-9, n, delta)  # just inside: fine
    with pytest.raises(ValueError, match="ln\\(n / \\(16 ln\\(2/δ\\)\\)\\)"):
        dp.shuffle_epsilon(bound + 1e-6, n, delta)
    with pytest.raises(ValueError, match="epsilon0"):
        dp.shuffle_epsilon(0.5, 100, delta)  # too few users for any ε₀


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dp.olh_parameters(0.0), "epsilon"),
        (lambda: dp.olh_parameters(50.0), "epsilon"),
        (lambda: dp.olh_perturb([0, 5], 5, 1.0), "values"),
        (lambda: dp.olh_perturb([0, 1.5], 5, 1.0), "values"),
        (lambda: dp.olh_perturb([], 5, 1.0), "values"),
        (lambda: dp.olh_perturb([0, 1], 1, 1.0), "k"),
        (lambda: dp.olh_estimate([1, 2], [0], 5, 1.0), "seeds"),
        (lambda: dp.olh_estimate([1, 2], [0, 9], 5, 1.0), "reports"),
        (lambda: dp.olh_estimate([-1, 2], [0, 1], 5, 1.0), "seeds"),
        (lambda: dp.olh_variance(0, 1.0), "n"),
        (lambda: dp.olh_variance(10, 1.0, 1.5), "frequency"),
        (lambda: dp.shuffle_epsilon(1.0, 0, 1e-6), "n"),
        (lambda: dp.shuffle_epsilon(1.0, 10**6, 0.0), "delta"),
        (lambda: dp.shuffle_epsilon(-1.0, 10**6, 1e-6), "epsilon0"),
    ],
)
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


def report_probabilities(seed: int, value: int, g: int, p: float) -> np.ndarray:
    """P[report = r | seed, value] for r in [0, g): p on the hash, the rest shared evenly."""
    out = np.full(g, (1 - p) / (g - 1))
    out[_hash(np.int64(seed), np.int64(value), g)] = p
    return out


@pytest.mark.parametrize("epsilon", [0.5, math.log(3), 2.0, 5.0])
def test_ldp_audit_one_users_reports_differ_by_at_most_e_to_the_epsilon(epsilon):
    """Exactly enumerated over the reports for 2,000 hash seeds (the seed is drawn the same
    whatever the value, so it cancels): the largest ratio is e^ε, reached whenever the two
    values hash apart. Scaled with too large a g the same check fails."""
    g, p, _ = dp.olh_parameters(epsilon)
    rng = np.random.default_rng(7)
    worst = 0.0
    for seed in rng.integers(0, (dp.hashing.PRIME - 1) * dp.hashing.PRIME, size=2_000):
        a = report_probabilities(int(seed), 3, g, p)
        b = report_probabilities(int(seed), 77_777, g, p)
        worst = max(worst, float(np.max(a / b)), float(np.max(b / a)))
    assert worst == pytest.approx(math.exp(epsilon), rel=1e-9)
    broken = p * 1.5 if p * 1.5 < 1 else (1 + p) / 2  # keeps the hash too often
    ratio = broken / ((1 - broken) / (g - 1))
    assert ratio > math.exp(epsilon) * 1.01
