"""k-ary randomized response in real Chromium: it loads, ε moves with the keyboard, the
numbers follow, and no traceback appears."""

import re

from playwright.sync_api import Page, expect

import dp
from browser_helpers import assert_no_exception, metric, move_slider_with_keyboard, open_lesson
from ui import text


def test_epsilon_slider_moves_and_p_follows(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "kary_rr/page.py")
    assert_no_exception(page)
    expect(page.get_by_text("30,718", exact=True).first).to_be_visible()
    p_half, _ = dp.grr_probabilities(0.5, 14)
    p_next, _ = dp.grr_probabilities(0.7, 14)  # the next value of the ε grid after 0.5
    keep_p = metric(page, "Keep the truth p")
    expect(keep_p).to_contain_text(f"{text.number(p_half)}")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")
    expect(keep_p).to_contain_text(f"{text.number(p_next)}")
    expect(page.get_by_text("(ε = 0.7)").first).to_be_attached()
    assert_no_exception(page)


def test_the_url_carries_epsilon_after_a_keyboard_move(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "kary_rr/page.py")
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")
    expect(page).to_have_url(re.compile(r"[?&]kary_eps=0\.7(&|$)"))
    assert_no_exception(page)
