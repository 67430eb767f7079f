"""AppTest for lessons/who_pays/page.py: the groups' counts recounted from the census, the
relative typical error √2/(ε·count) and the useless groups from it, the model drops
recomputed with dp for one ε and seed, the verdicts ("no group clearly", whether the gap
grows) against the error bars, clipping shares recounted, the prediction marked from the
numbers, and the code behind the chart giving its numbers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import apptest_helpers as helpers
import dp
from data.features import unit_ball_features
from lessons.who_pays import make_tables, model, snippets, tables
from ui import datasets, text

PAGE = "who_pays/page.py"


def test_counts_are_the_census_and_their_relative_error_is_sqrt2_over_epsilon_count() -> None:
    census = datasets.census()
    rich = census[census["Income"].astype("string") == ">50K"]
    found = model.rich_counts()
    assert found["count"].sum() == len(rich)
    other_women = rich[(rich["Race"] == "Other") & (rich["Sex"] == "Female")]
    assert found.iloc[0]["count"] == len(other_women) == found["count"].min()
    for epsilon in (0.01, 1.0):
        relative = model.relative_errors(epsilon)
        np.testing.assert_allclose(
            relative["relative"], math.sqrt(2) / (epsilon * relative["count"]), rtol=1e-12
        )
        useless = relative.loc[math.sqrt(2) / (epsilon * relative["count"]) >= 0.5, "group"]
        assert model.useless_groups(epsilon) == useless.tolist()
    assert len(model.useless_groups(0.01)) > len(model.useless_groups(3.0))


def test_the_page_shows_the_counts_numbers() -> None:
    at = helpers.run_lesson(PAGE)
    shown = helpers.metrics(at)
    epsilon = model.DEFAULT_EPSILON
    assert shown["Typical error"] == text.number(math.sqrt(2) / epsilon, 3)
    assert shown["Counts at least half noise"] == f"{len(model.useless_groups(epsilon))} of 10"
    at.select_slider(key="wp_eps").set_value(3.0).run()
    assert not at.exception
    assert helpers.metrics(at)["Typical error"] == text.number(math.sqrt(2) / 3, 3)


def test_a_drop_is_recomputed_with_dp() -> None:
    data = unit_ball_features(datasets.census())
    races = model.test_groups()
    plain_w = dp.logistic_erm(data.x_train, data.y_train, model.LAMBDA)
    w = dp.objective_perturbation(data.x_train, data.y_train, 0.03, model.LAMBDA, rng=3)

    def accuracy(weights, race):
        right = np.where(data.x_test @ weights > 0, 1.0, -1.0) == data.y_test
        return right[races == race].mean()

    for race in ("Other", "White"):
        expected = 100 * (accuracy(plain_w, race) - accuracy(w, race))
        assert model.drops().runs[(0.03, race)][3] == pytest.approx(expected, abs=1e-9)
    assert model.right_by_group(w) == {
        race: r[3] for (e, race), r in tables.RIGHT.items() if e == 0.03
    }
    assert model.right_by_group(plain_w) == tables.PLAIN


def test_the_tables_are_what_make_tables_writes() -> None:
    written = {name: getattr(tables, name) for name in make_tables.TYPES}
    assert make_tables.render(written) == make_tables.TABLES.read_text(encoding="utf-8")
    keys = {(e, race) for e in model.MODEL_EPSILONS for race in model.groups_by_size()}
    assert set(tables.RIGHT) == keys
    assert all(len(rights) == model.RUNS for rights in tables.RIGHT.values())


def test_the_verdicts_follow_the_error_bars() -> None:
    for epsilon in model.MODEL_EPSILONS:
        ranked = sorted(
            model.groups_by_size(), key=lambda r: model.drop(epsilon, r).mean, reverse=True
        )
        a, b = model.drop(epsilon, ranked[0]), model.drop(epsilon, ranked[1])
        clear = abs(a.mean - b.mean) > 1.959964 * math.hypot(a.se, b.se)
        assert (model.most_lost(epsilon) == model.NONE_CLEARLY) == (not clear)
    words = model.models_words(0.03)
    low, high = model.gap(0.01), model.gap(10.0)
    grows = low.mean - high.mean > 1.959964 * math.hypot(low.se, high.se)
    assert ("gap between them grows" in words) == grows
    small, large = model.groups_by_size()[-1], model.groups_by_size()[0]
    # Each number with its error bar: "0.0036 points at ε = 10, 1.2 at ε = 0.01" read as growth.
    for gap in (low, high, model.drop(0.03, small), model.drop(0.03, large)):
        said = f"{text.number(gap.mean, 2)}\u00a0±\u00a0{text.number(1.959964 * gap.se, 2)}"
        assert said in words


def test_the_check_yourself_is_marked_from_the_numbers() -> None:
    at = helpers.run_lesson(PAGE)
    options = (*model.groups_by_size(), model.NONE_CLEARLY)
    right = options.index(model.most_lost(model.PREDICT_EPSILON))
    helpers.answer_quiz(at, "who_pays_predict", 0, (right + 1) % len(options))
    assert at.error, "a wrong answer is marked wrong"
    helpers.answer_quiz(at, "who_pays_predict", 0, right)
    assert at.success[-1].value.startswith("Right.")


def test_clipping_shares_are_recounted() -> None:
    data = unit_ball_features(datasets.census())
    w = dp.logistic_erm(data.x_train, data.y_train, model.LAMBDA)
    norms = np.array(
        [
            np.linalg.norm(x) * (1 / (1 + math.exp(y * (x @ w))))
            for x, y in zip(data.x_train[:500], data.y_train[:500], strict=True)
        ]
    )
    np.testing.assert_allclose(model.gradient_norms()["norm"][:500], norms, rtol=1e-9)
    shares = model.clipped_shares(0.1).set_index("group")["share"]
    found = model.gradient_norms()
    white = (found.loc[found["race"] == "White", "norm"] > 0.1).mean()
    assert shares["White"] == white
    assert (model.clipped_shares(0.05)["share"] >= model.clipped_shares(0.5)["share"]).all()


def test_the_code_behind_the_chart_gives_its_numbers() -> None:
    found: dict = {}
    exec(snippets.COUNTS.render(epsilon=0.3), found)  # noqa: S102
    frame: pd.DataFrame = found["frame"]
    assert sorted(frame["count"]) == sorted(model.rich_counts()["count"])
    np.testing.assert_allclose(
        sorted(frame["relative"]), sorted(model.relative_errors(0.3)["relative"]), rtol=1e-12
    )


def test_every_setting_stays_inside_the_charts_axes() -> None:
    for epsilon in model.EPSILONS:
        values = model.relative_errors(epsilon)["relative"]
        assert values.between(*model.RELATIVE_DOMAIN).all(), epsilon
    assert model.rich_counts()["count"].between(*model.COUNT_DOMAIN).all()
    assert model.drop_curves()["drop"].between(*model.DROP_DOMAIN).all()
