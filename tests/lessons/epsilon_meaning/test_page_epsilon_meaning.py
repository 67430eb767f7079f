"""AppTest for lessons/epsilon_meaning/page.py: both bounds against their closed forms, the
prediction marked from the sliders, the attack under its ceiling, the deployments as the
file states them, the budget split against its Lagrange solution, the links, the code and the
questions."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import apptest_helpers as helpers
import dp
from data.deployments import load_deployments
from lessons.epsilon_meaning import model as lesson
from ui import controls, deployments, text

PAGE = "epsilon_meaning/page.py"


def _posterior(prior: float, epsilon: float) -> float:
    return math.exp(epsilon) * prior / (math.exp(epsilon) * prior + 1 - prior)


@pytest.mark.parametrize(("epsilon", "prior"), [(1.0, 0.1), (2.0, 0.5), (5.0, 0.01), (0.1, 0.25)])
def test_both_bounds_are_their_closed_forms(epsilon, prior) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="em_eps").set_value(epsilon)
    at.select_slider(key="em_prior").set_value(prior).run()
    assert not at.exception
    shown = helpers.metrics(at)
    assert shown[f"Belief after one output, from {text.percent(prior)}: at most"] == (
        text.percent(_posterior(prior, epsilon))
    )
    advantage = (math.exp(epsilon) - 1) / (math.exp(epsilon) + 1)
    assert shown["Any test's TPR − FPR: at most"] == text.percent(advantage)
    frame = helpers.frames_of(helpers.chart_titled(at, "What ε =", prefix=True))["curves"]
    posterior = frame[frame["curve"] == lesson.POSTERIOR]
    np.testing.assert_allclose(
        posterior["bound"], [_posterior(prior, e) for e in posterior["epsilon"]], rtol=1e-12
    )
    tests = frame[frame["curve"] == lesson.ADVANTAGE]
    np.testing.assert_allclose(tests["bound"], np.tanh(tests["epsilon"] / 2), rtol=1e-12)


def test_the_table_reads_both_bounds_at_the_six_epsilons() -> None:
    at = helpers.run_lesson(PAGE, em_prior="0.5")
    table = at.table[0].value
    assert list(table["ε"]) == ["0.1", "1", "ln 3", "5", "10", "20"]
    row = table.set_index("ε").loc["ln 3"]
    assert row["advantage of any test, at most"] == "50%"  # tanh(ln 3 / 2) = 1/2
    assert row["belief from 50%, at most"] == "75%"  # odds 1 → 3


def test_the_prediction_is_marked_from_the_sliders() -> None:
    at = helpers.run_lesson(PAGE)  # ε = 1, prior 10%: at most 23.2%
    helpers.answer_quiz(at, "epsilon_meaning_predict", 0, 0)
    assert "23.2%" in at.error[-1].value
    helpers.answer_quiz(at, "epsilon_meaning_predict", 0, 1)
    assert at.success[-1].value.startswith("Right.")
    at = helpers.run_lesson(PAGE, em_eps="5", em_prior="0.5")  # 99.3%
    helpers.answer_quiz(at, "epsilon_meaning_predict", 0, 3)
    assert at.success[-1].value.startswith("Right.")


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 10.0, 20.0, 100.0])
def test_the_attack_sits_under_its_ceiling(epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="em_attack_eps").set_value(epsilon).run()
    assert not at.exception
    frames = helpers.frames_of(helpers.chart_titled(at, "The tracing attack against", prefix=True))
    roc = frames["roc"]
    noisy = roc[roc["curve"] == lesson.ATTACK_NAME]
    best = float((noisy["tpr"] - noisy["fpr"]).max())
    shown = helpers.metrics(at)
    assert shown["The attack's best TPR − FPR"] == text.percent(best)
    assert shown["The most any test may reach, tanh(ε/2)"] == text.chance(math.tanh(epsilon / 2))
    region = frames["region"]
    edge = np.minimum(
        np.minimum(math.exp(epsilon) * region["fpr"], 1 - math.exp(-epsilon) * (1 - region["fpr"])),
        1.0,
    )
    np.testing.assert_allclose(region["tpr"], edge, rtol=1e-12, atol=1e-15)
    words = "It stays under the line" if best <= math.tanh(epsilon / 2) else "pokes above it"
    assert words in helpers.prose(at)
    # the ceiling in a sentence that reads at every ε ("no test can exceed over 99.9999%" did
    # not), and what a ceiling of 100% promises: nothing
    ceiling = text.chance(math.tanh(epsilon / 2))
    assert f"the most any test can reach is {ceiling}" in helpers.prose(at)
    assert "exceed over" not in helpers.prose(at)
    if ceiling == "100%" or ceiling.startswith("over"):
        assert f"A ceiling of {ceiling} allows practically any attack" in helpers.prose(at)
        assert "At ε = 10 the ceiling" not in helpers.prose(at)
    elif epsilon < 10:
        assert "At ε = 10 the ceiling is 99.9909%" in helpers.prose(at)
    # members found: a share of 50 members, with the count it is (2% is one member)
    found = lesson.ceiling(epsilon, controls.seed() + lesson.SEED_ATTACK).found
    assert shown["Members found at 1% false positives"] == (
        f"{text.percent(found)} ({round(found * 50)} of 50)"
    )


def test_each_unit_charts_its_deployments_as_the_file_states_them() -> None:
    table = load_deployments()
    at = helpers.run_lesson(PAGE)
    frame = helpers.frames_of(helpers.chart_titled(at, "ε per user, per day"))["deployments"]
    daily = table[(table["unit_of_privacy"] == "user") & (table["period"] == "per day")]
    assert len(frame) == len(daily) >= 8
    assert sorted(frame["epsilon"]) == sorted(daily["epsilon"])
    assert frame["epsilon"].is_monotonic_decreasing
    # basic composition over a year, from the largest per-day ε (Apple's QuickType, 16)
    assert f"bounded by ε = {text.number(16 * 365)} over a year" in helpers.prose(at)
    at.selectbox(key="em_unit").set_value("per person, one release").run()
    frame = helpers.frames_of(helpers.chart_titled(at, "ε per person, one release"))["deployments"]
    assert frame["epsilon"].tolist() == [pytest.approx(dp.zcdp_to_approx_dp(2.56, 1e-10))]
    assert "from ρ = 2.56 at δ = 10⁻¹⁰" in frame["how"].iloc[0]
    assert "**From ρ.**" in helpers.prose(at) or "From ρ." in helpers.prose(at)
    assert len(at.table) == 1  # the odds table; every deployment's row waits in its expander
    helpers.open_expanders(at, f"Every deployment, with its source ({len(table)})")
    shown = at.table[1].value
    assert len(shown) == len(table)
    sources = lesson.sources_markdown()
    for number, source in enumerate(table["source"], start=1):
        for address in re.findall(r"https?://[^\s;,)]+", source):  # every address, a link
            assert f"]({address})" in sources.splitlines()[number - 1]


def test_the_best_split_is_the_lagrange_solution() -> None:
    at = helpers.run_lesson(PAGE)
    shown = helpers.metrics(at)
    # equal weights, equal shares of 0.2: that is the best split, Σ 2/0.2² = 250
    assert shown["Your weighted error"] == shown["Best Laplace split"] == text.number(250.0)
    at.select_slider(key="em_weight_0").set_value(10.0).run()
    # ε_i ∝ w_i^(1/3): found independently by minimising numerically
    from scipy import optimize

    weights = np.array([10.0, 1, 1, 1, 1])
    solved = optimize.minimize(
        lambda e: np.sum(weights * 2 / e**2),
        np.full(5, 0.2),
        constraints=[{"type": "eq", "fun": lambda e: e.sum() - 1}],
        bounds=[(1e-3, 1)] * 5,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    shown = helpers.metrics(at)
    assert shown["Best Laplace split"] == text.number(float(solved.fun))
    assert shown["Your weighted error"] == text.number(float(np.sum(weights * 2 / 0.2**2)))
    # the Gaussian split spends (1, 10⁻⁵) in total: ρ_i ∝ √w_i adding up to ρ
    rho = lesson.gaussian_rho()
    assert dp.zcdp_to_approx_dp(rho, 1e-5) == pytest.approx(1.0, abs=1e-9)
    rhos = rho * np.sqrt(weights) / np.sqrt(weights).sum()
    assert f"compose to ρ = {text.number(rho)}, ε = 1 at δ = 10⁻⁵" in helpers.prose(at)
    assert shown["Best Gaussian split"] == text.number(float(np.sum(weights / (2 * rhos))))
    best = helpers.frames_of(helpers.chart_titled(at, "Best split for these", prefix=True))[
        "shares"
    ]
    laplace_share = best[best["kind"] == lesson.LAPLACE_SHARE]["share"].to_numpy()
    np.testing.assert_allclose(laplace_share, solved.x, atol=1e-4)  # ∝ w^(1/3)
    gaussian_share = best[best["kind"] == lesson.GAUSSIAN_SHARE]["share"].to_numpy()
    np.testing.assert_allclose(gaussian_share, np.sqrt(weights) / np.sqrt(weights).sum())
    frame = helpers.frames_of(helpers.chart_titled(at, "Each count's error", prefix=True))["split"]
    gaussian = frame[frame["split"] == lesson.GAUSSIAN]["sd"].to_numpy()
    np.testing.assert_allclose(gaussian, np.sqrt(1 / (2 * rhos)), rtol=1e-9)


def test_spending_more_than_the_budget_releases_nothing() -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="em_share_0").set_value(0.3).run()
    assert helpers.metrics(at)["Left for “born abroad”"] == "0.1"  # 1 − 0.3 − 3 × 0.2
    at.select_slider(key="em_share_1").set_value(0.5).run()
    assert not at.exception
    assert helpers.metrics(at)["Left for “born abroad”"] == "0"
    assert helpers.metrics(at)["Your weighted error"] == "over budget"
    assert "Over budget" in at.error[-1].value and "1.2" in at.error[-1].value
    frame = helpers.frames_of(helpers.chart_titled(at, "Each count's error", prefix=True))["split"]
    assert frame[frame["split"] == lesson.YOURS]["sd"].isna().all()
    assert len(frame) == 15  # every bar stays a row: the chart is redrawn in place


@pytest.mark.parametrize("key", ["em_share_0", "em_share_1", "em_share_2"])
def test_shares_that_add_up_to_the_budget_spend_exactly_it(key) -> None:
    # 0.3 + 0.2 + 0.2 + 0.2 + what is left (0.1) summed as floats read "spends ε = 1 − 1.1·10⁻¹⁶
    # of 1" on the page and in the metric
    at = helpers.run_lesson(PAGE)
    at.select_slider(key=key).set_value(0.3).run()
    assert helpers.metrics(at)["ε spent (basic composition)"] == "1"
    assert "Your split spends ε = 1 of 1" in helpers.prose(at)
    assert "10⁻¹⁶" not in helpers.page_words(at)


def test_a_link_reproduces_the_view_and_the_code_has_its_values() -> None:
    params = {"em_eps": "5", "em_prior": "0.25", "em_weight_2": "5"}
    at = helpers.run_lesson(PAGE, **params)
    assert float(at.select_slider(key="em_eps").value) == 5.0
    assert float(at.select_slider(key="em_prior").value) == 0.25
    helpers.open_snippets(at)
    code = " ".join(helpers.code_texts(at))
    assert "prior = 0.25" in code
    assert "weights = np.array([1.0, 1.0, 5.0, 1.0, 1.0])" in code


def test_the_census_counts_are_the_census() -> None:
    from ui import datasets

    census = datasets.census()
    counts = lesson.statistic_counts()
    assert counts[0] == int((census["Age"] >= 60).sum())
    assert counts[1] == 10_771  # women in the census extract
    assert counts[2] == 7_841  # earning >50K
    assert controls.DEFAULT_SEED  # the attack reads the page's seed


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(at, ("epsilon_meaning", 2, 0), "tanh(ε/2)", ("epsilon_meaning", 2, 1))


def test_a_per_day_rho_is_composed_as_rho_then_converted() -> None:
    """Finding: the Wikimedia row (ρ = 0.015 zCDP per day) was said to be "bounded by ε =
    389.4" over a year: each day's ρ converted to ε, then the ε's added. ρ adds up: 365 ×
    0.015 = 5.475-zCDP, ε ≈ 27.0 at δ = 10⁻¹⁰ (even the simple bound gives 27.9)."""
    unit = next(u for u in deployments.deployments().units if u.startswith("per device"))
    at = helpers.run_lesson(PAGE)
    at.selectbox(key="em_unit").set_value(unit).run()
    said = " ".join(m.value for m in at.markdown)
    year = dp.zcdp_to_approx_dp(365 * 0.015, 1e-10)
    assert year == pytest.approx(26.98, abs=0.01)
    assert year < dp.zcdp_to_approx_dp_simple(365 * 0.015, 1e-10) < 28
    assert f"5.475-zCDP, that is ε = {text.number(year)}" in said
    assert "bounded by ε = 389.4" not in said


def test_the_census_rho_is_written_to_its_fourth_decimal_right() -> None:
    """Finding: "(542/339)² = 2.5563"; it is 293,764/114,921 = 2.556226…"""
    said = " ".join(c.value for c in helpers.run_lesson(PAGE).caption)
    assert "(542/339)² = 2.5562" in said
