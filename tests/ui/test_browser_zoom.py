"""Readable at 200% zoom: a 1280-pixel screen at 200% gives a page 640 CSS pixels wide.
Every page must fit that width (no sideways scrolling of the page itself; wide formulas and
tables scroll inside their own boxes) and show no traceback."""

import pytest
from playwright.sync_api import Page

from browser_helpers import assert_no_exception, open_page
from lessons.catalogue import all_pages

PAGES = all_pages()

PAGE_OVERFLOW_PX = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    return Math.max(document.documentElement.scrollWidth, main.scrollWidth) - window.innerWidth;
}"""


@pytest.mark.parametrize("lesson", PAGES, ids=[lesson.file for lesson in PAGES])
def test_page_fits_at_200_percent_zoom(page: Page, app_server: str, lesson) -> None:
    page.set_viewport_size({"width": 640, "height": 900})
    open_page(page, app_server, lesson.url_path)
    assert_no_exception(page)
    assert page.evaluate(PAGE_OVERFLOW_PX) <= 1, f"{lesson.file} scrolls sideways at 200%"
