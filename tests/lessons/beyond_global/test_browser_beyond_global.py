"""Beyond-global lesson in real Chromium: it loads, a keyboard move of the ε slider changes
the smooth sensitivity's noise, ε lands in the link, and no traceback appears."""

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
from lessons.beyond_global import model
from ui import text

SCALE = "Noise scale 2S/ε"


def _scale(epsilon: float) -> str:
    ages = model.ages(model.DEFAULT_SIZE)
    return model.years(dp.smooth_median_scale(ages, 0, 100, epsilon, model.DELTA))


def test_moving_epsilon_updates_the_smooth_noise_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "beyond_global/page.py")
    assert_no_exception(page)
    expect(metric_value(page, SCALE)).to_have_text(_scale(model.DEFAULT_EPSILON))
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 1 -> 2
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, SCALE)).to_have_text(_scale(following))
    assert link_params(page).get("bg_eps") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, SCALE)).to_have_text(_scale(following))
    assert_no_exception(page)
