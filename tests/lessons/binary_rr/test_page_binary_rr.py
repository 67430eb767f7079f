"""AppTest for lessons/binary_rr/page.py: the mode radio, the p and q sliders and the ε slider
moved; metrics and chart data checked against dp/ at the chosen values."""

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import (
    answer_quiz,
    chart_titled,
    code_texts,
    hosted_lesson,
    ignored_link_notice,
    metrics,
    record_downloads,
    spec_of,
    toasts,
    upload_csv,
)
from apptest_helpers import chart_rows as rows_of
from ui import text
from ui.controls import DEFAULT_SEED

ROOT = Path(__file__).resolve().parents[3]
N, TRUE_SALES = 32_561, 3_650
RATIO_TITLE = "What each report reveals"
SAMPLING_TITLE = "Sampling distribution"
ERROR_TITLE = "Error of the count versus ε"


def run_page() -> AppTest:
    return AppTest.from_file(str(ROOT / "lessons" / "binary_rr/page.py"), default_timeout=30).run()


def set_p_q(p: float, q: float) -> AppTest:
    at = run_page()
    at.slider(key="brr_p").set_value(p).run()
    at.slider(key="brr_q").set_value(q).run()
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
    assert metric(at, "p (keep a true yes)") == "0.75"
    assert metric(at, "q (keep a true no)") == "0.75"
    assert metric(at, "Privacy loss ε") == text.number(math.log(3)) == "1.099"
    assert metric(at, 'A reported "yes" multiplies the odds of a true yes by') == "3"
    assert metric(at, "Truth (salespeople)") == "3,650"
    assert metric(at, "This survey's estimate") == f"{one_survey_estimate(0.75, 0.75):,.0f}"
    assert any("symmetric" in md.value for md in at.markdown)


@pytest.mark.parametrize(("p", "q"), [(0.9, 0.6), (0.6, 0.9), (0.8, 0.8), (0.3, 0.95)])
def test_p_q_sliders_set_epsilon_ratios_and_the_estimator(p, q):
    at = set_p_q(p, q)
    epsilon = dp.rr_epsilon(p, q)
    ln_yes, ln_no = dp.rr_likelihood_ratios(p, q)
    odds_yes, odds_no = dp.rr_likelihood_ratios(p, q, log=False)
    assert metric(at, "p (keep a true yes)") == f"{text.number(p)}"
    assert metric(at, "q (keep a true no)") == f"{text.number(q)}"
    assert metric(at, "Privacy loss ε") == text.number(epsilon)
    assert (
        metric(at, 'A reported "yes" multiplies the odds of a true yes by')
        == f"{text.number(odds_yes)}"
    )
    assert (
        metric(at, 'A reported "no" multiplies the odds of a true no by')
        == f"{text.number(odds_no)}"
    )
    sd = dp.rr_count_std(TRUE_SALES / N, N, p, q)
    assert metric(at, "Typical error (SD)") == f"±\u00a0{sd:,.0f}"
    assert metric(at, "This survey's estimate") == f"{one_survey_estimate(p, q):,.0f}"

    bars = {row["report"]: row["size"] for row in chart_rows(at, RATIO_TITLE) if "report" in row}
    assert bars["reported yes"] == pytest.approx(min(abs(ln_yes), 5.0))
    assert bars["reported no"] == pytest.approx(min(abs(ln_no), 5.0))
    band = [row["hi"] for row in chart_rows(at, RATIO_TITLE) if "hi" in row]
    assert band == [pytest.approx(min(epsilon, 5.0))]
    # each bar's number starts at its end or at the ε line, whichever is further right: the
    # shorter bar's number sat on the line, which ran through it
    starts = {
        row["report"]: row["label_at"] for row in chart_rows(at, RATIO_TITLE) if "report" in row
    }
    assert starts == {report: pytest.approx(band[0]) for report in bars}

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
    assert metric(at, "Privacy loss ε") == text.number(math.log(3))
    assert any("p + q < 1" in info.value for info in at.info)
    sd = dp.rr_count_std(TRUE_SALES / N, N, 0.25, 0.25)
    assert metric(at, "Typical error (SD)") == f"±\u00a0{sd:,.0f}"
    assert metric(at, "This survey's estimate") == f"{one_survey_estimate(0.25, 0.25):,.0f}"
    assert not at.warning


def test_p_plus_q_one_warns_and_shows_no_estimate():
    at = set_p_q(0.4, 0.6)
    assert not at.exception
    assert metric(at, "Privacy loss ε") == "0"
    assert any("p + q = 1 = 1" in w.value for w in at.warning)
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
    at.radio(key="brr_mode").set_value("Choose ε (p = q)").run()
    at.select_slider(key="brr_eps").set_value(epsilon).run()
    assert not at.exception
    keep = dp.rr_keep_probability(epsilon)
    assert metric(at, "p (keep a true yes)") == f"{text.number(keep)}"
    assert metric(at, "q (keep a true no)") == f"{text.number(keep)}"
    assert metric(at, "Privacy loss ε") == text.number(epsilon)
    assert any(f"= {text.number(keep)}" in latex.value for latex in at.latex)
    sd = dp.rr_count_std(TRUE_SALES / N, N, keep, keep)
    assert metric(at, "Typical error (SD)") == f"±\u00a0{sd:,.0f}"
    mark = [row for row in chart_rows(at, ERROR_TITLE) if "label" in row]
    assert mark[0]["label"] == "your ε"
    assert mark[0]["epsilon"] == pytest.approx(epsilon)
    assert not at.slider  # the p and q sliders are gone in this mode


# --- Classroom features: link binding, code, download, check yourself, your own data -------

# 1,000 people: Clerk 600, Sales 300, no job 100 (missing answers no).
JOBS = b"Job,Town\n" + b"Sales,Hull\n" * 300 + b"Clerk,York\n" * 600 + b",York\n" * 100


def hosted(**params: str) -> AppTest:
    """The lesson as app.py runs it: link guard, classroom sidebar, dataset picker."""
    return hosted_lesson("binary_rr/page.py", **params)


def test_link_parameters_reproduce_the_view():
    at = hosted(brr_p="0.9", brr_q="0.6", seed="7")
    assert not at.exception and not at.toast
    assert at.slider(key="brr_p").value == 0.9 and at.slider(key="brr_q").value == 0.6
    assert metric(at, "Privacy loss ε") == text.number(dp.rr_epsilon(0.9, 0.6))
    yes = dp.sample_rr_counts(TRUE_SALES, N, 0.9, 0.6, size=1, rng=7 + 7_000)[0]
    estimate = N * dp.estimate_proportion_from_counts(int(yes), N, 0.9, 0.6)
    assert metric(at, "This survey's estimate") == f"{estimate:,.0f}"
    for key in ("brr_p", "brr_q"):
        assert at.slider(key=key).proto.query_param_key == key
    assert at.radio(key="brr_mode").proto.query_param_key == "brr_mode"
    assert at.selectbox(key="brr_ask").proto.query_param_key == "brr_ask"
    at = hosted(brr_mode="Choose ε (p = q)", brr_eps="2")
    assert not at.exception and not at.toast
    assert at.select_slider(key="brr_eps").value == 2.0
    assert metric(at, "p (keep a true yes)") == f"{text.number(dp.rr_keep_probability(2.0))}"


def test_a_link_made_before_the_widgets_were_renamed_opens_the_same_view():
    """The widgets were grr_* (GRR names the k-ary mechanism); an old link still works, and
    an invalid value in one is reported under the new name."""
    old = hosted(grr_p="0.9", grr_q="0.6", seed="7")
    new = hosted(brr_p="0.9", brr_q="0.6", seed="7")
    assert not old.exception and not old.toast
    assert old.slider(key="brr_p").value == 0.9 and old.slider(key="brr_q").value == 0.6
    assert metrics(old) == metrics(new)
    at = hosted(grr_mode="Choose ε (p = q)", grr_eps="2", grr_ask="Sex = Female")
    assert at.select_slider(key="brr_eps").value == 2.0
    assert at.selectbox(key="brr_ask").value == "Sex = Female"
    assert not at.toast
    at = hosted(grr_p="1.7")
    assert toasts(at) == [ignored_link_notice("brr_p", "1.7")]
    assert at.slider(key="brr_p").value == 0.75


@pytest.mark.parametrize(
    ("param", "value"), [("brr_p", "1.7"), ("brr_mode", "Guess"), ("brr_ask", "Shoe = 42")]
)
def test_an_invalid_link_value_falls_back_with_a_notice(param, value):
    at = hosted(**{param: value})
    assert not at.exception
    assert toasts(at) == [ignored_link_notice(param, value)]
    assert at.slider(key="brr_p").value == 0.75
    assert at.selectbox(key="brr_ask").value == "Occupation = Sales"
    assert metric(at, "Truth (salespeople)") == "3,650"


def sampling_code(at: AppTest) -> str:
    (code,) = code_texts(at, containing="dp.sample_rr_counts")
    return code


def test_code_behind_the_chart_has_the_current_values_and_rebuilds_it():
    from ui import rr_survey as lesson_rr

    at = set_p_q(0.9, 0.6)
    code = sampling_code(at)
    assert f"true_yes, n, p, q = {TRUE_SALES}, {N}, 0.9, 0.6" in code
    assert f"size=1000, rng={DEFAULT_SEED + 8_000})" in code
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    counts = lesson_rr.repeated_yes_counts(TRUE_SALES, N, 0.9, 0.6, 1_000, DEFAULT_SEED + 8_000)
    assert namespace["estimates"].equals(lesson_rr.surveys_frame(counts, N, 0.9, 0.6, TRUE_SALES))
    # The chart shows the same estimates: its bins hold the 1,000 surveys.
    bins = [row for row in chart_rows(at, SAMPLING_TITLE) if "count" in row]
    assert sum(row["count"] for row in bins) == 1_000


def test_download_holds_the_repeated_surveys(monkeypatch):
    sent = record_downloads(monkeypatch)
    at = run_page()
    assert [b.key for b in at.get("download_button")] == ["binary_rr_dl_surveys"]
    filename, lines = sent["binary_rr_dl_surveys"]
    assert filename == "binary_rr-surveys.csv"
    assert lines[0] == "reported_yes,estimated_count,error"
    assert len(lines) == 1 + 1_000
    at.slider(key="brr_p").set_value(0.4).run()
    at.slider(key="brr_q").set_value(0.6).run()  # p + q = 1: no chart, no download
    assert not at.get("download_button")


def test_check_yourself_gives_feedback_that_survives_a_slider_move():
    assert dp.rr_epsilon(0.75, 0.75) == pytest.approx(math.log(3))  # Q1
    ln_yes, ln_no = dp.rr_likelihood_ratios(0.9, 0.6)  # Q2
    assert (round(ln_yes, 2), round(ln_no, 2)) == (0.81, 1.79)
    assert dp.rr_epsilon(0.4, 0.6) == pytest.approx(0.0)  # Q3
    at = run_page()
    answer_quiz(at, "binary_rr", 0, 2)
    assert any("Not quite" in e.value and "p = q = 0.75" in e.value for e in at.error)
    answer_quiz(at, "binary_rr", 0, 1)
    answer_quiz(at, "binary_rr", 1, 0)
    at.slider(key="brr_p").set_value(0.85).run()
    at.radio(key="brr_mode").set_value("Choose ε (p = q)").run()
    assert len([s for s in at.success if s.value.startswith("Right.")]) == 2
    assert not at.exception


def test_an_uploaded_file_replaces_the_census_numbers():
    at = upload_csv(hosted(), "jobs.csv", JOBS)
    assert not at.exception
    assert at.selectbox(key="brr_ask").value == "Job = Clerk"  # most common first
    assert metric(at, "Truth (true yes)") == "600"
    assert not [m for m in at.metric if m.label == "Truth (salespeople)"]
    assert any("Is your Job “Clerk”?" in md.value for md in at.markdown)
    assert any("One survey of all 1,000 people" in md.value for md in at.markdown)
    shown = [m.value for m in at.metric] + [m.value for m in at.markdown]
    assert not any("3,650" in v or "32,561" in v for v in shown)
    sd = dp.rr_count_std(0.6, 1_000, 0.75, 0.75)
    assert metric(at, "Typical error (SD)") == f"±\u00a0{sd:,.0f}"
    spec = spec_of(chart_titled(at, SAMPLING_TITLE))
    assert spec["title"]["subtitle"] == "1,000 surveys of n = 1,000"
    error = spec_of(chart_titled(at, ERROR_TITLE))
    assert error["title"]["subtitle"] == "Is your Job “Clerk”? (n = 1,000)"
    assert "true_yes, n, p, q = 600, 1000, 0.75, 0.75" in sampling_code(at)
    at.selectbox(key="brr_ask").set_value("Job = Sales").run()
    assert metric(at, "Truth (true yes)") == "300"
    at.sidebar.button(key="userdata_back").click().run()
    assert metric(at, "Truth (salespeople)") == "3,650"
    assert not at.exception


# --- Which report is better protected: the advice points the right way ---------------------


@pytest.mark.parametrize(
    ("p", "q", "advice", "followed"),
    [
        (0.6, 0.9, "lower q", {"q": 0.85}),  # p + q > 1: 1.792 -> 1.540
        (0.2, 0.4, "raise p or raise q", {"q": 0.45}),  # p + q < 1
    ],
)
def test_the_advice_for_a_revealing_yes_lowers_epsilon_when_followed(p, q, advice, followed):
    at = hosted_lesson("binary_rr/page.py", brr_p=str(p), brr_q=str(q))
    assert not at.exception
    shown = " ".join(m.value for m in at.markdown)
    assert advice in shown
    assert ("raise q" not in shown) if advice == "lower q" else ("lower" not in shown)
    before = dp.rr_epsilon(p, q)
    after = dp.rr_epsilon(followed.get("p", p), followed.get("q", q))
    assert after < before  # following the page's advice protects the reported yes more


def test_the_advice_direction_is_right_everywhere():
    from lessons.binary_rr import model

    grid = [round(0.05 * i, 2) for i in range(1, 20)]
    checked = 0
    for p in grid:
        for q in grid:
            ln_yes, ln_no = dp.rr_likelihood_ratios(p, q)
            if abs(ln_yes) <= abs(ln_no) or abs(p + q - 1) < 1e-9:
                continue
            direction, _ = model.protect_yes_advice(p, q)
            step = -0.01 if direction == "lower" else 0.01
            moved_yes, _ = dp.rr_likelihood_ratios(p, q + step)
            assert abs(moved_yes) < abs(ln_yes), (p, q, direction)
            checked += 1
    assert checked > 50


def test_the_p_and_q_labels_say_the_direction_that_holds_everywhere() -> None:
    """Finding: "← more private toward ½" is false wherever q ≠ ½ (at q = 0.9, p = 0.1 gives
    ε = 0 and p = 0.5 gives ε = 1.609). On the whole grid ε(p, q) grows, and the count's
    standard deviation shrinks, with |p − (1 − q)|, on either side of 1 − q; the labels say
    so."""
    at = run_page()
    labels = {key: at.slider(key=key).label for key in ("brr_p", "brr_q")}
    assert "nearer 1 − q → more private · farther → more accurate" in labels["brr_p"]
    assert "nearer 1 − p → more private · farther → more accurate" in labels["brr_q"]
    assert "½" not in labels["brr_p"] + labels["brr_q"]
    assert dp.rr_epsilon(0.1, 0.9) == pytest.approx(0.0, abs=1e-12)
    assert dp.rr_epsilon(0.5, 0.9) == pytest.approx(math.log(5))
    grid = [i / 20 for i in range(1, 20)]
    for q in grid:
        for side in (1, -1):  # above 1 − q, then below it
            ps = sorted((p for p in grid if side * (p - (1 - q)) > 1e-9), key=lambda p: side * p)
            eps = [dp.rr_epsilon(p, q) for p in ps]
            sds = [dp.rr_count_std(0.3, 100, p, q) for p in ps]
            assert eps == sorted(eps), (q, side)
            assert sds == sorted(sds, reverse=True), (q, side)
