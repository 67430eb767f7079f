"""Binary RR page in real Chromium: load, move p with the keyboard, see ε change."""

import math

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    metric,
    move_slider_with_keyboard,
    open_lesson,
)
from ui import text


def test_moving_p_updates_epsilon(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "binary_rr/page.py")
    assert_no_exception(page)
    eps_metric = metric(page, "Privacy loss ε")
    expect(eps_metric).to_contain_text(text.number(math.log(3)))
    # p: 0.75 -> 0.76 with q = 0.75.
    move_slider_with_keyboard(page, "p: keep a true yes", "ArrowRight")
    expect(eps_metric).to_contain_text(text.number(dp.rr_epsilon(0.76, 0.75)))
    assert_no_exception(page)


def test_a_keyboard_move_writes_the_bound_parameters_into_the_url(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "binary_rr/page.py")
    move_slider_with_keyboard(page, "q: keep a true no", "ArrowLeft", times=2)  # 0.75 -> 0.73
    params = link_params(page)
    assert params.get("grr_q") == ["0.73"], page.url
    expect(metric(page, "Privacy loss ε")).to_contain_text(text.number(dp.rr_epsilon(0.75, 0.73)))
    assert_no_exception(page)
