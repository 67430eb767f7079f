"""AppTest for lessons/laplace/page.py: every widget moved, the numbers it then shows checked
against dp/ at the chosen values."""

import math
import re

import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from apptest_helpers import (
    answer_quiz,
    chart_spec,
    code_texts,
    csv_header,
    hosted_page,
    ignored_link_notice,
    metrics,
    named_data,
    open_expanders,
    run_lesson,
    toasts,
)
from conftest import PAGES
from lessons.laplace import model as lesson
from ui import controls, downloads, links, text

PAGE = "laplace/page.py"
LESSON = PAGES / PAGE


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
    assert shown["Typical error (SD) √2·b"] == f"±\u00a0{text.number(math.sqrt(2))}"
    assert shown["95% of answers within ±"] == f"{math.log(20):,.4g}"  # b ln 20 = 2.996
    assert shown["Relative error (SD / truth)"] == text.percent(math.sqrt(2) / truth)
    assert chart_spec(at, 0)["title"] == "2,000 noisy answers at ε = 1"
    assert x_domain(chart_spec(at, 0)) == [truth - 50, truth + 50]
    assert sum(named_data(at, 0, "bins")["count"]) == 2_000


def test_epsilon_and_answer_count_move_histogram_and_metrics(people) -> None:
    at = run_page()
    truth = int((people["Age"] >= 40).sum())
    at.select_slider(key="lap_eps").set_value(0.1)
    at.select_slider(key="lap_n").set_value(10_000).run()
    assert not at.exception
    shown = metrics(at)
    assert shown["Scale b = 1/ε"] == "10"
    assert shown["95% of answers within ±"] == f"{10 * math.log(20):,.4g}"  # 29.96
    # Section 3 has an ε of its own: this one leaves it alone.
    assert shown["Best guess right"] == f"{text.percent(1 - 0.5 * math.exp(-0.5))}"  # 69.7%
    assert chart_spec(at, 4)["title"] == "The two possible worlds at ε = 1"
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
    at.select_slider(key="lap_eps").set_value(0.1)
    at.radio(key="lap_zoom").set_value("true count ± 5").run()
    assert not at.exception
    assert x_domain(chart_spec(at, 0)) == [truth - 5, truth + 5]
    caption = " ".join(c.value for c in at.caption)
    # P[|Lap(10)| > 5] = e^-0.5 = 61% of 2,000 answers land outside ± 5.
    assert "fall outside the window and are counted in the edge bins" in caption
    assert "A wider window shows more of them." in caption
    counts = named_data(at, 0, "bins")["count"]
    assert counts[0] + counts[-1] > 0.5 * 2_000


def test_at_the_widest_window_no_wider_one_is_offered() -> None:
    """Finding: at ε = 0.01 (scale 100) about e⁻⁵ of the answers, 13 of 2,000, land beyond
    ±500, the widest window, and the caption said "Choose a wider window to see them"."""
    at = run_page()
    at.select_slider(key="lap_eps").set_value(0.01)
    at.radio(key="lap_zoom").set_value("true count ± 500").run()
    assert not at.exception
    counts = named_data(at, 0, "bins")["count"]
    outside = counts[0] + counts[-1]  # the edge bins hold those outside, and their own
    caption = " ".join(c.value for c in at.caption)
    assert "fall outside even the widest window, ±500, and are counted in its edge bins" in caption
    assert "wider window" not in caption
    shown = int(re.search(r"([\d,]+) of 2,000 answers fall outside", caption)[1].replace(",", ""))
    assert 0 < shown <= outside


def test_small_multiples_share_one_axis(people) -> None:
    at = run_page()
    truth = int((people["Age"] >= 40).sum())
    titles = [chart_spec(at, i)["title"] for i in (1, 2, 3)]
    assert titles == [
        f"ε = {text.number(e)}: 95% of answers within "
        f"±{text.number(dp.laplace_interval_half_width(1 / e), 3)}"
        for e in (0.1, 1.0, 5.0)
    ]
    assert all(x_domain(chart_spec(at, i)) == [truth - 40, truth + 40] for i in (1, 2, 3))
    # They sit outside section 2's fragment, so they keep their own 2,000 draws.
    at.select_slider(key="lap_n").set_value(10_000).run()
    assert [sum(named_data(at, i, "bins")["count"]) for i in (0, 1, 2, 3)] == [10_000] + [2_000] * 3


def test_age_threshold_changes_the_true_count(people) -> None:
    at = run_page()
    at.slider(key="lap_age").set_value(65).run()
    assert not at.exception
    truth = int((people["Age"] >= 65).sum())
    assert f"aged 65 or older?** The true answer is **{truth:,}**" in " ".join(
        m.value for m in at.markdown
    )
    assert metrics(at)["Relative error (SD / truth)"] == text.percent(math.sqrt(2) / truth)


def test_condition_queries_count_the_census(people) -> None:
    at = run_page()
    at.radio(key="lap_q").set_value("Rows matching a condition").run()
    assert at.selectbox(key="lap_cond").value == "Occupation = Sales"
    assert not at.exception
    shown_text = " ".join(m.value for m in at.markdown)
    assert "How many people have Occupation = Sales?** The true answer is **3,650**" in shown_text
    at.selectbox(key="lap_cond").set_value("Income = >50K").run()
    rich = int((people["Income"] == ">50K").sum())
    assert f"The true answer is **{rich:,}**" in " ".join(m.value for m in at.markdown)
    assert metrics(at)["Relative error (SD / truth)"] == text.percent(math.sqrt(2) / rich)


def test_malicious_query_draw_and_guess() -> None:
    at = run_page()
    assert "Press the button" in at.info[0].value
    at.select_slider(key="lap_eps").set_value(10.0)
    at.selectbox(key="lap_name").set_value("Michael Clark").run()  # earns >50K: answer 0
    at.button(key="laplace_draw").click().run()
    assert not at.exception
    shown = metrics(at)
    answer = float(shown["Noisy answer #1"].replace(",", ""))
    assert abs(answer) < 5  # 0 + Lap(0.1)
    at.radio(key="laplace_guess").set_value("0 — earns more than \\$50K").run()
    assert "Right: the true answer is 0" in at.success[0].value
    at.radio(key="laplace_guess").set_value("1 — earns \\$50K or less").run()
    assert "Wrong: the true answer is 0" in at.error[0].value
    at.button(key="laplace_draw").click().run()
    assert "Noisy answer #2" in metrics(at)
    assert at.radio(key="laplace_guess").value is None  # a new draw clears the guess


def test_worlds_and_accuracy_charts_follow_their_own_epsilon() -> None:
    at = run_page()
    at.select_slider(key="lap_attack_eps").set_value(2.0).run()
    worlds = named_data(at, 4, "worlds")
    assert max(worlds["density"]) == pytest.approx(1.0)  # peak 1/(2b) = ε/2
    assert chart_spec(at, 4)["title"] == "The two possible worlds at ε = 2"
    point = named_data(at, 5, "point")
    assert point["accuracy"][0] == pytest.approx(1 - 0.5 * math.exp(-1.0))  # 81.6%
    # the diamond's words, in the title (beside it, the curve crossed them on a phone)
    assert helpers.title_of(helpers.spec_of(helpers.charts(at)[5])) == (
        "How often the best guess is right ◆ at ε = 2: 81.6%"
    )
    assert metrics(at)["Best guess right"] == "81.6%"
    assert metrics(at)["Scale b of this answer"] == "0.5"
    assert metrics(at)["Scale b = 1/ε"] == "1"  # section 2's ε did not move
    assert "at ε = 2 it is 81.6%" in helpers.described_charts(at)[5][1]
    curve = named_data(at, 5, "curve")
    assert curve["accuracy"][0] == pytest.approx(dp.best_guess_accuracy(0.01))


# --- Classroom features: shareable links, code, downloads, quiz, your own data ------------


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    """The lesson inside a host like app.py: the link guard and the dataset picker around it
    (the notice for an ignored link setting and the uploader live in app.py, not the page)."""
    return hosted_page(PAGE, upload=upload, timeout_s=60, **params)


def test_a_link_reproduces_the_view(people) -> None:
    at = hosted(lap_eps="0.1", lap_n="10,000", lap_zoom="true count ± 500", lap_age="65")
    assert metrics(at)["Scale b = 1/ε"] == "10"
    assert not at.toast
    truth = int((people["Age"] >= 65).sum())
    assert chart_spec(at, 0)["title"] == "10,000 noisy answers at ε = 0.1"
    assert x_domain(chart_spec(at, 0)) == [truth - 500, truth + 500]
    at = hosted(lap_q="Rows matching a condition", lap_cond="Income = >50K")
    rich = int((people["Income"] == ">50K").sum())
    assert f"The true answer is **{rich:,}**" in " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize(("param", "value"), [("lap_eps", "0.123"), ("lap_n", "7"), ("lap_q", "x")])
def test_an_invalid_link_setting_falls_back_with_a_notice(param, value) -> None:
    at = hosted(**{param: value})
    expected = ignored_link_notice(param, value)
    assert toasts(at) == [expected]
    assert metrics(at)["Scale b = 1/ε"] == "1"
    assert chart_spec(at, 0)["title"] == "2,000 noisy answers at ε = 1"


def test_a_long_link_value_is_repeated_cut() -> None:
    """Finding: the notice repeated a link's value whole (a toast and a sidebar caption of
    50,000 characters for `?lap_eps=000…`): cut to links.SHOWN_CHARS."""
    at = hosted(lap_eps="0" * 50_000)
    expected = ignored_link_notice("lap_eps", "0" * (links.SHOWN_CHARS - 1) + "…")
    assert toasts(at) == [expected]


def test_the_code_and_the_download_follow_the_sliders(people) -> None:
    at = run_page()
    at.select_slider(key="lap_eps").set_value(0.3)
    at.select_slider(key="lap_attack_eps").set_value(0.3)
    at.select_slider(key="lap_n").set_value(500).run()
    truth = int((people["Age"] >= 40).sum())
    codes = code_texts(at)
    assert f"truth, epsilon, answers, half_width = {truth}, 0.3, 500, 50.0" in codes[0]
    assert f"rng={controls.DEFAULT_SEED + lesson.SEED_HISTOGRAM})" in codes[0]
    assert "epsilon = 0.3" in codes[1]
    # The snippet, run, gives exactly the chart's bins.
    namespace: dict = {}
    exec(compile(codes[0], "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    assert namespace["bins"]["count"].tolist() == named_data(at, 0, "bins")["count"]
    downloads = at.get("download_button")
    assert [d.proto.label for d in downloads] == ["Download the data (CSV)"] * 2


def test_download_csv_headers() -> None:
    frame = lesson.histogram(100, 1.0, 200, 50.0, 1)[0]
    assert csv_header(frame) == "start,end,count,share"
    assert downloads.csv_bytes(lesson.accuracy_frame()).decode().startswith("epsilon,accuracy\n")


def test_the_quiz_gives_feedback_that_survives_a_slider_move() -> None:
    at = run_page()
    assert "Check yourself" in [h.value for h in at.header]
    answer_quiz(at, "laplace", 0, 0)  # "It doubles": wrong
    assert "Not quite: the answer is “It halves”" in at.error[0].value
    answer_quiz(at, "laplace", 0, 1)
    assert at.success[0].value.startswith("Right. b = Δ/ε")
    at.select_slider(key="lap_eps").set_value(5.0).run()
    assert not at.exception
    assert at.success[0].value.startswith("Right. b = Δ/ε")
    assert at.radio(key="quiz_laplace_0_choice").value == 1


def test_quiz_answers_are_right() -> None:
    # ε = ln 3: 1 - ½ e^(-ε/2) = 1 - ½ / √3 = 71.1%
    assert dp.best_guess_accuracy(math.log(3)) == pytest.approx(0.7113, abs=1e-4)
    assert dp.laplace_scale(1, 2.0) == 0.5 * dp.laplace_scale(1, 1.0)


JOBS = b"Job,Town\nSales,Leeds\nClerk,York\nSales,Hull\nSales,York\nClerk,Leeds\nCook,York\n"


def test_your_own_file_is_counted_and_the_census_numbers_are_gone(people) -> None:
    at = hosted(upload=("jobs.csv", JOBS))
    assert "Your file: jobs.csv (6 rows)" in [t.value for t in at.text]
    assert at.get("radio")[0].key != "lap_q"  # no age query: only conditions
    assert at.selectbox(key="lap_cond").value == "Job = Sales"
    shown_text = " ".join(m.value for m in at.markdown)
    assert "How many rows have Job = Sales?** The true answer is **3**" in shown_text
    assert metrics(at)["Relative error (SD / truth)"] == text.percent(math.sqrt(2) / 3)
    assert chart_spec(at, 0)["title"] == "2,000 noisy answers at ε = 1"
    assert x_domain(chart_spec(at, 0)) == [3 - 50, 3 + 50]
    census_truth = f"{int((people['Age'] >= 40).sum()):,}"
    assert census_truth not in shown_text and "32,561" not in shown_text
    assert "only the census has names" in at.info[0].value
    at.selectbox(key="lap_cond").set_value("Town = York").run()
    assert "Town = York?** The true answer is **3**" in " ".join(m.value for m in at.markdown)
    assert "rows have Town = York" in " ".join(m.value for m in at.markdown)


def test_markdown_in_a_file_is_shown_literally() -> None:
    raw = b"**Job**,n\n[x](http://e.com),1\n[x](http://e.com),2\nb,3\n"
    at = hosted(upload=("evil.csv", raw))
    question = next(m.value for m in at.markdown if m.value.startswith("**How many rows"))
    assert "[x](" not in question and "**Job**" not in question
    assert text.plain("[x](http://e.com)") in question


def test_every_redraw_of_the_malicious_query_is_charged_and_averaging_shows_why():
    at = run_page()
    for _ in range(3):
        at.button(key="laplace_draw").click().run()
    assert not at.exception
    shown = metrics(at)
    assert shown["ε spent on 3 draw(s): k·ε"] == "3"  # 3 draws at the default ε = 1
    caption = " ".join(c.value for c in at.caption)
    assert "3 draws cost 3·ε = 3" in caption
    assert f"±\u00a0{text.number(dp.averaged_laplace_std(1, 1.0, 3))}" in caption


def test_the_discrete_toggle_draws_integer_noise_and_explains_why():
    # Window ± 5 in 100 bins of 0.1: integer answers can fill at most 11 bins.
    narrow = {"lap_zoom": "true count ± 5", "lap_eps": "0.5"}
    continuous = run_lesson(PAGE, **narrow)
    integer = run_lesson(PAGE, **narrow, lap_discrete="true")
    filled_continuous = sum(1 for c in named_data(continuous, 0, "bins")["count"] if c > 0)
    filled_integer = sum(1 for c in named_data(integer, 0, "bins")["count"] if c > 0)
    assert filled_integer <= 11 < filled_continuous
    code = " ".join(code_texts(integer, "discrete_laplace_mechanism"))
    assert "if True:" in code
    # "Under the hood" is lazy: closed, it sends only its header; opened, the why
    assert not any("Mironov (2012)" in m.value for m in integer.markdown)
    open_expanders(integer, "Under the hood: floating-point noise leaks")
    assert any("Mironov (2012)" in m.value for m in integer.markdown)
    assert any("P[K = 0] = 24.5%" in m.value for m in integer.markdown)  # tanh(ε/2) at ε = 0.5


def test_the_query_options_read_whole() -> None:
    """The option "People aged at least …" read as a label cut short."""
    at = run_lesson(PAGE)
    (query,) = [r for r in at.radio if r.label == "The query"]
    assert query.options == ["People of a minimum age", "Rows matching a condition"]
    assert not any("…" in option or "..." in option for option in query.options)
