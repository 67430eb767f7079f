"""The guessing game's region chart at every ε a lecturer can pick, on the projector
(1280×720, presenter mode) and a phone-sized window (390×844): no text of the chart is
written over another or crossed by one of its lines. Finding: the words that say which line
is which ("dashed: the promised ε's edge", "red dots: the proven ε's edge") stood at fixed
places above the diagonal, where the promised edge runs at ε = 0.5 and 1, so that edge was
drawn through them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from playwright.sync_api import Page

import survey
from browser_helpers import (
    PHONE,
    PROJECTOR,
    assert_no_exception,
    chart_text_problems,
    lesson_url,
    open_page,
)
from conftest import SURVEY_DB_DIR
from lessons.class_game import model

URL_PATH = lesson_url("class_game/page.py")
ROUNDS = 10
DRAWN = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg')]
  .some((svg) => svg.textContent.includes("a coin"))"""


def finished_game(epsilon: float) -> tuple[str, str]:
    """A game of 10 rounds at `epsilon` that a room of three always guessed right: every line
    of the chart is drawn (the proven edge too, where the room proved anything)."""
    games = survey.GameStore(survey.SurveyStore(f"sqlite:///{SURVEY_DB_DIR / 'survey.sqlite3'}"))
    made = games.create_game("The ε guessing game", epsilon, ROUNDS, rng=np.random.default_rng(5))
    game_id, key = made.game.id, made.admin_key
    for position in range(ROUNDS):
        drawn = games.next_round(game_id, key, rng=np.random.default_rng(position))
        for _ in range(3):
            games.submit(game_id, position, survey.new_session_token(), drawn.with_record)
        games.reveal(game_id, key)
    games.next_round(game_id, key)  # the summary
    return made.game.code, key


@pytest.mark.parametrize("screen", ["presenter", "phone"])
def test_no_text_of_the_region_chart_is_crossed_at_any_epsilon(
    another_device: Callable[..., Page], app_server: str, screen: str
) -> None:
    page = another_device(viewport=PROJECTOR if screen == "presenter" else PHONE)
    found = []
    for epsilon in model.EPSILONS:
        code, key = finished_game(epsilon)
        query = "&present=true" if screen == "presenter" else ""
        open_page(page, app_server, f"{URL_PATH}?manage={code}&key={key}{query}")
        page.wait_for_function(DRAWN)
        found += [f"ε = {epsilon}: {problem}" for problem in chart_text_problems(page)]
        assert_no_exception(page)
    assert not found, "\n".join(found)
