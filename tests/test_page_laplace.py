"""AppTest for lessons/laplace.py: every widget moved, the numbers it then shows checked
against dp/ at the chosen values."""

import math

import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import chart_spec, metrics, named_data, run_lesson
from ui.data import load_census

PAGE = "laplace.py"


@pytest.fixture(scope="module")
def people():
    return load_census()


def run_page() -> AppTest:
    return run_lesson(PAGE)


def x_domain(chart_spec: dict) -> list[float]:
    return chart_spec["layer"][0]["encoding"]["x"]["scale"]["domain"]


def test_defaults_count_people_aged_40_or_more(people) -> None:
    at = run_page()
    truth = int((people["Age"] >= 40).sum())
    assert f"**{truth:,}**" in " ".join(m.value for m in at.markdown)
    shown = metrics(at)
    assert shown["Scale b = 1/ε"] == "1"
    assert shown["Standard deviation √2·b"] == f"{math.sqrt(2):,.4g}"
    assert shown["95% of answers within ±"] == f"{math.log(20):,.4g}"  # b ln 20 = 2.996
    assert shown["Typical relative error"] == f"{math.log(2) / truth:.3%}"
    assert chart_spec(at, 0)["title"] == "2,000 noisy answers at ε = 1"
    assert x_domain(chart_spec(at, 0)) == [truth - 50, truth + 50]
    assert sum(named_data(at, 0, "bins")["count"]) == 2_000


def test_epsilon_and_answer_count_move_histogram_and_metrics(people) -> None:
    at = run_page()
    truth = int((people["Age"] >= 40).sum())
    at.select_slider(key="laplace_epsilon").set_value(0.1)
    at.select_slider(key="laplace_answers").set_value(10_000).run()
    assert not at.exception
    shown = metrics(at)
    assert shown["Scale b = 1/ε"] == "10"
    assert shown["95% of answers within ±"] == f"{10 * math.log(20):,.4g}"  # 29.96
    assert shown["Best guess right"] == f"{1 - 0.5 * math.exp(-0.05):.1%}"  # 52.4%
    bins = named_data(at, 0, "bins")
    assert sum(bins["count"]) == 10_000
    assert x_domain(chart_spec(at, 0)) == [truth - 50, truth + 50]  # the axis did not move
    # Share within ±b ln 20 of the truth is 95%: the bins covering ±30 hold about that
    # (bins of width 1 from truth - 50; SE of a share of 10,000 draws ~ 0.2%).
    inside = sum(
        c for s, c in zip(bins["start"], bins["count"], strict=True) if abs(s - truth + 0.5) < 30
    )
    assert inside / 10_000 == pytest.approx(0.95, abs=0.02)
    assert chart_spec(at, 0)["title"] == "10,000 noisy answers at ε = 0.1"


def test_narrow_zoom_counts_the_outliers_in_the_edge_bins(people) -> None:
    at = run_page()
    truth = int((people["Age"] >= 40).sum())
    at.select_slider(key="laplace_epsilon").set_value(0.1)
    at.radio(key="laplace_zoom").set_value("true count ± 5").run()
    assert not at.exception
    assert x_domain(chart_spec(at, 0)) == [truth - 5, truth + 5]
    caption = " ".join(c.value for c in at.caption)
    # P[|Lap(10)| > 5] = e^-0.5 = 61% of 2,000 answers land outside ± 5.
    assert "fall outside the window and are counted in the edge bins" in caption
    counts = named_data(at, 0, "bins")["count"]
    assert counts[0] + counts[-1] > 0.5 * 2_000


def test_small_multiples_share_one_axis(people) -> None:
    at = run_page()
    truth = int((people["Age"] >= 40).sum())
    titles = [chart_spec(at, i)["title"] for i in (1, 2, 3)]
    assert titles == [
        f"ε = {e:g}: 95% of answers within ±{dp.laplace_interval_half_width(1 / e):,.3g}"
        for e in (0.1, 1.0, 5.0)
    ]
    assert all(x_domain(chart_spec(at, i)) == [truth - 40, truth + 40] for i in (1, 2, 3))


def test_age_threshold_changes_the_true_count(people) -> None:
    at = run_page()
    at.slider(key="laplace_age").set_value(65).run()
    assert not at.exception
    truth = int((people["Age"] >= 65).sum())
    assert f"aged 65 or older?** The true answer is **{truth:,}**" in " ".join(
        m.value for m in at.markdown
    )
    assert metrics(at)["Typical relative error"] == f"{math.log(2) / truth:.3%}"


def test_occupation_and_income_queries(people) -> None:
    at = run_page()
    at.radio(key="laplace_query").set_value("People in an occupation").run()
    at.selectbox(key="laplace_occupation").set_value("Sales").run()
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "work in Sales?** The true answer is **3,650**" in text
    at.radio(key="laplace_query").set_value("People earning >50K").run()
    rich = int((people["Income"] == ">50K").sum())
    assert f"The true answer is **{rich:,}**" in " ".join(m.value for m in at.markdown)


def test_malicious_query_draw_and_guess() -> None:
    at = run_page()
    assert "Press the button" in at.info[0].value
    at.select_slider(key="laplace_epsilon").set_value(10.0)
    at.selectbox(key="laplace_name").set_value("Michael Clark").run()  # earns >50K: answer 0
    at.button(key="laplace_draw").click().run()
    assert not at.exception
    shown = metrics(at)
    answer = float(shown["Noisy answer #1"].replace(",", ""))
    assert abs(answer) < 5  # 0 + Lap(0.1)
    at.radio(key="laplace_guess").set_value("0 — earns more than $50K").run()
    assert "Right: the true answer is 0" in at.success[0].value
    at.radio(key="laplace_guess").set_value("1 — earns $50K or less").run()
    assert "Wrong: the true answer is 0" in at.error[0].value
    at.button(key="laplace_draw").click().run()
    assert "Noisy answer #2" in metrics(at)
    assert at.radio(key="laplace_guess").value is None  # a new draw clears the guess


def test_worlds_and_accuracy_charts_follow_epsilon() -> None:
    at = run_page()
    at.select_slider(key="laplace_epsilon").set_value(2.0).run()
    worlds = named_data(at, 4, "worlds")
    assert max(worlds["density"]) == pytest.approx(1.0)  # peak 1/(2b) = ε/2
    assert chart_spec(at, 4)["title"] == "The two possible worlds at ε = 2"
    point = named_data(at, 5, "point")
    assert point["accuracy"][0] == pytest.approx(1 - 0.5 * math.exp(-1.0))  # 81.6%
    assert metrics(at)["Best guess right"] == "81.6%"
    curve = named_data(at, 5, "curve")
    assert curve["accuracy"][0] == pytest.approx(dp.best_guess_accuracy(0.01))
