"""The definition page in real Chromium: it loads, ε moves with the keyboard, the e^ε metric
and the ratio follow, and no traceback appears."""

import math

from playwright.sync_api import Page, expect

from browser_helpers import assert_no_exception, move_slider_with_keyboard, open_page
from ui.navigation import LESSONS

DEFINITION = next(lesson for lesson in LESSONS if lesson.file == "definition.py")


def metric_value(page: Page, label: str):
    return (
        page.locator('[data-testid="stMetric"]')
        .filter(has_text=label)
        .locator('[data-testid="stMetricValue"]')
    )


def test_epsilon_slider_moves_the_bound(page: Page, app_server: str) -> None:
    open_page(page, app_server, DEFINITION.url_path)
    assert_no_exception(page)
    expect(metric_value(page, "e^ε")).to_have_text("2.718")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")  # 1 -> 1.5
    expect(metric_value(page, "e^ε")).to_have_text(f"{math.exp(1.5):,.4g}")  # 4.482
    expect(metric_value(page, "Ratio")).to_have_text(f"{math.exp(1.5):,.4g}")
    assert_no_exception(page)
