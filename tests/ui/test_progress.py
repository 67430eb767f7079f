"""Your progress (ui/progress.py) on the server's side: where its script, a lesson's status line
and the progress page appear, and where they must not (presenter mode, a class activity, a
phone that joined one). What the browser does with them is tests/ui/test_browser_progress.py."""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT, app_apptest
from lessons.catalogue import LESSONS, PROGRESS, by_folder
from ui import progress


def _html(at) -> list[str]:
    return [element.proto.body for element in at.get("html")]


def _in_the_app(folder: str, *, present: bool = False):
    at = app_apptest()
    if present:
        at.session_state["present"] = True
    at.run()
    page = PROGRESS if folder == PROGRESS.folder else by_folder(folder)
    at.switch_page(page.path.relative_to(ROOT).as_posix()).run()
    assert not at.exception, at.exception
    return at


def _catalogue(script: str) -> list[dict]:
    return json.loads(re.search(r"CATALOGUE = (\[.*?\]), PROGRESS_URL", script).group(1))


def test_a_lesson_shows_its_status_line_and_the_script_knows_every_lesson() -> None:
    body = _html(_in_the_app("laplace"))
    line = '<div class="pp-progress-here" data-lesson="laplace" role="status" data-pp-text></div>'
    assert line in body
    (script,) = [b for b in body if "__ppProgress" in b]
    catalogue = _catalogue(script)
    expected = [lesson for lesson in LESSONS if not lesson.activity]
    assert [entry["folder"] for entry in catalogue] == [lesson.folder for lesson in expected]
    assert catalogue[4] == {
        "folder": "laplace",
        "url": "laplace",
        "title": "The Laplace mechanism",
        "control": by_folder("laplace").main_control,
    }


@pytest.mark.parametrize("folder", ["laplace", "class_quiz", "home"])
def test_no_status_line_in_presenter_mode_on_home_or_an_activity(folder: str) -> None:
    present = folder == "laplace"
    body = _html(_in_the_app(folder, present=present))
    assert not [b for b in body if b.startswith('<div class="pp-progress-here"')]


def test_a_phone_that_joined_an_activity_gets_no_progress_script() -> None:
    at = app_apptest()
    at.query_params["join"] = "ABC123"
    at.run()
    assert not [b for b in _html(at) if "__ppProgress" in b]


def test_the_progress_page_draws_its_box_but_not_on_the_projector() -> None:
    at = _in_the_app(PROGRESS.folder)
    assert '<div class="pp-progress-page" data-pp-text></div>' in _html(at)
    assert [title.value for title in at.title] == ["Your progress"]
    assert any("**Worked through**" in m.value for m in at.markdown)  # what counts, said
    shown = _in_the_app(PROGRESS.folder, present=True)
    assert '<div class="pp-progress-page" data-pp-text></div>' not in _html(shown)
    assert "not shown in presenter mode" in shown.info[0].value


def test_a_check_yourself_question_carries_the_key_the_script_reads() -> None:
    assert progress.question_key("laplace", 2) == "pp-q-laplace-2"
    source = (ROOT / "ui" / "quiz.py").read_text(encoding="utf-8")
    assert "key=progress.question_key(key, index)" in source


@pytest.mark.parametrize(
    ("quiz_key", "index", "names"),
    [
        ("Laplace", 0, "quiz_key"),
        ("a-b", 0, "quiz_key"),
        (3, 0, "quiz_key"),
        ("laplace", -1, "index"),
        ("laplace", progress.MAX_QUESTIONS, "index"),
        ("laplace", True, "index"),
        ("laplace", 1.0, "index"),
    ],
)
def test_question_key_refuses_what_the_script_could_not_read(quiz_key, index, names) -> None:
    with pytest.raises(ValueError, match=names):
        progress.question_key(quiz_key, index)


def test_the_script_holds_no_markup_whatever_a_title_says() -> None:
    """Streamlit's sanitizer drops a whole <script> whose text holds '<' before a letter or
    '/': a title's '<' is written as \\u003c, and the script never holds one."""
    script = progress.script([("laplace", "laplace", "</script><img src=x>", "ε <b>")])
    assert not re.search(r"<[/\w]", script)
    assert _catalogue(script)[0]["title"] == "</script><img src=x>"
    for folder, url in (("Laplace", "laplace"), ("laplace", "../x"), ("a b", "a")):
        with pytest.raises(ValueError, match="folder and url"):
            progress.script([(folder, url, "t", "")])
    with pytest.raises(ValueError, match="folder"):
        progress.here("<b>")
