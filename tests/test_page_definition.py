"""AppTest for lessons/definition.py: every widget moved, the numbers it then shows checked
against dp/ at the chosen values."""

import math

import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import chart_spec, metrics, named_data, run_lesson
from ui.data import load_census

PAGE = "definition.py"


@pytest.fixture(scope="module")
def truth() -> int:
    return int((load_census()["Income"] == ">50K").sum())


def run_page() -> AppTest:
    return run_lesson(PAGE)


def inline_values(chart_spec: dict) -> list[list[dict]]:
    return [layer["data"]["values"] for layer in chart_spec["layer"] if "values" in layer["data"]]


def test_defaults_show_the_bound_reached_in_the_tail(truth: int) -> None:
    at = run_page()
    shown = metrics(at)
    assert shown["f(D): everyone"] == f"{truth:,}"
    removed = at.selectbox(key="definition_person").value
    assert shown[f"f(D′): without {removed}"] == f"{truth - 1:,}"  # the default earns >50K
    # Y = [f(D), f(D) + 3] lies right of both centres: the ratio is exactly e^ε = e.
    p, q, ratio = dp.laplace_event_probabilities(
        truth, truth + 3, loc=truth, loc_neighbour=truth - 1, scale=1.0
    )
    assert shown["P[F(D) ∈ Y]"] == f"{p:.4g}"
    assert shown["P[F(D′) ∈ Y]"] == f"{q:.4g}"
    assert shown["Ratio"] == f"{math.e:,.4g}" == f"{ratio:,.4g}"
    assert shown["e^ε"] == "2.718"
    assert len(at.success) == 1 and not at.error and not at.warning
    assert chart_spec(at, 0)["title"] == "Both worlds' output densities, ε = 1"


def test_epsilon_slider_moves_ratio_densities_and_band(truth: int) -> None:
    at = run_page()
    at.select_slider(key="definition_epsilon").set_value(0.1).run()
    assert not at.exception
    shown = metrics(at)
    assert shown["e^ε"] == f"{math.exp(0.1):,.4g}"
    assert shown["Ratio"] == f"{math.exp(0.1):,.4g}"
    density = named_data(at, 0, "density")
    peak = max(density["density"])
    assert peak == pytest.approx(dp.laplace_pdf(truth, loc=truth, scale=10.0))  # ε/2 = 0.05
    loss = named_data(at, 1, "loss")["loss"]
    assert max(loss) == pytest.approx(0.1) and min(loss) == pytest.approx(-0.1)
    band = inline_values(chart_spec(at, 1))
    assert {"x": truth - 8.0, "x2": truth + 8.0, "lo": -0.1, "hi": 0.1} in band[0]
    assert chart_spec(at, 1)["title"] == "Privacy loss stays inside ±ε = ±0.1"


def test_event_in_the_left_tail_gives_e_to_the_minus_epsilon(truth: int) -> None:
    at = run_page()
    at.select_slider(key="definition_epsilon").set_value(2.0)
    at.slider(key="definition_event").set_value((truth - 6.0, truth - 2.0)).run()
    assert not at.exception
    shown = metrics(at)
    assert shown["Ratio"] == f"{math.exp(-2.0):,.4g}"
    assert "lies within" in at.success[0].value
    event = inline_values(chart_spec(at, 0))[0]
    assert event[0]["lo"] == truth - 6.0 and event[0]["hi"] == truth - 2.0


def test_zero_width_event_warns_instead_of_dividing(truth: int) -> None:
    at = run_page()
    at.slider(key="definition_event").set_value((truth + 1.0, truth + 1.0)).run()
    assert not at.exception
    assert "zero width" in at.warning[0].value
    assert "Ratio" not in metrics(at)


def test_removing_a_low_earner_leaves_the_count_unchanged(truth: int) -> None:
    at = run_page()
    box = at.selectbox(key="definition_person")
    low_earner = next(o for o in box.options if "<=50K" in o).split(" — ")[0]
    box.set_value(low_earner).run()
    assert not at.exception
    shown = metrics(at)
    assert shown[f"f(D′): without {low_earner}"] == f"{truth:,}"
    assert shown["Difference"] == "0"
    assert shown["Ratio"] == "1"
    assert "does not change this count" in at.info[0].value
    assert max(named_data(at, 1, "loss")["loss"]) == 0.0


def test_prior_slider_moves_the_posterior_and_its_chart() -> None:
    at = run_page()
    at.select_slider(key="definition_epsilon").set_value(3.0)
    at.slider(key="definition_prior").set_value(0.5).run()
    assert not at.exception
    expected = dp.posterior_bound(0.5, 3.0)  # e^3 / (e^3 + 1) = 95.3%
    assert metrics(at)["Worst-case posterior"] == f"{expected:.1%}" == "95.3%"
    curve = named_data(at, 2, "curve")
    assert min(curve["posterior"]) == pytest.approx(0.5, abs=0.01)
    assert max(curve["posterior"]) == pytest.approx(dp.posterior_bound(0.5, 20.0))
    point = [v for v in inline_values(chart_spec(at, 2)) if "epsilon" in v[0]][0][0]
    assert point["epsilon"] == 3.0 and point["posterior"] == pytest.approx(expected)


def test_words_quote_the_large_epsilon_numbers() -> None:
    at = run_page()
    text = " ".join(m.value for m in at.markdown)
    assert f"{dp.posterior_bound(0.01, 10.0):.1%}" in text  # 99.6%
    assert "22,026" in text
