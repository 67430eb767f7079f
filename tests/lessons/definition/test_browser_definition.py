"""The definition page in real Chromium: it loads, ε moves with the keyboard, the e^ε metric
and the ratio follow, the link carries the new ε, and no traceback appears."""

import math
import re

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
)


def test_epsilon_slider_moves_the_bound(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "definition/page.py")
    assert_no_exception(page)
    expect(metric_value(page, "e^ε")).to_have_text("2.718")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")  # 1 -> 1.5
    expect(metric_value(page, "e^ε")).to_have_text(f"{math.exp(1.5):,.4g}")  # 4.482
    expect(metric_value(page, "Ratio")).to_have_text(f"{math.exp(1.5):,.4g}")
    assert_no_exception(page)
    expect(page).to_have_url(re.compile(r"[?&]def_eps=1\.5(&|$)"))  # bound to the link
