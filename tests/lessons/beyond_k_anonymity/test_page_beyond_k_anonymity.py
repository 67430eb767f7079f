"""AppTest for lessons/beyond_k_anonymity/page.py: the release's k, l and t against a plain
loop over its classes (and dp.l_diversity / dp.t_closeness against that loop on small
tables); the homogeneous classes listed are every class with one value; the prediction
marked from the sliders; the skewed class and the linked releases by brute force; the
links, the code and the questions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import apptest_helpers as helpers
import dp
from lessons.beyond_k_anonymity import model as lesson
from ui import datasets, text

PAGE = "beyond_k_anonymity/page.py"


def _by_loop(age_band, zip_digits, keep_sex, min_class, sensitive):
    """The release rebuilt with pandas groupby: each class's size, values and distance."""
    census = datasets.census()
    frame = pd.DataFrame(
        {
            "age": census["Age"] // age_band,
            "zip": census["Zip"].astype(str).str.zfill(5).str[:zip_digits],
            "sex": census["Sex"].astype(str) if keep_sex else "",
            "value": census[sensitive].astype(object).where(census[sensitive].notna(), "?"),
        }
    )
    sizes = frame.groupby(["age", "zip", "sex"])["value"].transform("size")
    published = frame[sizes >= min_class]
    overall = published["value"].value_counts(normalize=True)
    classes = published.groupby(["age", "zip", "sex"])["value"]
    distinct = classes.nunique()
    distance = classes.apply(
        lambda v: (
            0.5
            * (v.value_counts(normalize=True).reindex(overall.index, fill_value=0) - overall)
            .abs()
            .sum()
        )
    )
    return classes.size(), distinct, distance, int((sizes < min_class).sum())


@pytest.mark.parametrize(
    "args",
    [
        (10, 3, True, 5, "Income"),
        (5, 2, False, 2, "Occupation"),
        (20, 1, True, 10, "Income"),
        (40, 0, True, 1, "Occupation"),
    ],
)
def test_k_l_and_t_are_a_loop_over_the_classes(args) -> None:
    sizes, distinct, distance, withheld = _by_loop(*args)
    found = lesson.release(*args)
    assert found.k == sizes.min()
    assert found.diversity == distinct.min()
    assert found.closeness == pytest.approx(distance.max(), abs=1e-12)
    assert found.withheld == withheld
    revealed = lesson.homogeneous(*args)
    assert revealed.people == int(sizes[distinct == 1].sum())
    assert revealed.classes.size == int((distinct == 1).sum())


def test_the_dp_measures_on_small_tables_against_a_loop() -> None:
    rng = np.random.default_rng(55)
    for _ in range(50):
        n = int(rng.integers(2, 40))
        classes = rng.integers(0, 5, size=n)
        values = rng.integers(0, 4, size=n)
        groups = {c: values[classes == c] for c in np.unique(classes)}
        assert dp.l_diversity(classes, values) == min(len(set(v)) for v in groups.values())
        overall = np.bincount(values, minlength=4) / n
        tv = max(
            0.5 * np.abs(np.bincount(v, minlength=4) / v.size - overall).sum()
            for v in groups.values()
        )
        assert dp.t_closeness(classes, values) == pytest.approx(tv, abs=1e-12)


def test_the_page_shows_the_release_and_every_failing_class() -> None:
    at = helpers.run_lesson(PAGE)
    assert not at.exception
    args = (10, 3, True, 5, "Income")
    sizes, distinct, distance, withheld = _by_loop(*args)
    shown = helpers.metrics(at)
    assert shown["k (the smallest class)"] == f"{sizes.min():,}"
    assert shown["l (distinct incomes, fewest)"] == "1"
    assert shown["t (largest distance)"] == text.number(distance.max(), 3)
    assert shown["People revealed"] == f"{int(sizes[distinct == 1].sum()):,}"
    frame = helpers.frames_of(helpers.chart_titled(at, "Published people by the", prefix=True))[
        "diversity"
    ]
    one = frame[frame["values"] == 1]["share"].iloc[0]
    assert one == pytest.approx(sizes[distinct == 1].sum() / sizes.sum())
    table = at.table[0].value
    assert len(table) == 8  # the largest eight of the homogeneous classes
    biggest = sizes[distinct == 1].sort_values(ascending=False)
    assert table["people"].tolist() == [f"{s:,}" for s in biggest.iloc[:8]]
    two = int(sizes[distinct == 2].sum())
    # income has two values: every class not revealed holds both, and the words say so
    assert two == sizes.sum() - int(sizes[distinct == 1].sum())
    assert (
        f"the other {two:,} people ({text.percent(two / sizes.sum())}) are in classes that "
        "hold both: their class alone does not give their income away"
    ) in helpers.prose(at)
    assert "she is not in sales" not in helpers.prose(at)
    closeness = helpers.frames_of(helpers.chart_titled(at, "How far each class", prefix=True))
    assert closeness["closeness"]["share"].sum() == pytest.approx(1.0)
    assert closeness["truth"]["x"].iloc[0] == pytest.approx(distance.max())


@pytest.mark.parametrize("age_band", [1, 10])
def test_background_knowledge_names_the_largest_two_valued_class(age_band) -> None:
    # Occupation: the people in classes of exactly two occupations, and the largest such
    # class with its two occupations, by groupby; at 40-year bands there is none.
    at = helpers.run_lesson(PAGE, bk_sensitive="Occupation", bk_age=str(age_band))
    assert not at.exception
    args = (age_band, 3, True, 5, "Occupation")
    sizes, distinct, _, _ = _by_loop(*args)
    two = int(sizes[distinct == 2].sum())
    largest = sizes[distinct == 2].sort_values(ascending=False, kind="stable")
    census = datasets.census()
    age, zip3, sex = largest.index[0]
    members = census[
        (census["Age"] // age_band == age)
        & (census["Zip"].astype(str).str.zfill(5).str[:3] == zip3)
        & (census["Sex"].astype(str) == sex)
    ]
    held = sorted(members["Occupation"].astype(object).fillna(lesson.MISSING).unique())
    words = helpers.prose(at)
    assert f"{two:,} more people ({text.percent(two / sizes.sum())}) are in a class" in words
    assert (
        f"({largest.iloc[0]:,} people), everyone's occupation is \u201c{held[0]}\u201d or " in words
    )
    assert (
        f"not \u201c{held[0]}\u201d is knowing their occupation is \u201c{held[1]}\u201d" in words
    )
    assert "high earner" not in words


def test_the_prediction_is_marked_from_the_sliders() -> None:
    at = helpers.run_lesson(PAGE)  # 1,749 of 32,341 (5.4%) revealed
    helpers.answer_quiz(at, "beyond_k_anonymity_predict", 0, 0)
    assert "k counts people, not values" in at.error[-1].value
    helpers.answer_quiz(at, "beyond_k_anonymity_predict", 0, 2)
    assert at.success[-1].value.startswith("Right.")
    at = helpers.run_lesson(PAGE, bk_sensitive="Occupation")  # no single-occupation class
    helpers.answer_quiz(at, "beyond_k_anonymity_predict", 0, 0)
    assert at.success[-1].value.startswith("Right.")
    assert "No class has a single occupation" in helpers.prose(at)


def test_the_skewed_class_by_brute_force() -> None:
    at = helpers.run_lesson(PAGE)
    skewed = lesson.most_skewed(10, 3, True, 5, "Income")
    census = datasets.census()
    rich = census["Income"] == ">50K"
    frame = pd.DataFrame(
        {
            "age": census["Age"] // 10,
            "zip": census["Zip"].astype(str).str.zfill(5).str[:3],
            "sex": census["Sex"].astype(str),
            "rich": rich,
        }
    )
    groups = frame.groupby(["age", "zip", "sex"])["rich"].agg(["size", "mean"])
    diverse = groups[(groups["size"] >= 20) & (groups["mean"] > 0) & (groups["mean"] < 1)]
    # the table the release publishes: classes of 5 or more
    published = frame.groupby(["age", "zip", "sex"])["rich"].transform("size") >= 5
    overall = rich[published].mean()
    # the largest excess of either value over its overall share
    excess = pd.concat([diverse["mean"] - overall, (1 - diverse["mean"]) - (1 - overall)], axis=1)
    assert skewed.share - skewed.overall == pytest.approx(excess.max().max())
    assert f"{text.percent(skewed.share)} of its members" in helpers.prose(at)


def test_two_linked_releases_by_brute_force() -> None:
    census = datasets.census()
    frame = pd.DataFrame(
        {
            "age": census["Age"],
            "zip1": census["Zip"].astype(str).str.zfill(5).str[:1],
            "zip3": census["Zip"].astype(str).str.zfill(5).str[:3],
            "band": census["Age"] // 20,
            "sex": census["Sex"].astype(str),
        }
    )
    one = frame.groupby(["age", "zip1", "sex"])["age"].transform("size") >= 5
    two = frame.groupby(["band", "zip3", "sex"])["age"].transform("size") >= 5
    both = frame[one & two]
    together = both.groupby(["age", "zip1", "band", "zip3", "sex"])["age"].transform("size")
    linked = lesson.linked()
    assert linked.both == len(both)
    assert linked.unique == int((together == 1).sum()) > 0
    assert linked.under == int((together < 5).sum())
    at = helpers.run_lesson(PAGE)
    assert f"**{linked.unique:,} are alone**" in helpers.prose(at)


def test_a_link_reproduces_the_view_and_the_code_has_its_values(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE, bk_age="20", bk_zip="2", bk_k="10", bk_sensitive="Occupation")
    assert int(at.select_slider(key="bk_age").value) == 20
    assert at.selectbox(key="bk_sensitive").value == "Occupation"
    code = " ".join(helpers.code_texts(at))
    assert "age_band, zip_digits, keep_sex, min_class = 20, 2, True, 10" in code
    assert "sensitive = 'Occupation'" in code
    assert sent["bk_dl_revealed"][1][0] == "class,people,every one's occupation"


def test_its_questions_are_marked() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.assert_quiz_marks(
        at, ("beyond_k_anonymity", 0, 0), "homogeneity attack", ("beyond_k_anonymity", 0, 1)
    )


def test_the_skewed_occupation_is_a_real_one_not_a_missing_entry() -> None:
    # "40% of its members have “not recorded”" was shown for occupation: a missing entry is
    # never the value the skewness attack names. Brute force over classes of 20 or more
    # with two or more values (missing counting as one), largest excess of a recorded value.
    skewed = lesson.most_skewed(10, 3, True, 5, "Occupation")
    assert skewed.value != lesson.MISSING
    census = datasets.census()
    frame = pd.DataFrame(
        {
            "age": census["Age"] // 10,
            "zip": census["Zip"].astype(str).str.zfill(5).str[:3],
            "sex": census["Sex"].astype(str),
            "value": census["Occupation"].astype(object).fillna(lesson.MISSING),
        }
    )
    sizes = frame.groupby(["age", "zip", "sex"])["value"].transform("size")
    published = frame[sizes >= 5]
    overall = published["value"].value_counts(normalize=True)
    best = 0.0
    for _, members in published.groupby(["age", "zip", "sex"])["value"]:
        if len(members) < 20 or members.nunique() < 2:
            continue
        share = members.value_counts(normalize=True).drop(lesson.MISSING, errors="ignore")
        best = max(best, float((share - overall.reindex(share.index)).max()))
    assert skewed.share - skewed.overall == pytest.approx(best)
    at = helpers.run_lesson(PAGE, bk_sensitive="Occupation")
    assert "have “not recorded”" not in helpers.prose(at)
