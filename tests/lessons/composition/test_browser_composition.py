"""Composition lesson in real Chromium: it loads, a keyboard move of the number of queries
updates the per-query ε, and no traceback appears."""

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    metric,
    move_slider_with_keyboard,
    open_lesson,
)


def test_moving_the_number_of_queries_updates_the_per_query_epsilon(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "composition/page.py")
    assert_no_exception(page)
    per_query = metric(page, "ε per query")
    # defaults: eps_total = 1 over m = 10 queries
    expect(per_query).to_contain_text(f"{dp.split_budget(1, 10):.4g}")
    move_slider_with_keyboard(page, "Number of queries m", "ArrowRight", times=5)
    # m = 15 -> 0.06667 each
    expect(per_query).to_contain_text(f"{dp.split_budget(1, 15):.4g}")
    assert_no_exception(page)


def test_a_keyboard_move_writes_the_bound_parameter_into_the_url(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "composition/page.py")
    move_slider_with_keyboard(page, "Group size g", "ArrowRight", times=2)  # 4 -> 6
    assert link_params(page).get("group_g") == ["6"], page.url
    expect(metric(page, "Family's ε")).to_contain_text("3")  # 6 · 0.5
    assert_no_exception(page)
