"""Composition lesson in real Chromium, what is its own: keyboard moves of the number of
queries and of the group size update their numbers, and the group size lands in the link.
(Its main control, the total ε: tests/ui/test_browser_sweeps.py and
tests/keypress_probes.py.)"""

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    metric,
    move_slider_with_keyboard,
    open_lesson,
)


def test_the_queries_and_the_group_size_move_with_the_keyboard_into_the_numbers_and_link(
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
    move_slider_with_keyboard(page, "Group size g", "ArrowRight", times=2)  # 4 -> 6
    assert link_params(page).get("group_g") == ["6"], page.url
    expect(metric(page, "Family's ε")).to_contain_text("3")  # 6 · 0.5
    assert_no_exception(page)
