"""dp/randomized_response.py: the 95% interval for binary randomized response, from counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import dp


def test_normal_quantile_at_95_percent_is_1_96() -> None:
    # Φ(1.959964) = 0.975, the textbook value.
    assert dp.normal_quantile_two_sided(0.95) == pytest.approx(1.959964, abs=1e-6)


def test_interval_at_a_hand_derived_point() -> None:
    # p = q = 3/4, n = 100, C = 60: r̂ = (0.6 + 0.75 - 1)/0.5 = 0.7.
    # Var = [0.7·0.1875 + 0.3·0.1875]/(100·0.25) = 0.1875/25 = 0.0075; sd = 0.0866025.
    # Half-width 1.959964 · 0.0866025 = 0.169738.
    estimate, low, high = dp.rr_confidence_interval(60, 100, 0.75, 0.75)
    assert estimate == pytest.approx(0.7)
    assert low == pytest.approx(0.7 - 0.169738, abs=1e-6)
    assert high == pytest.approx(0.7 + 0.169738, abs=1e-6)


def test_interval_is_cut_to_zero_one_but_estimate_is_not() -> None:
    # C = 0 of 10 with p = q = 3/4: r̂ = (0 - 0.25)/0.5 = -0.5 (unbiased, unclipped).
    estimate, low, high = dp.rr_confidence_interval(0, 10, 0.75, 0.75)
    assert estimate == pytest.approx(-0.5)
    assert low == 0.0
    assert 0.0 <= high <= 1.0


def test_running_intervals_match_the_single_interval_at_every_step() -> None:
    reports = np.random.default_rng(7).integers(0, 2, size=40)
    run = dp.rr_running_intervals(reports, 5 / 6, 5 / 6)
    assert run["n"].tolist() == list(range(1, 41))
    for k in (1, 2, 17, 40):
        expected = dp.rr_confidence_interval(int(reports[:k].sum()), k, 5 / 6, 5 / 6)
        got = (run["estimate"][k - 1], run["low"][k - 1], run["high"][k - 1])
        assert got == pytest.approx(expected)
        assert run["reported_share"][k - 1] == pytest.approx(reports[:k].mean())


def test_running_intervals_of_no_reports_are_empty() -> None:
    run = dp.rr_running_intervals([], 0.75, 0.75)
    assert all(len(v) == 0 for v in run.values())


def test_coverage_is_close_to_95_percent() -> None:
    # 4,000 surveys of n = 400 with true share 0.3, p = q = 3/4 (exact aggregate draws).
    # Coverage of a Wald interval at this n is ~0.95; the Monte Carlo standard error is
    # sqrt(0.95·0.05/4000) = 0.0034, so 6 standard errors = 0.021.
    n, true_yes = 400, 120
    counts = dp.sample_rr_counts(true_yes, n, 0.75, 0.75, size=4000, rng=11)
    covered = 0
    for c in counts:
        _, low, high = dp.rr_confidence_interval(int(c), n, 0.75, 0.75)
        covered += low <= 0.3 <= high
    assert abs(covered / 4000 - 0.95) < 6 * math.sqrt(0.95 * 0.05 / 4000)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "name"),
    [
        ((5, 4, 0.75, 0.75), {}, ValueError, "yes_count"),
        ((1, 0, 0.75, 0.75), {}, ValueError, "n"),
        ((1, 4, 0.5, 0.5), {}, ValueError, "p + q"),
        ((1, 4, 0.75, 0.75), {"level": 1.0}, ValueError, "level"),
        ((1, 4, "0.75", 0.75), {}, TypeError, "p"),
        ((True, 4, 0.75, 0.75), {}, TypeError, "yes_count"),
    ],
)
def test_bad_inputs_raise_naming_the_parameter(args, kwargs, error, name) -> None:
    with pytest.raises(error, match=name.replace("+", r"\+")):
        dp.rr_confidence_interval(*args, **kwargs)


def test_running_intervals_reject_non_binary_reports() -> None:
    with pytest.raises(ValueError, match="reports"):
        dp.rr_running_intervals([0, 1, 2], 0.75, 0.75)


def test_running_interval_of_eleven_yes_is_not_inverted() -> None:
    """After 11 "yes" at p = q = 0.75 the projector read "101% to 100%"
    (low clipped only from below, high only from above); at p = 0.9, q = 0.6 with all "no",
    high went negative."""
    run = dp.rr_running_intervals([1] * 30, 0.75, 0.75)
    assert run["estimate"][-1] == pytest.approx(1.5)  # unclipped: (1 + 0.75 − 1)/0.5
    # half-width 1.96·√(0.1875/(30·0.25)) = 0.31: the raw low end is 1.19, above 1
    assert run["low"][-1] == run["high"][-1] == 1.0
    assert np.all(run["low"] <= run["high"])
    run = dp.rr_running_intervals([0] * 30, 0.9, 0.6)
    assert run["estimate"][-1] == pytest.approx(-0.8)
    assert np.all(run["high"] >= 0.0) and run["low"][-1] == run["high"][-1] == 0.0


@settings(max_examples=300, deadline=None)
@given(
    reports=st.lists(st.integers(0, 1), min_size=1, max_size=60),
    p=st.floats(0.01, 0.99),
    q=st.floats(0.01, 0.99),
)
def test_running_interval_is_ordered_inside_zero_one_at_every_step(reports, p, q) -> None:
    """Property: for any answer stream and any usable p, q, 0 <= low <= high <= 1 after
    every answer, and each step equals rr_confidence_interval of the first k answers."""
    assume(abs(p + q - 1.0) > 1e-3)
    run = dp.rr_running_intervals(reports, p, q)
    assert np.all(run["low"] >= 0.0) and np.all(run["low"] <= run["high"])
    assert np.all(run["high"] <= 1.0)
    for k in {1, len(reports) // 2 + 1, len(reports)}:
        expected = dp.rr_confidence_interval(int(sum(reports[:k])), k, p, q)
        got = (run["estimate"][k - 1], run["low"][k - 1], run["high"][k - 1])
        assert got == pytest.approx(expected, abs=1e-12)
