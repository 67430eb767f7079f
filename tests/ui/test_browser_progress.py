"""Your progress, in Chromium: kept in this browser only (ui/progress.py).

A student works through a lesson (moves its main control with the keyboard, checks every
question): the lesson's status line and the record in localStorage say so, and both survive a
reload and show in another tab. The progress page exports the record as a file, wipes it (two
steps, the keyboard landing on "Keep it") and imports the file back; a forged or oversized
file is refused and nothing it holds is drawn as markup. And the promise on the wire: a
browser whose record says every lesson is worked through and a browser with none send the
same frames for the same actions. The page is axe-clean on a laptop, a phone and a projector,
and presenter mode shows no one's record."""

from __future__ import annotations

import json

import pytest
from frames_helpers import normalized
from playwright.sync_api import Page, WebSocket, expect

from browser_helpers import (
    PHONE,
    PROJECTOR,
    axe_violations,
    expect_rerun,
    navigate,
    open_page,
)
from conftest import as_a_new_visitor
from lessons.catalogue import LESSONS, by_folder
from ui import progress

pytestmark = pytest.mark.browser

LESSON = by_folder("laplace")
RECORD = "() => JSON.parse(localStorage.getItem('pp-progress-v1') || 'null')"
HERE = ".pp-progress-here"
PAGE = ".pp-progress-page"
EVERY_LESSON_DONE = {
    "version": 1,
    "lessons": {
        lesson.folder: {
            "opened": True,
            "moved": True,
            "homework": True,
            "asked": 1,
            "answers": {f"{lesson.folder}-0": True},
        }
        for lesson in LESSONS
        if not lesson.activity
    },
}


def _store(page: Page, record: dict) -> None:
    page.evaluate("(r) => localStorage.setItem('pp-progress-v1', JSON.stringify(r))", record)


def _move_the_main_control(page: Page) -> None:
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=LESSON.main_control).first
    with expect_rerun(page):
        slider.get_by_role("slider").first.focus()
        page.keyboard.press("ArrowRight")


def _check(page: Page, index: int, option: int) -> bool:
    """Pick `option` of question `index` and press Check; whether the page said it was right."""
    box = page.locator(f'[class*="st-key-{progress.question_key("laplace", index)}"]')
    with expect_rerun(page):
        box.get_by_role("radio").nth(option).check(force=True)
    with expect_rerun(page):
        box.get_by_role("button", name="Check").click()
    verdict = box.locator('[data-testid^="stAlertContent"]')
    expect(verdict).to_have_count(1)
    return verdict.get_attribute("data-testid") == "stAlertContentSuccess"


def test_a_lesson_worked_through_is_kept_across_reloads_and_tabs(page: Page, app_server: str):
    # Finding: a lesson another test of this worker had opened was in the record (the tab is
    # shared): start as a browser that has kept nothing.
    as_a_new_visitor(page)
    open_page(page, app_server, LESSON.url_path)
    here = page.locator(HERE)
    expect(here).to_contain_text(f"move “{LESSON.main_control}”, 0 of 3 questions checked")
    assert page.evaluate(RECORD)["lessons"] == {
        "laplace": {"opened": True, "moved": False, "homework": False, "asked": 3, "answers": {}}
    }
    _move_the_main_control(page)
    expect(here).to_contain_text("main control moved, 0 of 3 questions checked")
    verdicts = {f"laplace-{i}": _check(page, i, option=0) for i in range(3)}
    right = sum(verdicts.values())
    expect(here).to_contain_text(
        f"✓ Worked through on this device: main control moved, 3 of 3 questions checked "
        f"({right} right)"
    )
    assert page.evaluate(RECORD)["lessons"]["laplace"] == {
        "opened": True,
        "moved": True,
        "homework": False,
        "asked": 3,
        "answers": verdicts,  # what the page said, question by question
    }
    page.reload()
    expect(page.locator(HERE)).to_contain_text("✓ Worked through on this device")
    other = page.context.new_page()  # another tab of this browser
    try:
        open_page(other, app_server, progress.PROGRESS_URL)
        table = other.locator(f"{PAGE} table")
        expect(table.get_by_role("row", name=LESSON.title)).to_contain_text("Worked through")
        expect(other.locator(PAGE)).to_contain_text(f"Next: {LESSONS[0].title}")
        expect(other.locator(PAGE)).to_contain_text("Worked through: 1 of ")
    finally:
        other.close()
    # the status line's link opens the progress page from the app's menu (same session)
    page.locator(f"{HERE} a").click()
    expect(page.locator(PAGE)).to_contain_text("Worked through: 1 of ")


def test_export_wipe_and_import(page: Page, app_server: str, tmp_path) -> None:
    open_page(page, app_server, "")
    record = {
        "version": 1,
        "lessons": {
            "laplace": {
                "opened": True,
                "moved": True,
                "homework": True,
                "asked": 3,
                "answers": {"laplace-0": True, "laplace-1": False, "laplace-2": True},
            }
        },
    }
    _store(page, record)
    navigate(page, progress.PROGRESS_URL)
    box = page.locator(PAGE)
    expect(box).to_contain_text("Worked through: 1 of ")
    with page.expect_download() as download:
        box.get_by_role("button", name="Export my progress").click()
    exported = tmp_path / "exported.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text()) == record
    # wipe: two steps; the keyboard lands on the safe choice
    box.get_by_role("button", name="Wipe my progress on this device…").press("Enter")
    expect(box.get_by_role("button", name="Keep it")).to_be_focused()
    box.get_by_role("button", name="Yes, wipe it (it cannot be undone)").click()
    expect(box.get_by_role("status")).to_have_text("Wiped: this device keeps no progress now.")
    expect(box).to_contain_text("Worked through: 0 of ")
    assert page.evaluate(RECORD) is None
    # import the file back
    box.locator('input[type="file"]').set_input_files(str(exported))
    expect(box.get_by_role("status")).to_have_text("Imported 1 lesson, added to this device's.")
    assert page.evaluate(RECORD) == record
    row = box.get_by_role("row", name=LESSON.title)
    expect(row).to_contain_text("Worked through")
    expect(row.get_by_role("checkbox")).to_be_checked()
    # forged files: refused or cleaned, never drawn as markup
    forged = tmp_path / "forged.json"
    forged.write_text(
        json.dumps(
            {
                "version": 1,
                "lessons": {
                    "<img src=x onerror=alert(1)>": {"opened": True},
                    "laplace": {"opened": "yes", "answers": {"<b>x</b>": True, "laplace-9": 1}},
                },
            }
        )
    )
    box.locator('input[type="file"]').set_input_files(str(forged))
    expect(box.get_by_role("status")).to_have_text("Imported 1 lesson, added to this device's.")
    assert page.evaluate(RECORD) == record  # nothing of it was kept
    assert page.locator(f"{PAGE} img, {PAGE} b").count() == 0
    for name, content, says in (
        ("not-json.json", "{version: 1", "not a progress record"),
        ("wrong.json", json.dumps({"version": 2, "lessons": {}}), "not a progress record"),
        ("large.json", " " * (progress.MAX_FILE_BYTES + 1), "larger than 64 KB"),
    ):
        (tmp_path / name).write_text(content)
        box.locator('input[type="file"]').set_input_files(str(tmp_path / name))
        expect(box.get_by_role("status")).to_contain_text(says)
        assert page.evaluate(RECORD) == record


def _frames_of_a_visit(page: Page, app_server: str, record: dict | None) -> tuple[list[bytes], str]:
    """Every frame a browser sends while it opens the lesson, moves its main control,
    checks its first question and opens the progress page; `record` stored beforehand."""
    as_a_new_visitor(page)
    open_page(page, app_server, "")
    if record is not None:
        _store(page, record)
    frames: list[bytes | str] = []

    def record_frames(websocket: WebSocket) -> None:
        websocket.on("framesent", lambda frame: frames.append(frame))

    page.on("websocket", record_frames)
    try:
        open_page(page, app_server, LESSON.url_path)  # a new session, recorded from its start
        _move_the_main_control(page)
        _check(page, 0, option=1)
        navigate(page, progress.PROGRESS_URL)
        expect(page.locator(PAGE)).to_contain_text("Worked through:")
        shown = page.locator(PAGE).inner_text()
    finally:
        page.remove_listener("websocket", record_frames)
    return sorted(normalized(frame) for frame in frames), shown


def test_a_browser_sends_the_same_frames_whatever_its_record_holds(page: Page, app_server: str):
    done, shown_done = _frames_of_a_visit(page, app_server, EVERY_LESSON_DONE)
    empty, shown_empty = _frames_of_a_visit(page, app_server, None)
    lessons = len(EVERY_LESSON_DONE["lessons"])
    # Laplace asks 3 questions and one was checked: no longer worked through in either
    assert f"Worked through: {lessons - 1} of {lessons}" in shown_done
    assert f"Worked through: 0 of {lessons}" in shown_empty  # they differ on screen ...
    assert done and done == empty  # ... and not on the wire


@pytest.mark.parametrize("screen", ["laptop", "phone", "presenter"])
def test_the_progress_page_is_axe_clean_and_fits(page: Page, app_server: str, screen: str):
    size = {"laptop": {"width": 1280, "height": 800}, "phone": PHONE, "presenter": PROJECTOR}
    page.set_viewport_size(size[screen])
    query = "?present=true" if screen == "presenter" else ""
    open_page(page, app_server, "")
    _store(page, EVERY_LESSON_DONE)
    open_page(page, app_server, f"{progress.PROGRESS_URL}{query}")
    if screen == "presenter":  # nobody's record on the projector
        expect(page.get_by_text("Your progress is not shown in presenter mode")).to_be_visible()
        assert page.locator(PAGE).count() == 0
        open_page(page, app_server, f"{LESSON.url_path}{query}")
        assert page.locator(HERE).count() == 0
    else:
        expect(page.locator(PAGE)).to_contain_text("Worked through:")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page) == []
    page.set_viewport_size({"width": 1280, "height": 800})
