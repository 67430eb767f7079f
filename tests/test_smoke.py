"""Every page runs without an exception, inside the app's navigation and on its own."""

import pytest

from conftest import ROOT, app_apptest, page_apptest
from ui.navigation import HOME, LESSONS, all_pages

PAGES = all_pages()


@pytest.mark.parametrize("lesson", PAGES, ids=[lesson.file for lesson in PAGES])
def test_page_runs_inside_the_app(lesson) -> None:
    at = app_apptest().run()
    assert not at.exception, at.exception
    at.switch_page(lesson.path.relative_to(ROOT).as_posix()).run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("lesson", PAGES, ids=[lesson.file for lesson in PAGES])
def test_page_runs_on_its_own(lesson) -> None:
    at = page_apptest(lesson.file).run()
    assert not at.exception, at.exception


def test_every_page_file_is_in_the_navigation() -> None:
    on_disk = {path.name for path in (ROOT / "lessons").glob("*.py") if path.name != "__init__.py"}
    listed = {lesson.file for lesson in (HOME, *LESSONS)}
    assert on_disk <= listed, f"pages missing from ui/navigation.py: {sorted(on_disk - listed)}"


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.file for lesson in LESSONS])
def test_every_lesson_has_a_page_test_and_a_browser_test(lesson) -> None:
    stem = lesson.path.stem
    for kind in ("page", "browser"):
        test_file = ROOT / "tests" / f"test_{kind}_{stem}.py"
        assert test_file.exists(), f"{lesson.file} has no {test_file.name}"
        assert lesson.file in test_file.read_text() or stem in test_file.read_text()


@pytest.mark.parametrize("lesson", PAGES, ids=[lesson.file for lesson in PAGES])
def test_every_chart_has_alt_text_that_states_its_numbers(lesson) -> None:
    # DESIGN §4 / issue 5: a caption or alt text on every chart, describing what it shows
    # with the current numbers (a screen reader reads the alt text instead of the chart).
    at = page_apptest(lesson.file).run()
    for chart in at.get("vega_lite_chart"):
        alt = chart.proto.alt
        assert len(alt) >= 30, f"{lesson.file}: a chart without a real alt text: {alt!r}"
        assert any(ch.isdigit() for ch in alt), f"{lesson.file}: alt text without numbers"
