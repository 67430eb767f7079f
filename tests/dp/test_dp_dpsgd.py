"""dp/dpsgd.py: per-example clipping, and DP-SGD's accounting through dp_accounting (the
pinned facts 1.515 with PLD and 1.712 with RDP), the noise-multiplier search's promise, and
bad inputs."""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest

import dp


def test_clip_rows_scales_long_rows_to_c_and_keeps_short_and_zero_rows():
    g = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0], [-6.0, 8.0]])
    clipped = dp.clip_rows(g, 1.0)
    np.testing.assert_allclose(clipped[0], [0.6, 0.8])
    np.testing.assert_allclose(clipped[1], [0.3, 0.4])
    np.testing.assert_array_equal(clipped[2], [0.0, 0.0])
    np.testing.assert_allclose(np.linalg.norm(clipped, axis=1), [1.0, 0.5, 0.0, 1.0])
    np.testing.assert_array_equal(dp.clip_rows(g, math.inf), g)  # C = ∞: no clipping
    rng = np.random.default_rng(0)
    many = rng.normal(size=(1_000, 7)) * rng.exponential(3.0, size=(1_000, 1))
    out = dp.clip_rows(many, 2.5)
    assert np.all(np.linalg.norm(out, axis=1) <= 2.5 + 1e-12)
    # directions are kept: each clipped row is a non-negative multiple of the original
    cos = np.sum(out * many, axis=1) / (np.linalg.norm(out, axis=1) * np.linalg.norm(many, axis=1))
    np.testing.assert_allclose(cos, 1.0)


def test_a_step_without_noise_is_the_clipped_sum_over_the_expected_batch_and_draws_nothing():
    g = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
    rng = np.random.default_rng(5)
    state = rng.bit_generator.state
    step = dp.dpsgd_step(g, 1.0, 0.0, expected_batch_size=2.0, rng=rng)
    np.testing.assert_allclose(step, [(0.6 + 0.3) / 2, (0.8 + 0.4) / 2])
    assert rng.bit_generator.state == state  # σ = 0 draws nothing: plain clipped descent
    np.testing.assert_array_equal(dp.dpsgd_step(g, math.inf, 0.0), g.sum(axis=0))  # C = ∞
    # an empty Poisson batch: a zero sum, then only noise
    np.testing.assert_array_equal(dp.dpsgd_step(np.zeros((0, 3)), 1.0, 0.0), np.zeros(3))


def test_one_person_moves_the_noiseless_sum_by_at_most_c_in_l2():
    """Add/remove neighbours: the sum of clipped gradients moves by at most C (the Gaussian
    mechanism's L2 sensitivity); without clipping one long gradient moves it by its length."""
    rng = np.random.default_rng(1)
    batch = rng.normal(size=(50, 6)) * 3
    outlier = np.full((1, 6), 40.0)  # length 98
    with_them = np.vstack([batch, outlier])
    for c in (0.5, 1.0, 4.0):
        moved = dp.dpsgd_step(with_them, c, 0.0) - dp.dpsgd_step(batch, c, 0.0)
        assert np.linalg.norm(moved) == pytest.approx(c)
    unclipped = dp.dpsgd_step(with_them, math.inf, 0.0) - dp.dpsgd_step(batch, math.inf, 0.0)
    assert np.linalg.norm(unclipped) == pytest.approx(np.linalg.norm(outlier))


def test_the_steps_noise_is_normal_with_sd_sigma_c_over_the_expected_batch():
    """20,000 coordinates of (step − clipped mean): KS against N(0, (σC/B)²), and a wrong
    scale (σ/B, the noise without C) is rejected by the same test."""
    from scipy import stats

    g = np.array([[3.0, 4.0, 0.0, 1.0], [0.3, 0.4, 2.0, 0.0]])
    sigma, c, b = 1.5, 2.0, 4.0
    clean = dp.dpsgd_step(g, c, 0.0, expected_batch_size=b)
    rng = np.random.default_rng(7)
    noise = np.concatenate(
        [dp.dpsgd_step(g, c, sigma, expected_batch_size=b, rng=rng) - clean for _ in range(5_000)]
    )
    assert stats.kstest(noise, "norm", args=(0.0, sigma * c / b)).pvalue > 1e-3
    assert stats.kstest(noise, "norm", args=(0.0, sigma / b)).pvalue < 1e-6
    # and seeded: the same rng gives the same step
    again = dp.dpsgd_step(g, c, sigma, expected_batch_size=b, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(
        again, dp.dpsgd_step(g, c, sigma, expected_batch_size=b, rng=np.random.default_rng(3))
    )


def test_the_noise_multiplier_is_dp_accountings_calibration():
    """dpsgd_noise_multiplier is calibrate_dp_mechanism's answer (within its tolerance), not
    a search of its own: the same σ as the library called directly on a wide bracket."""
    from dp_accounting import (
        GaussianDpEvent,
        PoissonSampledDpEvent,
        SelfComposedDpEvent,
        mechanism_calibration,
        rdp,
    )

    ours = dp.dpsgd_noise_multiplier(1.0, 0.01, 300, 1e-5, accountant="rdp")
    direct = mechanism_calibration.calibrate_dp_mechanism(
        rdp.RdpAccountant,
        lambda s: SelfComposedDpEvent(PoissonSampledDpEvent(0.01, GaussianDpEvent(s)), 300),
        1.0,
        1e-5,
        mechanism_calibration.ExplicitBracketInterval(0.1, 100.0),
        tol=1e-7,
    )
    assert ours == pytest.approx(direct, rel=5e-4)


def test_the_design_facts_reproduce():
    assert dp.dpsgd_epsilon(1.1, 0.01, 1000, 1e-5) == pytest.approx(1.515, abs=5e-4)
    assert dp.dpsgd_epsilon(1.1, 0.01, 1000, 1e-5, accountant="rdp") == pytest.approx(
        1.712, abs=5e-4
    )


def test_more_noise_fewer_steps_and_a_smaller_rate_all_spend_less():
    base = dp.dpsgd_epsilon(1.0, 0.02, 500, 1e-5, accountant="rdp")
    assert dp.dpsgd_epsilon(2.0, 0.02, 500, 1e-5, accountant="rdp") < base
    assert dp.dpsgd_epsilon(1.0, 0.02, 100, 1e-5, accountant="rdp") < base
    assert dp.dpsgd_epsilon(1.0, 0.005, 500, 1e-5, accountant="rdp") < base
    # RDP's bound is looser than PLD's
    assert dp.dpsgd_epsilon(1.0, 0.02, 500, 1e-5) < base


@pytest.mark.slow
@pytest.mark.parametrize(("target", "accountant"), [(1.0, "rdp"), (3.0, "rdp"), (2.0, "pld")])
def test_the_noise_multiplier_meets_the_target_and_no_less_would(target, accountant):
    q, steps, delta = 0.01, 1000, 1e-5
    sigma = dp.dpsgd_noise_multiplier(target, q, steps, delta, accountant=accountant)
    assert dp.dpsgd_epsilon(sigma, q, steps, delta, accountant=accountant) <= target
    lower = sigma * (1 - 1e-3)
    assert dp.dpsgd_epsilon(lower, q, steps, delta, accountant=accountant) > target


def test_an_unreachable_target_raises():
    with pytest.raises(ValueError, match="epsilon"):
        dp.dpsgd_noise_multiplier(1e-6, 1.0, 1000, 1e-5, accountant="rdp")


def test_the_pld_accountant_refuses_what_would_take_gigabytes():
    """dp-accounting's PLD accountant at σ = 0.1 (q = 0.01, 100 steps) took 815 MB and 11 s,
    at σ = 0.001 a MemoryError asking 38 GiB, at σ = 0.4, q = 1 and 10,000 steps 3.5 GB; the
    search for σ at ε = 200 a minute and 1.3 GB. Each is refused at once, with the way out."""
    with pytest.raises(ValueError, match='noise_multiplier must be at least 0.3.*"rdp"'):
        dp.dpsgd_epsilon(0.1, 0.01, 100, 1e-5)
    with pytest.raises(ValueError, match='here 34,487.*"rdp"'):
        dp.dpsgd_epsilon(0.4, 1.0, 10_000, 1e-5)
    with pytest.raises(ValueError, match='epsilon = 200 needs a noise multiplier below 0.3.*"rdp"'):
        dp.dpsgd_noise_multiplier(200.0, 0.01, 100, 1e-5)
    assert dp.dpsgd_epsilon(0.1, 0.01, 100, 1e-5, accountant="rdp") > 100  # RDP answers


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dp.clip_rows([1.0, 2.0], 1.0), "matrix"),
        (lambda: dp.clip_rows([[1.0, float("nan")]], 1.0), "matrix"),
        (lambda: dp.clip_rows([[1.0, 2.0]], 0.0), "clip_norm"),
        (lambda: dp.clip_rows([[1.0, 2.0]], -1.0), "clip_norm"),
        (lambda: dp.dpsgd_epsilon(0.0, 0.01, 10, 1e-5), "noise_multiplier"),
        (lambda: dp.dpsgd_epsilon(1.0, 0.0, 10, 1e-5), "sample_rate"),
        (lambda: dp.dpsgd_epsilon(1.0, 1.5, 10, 1e-5), "sample_rate"),
        (lambda: dp.dpsgd_epsilon(1.0, 0.01, 0, 1e-5), "steps"),
        (lambda: dp.dpsgd_epsilon(1.0, 0.01, 10, 0.0), "delta"),
        (lambda: dp.dpsgd_epsilon(1.0, 0.01, 10, 1e-5, accountant="moments"), "accountant"),
        (lambda: dp.dpsgd_noise_multiplier(0.0, 0.01, 10, 1e-5), "epsilon"),
    ],
)
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


def test_a_large_sample_rate_logs_nothing_and_keeps_dp_accountings_value(caplog):
    """At q = 0.5 the RDP accountant leaves out fractional orders it cannot evaluate and logs
    "failed to converge" through absl; dp drops only that line, and the ε is unchanged."""
    from dp_accounting import GaussianDpEvent, PoissonSampledDpEvent, SelfComposedDpEvent, rdp

    with caplog.at_level(logging.WARNING, logger="absl"):
        ours = dp.dpsgd_epsilon(1.0, 0.5, 100, 1e-5, accountant="rdp")
    assert not [r for r in caplog.records if "failed to converge" in r.getMessage()]
    direct = rdp.RdpAccountant()
    direct.compose(SelfComposedDpEvent(PoissonSampledDpEvent(0.5, GaussianDpEvent(1.0)), 100))
    assert ours == direct.get_epsilon(1e-5)
    # still an upper bound at least as large as the tighter PLD accountant's
    assert ours >= dp.dpsgd_epsilon(1.0, 0.5, 100, 1e-5, accountant="pld")
    # and other absl warnings still get through
    with caplog.at_level(logging.WARNING, logger="absl"):
        logging.getLogger("absl").warning("something else")
    assert any(r.getMessage() == "something else" for r in caplog.records)
