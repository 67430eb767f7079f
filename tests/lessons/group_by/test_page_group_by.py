"""AppTest for lessons/group_by/page.py: every section's widgets moved, and the numbers, the
charts' data, the predictions, the release table, the code and the links checked against
dp/ and the lesson's model."""

from __future__ import annotations

import math

import numpy as np
import pytest

import apptest_helpers as helpers
import dp
from conftest import page_apptest
from lessons.group_by import model as lesson
from ui import controls, text
from ui.columns import census_cells

PAGE = "group_by/page.py"
HEATMAP = "Total error per clinic at"
SELECTION = "Which partitions appear"
RELEASE = "The release at"


def test_defaults_show_the_data_and_what_each_level_promises() -> None:
    at = helpers.run_lesson(PAGE)
    shown = helpers.metrics(at)
    facts = lesson.contributions()
    assert shown["Visits (rows)"] == f"{facts.rows:,}"
    assert shown["Most visits by one person"] == f"{facts.most_rows:,}" == "145"
    assert shown[f"Event level: ε for the person with {facts.most_rows:,} visits"] == text.number(
        dp.group_privacy(1.0, facts.most_rows)
    )
    assert shown["User level: ε for every person"] == "1"


@pytest.mark.parametrize(("l0", "linf", "epsilon"), [(2, 5, 1.0), (1, 1, 0.1), (6, 80, 10.0)])
def test_the_bounds_and_epsilon_move_the_metrics_and_the_heatmap(l0, linf, epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="gb_l0").set_value(l0)
    at.select_slider(key="gb_linf").set_value(linf)
    at.select_slider(key="gb_eps").set_value(epsilon).run()
    assert not at.exception
    shown = helpers.metrics(at)
    truth = lesson.true_counts()
    kept = lesson.expected_kept(l0, linf)
    bias = math.sqrt(np.mean((kept - truth) ** 2))
    noise = math.sqrt(2) * l0 * linf / epsilon
    assert shown["Visits dropped by bounding (on average)"] == f"{truth.sum() - kept.sum():,.0f}"
    assert shown["Noise SD per clinic, √2·L0·L∞/ε"] == text.number(noise)
    assert shown["Total error per clinic count"] == text.number(math.hypot(bias, noise))
    frames = helpers.frames_of(helpers.chart_titled(at, HEATMAP, prefix=True))
    grid = frames["grid"].set_index(["l0", "linf"])
    assert grid.loc[(l0, linf), "total"] == pytest.approx(math.hypot(bias, noise))
    best = grid["total"].idxmin()
    marks = frames["marks"]
    assert marks[["l0", "linf"]].values.tolist() == [list(best), [l0, linf]]
    assert text.number(grid["total"].min()) in helpers.described_charts(at)[0][1]


def test_the_bounds_prediction_is_marked_from_the_grid() -> None:
    at = helpers.run_lesson(PAGE)  # L0 = 2, L∞ = 5 → 8 at ε = 1: the error falls
    here = lesson.bounding(2, 5, 1.0).total
    there = lesson.bounding(2, 8, 1.0).total
    assert there < 0.95 * here
    helpers.answer_quiz(at, "group_by_bounds_predict", 0, 1)  # "goes up": wrong
    assert text.number(there) in at.error[-1].value
    helpers.answer_quiz(at, "group_by_bounds_predict", 0, 0)
    assert at.success[-1].value.startswith("Right.")
    # where the noise dominates, raising L∞ makes it worse, and the question says so
    at = helpers.run_lesson(PAGE, gb_l0="6", gb_linf="50", gb_eps="0.1")
    helpers.answer_quiz(at, "group_by_bounds_predict", 0, 1)
    assert at.success[-1].value.startswith("Right.")


def test_the_private_bounds_are_a_private_quantile_at_a_tenth() -> None:
    at = helpers.run_lesson(PAGE)
    places, most = lesson.per_user()
    rng = np.random.default_rng(controls.DEFAULT_SEED + lesson.SEED_BOUNDS)
    l0 = dp.private_quantile(places, np.array(lesson.GRID_L0), 0.99, 0.05, rng=rng)
    linf = dp.private_quantile(most, np.array(lesson.GRID_LINF), 0.99, 0.05, rng=rng)
    assert f"L0 = {l0:.0f}, L∞ = {linf:.0f}" in helpers.prose(at)


@pytest.mark.parametrize(("epsilon", "delta", "l0"), [(1.0, 1e-5, 1), (0.1, 1e-8, 6)])
def test_the_selection_curves_and_half_the_time(epsilon, delta, l0) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="gb_sel_eps").set_value(epsilon)
    at.select_slider(key="gb_delta").set_value(delta)
    at.select_slider(key="gb_sel_l0").set_value(l0).run()
    assert not at.exception
    frames = helpers.frames_of(helpers.chart_titled(at, SELECTION, prefix=True))
    curves = frames["curves"]
    optimal = curves[curves["rule"] == lesson.OPTIMAL_RULE]
    np.testing.assert_allclose(
        optimal["probability"],
        dp.partition_selection_probability(optimal["users"].to_numpy(), epsilon, delta, l0),
    )
    tau = dp.laplace_partition_threshold(epsilon, delta, l0)
    shown = helpers.metrics(at)
    assert shown["Laplace threshold τ (users)"] == text.number(tau)
    first = _first_at_half(epsilon, delta, l0)
    assert shown["Shown half the time from (optimal)"] == f"{first:,} users"
    assert shown["Shown half the time from (Laplace threshold)"] == f"{math.ceil(tau):,} users"
    assert sorted(frames["points"]["users"]) == sorted([first, math.ceil(tau)])
    cells = census_cells()["people"].to_numpy()
    expected = dp.partition_selection_probability(cells, epsilon, delta, 1).sum()
    assert f"shows {text.number(expected)} of them" in helpers.prose(at)


def test_the_half_labels_place_follows_this_sessions_text_size() -> None:
    """At ε = 0.1, δ = 10⁻³, L0 = 1 "shown half the time" fits at the 50% line's right end in
    the page's text but not in presenter mode's larger text (it goes left). The place was
    cached by the state alone, so the first session to draw a state chose it for every
    other: a projector's choice on a phone, or a phone's on a projector."""
    from lessons.group_by import charts
    from ui import charts as ui_charts
    from ui import classroom
    from ui import template as ui_template

    state = {"gb_sel_eps": "0.1", "gb_delta": "0.001", "gb_sel_l0": "1"}
    curves = charts.selection_frame(0.1, 1e-3, 1)
    first, *others = ui_charts.series_curves(
        curves, "rule", (lesson.OPTIMAL_RULE, lesson.LAPLACE_RULE), "users", "probability"
    )

    def place(scale: float) -> tuple[bool, bool]:
        (found,) = ui_charts.level_label_places(
            [(lesson.HALF, lesson.HALF_LABEL)],
            *first,
            others=tuple(others),
            x_domain=(1.0, float(lesson.SELECTION_USERS[-1])),
            y_domain=(0.0, 1.0),
            x_log=True,
            height=charts.SELECTION_HEIGHT,
            text_scale=scale,
        )
        return found

    bigger = ui_template.text_scale()
    assert place(1.0) == (True, False) and place(bigger) == (False, False)
    for presenting, scale in ((True, bigger), (False, 1.0), (True, bigger)):
        at = helpers.run_lesson(PAGE, **state)
        at.session_state[classroom.PRESENT_KEY] = presenting
        at.run()
        assert not at.exception
        half = helpers.frames_of(helpers.chart_titled(at, SELECTION, prefix=True))["half"]
        assert (bool(half["right"][0]), bool(half["under"][0])) == place(scale), presenting


def _first_at_half(epsilon: float, delta: float, l0: int) -> int:
    """Every whole number of users up to 100,000 at once: the first released half the time."""
    users = np.arange(1, 100_001)
    chance = dp.partition_selection_probability(users, epsilon, delta, l0)
    return int(users[np.argmax(chance >= 0.5)])


def test_the_selection_prediction_is_marked_from_the_chance() -> None:
    at = helpers.run_lesson(PAGE)  # 10 users at ε = 1, δ = 10⁻⁵, L0 = 1
    chance = dp.partition_selection_probability(10, 1.0, 1e-5, 1)
    assert 0.05 < chance < 0.95
    helpers.answer_quiz(at, "group_by_selection_predict", 0, 1)
    assert at.success[-1].value.startswith("Right.")
    assert text.percent(chance) in at.success[-1].value
    at = helpers.run_lesson(PAGE, gb_sel_l0="6")  # 10 users, L0 = 6: almost never
    assert dp.partition_selection_probability(10, 1.0, 1e-5, 6) < 0.05
    helpers.answer_quiz(at, "group_by_selection_predict", 0, 0)
    assert at.success[-1].value.startswith("Right.")


@pytest.mark.parametrize("epsilon", [1.0, 0.1])
def test_the_pipeline_releases_what_the_model_draws(epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="gb_pipe_eps").set_value(epsilon).run()
    assert not at.exception
    seed = controls.DEFAULT_SEED + lesson.SEED_PIPELINE
    l0, linf = lesson.pipeline_bounds(controls.DEFAULT_SEED)
    assert (l0, linf) == (3, 13)
    release = lesson.pipeline(l0, linf, epsilon, 1e-5, seed)
    shown = helpers.metrics(at)
    assert shown["Clinics released"] == f"{release.released} of {lesson.PLACES}"
    assert shown["Visits dropped by bounding"] == f"{release.dropped_rows:,}"
    sd = dp.laplace_std(l0 * linf, epsilon / 2)
    assert shown["Noise SD per released count"] == text.number(sd)
    table = helpers.rows_table(at, "gb_release")
    assert len(table) == lesson.PLACES
    released = release.table[release.table["released"]]
    first = released.iloc[0]
    row = table[table["clinic"] == first["clinic"]].iloc[0]
    assert row["noisy count"] == text.number(round(first["noisy count"]))
    assert row["released"] == "yes"
    assert (table["released"] == "no").sum() == release.dropped_clinics
    frames = helpers.frames_of(helpers.chart_titled(at, RELEASE, prefix=True))
    half = _first_at_half(epsilon / 2, 1e-5, l0)
    assert frames["truth"]["x"].tolist() == [half]
    assert (frames["clinics"]["status"] == "not released").sum() == release.dropped_clinics
    # the busiest clinics first, as the sentence says (84 pairs were out of order before)
    visits = [int(v.replace(",", "")) for v in table["true visits"]]
    assert visits == sorted(visits, reverse=True)
    # every spend counted: the bounds' private choice (ε = 0.1) and the release
    total = dp.sequential_composition([lesson.BOUNDS_EPSILON, epsilon])
    assert shown["Total ε, the bounds' choice included"] == text.number(total)
    said = " ".join(m.value for m in at.markdown)
    assert "(ε + 0.1, δ)-DP at user level" in said and "(ε, δ) in all" not in said
    assert "L0 = 1; for L0 > 1 it runs here at (ε/L0, δ/L0)" in " ".join(
        c.value for c in at.caption
    )


def test_a_link_reproduces_the_view_and_the_code_has_its_values() -> None:
    params = {"gb_l0": "3", "gb_linf": "13", "gb_eps": "0.5", "gb_pipe_eps": "2"}
    at = helpers.run_lesson(PAGE, **params)
    for key, value in params.items():
        assert float(at.select_slider(key=key).value) == float(value)
    helpers.open_snippets(at)
    code = " ".join(helpers.code_texts(at))
    assert "l0, linf, epsilon = 3, 13, 0.5" in code
    assert "l0, linf, epsilon, delta = 3, 13, 2.0, 1e-05" in code


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(at, ("group_by", 1, 1), "3 · 2 = 6", ("group_by", 1, 3))


def test_the_pipeline_uses_section_twos_private_bounds_at_the_pages_seed() -> None:
    """Section 4 ran with L0 = 3 and L∞ = 13 and called them "the private choice of section
    2" at every seed; at seed 7 section 2's private quantiles give L∞ = 20, and the pipeline
    now bounds, adds noise and draws its rule with the bounds section 2 shows."""
    assert lesson.pipeline_bounds(7) == (3, 20)
    at = page_apptest(PAGE)
    at.session_state["seed"] = 7
    at.run()
    assert not at.exception
    words = helpers.prose(at)
    assert "gives **L0 = 3, L∞ = 20** here." in words
    assert "here L0 = 3 and L∞ = 20, the private choice of section 2." in words
    release = lesson.pipeline(3, 20, 1.0, 1e-5, 7 + lesson.SEED_PIPELINE)
    shown = helpers.metrics(at)
    assert shown["Clinics released"] == f"{release.released} of {lesson.PLACES}"
    assert shown["Noise SD per released count"] == text.number(dp.laplace_std(60, 0.5))
