"""AppTest for lessons/generalized_rr.py: the mode radio, the p and q sliders and the ε slider
moved; metrics and chart data checked against dp/ at the chosen values."""

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import chart_rows as rows_of
from apptest_helpers import chart_titled
from ui.widgets import DEFAULT_SEED

ROOT = Path(__file__).resolve().parents[1]
N, TRUE_SALES = 32_561, 3_650
RATIO_TITLE = "What each report reveals"
SAMPLING_TITLE = "Sampling distribution"
ERROR_TITLE = "Error of the count versus ε"


def run_page() -> AppTest:
    return AppTest.from_file(str(ROOT / "lessons" / "generalized_rr.py"), default_timeout=30).run()


def set_p_q(p: float, q: float) -> AppTest:
    at = run_page()
    at.slider(key="grr_p").set_value(p).run()
    at.slider(key="grr_q").set_value(q).run()
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    matches = [m.value for m in at.metric if m.label == label]
    assert matches, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return matches[-1]


def chart_rows(at: AppTest, title: str) -> list[dict]:
    """All data rows of the chart with this title (see `apptest_helpers.chart_rows`)."""
    return rows_of(chart_titled(at, title))


def one_survey_estimate(p: float, q: float) -> float:
    """The page's single survey: seed + 7,000, one exact aggregate draw."""
    yes = dp.sample_rr_counts(TRUE_SALES, N, p, q, size=1, rng=DEFAULT_SEED + 7_000)[0]
    return N * dp.estimate_proportion_from_counts(int(yes), N, p, q)


def test_defaults_are_fair_coins_with_epsilon_ln3():
    at = run_page()
    assert not at.exception
    assert not at.warning
    assert metric(at, "p (keep a true yes)") == "0.750"
    assert metric(at, "q (keep a true no)") == "0.750"
    assert metric(at, "Privacy loss ε") == f"{math.log(3):.3f}" == "1.099"
    assert metric(at, 'A reported "yes" multiplies the odds of a true yes by') == "3.00"
    assert metric(at, "Truth (salespeople)") == "3,650"
    assert metric(at, "This survey's estimate") == f"{one_survey_estimate(0.75, 0.75):,.0f}"
    assert any("symmetric" in md.value for md in at.markdown)


@pytest.mark.parametrize(("p", "q"), [(0.9, 0.6), (0.6, 0.9), (0.8, 0.8), (0.3, 0.95)])
def test_p_q_sliders_set_epsilon_ratios_and_the_estimator(p, q):
    at = set_p_q(p, q)
    epsilon = dp.rr_epsilon(p, q)
    ln_yes, ln_no = dp.rr_likelihood_ratios(p, q)
    odds_yes, odds_no = dp.rr_likelihood_ratios(p, q, log=False)
    assert metric(at, "p (keep a true yes)") == f"{p:.3f}"
    assert metric(at, "q (keep a true no)") == f"{q:.3f}"
    assert metric(at, "Privacy loss ε") == f"{epsilon:.3f}"
    assert metric(at, 'A reported "yes" multiplies the odds of a true yes by') == f"{odds_yes:.2f}"
    assert metric(at, 'A reported "no" multiplies the odds of a true no by') == f"{odds_no:.2f}"
    sd = dp.rr_count_std(TRUE_SALES / N, N, p, q)
    assert metric(at, "Typical error (SD, from rr_variance)") == f"± {sd:,.0f}"
    assert metric(at, "This survey's estimate") == f"{one_survey_estimate(p, q):,.0f}"

    bars = {row["report"]: row["size"] for row in chart_rows(at, RATIO_TITLE) if "report" in row}
    assert bars["reported yes"] == pytest.approx(min(abs(ln_yes), 5.0))
    assert bars["reported no"] == pytest.approx(min(abs(ln_no), 5.0))
    band = [row["hi"] for row in chart_rows(at, RATIO_TITLE) if "hi" in row]
    assert band == [pytest.approx(min(epsilon, 5.0))]

    sampling = chart_rows(at, SAMPLING_TITLE)
    lines = sorted(row["x"] for row in sampling if row.get("label") in ("−2 SD", "+2 SD"))
    expected = [min(max(TRUE_SALES + s * 2 * sd, 0), 2 * TRUE_SALES) for s in (-1, 1)]
    assert lines == pytest.approx(expected)
    assert sum(row["count"] for row in sampling if "count" in row) == 1_000

    mark = [row for row in chart_rows(at, ERROR_TITLE) if "label" in row]
    assert mark[0]["epsilon"] == pytest.approx(min(epsilon, 10.0))
    assert mark[0]["sd"] == pytest.approx(sd)


def test_the_better_protected_report_is_named():
    at = set_p_q(0.9, 0.6)  # yes: ln(0.9/0.4) = 0.81 < no: ln(0.6/0.1) = 1.79
    assert any("A reported **yes** reveals less" in md.value for md in at.markdown)
    at = set_p_q(0.6, 0.9)
    assert any("A reported **no** reveals less" in md.value for md in at.markdown)


def test_below_half_lies_are_as_informative_as_the_truth():
    at = set_p_q(0.25, 0.25)
    # ln((1/4)/(3/4)) = -ln 3: the same ε as p = q = 3/4.
    assert metric(at, "Privacy loss ε") == f"{math.log(3):.3f}"
    assert any("p + q < 1" in info.value for info in at.info)
    sd = dp.rr_count_std(TRUE_SALES / N, N, 0.25, 0.25)
    assert metric(at, "Typical error (SD, from rr_variance)") == f"± {sd:,.0f}"
    assert metric(at, "This survey's estimate") == f"{one_survey_estimate(0.25, 0.25):,.0f}"
    assert not at.warning


def test_p_plus_q_one_warns_and_shows_no_estimate():
    at = set_p_q(0.4, 0.6)
    assert not at.exception
    assert metric(at, "Privacy loss ε") == "0.000"
    assert any("p + q = 1.00 = 1" in w.value for w in at.warning)
    assert any("No estimate is possible" in info.value for info in at.info)
    assert not [m for m in at.metric if m.label == "This survey's estimate"]
    assert not [row for row in chart_rows(at, ERROR_TITLE) if "label" in row]


def test_certain_answers_warn_that_epsilon_is_infinite():
    at = set_p_q(1.0, 0.75)
    assert metric(at, "Privacy loss ε") == "∞"
    assert metric(at, 'A reported "no" multiplies the odds of a true no by') == "∞"
    assert any("ε = ∞" in w.value for w in at.warning)


@pytest.mark.parametrize("epsilon", [0.1, 2.0, 10.0])
def test_epsilon_mode_sets_p_equal_q(epsilon):
    at = run_page()
    at.radio(key="grr_mode").set_value("Choose ε (p = q)").run()
    at.select_slider(key="grr_eps").set_value(epsilon).run()
    assert not at.exception
    keep = dp.rr_keep_probability(epsilon)
    assert metric(at, "p (keep a true yes)") == f"{keep:.3f}"
    assert metric(at, "q (keep a true no)") == f"{keep:.3f}"
    assert metric(at, "Privacy loss ε") == f"{epsilon:.3f}"
    assert any(f"= {keep:.4f}" in latex.value for latex in at.latex)
    sd = dp.rr_count_std(TRUE_SALES / N, N, keep, keep)
    assert metric(at, "Typical error (SD, from rr_variance)") == f"± {sd:,.0f}"
    mark = [row for row in chart_rows(at, ERROR_TITLE) if "label" in row]
    assert mark[0]["label"] == "your ε"
    assert mark[0]["epsilon"] == pytest.approx(epsilon)
    assert not at.slider  # the p and q sliders are gone in this mode
