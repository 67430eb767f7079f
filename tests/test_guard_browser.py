"""deploy/guard.py in a real tab: a student at keyboard speed never meets the message
budget."""

from __future__ import annotations

import time

import pytest


@pytest.mark.browser
@pytest.mark.budget("a server of its own (its log is read) and 120 reruns of a lesson, 15-21 s")
def test_a_student_at_keyboard_speed_never_meets_the_budget(page, tmp_path):
    """A real tab: a slider moved by 120 key presses as fast as Playwright types them (far
    faster than a held arrow key repeats). The server's log shows the guard never held a
    message of it."""
    from browser_helpers import open_lesson
    from conftest import serve_app_process

    with serve_app_process(tmp_path) as (url, _server):
        open_lesson(page, url, "laplace/page.py")
        slider = page.get_by_role("slider").first
        slider.focus()
        start = time.perf_counter()
        for _ in range(120):
            page.keyboard.press("ArrowRight")
        print(f"120 key presses in {time.perf_counter() - start:.2f} s")
        page.wait_for_timeout(1500)
        log = (tmp_path / "server.log").read_text()
    assert "guard:" not in log, log[-2000:]
