"""AppTest for lessons/renyi/page.py: the three Rényi curves against their closed forms and
their limits (KL as α → 1, pure ε as α → ∞); k Gaussian releases, whose RDP account is
dp-accounting's RdpAccountant's over the same orders and never below the exact ε, and the
prediction marked from the sliders; a DP-SGD run by four accountants, RDP against
dp-accounting's own and PLD from the written table; the words computed from the state."""

from __future__ import annotations

import math

import numpy as np
import pytest
from dp_accounting import GaussianDpEvent, SelfComposedDpEvent, rdp

import apptest_helpers as helpers
import dp
from lessons.renyi import model as lesson
from ui import accountants, text

PAGE = "renyi/page.py"


def kl(mechanism: str, epsilon: float, sigma: float) -> float:
    """The Kullback–Leibler divergence between the mechanism's outputs on neighbours, in
    closed form (the Rényi divergence's limit at α = 1)."""
    if mechanism == lesson.GAUSSIAN:
        return 1 / (2 * sigma**2)
    if mechanism == lesson.LAPLACE:
        return epsilon + math.exp(-epsilon) - 1  # b = 1/ε, Δ = 1
    p = math.exp(epsilon) / (1 + math.exp(epsilon))
    return (2 * p - 1) * epsilon  # p ln(p/(1 − p)) + (1 − p) ln((1 − p)/p)


@pytest.mark.parametrize(
    ("alpha", "epsilon", "sigma"), [(4.0, 1.0, 2.0), (1.25, 0.25, 0.5), (64.0, 4.0, 5.0)]
)
def test_the_curves_and_metrics_are_dps_and_the_gaussians_is_a_line(alpha, epsilon, sigma) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="rd_alpha").set_value(alpha)
    at.select_slider(key="rd_eps").set_value(epsilon)
    at.select_slider(key="rd_sigma").set_value(sigma).run()
    assert not at.exception
    shown = helpers.metrics(at)
    assert shown["Gaussian: ε(α)"] == text.number(alpha / (2 * sigma**2), 3)
    keep = dp.rr_keep_probability(epsilon)
    assert shown["Laplace: ε(α)"] == text.number(dp.rdp_laplace(alpha, 1 / epsilon), 3)
    assert shown["Randomized response: ε(α)"] == text.number(
        dp.rdp_randomized_response(alpha, keep), 3
    )
    title = f"ε(α) at ε = {text.number(epsilon)}, σ = {text.number(sigma)}"
    frames = helpers.frames_of(helpers.chart_titled(at, title))
    curves = frames["curves"]
    gaussian = curves[curves["mechanism"] == lesson.GAUSSIAN]
    np.testing.assert_allclose(gaussian["rdp"], gaussian["alpha"] / (2 * sigma**2), rtol=1e-12)
    for name in (lesson.LAPLACE, lesson.RR):
        one = curves[curves["mechanism"] == name]
        values = one["rdp"].to_numpy()
        assert np.all(np.diff(values) > 0)  # rising in α …
        assert np.all(values < epsilon)  # … towards its pure ε, never past it
    assert frames["truth"]["x"].tolist() == [alpha]
    assert frames["mark"]["rdp"].tolist() == pytest.approx(
        [
            alpha / (2 * sigma**2),
            dp.rdp_laplace(alpha, 1 / epsilon),
            dp.rdp_randomized_response(alpha, keep),
        ]
    )


@pytest.mark.parametrize("epsilon", lesson.EPSILONS)
@pytest.mark.parametrize("sigma", lesson.SIGMAS)
def test_near_alpha_one_the_curves_are_the_kl_divergence_to_three_digits(epsilon, sigma) -> None:
    near = lesson.at_orders(lesson.DEFAULT_ORDER, epsilon, sigma).near_one
    for name in lesson.MECHANISMS:
        assert text.number(near[name], 3) == text.number(kl(name, epsilon, sigma), 3), name


def test_the_limits_are_said_in_this_states_numbers() -> None:
    at = helpers.run_lesson(PAGE, rd_eps="0.5", rd_sigma="1")
    words = helpers.prose(at)
    far = lesson.at_orders(4.0, 0.5, 1.0).far
    assert f"the Laplace is at {text.number(far[lesson.LAPLACE], 3)}" in words
    assert "on their way to ε = 0.5" in words
    assert f"α/(2σ²) = {text.number(256 / 2, 3)} at α = 256" in words
    # at α = 256 the Laplace and RR are within 2% of their pure ε, below it
    for name in (lesson.LAPLACE, lesson.RR):
        assert 0.98 * 0.5 < far[name] < 0.5


def reference_rdp(sigma: float, k: int) -> float:
    """dp-accounting's RdpAccountant on k Gaussian releases, over the lesson's orders."""
    accountant = rdp.RdpAccountant(orders=list(lesson.RDP_ORDERS))
    accountant.compose(SelfComposedDpEvent(GaussianDpEvent(sigma), k))
    return accountant.get_epsilon(lesson.DELTA)


@pytest.mark.parametrize(
    ("sigma", "k"), [(10.0, 100), (2.0, 1), (2.0, 1_000), (50.0, 1_000), (3.0, 20)]
)
def test_k_releases_rdp_is_dp_accountings_and_no_account_is_below_the_exact_epsilon(sigma, k):
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="rd_compose_sigma").set_value(sigma)
    at.select_slider(key="rd_k").set_value(k).run()
    assert not at.exception
    found = lesson.composed(sigma, k)
    assert found.epsilon[lesson.RENYI] == pytest.approx(reference_rdp(sigma, k), rel=1e-9)
    exact = dp.gdp_epsilon(math.sqrt(k) / sigma, lesson.DELTA)
    assert found.epsilon[lesson.EXACT] == exact
    for name in lesson.COMPOSITIONS:
        assert found.epsilon[name] >= exact * (1 - 1e-9), name
    # for the Gaussian, zCDP's tight conversion is RDP's over a continuous α: never above it
    assert found.tight_zcdp <= found.epsilon[lesson.RENYI] * (1 + 1e-9)
    assert found.tight_zcdp == pytest.approx(found.epsilon[lesson.RENYI], rel=0.01)
    shown = helpers.metrics(at)
    for name in (*lesson.COMPOSITIONS, lesson.EXACT):
        assert shown[name] == text.number(found.epsilon[name], 3), name
    # basic composition at k = 1 is the exact ε itself
    if k == 1:
        assert found.epsilon[lesson.BASIC] == pytest.approx(exact, rel=1e-12)


def test_rdps_best_order_falls_as_releases_grow() -> None:
    orders = [order for _, order in lesson.best_orders(lesson.DEFAULT_COMPOSE_SIGMA)]
    assert orders == sorted(orders, reverse=True) and orders[0] > orders[-1]


def test_the_prediction_is_marked_from_the_sliders() -> None:
    for sigma in (lesson.DEFAULT_COMPOSE_SIGMA, 2.0):
        at = helpers.run_lesson(PAGE, rd_compose_sigma=f"{sigma:g}")
        best = lesson.best_method(sigma, lesson.PREDICT_RELEASES)
        right = lesson.PREDICT_OPTIONS.index(best)
        wrong = (right + 1) % len(lesson.PREDICT_OPTIONS)
        helpers.answer_quiz(at, "renyi_predict", 0, wrong)
        assert at.error, "a wrong answer is marked wrong"
        helpers.answer_quiz(at, "renyi_predict", 0, right)
        assert at.success[-1].value.startswith("Right.")
    # the answer is computed: the smallest of the four after 100 releases
    found = lesson.composed(10.0, 100).epsilon
    values = sorted(found[name] for name in lesson.PREDICTED)
    if values[1] > 1.01 * values[0]:
        assert found[lesson.best_method(10.0, 100)] == values[0]


def dp_accounting_rdp(sigma: float, q: float, steps: int) -> float:
    return dp.dpsgd_epsilon(sigma, q, steps, lesson.DELTA, accountant="rdp")


@pytest.mark.parametrize(
    ("sigma", "q", "steps"), [(1.1, 0.01, 1_000), (0.7, 0.1, 10), (2.0, 0.01, 10_000)]
)
def test_four_accountants_on_a_dpsgd_run(sigma, q, steps) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="rd_step_sigma").set_value(sigma)
    at.select_slider(key="rd_q").set_value(q)
    at.select_slider(key="rd_steps").set_value(steps).run()
    assert not at.exception
    found = lesson.accounted(sigma, q, steps)
    # PLD is the written table's, which tests/ui/test_accountants.py recomputes
    assert found[lesson.PLD] == accountants.epsilon(sigma, q, steps)[0]
    # RDP at whole orders: dp-accounting's, which also uses fractional orders, is at most it
    theirs = dp_accounting_rdp(sigma, q, steps)
    assert theirs * (1 - 1e-9) <= found[lesson.RENYI] <= 1.05 * theirs
    # every account is an upper bound: none below PLD's (tight up to its discretisation)
    for name in lesson.ACCOUNTANTS:
        assert found[name] >= found[lesson.PLD] * (1 - 1e-3), name
    shown = helpers.metrics(at)
    for name in lesson.ACCOUNTANTS:
        assert shown[lesson.run_label(name)] == text.number(found[name], 3), name
    ratio = found[lesson.RENYI] / found[lesson.PLD]
    words = helpers.prose(at)
    assert f"RDP's is {text.number(ratio, 3)} times PLD's" in words
    # the DP-SGD lesson's RDP is dp-accounting's: the page says what its whole orders cost
    if text.number(theirs) != text.number(found[lesson.RENYI]):
        assert (
            f"also tries fractional orders below 11 and proves {text.number(theirs)}: the whole "
            f"orders of the formula above cost {text.number(found[lesson.RENYI] - theirs)} here."
        ) in words
    else:
        assert "fractional orders" not in words


def test_basic_composition_of_a_step_is_amplified_gaussian() -> None:
    """The basic account, recomputed by hand: each of T steps at δ/T after sampling."""
    sigma, q, steps = 1.1, 0.01, 100
    per_step = lesson.DELTA / steps
    before = dp.gdp_epsilon(1 / sigma, per_step / q)
    amplified = math.log1p(q * math.expm1(before))
    assert lesson.accounted(sigma, q, steps)[lesson.BASIC] == pytest.approx(steps * amplified)


def test_the_code_rebuilds_the_charts() -> None:
    at = helpers.run_lesson(PAGE)
    code = helpers.code_texts(at)
    assert any("dp.rdp_laplace(alphas" in block for block in code)
    assert any("dp.rdp_to_dp(orders" in block for block in code)
    assert any("dp.rdp_subsampled_gaussian(orders, sigma, q)" in block for block in code)


def test_every_setting_stays_finite_and_inside_its_charts_axes() -> None:
    """Each slider's every value: a curve a fixed axis holds, no value past e^709."""
    for epsilon in lesson.EPSILONS:
        for sigma in lesson.SIGMAS:
            values = lesson.divergence_curves(epsilon, sigma)["rdp"]
            low, high = lesson.RDP_DOMAIN
            assert values.between(low, high).all(), (epsilon, sigma)
    for sigma in lesson.COMPOSE_SIGMAS:
        values = lesson.composition_curves(sigma)["epsilon"]
        assert values.between(*lesson.COMPOSED_DOMAIN).all(), sigma
    for sigma in lesson.STEP_SIGMAS:
        for q in lesson.RATES:
            values = lesson.accountant_curves(sigma, q)["epsilon"]
            assert values.between(*lesson.ACCOUNTED_DOMAIN).all(), (sigma, q)


@pytest.mark.parametrize(("sigma", "k"), [(10.0, 100), (50.0, 1_000), (2.0, 1)])
def test_whether_advanced_composition_helps_is_said_from_the_numbers(sigma, k) -> None:
    found = lesson.composed(sigma, k).epsilon
    words = lesson.advanced_words(sigma, k)
    helps = found[lesson.ADVANCED] < found[lesson.BASIC]
    assert ("pays off" in words) == helps
    assert text.number(found[lesson.ADVANCED], 3) in words


def test_why_advanced_composition_loses_is_the_reason_that_holds() -> None:
    # Every state of section 2: where advanced composition loses, the words blame the term of
    # ε·√(2k ln(1/δ′)) + k·ε(e^ε − 1) that is really at fault, computed here term by term.
    # (At k = 1 it once blamed the e^ε term, which was 0.15 of a bound of 1.9.)
    seen = set()
    for sigma in lesson.COMPOSE_SIGMAS:
        for k in lesson.RELEASES:
            words = lesson.advanced_words(sigma, k)
            found = lesson.composed(sigma, k).epsilon
            assert "here" not in words.split(":")[0]  # the page already says "Here"
            assert words.startswith("advanced composition proves")  # "**Here** advanced …"
            if found[lesson.ADVANCED] < found[lesson.BASIC]:
                continue
            step = lesson.gaussian_step_epsilon(sigma, lesson.DELTA / (2 * k))
            slack = lesson.DELTA / 2
            root = step * math.sqrt(2 * k * math.log(1 / slack))
            linear = k * step * math.expm1(step)
            assert root + linear >= k * step  # the formula itself loses to k·ε
            if linear >= root:
                assert "too large for its" in words, (sigma, k)
                seen.add("linear")
            elif root >= k * step:
                assert f"with {k:,} release" in words and "≈ 24 releases" in words, (sigma, k)
                seen.add("root")
            else:
                assert "each below k·ε, but together they are not" in words, (sigma, k)
                seen.add("both")
            assert "δ/(2k), not δ/k" in words  # why the fallback sits above basic
    assert seen == {"linear", "root", "both"}


def test_the_two_neighbours_outputs_show_a_bounded_and_an_unbounded_ratio() -> None:
    """The Laplace's densities on neighbours differ by at most e^ε everywhere (pure ε); the
    Gaussian's ratio passes any bound in the tails (no pure ε): what section 1 says."""
    at = helpers.run_lesson(PAGE, rd_eps="1", rd_sigma="1")
    frame = helpers.frames_of(helpers.chart_titled(at, "Outputs on neighbours, ε = 1, σ = 1"))[
        "curves"
    ]

    def density(curve: str) -> np.ndarray:
        return frame[frame["curve"] == curve]["density"].to_numpy()

    y = frame[frame["curve"] == lesson.DISTRIBUTIONS[0]]["output"].to_numpy()
    np.testing.assert_allclose(
        density(f"{lesson.LAPLACE} {lesson.ON_D_PRIME}"), np.exp(-np.abs(y - 1)) / 2, rtol=1e-12
    )
    laplace = density(f"{lesson.LAPLACE} {lesson.ON_D_PRIME}") / density(
        f"{lesson.LAPLACE} {lesson.ON_D}"
    )
    assert laplace.max() <= math.e * (1 + 1e-12) and laplace.min() >= 1 / math.e * (1 - 1e-12)
    gaussian = density(f"{lesson.GAUSSIAN} {lesson.ON_D_PRIME}") / density(
        f"{lesson.GAUSSIAN} {lesson.ON_D}"
    )
    assert gaussian.max() > math.e**5  # e^(y − 1/2) at y = 6: e^5.5
    assert "reports a true yes as yes with probability p = 0.731" in helpers.prose(at)
