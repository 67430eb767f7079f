"""dp/synthetic.py: marginal queries by brute force over a small table, MWEM's invariants
(non-negative, total n), its error falling with ε and T against a fixed seed, its selection
step against the exponential mechanism's exact probabilities, sampling rows by chi-square,
and bad inputs."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import dp

SHAPE = (3, 2, 4)


def test_marginal_queries_select_exactly_the_matching_cells():
    queries = dp.marginal_queries(SHAPE, [2, 0])
    assert queries.shape == (4 * 3, 24) and queries.dtype == bool
    cells = list(itertools.product(*(range(k) for k in SHAPE)))  # C order
    for row, (c2, c0) in enumerate(itertools.product(range(4), range(3))):
        expected = [cell[2] == c2 and cell[0] == c0 for cell in cells]
        assert queries[row].tolist() == expected
    np.testing.assert_array_equal(queries.sum(axis=0), 1)  # a partition of the domain
    one_way = dp.marginal_queries(SHAPE, [1])
    x = np.arange(24.0)
    table = x.reshape(SHAPE)
    np.testing.assert_allclose(one_way @ x, table.sum(axis=(0, 2)))


def workload(shape) -> np.ndarray:
    return np.vstack(
        [dp.marginal_queries(shape, pair) for pair in itertools.combinations(range(len(shape)), 2)]
    ).astype(float)


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.full(24, 0.5))
    return rng.multinomial(5_000, p).astype(float)


def test_mwem_is_non_negative_with_total_n(table):
    out = dp.mwem(table, workload(SHAPE), 1.0, 10, rng=0)
    assert out.shape == table.shape and np.all(out >= 0)
    assert out.sum() == pytest.approx(table.sum())


def test_mwem_takes_marginal_queries_as_they_come(table):
    """The contract's composition: marginal_queries returns booleans, mwem takes them (the
    same release as the 0/1 floats, seed for seed), in an array or a list of rows."""
    as_bool = np.vstack([dp.marginal_queries(SHAPE, [0, 1]), dp.marginal_queries(SHAPE, [2])])
    assert as_bool.dtype == bool
    floats = dp.mwem(table, as_bool.astype(float), 1.0, 5, rng=3)
    np.testing.assert_array_equal(dp.mwem(table, as_bool, 1.0, 5, rng=3), floats)
    np.testing.assert_array_equal(dp.mwem(table, list(as_bool), 1.0, 5, rng=3), floats)
    release, chosen = dp.mwem_trace(table, dp.marginal_queries(SHAPE, [1]), 1.0, 2, rng=0)
    assert release.sum() == pytest.approx(table.sum()) and chosen.shape == (2,)


def test_mwem_error_falls_with_epsilon_and_rounds(table):
    q = workload(SHAPE)

    def error(epsilon, rounds):
        return np.mean(
            [
                np.max(np.abs(q @ dp.mwem(table, q, epsilon, rounds, rng=s) - q @ table))
                for s in range(5)
            ]
        )

    uniform = np.max(np.abs(q @ np.full(24, table.sum() / 24) - q @ table))
    assert error(100.0, 30) < error(0.05, 30)
    assert error(100.0, 30) < error(100.0, 2)
    # one update per round, and the release averages every iterate: slow but steady
    assert error(100.0, 300) < 0.3 * uniform


def test_mwem_with_one_round_picks_queries_as_the_exponential_mechanism_does(table):
    """With T = 1 the first choice uses scores |q·uniform − q·x| at ε/2: the share of runs
    that change each query's cells matches the exact probabilities (chi-square)."""
    q = workload(SHAPE)
    epsilon = 0.02
    uniform = np.full(24, table.sum() / 24)
    exact = dp.exponential_mechanism_probabilities(
        np.abs(q @ uniform - q @ table), 1.0, epsilon / 2
    )
    # which query was chosen is visible in which cells moved away from uniform
    chosen = []
    for seed in range(3_000):
        out = dp.mwem(table, q, epsilon, 1, rng=seed)
        moved = ~np.isclose(out, out[np.argmin(np.abs(out - np.median(out)))])
        match = np.flatnonzero(
            (q.astype(bool) == moved).all(axis=1) | (q.astype(bool) == ~moved).all(axis=1)
        )
        chosen.append(match[0] if match.size else -1)
    chosen = np.array(chosen)
    assert np.mean(chosen >= 0) > 0.95
    counts = np.bincount(chosen[chosen >= 0], minlength=q.shape[0]).astype(float)
    expected = exact * counts.sum()
    keep = expected >= 5
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] < 5:
        obs, exp = obs[:-1], exp[:-1] * obs[:-1].sum() / exp[:-1].sum()
    assert stats.chisquare(obs, exp).pvalue > 1e-4


def test_mwem_trace_is_mwem_and_its_choices_are_the_selection_steps(table):
    q = workload(SHAPE)
    release, chosen = dp.mwem_trace(table, q, 1.0, 12, rng=5)
    np.testing.assert_array_equal(release, dp.mwem(table, q, 1.0, 12, rng=5))
    assert chosen.shape == (12,) and chosen.min() >= 0 and chosen.max() < q.shape[0]


def test_the_naive_synthesizer_loses_a_planted_correlation_that_mwem_keeps():
    """Two columns that are equal for everyone: the independent product of noisy one-way
    marginals puts half its mass off the diagonal; MWEM over the two-way marginal does not."""
    shape = (2, 2)
    table = np.array([500.0, 0.0, 0.0, 500.0])  # (0,0) and (1,1) only
    q = dp.marginal_queries(shape, [0, 1]).astype(float)
    rng = np.random.default_rng(0)
    margins = [
        np.clip(table.reshape(shape).sum(axis=1 - a) + rng.laplace(0, 2.0, 2), 0, None)
        for a in (0, 1)
    ]
    naive = np.outer(margins[0] / margins[0].sum(), margins[1] / margins[1].sum()).ravel() * 1000
    off_naive = naive[[1, 2]].sum()
    # MWEM's release averages its iterates, early ones near uniform: with T = 300 rounds
    # the off-diagonal mass is down to a fifth of the naive one's
    off_mwem = dp.mwem(table, q, 5.0, 300, rng=1)[[1, 2]].sum()
    assert off_naive > 400 and off_mwem < 0.25 * off_naive


def test_synthetic_rows_follow_the_counts():
    counts = np.array([0.0, 10.0, 30.0, 60.0, 0.0, 0.0])
    rows = dp.synthetic_rows(counts, 50_000, (3, 2), rng=1)
    assert rows.shape == (50_000, 2)
    cells = np.ravel_multi_index((rows[:, 0], rows[:, 1]), (3, 2))
    observed = np.bincount(cells, minlength=6)
    assert observed[[0, 4, 5]].sum() == 0
    assert stats.chisquare(observed[1:4], counts[1:4] / 100 * 50_000).pvalue > 1e-4


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dp.marginal_queries((3, 0), [0]), "shape"),
        (lambda: dp.marginal_queries((3, 2), [2]), "attributes"),
        (lambda: dp.marginal_queries((3, 2), [0, 0]), "attributes"),
        (lambda: dp.marginal_queries((3, 2), []), "attributes"),
        (lambda: dp.mwem([1.0, -1.0], [[1, 0]], 1.0, 1), "counts"),
        (lambda: dp.mwem([1.0, 0.5], [[1, 0]], 1.0, 1), "counts"),
        (lambda: dp.mwem([0.0, 0.0], [[1, 0]], 1.0, 1), "counts"),
        (lambda: dp.mwem([1.0, 2.0], [[1, 0, 1]], 1.0, 1), "queries"),
        (lambda: dp.mwem([1.0, 2.0], [[2, 0]], 1.0, 1), "queries"),
        (lambda: dp.mwem([1.0, 2.0], [[1, 0]], 0.0, 1), "epsilon"),
        (lambda: dp.mwem([1.0, 2.0], [[1, 0]], 1.0, 0), "rounds"),
        (lambda: dp.synthetic_rows([1.0, 2.0], 10, (3,)), "counts"),
        (lambda: dp.synthetic_rows([1.0, 2.0, 3.0], 0, (3,)), "rows"),
    ],
)
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


def test_mwem_spends_its_budget_in_2t_parts():
    """The Laplace measurement's scale is 2T/ε: with one query (nothing to select) the
    released table is the uniform start moved by one noisy measurement."""
    x = np.array([30.0, 10.0])
    q = np.array([[1.0, 0.0]])
    spreads = [dp.mwem(x, q, 1.0, 1, rng=s)[0] for s in range(4_000)]
    # measured − q·A = 30 − 20 + Lap(2): the update is monotone in it, so the median of the
    # first cell sits where the noise is 0
    a = np.array([20.0, 20.0]) * np.exp(np.array([1.0, 0.0]) * 10 / 80)
    a *= 40 / a.sum()
    assert np.median(spreads) == pytest.approx(a[0], abs=0.05)
    assert math.isfinite(np.std(spreads))


def test_with_a_huge_epsilon_and_many_rounds_mwem_reaches_the_workload_answers(table):
    """ε = 1,000 and T = 3,000: the largest two-way error falls to under 6% of the uniform
    table's (measured 4.9% over seeds 0–2), on its way to 0 as T grows."""
    q = workload(SHAPE)
    uniform = np.max(np.abs(q @ np.full(24, table.sum() / 24) - q @ table))
    errors = [
        np.max(np.abs(q @ dp.mwem(table, q, 1000.0, T, rng=s) - q @ table))
        for T in (300, 3000)
        for s in range(3)
    ]
    assert np.mean(errors[3:]) < 0.06 * uniform < np.mean(errors[:3])
