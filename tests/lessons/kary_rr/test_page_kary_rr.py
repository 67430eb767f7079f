"""AppTest of the k-ary randomized response lesson: every widget moved, the numbers it then
shows checked against dp/ at the chosen values."""

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import dp
from apptest_helpers import (
    answer_quiz,
    code_texts,
    hosted_lesson,
    ignored_link_notice,
    record_downloads,
    specs_and_frames,
    title_of,
    toasts,
    upload_csv,
)
from conftest import page_apptest
from lessons.kary_rr import model as lesson_kary
from ui import categories, controls, text

SEED = controls.DEFAULT_SEED


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


@pytest.fixture(scope="module")
def at():
    return page_apptest("kary_rr/page.py").run()


def test_page_opens_on_occupation_at_epsilon_half(at):
    assert not at.exception
    assert at.radio(key="kary_attribute").value == "occupation"
    assert at.select_slider(key="kary_eps").value == 0.5
    p, q = dp.grr_probabilities(0.5, 14)
    assert metric(at, "Categories k") == "14"
    assert metric(at, "Keep the truth p") == f"{text.number(p)}"
    assert metric(at, "Each other value q") == f"{text.number(q)}"
    # 32,561 people minus the 1,843 with no occupation recorded
    assert metric(at, "People surveyed n") == "30,718"
    assert any("1,843" in c.value for c in at.caption)


@pytest.mark.parametrize(
    ("key", "k", "n"),
    [
        ("age_sex", 4, 32_561),
        ("race", 5, 32_561),
        ("education", 16, 32_561),
        ("occupation", 14, 30_718),
    ],
)
@pytest.mark.parametrize("epsilon", [0.1, 2.0])
def test_every_attribute_and_epsilon_shows_dp_numbers(key, k, n, epsilon):
    at = page_apptest("kary_rr/page.py").run()
    at.radio(key="kary_attribute").set_value(key).run()
    at.select_slider(key="kary_eps").set_value(epsilon)
    at.select_slider(key="kary_var_eps").set_value(epsilon).run()  # the variance's own ε
    assert not at.exception
    attr = categories.attribute(key)
    assert attr.k == k and attr.n == n
    p, q = dp.grr_probabilities(epsilon, k)
    assert metric(at, "Categories k") == str(k)
    assert metric(at, "Keep the truth p") == f"{text.number(p)}"
    assert metric(at, "People surveyed n") == f"{n:,}"
    # The survey, redrawn independently with the same seed and sampler.
    reported = dp.sample_grr_counts(attr.counts, epsilon, rng=SEED + lesson_kary.SEED_HISTOGRAM)
    raw = dp.grr_estimate_from_counts(reported, epsilon)
    projected = dp.project_counts(raw, n)
    assert metric(at, "L1 error, raw") == text.number(dp.l1_error(raw, attr.counts))
    assert metric(at, "L1 error, projected") == text.number(dp.l1_error(projected, attr.counts))
    assert metric(at, "L1 error, clipped") == text.number(
        dp.l1_error(dp.clip_counts(raw), attr.counts)
    )
    variance = dp.grr_variance(n, epsilon, k)
    assert metric(at, f"Variance of one count at k = {k}") == f"{variance:,.0f}"
    assert metric(at, "Standard deviation") == f"{math.sqrt(variance):,.0f} people"
    # Charts: the first shows exactly these reported and estimated counts, on a fixed axis.
    (spec, data), (_, post), (vspec, vdata) = specs_and_frames(at)
    assert f"ε = {epsilon:g}" in title_of(spec)
    bars = data["bars"]
    np.testing.assert_allclose(bars[bars.series == "reported"]["count"], reported)
    np.testing.assert_allclose(bars[bars.series == "estimated"]["count"], raw)
    np.testing.assert_array_equal(data["truth"]["true count"], attr.counts)
    np.testing.assert_allclose(post["bars"][post["bars"].series == "projected"]["count"], projected)
    assert spec["layer"][1]["encoding"]["x"]["scale"]["domain"] == list(
        categories.count_domain(attr)
    )
    np.testing.assert_allclose(
        vdata["curve"]["variance"], [dp.grr_variance(n, epsilon, kk) for kk in range(2, 65)]
    )
    assert vdata["here"]["k"].tolist() == [k]


def test_axes_do_not_depend_on_epsilon():
    at = page_apptest("kary_rr/page.py").run()
    before = [s for s, _ in specs_and_frames(at)]
    at.select_slider(key="kary_eps").set_value(5.0)
    at.select_slider(key="kary_var_eps").set_value(5.0).run()
    after = [s for s, _ in specs_and_frames(at)]
    for a, b in zip(before, after, strict=True):
        a.pop("title"), b.pop("title")
        assert a == b


def test_projection_never_raises_the_l2_error_in_the_table(at):
    table = lesson_kary.error_table("occupation", SEED)
    assert len(at.dataframe) == 0  # a static table, not the data grid (0.3 s of a first visit)
    shown = at.table[0].value
    assert shown["ε"].tolist() == ["0.1", "0.3", "0.5", "1", "2", "5"]
    assert shown["L1 raw"].tolist() == [f"{v:,.0f}" for v in table["L1 raw"]]
    assert shown["L2 projected"].tolist() == [f"{v:,.0f}" for v in table["L2 projected"]]
    assert (table["L2 projected"] <= table["L2 raw"]).all()
    # Errors fall as ε grows.
    assert table["L1 raw"].is_monotonic_decreasing


def test_error_table_is_a_mean_over_many_surveys():
    # Mean L2 error over 200 surveys vs the known variance: E[L2²] = Σ_v Var[ĉ_v]; with
    # Jensen, mean L2 <= sqrt(Σ Var); with ~4 effective degrees of freedom the gap is about
    # 10 %, and the mean of 200 draws sits within ~2 % of its expectation (SE ≈ 0.35/√200).
    attr = categories.attribute("race")
    table = lesson_kary.error_table("race", SEED)
    row = table[table["ε"] == 1.0].iloc[0]
    total_variance = sum(
        dp.grr_variance(attr.n, 1.0, attr.k, frequency=c / attr.n) for c in attr.counts
    )
    assert row["L2 raw"] <= np.sqrt(total_variance) * 1.05
    assert row["L2 raw"] >= np.sqrt(total_variance) * 0.8


# --- Classroom features: link binding, code, download, check yourself, your own data -------

JOBS = (
    b"Job,Town\n"
    + b"Baker,Leeds\n" * 500
    + b"Clerk,York\n" * 300
    + b"Sales,Hull\n" * 200
    + b"Sales,\n" * 10
    + b",York\n" * 7
)


def hosted(**params: str):
    """The lesson as app.py runs it: link guard, classroom sidebar, dataset picker."""
    return hosted_lesson("kary_rr/page.py", **params)


def test_link_parameters_reproduce_the_view():
    at = hosted(kary_attribute="Race", kary_eps="2", seed="7")
    assert not at.exception and not at.toast
    assert at.radio(key="kary_attribute").value == "race"
    assert at.select_slider(key="kary_eps").value == 2.0
    attr = categories.attribute("race")
    reported = dp.sample_grr_counts(attr.counts, 2.0, rng=7 + lesson_kary.SEED_HISTOGRAM)
    raw = dp.grr_estimate_from_counts(reported, 2.0)
    assert metric(at, "L1 error, raw") == text.number(dp.l1_error(raw, attr.counts))
    # Moving a widget writes it back to the URL.
    at.select_slider(key="kary_eps").set_value(0.3).run()
    assert at.query_params["kary_eps"] in ("0.3", ["0.3"])  # the raw number (ui.controls)
    assert at.radio(key="kary_attribute").proto.query_param_key == "kary_attribute"


@pytest.mark.parametrize(("param", "value"), [("kary_attribute", "shoe_size"), ("kary_eps", "9")])
def test_an_invalid_link_value_falls_back_with_a_notice(param, value):
    at = hosted(**{param: value})
    assert not at.exception
    assert toasts(at) == [ignored_link_notice(param, value)]
    assert at.radio(key="kary_attribute").value == "occupation"
    assert at.select_slider(key="kary_eps").value == 0.5


def code_blocks(at) -> list[str]:
    return code_texts(at)


def test_code_behind_the_charts_has_the_current_values():
    at = page_apptest("kary_rr/page.py").run()
    at.radio(key="kary_attribute").set_value("age_sex").run()
    at.select_slider(key="kary_eps").set_value(3.0)
    at.select_slider(key="kary_var_eps").set_value(3.0).run()
    attr = categories.attribute("age_sex")
    estimates, variance = code_blocks(at)
    assert "epsilon = 3.0" in estimates
    assert f"rng={SEED + lesson_kary.SEED_HISTOGRAM})" in estimates
    assert f"true_counts = np.array({attr.counts.tolist()})" in estimates
    assert "'<40 female'" in estimates
    assert f"n, epsilon = {attr.n}, 3.0" in variance
    # The snippet rebuilds exactly the page's survey.
    namespace: dict = {}
    exec(compile(estimates, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    survey = lesson_kary.grr_survey(attr, 3.0, SEED)
    np.testing.assert_allclose(namespace["frame"]["estimate"], survey["raw"])


def test_downloads_carry_the_chart_data():
    at = page_apptest("kary_rr/page.py").run()
    buttons = {b.key: b for b in at.get("download_button")}
    assert {"kary_rr_dl_estimates", "kary_rr_dl_variance"} <= set(buttons)
    attr = categories.attribute("occupation")
    frame = lesson_kary.estimates_frame(attr, lesson_kary.grr_survey(attr, 0.5, SEED))
    assert list(frame.columns) == ["value", "true", "reported", "estimate", "projected"]
    assert frame["true"].tolist() == attr.counts.tolist()
    assert buttons["kary_rr_dl_estimates"].proto.label == "Download the data (CSV)"


def test_check_yourself_gives_feedback_that_survives_a_slider_move():
    # Q1: p = e^ε / (e^ε + k − 1) = 3 / 16 at k = 14, ε = ln 3.
    assert dp.grr_probabilities(np.log(3), 14)[0] == pytest.approx(3 / 16)
    # Q3: (e + 14) / (e + 2) ≈ 3.54.
    ratio = dp.grr_variance(1000, 1.0, 16) / dp.grr_variance(1000, 1.0, 4)
    assert round(ratio, 1) == 3.5
    at = page_apptest("kary_rr/page.py").run()
    answer_quiz(at, "kary_rr", 0, 0)
    assert any("Not quite" in e.value and "3/16" in e.value for e in at.error)
    answer_quiz(at, "kary_rr", 0, 1)
    assert any(s.value.startswith("Right.") for s in at.success)
    answer_quiz(at, "kary_rr", 2, 1)
    at.select_slider(key="kary_eps").set_value(1.0).run()
    assert len([s for s in at.success if s.value.startswith("Right.")]) == 2
    assert not at.exception


def test_an_uploaded_file_replaces_the_census_numbers():
    at = upload_csv(hosted(), "jobs.csv", JOBS)
    assert not at.exception
    assert at.selectbox(key="kary_column").value == "Job"  # no Occupation: the first column
    assert "kary_attribute" not in [r.key for r in at.radio]  # no census attributes
    # Baker 500, Clerk 300, Sales 210; 7 rows with no Job are left out.
    assert metric(at, "Categories k") == "3"
    assert metric(at, "People surveyed n") == "1,010"
    assert any("7 people have no Job recorded" in c.value for c in at.caption)
    values = [m.value for m in at.metric] + [m.value for m in at.markdown]
    assert not any("30,718" in v or "32,561" in v for v in values)
    counts = np.array([500, 300, 210])
    reported = dp.sample_grr_counts(counts, 0.5, rng=SEED + lesson_kary.SEED_HISTOGRAM)
    raw = dp.grr_estimate_from_counts(reported, 0.5)
    assert metric(at, "L1 error, raw") == text.number(dp.l1_error(raw, counts))
    assert metric(at, "Variance of one count at k = 3") == f"{dp.grr_variance(1010, 0.5, 3):,.0f}"
    (spec, data), _, (_, vdata) = specs_and_frames(at)
    assert data["truth"]["category"].tolist() == ["Baker", "Clerk", "Sales"]
    assert spec["layer"][1]["encoding"]["x"]["scale"]["domain"] == list(
        categories.count_domain(categories.Attribute("file:Job", "Job", ("a",) * 3, counts, 7))
    )
    assert "n, epsilon = 1010, 0.5" in code_blocks(at)[1]
    # The other column, then back to the census.
    at.selectbox(key="kary_column").set_value("Town").run()
    assert metric(at, "People surveyed n") == "1,007"
    at.button(key="userdata_back").click().run()
    assert metric(at, "People surveyed n") == "30,718"


def test_an_upload_never_defaults_to_a_column_of_unique_names():
    # A name column has as many categories as rows: its histogram says nothing, so the
    # lesson starts on the first column whose values repeat.
    people = b"Name,Team\nAda,Red\nBo,Blue\nCy,Red\nDee,Blue\nEd,Red\n"
    at = upload_csv(hosted(), "people.csv", people)
    assert not at.exception
    assert at.selectbox(key="kary_column").value == "Team"
    assert "Name" in at.selectbox(key="kary_column").options  # still there to pick


FORMULAS = (
    b"Job,Town\n" + b"=HYPERLINK(evil),Leeds\n" * 40 + b"@SUM(A1),York\n" * 30 + b"Cook,Hull\n" * 20
)


def test_formula_categories_are_inert_in_the_csv_download(monkeypatch):
    # a spreadsheet would run "=HYPERLINK(…)" from the downloaded CSV
    sent = record_downloads(monkeypatch)
    at = upload_csv(hosted(), "formulas.csv", FORMULAS)
    assert not at.exception
    filename, lines = sent["kary_rr_dl_estimates"]
    assert filename == "kary_rr-estimates.csv"
    cells = [line.split(",")[0] for line in lines[1:]]
    assert "'=HYPERLINK(evil)" in cells and "'@SUM(A1)" in cells and "Cook" in cells
    assert not any(
        cell.startswith(("=", "+", "-", "@")) for line in lines for cell in line.split(",")
    )


def test_the_repairs_paragraph_says_when_there_is_nothing_to_repair():
    # Every ε of the slider: the count of negatives is this survey's, and when it is 0 the
    # paragraph says the repairs change nothing, which the three equal errors then show.
    attr = categories.attribute("occupation")
    seen = set()
    for epsilon in controls.EPSILON_GRID:
        at = page_apptest("kary_rr/page.py").run()
        at.select_slider(key="kary_eps").set_value(epsilon).run()
        assert not at.exception
        raw = lesson_kary.grr_survey(attr, epsilon, SEED)["raw"]
        negatives = int((raw < 0).sum())
        words = next(m.value for m in at.markdown if m.value.startswith("The estimator is unbia"))
        errors = {metric(at, f"L1 error, {name}") for name in ("raw", "clipped", "projected")}
        if negatives:
            assert f"right now **{negatives} of 14** estimates are below zero" in words
            assert "none" not in words
            seen.add("some")
        else:
            assert "right now **none of the 14** is, so both repairs below leave" in words
            assert len(errors) == 1
            # the ε it sends the student to has a negative estimate, none between has one
            acting = float(re.search(r"move ε left to ([\d.]+) \(more private\)", words)[1])
            assert (lesson_kary.grr_survey(attr, acting, SEED)["raw"] < 0).any()
            between = [e for e in controls.EPSILON_GRID if acting < e < epsilon]
            assert not any(
                (lesson_kary.grr_survey(attr, e, SEED)["raw"] < 0).any() for e in between
            )
            seen.add("none")
    assert seen == {"some", "none"}  # both cases occur on the slider


def test_where_no_epsilon_shows_a_negative_the_paragraph_says_how_often_another_seed_would():
    """Finding: with none negative the paragraph said "move ε left (more private) to see them
    act", on a file of two halves of 300 people at 95 of 760 states (seeds 0–39, every ε),
    where no ε to the left gave that survey a negative estimate (at the slider's left end
    too). It now says so, with the chance that another seed's survey has one at the smallest
    ε: Φ(−300 / SD), SD from the pure-protocol variance n·q(1−q)/(p−q)² + n·f·(1−p−q)/(p−q)
    (Wang et al. 2017), p = e^ε/(e^ε + k − 1), q = 1/(e^ε + k − 1)."""
    frame = pd.DataFrame({"Region": pd.Categorical(["North", "South"] * 300)})
    attr = categories.file_attribute(frame, "Region")
    states = [(seed, e) for seed in range(40) for e in controls.EPSILON_GRID]
    dead = [
        (seed, e)
        for seed, e in states
        if not (lesson_kary.grr_survey(attr, e, seed)["raw"] < 0).any()
        and not any(
            (lesson_kary.grr_survey(attr, left, seed)["raw"] < 0).any()
            for left in controls.EPSILON_GRID
            if left < e
        )
    ]
    assert len(dead) == 95
    lowest = min(controls.EPSILON_GRID)
    p, q = math.exp(lowest) / (math.exp(lowest) + 1), 1 / (math.exp(lowest) + 1)
    variance = 600 * q * (1 - q) / (p - q) ** 2 + 600 * 0.5 * (1 - p - q) / (p - q)
    below = stats.norm.cdf(-300 / math.sqrt(variance))
    for seed, epsilon in dead:
        words = lesson_kary.negatives_words(attr, epsilon, seed, controls.EPSILON_GRID)
        assert "move ε left" not in words
        start = "at the slider's left end" if epsilon == lowest else "no ε left of this one"
        assert f"{start} " in words
        sd = text.number(math.sqrt(variance))
        assert f"smallest category (300 people) is estimated with SD {sd}" in words
        assert f"below zero in about {text.percent(below)} of surveys" in words
