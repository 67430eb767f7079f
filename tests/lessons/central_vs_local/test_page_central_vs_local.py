"""AppTest of lessons/central_vs_local/page.py: the ε slider moved, and the metrics and both charts'
data checked against the dp/ formulas at the chosen values."""

import numpy as np
import pandas as pd
import pytest

import apptest_helpers as helpers
import dp
from apptest_helpers import (
    answer_quiz,
    chart_titled,
    code_texts,
    frames_of,
    metric_starting,
    record_downloads,
    run_lesson,
    run_lesson_with_upload,
    spec_of,
)
from conftest import page_apptest
from lessons.central_vs_local import model as lesson
from ui import text, userdata
from ui.controls import DEFAULT_SEED
from ui.datasets import census

PAGE = "central_vs_local/page.py"
TRUTH, N = 3_650, 32_561
CENTRAL, LOCAL = lesson.CENTRAL, lesson.LOCAL


def run_page(epsilon: float | None = None):
    at = page_apptest(PAGE).run()
    assert not at.exception, at.exception
    if epsilon is not None:  # both sections' ε (each section is a fragment with its own)
        at.select_slider(key="cvl_eps").set_value(epsilon)
        at.select_slider(key="cvl_n_eps").set_value(epsilon)
        at.run()
        assert not at.exception, at.exception
    return at


def chart_data(at, title_start: str) -> tuple[dict, pd.DataFrame]:
    """The spec and the largest data frame of the chart whose title starts so."""
    element = chart_titled(at, title_start, prefix=True)
    return spec_of(element), max(frames_of(element).values(), key=len)


def test_default_shows_truth_and_typical_errors():
    at = run_page()
    assert metric_starting(at, "True count") == "3,650"
    assert (
        metric_starting(at, "Typical error, central")
        == f"±\u00a0{text.number(dp.laplace_std(1, 1.0))}"
    )
    assert (
        metric_starting(at, "Typical error, local")
        == f"±\u00a0{text.number(dp.local_count_std(N, 1.0))}"
    )
    # sqrt(32,561) e^0.5 / (e - 1) / (sqrt 2 / 1) = 122.4
    assert metric_starting(at, "Local is worse here by") == "about 122×"
    assert all(words for _, words in helpers.described_charts(at))
    # One answer from each model, drawn as the page draws them: truth + Lap(1/ε) centrally,
    # a whole randomized-response survey de-biased locally (p = q = e/(1 + e)).
    seed = DEFAULT_SEED + lesson.SEED_ONE_ANSWER
    central = dp.laplace_mechanism(3_650, 1, 1.0, rng=seed)
    p = dp.rr_keep_probability(1.0)
    reported = dp.sample_rr_counts(3_650, N, p, p, rng=seed + lesson.SEED_LOCAL_SURVEY)
    local = N * dp.estimate_proportion_from_counts(reported, N, p, p)
    assert metric_starting(at, "One central answer") == text.number(central)
    assert metric_starting(at, "One local estimate") == f"{local:,.0f}"
    assert abs(central - 3_650) <= 6 * dp.laplace_std(1, 1.0)
    assert abs(local - 3_650) <= 6 * dp.local_count_std(N, 1.0)


@pytest.mark.parametrize("epsilon", [0.1, 2.0, 10.0, 0.01])
def test_epsilon_slider_updates_metrics_and_both_charts(epsilon):
    at = run_page(epsilon)
    ratio = dp.local_to_central_error_ratio(N, epsilon)
    assert metric_starting(at, "Local is worse here by") == f"about {ratio:,.0f}×"
    assert (
        metric_starting(at, "Keep-probability") == f"{text.number(dp.rr_keep_probability(epsilon))}"
    )
    assert (
        metric_starting(at, "Typical error, central")
        == f"±\u00a0{text.number(dp.laplace_std(1, epsilon))}"
    )

    spec, bins = chart_data(at, "How far off is one answer")
    assert set(bins["model"]) == {CENTRAL, LOCAL}
    assert len(bins) == 2 * (len(lesson.ERROR_EDGES) - 1)
    # each model's bins hold all the probability; the central one is exact
    for model in (CENTRAL, LOCAL):
        assert bins.loc[bins["model"] == model, "share"].sum() == pytest.approx(1.0)
    central = bins[bins["model"] == CENTRAL]
    lo, hi = central["start"].to_numpy()[1:-1], central["end"].to_numpy()[1:-1]
    assert central["share"].to_numpy()[1:-1] == pytest.approx(
        dp.laplace_abs_error_probability(lo, hi, sensitivity=1, epsilon=epsilon)
    )
    # the local errors centre on the local sd: median bin within a factor 3 of it
    local = bins[bins["model"] == LOCAL]
    cumulative = np.cumsum(local["share"].to_numpy())
    median_bin = local["start"].to_numpy()[np.searchsorted(cumulative, 0.5)]
    sd = dp.local_count_std(N, epsilon)
    assert sd / 3 < median_bin < sd * 3
    x_scale = spec["layer"][0]["encoding"]["x"]["scale"]
    assert x_scale["type"] == "log" and x_scale["domain"] == [0.01, 100_000.0]

    _, lines = chart_data(at, "Typical error versus the number of people")
    central_line = lines[lines["model"] == CENTRAL]
    local_line = lines[lines["model"] == LOCAL]
    assert central_line["sd"].to_numpy() == pytest.approx(dp.laplace_std(1, epsilon))
    assert local_line["sd"].to_numpy() == pytest.approx(
        dp.local_count_std(local_line["n"].to_numpy(), epsilon)
    )
    assert local_line["n"].min() == pytest.approx(100)
    assert local_line["n"].max() == pytest.approx(10_000_000)


def test_section_two_keeps_its_own_epsilon_and_section_three_speaks_of_epsilon_one():
    at = page_apptest(PAGE).run()
    at.select_slider(key="cvl_eps").set_value(0.1).run()
    assert metric_starting(at, "n = 1,000: local / central") == (
        f"{dp.local_to_central_error_ratio(1_000, 1.0):,.0f}×"
    )
    trust = " ".join(m.value for m in at.markdown)
    assert f"±\u00a0{text.number(dp.laplace_std(1, 1.0))} people at ε = 1" in trust
    assert f"{dp.local_to_central_error_ratio(N, 1.0):,.0f} times the central error" in trust
    at.select_slider(key="cvl_n_eps").set_value(0.1).run()
    assert metric_starting(at, "n = 1,000: local / central") == (
        f"{dp.local_to_central_error_ratio(1_000, 0.1):,.0f}×"
    )


def test_ratio_grows_like_root_n():
    at = run_page(0.5)
    small = metric_starting(at, "n = 1,000: local / central")
    large = metric_starting(at, "n = 1,000,000: local / central")
    assert small == f"{dp.local_to_central_error_ratio(1_000, 0.5):,.0f}×"
    assert large == f"{dp.local_to_central_error_ratio(1_000_000, 0.5):,.0f}×"
    # 1,000x the people: sqrt(1,000) = 31.6x the ratio
    assert dp.local_to_central_error_ratio(1_000_000, 0.5) / dp.local_to_central_error_ratio(
        1_000, 0.5
    ) == pytest.approx(1000**0.5)


# --- Classroom features: link binding, quiz, code, downloads, your own data ---------------


def run_with_params(**params: str):
    return run_lesson(PAGE, **params)


def test_link_reproduces_epsilon_and_question():
    at = run_with_params(cvl_eps="0.1", cvl_q="Sex = Female")
    assert at.select_slider(key="cvl_eps").value == 0.1
    assert at.selectbox(key="cvl_q").value == "Sex = Female"
    female = int((census()["Sex"] == "Female").sum())
    assert metric_starting(at, "True count") == f"{female:,}"
    assert female != TRUTH
    ratio = dp.local_to_central_error_ratio(N, 0.1)
    assert metric_starting(at, "Local is worse here by") == f"about {ratio:,.0f}×"


@pytest.mark.parametrize("params", [{"cvl_eps": "7.7"}, {"cvl_q": "Nope = nothing"}])
def test_invalid_link_value_falls_back_to_the_default(params):
    at = run_with_params(**params)
    assert at.select_slider(key="cvl_eps").value == 1.0
    assert at.selectbox(key="cvl_q").value == "Occupation = Sales"
    assert metric_starting(at, "True count") == "3,650"


def code_blocks(at) -> list[str]:
    return code_texts(at)


def test_code_behind_the_charts_has_the_current_values():
    at = run_page(0.5)
    errors_code, by_n_code = code_blocks(at)
    assert "truth, n, epsilon, repetitions = 3650, 32561, 0.5, 20000" in errors_code
    assert f"rng={DEFAULT_SEED + 3}" in errors_code
    assert "epsilon = 0.5" in by_n_code


def test_snippet_reproduces_the_page_chart_data():
    at = run_page(0.5)
    namespace: dict = {}
    exec(code_blocks(at)[0], namespace)  # noqa: S102 — our own snippet
    _, bins = chart_data(at, "How far off is one answer")
    frame = namespace["frame"]
    for model, column in ((CENTRAL, "central"), (LOCAL, "local")):
        shown = bins.loc[bins["model"] == model, "share"].to_numpy()
        assert shown == pytest.approx(frame[column].to_numpy())


def test_download_buttons_hold_the_chart_data(monkeypatch):
    sent = record_downloads(monkeypatch)
    at = run_page(0.5)
    assert len(at.get("download_button")) == 2
    filename, lines = sent["central_vs_local_dl_errors"]
    assert filename == "central_vs_local-error-distribution.csv"
    assert lines[0] == "model,start,end,share"
    assert len(lines) == 1 + 2 * (len(lesson.ERROR_EDGES) - 1)
    filename, lines = sent["central_vs_local_dl_by_n"]
    assert filename == "central_vs_local-error-vs-n.csv"
    assert lines[0] == "model,n,sd"
    assert lines[1].startswith(f"{lesson.CENTRAL},100.0,{dp.laplace_std(1, 0.5)}")


def test_quiz_wrong_and_right_answers_survive_a_slider_move():
    at = run_page()
    answer_quiz(at, "central_vs_local", 0, 0)
    assert any("Not quite" in e.value and "√4 = 2" in e.value for e in at.error)
    answer_quiz(at, "central_vs_local", 1, 2)
    assert any(s.value.startswith("Right.") and "122" in s.value for s in at.success)
    at.select_slider(key="cvl_eps").set_value(3.0).run()
    assert not at.exception
    assert any("Not quite" in e.value for e in at.error)
    assert any(s.value.startswith("Right.") for s in at.success)


def test_quiz_answers_are_right():
    # Q1: 4n people -> sqrt(4) = 2 times the local sd (173 -> 346)
    assert dp.local_count_std(4 * N, 1.0) == pytest.approx(2 * dp.local_count_std(N, 1.0))
    assert round(dp.local_count_std(4 * N, 1.0)) == 346
    # Q2: about 122x
    assert round(dp.local_to_central_error_ratio(N, 1.0)) == 122
    # Q3: sqrt 2 / 2 = 0.71
    assert dp.laplace_std(1, 2.0) == pytest.approx(0.7071, abs=1e-4)


JOBS = b"job,team\nnurse,a\nnurse,b\nnurse,a\nchef,b\nchef,a\npilot,a\npilot,b\nnurse,b\n"


def test_own_data_changes_the_numbers_and_the_census_is_gone():
    at = run_lesson_with_upload(PAGE, JOBS, "jobs.csv", max_bytes=10_000_000)
    frame = at.session_state[userdata.STATE_KEY].frame
    condition = at.selectbox(key="cvl_q").value
    assert condition in {"job = nurse", "team = a", "team = b"}
    chosen = next(c for c in userdata.yes_no_conditions(frame) if c.label == condition)
    assert metric_starting(at, "True count") == f"{chosen.count:,}"
    ratio = dp.local_to_central_error_ratio(8, 1.0)
    assert metric_starting(at, "Local is worse here by") == f"about {ratio:,.0f}×"
    shown = "\n".join(m.value for m in at.markdown) + "\n".join(c.value for c in at.caption)
    assert "32,561" not in shown and "3,650" not in shown
    assert text.plain("jobs.csv (8 rows)") in shown
    assert metric_starting(at, "n = 8: local / central")
    _, bins = chart_data(at, "How far off is one answer")
    assert bins.loc[bins["model"] == LOCAL, "share"].sum() == pytest.approx(1.0)
    assert (
        "truth, n, epsilon, repetitions = " + f"{chosen.count}, 8, 1.0, 20000" in code_blocks(at)[0]
    )


def test_both_neighbour_relations_are_named() -> None:
    prose = " ".join(block.value for block in run_page().markdown)
    assert "adding or removing one person" in prose  # central: add/remove
    assert "two values of one person's answer" in prose  # local: one value changes


@pytest.mark.parametrize(
    ("epsilon", "sides", "in_title"),
    [
        (1.0, ["right", "right"], ""),
        (0.01, ["right", "left"], ""),  # "local sd ± 18,045" would pass the plot's right edge
        # the local rule (± 15) and outline inside "central sd ± 0.283"'s width on a phone,
        # and no room left of it: its words in the title
        (5.0, ["", "right"], " central sd ±\u00a00.2828 (solid rule)"),
    ],
)
def test_each_typical_error_is_written_where_nothing_crosses_it(epsilon, sides, in_title):
    """The |error| chart's rule labels: beside their rules where the chart's lines leave
    them room on a phone and a laptop (lessons/central_vs_local/charts.py typical_sides),
    else in the title, never dropped."""
    at = run_page(epsilon)
    element = chart_titled(at, "How far off is one answer", prefix=True)
    rows = frames_of(element)["typical"]
    assert list(rows["side"]) == sides
    central_sd = text.number(dp.laplace_std(1, epsilon))
    local_sd = text.number(dp.local_count_std(N, epsilon))
    assert list(rows["label"]) == [
        f"central sd\n±\u00a0{central_sd}",
        f"local sd\n±\u00a0{local_sd}",
    ]
    assert helpers.title_of(spec_of(element)) == (
        "How far off is one answer? Central versus local" + in_title
    )
