"""dp/topdown.py (the dp/ API contract, round 4): the discrete Gaussian's pmf (normalised,
against a direct sum) and its sampler (chi-square against the pmf); the simplex projection
against a numerical solver of the same least-squares problem; the rounding as specified
(ties to the lower index, round-off tied); TopDown's consistency."""

import math

import numpy as np
import pytest
from scipy import optimize

import dp
from dp_helpers import P_REJECT, goodness_of_fit_pvalue

# --- the discrete Gaussian ---------------------------------------------------------------------


@pytest.mark.parametrize("sigma2", [0.05, 0.5, 1.0, 4.0, 37.5, 2_000.0])
def test_the_pmf_is_normalised_and_matches_a_direct_sum(sigma2) -> None:
    reach = int(60 * np.sqrt(sigma2)) + 60
    x = np.arange(-reach, reach + 1)
    weights = np.exp(-(x.astype(float) ** 2) / (2 * sigma2))
    direct = weights / weights.sum()
    got = dp.discrete_gaussian_pmf(x, sigma2)
    assert np.max(np.abs(got - direct)) <= 1e-12
    assert abs(got.sum() - 1.0) <= 1e-12
    assert isinstance(dp.discrete_gaussian_pmf(0, sigma2), float)


@pytest.mark.parametrize("sigma2", [0.3, 2.0, 25.0])
def test_the_sampler_draws_the_pmf(sigma2) -> None:
    draws = dp.discrete_gaussian(sigma2, size=60_000, rng=11)
    assert draws.dtype == np.int64 and draws.shape == (60_000,)
    reach = int(np.abs(draws).max()) + 1
    support = np.arange(-reach, reach + 1)
    pmf = dp.discrete_gaussian_pmf(support, sigma2)
    sample = draws + reach  # as indices 0..2·reach
    assert goodness_of_fit_pvalue(sample, pmf / pmf.sum()) > P_REJECT
    variance = float(np.sum(support.astype(float) ** 2 * pmf))
    assert abs(draws.var() - variance) <= 6 * variance * np.sqrt(2 / draws.size) * 1.5


def test_the_sampler_shapes_and_a_scalar() -> None:
    assert isinstance(dp.discrete_gaussian(1.0, rng=0), int)
    assert dp.discrete_gaussian(1.0, size=(2, 3), rng=0).shape == (2, 3)


def test_a_non_integer_x_is_refused() -> None:
    with pytest.raises(ValueError, match="x must"):
        dp.discrete_gaussian_pmf(0.5, 1.0)
    with pytest.raises(ValueError, match="x must"):
        dp.discrete_gaussian_pmf([0, 1.5], 1.0)


# --- the projection ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "total"),
    [([3.2, -1.0, 0.5], 4.0), ([1.0, 2.0, 3.0], 0.0), ([-5.0, -4.0], 3.0), ([0.2] * 5, 1.0)],
)
def test_the_projection_is_the_closest_point_of_the_simplex(values, total) -> None:
    x = dp.simplex_projection(values, total)
    assert np.all(x >= 0) and x.sum() == pytest.approx(total, abs=1e-12)
    # against a numerical solver of min ‖x − v‖² subject to x ≥ 0, Σx = total
    v = np.array(values)
    solved = optimize.minimize(
        lambda y: np.sum((y - v) ** 2),
        np.full(v.size, total / v.size),
        constraints=[{"type": "eq", "fun": lambda y: y.sum() - total}],
        bounds=[(0, None)] * v.size,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    np.testing.assert_allclose(x, solved.x, atol=1e-6)


# --- the rounding ------------------------------------------------------------------------------


def test_rounding_keeps_the_sum_and_gives_ties_to_the_lower_index() -> None:
    assert dp.round_preserving_sum([1.5, 1.5, 1.0]).tolist() == [2, 1, 1]
    assert dp.round_preserving_sum([0.3, 0.3, 0.4]).tolist() == [0, 0, 1]
    assert dp.round_preserving_sum([2.0, 3.0]).tolist() == [2, 3]
    # parts equal up to round-off tie (0.1 + 0.2 style), and go to the first
    values = [0.1 + 0.2, 0.3, 0.4]
    assert dp.round_preserving_sum(values).tolist() == [0, 0, 1]
    assert dp.round_preserving_sum([0.35, 0.35000000000001, 0.3]).tolist() == [1, 0, 0]
    with pytest.raises(ValueError, match="whole number"):
        dp.round_preserving_sum([0.5, 0.2])


def test_rounding_moves_no_entry_by_a_whole_unit() -> None:
    rng = np.random.default_rng(4)
    for _ in range(200):
        v = rng.uniform(0, 50, size=12)
        v[-1] += np.ceil(v.sum()) - v.sum()
        rounded = dp.round_preserving_sum(v)
        assert rounded.sum() == round(v.sum())
        assert np.all(np.abs(rounded - v) < 1)


# --- TopDown -----------------------------------------------------------------------------------


def test_topdown_gives_whole_nonnegative_counts_that_add_up() -> None:
    rng = np.random.default_rng(8)
    # nation (1) → 4 states → 12 counties, true counts + discrete Gaussian noise
    counties = rng.integers(0, 400, size=12)
    state_of = np.repeat(np.arange(4), 3)
    states = np.bincount(state_of, weights=counties).astype(int)
    total = int(counties.sum())
    noisy_states = states + dp.discrete_gaussian(20.0, size=4, rng=rng)
    noisy_counties = counties + dp.discrete_gaussian(20.0, size=12, rng=rng)
    final_states, final_counties = dp.topdown(
        [noisy_states, noisy_counties], [np.zeros(4, dtype=int), state_of], total
    )
    assert final_states.sum() == total
    assert np.all(final_states >= 0) and np.all(final_counties >= 0)
    assert np.array_equal(np.bincount(state_of, weights=final_counties).astype(int), final_states)
    assert final_states.dtype.kind == "i" and final_counties.dtype.kind == "i"


def test_topdown_refuses_a_count_with_nowhere_to_go() -> None:
    with pytest.raises(ValueError, match="no child"):
        dp.topdown([[5.0, 5.0], [3.0]], [[0, 0], [0]], 10)
    # a zero count with no child is fine
    assert [a.tolist() for a in dp.topdown([[10.0, 0.0], [4.0, 6.0]], [[0, 0], [0, 0]], 10)] == [
        [10, 0],
        [4, 6],
    ]


def _topdown_by_loop(noisy_levels, parents, total):
    """TopDown written the plain way, one parent at a time through the public functions (the
    reference for dp.topdown's grouped loop)."""
    above = np.array([total])
    result = []
    for noisy, parent in zip(noisy_levels, parents, strict=True):
        noisy, parent = np.asarray(noisy, dtype=float), np.asarray(parent)
        final = np.zeros(noisy.size, dtype=np.int64)
        for cell in range(above.size):
            children = np.flatnonzero(parent == cell)
            if children.size:
                projected = dp.simplex_projection(noisy[children], float(above[cell]))
                final[children] = dp.round_preserving_sum(projected)
        result.append(final)
        above = final
    return result


@pytest.mark.parametrize("seed", range(6))
def test_topdown_is_the_plain_loop_over_parents(seed) -> None:
    # a shuffled hierarchy: children of one parent are not next to each other
    rng = np.random.default_rng(seed)
    sizes = (5, 23, 140)
    parents = [np.zeros(sizes[0], dtype=int)]
    for above, size in zip(sizes[:-1], sizes[1:], strict=True):
        parent = np.concatenate([np.arange(above), rng.integers(0, above, size - above)])
        parents.append(rng.permutation(parent))
    true = rng.integers(0, 30, size=sizes[-1])
    levels = [true]
    for parent, above in zip(parents[:0:-1], sizes[-2::-1], strict=True):
        levels.insert(0, np.bincount(parent, weights=levels[0], minlength=above).astype(int))
    noisy = [level + dp.discrete_gaussian(4.0, size=level.size, rng=rng) for level in levels]
    got = dp.topdown(noisy, parents, int(true.sum()))
    want = _topdown_by_loop(noisy, parents, int(true.sum()))
    for g, w in zip(got, want, strict=True):
        assert np.array_equal(g, w)


@pytest.mark.parametrize(
    ("sigma2", "expected"),
    # the Census lesson's levels at ρ = 10 (σ² = 1/(2ρ_ℓ)): ZIP5 with 51% of ρ (σ = 0.3131),
    # a region with 35% (σ = 0.378), and the nation with weights (100, 1, 1, 1) (σ = 0.2269):
    # the SD is far below σ
    [(1 / (2 * 5.1), 0.1098), (1 / (2 * 3.5), 0.2387), (1 / (2 * 10 * 100 / 103), 0.0110)],
)
def test_the_discrete_gaussians_sd_is_below_sigma_at_known_points(sigma2, expected):
    assert dp.discrete_gaussian_std(sigma2) == pytest.approx(expected, abs=6e-5)


@pytest.mark.parametrize("sigma2", [0.05, 0.5, 2.0, 30.0, 1e4])
def test_the_discrete_gaussians_sd_is_the_pmfs_and_the_samplers(sigma2):
    """Against the normalised pmf summed far out, and against 200,000 draws (the sample
    variance within 6 of its standard errors: var(s²) ≈ (μ₄ − σ⁴)/n)."""
    reach = int(40 * math.sqrt(sigma2)) + 40
    x = np.arange(-reach, reach + 1)
    pmf = dp.discrete_gaussian_pmf(x, sigma2)
    variance = float(np.sum(x**2 * pmf))
    assert dp.discrete_gaussian_std(sigma2) == pytest.approx(math.sqrt(variance), rel=1e-9)
    draws = dp.discrete_gaussian(sigma2, size=200_000, rng=7).astype(float)
    fourth = float(np.sum(x**4 * pmf))
    spread = math.sqrt((fourth - variance**2) / draws.size)
    assert abs(np.var(draws) - variance) < 6 * spread
    assert dp.discrete_gaussian_std(sigma2) <= math.sqrt(sigma2)
