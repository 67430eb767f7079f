"""Forged widget values against a live server, over Streamlit's own WebSocket protocol (the
room's simulated students, bench/room_client.py, on loopback): what a modified browser can
send. For every widget of a page, each kind's out-of-domain values (an unknown lesson in a
multiselect, a time per question of 99 s, a slider at 1e308, a 100,000-character text, a
disabled button pressed, …).

- The classroom pages (the quiz and the survey, lecturer and phone) and Home read only what
  they validated: no exception at all.
- Everywhere, an exception a forged value may still cause (a lesson's slider far outside its
  range ends that forger's own session) reaches the browser without its type, message,
  traceback or server path (`client.showErrorDetails = "none"`): a finding showed
  `app.py:104` and `page.py:267` to a student.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

import survey
from bench.room_client import Student
from conftest import SURVEY_DB_DIR
from lessons.catalogue import LESSONS

FORGERIES: dict[str, list[dict]] = {
    "slider": [{"double_array_value": [1e308]}, {"string_array_value": ["forged"]}],
    "button": [{"trigger_value": True}],
    "radio": [{"string_value": "99"}],
    "selectbox": [{"string_value": "no such option"}],
    "number_input": [{"double_value": 1e308}, {"int_value": 10**15}],
    "checkbox": [{"bool_value": True}],
    "multiselect": [{"string_array_value": ["no such lesson", "../../etc"]}],
    "text_input": [{"string_value": "x" * 100_000}],
    "text_area": [{"string_value": "x\n" * 50_000}],
    "button_group": [{"string_array_value": ["no such option"]}, {"string_array_value": []}],
}
REDACTED = "This app has encountered an error. The original error message is redacted"


def _state(widget_id: str, fields: dict) -> WidgetState:
    state = WidgetState(id=widget_id)
    for name, value in fields.items():
        if name.endswith("_array_value"):
            getattr(state, name).data.extend(value)
        else:
            setattr(state, name, value)
    return state


async def _forge_every_widget(base_url: str, page: str, query: str) -> tuple[set, list[str]]:
    """(the widget kinds forged, every exception text the browser received)."""
    student = Student(base_url, page, query, timeout_s=60)
    seen: list[str] = []
    kinds: set[str] = set()
    try:
        opened = await student.open()
        seen += opened.exceptions
        for widget in list(student.widgets.values()):
            for fields in FORGERIES.get(widget.kind, []):
                kinds.add(widget.kind)
                # a whole-page rerun: a fragment's id may be gone once a forged run stopped
                # the page early, and a rerun of a gone fragment is silently dropped
                run = await student.rerun(_state(widget.id, fields))
                seen += run.exceptions
    finally:
        await student.close()
    return kinds, seen


def forge(base_url: str, page: str, query: str = "") -> tuple[set, list[str]]:
    with ThreadPoolExecutor(1) as pool:  # its own event loop, beside pytest-playwright's
        return pool.submit(asyncio.run, _forge_every_widget(base_url, page, query)).result()


@pytest.fixture(scope="module")
def running_quiz_and_survey() -> tuple[str, str]:
    store = survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    quizzes = survey.QuizStore(store)
    question = survey.QuizQuestion("Which?", ("a", "b", "c"), 1, "b.")
    quiz = quizzes.create_quiz("Forged", [question])
    quizzes.show(quiz.quiz.id, quiz.admin_key, 0)
    poll = store.create_survey("Did you?", survey.two_coins())
    return quiz.quiz.code, poll.survey.code


@pytest.fixture(scope="module")
def running_heist_and_game() -> dict[str, str]:
    """A heist open for answers, one under attack (a target picked) and a game on its first
    round: their codes, and the private links' queries of the last two."""
    store = survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}")
    heists = survey.HeistStore(store)
    heist = heists.create_heist("Forged", "Row", 5, "Month", 12)
    attacked = heists.create_heist("Attacked", "Row", 5, "Month", 12)
    for i in range(8):
        heists.submit(attacked.heist.id, survey.new_session_token(), 1 + i, 1 + i % 5, 1 + i)
    heists.pick_target(attacked.heist.id, attacked.admin_key)
    games = survey.GameStore(store)
    game = games.create_game("Forged", 1.0, 10)
    games.next_round(game.game.id, game.admin_key)
    return {
        "heist": heist.heist.code,
        "attack": f"manage={attacked.heist.code}&key={attacked.admin_key}",
        "game": game.game.code,
        "projector": f"manage={game.game.code}&key={game.admin_key}",
    }


def test_the_heist_and_the_game_read_only_valid_values(
    app_server: str, running_heist_and_game: dict[str, str]
) -> None:
    """The heist's answer form (select boxes, a checkbox, a form button), its projector
    under attack (ε, the budget, a query of one's own) and the game's guess buttons and
    projector, fed every forged value: never an exception."""
    running = running_heist_and_game
    kinds: set[str] = set()
    for page, query in [
        ("class-heist", ""),
        ("class-heist", f"join={running['heist']}"),
        ("class-heist", running["attack"]),
        ("class-game", ""),
        ("class-game", f"join={running['game']}"),
        ("class-game", running["projector"]),
    ]:
        forged, exceptions = forge(app_server, page, query)
        kinds |= forged
        assert exceptions == [], (page, query, exceptions)
    assert {"selectbox", "checkbox", "button", "text_input", "number_input", "radio"} <= kinds
    assert "button_group" in kinds  # the heist's ε, the game's ε and rounds


def test_the_classroom_pages_and_home_read_only_valid_values(
    app_server: str, running_quiz_and_survey: tuple[str, str]
) -> None:
    quiz_code, survey_code = running_quiz_and_survey
    kinds: set[str] = set()
    for page, query in [
        ("class-quiz", ""),
        ("class-quiz", f"join={quiz_code}"),
        ("class-survey", ""),
        ("class-survey", f"join={survey_code}"),
        ("", ""),
    ]:
        forged, exceptions = forge(app_server, page, query)
        kinds |= forged
        assert exceptions == [], (page, query, exceptions)
    # every kind these pages have was forged (the quiz builder alone has most of them)
    assert {"multiselect", "radio", "checkbox", "button", "text_input", "text_area"} <= kinds
    assert "number_input" in kinds


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.folder for lesson in LESSONS])
def test_no_exception_detail_reaches_a_browser(app_server: str, lesson) -> None:
    _, exceptions = forge(app_server, lesson.url_path)
    for shown in exceptions:
        kind, _, message = shown.partition(": ")
        assert kind == "" and message.startswith(REDACTED), shown
        assert ".py" not in shown and "Traceback" not in shown and "line " not in shown


def test_the_server_config_keeps_error_details_out_of_every_browser() -> None:
    """What makes the redaction above hold for every page, present and future."""
    import tomllib

    from conftest import ROOT

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"
