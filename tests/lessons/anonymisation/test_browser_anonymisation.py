"""'Why anonymisation fails' in real Chromium: it loads, one ε step to the right raises the
attacker's exact success rate to the dp/ value and writes ε into the link, and no traceback
appears."""

import re

from playwright.sync_api import Page, expect

import dp
from browser_helpers import assert_no_exception, metric, move_slider_with_keyboard, open_lesson
from ui import text
from ui.controls import EPSILON_GRID

# A busy machine (several full test runs at once) can make a rerun take seconds; expect's
# 5 s default was once too short here. Reruns themselves are awaited by the helpers.
WAIT_MS = 20_000


def exact_metric(page: Page):
    return metric(page, "Attacker right (exact)")


def test_epsilon_step_updates_the_attackers_success(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "anonymisation/page.py")
    assert_no_exception(page)
    before = dp.differencing_success_probability(1.0)
    expect(exact_metric(page)).to_contain_text(f"{text.percent(before)}", timeout=WAIT_MS)
    expect(page.get_by_text("Exactly one match: re-identified.")).to_be_visible(timeout=WAIT_MS)

    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight")

    after_epsilon = EPSILON_GRID[EPSILON_GRID.index(1.0) + 1]  # 1.5
    after = dp.differencing_success_probability(after_epsilon)
    assert f"{text.percent(after)}" != f"{text.percent(before)}"
    expect(exact_metric(page)).to_contain_text(f"{text.percent(after)}", timeout=WAIT_MS)
    expect(metric(page, "Budget the two queries spend")).to_contain_text(f"{2 * after_epsilon:g}")
    assert_no_exception(page)
    # The slider is bound to the link: the URL now carries ?anon_eps=1.5.
    expect(page).to_have_url(re.compile(rf"[?&]anon_eps={after_epsilon:g}(&|$)"), timeout=WAIT_MS)
