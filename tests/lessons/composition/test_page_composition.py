"""AppTest of lessons/composition/page.py: every slider moved, and what the page then shows checked
against the dp/ formulas at the chosen values."""

import math

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from apptest_helpers import (
    answer_quiz,
    chart_titled,
    code_texts,
    csv_header,
    frames_of,
    hosted_page,
    ignored_link_notice,
    metric_starting,
    run_lesson,
    spec_of,
    toasts,
)
from conftest import PAGES
from data.census import load_census
from lessons.composition import model as lesson_composition
from ui import controls, text

PAGE = "composition/page.py"
LESSON = PAGES / PAGE


@pytest.fixture(scope="module")
def census():
    return load_census()


def run_page():
    return run_lesson(PAGE)


def chart(at, title_start: str) -> tuple[dict, list[pd.DataFrame]]:
    """The Vega-Lite spec and the data frames of the chart whose title starts so."""
    element = chart_titled(at, title_start, prefix=True)
    return spec_of(element), list(frames_of(element).values())


def frame_with(frames: list[pd.DataFrame], column: str) -> pd.DataFrame:
    """The largest of the chart's data frames that has `column`."""
    candidates = [frame for frame in frames if column in frame.columns]
    assert candidates, f"no chart data with column {column!r}"
    return max(candidates, key=len)


def test_defaults_show_the_dp_numbers():
    at = run_page()
    # eps_total = 1, m = 10
    assert metric_starting(at, "ε per query") == f"{dp.split_budget(1, 10):.4g}"
    assert (
        metric_starting(at, "Typical error per answer")
        == f"±\u00a0{text.number(dp.laplace_std(1, 0.1))}"
    )
    assert len(at.get("vega_lite_chart")) == 5
    assert all(words for _, words in helpers.described_charts(at))


def test_sequential_sliders_change_per_query_epsilon_and_the_marked_point():
    at = run_page()
    at.select_slider(key="seq_total").set_value(2.0)
    at.slider(key="seq_m").set_value(40)
    at.run()
    assert not at.exception
    assert metric_starting(at, "ε per query") == "0.05"
    # sd = sqrt 2 * 40 / 2 = 28.28
    assert (
        metric_starting(at, "Typical error per answer")
        == f"±\u00a0{text.number(20 * math.sqrt(2))}"
    )
    spec, frames = chart(at, "Error per answer grows")
    line = frame_with(frames, "sd")
    assert len(line) == lesson_composition.MAX_QUERIES
    assert line["sd"].iloc[0] == pytest.approx(dp.laplace_std(1, 2.0))
    marked = [f for f in frames if len(f) == 1]
    assert marked and marked[0]["m"].iloc[0] == 40
    # the axis never rescales
    assert spec["layer"][0]["encoding"]["y"]["scale"]["domain"] == [0.1, 10_000.0]


def test_averaging_attack_sliders_change_the_ledger(census):
    at = run_page()
    at.select_slider(key="avg_eps").set_value(0.5)
    at.select_slider(key="avg_m").set_value(1000)
    at.run()
    assert not at.exception
    assert (
        metric_starting(at, "Privacy spent")
        == f"{text.number(dp.sequential_composition([0.5] * 1000))}"
    )
    assert metric_starting(at, "Privacy spent") == "500"
    assert metric_starting(at, "Typical error of the average") == (
        f"±\u00a0{text.number(dp.averaged_laplace_std(1, 0.5, 1000))}"
    )
    truth = int((census["Income"] == ">50K").sum())
    _, frames = chart(at, "Averaging repeated answers")
    data = frame_with(frames, "average")
    assert len(data) == 1000
    # the average of 1,000 answers at eps = 0.5 sits within 6 sd (sd = 0.089) of the truth
    assert abs(data["average"].iloc[-1] - truth) <= 6 * dp.averaged_laplace_std(1, 0.5, 1000)
    # The metric is that last point of the running average, the attacker's estimate.
    assert metric_starting(at, "Average of the answers") == text.number(data["average"].iloc[-1])
    # A static table, not the data grid (~0.3 s of a first visit in Chromium): no dataframe.
    assert len(at.dataframe) == 0
    ledger = at.table[0].value
    assert list(ledger["answers"]) == ["1", "10", "100", "1,000"]
    assert ledger.iloc[-1, -1] == "no"
    assert "only 2 of these questions" in " ".join(m.value for m in at.markdown)


def test_fewer_answers_fit_the_budget():
    at = run_page()
    at.select_slider(key="avg_m").set_value(5)
    at.run()
    ledger = at.table[0].value
    assert list(ledger["answers"]) == ["1", "5"]
    assert list(ledger.iloc[:, -1]) == ["yes", "yes"]
    _, frames = chart(at, "Averaging repeated answers")
    assert len(frame_with(frames, "average")) == 5


def test_parallel_slider_compares_the_two_costs(census):
    at = run_page()
    at.select_slider(key="par_eps").set_value(1.0)
    at.run()
    assert not at.exception
    k = census["Occupation"].nunique()
    assert k == 14
    assert metric_starting(at, "Cost as one histogram") == "ε = 1"
    assert metric_starting(at, f"Cost as {k} separate queries") == "ε = 14"
    assert (
        metric_starting(at, "Error per bar, histogram")
        == f"±\u00a0{text.number(dp.laplace_std(1, 1.0))}"
    )
    assert (
        metric_starting(at, "Error per bar, ε split")
        == f"±\u00a0{text.number(dp.laplace_std(1, 1 / 14))}"
    )
    spec, frames = chart(at, "One histogram: ε = 1 per bar")
    bars = frame_with(frames, "parallel")
    truth = census["Occupation"].value_counts()
    assert dict(zip(bars["occupation"], bars["true"], strict=True)) == {
        str(name): int(count) for name, count in truth.items()
    }
    # noise at eps = 1 is Lap(1): P[|noise| >= 30] = e^-30 per bar
    assert (bars["parallel"] - bars["true"]).abs().max() < 30
    chart(at, f"{k} separate queries: ε = {1 / 14:.3g} each")


def test_group_sliders_change_the_posterior_bound():
    at = run_page()
    at.select_slider(key="group_eps").set_value(1.0)
    at.slider(key="group_g").set_value(3)
    at.select_slider(key="group_prior").set_value(0.5)
    at.run()
    assert not at.exception
    assert metric_starting(at, "Family's ε") == "3"
    assert metric_starting(at, "Likelihood ratio bound") == f"{math.exp(3):,.3g}"
    # e^3 / (e^3 + 1) = 0.9526
    assert metric_starting(at, "Worst-case belief") == "95%"
    spec, frames = chart(at, "What an attacker can believe")
    # the chosen group's value, in the title (beside its diamond the prior's line or the
    # curve crossed it on a projector)
    assert helpers.title_of(spec) == "What an attacker can believe ◆ a group of 3: 95%"
    curve = frame_with(frames, "posterior")
    assert curve["posterior"].tolist() == pytest.approx(
        [dp.posterior_bound(0.5, g * 1.0) for g in range(1, 11)]
    )


@pytest.mark.parametrize(
    ("epsilon", "g", "prior", "place"),
    [
        # the curve 1-3 points above the line, the diamond at its right end: left above
        (0.05, 9, 0.05, (False, False)),
        # the diamond at the left end on a curve that all but lies on the line: right above
        (0.01, 1, 0.01, (True, False)),
        # a curve less than 3 px above the line all along: under it, where there is room
        (0.01, 4, 0.1, (False, True)),
        # the curve far above the line from g = 1: where a label goes first
        (1.0, 1, 0.5, (False, False)),
    ],
)
def test_the_priors_label_goes_where_neither_the_curve_nor_the_diamond_runs(
    epsilon, g, prior, place
):
    """ "prior 5%" was written at the line's right end, where at ε = 0.05 the curve runs 1-3
    points above the line (through the label on a phone) and the diamond of g = 9 sat on it.
    The place is read from the curve on a phone's plot (ui.charts.level_label_places)."""
    at = run_lesson(PAGE, group_eps=str(epsilon), group_g=str(g), group_prior=f"{prior:.0%}")
    _spec, frames = chart(at, "What an attacker can believe")
    line = frame_with(frames, "under")
    assert line["y"].tolist() == [prior]
    assert line["label"].tolist() == [f"prior {prior:.0%}"]
    assert (bool(line["right"][0]), bool(line["under"][0])) == place


# --- Classroom features: shareable links, code, downloads, quiz, the census only -----------


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    """The lesson inside a host like app.py: the link guard and the dataset picker around it."""
    return hosted_page(PAGE, upload=upload, timeout_s=60, **params)


LINK = {
    "seq_total": "2",
    "seq_m": "40",
    "avg_eps": "0.5",
    "avg_m": "1,000",
    "par_eps": "1",
    "group_eps": "1",
    "group_g": "3",
    "group_prior": "50%",
}


def test_a_link_reproduces_every_slider():
    at = hosted(**LINK)
    assert not at.toast
    assert metric_starting(at, "ε per query") == "0.05"
    assert metric_starting(at, "Privacy spent") == "500"
    assert metric_starting(at, "Cost as one histogram") == "ε = 1"
    assert metric_starting(at, "Family's ε") == "3"
    assert metric_starting(at, "Worst-case belief") == "95%"


@pytest.mark.parametrize(
    ("param", "value"), [("seq_m", "99"), ("avg_eps", "0.3"), ("group_prior", "7%")]
)
def test_an_invalid_link_setting_falls_back_with_a_notice(param, value):
    at = hosted(**{param: value})
    expected = ignored_link_notice(param, value)
    assert toasts(at) == [expected]
    assert metric_starting(at, "ε per query") == f"{dp.split_budget(1, 10):.4g}"


def test_the_code_and_downloads_follow_the_sliders(census):
    at = run_page()
    at.select_slider(key="avg_eps").set_value(0.2)
    at.select_slider(key="avg_m").set_value(50)
    at.select_slider(key="par_eps").set_value(0.5).run()
    truth = int((census["Income"] == ">50K").sum())
    averaging, parallel = code_texts(at)
    seed = controls.DEFAULT_SEED + 1
    assert f"truth, epsilon, answers = {truth}, 0.2, 50" in averaging
    assert f"rng={seed})" in averaging
    assert "epsilon, seed = 0.5, " + str(controls.DEFAULT_SEED + 2) in parallel
    # The averaging snippet, run, gives exactly the chart's running average.
    namespace: dict = {}
    exec(compile(averaging, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    _, frames = chart(at, "Averaging repeated answers")
    assert namespace["frame"]["running_average"].tolist() == pytest.approx(
        frame_with(frames, "average")["average"].tolist()
    )
    keys = [d.proto.id for d in at.get("download_button")]
    assert len(keys) == 4


def test_download_headers():
    header = csv_header(lesson_composition.averaging_frame(100, 0.5, 1).head(3))
    assert header == "k,answer,average,lo,hi"
    bars = lesson_composition.histogram_frames(0.5, 1)
    assert csv_header(bars) == "occupation,true,parallel,split"
    group = csv_header(lesson_composition.group_frame(0.5, 0.1))
    assert group == "g,epsilon,posterior"


def test_the_quiz_gives_feedback_that_survives_a_slider_move():
    at = run_page()
    answer_quiz(at, "composition", 1, 1)  # ε = 0.1 spent: wrong
    assert "Not quite: the answer is “± 1.41, and ε = 10 spent”" in at.error[0].value
    answer_quiz(at, "composition", 1, 2)
    assert at.success[0].value.startswith("Right.")
    at.slider(key="seq_m").set_value(30).run()
    assert not at.exception
    assert at.success[0].value.startswith("Right.")


def test_quiz_answers_are_right():
    assert dp.laplace_std(1, dp.split_budget(1, 10)) == pytest.approx(14.14, abs=0.01)
    assert dp.averaged_laplace_std(1, 0.1, 100) == pytest.approx(1.414, abs=0.001)
    assert dp.sequential_composition([0.1] * 100) == pytest.approx(10)
    assert dp.parallel_composition([0.1] * 14) == pytest.approx(0.1)


def test_an_upload_leaves_the_census_with_a_notice(census):
    at = hosted(upload=("jobs.csv", b"Job,n\nSales,1\nClerk,2\nSales,3\n"))
    assert "Your file: jobs.csv (3 rows)" in [t.value for t in at.text]
    assert "always uses the bundled census" in at.info[0].value
    truth = int((census["Income"] == ">50K").sum())
    assert f"(truth: {truth:,})" in " ".join(m.value for m in at.markdown)


def test_parallel_composition_names_its_neighbour_relation_and_the_people_in_no_bar(census):
    at = run_page()
    missing = int(census["Occupation"].isna().sum())
    shown = " ".join(m.value for m in at.markdown) + " " + " ".join(c.value for c in at.caption)
    assert "Everyone is in exactly one" not in shown  # false: 1,843 people are in no bar
    assert f"({missing:,} people have no occupation recorded and are in none)" in shown
    assert missing == 1_843
    assert "add or remove one person" in shown
    assert "costs 2ε = 0.2" in shown  # under replace-one neighbours, at the default ε = 0.1


def test_the_ledger_of_one_answer_is_not_a_sum() -> None:
    # m = 1: "1 answers at ε = 0.1 cost ε = 0.1, and the average pins the truth down" was shown
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="avg_m").set_value(1).run()
    said = helpers.prose(at)
    assert "1 answers" not in said and "Together they are not" not in said
    assert "One answer at ε = 0.1 costs ε = 0.1 and misses the truth by about" in said
    at.select_slider(key="avg_m").set_value(100).run()
    assert "Together they are not: 100 answers at ε = 0.1 cost ε = 10" in helpers.prose(at)
