"""AppTest of the unary encoding lesson: every widget moved (occupation, mode, p, q, ε,
re-roll, comparison ε), the numbers it then shows checked against dp/."""

import math

import numpy as np
import pytest

import dp
from apptest_helpers import (
    answer_quiz,
    code_texts,
    hosted_lesson,
    ignored_link_notice,
    specs_and_frames,
    title_of,
    toasts,
    upload_csv,
)
from conftest import page_apptest
from lessons.unary_encoding import model as lesson_unary
from ui import categories, controls, text

SEED = controls.DEFAULT_SEED
N = 30_718  # 32,561 people minus the 1,843 with no occupation recorded


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


@pytest.fixture
def at():
    return page_apptest("unary_encoding/page.py").run()


def test_defaults_show_p_three_quarters_q_one_quarter_and_ln9(at):
    assert not at.exception
    assert metric(at, "p (1-bit → 1)") == "0.75"
    assert metric(at, "q (0-bit → 1)") == "0.25"
    assert metric(at, "Privacy loss ε") == text.number(math.log(9))  # 2.197
    assert not at.warning


def test_custom_sliders_give_live_epsilon_and_estimates(at):
    at.slider(key="ue_p").set_value(0.6).run()
    at.slider(key="ue_q").set_value(0.1).run()
    assert not at.exception
    assert metric(at, "Privacy loss ε") == text.number(dp.ue_epsilon(0.6, 0.1))  # ln 13.5
    attr = lesson_unary.occupations()
    assert attr.n == N
    counts = dp.sample_ue_counts(attr.counts, 0.6, 0.1, rng=SEED + lesson_unary.SEED_SURVEY)
    estimates = dp.ue_estimate_from_counts(counts, N, 0.6, 0.1)
    sales = attr.labels.index("Sales")
    assert metric(at, "Reports with the Sales bit set") == f"{counts[sales]:,}"
    assert metric(at, "Estimated Sales") == f"{estimates[sales]:,.0f}"
    assert metric(at, "True Sales") == "3,650"
    assert (
        metric(at, "L1 error (all values)") == f"{dp.l1_error(estimates, attr.counts):,.0f} people"
    )
    # The histogram chart carries these estimates and ±2 SD from ue_variance.
    spec, data = specs_and_frames(at)[1]
    bars = data["bars"]
    np.testing.assert_allclose(bars["estimate"], estimates)
    sd = np.sqrt([dp.ue_variance(N, 0.6, 0.1, frequency=c / N) for c in attr.counts])
    np.testing.assert_allclose(bars["high"] - bars["estimate"], 2 * sd)
    np.testing.assert_array_equal(data["truth"]["true count"], attr.counts)
    assert "p = 0.6, q = 0.1" in title_of(spec)
    # How many true counts the ±2 SD intervals cover (about 95% of 14 in the long run).
    covered = int(np.sum(np.abs(estimates - attr.counts) <= 2 * sd))
    assert metric(at, "Truths inside ±2 SD") == f"{covered} of {attr.k}"


def test_a_whisker_cut_at_the_axis_says_which_end_goes_on(at):
    """At p = 0.21 (q = 0.25) the whiskers outrun the fixed axis on both sides: each cut end
    is flagged on its own side (the chart draws an arrowhead there). One mark "»" or "«" at
    the plot's left edge said only one end, "»" pointing the wrong way, and the cut whisker
    ran through it."""
    at.slider(key="ue_p").set_value(0.21).run()
    spec, data = specs_and_frames(at)[1]
    bars = data["bars"]
    lo, hi = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    assert bars["beyond_low"].tolist() == (bars["low"] < lo).tolist()
    assert bars["beyond_high"].tolist() == (bars["high"] > hi).tolist()
    assert bars["beyond_low"].any() and bars["beyond_high"].any()
    assert (bars.loc[bars["beyond_low"], "shown_low"] == lo).all()
    assert (bars.loc[bars["beyond_high"], "shown_high"] == hi).all()


def test_p_equal_q_warns_and_skips_the_estimate(at):
    at.slider(key="ue_q").set_value(0.75).run()
    assert not at.exception
    assert any("p = q = 0.75" in w.value for w in at.warning)
    assert metric(at, "Privacy loss ε") == "0"
    assert not any(m.label == "Estimated Sales" for m in at.metric)


def test_p_below_q_warns_but_still_estimates(at):
    at.slider(key="ue_p").set_value(0.2).run()
    at.slider(key="ue_q").set_value(0.7).run()
    assert not at.exception
    assert any("below q" in w.value for w in at.warning)
    assert metric(at, "Privacy loss ε") == text.number(dp.ue_epsilon(0.2, 0.7))
    assert any(m.label == "Estimated Sales" for m in at.metric)


@pytest.mark.parametrize(
    ("mode", "probabilities"), [("sue", dp.sue_probabilities), ("oue", dp.oue_probabilities)]
)
def test_presets_set_p_and_q_from_epsilon(at, mode, probabilities):
    at.radio(key="ue_mode").set_value(mode).run()
    at.select_slider(key="ue_eps").set_value(2.0).run()
    assert not at.exception
    p, q = probabilities(2.0)
    assert metric(at, "p (1-bit → 1)") == f"{text.number(p)}"
    assert metric(at, "q (0-bit → 1)") == f"{text.number(q)}"
    assert metric(at, "Privacy loss ε") == "2"  # both presets are exactly ε-LDP
    sue_sd = dp.ue_variance(N, *dp.sue_probabilities(2.0)) ** 0.5
    oue_sd = dp.ue_variance(N, *dp.oue_probabilities(2.0)) ** 0.5
    assert metric(at, "SUE: SD of a rare value's count (share 0)") == f"{sue_sd:,.0f} people"
    assert metric(at, "OUE: SD of a rare value's count (share 0)") == f"{oue_sd:,.0f} people"
    assert oue_sd < sue_sd  # for a rare value only:
    threshold = dp.oue_sue_share_threshold(2.0)
    assert metric(at, "OUE is more precise below share") == text.percent(threshold) == "19.7%"
    attr = lesson_unary.occupations()
    above = int((attr.counts / attr.n > threshold).sum())
    caption = " ".join(c.value for c in at.caption)
    assert f"here {above} of the {attr.k} values of occupation are that common" in caption


def test_sue_beats_oue_for_common_values_at_large_epsilon(at):
    # The lecturer's check: occupation at ε = 5, 6 of the 14 counts are better under SUE.
    at.radio(key="ue_mode").set_value("oue").run()
    at.select_slider(key="ue_eps").set_value(5.0).run()
    assert metric(at, "OUE is more precise below share") == "7.01%"
    assert "here 6 of the 14 values of occupation are that common" in " ".join(
        c.value for c in at.caption
    )


def test_occupation_and_reroll_change_the_journey(at):
    at.selectbox(key="ue_value").set_value("Tech-support").run()
    attr = lesson_unary.occupations()
    value = attr.labels.index("Tech-support")
    spec, data = specs_and_frames(at)[0]
    cells = data["cells"]
    bits = cells[cells.step == lesson_unary.STEP_ROWS[0]]["shade"].to_numpy()
    np.testing.assert_array_equal(bits, np.eye(attr.k)[value])
    chance = cells[cells.step == lesson_unary.STEP_ROWS[1]]["shade"].to_numpy()
    np.testing.assert_allclose(chance, np.where(np.eye(attr.k)[value] == 1, 0.75, 0.25))
    first = cells[cells.step == lesson_unary.STEP_ROWS[2]]["shade"].to_numpy()
    expected = dp.ue_perturb(
        dp.ue_encode([value], attr.k), 0.75, 0.25, rng=SEED + lesson_unary.SEED_JOURNEY
    )[0]
    np.testing.assert_array_equal(first, expected)
    assert "(roll 1)" in title_of(spec)
    at.button(key="ue_reroll").click().run()
    assert at.session_state["ue_rolls"] == 1
    spec, data = specs_and_frames(at)[0]
    assert "(roll 2)" in title_of(spec)
    cells = data["cells"]
    second = cells[cells.step == lesson_unary.STEP_ROWS[2]]["shade"].to_numpy()
    expected = dp.ue_perturb(
        dp.ue_encode([value], attr.k), 0.75, 0.25, rng=SEED + lesson_unary.SEED_JOURNEY + 1
    )[0]
    np.testing.assert_array_equal(second, expected)
    assert metric(at, "Bits reported as 1") == f"{int(expected.sum())} of 14"
    # Whether this roll kept the person's own bit (Tech-support) at 1. (The label is
    # Markdown: the value's hyphen comes escaped, and shows as written.)
    label = f"True bit ({text.plain('Tech-support')}) reported as"
    assert metric(at, label) == f"{int(expected[value])}"


@pytest.mark.parametrize(("epsilon", "winner"), [(0.5, "OUE"), (2.0, "GRR")])
def test_comparison_shows_the_crossover(at, epsilon, winner):
    # ε = 0.5: k* = 3·1.6487 + 2 = 6.9 < 14 → OUE; ε = 2: k* = 3·7.389 + 2 = 24.2 > 14 → GRR
    at.select_slider(key="ue_compare_eps").set_value(epsilon).run()
    assert not at.exception
    crossover = 3 * math.exp(epsilon) + 2
    assert metric(at, "Crossover $k^* = 3e^ε + 2$") == f"{text.number(crossover)}"
    assert metric(at, "OUE variance (any k)") == f"{dp.oue_variance(N, epsilon):,.0f}"
    assert metric(at, "GRR variance at k = 14") == f"{dp.grr_variance(N, epsilon, 14):,.0f}"
    assert any(f"better choice is **{winner}**" in m.value for m in at.markdown)
    spec, data = specs_and_frames(at)[2]
    curves = data["curves"]
    grr = curves[curves.protocol == "GRR"]
    np.testing.assert_allclose(
        grr["variance"], [dp.grr_variance(N, epsilon, int(k)) for k in grr["k"]]
    )
    assert data["marks"]["k"].iloc[0] == pytest.approx(crossover)
    # Fixed axes: the y domain does not move with ε.
    domain = spec["layer"][0]["encoding"]["y"]["scale"]["domain"]
    assert domain == list(lesson_unary.comparison_domain(N))


@pytest.mark.parametrize(
    ("epsilon", "labels", "said"),
    [
        # k* = 5.316, occupation's rule at k = 14 within its label's width on a phone, and
        # no room on its left: "k*" beside it, its value in the subtitle
        (0.1, ["k*", "occupation: k = 14"], "crossover k* = 5.316"),
        (1.0, ["k* = 10.15", "occupation: k = 14"], "crossover k*"),  # left of its rule
        # k* = 15.45 just right of k = 14: the attribute's words cross it rightwards and
        # have no room leftwards in full
        (1.5, ["k* = 15.45", "k = 14"], "crossover k* · grey: occupation, k = 14"),
    ],
)
def test_the_comparisons_rules_are_labelled_where_no_line_crosses_them(at, epsilon, labels, said):
    """Each rule's words beside it in full where nothing crosses them on a phone, else in
    short with the rest in the subtitle (lessons/unary_encoding/model.py comparison_marks)."""
    at.select_slider(key="ue_compare_eps").set_value(epsilon).run()
    assert not at.exception
    spec, data = specs_and_frames(at)[2]
    marks = data["marks"]
    assert list(marks["label"]) == labels and marks["shown"].all()
    assert spec["title"]["subtitle"][1] == f"black dashed rule: {said}"


# --- Classroom features: link binding, code, download, check yourself, your own data -------

JOBS = b"Job,Town\n" + b"Baker,Leeds\n" * 500 + b"Clerk,York\n" * 300 + b"Sales,Hull\n" * 200


def hosted(**params: str):
    """The lesson as app.py runs it: link guard, classroom sidebar, dataset picker."""
    return hosted_lesson("unary_encoding/page.py", **params)


def test_link_parameters_reproduce_the_view():
    at = hosted(ue_attribute="Education", ue_value="Masters", ue_p="0.6", ue_q="0.1", seed="5")
    assert not at.exception and not at.toast
    assert at.selectbox(key="ue_value").value == "Masters"
    assert metric(at, "Privacy loss ε") == text.number(dp.ue_epsilon(0.6, 0.1))
    attr = categories.attribute("education")
    counts = dp.sample_ue_counts(attr.counts, 0.6, 0.1, rng=5 + lesson_unary.SEED_SURVEY)
    masters = attr.labels.index("Masters")
    assert metric(at, "Reports with the Masters bit set") == f"{counts[masters]:,}"
    for key in ("ue_attribute", "ue_value", "ue_mode"):
        assert next(w for w in [*at.radio, *at.selectbox] if w.key == key).proto.query_param_key
    at2 = hosted(ue_mode="OUE (optimized)", ue_eps="2", ue_compare_eps="0.5")
    assert metric(at2, "q (0-bit → 1)") == f"{text.number(dp.oue_probabilities(2.0)[1])}"
    assert metric(at2, "Crossover $k^* = 3e^ε + 2$") == f"{text.number(3 * math.exp(0.5) + 2)}"


@pytest.mark.parametrize(("param", "value"), [("ue_p", "1.5"), ("ue_value", "Astronaut")])
def test_an_invalid_link_value_falls_back_with_a_notice(param, value):
    at = hosted(**{param: value})
    assert not at.exception
    assert toasts(at) == [ignored_link_notice(param, value)]
    assert at.selectbox(key="ue_value").value == "Sales"
    assert metric(at, "p (1-bit → 1)") == "0.75"


def test_code_behind_the_charts_has_the_current_values(at):
    at.slider(key="ue_p").set_value(0.7).run()
    estimates, comparison = code_texts(at)
    assert "p, q = 0.7, 0.25" in estimates
    assert f"rng={SEED + lesson_unary.SEED_SURVEY})" in estimates
    namespace: dict = {}
    exec(compile(estimates, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    survey = lesson_unary.ue_survey(lesson_unary.occupations(), 0.7, 0.25, SEED)
    np.testing.assert_allclose(namespace["frame"]["estimate"], survey["estimates"])
    at.select_slider(key="ue_compare_eps").set_value(2.0).run()
    assert f"n, epsilon = {N}, 2.0" in code_texts(at)[1]


def test_downloads_carry_the_chart_data(at):
    keys = [b.key for b in at.get("download_button")]
    assert keys == ["unary_encoding_dl_estimates", "unary_encoding_dl_variance"]
    attr = lesson_unary.occupations()
    table = lesson_unary.estimates_table(attr, lesson_unary.ue_survey(attr, 0.75, 0.25, SEED))
    assert list(table.columns) == ["value", "true", "bits_set", "estimate", "sd"]
    wide = lesson_unary.comparison_table(lesson_unary.comparison_frame(N, 1.0))
    assert list(wide.columns) == ["k", "GRR", "OUE"]


def test_check_yourself_gives_feedback_that_survives_a_slider_move(at):
    assert dp.ue_epsilon(0.75, 0.25) == pytest.approx(math.log(9))  # Q1
    assert dp.oue_probabilities(math.log(3)) == pytest.approx((0.5, 0.25))  # Q2
    assert dp.better_frequency_oracle(1.0, 14) == "OUE"  # Q3
    answer_quiz(at, "unary_encoding", 1, 1)
    assert any("Not quite" in e.value for e in at.error)
    answer_quiz(at, "unary_encoding", 0, 1)
    at.slider(key="ue_p").set_value(0.9).run()
    assert any(s.value.startswith("Right.") for s in at.success)
    assert any("Not quite" in e.value for e in at.error)
    assert not at.exception


def test_an_uploaded_file_replaces_the_census_numbers():
    at = upload_csv(hosted(), "jobs.csv", JOBS)
    assert not at.exception
    assert at.selectbox(key="ue_column").value == "Job"
    assert at.selectbox(key="ue_value").options == ["Baker", "Clerk", "Sales"]
    assert at.selectbox(key="ue_value").value == "Sales"
    # Sales is first on row 801 of the data; a file has no names.
    assert any("row 801 of your file" in c.value for c in at.caption)
    counts = np.array([500, 300, 200])
    bits = dp.sample_ue_counts(counts, 0.75, 0.25, rng=SEED + lesson_unary.SEED_SURVEY)
    assert metric(at, "True Sales") == "200"
    assert metric(at, "Reports with the Sales bit set") == f"{bits[2]:,}"
    assert metric(at, "Bits reported as 1").endswith("of 3")
    assert metric(at, "OUE variance (any k)") == f"{dp.oue_variance(1000, 1.0):,.0f}"
    shown = [m.value for m in at.metric] + [m.value for m in at.markdown]
    assert not any("30,718" in v or "3,650" in v for v in shown)
    assert "'Baker'" in code_texts(at)[0]
    # the crossover's caption names the census's attributes as the census's, not the file's
    words = " ".join(c.value for c in at.caption)
    assert "GRR still wins there for any attribute of 5 values or fewer (the census's race" in words
    at.selectbox(key="ue_value").set_value("Baker").run()
    assert any("row 1 of your file" in c.value for c in at.caption)


def test_a_markdown_column_name_is_plain_text_in_the_respondent_label():
    # the label rendered <strong>, a live link and an image request
    name = "**Boss** [x](http://127.0.0.1:9/p) ![](http://127.0.0.1:9/i.png)"
    data = f"{name},Town\n".encode() + b"Sales,Leeds\nClerk,York\nCook,Hull\n" * 20
    at = upload_csv(hosted(), "evil.csv", data)
    assert not at.exception
    # the visible label is the markdown above the box, escaped; the box's own label (what a
    # screen reader hears) is the name as written, and collapsed
    boxes = [box for box in at.selectbox if box.label.startswith("Pick a respondent by")]
    assert [box.label for box in boxes] == [f"Pick a respondent by {name}"]
    assert boxes[0].proto.label_visibility.value == 2  # collapsed
    assert f"Pick a respondent by {text.plain(name)}" in [m.value for m in at.markdown]


def test_the_p_and_q_labels_say_the_direction_that_holds_everywhere(at) -> None:
    """Finding: "p (← more private toward q · more accurate →)" is false below q, which the
    sliders allow (p = 0.2, q = 0.7 above). On the whole grid ε grows, and the estimate's
    variance (at every share f) shrinks, with |p − q|, on either side; the labels say so."""
    assert "nearer q → more private · farther → more accurate" in at.slider(key="ue_p").label
    assert "nearer p → more private · farther → more accurate" in at.slider(key="ue_q").label
    grid = [i / 20 for i in range(1, 20)]
    for fixed in grid:
        for side in (1, -1):
            moving = sorted((v for v in grid if side * (v - fixed) > 1e-9), key=lambda v: side * v)
            for pairs in ([(v, fixed) for v in moving], [(fixed, v) for v in moving]):
                eps = [dp.ue_epsilon(p, q) for p, q in pairs]
                assert eps == sorted(eps), (fixed, side)
                for f in (0.0, 0.5, 1.0):
                    var = [dp.ue_variance(100, p, q, f) for p, q in pairs]
                    assert var == sorted(var, reverse=True), (fixed, side, f)
