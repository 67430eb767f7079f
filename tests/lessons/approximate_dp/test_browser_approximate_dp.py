"""Approximate-DP lesson in real Chromium: it loads, a keyboard move of the ε slider
recalibrates σ, the δ slider moves its value into the link (written as a power of ten), a
reload keeps both, and no traceback appears."""

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
from lessons.approximate_dp import model
from ui import text

SIGMA = "Gaussian σ"


def _sigma(epsilon: float, delta: float) -> str:
    return text.number(dp.analytic_gaussian_sigma(1, epsilon, delta))


def test_moving_epsilon_and_delta_recalibrates_sigma(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "approximate_dp/page.py")
    assert_no_exception(page)
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(1.0, 1e-5))
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 1 -> 1.5
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(following, 1e-5))
    move_slider_with_keyboard(page, "δ for the Gaussian")  # one step: 10⁻⁵ -> 10⁻⁶
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(following, 1e-6))
    params = link_params(page)
    assert params.get("ad_eps") == [text.number(following)], page.url
    assert params.get("ad_delta") == ["10⁻⁶"], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(following, 1e-6))
    assert_no_exception(page)
