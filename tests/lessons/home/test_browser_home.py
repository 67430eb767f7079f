"""Home in real Chromium: it loads, shows no traceback and shows the dataset size; with a
file uploaded, the dataset card still describes the census and says the file is in use."""

import pytest
from playwright.sync_api import Page, expect

from browser_helpers import assert_no_exception, expect_rerun, lines_of_text, open_page
from lessons.catalogue import HOME, LESSONS

WAIT_MS = 20_000  # the machine may be busy with other test runs


def test_home_loads_and_shows_the_number_of_people(page: Page, app_server: str) -> None:
    open_page(page, app_server, HOME.url_path)
    assert_no_exception(page)
    expect(page.get_by_text("32,561", exact=True).first).to_be_visible()
    expect(page.get_by_text("In use now:")).to_have_count(0)


def test_an_uploaded_file_is_named_and_the_card_still_describes_the_census(
    page: Page, app_server: str
) -> None:
    open_page(page, app_server, HOME.url_path)
    uploader = page.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzoneInput"]')
    with expect_rerun(page):
        uploader.set_input_files(
            {"name": "jobs.csv", "mimeType": "text/csv", "buffer": b"job\nnurse\nchef\nnurse\n"}
        )
    notice = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').filter(
        has_text="In use now:"
    )
    expect(notice).to_contain_text("jobs.csv (3 rows)", timeout=WAIT_MS)
    expect(notice).to_contain_text("the description below, use the bundled census")
    card = page.locator('[data-testid="stMetric"]').filter(has_text="People in the census")
    expect(card).to_contain_text("32,561")
    expect(page.get_by_text("The bundled census: the UCI Adult")).to_be_visible()
    assert_no_exception(page)


@pytest.mark.parametrize("size", [(1280, 800), (1280, 720), (1600, 900)])
def test_the_lesson_grid_shows_every_title_whole(page: Page, app_server: str, size) -> None:
    """Five sections in five columns cut the titles at 1280 px ("Why anonym…",
    "Reconstructi…", the heading "In the classroo / m"): no title or heading is cut now."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_page(page, app_server, HOME.url_path)
    main = page.locator('[data-testid="stMain"]')
    for lesson in LESSONS:
        link = main.locator('[data-testid="stPageLink"]').filter(has_text=lesson.title).first
        expect(link).to_be_visible()
        cut = link.evaluate(
            "e => [...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)"
        )
        assert not cut, lesson.title
    for section in dict.fromkeys(lesson.section for lesson in LESSONS):
        heading = main.get_by_role("heading", name=section, exact=True)
        lines = lines_of_text(heading.locator("[data-heading-text]"))
        assert "".join(lines) == section, lines
        for line, after in zip(lines, lines[1:], strict=False):  # only between words
            assert line.endswith(" ") or after.startswith(" "), (section, lines)
