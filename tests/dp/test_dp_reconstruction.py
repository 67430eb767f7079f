"""Reconstruction attacks (dp/reconstruction.py): Dinur–Nissim subset sums and the exact
reconstruction of a block from its two-way tables, checked against brute force."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import lsq_linear

import dp
from dp.reconstruction import _pair_matrix

# --- Dinur–Nissim ---------------------------------------------------------------------------


def test_random_subset_queries_are_fair_coins_per_entry():
    queries = dp.random_subset_queries(200, 500, rng=1)
    assert queries.shape == (500, 200) and queries.dtype == bool
    n = queries.size
    assert abs(queries.sum() - n / 2) < 6 * math.sqrt(n / 4)
    # independent entries: each row's size is Binomial(200, ½)
    sizes = queries.sum(axis=1)
    assert (
        stats.chisquare(
            np.bincount(np.clip(sizes, 85, 115) - 85, minlength=31),
            500 * np.diff(stats.binom.cdf(np.r_[-1, np.arange(85, 115), 200], 200, 0.5)),
        ).pvalue
        > 1e-6
    )
    assert np.array_equal(queries, dp.random_subset_queries(200, 500, rng=1))


def test_subset_sum_answers_are_within_the_bound_with_uniform_noise():
    rng = np.random.default_rng(2)
    secret = rng.random(300) < 0.5
    queries = dp.random_subset_queries(300, 4_000, rng=3)
    exact = queries.astype(int) @ secret.astype(int)
    assert np.array_equal(dp.subset_sum_answers(secret, queries, 0.0), exact)
    noise = dp.subset_sum_answers(secret, queries, 7.0, rng=4) - exact
    assert np.all(np.abs(noise) <= 7.0)
    # uniform on [−7, 7]: mean 0 (variance 49/3) and a KS test
    assert abs(noise.mean()) < 6 * math.sqrt(49 / 3 / noise.size)
    assert stats.kstest(noise, stats.uniform(-7, 14).cdf).pvalue > 1e-6


def _accuracy(n: int, m: int, bound: float, seed: int) -> float:
    rng = np.random.default_rng(seed)
    secret = (rng.random(n) < 0.5).astype(int)
    queries = dp.random_subset_queries(n, m, rng=rng)
    answers = dp.subset_sum_answers(secret, queries, bound, rng=rng)
    return float(np.mean(dp.subset_sum_attack(queries, answers) == secret))


def test_exact_answers_give_every_bit_back():
    assert _accuracy(100, 200, 0.0, seed=5) == 1.0


def test_noise_well_below_root_n_still_gives_the_secret_away():
    n = 400  # √n = 20
    assert _accuracy(n, 4 * n, 0.1 * math.sqrt(n), seed=6) == 1.0
    assert _accuracy(n, 4 * n, 0.5 * math.sqrt(n), seed=7) >= 0.95


def test_noise_far_above_root_n_leaves_a_coin_toss():
    n = 400
    accuracies = [_accuracy(n, 4 * n, 20 * math.sqrt(n), seed=s) for s in range(3)]
    # 1,200 guesses at chance: 50% ± 6 SE (SE = √(¼/1200) = 1.4%)
    assert abs(np.mean(accuracies) - 0.5) < 6 * math.sqrt(0.25 / (3 * n))


def test_least_squares_attack_agrees_with_an_exact_bounded_solver():
    rng = np.random.default_rng(8)
    for bound in (0.0, 5.0, 15.0):
        secret = (rng.random(120) < 0.5).astype(int)
        queries = dp.random_subset_queries(120, 300, rng=rng)
        answers = dp.subset_sum_answers(secret, queries, bound, rng=rng)
        reference = lsq_linear(queries.astype(float), answers, bounds=(0, 1), tol=1e-12).x
        ours = dp.subset_sum_attack(queries, answers)
        clear = np.abs(reference - 0.5) > 1e-4  # bits the exact solution decides clearly
        assert np.array_equal(ours[clear], (reference[clear] >= 0.5).astype(int))


# --- Exact reconstruction of a block -------------------------------------------------------


def _brute_force(tables, levels, people):
    """Every multiset of `people` records over the joint cells whose two-way tables equal
    `tables`, by trying them all: the independent reference."""
    matrix, _ = _pair_matrix(tuple(levels))
    target = np.concatenate([np.asarray(tables[p]).ravel() for p in sorted(tables)])
    cells = math.prod(levels)
    found = set()
    for combo in itertools.combinations_with_replacement(range(cells), people):
        counts = np.bincount(combo, minlength=cells)
        if np.array_equal(counts @ matrix, target):
            found.add(tuple(counts))
    return found


def test_the_textbook_ambiguous_block_has_exactly_two_datasets():
    # Four people over three yes/no attributes with every two-way table [[1, 1], [1, 1]]:
    # the "even" block {000, 011, 101, 110} and the "odd" one {001, 010, 100, 111}.
    levels = (2, 2, 2)
    even = [[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]
    result = dp.reconstruct_from_marginals(dp.marginal_tables(even, levels), levels)
    assert result.complete and result.count == 2
    as_records = {tuple(map(tuple, dp.records_from_counts(s, levels))) for s in result.solutions}
    odd = ((0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 1, 1))
    assert as_records == {tuple(map(tuple, sorted(even))), odd}
    assert result.pinned_people == 0  # nobody is in both


@pytest.mark.parametrize("seed", range(12))
def test_reconstruction_finds_exactly_the_datasets_brute_force_finds(seed):
    rng = np.random.default_rng(seed)
    levels = (2, 3, 2) if seed % 2 else (3, 2, 2, 2)
    people = int(rng.integers(1, 6))
    records = np.column_stack([rng.integers(0, k, size=people) for k in levels])
    tables = dp.marginal_tables(records, levels)
    result = dp.reconstruct_from_marginals(tables, levels)
    expected = _brute_force(tables, levels, people)
    assert result.complete
    assert {tuple(s) for s in result.solutions} == expected
    assert result.count == len(expected) == len({tuple(s) for s in result.solutions})
    truth = dp.joint_counts(records, levels)
    assert tuple(truth) in expected  # the truth is always consistent
    pinned = np.min(np.array(sorted(expected)), axis=0)
    assert np.array_equal(result.pinned, pinned)


def test_a_block_of_identical_people_is_pinned_down_entirely():
    levels = (2, 6, 3, 2)
    records = [[1, 2, 0, 1]] * 7
    result = dp.reconstruct_from_marginals(dp.marginal_tables(records, levels), levels)
    assert result.complete and result.count == 1 and result.pinned_people == 7
    assert np.array_equal(dp.records_from_counts(result.pinned, levels), records)


def test_the_count_is_capped_and_says_so():
    levels = (2, 2, 2)
    even = [[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]
    result = dp.reconstruct_from_marginals(
        dp.marginal_tables(even, levels), levels, max_solutions=1
    )
    assert result.count == 1 and not result.complete
    # a search that runs out of steps says so too: a wide block with many datasets
    levels = (1, 1, 8, 8, 8)
    rng = np.random.default_rng(0)
    records = np.column_stack([np.zeros((30, 2), int), rng.integers(0, 8, size=(30, 3))])
    result = dp.reconstruct_from_marginals(dp.marginal_tables(records, levels), levels)
    assert not result.complete


def test_joint_counts_and_records_round_trip_and_tables_add_up():
    levels = (2, 6, 3, 2)
    rng = np.random.default_rng(9)
    records = np.column_stack([rng.integers(0, k, size=25) for k in levels])
    counts = dp.joint_counts(records, levels)
    assert counts.sum() == 25 and counts.size == 72
    back = dp.records_from_counts(counts, levels)
    assert np.array_equal(dp.joint_counts(back, levels), counts)
    tables = dp.marginal_tables(records, levels)
    assert sorted(tables) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert tables[(1, 3)][records[0, 1], records[0, 3]] >= 1
    assert all(t.sum() == 25 for t in tables.values())
    assert np.array_equal(tables[(0, 2)].sum(axis=1), np.bincount(records[:, 0], minlength=2))


def test_reconstruction_matches_is_the_multiset_overlap():
    assert dp.reconstruction_matches([2, 0, 1, 3], [1, 1, 1, 5]) == 1 + 0 + 1 + 3
    assert dp.reconstruction_matches([0, 0], [0, 0]) == 0


# --- The defence: noisy tables and the closest dataset ------------------------------------


def test_closest_dataset_on_exact_tables_is_a_consistent_dataset():
    levels = (2, 6, 3, 2)
    rng = np.random.default_rng(10)
    for _ in range(5):
        records = np.column_stack([rng.integers(0, k, size=9) for k in levels])
        tables = dp.marginal_tables(records, levels)
        guess = dp.closest_dataset(tables, levels)
        found = dp.marginal_tables(dp.records_from_counts(guess, levels), levels)
        assert all(np.array_equal(found[p], tables[p]) for p in tables)


def test_closest_dataset_is_the_l1_closest_by_brute_force():
    levels = (2, 2, 2)
    matrix, _ = _pair_matrix(levels)
    rng = np.random.default_rng(11)
    for trial in range(4):
        records = np.column_stack([rng.integers(0, 2, size=3) for _ in levels])
        noisy = dp.noisy_marginal_tables(
            dp.marginal_tables(records, levels), levels, 2.0, rng=trial
        )
        target = np.concatenate([noisy[p].ravel() for p in sorted(noisy)])
        best = min(  # every dataset of 0..7 people
            np.abs(np.bincount(combo, minlength=8) @ matrix - target).sum()
            for size in range(8)
            for combo in itertools.combinations_with_replacement(range(8), size)
        )
        guess = dp.closest_dataset(noisy, levels)
        assert np.abs(guess @ matrix - target).sum() == pytest.approx(best, abs=1e-6)


def test_noisy_tables_add_laplace_with_scale_tables_over_epsilon():
    levels = (2, 3, 2)  # three tables: Lap(3/ε) per cell
    records = [[0, 1, 1], [1, 2, 0], [1, 0, 0]]
    tables = dp.marginal_tables(records, levels)
    rng = np.random.default_rng(12)
    noise = np.concatenate(
        [
            np.concatenate([(n - tables[p]).ravel() for p, n in noisy.items()])
            for noisy in (
                dp.noisy_marginal_tables(tables, levels, 0.5, rng=rng) for _ in range(300)
            )
        ]
    )
    assert stats.kstest(noise, stats.laplace(scale=3 / 0.5).cdf).pvalue > 1e-6


def _audit(noisy_tables, epsilon: float, runs: int = 40_000) -> float:
    """Empirical ε of a table release on neighbours D and D + one person, from the sum of the
    cells the extra person changes (one per table)."""
    levels = (2, 2, 2)
    block = [[0, 0, 0], [0, 1, 1], [1, 0, 1]]
    extra = [1, 1, 1]
    cells = [(0, 1), (0, 2), (1, 2)]

    def statistic(records, rng):
        noisy = noisy_tables(dp.marginal_tables(records, levels), levels, epsilon, rng)
        return sum(noisy[(i, j)][extra[i], extra[j]] for i, j in cells)

    rng = np.random.default_rng(13)
    a = np.array([statistic(block, rng) for _ in range(runs)])
    b = np.array([statistic([*block, extra], rng) for _ in range(runs)])
    return dp.audit_epsilon(a, b, thresholds=np.linspace(-6, 9, 31))


@pytest.mark.slow
def test_audit_honest_noisy_tables_stay_within_epsilon_and_a_broken_release_does_not():
    def honest(tables, levels, epsilon, rng):
        return dp.noisy_marginal_tables(tables, levels, epsilon, rng=rng)

    def broken(tables, levels, epsilon, rng):  # forgets that a person is in all 3 tables
        return {p: t + rng.laplace(0, 1 / epsilon, size=t.shape) for p, t in tables.items()}

    assert _audit(honest, 1.0) <= 1.0
    assert _audit(broken, 1.0) > 1.0
