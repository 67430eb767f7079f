"""dp.rr_likelihood_ratios and dp.rr_count_std: exact values at hand-derived points, the
link ε = max |ln ratio| on a grid, and bad inputs."""

import math

import numpy as np
import pytest

import dp


def test_fair_coins_give_ln3_for_both_reports():
    # p = q = 3/4: a yes is (3/4)/(1/4) = 3 times as likely from a true yes; same for a no.
    assert dp.rr_likelihood_ratios(0.75, 0.75) == pytest.approx((math.log(3), math.log(3)))
    assert dp.rr_likelihood_ratios(0.75, 0.75, log=False) == (3.0, 3.0)


def test_asymmetric_p_q_protects_the_reported_yes_better():
    # p = 0.7, q = 0.6: yes 0.7/0.4 = 1.75, no 0.6/0.3 = 2; ε = ln 2 comes from the "no".
    ln_yes, ln_no = dp.rr_likelihood_ratios(0.7, 0.6)
    assert ln_yes == pytest.approx(math.log(1.75))
    assert ln_no == pytest.approx(math.log(2.0))
    assert max(abs(ln_yes), abs(ln_no)) == pytest.approx(dp.rr_epsilon(0.7, 0.6))


def test_below_half_the_logs_are_negative_with_the_same_size():
    # p = q = 1/4: a yes is (1/4)/(3/4) = 1/3 as likely from a true yes: ln(1/3) = -ln 3.
    assert dp.rr_likelihood_ratios(0.25, 0.25) == pytest.approx((-math.log(3), -math.log(3)))
    assert dp.rr_likelihood_ratios(0.25, 0.25, log=False) == pytest.approx((1 / 3, 1 / 3))


def test_uninformative_mechanism_has_ratio_one():
    # p + q = 1: P[yes | yes] = p = 1 - q = P[yes | no], both ratios are 1.
    assert dp.rr_likelihood_ratios(0.3, 0.7) == pytest.approx((0.0, 0.0))
    assert dp.rr_likelihood_ratios(0.3, 0.7, log=False) == pytest.approx((1.0, 1.0))


def test_unbounded_and_impossible_reports():
    # q = 1: a true no is never reported yes, so a yes proves a true yes: ratio inf;
    # a no is 1 / (1 - 1/2) = 2 times as likely from a true no.
    assert dp.rr_likelihood_ratios(0.5, 1.0, log=False) == (math.inf, 2.0)
    assert dp.rr_likelihood_ratios(0.5, 1.0) == (math.inf, pytest.approx(math.log(2)))
    # p = 0, q = 1/2: a yes only ever comes from a true no: ratio 0, ln -inf.
    assert dp.rr_likelihood_ratios(0.0, 0.5) == (-math.inf, pytest.approx(-math.log(2)))
    # p = 0, q = 1: "yes" never happens (0/0 -> ratio 1); "no" always does (1/1).
    assert dp.rr_likelihood_ratios(0.0, 1.0) == (0.0, 0.0)
    assert dp.rr_likelihood_ratios(0.0, 1.0, log=False) == (1.0, 1.0)
    # p = q = 1: both reports are certain proof.
    assert dp.rr_likelihood_ratios(1.0, 1.0) == (math.inf, math.inf)


def test_epsilon_is_the_largest_absolute_log_ratio_on_a_grid():
    grid = np.linspace(0.0, 1.0, 41)
    p, q = np.meshgrid(grid, grid)
    ln_yes, ln_no = dp.rr_likelihood_ratios(p, q)
    assert ln_yes.shape == ln_no.shape == p.shape
    expected = dp.rr_epsilon(p, q)
    got = np.maximum(np.abs(ln_yes), np.abs(ln_no))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(expected))
    finite = np.isfinite(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-12, atol=1e-12)


def test_plain_ratios_are_the_exponentials_of_the_logs():
    grid = np.linspace(0.05, 0.95, 19)
    p, q = np.meshgrid(grid, grid)
    logs = dp.rr_likelihood_ratios(p, q)
    plain = dp.rr_likelihood_ratios(p, q, log=False)
    for lg, pl in zip(logs, plain, strict=True):
        np.testing.assert_allclose(np.exp(lg), pl, rtol=1e-12)


@pytest.mark.parametrize(
    ("p", "q", "name"), [(1.5, 0.5, "p"), (0.5, -0.1, "q"), (math.nan, 0.5, "p")]
)
def test_likelihood_ratios_reject_bad_probabilities(p, q, name):
    with pytest.raises(ValueError, match=name):
        dp.rr_likelihood_ratios(p, q)


def test_likelihood_ratios_reject_strings():
    with pytest.raises(TypeError, match="p"):
        dp.rr_likelihood_ratios("0.5", 0.5)


def test_count_std_at_the_fair_coin_sales_point():
    # r = 3,650/32,561, p = q = 3/4: Var[r̂] = (3/16) / (n · 1/4) = 3/(4n), so
    # SD[n r̂] = n · sqrt(3/(4n)) = sqrt(3n/4) = sqrt(24,420.75) ≈ 156.27.
    n = 32_561
    assert dp.rr_count_std(3_650 / n, n, 0.75, 0.75) == pytest.approx(math.sqrt(0.75 * n))


def test_count_std_is_n_times_the_root_of_rr_variance():
    assert dp.rr_count_std(0.3, 500, 0.8, 0.6) == pytest.approx(
        500 * math.sqrt(dp.rr_variance(0.3, 500, 0.8, 0.6))
    )


def test_count_std_refuses_an_uninformative_mechanism():
    with pytest.raises(ValueError, match="p"):
        dp.rr_count_std(0.1, 100, 0.4, 0.6)


# --- where the coins pull the reported share --------------------------------------------------


@pytest.mark.parametrize(("p", "q"), [(0.75, 0.75), (0.9, 0.6), (0.3, 0.2), (1.0, 0.5)])
def test_the_reported_share_is_pulled_toward_the_fixed_point(p, q):
    star = dp.rr_pull_point(p, q)
    assert star == pytest.approx((1 - q) / (2 - p - q))
    for r in (0.0, 0.2, 0.7, 1.0):
        expected_report = r * p + (1 - r) * (1 - q)
        assert expected_report - star == pytest.approx((p + q - 1) * (r - star))
    if p == q:
        assert star == pytest.approx(0.5)


def test_the_pull_is_toward_half_only_for_symmetric_coins():
    assert dp.rr_pull_point(0.9, 0.6) == pytest.approx(0.8)  # 0.4 / 0.5
    with pytest.raises(ValueError, match="p and q"):
        dp.rr_pull_point(1.0, 1.0)
