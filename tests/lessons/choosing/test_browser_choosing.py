"""Choosing-privately lesson in real Chromium: it loads, a keyboard move of the ε slider
changes the exact chance of the true winner, ε lands in the link, and no traceback appears."""

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from data.census import load_census
from lessons.choosing import model
from ui import text

CHANCE = "Chance the true winner"


def _chance(epsilon: float) -> str:
    counts = load_census()["Occupation"].value_counts(dropna=True).to_numpy()
    return text.percent(dp.report_noisy_max_probabilities(counts, epsilon)[0])


def test_moving_epsilon_updates_the_winner_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "choosing/page.py")
    assert_no_exception(page)
    expect(metric_value(page, CHANCE)).to_have_text(_chance(model.DEFAULT_EPSILON))
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 0.01 -> 0.02
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, CHANCE)).to_have_text(_chance(following))
    assert link_params(page).get("choose_eps") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, CHANCE)).to_have_text(_chance(following))
    assert_no_exception(page)
