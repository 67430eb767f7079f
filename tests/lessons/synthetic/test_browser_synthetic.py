"""Synthetic-data lesson in real Chromium: it loads, a keyboard move of the ε slider changes
MWEM's error, ε lands in the link, and no traceback appears."""

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from lessons.synthetic import model
from ui import controls, text

ERROR = "MWEM two-way error, largest"


def _error(epsilon: float) -> str:
    release = model.mwem(
        model.DEFAULT_COLUMNS,
        epsilon,
        model.DEFAULT_ROUNDS,
        controls.DEFAULT_SEED + model.SEED_MWEM,
    )
    high, _ = model.workload_error(model.DEFAULT_COLUMNS, release.counts)
    return f"{text.number(high)} people"


def test_moving_epsilon_updates_mwem_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "synthetic/page.py")
    assert_no_exception(page)
    expect(metric_value(page, ERROR)).to_have_text(_error(model.DEFAULT_EPSILON))
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 1 -> 2
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, ERROR)).to_have_text(_error(following))
    assert link_params(page).get("syn_eps") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, ERROR)).to_have_text(_error(following))
    assert_no_exception(page)
