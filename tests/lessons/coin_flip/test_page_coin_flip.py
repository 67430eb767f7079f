"""AppTest for lessons/coin_flip/page.py: every widget moved, the numbers checked against dp/."""

import math
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import (
    answer_quiz,
    chart_titled,
    code_texts,
    frames_of,
    hosted_lesson,
    ignored_link_notice,
    record_downloads,
    spec_of,
    title_of,
    toasts,
    upload_csv,
)
from apptest_helpers import chart_rows as rows_of
from conftest import page_apptest
from ui import rr_survey, text
from ui.datasets import census

ROOT = Path(__file__).resolve().parents[3]
N, TRUE_SALES = 32_561, 3_650


def run_page() -> AppTest:
    return AppTest.from_file(str(ROOT / "lessons" / "coin_flip/page.py"), default_timeout=30).run()


def metric(at: AppTest, label: str) -> str:
    matches = [m.value for m in at.metric if m.label == label]
    assert matches, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return matches[-1]


def specs(at: AppTest) -> list[dict]:
    return [spec_of(chart) for chart in at.get("vega_lite_chart")]


def titles(at: AppTest) -> list[str]:
    return [title_of(spec) for spec in specs(at)]


def chart_rows(at: AppTest, title: str) -> list[dict]:
    """All data rows (every layer's dataset) of the chart with this title."""
    return rows_of(chart_titled(at, title))


def slider(at: AppTest, key: str):
    return next(s for s in [*at.slider, *at.select_slider] if s.key == key)


def test_fair_coins_give_ln3_and_the_census_truth():
    at = run_page()
    assert not at.exception
    assert metric(at, "Privacy loss ε (fair coins)") == text.number(math.log(3))
    assert metric(at, "Truth (salespeople)") == "3,650"
    naive = int(metric(at, 'Naive count of "yes"').replace(",", ""))
    # E[naive] = n/4 + truth/2 = 9,965; its SD is about 78, so it is far above the truth.
    assert abs(naive - (N / 4 + TRUE_SALES / 2)) < 6 * 80
    estimate = int(metric(at, "Debiased estimate").replace(",", ""))
    assert estimate == round(dp.estimate_proportion_from_counts(naive, N, 0.75, 0.75) * N)
    sd = N * math.sqrt(dp.rr_variance(TRUE_SALES / N, N, 0.75, 0.75))
    assert metric(at, "Typical error (SD)") == (f"±\u00a0{sd:,.0f} people")
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
    assert metric(at, "Spread of the estimate (SD)") == f"±\u00a0{text.number(sd_points)} % points"
    assert metric(at, "True yes") == f"{true_yes:,} of {n:,}"
    # The same spread in people: the SD of the estimated count, n·SD[r̂].
    people = dp.rr_count_std(true_yes / n, n, 0.75, 0.75)
    assert people == pytest.approx(sd_points / 100 * n)
    assert metric(at, "In people (SD × n)") == f"±\u00a0{people:,.0f}"
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
    assert metric(at, "p (keep a true yes)") == f"{text.number(p)}"
    assert metric(at, "q (keep a true no)") == f"{text.number(q)}"
    assert metric(at, "Privacy loss ε") == text.number(dp.rr_epsilon(p, q))
    bias = N * dp.fair_coin_formula_bias(TRUE_SALES / N, honest, yes)
    assert metric(at, "Expected error of the textbook formula") == f"{bias:+,.0f} people"
    sd = N * math.sqrt(dp.rr_variance(TRUE_SALES / N, N, p, q))
    assert metric(at, "Typical error (SD)") == f"±\u00a0{sd:,.0f} people"
    assert not at.warning
    assert not at.exception
    # "Show the bug" reads the same number: at fair coins it is 0 and says why, not
    # "+0 people … more respondents do not fix a bias. Set h = y = 0.5"
    bug = " ".join(m.value for m in at.markdown if m.value.startswith("here "))
    if abs(bias) >= 0.5:
        assert bug.startswith(f"here {bias:+,.0f} people, the same in every survey")
    else:
        assert (honest, yes) == (0.5, 0.5)
        assert bug.startswith("here 0: with two fair coins") and "Set h = y" not in bug


def test_the_bug_words_say_when_the_two_mistakes_cancel_by_luck():
    from lessons.coin_flip import model as lesson

    assert lesson.bug_words(0.2, 0.3, 0.4).startswith("here 0 people, but only by luck")
    assert lesson.bug_words(-12.4, 0.3, 0.4).startswith("here -12 people, the same in every")


def test_where_the_textbook_line_is_right_the_move_offered_shows_it_fail():
    """Finding: "Move y in section 4 to 0.30 and watch the left one leave it" at every state
    where the textbook line's bias rounds to 0: also at y = 0.30 itself (h = 0.7 on a question
    whose true share is 0.8) and at h = 1, where coin 2 is never tossed and y changes nothing
    (true share ½). The move offered is one that leaves it, by the people it says."""
    from lessons.coin_flip import model as lesson

    at = run_page()
    info = " ".join(i.value for i in at.info if "textbook line happens" in i.value)
    off = N * dp.fair_coin_formula_bias(TRUE_SALES / N, 0.5, 0.3)
    by = text.signed(round(off))
    assert info.endswith(
        f"Move **y** in section 4 to 0.30 and watch the left one leave it (by {by} people)."
    )
    # at y = 0.30 already: y = 0.70 is offered, and it does leave the truth
    assert abs(dp.fair_coin_formula_bias(0.8, 0.7, 0.3)) < 1e-12
    said = lesson.textbook_right_words(600, 0.8, 0.7, 0.3)
    off = 600 * dp.fair_coin_formula_bias(0.8, 0.7, 0.7)
    by = text.signed(round(off))
    assert said.endswith(f"to 0.70 and watch the left one leave it (by {by} people).")
    # h = 1 and a true share of ½: no single move of y or h leaves it; none is offered
    assert lesson.textbook_right_words(600, 0.5, 1.0, 0.5) == (
        "With these coins the textbook line happens to be right, so both histograms sit on "
        "the truth."
    )
    # h = 1, y = 0.3, a true share of ½: y changes nothing, h is offered
    said = lesson.textbook_right_words(600, 0.5, 1.0, 0.3)
    assert "Move **y**" not in said
    assert said.endswith(
        "Move **h** in section 4 to 0.50 and watch the left one leave it (by −120 people)."
    )


def test_no_honest_answers_warns_instead_of_failing():
    at = run_page()
    slider(at, "cf_honest").set_value(0.0).run()
    assert not at.exception
    assert any("p + q = 1" in w.value for w in at.warning)
    assert metric(at, "Privacy loss ε") == "0"


def test_always_honest_warns_that_epsilon_is_infinite():
    at = run_page()
    slider(at, "cf_honest").set_value(1.0).run()
    assert not at.exception
    assert metric(at, "Privacy loss ε") == "∞"
    assert any("ε = ∞" in w.value for w in at.warning)


# --- Classroom features: link binding, code, download, check yourself, your own data -------

# 1,000 people: Sales 300, Clerk 600, no job 100 (missing answers no).
JOBS = b"Job,Town\n" + b"Sales,Hull\n" * 300 + b"Clerk,York\n" * 600 + b",York\n" * 100


def hosted(**params: str) -> AppTest:
    """The lesson as app.py runs it: link guard, classroom sidebar, dataset picker."""
    return hosted_lesson("coin_flip/page.py", **params)


def test_link_parameters_reproduce_the_view():
    at = hosted(
        cf_honest="0.8", cf_yes="0.3", cf_rate="0.3", cf_n="10,000", cf_true_answer="No", seed="7"
    )
    assert not at.exception and not at.toast
    assert slider(at, "cf_honest").value == 0.8 and slider(at, "cf_yes").value == 0.3
    assert slider(at, "cf_rate").value == 0.3 and slider(at, "cf_n").value == 10_000
    assert at.radio(key="cf_true_answer").value == "No"
    p, q = dp.coin_flip_probabilities(0.8, 0.3)
    assert metric(at, "p (keep a true yes)") == f"{text.number(p)}"
    assert metric(at, "True yes") == "3,000 of 10,000"
    # The seed from the link drives the draws: the one biased survey at seed 7 + 6,000.
    counts = dp.sample_rr_counts(TRUE_SALES, N, p, q, size=1_000, rng=7 + 6_000)
    estimate = N * dp.estimate_proportion_from_counts(counts[0], N, p, q)
    assert metric(at, "One survey, debiased") == f"{estimate:,.0f}"
    for key in ("cf_honest", "cf_yes", "cf_rate"):
        assert slider(at, key).proto.query_param_key == key
    # n is a select slider over numbers: ui.controls keeps it in the link as its raw value
    # (a link from before, with the label "10,000", opens and is rewritten)
    assert at.query_params["cf_n"] in ("10000", ["10000"])
    assert at.radio(key="cf_true_answer").proto.query_param_key == "cf_true_answer"
    assert at.selectbox(key="cf_ask").proto.query_param_key == "cf_ask"


@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("cf_honest", "abc"),
        ("cf_n", "7"),
        ("cf_ask", "Shoe = 42"),
        # not a value the slider (steps of 0.05) can be moved to: 0.123 was taken as it was, a
        # state no slider reaches
        ("cf_honest", "0.123"),
    ],
)
def test_an_invalid_link_value_falls_back_with_a_notice(param, value):
    at = hosted(**{param: value})
    assert not at.exception
    assert toasts(at) == [ignored_link_notice(param, value)]
    assert slider(at, "cf_honest").value == 0.5 and slider(at, "cf_n").value == 1_000
    assert at.selectbox(key="cf_ask").value == "Occupation = Sales"
    assert metric(at, "Truth (salespeople)") == "3,650"


@pytest.mark.parametrize(
    ("value", "h"),
    [
        ("1e-320", 0.0),
        ("1e-17", 0.0),
        ("-0", 0.0),
        ("0.35000000001", 0.35),
        ("0.9999999999999999", 1.0),
    ],
)
def test_a_link_a_rounding_away_from_a_step_opens_at_that_step(value, h):
    """Within a millionth of a step, a link's number stands for the step (as the slider shows
    it): `?cf_honest=1e-320` was taken as it was, p + q rounded to 1 while h was not 0, and
    the estimate raised; 1 − 2⁻⁵³ is not the slider's 1 either."""
    at = hosted(cf_honest=value)
    assert not at.exception and not at.toast
    p, q = dp.coin_flip_probabilities(h, 0.5)
    assert metric(at, "p (keep a true yes)") == text.number(p)
    assert metric(at, "Privacy loss ε") == text.number(dp.rr_epsilon(p, q))
    if h == 0:
        assert any("Move h up" in block.value for block in [*at.info, *at.warning, *at.markdown])


def test_the_question_comes_from_the_chosen_condition():
    at = run_page()
    assert any("Do you work in Sales?" in md.value for md in at.markdown)
    at.selectbox(key="cf_ask").set_value("Sex = Female").run()
    assert not at.exception
    females = int((census()["Sex"] == "Female").sum())
    assert metric(at, "Truth (true yes)") == f"{females:,}"
    assert any("Is your Sex “Female”?" in md.value for md in at.markdown)
    assert not any("Do you work in Sales?" in md.value for md in at.markdown)


def code_blocks(at: AppTest) -> list[str]:
    return code_texts(at, containing="dp.sample_rr_counts")


def test_code_behind_the_chart_has_the_current_values_and_rebuilds_it():
    from ui import rr_survey as lesson_rr
    from ui.controls import DEFAULT_SEED

    (code,) = code_blocks(run_page())
    assert f"true_yes, n, p, q = {TRUE_SALES}, {N}, 0.75, 0.75" in code
    assert f"size=1000, rng={DEFAULT_SEED + 3_000})" in code
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    counts = lesson_rr.repeated_yes_counts(TRUE_SALES, N, 0.75, 0.75, 1_000, DEFAULT_SEED + 3_000)
    expected = lesson_rr.surveys_frame(counts, N, 0.75, 0.75, TRUE_SALES)
    assert namespace["estimates"].equals(expected)
    # Another seed in the sidebar: the code follows it.
    at = hosted(seed="11")
    assert f"rng={11 + 3_000})" in code_blocks(at)[0]


def test_download_holds_the_repeated_surveys(monkeypatch):
    sent = record_downloads(monkeypatch)
    at = run_page()
    assert [b.key for b in at.get("download_button")] == ["coin_flip_dl_surveys"]
    filename, lines = sent["coin_flip_dl_surveys"]
    assert filename == "coin_flip-surveys.csv"
    assert lines[0] == "reported_yes,estimated_count,error"
    assert len(lines) == 1 + 1_000


def test_check_yourself_gives_feedback_that_survives_a_slider_move():
    # Q3: h = 0.8, fair coin 2: p = q = 0.9, ε = ln 9.
    p, q = dp.coin_flip_probabilities(0.8, 0.5)
    assert (p, q) == pytest.approx((0.9, 0.9))
    assert dp.rr_epsilon(p, q) == pytest.approx(math.log(9))
    # Q2: four times n halves the SD.
    ratio = math.sqrt(dp.rr_variance(0.1, 400, 0.75, 0.75) / dp.rr_variance(0.1, 100, 0.75, 0.75))
    assert ratio == pytest.approx(0.5)
    at = run_page()
    answer_quiz(at, "coin_flip", 0, 2)
    assert any("Not quite" in e.value and "¼" in e.value for e in at.error)
    answer_quiz(at, "coin_flip", 0, 1)
    answer_quiz(at, "coin_flip", 2, 2)
    slider(at, "cf_honest").set_value(0.7).run()
    slider(at, "cf_n").set_value(5_000).run()
    assert len([s for s in at.success if s.value.startswith("Right.")]) == 2
    assert not at.exception


def test_an_uploaded_file_replaces_the_census_numbers():
    at = upload_csv(hosted(), "jobs.csv", JOBS)
    assert not at.exception
    # No "Occupation = Sales" in the file: the most common answer comes first.
    assert at.selectbox(key="cf_ask").value == "Job = Clerk"
    assert metric(at, "Truth (true yes)") == "600"
    assert not [m for m in at.metric if m.label == "Truth (salespeople)"]
    assert any(h.value == "2. Survey all 1,000 people" for h in at.header)
    assert any("Is your Job “Clerk”?" in md.value and "1,000" in md.value for md in at.markdown)
    shown = [m.value for m in at.metric] + [m.value for m in at.markdown]
    shown += [h.value for h in at.header]
    assert not any("3,650" in v or "32,561" in v for v in shown)
    sd = dp.rr_count_std(0.6, 1_000, 0.75, 0.75)
    assert metric(at, "Typical error (SD)") == (f"±\u00a0{sd:,.0f} people")
    assert "true_yes, n, p, q = 600, 1000, 0.75, 0.75" in code_blocks(at)[0]
    at.selectbox(key="cf_ask").set_value("Job = Sales").run()
    assert metric(at, "Truth (true yes)") == "300"
    assert "true_yes, n, p, q = 300, 1000, 0.75, 0.75" in code_blocks(at)[0]
    at.sidebar.button(key="userdata_back").click().run()
    assert metric(at, "Truth (salespeople)") == "3,650"
    assert not at.exception


def test_the_header_promises_deniability_not_secrecy():
    at = page_apptest("coin_flip/page.py").run()
    intro = " ".join(m.value for m in at.markdown[:2])
    assert "without anyone" not in intro and "learning your answer" not in intro
    assert "plausible deniability" in intro and "a factor of 3" in intro
    assert math.exp(dp.rr_epsilon(0.75, 0.75)) == pytest.approx(3.0)  # the factor is e^ε


def test_the_textbook_arithmetic_adds_up_with_the_shown_digits():
    at = page_apptest("coin_flip/page.py").run()
    line = next(latex.value for latex in at.latex if r"2 \cdot" in latex.value)
    share, result = re.search(r"2 \\cdot ([0-9.]+) - 0.5 = ([0-9.]+)", line).groups()
    assert float(result) == pytest.approx(2 * float(share) - 0.5, abs=1e-12)


def test_the_local_model_is_defined_credited_and_its_deployments_listed():
    at = page_apptest("coin_flip/page.py").run()
    formulas = " ".join(latex.value for latex in at.latex)
    assert r"\Pr[F(x) = y] \;\le\; e^{\varepsilon}\, \Pr[F(x') = y]" in formulas
    prose = " ".join(m.value for m in at.markdown)
    assert "Warner's randomized response (1965)" in prose
    assert "one person's value changes" in prose
    table = at.table[1].value  # the outcomes table comes first
    assert list(table["Published ε"])[1:] == ["16 per day", "1.672 per 6 hours"]


def test_the_forced_response_coin_has_infinite_epsilon():
    at = page_apptest("coin_flip/page.py").run()
    assert dp.rr_epsilon(1.0, 0.5) == math.inf
    flaw = next(m.value for m in at.markdown if "heads, say yes; tails, tell the truth" in m.value)
    assert "`dp.rr_epsilon(1, 0.5)` = ∞" in flaw
    assert "certain proof" in flaw


def test_flips_are_counted_from_one():
    at = page_apptest("coin_flip/page.py").run()
    assert any(c.value.startswith("Flip 1 of this session.") for c in at.caption)
    at.button(key="cf_flip").click().run()
    assert any(c.value.startswith("Flip 2 of this session.") for c in at.caption)


@pytest.mark.parametrize(("honest", "yes"), [(0.5, 0.5), (0.2, 0.3)])
def test_the_biased_coins_chart_bins_the_dp_estimates_of_repeated_surveys(honest, yes):
    """The chart beside h and y: 1,000 surveys with these coins (dp.sample_rr_counts at the
    page's seed), debiased by dp.estimate_proportion_from_counts, binned on ± n/4 around the
    truth; the estimates centre on the truth within 6 standard errors."""
    from lessons.coin_flip import model as lesson
    from ui import charts as ui_charts

    at = run_page()
    slider(at, "cf_honest").set_value(honest).run()
    slider(at, "cf_yes").set_value(yes).run()
    p, q = dp.coin_flip_probabilities(honest, yes)
    counts = dp.sample_rr_counts(
        TRUE_SALES, N, p, q, size=rr_survey.REPEATS, rng=2026 + lesson.SEED_BIASED_COINS
    )
    estimates = N * dp.estimate_proportion_from_counts(counts, N, p, q)
    se = N * math.sqrt(dp.rr_variance(TRUE_SALES / N, N, p, q) / rr_survey.REPEATS)
    assert abs(estimates.mean() - TRUE_SALES) < 6 * se
    domain = (TRUE_SALES - N / 4, TRUE_SALES + N / 4)
    expected = ui_charts.band_histogram_data(estimates, truth=TRUE_SALES, domain=domain, bins=80)
    chart = chart_titled(at, f"{rr_survey.REPEATS:,} surveys with these coins, debiased")
    shown = frames_of(chart)["bins"]
    assert shown["share"].tolist() == pytest.approx(expected["bins"]["share"].tolist())
    assert shown["start"].iloc[0] == pytest.approx(domain[0])


def test_the_fixed_tables_go_out_as_the_frames_would_and_are_made_once():
    """Converted to Arrow once per process; st.table sends what it made from the
    frames themselves, with their row numbers hidden as before."""
    from streamlit.dataframe_util import convert_anything_to_arrow_bytes

    from lessons.coin_flip import model as coin_model

    for name in ("coin_outcomes", "local_deployments"):
        shared = coin_model.table_arrow(name)
        frame = getattr(coin_model, name)()
        assert convert_anything_to_arrow_bytes(shared) == convert_anything_to_arrow_bytes(frame)
        assert coin_model.table_arrow(name) is shared
    at = page_apptest("coin_flip/page.py").run()
    assert len(at.table) == 2 and all(table.proto.hide_index for table in at.table)


@pytest.mark.parametrize(
    ("question", "way", "move"),
    [
        ("Occupation = Sales", "too high", "from 11.2% to 30.6% on average"),
        ("Sex = Male", "too low", "from 66.9% to 58.5% on average"),
    ],
)
def test_which_way_the_naive_count_goes_is_the_questions_own(question, way, move):
    """The page said the naive count is "far too high" for every question; the coins move
    the share of yes towards ½, so for the census's men (66.9% yes) it is too low: 19,074
    against 21,790 in the default survey."""
    at = run_page()
    if question != "Occupation = Sales":
        at.selectbox(key="cf_ask").set_value(question).run()
    assert not at.exception
    naive = int(metric(at, 'Naive count of "yes"').replace(",", ""))
    truth = int(metric(at, "Truth").replace(",", ""))
    assert (naive > truth) == (way == "too high")
    words = " ".join(m.value for m in at.markdown)
    assert f"The naive count is {way}: the coins turn a quarter" in words and move in words
    assert "far too high" not in words
