"""AppTest for lessons/coin_flip.py: every widget moved, the shown numbers checked against dp/."""

import json
import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import chart_rows as rows_of
from apptest_helpers import chart_titled

ROOT = Path(__file__).resolve().parents[1]
N, TRUE_SALES = 32_561, 3_650


def run_page() -> AppTest:
    return AppTest.from_file(str(ROOT / "lessons" / "coin_flip.py"), default_timeout=30).run()


def metric(at: AppTest, label: str) -> str:
    matches = [m.value for m in at.metric if m.label == label]
    assert matches, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return matches[-1]


def specs(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]


def titles(at: AppTest) -> list[str]:
    return [spec.get("title", "") for spec in specs(at)]


def chart_rows(at: AppTest, title: str) -> list[dict]:
    """All data rows (every layer's dataset) of the chart with this title."""
    return rows_of(chart_titled(at, title))


def slider(at: AppTest, key: str):
    return next(s for s in [*at.slider, *at.select_slider] if s.key == key)


def test_fair_coins_give_ln3_and_the_census_truth():
    at = run_page()
    assert not at.exception
    assert metric(at, "Privacy loss ε (fair coins)") == f"{math.log(3):.4f}"
    assert metric(at, "Truth (salespeople)") == "3,650"
    naive = int(metric(at, 'Naive count of "yes"').replace(",", ""))
    # E[naive] = n/4 + truth/2 = 9,965; its SD is about 78, so it is far above the truth.
    assert abs(naive - (N / 4 + TRUE_SALES / 2)) < 6 * 80
    estimate = int(metric(at, "De-biased estimate").replace(",", ""))
    assert estimate == round(dp.estimate_proportion_from_counts(naive, N, 0.75, 0.75) * N)
    sd = N * math.sqrt(dp.rr_variance(TRUE_SALES / N, N, 0.75, 0.75))
    assert metric(at, "Typical error (one standard deviation, from rr_variance)") == (
        f"± {sd:,.0f} people"
    )
    assert any("1,000 surveys" in t for t in titles(at))


def test_flip_button_keeps_its_count_and_the_report_follows_the_coins():
    at = run_page()
    for flip in range(1, 4):
        at.button(key="cf_flip").click().run()
        assert at.session_state["cf_flips"] == flip
        coin1, coin2 = metric(at, "Coin 1"), metric(at, "Coin 2")
        expected = "Yes" if coin1 == "Heads" else ("Yes" if coin2.startswith("Heads") else "No")
        assert metric(at, "Reported answer") == expected
    at.radio(key="cf_true_answer").set_value("No").run()
    if metric(at, "Coin 1") == "Heads":
        assert metric(at, "Reported answer") == "No"
    assert not at.exception


def test_resurvey_changes_the_naive_count():
    at = run_page()
    before = metric(at, 'Naive count of "yes"')
    at.button(key="cf_resurvey").click().run()
    assert at.session_state["cf_surveys"] == 1
    assert metric(at, 'Naive count of "yes"') != before


@pytest.mark.parametrize(("rate", "n"), [(0.1, 10), (0.3, 10_000), (0.9, 1_000_000)])
def test_population_size_sliders_set_the_exact_spread(rate, n):
    at = run_page()
    slider(at, "cf_rate").set_value(rate).run()
    slider(at, "cf_n").set_value(n).run()
    true_yes = round(rate * n)
    sd_points = 100 * math.sqrt(dp.rr_variance(true_yes / n, n, 0.75, 0.75))
    assert metric(at, "Spread of the estimate (SD)") == f"± {sd_points:.2f} % points"
    assert metric(at, "True yes") == f"{true_yes:,} of {n:,}"
    rows = chart_rows(at, "The spread shrinks like 1/√n")
    marked = [row for row in rows if "label" in row]
    assert marked[0]["n"] == n
    exact = {row["n"]: row["sd"] for row in rows if row.get("kind") == "exact"}
    assert exact[10] == pytest.approx(100 * math.sqrt(0.75 / 10))  # p = q = 3/4: Var = 3/(4n)
    assert not at.exception


@pytest.mark.parametrize(("honest", "yes"), [(0.8, 0.3), (0.3, 0.5), (0.5, 0.5)])
def test_biased_coins_show_p_q_epsilon_and_the_bias_of_the_textbook_formula(honest, yes):
    at = run_page()
    slider(at, "cf_honest").set_value(honest).run()
    slider(at, "cf_yes").set_value(yes).run()
    p, q = dp.coin_flip_probabilities(honest, yes)
    assert metric(at, "p (keep a true yes)") == f"{p:.3f}"
    assert metric(at, "q (keep a true no)") == f"{q:.3f}"
    assert metric(at, "Privacy loss ε") == f"{dp.rr_epsilon(p, q):.3f}"
    bias = N * dp.fair_coin_formula_bias(TRUE_SALES / N, honest, yes)
    assert metric(at, "Expected error of the textbook formula") == f"{bias:+,.0f} people"
    sd = N * math.sqrt(dp.rr_variance(TRUE_SALES / N, N, p, q))
    assert metric(at, "Typical error (SD)") == f"± {sd:,.0f} people"
    assert not at.warning
    assert not at.exception


def test_no_honest_answers_warns_instead_of_failing():
    at = run_page()
    slider(at, "cf_honest").set_value(0.0).run()
    assert not at.exception
    assert any("p + q = 1" in w.value for w in at.warning)
    assert metric(at, "Privacy loss ε") == "0.000"


def test_always_honest_warns_that_epsilon_is_infinite():
    at = run_page()
    slider(at, "cf_honest").set_value(1.0).run()
    assert not at.exception
    assert metric(at, "Privacy loss ε") == "∞"
    assert any("ε = ∞" in w.value for w in at.warning)
