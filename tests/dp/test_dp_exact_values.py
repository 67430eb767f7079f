"""Exact values of the closed-form dp/ functions, at the facts the dp/ contract pins
(docs/ARCHITECTURE.md §2) and at points derived by hand (each derivation is in the comment
above its assertion)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dp
from dp_helpers import brute_force_rr_epsilon

LN2, LN3, LN9 = math.log(2), math.log(3), math.log(9)


def close(expected):
    return pytest.approx(expected, rel=1e-9, abs=1e-12)


# --- facts pinned by the dp/ contract ------------------------------------------------------------


def test_rr_epsilon_of_three_quarters_is_ln3():
    assert dp.rr_epsilon(0.75, 0.75) == close(LN3)
    assert dp.rr_epsilon(0.75, 0.75) == pytest.approx(1.0986, abs=1e-4)


def test_rr_keep_probability_of_two_is_0_881():
    # e^2 / (1 + e^2) = 7.389 / 8.389 = 0.8808
    assert dp.rr_keep_probability(2) == close(math.exp(2) / (1 + math.exp(2)))
    assert dp.rr_keep_probability(2) == pytest.approx(0.881, abs=5e-4)


def test_rr_epsilon_of_seventy_sixty_is_ln2():
    # ratios: output 1: 0.7/0.4 = 1.75; output 0: 0.3/0.6 = 1/2 -> max |ln| = ln 2
    assert dp.rr_epsilon(0.7, 0.6) == close(LN2)
    assert dp.rr_epsilon(0.7, 0.6) == pytest.approx(0.693, abs=5e-4)


def test_ue_epsilon_of_three_quarters_one_quarter_is_ln9():
    # ln(p(1-q) / ((1-p)q)) = ln(0.75*0.75 / (0.25*0.25)) = ln 9
    assert dp.ue_epsilon(0.75, 0.25) == close(LN9)
    assert dp.ue_epsilon(0.75, 0.25) == pytest.approx(2.197, abs=5e-4)


# --- Laplace --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sensitivity", "epsilon", "scale"),
    [(1, 1, 1.0), (1, 0.5, 2.0), (3, 2, 1.5), (0.1, 0.01, 10.0)],  # b = Δ/ε
)
def test_laplace_scale_is_sensitivity_over_epsilon(sensitivity, epsilon, scale):
    assert dp.laplace_scale(sensitivity, epsilon) == close(scale)


@pytest.mark.parametrize(
    ("sensitivity", "epsilon", "variance"),
    [(1, 1, 2.0), (1, 0.5, 8.0), (3, 2, 4.5)],  # 2 b^2: b = 1, 2, 1.5
)
def test_laplace_variance_is_twice_scale_squared(sensitivity, epsilon, variance):
    assert dp.laplace_variance(sensitivity, epsilon) == close(variance)


@pytest.mark.parametrize(("loc", "scale"), [(0.0, 1.0), (5.0, 2.0), (-3.0, 0.25)])
def test_laplace_symmetric_interval_of_b_ln20_has_probability_095(loc, scale):
    # P[|Lap(b)| <= t] = 1 - e^{-t/b}; t = b ln 20 -> 1 - 1/20 = 0.95
    half = scale * math.log(20)
    got = dp.laplace_interval_probability(loc - half, loc + half, loc=loc, scale=scale)
    assert got == close(0.95)


def test_laplace_half_line_above_loc_has_probability_one_half():
    assert dp.laplace_interval_probability(3.0, math.inf, loc=3.0, scale=2.0) == close(0.5)
    assert dp.laplace_interval_probability(-math.inf, 3.0, loc=3.0, scale=2.0) == close(0.5)


def test_laplace_whole_line_has_probability_one():
    assert dp.laplace_interval_probability(-math.inf, math.inf, loc=1.0, scale=3.0) == close(1.0)


def test_laplace_tail_beyond_b_ln2_has_probability_one_quarter():
    # P[Lap(b) > t] = e^{-t/b} / 2 for t >= 0; t = b ln 2 -> 1/4
    got = dp.laplace_interval_probability(2 * LN2, math.inf, loc=0.0, scale=2.0)
    assert got == close(0.25)


def test_laplace_interval_wholly_right_of_loc():
    # P[b <= Lap(b) <= 2b] = (e^{-1} - e^{-2}) / 2 = 0.11627
    got = dp.laplace_interval_probability(11.0, 12.0, loc=10.0, scale=1.0)
    assert got == close((math.exp(-1) - math.exp(-2)) / 2)


def test_laplace_interval_straddling_loc_asymmetrically():
    # P[-b <= X <= 2b] = (1 - e^{-1})/2 + (1 - e^{-2})/2
    got = dp.laplace_interval_probability(-1.0, 2.0, loc=0.0, scale=1.0)
    assert got == close((1 - math.exp(-1)) / 2 + (1 - math.exp(-2)) / 2)


def test_laplace_degenerate_interval_has_probability_zero():
    assert dp.laplace_interval_probability(0.5, 0.5, loc=0.0, scale=1.0) == 0.0
    assert dp.laplace_interval_probability(0.0, 0.0, loc=0.0, scale=1.0) == 0.0


def test_laplace_privacy_loss_equals_plus_delta_over_scale_in_the_near_tail():
    # loss(y) = (|y - loc'| - |y - loc|) / b; for y <= min(loc, loc') it is (loc' - loc)/b
    for y in (-100.0, -3.0, 0.0):
        got = dp.laplace_privacy_loss(y, loc=0.0, loc_neighbour=1.0, scale=2.0)
        assert float(got) == close(0.5)


def test_laplace_privacy_loss_equals_minus_delta_over_scale_in_the_far_tail():
    # for y >= max(loc, loc'): (y - loc' - (y - loc)) / b = -(loc' - loc)/b
    for y in (1.0, 4.0, 100.0):
        got = dp.laplace_privacy_loss(y, loc=0.0, loc_neighbour=1.0, scale=2.0)
        assert float(got) == close(-0.5)


def test_laplace_privacy_loss_is_zero_midway():
    # y equidistant from both centres: |y - loc| = |y - loc'|
    assert float(dp.laplace_privacy_loss(0.5, loc=0.0, loc_neighbour=1.0, scale=2.0)) == close(0)
    assert float(dp.laplace_privacy_loss(7.0, loc=9.0, loc_neighbour=5.0, scale=0.3)) == close(0)


def test_laplace_privacy_loss_is_linear_between_the_centres():
    # y = 0.25, loc 0, loc' 1, b 1: (0.75 - 0.25) / 1 = 0.5
    assert float(dp.laplace_privacy_loss(0.25, loc=0.0, loc_neighbour=1.0, scale=1.0)) == close(0.5)


@given(
    y=st.floats(-1e6, 1e6),
    loc=st.floats(-1e3, 1e3),
    loc_neighbour=st.floats(-1e3, 1e3),
    scale=st.floats(1e-2, 1e3),
)
def test_laplace_privacy_loss_is_bounded_by_delta_over_scale(y, loc, loc_neighbour, scale):
    loss = float(dp.laplace_privacy_loss(y, loc=loc, loc_neighbour=loc_neighbour, scale=scale))
    bound = abs(loc - loc_neighbour) / scale
    assert abs(loss) <= bound * (1 + 1e-9) + 1e-9


# --- composition ----------------------------------------------------------------------------


def test_sequential_composition_sums():
    assert dp.sequential_composition([0.1, 0.2, 0.3]) == close(0.6)
    assert dp.sequential_composition([1.5]) == close(1.5)
    assert dp.sequential_composition(np.array([1.0, 1.0, 2.0])) == close(4.0)


def test_a_budgets_shares_add_up_to_what_they_add_up_to_on_paper():
    # What ε means in practice: five shares chosen on the sliders, the fifth what is left. A
    # float sum gave 0.9999999999999999 ("spends ε = 1 − 1.1·10⁻¹⁶ of 1") or
    # 1.0000000000000002; the sum is correctly rounded.
    for shares in ([0.1, 0.1, 0.5, 0.2, 0.1], [0.1, 0.1, 0.4, 0.3, 0.1], [0.3] * 3 + [0.1]):
        assert dp.sequential_composition(shares) == 1.0
        assert dp.zcdp_compose(shares) == 1.0
    assert dp.sequential_composition([1e-300, 1.0, -0.0 + 1e-300]) == 1.0
    for add_up in (dp.sequential_composition, dp.zcdp_compose):
        with pytest.raises(ValueError, match="largest float"):
            add_up([1.5e308, 1.5e308])


def test_parallel_composition_takes_the_maximum():
    assert dp.parallel_composition([0.1, 0.7, 0.3]) == close(0.7)
    assert dp.parallel_composition([1.5]) == close(1.5)
    assert dp.parallel_composition((2.0, 0.5)) == close(2.0)


def test_group_privacy_multiplies_by_group_size():
    assert dp.group_privacy(0.5, 3) == close(1.5)
    assert dp.group_privacy(0.25, 1) == close(0.25)


# --- binary randomized response ---------------------------------------------------------------


def test_coin_flip_defaults_give_three_quarters():
    # p = 1/2 + 1/2 * 1/2 = 0.75, q = 1/2 + 1/2 * 1/2 = 0.75
    p, q = dp.coin_flip_probabilities()
    assert (p, q) == (close(0.75), close(0.75))


@pytest.mark.parametrize(
    ("honest", "yes", "p", "q"),
    [
        (0.5, 0.75, 0.875, 0.625),  # p = .5 + .5*.75; q = .5 + .5*.25
        (1.0, 0.3, 1.0, 1.0),  # always honest
        (0.0, 0.5, 0.5, 0.5),  # never honest: a fair coin
        (0.2, 1.0, 1.0, 0.2),  # else always "yes": p = 1, q = .2
    ],
)
def test_coin_flip_probabilities(honest, yes, p, q):
    got = dp.coin_flip_probabilities(honest=honest, yes=yes)
    assert tuple(got) == (close(p), close(q))


@pytest.mark.parametrize(
    ("p", "q", "epsilon"),
    [
        (0.75, 0.75, LN3),
        (0.25, 0.25, LN3),  # output 1: .25/.75 = 1/3; output 0: .75/.25 = 3
        (0.7, 0.6, LN2),
        (0.3, 0.4, LN2),  # mirror: output 1: .3/.6; output 0: .7/.4
        (0.9, 0.5, math.log(5)),  # output 1: .9/.5 = 1.8; output 0: .1/.5 = 1/5
        (0.3, 0.2, math.log(3.5)),  # both < 1/2: max(|ln(.3/.8)|, |ln(.7/.2)|) = ln 3.5
        (0.5, 0.5, 0.0),  # output independent of input
        (0.3, 0.7, 0.0),  # p + q = 1: output 1 w.p. .3 under both inputs
        (1.0, 0.0, 0.0),  # always reports 1: independent of input
        (0.0, 1.0, 0.0),  # always reports 0: independent of input
        (1.0, 1.0, math.inf),  # truthful: output 1 impossible under input 0
        (0.0, 0.0, math.inf),  # always lies: just as revealing
        (1.0, 0.5, math.inf),  # output 0 possible only under input 0
        (0.5, 0.0, math.inf),  # output 0 possible only under input 1
    ],
)
def test_rr_epsilon_on_the_unit_square(p, q, epsilon):
    got = dp.rr_epsilon(p, q)
    if math.isinf(epsilon):
        assert got == math.inf
    else:
        assert got == close(epsilon)


@given(p=st.floats(0.0, 1.0), q=st.floats(0.0, 1.0))
def test_rr_epsilon_matches_brute_force_max_over_log_ratios(p, q):
    expected = brute_force_rr_epsilon(p, q)
    got = dp.rr_epsilon(p, q)
    if math.isinf(expected):
        assert got == math.inf
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, LN3, 2.0, 5.0])
def test_rr_keep_probability_round_trips_through_rr_epsilon(epsilon):
    p = dp.rr_keep_probability(epsilon)
    assert dp.rr_epsilon(p, p) == close(epsilon)


def test_rr_keep_probability_of_ln3_is_three_quarters():
    assert dp.rr_keep_probability(LN3) == close(0.75)


@pytest.mark.parametrize(
    ("proportion", "n", "p", "q", "variance"),
    [
        # [.3*.1875 + .7*.1875] / (100 * .5^2) = .1875 / 25
        (0.3, 100, 0.75, 0.75, 0.0075),
        # [.5*.21 + .5*.24] / (10 * .3^2) = .225 / .9
        (0.5, 10, 0.7, 0.6, 0.25),
        # r = 1: .2*.8 / (50 * (.2 + .4 - 1)^2) = .16 / 8
        (1.0, 50, 0.2, 0.4, 0.02),
    ],
)
def test_rr_variance_formula(proportion, n, p, q, variance):
    assert dp.rr_variance(proportion, n, p, q) == close(variance)


def test_estimate_proportion_on_small_fixed_inputs():
    # mean .75 with p = q = .75: (.75 + .75 - 1) / .5 = 1
    assert dp.estimate_proportion([1, 1, 1, 0], 0.75, 0.75) == close(1.0)
    # mean .25: (.25 + .75 - 1) / .5 = 0
    assert dp.estimate_proportion([1, 0, 0, 0], 0.75, 0.75) == close(0.0)
    # mean .5, p = .7, q = .6: (.5 + .6 - 1) / .3 = 1/3
    assert dp.estimate_proportion([1, 0], 0.7, 0.6) == close(1 / 3)
    # not clipped: mean 0 -> (0 + .75 - 1)/.5 = -.5
    assert dp.estimate_proportion([0, 0], 0.75, 0.75) == close(-0.5)


def test_estimate_count_is_n_times_proportion():
    # mean .5: (.5 + .75 - 1) / .5 = .5 -> 4 * .5 = 2
    assert dp.estimate_count([1, 1, 0, 0], 0.75, 0.75) == close(2.0)
    responses = [1, 0, 1, 1, 0, 1, 0]
    assert dp.estimate_count(responses, 0.7, 0.6) == close(
        7 * dp.estimate_proportion(responses, 0.7, 0.6)
    )


# --- k-ary randomized response ----------------------------------------------------------------


def test_grr_probabilities_at_ln3_and_k4():
    # p = 3 / (3 + 3) = 1/2, q = 1 / 6
    p, q = dp.grr_probabilities(LN3, 4)
    assert (p, q) == (close(0.5), close(1 / 6))


@pytest.mark.parametrize(("epsilon", "k"), [(0.5, 2), (1.0, 3), (2.0, 10), (LN3, 4)])
def test_grr_probabilities_sum_to_one_and_have_ratio_e_to_epsilon(epsilon, k):
    p, q = dp.grr_probabilities(epsilon, k)
    assert p + (k - 1) * q == close(1.0)
    assert p / q == close(math.exp(epsilon))


def test_grr_with_two_values_is_binary_rr():
    p, q = dp.grr_probabilities(1.3, 2)
    assert p == close(dp.rr_keep_probability(1.3))
    assert q == close(1 - dp.rr_keep_probability(1.3))


@pytest.mark.parametrize(
    ("n", "epsilon", "k", "variance"),
    [
        (1000, LN3, 4, 1250.0),  # n (3 + 2) / (3 - 1)^2 = 1000 * 5/4
        (1, math.log(2), 2, 2.0),  # (2 + 0) / 1^2
        (10, math.log(5), 3, 10 * 6 / 16),  # (5 + 1) / 4^2
    ],
)
def test_grr_variance_formula(n, epsilon, k, variance):
    assert dp.grr_variance(n, epsilon, k) == close(variance)


def test_grr_variance_equals_q_one_minus_q_over_p_minus_q_squared():
    # at f = 0 the count is Binomial(n, q): n q(1-q) / (p-q)^2 must agree with the closed form
    p, q = dp.grr_probabilities(1.7, 5)
    assert dp.grr_variance(300, 1.7, 5) == close(300 * q * (1 - q) / (p - q) ** 2)


def test_grr_estimate_on_a_small_fixed_input():
    # k = 4, eps = ln 3: p = 1/2, q = 1/6, n = 6; C = [2, 1, 1, 2]; (C - 1) / (1/3) = [3, 0, 0, 3]
    got = dp.grr_estimate([0, 0, 1, 2, 3, 3], 4, LN3)
    np.testing.assert_allclose(got, [3.0, 0.0, 0.0, 3.0], rtol=1e-9, atol=1e-9)


def test_grr_estimate_is_not_clipped():
    # a value nobody reported: (0 - 6 * 1/6) / (1/3) = -3
    got = dp.grr_estimate([0, 0, 0, 0, 0, 0], 4, LN3)
    np.testing.assert_allclose(got, [15.0, -3.0, -3.0, -3.0], rtol=1e-9, atol=1e-9)


# --- unary encoding ---------------------------------------------------------------------------


def test_sue_probabilities_at_two_ln3():
    # p = e^{ln 3} / (e^{ln 3} + 1) = 3/4, q = 1/4
    p, q = dp.sue_probabilities(2 * LN3)
    assert (p, q) == (close(0.75), close(0.25))


def test_oue_probabilities_at_ln3():
    # p = 1/2, q = 1 / (3 + 1)
    p, q = dp.oue_probabilities(LN3)
    assert (p, q) == (close(0.5), close(0.25))


@pytest.mark.parametrize("epsilon", [0.2, 1.0, LN3, 3.0])
def test_sue_and_oue_probabilities_round_trip_through_ue_epsilon(epsilon):
    assert dp.ue_epsilon(*dp.sue_probabilities(epsilon)) == close(epsilon)
    assert dp.ue_epsilon(*dp.oue_probabilities(epsilon)) == close(epsilon)


def test_ue_epsilon_is_zero_when_p_equals_q():
    # p = q: every bit is reported 1 with the same probability whatever the value, so the
    # output distribution does not depend on the input: ln(p(1-p) / ((1-p)p)) = ln 1 = 0.
    assert dp.ue_epsilon(0.4, 0.4) == 0.0
    assert dp.ue_epsilon(1.0, 1.0) == 0.0  # every bit always 1: constant output


def test_ue_epsilon_is_symmetric_below_the_diagonal():
    # p < q: the largest ratio is the inverse one, |ln(p(1-q) / ((1-p)q))|.
    assert dp.ue_epsilon(0.25, 0.75) == close(LN9)


def test_ue_epsilon_of_oue_at_one_half_one_quarter_is_ln3():
    # ln(.5 * .75 / (.5 * .25)) = ln 3
    assert dp.ue_epsilon(0.5, 0.25) == close(LN3)


@pytest.mark.parametrize(
    ("n", "p", "q", "frequency", "variance"),
    [
        (100, 0.5, 0.25, 0.0, 300.0),  # 100 * .1875 / .0625
        (100, 0.5, 0.25, 0.4, 340.0),  # + 100 * .4 * (1 - .75) / .25 = + 40
        (100, 0.75, 0.25, 0.5, 75.0),  # 100 * .1875 / .25 + 0 (1 - p - q = 0)
        (20, 0.9, 0.3, 1.0, 20 * 0.21 / 0.36 + 20 * (-0.2) / 0.6),  # = 11.667 - 6.667 = 5
    ],
)
def test_ue_variance_formula(n, p, q, frequency, variance):
    assert dp.ue_variance(n, p, q, frequency) == close(variance)


def test_ue_variance_at_zero_frequency_is_the_default():
    assert dp.ue_variance(100, 0.5, 0.25) == close(300.0)


def test_oue_variance_is_four_e_eps_over_e_eps_minus_one_squared():
    # Wang et al. 2017: Var* = n 4e^eps / (e^eps - 1)^2
    eps = 1.4
    p, q = dp.oue_probabilities(eps)
    expected = 250 * 4 * math.exp(eps) / (math.exp(eps) - 1) ** 2
    assert dp.ue_variance(250, p, q) == close(expected)


def test_ue_encode_is_one_hot():
    got = dp.ue_encode([0, 2, 1, 2], 3)
    expected = np.array(
        [[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1]],
        dtype=bool,
    )
    np.testing.assert_array_equal(got, expected)


def test_ue_aggregate_on_a_small_fixed_input():
    # column sums [3, 1], n = 4, p = .75, q = .25: (3 - 1) / .5 = 4, (1 - 1) / .5 = 0
    bits = [[1, 0], [1, 1], [0, 0], [1, 0]]
    np.testing.assert_allclose(dp.ue_aggregate(bits, 0.75, 0.25), [4.0, 0.0], atol=1e-9)


# --- post-processing --------------------------------------------------------------------------


def test_project_counts_clips_and_shifts():
    # Norm-Sub: drop the negative, subtract delta from the rest: 3 - d + 2 - d = 4 -> d = .5
    np.testing.assert_allclose(dp.project_counts([3.0, -1.0, 2.0], 4), [2.5, 0.0, 1.5], atol=1e-9)


def test_project_counts_iterates_until_non_negative():
    # [5, .2, -3] -> clip -> shift .6 -> .2 - .6 < 0 -> only the first stays: [4, 0, 0]
    np.testing.assert_allclose(dp.project_counts([5.0, 0.2, -3.0], 4), [4.0, 0.0, 0.0], atol=1e-9)


def test_project_counts_leaves_valid_counts_unchanged():
    counts = [10.0, 0.0, 5.5, 4.5]
    np.testing.assert_allclose(dp.project_counts(counts, 20), counts, rtol=1e-12, atol=1e-12)


@given(
    estimates=st.lists(st.floats(-1e4, 1e4), min_size=2, max_size=12),
    n=st.integers(1, 10_000),
)
def test_project_counts_is_non_negative_and_sums_to_n(estimates, n):
    got = np.asarray(dp.project_counts(estimates, n), dtype=float)
    assert got.shape == (len(estimates),)
    assert np.all(got >= 0)
    assert got.sum() == pytest.approx(n, rel=1e-9, abs=1e-6)


@given(
    weights=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=12).filter(lambda w: sum(w) > 0.1),
    n=st.integers(1, 10_000),
)
def test_project_counts_is_identity_on_valid_counts(weights, n):
    counts = np.asarray(weights) / np.sum(weights) * n
    got = np.asarray(dp.project_counts(counts, n), dtype=float)
    np.testing.assert_allclose(got, counts, rtol=1e-9, atol=1e-7)


def test_laplace_interval_probability_keeps_its_digits_in_the_far_tail():
    # [loc + 4, loc + 8] at b = 0.1: ½ (e^(-40) - e^(-80)) ≈ 2.12e-18, far below the
    # rounding error of 1 - F (about 1e-16), so a CDF difference would return 0.
    p = dp.laplace_interval_probability(7845, 7849, loc=7841, scale=0.1)
    expected = 0.5 * (math.exp(-40) - math.exp(-80))
    assert p == pytest.approx(expected, rel=1e-9)
    # the mirror image below loc
    p = dp.laplace_interval_probability(7833, 7837, loc=7841, scale=0.1)
    assert p == pytest.approx(expected, rel=1e-9)


# --- discrete Laplace: integer noise for counts (Mironov 2012's fix) --------------------------


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 3.0])
def test_discrete_laplace_pmf_sums_to_one_and_its_ratio_is_exactly_e_to_the_epsilon(epsilon):
    k = np.arange(-2_000, 2_001)
    pmf = dp.discrete_laplace_pmf(k, epsilon)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    ahead = np.arange(0, 50)
    ratio = dp.discrete_laplace_pmf(ahead, epsilon) / dp.discrete_laplace_pmf(ahead + 1, epsilon)
    np.testing.assert_allclose(ratio, math.exp(epsilon), rtol=1e-12)
    # P[0] = (1 − e^(−ε)) / (1 + e^(−ε)) = tanh(ε/2)
    assert dp.discrete_laplace_pmf(0, epsilon) == pytest.approx(math.tanh(epsilon / 2))


def test_discrete_laplace_samples_follow_the_pmf():
    from scipy import stats

    epsilon, n = 0.7, 200_000
    noise = dp.discrete_laplace_mechanism(0, epsilon, size=n, rng=20261122)
    assert noise.dtype.kind == "i"
    edges = np.arange(-8, 9)  # cells -8..8, tails lumped into the end cells
    observed = np.array([np.sum(noise == k) for k in edges], dtype=float)
    observed[0] += np.sum(noise < -8)
    observed[-1] += np.sum(noise > 8)
    expected = dp.discrete_laplace_pmf(edges, epsilon) * n
    tail = dp.discrete_laplace_pmf(np.arange(9, 400), epsilon).sum() * n
    expected[0] += tail
    expected[-1] += tail
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_discrete_laplace_audit_stays_within_epsilon_and_catches_half_the_noise():
    epsilon, n = 1.0, 200_000
    on_d = dp.discrete_laplace_mechanism(1, epsilon, size=n, rng=1)
    on_d_prime = dp.discrete_laplace_mechanism(0, epsilon, size=n, rng=2)
    assert dp.audit_epsilon(on_d, on_d_prime) <= epsilon
    # Broken: noise for 2ε (half the spread) is not ε-DP and the audit says so.
    bad_d = dp.discrete_laplace_mechanism(1, 2 * epsilon, size=n, rng=3)
    bad_d_prime = dp.discrete_laplace_mechanism(0, 2 * epsilon, size=n, rng=4)
    assert dp.audit_epsilon(bad_d, bad_d_prime) > epsilon


def test_approx_group_privacy_grows_delta_along_the_chain_of_neighbours():
    """(ε, δ) over g changes: (gε, δ(1 + e^ε + … + e^{(g−1)ε})). At ε = ln 2 the factors are
    1, 3, 7, 15; δ = 0 is the pure case, g·ε."""
    ln2 = math.log(2)
    for g, factor in ((1, 1), (2, 3), (3, 7), (4, 15)):
        eps, delta = dp.approx_group_privacy(ln2, 1e-5, g)
        assert eps == close(g * ln2) and eps == close(dp.group_privacy(ln2, g))
        assert delta == close(factor * 1e-5)
    assert dp.approx_group_privacy(0.5, 0.0, 3) == (close(1.5), 0.0)
    # a replaced row from an add/remove guarantee: (2ε, (1 + e^ε)δ)
    assert dp.approx_group_privacy(1.0, 1e-6, 2)[1] == close((1 + math.e) * 1e-6)


def test_approx_group_privacy_per_change_is_its_inverse():
    each = dp.approx_group_privacy_per_change(math.log(4), 3e-5, 2)
    assert each == (close(math.log(2)), close(1e-5))  # δ₁ = 3e-5 / (1 + e^{ln 2})
    for eps, delta, g in ((0.01, 1e-5, 2), (1.0, 1e-6, 3), (8.0, 1e-9, 5)):
        back = dp.approx_group_privacy(*dp.approx_group_privacy_per_change(eps, delta, g), g)
        assert back == (close(eps), close(delta))
