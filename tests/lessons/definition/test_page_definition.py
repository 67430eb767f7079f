"""AppTest for lessons/definition/page.py: every widget moved, the numbers it then shows checked
against dp/ at the chosen values."""

import math

import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from apptest_helpers import (
    answer_quiz,
    chart_spec,
    code_texts,
    metrics,
    named_data,
    record_downloads,
    run_lesson,
    run_lesson_with_upload,
)
from conftest import app_apptest
from data.census import load_census
from lessons.definition import model as lesson
from lessons.definition.model import people_to_remove
from ui import text

PAGE = "definition/page.py"


@pytest.fixture(scope="module")
def truth() -> int:
    return int((load_census()["Income"] == ">50K").sum())


def run_page() -> AppTest:
    return run_lesson(PAGE)


def test_defaults_show_the_bound_reached_in_the_tail(truth: int) -> None:
    at = run_page()
    shown = metrics(at)
    assert shown["f(D): everyone"] == f"{truth:,}"
    removed = at.selectbox(key="def_person").value
    assert shown[f"f(D′): without {removed}"] == f"{truth - 1:,}"  # the default earns >50K
    # Y = [f(D), f(D) + 3] lies right of both centres: the ratio is exactly e^ε = e.
    p, q, ratio = dp.laplace_event_probabilities(
        truth, truth + 3, loc=truth, loc_neighbour=truth - 1, scale=1.0
    )
    assert shown["P[F(D) ∈ Y]"] == f"{p:.4g}"
    assert shown["P[F(D′) ∈ Y]"] == f"{q:.4g}"
    assert shown["Ratio"] == f"{math.e:,.4g}" == f"{ratio:,.4g}"
    assert shown["$e^ε$"] == "2.718"
    assert len(at.success) == 1 and not at.error and not at.warning
    assert chart_spec(at, 0)["title"] == "Both worlds' output densities, ε = 1"


def test_epsilon_slider_moves_ratio_densities_and_band(truth: int) -> None:
    at = run_page()
    at.select_slider(key="def_eps").set_value(0.1).run()
    # Each section is a fragment with its own ε: section 2's chart is still at ε = 1.
    assert chart_spec(at, 1)["title"] == "Privacy loss stays inside ±ε = ±1"
    at.select_slider(key="def_loss_eps").set_value(0.1).run()
    assert metrics(at)["Largest |privacy loss| here"] == "0.1"
    assert not at.exception
    shown = metrics(at)
    assert shown["$e^ε$"] == f"{math.exp(0.1):,.4g}"
    assert shown["Ratio"] == f"{math.exp(0.1):,.4g}"
    density = named_data(at, 0, "density")
    peak = max(density["density"])
    assert peak == pytest.approx(dp.laplace_pdf(truth, loc=truth, scale=10.0))  # ε/2 = 0.05
    loss = named_data(at, 1, "loss")["loss"]
    assert max(loss) == pytest.approx(0.1) and min(loss) == pytest.approx(-0.1)
    band = named_data(at, 1, "band")
    assert band == {"x": [truth - 8.0], "x2": [truth + 8.0], "lo": [-0.1], "hi": [0.1]}
    assert chart_spec(at, 1)["title"] == "Privacy loss stays inside ±ε = ±0.1"


def test_event_in_the_left_tail_gives_e_to_the_minus_epsilon(truth: int) -> None:
    at = run_page()
    at.select_slider(key="def_eps").set_value(2.0)
    at.select_slider(key="def_event").set_value((truth - 6.0, truth - 2.0)).run()
    assert not at.exception
    shown = metrics(at)
    assert shown["Ratio"] == f"{math.exp(-2.0):,.4g}"
    assert "lies within" in at.success[0].value
    event = named_data(at, 0, "event")
    assert event["lo"] == [truth - 6.0] and event["hi"] == [truth - 2.0]


def test_zero_width_event_warns_instead_of_dividing(truth: int) -> None:
    at = run_page()
    at.select_slider(key="def_event").set_value((truth + 1.0, truth + 1.0)).run()
    assert not at.exception
    assert "zero width" in at.warning[0].value
    assert "Ratio" not in metrics(at)


def test_removing_a_low_earner_leaves_the_count_unchanged(truth: int) -> None:
    at = run_page()
    box = at.selectbox(key="def_person")
    low_earner = next(o for o in box.options if "<=50K" in o).split(" — ")[0]
    box.set_value(low_earner).run()
    assert not at.exception
    shown = metrics(at)
    assert shown[f"f(D′): without {low_earner}"] == f"{truth:,}"
    assert shown["Difference"] == "0"
    assert shown["Ratio"] == "1"
    assert "does not change this count" in at.info[0].value
    assert max(named_data(at, 1, "loss")["loss"]) == 0.0
    assert shown["Largest |privacy loss| here"] == "0"


def test_prior_slider_moves_the_posterior_and_its_chart() -> None:
    at = run_page()
    at.select_slider(key="def_post_eps").set_value(3.0)
    at.slider(key="def_prior").set_value(0.5).run()
    assert not at.exception
    expected = dp.posterior_bound(0.5, 3.0)  # e^3 / (e^3 + 1) = 95.3%
    assert metrics(at)["Worst-case posterior"] == f"{text.percent(expected)}" == "95.3%"
    assert metrics(at)["Prior p"] == "50%"
    curve = named_data(at, 2, "curve")
    assert min(curve["posterior"]) == pytest.approx(0.5, abs=0.01)
    assert max(curve["posterior"]) == pytest.approx(dp.posterior_bound(0.5, 20.0))
    point = named_data(at, 2, "point")
    assert point["epsilon"] == [3.0] and point["posterior"] == [pytest.approx(expected)]
    # the diamond's words are the title's (beside it, the curve rising ran through them)
    chart = helpers.chart_titled(at, "Worst-case belief", prefix=True)
    title = helpers.title_of(helpers.spec_of(chart))
    assert title == "Worst-case belief after one output ◆ your ε = 3: 95.3%"
    assert "label" not in point


def test_words_quote_the_large_epsilon_numbers() -> None:
    at = run_page()
    words = " ".join(m.value for m in at.markdown)
    assert f"{text.percent(dp.posterior_bound(0.01, 10.0))}" in words  # 99.6%
    assert "22,026" in words


# --- Classroom features: link binding, code, downloads, quiz, census only -------------------


def run_with_params(**params) -> AppTest:
    return run_lesson(PAGE, **params)


def test_link_reproduces_every_widget(truth: int) -> None:
    low_earner = next(name for name, band in people_to_remove().items() if band == "<=50K")
    at = run_with_params(
        def_person=f"{low_earner} — earns <=50K",  # the URL holds the option as shown
        def_eps="2",
        def_post_eps="2",
        def_event=[text.number(truth - 6.0), text.number(truth - 2.0)],  # as the slider shows
        def_prior="0.5",
    )
    assert at.selectbox(key="def_person").value == low_earner
    assert at.select_slider(key="def_eps").value == 2.0
    assert at.select_slider(key="def_event").value == (truth - 6.0, truth - 2.0)
    assert at.slider(key="def_prior").value == 0.5
    shown = metrics(at)
    assert shown["Difference"] == "0" and shown["Ratio"] == "1"
    assert shown["Worst-case posterior"] == f"{text.percent(dp.posterior_bound(0.5, 2.0))}"


@pytest.mark.parametrize(
    "params",
    [{"def_eps": "7.7"}, {"def_person": "Nobody Atall"}, {"def_prior": "1.5"}],
)
def test_invalid_link_value_falls_back_to_the_default_with_a_notice(params, truth: int) -> None:
    at = app_apptest()
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("lessons/definition/page.py").run()
    assert not at.exception, at.exception
    (key,) = params
    assert any(
        t.value.startswith(f"Ignored an invalid link setting: {text.plain(key)}=") for t in at.toast
    )
    assert at.select_slider(key="def_eps").value == 1.0
    assert at.slider(key="def_prior").value == 0.1
    assert metrics(at)["f(D): everyone"] == f"{truth:,}"
    assert metrics(at)["Ratio"] == f"{math.e:,.4g}"


def test_code_behind_the_charts_has_the_current_values_and_reproduces_them(truth: int) -> None:
    at = run_page()
    at.select_slider(key="def_eps").set_value(0.5)
    at.select_slider(key="def_loss_eps").set_value(0.5)
    at.select_slider(key="def_post_eps").set_value(0.5)
    at.slider(key="def_prior").set_value(0.3).run()
    densities_code, posterior_code = code_texts(at)
    assert f"truth, truth_neighbour, epsilon = {truth}, {truth - 1}, 0.5" in densities_code
    assert "prior, epsilon = 0.3, 0.5" in posterior_code
    namespace: dict = {}
    exec(densities_code, namespace)  # noqa: S102 — our own snippet
    frame = namespace["frame"]
    assert frame["output"].tolist() == pytest.approx(named_data(at, 1, "loss")["y"])
    assert frame["privacy_loss"].tolist() == pytest.approx(named_data(at, 1, "loss")["loss"])
    exec(posterior_code, namespace)  # noqa: S102
    assert namespace["frame"]["posterior"].tolist() == pytest.approx(
        named_data(at, 2, "curve")["posterior"]
    )


def test_download_buttons_hold_the_chart_data(monkeypatch, truth: int) -> None:
    sent = record_downloads(monkeypatch)
    at = run_page()
    assert len(at.get("download_button")) == 3
    for key, filename in (
        ("definition_dl_densities", "definition-densities.csv"),
        ("definition_dl_loss", "definition-privacy-loss.csv"),
    ):
        name, lines = sent[key]
        assert name == filename
        assert lines[0] == "output,density_D,density_D_neighbour,privacy_loss"
        assert len(lines) == 1 + 321  # f(D) ± 8 in steps of 0.05
        first = [float(v) for v in lines[1].split(",")]
        assert first[0] == truth - 8.0
        assert first[3] == pytest.approx(-1.0)  # left of both centres: −ε at ε = 1
    name, lines = sent["definition_dl_posterior"]
    assert name == "definition-posterior.csv" and lines[0] == "epsilon,posterior"


def test_quiz_wrong_and_right_answers_survive_a_slider_move() -> None:
    at = run_page()
    answer_quiz(at, "definition", 0, 0)
    assert any("Not quite" in e.value and "7.39" in e.value for e in at.error)
    answer_quiz(at, "definition", 1, 1)
    assert any(s.value.startswith("Right.") and "75%" in s.value for s in at.success)
    at.select_slider(key="def_eps").set_value(3.0).run()
    at.slider(key="def_prior").set_value(0.6).run()
    assert not at.exception
    assert any("Not quite" in e.value and "7.39" in e.value for e in at.error)
    assert any(s.value.startswith("Right.") and "75%" in s.value for s in at.success)


def test_quiz_answers_are_right() -> None:
    assert dp.likelihood_ratio_bound(2.0) == pytest.approx(7.389, abs=1e-3)  # e², not 2e
    assert dp.posterior_bound(0.5, math.log(3)) == pytest.approx(0.75)
    loss = dp.laplace_privacy_loss([-5.0, 0.0, 3.0], loc=10, loc_neighbour=10, scale=1.0)
    assert list(loss) == [0.0, 0.0, 0.0]


def test_an_upload_leaves_the_census_and_says_so(truth: int) -> None:
    at = run_lesson_with_upload(PAGE, b"job,team\nnurse,a\nchef,b\n", "jobs.csv", max_bytes=10_000)
    assert any("always uses the bundled census" in i.value for i in at.info)
    assert metrics(at)["f(D): everyone"] == f"{truth:,}"
    assert not any("always uses" in i.value for i in run_page().info)


def test_a_neighbour_who_does_not_change_the_count_gets_no_e_to_the_epsilon_claim():
    at = run_page()
    poor = next(name for name, band in people_to_remove().items() if band == "<=50K")
    at.selectbox(key="def_person").set_value(poor).run()
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "ratio reaches $e^ε$" not in captions
    assert "does not change the count" in captions
    loss_alt = helpers.described_charts(at)[1][1]
    assert "0 everywhere" in loss_alt and "·ε left of" not in loss_alt


def test_the_neighbour_relation_is_named_before_the_definition() -> None:
    at = run_page()
    prose = " ".join(block.value for block in at.markdown)
    assert "adding or removing one person" in prose
    assert prose.index("adding or removing one person") < prose.index("ε-differentially private")
    assert "replace" in prose  # the other relation is named too, with its cost


def test_the_events_labels_are_the_values_it_computes_with(truth: int) -> None:
    """The browser sends a select slider's label back. Every edge of Y has a label of its
    own that reads as the value the page then uses (7,841.5, not "7,842" for both 7,841.5
    and 7,842), and a half-step event computes with its own edges."""
    at = run_page()
    node = at.select_slider(key="def_event")
    values = [float(label.replace(",", "").replace("−", "-")) for label in node.options]
    assert values == list(lesson.event_edges(truth)) and len(set(node.options)) == len(values)
    assert node.options[1] == text.number(truth - lesson.HALF_WINDOW + 0.5, 6)
    at.select_slider(key="def_eps").set_value(2.0)
    node.set_value((truth - 0.5, truth + 1.5)).run()
    event = named_data(at, 0, "event")
    assert event["lo"] == [truth - 0.5] and event["hi"] == [truth + 1.5]
    p_d, _, _ = dp.laplace_event_probabilities(
        truth - 0.5, truth + 1.5, loc=truth, loc_neighbour=truth - 1, scale=0.5
    )
    assert metrics(at)["P[F(D) ∈ Y]"] == text.number(p_d)
