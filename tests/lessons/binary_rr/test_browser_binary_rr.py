"""Binary RR page in real Chromium: q moved with the keyboard lands in the link and changes ε.
(Its main control, p: tests/ui/test_browser_sweeps.py and tests/keypress_probes.py.)"""

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


def test_a_keyboard_move_writes_the_bound_parameters_into_the_url(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "binary_rr/page.py")
    move_slider_with_keyboard(page, "q: keep a true no", "ArrowLeft", times=2)  # 0.75 -> 0.73
    params = link_params(page)
    assert params.get("brr_q") == ["0.73"], page.url
    expect(metric(page, "Privacy loss ε")).to_contain_text(text.number(dp.rr_epsilon(0.75, 0.73)))
    assert_no_exception(page)
