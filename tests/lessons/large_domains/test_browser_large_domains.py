"""Large-domains lesson in real Chromium: it loads, a keyboard move of the ε slider changes
OLH's buckets and the crossover, ε lands in the link, and no traceback appears."""

import math

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from lessons.large_domains import model
from ui import text

CROSSOVER = "GRR beats OUE below k* ="


def _k_star(epsilon: float) -> str:
    return text.number(3 * math.exp(epsilon) + 2)


def test_moving_epsilon_updates_the_crossover_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "large_domains/page.py")
    assert_no_exception(page)
    expect(metric_value(page, CROSSOVER)).to_have_text(_k_star(model.DEFAULT_EPSILON))
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 2 -> 3
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, CROSSOVER)).to_have_text(_k_star(following))
    assert link_params(page).get("ld_eps") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, CROSSOVER)).to_have_text(_k_star(following))
    assert_no_exception(page)
