"""AppTest for lessons/subsampling/page.py: amplification against its closed form, the
prediction marked from the sliders, DP-SGD's step chain recomputed, the trade-off curves
against their definitions and the (ε, δ) line touching G_μ, the attack read on a release
that is exactly μ-GDP, the accountants' table recomputed with dp-accounting (and equal to
the DP-SGD lesson's where they overlap), the CLT's verdicts from the numbers, the links, the
code and the questions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import apptest_helpers as helpers
import dp
from lessons.dpsgd import tables as dpsgd_tables
from lessons.subsampling import model as lesson
from lessons.subsampling import tables
from ui import accountant_table, dpsgd_setup, text

PAGE = "subsampling/page.py"


@pytest.mark.parametrize(("epsilon", "q"), [(1.0, 0.01), (5.0, 0.01), (0.1, 0.5), (10.0, 1.0)])
def test_amplification_is_its_closed_form(epsilon, q) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ss_eps").set_value(epsilon)
    at.select_slider(key="ss_q").set_value(q).run()
    assert not at.exception
    want = math.log(1 + q * (math.exp(epsilon) - 1))
    assert helpers.metrics(at)["ε' on the sample"] == text.number(want)
    chart = helpers.chart_titled(at, f"ε = {text.number(epsilon)} on a sample", prefix=True)
    curves = helpers.frames_of(chart)
    # the diamond's words, in the title (beside it, ε's line or q·ε's crossed them)
    assert helpers.title_of(helpers.spec_of(chart)).endswith(
        f"◆ at q = {text.number(q)}: ε' = {text.number(want)}"
    )
    frame = curves["curves"]
    sampled = frame[frame["curve"] == lesson.AMPLIFIED]
    np.testing.assert_allclose(
        sampled["epsilon"], np.log1p(sampled["q"] * np.expm1(epsilon)), rtol=1e-12
    )
    # never below q·ε: ln(1 + qx) is concave in q and meets q·ε at q = 0 and q = 1
    thumb = frame[frame["curve"] == lesson.RULE_OF_THUMB]["epsilon"].to_numpy()
    assert np.all(sampled["epsilon"].to_numpy() >= thumb * (1 - 1e-12))
    assert curves["mark"]["epsilon"].iloc[0] == pytest.approx(want, rel=1e-12)


def test_the_prediction_is_marked_from_the_sliders() -> None:
    at = helpers.run_lesson(PAGE)  # ε = 1, q = 0.01: ε' = 0.01704, 1.7 × q·ε
    helpers.answer_quiz(at, "subsampling_predict", 0, 2)
    assert "1.704 times q·ε" in at.error[-1].value
    helpers.answer_quiz(at, "subsampling_predict", 0, 1)
    assert at.success[-1].value.startswith("Right.")
    at = helpers.run_lesson(PAGE, ss_eps="5", ss_q="0.01")  # (e⁵ − 1)/5 ≈ 25 at small q
    helpers.answer_quiz(at, "subsampling_predict", 0, 3)
    assert at.success[-1].value.startswith("Right.")


def test_the_dpsgd_chain_is_recomputed() -> None:
    chain = lesson.dpsgd_chain()
    sigma = tables.CHAIN_NOISE[1.0]
    # the same run as the DP-SGD lesson's (which the chain describes), and its σ at ε = 1
    assert sigma == dpsgd_tables.NOISE[1.0] and chain.q == dpsgd_setup.SAMPLE_RATE
    assert chain.sigma == sigma and chain.q == 0.01 and chain.steps == 300
    # one step on everyone: the Gaussian mechanism at Δ/σ = 1/σ, by its exact δ(ε)
    assert dp.gaussian_delta(sigma, 1.0, chain.step_epsilon) == pytest.approx(
        chain.step_delta, rel=1e-9
    )
    assert chain.step_delta * chain.q * chain.steps == pytest.approx(1e-5)
    q, e = 0.01, chain.step_epsilon
    assert chain.sampled_epsilon == pytest.approx(math.log(1 + q * math.expm1(e)), rel=1e-12)
    assert chain.basic == pytest.approx(300 * chain.sampled_epsilon)
    # the accountant's ε at this σ is the run's target, 1 (σ calibrated to within 10⁻³)
    accounted = dp.dpsgd_epsilon(sigma, 0.01, 300, 1e-5, accountant="rdp")
    assert 0.99 <= accounted <= chain.accountant == 1.0
    at = helpers.run_lesson(PAGE)
    table = at.table[0].value
    assert table["ε"].tolist() == [
        text.number(chain.step_epsilon),
        text.number(chain.sampled_epsilon),
        text.number(chain.basic),
        "1",
    ]


@pytest.mark.parametrize(("mu", "epsilon"), [(1.0, 1.0), (0.5, 0.25), (3.0, 5.0), (4.0, 2.0)])
def test_the_tradeoff_curves_and_the_touching_line(mu, epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ss_mu").set_value(mu)
    at.select_slider(key="ss_line_eps").set_value(epsilon).run()
    assert not at.exception
    frames = helpers.frames_of(helpers.chart_titled(at, "Telling neighbours apart", prefix=True))
    curves = frames["curves"]
    gdp = curves[curves["curve"] == lesson.GDP]
    alpha = gdp["alpha"].to_numpy()
    # G_μ(α): the misses of the best test between N(0, 1) and N(μ, 1) (Neyman–Pearson)
    np.testing.assert_allclose(
        gdp["beta"], stats.norm.cdf(stats.norm.ppf(1 - alpha) - mu), rtol=1e-9, atol=1e-15
    )
    delta = stats.norm.cdf(-epsilon / mu + mu / 2) - math.exp(epsilon) * stats.norm.cdf(
        -epsilon / mu - mu / 2
    )
    assert helpers.metrics(at)[f"δ(ε) at ε = {text.number(epsilon)}"] == text.power_of_ten(delta)
    edge = curves[curves["curve"] == lesson.EDGE]["beta"].to_numpy()
    want = np.maximum.reduce(
        [
            np.zeros_like(alpha),
            1 - delta - math.exp(epsilon) * alpha,
            math.exp(-epsilon) * (1 - delta - alpha),
        ]
    )
    np.testing.assert_allclose(edge, want, rtol=1e-9, atol=1e-12)
    # the line lies under the curve and touches it at α* = Φ(−ε/μ − μ/2)
    fine = np.linspace(0, 1, 200_001)
    gap = dp.gaussian_tradeoff(mu, fine) - dp.approx_dp_tradeoff(epsilon, delta, fine)
    assert gap.min() >= -1e-9
    star = lesson.touch_alpha(mu, epsilon)
    at_star = dp.gaussian_tradeoff(mu, star) - dp.approx_dp_tradeoff(epsilon, delta, star)
    assert abs(at_star) <= 1e-9
    # (prose() drops Markdown's backslashes: the page's $G_\\mu$ reads $G_mu$ here)
    assert f"touches $G_mu$ at α = {text.percent(star)}" in helpers.prose(at)


@pytest.mark.parametrize("mu", [0.5, 1.0, 3.0])
def test_the_attack_reads_a_release_that_is_exactly_mu_gdp(mu) -> None:
    from ui import tracing as membership

    at = helpers.run_lesson(PAGE, ss_mu=f"{mu:g}")
    found = lesson.attack(mu, 2026 + lesson.SEED_ATTACK)
    # the analytic Gaussian's σ at (ε(μ), δ) is Δ₂/μ: the release is exactly μ-GDP
    _, l2 = membership.sensitivities(50, 200)
    sigma = membership.noise_scale("Gaussian", 50, 200, lesson.release_epsilon(mu))
    assert l2 / sigma == pytest.approx(mu, rel=1e-6)
    frames = helpers.frames_of(helpers.chart_titled(at, "Telling neighbours apart", prefix=True))
    attack = frames["curves"][frames["curves"]["curve"] == lesson.ATTACK]
    roc = membership.roc_frame(
        membership.noisy_attack(50, 200, "Gaussian", lesson.release_epsilon(mu), 2036), "x"
    )
    np.testing.assert_allclose(attack["beta"], 1 - roc["tpr"])
    np.testing.assert_allclose(attack["alpha"], roc["fpr"])
    shown = helpers.metrics(at)
    assert shown["Fewest misses at 1% false positives"] == text.percent(
        stats.norm.cdf(stats.norm.ppf(0.99) - mu)
    )
    at_one = float(1 - roc["tpr"][np.isclose(roc["fpr"], 0.01)].iloc[0])
    assert shown["The attack's misses there"] == text.percent(at_one)
    # the diamond at (1%, its misses), its words the title's second line (beside it they
    # were crossed by the coin's diagonal at μ = 4 on a phone)
    element = helpers.chart_titled(at, "Telling neighbours apart", prefix=True)
    assert helpers.frames_of(element)["mark"][["alpha", "beta"]].values.tolist() == [
        [0.01, pytest.approx(at_one)]
    ]
    assert helpers.title_of(helpers.spec_of(element)) == (
        f"Telling neighbours apart under μ = {text.number(mu)} ◆ α = 1%: the attack misses "
        f"{text.percent(at_one)}"
    )
    below = int(np.sum(attack["beta"] < dp.gaussian_tradeoff(mu, attack["alpha"]) - 1e-9))
    words = helpers.prose(at)
    assert (
        "stays on or above the floor" in words
        if below == 0
        else f"{below} of the attack's points dip below" in words
    )
    assert found.below == below
    # σ as the page writes it: Δ₂/μ, not the solver's float (at μ = 1 it read
    # "1 − 2.1·10⁻¹⁵·Δ₂")
    assert f"σ = Δ₂/μ = {text.number(1 / mu)}·Δ₂ " in words


def test_the_pairs_table_inverts_both_ways() -> None:
    at = helpers.run_lesson(PAGE, ss_mu="2")
    table = at.table[1].value
    assert table["ε"].tolist()[:5] == ["0.5", "1", "2", "3", "5"]
    for e, d in zip(table["ε"][:5], table["δ"][:5], strict=True):
        assert d == text.power_of_ten(dp.gdp_delta(2.0, float(e)))
    # ε at δ = 10⁻⁵: the Gaussian mechanism with Δ/σ = 2 has exactly this δ there
    epsilon = dp.gdp_epsilon(2.0, 1e-5)
    assert dp.gaussian_delta(0.5, 1.0, epsilon) == pytest.approx(1e-5, rel=1e-8)
    assert table["ε"].iloc[5] == text.number(epsilon)


def test_the_composition_chart_reads_the_shared_accountant_table() -> None:
    """Its points are ui/accountant_table.py's (tests/ui/test_accountants.py recomputes them)."""
    assert set(accountant_table.ACCOUNTANT) == {
        (s, q, t) for s in lesson.SIGMAS for q in lesson.RATES for t in lesson.STEPS
    }
    for point, pair in accountant_table.ACCOUNTANT.items():
        assert lesson.accountant(*point) == pair


def test_the_clt_is_its_formula_and_its_verdicts_come_from_the_numbers() -> None:
    at = helpers.run_lesson(PAGE)  # σ = 1.1, q = 0.01, T = 300
    curves = helpers.frames_of(helpers.chart_titled(at, "ε of DP-SGD", prefix=True))["curves"]
    clt = curves[curves["accountant"] == lesson.CLT]
    for steps, epsilon in zip(clt["steps"], clt["epsilon"], strict=True):
        mu = 0.01 * math.sqrt(steps * math.expm1(1 / 1.1**2))
        assert dp.gdp_delta(mu, epsilon) == pytest.approx(1e-5, rel=1e-6)
    shown = helpers.metrics(at)
    pld, rdp = accountant_table.ACCOUNTANT[(1.1, 0.01, 300)]
    assert shown["ε by PLD"] == text.number(pld) and shown["ε by RDP"] == text.number(rdp)
    # optimistic where the CLT's ε is more than 10% under PLD's, by the table
    under = [
        t
        for t in lesson.STEPS
        if lesson.clt_epsilon(1.1, 0.01, t) < 0.9 * accountant_table.ACCOUNTANT[(1.1, 0.01, t)][0]
    ]
    assert under[:2] == [10, 30]  # small T: the theorem is an approximation for large T
    assert (
        f"optimistic (more than 10% below PLD: it promises privacy the run does not have) "
        f"at T = {', '.join(f'{t:,}' for t in under)}" in helpers.prose(at)
    )
    at.radio(key="ss_clt_q").set_value(0.1)
    at.select_slider(key="ss_sigma").set_value(0.7).run()
    over = [
        t
        for t in lesson.STEPS
        if lesson.clt_epsilon(0.7, 0.1, t) > 1.1 * accountant_table.ACCOUNTANT[(0.7, 0.1, t)][0]
    ]
    assert over  # at a large q and many steps the CLT overshoots
    assert f"more than 10% above PLD at T = {', '.join(f'{t:,}' for t in over)}" in (
        helpers.prose(at)
    )


def test_a_link_reproduces_the_view_and_the_code_has_its_values() -> None:
    params = {"ss_eps": "3", "ss_mu": "2", "ss_line_eps": "0.5", "ss_sigma": "2", "ss_steps": "30"}
    at = helpers.run_lesson(PAGE, **params)
    assert float(at.select_slider(key="ss_eps").value) == 3.0
    assert float(at.select_slider(key="ss_mu").value) == 2.0
    code = " ".join(helpers.code_texts(at))
    assert "epsilon = 3.0" in code
    assert "mu, epsilon = 2.0, 0.5" in code
    assert "sigma, q, delta = 2.0, 0.01, 1e-5" in code and "for steps in [30]:" in code


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(
        at, ("subsampling", 0, 0), "ln(1 + q(exp(ε) − 1))", ("subsampling", 0, 1)
    )


def test_each_section_downloads_what_its_chart_draws(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE, ss_sigma="0.7", ss_steps="3000")
    assert not at.exception
    assert sent["ss_dl_sampled"][1][0] == "q,epsilon,curve"
    assert sent["ss_dl_tradeoff"][1][0] == "alpha,beta,curve"
    filename, lines = sent["ss_dl_composition"]
    assert filename == "dpsgd-epsilon-by-accountant.csv"
    assert len(lines) == 1 + 3 * len(lesson.STEPS)
    pld, _ = accountant_table.ACCOUNTANT[(0.7, 0.01, 3_000)]
    assert f"3000,PLD accountant,{pld}" in lines or any(
        line.startswith("3000,PLD accountant,") and math.isclose(float(line.split(",")[2]), pld)
        for line in lines
    )


@pytest.mark.parametrize(("epsilon", "q"), [(5.0, 0.5), (10.0, 1.0), (0.1, 0.01), (0.1, 1.0)])
def test_exp_minus_one_is_said_close_to_epsilon_only_when_it_is(epsilon, q) -> None:
    """Finding: "For an ε this small, exp(ε) − 1 ≈ ε" showed at ε = 5, q = 0.5 (e⁵ − 1 =
    147.4) and at ε = 10, q = 1: the sentence was chosen by ε'/(qε), close to 1 at large q."""
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ss_eps").set_value(epsilon)
    at.select_slider(key="ss_q").set_value(q).run()
    said = " ".join(m.value for m in at.markdown)
    small = math.expm1(epsilon) <= 1.1 * epsilon
    assert ("For an ε this small" in said) == small
    assert lesson.growth_words(epsilon) in said


def test_at_q_one_there_is_no_sample_to_amplify() -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="ss_q").set_value(1.0).run()
    said = helpers.prose(at)
    assert "the sample turns" not in said and "1 times q·ε" not in said
    assert (
        "**Here** q = 1: everyone is in the sample, so ε' = ε"
        in at.markdown[[m.value.startswith("**Here** q") for m in at.markdown].index(True)].value
    )
    at.select_slider(key="ss_q").set_value(0.01).run()
    assert "**Here** the sample turns ε = " in " ".join(m.value for m in at.markdown)
