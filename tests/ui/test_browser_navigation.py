"""Deep links work on a freshly started server.

Streamlit 1.67 treats a folder named `pages/` beside the entry script as a legacy (v1)
multipage app until some session calls st.navigation: the first request after a start then
ran the page file alone (no sections, no wide layout) or showed "Page not found" for URL
paths that differ from the file name. Community Cloud restarts sleeping apps, and the first
visitor often follows a lecturer's link to a lesson — so the lessons live in `lessons/`.
"""

from playwright.sync_api import Page, expect

from browser_helpers import assert_no_exception, open_page
from conftest import ROOT
from lessons.catalogue import LESSONS

# A lesson whose URL path differs from its file name: the v1 fallback cannot find it.
LESSON = next(lesson for lesson in LESSONS if lesson.file == "central_vs_local/page.py")


def test_no_legacy_pages_folder_beside_the_entry_script() -> None:
    assert not (ROOT / "pages").exists(), "a pages/ folder turns on Streamlit's v1 routing"


def test_first_request_to_a_deep_link_gets_the_app_navigation(
    page: Page, fresh_app_server: str
) -> None:
    assert LESSON.url_path != LESSON.path.stem
    open_page(page, fresh_app_server, LESSON.url_path)
    assert_no_exception(page)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.get_by_role("heading", name=LESSON.title, level=1)).to_be_visible()
    sidebar = page.get_by_test_id("stSidebar")
    for section in ("The central model", "The local model"):
        expect(sidebar.get_by_text(section, exact=True)).to_be_visible()
