"""dp/floating.py: the textbook sampler is the textbook formula in doubles; possible_outputs
inverts it exactly (every output of a count is possible from that count, for the textbook
sampler and for snapping; on a small grid of draws, the outputs it calls possible are
exactly the sampler's image); bad inputs name their parameter."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dp
from dp import floating


def test_the_textbook_sampler_is_the_formula_in_doubles() -> None:
    rng = np.random.default_rng(1)
    draws = rng.integers(1, 2**53, size=2_000)
    for value, b in ((0.0, 1.0), (1.0, 1.0), (7.0, 0.5)):
        got = floating._textbook(value, b, draws)
        for k, y in zip(draws[:200], got[:200], strict=True):
            u = float(k) / 2**53 - 0.5  # exact: k < 2⁵³
            want = value + (-b * math.copysign(1.0, u) * math.log(1.0 - 2.0 * abs(u)))
            assert y == pytest.approx(want, rel=4e-16, abs=1e-300)
    # a seeded draw is the formula at that draw
    outputs = dp.float_laplace(0.0, 1.0, size=5, rng=np.random.default_rng(9))
    k = np.random.default_rng(9).integers(1, 2**53, size=5, dtype=np.int64)
    np.testing.assert_array_equal(outputs, floating._textbook(0.0, 1.0, k))


@pytest.mark.parametrize("mechanism", [floating.TEXTBOOK, floating.SNAPPING])
def test_every_output_is_possible_from_its_own_count(mechanism) -> None:
    bound = 20.0 if mechanism == floating.SNAPPING else None
    for count, b in ((0.0, 1.0), (1.0, 1.0), (1.0, 0.3), (3.0, 10.0)):
        outputs = dp.float_laplace(
            count, b, mechanism=mechanism, bound=bound, size=20_000, rng=np.random.default_rng(2)
        )
        assert dp.possible_outputs(outputs, count, b, mechanism=mechanism, bound=bound).all()


def test_the_inversion_agrees_with_every_draw_of_a_small_grid(monkeypatch) -> None:
    # on a grid of 2¹² draws the whole image of the sampler can be listed: the outputs the
    # binary search calls possible are exactly those in the image
    monkeypatch.setattr(floating, "GRID", 2**12)
    every = floating._textbook(1.0, 1.0, np.arange(1, 2**12))
    image = set(every.tolist())
    near = np.concatenate([every, np.nextafter(every, np.inf), np.nextafter(every, -np.inf)])
    found = dp.possible_outputs(near, 1.0, 1.0)
    np.testing.assert_array_equal(found, [y in image for y in near.tolist()])
    assert not found.all()  # the neighbouring doubles of the image are mostly not in it


def test_bad_inputs_name_their_parameter() -> None:
    with pytest.raises(ValueError, match="mechanism"):
        dp.float_laplace(0.0, 1.0, mechanism="exact")
    with pytest.raises(ValueError, match="bound"):
        dp.float_laplace(0.0, 1.0, mechanism="snapping")
    with pytest.raises(ValueError, match="bound"):
        dp.possible_outputs([0.5], 0.0, 1.0, bound=3.0)
    with pytest.raises(ValueError, match="scale"):
        dp.float_laplace(0.0, 0.0)
    with pytest.raises(ValueError, match="outputs"):
        dp.possible_outputs([np.nan], 0.0, 1.0)


@pytest.mark.parametrize(("epsilon", "bound"), [(1.0, 20.0), (5.0, 20.0), (0.5, 100.0)])
def test_snapping_probabilities_are_the_samplers(epsilon, bound) -> None:
    """The exact output probabilities (draws counted by binary search) sum to 1, are
    positive exactly where possible_outputs says an output can occur, and match 200,000
    draws of the sampler (chi-square over the outputs expected 5 times or more)."""
    scale = 1 / epsilon
    outputs, probabilities = dp.snapping_probabilities(0.0, scale, bound)
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-15)
    possible = dp.possible_outputs(outputs, 0.0, scale, mechanism="snapping", bound=bound)
    assert np.array_equal(probabilities > 0, possible)
    draws = dp.float_laplace(0.0, scale, mechanism="snapping", bound=bound, size=200_000, rng=3)
    counts = np.array([np.sum(draws == y) for y in outputs])
    assert counts.sum() == draws.size  # every draw is one of the outputs listed
    expected = probabilities * draws.size
    kept = expected >= 5
    observed = np.append(counts[kept], counts[~kept].sum())
    wanted = np.append(expected[kept], expected[~kept].sum())
    assert stats.chisquare(observed, wanted).pvalue > 1e-6


def test_snapping_on_the_grid_is_not_pure_where_the_noise_cannot_reach() -> None:
    """With U on the 2⁻⁵³ grid the noise stops at ±36.7·b: at ε = 5, B = 20, outputs in
    (7.25, 8.25] come from count 1 only, so no ε makes δ zero; δ is at least their mass
    under count 1, and the exact δ counts it."""
    scale, bound = 0.2, 20.0
    outputs, from_one = dp.snapping_probabilities(1.0, scale, bound)
    never_from_zero = ~dp.possible_outputs(outputs, 0.0, scale, mechanism="snapping", bound=bound)
    one_sided = outputs[never_from_zero & (from_one > 0)]
    assert one_sided.min() > 7.25 and one_sided.max() <= 8.25
    mass = from_one[never_from_zero].sum()
    for epsilon in (5.0, 50.0):
        assert dp.snapping_delta(0.0, 1.0, scale, bound, epsilon) >= mass > 0
    # where the clamp cuts the noise before it ends, both counts reach every output
    outputs, p = dp.snapping_probabilities(0.0, 1.0, 20.0)
    _, q = dp.snapping_probabilities(1.0, 1.0, 20.0)
    assert ((p > 0) == (q > 0)).all()
