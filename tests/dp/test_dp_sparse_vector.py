"""dp/sparse_vector.py: AboveThreshold and the sparse vector technique (Dwork & Roth §3.6,
Algorithms 1 and 2): exact probabilities against a closed form and brute-force simulation,
the samplers by chi-square, the stopping rule, the threshold redrawn after each positive,
an exact privacy audit that passes the algorithm and catches a broken one, edge cases and
bad inputs. Seeds are fixed; every chi-square test uses p > 1e-4."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dp
from dp.sparse_vector import stopping_probabilities


def sum_of_laplaces_tail(x: float, b1: float, b2: float) -> float:
    """P[X + Y ≥ x] for independent X ~ Lap(b1), Y ~ Lap(b2), b1 ≠ b2. The density of the
    sum is (b1 e^(−|s|/b1) − b2 e^(−|s|/b2)) / (2(b1² − b2²)); integrate from x ≥ 0 up,
    and use symmetry below 0."""
    if x < 0:
        return 1.0 - sum_of_laplaces_tail(-x, b1, b2)
    return (b1**2 * math.exp(-x / b1) - b2**2 * math.exp(-x / b2)) / (2 * (b1**2 - b2**2))


@pytest.mark.parametrize(
    ("answer", "threshold", "epsilon", "sensitivity"),
    [
        (10.0, 10.0, 1.0, 1.0),
        (12.0, 10.0, 0.5, 1.0),
        (3.0, 10.0, 2.0, 1.0),
        (100.0, 90.0, 0.1, 5.0),
        (-4.0, 0.0, 1.0, 0.5),
    ],
)
def test_one_query_matches_the_closed_form(answer, threshold, epsilon, sensitivity):
    """One query stops iff a + ν ≥ T + Z, i.e. ν + (−Z) ≥ T − a, with ν ~ Lap(4Δ/ε) and
    −Z ~ Lap(2Δ/ε): the tail of a sum of two Laplaces."""
    probabilities = dp.above_threshold_probabilities(
        [answer], threshold, epsilon, sensitivity=sensitivity
    )
    b1, b2 = 2 * sensitivity / epsilon, 4 * sensitivity / epsilon
    expected = sum_of_laplaces_tail(threshold - answer, b1, b2)
    assert probabilities.shape == (2,)
    assert probabilities[0] == pytest.approx(expected, abs=1e-8)
    assert probabilities[1] == pytest.approx(1 - expected, abs=1e-8)


def test_a_tie_stops_half_the_time():
    """An answer equal to the threshold: the difference of the two noises is symmetric."""
    assert dp.above_threshold_probabilities([7.0], 7.0, 1.0)[0] == pytest.approx(0.5, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_probabilities_sum_to_one_and_are_probabilities(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 60))
    answers = rng.normal(50, 20, size=m).round()
    epsilon = float(rng.choice([0.01, 0.3, 1.0, 5.0, 20.0]))
    probabilities = dp.above_threshold_probabilities(answers, 60.0, epsilon)
    assert probabilities.shape == (m + 1,)
    assert np.all(probabilities >= 0) and np.all(probabilities <= 1)
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-6)


def chi_square_p(observed: np.ndarray, probabilities: np.ndarray) -> float:
    """Pearson's chi-square, outcomes with an expected count below 5 pooled into one."""
    n = observed.sum()
    expected = probabilities * n
    small = expected < 5
    if small.any():
        observed = np.append(observed[~small], observed[small].sum())
        expected = np.append(expected[~small], expected[small].sum())
    expected *= observed.sum() / expected.sum()
    return float(stats.chisquare(observed, expected).pvalue)


def outcome_counts(outcomes: list[int | None], m: int) -> np.ndarray:
    counts = np.zeros(m + 1)
    for outcome in outcomes:
        counts[m if outcome is None else outcome] += 1
    return counts


ANSWERS = np.array([3.0, 5.0, 8.0, 10.0, 12.0, 9.0, 15.0])


def test_above_threshold_samples_the_exact_probabilities():
    rng = np.random.default_rng(2017)
    runs = [dp.above_threshold(ANSWERS, 10.0, 1.0, rng=rng) for _ in range(40_000)]
    exact = dp.above_threshold_probabilities(ANSWERS, 10.0, 1.0)
    assert chi_square_p(outcome_counts(runs, ANSWERS.size), exact) > 1e-4


def test_the_chi_square_check_sees_a_wrong_epsilon():
    """The same samples against the probabilities at another ε are rejected: the check above
    can fail."""
    rng = np.random.default_rng(2017)
    runs = [dp.above_threshold(ANSWERS, 10.0, 1.0, rng=rng) for _ in range(40_000)]
    wrong = dp.above_threshold_probabilities(ANSWERS, 10.0, 0.7)
    assert chi_square_p(outcome_counts(runs, ANSWERS.size), wrong) < 1e-6


def test_sparse_vectors_first_positive_is_above_threshold_at_epsilon_over_c():
    rng = np.random.default_rng(11)
    c = 3
    firsts = []
    for _ in range(40_000):
        found = dp.sparse_vector(ANSWERS, 10.0, 3.0, c, rng=rng)
        firsts.append(found[0] if found else None)
    exact = dp.above_threshold_probabilities(ANSWERS, 10.0, 3.0 / c)
    assert chi_square_p(outcome_counts(firsts, ANSWERS.size), exact) > 1e-4


def _sparse_vector_reusing_the_threshold(answers, threshold, epsilon, c, rng):
    """A broken sparse vector (Lyu, Su & Li 2017 discuss it): the threshold's noise is drawn
    once for the whole run."""
    b1, b2 = 2 * c / epsilon, 4 * c / epsilon
    noisy_threshold = threshold + rng.laplace(0.0, b1)
    noisy = answers + rng.laplace(0.0, b2, size=answers.size)
    return [int(i) for i in np.flatnonzero(noisy >= noisy_threshold)[:c]]


def second_positive_counts(sampler, answers, runs: int) -> np.ndarray:
    """How often the second positive is at each later query (or missing), among the runs
    whose first positive is query 0."""
    rest = answers.size - 1
    counts = np.zeros(rest + 1)
    for _ in range(runs):
        found = sampler()
        if found and found[0] == 0:
            counts[found[1] - 1 if len(found) > 1 else rest] += 1
    return counts


def test_the_threshold_noise_is_drawn_afresh_after_each_positive():
    """Given a first positive at query 0, the rest is a fresh AboveThreshold on the later
    queries. Answers at the threshold make the first stop select a low threshold noise, so
    an algorithm that kept it would find the second positive sooner: the same check
    rejects that broken version."""
    answers = np.full(6, 20.0)
    exact = dp.above_threshold_probabilities(answers[1:], 20.0, 2.0 / 2)
    rng = np.random.default_rng(5)
    fresh = second_positive_counts(
        lambda: dp.sparse_vector(answers, 20.0, 2.0, 2, rng=rng), answers, 30_000
    )
    assert chi_square_p(fresh, exact) > 1e-4
    rng = np.random.default_rng(5)
    reused = second_positive_counts(
        lambda: _sparse_vector_reusing_the_threshold(answers, 20.0, 2.0, 2, rng), answers, 30_000
    )
    assert chi_square_p(reused, exact) < 1e-6


def test_sparse_vector_stops_after_c_positives():
    far_above = np.full(10, 1e9)
    assert dp.sparse_vector(far_above, 0.0, 1.0, 3, rng=1) == [0, 1, 2]
    assert dp.sparse_vector(far_above[:2], 0.0, 1.0, 5, rng=1) == [0, 1]  # c > m: all of them
    rng = np.random.default_rng(3)
    for _ in range(500):
        found = dp.sparse_vector(ANSWERS, 10.0, 1.0, 2, rng=rng)
        assert len(found) <= 2 and found == sorted(set(found))


def test_a_threshold_far_above_every_answer_gives_none():
    answers = np.arange(20.0)
    assert dp.above_threshold(answers, 1e9, 1.0, rng=0) is None
    assert dp.sparse_vector(answers, 1e9, 1.0, 3, rng=0) == []
    probabilities = dp.above_threshold_probabilities(answers, 1e6, 1.0)
    assert probabilities[-1] == pytest.approx(1.0, abs=1e-9)


def test_as_epsilon_goes_to_zero_the_first_query_is_a_coin_flip():
    """With both noises huge, a + ν ≥ T + Z has probability → 1/2 whatever a and T."""
    probabilities = dp.above_threshold_probabilities([0.0, 100.0], 50.0, 1e-6)
    assert probabilities[0] == pytest.approx(0.5, abs=1e-3)
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-6)


def worst_log_ratio(d, d_prime, threshold, threshold_scale, query_scale) -> float:
    """max over outcomes of |ln P_D(o) − ln P_D'(o)|, from the exact probabilities."""
    p = stopping_probabilities(np.asarray(d, float), threshold, threshold_scale, query_scale)
    q = stopping_probabilities(np.asarray(d_prime, float), threshold, threshold_scale, query_scale)
    keep = (p > 1e-12) | (q > 1e-12)
    with np.errstate(divide="ignore"):
        return float(np.max(np.abs(np.log(p[keep]) - np.log(q[keep]))))


def neighbour_pairs(count: int, seed: int):
    """Answers and a neighbour whose every answer moved by at most Δ = 1 (either way), plus
    the pairs of Lyu, Su & Li's counterexamples: answers that all move one way, and two
    queries that swap."""
    rng = np.random.default_rng(seed)
    pairs = [([0.0, 1.0], [1.0, 0.0]), ([0.0] * 5 + [1.0], [1.0] * 5 + [0.0])]
    for _ in range(count):
        m = int(rng.integers(1, 8))
        d = rng.integers(0, 6, size=m).astype(float)
        pairs.append((d, d + rng.integers(-1, 2, size=m)))
    return pairs


def test_exact_audit_above_threshold_spends_at_most_epsilon():
    epsilon = 1.0
    for d, d_prime in neighbour_pairs(40, seed=28):
        assert worst_log_ratio(d, d_prime, 2.0, 2 / epsilon, 4 / epsilon) <= epsilon + 1e-6


def test_exact_audit_catches_too_little_query_noise():
    """Query noise Lap(Δ/(10ε)) instead of Lap(4Δ/ε): on the swapped pair the second
    query's stop is far likelier under one dataset than e^ε allows."""
    epsilon = 1.0
    worst = max(
        worst_log_ratio(d, d_prime, 2.0, 2 / epsilon, 0.1 / epsilon)
        for d, d_prime in neighbour_pairs(5, seed=28)
    )
    assert worst > 2 * epsilon


def test_empirical_audit_of_the_sampler_stays_below_epsilon():
    """dp.audit_epsilon on 40,000 runs on each side of the swapped pair: a lower bound on
    the ε the outputs reveal, which must not exceed the ε claimed."""
    epsilon = 1.0
    rng = np.random.default_rng(99)
    d, d_prime = np.array([0.0] * 5 + [1.0]), np.array([1.0] * 5 + [0.0])

    def outcomes(answers):
        found = [dp.above_threshold(answers, 1.0, epsilon, rng=rng) for _ in range(40_000)]
        return np.array([-1 if f is None else f for f in found])

    assert dp.audit_epsilon(outcomes(d), outcomes(d_prime)) <= epsilon


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dp.above_threshold([], 1.0, 1.0), "answers"),
        (lambda: dp.above_threshold([1.0, float("nan")], 1.0, 1.0), "answers"),
        (lambda: dp.above_threshold([[1.0, 2.0]], 1.0, 1.0), "answers"),
        (lambda: dp.above_threshold([1.0], float("nan"), 1.0), "threshold"),
        (lambda: dp.above_threshold([1.0], 1.0, 0.0), "epsilon"),
        (lambda: dp.above_threshold([1.0], 1.0, -1.0), "epsilon"),
        (lambda: dp.above_threshold([1.0], 1.0, 1.0, sensitivity=0), "sensitivity"),
        (lambda: dp.above_threshold_probabilities([], 1.0, 1.0), "answers"),
        (lambda: dp.above_threshold_probabilities([1.0], 1.0, float("inf")), "epsilon"),
        (lambda: dp.sparse_vector([1.0], 1.0, 1.0, 0), "max_positives"),
        (lambda: dp.sparse_vector([1.0], 1.0, 1.0, 1.5), "max_positives"),
        (lambda: dp.sparse_vector([float("inf")], 1.0, 1.0, 1), "answers"),
        (lambda: dp.sparse_vector([1.0], 1.0, 0.0, 1), "epsilon"),
    ],
)
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


# --- sparse_vector_variant: the correct algorithm vectorised, and the famous wrong versions -----


def stop_index(outcomes: np.ndarray) -> np.ndarray:
    """Per run, the index of the first ⊤, or m when there is none."""
    above = outcomes == 1
    return np.where(above.any(axis=1), above.argmax(axis=1), outcomes.shape[1])


def assert_matches(observed: np.ndarray, probabilities: np.ndarray) -> None:
    """Chi-square of the observed outcome counts against exact probabilities, pooling the
    cells expected to hold fewer than 5 runs."""
    counts = np.bincount(observed, minlength=probabilities.size)
    expected = probabilities * observed.size
    keep = expected >= 5
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] < 5:
        obs, exp = obs[:-1], exp[:-1]
        exp = exp * obs.sum() / exp.sum()
    assert stats.chisquare(obs, exp).pvalue > 1e-4


def test_the_correct_variant_has_above_thresholds_distribution():
    outcomes, released = dp.sparse_vector_variant(
        ANSWERS, 10.0, 1.0, 1, "correct", runs=40_000, rng=7
    )
    assert_matches(stop_index(outcomes), dp.above_threshold_probabilities(ANSWERS, 10.0, 1.0))
    assert not released.any()  # the correct algorithm releases only ⊤ / ⊥


def test_the_correct_variant_has_sparse_vectors_distribution():
    """c = 2 on four queries: the set of reported indices, vectorised against 20,000 calls of
    dp.sparse_vector (a two-sample chi-square over the outcomes)."""
    answers = np.array([9.0, 11.0, 10.0, 12.0])
    outcomes, _ = dp.sparse_vector_variant(answers, 10.0, 1.0, 2, "correct", runs=20_000, rng=3)
    vectorised = [tuple(np.flatnonzero(row == 1)) for row in outcomes]
    rng = np.random.default_rng(4)
    looped = [tuple(dp.sparse_vector(answers, 10.0, 1.0, 2, rng=rng)) for _ in range(20_000)]
    labels = sorted(set(vectorised) | set(looped))
    table = np.array(
        [[vectorised.count(label) for label in labels], [looped.count(label) for label in labels]]
    )
    table = table[:, table.sum(axis=0) >= 10]
    assert stats.chi2_contingency(table).pvalue > 1e-4
    # after c positives nothing more is answered
    found = (outcomes == 1).sum(axis=1)
    assert found.max() == 2
    done = np.cumsum(outcomes == 1, axis=1) >= 2
    later = np.zeros_like(done)
    later[:, 1:] = done[:, :-1]
    assert np.all(outcomes[later] == -1)


def test_small_query_noise_is_above_threshold_with_the_smaller_scale():
    epsilon = 1.0
    outcomes, _ = dp.sparse_vector_variant(
        ANSWERS, 10.0, epsilon, 1, "small_query_noise", runs=40_000, rng=8
    )
    exact = stopping_probabilities(ANSWERS, 10.0, 2 / epsilon, 2 / epsilon)
    assert_matches(stop_index(outcomes), exact)


def test_a_fresh_threshold_makes_every_query_an_independent_comparison():
    """Each query stops with p = P[a + ν ≥ T + Z_i] on its own: the stop index of equal
    answers is geometric with that p (truncated at m)."""
    answers = np.full(6, 10.0)
    epsilon = 1.0
    outcomes, _ = dp.sparse_vector_variant(
        answers, 12.0, epsilon, 1, "fresh_threshold", runs=40_000, rng=9
    )
    p = sum_of_laplaces_tail(12.0 - 10.0, 2 / epsilon, 4 / epsilon)
    k = np.arange(6)
    exact = np.append((1 - p) ** k * p, (1 - p) ** 6)
    assert_matches(stop_index(outcomes), exact)


def test_no_query_noise_compares_the_exact_answers():
    """Without query noise the first answer ≥ the noisy threshold stops: with answers far
    apart, the stop index is set by where T + Z lands."""
    answers = np.array([-1000.0, 0.0, 1000.0])
    outcomes, _ = dp.sparse_vector_variant(
        answers, 0.0, 1.0, 1, "no_query_noise", runs=20_000, rng=1
    )
    first = stop_index(outcomes)
    assert set(np.unique(first)) <= {1, 2}
    assert np.mean(first == 1) == pytest.approx(0.5, abs=0.02)  # P[Z ≤ 0] for Z ~ Lap(2)


def test_no_cutoff_answers_every_query_and_releases_value_releases_the_noisy_answer():
    answers = np.full(8, 1e6)
    outcomes, _ = dp.sparse_vector_variant(answers, 0.0, 1.0, 2, "no_cutoff", runs=100, rng=2)
    assert np.all(outcomes == 1)  # eight positives, though c = 2
    values = np.array([0.0, 50.0, 50.0])
    outcomes, released = dp.sparse_vector_variant(
        values, 0.0, 1.0, 3, "releases_value", runs=40_000, rng=3
    )
    assert np.all(released[outcomes != 1] == 0.0)
    top = released[:, 1][outcomes[:, 1] == 1]
    # query noise Lap(4c/ε) = Lap(12), variance 2·144: mostly far above the threshold, the
    # released values average near 50 (within 6 standard errors, loosened for the few below)
    assert top.mean() == pytest.approx(50.0, abs=6 * math.sqrt(288 / top.size) + 1.0)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"variant": "unknown"}, "variant"),
        ({"runs": 0}, "runs"),
        ({"runs": 10_000_000}, "runs"),
        ({"max_positives": 0}, "max_positives"),
        ({"epsilon": 0.0}, "epsilon"),
        ({"answers": []}, "answers"),
    ],
)
def test_variant_bad_inputs_name_the_parameter(kwargs, name):
    call = {
        "answers": [1.0, 2.0],
        "threshold": 1.0,
        "epsilon": 1.0,
        "max_positives": 1,
        "variant": "correct",
        "runs": 10,
    }
    call.update(kwargs)
    with pytest.raises(ValueError, match=name):
        dp.sparse_vector_variant(
            call["answers"],
            call["threshold"],
            call["epsilon"],
            call["max_positives"],
            call["variant"],
            runs=call["runs"],
        )
