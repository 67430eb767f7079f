"""dp.choosing: report noisy max, the exponential mechanism, the Gumbel-max trick and the
private quantile — exact values, samplers against exact probabilities (chi-square), privacy
by exact ratios and by audit (a halved noise scale is caught), OpenDP as a reference."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import dp
from dp_helpers import P_REJECT

E = math.e


def _chi_square_p(draws: np.ndarray, probabilities: np.ndarray) -> float:
    """p-value of observed draws (indices) against exact probabilities; cells with expected
    count below 5 are pooled into one."""
    observed = np.bincount(draws, minlength=probabilities.size).astype(float)
    expected = probabilities * draws.size
    small = expected < 5
    if small.any():
        observed = np.r_[observed[~small], observed[small].sum()]
        expected = np.r_[expected[~small], expected[small].sum()]
        if expected[-1] == 0:
            assert observed[-1] == 0, "a candidate with probability 0 was drawn"
            observed, expected = observed[:-1], expected[:-1]
    if expected.size < 2:
        return 1.0
    return float(stats.chisquare(observed, expected).pvalue)


# --- the exponential mechanism -----------------------------------------------------------------


def test_exponential_mechanism_fact_of_the_design():
    # scores (0, 1), Δ = 1, ε = 2: weights e^0 and e^1
    probabilities = dp.exponential_mechanism_probabilities([0.0, 1.0], 1.0, 2.0)
    np.testing.assert_allclose(probabilities, [1 / (1 + E), E / (1 + E)], rtol=1e-14)


def test_exponential_mechanism_probabilities_by_hand():
    # scores (1, 2, 4), Δ = 2, ε = 1: weights exp(u/4)
    weights = np.exp(np.array([1.0, 2.0, 4.0]) / 4)
    np.testing.assert_allclose(
        dp.exponential_mechanism_probabilities([1, 2, 4], 2, 1), weights / weights.sum(), 1e-14
    )
    # equal scores: uniform at every ε
    np.testing.assert_allclose(dp.exponential_mechanism_probabilities([3, 3, 3, 3], 1, 50), 0.25)


def test_exponential_mechanism_is_stable_at_huge_epsilon_and_scores():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, no 0/0
        p = dp.exponential_mechanism_probabilities([0.0, 1e6, 5e5, 1e6 - 1], 1.0, 100.0)
        tied = dp.exponential_mechanism_probabilities([1e6, 1e6, -1e6], 1.0, 100.0)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    # 1e6 against 1e6 − 1 at ε/(2Δ) = 50: odds e^50
    assert p[1] / p[3] == pytest.approx(math.exp(50), rel=1e-9)
    assert p[0] == 0.0 and p[2] == 0.0
    np.testing.assert_allclose(tied, [0.5, 0.5, 0.0])


def test_exponential_mechanism_ratio_on_neighbours_is_at_most_e_to_epsilon_and_the_2_matters():
    # neighbours: every score moves by at most Δ (in either direction, independently)
    rng = np.random.default_rng(11)
    epsilon, delta = 0.8, 3.0
    worst, worst_without_the_2 = 0.0, 0.0
    for _ in range(2000):
        u = rng.uniform(-20, 20, size=5)
        u_prime = u + rng.choice([-delta, delta], size=5) * rng.uniform(0.5, 1.0, size=5)
        p = dp.exponential_mechanism_probabilities(u, delta, epsilon)
        q = dp.exponential_mechanism_probabilities(u_prime, delta, epsilon)
        worst = max(worst, np.max(np.abs(np.log(p / q))))
        # exp(ε u / Δ), without the 2: the same as claiming ε while spending 2ε
        p2 = dp.exponential_mechanism_probabilities(u, delta, 2 * epsilon)
        q2 = dp.exponential_mechanism_probabilities(u_prime, delta, 2 * epsilon)
        worst_without_the_2 = max(worst_without_the_2, np.max(np.abs(np.log(p2 / q2))))
    assert worst <= epsilon + 1e-12
    assert worst > 0.9 * epsilon  # the bound is nearly reached: the test has teeth
    assert worst_without_the_2 > epsilon * 1.5


@pytest.mark.parametrize(
    ("scores", "sensitivity", "epsilon"), [([0, 1, 2, 5], 1, 1), ([4, 4, 1], 2, 3)]
)
def test_exponential_mechanism_draws_follow_the_exact_probabilities(scores, sensitivity, epsilon):
    p = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
    draws = dp.exponential_mechanism(scores, sensitivity, epsilon, size=100_000, rng=5)
    assert draws.dtype == np.int64 and draws.shape == (100_000,)
    assert _chi_square_p(draws, p) > P_REJECT
    assert isinstance(dp.exponential_mechanism(scores, sensitivity, epsilon, rng=1), int)


def test_gumbel_noisy_max_is_the_exponential_mechanism():
    # Gumbel-max trick: argmax (u + Gumbel(2Δ/ε)) ~ softmax(ε u / (2Δ))
    scores, sensitivity, epsilon = np.array([0.0, 1.0, 2.0, 2.5, 4.0]), 1.0, 1.5
    p = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
    draws = dp.gumbel_noisy_max(scores, sensitivity, epsilon, size=200_000, rng=8)
    assert _chi_square_p(draws, p) > P_REJECT
    # ... and a wrong Gumbel scale (Δ/ε) is caught by the same test
    wrong = dp.gumbel_noisy_max(scores, sensitivity, 2 * epsilon, size=200_000, rng=8)
    assert _chi_square_p(wrong, p) < P_REJECT


# --- report noisy max --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("c1", "c2", "epsilon"), [(5, 3, 1.0), (3, 5, 0.5), (10, 10, 2.0), (0, 40, 0.1)]
)
def test_report_noisy_max_of_two_counts_is_the_laplace_difference_cdf(c1, c2, epsilon):
    # P[c1 + L1 > c2 + L2] = P[L2 − L1 < c1 − c2]
    p = dp.report_noisy_max_probabilities([c1, c2], epsilon)
    expected = dp.laplace_difference_cdf(c1 - c2, scale=1 / epsilon)
    np.testing.assert_allclose(p, [expected, 1 - expected], atol=1e-12)


def test_report_noisy_max_probabilities_sum_to_one_and_respect_symmetry_and_order():
    np.testing.assert_allclose(dp.report_noisy_max_probabilities([7, 7, 7], 0.3), 1 / 3, atol=1e-12)
    counts = np.array([4140, 4099, 4066, 3770, 3650, 3295, 2002, 1597, 1370, 994, 928, 649, 9])
    for epsilon in (0.001, 0.01, 0.1, 1.0, 10.0):
        p = dp.report_noisy_max_probabilities(counts, epsilon)
        assert p.sum() == pytest.approx(1.0, abs=1e-10)
        assert np.all(np.diff(p) <= 1e-15)  # a larger count never wins less often
    assert dp.report_noisy_max_probabilities([3], 1.0).tolist() == [1.0]


@pytest.mark.parametrize(
    ("counts", "epsilon"),
    [([10, 9, 8, 5], 1.0), ([4140, 4099, 4066, 3770], 0.02), ([0, 1, 1, 3, 2], 0.5)],
)
def test_report_noisy_max_draws_follow_the_exact_probabilities(counts, epsilon):
    p = dp.report_noisy_max_probabilities(counts, epsilon)
    draws = dp.report_noisy_max(counts, epsilon, size=200_000, rng=13)
    assert draws.dtype == np.int64
    assert _chi_square_p(draws, p) > P_REJECT
    # a halved noise scale changes the distribution enough to be rejected
    wrong = dp.report_noisy_max(counts, 2 * epsilon, size=200_000, rng=13)
    assert _chi_square_p(wrong, p) < P_REJECT


def test_report_noisy_max_breaks_ties_uniformly():
    # at 1e20 a float's spacing is 16,384: Lap(1) noise vanishes and the two top counts tie
    draws = dp.report_noisy_max([1e20, 1e20, 0.0], 1.0, size=40_000, rng=3)
    assert set(np.unique(draws)) == {0, 1}
    assert stats.binomtest(int((draws == 0).sum()), draws.size, 0.5).pvalue > P_REJECT
    assert isinstance(dp.report_noisy_max([1, 2], 1.0, rng=0), int)
    assert dp.report_noisy_max([1, 2], 1.0, size=(3, 4), rng=0).shape == (3, 4)


def _broken_noisy_max(counts, epsilon, size, rng):
    """Report noisy max with Lap(1/(2ε)) noise: claims ε, spends 2ε."""
    generator = np.random.default_rng(rng)
    counts = np.asarray(counts, dtype=float)
    noisy = counts + generator.laplace(0.0, 1 / (2 * epsilon), size=(size, counts.size))
    return np.argmax(noisy, axis=1)


def test_report_noisy_max_exact_ratio_on_neighbours_is_at_most_e_to_epsilon():
    # add/remove one person who is in every count, some counts, or one: counts move by 0 or
    # +1 together (monotone), so the ratio of every output's probability is within e^ε
    rng = np.random.default_rng(4)
    epsilon, worst = 0.7, 0.0
    for _ in range(300):
        counts = rng.integers(0, 6, size=4).astype(float)
        joined = counts + rng.integers(0, 2, size=4)
        p = dp.report_noisy_max_probabilities(counts, epsilon)
        q = dp.report_noisy_max_probabilities(joined, epsilon)
        worst = max(worst, np.max(np.abs(np.log(p / q))))
    assert worst <= epsilon + 1e-9


def test_audit_report_noisy_max_stays_within_epsilon_and_catches_a_halved_scale():
    # D: 40 counts of 0; D': one person joins the first. With many rivals, the first wins
    # only when their maximum is large, where the Laplace tail makes the ratio reach e^ε.
    epsilon, draws = 1.0, 400_000
    d, d_prime = np.zeros(40), np.r_[1.0, np.zeros(39)]
    honest = dp.audit_epsilon(
        dp.report_noisy_max(d, epsilon, size=draws, rng=21),
        dp.report_noisy_max(d_prime, epsilon, size=draws, rng=22),
    )
    broken = dp.audit_epsilon(
        _broken_noisy_max(d, epsilon, draws, 21), _broken_noisy_max(d_prime, epsilon, draws, 22)
    )
    assert honest <= epsilon
    assert broken > epsilon


# --- the private quantile ----------------------------------------------------------------------


def test_quantile_scores_by_hand():
    # values 1..4, candidates 0, 2.5, 5: below (0, 2, 4), above (4, 2, 0)
    scores = dp.quantile_scores([4.0, 1.0, 3.0, 2.0], [0.0, 2.5, 5.0], 0.5)
    np.testing.assert_allclose(scores, [-2.0, 0.0, -2.0])
    # a candidate equal to a value counts that value on neither side
    np.testing.assert_allclose(dp.quantile_scores([1.0, 2.0, 3.0], [2.0], 0.5), [0.0])
    # α = 0.25 over 0..99: the best candidate is 25 (25 below, 74 above: |0.75·25 − 0.25·74|)
    scores = dp.quantile_scores(np.arange(100.0), np.arange(100.0), 0.25)
    assert int(np.argmax(scores)) == 25 and scores[25] == pytest.approx(-0.25)


@pytest.mark.parametrize("alpha", [0.5, 0.25, 0.9, 0.0])
def test_quantile_sensitivity_is_the_largest_change_one_person_makes(alpha):
    rng = np.random.default_rng(17)
    grid = np.linspace(0, 10, 21)
    worst_add, worst_replace = 0.0, 0.0
    for _ in range(300):
        data = rng.integers(0, 11, size=8).astype(float)
        base = dp.quantile_scores(data, grid, alpha)
        person = float(rng.integers(0, 11))
        added = dp.quantile_scores(np.r_[data, person], grid, alpha)
        worst_add = max(worst_add, np.max(np.abs(added - base)))
        replaced = data.copy()
        replaced[0] = person
        worst_replace = max(
            worst_replace, np.max(np.abs(dp.quantile_scores(replaced, grid, alpha) - base))
        )
    assert worst_add == pytest.approx(dp.quantile_sensitivity(alpha))
    assert worst_replace == pytest.approx(dp.quantile_sensitivity(alpha, neighbours="replace"))


def test_private_quantile_draws_follow_the_exponential_mechanism_and_sharpen_with_epsilon():
    values = np.r_[np.arange(20.0), 100.0]
    grid = np.arange(0.0, 101.0)
    scores = dp.quantile_scores(values, grid, 0.5)
    p = dp.exponential_mechanism_probabilities(scores, 0.5, 1.0)
    draws = dp.private_quantile(values, grid, 0.5, 1.0, size=100_000, rng=2)
    assert _chi_square_p(np.searchsorted(grid, draws), p) > P_REJECT
    # at a large ε the release is the true median's candidate, 10
    assert set(dp.private_quantile(values, grid, 0.5, 200.0, size=1000, rng=1)) == {10.0}
    assert isinstance(dp.private_quantile(values, grid, 0.5, 1.0, rng=1), float)


def test_private_quantile_audit_stays_within_epsilon():
    # D and D' differ by one value far above the others (add/remove)
    grid = np.arange(0.0, 21.0)
    d, d_prime = np.array([5.0, 6.0, 7.0]), np.array([5.0, 6.0, 7.0, 20.0])
    draws = 300_000
    honest = dp.audit_epsilon(
        dp.private_quantile(d, grid, 0.5, 1.0, size=draws, rng=1),
        dp.private_quantile(d_prime, grid, 0.5, 1.0, size=draws, rng=2),
    )
    assert honest <= 1.0


# --- OpenDP as an independent reference --------------------------------------------------------

odp = pytest.importorskip("opendp.prelude")
odp.enable_features("contrib")
SCORES_SPACE = (odp.vector_domain(odp.atom_domain(T=float, nan=False)), odp.linf_distance(T=float))


@pytest.mark.parametrize(("sensitivity", "epsilon"), [(1.0, 1.0), (2.0, 0.5), (0.5, 3.0)])
def test_exponential_mechanism_scale_gives_opendp_the_same_epsilon(sensitivity, epsilon):
    # OpenDP's noisy max on scores that may move either way (not monotone): ε = 2Δ/scale;
    # the exponential mechanism's weights exp(ε u/(2Δ)) are exp(u/scale) with scale = 2Δ/ε
    scale = 2 * sensitivity / epsilon
    measurement = odp.m.make_noisy_max(*SCORES_SPACE, odp.max_divergence(), scale=scale)
    assert measurement.map(sensitivity) == pytest.approx(epsilon, rel=1e-9)


def test_report_noisy_max_scale_gives_opendp_the_same_epsilon_for_monotone_counts():
    monotone = (
        odp.vector_domain(odp.atom_domain(T=float, nan=False)),
        odp.linf_distance(T=float, monotonic=True),
    )
    for epsilon in (0.1, 1.0, 2.0):
        measurement = odp.m.make_noisy_max(*monotone, odp.max_divergence(), scale=1 / epsilon)
        assert measurement.map(1.0) == pytest.approx(epsilon, rel=1e-9)


def test_opendp_gumbel_noisy_max_draws_match_our_exponential_mechanism():
    # OpenDP adds Gumbel noise under zCDP: its winners follow softmax(u / scale)
    scores, sensitivity, epsilon = [0.0, 1.0, 2.0, 3.5], 1.0, 2.0
    measurement = odp.m.make_noisy_max(
        *SCORES_SPACE, odp.zero_concentrated_divergence(), scale=2 * sensitivity / epsilon
    )
    draws = np.array([measurement(scores) for _ in range(20_000)])
    p = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
    assert _chi_square_p(draws, p) > P_REJECT


@pytest.mark.parametrize("alpha", [0.5, 0.25, 0.75, 0.9])
def test_quantile_scores_match_opendp(alpha):
    # OpenDP scores |(den − num)·#below − num·#above| for α = num/den, as integers, and its
    # sensitivity under symmetric distance is den·max(α, 1 − α)
    values = [1.0, 2.0, 2.0, 3.0, 7.0, 8.0, 9.0, 9.5]
    candidates = [0.0, 2.0, 2.5, 5.0, 8.0, 10.0]
    transformation = odp.t.make_quantile_score_candidates(
        odp.vector_domain(odp.atom_domain(T=float, nan=False)),
        odp.symmetric_distance(),
        candidates=candidates,
        alpha=alpha,
    )
    # OpenDP's own denominator (α as num/den, den of its choosing): read off its sensitivity,
    # which must then be a whole number; the scores must agree after the same scaling
    den = transformation.map(1) / dp.quantile_sensitivity(alpha)
    assert den == round(den) and Fraction(alpha).limit_denominator(1000) * round(den) % 1 == 0
    np.testing.assert_allclose(
        dp.quantile_scores(values, candidates, alpha),
        -np.array(transformation(values), dtype=float) / den,
        rtol=1e-12,
    )


# --- the monotone exponential mechanism ----------------------------------------------


def test_monotone_exponential_mechanism_drops_the_2():
    # scores (0, 1), Δ = 1, ε = 1: weights e^0 and e^1, as the general mechanism at ε = 2
    p = dp.exponential_mechanism_probabilities([0.0, 1.0], 1.0, 1.0, monotone=True)
    np.testing.assert_allclose(p, [1 / (1 + E), E / (1 + E)], rtol=1e-15)
    np.testing.assert_array_equal(p, dp.exponential_mechanism_probabilities([0.0, 1.0], 1.0, 2.0))


def _worst_log_ratio(scores_d, scores_d_prime, epsilon, monotone):
    p = dp.exponential_mechanism_probabilities(scores_d, 1.0, epsilon, monotone=monotone)
    q = dp.exponential_mechanism_probabilities(scores_d_prime, 1.0, epsilon, monotone=monotone)
    return float(np.max(np.abs(np.log(p) - np.log(q))))


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_monotone_mechanism_is_epsilon_dp_on_counts_exactly(epsilon):
    """Counts under add/remove: a neighbour adds 1 to one category (or to several, for
    overlapping counts). Every such pair, enumerated, stays within e^ε without the 2."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        counts = rng.integers(0, 30, size=6).astype(float)
        added = (rng.random(6) < 0.5).astype(float)  # overlapping: any subset rises by 1
        worst = _worst_log_ratio(counts, counts + added, epsilon, monotone=True)
        assert worst <= epsilon + 1e-12


def test_monotone_flag_on_non_monotone_scores_is_caught():
    """The caller vouches for monotonicity: on quantile scores (one value raises the scores
    on one side and lowers them on the other) dropping the 2 breaks ε-DP, and the exact
    ratio check catches it, while the general mechanism stays within ε."""
    grid = np.arange(0.0, 11.0)
    values = np.array([2.0, 3.0, 5.0, 5.0, 8.0])
    d = dp.quantile_scores(values, grid, 0.5)
    d_prime = dp.quantile_scores(np.r_[values, 5.5], grid, 0.5)
    delta = dp.quantile_sensitivity(0.5)
    assert np.max(np.abs(d - d_prime)) <= delta
    # rescale so Δ = 1 for the helper
    general = _worst_log_ratio(d / delta, d_prime / delta, 1.0, monotone=False)
    broken = _worst_log_ratio(d / delta, d_prime / delta, 1.0, monotone=True)
    assert general <= 1.0 + 1e-12
    assert broken > 1.0 + 0.1


def test_gumbel_without_the_2_samples_the_monotone_mechanism():
    scores = np.array([0.0, 1.0, 2.0, 4.0])
    exact = dp.exponential_mechanism_probabilities(scores, 1.0, 0.7, monotone=True)
    draws = dp.gumbel_noisy_max(scores, 1.0, 0.7, size=40_000, rng=11, monotone=True)
    assert _chi_square_p(draws, exact) > P_REJECT
    sampled = dp.exponential_mechanism(scores, 1.0, 0.7, size=40_000, rng=12, monotone=True)
    assert _chi_square_p(sampled, exact) > P_REJECT
