"""AppTest for "Why anonymisation fails": every picker and the ε slider, with what the page
then shows checked against the data (pandas, independently of the page's helpers) and dp/."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import (
    chart_titled,
    code_texts,
    frames_of,
    record_downloads,
    run_lesson,
    run_lesson_with_upload,
    spec_of,
    title_of,
)
from conftest import app_apptest, page_apptest
from lessons.anonymisation import model as lesson
from ui import controls, quiz, text

PAGE = "anonymisation/page.py"


@pytest.fixture(scope="module")
def roll() -> pd.DataFrame:
    return lesson.voter_roll()


@pytest.fixture
def at():
    app = page_apptest(PAGE).run()
    assert not app.exception, app.exception
    return app


def metric(app, label: str) -> str:
    values = [m.value for m in app.metric if m.label == label]
    assert len(values) == 1, f"no single metric {label!r}: {[m.label for m in app.metric]}"
    return values[0]


def chart(app, title: str) -> tuple[dict, dict[str, pd.DataFrame]]:
    """The Vega-Lite spec whose title starts so and its datasets (Arrow on the proto) by
    name."""
    element = chart_titled(app, title, prefix=True)
    return spec_of(element), frames_of(element)


def class_sizes_frame(app) -> pd.DataFrame:
    _, data = chart(app, "People by the size of their class")
    (frame,) = data.values()
    return frame


def unique_share(people: pd.DataFrame, columns: list[str]) -> float:
    """Share of people alone in their group, computed with pandas (not dp/)."""
    sizes = people.groupby(columns, observed=True, dropna=False)[columns[0]].transform("size")
    return float((sizes == 1).mean())


def run(widget):
    """Run the app after a widget change; no exception may appear."""
    app = widget.run()
    assert not app.exception, app.exception
    return app


# --- 1. linkage -----------------------------------------------------------------------------


def test_default_voter_links_uniquely_and_reveals_the_census_row(at, people, roll):
    name = at.selectbox(key="anon_voter").value
    voter = roll.loc[roll["Name"] == name].iloc[0]
    assert voter["matches"] == 1 and voter["row"] >= 0
    truth = people.iloc[int(voter["row"])]
    assert truth["Name"] == name
    (message,) = at.success
    assert "re-identified" in message.value
    assert f"earns **{truth['Income']}**" in message.value
    assert str(truth["MaritalStatus"]) in message.value
    assert f"works in **{truth['Occupation']}**" in message.value  # a recorded occupation


def test_a_missing_occupation_and_a_pair_of_matches_are_said_plainly(at, people, roll):
    # "works as **not recorded** (occupation)" and "All 2 earn <=50K" were shown
    voters = roll[roll["matches"] >= 1]
    unique = voters[(voters["matches"] == 1) & (voters["row"] >= 0)]
    rows = people.iloc[unique["row"].astype(int)]
    missing = unique[rows["Occupation"].isna().to_numpy()]
    assert len(missing), "the roll has a re-identified voter without an occupation"
    at.selectbox(key="anon_voter").set_value(missing["Name"].iloc[0])
    app = run(at)
    (message,) = app.success
    assert "has no occupation on record" in message.value and "not recorded" not in message.value
    pair = voters[voters["matches"] == 2]["Name"]
    for name in pair:  # the first pair whose two rows share their income
        if lesson.link(name)["Income"].nunique() == 1:
            break
    app.selectbox(key="anon_voter").set_value(name)
    app = run(app)
    assert any(
        w.value.endswith("Both earn <=50K, so you learn the income anyway.")
        or ("Both earn >50K, so you learn the income anyway." in w.value)
        for w in app.warning
    ), [w.value for w in app.warning]


def unescape(shown: str) -> str:
    """A static table's cell as the reader sees it (ui.text.plain escapes Markdown)."""
    return re.sub(r"\\(.)", r"\1", shown)


def test_release_roll_and_match_are_static_tables_of_the_data(at, people, roll):
    """The three tables of section 1 are static tables (st.table: the data grid's component
    costs ~0.35 s of a first visit), their cells as plain text and the data's own values."""
    assert not at.dataframe
    release, voters, match = (table.value for table in at.table[:3])
    assert list(release.columns) == [
        column for column in people.columns if column not in ("Name", "SSN")
    ]
    first = people.iloc[0]
    assert unescape(release["DOB"].iloc[0]) == f"{first['DOB']:%Y-%m-%d}"
    assert release["Zip"].iloc[0] == first["Zip"]  # a ZIP code keeps its leading zero
    assert unescape(release["MaritalStatus"].iloc[0]) == str(first["MaritalStatus"])
    assert release["Age"].iloc[0] == f"{first['Age']:,}"
    assert list(voters.columns) == ["Name", "Zip", "DOB", "Sex"]
    assert list(voters["Name"].map(unescape)) == roll["Name"].head(len(voters)).tolist()
    name = at.selectbox(key="anon_voter").value
    truth = people.iloc[int(roll.loc[roll["Name"] == name, "row"].iloc[0])]
    assert len(match) == 1
    assert unescape(match["Income"].iloc[0]) == str(truth["Income"]) == ">50K"
    assert match["Income"].iloc[0] == r"\>50K"  # not a block quote


def test_linkage_counts_match_a_pandas_join(at, people, roll):
    keys = ["Zip", "DOB", "Sex"]
    sizes = people.groupby(keys, observed=True).size().rename("n").reset_index()
    joined = roll[["Name", *keys]].merge(sizes, on=keys, how="left")
    joined["n"] = joined["n"].fillna(0)
    assert metric(at, "Voters linked to exactly one row") == f"{(joined['n'] == 1).sum():,}"
    assert metric(at, "Ambiguous (several rows)") == f"{(joined['n'] > 1).sum():,}"
    assert metric(at, "No match") == f"{(joined['n'] == 0).sum():,}"
    assert len(roll) == lesson.ROLL_SIZE + lesson.ROLL_STRANGERS


def test_an_ambiguous_voter_gets_a_warning_and_all_candidates(at, roll):
    voter = roll.loc[roll["matches"] > 1].iloc[0]
    run(at.selectbox(key="anon_voter").select(voter["Name"]))
    assert any("Ambiguous" in w.value for w in at.warning)
    assert any(f"{voter['matches']:,} rows" in w.value for w in at.warning)
    assert not at.success
    shown = at.table[-1].value
    assert len(shown) == voter["matches"]
    assert set(shown[r"Income"].map(unescape)) <= {">50K", "<=50K"}


def test_a_voter_missing_from_the_release_gets_no_match(at, roll):
    voter = roll.loc[roll["matches"] == 0].iloc[0]
    run(at.selectbox(key="anon_voter").select(voter["Name"]))
    assert any("No match" in i.value for i in at.info)
    assert not at.success


def test_a_stranger_who_matches_someone_is_flagged_as_a_false_link(at, roll):
    false_links = roll.loc[(roll["row"] < 0) & (roll["matches"] == 1)]
    if false_links.empty:
        pytest.skip("this roll has no stranger who shares someone's ZIP, DOB and sex")
    run(at.selectbox(key="anon_voter").select(false_links["Name"].iloc[0]))
    assert any("false link" in w.value for w in at.warning)


def test_sweeney_figure_for_this_dataset(at, people):
    share = unique_share(people, ["Zip", "DOB", "Sex"])
    assert metric(at, "Unique on (ZIP, DOB, sex): this dataset") == f"{text.percent(share)}"
    assert metric(at, "Unique on (ZIP, DOB, sex): US population, Sweeney 2000") == "87%"


# --- 2. uniqueness explorer -----------------------------------------------------------------


def test_default_quasi_identifiers_show_zip_dob_sex(at, people):
    share = unique_share(people, ["Zip", "DOB", "Sex"])
    assert metric(at, "People who are unique") == f"{text.percent(share)}"
    classes = people.groupby(["Zip", "DOB", "Sex"], observed=True).ngroups
    assert metric(at, "Equivalence classes") == f"{classes:,}"
    frame = class_sizes_frame(at)
    assert frame["bucket"].tolist() == list(lesson.CLASS_SIZE_LABELS)
    assert frame["people"].sum() == len(people)
    assert frame["people"].iloc[0] == round(share * len(people))


def test_generalising_dob_to_birth_year_collapses_uniqueness(at, people):
    before = class_sizes_frame(at)["people"].iloc[0]
    run(at.multiselect(key="anon_qi").set_value(["ZIP code", "Birth year", "Sex"]))
    birth_year = people.assign(BirthYear=people["DOB"].dt.year)
    share = unique_share(birth_year, ["Zip", "BirthYear", "Sex"])
    assert metric(at, "People who are unique") == f"{text.percent(share)}"
    after = class_sizes_frame(at)["people"]
    assert after.iloc[0] == round(share * len(people)) < before
    assert after.sum() == len(people)


def test_coarse_attributes_reach_k_anonymity(at, people):
    run(at.multiselect(key="anon_qi").set_value(["Sex", "Race"]))
    smallest = people.groupby(["Sex", "Race"], observed=True).size().min()
    assert metric(at, "k (smallest class)") == f"{smallest:,}"
    assert metric(at, "People who are unique") == "0%"
    frame = class_sizes_frame(at)
    assert frame["people"].iloc[-1] == len(people)  # every class has 51+ people


def test_missing_occupation_counts_as_its_own_value(at, people):
    run(at.multiselect(key="anon_qi").set_value(["Occupation", "Age"]))
    share = unique_share(people, ["Occupation", "Age"])  # dropna=False keeps the missing group
    assert metric(at, "People who are unique") == f"{text.percent(share)}"


def test_no_quasi_identifier_means_one_class_and_a_message(at, people):
    run(at.multiselect(key="anon_qi").set_value([]))
    assert any("No attributes chosen" in i.value for i in at.info)
    assert metric(at, "Equivalence classes") == "1"
    assert metric(at, "k (smallest class)") == f"{len(people):,}"


# --- 3. differencing ------------------------------------------------------------------------


def test_the_two_counts_reveal_the_default_target(at, people):
    target = at.selectbox(key="anon_target").value
    rich = int((people["Income"] == ">50K").sum())
    target_rich = people.loc[people["Name"] == target, "Income"].iloc[0] == ">50K"
    assert target_rich  # the default target earns >50K
    assert metric(at, "How many earn >50K?") == f"{rich:,}"
    assert metric(at, "How many not named X earn >50K?") == f"{rich - 1:,}"
    assert metric(at, "Difference") == "1"
    assert any(f"{target} earns **>50K**" in e.value for e in at.error)


def test_a_target_below_50k_gives_a_difference_of_zero(at, people, roll):
    members = roll.loc[roll["row"] >= 0]
    poor = members.loc[people["Income"].to_numpy()[members["row"]] == "<=50K", "Name"].iloc[0]
    run(at.selectbox(key="anon_target").select(poor))
    rich = int((people["Income"] == ">50K").sum())
    assert metric(at, "How many not named X earn >50K?") == f"{rich:,}"
    assert metric(at, "Difference") == "0"
    assert any(f"{poor} earns **<=50K**" in e.value for e in at.error)


@pytest.mark.parametrize("epsilon", [0.01, 0.3, 1.0, 10.0])
def test_epsilon_slider_sets_exact_and_simulated_success(at, people, epsilon):
    run(at.select_slider(key="anon_eps").set_value(epsilon))
    exact = dp.differencing_success_probability(epsilon)
    assert metric(at, "Attacker right (exact)") == f"{text.percent(exact)}"
    rich = int((people["Income"] == ">50K").sum())
    successes = dp.differencing_attack_successes(
        rich, rich - 1, epsilon, tries=lesson.ATTACK_TRIES, rng=controls.DEFAULT_SEED + 33
    )
    simulated = successes / lesson.ATTACK_TRIES
    assert metric(at, f"Attacker right ({lesson.ATTACK_TRIES:,} simulated tries)") == (
        f"{text.percent(simulated)}"
    )
    se = dp.proportion_standard_error(exact, lesson.ATTACK_TRIES)
    assert abs(simulated - exact) <= 6 * se + 1e-9
    assert metric(at, "Budget the two queries spend (2ε)") == f"{2 * epsilon:g}"
    noisy = dp.laplace_mechanism(rich, 1, epsilon, rng=controls.DEFAULT_SEED + 31)
    assert metric(at, "Noisy: how many earn >50K?") == f"{text.number(noisy)}"
    # The attacker's guess from these two answers: X earns >50K when the difference of the
    # noisy counts is above ½. X does earn >50K, so the guess is right exactly then.
    without = dp.laplace_mechanism(
        rich - 1, 1, epsilon, rng=controls.DEFAULT_SEED + lesson.SEED_ANSWER_WITHOUT
    )
    assert metric(at, "Noisy: how many not named X?") == f"{text.number(without)}"
    guess_rich = noisy - without > 0.5
    (guess,) = [m for m in at.metric if m.label == "Your guess for X"]
    assert guess.value == (">50K" if guess_rich else "<=50K")
    assert guess.proto.delta == ("right" if guess_rich else "wrong")

    spec, data = chart(at, "Attacker's success versus ε")
    marker = data["marker"]
    assert marker["epsilon"].tolist() == [epsilon, epsilon]
    assert marker["success"].tolist() == pytest.approx([exact, simulated])
    x_scale = spec["layer"][0]["encoding"]["x"]["scale"]
    assert x_scale["type"] == "log" and x_scale["domain"] == [0.01, 10]  # fixed axis
    curve = next(frame for name, frame in data.items() if "epsilon" in frame and name != "marker")
    assert curve["success"].iloc[0] == pytest.approx(dp.differencing_success_probability(0.01))
    # the two rates in the title (beside the circle the curve ran through them), the coin
    # toss's label at the end of its line away from your ε's rule
    assert title_of(spec) == (
        f"Attacker's success versus ε ● exact at ε = {text.number(epsilon)}: "
        f"{text.percent(exact)} ◆ 1,000 simulated tries: {text.percent(simulated)}"
    )
    assert data["coin"]["right"].tolist() == [epsilon < 0.3]
    assert data["coin"]["success"].tolist() == [0.5]


def test_success_rises_with_epsilon_on_the_page(at):
    shown = []
    for epsilon in (0.01, 1.0, 10.0):
        run(at.select_slider(key="anon_eps").set_value(epsilon))
        shown.append(float(metric(at, "Attacker right (exact)").rstrip("%")))
    assert shown[0] == pytest.approx(50.1, abs=0.05)  # a coin toss at ε = 0.01
    assert shown[0] < shown[1] < shown[2]
    assert shown[2] == pytest.approx(98.8, abs=0.05)  # 1 - 7 e^-5 / 4 = 0.9882


# --- Classroom features: link binding, code, downloads, quiz, census only -------------------


def run_with_params(**params) -> AppTest:
    return run_lesson(PAGE, **params)


def test_link_reproduces_every_widget(people, roll):
    voter = roll.loc[roll["matches"] > 1].iloc[0]
    members = roll.loc[roll["row"] >= 0]
    poor = members.loc[people["Income"].to_numpy()[members["row"]] == "<=50K", "Name"].iloc[0]
    app = run_with_params(
        anon_voter=voter["Name"], anon_qi=["Sex", "Race"], anon_target=poor, anon_eps="0.3"
    )
    assert app.selectbox(key="anon_voter").value == voter["Name"]
    assert any(f"{voter['matches']:,} rows" in w.value for w in app.warning)
    assert app.multiselect(key="anon_qi").value == ["Sex", "Race"]
    smallest = people.groupby(["Sex", "Race"], observed=True).size().min()
    assert metric(app, "k (smallest class)") == f"{smallest:,}"
    assert app.selectbox(key="anon_target").value == poor
    assert metric(app, "Difference") == "0"
    assert app.select_slider(key="anon_eps").value == 0.3
    assert (
        metric(app, "Attacker right (exact)")
        == f"{text.percent(dp.differencing_success_probability(0.3))}"
    )


def test_a_link_with_seed_and_epsilon_reproduces_the_noisy_answers(people):
    rich = int((people["Income"] == ">50K").sum())
    shown = []
    for _ in range(2):
        app = app_apptest()
        app.query_params["seed"] = "77"
        app.query_params["anon_eps"] = "0.3"
        app.run()
        app.switch_page("lessons/anonymisation/page.py").run()
        assert not app.exception and not app.toast
        shown.append(metric(app, "Noisy: how many earn >50K?"))
    noisy = dp.laplace_mechanism(rich, 1, 0.3, rng=77 + 31)
    assert shown == [f"{text.number(noisy)}"] * 2
    default = dp.laplace_mechanism(rich, 1, 0.3, rng=controls.DEFAULT_SEED + 31)
    assert f"{text.number(default)}" != shown[0]


@pytest.mark.parametrize(
    "params",
    [{"anon_eps": "7.7"}, {"anon_voter": "Nobody Atall"}, {"anon_qi": ["Shoe size"]}],
)
def test_invalid_link_value_falls_back_to_the_default_with_a_notice(params):
    app = app_apptest()
    for key, value in params.items():
        app.query_params[key] = value
    app.run()
    app.switch_page("lessons/anonymisation/page.py").run()
    assert not app.exception, app.exception
    (key,) = params
    assert any(
        t.value.startswith(f"Ignored an invalid link setting: {text.plain(key)}=")
        for t in app.toast
    )
    assert app.select_slider(key="anon_eps").value == 1.0
    assert app.selectbox(key="anon_voter").value == lesson.default_voter()
    assert app.multiselect(key="anon_qi").value == list(lesson.SWEENEY_COLUMNS)


def test_code_behind_the_charts_has_the_current_values_and_reproduces_the_bars(
    at, people, monkeypatch
):
    from pathlib import Path

    run(at.multiselect(key="anon_qi").set_value(["ZIP3 (first 3 digits)", "Birth year", "Sex"]))
    run(at.select_slider(key="anon_eps").set_value(0.3))
    uniqueness_code, differencing_code = code_texts(at)
    assert "columns = ['ZIP3 (first 3 digits)', 'Birth year', 'Sex']" in uniqueness_code
    rich = int((people["Income"] == ">50K").sum())
    assert f"= {rich}, {rich - 1}, 0.3, {lesson.ATTACK_TRIES}" in differencing_code
    assert f"rng={controls.DEFAULT_SEED + 33}" in differencing_code
    monkeypatch.chdir(Path(__file__).resolve().parents[3])
    namespace: dict = {}
    exec(uniqueness_code, namespace)  # noqa: S102 — our own snippet
    assert namespace["frame"]["people"].tolist() == class_sizes_frame(at)["people"].tolist()


def test_download_buttons_hold_the_chart_data(monkeypatch, people):
    sent = record_downloads(monkeypatch)
    app = run_with_params()
    assert len(app.get("download_button")) == 2
    filename, lines = sent["anonymisation_dl_class_sizes"]
    assert filename == "anonymisation-class-sizes.csv"
    assert lines[0] == "bucket,people,share"
    assert len(lines) == 1 + len(lesson.CLASS_SIZE_LABELS)
    share = unique_share(people, ["Zip", "DOB", "Sex"])
    assert lines[1].startswith(f"1 (unique),{round(share * len(people))},")
    filename, lines = sent["anonymisation_dl_success"]
    assert filename == "anonymisation-attack-success.csv"
    assert lines[0] == "epsilon,success"
    assert len(lines) == 1 + len(lesson.EPSILON_CURVE)


def test_quiz_wrong_and_right_answers_survive_a_slider_move(at):
    run(at.radio(key=quiz.choice_key("anonymisation", 0)).set_value(1))
    run(at.button(key="quiz_anonymisation_0_check").click())
    assert any("Not quite" in e.value and "k = 1" in e.value for e in at.error)
    run(at.radio(key=quiz.choice_key("anonymisation", 2)).set_value(1))
    run(at.button(key="quiz_anonymisation_2_check").click())
    assert any(s.value.startswith("Right.") and "62.1%" in s.value for s in at.success)
    run(at.select_slider(key="anon_eps").set_value(3.0))
    assert any("Not quite" in e.value and "k = 1" in e.value for e in at.error)
    assert any(s.value.startswith("Right.") and "62.1%" in s.value for s in at.success)
    assert at.radio(key=quiz.choice_key("anonymisation", 0)).value == 1


def test_quiz_answers_are_right():
    sizes = np.repeat([1, 4, 50], [1, 4, 50])  # classes of 1, 4 and 50 people
    assert dp.k_anonymity(sizes) == 1
    assert round(dp.differencing_success_probability(1.0), 3) == 0.621  # "about 62%"


def test_an_upload_leaves_the_census_and_says_so():
    app = run_lesson_with_upload(PAGE, b"job,team\nnurse,a\nchef,b\n", "jobs.csv", max_bytes=10_000)
    assert any("always uses the bundled census" in i.value for i in app.info)
    assert metric(app, "Voters linked to exactly one row")  # the census attack still runs
    assert not any("always uses" in i.value for i in run_with_params().info)


def test_zip_sizes_are_stated_from_the_data_not_rounded_to_100(at, people):
    # The old caption said "about 100 census people each": the mean is 108.5, but the
    # median is 34 and the sizes run from 9 to 5,230.
    sizes = people["Zip"].value_counts()
    caption = " ".join(c.value for c in at.caption)
    assert "about 100 census people each" not in caption
    assert f"a median of {int(sizes.median()):,}" in caption
    assert int(sizes.median()) == 34
    assert f"from {sizes.min():,} to {sizes.max():,}" in caption
    assert "108.5 on average" in caption
