"""Central-versus-local lesson in real Chromium: it loads, a keyboard move of ε updates the
"local is worse" ratio, and no traceback appears."""

import re

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    metric,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from ui.controls import EPSILON_GRID

N = 32_561


def test_moving_epsilon_updates_the_ratio(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "central_vs_local/page.py")
    assert_no_exception(page)
    ratio = metric(page, "Local is worse here by")
    expect(ratio).to_contain_text(f"about {dp.local_to_central_error_ratio(N, 1.0):,.0f}×")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")
    epsilon = EPSILON_GRID[EPSILON_GRID.index(1.0) + 1]  # 1 -> 1.5
    expect(ratio).to_contain_text(f"about {dp.local_to_central_error_ratio(N, epsilon):,.0f}×")
    assert_no_exception(page)


def test_keyboard_move_puts_epsilon_in_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "central_vs_local/page.py")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowLeft")
    epsilon = EPSILON_GRID[EPSILON_GRID.index(1.0) - 1]
    expect(page).to_have_url(re.compile(rf"[?&]cvl_eps={re.escape(f'{epsilon:g}')}(&|$)"))
    # the copied link, opened fresh, shows the same ε
    url = page.url
    page.goto(url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric(page, "Local is worse here by")).to_contain_text(
        f"about {dp.local_to_central_error_ratio(N, epsilon):,.0f}×"
    )
    assert_no_exception(page)
